/* import_moodlexml.c - Moodle XML (question/format/xml) into the model,
 * read with libxml2 (line numbers from the parser, xmlGetLineNo()).
 *
 * Types carried: multichoice (single and multiple), truefalse,
 * shortanswer, numerical, matching, multianswer (cloze; its SHORTANSWER
 * and MULTICHOICE gaps), calculated, calculatedsimple and calculatedmulti
 * (parameterised questions, their datasets the pool); a description
 * becomes the passage of the questions that follow it (until the next
 * description or category).
 * Others (essay, drag-and-drop, random, ...) are skipped with
 * a located warning naming the question.  Texts: every <text> is HTML (or plain for format
 * "plain_text"/"moodle_auto_format"), split per language by Moodle's
 * <span lang="xx" class="multilang"> and {mlang xx}...{mlang}, each
 * language made Markdown by import_html.c; @@PLUGINFILE@@ files are
 * decoded (nettle's base64) into media/.  Categories become tags, the
 * idnumber the id, general feedback the explanation.  Values as Moodle's
 * importer reads them: numbers and flags trimmed, a multichoice without
 * <single> single-answer, a numerical question's every <answer> with its
 * fraction and feedback.
 *
 * The file is read as a stream (libxml2's xmlTextReader): each
 * <question> is made a tree of its own (xmlTextReaderExpand()), read by
 * its type's function and let go, so that the document is never held
 * whole (the DOM of an export was 6 times its size). */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/uri.h>
#include <libxml/xmlreader.h>
#include <math.h>
#include <matheval.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "diag.h"
#include "i18n.h"
#include "import.h"
#include "params.h"
#include "utf8.h"
#include "validate.h"

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
	struct mcalc *calc; /* a calculated question's datasets while its
	                       texts are read (their placeholders), or NULL */
	char *draws_of;     /* qbc's category of a question's draws: its id
	                       (heap), or NULL                               */
	size_t ndrawn;      /* the questions read in it                      */
} mx;

static void calc_md(mx *x, qb_buf *out, const char *html, qb_imp_format f);

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

/* text_of() without the white space around it: a number or a flag, which
 * Moodle trims ('<text>\n  42\n</text>', CDATA with spaces). */
static char *value_of(const xmlNode *n)
{
	char *s = text_of(n);
	size_t a = 0, b = strlen(s);
	while (a < b && strchr(" \t\r\n", s[a]))
		a++;
	while (b > a && strchr(" \t\r\n", s[b - 1]))
		b--;
	memmove(s, s + a, b - a);
	s[b - a] = '\0';
	return s;
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

/* The media path of the file named name among the <file>s of files
 * (NULL, reported at loc, when it is not there or not base64). */
static const char *embedded_file(mx *x, const xmlNode *files, const char *name, qb_loc loc)
{
	for (xmlNode *f = files ? files->children : NULL; f; f = f->next) {
		char nb[512];
		if (!is(f, "file") || !prop(f, "name", nb, sizeof nb) || strcmp(nb, name) != 0)
			continue;
		xmlChar *b64 = xmlNodeGetContent(f);
		unsigned char *bytes = NULL;
		size_t len = 0;
		const char *path = NULL;
		if (qb_imp_base64(b64 ? (const char *)b64 : "", &bytes, &len))
			path = qb_imp_media_add(x->im, nb, bytes, len);
		else
			qb_imp_lost(x->im, loc_of(x, f), "the file '%s' is not valid base64: not carried",
			            nb);
		free(bytes);
		xmlFree(b64);
		return path;
	}
	qb_imp_lost(x->im, loc, "the file '%s' is in Moodle's file store (@@PLUGINFILE@@) but not "
	            "in this Moodle XML file: not carried", name);
	return NULL;
}

/* The media path for an @@PLUGINFILE@@ src, from the element's <file>s,
 * or for a data: URL's picture or sound; NULL (reported) when there is
 * no file. */
static const char *html_image(void *payload, const char *src)
{
	mx *x = payload;
	static const char pf[] = "@@PLUGINFILE@@/";
	if (strncmp(src, "data:", 5) == 0)
		return qb_imp_data_url(x->im, x->loc, src);
	if (strncmp(src, "@@PLUGINFILE@@", sizeof pf - 2) != 0)
		return NULL;
	/* %20 and the like in the src; a path below the file area's root */
	const char *name = src + sizeof pf - 2;
	name += *name == '/';
	char *dec = (char *)xmlURIUnescapeString(name, 0, NULL);
	const char *slash = dec ? strrchr(dec, '/') : NULL;
	const char *path = embedded_file(x, x->files, slash ? slash + 1 : dec ? dec : name, x->loc);
	xmlFree(dec);
	return path;
}

/* Moodle 1.x's picture of a question (<image> and <image_base64>, kept
 * by later Moodles' import): appended to each language of its prompt
 * ml as Markdown; not in the file: a warning at the <image>. */
static void old_picture(mx *x, const xmlNode *qn, qb_imp_ml *ml)
{
	const xmlNode *img = child(qn, "image"), *b64 = child(qn, "image_base64");
	char *name = img ? text_of(img) : NULL;
	char *data = b64 ? text_of(b64) : NULL;
	const char *path = NULL;
	if (name && *name && data && *data) {
		unsigned char *bytes = NULL;
		size_t len = 0;
		if (qb_imp_base64(data, &bytes, &len))
			path = qb_imp_media_add(x->im, name, bytes, len);
		else
			qb_imp_lost(x->im, loc_of(x, b64), "the picture '%s' is not valid base64: not "
			            "carried", name);
		free(bytes);
	} else if (name && *name) {
		qb_imp_lost(x->im, loc_of(x, img), "the picture '%s' is not in this Moodle XML file "
		            "(no <image_base64>): not carried", name);
	}
	for (size_t i = 0; path && i < ml->n; i++) {
		char *t = qb_xasprintf("%s\n\n![](%s)", ml->text[i], path);
		free(ml->text[i]);
		ml->text[i] = t;
	}
	if (path && !ml->n) {
		char *t = qb_xasprintf("![](%s)", path);
		qb_imp_ml_set(ml, "", t, strlen(t));
		free(t);
	}
	free(name);
	free(data);
}

/* The Markdown of one language's HTML (or plain text). */
static void to_md(mx *x, qb_buf *out, const char *html, qb_imp_format f)
{
	if (x->calc) {
		calc_md(x, out, html, f);
		return;
	}
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
	ml_of(x, n, &ml, false);
	old_picture(x, qn, &ml);
	if (ml.n)
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
	char *pen = value_of(child(qn, "penalty"));
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
		char *s = value_of(sh);
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

/* A description question (a text with no answer): the passage of the
 * questions that follow it, until the next description or category.
 * Its id: the idnumber, else the start of its name up to ':' (qbc's own
 * file names it "id: text"), else a slug of the name. */
static void description(mx *x, xmlNode *qn, qb_loc loc)
{
	const xmlNode *n = child(qn, "questiontext");
	char *html = text_of(n);
	x->nqlangs = qb_imp_langs_of(html, x->qlangs, QB_IMP_MAX_LANGS);
	free(html);
	char *name = text_of(child(qn, "name")), *idn = text_of(child(qn, "idnumber"));
	if (!*idn) {
		char *colon = strchr(name, ':');
		size_t bad;
		if (colon) {
			free(idn);
			idn = qb_xstrndup(name, (size_t)(colon - name));
			if (!qb_id_valid(idn, &bad))
				*idn = '\0';
		}
	}
	qb_imp_ml ml = {0};
	if (ml_of(x, n, &ml, false))
		qb_imp_passage(x->im, loc_of(x, n), &ml, idn, name);
	else
		qb_imp_lost(x->im, loc, "a description without text is not carried");
	qb_imp_ml_dispose(&ml);
	char *fb = text_of(child(qn, "generalfeedback"));
	if (*fb)
		qb_imp_lost(x->im, loc_of(x, child(qn, "generalfeedback")),
		            "a description's general feedback is not carried: a passage has none");
	free(fb);
	free(name);
	free(idn);
}

static void answer_feedback(mx *x, qb_choice *c, const xmlNode *a)
{
	set_text(x, &c->feedback, child(a, "feedback"), false);
}

/* ---- one function per type ---- */

/* The type <single> of a multichoice or calculatedmulti question says.
 * Moodle: without <single> one answer ('true' by default); 'false', '0'
 * or empty: several.  Moodle compares 'false' case-sensitively, so a
 * hand-written 'False' is single there; qbc reads the author's meaning (a
 * file with 'False' has the weights of several answers). */
static qb_qtype choice_type(xmlNode *qn)
{
	xmlNode *sn = child(qn, "single");
	char *single = value_of(sn);
	bool one = !sn || !(strcasecmp(single, "false") == 0 || strcmp(single, "0") == 0 || !*single);
	free(single);
	return one ? QB_QTYPE_SINGLE : QB_QTYPE_MULTIPLE;
}

static void multichoice(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, choice_type(qn), loc);
	prompt_of(x, &q->prompt, qn);
	double *pct = NULL;
	size_t n = 0;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		pct = qb_xrealloc(pct, (n + 1) * sizeof *pct);
		pct[n++] = fraction(a);
		qb_choice *c = qb_imp_choice(x->im, loc_of(x, a));
		set_text(x, &c->text, a, false);
		answer_feedback(x, c, a);
	}
	q = &x->im->qs[x->im->nqs - 1];
	qb_imp_marks(x->im, q, pct, loc);
	free(pct);
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
	char *uc = value_of(child(qn, "usecase"));
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

static void units_of(mx *x, qb_question *q, const xmlNode *qn);

static void numerical(mx *x, xmlNode *qn, qb_loc loc)
{
	qb_question *q = qb_imp_question(x->im, QB_QTYPE_NUMERIC, loc);
	prompt_of(x, &q->prompt, qn);
	drop_box_line(&q->prompt);
	/* Moodle: every <answer> is a value, its tolerance and its fraction
	 * ('*': any other number, its feedback qbc's feedback-wrong); the
	 * first of the best fraction is qbc's answer, the others further
	 * answers with their credit and feedback */
	qb_numeric *num = qb_arena_alloc(&x->im->bank->arena, sizeof *num);
	*num = (qb_numeric){0};
	double best = -1;
	xmlNode *besta = NULL;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		char *t = value_of(a);
		double f = fraction(a);
		if (strcmp(t, "*") == 0)
			set_text(x, wrong_of(x, q), child(a, "feedback"), false);
		else if (f > best) {
			best = f;
			besta = a;
		}
		free(t);
	}
	qb_num_more **tail = &qb_question_rare_w(&x->im->bank->arena, q)->num_more;
	for (xmlNode *a = qn->children; a; a = a->next) {
		if (!is(a, "answer"))
			continue;
		char *t = value_of(a);
		if (strcmp(t, "*") == 0) {
			free(t);
			continue;
		}
		qb_numeric n = {0};
		double f = fraction(a);
		bool ok = false;
		char *end, *tend;
		n.value = qb_imp_strtod(t, &end);
		xmlNode *tn = child(a, "tolerance");
		char *tol = value_of(tn);
		n.tol = qb_imp_strtod(tol, &tend);
		if (n.tol < 0)
			n.tol = -n.tol;
		n.lo = n.value - n.tol;
		n.hi = n.value + n.tol;
		n.loc = loc_of(x, a);
		ok = *t && !*end;
		if (!ok)
			qb_diag_error(loc_of(x, a), "'%s' is not a number", t);
		else if (*tol && (tend == tol || *tend)) {
			qb_diag_error(loc_of(x, tn), "the tolerance '%s' is not a number", tol);
			ok = false;
		} else if (isfinite(n.value) ? qb_numeric_too_large(&n, loc_of(x, tn), tol, strlen(tol))
		                             : qb_numeric_too_large(&n, n.loc, t, strlen(t)))
			ok = false;
		free(tol);
		free(t);
		if (!ok)
			continue;
		if (a == besta) {
			*num = n;
			if (f < 100)
				qb_imp_lost(x->im, loc_of(x, a), "this numeric question's best answer is worth "
				            "%g%% in the source; qbc gives it full marks", f);
			continue;
		}
		qb_num_more *m = qb_arena_alloc(&x->im->bank->arena, sizeof *m);
		*m = (qb_num_more){.num = n, .credit = f < 0 ? 0 : f > 100 ? 100 : f, .loc = n.loc};
		if (f < 0)
			qb_imp_lost(x->im, loc_of(x, a), "the partial credit of this question's answers is "
			            "not carried: qbc counts an answer right or wrong");
		set_text(x, &m->feedback, child(a, "feedback"), false);
		*tail = m;
		tail = &m->next;
	}
	qb_rare *rare = qb_question_rare_w(&x->im->bank->arena, q);
	rare->num = num;
	rare->answer_loc = loc;
	units_of(x, q, qn);
	common(x, q, qn);
}

/* A numerical or calculated question's one unit (multiplier 1). */
static void units_of(mx *x, qb_question *q, const xmlNode *qn)
{
	qb_rare *rare = qb_question_rare_w(&x->im->bank->arena, q);
	xmlNode *u = child(child(qn, "units"), "unit");
	for (xmlNode *v = u; v; v = v->next) {
		if (!is(v, "unit"))
			continue;
		char *m = value_of(child(v, "multiplier"));
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

/* Moodle's embedded answers, as qtype_multianswer_extract_question()
 * (question/type/multianswer/questiontype.php) reads them:
 * '{' weight? ':' KIND ':' alternative ('~' alternative)* '}', an
 * alternative being a mark ('=' or '%fraction%') or none, an answer (at
 * least one character, up to a '~', '#' or '}' not after '\\', '&' or
 * "&amp;") and '#' feedback (up to a '~' or '}' not after '\\').  A '{'
 * that starts no such gap is text.  What qbc makes of each kind: */
typedef enum ma_kind { MA_TYPED, MA_TYPED_CASE, MA_NUMERIC, MA_CHOICE, MA_MULTI } ma_kind;

static const struct {
	const char *name;
	ma_kind kind;
} ma_kinds[] = {
	{"NUMERICAL", MA_NUMERIC},        {"NM", MA_NUMERIC},
	{"SHORTANSWER", MA_TYPED},        {"SA", MA_TYPED},          {"MW", MA_TYPED},
	{"SHORTANSWER_C", MA_TYPED_CASE}, {"SAC", MA_TYPED_CASE},    {"MWC", MA_TYPED_CASE},
	/* drop-down, vertical, horizontal, each shuffled or not: to qbc
	 * one choice gap (its player shows choices in its own order) */
	{"MULTICHOICE", MA_CHOICE},       {"MC", MA_CHOICE},
	{"MULTICHOICE_V", MA_CHOICE},     {"MCV", MA_CHOICE},
	{"MULTICHOICE_H", MA_CHOICE},     {"MCH", MA_CHOICE},
	{"MULTICHOICE_S", MA_CHOICE},     {"MCS", MA_CHOICE},
	{"MULTICHOICE_VS", MA_CHOICE},    {"MCVS", MA_CHOICE},
	{"MULTICHOICE_HS", MA_CHOICE},    {"MCHS", MA_CHOICE},
	/* several right choices: qbc has none such */
	{"MULTIRESPONSE", MA_MULTI},      {"MR", MA_MULTI},
	{"MULTIRESPONSE_H", MA_MULTI},    {"MRH", MA_MULTI},
	{"MULTIRESPONSE_S", MA_MULTI},    {"MRS", MA_MULTI},
	{"MULTIRESPONSE_HS", MA_MULTI},   {"MRHS", MA_MULTI},
};

/* One alternative of a gap: its fraction in percent (100 for '=', 0 for
 * no mark), its answer and its feedback (fb NULL: none). */
typedef struct ma_alt {
	double fraction;
	const char *ans, *fb;
	size_t alen, fblen;
} ma_alt;

typedef struct ma_gap {
	const char *kind_name; /* as ma_kinds[] spells it */
	ma_kind kind;
	unsigned long weight; /* 1 when not written */
	ma_alt *alts;         /* heap */
	size_t nalts;
} ma_gap;

/* True when s[k] is escaped for an answer: after '\\', '&' or "&amp;". */
static bool ma_answer_escaped(const char *s, size_t start, size_t k)
{
	return k > start && (s[k - 1] == '\\' || s[k - 1] == '&' ||
	                     (k >= start + 5 && strncmp(s + k - 5, "&amp;", 5) == 0));
}

/* The gap at s (a '{'): the end of it (after its '}'), or NULL when s
 * starts no gap Moodle reads. */
static const char *ma_parse(const char *s, ma_gap *g)
{
	memset(g, 0, sizeof *g);
	size_t i = 1, w = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	w = i - 1;
	if (s[i] != ':')
		return NULL;
	const char *kind = s + i + 1, *colon = strchr(kind, ':');
	if (!colon)
		return NULL;
	/* the name as Moodle wrote it: Markdown's escapes ('\\_') undone */
	char name[24];
	size_t kl = 0, k;
	for (const char *c = kind; c < colon && kl < sizeof name - 1; c++)
		if (*c != '\\')
			name[kl++] = *c;
	name[kl] = '\0';
	for (k = 0; k < QB_NELEM(ma_kinds); k++)
		if (strcmp(ma_kinds[k].name, name) == 0)
			break;
	if (k == QB_NELEM(ma_kinds))
		return NULL;
	g->kind = ma_kinds[k].kind;
	g->kind_name = ma_kinds[k].name;
	g->weight = w ? strtoul(s + 1, NULL, 10) : 1;
	const char *p = colon + 1;
	for (;;) {
		ma_alt alt = {0, NULL, NULL, 0, 0};
		if (*p == '=') {
			alt.fraction = 100;
			p++;
		} else if (*p == '%') {
			size_t j = 1;
			if (p[j] == '-')
				j++;
			size_t d = j;
			while (p[j] >= '0' && p[j] <= '9')
				j++;
			if (j > d && (p[j] == '.' || p[j] == ',')) {
				j++;
				while (p[j] >= '0' && p[j] <= '9')
					j++;
			}
			if (j > d && p[j] == '%') {
				char num[32];
				snprintf(num, sizeof num, "%.*s", (int)(j - 1 < 31 ? j - 1 : 31), p + 1);
				for (char *c = num; *c; c++)
					if (*c == ',')
						*c = '.';
				alt.fraction = strtod(num, NULL);
				p += j + 1;
			}
		}
		if (!*p)
			break;
		size_t e = 1;
		while (p[e] && !(strchr("~#}", p[e]) && !ma_answer_escaped(p, 0, e)))
			e++;
		alt.ans = p;
		alt.alen = e;
		p += e;
		if (*p == '#') {
			p++;
			size_t f = 0;
			while (p[f] && !((p[f] == '~' || p[f] == '}') && !(f > 0 && p[f - 1] == '\\')))
				f++;
			alt.fb = p;
			alt.fblen = f;
			p += f;
		}
		if (!*p)
			break;
		g->alts = qb_xrealloc(g->alts, (g->nalts + 1) * sizeof *g->alts);
		g->alts[g->nalts++] = alt;
		if (*p == '}')
			return p + 1;
		p++; /* '~' */
	}
	free(g->alts);
	g->alts = NULL;
	g->nalts = 0;
	return NULL;
}
/* A NUMERICAL alternative's answer, "value" or "value:tolerance" in
 * Moodle's numbers ('.' or ',', an exponent), as qbc's numeric gap:
 * "#value" or "#value ± tolerance" in plain decimals.  False when it is
 * not that (Moodle takes it as text: only '*' matters, anything else). */
static bool ma_numeric(qb_buf *out, const char *s, size_t n)
{
	char buf[128];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	char *colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	double v[2] = {0, 0};
	const char *part[2] = {buf, colon ? colon + 1 : NULL};
	for (int k = 0; k < 2 && part[k]; k++) {
		char *end = NULL;
		const char *t = part[k];
		if (!*t || strchr(t, 'x') || strchr(t, 'X') || strchr(t, 'n') || strchr(t, 'N') ||
		    strchr(t, ' ') || *t == '+')
			return false; /* hex, inf, nan and spaces: no NUMBER_REGEX */
		v[k] = strtod(t, &end);
		if (*end || !isfinite(v[k]))
			return false;
	}
	qb_buf_putc(out, '#');
	for (int k = 0; k < 2 && part[k]; k++) {
		if (k) {
			if (v[1] == 0)
				break;
			qb_buf_puts(out, " \xC2\xB1 ");
		}
		if (!strchr(part[k], 'e') && !strchr(part[k], 'E')) {
			qb_buf_puts(out, part[k]); /* the author's digits */
			continue;
		}
		char d[64];
		snprintf(d, sizeof d, "%.15g", k ? fabs(v[k]) : v[k]);
		if (strchr(d, 'e')) /* 1e-7: 0.0000001; 1e20: 100000000000000000000 */
			for (int dec = 0; dec <= 40; dec++) {
				snprintf(d, sizeof d, "%.*f", dec, k ? fabs(v[k]) : v[k]);
				if (strtod(d, NULL) == (k ? fabs(v[k]) : v[k]))
					break;
			}
		qb_buf_puts(out, d);
	}
	return true;
}

/* The text of an alternative's answer (or feedback), with Moodle's and
 * Markdown's escapes and references undone, projected on lang. */
static char *ma_text(const char *s, size_t n, const char *lang)
{
	qb_buf b = QB_BUF_INIT;
	gap_item(&b, s, n, lang);
	return b.ptr ? qb_buf_detach(&b) : qb_xstrdup("");
}

/* wrong: the feedback of every wrong choice and of a typed gap's '*'
 * (anything else), where qbc's own file puts the feedback-wrong (HTML);
 * *differ when they are not all the same.  What qbc cannot say is
 * carried as closely as it can and reported once (report: the first
 * language), naming the gap; *mixed_case counts the gaps that ignore case
 * and those that do not. */
static void ma_wrong_feedback(const ma_alt *alt, const char *lang, qb_buf *wrong, bool *seen,
                              bool *differ)
{
	qb_buf this = QB_BUF_INIT; /* empty: none */
	if (alt->fb)
		gap_item(&this, alt->fb, alt->fblen, lang);
	if (!*seen)
		qb_buf_puts(wrong, qb_buf_cstr(&this));
	else if (strcmp(qb_buf_cstr(wrong), qb_buf_cstr(&this)) != 0)
		*differ = true;
	*seen = true;
	qb_buf_dispose(&this);
}

/* One gap as qbc's {{...}}, appended to out; false (reported) when it
 * cannot be carried at all. */
static bool ma_gap_md(mx *x, qb_buf *out, const ma_gap *g, size_t gi, qb_loc loc, bool report,
                      const char *lang, qb_buf *wrong, bool *seen, bool *differ)
{
	qb_imp *im = report ? x->im : NULL;
	if (im && g->weight != 1)
		qb_imp_lost(im, loc, "gap %zu's weight (%lu) is not carried: every qbc gap counts the same",
		            gi, g->weight);
	size_t right = g->nalts; /* the alternative a choice or numeric gap keeps as right */
	for (size_t k = 0; k < g->nalts && right == g->nalts; k++)
		if (g->alts[k].fraction >= 100 || (g->kind == MA_MULTI && g->alts[k].fraction > 0))
			right = k;
	if (im && g->kind == MA_MULTI) {
		char *r = right < g->nalts ? ma_text(g->alts[right].ans, g->alts[right].alen, lang)
		                           : qb_xstrdup("");
		qb_imp_lost(im, loc, "gap %zu (%s) takes several choices: it is carried as a choice gap "
		            "whose one right choice is '%s'", gi, g->kind_name, r);
		free(r);
	}
	qb_buf gap = QB_BUF_INIT;
	bool ok = true, first = true;
	qb_buf_puts(&gap, "{{");
	for (size_t k = 0; k < g->nalts; k++) {
		const ma_alt *alt = &g->alts[k];
		bool star = alt->alen == 1 && alt->ans[0] == '*';
		bool full = alt->fraction >= 100;
		char *t = ma_text(alt->ans, alt->alen, lang);
		if (im && (full || k == right) && alt->fb && alt->fblen)
			qb_imp_lost(im, loc, "gap %zu: the feedback of its right answer '%s' is not carried: "
			            "qbc shows the explanation instead", gi, t);
		if (g->kind == MA_CHOICE || g->kind == MA_MULTI) {
			if (im && k != right && alt->fraction != 0)
				qb_imp_lost(im, loc, "gap %zu: the choice '%s' (worth %g%%) is carried as a wrong "
				            "choice: a qbc choice gap has one right choice", gi, t, alt->fraction);
			if (k != right)
				ma_wrong_feedback(alt, lang, wrong, seen, differ);
			qb_buf_puts(&gap, first ? "" : " ");
			qb_buf_putc(&gap, k == right ? '=' : '~');
			qb_buf_puts(&gap, t);
			first = false;
		} else if (g->kind == MA_NUMERIC) {
			if (star && !full) {
				ma_wrong_feedback(alt, lang, wrong, seen, differ);
			} else if (k == right) {
				if (!ma_numeric(&gap, alt->ans, alt->alen)) {
					if (im)
						qb_imp_lost(im, loc, "gap %zu: '%s' is not a number, which a "
						            "NUMERICAL gap needs", gi, t);
					ok = false;
				}
			} else if (alt->fraction != 0 || k < right) {
				if (im)
					qb_imp_lost(im, loc, "gap %zu: the number '%s' (worth %g%%) is not carried: "
					            "a qbc numeric gap accepts one number or range", gi, t, alt->fraction);
			} else if (alt->fb)
				ma_wrong_feedback(alt, lang, wrong, seen, differ);
		} else { /* typed */
			if (star && !full) {
				ma_wrong_feedback(alt, lang, wrong, seen, differ);
			} else if (full) {
				if (im && strchr(t, '*'))
					qb_imp_lost(im, loc, "gap %zu: '%s' is carried as written: qbc compares "
					            "typed answers whole, without Moodle's '*' wildcard", gi, t);
				if (!first)
					qb_buf_putc(&gap, '|');
				qb_buf_puts(&gap, t);
				first = false;
			} else if (alt->fraction != 0) {
				if (im)
					qb_imp_lost(im, loc, "gap %zu: the answer '%s' (worth %g%%) is not carried: "
					            "a qbc gap's answers are right or wrong", gi, t, alt->fraction);
			} else if (alt->fb)
				ma_wrong_feedback(alt, lang, wrong, seen, differ);
		}
		free(t);
	}
	if (g->kind == MA_NUMERIC && right == g->nalts) {
		if (im)
			qb_imp_lost(im, loc, "gap %zu has no right number", gi);
		ok = false;
	}
	if ((g->kind == MA_TYPED || g->kind == MA_TYPED_CASE) && first) {
		if (im)
			qb_imp_lost(im, loc, "gap %zu has no right answer", gi);
		ok = false;
	}
	qb_buf_puts(&gap, "}}");
	if (ok)
		qb_buf_puts(out, qb_buf_cstr(&gap));
	qb_buf_dispose(&gap);
	return ok;
}

/* One language's prompt Markdown with Moodle's {N:TYPE:...} gaps made
 * qbc's {{...}}; case[0] and case[1] count the typed gaps that ignore
 * case and those that do not.  False when a gap cannot be carried. */
static bool cloze_md(mx *x, qb_buf *out, const char *md, qb_loc loc, size_t *cases, bool report,
                     const char *lang, qb_buf *wrong, bool *differ)
{
	bool ok = true, seen = false;
	size_t gi = 0;
	const char *p = md;
	while (*p) {
		const char *open = strchr(p, '{');
		if (!open) {
			qb_buf_puts(out, p);
			break;
		}
		qb_buf_append(out, p, (size_t)(open - p));
		ma_gap g;
		const char *end = ma_parse(open, &g);
		if (!end) {
			qb_buf_putc(out, '{');
			p = open + 1;
			continue;
		}
		gi++;
		if (g.kind == MA_TYPED || g.kind == MA_TYPED_CASE)
			cases[g.kind == MA_TYPED_CASE]++;
		ok = ma_gap_md(x, out, &g, gi, loc, report, lang, wrong, &seen, differ) && ok;
		free(g.alts);
		p = end;
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
	bool ok = true, differ = false;
	size_t cases[2] = {0, 0};
	for (size_t i = 0; i < ml.n; i++) {
		qb_buf b = QB_BUF_INIT, fb = QB_BUF_INIT, fbmd = QB_BUF_INIT;
		ok = cloze_md(x, &b, ml.text[i], loc, cases, i == 0, ml.lang[i], &fb, &differ) && ok;
		qb_imp_ml_set(&gaps, ml.lang[i], b.ptr ? b.ptr : "", b.len);
		to_md(x, &fbmd, qb_buf_cstr(&fb), QB_IMP_HTML);
		if (fbmd.len)
			qb_imp_ml_set(&wrong, ml.lang[i], fbmd.ptr, fbmd.len);
		qb_buf_dispose(&b);
		qb_buf_dispose(&fb);
		qb_buf_dispose(&fbmd);
	}
	if (!ok) {
		qb_imp_skip(x->im, loc, name, "it has a gap qbc cannot carry");
	} else {
		qb_question *q = qb_imp_question(x->im, QB_QTYPE_CLOZE, loc);
		q->case_sensitive = cases[1] > 0;
		if (cases[0] && cases[1])
			qb_imp_lost(x->im, loc, "its gaps that ignore case (SHORTANSWER) are carried "
			            "case-sensitive, as its SHORTANSWER_C gaps: qbc sets case for the "
			            "whole question");
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

/* ---- calculated questions (issue 38) ----
 *
 * Moodle's calculated, calculatedsimple and calculatedmulti: their
 * datasets' items are the pool, a 'draws:' table (item k of every dataset
 * is draw k, as Moodle takes one item number for all of them), the
 * answer's formula qbc's answer formula with its tolerance (relative:
 * a percentage; nominal: absolute) and its correctanswerlength as its
 * decimals.  Moodle's formulas (PHP, after qtype_calculated_find_formula_
 * errors()) are made GNU libmatheval's: '{h}' the variable h, pow(a,b)
 * (a)^(b), '**' '^', pi() pi, log10, log(x,b), deg2rad and rad2deg as
 * their quotients; round(F,d) a variable 'rN = F decimals d' (qbc rounds a
 * variable to its decimals before a formula uses it), and so is a text's
 * '{=F}' that Moodle shows with an answer's correctanswerlength (an
 * option of calculatedmulti, an answer's feedback).  libmatheval checks
 * the result; a formula that uses what qbc's formulas lack (floor, fmod,
 * min, PHP's operators ...) skips the question with a warning. */

#define CALC_OPEN "\xEE\x80\x81"  /* U+E001: a placeholder's mark */
#define CALC_CLOSE "\xEE\x80\x82" /* U+E002                        */

typedef struct mcalc {
	char **wild;      /* the datasets' Moodle names                 */
	char **name;      /* their qbc names                            */
	size_t nwild;
	double *table;    /* nrows * nwild: item k of dataset i at [k * nwild + i] */
	char **vtext;     /* the items as written                       */
	size_t nrows;
	char **dname, **dformula; /* the variables round() made         */
	int *ddec;
	bool *dfixed;     /* shown with ddec decimals (sprintf's), not
	                     without trailing zeros (PHP's number)        */
	size_t nderived;
	char **ph;        /* the placeholders of the text being read    */
	size_t nph;
	int decimals;     /* the decimals a text's '{=F}' is shown with (an
	                     answer's correctanswerlength), or -1         */
	char *answer;     /* a numeric question's answer as Moodle writes it,
	                     without spaces: '{=round(it,L)}' (L its
	                     correctanswerlength) is qbc's '{answer}'      */
	int answer_len;
	char *why;        /* what qbc cannot read (heap), or NULL       */
} mcalc;

static void mcalc_dispose(mcalc *k)
{
	for (size_t i = 0; i < k->nwild; i++) {
		free(k->wild[i]);
		free(k->name[i]);
	}
	for (size_t i = 0; i < k->nrows * k->nwild; i++)
		free(k->vtext[i]);
	for (size_t i = 0; i < k->nderived; i++) {
		free(k->dname[i]);
		free(k->dformula[i]);
	}
	for (size_t i = 0; i < k->nph; i++)
		free(k->ph[i]);
	free(k->wild);
	free(k->name);
	free(k->table);
	free(k->vtext);
	free(k->dname);
	free(k->dformula);
	free(k->ddec);
	free(k->dfixed);
	free(k->ph);
	free(k->why);
	free(k->answer);
}

static void calc_fail(mcalc *k, char *why)
{
	if (!k->why)
		k->why = why;
	else
		free(why);
}

static bool calc_alpha(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z');
}

static bool calc_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Whether name (qbc's) is taken by a dataset or a derived variable. */
static bool calc_taken(const mcalc *k, const char *name)
{
	for (size_t i = 0; i < k->nwild; i++)
		if (k->name[i] && strcmp(k->name[i], name) == 0)
			return true;
	for (size_t i = 0; i < k->nderived; i++)
		if (strcmp(k->dname[i], name) == 0)
			return true;
	return strcmp(name, "answer") == 0 || strcmp(name, "pi") == 0 || strcmp(name, "e") == 0;
}

/* qbc's name for Moodle's wildcard w ([[:alpha:]][[:alpha:][:digit:]_\s-]*):
 * w itself when qbc reads it, else with '_' for each other character. */
static char *calc_name(const mcalc *k, const char *w)
{
	qb_buf b = QB_BUF_INIT;
	for (const char *p = w; *p; p++)
		qb_buf_putc(&b, calc_alpha(*p) || calc_digit(*p) || *p == '_' ? *p : '_');
	char *base = qb_buf_detach(&b);
	char *name = qb_xstrdup(base);
	for (int n = 2; !qb_params_name_ok(name, strlen(name)) || calc_taken(k, name); n++) {
		free(name);
		name = qb_xasprintf("%s_%d", base, n);
	}
	free(base);
	return name;
}

/* The variable 'rN = formula decimals d' (a new one, or the one made for
 * the same formula and decimals before); its name.  fixed: shown with d
 * decimals, as Moodle shows an option's formula; else as Moodle shows a
 * text's round(F,d), without trailing zeros: qbc's formula variable
 * without 'decimals' when d is 2 (its rounding). */
static const char *calc_derived(mcalc *k, const char *formula, int d, bool fixed)
{
	fixed = fixed || d != 2;
	for (size_t i = 0; i < k->nderived; i++)
		if (k->ddec[i] == d && k->dfixed[i] == fixed && strcmp(k->dformula[i], formula) == 0)
			return k->dname[i];
	char *name = NULL;
	for (size_t n = k->nderived + 1; !name || calc_taken(k, name); n++) {
		free(name);
		name = qb_xasprintf("r%zu", n);
	}
	k->dname = qb_xrealloc(k->dname, (k->nderived + 1) * sizeof *k->dname);
	k->dformula = qb_xrealloc(k->dformula, (k->nderived + 1) * sizeof *k->dformula);
	k->ddec = qb_xrealloc(k->ddec, (k->nderived + 1) * sizeof *k->ddec);
	k->dfixed = qb_xrealloc(k->dfixed, (k->nderived + 1) * sizeof *k->dfixed);
	k->dfixed[k->nderived] = fixed;
	k->dname[k->nderived] = name;
	k->dformula[k->nderived] = qb_xstrdup(formula);
	k->ddec[k->nderived] = d;
	return k->dname[k->nderived++];
}

static bool calc_formula(mcalc *k, const char *s, size_t n, qb_buf *out);

/* The end of the call whose '(' is s[open] (its ')'), or n. */
static size_t calc_close(const char *s, size_t n, size_t open)
{
	int depth = 0;
	for (size_t i = open; i < n; i++) {
		depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
		if (!depth)
			return i;
	}
	return n;
}

/* Moodle's function call name(args) as qbc's formula, appended to out. */
static bool calc_call(mcalc *k, const char *fn, size_t fl, const char *args, size_t n, qb_buf *out)
{
	static const char *const same[] = {"abs", "acos", "acosh", "asin", "asinh", "atan",
	                                   "atanh", "cos", "cosh", "exp", "log", "sin",
	                                   "sinh", "sqrt", "tan", "tanh"};
	/* the arguments, split at the commas outside parentheses */
	const char *arg[3] = {NULL, NULL, NULL};
	size_t alen[3] = {0, 0, 0}, na = 0;
	int depth = 0;
	size_t from = 0;
	for (size_t i = 0; i <= n; i++) {
		char ch = i < n ? args[i] : ',';
		depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		if (ch == ',' && depth == 0) {
			if (na == 3)
				return false;
			arg[na] = args + from;
			alen[na++] = i - from;
			from = i + 1;
		}
	}
	bool blank = na == 1;
	for (size_t i = 0; blank && i < alen[0]; i++)
		blank = strchr(" \t\r\n", arg[0][i]) != NULL;
	if (blank)
		na = 0;
#define FN(str) (fl == strlen(str) && memcmp(fn, str, fl) == 0)
	qb_buf a = QB_BUF_INIT, b = QB_BUF_INIT;
	bool ok = true;
	if (FN("pi")) {
		ok = na == 0;
		qb_buf_puts(out, "pi");
	} else if (FN("round")) {
		int d = 0;
		if (na == 2) {
			char *dec = qb_xstrndup(arg[1], alen[1]), *end;
			long v = strtol(dec, &end, 10);
			while (*end == ' ')
				end++;
			ok = end != dec && !*end && v >= 0 && v <= 15;
			d = (int)v;
			free(dec);
		}
		ok = ok && (na == 1 || na == 2) && calc_formula(k, arg[0], alen[0], &a);
		if (ok)
			qb_buf_puts(out, calc_derived(k, qb_buf_cstr(&a), d, false));
	} else if (na == 2 && (FN("pow") || FN("log"))) {
		ok = calc_formula(k, arg[0], alen[0], &a) && calc_formula(k, arg[1], alen[1], &b);
		if (ok && FN("pow"))
			qb_buf_appendf(out, "((%s)^(%s))", qb_buf_cstr(&a), qb_buf_cstr(&b));
		else if (ok)
			qb_buf_appendf(out, "(log(%s)/log(%s))", qb_buf_cstr(&a), qb_buf_cstr(&b));
	} else if (na == 1 && (FN("log10") || FN("deg2rad") || FN("rad2deg"))) {
		ok = calc_formula(k, arg[0], alen[0], &a);
		qb_buf_appendf(out, FN("log10") ? "(log(%s)/log(10))" : FN("deg2rad") ? "((%s)*pi/180)"
		                                                                      : "((%s)*180/pi)",
		               qb_buf_cstr(&a));
	} else {
		size_t i;
		for (i = 0; i < QB_NELEM(same) && !FN(same[i]); i++)
			;
		ok = i < QB_NELEM(same) && na == 1 && calc_formula(k, arg[0], alen[0], &a);
		if (ok)
			qb_buf_appendf(out, "%.*s(%s)", (int)fl, fn, qb_buf_cstr(&a));
		else if (!k->why)
			calc_fail(k, qb_xasprintf(ngettext("Moodle's function '%.*s' with %zu argument",
			                                   "Moodle's function '%.*s' with %zu arguments", na),
			                          (int)fl, fn, na));
	}
#undef FN
	qb_buf_dispose(&a);
	qb_buf_dispose(&b);
	return ok;
}

/* Moodle's formula s[0..n) as qbc's, appended to out. */
static bool calc_formula(mcalc *k, const char *s, size_t n, qb_buf *out)
{
	for (size_t i = 0; i < n;) {
		char ch = s[i];
		if (strchr(" \t\r\n", ch)) {
			i++;
		} else if (ch == '{') {
			size_t e = i + 1;
			while (e < n && s[e] != '}')
				e++;
			size_t w;
			for (w = 0; w < k->nwild; w++)
				if (strlen(k->wild[w]) == e - i - 1 && memcmp(k->wild[w], s + i + 1, e - i - 1) == 0)
					break;
			if (e == n || w == k->nwild) {
				calc_fail(k, qb_xasprintf(_("'%.*s', which names no dataset"), (int)(e - i + (e < n)),
				                          s + i));
				return false;
			}
			qb_buf_puts(out, k->name[w]);
			i = e + 1;
		} else if (calc_digit(ch) || (ch == '.' && i + 1 < n && calc_digit(s[i + 1]))) {
			while (i < n && (calc_digit(s[i]) || s[i] == '.'))
				qb_buf_putc(out, s[i++]);
			if (i + 1 < n && (s[i] == 'e' || s[i] == 'E') &&
			    (calc_digit(s[i + 1]) || (i + 2 < n && strchr("+-", s[i + 1]) && calc_digit(s[i + 2])))) {
				qb_buf_putc(out, s[i++]);
				qb_buf_putc(out, s[i++]);
				while (i < n && calc_digit(s[i]))
					qb_buf_putc(out, s[i++]);
			}
		} else if (calc_alpha(ch) || ch == '_') {
			size_t b = i;
			while (i < n && (calc_alpha(s[i]) || calc_digit(s[i]) || s[i] == '_'))
				i++;
			size_t fl = i - b;
			while (i < n && strchr(" \t", s[i]))
				i++;
			if (i == n || s[i] != '(') {
				calc_fail(k, qb_xasprintf("'%.*s'", (int)fl, s + b));
				return false;
			}
			size_t close = calc_close(s, n, i);
			if (close == n)
				return false;
			if (!calc_call(k, s + b, fl, s + i + 1, close - i - 1, out))
				return false;
			i = close + 1;
		} else if (ch == '*' && i + 1 < n && s[i + 1] == '*') {
			qb_buf_putc(out, '^');
			i += 2;
		} else if (strchr("+-*/()", ch)) {
			qb_buf_putc(out, ch);
			i++;
		} else {
			calc_fail(k, qb_xasprintf(_("PHP's operator '%c'"), ch));
			return false;
		}
	}
	return true;
}

/* Moodle's formula f as qbc's (heap), checked by libmatheval; NULL
 * (k->why says why) when qbc cannot read it. */
static char *calc_convert(mcalc *k, const char *f)
{
	qb_buf out = QB_BUF_INIT;
	if (!calc_formula(k, f, strlen(f), &out) || !out.len) {
		if (!k->why)
			calc_fail(k, qb_xasprintf(_("the formula '%s'"), f));
		qb_buf_dispose(&out);
		return NULL;
	}
	void *ev = evaluator_create(out.ptr);
	if (!ev) {
		calc_fail(k, qb_xasprintf(_("the formula '%s'"), f));
		qb_buf_dispose(&out);
		return NULL;
	}
	evaluator_destroy(ev);
	return qb_buf_detach(&out);
}

/* Whether s (after a text's '{=') is 'round(ANSWER,L)}', spaces aside:
 * its '}' then, else NULL. */
static const char *calc_is_answer(const mcalc *k, const char *s, const char *unused)
{
	(void)unused;
	char want[64];
	snprintf(want, sizeof want, ",%d)}", k->answer_len);
	const char *parts[] = {"round(", k->answer, want};
	for (size_t i = 0; i < 3; i++)
		for (const char *w = parts[i]; *w; w++) {
			while (*s == ' ')
				s++;
			if (*s++ != *w)
				return NULL;
		}
	return s - 1;
}

/* k with the placeholders of html made marks (appended to out): a
 * dataset's '{h}' and a '{=F}' (Moodle's FORMULAS_IN_TEXT_REGEX), each
 * mark's qbc placeholder in k->ph. */
static void calc_protect(mcalc *k, qb_buf *out, const char *html)
{
	for (const char *p = html; *p; p++) {
		const char *e = *p == '{' ? strchr(p, '}') : NULL;
		char *ph = NULL;
		if (e && p[1] != '=') {
			for (size_t w = 0; w < k->nwild && !ph; w++)
				if (strlen(k->wild[w]) == (size_t)(e - p - 1) && memcmp(k->wild[w], p + 1, (size_t)(e - p - 1)) == 0)
					ph = qb_xasprintf("{%s}", k->name[w]);
		} else if (e && k->answer && calc_is_answer(k, p + 2, strchr(p, '}'))) {
			e = calc_is_answer(k, p + 2, NULL);
			ph = qb_xstrdup("{answer}");
		} else if (e) {
			/* '{=' [^{}]* ('{' name '}' [^{}]*)* '}' */
			e = p + 2;
			while (*e && *e != '}') {
				if (*e == '{') {
					const char *c = strchr(e, '}');
					if (!c || memchr(e + 1, '{', (size_t)(c - e - 1)))
						break;
					e = c;
				}
				e++;
			}
			if (*e == '}' && strspn(p + 2, " ") < (size_t)(e - p - 2)) { /* '{=}': no formula */
				char *f = qb_xstrndup(p + 2, (size_t)(e - p - 2));
				char *conv = calc_convert(k, f);
				if (conv) {
					size_t var = k->nderived;
					for (size_t d = 0; d < k->nderived && var == k->nderived; d++)
						if (strcmp(k->dname[d], conv) == 0)
							var = d;
					/* round(F,d) of an option Moodle shows with L
					 * decimals: 'rM = rN decimals L' when L != d */
					if (var < k->nderived && k->decimals >= 0 &&
					    !(k->ddec[var] == k->decimals && k->dfixed[var]))
						ph = qb_xasprintf("{%s}", calc_derived(k, conv, k->decimals, true));
					else if (var < k->nderived)
						ph = qb_xasprintf("{%s}", conv);
					else if (k->decimals >= 0)
						ph = qb_xasprintf("{%s}", calc_derived(k, conv, k->decimals, true));
					else
						ph = qb_xasprintf("{=%s}", conv);
				}
				free(conv);
				free(f);
			}
		}
		if (!ph) {
			qb_buf_putc(out, *p);
			continue;
		}
		k->ph = qb_xrealloc(k->ph, (k->nph + 1) * sizeof *k->ph);
		k->ph[k->nph] = ph;
		qb_buf_appendf(out, CALC_OPEN "%zu" CALC_CLOSE, k->nph++);
		p = e;
	}
}

/* True when the '{' at p of md would read as a placeholder in qbc ('{x}',
 * '{=...}' where a placeholder may start: not TeX's '\\mathrm{kJ}'). */
static bool reads_as_placeholder(const char *md, const char *p)
{
	if (p > md && !qb_params_brace_opens(p[-1]))
		return false;
	const char *e = strchr(p + 1, '}');
	size_t n = e ? (size_t)(e - p - 1) : 0;
	return n && (p[1] == '=' || qb_params_name_ok(p + 1, n));
}

/* md with the marks made qbc's placeholders and every other '{' that
 * would read as one '\{' (a '{x}' naming nothing is an error in qbc,
 * text in Moodle); TeX's braces stay as they are. */
static void calc_restore(const mcalc *k, qb_buf *out, const char *md)
{
	for (const char *p = md; *p; p++) {
		if (strncmp(p, CALC_OPEN, sizeof CALC_OPEN - 1) == 0) {
			char *end;
			size_t i = strtoul(p + sizeof CALC_OPEN - 1, &end, 10);
			if (i < k->nph && strncmp(end, CALC_CLOSE, sizeof CALC_CLOSE - 1) == 0) {
				qb_buf_puts(out, k->ph[i]);
				p = end + sizeof CALC_CLOSE - 2;
				continue;
			}
		}
		if (*p == '{' && (p == md || p[-1] != '\\') && reads_as_placeholder(md, p))
			qb_buf_putc(out, '\\');
		qb_buf_putc(out, *p);
	}
}

/* Whether every formula of html is one qbc reads (a dry run of
 * calc_protect() on a scratch copy of k's datasets); k->why says why
 * not. */
static bool calc_readable(mcalc *k, const char *html)
{
	mcalc t = {.wild = k->wild, .name = k->name, .nwild = k->nwild, .decimals = -1};
	qb_buf out = QB_BUF_INIT;
	calc_protect(&t, &out, html);
	qb_buf_dispose(&out);
	bool ok = !t.why;
	if (t.why)
		calc_fail(k, t.why);
	t.why = NULL;
	t.wild = t.name = NULL;
	t.nwild = 0;
	mcalc_dispose(&t);
	return ok;
}

/* Whether every text of the question qn (texts, answers, feedback) and
 * every answer formula is one qbc reads. */
static bool calc_all_readable(mcalc *k, const xmlNode *qn, bool multi)
{
	static const char *const texts[] = {"questiontext", "generalfeedback", "correctfeedback",
	                                    "partiallycorrectfeedback", "incorrectfeedback"};
	bool ok = true;
	for (size_t i = 0; i < QB_NELEM(texts) && ok; i++) {
		char *s = text_of(child(qn, texts[i]));
		ok = calc_readable(k, s);
		free(s);
	}
	for (const xmlNode *a = qn->children; a && ok; a = a->next) {
		if (!is(a, "answer"))
			continue;
		char *s = multi ? text_of(a) : value_of(a);
		if (multi) {
			ok = calc_readable(k, s);
		} else if (strcmp(s, "*") != 0) {
			char *f = calc_convert(k, s);
			ok = f != NULL;
			free(f);
		}
		free(s);
		s = text_of(child(a, "feedback"));
		ok = ok && calc_readable(k, s);
		free(s);
	}
	return ok;
}

/* The datasets of qn into k: false (k->why) when they are missing or
 * lack an item. */
static bool calc_datasets(mx *x, mcalc *k, const xmlNode *qn)
{
	size_t rows = (size_t)-1;
	const xmlNode *defs = child(qn, "dataset_definitions");
	for (const xmlNode *d = defs ? defs->children : NULL; d; d = d->next) {
		if (!is(d, "dataset_definition"))
			continue;
		char *w = value_of(child(d, "name"));
		char *count = value_of(child(d, "itemcount"));
		size_t n = strtoul(count, NULL, 10);
		free(count);
		rows = n < rows ? n : rows;
		k->wild = qb_xrealloc(k->wild, (k->nwild + 1) * sizeof *k->wild);
		k->name = qb_xrealloc(k->name, (k->nwild + 1) * sizeof *k->name);
		k->name[k->nwild] = NULL;
		k->name[k->nwild] = calc_name(k, w);
		k->wild[k->nwild++] = w;
	}
	if (!k->nwild || !rows || rows == (size_t)-1) {
		calc_fail(k, qb_xstrdup(k->nwild ? _("its datasets have no items")
		                                 : _("it has no datasets")));
		return false;
	}
	k->nrows = rows;
	k->table = qb_xcalloc(rows * k->nwild, sizeof *k->table);
	k->vtext = qb_xcalloc(rows * k->nwild, sizeof *k->vtext);
	size_t i = 0;
	for (const xmlNode *d = defs->children; d; d = d->next) {
		if (!is(d, "dataset_definition"))
			continue;
		const xmlNode *items = child(d, "dataset_items");
		for (const xmlNode *it = items ? items->children : NULL; it; it = it->next) {
			if (!is(it, "dataset_item"))
				continue;
			char *num = value_of(child(it, "number")), *val = value_of(child(it, "value")), *end;
			size_t r = strtoul(num, NULL, 10);
			double v = qb_imp_strtod(val, &end);
			if (r >= 1 && r <= rows && *val && !*end && isfinite(v) && !k->vtext[(r - 1) * k->nwild + i]) {
				k->table[(r - 1) * k->nwild + i] = v;
				k->vtext[(r - 1) * k->nwild + i] = qb_xstrdup(val);
			} else if (r >= 1 && r <= rows && (!*val || *end || !isfinite(v))) {
				qb_imp_lost(x->im, loc_of(x, it), "the dataset item '%s' is not a number", val);
			}
			free(num);
			free(val);
		}
		for (size_t r = 0; r < rows; r++)
			if (!k->vtext[r * k->nwild + i]) {
				calc_fail(k, qb_xasprintf(_("its dataset '%s' has no item %zu"), k->wild[i],
				                          r + 1));
				return false;
			}
		i++;
	}
	return true;
}

/* to_md() while a calculated question is read: its placeholders kept
 * through the HTML's conversion as marks. */
static void calc_md(mx *x, qb_buf *out, const char *html, qb_imp_format f)
{
	mcalc *k = x->calc;
	qb_buf marked = QB_BUF_INIT, md = QB_BUF_INIT;
	calc_protect(k, &marked, html);
	qb_html_md_cb cb = {html_lost, html_image, x};
	qb_imp_text_md(&md, qb_buf_cstr(&marked), f, &cb);
	calc_restore(k, out, qb_buf_cstr(&md));
	qb_buf_dispose(&marked);
	qb_buf_dispose(&md);
}

/* An answer's correctanswerlength: the decimals Moodle shows its
 * formulas with (a warning when it counts significant figures). */
static int calc_length(mx *x, const xmlNode *a, bool report)
{
	char *len = value_of(child(a, "correctanswerlength"));
	char *fmt = value_of(child(a, "correctanswerformat"));
	int d = *len ? (int)strtol(len, NULL, 10) : 2;
	if (strcmp(fmt, "2") == 0 && report)
		qb_imp_lost(x->im, loc_of(x, a), "the answer is shown with %d significant figures in "
		            "Moodle; qbc shows it with %d decimals", d, d);
	free(len);
	free(fmt);
	return d < 0 ? 0 : d > 15 ? 15 : d;
}

/* A number as the .qb source writes it: plain decimals (no exponent),
 * the fewest that read back (rounded to 15 significant digits). */
static void calc_number(qb_buf *out, double v)
{
	char s[400], g[40];
	snprintf(g, sizeof g, "%.15g", v);
	double want = strtod(g, NULL);
	for (int dec = 0; dec <= 40; dec++) {
		snprintf(s, sizeof s, "%.*f", dec, want);
		if (strtod(s, NULL) == want)
			break;
	}
	qb_buf_puts(out, s);
}

/* The decimals a dataset's items are written with (the most). */
static int calc_item_decimals(const mcalc *k, size_t w)
{
	int most = 0;
	for (size_t r = 0; r < k->nrows; r++) {
		const char *v = k->vtext[r * k->nwild + w], *dot = strchr(v, '.');
		int d = dot ? (int)strspn(dot + 1, "0123456789") : 0;
		most = d > most ? d : most;
	}
	return most;
}

/* calculated, calculatedsimple, calculatedmulti: a parameterised
 * numeric, single or multiple question whose 'draws:' table is the
 * datasets' items; each dataset a variable 'h = lo..hi decimals d' (its
 * items' range and decimals; a constant 'g = 9.81'), each round() of a
 * formula a variable 'rN = F decimals d'. */
static void calculated(mx *x, xmlNode *qn, qb_loc loc, const char *type, const char *name)
{
	mcalc k = {.decimals = -1};
	bool multi = strcmp(type, "calculatedmulti") == 0;
	if (!calc_datasets(x, &k, qn)) {
		qb_imp_skip(x->im, loc, name, "%s: Moodle has no values to draw", k.why);
		mcalc_dispose(&k);
		return;
	}
	if (!calc_all_readable(&k, qn, multi)) {
		qb_imp_skip(x->im, loc, name, "qbc's formulas (GNU libmatheval's) cannot say %s",
		            k.why ? k.why : "its formulas");
		mcalc_dispose(&k);
		return;
	}
	qb_question *q;
	qb_buf answer = QB_BUF_INIT;
	for (xmlNode *a = qn->children; a && !multi; a = a->next) {
		if (!is(a, "answer") || fraction(a) < 100)
			continue;
		char *t = value_of(a);
		qb_buf b = QB_BUF_INIT;
		for (const char *c = t; *c; c++)
			if (*c != ' ')
				qb_buf_putc(&b, *c);
		free(t);
		k.answer = qb_buf_detach(&b);
		k.answer_len = calc_length(x, a, false);
		break;
	}
	x->calc = &k;
	if (multi) {
		q = qb_imp_question(x->im, choice_type(qn), loc);
		prompt_of(x, &q->prompt, qn);
		double *pct = NULL;
		size_t n = 0;
		for (xmlNode *a = qn->children; a; a = a->next) {
			if (!is(a, "answer"))
				continue;
			pct = qb_xrealloc(pct, (n + 1) * sizeof *pct);
			pct[n++] = fraction(a);
			qb_choice *c = qb_imp_choice(x->im, loc_of(x, a));
			k.decimals = calc_length(x, a, true);
			set_text(x, &c->text, a, false);
			answer_feedback(x, c, a);
			k.decimals = -1;
		}
		q = &x->im->qs[x->im->nqs - 1];
		qb_imp_marks(x->im, q, pct, loc);
		free(pct);
	} else {
		q = qb_imp_question(x->im, QB_QTYPE_NUMERIC, loc);
		prompt_of(x, &q->prompt, qn);
		drop_box_line(&q->prompt);
		double best = -1;
		xmlNode *besta = NULL;
		for (xmlNode *a = qn->children; a; a = a->next) {
			if (!is(a, "answer"))
				continue;
			char *t = value_of(a);
			double f = fraction(a);
			if (strcmp(t, "*") == 0) {
				k.decimals = calc_length(x, a, true);
				set_text(x, wrong_of(x, q), child(a, "feedback"), false);
				k.decimals = -1;
			} else if (f > best) {
				best = f;
				besta = a;
			}
			free(t);
		}
		for (xmlNode *a = qn->children; a; a = a->next)
			if (is(a, "answer") && a != besta) {
				char *t = value_of(a);
				if (strcmp(t, "*") != 0)
					qb_imp_lost(x->im, loc_of(x, a), "the answer '%s' is not carried: a "
					            "parameterised qbc question has one answer formula", t);
				free(t);
			}
		if (besta) {
			char *t = value_of(besta), *f = calc_convert(&k, t);
			char *tol = value_of(child(besta, "tolerance"));
			char *tt = value_of(child(besta, "tolerancetype")), *end;
			double v = qb_imp_strtod(tol, &end);
			if (!*tol || *end || !isfinite(v) || v < 0) {
				if (*tol)
					qb_imp_lost(x->im, loc_of(x, besta), "the tolerance '%s' is not a number: "
					            "the answer is exact", tol);
				v = 0;
			}
			if (strcmp(tt, "3") == 0)
				qb_imp_lost(x->im, loc_of(x, besta), "Moodle's geometric tolerance is "
				            "carried as a relative one");
			bool rel = strcmp(tt, "1") == 0 || strcmp(tt, "3") == 0;
			if (best < 100)
				qb_imp_lost(x->im, loc_of(x, besta), "this numeric question's best answer is "
				            "worth %g%% in the source; qbc gives it full marks", best);
			qb_buf_puts(&answer, f ? f : "0");
			if (v > 0) {
				qb_buf_puts(&answer, " \xC2\xB1 ");
				calc_number(&answer, rel ? v * 100 : v);
				if (rel)
					qb_buf_putc(&answer, '%');
			}
			/* qbc's default: 2 decimals, shown without trailing zeros,
			 * as Moodle shows a text's round(F,2) */
			int len = calc_length(x, besta, true);
			if (len != 2)
				qb_buf_appendf(&answer, " decimals %d", len);
			qb_question_rare_w(&x->im->bank->arena, q)->answer_loc = loc_of(x, besta);
			free(f);
			free(t);
			free(tol);
			free(tt);
		}
		units_of(x, q, qn);
	}
	common(x, q, qn);
	x->calc = NULL;
	/* the variables, the table, the answer */
	qb_bank *bank = x->im->bank;
	qb_params *p = qb_params_new(bank, q, loc);
	qb_buf line = QB_BUF_INIT;
	for (size_t w = 0; w < k.nwild; w++) {
		double lo = (double)INFINITY, hi = -(double)INFINITY;
		for (size_t r = 0; r < k.nrows; r++) {
			double v = k.table[r * k.nwild + w];
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		qb_buf_clear(&line);
		qb_buf_appendf(&line, "%s = ", k.name[w]);
		if (lo == hi) {
			qb_buf_puts(&line, k.vtext[w]);
		} else {
			calc_number(&line, lo);
			qb_buf_puts(&line, "..");
			calc_number(&line, hi);
			qb_buf_appendf(&line, " decimals %d", calc_item_decimals(&k, w));
		}
		qb_params_add_var(bank, p, line.ptr, line.len, loc);
	}
	for (size_t d = 0; d < k.nderived; d++) {
		qb_buf_clear(&line);
		qb_buf_appendf(&line, "%s = %s", k.dname[d], k.dformula[d]);
		if (k.dfixed[d])
			qb_buf_appendf(&line, " decimals %d", k.ddec[d]);
		qb_params_add_var(bank, p, line.ptr, line.len, loc);
	}
	qb_params_end(bank, p); /* its variables into the bank's arena */
	for (size_t r = 0; r <= k.nrows; r++) {
		qb_buf_clear(&line);
		for (size_t w = 0; w < k.nwild; w++) {
			if (w)
				qb_buf_puts(&line, " | ");
			qb_buf_puts(&line, r ? k.vtext[(r - 1) * k.nwild + w] : k.name[w]);
		}
		qb_params_table_line(bank, p, line.ptr, line.len, loc);
	}
	if (answer.len)
		qb_params_set_answer(bank, p, answer.ptr, answer.len, loc);
	qb_buf_dispose(&line);
	qb_buf_dispose(&answer);
	mcalc_dispose(&k);
}

/* ---- the file ---- */

/* qbc's own file has one category per revision,
 * "$course$/top/<title>/revision N (date)": that is the bank's title
 * (*title, heap), not a tag.  Any other category is a tag. */
static char *category_tag(const char *path, char **title, char **draws_of)
{
	const char *rev = strstr(path, "/revision ");
	free(*draws_of);
	*draws_of = NULL;
	/* "<title>/revision N (date)/<id>": the draws of the question <id>
	 * (write_moodlexml.c's write_draws()) */
	const char *sub = rev ? strchr(rev + 1, '/') : NULL;
	if (sub && sub[1] && !strchr(sub + 1, '/') && sub[-1] == ')') {
		char *within = qb_xstrndup(path, (size_t)(sub - path));
		char *tag = category_tag(within, title, draws_of);
		free(within);
		if (!tag) {
			*draws_of = qb_xstrdup(sub + 1);
			return NULL;
		}
		free(tag);
	}
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
	first_error *fe = data;
	if (!fe || fe->msg || !e)
		return;
	fe->line = e->line;
	fe->col = e->int2 > 0 ? e->int2 : 1;
	fe->msg = qb_xstrdup(e->message ? e->message : "not XML");
	size_t n = strlen(fe->msg);
	while (n && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
		fe->msg[--n] = '\0';
}

/* One <question> of the stream, a tree of its own. */
static void question(mx *x, xmlNode *qn)
{
	char tb[64];
	const char *type = prop(qn, "type", tb, sizeof tb);
	qb_loc loc = loc_of(x, qn);
	if (!type) {
		qb_diag_error(loc, "this <question> has no type=\"...\"");
		return;
	}
	if (strcmp(type, "category") == 0) {
		qb_imp_passage_end(x->im); /* a passage's questions are in its category */
		char *path = text_of(child(qn, "category"));
		free(x->category);
		x->category = category_tag(path, &x->title, &x->draws_of);
		x->ndrawn = 0;
		free(path);
		return;
	}
	if (strcmp(type, "description") == 0) {
		description(x, qn, loc);
		return;
	}
	char *name = text_of(child(qn, "name"));
	if (x->draws_of && x->ndrawn++) {
		/* the first draw is the question: the later ones are its draws */
		qb_imp_skip(x->im, loc, name, "it is another draw of question '%s' (a category of "
		            "its draws in qbc's Moodle XML): its first draw is imported", x->draws_of);
		free(name);
		return;
	}
	if (strcmp(type, "multichoice") == 0)
		multichoice(x, qn, loc);
	else if (strcmp(type, "truefalse") == 0)
		truefalse(x, qn, loc);
	else if (strcmp(type, "shortanswer") == 0)
		shortanswer(x, qn, loc);
	else if (strcmp(type, "numerical") == 0)
		numerical(x, qn, loc);
	else if (strcmp(type, "matching") == 0)
		matching(x, qn, loc);
	else if (strcmp(type, "multianswer") == 0 || strcmp(type, "cloze") == 0)
		multianswer(x, qn, loc, name);
	else if (strcmp(type, "calculated") == 0 || strcmp(type, "calculatedsimple") == 0 ||
	         strcmp(type, "calculatedmulti") == 0)
		calculated(x, qn, loc, type, name);
	else
		qb_imp_skip(x->im, loc, name, "qbc has no question type like Moodle's '%s'", type);
	free(name);
}

int qb_import_moodlexml(qb_imp *im, const char *data, size_t len)
{
	qb_diag_mark m = qb_diag_mark_now();
	first_error fe = {0, 0, NULL};
	xmlTextReaderPtr r = xmlReaderForMemory(data, (int)len, im->file, "UTF-8",
	                                        XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                            XML_PARSE_NOWARNING);
	if (r)
		xmlTextReaderSetStructuredErrorHandler(r, on_error, &fe);
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
	/* What the questions say is told once the whole file is known to be
	 * XML: of a file that is not, only that is said, as when the whole
	 * document was parsed first. */
	qb_diag_later_begin();
	bool quiz = false;
	int ret = r ? xmlTextReaderRead(r) : -1;
	while (ret == 1 && !fe.msg) {
		int depth = xmlTextReaderDepth(r);
		const char *el = xmlTextReaderNodeType(r) == XML_READER_TYPE_ELEMENT
		                     ? (const char *)xmlTextReaderConstName(r)
		                     : NULL;
		if (el && depth == 0) {
			quiz = strcmp(el, "quiz") == 0;
			if (!quiz)
				qb_diag_error(loc_of(&x, xmlTextReaderCurrentNode(r)),
				              "a Moodle XML file has <quiz> as its root element, not <%s>", el);
		} else if (el && depth == 1 && quiz && strcmp(el, "question") == 0) {
			xmlNode *qn = xmlTextReaderExpand(r);
			if (!qn)
				break;
			question(&x, qn);
			ret = xmlTextReaderNext(r); /* its tree let go */
			continue;
		}
		ret = xmlTextReaderRead(r);
	}
	qb_diag_later *said = qb_diag_later_end();
	if (!r || ret != 0 || fe.msg) {
		qb_diag_later_free(said);
		qb_diag_error(QB_LOC(im->file, fe.line, fe.col ? fe.col : 1),
		              "this is not well-formed XML: %s", fe.msg ? fe.msg : "not XML");
		free(fe.msg);
		free(x.draws_of);
		free(x.category);
		free(x.title);
		free(x.bol);
		xmlFreeTextReader(r);
		return -1;
	}
	qb_diag_later_report(said);
	if (x.penalties)
		qb_diag_note(QB_LOC(im->file, 0, 0),
		             ngettext("the penalties of %zu question for another try are not "
		                      "carried: qbc does not deduct for retries",
		                      "the penalties of %zu questions for another try are not "
		                      "carried: qbc does not deduct for retries", x.penalties),
		             x.penalties);
	free(x.category);
	free(x.draws_of);
	free(x.bol);
	if (x.title && !im->title)
		im->title = x.title;
	else
		free(x.title);
	xmlFreeTextReader(r);
	return qb_diag_errors_since(m) ? -1 : 0;
}
