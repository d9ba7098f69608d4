/* import_gift.c - Moodle's GIFT format (docs.moodle.org, "GIFT format").
 *
 * Questions are separated by blank lines; '//' lines are comments;
 * '$CATEGORY: path' sets the category (a tag) of the questions after it.
 * A question is '::title::' (optional), an optional '[html]',
 * '[markdown]', '[plain]' or '[moodle]' format, its text and an answer
 * block '{...}'; text after the block makes it a missing-word question
 * (qbc's cloze).  In the block: 'T'/'TRUE'/'F'/'FALSE' with '#wrong'
 * '#right' feedback (true-false), '=right ~wrong' with '#feedback' and
 * '%50%' weights (single choice; multiple when only '~' with weights),
 * '=a =b' (short answer), '=left -> right' (matching), '#value:tol',
 * '#lo..hi' (numeric), '####general feedback' (the explanation), and
 * nothing (essay: skipped).  A malformed question (an unclosed '{' or
 * title, a bad number, a block without answers) is a located error.  '\~ \= \# \{ \} \: \\' and '\n' escape.
 * Every text is located at its place in the file. */
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

/* The Markdown of [a, b) in the question's format. */
static void md_of(gift *g, qb_buf *out, size_t a, size_t b, bool plain)
{
	char *s = unescape(g, a, b);
	qb_loc loc = at(g, a);
	void *payload[2] = {g->im, &loc};
	qb_html_md_cb cb = {html_lost, NULL, payload};
	qb_imp_text_md(out, s, plain ? QB_IMP_PLAIN : g->fmt, &cb);
	free(s);
}

static void set_md(gift *g, qb_text *t, size_t a, size_t b, bool plain)
{
	qb_buf md = QB_BUF_INIT;
	md_of(g, &md, a, b, plain);
	if (md.len)
		qb_imp_text1(g->im, t, at(g, a), md.ptr);
	qb_buf_dispose(&md);
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
				it->weight = strtod(g->data + t + 1, NULL);
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

static bool is_word(const gift *g, size_t a, size_t b, const char *w)
{
	return b - a == strlen(w) && strncasecmp(g->data + a, w, b - a) == 0;
}

static void feedback(gift *g, qb_text *t, const item *it)
{
	size_t a = it->fb, b = it->fend;
	trim(g, &a, &b);
	if (a < b)
		set_md(g, t, a, b, false);
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
		num->lo = strtod(s, &end);
		ok = end == range && end != s;
		num->hi = strtod(range + 2, &end);
		ok = ok && !*end && num->lo <= num->hi;
		num->range = true;
		num->value = (num->lo + num->hi) / 2;
		num->tol = (num->hi - num->lo) / 2;
	} else {
		num->value = strtod(s, &end);
		ok = end != s && (colon ? end == colon : !*end);
		if (colon) {
			num->tol = strtod(colon + 1, &end);
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
	if (a == b) {
		qb_imp_skip(im, loc, name, "an essay question ('{}') has no answer to check");
		return;
	}
	bool missing_word = ta < te;
	qb_question *q = NULL;
	if (g->data[a] == '#' && !(b - a >= 4 && strncmp(g->data + a, "####", 4) == 0)) {
		/* numeric: '#value:tol', '#lo..hi', or '#=value:tol#fb ...' */
		size_t gfb = b;
		for (size_t i = a; i + 3 < b; i++)
			if (strncmp(g->data + i, "####", 4) == 0) {
				gfb = i;
				break;
			}
		size_t v = a + 1, vend;
		size_t n = items(g, v, gfb, it, QB_NELEM(it), &gf);
		qb_numeric *num = qb_arena_alloc(&im->bank->arena, sizeof *num);
		*num = (qb_numeric){0};
		if (n) {
			v = it[0].text;
			vend = it[0].tend;
			if (n > 1)
				qb_imp_lost(im, at(g, it[1].start), "the other answers of a numeric question "
				            "are not carried: qbc accepts one value and its tolerance");
		} else
			vend = find(g, v, gfb, '#');
		if (!numeric(g, v, vend, num)) {
			qb_diag_error(at(g, v), "a GIFT number is 'value', 'value:tolerance' or "
			              "'low..high', as in {#3.14:0.01}");
			return;
		}
		num->loc = at(g, v);
		q = qb_imp_question(im, QB_QTYPE_NUMERIC, loc);
		q->num = num;
		q->answer_loc = num->loc;
		set_md(g, &q->prompt, qa, qe, false);
		gf = gfb;
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
			qb_buf md = QB_BUF_INIT;
			if (f1 < f1e) {
				md_of(g, &md, f1, f1e, false);
				if (md.len)
					qb_imp_ml_set(&wrong, "", md.ptr, md.len);
			}
			qb_buf_clear(&md);
			if (f2 < gf) {
				md_of(g, &md, f2, gf, false);
				if (md.len)
					qb_imp_ml_set(&right, "", md.ptr, md.len);
			}
			qb_buf_dispose(&md);
			q = qb_imp_question(im, QB_QTYPE_TRUE_FALSE, loc);
			set_md(g, &q->prompt, qa, qe, false);
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
			size_t nright = 0, ntilde = 0, narrow = 0, arrow;
			bool weights = false;
			for (size_t i = 0; i < n; i++) {
				nright += it[i].right;
				ntilde += !it[i].right;
				narrow += has_arrow(g, &it[i], &arrow);
				if (it[i].weighted && it[i].weight > 0 && it[i].weight < 100)
					weights = true;
			}
			qb_qtype type;
			if (narrow)
				type = QB_QTYPE_MATCHING;
			else if (!ntilde)
				type = QB_QTYPE_SHORT;
			else if (nright == 1)
				type = QB_QTYPE_SINGLE;
			else
				type = QB_QTYPE_MULTIPLE;
			if (missing_word && (type == QB_QTYPE_SINGLE || type == QB_QTYPE_SHORT)) {
				/* the text around the block, the block a gap */
				qb_buf md = QB_BUF_INIT, gap = QB_BUF_INIT;
				md_of(g, &md, qa, qe, false);
				qb_buf_puts(&gap, " {{");
				for (size_t i = 0; i < n; i++) {
					char *s = unescape(g, it[i].text, it[i].tend);
					if (type == QB_QTYPE_SHORT)
						qb_buf_appendf(&gap, "%s%s", i ? "|" : "", s);
					else
						qb_buf_appendf(&gap, "%s%c%s", i ? " " : "", it[i].right ? '=' : '~', s);
					free(s);
					if (it[i].fb < it[i].fend)
						qb_imp_lost(im, at(g, it[i].fb), "the feedback of a gap's answer is "
						            "not carried: qbc's gaps have none");
				}
				qb_buf_puts(&gap, "}} ");
				qb_buf_puts(&md, gap.ptr);
				md_of(g, &md, ta, te, false);
				q = qb_imp_question(im, QB_QTYPE_CLOZE, loc);
				q->scoring = QB_SCORING_PARTIAL;
				qb_imp_text1(im, &q->prompt, at(g, qa), md.ptr);
				qb_buf_dispose(&md);
				qb_buf_dispose(&gap);
			} else {
				if (missing_word)
					qb_imp_lost(im, at(g, ta), "the text after the answers is put after the "
					            "question: only a choice or a typed answer can be a gap");
				q = qb_imp_question(im, type, loc);
				qb_buf md = QB_BUF_INIT;
				md_of(g, &md, qa, qe, false);
				if (missing_word) {
					qb_buf_puts(&md, " _____ ");
					md_of(g, &md, ta, te, false);
				}
				if (md.len)
					qb_imp_text1(im, &q->prompt, at(g, qa), md.ptr);
				qb_buf_dispose(&md);
				bool minus100 = false;
				for (size_t i = 0; i < n; i++) {
					qb_choice *c = qb_imp_choice(im, at(g, it[i].start));
					if (type == QB_QTYPE_MATCHING) {
						has_arrow(g, &it[i], &arrow);
						size_t la = it[i].text, lb = arrow;
						trim(g, &la, &lb);
						if (la < lb)
							set_md(g, &c->text, la, lb, false);
						qb_text *m = qb_imp_match(im);
						char *r = unescape(g, arrow + 2, it[i].tend);
						qb_imp_plain(im, m, at(g, arrow + 2), r);
						free(r);
						continue;
					}
					c->correct = type == QB_QTYPE_SINGLE ? it[i].right
					                                     : it[i].right || it[i].weight > 0;
					if (type == QB_QTYPE_SHORT && it[i].weighted && it[i].weight <= 0)
						c->correct = false;
					minus100 = minus100 || it[i].weight <= -100;
					if (type == QB_QTYPE_SHORT) {
						char *s = unescape(g, it[i].text, it[i].tend);
						qb_imp_text1(im, &c->text, at(g, it[i].text), s);
						free(s);
					} else
						set_md(g, &c->text, it[i].text, it[i].tend, false);
					feedback(g, &c->feedback, &it[i]);
				}
				q = &im->qs[im->nqs - 1];
				if (type == QB_QTYPE_MULTIPLE)
					q->scoring = minus100 ? QB_SCORING_ALL : QB_SCORING_PARTIAL;
				if (type == QB_QTYPE_MATCHING)
					q->scoring = QB_SCORING_PARTIAL;
				if (weights && type != QB_QTYPE_MULTIPLE)
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
			set_md(g, &q->explanation, fa, fb, false);
	}
	if (g->category)
		qb_imp_in_category(im, loc, g->category);
	qb_imp_id(im, NULL, name);
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
		name = unescape(g, a + 2, close);
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
	size_t open = find(g, a, b, '{');
	if (open == b) {
		char *text = name ? NULL : unescape(g, a, b);
		qb_imp_skip(g->im, at(g, start), name ? name : text, "a text without an answer block "
		            "'{...}' is a description, not a question");
		free(text);
		free(name);
		return;
	}
	size_t close = find(g, open + 1, b, '}');
	if (close == b) {
		qb_diag_error(at(g, open), "this '{' has no closing '}'; write '\\{' for a brace in "
		              "the text");
		free(name);
		return;
	}
	if (!name) {
		char *t = unescape(g, a, open);
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
	gift g = {im, copy, len, QB_IMP_AUTO, NULL};
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
	/* questions are blocks of lines between blank lines (as Moodle reads
	 * them) */
	size_t a = 0;
	for (size_t i = 0; i <= len; i++) {
		bool blank = false;
		if (i < len && copy[i] == '\n') {
			size_t k = i + 1;
			while (k < len && (copy[k] == ' ' || copy[k] == '\t' || copy[k] == '\r'))
				k++;
			blank = k >= len || copy[k] == '\n';
		}
		if (i == len || blank) {
			block(&g, a, i);
			a = i + 1;
		}
	}
	free(g.category);
	free(copy);
	if (!im->nqs && !qb_diag_errors_since(m) && !im->counts.skipped)
		qb_diag_error((qb_loc){im->file, 0, 0}, "no GIFT question found");
	return qb_diag_errors_since(m) ? -1 : 0;
}
