/* translate.c - a bank's texts as translation units (see translate.h),
 * and the markup a translation must keep. */
#include "translate.h"
#include "params.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "arena.h"
#include "diag.h"
#include "i18n.h"
#include "lang.h"
#include "markup.h"
#include "utf8.h"

/* ---- the units ---- */

typedef struct collect_ctx {
	qb_tu_list *out;
	size_t cap;
	const qb_bank *bank;
	const char *lang, *deflang;
	const qb_question *q; /* NULL: the bank's own texts */
	char qid[64];
	char **gloss;         /* "term\tother" lines of the glossary */
	size_t ngloss;
	char gname[64];       /* the heading of the glossary's second column */
	bool no_notes;        /* qb_tu_collect_bare(): units without notes */
} collect_ctx;

/* The first line of a text, at most 80 characters, for the notes. */
static void put_short(qb_buf *b, const char *s)
{
	size_t n = strcspn(s, "\n"), full = n;
	while (n && (s[n - 1] == '\\' || s[n - 1] == ' '))
		n--; /* a hard line break */
	size_t len = n, chars = 0, i = 0;
	while (i < n && chars < 80) {
		i++;
		while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	len = i;
	qb_buf_append(b, s, len);
	if (len < full || s[full])
		qb_buf_puts(b, "…");
}

/* Whether term occurs in s as a word, ignoring ASCII case. */
static bool has_term(const char *s, const char *term)
{
	size_t n = strlen(term);
	if (n < 3)
		return false;
	for (const char *p = s; *p; p++) {
		if (strncasecmp(p, term, n) != 0)
			continue;
		bool before = p == s || !isalnum((unsigned char)p[-1]);
		bool after = !isalnum((unsigned char)p[n]);
		if (before && after)
			return true;
	}
	return false;
}

/* What markup a text holds, for its note. */
typedef struct markup_seen {
	bool math, code, link, picture, sound, gap, numeric_gap, var;
} markup_seen;

static void see_piece(void *payload, const char *kind, const char *s, size_t len)
{
	markup_seen *m = payload;
	if (!kind)
		return;
	if (strcmp(kind, "math") == 0) {
		m->math = true;
	} else if (strcmp(kind, "var") == 0) {
		m->var = true;
	} else if (strcmp(kind, "code") == 0) {
		m->code = true;
	} else if (strcmp(kind, "gap") == 0) {
		/* a numeric gap is one piece, '{{#...}}' whole */
		size_t i = 2;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (len > 4 && strncmp(s, "{{", 2) == 0 && strncmp(s + len - 2, "}}", 2) == 0 &&
		    s[i] == '#')
			m->numeric_gap = true;
		else
			m->gap = true;
	} else if (strcmp(kind, "link") == 0) {
		m->link = true;
	} else if (s[0] == ']' && len > 3) { /* a picture's or sound's "](file)" */
		char *file = qb_xstrndup(s + 2, strcspn(s + 2, " )"));
		if (qb_markup_media_kind(file) == QB_MEDIA_AUDIO)
			m->sound = true;
		else
			m->picture = true;
		free(file);
	}
}

/* A language's name for a note: "French", else its tag. */
static const char *lang_name(const char *tag)
{
	const char *en = qb_lang_english_name(tag);
	return en ? en : tag;
}

/* The note's lines on the markup of src that a translation keeps. */
static void markup_note(qb_buf *note, const char *src, const char *deflang, const char *lang)
{
	markup_seen m = {false, false, false, false, false, false, false, false};
	qb_tu_pieces(src, see_piece, &m);
	const char *keep[4];
	size_t n = 0;
	if (m.math)
		keep[n++] = "the formulas ($…$, \\(…\\))";
	if (m.code)
		keep[n++] = "the code";
	if (m.link)
		keep[n++] = "the link targets, (…) after the [link text] you translate";
	if (m.picture)
		keep[n++] = "the pictures, ![description](file): translate the description; the "
		            "file may be a picture of the language's own";
	if (n) {
		qb_buf_puts(note, "Keep as they are: ");
		for (size_t i = 0; i < n; i++)
			qb_buf_appendf(note, "%s%s", i == 0 ? "" : i + 1 == n ? "; and " : "; ", keep[i]);
		qb_buf_putc(note, '\n');
	}
	if (m.sound)
		qb_buf_appendf(note, "The sound, ![description](file), speaks %s: translate the "
		               "description, and give a recording in %s as the file if there is one\n",
		               lang_name(deflang), lang_name(lang));
	if (m.gap)
		qb_buf_appendf(note, "Cloze gaps: keep {{ }} and the marks in them ('|' between "
		               "accepted answers, '=' before the right choice, '~' before a wrong "
		               "one); translate the answers, which learners type or choose in %s\n",
		               lang_name(lang));
	if (m.numeric_gap)
		qb_buf_puts(note, "Numeric gaps, {{#number}}: keep each whole, as it is; its number "
		                  "is the same in every language\n");
	if (m.var)
		qb_buf_puts(note, "Numbers drawn for each learner, {h} and {=formula}: keep each "
		                  "as it is, where the sentence needs the number; learners see a "
		                  "number written your language's way\n");
}

static void add_unit(collect_ctx *c, const char *where, const char *elem, const qb_text *t,
                     const char *what)
{
	if (!t->present)
		return;
	const char *src = qb_text_get(t, c->deflang);
	if (!src || !*src)
		return;
	qb_tu_list *l = c->out;
	if (l->n == c->cap)
		l->v = qb_xrealloc(l->v, (c->cap = c->cap * 2 + 32) * sizeof *l->v);
	qb_tu *u = &l->v[l->n++];
	memset(u, 0, sizeof *u);
	qb_buf key = QB_BUF_INIT;
	if (c->q)
		qb_buf_appendf(&key, "%s/", c->qid);
	qb_buf_puts(&key, where);
	u->key = qb_xstrdup(qb_buf_cstr(&key)); /* its size: a bank has many */
	qb_buf_dispose(&key);
	u->qid = c->q ? (c->q->id ? c->q->id : NULL) : "-";
	snprintf(u->elem, sizeof u->elem, "%s", u->qid ? elem : "");
	u->text = t;
	u->source = src;
	u->target = qb_text_get(t, c->lang);
	u->state = u->target ? QB_TU_TRANSLATED : QB_TU_UNTRANSLATED;
	if (c->no_notes)
		return;
	qb_buf note = QB_BUF_INIT;
	if (c->q) {
		const char *prompt = qb_text_get(&c->q->prompt, c->deflang);
		qb_buf_appendf(&note, "Question %d (%s)", c->q->number, qb_qtype_name(c->q->type));
		if (t != &c->q->prompt && prompt) {
			qb_buf_puts(&note, ": ");
			put_short(&note, prompt);
		}
		qb_buf_putc(&note, '\n');
	}
	qb_buf_appendf(&note, "%s\n", what);
	markup_note(&note, src, c->deflang, c->lang);
	for (size_t i = 0; i < c->ngloss; i++) {
		char *tab = strchr(c->gloss[i], '\t');
		*tab = '\0';
		if (has_term(src, c->gloss[i]))
			qb_buf_appendf(&note, "Glossary: %s (%s: %s)\n", c->gloss[i], c->gname,
			               tab + 1);
		*tab = '\t';
	}
	note.ptr[--note.len] = '\0'; /* the last '\n' */
	u->note = qb_xstrdup(note.ptr); /* its size: a bank has many */
	qb_buf_dispose(&note);
}

/* The cells of a table row ("| a | b |" without its first '|'), trimmed,
 * in place; returns how many (at most max). */
static size_t row_cells(char *row, char **cell, size_t max)
{
	size_t n = 0;
	for (char *p = row; p && n < max;) {
		char *bar = strchr(p, '|');
		if (!bar)
			break; /* the text after the last '|' is no cell */
		*bar = '\0';
		p += strspn(p, " \t");
		for (char *e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = '\0';
		cell[n++] = p;
		p = bar + 1;
	}
	return n;
}

/* Whether a glossary's column heading names the language tag: its
 * English or own name, or the tag itself. */
static bool names_lang(const char *heading, const char *tag)
{
	const char *en = qb_lang_english_name(tag), *own = qb_lang_native_name(tag);
	return strcasecmp(heading, tag) == 0 || (en && strcasecmp(heading, en) == 0) ||
	       (own && strcasecmp(heading, own) == 0);
}

/* Reads the glossary's table rows ("| term | other | notes |") into
 * "term\tother" lines: each term of the source language's cell (the
 * column its header names, else the first; split at '/' and ',', without
 * parentheses) with the target language's cell.  A table with no column
 * for the target language gives no terms: its other columns are other
 * languages'. */
static void read_glossary(collect_ctx *c, const char *text)
{
	size_t cap = 0, scol = 0, tcol = 0;
	bool header = true, table = false;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n && p[0] == '|') {
			char *row = qb_xstrndup(p + 1, n - 1), *cell[16];
			bool rule = strspn(row, "|-: ") == strlen(row);
			size_t ncells = row_cells(row, cell, 16);
			if (header && !rule) {
				table = false;
				scol = 0;
				for (size_t k = 0; k < ncells; k++)
					if (names_lang(cell[k], c->deflang)) {
						scol = k;
						break;
					}
				for (size_t k = 0; k < ncells; k++)
					if (k != scol && names_lang(cell[k], c->lang)) {
						tcol = k;
						table = true;
						snprintf(c->gname, sizeof c->gname, "%s", cell[k]);
						break;
					}
			} else if (table && !rule && scol < ncells && tcol < ncells && *cell[tcol]) {
				const char *other = cell[tcol];
				for (char *tok = cell[scol]; *tok;) {
					size_t len = strcspn(tok, "/,");
					char term[128];
					size_t k = 0;
					int depth = 0;
					for (size_t i = 0; i < len && k + 1 < sizeof term; i++) {
						depth += tok[i] == '(';
						if (!depth && tok[i] != '*' && tok[i] != '`')
							term[k++] = tok[i];
						depth -= tok[i] == ')' && depth;
					}
					term[k] = '\0';
					char *s = term + strspn(term, " ");
					for (char *e = s + strlen(s); e > s && e[-1] == ' ';)
						*--e = '\0';
					if (strlen(s) >= 3) {
						if (c->ngloss == cap)
							c->gloss = qb_xrealloc(c->gloss,
							                       (cap = cap * 2 + 16) * sizeof *c->gloss);
						qb_buf g = QB_BUF_INIT;
						qb_buf_appendf(&g, "%s\t%s", s, other);
						c->gloss[c->ngloss++] = qb_buf_detach(&g);
					}
					tok += len;
					tok += *tok != '\0';
				}
			}
			header = rule ? false : header;
			free(row);
		} else {
			header = true; /* the next table's first row is its header */
		}
		p = nl ? nl + 1 : NULL;
	}
}

/* The units with a record entry sorted by question and element, for
 * the record's stale texts. */
typedef struct stale_mark {
	const char *lang;
	qb_tu **by;
	size_t n;
} stale_mark;

static int cmp_elem(const qb_tu *x, const char *qid, const char *elem)
{
	int d = strcmp(x->qid, qid);
	return d ? d : strcmp(x->elem, elem);
}

static int cmp_unit_elem(const void *a, const void *b)
{
	const qb_tu *y = *(const qb_tu *const *)b;
	return cmp_elem(*(const qb_tu *const *)a, y->qid, y->elem);
}

static void mark_stale(void *payload, const char *qid, const char *elem, const char *lang)
{
	stale_mark *m = payload;
	if (strcmp(lang, m->lang) != 0)
		return;
	size_t lo = 0, hi = m->n;
	while (lo < hi) { /* the first unit not before (qid, elem) */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_elem(m->by[mid], qid, elem) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->n && cmp_elem(m->by[lo], qid, elem) == 0; lo++)
		if (m->by[lo]->target)
			m->by[lo]->state = QB_TU_STALE;
}

static void collect_question(collect_ctx *c, const qb_question *q)
{
	char where[64], elem[32], what[160];
	c->q = q;
	if (q->id)
		snprintf(c->qid, sizeof c->qid, "%s", q->id);
	else
		snprintf(c->qid, sizeof c->qid, "#%d", q->number);
	add_unit(c, "prompt", "prompt", &q->prompt,
	         "The prompt");
	const char *noun = q->type == QB_QTYPE_SHORT      ? "answer"
	                   : q->type == QB_QTYPE_MATCHING ? "pair"
	                                                  : "option";
	for (size_t i = 0; i < q->nchoices && q->type != QB_QTYPE_TRUE_FALSE; i++) {
		const qb_choice *ch = &q->choices[i];
		snprintf(where, sizeof where, "%s %zu", noun, i + 1);
		snprintf(elem, sizeof elem, "option-%zu", i + 1);
		if (q->type == QB_QTYPE_SHORT)
			snprintf(what, sizeof what,
			         ch->correct ? "Accepted answer %zu: what a learner types in %s to be "
			                       "right (plain text)"
			                     : "Wrong answer %zu: a mistake a learner types in %s, "
			                       "recognised for its feedback (plain text)",
			         i + 1, lang_name(c->lang));
		else if (q->type == QB_QTYPE_MATCHING)
			snprintf(what, sizeof what, "Pair %zu of %zu, left side", i + 1, q->nchoices);
		else
			snprintf(what, sizeof what, "Option %zu of %zu (%s)", i + 1, q->nchoices,
			         ch->correct ? "correct" : "wrong");
		size_t first = c->out->n;
		add_unit(c, where, elem, &ch->text, what);
		if (q->type == QB_QTYPE_MATCHING) {
			char w2[80];
			snprintf(w2, sizeof w2, "%s/right", where);
			snprintf(elem, sizeof elem, "match-%zu", i + 1);
			if (ch->text.present)
				snprintf(what, sizeof what, "Pair %zu of %zu, right side", i + 1,
				         q->nchoices);
			else
				snprintf(what, sizeof what, "A distractor: a right side that matches no "
				         "left side (pair %zu of %zu)", i + 1, q->nchoices);
			add_unit(c, w2, elem, qb_choice_match(ch), what);
			for (size_t k = first; k < c->out->n; k++)
				c->out->v[k].pair = ch;
		}
		char w3[80];
		snprintf(w3, sizeof w3, "%s/feedback", where);
		snprintf(elem, sizeof elem, "feedback-%zu", i + 1);
		if (q->type == QB_QTYPE_SHORT)
			snprintf(what, sizeof what, "Feedback shown when the learner types %s %zu",
			         ch->correct ? "accepted answer" : "wrong answer", i + 1);
		else
			snprintf(what, sizeof what, "Feedback shown when the learner chooses %s %zu",
			         noun, i + 1);
		add_unit(c, w3, elem, &ch->feedback, what);
	}
	if (q->type == QB_QTYPE_TRUE_FALSE) {
		add_unit(c, "feedback-true", "feedback-1", qb_question_feedback(q, true),
		         "Feedback shown when the learner answers 'true'");
		add_unit(c, "feedback-false", "feedback-2", qb_question_feedback(q, false),
		         "Feedback shown when the learner answers 'false'");
	}
	size_t k = 0;
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		char w[48], e[48];
		k++;
		snprintf(w, sizeof w, "answer %zu/feedback", k + 1);
		snprintf(e, sizeof e, "answer-feedback-%zu", k);
		snprintf(what, sizeof what, "Feedback shown when the learner's number is in further "
		         "answer %zu (%g%% of the mark)", k, m->credit);
		add_unit(c, w, e, &m->feedback, what);
	}
	add_unit(c, "feedback-wrong", "feedback-wrong", qb_question_feedback_wrong(q),
	         "Feedback shown for any wrong answer");
	add_unit(c, "explanation", "explanation", &q->explanation,
	         "The explanation, shown after the answer");
}

/* A passage's text: the unit 'passage-<id>', its record entry the
 * passage's id and 'passage' (qb_rev_each_element()). */
static void collect_passage(collect_ctx *c, const qb_passage *p)
{
	if (!p->id)
		return;
	size_t n = c->out->n;
	char key[96];
	snprintf(key, sizeof key, "passage-%s", p->id);
	c->q = NULL;
	add_unit(c, key, "passage", &p->text,
	         "A passage (a reading, a picture or a sound), shown with each question that "
	         "is read with it");
	if (c->out->n > n)
		c->out->v[n].qid = p->id;
}

static void collect(qb_tu_list *out, const qb_bank *bank, const char *lang,
                    const qb_revisions *rev, const char *glossary, bool no_notes)
{
	collect_ctx c = {out, 0, bank, lang, qb_bank_default_lang(bank), NULL, "", NULL, 0, "",
	                 no_notes};
	out->v = NULL;
	out->n = 0;
	out->header = out->header_comments = NULL;
	if (!c.deflang)
		return;
	if (glossary)
		read_glossary(&c, glossary);
	add_unit(&c, "title", "title", &bank->title, "The bank's title");
	add_unit(&c, "description", "description", &bank->description,
	         "The bank's description, shown before the questions");
	for (size_t i = 0; i < bank->npassages; i++)
		collect_passage(&c, &bank->passages[i]);
	for (size_t i = 0; i < bank->nquestions; i++)
		collect_question(&c, &bank->questions[i]);
	if (out->n)
		out->v = qb_xrealloc(out->v, out->n * sizeof *out->v); /* its size */
	for (size_t i = 0; rev && i < out->n; i++) {
		qb_tu *u = &out->v[i];
		if (u->state == QB_TU_TRANSLATED && u->qid && *u->elem &&
		    qb_rev_text_reviewed(rev, u->qid, u->elem, lang, u->target))
			u->state = QB_TU_REVIEWED;
	}
	if (rev) {
		stale_mark m = {lang, qb_xcalloc(out->n + 1, sizeof(qb_tu *)), 0};
		for (size_t i = 0; i < out->n; i++)
			if (out->v[i].qid)
				m.by[m.n++] = &out->v[i];
		if (m.n)
			qsort(m.by, m.n, sizeof *m.by, cmp_unit_elem);
		qb_rev_stale_texts(rev, bank, mark_stale, &m);
		free(m.by);
	}
	for (size_t i = 0; i < c.ngloss; i++)
		free(c.gloss[i]);
	free(c.gloss);
}

/* ---- the units a part at a time ---- */

/* A stale text of the record in the language: its question and element. */
typedef struct stale_elem {
	char *qid, *elem;
} stale_elem;

struct qb_tu_walk {
	collect_ctx c;
	qb_tu_list part;
	const qb_revisions *rev;
	stale_elem *stale;   /* sorted                                   */
	size_t nstale, stalecap;
	size_t next;         /* the next question; SIZE_MAX: the bank's own texts first */
	size_t nstate[4];    /* the units so far by state                */
	size_t total;
};

static void walk_stale(void *payload, const char *qid, const char *elem, const char *lang)
{
	qb_tu_walk *w = payload;
	if (strcmp(lang, w->c.lang) != 0)
		return;
	if (w->nstale == w->stalecap)
		w->stale = qb_xrealloc(w->stale, (w->stalecap = w->stalecap * 2 + 16) * sizeof *w->stale);
	w->stale[w->nstale++] = (stale_elem){qb_xstrdup(qid), qb_xstrdup(elem)};
}

static int cmp_stale(const void *a, const void *b)
{
	const stale_elem *x = a, *y = b;
	int d = strcmp(x->qid, y->qid);
	return d ? d : strcmp(x->elem, y->elem);
}

qb_tu_walk *qb_tu_walk_new(const qb_bank *bank, const char *lang, const qb_revisions *rev,
                           const char *glossary)
{
	qb_tu_walk *w = qb_xcalloc(1, sizeof *w);
	w->c = (collect_ctx){&w->part, 0, bank, lang, qb_bank_default_lang(bank), NULL, "", NULL, 0,
	                     "", false};
	w->rev = rev;
	w->next = SIZE_MAX;
	if (glossary)
		read_glossary(&w->c, glossary);
	/* The record's stale texts in the language, once: a part's units
	 * look theirs up. */
	if (rev && w->c.deflang) {
		qb_rev_stale_texts(rev, bank, walk_stale, w);
		if (w->nstale)
			qsort(w->stale, w->nstale, sizeof *w->stale, cmp_stale);
	}
	return w;
}

bool qb_tu_walk_next(qb_tu_walk *w)
{
	qb_tu_dispose(&w->part);
	w->c.cap = 0;
	const qb_bank *bank = w->c.bank;
	if (!w->c.deflang)
		return false;
	if (w->next == SIZE_MAX) {
		w->c.q = NULL;
		add_unit(&w->c, "title", "title", &bank->title, "The bank's title");
		add_unit(&w->c, "description", "description", &bank->description,
		         "The bank's description, shown before the questions");
		for (size_t i = 0; i < bank->npassages; i++)
			collect_passage(&w->c, &bank->passages[i]);
		w->next = 0;
	}
	while (w->next < bank->nquestions && w->part.n < QB_TU_PART)
		collect_question(&w->c, &bank->questions[w->next++]);
	for (size_t i = 0; i < w->part.n; i++) {
		qb_tu *u = &w->part.v[i];
		if (u->target && u->qid && *u->elem && w->nstale) {
			stale_elem k = {(char *)u->qid, u->elem};
			if (bsearch(&k, w->stale, w->nstale, sizeof *w->stale, cmp_stale))
				u->state = QB_TU_STALE;
		}
		if (w->rev && u->state == QB_TU_TRANSLATED && u->qid && *u->elem &&
		    qb_rev_text_reviewed(w->rev, u->qid, u->elem, w->c.lang, u->target))
			u->state = QB_TU_REVIEWED;
		w->nstate[u->state]++;
	}
	w->total += w->part.n;
	return w->part.n > 0;
}

const qb_tu_list *qb_tu_walk_part(const qb_tu_walk *w)
{
	return &w->part;
}

size_t qb_tu_walk_counts(const qb_tu_walk *w, size_t nstate[4])
{
	memcpy(nstate, w->nstate, sizeof w->nstate);
	return w->total;
}

void qb_tu_walk_free(qb_tu_walk *w)
{
	if (!w)
		return;
	qb_tu_dispose(&w->part);
	for (size_t i = 0; i < w->nstale; i++) {
		free(w->stale[i].qid);
		free(w->stale[i].elem);
	}
	free(w->stale);
	for (size_t i = 0; i < w->c.ngloss; i++)
		free(w->c.gloss[i]);
	free(w->c.gloss);
	free(w);
}

void qb_tu_collect(qb_tu_list *out, const qb_bank *bank, const char *lang,
                   const qb_revisions *rev, const char *glossary)
{
	collect(out, bank, lang, rev, glossary, false);
}

void qb_tu_collect_bare(qb_tu_list *out, const qb_bank *bank, const char *lang)
{
	collect(out, bank, lang, NULL, NULL, true);
}

void qb_tu_dispose(qb_tu_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].note);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const qb_tu *qb_tu_find(const qb_tu_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

/* ---- a translator's units found in the bank ---- */

/* A choice's unit: "q/option 2", "q/pair 3/right", "q/answer 1/feedback".
 * group is the key's "q/option" (its length glen), idx the number, rest
 * what follows it ("", "/right", "/feedback"). */
typedef struct choice_ref {
	const char *key;
	size_t glen, idx;
	const char *rest;
	const char *ident;  /* the choice's own source, or its right side's */
	size_t to;          /* file: the bank's number, 0 when removed */
	bool claimed;       /* bank: taken by a unit of the file */
	bool resolved;      /* file: to is known */
} choice_ref;

static bool choice_key(const char *key, choice_ref *r)
{
	static const char *const nouns[] = {"option ", "answer ", "pair "};
	const char *slash = strchr(key, '/');
	if (!slash)
		return false;
	for (size_t k = 0; k < sizeof nouns / sizeof *nouns; k++) {
		size_t n = strlen(nouns[k]);
		if (strncmp(slash + 1, nouns[k], n) != 0)
			continue;
		const char *d = slash + 1 + n;
		size_t idx = 0, nd = 0;
		while (d[nd] >= '0' && d[nd] <= '9' && nd < 9)
			idx = idx * 10 + (size_t)(d[nd++] - '0');
		if (!nd || !idx || (d[nd] && d[nd] != '/'))
			return false;
		r->key = key;
		r->glen = (size_t)(slash - key) + n; /* "q/option" */
		r->idx = idx;
		r->rest = d + nd;
		return true;
	}
	return false;
}

static int cmp_group(const choice_ref *x, const choice_ref *y)
{
	size_t n = x->glen < y->glen ? x->glen : y->glen;
	int d = memcmp(x->key, y->key, n);
	return d ? d : (x->glen > y->glen) - (x->glen < y->glen);
}

/* By group, number, then the choice's own text before its right side. */
static int cmp_ref(const void *a, const void *b)
{
	const choice_ref *x = a, *y = b;
	int d = cmp_group(x, y);
	if (d)
		return d;
	if (x->idx != y->idx)
		return (x->idx > y->idx) - (x->idx < y->idx);
	return (*x->rest > *y->rest) - (*x->rest < *y->rest);
}

/* One ref per choice: its own text, else its right side ("/right"). */
static size_t choice_refs(choice_ref *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof *v, cmp_ref);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || cmp_group(&v[m - 1], &v[i]) != 0 || v[m - 1].idx != v[i].idx)
			v[m++] = v[i];
	return m;
}

static void add_ref(choice_ref **v, size_t *n, size_t *cap, const char *key, const char *source)
{
	choice_ref r;
	if (!choice_key(key, &r) || (*r.rest && strcmp(r.rest, "/right") != 0))
		return;
	if (*n == *cap)
		*v = qb_xrealloc(*v, (*cap = *cap * 2 + 64) * sizeof **v);
	r.ident = source;
	r.to = 0;
	r.claimed = r.resolved = false;
	(*v)[(*n)++] = r;
}

/* The choices of one question's group: the file's choices F take the
 * bank's B with the same text at the same number, then the one choice
 * with that text elsewhere (moved; none when several could be), then,
 * for a text changed in place, the same number when no other choice
 * took it; else the choice was removed. */
static void match_group(choice_ref *F, size_t a, choice_ref *B, size_t b)
{
	for (size_t i = 0; i < a; i++)
		for (size_t k = 0; k < b; k++)
			if (B[k].idx == F[i].idx && strcmp(B[k].ident, F[i].ident) == 0) {
				F[i].to = B[k].idx;
				F[i].resolved = B[k].claimed = true;
			}
	for (size_t i = 0; i < a; i++) {
		if (F[i].resolved)
			continue;
		size_t hit = b, count = 0;
		for (size_t k = 0; k < b; k++)
			if (!B[k].claimed && strcmp(B[k].ident, F[i].ident) == 0)
				hit = k, count++;
		if (count == 1) {
			F[i].to = B[hit].idx;
			F[i].resolved = B[hit].claimed = true;
		}
	}
	for (size_t i = 0; i < a; i++) {
		if (F[i].resolved)
			continue;
		F[i].resolved = true;
		F[i].to = 0;
		for (size_t k = 0; k < b; k++)
			if (B[k].idx == F[i].idx && !B[k].claimed) {
				F[i].to = B[k].idx;
				B[k].claimed = true;
			}
	}
}

static int cmp_unit_key(const void *a, const void *b)
{
	return strcmp((*(const qb_tu *const *)a)->key, (*(const qb_tu *const *)b)->key);
}

static const qb_tu *find_sorted(const qb_tu **by, size_t n, const char *key)
{
	qb_tu k;
	k.key = (char *)key;
	const qb_tu *kp = &k, **hit = bsearch(&kp, by, n, sizeof *by, cmp_unit_key);
	return hit ? *hit : NULL;
}

void qb_tu_match(const qb_tu_list *l, const qb_tu_file *f, size_t *map)
{
	const qb_tu **by = qb_xcalloc(l->n + 1, sizeof *by);
	choice_ref *B = NULL, *F = NULL;
	size_t nb = 0, nf = 0, cap = 0;
	qb_buf key = QB_BUF_INIT;
	for (size_t i = 0; i < l->n; i++) {
		by[i] = &l->v[i];
		add_ref(&B, &nb, &cap, l->v[i].key, l->v[i].source);
	}
	if (l->n)
		qsort(by, l->n, sizeof *by, cmp_unit_key);
	cap = 0;
	for (size_t i = 0; i < f->n; i++)
		add_ref(&F, &nf, &cap, f->v[i].key, f->v[i].source);
	nb = choice_refs(B, nb);
	nf = choice_refs(F, nf);
	/* Both sorted by group: walk them together. */
	for (size_t i = 0, k = 0; i < nf;) {
		size_t ie = i, ke;
		while (ie < nf && cmp_group(&F[ie], &F[i]) == 0)
			ie++;
		while (k < nb && cmp_group(&B[k], &F[i]) < 0)
			k++;
		for (ke = k; ke < nb && cmp_group(&B[ke], &F[i]) == 0;)
			ke++;
		match_group(F + i, ie - i, B + k, ke - k);
		i = ie;
		k = ke;
	}
	for (size_t i = 0; i < f->n; i++) {
		const char *k = f->v[i].key;
		choice_ref r, *hit = NULL;
		map[i] = SIZE_MAX;
		if (choice_key(k, &r)) {
			r.rest = "";
			hit = nf ? bsearch(&r, F, nf, sizeof *F, cmp_ref) : NULL;
			if (!hit) { /* a pair without a left side: its right side */
				r.rest = "/right";
				hit = nf ? bsearch(&r, F, nf, sizeof *F, cmp_ref) : NULL;
			}
			choice_key(k, &r);
		}
		if (hit && !hit->to)
			continue; /* its choice was removed */
		if (hit && hit->to != r.idx) {
			qb_buf_clear(&key);
			qb_buf_appendf(&key, "%.*s %zu%s", (int)r.glen, k, hit->to, r.rest);
			k = qb_buf_cstr(&key);
		}
		const qb_tu *u = find_sorted(by, l->n, k);
		if (u)
			map[i] = (size_t)(u - l->v);
	}
	qb_buf_dispose(&key);
	free(B);
	free(F);
	free(by);
}

static int cmp_comment(const void *a, const void *b)
{
	return strcmp(((const qb_tu_comment *)a)->key, ((const qb_tu_comment *)b)->key);
}

void qb_tu_kept_dispose(qb_tu_kept *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].text);
	}
	free(k->v);
	free(k->header);
	free(k->header_comments);
	memset(k, 0, sizeof *k);
}

int qb_tu_merge(qb_tu_list *l, const qb_tu_file *f, const qb_tu_kept *kept,
                const char *fpath, bool record, size_t *nprev, size_t *nkept)
{
	size_t *map = qb_xcalloc(f->n + 1, sizeof *map);
	int rc = 0;
	*nprev = *nkept = 0;
	qb_tu_match(l, f, map);
	/* The first unit of a key given twice wins, as in the import. */
	bool *seen = qb_xcalloc(l->n + 1, sizeof *seen);
	for (size_t i = 0; i < f->n; i++) {
		const qb_tu_in *in = &f->v[i];
		if (map[i] == SIZE_MAX || seen[map[i]])
			continue;
		qb_tu *u = &l->v[map[i]];
		seen[map[i]] = true;
		if (kept && kept->n) {
			qb_tu_comment key = {in->key, NULL};
			const qb_tu_comment *c = bsearch(&key, kept->v, kept->n, sizeof *kept->v,
			                                 cmp_comment);
			if (c && c->text && *c->text)
				u->comment = c->text;
		}
		if (strcmp(in->source, u->source) == 0) {
			if (!*in->target)
				continue;
			if (!u->target) {
				u->target = in->target;
				u->state = in->fuzzy ? QB_TU_STALE : QB_TU_TRANSLATED;
				(*nkept)++;
			} else if (strcmp(u->target, in->target) != 0) {
				qb_diag_error(QB_LOC(fpath, in->line, in->line ? 1 : 0),
				              "the translation of '%s' here is not the bank's, and writing "
				              "over this file would lose it: import the file first to keep "
				              "it, or move the file away (or export with -o) to keep the "
				              "bank's", in->key);
				rc = -1;
			} else if (u->state == QB_TU_STALE && !in->fuzzy) {
				u->state = QB_TU_TRANSLATED; /* the translator checked it */
			}
			continue;
		}
		if (record && (u->state == QB_TU_TRANSLATED || u->state == QB_TU_REVIEWED))
			continue; /* translated again since the source changed */
		if (*in->target && (!u->target || strcmp(u->target, in->target) != 0)) {
			u->target = in->target; /* the translator's, not yet imported */
			(*nkept)++;
		}
		if (!u->target)
			continue; /* nothing to correct: untranslated */
		u->prev = in->source;
		u->state = QB_TU_STALE;
		(*nprev)++;
	}
	free(seen);
	free(map);
	return rc;
}

/* ---- markup ---- */

/* The end of the protected piece that starts at s[i], or 0 when none
 * does; *kind says what it is.  Unclosed markup is no piece (Markdown
 * shows it as it is), so a translation that breaks one lacks it. */
static size_t piece_at(const char *s, size_t i, const char **kind)
{
	const char *p = s + i;
	bool line_start = i == 0 || s[i - 1] == '\n';
	if (line_start && (strncmp(p, "```", 3) == 0 || strncmp(p, "~~~", 3) == 0)) {
		size_t k = 0;
		while (p[k] == p[0])
			k++;
		for (const char *q = strchr(p, '\n'); q; q = strchr(q + 1, '\n')) {
			size_t m = 0;
			const char *r = q + 1 + strspn(q + 1, " ");
			while (r[m] == p[0])
				m++;
			if (m >= k) {
				*kind = "code";
				return (size_t)(r + m - s);
			}
		}
		return 0;
	}
	if (p[0] == '\\' && p[1] == '(') {
		const char *e = strstr(p + 2, "\\)");
		*kind = "math";
		return e ? (size_t)(e + 2 - s) : 0;
	}
	if (p[0] == '`') {
		size_t k = 0;
		while (p[k] == '`')
			k++;
		for (const char *q = p + k; (q = strchr(q, '`')) != NULL;) {
			size_t m = 0;
			while (q[m] == '`')
				m++;
			if (m == k) {
				*kind = "code";
				return (size_t)(q + m - s);
			}
			q += m;
		}
		return 0;
	}
	if (p[0] == '$') {
		size_t k = p[1] == '$' ? 2 : 1;
		for (const char *q = p + k; *q; q++) {
			if (*q == '\\' && q[1]) {
				q++;
				continue;
			}
			if (*q == '$' && (k == 1 || q[1] == '$')) {
				*kind = "math";
				return (size_t)(q + k - s);
			}
		}
		return 0;
	}
	if (p[0] == ']' && p[1] == '(') {
		const char *e = strchr(p + 2, ')');
		/* A picture or sound ('![..](..)') may be one of the
		 * language's own; a link's target is kept. */
		size_t j = i;
		while (j > 0 && s[j - 1] != '[')
			j--;
		*kind = j > 1 && s[j - 2] == '!' ? "media" : "link";
		return e ? (size_t)(e + 1 - s) : 0;
	}
	if (p[0] == '{' && p[1] == '{') {
		const char *e = strstr(p + 2, "}}");
		*kind = "gap";
		return e ? (size_t)(e + 2 - s) : 0;
	}
	if (p[0] == '{' && (i == 0 || qb_params_brace_opens(s[i - 1]))) {
		/* a drawn number: '{h}', '{=2*h}' (params.h) */
		const char *e = strchr(p + 1, '}');
		size_t n = e ? (size_t)(e - p - 1) : 0;
		if (e && n && !memchr(p + 1, '{', n) &&
		    (p[1] == '=' || qb_params_name_ok(p + 1, n))) {
			*kind = "var";
			return (size_t)(e + 1 - s);
		}
	}
	return 0;
}

/* The '[' or '![' that opens the link or picture starting at s[i] (the
 * last '[' before a "](...)"), or 0; *kind: "link" or "media". */
static size_t opener_at(const char *s, size_t i, const char **kind)
{
	size_t k = s[i] == '!' ? 1 : 0;
	if (s[i + k] != '[')
		return 0;
	for (const char *p = s + i + k + 1; *p && *p != '['; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != ']')
			continue;
		if (p[1] != '(' || !strchr(p + 2, ')'))
			return 0;
		/* Picture and sound pieces as piece_at() names their target. */
		*kind = k ? "media" : "link";
		return k + 1;
	}
	return 0;
}

/* A cloze gap s[0..len) ("{{=right ~wrong}}", "{{a|b}}") as its markup
 * (the braces and the marks, kind "gap") around its answers, which are
 * text to translate; the answers as qb_cloze_split() reads them. */
static void gap_pieces(const char *s, size_t len, qb_tu_piece_fn fn, void *payload)
{
	qb_arena a = QB_ARENA_INIT;
	char *gap = qb_xstrndup(s, len);
	qb_cloze_part *parts = NULL;
	size_t nparts = 0, at = 0;
	const qb_cloze_gap *g = NULL;
	if (qb_cloze_split(&a, gap, &parts, &nparts) == 1)
		for (size_t k = 0; k < nparts; k++)
			g = parts[k].gap ? parts[k].gap : g;
	if (g && g->num)
		g = NULL; /* a numeric gap's number is markup: whole, not translated */
	for (size_t k = 0; g && k < g->nanswers; k++) {
		size_t n = strlen(g->answers[k]);
		const char *hit = n ? strstr(gap + at, g->answers[k]) : NULL;
		if (!hit || (size_t)(hit - gap) + n > len - 2)
			continue;
		size_t off = (size_t)(hit - gap);
		if (off > at)
			fn(payload, "gap", s + at, off - at);
		fn(payload, NULL, s + off, n);
		at = off + n;
	}
	fn(payload, "gap", s + at, len - at);
	free(gap);
	qb_arena_dispose(&a);
}

void qb_tu_pieces(const char *text, qb_tu_piece_fn fn, void *payload)
{
	size_t lit = 0, i = 0;
	while (text[i]) {
		const char *kind = NULL;
		if (text[i] == '\\' && text[i + 1] && text[i + 1] != '(') {
			i += 2; /* an escaped character is literal */
			continue;
		}
		size_t end = piece_at(text, i, &kind);
		if (!end && (text[i] == '[' || text[i] == '!')) {
			size_t n = opener_at(text, i, &kind);
			end = n ? i + n : 0;
		}
		if (!end) {
			i++;
			continue;
		}
		if (i > lit)
			fn(payload, NULL, text + lit, i - lit);
		if (strcmp(kind, "gap") == 0)
			gap_pieces(text + i, end - i, fn, payload);
		else
			fn(payload, kind, text + i, end - i);
		lit = i = end;
	}
	if (i > lit)
		fn(payload, NULL, text + lit, i - lit);
}

typedef struct piece_list {
	char **v;
	size_t n, cap;
} piece_list;

/* A picture or sound may be the language's own: it counts by its kind
 * only, under a name no other piece can have; a cloze gap's answers are
 * translated, and its structure is checked by gaps_check(); every other
 * piece counts by its exact text. */
#define PIECE_MEDIA "![…](…)"

static void add_piece(void *payload, const char *kind, const char *s, size_t len)
{
	piece_list *l = payload;
	/* A picture's opening '![' counts with its "](file)": once. */
	if (!kind || strcmp(kind, "gap") == 0 || (strcmp(kind, "media") == 0 && s[0] == '!'))
		return;
	if (l->n == l->cap)
		l->v = qb_xrealloc(l->v, (l->cap = l->cap * 2 + 8) * sizeof *l->v);
	if (strcmp(kind, "media") == 0 && s[0] == ']')
		l->v[l->n++] = qb_xstrdup(PIECE_MEDIA);
	else
		l->v[l->n++] = qb_xstrndup(s, len);
}

/* A piece as a message names it: a picture or sound by its kind, in the
 * user's language. */
static const char *piece_name(const char *piece)
{
	return strcmp(piece, PIECE_MEDIA) == 0 ? _("![…](…) (a picture or sound)") : piece;
}

/* A numeric gap ('{{#9.81 ± 0.05}}') is the same in every language:
 * the source's gap x and the translation's y (gap k) are both numeric
 * with the same number as written, or neither is. */
static int numeric_gap_check(const qb_cloze_gap *x, const qb_cloze_gap *y, size_t k, qb_buf *why)
{
	if (!x->num && !y->num)
		return 0;
	if (x->num && y->num && strcmp(x->answers[0], y->answers[0]) == 0)
		return 0;
	if (x->num)
		qb_buf_appendf(why, _("gap %zu is a numeric gap ('{{#%s}}') in the source: keep it "
		                      "exactly as it is, its number is not translated"), k, x->answers[0]);
	else
		qb_buf_appendf(why, _("gap %zu is not a numeric gap in the source, but it is in the "
		                      "translation: an answer does not start with '#'"), k);
	return -1;
}

/* The cloze gaps of target against those of source, one by one: the
 * same number, each of the same kind (typed, or a choice); a choice gap
 * keeps its right choice ('=') and its number of choices; no answer is
 * empty.  The answers themselves are the translator's. */
static int gaps_check(const char *source, const char *target, qb_buf *why)
{
	qb_arena a = QB_ARENA_INIT;
	qb_cloze_part *ps = NULL, *pt = NULL;
	size_t nps = 0, npt = 0;
	int gs = qb_cloze_split(&a, source, &ps, &nps), gt = qb_cloze_split(&a, target, &pt, &npt);
	int rc = -1;
	if (gt < 0 && gs >= 0) {
		qb_buf_puts(why, _("a '{{' of the translation has no '}}': keep each gap's braces "
		                   "as they are"));
		goto done;
	}
	if (gs != gt) {
		qb_buf_appendf(why, ngettext("the translation has %d cloze gap, the source %d: keep "
		                             "each {{…}} gap and translate the answers inside it",
		                             "the translation has %d cloze gaps, the source %d: keep "
		                             "each {{…}} gap and translate the answers inside it",
		                             (unsigned long)(gt < 0 ? 0 : gt)),
		               gt < 0 ? 0 : gt, gs);
		goto done;
	}
	for (size_t i = 0, j = 0, k = 1; i < nps && j < npt; i++, j++, k++) {
		while (i < nps && !ps[i].gap)
			i++;
		while (j < npt && !pt[j].gap)
			j++;
		if (i == nps || j == npt)
			break;
		const qb_cloze_gap *x = ps[i].gap, *y = pt[j].gap;
		if (numeric_gap_check(x, y, k, why) != 0)
			goto done;
		if (x->choice && !y->choice) {
			qb_buf_appendf(why, _("gap %zu is a choice gap ('{{=right ~wrong}}') in the "
			                      "source and a typed gap in the translation: keep its "
			                      "'=' and '~' marks"), k);
			goto done;
		}
		if (!x->choice && y->choice) {
			qb_buf_appendf(why, _("gap %zu is a typed gap ('{{answer|other}}') in the source "
			                      "and a choice gap in the translation: an answer does not "
			                      "start with '=' or '~'"), k);
			goto done;
		}
		if (y->choice && !y->nright) {
			qb_buf_appendf(why, _("gap %zu of the translation has no right choice: keep "
			                      "the '=' before the right one"), k);
			goto done;
		}
		if (y->choice && y->nright != x->nright) {
			qb_buf_appendf(why, _("gap %zu of the translation marks %zu choices right "
			                      "('='), the source %zu"), k, y->nright, x->nright);
			goto done;
		}
		if (y->choice && y->nanswers != x->nanswers) {
			qb_buf_appendf(why, _("gap %zu of the translation has %zu choices, the source "
			                      "%zu: translate each choice and keep its '=' or '~'"),
			               k, y->nanswers, x->nanswers);
			goto done;
		}
		for (size_t n = 0; n < y->nanswers; n++)
			if (!*y->answers[n]) {
				qb_buf_appendf(why, _("gap %zu of the translation has an empty answer"), k);
				goto done;
			}
	}
	rc = 0;
done:
	qb_arena_dispose(&a);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void pieces_dispose(piece_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

int qb_tu_markup_check(const char *source, const char *target, qb_buf *why)
{
	if (gaps_check(source, target, why) != 0)
		return -1;
	piece_list a = {NULL, 0, 0}, b = {NULL, 0, 0};
	qb_tu_pieces(source, add_piece, &a);
	qb_tu_pieces(target, add_piece, &b);
	if (a.n)
		qsort(a.v, a.n, sizeof *a.v, cmp_str);
	if (b.n)
		qsort(b.v, b.n, sizeof *b.v, cmp_str);
	size_t i = 0, j = 0;
	int rc = 0;
	while ((i < a.n || j < b.n) && !rc) {
		int d = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i], b.v[j]);
		if (d == 0) {
			i++, j++;
			continue;
		}
		rc = -1;
		if (d < 0)
			qb_buf_appendf(why,
			               _("the translation lacks '%s' of the source (formulas, code, "
			                 "link and picture targets and cloze gaps are kept as they "
			                 "are)"),
			               piece_name(a.v[i]));
		else
			qb_buf_appendf(why,
			               _("the translation has '%s', which the source lacks (formulas, "
			                 "code, link and picture targets and cloze gaps are kept as "
			                 "they are)"),
			               piece_name(b.v[j]));
	}
	pieces_dispose(&a);
	pieces_dispose(&b);
	return rc;
}
