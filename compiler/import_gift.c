/* import_gift.c - Moodle's GIFT format (docs.moodle.org, "GIFT format").
 *
 * Read as Moodle's importer (question/format/gift/format.php) reads it.
 * Questions are separated by blank lines; '//' lines are comments, also
 * inside a question (they do not end it);
 * '$CATEGORY: path' sets the category (a tag) of the questions after it.
 * A question is '::title::' (optional), an optional '[html]',
 * '[markdown]', '[plain]' or '[moodle]' format, its text and an answer
 * block '{...}'; text after the block makes it a missing-word question
 * (qbc's cloze).  In the block: 'T'/'TRUE'/'F'/'FALSE' with '#wrong'
 * '#right' feedback (true-false), '=right ~wrong' with '#feedback' and
 * '%50%' weights (single choice; multiple when only '~' with weights),
 * '=a =b' (short answer), '=left -> right' (matching: no '~' and every
 * answer a pair; a '->' in a choice is text), '~=x' (the right answer x:
 * Moodle skips the empty answer before '='), '#value:tol', '#lo..hi' and
 * '#=v =%50%w#fb ~#wrong' (numeric: further answers with their credit,
 * the feedback for any other number), '####general feedback' (the explanation), and
 * nothing (essay: skipped).  A text without an answer block is a
 * description: the passage of the questions after it, until the next
 * description or '$CATEGORY'.  A malformed question (an unclosed '{' or
 * title, a bad number, a block without answers) is a located error.  '\~ \= \# \{ \} \: \\' and '\n' escape.
 * Every text is located at its place in the file.  A bilingual course's
 * texts (Moodle's {mlang xx}...{mlang} blocks and multilang spans, with
 * GIFT's escapes as Moodle exports them, or '{mlang}' unescaped) become
 * one text per language (qb_imp_ml_split() in import.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "diag.h"
#include "import.h"
#include "utf8.h"


typedef struct gift {
	qb_imp *im;
	const char *data; /* the whole file: positions are offsets into it */
	size_t len;
	qb_imp_format fmt; /* the question's text format                  */
	char *category;   /* the current $CATEGORY as a tag (heap)        */
	char qlangs[QB_IMP_MAX_LANGS][QB_IMP_LANG_LEN]; /* the question's languages */
	size_t nqlangs;
} gift;

static qb_loc at(const gift *g, size_t off)
{
	return qb_imp_at(g->im, g->data, off);
}

static bool escaped(const char *s, size_t i, size_t start)
{
	size_t n = 0;
	while (i > start && s[i - 1] == '\\') {
		n++;
		i--;
	}
	return n % 2 == 1;
}

/* The first unescaped c in [a, b), or b. */
static size_t find(const gift *g, size_t a, size_t b, char c)
{
	for (size_t i = a; i < b; i++)
		if (g->data[i] == c && !escaped(g->data, i, a))
			return i;
	return b;
}

/* The length of an unescaped '{mlang xx}' or '{mlang}' at i, or 0: a
 * mark of Moodle's multi-language blocks, text, not an answer block. */
static size_t mlang_at(const gift *g, size_t i, size_t b)
{
	const char *s = g->data + i;
	if (b - i < 7 || strncmp(s, "{mlang", 6) != 0 || (s[6] != ' ' && s[6] != '}'))
		return 0;
	size_t k = i + 6;
	while (k < b && g->data[k] != '}' && g->data[k] != '\n' && k - i < 7 + QB_IMP_LANG_LEN)
		k++;
	return k < b && g->data[k] == '}' ? k + 1 - i : 0;
}

/* The first unescaped brace c in [a, b) outside {mlang} marks, or b. */
static size_t find_brace(const gift *g, size_t a, size_t b, char c)
{
	for (size_t i = a; i < b; i++) {
		if (escaped(g->data, i, a))
			continue;
		size_t m = g->data[i] == '{' ? mlang_at(g, i, b) : 0;
		if (m)
			i += m - 1;
		else if (g->data[i] == c)
			return i;
	}
	return b;
}

/* [a, b) trimmed of white space. */
static void trim(const gift *g, size_t *a, size_t *b)
{
	while (*a < *b && strchr(" \t\r\n", g->data[*a]))
		(*a)++;
	while (*b > *a && strchr(" \t\r\n", g->data[*b - 1]))
		(*b)--;
}

/* The text [a, b) with GIFT's escapes undone (heap). */
static char *unescape(const gift *g, size_t a, size_t b)
{
	trim(g, &a, &b);
	qb_buf t = QB_BUF_INIT;
	for (size_t i = a; i < b; i++) {
		char c = g->data[i];
		if (c == '\\' && i + 1 < b) {
			char n = g->data[++i];
			if (n == 'n')
				qb_buf_putc(&t, '\n');
			else if (strchr("~=#{}:\\", n))
				qb_buf_putc(&t, n);
			else {
				qb_buf_putc(&t, '\\');
				qb_buf_putc(&t, n);
			}
		} else if (c == '\n') {
			/* a '//' comment line, blanked, is no line of the text (a
			 * block has no blank line of its own) */
			size_t k = i + 1;
			while (k < b && (g->data[k] == ' ' || g->data[k] == '\t' || g->data[k] == '\r'))
				k++;
			if (k < b && g->data[k] == '\n')
				i = k - 1;
			else
				qb_buf_putc(&t, c);
		} else if (c != '\r')
			qb_buf_putc(&t, c);
	}
	return t.ptr ? qb_buf_detach(&t) : qb_xstrdup("");
}

static void html_lost(void *payload, const char *what)
{
	const qb_loc *loc = ((void **)payload)[1];
	qb_imp_lost(((void **)payload)[0], *loc, "not carried: %s", what);
}

/* How a text becomes Markdown: in the question's format, as it is (a
 * short answer), or with Markdown's marks escaped (a matching right side). */
typedef enum { AS_FORMAT, AS_IS, AS_ESCAPED } as;

struct conv {
	gift *g;
	qb_loc loc;
	as how;
};

/* A picture's or sound's path: a data: URL's into media/; Moodle's file
 * store, which a GIFT file does not hold, a located warning (NULL). */
static const char *html_image(void *payload, const char *src)
{
	void **l = payload;
	if (strncmp(src, "data:", 5) == 0)
		return qb_imp_data_url(l[0], *(qb_loc *)l[1], src);
	if (strncmp(src, "@@PLUGINFILE@@", 14) == 0)
		qb_imp_lost(l[0], *(qb_loc *)l[1], "the file '%s' is in Moodle's file store "
		            "(@@PLUGINFILE@@), which a GIFT file does not hold: not carried", src);
	return NULL;
}

static void conv_md(void *payload, qb_buf *out, const char *s)
{
	struct conv *c = payload;
	void *lost[2] = {c->g->im, &c->loc};
	qb_html_md_cb cb = {html_lost, html_image, lost};
	if (c->how == AS_IS)
		qb_buf_puts(out, s);
	else if (c->how == AS_ESCAPED)
		qb_imp_md_escape(out, s, strlen(s));
	else
		qb_imp_text_md(out, s, c->g->fmt, &cb);
}

/* ml from [a, b): one Markdown text per language of Moodle's {mlang xx}
 * blocks and multilang spans (after GIFT's escapes are undone, as Moodle
 * writes them '\{mlang en\}'), text outside them every language's. */
static void ml_of(gift *g, qb_imp_ml *ml, size_t a, size_t b, as how)
{
	char *s = unescape(g, a, b);
	struct conv c = {g, at(g, a), how};
	qb_imp_ml_split(ml, s, g->qlangs, g->nqlangs, conv_md, &c);
	free(s);
}

static void set_md(gift *g, qb_text *t, size_t a, size_t b)
{
	qb_imp_ml ml = {0};
	ml_of(g, &ml, a, b, AS_FORMAT);
	if (ml.n)
		qb_imp_text(g->im, t, at(g, a), &ml);
	qb_imp_ml_dispose(&ml);
}

/* The text of lang in ml (else its untagged one), or "". */
static const char *pick(const qb_imp_ml *ml, const char *lang)
{
	const char *any = "";
	for (size_t i = 0; i < ml->n; i++)
		if (strcmp(ml->lang[i], lang) == 0)
			return ml->text[i];
		else if (!*ml->lang[i])
			any = ml->text[i];
	return any;
}

/* The languages of the texts in mls[0..n) (untagged: ""), into ml's
 * languages with empty texts. */
static void langs_in(qb_imp_ml *out, const qb_imp_ml *mls, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < mls[k].n; i++)
			qb_imp_ml_set(out, mls[k].lang[i], "", 0);
	if (out->n > 1)
		for (size_t i = 0; i < out->n; i++)
			if (!*out->lang[i]) { /* untagged text shows in every language */
				free(out->lang[i]);
				free(out->text[i]);
				memmove(out->lang + i, out->lang + i + 1, (out->n - i - 1) * sizeof *out->lang);
				memmove(out->text + i, out->text + i + 1, (out->n - i - 1) * sizeof *out->text);
				out->n--;
				break;
			}
}

/* ---- the answer block ---- */

typedef struct item {
	size_t start;       /* the mark '=' or '~'                         */
	size_t text, tend;  /* the answer                                 */
	size_t fb, fend;    /* its '#feedback' (fb == fend: none)         */
	double weight;      /* percent: 100 for '=', 0 for '~', or '%n%'  */
	bool right;         /* marked '='                                 */
	bool weighted;
} item;

/* Splits the block [a, b) into items at unescaped '=' and '~'; the
 * general feedback after '####' is [*gf, b). */
static size_t items(gift *g, size_t a, size_t b, item *out, size_t max, size_t *gf)
{
	size_t n = 0;
	*gf = b;
	for (size_t i = a; i + 3 < b; i++)
		if (!escaped(g->data, i, a) && strncmp(g->data + i, "####", 4) == 0) {
			*gf = i;
			break;
		}
	size_t end = *gf;
	for (size_t i = a; i < end; i++) {
		char c = g->data[i];
		if ((c != '=' && c != '~') || escaped(g->data, i, a))
			continue;
		/* '=' inside 'a -> b' pairs is the mark only at an item start */
		if (n == max)
			break;
		item *it = &out[n++];
		*it = (item){.start = i, .right = c == '=', .weight = c == '=' ? 100 : 0};
		size_t t = i + 1;
		if (t < end && g->data[t] == '%') {
			size_t close = find(g, t + 1, end, '%');
			if (close < end) {
				it->weight = qb_imp_strtod(g->data + t + 1, NULL);
				it->weighted = true;
				t = close + 1;
			}
		}
		it->text = t;
		size_t next = end;
		for (size_t k = t; k < end; k++)
			if ((g->data[k] == '=' || g->data[k] == '~') && !escaped(g->data, k, a) &&
			    !(g->data[k] == '=' && k + 1 < end && g->data[k + 1] == '>')) {
				next = k;
				break;
			}
		size_t hash = find(g, t, next, '#');
		it->tend = hash;
		it->fb = hash < next ? hash + 1 : next;
		it->fend = next;
		i = next - 1;
	}
	return n;
}

static bool has_arrow(const gift *g, const item *it, size_t *arrow)
{
	for (size_t k = it->text; k + 1 < it->tend; k++)
		if (g->data[k] == '-' && g->data[k + 1] == '>' && !escaped(g->data, k, it->text)) {
			*arrow = k;
			return true;
		}
	return false;
}

/* it[0..n) without the answers that have no text (Moodle's '~=x' is a
 * '~' with nothing, then '=x'); a dropped answer's feedback is named. */
static size_t drop_empty(gift *g, item *it, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t a = it[i].text, b = it[i].tend;
		trim(g, &a, &b);
		if (a < b) {
			it[k++] = it[i];
			continue;
		}
		size_t fa = it[i].fb, fe = it[i].fend;
		trim(g, &fa, &fe);
		if (fa < fe)
			qb_imp_lost(g->im, at(g, it[i].start), "an answer without text is skipped, and "
			            "its feedback with it, as Moodle does");
	}
	return k;
}

static bool is_word(const gift *g, size_t a, size_t b, const char *w)
{
	return b - a == strlen(w) && strncasecmp(g->data + a, w, b - a) == 0;
}

static void feedback(gift *g, qb_text *t, const item *it)
{
	size_t a = it->fb, b = it->fend;
	trim(g, &a, &b);
	if (a < b)
		set_md(g, t, a, b);
}

/* A number of GIFT's numeric answers: 'value:tol' or 'lo..hi'. */
static bool numeric(gift *g, size_t a, size_t b, qb_numeric *num)
{
	char *s = unescape(g, a, b);
	char *end;
	bool ok = false;
	const char *range = strstr(s, "..");
	const char *colon = strchr(s, ':');
	if (range) {
		s[range - s] = '\0';
		num->lo = qb_imp_strtod(s, &end);
		ok = end == range && end != s;
		num->hi = qb_imp_strtod(range + 2, &end);
		ok = ok && !*end && num->lo <= num->hi;
		num->range = true;
		num->value = num->lo / 2 + num->hi / 2; /* no overflow near the ends */
		num->tol = num->hi / 2 - num->lo / 2;
	} else {
		num->value = qb_imp_strtod(s, &end);
		ok = end != s && (colon ? end == colon : !*end);
		if (colon) {
			num->tol = qb_imp_strtod(colon + 1, &end);
			ok = ok && !*end && end != colon + 1;
			if (num->tol < 0)
				num->tol = -num->tol;
		}
		num->lo = num->value - num->tol;
		num->hi = num->value + num->tol;
	}
	free(s);
	return ok;
}

/* A numeric block [a, b) ('#' first) as Moodle reads it: what follows
 * the first '~' is the feedback for any other answer ('~#Completely
 * wrong'); the rest, split at '=', the answers, each '%credit%' (100 when
 * not written), 'value', 'value:tol' or 'lo..hi' and '#feedback'.  The
 * first full-mark answer is the question's, the others further answers
 * with their credit.  *gf the general feedback's '####' (or b).  NULL
 * after a located error. */
static qb_question *numeric_question(gift *g, qb_loc loc, size_t a, size_t b, size_t qa,
                                     size_t qe, size_t *gf)
{
	qb_imp *im = g->im;
	*gf = b;
	for (size_t i = a; i + 3 < b; i++)
		if (!escaped(g->data, i, a) && strncmp(g->data + i, "####", 4) == 0) {
			*gf = i;
			break;
		}
	size_t tilde = find(g, a + 1, *gf, '~');
	struct { size_t a, e, fb, fe; double w; qb_numeric num; } ans[64];
	size_t n = 0, best = 0;
	for (size_t p = a + 1; p <= tilde && n < QB_NELEM(ans);) {
		size_t e = find(g, p, tilde, '='), pa = p, pe = e;
		p = e + 1;
		trim(g, &pa, &pe);
		if (pa == pe) /* before the first '=', or nothing */
			continue;
		double w = 100;
		if (pa < pe && g->data[pa] == '%') {
			size_t close = find(g, pa + 1, pe, '%');
			if (close < pe) {
				w = qb_imp_strtod(g->data + pa + 1, NULL);
				pa = close + 1;
			}
		}
		size_t hash = find(g, pa, pe, '#');
		ans[n].a = pa;
		ans[n].e = hash;
		ans[n].fb = hash < pe ? hash + 1 : pe;
		ans[n].fe = pe;
		ans[n].w = w < 0 ? 0 : w > 100 ? 100 : w;
		ans[n].num = (qb_numeric){0};
		if (!numeric(g, pa, hash, &ans[n].num)) {
			qb_diag_error(at(g, pa), "a GIFT number is 'value', 'value:tolerance' or "
			              "'low..high', as in {#3.14:0.01}");
			return NULL;
		}
		ans[n].num.loc = at(g, pa);
		if (qb_numeric_too_large(&ans[n].num, ans[n].num.loc, g->data + pa, hash - pa))
			return NULL;
		if (w < 0)
			qb_imp_lost(im, at(g, pa), "the partial credit of this question's answers is not "
			            "carried: qbc counts an answer right or wrong");
		if (ans[n].w > ans[best].w)
			best = n;
		n++;
	}
	if (!n) {
		qb_diag_error(at(g, a), "a GIFT number is 'value', 'value:tolerance' or "
		              "'low..high', as in {#3.14:0.01}");
		return NULL;
	}
	if (ans[best].w < 100)
		qb_imp_lost(im, at(g, ans[best].a), "this numeric question's best answer is worth "
		            "%g%% in the source; qbc gives it full marks", ans[best].w);
	qb_question *q = qb_imp_question(im, QB_QTYPE_NUMERIC, loc);
	qb_rare *rare = qb_question_rare_w(&im->bank->arena, q);
	qb_numeric *num = qb_arena_alloc(&im->bank->arena, sizeof *num);
	*num = ans[best].num;
	rare->num = num;
	rare->answer_loc = num->loc;
	set_md(g, &q->prompt, qa, qe);
	qb_num_more **tail = &rare->num_more;
	for (size_t i = 0; i < n; i++) {
		size_t fa = ans[i].fb, fe = ans[i].fe;
		trim(g, &fa, &fe);
		if (i == best) {
			if (fa < fe)
				qb_imp_lost(im, at(g, fa), "the feedback of a numeric answer is not carried: "
				            "qbc shows the explanation");
			continue;
		}
		qb_num_more *m = qb_arena_alloc(&im->bank->arena, sizeof *m);
		*m = (qb_num_more){.num = ans[i].num, .credit = ans[i].w, .loc = ans[i].num.loc};
		if (fa < fe)
			set_md(g, &m->feedback, fa, fe);
		*tail = m;
		tail = &m->next;
	}
	if (tilde < *gf) { /* Moodle's answer '*' with 0%: any other number */
		size_t fa = find(g, tilde + 1, *gf, '#'), fe = *gf;
		size_t wa = tilde + 1, we = fa;
		trim(g, &wa, &we);
		fa = fa < fe ? fa + 1 : fe;
		trim(g, &fa, &fe);
		if (fa < fe)
			set_md(g, &rare->feedback_wrong, fa, fe);
		if (wa < we)
			qb_imp_lost(im, at(g, wa), "the text of a wrong numeric answer ('~') is not "
			            "carried: Moodle reads only its feedback");
	}
	return &im->qs[im->nqs - 1];
}

/* One question: [qa, qe) the text before the block, [ba, be) inside the
 * braces, [ta, te) the text after them; name its title. */
static void question(gift *g, size_t start, const char *name, size_t qa, size_t qe, size_t ba,
                     size_t be, size_t ta, size_t te)
{
	qb_imp *im = g->im;
	qb_loc loc = at(g, start);
	size_t a = ba, b = be;
	trim(g, &a, &b);
	item it[64];
	size_t gf;
	/* '{}' or '{####general feedback}': Moodle's essay */
	if (a == b || (b - a >= 4 && strncmp(g->data + a, "####", 4) == 0)) {
		qb_imp_skip(im, loc, name, "an essay question ('{}') has no answer to check");
		return;
	}
	bool missing_word = ta < te;
	qb_question *q = NULL;
	/* the languages of the question's text: a text of the question
	 * without {mlang} blocks or spans is each of theirs */
	{
		qb_buf s = QB_BUF_INIT;
		char *p = unescape(g, qa, qe), *t = unescape(g, ta, te);
		qb_buf_appendf(&s, "%s %s", p, t);
		g->nqlangs = qb_imp_langs_of(qb_buf_cstr(&s), g->qlangs, QB_IMP_MAX_LANGS);
		free(p);
		free(t);
		qb_buf_dispose(&s);
	}
	if (g->data[a] == '#' && !(b - a >= 4 && strncmp(g->data + a, "####", 4) == 0)) {
		q = numeric_question(g, loc, a, b, qa, qe, &gf);
		if (!q)
			return;
	} else {
		size_t tfend = find(g, a, b, '#');
		size_t wa = a, wb = tfend;
		trim(g, &wa, &wb);
		bool t = is_word(g, wa, wb, "T") || is_word(g, wa, wb, "TRUE");
		bool f = is_word(g, wa, wb, "F") || is_word(g, wa, wb, "FALSE");
		if (t || f) {
			/* {TRUE#feedback if answered wrong#feedback if right####general} */
			gf = b;
			for (size_t i = a; i + 3 < b; i++)
				if (strncmp(g->data + i, "####", 4) == 0) {
					gf = i;
					break;
				}
			size_t f1 = tfend < gf ? tfend + 1 : gf;
			size_t f1e = find(g, f1, gf, '#');
			size_t f2 = f1e < gf ? f1e + 1 : gf;
			qb_imp_ml wrong = {0}, right = {0};
			if (f1 < f1e)
				ml_of(g, &wrong, f1, f1e, AS_FORMAT);
			if (f2 < gf)
				ml_of(g, &right, f2, gf, AS_FORMAT);
			q = qb_imp_question(im, QB_QTYPE_TRUE_FALSE, loc);
			set_md(g, &q->prompt, qa, qe);
			/* feedback-true is shown to whoever answers true */
			qb_imp_truefalse(im, t, t ? &right : &wrong, t ? &wrong : &right, at(g, wa));
			qb_imp_ml_dispose(&wrong);
			qb_imp_ml_dispose(&right);
			q = &im->qs[im->nqs - 1];
		} else {
			size_t n = items(g, a, b, it, QB_NELEM(it), &gf);
			if (!n) {
				qb_diag_error(at(g, a), "this answer block has no answers: mark each with '=' "
				              "(right) or '~' (wrong)");
				return;
			}
			size_t nright = 0, ntilde = 0, narrow = 0, arrow = 0;
			bool weights = false;
			for (size_t i = 0; i < n; i++) {
				nright += it[i].right;
				ntilde += !it[i].right;
				narrow += has_arrow(g, &it[i], &arrow);
				if (it[i].weighted && it[i].weight > 0 && it[i].weight < 100)
					weights = true;
			}
			/* Moodle's rule: a '~' anywhere makes a choice question;
			 * '->' makes matching only without one, and then every
			 * answer is a pair */
			if (narrow && !ntilde && narrow < n) {
				for (size_t i = 0; i < n; i++)
					if (!has_arrow(g, &it[i], &arrow)) {
						qb_diag_error(at(g, it[i].start), "this answer of a matching "
						              "question is not a pair 'left -> right'");
						break;
					}
				return;
			}
			if (ntilde) /* choices: Moodle skips an empty answer ('~=right') */
				n = drop_empty(g, it, n);
			qb_qtype type;
			if (narrow && !ntilde)
				type = QB_QTYPE_MATCHING;
			else if (!ntilde)
				type = QB_QTYPE_SHORT;
			else if (nright == 1)
				type = QB_QTYPE_SINGLE;
			else
				type = QB_QTYPE_MULTIPLE;
			if (missing_word && (type == QB_QTYPE_SINGLE || type == QB_QTYPE_SHORT)) {
				/* the text around the block, the block a gap: per
				 * language, from each part's text in it */
				qb_imp_ml *parts = qb_xcalloc(2 + n, sizeof *parts), ml = {0};
				ml_of(g, &parts[0], qa, qe, AS_FORMAT);
				ml_of(g, &parts[1], ta, te, AS_FORMAT);
				for (size_t i = 0; i < n; i++) {
					ml_of(g, &parts[2 + i], it[i].text, it[i].tend, AS_IS);
					if (it[i].fb < it[i].fend)
						qb_imp_lost(im, at(g, it[i].fb), "the feedback of a gap's answer is "
						            "not carried: qbc's gaps have none");
				}
				langs_in(&ml, parts, 2 + n);
				if (!ml.n)
					qb_imp_ml_set(&ml, "", "", 0);
				for (size_t l = 0; l < ml.n; l++) {
					qb_buf md = QB_BUF_INIT;
					qb_buf_appendf(&md, "%s {{", pick(&parts[0], ml.lang[l]));
					for (size_t i = 0; i < n; i++) {
						const char *s = pick(&parts[2 + i], ml.lang[l]);
						if (type == QB_QTYPE_SHORT)
							qb_buf_appendf(&md, "%s%s", i ? "|" : "", s);
						else
							qb_buf_appendf(&md, "%s%c%s", i ? " " : "",
							               it[i].right ? '=' : '~', s);
					}
					qb_buf_appendf(&md, "}} %s", pick(&parts[1], ml.lang[l]));
					qb_imp_ml_set(&ml, ml.lang[l], md.ptr, md.len);
					qb_buf_dispose(&md);
				}
				q = qb_imp_question(im, QB_QTYPE_CLOZE, loc);
				q->scoring = QB_SCORING_PARTIAL;
				qb_imp_text(im, &q->prompt, at(g, qa), &ml);
				qb_imp_ml_dispose(&ml);
				for (size_t i = 0; i < 2 + n; i++)
					qb_imp_ml_dispose(&parts[i]);
				free(parts);
			} else {
				if (missing_word)
					qb_imp_lost(im, at(g, ta), "the text after the answers is put after the "
					            "question: only a choice or a typed answer can be a gap");
				q = qb_imp_question(im, type, loc);
				qb_imp_ml parts[2], ml = {0};
				memset(parts, 0, sizeof parts);
				ml_of(g, &parts[0], qa, qe, AS_FORMAT);
				if (missing_word)
					ml_of(g, &parts[1], ta, te, AS_FORMAT);
				langs_in(&ml, parts, 2);
				for (size_t l = 0; l < ml.n; l++) {
					qb_buf md = QB_BUF_INIT;
					qb_buf_puts(&md, pick(&parts[0], ml.lang[l]));
					if (missing_word)
						qb_buf_appendf(&md, " _____ %s", pick(&parts[1], ml.lang[l]));
					qb_imp_ml_set(&ml, ml.lang[l], md.ptr, md.len);
					qb_buf_dispose(&md);
				}
				if (ml.n)
					qb_imp_text(im, &q->prompt, at(g, qa), &ml);
				qb_imp_ml_dispose(&ml);
				qb_imp_ml_dispose(&parts[0]);
				qb_imp_ml_dispose(&parts[1]);
				for (size_t i = 0; i < n; i++) {
					qb_choice *c = qb_imp_choice(im, at(g, it[i].start));
					if (type == QB_QTYPE_MATCHING) {
						has_arrow(g, &it[i], &arrow);
						size_t la = it[i].text, lb = arrow;
						trim(g, &la, &lb);
						if (la < lb)
							set_md(g, &c->text, la, lb);
						qb_text *m = qb_imp_match(im);
						qb_imp_ml r = {0};
						ml_of(g, &r, arrow + 2, it[i].tend, AS_ESCAPED);
						if (!r.n)
							qb_imp_ml_set(&r, "", "", 0);
						qb_imp_text(im, m, at(g, arrow + 2), &r);
						qb_imp_ml_dispose(&r);
						continue;
					}
					c->correct = type == QB_QTYPE_SINGLE ? it[i].right
					                                     : it[i].right || it[i].weight > 0;
					if (type == QB_QTYPE_SHORT && it[i].weighted && it[i].weight <= 0)
						c->correct = false;
					if (type == QB_QTYPE_SHORT) {
						qb_imp_ml r = {0};
						ml_of(g, &r, it[i].text, it[i].tend, AS_IS);
						if (!r.n)
							qb_imp_ml_set(&r, "", "", 0);
						qb_imp_text(im, &c->text, at(g, it[i].text), &r);
						qb_imp_ml_dispose(&r);
					} else
						set_md(g, &c->text, it[i].text, it[i].tend);
					feedback(g, &c->feedback, &it[i]);
				}
				q = &im->qs[im->nqs - 1];
				if (type == QB_QTYPE_SINGLE || type == QB_QTYPE_MULTIPLE) {
					/* '=' earns 100%, '~' 0%, '%n%' n% (issue 36) */
					double pct[QB_NELEM(it)];
					double left = 100;
					size_t nfree = 0;
					for (size_t i = 0; i < n; i++) {
						pct[i] = it[i].right && !it[i].weighted ? 100 : it[i].weight;
						if (it[i].right && !it[i].weighted)
							nfree++;
						else if (pct[i] > 0)
							left -= pct[i];
					}
					/* several '=' of a multiple question share the mark */
					for (size_t i = 0; type == QB_QTYPE_MULTIPLE && i < n; i++)
						if (it[i].right && !it[i].weighted)
							pct[i] = left / (double)nfree;
					qb_imp_marks(im, q, pct, loc);
				}
				if (type == QB_QTYPE_MATCHING)
					q->scoring = QB_SCORING_PARTIAL;
				if (weights && type == QB_QTYPE_SHORT)
					qb_imp_lost(im, loc, "the partial credit of this question's answers is not "
					            "carried: qbc counts an answer right or wrong");
			}
		}
	}
	q = &im->qs[im->nqs - 1];
	if (gf + 4 <= b) {
		size_t fa = gf + 4, fb = b;
		trim(g, &fa, &fb);
		if (fa < fb)
			set_md(g, &q->explanation, fa, fb);
	}
	if (g->category)
		qb_imp_in_category(im, loc, g->category);
	qb_imp_id(im, NULL, name);
}

/* s (heap) as the first of its languages sees it, when it has {mlang}
 * blocks or multilang spans (a question's name, for its id). */
static char *first_lang(char *s)
{
	char lang[1][QB_IMP_LANG_LEN];
	if (!qb_imp_langs_of(s, lang, 1))
		return s;
	qb_buf b = QB_BUF_INIT;
	qb_imp_project(&b, s, lang[0]);
	free(s);
	return b.ptr ? qb_buf_detach(&b) : qb_xstrdup("");
}

/* A text without an answer block [a, b): Moodle's description, the
 * passage of the questions that follow it (until the next description or
 * $CATEGORY), named by its title when it has one. */
static void passage(gift *g, const char *name, size_t a, size_t b)
{
	char *s = unescape(g, a, b);
	g->nqlangs = qb_imp_langs_of(s, g->qlangs, QB_IMP_MAX_LANGS);
	free(s);
	qb_imp_ml ml = {0};
	ml_of(g, &ml, a, b, AS_FORMAT);
	if (ml.n)
		qb_imp_passage(g->im, at(g, a), &ml, NULL, name);
	qb_imp_ml_dispose(&ml);
}

/* One block of lines [a, b) (comments blanked). */
static void block(gift *g, size_t a, size_t b)
{
	trim(g, &a, &b);
	if (a == b)
		return;
	size_t start = a;
	if (b - a > 10 && strncmp(g->data + a, "$CATEGORY:", 10) == 0) {
		size_t e = a;
		while (e < b && g->data[e] != '\n')
			e++;
		char *path = unescape(g, a + 10, e);
		free(g->category);
		g->category = qb_imp_category(path);
		qb_imp_passage_end(g->im); /* a passage's questions are in its category */
		free(path);
		a = e;
		trim(g, &a, &b);
		if (a == b)
			return;
		start = a;
	}
	char *name = NULL;
	if (b - a > 2 && strncmp(g->data + a, "::", 2) == 0) {
		size_t close = a + 2;
		while (close + 1 < b && !(g->data[close] == ':' && g->data[close + 1] == ':' &&
		                          !escaped(g->data, close, a)))
			close++;
		if (close + 1 >= b) {
			qb_diag_error(at(g, a), "this '::' title is not closed with '::'");
			return;
		}
		name = first_lang(unescape(g, a + 2, close));
		a = close + 2;
	}
	g->fmt = QB_IMP_AUTO;
	trim(g, &a, &b);
	static const struct { const char *tag; qb_imp_format f; } fmts[] = {
		{"[html]", QB_IMP_HTML}, {"[markdown]", QB_IMP_MARKDOWN}, {"[plain]", QB_IMP_PLAIN}, {"[moodle]", QB_IMP_AUTO}};
	for (size_t i = 0; i < QB_NELEM(fmts); i++)
		if ((size_t)(b - a) >= strlen(fmts[i].tag) &&
		    strncmp(g->data + a, fmts[i].tag, strlen(fmts[i].tag)) == 0) {
			g->fmt = fmts[i].f;
			a += strlen(fmts[i].tag);
		}
	size_t open = find_brace(g, a, b, '{');
	if (open == b) {
		passage(g, name, a, b);
		free(name);
		return;
	}
	size_t close = find_brace(g, open + 1, b, '}');
	if (close == b) {
		qb_diag_error(at(g, open), "this '{' has no closing '}'; write '\\{' for a brace in "
		              "the text");
		free(name);
		return;
	}
	if (!name) {
		char *t = first_lang(unescape(g, a, open));
		name = t;
	}
	question(g, start, name, a, open, open + 1, close, close + 1, b);
	free(name);
}

int qb_import_gift(qb_imp *im, const char *data, size_t len)
{
	qb_diag_mark m = qb_diag_mark_now();
	/* a copy with '//' comment lines blanked, positions unchanged */
	char *copy = qb_xstrndup(data, len);
	gift g = {.im = im, .data = copy, .len = len, .fmt = QB_IMP_AUTO};
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && copy[e] != '\n')
			e++;
		size_t s = i;
		while (s < e && (copy[s] == ' ' || copy[s] == '\t'))
			s++;
		if (e - s >= 2 && copy[s] == '/' && copy[s + 1] == '/')
			memset(copy + s, ' ', e - s);
		i = e + 1;
	}
	/* Moodle's multi-language blocks: the bank's languages in the order
	 * the questions have them, not --lang first */
	im->langs_in_order = strstr(copy, "{mlang") || strstr(copy, "multilang");
	/* questions are blocks of lines between blank lines (as Moodle reads
	 * them) */
	size_t a = 0;
	for (size_t i = 0; i <= len; i++) {
		bool blank = false;
		if (i < len && copy[i] == '\n') {
			size_t k = i + 1;
			while (k < len && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r'))
				k++;
			/* the original's lines: a comment line does not end a
			 * question (Moodle strips comment lines inside it) */
			blank = k >= len || data[k] == '\n';
		}
		if (i == len || blank) {
			block(&g, a, i);
			a = i + 1;
		}
	}
	free(g.category);
	free(copy);
	if (!im->nqs && !qb_diag_errors_since(m) && !im->counts.skipped)
		qb_diag_error(QB_LOC(im->file, 0, 0), "no GIFT question found");
	return qb_diag_errors_since(m) ? -1 : 0;
}
