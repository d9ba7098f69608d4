/* import_csv.c - a spreadsheet saved as CSV or TSV (one question per
 * row), parsed with libcsv.  The layout is documented in input/README.md
 * ("Bringing questions in from a spreadsheet") with a template in
 * input/templates/questions.csv:
 *
 *   id, type, tags, right, unit, then per language xx:
 *   prompt:xx, options:xx, feedback:xx, feedback-wrong:xx, explanation:xx
 *
 * A cell holds several options (or their feedback) one per line; 'right'
 * says which options are right ('1 3' or 'A C'), the answer of a
 * true-false ('true', 'false') or numeric question ('9.81 ± 0.05',
 * '36.1..37.2', '343 ± 2%').  Every message names the row and column and
 * is located at the cell's line and column in the file. */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "diag.h"
#include "i18n.h"
#include "import.h"
#include "utf8.h"
#include "validate.h"

enum { C_ID, C_TYPE, C_TAGS, C_RIGHT, C_UNIT, C_PASS_MARK, C_SHUFFLE_OPTIONS,
       C_SHUFFLE_QUESTIONS, C_PROMPT, C_OPTIONS, C_FEEDBACK, C_FBWRONG, C_EXPLANATION,
       C_UNKNOWN };

static const char *const col_names[] = {"id", "type", "tags", "right", "unit", "pass-mark",
                                        "shuffle-options", "shuffle-questions", "prompt",
                                        "options", "feedback", "feedback-wrong", "explanation"};

/* The columns of Moodle's CSV question format plugin (qformat_csv):
 * questionname, questiontext, A, B, C, D, Answer 1, Answer 2, and in its
 * extended file answernumbering, correctfeedback, partiallycorrectfeedback,
 * incorrectfeedback, defaultmark (its reader also takes generalfeedback,
 * penalty and hidden).  Texts are plain text; one answer letter makes a
 * single-choice question, two a multiple-choice one. */
enum { M_NAME, M_TEXT, M_OPTION, M_ANSWER, M_GENERALFB, M_INCORRECTFB, M_CORRECTFB,
       M_PARTIALFB, M_NUMBERING, M_MARK, M_PENALTY, M_HIDDEN, M_UNKNOWN };
static const char *const moodle_names[] = {"questionname", "questiontext", "A", "Answer",
                                           "generalfeedback", "incorrectfeedback",
                                           "correctfeedback", "partiallycorrectfeedback",
                                           "answernumbering", "defaultmark", "penalty",
                                           "hidden"};

/* The per-type layouts of a Chinese fork of qformat_csv (hunterhqm's
 * Question-CSV-format): the first column names the type of every row,
 *   multichoicename,questiontext,choices,answer,generalfeedback,defaultmark,qtype
 *   shortanswername,questiontext,answer,fraction,generalfeedback,defaultmark
 *   truefalsename,questiontext,answer,generalfeedback,defaultmark
 * 'choices' and a short answer's 'answer' and 'fraction' hold several
 * values split by ';'; 'answer' is the letters of the right choices
 * ('ACD') or a true-false's 1 or 0.  As that plugin does, qtype
 * 'multichoice' makes an all-or-nothing multiple-choice question (even
 * with one letter), 'single' a single-choice one. */
enum { T_NAME, T_TEXT, T_CHOICES, T_ANSWER, T_FRACTION, T_GENERALFB, T_MARK, T_QTYPE,
       T_UNKNOWN };
static const char *const typed_names[] = {"", "questiontext", "choices", "answer", "fraction",
                                          "generalfeedback", "defaultmark", "qtype"};
static const struct {
	const char *name;
	qb_qtype type;
} typed_layouts[] = {{"multichoicename", QB_QTYPE_MULTIPLE},
                     {"shortanswername", QB_QTYPE_SHORT},
                     {"truefalsename", QB_QTYPE_TRUE_FALSE}};

/* The bank's settings (optional columns, a value in any row, the same in
 * every row that has one): what a teacher sets for an exam. */
typedef struct setting {
	int value;     /* -1: not given                                    */
	size_t row;    /* the row that gave it                             */
	qb_loc loc;
} setting;

typedef struct column {
	int kind;
	char lang[QB_IMP_LANG_LEN]; /* per-language columns ("" without ':xx') */
	char name[QB_IMP_LANG_LEN + 16]; /* as messages name it: "prompt:sw" */
} column;

typedef struct field {
	char *s;
	size_t off; /* where the cell starts in the file               */
} field;

typedef struct csvr {
	qb_imp *im;
	const char *data;
	size_t len, pos;     /* the byte being fed                       */
	size_t field_start;  /* where the cell being read started         */
	field *row;
	size_t nrow, caprow;
	size_t rowno;        /* 1 = the header                            */
	column *cols;
	size_t ncols;
	bool header_ok;
	setting set[3];      /* pass-mark, shuffle-options, shuffle-questions */
	bool moodle;         /* the layout of Moodle's CSV format plugin    */
	bool lost[M_UNKNOWN];/* a Moodle column not carried, said once      */
	bool typed;          /* a per-type layout (typed_layouts)          */
	qb_qtype typed_type; /* its type                                   */
	bool typed_mark_said;/* a defaultmark other than 1, said once       */
} csvr;

static qb_loc at(const csvr *r, size_t off)
{
	return qb_imp_at(r->im, r->data, off);
}

/* libcsv: the end of a cell. */
static void on_field(void *s, size_t n, void *data)
{
	csvr *r = data;
	if (r->nrow == r->caprow) {
		r->caprow = r->caprow ? 2 * r->caprow : 16;
		r->row = qb_xrealloc(r->row, r->caprow * sizeof *r->row);
	}
	size_t start = r->field_start;
	/* A row's first cell starts after the line end of the row above
	 * (CRLF: libcsv ends the row at '\r', so its '\n' is still ahead). */
	while (start < r->len && (r->data[start] == ' ' ||
	                          (!r->nrow && (r->data[start] == '\r' || r->data[start] == '\n'))))
		start++;
	r->row[r->nrow++] = (field){qb_xstrndup(s ? s : "", s ? n : 0), start};
	r->field_start = r->pos + 1;
}

static const column *col_of(const csvr *r, int kind, const char *lang, size_t *k)
{
	for (size_t i = 0; i < r->ncols; i++)
		if (r->cols[i].kind == kind && strcmp(r->cols[i].lang, lang) == 0) {
			*k = i;
			return &r->cols[i];
		}
	return NULL;
}

/* The header of Moodle's plugin: its first column 'questionname', or a
 * 'questiontext' column (names trimmed; Moodle's own sample has spaces
 * after the commas). */
static bool moodle_header(csvr *r)
{
	bool text = false;
	for (size_t i = 0; i < r->nrow; i++) {
		const char *h = r->row[i].s;
		h += strspn(h, " ");
		text = text || strncasecmp(h, "questiontext", 12) == 0;
		if (i == 0 && strncasecmp(h, "questionname", 12) == 0)
			return true;
	}
	return text;
}

static void header_moodle(csvr *r)
{
	r->moodle = true;
	r->header_ok = true;
	bool text = false;
	for (size_t i = 0; i < r->nrow; i++) {
		char *h = r->row[i].s;
		h += strspn(h, " ");
		size_t n = strlen(h);
		while (n && h[n - 1] == ' ')
			h[--n] = '\0';
		column *c = &r->cols[i];
		c->kind = M_UNKNOWN;
		snprintf(c->name, sizeof c->name, "%s", h);
		if (n == 1 && h[0] >= 'A' && h[0] <= 'Z')
			c->kind = M_OPTION;
		else if (strncasecmp(h, "Answer ", 7) == 0 && h[7] >= '1' && h[7] <= '9')
			c->kind = M_ANSWER;
		else
			for (int k = 0; k < M_UNKNOWN; k++)
				if (k != M_OPTION && k != M_ANSWER && strcasecmp(h, moodle_names[k]) == 0)
					c->kind = k;
		if (c->kind == M_UNKNOWN)
			qb_imp_lost(r->im, at(r, r->row[i].off), "column %zu: '%s' is not a column of "
			            "Moodle's CSV question format: its cells are not carried", i + 1, h);
		text = text || c->kind == M_TEXT;
	}
	if (!text) {
		qb_diag_error(at(r, 0), "the header row has no 'questiontext' column");
		r->header_ok = false;
	}
}

/* A cell trimmed of spaces in place. */
static char *trimmed(char *h)
{
	h += strspn(h, " ");
	size_t n = strlen(h);
	while (n && h[n - 1] == ' ')
		h[--n] = '\0';
	return h;
}

/* The header of a per-type layout: its first column one of
 * typed_layouts' names.  Its columns are found by name. */
static bool header_typed(csvr *r)
{
	if (!r->nrow)
		return false;
	const char *first = trimmed(r->row[0].s);
	size_t t = 0;
	while (t < sizeof typed_layouts / sizeof *typed_layouts &&
	       strcasecmp(first, typed_layouts[t].name) != 0)
		t++;
	if (t == sizeof typed_layouts / sizeof *typed_layouts)
		return false;
	r->typed = true;
	r->typed_type = typed_layouts[t].type;
	r->header_ok = true;
	bool seen[T_UNKNOWN] = {false};
	for (size_t i = 0; i < r->nrow; i++) {
		const char *h = trimmed(r->row[i].s);
		column *c = &r->cols[i];
		c->kind = i == 0 ? T_NAME : T_UNKNOWN;
		snprintf(c->name, sizeof c->name, "%s", h);
		for (int k = T_TEXT; k < T_UNKNOWN && i; k++)
			if (strcasecmp(h, typed_names[k]) == 0)
				c->kind = k;
		if (c->kind == T_UNKNOWN)
			qb_imp_lost(r->im, at(r, r->row[i].off), "column %zu: '%s' is not a column of "
			            "the '%s' layout: its cells are not carried", i + 1, h,
			            typed_layouts[t].name);
		else
			seen[c->kind] = true;
	}
	bool choices = r->typed_type == QB_QTYPE_MULTIPLE;
	for (int k = T_TEXT; k <= T_ANSWER; k++)
		if (!seen[k] && (k != T_CHOICES || choices)) {
			qb_diag_error(at(r, 0), "the header row has no '%s' column (the '%s' layout: %s)",
			              typed_names[k], typed_layouts[t].name,
			              r->typed_type == QB_QTYPE_MULTIPLE ?
			              "questiontext, choices, answer, generalfeedback, defaultmark, qtype" :
			              r->typed_type == QB_QTYPE_SHORT ?
			              "questiontext, answer, fraction, generalfeedback, defaultmark" :
			              "questiontext, answer, generalfeedback, defaultmark");
			r->header_ok = false;
		}
	return true;
}

static void header(csvr *r)
{
	r->cols = qb_xcalloc(r->nrow ? r->nrow : 1, sizeof *r->cols);
	r->ncols = r->nrow;
	if (header_typed(r))
		return;
	if (moodle_header(r)) {
		header_moodle(r);
		return;
	}
	r->header_ok = true;
	bool prompt = false;
	for (size_t i = 0; i < r->nrow; i++) {
		char *h = r->row[i].s;
		char *colon = strchr(h, ':');
		size_t n = colon ? (size_t)(colon - h) : strlen(h);
		column *c = &r->cols[i];
		c->kind = C_UNKNOWN;
		for (int k = 0; k < C_UNKNOWN; k++)
			if (strlen(col_names[k]) == n && strncasecmp(h, col_names[k], n) == 0)
				c->kind = k;
		if (colon && strlen(colon + 1) < sizeof c->lang)
			strcpy(c->lang, colon + 1);
		if (c->kind != C_UNKNOWN)
			snprintf(c->name, sizeof c->name, "%s%s%s", col_names[c->kind], *c->lang ? ":" : "",
			         c->lang);
		bool per_lang = c->kind >= C_PROMPT && c->kind <= C_EXPLANATION;
		if (c->kind == C_UNKNOWN || (colon && !per_lang)) {
			qb_diag_error(at(r, r->row[i].off), "column %zu: '%s' is not a column of qbc's "
			              "layout (id, type, tags, right, unit, pass-mark, shuffle-options, "
			              "shuffle-questions, prompt:xx, options:xx, feedback:xx, "
			              "feedback-wrong:xx, explanation:xx)", i + 1, h);
			r->header_ok = false;
		}
		prompt = prompt || c->kind == C_PROMPT;
	}
	size_t k;
	if (!prompt) {
		qb_diag_error(at(r, 0), "the header row has no 'prompt:xx' column (one per language, "
		              "e.g. 'prompt:en')");
		r->header_ok = false;
	}
	if (!col_of(r, C_RIGHT, "", &k)) {
		qb_diag_error(at(r, 0), "the header row has no 'right' column (which options are "
		              "right, or the answer)");
		r->header_ok = false;
	}
}

/* The cell of kind/lang in the current row, or "" (k: its index). */
static const char *cell(const csvr *r, int kind, const char *lang, size_t *k)
{
	size_t i;
	if (!col_of(r, kind, lang, &i) || i >= r->nrow)
		return "";
	if (k)
		*k = i;
	return r->row[i].s;
}

/* The lines of s, trimmed; empty lines kept when keep_empty. */
static size_t lines(const char *s, char ***out, bool keep_empty)
{
	size_t n = 0;
	*out = NULL;
	for (const char *p = s; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *a = p;
		size_t l = len;
		while (l && (*a == ' ' || *a == '\t' || *a == '\r')) {
			a++;
			l--;
		}
		while (l && (a[l - 1] == ' ' || a[l - 1] == '\t' || a[l - 1] == '\r'))
			l--;
		if (l || keep_empty) {
			*out = qb_xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = qb_xstrndup(a, l);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The languages of the header, in order. */
static size_t langs(const csvr *r, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncols && n < max; i++) {
		if (r->cols[i].kind != C_PROMPT)
			continue;
		out[n++] = r->cols[i].lang;
	}
	return n;
}

/* A text of kind from every language's cell (the whole cell, or line k). */
static bool text_of(csvr *r, qb_text *t, int kind, long line, bool plain)
{
	const char *ls[QB_IMP_MAX_LANGS];
	size_t nl = langs(r, ls, QB_IMP_MAX_LANGS);
	qb_imp_ml ml = {0};
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < nl; i++) {
		size_t k = SIZE_MAX;
		const char *s = cell(r, kind, ls[i], &k);
		char **v = NULL;
		size_t n = 0;
		if (line >= 0) {
			n = lines(s, &v, kind == C_FEEDBACK);
			s = (size_t)line < n ? v[line] : "";
		}
		if (*s) {
			qb_buf b = QB_BUF_INIT;
			if (plain)
				qb_imp_md_escape(&b, s, strlen(s));
			else
				qb_buf_puts(&b, s);
			qb_imp_ml_set(&ml, ls[i], b.ptr, b.len);
			qb_buf_dispose(&b);
			if (first == SIZE_MAX)
				first = k;
		}
		free_lines(v, n);
	}
	bool any = ml.n > 0;
	if (any)
		qb_imp_text(r->im, t, at(r, r->row[first].off), &ml);
	qb_imp_ml_dispose(&ml);
	return any;
}

/* 'right': the option numbers ('1 3', '1,3') or letters ('A C'). */
static bool right_set(const char *s, bool *right, size_t n)
{
	memset(right, 0, n * sizeof *right);
	for (const char *p = s; *p;) {
		if (strchr(" ,;\t\n", *p)) {
			p++;
			continue;
		}
		size_t k;
		if (*p >= '0' && *p <= '9') {
			char *end;
			k = (size_t)strtoul(p, &end, 10) - 1;
			p = end;
		} else if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')) {
			k = (size_t)((*p | 0x20) - 'a');
			p++;
			if (*p && !strchr(" ,;\t\n", *p))
				return false;
		} else
			return false;
		if (k >= n)
			return false;
		right[k] = true;
	}
	return true;
}

static bool number(const char *s, size_t n, double *v)
{
	char *t = qb_xstrndup(s, n), *end;
	*v = qb_imp_strtod(t, &end);
	while (*end == ' ')
		end++;
	bool ok = end != t && !*end;
	free(t);
	return ok;
}

/* A numeric answer as the .qb format writes it. */
static bool numeric(const char *s, qb_numeric *num)
{
	const char *pm = strstr(s, "\xC2\xB1");
	size_t pml = 2;
	if (!pm && (pm = strstr(s, "+-")) == NULL)
		pml = 0;
	const char *range = strstr(s, "..");
	if (range && !pm) {
		num->range = true;
		if (!number(s, (size_t)(range - s), &num->lo) ||
		    !number(range + 2, strlen(range + 2), &num->hi) || num->lo > num->hi)
			return false;
		num->value = num->lo / 2 + num->hi / 2; /* no overflow near the ends */
		num->tol = num->hi / 2 - num->lo / 2;
		return true;
	}
	if (!number(s, pm ? (size_t)(pm - s) : strlen(s), &num->value))
		return false;
	if (pm) {
		const char *t = pm + pml;
		size_t n = strlen(t);
		while (n && t[n - 1] == ' ')
			n--;
		num->percent = n && t[n - 1] == '%';
		if (!number(t, n - num->percent, &num->tol) || num->tol < 0)
			return false;
		if (num->percent)
			num->tol = num->tol * (num->value < 0 ? -num->value : num->value) / 100;
	}
	num->lo = num->value - num->tol;
	num->hi = num->value + num->tol;
	return true;
}

/* The languages' cells of kind in this row must be all filled in or all
 * empty (prompt: all filled in), and options give the same number of
 * lines in each language: said in the spreadsheet's terms, row and
 * column.  False after an error. */
static bool same_langs(csvr *r, int kind, bool required)
{
	const char *ls[QB_IMP_MAX_LANGS];
	size_t nl = langs(r, ls, QB_IMP_MAX_LANGS), full = SIZE_MAX, nlines = 0;
	bool ok = true;
	for (size_t i = 0; i < nl; i++) {
		size_t k = SIZE_MAX;
		if (!*cell(r, kind, ls[i], &k) || k == SIZE_MAX)
			continue;
		if (full == SIZE_MAX) {
			full = k;
			char **v = NULL;
			nlines = lines(r->row[k].s, &v, false);
			free_lines(v, nlines);
		}
	}
	for (size_t i = 0; i < nl; i++) {
		size_t k = SIZE_MAX;
		const char *s = cell(r, kind, ls[i], &k);
		if (k == SIZE_MAX) {
			if (full != SIZE_MAX) {
				qb_diag_error(at(r, r->row[full].off), "row %zu, column '%s' is filled in, "
				              "but the sheet has no column '%s:%s' for this text in the other "
				              "language: add the column", r->rowno, r->cols[full].name,
				              col_names[kind], ls[i]);
				ok = false;
			}
			continue;
		}
		if (!*s && full == SIZE_MAX && required) {
			qb_diag_error(at(r, r->row[k].off), "row %zu, column '%s' is empty: write the "
			              "question in it", r->rowno, r->cols[k].name);
			ok = false;
			break;
		}
		if (!*s && full != SIZE_MAX) {
			qb_diag_error(at(r, r->row[k].off), "row %zu, column '%s' is empty, but column "
			              "'%s' is filled in: write this language's text too", r->rowno,
			              r->cols[k].name, r->cols[full].name);
			ok = false;
		} else if (*s && kind == C_OPTIONS && k != full) {
			char **v = NULL;
			size_t n = lines(s, &v, false);
			free_lines(v, n);
			if (n != nlines) {
				qb_diag_error(at(r, r->row[k].off), "row %zu, column '%s' has %zu lines and "
				              "column '%s' has %zu: put one option per line, the same options "
				              "in every language", r->rowno, r->cols[k].name, n,
				              r->cols[full].name, nlines);
				ok = false;
			}
		}
	}
	return ok;
}

/* The name of the first language's column of kind ("options:sw"). */
static const char *first_col(const csvr *r, int kind)
{
	const char *ls[1];
	size_t k = 0;
	if (!langs(r, ls, 1) || !col_of(r, kind, ls[0], &k))
		return col_names[kind];
	return r->cols[k].name;
}

/* A settings cell (pass-mark, shuffle-options, shuffle-questions) of this
 * row: read, and the same as any earlier row's.  False after an error. */
static bool setting_cell(csvr *r, int kind)
{
	size_t k = 0;
	const char *s = cell(r, kind, "", &k);
	if (!*s)
		return true;
	qb_loc l = at(r, r->row[k].off);
	int v = -1;
	if (kind == C_PASS_MARK) {
		char *end;
		long n = strtol(s, &end, 10);
		if (*end == '%')
			end++;
		if (end != s && s[0] >= '0' && s[0] <= '9' && !*end && n <= 100)
			v = (int)n;
		else {
			qb_diag_error(l, "row %zu, column 'pass-mark': '%s' is not a percentage from 0 "
			              "to 100, e.g. '80%%'", r->rowno, s);
			return false;
		}
	} else {
		if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcmp(s, "1"))
			v = 1;
		else if (!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcmp(s, "0"))
			v = 0;
		else {
			qb_diag_error(l, "row %zu, column '%s': '%s' is not 'yes' or 'no'", r->rowno,
			              col_names[kind], s);
			return false;
		}
	}
	setting *st = &r->set[kind - C_PASS_MARK];
	if (st->value >= 0 && st->value != v) {
		qb_diag_error(l, "row %zu, column '%s': '%s' differs from row %zu's: the bank has one "
		              "%s; write it in one row", r->rowno, col_names[kind], s, st->row,
		              col_names[kind]);
		return false;
	}
	if (st->value < 0)
		*st = (setting){v, r->rowno, l};
	return true;
}

/* True when the row has as many cells as the header; else a located
 * error: fewer cells, a column is missing; more, a delimiter is one too
 * many.  Every layout's rows go through it. */
static bool row_width_ok(const csvr *r, qb_loc loc)
{
	if (r->nrow == r->ncols)
		return true;
	if (r->nrow < r->ncols)
		qb_diag_error(loc,
		              ngettext("row %zu has %zu column, the header has %zu: a missing or "
		                       "extra 'column'",
		                       "row %zu has %zu columns, the header has %zu: a missing or "
		                       "extra 'column'", r->nrow),
		              r->rowno, r->nrow, r->ncols);
	else
		qb_diag_error(loc,
		              ngettext("row %zu has %zu column, the header has %zu: a missing or "
		                       "extra 'delimiter'",
		                       "row %zu has %zu columns, the header has %zu: a missing or "
		                       "extra 'delimiter'", r->nrow),
		              r->rowno, r->nrow, r->ncols);
	return false;
}

static void row(csvr *r)
{
	qb_imp *im = r->im;
	qb_loc loc = at(r, r->nrow ? r->row[0].off : 0);
	if (!row_width_ok(r, loc))
		return;
	/* Every cell of the row is checked before the row is given up: a
	 * teacher fixes all of a sheet's mistakes from one run. */
	bool bad = false;
	const char *ls[QB_IMP_MAX_LANGS];
	size_t nl = langs(r, ls, QB_IMP_MAX_LANGS);
	size_t k = 0;
	const char *type = cell(r, C_TYPE, "", &k);
	qb_qtype t = QB_QTYPE_COUNT;
	if (!*type)
		t = QB_QTYPE_SINGLE;
	for (int i = 0; i < QB_QTYPE_COUNT && *type; i++)
		if (strcasecmp(type, qb_qtype_name((qb_qtype)i)) == 0)
			t = (qb_qtype)i;
	if (t == QB_QTYPE_COUNT) {
		qb_diag_error(at(r, r->row[k].off), "row %zu, column 'type': '%s' is not a question "
		              "type (single, multiple, true-false, short-answer, numeric, matching, "
		              "cloze)", r->rowno, type);
		bad = true;
	}
	const char *id = cell(r, C_ID, "", &k);
	size_t badat;
	if (*id && !qb_id_valid(id, &badat)) {
		qb_diag_error(at(r, r->row[k].off), "row %zu, column 'id': '%s' is not a question id "
		              "(ASCII letters, digits, '-' and '_')", r->rowno, id);
		bad = true;
	}
	bad = !setting_cell(r, C_PASS_MARK) | bad;
	bad = !setting_cell(r, C_SHUFFLE_OPTIONS) | bad;
	bad = !setting_cell(r, C_SHUFFLE_QUESTIONS) | bad;
	bad = !same_langs(r, C_PROMPT, true) | bad;
	bad = !same_langs(r, C_OPTIONS, false) | bad;
	bad = !same_langs(r, C_FEEDBACK, false) | bad;
	bad = !same_langs(r, C_FBWRONG, false) | bad;
	bad = !same_langs(r, C_EXPLANATION, false) | bad;
	size_t rk = 0;
	const char *right = cell(r, C_RIGHT, "", &rk);
	qb_loc rloc = at(r, r->row[rk].off);
	/* the options: the first language's lines set the count */
	char **opts = NULL;
	size_t nopts = 0;
	for (size_t i = 0; i < nl && !nopts; i++)
		nopts = lines(cell(r, C_OPTIONS, ls[i], NULL), &opts, false);
	bool *rights = qb_xcalloc(nopts + 1, sizeof *rights);
	bool with_options = t == QB_QTYPE_SINGLE || t == QB_QTYPE_MULTIPLE ||
	                    t == QB_QTYPE_SHORT || t == QB_QTYPE_MATCHING;
	if (with_options && !nopts) {
		size_t ok = 0;
		const char *name = first_col(r, C_OPTIONS);
		cell(r, C_OPTIONS, ls[0], &ok);
		qb_loc ol = at(r, r->row[ok].off);
		if (t == QB_QTYPE_SHORT)
			qb_diag_error(ol, "row %zu, column '%s' is empty: put the accepted answers in it, "
			              "one per line", r->rowno, name);
		else if (t == QB_QTYPE_MATCHING)
			qb_diag_error(ol, "row %zu, column '%s' is empty: put the pairs in it, one per "
			              "line, 'left => right'", r->rowno, name);
		else
			qb_diag_error(ol, "row %zu, column '%s' is empty: put the options in it, one per "
			              "line", r->rowno, name);
		bad = true;
	}
	if (t == QB_QTYPE_SINGLE || t == QB_QTYPE_MULTIPLE ||
	    (t == QB_QTYPE_SHORT && *right)) {
		if (!right_set(right, rights, nopts)) {
			qb_diag_error(rloc, "row %zu, column 'right': '%s' is not a list of this row's "
			              "options (1 to %zu, or A to %c)", r->rowno, right, nopts,
			              'A' + (int)(nopts ? nopts - 1 : 0));
			bad = true;
		} else if (nopts && t != QB_QTYPE_SHORT) {
			size_t n = 0;
			for (size_t i = 0; i < nopts; i++)
				n += rights[i];
			if (!n) {
				if (t == QB_QTYPE_SINGLE)
					qb_diag_error(rloc, "row %zu, column 'right' is empty: put the number of "
					              "the right option in it, e.g. 1 for the first of column "
					              "'%s'", r->rowno, first_col(r, C_OPTIONS));
				else
					qb_diag_error(rloc, "row %zu, column 'right' is empty: put the numbers of "
					              "the right options in it, e.g. '1 3' for the first and "
					              "third of column '%s'", r->rowno, first_col(r, C_OPTIONS));
				bad = true;
			} else if (n > 1 && t == QB_QTYPE_SINGLE) {
				qb_diag_error(rloc, "row %zu, column 'right' names %zu options: keep one, or "
				              "put 'multiple' in column 'type'", r->rowno, n);
				bad = true;
			}
		}
	} else if (t == QB_QTYPE_SHORT) {
		for (size_t i = 0; i < nopts; i++)
			rights[i] = true;
	}
	qb_numeric *num = NULL;
	bool truth = false;
	if (t == QB_QTYPE_TRUE_FALSE) {
		if (strcasecmp(right, "true") != 0 && strcasecmp(right, "false") != 0) {
			qb_diag_error(rloc, "row %zu, column 'right': a true-false answer is 'true' or "
			              "'false', not '%s'", r->rowno, right);
			bad = true;
		}
		truth = strcasecmp(right, "true") == 0;
	}
	if (t == QB_QTYPE_NUMERIC) {
		num = qb_arena_alloc(&im->bank->arena, sizeof *num);
		*num = (qb_numeric){.loc = rloc};
		if (!*right) {
			qb_diag_error(rloc, "row %zu, column 'right' is empty: put the answer in it, "
			              "e.g. '42', '9.81 \xC2\xB1 0.05', '343 \xC2\xB1 2%%' or '36.1..37.2'",
			              r->rowno);
			bad = true;
		} else if (!numeric(right, num)) {
			qb_diag_error(rloc, "row %zu, column 'right': '%s' is not a number, e.g. '42', "
			              "'9.81 \xC2\xB1 0.05', '343 \xC2\xB1 2%%' or '36.1..37.2'", r->rowno,
			              right);
			bad = true;
		} else if (qb_numeric_too_large(num, rloc, right, strlen(right)))
			bad = true;
	}
	if (bad)
		goto done;
	qb_question *q = qb_imp_question(im, t, loc);
	text_of(r, &q->prompt, C_PROMPT, -1, false);
	if (t == QB_QTYPE_TRUE_FALSE) {
		qb_text fb[2] = {{0}, {0}};
		text_of(r, &fb[0], C_FEEDBACK, 0, false);
		text_of(r, &fb[1], C_FEEDBACK, 1, false);
		qb_imp_truefalse(im, truth, NULL, NULL, rloc);
		q = &im->qs[im->nqs - 1];
		if (fb[0].present || fb[1].present) {
			qb_text *tf = qb_arena_alloc(&im->bank->arena, 2 * sizeof *tf);
			tf[0] = fb[0].present ? fb[0] : (qb_text){.bank = im->bank};
			tf[1] = fb[1].present ? fb[1] : (qb_text){.bank = im->bank};
			qb_question_rare_w(&im->bank->arena, q)->feedback_tf = tf;
			q->choices[0].feedback = tf[0];
			q->choices[1].feedback = tf[1];
		}
	} else if (t == QB_QTYPE_NUMERIC) {
		qb_rare *rare = qb_question_rare_w(&im->bank->arena, q);
		rare->num = num;
		rare->answer_loc = rloc;
		const char *unit = cell(r, C_UNIT, "", &k);
		if (*unit) {
			rare->unit = qb_arena_strdup(&im->bank->arena, unit);
			rare->unit_loc = at(r, r->row[k].off);
		}
	} else if (t != QB_QTYPE_CLOZE) {
		for (size_t i = 0; i < nopts; i++) {
			size_t ok = 0;
			cell(r, C_OPTIONS, ls[0], &ok);
			qb_choice *c = qb_imp_choice(im, at(r, r->row[ok].off));
			c->correct = rights[i];
			if (t == QB_QTYPE_MATCHING) {
				/* 'left => right' in each language */
				qb_text whole = {0};
				text_of(r, &whole, C_OPTIONS, (long)i, false);
				qb_imp_ml left = {0}, rt = {0};
				for (size_t j = 0; j < whole.ntr; j++) {
					const char *s = whole.tr[j].text, *arrow = strstr(s, "=>");
					const char *code = qb_tr_lang(&whole, &whole.tr[j]);
					if (!arrow) {
						qb_imp_ml_set(&left, code, s, strlen(s));
						continue;
					}
					size_t ll = (size_t)(arrow - s);
					while (ll && s[ll - 1] == ' ')
						ll--;
					if (ll)
						qb_imp_ml_set(&left, code, s, ll);
					const char *rs = arrow + 2;
					while (*rs == ' ')
						rs++;
					qb_imp_ml_set(&rt, code, rs, strlen(rs));
				}
				if (left.n)
					qb_imp_text(im, &c->text, qb_text_loc(&whole), &left);
				qb_text *m = qb_imp_match(im);
				if (rt.n)
					qb_imp_text(im, m, qb_text_loc(&whole), &rt);
				qb_imp_ml_dispose(&left);
				qb_imp_ml_dispose(&rt);
			} else
				text_of(r, &c->text, C_OPTIONS, (long)i, false);
			q = &im->qs[im->nqs - 1];
			text_of(r, &q->choices[q->nchoices - 1].feedback, C_FEEDBACK, (long)i, false);
		}
	}
	q = &im->qs[im->nqs - 1];
	text_of(r, &qb_question_rare_w(&r->im->bank->arena, q)->feedback_wrong, C_FBWRONG, -1, false);
	text_of(r, &q->explanation, C_EXPLANATION, -1, false);
	const char *tags = cell(r, C_TAGS, "", &k);
	for (const char *p = tags; *p;) {
		size_t n = strcspn(p, " ,;\t\n");
		if (n) {
			char *tag = qb_xstrndup(p, n);
			qb_imp_tag(im, at(r, r->row[k].off), tag);
			free(tag);
		}
		p += n;
		p += strspn(p, " ,;\t\n");
	}
	qb_imp_id(im, id, NULL);
	if (*id && strcmp(im->qs[im->nqs - 1].id, id) != 0) {
		col_of(r, C_ID, "", &k);
		qb_diag_error(at(r, r->row[k].off), "row %zu, column 'id': '%s' is used twice",
		              r->rowno, id);
	}
done:
	free(rights);
	free_lines(opts, nopts);
}

/* The first cell of kind in this row (k: its index), or "". */
static const char *mcell(const csvr *r, int kind, size_t *k)
{
	for (size_t i = 0; i < r->ncols && i < r->nrow; i++)
		if (r->cols[i].kind == kind) {
			if (k)
				*k = i;
			return r->row[i].s;
		}
	return "";
}

/* A row of Moodle's CSV format: a single- or multiple-choice question. */
static void row_moodle(csvr *r)
{
	qb_imp *im = r->im;
	qb_loc loc = at(r, r->nrow ? r->row[0].off : 0);
	if (!row_width_ok(r, loc))
		return;
	bool bad = false;
	size_t k = 0, tk = 0;
	const char *text = mcell(r, M_TEXT, &tk);
	k = tk;
	if (!*text) {
		qb_diag_error(at(r, r->row[k].off), "row %zu, column 'questiontext' is empty: write "
		              "the question in it", r->rowno);
		bad = true;
	}
	/* the options: the letter columns with text, by their letter */
	size_t idx[26], nopts = 0;
	for (size_t i = 0; i < r->ncols; i++)
		if (r->cols[i].kind == M_OPTION && *r->row[i].s && nopts < 26)
			idx[nopts++] = i;
	if (nopts < 2) {
		qb_diag_error(loc, "row %zu: columns 'A', 'B', ... hold fewer than two options: write "
		              "the options in them", r->rowno);
		bad = true;
	}
	bool right[26] = {false}, bad_letter = false;
	size_t nright = 0;
	for (size_t i = 0; i < r->ncols; i++) {
		if (r->cols[i].kind != M_ANSWER || !*r->row[i].s)
			continue;
		const char *a = r->row[i].s;
		size_t j = nopts;
		for (size_t o = 0; o < nopts && strlen(a) == 1; o++)
			if (strcasecmp(r->cols[idx[o]].name, a) == 0)
				j = o;
		if (j == nopts) {
			qb_diag_error(at(r, r->row[i].off), "row %zu, column '%s': '%s' is not the letter "
			              "of one of this row's options", r->rowno, r->cols[i].name, a);
			bad = bad_letter = true;
		} else if (!right[j]) {
			right[j] = true;
			nright++;
		}
	}
	if (!nright && !bad_letter) {
		mcell(r, M_ANSWER, &k);
		qb_diag_error(at(r, r->row[k].off), "row %zu, column 'Answer 1' is empty: put the "
		              "letter of the right option in it, e.g. 'A'", r->rowno);
		bad = true;
	}
	/* what a .qb has no place for: said once per column */
	for (int kind = M_CORRECTFB; kind < M_UNKNOWN; kind++) {
		const char *s = mcell(r, kind, &k);
		bool default_mark = kind == M_MARK && (!strcmp(s, "1") || !strcmp(s, "1.0"));
		bool default_num = kind == M_NUMBERING && !strcmp(s, "abc");
		if (*s && !default_mark && !default_num && !r->lost[kind]) {
			r->lost[kind] = true;
			qb_imp_lost(im, at(r, r->row[k].off), "row %zu, column '%s': a .qb has no place "
			            "for it, so this column is not carried (said once)", r->rowno,
			            r->cols[k].name);
		}
	}
	if (bad)
		return;
	qb_question *q = qb_imp_question(im, nright > 1 ? QB_QTYPE_MULTIPLE : QB_QTYPE_SINGLE,
	                                 loc);
	qb_imp_plain(im, &q->prompt, at(r, r->row[tk].off), text);
	for (size_t o = 0; o < nopts; o++) {
		qb_choice *c = qb_imp_choice(im, at(r, r->row[idx[o]].off));
		c->correct = right[o];
		qb_imp_plain(im, &c->text, at(r, r->row[idx[o]].off), r->row[idx[o]].s);
	}
	q = &im->qs[im->nqs - 1];
	const char *s = mcell(r, M_GENERALFB, &k);
	if (*s)
		qb_imp_plain(im, &q->explanation, at(r, r->row[k].off), s);
	s = mcell(r, M_INCORRECTFB, &k);
	if (*s)
		qb_imp_plain(im, &qb_question_rare_w(&im->bank->arena, q)->feedback_wrong,
		             at(r, r->row[k].off), s);
	const char *name = mcell(r, M_NAME, NULL);
	qb_imp_id(im, name, name);
}

/* The pieces of s split by ';', trimmed (empty ones kept: a short
 * answer's fractions go by position). */
static size_t pieces(const char *s, char ***out)
{
	size_t n = 0;
	*out = NULL;
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ";");
		const char *a = p;
		while (len && (*a == ' ' || *a == '\t')) {
			a++;
			len--;
		}
		while (len && (a[len - 1] == ' ' || a[len - 1] == '\t'))
			len--;
		*out = qb_xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = qb_xstrndup(a, len);
		p = a + len;
		p += strcspn(p, ";");
		if (!*p)
			break;
	}
	return n;
}

/* A per-type layout's multiple- or single-choice row: the choices (empty
 * pieces skipped), which are right (right, by letter) and the type, or
 * false after its errors. */
static bool typed_choices(csvr *r, size_t nch, bool *right, qb_qtype *t)
{
	size_t ck = 0, ak = 0, qk = 0;
	mcell(r, T_CHOICES, &ck);
	const char *ans = mcell(r, T_ANSWER, &ak);
	bool ok = true;
	if (nch < 2) {
		qb_diag_error(at(r, r->row[ck].off), "row %zu, column 'choices' holds fewer than two "
		              "choices: write them separated by ';'", r->rowno);
		ok = false;
	}
	size_t nright = 0;
	for (const char *p = ans; *p; p++) {
		if (strchr(" ,;\t", *p))
			continue;
		size_t j = (size_t)((*p | 0x20) - 'a');
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')) || j >= nch) {
			if (nch >= 2)
				qb_diag_error(at(r, r->row[ak].off), "row %zu, column 'answer': '%s' is not "
				              "the letters of this row's right choices (A to %c)", r->rowno, ans,
				              'A' + (int)nch - 1);
			return false;
		}
		nright += !right[j];
		right[j] = true;
	}
	if (!nright) {
		qb_diag_error(at(r, r->row[ak].off), "row %zu, column 'answer' is empty: put the "
		              "letters of the right choices in it, e.g. 'AC'", r->rowno);
		return false;
	}
	const char *qtype = mcell(r, T_QTYPE, &qk);
	*t = QB_QTYPE_MULTIPLE;
	if (strcasecmp(qtype, "single") == 0) {
		*t = QB_QTYPE_SINGLE;
		if (nright != 1) {
			qb_diag_error(at(r, r->row[ak].off), "row %zu, column 'answer' names %zu choices, "
			              "but column 'qtype' says 'single': keep one, or write "
			              "'multichoice'", r->rowno, nright);
			ok = false;
		}
	} else if (*qtype && strcasecmp(qtype, "multichoice") != 0 &&
	           strcasecmp(qtype, "multichoiceset") != 0) {
		qb_diag_error(at(r, r->row[qk].off), "row %zu, column 'qtype': '%s' is not "
		              "'multichoice' (one or more right choices) or 'single'", r->rowno, qtype);
		ok = false;
	}
	return ok;
}

/* A per-type layout's short-answer row: the answers with fraction 1 (or
 * more) are accepted; those with 0 are wrong answers; a partial credit is
 * said and not carried: a .qb accepts an answer or not. */
static bool typed_short(csvr *r, char **ans, size_t nans, double *frac)
{
	size_t ak = 0, fk = 0;
	mcell(r, T_ANSWER, &ak);
	const char *fs = mcell(r, T_FRACTION, &fk);
	char **fr = NULL;
	size_t nfr = *fs ? pieces(fs, &fr) : 0;
	bool ok = true;
	size_t full = 0, given = 0;
	for (size_t i = 0; i < nans; i++)
		given += *ans[i] != '\0';
	if (!given) {
		qb_diag_error(at(r, r->row[ak].off), "row %zu, column 'answer' is empty: put the "
		              "accepted answers in it, separated by ';'", r->rowno);
		ok = false;
	} else if (nans == 1 && !nfr)
		frac[0] = 1; /* the plugin: one answer is right */
	else if (nfr != nans) {
		qb_diag_error(at(r, r->row[fk].off), "row %zu, column 'fraction' has %zu values for "
		              "the %zu answers of column 'answer': give one per answer, separated by "
		              "';'", r->rowno, nfr, nans);
		ok = false;
	}
	for (size_t i = 0; ok && i < nfr; i++) {
		char *end;
		frac[i] = qb_imp_strtod(fr[i], &end);
		if (end == fr[i] || *end || frac[i] < 0) {
			qb_diag_error(at(r, r->row[fk].off), "row %zu, column 'fraction': '%s' is not a "
			              "mark from 0 to 1", r->rowno, fr[i]);
			ok = false;
		}
	}
	for (size_t i = 0; ok && i < nans; i++)
		full += *ans[i] && frac[i] >= 1;
	if (ok && !full) {
		qb_diag_error(at(r, r->row[fk].off), "row %zu, column 'fraction': no answer earns "
		              "full marks (1): a short answer needs one", r->rowno);
		ok = false;
	}
	for (size_t i = 0; ok && i < nans; i++)
		if (*ans[i] && frac[i] > 0 && frac[i] < 1)
			qb_imp_lost(r->im, at(r, r->row[ak].off), "row %zu, column 'answer': '%s' earns "
			            "%g%% of the marks in the source, which a short answer cannot give: it "
			            "is not carried", r->rowno, ans[i], frac[i] * 100);
	free_lines(fr, nfr);
	return ok;
}

/* A row of a per-type layout: one question of the layout's type. */
static void row_typed(csvr *r)
{
	qb_imp *im = r->im;
	qb_loc loc = at(r, r->nrow ? r->row[0].off : 0);
	if (!row_width_ok(r, loc))
		return;
	bool bad = false;
	size_t tk = 0, ak = 0, k = 0;
	const char *text = mcell(r, T_TEXT, &tk);
	if (!*text) {
		qb_diag_error(at(r, r->row[tk].off), "row %zu, column 'questiontext' is empty: write "
		              "the question in it", r->rowno);
		bad = true;
	}
	mcell(r, T_ANSWER, &ak);
	const char *answer = trimmed(r->row[ak].s);
	qb_qtype t = r->typed_type;
	char **v = NULL, **ch = NULL;
	size_t nv = pieces(t == QB_QTYPE_MULTIPLE ? mcell(r, T_CHOICES, NULL) : answer, &v), nch = 0;
	bool *right = qb_xcalloc(nv, sizeof *right);
	double *frac = qb_xcalloc(nv, sizeof *frac);
	bool truth = false;
	if (t == QB_QTYPE_MULTIPLE) {
		ch = qb_xcalloc(nv, sizeof *ch);
		for (size_t i = 0; i < nv; i++)
			if (*v[i])
				ch[nch++] = v[i];
		bad = !typed_choices(r, nch, right, &t) | bad;
	} else if (t == QB_QTYPE_SHORT) {
		bad = !typed_short(r, v, nv, frac) | bad;
	} else {
		char *end;
		long n = strtol(answer, &end, 10);
		if (end == answer || *end) {
			qb_diag_error(at(r, r->row[ak].off), "row %zu, column 'answer': a true-false "
			              "answer is 1 (true) or 0 (false), not '%s'", r->rowno, answer);
			bad = true;
		}
		truth = n > 0;
	}
	const char *mark = mcell(r, T_MARK, &k);
	if (*mark && strcmp(mark, "1") != 0 && strcmp(mark, "1.0") != 0 && !r->typed_mark_said) {
		r->typed_mark_said = true;
		qb_imp_lost(im, at(r, r->row[k].off), "row %zu, column '%s': a .qb has no place "
		            "for it, so this column is not carried (said once)", r->rowno,
		            r->cols[k].name);
	}
	if (bad)
		goto done;
	qb_question *q = qb_imp_question(im, t, loc);
	qb_imp_plain(im, &q->prompt, at(r, r->row[tk].off), text);
	if (t == QB_QTYPE_TRUE_FALSE)
		qb_imp_truefalse(im, truth, NULL, NULL, at(r, r->row[ak].off));
	for (size_t i = 0; i < nch; i++) {
		size_t ck = 0;
		mcell(r, T_CHOICES, &ck);
		qb_choice *c = qb_imp_choice(im, at(r, r->row[ck].off));
		c->correct = right[i];
		qb_imp_plain(im, &c->text, at(r, r->row[ck].off), ch[i]);
	}
	for (size_t i = 0; t == QB_QTYPE_SHORT && i < nv; i++) {
		if (!*v[i] || (frac[i] > 0 && frac[i] < 1))
			continue;
		qb_choice *c = qb_imp_choice(im, at(r, r->row[ak].off));
		c->correct = frac[i] >= 1;
		qb_imp_plain(im, &c->text, at(r, r->row[ak].off), v[i]);
	}
	q = &im->qs[im->nqs - 1];
	const char *s = mcell(r, T_GENERALFB, &k);
	if (*s)
		qb_imp_plain(im, &q->explanation, at(r, r->row[k].off), s);
	const char *name = mcell(r, T_NAME, NULL);
	qb_imp_id(im, name, name);
done:
	free(ch);
	free(right);
	free(frac);
	free_lines(v, nv);
}

/* libcsv: the end of a row. */
static void on_row(int c, void *data)
{
	csvr *r = data;
	QB_UNUSED(c);
	r->rowno++;
	bool empty = true;
	for (size_t i = 0; i < r->nrow; i++)
		empty = empty && !*r->row[i].s;
	if (r->rowno == 1)
		header(r);
	else if (!empty && r->header_ok && r->typed)
		row_typed(r);
	else if (!empty && r->header_ok && r->moodle)
		row_moodle(r);
	else if (!empty && r->header_ok)
		row(r);
	for (size_t i = 0; i < r->nrow; i++)
		free(r->row[i].s);
	r->nrow = 0;
	r->field_start = r->pos + 1;
}

static int is_space(unsigned char c)
{
	return c == ' ';
}

int qb_import_csv(qb_imp *im, const char *data, size_t len)
{
	qb_diag_mark m = qb_diag_mark_now();
	struct csv_parser p;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		qb_diag_fatal("cannot start the CSV parser");
		return -1;
	}
	csv_set_space_func(&p, is_space);
	/* The sheet's first language column is the bank's first language
	 * (a Kiswahili teacher's 'prompt:sw' before 'prompt:en'), unless
	 * --lang says otherwise. */
	im->langs_in_order = !im->lang_given;
	/* TSV when the header line has a tab and no comma */
	size_t hl = strcspn(data, "\n");
	bool tsv = memchr(data, '\t', hl) && !memchr(data, ',', hl);
	csv_set_delim(&p, tsv ? CSV_TAB : CSV_COMMA);
	csvr r = {im, data, len, 0, 0, NULL, 0, 0, 0, NULL, 0, false, {{-1, 0, {0}}, {-1, 0, {0}},
	                                                            {-1, 0, {0}}}, false, {false}, false,
	          QB_QTYPE_SINGLE, false};
	/* a byte at a time: each cell's place in the file is known */
	for (r.pos = 0; r.pos < len; r.pos++)
		if (csv_parse(&p, data + r.pos, 1, on_field, on_row, &r) != 1) {
			qb_diag_error(at(&r, r.pos), "row %zu: %s (a quote inside a quoted cell is "
			              "written twice: \"\")", r.rowno + 1, csv_strerror(csv_error(&p)));
			break;
		}
	if (r.pos == len && csv_fini(&p, on_field, on_row, &r) != 0)
		qb_diag_error(at(&r, r.field_start), "row %zu: a quoted cell is not closed",
		              r.rowno + 1);
	csv_free(&p);
	for (size_t i = 0; i < r.nrow; i++)
		free(r.row[i].s);
	free(r.row);
	free(r.cols);
	qb_bank *b = im->bank;
	if (r.set[0].value >= 0) {
		b->pass_mark = r.set[0].value;
		b->pass_mark_loc = r.set[0].loc;
	}
	if (r.set[1].value >= 0) {
		b->shuffle_options = r.set[1].value;
		b->shuffle_options_loc = r.set[1].loc;
	}
	if (r.set[2].value >= 0) {
		b->shuffle_questions = r.set[2].value;
		b->shuffle_questions_loc = r.set[2].loc;
	}
	if (!im->nqs && !qb_diag_errors_since(m))
		qb_diag_error(QB_LOC(im->file, 0, 0), "no question row found under the header");
	return qb_diag_errors_since(m) ? -1 : 0;
}
