/* import_moodlexml.c - Moodle XML (question/format/xml) into the model,
 * read with libxml2 (line numbers from the parser, xmlGetLineNo()).
 *
 * Types carried: multichoice (single and multiple), truefalse,
 * shortanswer, numerical, matching, multianswer (cloze; its SHORTANSWER
 * and MULTICHOICE gaps).  Others (essay, calculated, drag-and-drop,
 * random, description, ...) are skipped with a located warning naming
 * the question.  Texts: every <text> is HTML (or plain for format
 * "plain_text"/"moodle_auto_format"), split per language by Moodle's
 * <span lang="xx" class="multilang"> and {mlang xx}...{mlang}, each
 * language made Markdown by import_html.c; @@PLUGINFILE@@ files are
 * decoded (nettle's base64) into media/.  Categories become tags, the
 * idnumber the id, general feedback the explanation. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>
#include <nettle/base64.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "i18n.h"
#include "import.h"
#include "utf8.h"

typedef struct mx {
	qb_imp *im;
	xmlNode *files;  /* the element whose <file> children a text may use */
	qb_loc loc;      /* the element being read                           */
	char *category;  /* the current category, as a tag (heap), or NULL   */
	char *title;     /* qbc's own file: the bank title its category names */
	const char *data;    /* the source, and where each line starts       */
	size_t len, *bol, nlines;
	char qlangs[QB_IMP_MAX_LANGS][QB_IMP_LANG_LEN]; /* the languages of the question's prompt      */
	size_t nqlangs;
	size_t penalties;
} mx;

static bool is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNode *child(const xmlNode *n, const char *name)
{
	for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is(c, name))
			return c;
	return NULL;
}

/* Where n starts: libxml2's line, and the column of '<name' on it. */
static qb_loc loc_of(const mx *x, const xmlNode *n)
{
	int line = n ? (int)xmlGetLineNo(n) : 0;
	int col = 1;
	if (line > 0 && (size_t)line <= x->nlines) {
		const char *s = x->data + x->bol[line - 1];
		size_t end = (size_t)line < x->nlines ? x->bol[line] : x->len;
		size_t ln = end - x->bol[line - 1];
		size_t nl = strlen((const char *)n->name);
		for (size_t i = 0; i + 1 + nl <= ln; i++)
			if (s[i] == '<' && memcmp(s + i + 1, n->name, nl) == 0) {
				col = 1 + (int)qb_utf8_count(s, i);
				break;
			}
	}
	return (qb_loc){x->im->file, line, col};
}

/* q's feedback for a wrong answer, to be set. */
static qb_text *wrong_of(const mx *x, qb_question *q)
{
	return &qb_question_rare_w(&x->im->bank->arena, q)->feedback_wrong;
}

/* The content of n's <text> child (or of n itself when it has none),
 * heap ("" when absent). */
static char *text_of(const xmlNode *n)
{
	const xmlNode *t = child(n, "text");
	xmlChar *s = t ? xmlNodeGetContent(t) : n ? xmlNodeGetContent(n) : NULL;
	char *out = qb_xstrdup(s ? (const char *)s : "");
	xmlFree(s);
	return out;
}

static const char *prop(const xmlNode *n, const char *name, char *buf, size_t size)
{
	xmlChar *v = n ? xmlGetProp(n, BAD_CAST name) : NULL;
	if (!v)
		return NULL;
	snprintf(buf, size, "%s", (const char *)v);
	xmlFree(v);
	return buf;
}

/* ---- files ---- */

static void html_lost(void *payload, const char *what)
{
	mx *x = payload;
	qb_imp_lost(x->im, x->loc, "not carried: %s", what);
}

/* The media path for an @@PLUGINFILE@@ src, from the element's <file>s. */
static const char *html_image(void *payload, const char *src)
{
	mx *x = payload;
	static const char pf[] = "@@PLUGINFILE@@/";
	if (strncmp(src, pf, sizeof pf - 1) != 0)
		return NULL;
	const char *name = src + sizeof pf - 1;
	for (xmlNode *f = x->files ? x->files->children : NULL; f; f = f->next) {
		char nb[512];
		if (!is(f, "file") || !prop(f, "name", nb, sizeof nb))
			continue;
		/* %20 and the like in the src */
		char *dec = (char *)xmlURIUnescapeString(name, 0, NULL);
		bool same = dec && strcmp(dec, nb) == 0;
		xmlFree(dec);
		if (!same)
			continue;
		xmlChar *b64 = xmlNodeGetContent(f);
		size_t blen = b64 ? strlen((const char *)b64) : 0;
		uint8_t *bytes = qb_xmalloc(BASE64_DECODE_LENGTH(blen) + 1);
		size_t dlen = BASE64_DECODE_LENGTH(blen);
		struct base64_decode_ctx ctx;
		base64_decode_init(&ctx);
		/* white space inside the base64 is skipped by nettle */
		bool ok = base64_decode_update(&ctx, &dlen, bytes, blen, (const char *)b64) &&
		          base64_decode_final(&ctx);
		const char *path = NULL;
		if (ok)
			path = qb_imp_media_add(x->im, nb, bytes, dlen);
		else
			qb_imp_lost(x->im, loc_of(x, f), "the file '%s' is not valid base64: not carried",
			            nb);
		free(bytes);
		xmlFree(b64);
		return path;
	}
	qb_imp_lost(x->im, x->loc, "the picture '%s' is not in the file: not carried", name);
	return NULL;
}

/* The Markdown of one language's HTML (or plain text). */
static void to_md(mx *x, qb_buf *out, const char *html, qb_imp_format f)
{
	qb_html_md_cb cb = {html_lost, html_image, x};
	qb_imp_text_md(out, html, f, &cb);
}

struct conv {
	mx *x;
	qb_imp_format fmt;
};

static void conv_md(void *payload, qb_buf *out, const char *s)
{
	struct conv *c = payload;
	to_md(c->x, out, s, c->fmt);
}

/* ml from the text of element n (its <text> and <file>s), one entry per
 * language.  Returns false when the text is empty. */
static bool ml_of(mx *x, const xmlNode *n, qb_imp_ml *ml, bool force_plain)
{
	if (!n)
		return false;
	char fb[32];
	const char *format = prop(n, "format", fb, sizeof fb);
	/* Moodle's format names; an element without one is HTML */
	qb_imp_format fmt = force_plain ? QB_IMP_PLAIN
	                      : !format ? QB_IMP_HTML
	                      : strcmp(format, "plain_text") == 0 ? QB_IMP_PLAIN
	                      : strcmp(format, "moodle_auto_format") == 0 ? QB_IMP_AUTO
	                      : strcmp(format, "markdown") == 0 ? QB_IMP_MARKDOWN
	                                                        : QB_IMP_HTML;
	char *html = text_of(n);
	x->files = (xmlNode *)n;
	x->loc = loc_of(x, n);
	struct conv c = {x, fmt};
	qb_imp_ml_split(ml, html, x->qlangs, x->nqlangs, conv_md, &c);
	free(html);
	return ml->n > 0;
}

/* Reads the prompt of a question from its <questiontext> and notes its
 * languages for the question's other texts. */
static void prompt_of(mx *x, qb_text *t, const xmlNode *qn)
{
	x->nqlangs = 0;
	char *html = text_of(child(qn, "questiontext"));
	x->nqlangs = qb_imp_langs_of(html, x->qlangs, QB_IMP_MAX_LANGS);
	free(html);
	qb_imp_ml ml = {0};
	const xmlNode *n = child(qn, "questiontext");
	if (ml_of(x, n, &ml, false))
		qb_imp_text(x->im, t, loc_of(x, n), &ml);
	qb_imp_ml_dispose(&ml);
}

/* Sets t from element n when it has text; returns whether it had. */
static bool set_text(mx *x, qb_text *t, const xmlNode *n, bool plain)
{
	qb_imp_ml ml = {0};
	bool any = ml_of(x, n, &ml, plain);
	if (any)
		qb_imp_text(x->im, t, loc_of(x, n), &ml);
	qb_imp_ml_dispose(&ml);
	return any;
}

/* The plain text of an answer (short answers, matching answers): HTML
 * markup dropped, per language, Moodle's '\*' unescaped. */
static void plain_ml(mx *x, const xmlNode *n, qb_imp_ml *ml)
{
	char *s = text_of(n);
	char langs[QB_IMP_MAX_LANGS][QB_IMP_LANG_LEN];
	size_t nl = qb_imp_langs_of(s, langs, QB_IMP_MAX_LANGS);
	for (size_t i = 0; i < (nl ? nl : 1); i++) {
		qb_buf proj = QB_BUF_INIT, t = QB_BUF_INIT;
		if (nl)
			qb_imp_project(&proj, s, langs[i]);
		else
			qb_buf_puts(&proj, s);
		for (const char *p = qb_buf_cstr(&proj); *p; p++) {
			if (p[0] == '\\' && p[1] == '*')
				p++;
			qb_buf_putc(&t, *p);
		}
		for (size_t k = 0; t.len && k < (nl || !x->nqlangs ? 1 : x->nqlangs); k++)
			qb_imp_ml_set(ml, nl ? langs[i] : x->nqlangs ? x->qlangs[k] : "", t.ptr, t.len);
		qb_buf_dispose(&proj);
		qb_buf_dispose(&t);
	}
	free(s);
}

static double fraction(const xmlNode *a)
{
	char fb[32];
	const char *f = prop(a, "fraction", fb, sizeof fb);
	return f ? strtod(f, NULL) : 0;
}

/* ---- the parts every question has ---- */

static void common(mx *x, qb_question *q, xmlNode *qn)
{
	set_text(x, &q->explanation, child(qn, "generalfeedback"), false);
	char *pen = text_of(child(qn, "penalty"));
	if (*pen && strtod(pen, NULL) != 0)
		x->penalties++;
	free(pen);
	if (x->category)
		qb_imp_in_category(x->im, q->loc, x->category);
	for (xmlNode *t = child(child(qn, "tags"), "tag"); t; t = t->next)
		if (is(t, "tag")) {
			char *s = text_of(t);
			qb_imp_tag(x->im, loc_of(x, t), s);
			free(s);
		}
	xmlNode *sh = child(qn, "shuffleanswers");
	if (sh && qb_qtype_shuffles(q->type)) {
		char *s = text_of(sh);
		q->shuffle = strcmp(s, "true") == 0 || strcmp(s, "1") == 0 ? QB_YES : QB_NO;
		free(s);
	}
	char *name = text_of(child(qn, "name"));
	char *idn = text_of(child(qn, "idnumber"));
	/* qbc's own file names a question "id: prompt": the id is the idnumber */
	qb_imp_id(x->im, idn, name);
	free(name);
	free(idn);
}

static void answer_feedback(mx *x, qb_choice *c, const xmlNode *a)
{
	set_text(x, &c->feedback, child(a, "feedback"), false);
}

/* ---- one function per type ---- */

static void multichoice(mx *x, xmlNode *qn, qb_loc loc)
{
	char *single = text_of(child(qn, "single"));
	bool one = strcmp(single, "true") == 0 || strcmp(single, "1") == 0;
	free(single);
	qb_question *q = qb_imp_question(x->im, one ? QB_QTYPE_SINGLE : QB_QTYPE_MULTIPLE, loc);
	prompt_of(x, &q->prompt, qn);
	bool weights = false, minus100 = false;
	size_t ncorrect = 0;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		double f = fraction(a);
		qb_choice *c = qb_imp_choice(x->im, loc_of(x, a));
		c->correct = one ? f >= 100 : f > 0;
		ncorrect += c->correct;
		if (one && f > 0 && f < 100)
			weights = true;
		if (f <= -100)
			minus100 = true;
		set_text(x, &c->text, a, false);
		answer_feedback(x, c, a);
	}
	q = &x->im->qs[x->im->nqs - 1];
	if (!one) {
		double share = ncorrect ? 100.0 / (double)ncorrect : 0;
		for (xmlNode *a = qn->children; a; a = a->next)
			if (is(a, "answer") && fraction(a) > 0 && (fraction(a) - share > 0.01 ||
			                                           share - fraction(a) > 0.01))
				weights = true;
		q->scoring = minus100 || ncorrect <= 1 ? QB_SCORING_ALL : QB_SCORING_PARTIAL;
	}
	if (weights)
		qb_imp_lost(x->im, loc, "the weights of this question's options are not carried: "
		            "qbc counts an option right or wrong");
	common(x, q, qn);
}

static void truefalse(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, QB_QTYPE_TRUE_FALSE, loc);
	prompt_of(x, &q->prompt, qn);
	qb_imp_ml fb[2];
	memset(fb, 0, sizeof fb);
	bool truth = true;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		char *t = text_of(a);
		int k = strcmp(t, "true") == 0 ? 0 : strcmp(t, "false") == 0 ? 1 : -1;
		free(t);
		if (k < 0)
			continue;
		if (fraction(a) >= 100)
			truth = k == 0;
		ml_of(x, child(a, "feedback"), &fb[k], false);
	}
	qb_imp_truefalse(x->im, truth, &fb[0], &fb[1], loc);
	qb_imp_ml_dispose(&fb[0]);
	qb_imp_ml_dispose(&fb[1]);
	common(x, &x->im->qs[x->im->nqs - 1], qn);
}

/* The languages of q's prompt (for answers that are the same in all). */
static void same_in_all(const qb_question *q, const qb_imp_ml *in, qb_imp_ml *out)
{
	if (in->n != 1 || *in->lang[0] || q->prompt.ntr < 2) {
		for (size_t i = 0; i < in->n; i++)
			qb_imp_ml_set(out, in->lang[i], in->text[i], strlen(in->text[i]));
		return;
	}
	for (size_t i = 0; i < q->prompt.ntr; i++) {
		const char *code = qb_tr_lang(&q->prompt, &q->prompt.tr[i]);
		qb_imp_ml_set(out, code, in->text[0], strlen(in->text[0]));
	}
}

static void shortanswer(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, QB_QTYPE_SHORT, loc);
	prompt_of(x, &q->prompt, qn);
	char *uc = text_of(child(qn, "usecase"));
	q->case_sensitive = strcmp(uc, "1") == 0 || strcmp(uc, "true") == 0;
	free(uc);
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		qb_imp_ml ml = {0}, all = {0};
		plain_ml(x, a, &ml);
		double f = fraction(a);
		/* "*" (anything else) as written, not "\*" (a star) */
		char *raw = text_of(a);
		bool star = strcmp(raw, "*") == 0;
		free(raw);
		if (star) {
			q = &x->im->qs[x->im->nqs - 1];
			set_text(x, wrong_of(x, q), child(a, "feedback"), false);
		} else if (ml.n) {
			if (f > 0 && f < 100)
				qb_imp_lost(x->im, loc_of(x, a), "the answer's %g%% credit is not carried: "
				            "it is accepted as right", f);
			q = &x->im->qs[x->im->nqs - 1];
			same_in_all(q, &ml, &all);
			qb_choice *c = qb_imp_choice(x->im, loc_of(x, a));
			c->correct = f > 0;
			qb_imp_text(x->im, &c->text, loc_of(x, a), &all);
			answer_feedback(x, c, a);
		}
		qb_imp_ml_dispose(&ml);
		qb_imp_ml_dispose(&all);
	}
	common(x, &x->im->qs[x->im->nqs - 1], qn);
}

/* The prompt of a numerical question without qbc's own answer-box line
 * ("__________ unit", which carries the unit). */
static void drop_box_line(qb_text *t)
{
	for (size_t i = 0; i < t->ntr; i++) {
		char *s = (char *)t->tr[i].text; /* arena memory of this import */
		char *box = strstr(s, "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_");
		if (box && box > s + 1 && box[-1] == '\n' && box[-2] == '\n') {
			box[-2] = '\0';
		} else if (box == s)
			*s = '\0';
	}
}

static void numerical(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, QB_QTYPE_NUMERIC, loc);
	prompt_of(x, &q->prompt, qn);
	drop_box_line(&q->prompt);
	qb_numeric *num = qb_arena_alloc(&x->im->bank->arena, sizeof *num);
	*num = (qb_numeric){0};
	bool found = false;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		char *t = text_of(a);
		double f = fraction(a);
		if (strcmp(t, "*") == 0) {
			set_text(x, wrong_of(x, q), child(a, "feedback"), false);
		} else if (f >= 100 && !found) {
			char *end, *tend;
			num->value = qb_imp_strtod(t, &end);
			xmlNode *tn = child(a, "tolerance");
			char *tol = text_of(tn);
			num->tol = qb_imp_strtod(tol, &tend);
			if (num->tol < 0)
				num->tol = -num->tol;
			num->lo = num->value - num->tol;
			num->hi = num->value + num->tol;
			num->loc = loc_of(x, a);
			found = *t && !*end;
			if (!found)
				qb_diag_error(loc_of(x, a), "'%s' is not a number", t);
			else if (*tol && (tend == tol || *tend)) {
				qb_diag_error(loc_of(x, tn), "the tolerance '%s' is not a number", tol);
				found = false;
			} else if (isfinite(num->value) ? qb_numeric_too_large(num, loc_of(x, tn), tol, strlen(tol))
			                                : qb_numeric_too_large(num, num->loc, t, strlen(t)))
				found = false;
			free(tol);
		} else {
			qb_imp_lost(x->im, loc_of(x, a), "a second answer of a numerical question is not "
			            "carried: qbc accepts one value and its tolerance");
		}
		free(t);
	}
	qb_rare *rare = qb_question_rare_w(&x->im->bank->arena, q);
	rare->num = num;
	rare->answer_loc = loc;
	xmlNode *u = child(child(qn, "units"), "unit");
	for (xmlNode *v = u; v; v = v->next) {
		if (!is(v, "unit"))
			continue;
		char *m = text_of(child(v, "multiplier"));
		char *name = text_of(child(v, "unit_name"));
		if (!rare->unit && *name && (!*m || strtod(m, NULL) == 1)) {
			rare->unit = qb_arena_strdup(&x->im->bank->arena, name);
			rare->unit_loc = loc_of(x, v);
		} else if (*name)
			qb_imp_lost(x->im, loc_of(x, v), "the unit '%s' is not carried: qbc has one unit "
			            "per question", name);
		free(m);
		free(name);
	}
	common(x, q, qn);
}

/* The feedback for any wrong answer of a matching question: what its
 * partially correct and its incorrect feedback both say after their first
 * paragraph, in every language (qbc's own file: Moodle's label, then the
 * feedback-wrong).  Nothing when they differ or say only one paragraph. */
static void combined_wrong(mx *x, qb_question *q, const xmlNode *qn)
{
	qb_imp_ml part = {0}, inc = {0}, rest = {0};
	const xmlNode *n = child(qn, "incorrectfeedback");
	ml_of(x, child(qn, "partiallycorrectfeedback"), &part, false);
	ml_of(x, n, &inc, false);
	bool same = inc.n > 0;
	for (size_t i = 0; same && i < inc.n; i++) {
		const char *a = strstr(inc.text[i], "\n\n"), *b = NULL;
		for (size_t k = 0; k < part.n; k++)
			if (strcmp(part.lang[k], inc.lang[i]) == 0)
				b = strstr(part.text[k], "\n\n");
		same = a && b && strcmp(a, b) == 0;
		if (same)
			qb_imp_ml_set(&rest, inc.lang[i], a + 2, strlen(a + 2));
	}
	if (same)
		qb_imp_text(x->im, wrong_of(x, q), loc_of(x, n), &rest);
	qb_imp_ml_dispose(&part);
	qb_imp_ml_dispose(&inc);
	qb_imp_ml_dispose(&rest);
}

static void matching(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, QB_QTYPE_MATCHING, loc);
	prompt_of(x, &q->prompt, qn);
	q->scoring = QB_SCORING_PARTIAL;
	for (xmlNode *s = qn->children; s; s = s->next) {
		if (!is(s, "subquestion"))
			continue;
		qb_choice *c = qb_imp_choice(x->im, loc_of(x, s));
		set_text(x, &c->text, s, false);
		qb_imp_ml ml = {0};
		plain_ml(x, child(s, "answer"), &ml);
		qb_text *m = qb_imp_match(x->im);
		if (ml.n)
			qb_imp_text(x->im, m, loc_of(x, s), &ml);
		qb_imp_ml_dispose(&ml);
	}
	combined_wrong(x, &x->im->qs[x->im->nqs - 1], qn);
	common(x, &x->im->qs[x->im->nqs - 1], qn);
}

/* ---- cloze ---- */

/* s[0..n) with Markdown escapes and character references undone. */
static void gap_text(qb_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			qb_buf_putc(out, s[++i]);
		} else if (s[i] == '&' && i + 2 < n && s[i + 1] == '#') {
			size_t k = i + 2;
			long v = strtol(s + k, NULL, 10);
			while (k < n && s[k] != ';')
				k++;
			if (v > 0 && v < 128 && k < n) {
				qb_buf_putc(out, (char)v);
				i = k;
			} else
				qb_buf_putc(out, s[i]);
		} else
			qb_buf_putc(out, s[i]);
	}
}

/* One language's prompt Markdown with Moodle's {N:TYPE:...} gaps made
 * qbc's {{...}}.  Returns false after a warning when a gap is of a kind
 * qbc lacks. */
static void gap_item(qb_buf *out, const char *s, size_t n, const char *lang)
{
	qb_buf raw = QB_BUF_INIT, proj = QB_BUF_INIT;
	gap_text(&raw, s, n);
	if (*lang)
		qb_imp_project(&proj, qb_buf_cstr(&raw), lang);
	else
		qb_buf_puts(&proj, qb_buf_cstr(&raw));
	/* the items' text is HTML-escaped in Moodle's syntax */
	const char *p = qb_buf_cstr(&proj);
	while (*p == ' ')
		p++;
	size_t len = strlen(p);
	while (len && p[len - 1] == ' ')
		len--;
	for (size_t i = 0; i < len; i++) {
		static const struct { const char *ent; char c; } ents[] = {
			{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
		size_t k;
		for (k = 0; k < QB_NELEM(ents); k++)
			if (strncmp(p + i, ents[k].ent, strlen(ents[k].ent)) == 0)
				break;
		if (k < QB_NELEM(ents)) {
			qb_buf_putc(out, ents[k].c);
			i += strlen(ents[k].ent) - 1;
		} else
			qb_buf_putc(out, p[i]);
	}
	qb_buf_dispose(&raw);
	qb_buf_dispose(&proj);
}

/* wrong: the feedback of every wrong choice and of a typed gap's '*'
 * (anything else), where qbc's own file puts the feedback-wrong (HTML);
 * *differ when they are not all the same. */
static bool cloze_md(mx *x, qb_buf *out, const char *md, qb_loc loc, bool *case_sens,
                     const char *lang, qb_buf *wrong, bool *differ)
{
	bool ok = true, seen = false;
	const char *p = md;
	while (*p) {
		const char *open = strchr(p, '{');
		const char *colon = open ? strchr(open, ':') : NULL;
		const char *close = open ? strchr(open, '}') : NULL;
		if (!open || !colon || !close || colon > close) {
			qb_buf_puts(out, p);
			break;
		}
		qb_buf_append(out, p, (size_t)(open - p));
		const char *type = colon + 1;
		const char *c2 = strchr(type, ':');
		if (!c2 || c2 > close) {
			qb_buf_append(out, open, (size_t)(close - open + 1));
			p = close + 1;
			continue;
		}
		size_t tl = (size_t)(c2 - type);
		bool choice = (tl >= 2 && (strncmp(type, "MULTICHOICE", tl < 11 ? tl : 11) == 0 ||
		                           strncmp(type, "MC", 2) == 0));
		bool typed = strncmp(type, "SHORTANSWER", tl < 11 ? tl : 11) == 0 ||
		             strncmp(type, "SA", 2) == 0 || strncmp(type, "MW", 2) == 0;
		if (!choice && !typed) {
			qb_imp_lost(x->im, loc, "a cloze gap of type '%.*s' is not carried: qbc's gaps "
			            "are typed words or choices", (int)tl, type);
			ok = false;
			p = close + 1;
			continue;
		}
		if (typed && memchr(type, 'C', tl) && tl > 2 && type[tl - 1] == 'C')
			*case_sens = true;
		qb_buf gap = QB_BUF_INIT;
		qb_buf_puts(&gap, "{{");
		const char *a = c2 + 1;
		bool firstitem = true;
		while (a < close) {
			const char *e = a;
			while (e < close && *e != '~')
				e++;
			const char *fb = memchr(a, '#', (size_t)(e - a));
			const char *te = fb ? fb : e;
			bool right = false;
			if (*a == '=') {
				right = true;
				a++;
			} else if (*a == '%') {
				right = strtod(a + 1, NULL) >= 100;
				const char *pc = memchr(a + 1, '%', (size_t)(te - a - 1));
				a = pc ? pc + 1 : a;
			}
			if (!right && (choice || (fb && te - a == 1 && *a == '*'))) {
				qb_buf this = QB_BUF_INIT; /* empty: none */
				if (fb)
					gap_item(&this, fb + 1, (size_t)(e - fb - 1), lang);
				if (!seen)
					qb_buf_puts(wrong, qb_buf_cstr(&this));
				else if (strcmp(qb_buf_cstr(wrong), qb_buf_cstr(&this)) != 0)
					*differ = true;
				seen = true;
				qb_buf_dispose(&this);
			}
			if (typed && right) {
				if (!firstitem)
					qb_buf_putc(&gap, '|');
				gap_item(&gap, a, (size_t)(te - a), lang);
				firstitem = false;
			} else if (choice) {
				qb_buf_puts(&gap, firstitem ? "" : " ");
				qb_buf_putc(&gap, right ? '=' : '~');
				gap_item(&gap, a, (size_t)(te - a), lang);
				firstitem = false;
			}
			a = e < close ? e + 1 : e;
		}
		qb_buf_puts(&gap, "}}");
		qb_buf_puts(out, gap.ptr);
		qb_buf_dispose(&gap);
		p = close + 1;
	}
	return ok;
}

static void multianswer(mx *x, xmlNode *qn, qb_loc loc, const char *name)
{
	qb_imp_ml ml = {0}, gaps = {0}, wrong = {0};
	xmlNode *qt = child(qn, "questiontext");
	/* The embedded answers are text: read them after the HTML. */
	char *html = text_of(qt);
	x->nqlangs = qb_imp_langs_of(html, x->qlangs, QB_IMP_MAX_LANGS);
	free(html);
	ml_of(x, qt, &ml, false);
	bool ok = true, cs = false, differ = false;
	for (size_t i = 0; i < ml.n; i++) {
		qb_buf b = QB_BUF_INIT, fb = QB_BUF_INIT, fbmd = QB_BUF_INIT;
		ok = cloze_md(x, &b, ml.text[i], loc, &cs, ml.lang[i], &fb, &differ) && ok;
		qb_imp_ml_set(&gaps, ml.lang[i], b.ptr ? b.ptr : "", b.len);
		to_md(x, &fbmd, qb_buf_cstr(&fb), QB_IMP_HTML);
		if (fbmd.len)
			qb_imp_ml_set(&wrong, ml.lang[i], fbmd.ptr, fbmd.len);
		qb_buf_dispose(&b);
		qb_buf_dispose(&fb);
		qb_buf_dispose(&fbmd);
	}
	if (!ok) {
		qb_imp_skip(x->im, loc, name, "it has a gap of a kind qbc lacks");
	} else {
		qb_question *q = qb_imp_question(x->im, QB_QTYPE_CLOZE, loc);
		q->case_sensitive = cs;
		q->scoring = QB_SCORING_PARTIAL;
		qb_imp_text(x->im, &q->prompt, loc_of(x, qt), &gaps);
		if (wrong.n && !differ)
			qb_imp_text(x->im, wrong_of(x, q), loc_of(x, qt), &wrong);
		else if (wrong.n)
			qb_imp_lost(x->im, loc, "the feedback of a gap's wrong answers is not carried: "
			            "qbc has one feedback for any wrong answer");
		common(x, q, qn);
	}
	qb_imp_ml_dispose(&ml);
	qb_imp_ml_dispose(&gaps);
	qb_imp_ml_dispose(&wrong);
}

/* ---- the file ---- */

/* qbc's own file has one category per revision,
 * "$course$/top/<title>/revision N (date)": that is the bank's title
 * (*title, heap), not a tag.  Any other category is a tag. */
static char *category_tag(const char *path, char **title)
{
	const char *rev = strstr(path, "/revision ");
	if (rev && !strchr(rev + 1, '/')) {
		const char *t = rev;
		while (t > path && t[-1] != '/')
			t--;
		free(*title);
		*title = qb_xstrndup(t, (size_t)(rev - t));
		return NULL;
	}
	return qb_imp_category(path);
}

/* The first error libxml2 reports (later ones follow from it). */
typedef struct first_error {
	int line, col;
	char *msg;
} first_error;

static void on_error(void *data, xmlErrorPtr e)
{
	xmlParserCtxtPtr pc = data;
	first_error *fe = pc ? pc->_private : NULL;
	if (!fe || fe->msg || !e)
		return;
	fe->line = e->line;
	fe->col = e->int2 > 0 ? e->int2 : 1;
	fe->msg = qb_xstrdup(e->message ? e->message : "not XML");
	size_t n = strlen(fe->msg);
	while (n && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
		fe->msg[--n] = '\0';
}

int qb_import_moodlexml(qb_imp *im, const char *data, size_t len)
{
	qb_diag_mark m = qb_diag_mark_now();
	first_error fe = {0, 0, NULL};
	xmlParserCtxtPtr pc = xmlNewParserCtxt();
	xmlDocPtr doc = NULL;
	if (pc) {
		pc->_private = &fe;
		pc->sax->serror = on_error;
		doc = xmlCtxtReadMemory(pc, data, (int)len, im->file, "UTF-8",
		                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	}
	if (!doc || fe.msg) {
		qb_diag_error(QB_LOC(im->file, fe.line, fe.col ? fe.col : 1),
		              "this is not well-formed XML: %s", fe.msg ? fe.msg : "not XML");
		free(fe.msg);
		xmlFreeDoc(doc);
		xmlFreeParserCtxt(pc);
		return -1;
	}
	mx x;
	memset(&x, 0, sizeof x);
	x.im = im;
	x.loc = (qb_loc){im->file, 0, 0};
	x.data = data;
	x.len = len;
	x.bol = qb_xmalloc(sizeof *x.bol);
	x.bol[x.nlines++] = 0;
	for (size_t i = 0; i < len; i++)
		if (data[i] == '\n') {
			x.bol = qb_xrealloc(x.bol, (x.nlines + 1) * sizeof *x.bol);
			x.bol[x.nlines++] = i + 1;
		}
	xmlNode *quiz = xmlDocGetRootElement(doc);
	if (!is(quiz, "quiz"))
		qb_diag_error(loc_of(&x, quiz), "a Moodle XML file has <quiz> as its root element, "
		              "not <%s>", quiz ? (const char *)quiz->name : "");
	for (xmlNode *qn = is(quiz, "quiz") ? quiz->children : NULL; qn; qn = qn->next) {
		if (!is(qn, "question"))
			continue;
		char tb[64];
		const char *type = prop(qn, "type", tb, sizeof tb);
		qb_loc loc = loc_of(&x, qn);
		if (!type) {
			qb_diag_error(loc, "this <question> has no type=\"...\"");
			continue;
		}
		if (strcmp(type, "category") == 0) {
			char *path = text_of(child(qn, "category"));
			free(x.category);
			x.category = category_tag(path, &x.title);
			free(path);
			continue;
		}
		char *name = text_of(child(qn, "name"));
		if (strcmp(type, "multichoice") == 0)
			multichoice(&x, qn, loc);
		else if (strcmp(type, "truefalse") == 0)
			truefalse(&x, qn, loc);
		else if (strcmp(type, "shortanswer") == 0)
			shortanswer(&x, qn, loc);
		else if (strcmp(type, "numerical") == 0)
			numerical(&x, qn, loc);
		else if (strcmp(type, "matching") == 0)
			matching(&x, qn, loc);
		else if (strcmp(type, "multianswer") == 0 || strcmp(type, "cloze") == 0)
			multianswer(&x, qn, loc, name);
		else
			qb_imp_skip(im, loc, name, "qbc has no question type like Moodle's '%s'", type);
		free(name);
	}
	if (x.penalties)
		qb_diag_note(QB_LOC(im->file, 0, 0),
		             ngettext("the penalties of %zu question for another try are not "
		                      "carried: qbc does not deduct for retries",
		                      "the penalties of %zu questions for another try are not "
		                      "carried: qbc does not deduct for retries", x.penalties),
		             x.penalties);
	free(x.category);
	free(x.bol);
	if (x.title && !im->title)
		im->title = x.title;
	else
		free(x.title);
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(pc);
	return qb_diag_errors_since(m) ? -1 : 0;
}
