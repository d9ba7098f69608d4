/* params.c - parameterised questions (issue 38): reading the variables,
 * drawing each question's pool and checking it, placeholders in texts.
 *
 * Formulas are evaluated by GNU libmatheval only.  Its parser is a flex and
 * bison one with global state (not thread-safe: only the main thread draws,
 * when a bank is read) that echoes a character it does not know to stdout;
 * so a formula is first checked to hold only what formulas are made of
 * (names, numbers, + - * / ^, parentheses), which also gives the author a
 * located message for a '%' or a ','.  The random numbers are nettle's
 * ChaCha key stream, keyed with a SHA-256 of what defines the question's
 * numbers (its Knuth generator, made for tests, spends most of a draw
 * warming up). */
#include "params.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matheval.h>
#include <nettle/chacha.h>

#include "alloc.h"
#include "diag.h"
#include "hash.h"
#include "i18n.h"

/* The pool's size when 'draws:' is not written. */
#define DEFAULT_DRAWS 20
/* Candidates tried per draw asked before giving up. */
#define TRIES_PER_DRAW 200
/* The most draws a question may ask for. */
#define MAX_DRAWS 1000

const qb_params *qb_question_params(const qb_question *q)
{
	return q->rare ? q->rare->params : NULL;
}

bool qb_params_brace_opens(char before)
{
	return !(isalpha((unsigned char)before) || before == '^' || before == '_' || before == '}' ||
	         before == '{');
}

bool qb_params_name_ok(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s))
		(*s)++, (*n)--;
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static qb_loc loc_plus(qb_loc l, const char *base, const char *at)
{
	/* columns count characters: skip UTF-8 continuation bytes */
	for (const char *p = base; p < at; p++)
		if (((unsigned char)*p & 0xC0) != 0x80)
			l.col++;
	return l;
}

/* ---- numbers ---- */

/* Decimals written in the number s[0..n) ("9.81": 2). */
static int written_decimals(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);
	if (!dot)
		return 0;
	int d = 0;
	for (const char *p = dot + 1; p < s + n && isdigit((unsigned char)*p); p++)
		d++;
	return d;
}

/* A number s[0..n) as a whole (optional sign, digits, '.' fraction). */
static bool read_number(const char *s, size_t n, double *out)
{
	trim(&s, &n);
	if (!n || n > 60)
		return false;
	char tmp[64];
	size_t j = 0;
	if (n >= 3 && memcmp(s, "\xE2\x88\x92", 3) == 0) { /* U+2212 minus */
		tmp[j++] = '-';
		s += 3, n -= 3;
	}
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!(isdigit((unsigned char)c) || c == '.' || ((c == '-' || c == '+') && i == 0 && !j)))
			return false;
		tmp[j++] = c;
	}
	tmp[j] = 0;
	char *end;
	*out = strtod(tmp, &end);
	return end != tmp && !*end && isfinite(*out);
}

const char *qb_params_number(double x, int decimals, const char *mark, char *buf, size_t size)
{
	if (decimals < 0)
		decimals = 0;
	if (decimals > 15)
		decimals = 15;
	snprintf(buf, size, "%.*f", decimals, x);
	if (strcmp(buf, "-0") == 0 || (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)))
		memmove(buf, buf + 1, strlen(buf));
	char *dot = strchr(buf, '.');
	if (dot && mark && strcmp(mark, ".") != 0) {
		size_t ml = strlen(mark), tail = strlen(dot + 1);
		if ((size_t)(dot - buf) + ml + tail + 1 <= size) {
			memmove(dot + ml, dot + 1, tail + 1);
			memcpy(dot, mark, ml);
		}
	}
	return buf;
}

static double round_to(double x, int decimals)
{
	double f = pow(10.0, decimals);
	double r = round(x * f) / f;
	return isfinite(r) ? r : x;
}

const char *qb_params_value_text(const qb_params *p, size_t k, size_t i, const char *mark,
                                 char *buf, size_t size)
{
	int d = i < p->nvars ? p->vars[i].decimals : p->answer.decimals;
	bool trim_zeros = i < p->nvars ? p->vars[i].kind == QB_VAR_FORMULA && !p->vars[i].decimals_written
	                               : !p->answer.decimals_written;
	double x = qb_params_value(p, k, i);
	if (trim_zeros) /* the fewest decimals, up to d, that write x rounded to d */
		for (int e = 0; e < d; e++)
			if (round_to(x, e) == round_to(x, d)) {
				d = e;
				break;
			}
	return qb_params_number(x, d, mark, buf, size);
}

/* ---- formulas ---- */

/* True when s holds only what a formula is made of: a message otherwise,
 * *bad the offending byte. */
static bool formula_chars_ok(const char *s, const char **bad)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-' || c == '*' ||
		    c == '/' || c == '^' || c == '(' || c == ')' || c == ' ' || c == '\t')
			continue;
		*bad = p;
		return false;
	}
	return true;
}

/* ---- reading (the readers call these) ---- */

/* A new variable of p: the list grows on the heap while the question is
 * read (doubling), and moves into the arena, exactly sized, when the pool
 * is read (qb_params_end()). */
static qb_var *push_var(qb_params *p)
{
	if (p->nvars >= p->capvars) { /* full, or in the arena */
		size_t cap = p->nvars < 2 ? 4 : 2 * p->nvars;
		qb_var *v = qb_xmalloc(cap * sizeof *v);
		if (p->nvars)
			memcpy(v, p->vars, p->nvars * sizeof *v);
		if (p->capvars)
			free(p->vars);
		p->vars = v;
		p->capvars = cap;
	}
	memset(&p->vars[p->nvars], 0, sizeof p->vars[0]);
	return &p->vars[p->nvars++];
}

void qb_params_end(qb_bank *bank, qb_params *p)
{
	if (!p->capvars)
		return;
	qb_var *v = p->nvars ? qb_arena_alloc(&bank->arena, p->nvars * sizeof *v) : NULL;
	if (p->nvars)
		memcpy(v, p->vars, p->nvars * sizeof *v);
	free(p->vars);
	p->vars = v;
	p->capvars = 0;
}

qb_params *qb_params_new(qb_bank *bank, qb_question *q, qb_loc loc)
{
	qb_rare *rare = qb_question_rare_w(&bank->arena, q);
	if (!rare->params) {
		rare->params = memset(qb_arena_alloc(&bank->arena, sizeof *rare->params), 0,
		                      sizeof *rare->params);
		rare->params->loc = loc;
		rare->params->answer.decimals = 2;
	}
	return rare->params;
}

/* Splits a trailing 'decimals N' off s[0..*n): N, or -1 when absent;
 * -2 when written wrong. */
static int take_decimals(const char *s, size_t *n)
{
	static const char kw[] = "decimals";
	size_t e = *n;
	while (e && is_space(s[e - 1]))
		e--;
	size_t d = e;
	while (d && isdigit((unsigned char)s[d - 1]))
		d--;
	size_t k = d;
	while (k && is_space(s[k - 1]))
		k--;
	if (k < sizeof kw - 1 || memcmp(s + k - (sizeof kw - 1), kw, sizeof kw - 1) != 0)
		return -1;
	size_t start = k - (sizeof kw - 1);
	if (start && !is_space(s[start - 1]))
		return -1;
	if (d == e || e - d > 2)
		return -2;
	*n = start;
	return (int)strtol(s + d, NULL, 10);
}

void qb_params_add_var(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc)
{
	const char *base = s;
	trim(&s, &n);
	loc = loc_plus(loc, base, s);
	const char *eq = memchr(s, '=', n);
	if (!eq) {
		qb_diag_error(loc, "a variable is written 'name = value', e.g. 'h = 5..50 step 5', "
		                   "'g = 9.81' or 't = sqrt(2*h/g)'");
		return;
	}
	const char *name = s;
	size_t nlen = (size_t)(eq - s);
	trim(&name, &nlen);
	if (!qb_params_name_ok(name, nlen)) {
		qb_diag_error(loc, "'%.*s' is not a variable name: a letter, then letters, digits "
		                   "or '_'", (int)nlen, name);
		return;
	}
	if (nlen == 6 && memcmp(name, "answer", 6) == 0) {
		qb_diag_error(loc, "'answer' is the name of the question's answer: choose another "
		                   "name for this variable");
		return;
	}
	for (size_t i = 0; i < p->nvars; i++)
		if (p->vars[i].name && strlen(p->vars[i].name) == nlen &&
		    memcmp(p->vars[i].name, name, nlen) == 0) {
			qb_diag_error(loc, "the variable '%.*s' is defined twice; the first is on "
			                   "line %d", (int)nlen, name, p->vars[i].loc.line);
			return;
		}
	const char *d = eq + 1;
	size_t dlen = n - (size_t)(d - s);
	trim(&d, &dlen);
	qb_loc dloc = loc_plus(loc, s, d);
	if (!dlen) {
		qb_diag_error(dloc, "'%.*s =' needs a value, e.g. '%.*s = 1..10'", (int)nlen, name,
		              (int)nlen, name);
		return;
	}
	qb_var *v = push_var(p);
	p->nnamed++;
	v->name = qb_arena_strndup(&bank->arena, name, nlen);
	v->def = qb_arena_strndup(&bank->arena, d, dlen);
	v->loc = loc;
	v->def_loc = dloc;
	int dec = take_decimals(d, &dlen);
	if (dec == -2) {
		qb_diag_error(dloc, "'decimals' is followed by a number of decimals from 0 to 15, "
		                    "e.g. 'decimals 2'");
		dec = -1;
	} else if (dec > 15) {
		qb_diag_error(dloc, "at most 15 decimals can be shown");
		dec = 15;
	}
	v->decimals_written = dec >= 0;
	/* a range: lo..hi [step s] */
	const char *dots = NULL;
	for (size_t i = 0; i + 1 < dlen; i++)
		if (d[i] == '.' && d[i + 1] == '.') {
			dots = d + i;
			break;
		}
	if (dots) {
		const char *hi = dots + 2, *end = d + dlen, *st = NULL;
		static const char step[] = " step ";
		for (const char *q = hi; q + sizeof step - 1 <= end; q++)
			if (memcmp(q, step, sizeof step - 1) == 0) {
				st = q;
				break;
			}
		const char *hiend = st ? st : end;
		v->kind = QB_VAR_RANGE;
		if (!read_number(d, (size_t)(dots - d), &v->lo) ||
		    !read_number(hi, (size_t)(hiend - hi), &v->hi) ||
		    (st && !read_number(st + 6, (size_t)(end - st - 6), &v->step))) {
			qb_diag_error(dloc, "a range is written 'from..to' or 'from..to step s' with "
			                    "numbers, e.g. '5..50 step 5'");
			v->kind = QB_VAR_LIST;
			v->nlist = 0;
			return;
		}
		int wd = written_decimals(d, (size_t)(dots - d));
		int w2 = written_decimals(hi, (size_t)(hiend - hi));
		wd = w2 > wd ? w2 : wd;
		if (st) {
			int w3 = written_decimals(st + 6, (size_t)(end - st - 6));
			wd = w3 > wd ? w3 : wd;
			if (!(v->step > 0)) {
				qb_diag_error(dloc, "a range's step is a number above 0");
				v->step = 1;
			}
		} else if (dec < 0)
			v->step = wd ? 0 : 1; /* 2..9: whole numbers; 0.5..2.5: any */
		if (v->lo > v->hi) {
			qb_diag_error(dloc, "a range goes from the smaller number to the larger, "
			                    "e.g. '%g..%g'", v->hi, v->lo);
			double t = v->lo;
			v->lo = v->hi, v->hi = t;
		}
		v->decimals = dec >= 0 ? dec : wd;
		return;
	}
	/* a list or a constant: numbers separated by ',' */
	size_t count = 1;
	bool numbers = true;
	for (size_t i = 0; i < dlen; i++)
		count += d[i] == ',';
	double *list = qb_arena_alloc(&bank->arena, count * sizeof *list);
	int wd = 0;
	const char *pc = d, *end = d + dlen;
	for (size_t i = 0; i < count && numbers; i++) {
		const char *c = memchr(pc, ',', (size_t)(end - pc));
		const char *ce = c ? c : end;
		numbers = read_number(pc, (size_t)(ce - pc), &list[i]);
		int w = written_decimals(pc, (size_t)(ce - pc));
		wd = w > wd ? w : wd;
		pc = ce + 1;
	}
	if (numbers) {
		v->kind = QB_VAR_LIST;
		v->list = list;
		v->nlist = count;
		v->decimals = dec >= 0 ? dec : wd;
		return;
	}
	if (count > 1) {
		qb_diag_error(dloc, "a list of values is numbers separated by ',', e.g. "
		                    "'2, 3, 5, 7' (a formula has no ',')");
		v->kind = QB_VAR_LIST;
		v->nlist = 0;
		return;
	}
	v->kind = QB_VAR_FORMULA;
	v->formula = qb_arena_strndup(&bank->arena, d, dlen);
	v->decimals = dec >= 0 ? dec : 2;
}

void qb_params_set_where(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc)
{
	const char *base = s;
	trim(&s, &n);
	p->where = qb_arena_strndup(&bank->arena, s, n);
	p->where_loc = loc_plus(loc, base, s);
}

void qb_params_set_draws(qb_params *p, unsigned n, qb_loc loc)
{
	p->ndraws = n;
	p->draws_loc = loc;
}

/* A table row or its header: cells split at '|'. */
void qb_params_table_line(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc)
{
	size_t ncells = 1;
	for (size_t i = 0; i < n; i++)
		ncells += s[i] == '|';
	const char *pc = s, *end = s + n;
	if (!p->table_names) {
		p->table_loc = loc;
		p->table_names = qb_arena_alloc(&bank->arena, ncells * sizeof *p->table_names);
		p->ntable_cols = ncells;
		for (size_t i = 0; i < ncells; i++) {
			const char *c = memchr(pc, '|', (size_t)(end - pc));
			const char *ce = c ? c : end, *cs = pc;
			size_t cl = (size_t)(ce - cs);
			trim(&cs, &cl);
			if (!qb_params_name_ok(cs, cl))
				qb_diag_error(loc_plus(loc, s, cs), "a draws table starts with a line of "
				              "variable names separated by '|', e.g. 'h | g'");
			p->table_names[i] = qb_arena_strndup(&bank->arena, cs, cl);
			pc = ce + 1;
		}
		return;
	}
	if (ncells != p->ntable_cols) {
		qb_diag_error(loc, "this row has %zu values; the table's first line names %zu "
		              "variables", ncells, p->ntable_cols);
		return;
	}
	double *t = qb_arena_alloc(&bank->arena, (p->ntable_rows + 1) * p->ntable_cols * sizeof *t);
	if (p->ntable_rows)
		memcpy(t, p->table, p->ntable_rows * p->ntable_cols * sizeof *t);
	double *row = t + p->ntable_rows * p->ntable_cols;
	for (size_t i = 0; i < ncells; i++) {
		const char *c = memchr(pc, '|', (size_t)(end - pc));
		const char *ce = c ? c : end;
		if (!read_number(pc, (size_t)(ce - pc), &row[i])) {
			const char *cs = pc;
			size_t cl = (size_t)(ce - pc);
			trim(&cs, &cl);
			qb_diag_error(loc_plus(loc, s, cs), "'%.*s' is not a number", (int)cl, cs);
			return;
		}
		pc = ce + 1;
	}
	p->table = t;
	p->ntable_rows++;
}

void qb_params_set_answer(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc)
{
	const char *base = s;
	trim(&s, &n);
	loc = loc_plus(loc, base, s);
	const char *pm = NULL;
	size_t pml = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 2 <= n && memcmp(s + i, "\xC2\xB1", 2) == 0) {
			pm = s + i, pml = 2;
			break;
		}
		if (i + 2 <= n && memcmp(s + i, "+-", 2) == 0) {
			pm = s + i, pml = 2;
			break;
		}
	}
	size_t flen = pm ? (size_t)(pm - s) : n;
	int dec = take_decimals(s, &flen);
	if (dec >= 0 && dec <= 15)
		p->answer.decimals = dec, p->answer.decimals_written = true;
	const char *f = s;
	trim(&f, &flen);
	p->answer.formula = qb_arena_strndup(&bank->arena, f, flen);
	p->answer.loc = loc;
	if (!pm)
		return;
	const char *t = pm + pml, *end = s + n;
	size_t tl = (size_t)(end - t);
	trim(&t, &tl);
	int tdec = take_decimals(t, &tl);
	if (tdec >= 0 && tdec <= 15)
		p->answer.decimals = tdec, p->answer.decimals_written = true;
	trim(&t, &tl); /* the space before 'decimals' */
	if (tl && t[tl - 1] == '%') {
		p->answer.percent = true;
		tl--;
	}
	if (!read_number(t, tl, &p->answer.tol) || p->answer.tol < 0) {
		qb_diag_error(loc_plus(loc, s, t), "the tolerance after '\xC2\xB1' is a number or a "
		              "percentage, e.g. '\xC2\xB1 0.05' or '\xC2\xB1 2%%'");
		p->answer.tol = 0;
	}
}

/* ---- placeholders ---- */

static size_t var_index(const qb_params *p, const char *name, size_t n)
{
	for (size_t i = 0; i < p->nvars; i++)
		if (p->vars[i].name && strlen(p->vars[i].name) == n &&
		    memcmp(p->vars[i].name, name, n) == 0)
			return i;
	if (n == 6 && memcmp(name, "answer", 6) == 0 && p->answer.formula)
		return p->nvars;
	return (size_t)-1;
}

static size_t formula_index(const qb_params *p, const char *f, size_t n)
{
	trim(&f, &n);
	for (size_t i = p->nnamed; i < p->nvars; i++)
		if (strlen(p->vars[i].def) == n && memcmp(p->vars[i].def, f, n) == 0)
			return i;
	return (size_t)-1;
}

/* The next '{...}' in text[from..n) that is not part of '{{' or '}}', nor
 * escaped, nor a TeX group (qb_params_brace_opens()): its offset and
 * length, or false. */
static bool next_brace(const char *text, size_t n, size_t from, size_t *off, size_t *len)
{
	for (size_t i = from; i < n; i++) {
		if (text[i] == '\\') {
			i++;
			continue;
		}
		if (text[i] != '{')
			continue;
		if (i + 1 < n && text[i + 1] == '{') {
			while (i + 1 < n && text[i + 1] == '{')
				i++;
			continue;
		}
		/* TeX's groups: '\\mathrm{kJ}', 'x^{2}', '\\frac{a}{b}' */
		if (i && !qb_params_brace_opens(text[i - 1]))
			continue;
		const char *close = memchr(text + i + 1, '}', n - i - 1);
		if (!close)
			return false;
		const char *open = memchr(text + i + 1, '{', (size_t)(close - text) - i - 1);
		if (open) /* '{a {b}': the inner one */
			continue;
		*off = i;
		*len = (size_t)(close - text) - i + 1;
		return true;
	}
	return false;
}

bool qb_params_next(const qb_params *p, const char *text, size_t n, size_t from,
                    qb_placeholder *ph)
{
	size_t off, len;
	while (next_brace(text, n, from, &off, &len)) {
		const char *in = text + off + 1;
		size_t il = len - 2, i;
		if (il && in[0] == '=')
			i = formula_index(p, in + 1, il - 1);
		else
			i = qb_params_name_ok(in, il) ? var_index(p, in, il) : (size_t)-1;
		if (i != (size_t)-1) {
			ph->off = off;
			ph->len = len;
			ph->var = i;
			return true;
		}
		from = off + 1;
	}
	return false;
}

/* True when text[off] is inside a numeric cloze gap ('{{#...}}'), whose
 * number is read with a '.' in every language (qb_numeric_parse()). */
static bool in_numeric_gap(const char *text, size_t off)
{
	for (size_t i = off; i >= 2; i--) {
		if (text[i - 1] == '}' && text[i - 2] == '}')
			return false;
		if (text[i - 1] == '{' && text[i - 2] == '{') {
			size_t j = i;
			while (text[j] == ' ' || text[j] == '\t')
				j++;
			return text[j] == '#';
		}
	}
	return false;
}

void qb_params_subst(const qb_params *p, size_t k, const char *text, const char *mark, qb_buf *out)
{
	size_t n = strlen(text), at = 0;
	qb_placeholder ph;
	char num[64];
	while (qb_params_next(p, text, n, at, &ph)) {
		qb_buf_append(out, text + at, ph.off - at);
		const char *m = in_numeric_gap(text, ph.off) ? "." : mark;
		qb_buf_puts(out, qb_params_value_text(p, k, ph.var, m, num, sizeof num));
		at = ph.off + ph.len;
	}
	qb_buf_append(out, text + at, n - at);
}

/* ---- drawing ---- */

typedef struct cond {
	void *lhs, *rhs;
	int op; /* '<', 'l' (<=), '>', 'g' (>=), '=', '!' */
	qb_loc loc;
} cond;

typedef struct drawer {
	qb_bank *bank;
	qb_question *q;
	qb_params *p;
	void **ev;        /* per variable: its formula's evaluator or NULL   */
	void *answer;     /* the answer's evaluator                          */
	cond *conds;
	size_t nconds;
	char **names;     /* every variable's name, for matheval             */
	double *vals;
	size_t nnames;    /* named variables                                 */
	bool bad;         /* an error was reported: no pool                  */
	bool *reported;   /* per variable (+ answer): non-finite reported    */
} drawer;


/* Compiles formula f (located at loc), whose variables must be among the
 * first nvisible named ones: NULL after an error. */
static void *compile(drawer *d, const char *f, qb_loc loc, size_t nvisible)
{
	const char *bad;
	if (!formula_chars_ok(f, &bad)) {
		if (*bad == ',')
			qb_diag_error(loc_plus(loc, f, bad), "',' in a formula: write decimals with "
			              "'.' (9.81); a function takes one value, e.g. sqrt(x)");
		else {
			int n = 1; /* a whole UTF-8 character: '×', '√', '²' */
			while (((unsigned char)*bad & 0xC0) == 0xC0 && n < 4 &&
			       ((unsigned char)bad[n] & 0xC0) == 0x80)
				n++;
			qb_diag_error(loc_plus(loc, f, bad), "'%.*s' is not part of a formula: use "
			              "numbers, variables, + - * / ^, parentheses and functions such "
			              "as sqrt(x)", n, bad);
		}
		d->bad = true;
		return NULL;
	}
	void *ev = evaluator_create((char *)f);
	if (!ev) {
		qb_diag_error(loc, "the formula '%s' does not parse: write it as in 'sqrt(2*h/g)' "
		              "or 'a^2 + b^2' (* between factors)", f);
		d->bad = true;
		return NULL;
	}
	char **names;
	int count;
	evaluator_get_variables(ev, &names, &count);
	for (int i = 0; i < count; i++) {
		size_t k = var_index(d->p, names[i], strlen(names[i]));
		if (k < d->p->nnamed && k < nvisible)
			continue;
		const char *where = strstr(f, names[i]);
		qb_loc at = where ? loc_plus(loc, f, where) : loc;
		if (k < d->p->nnamed)
			qb_diag_error(at, "'%s' is defined below this formula; define a variable "
			              "before the formulas that use it", names[i]);
		else
			qb_diag_error(at, "unknown variable '%s' in this formula", names[i]);
		d->bad = true;
	}
	return ev;
}

/* The comparison that s[0..n) starts with (its bytes in *len), or 0. */
static int op_of(const char *s, size_t n, size_t *len)
{
	static const struct {
		const char *op;
		int code;
	} ops[] = {
		{"<=", 'l'}, {">=", 'g'}, {"!=", '!'}, {"<>", '!'}, {"==", '='},
		{"\xE2\x89\xA0", '!'}, {"\xE2\x89\xA4", 'l'}, {"\xE2\x89\xA5", 'g'}, /* ≠ ≤ ≥ */
		{"<", '<'}, {">", '>'}, {"=", '='},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t k = strlen(ops[i].op);
		if (k <= n && memcmp(s, ops[i].op, k) == 0) {
			*len = k;
			return ops[i].code;
		}
	}
	return 0;
}

static void compile_conds(drawer *d)
{
	const qb_params *p = d->p;
	if (!p->where)
		return;
	const char *s = p->where;
	size_t n = strlen(s), cap = 1;
	for (size_t i = 0; i < n; i++)
		cap += s[i] == ',';
	d->conds = qb_xcalloc(cap, sizeof *d->conds);
	const char *pc = s, *end = s + n;
	while (pc <= end) {
		const char *c = memchr(pc, ',', (size_t)(end - pc));
		const char *ce = c ? c : end;
		const char *cs = pc;
		size_t cl = (size_t)(ce - pc);
		trim(&cs, &cl);
		qb_loc cloc = loc_plus(p->where_loc, s, cs);
		size_t opat = 0, oplen = 0;
		int op = 0;
		for (size_t i = 0; i < cl && !op; i++)
			if ((op = op_of(cs + i, cl - i, &oplen)))
				opat = i;
		size_t rl = op ? cl - opat - oplen : 0;
		const char *rs = op ? cs + opat + oplen : cs;
		trim(&rs, &rl);
		if (!op || !opat || !rl) {
			qb_diag_error(cloc, "a condition compares two formulas with < <= > >= = or "
			              "!=, e.g. 'where: a != b, b^2 - 4*a*c >= 0'");
			d->bad = true;
		} else {
			char *l = qb_xstrndup(cs, opat);
			char *r = qb_xstrndup(cs + opat + oplen, cl - opat - oplen);
			cond *k = &d->conds[d->nconds++];
			k->op = op;
			k->loc = cloc;
			k->lhs = compile(d, l, cloc, p->nnamed);
			k->rhs = compile(d, r, loc_plus(cloc, cs, cs + opat + oplen), p->nnamed);
			free(l);
			free(r);
		}
		if (!c)
			break;
		pc = c + 1;
	}
}

static bool cond_holds(const cond *k, double a, double b)
{
	double eps = 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
	switch (k->op) {
	case '<': return a < b - eps;
	case 'l': return a <= b + eps;
	case '>': return a > b + eps;
	case 'g': return a >= b - eps;
	case '=': return fabs(a - b) <= eps;
	default: return fabs(a - b) > eps;
	}
}

static double eval(drawer *d, void *ev)
{
	return evaluator_evaluate(ev, (int)d->nnames, d->names, d->vals);
}

/* The values of draw candidate row[] (the base ones filled): formulas in
 * order, rounded to their decimals; a value that is not finite is NAN
 * and makes it return false. */
static bool complete(drawer *d, double *row)
{
	qb_params *p = d->p;
	bool finite = true;
	for (size_t i = 0; i < p->nvars; i++) {
		if (p->vars[i].kind == QB_VAR_FORMULA) {
			double x = d->ev[i] ? eval(d, d->ev[i]) : (double)NAN;
			if (!isfinite(x))
				finite = false;
			row[i] = isfinite(x) ? round_to(x, p->vars[i].decimals) : (double)NAN;
		}
		if (i < d->nnames)
			d->vals[i] = row[i];
	}
	row[p->nvars] = (double)NAN;
	if (p->answer.formula) {
		double x = d->answer ? eval(d, d->answer) : (double)NAN;
		if (!isfinite(x))
			finite = false;
		row[p->nvars] = x;
	}
	return finite;
}

/* True when some condition is false for the values in d->vals (one whose
 * sides are not finite numbers decides nothing). */
static bool conds_fail(drawer *d)
{
	for (size_t i = 0; i < d->nconds; i++) {
		cond *k = &d->conds[i];
		if (!k->lhs || !k->rhs)
			return true;
		double x = eval(d, k->lhs), y = eval(d, k->rhs);
		if (isfinite(x) && isfinite(y) && !cond_holds(k, x, y))
			return true;
	}
	return false;
}

/* The values of a draw, for a message: "h = 5, g = 9.81". */
static void draw_text(const drawer *d, const double *row, qb_buf *out)
{
	char num[64];
	for (size_t i = 0; i < d->p->nnamed; i++) {
		if (d->p->vars[i].kind == QB_VAR_FORMULA)
			continue;
		qb_buf_appendf(out, "%s%s = %s", out->len ? ", " : "", d->p->vars[i].name,
		               qb_params_number(row[i], d->p->vars[i].decimals, ".", num, sizeof num));
	}
}

/* Reports the first value of row that is not finite, at its formula. */
static void report_nonfinite(drawer *d, const double *row)
{
	qb_params *p = d->p;
	for (size_t i = 0; i <= p->nvars; i++) {
		bool is_answer = i == p->nvars;
		if (is_answer ? !p->answer.formula : p->vars[i].kind != QB_VAR_FORMULA)
			continue;
		if (isfinite(row[i]))
			continue;
		if (!d->reported[i]) {
			d->reported[i] = true;
			qb_buf b = QB_BUF_INIT;
			draw_text(d, row, &b);
			qb_diag_error(is_answer ? p->answer.loc : p->vars[i].def_loc,
			              "for %s this formula gives no number; leave such draws out "
			              "with 'where:'", qb_buf_cstr(&b));
			qb_buf_dispose(&b);
		}
		return;
	}
}

/* The random bits of a question: ChaCha's key stream. */
typedef struct rng {
	struct chacha_ctx chacha;
	uint8_t block[64];
	size_t used;
} rng;

static void rng_init(rng *r, const uint8_t key[CHACHA_KEY_SIZE])
{
	static const uint8_t nonce[CHACHA_NONCE_SIZE];
	chacha_set_key(&r->chacha, key);
	chacha_set_nonce(&r->chacha, nonce);
	r->used = sizeof r->block;
}

static uint64_t rng_u64(rng *r)
{
	if (r->used + 8 > sizeof r->block) {
		static const uint8_t zeros[64];
		chacha_crypt(&r->chacha, sizeof r->block, r->block, zeros);
		r->used = 0;
	}
	uint64_t x = 0;
	for (int i = 0; i < 8; i++)
		x = x << 8 | r->block[r->used++];
	return x;
}

static double uniform(rng *r)
{
	return (double)(rng_u64(r) >> 11) / 9007199254740992.0; /* 53 bits in [0, 1) */
}

static uint64_t below(rng *r, uint64_t n)
{
	return n ? (uint64_t)(uniform(r) * (double)n) % n : 0;
}

/* Base values of a random candidate. */
static void pick(drawer *d, rng *r, double *row)
{
	const qb_params *p = d->p;
	for (size_t i = 0; i < p->nnamed; i++) {
		const qb_var *v = &p->vars[i];
		double x = 0;
		if (v->kind == QB_VAR_RANGE) {
			if (v->step > 0) {
				uint64_t steps = (uint64_t)floor((v->hi - v->lo) / v->step + 1e-9) + 1;
				x = v->lo + (double)below(r, steps) * v->step;
			} else
				x = v->lo + uniform(r) * (v->hi - v->lo);
			x = round_to(x, v->decimals);
		} else if (v->kind == QB_VAR_LIST)
			x = v->nlist ? round_to(v->list[below(r, v->nlist)], v->decimals) : 0;
		row[i] = x;
		d->vals[i] = x;
	}
}

/* How many different base draws there are (capped). */
static double space(const qb_params *p)
{
	double n = 1;
	for (size_t i = 0; i < p->nnamed; i++) {
		const qb_var *v = &p->vars[i];
		if (v->kind == QB_VAR_RANGE)
			n *= v->step > 0 ? floor((v->hi - v->lo) / v->step + 1e-9) + 1
			                 : (v->hi - v->lo) * pow(10.0, v->decimals) + 1;
		else if (v->kind == QB_VAR_LIST)
			n *= v->nlist ? (double)v->nlist : 1;
		if (n > 1e12)
			return 1e12;
	}
	return n;
}

static bool same_base(const qb_params *p, const double *a, const double *b)
{
	for (size_t i = 0; i < p->nnamed; i++)
		if (p->vars[i].kind != QB_VAR_FORMULA && a[i] != b[i])
			return false;
	return true;
}

static void seed_of(uint8_t key[QB_SHA256_SIZE], const qb_bank *bank, const qb_question *q,
                    const qb_params *p)
{
	qb_buf b = {0};
	qb_buf_puts(&b, bank->id ? bank->id : "");
	qb_buf_putc(&b, 0);
	qb_buf_puts(&b, q->id ? q->id : "");
	qb_buf_putc(&b, 0);
	for (size_t i = 0; i < p->nnamed; i++)
		qb_buf_appendf(&b, "%s=%s\n", p->vars[i].name, p->vars[i].def);
	qb_buf_appendf(&b, "where %s\nanswer %s\ndraws %u\n", p->where ? p->where : "",
	               p->answer.formula ? p->answer.formula : "", p->ndraws);
	qb_hash_sha256(key, b.ptr, b.len);
	qb_buf_dispose(&b);
}

/* Every '{=formula}' of text becomes a variable of p (once); '{x}' naming
 * nothing is reported. */
static void scan_text(drawer *d, const qb_text *t)
{
	qb_params *p = d->p;
	for (uint32_t j = 0; j < t->ntr; j++) {
		const qb_tr *tr = &t->tr[j];
		size_t n = strlen(tr->text), from = 0, off, len;
		while (next_brace(tr->text, n, from, &off, &len)) {
			const char *in = tr->text + off + 1;
			size_t il = len - 2;
			qb_loc at = loc_plus(qb_tr_text_loc(t, tr), tr->text, tr->text + off);
			if (il && in[0] == '=') {
				if (formula_index(p, in + 1, il - 1) == (size_t)-1) {
					const char *f = in + 1;
					size_t fl = il - 1;
					trim(&f, &fl);
					qb_var *v = push_var(p);
					v->def = v->formula = qb_arena_strndup(&d->bank->arena, f, fl);
					v->kind = QB_VAR_FORMULA;
					v->decimals = 2;
					v->loc = v->def_loc = at;
				}
			} else if (qb_params_name_ok(in, il) && var_index(p, in, il) == (size_t)-1) {
				if (il == 6 && memcmp(in, "answer", 6) == 0)
					qb_diag_error(at, "'{answer}' shows a numeric question's answer; this "
					              "question has no 'answer:' formula");
				else
					qb_diag_error(at, "unknown variable '%.*s'; this question's variables "
					              "are defined under 'vars:'", (int)il, in);
				d->bad = true;
			}
			from = off + 1;
		}
	}
}

static void scan_question(drawer *d)
{
	const qb_question *q = d->q;
	scan_text(d, &q->prompt);
	scan_text(d, &q->explanation);
	for (size_t i = 0; i < q->nchoices; i++) {
		scan_text(d, &q->choices[i].text);
		scan_text(d, &q->choices[i].feedback);
		if (q->choices[i].match)
			scan_text(d, q->choices[i].match);
	}
	const qb_rare *r = qb_question_rare(q);
	scan_text(d, &r->feedback_wrong);
	if (r->feedback_tf) {
		scan_text(d, &r->feedback_tf[0]);
		scan_text(d, &r->feedback_tf[1]);
	}
	for (const qb_num_more *m = r->num_more; m; m = m->next)
		scan_text(d, &m->feedback);
}

/* Options of a single or multiple question that read the same in some
 * draw (the default language, as written). */
static void check_options(drawer *d, const qb_params *p)
{
	const qb_question *q = d->q;
	if (q->type != QB_QTYPE_SINGLE && q->type != QB_QTYPE_MULTIPLE)
		return;
	const char *lang = qb_bank_default_lang(d->bank);
	for (size_t k = 0; k < p->npool; k++) {
		char **txt = qb_xcalloc(q->nchoices + 1, sizeof *txt);
		for (size_t i = 0; i < q->nchoices; i++) {
			const char *s = lang ? qb_text_get(&q->choices[i].text, lang) : NULL;
			if (!s && q->choices[i].text.ntr)
				s = q->choices[i].text.tr[0].text;
			qb_buf b = {0};
			qb_params_subst(p, k, s ? s : "", ".", &b);
			txt[i] = qb_buf_detach(&b);
		}
		bool found = false;
		for (size_t i = 0; i < q->nchoices && !found; i++)
			for (size_t j = i + 1; j < q->nchoices && !found; j++)
				if (strcmp(txt[i], txt[j]) == 0) {
					qb_buf b = {0};
					draw_text(d, p->pool + k * (p->nvars + 1), &b);
					qb_diag_error(qb_choice_loc(&q->choices[j]), "options %zu and %zu both "
					              "read '%s' for %s; leave such draws out with 'where:'",
					              i + 1, j + 1, txt[i], qb_buf_cstr(&b));
					qb_buf_dispose(&b);
					found = true;
				}
		for (size_t i = 0; i < q->nchoices; i++)
			free(txt[i]);
		free(txt);
		if (found)
			return;
	}
}

/* The pool from the 'draws:' table. */
static size_t pool_from_table(drawer *d, double *pool)
{
	qb_params *p = d->p;
	size_t *col = qb_xcalloc(p->nnamed + 1, sizeof *col);
	for (size_t i = 0; i < p->nnamed; i++) {
		col[i] = (size_t)-1;
		for (size_t c = 0; c < p->ntable_cols; c++)
			if (strcmp(p->table_names[c], p->vars[i].name) == 0)
				col[i] = c;
		if (col[i] == (size_t)-1 && p->vars[i].kind != QB_VAR_FORMULA) {
			qb_diag_error(p->table_loc, "the draws table has no column for '%s'",
			              p->vars[i].name);
			d->bad = true;
		}
	}
	for (size_t c = 0; c < p->ntable_cols; c++)
		if (var_index(p, p->table_names[c], strlen(p->table_names[c])) >= p->nnamed) {
			qb_diag_error(p->table_loc, "'%s' in the draws table is no variable of "
			              "'vars:'", p->table_names[c]);
			d->bad = true;
		}
	size_t n = 0;
	for (size_t r = 0; r < p->ntable_rows && !d->bad; r++) {
		double *row = pool + n * (p->nvars + 1);
		for (size_t i = 0; i < p->nnamed; i++)
			if (col[i] != (size_t)-1) {
				row[i] = p->table[r * p->ntable_cols + col[i]];
				d->vals[i] = row[i];
			}
		bool finite = complete(d, row);
		if (conds_fail(d))
			continue;
		if (!finite) {
			report_nonfinite(d, row);
			d->bad = true;
		} else
			n++;
	}
	free(col);
	return n;
}

static void draw_question(qb_bank *bank, qb_question *q)
{
	qb_params *p = q->rare->params;
	drawer d = {.bank = bank, .q = q, .p = p};
	scan_question(&d);
	qb_params_end(bank, p);
	size_t nv = p->nvars;
	d.nnames = p->nnamed;
	d.names = qb_xcalloc(nv + 1, sizeof *d.names);
	d.vals = qb_xcalloc(nv + 1, sizeof *d.vals);
	d.ev = qb_xcalloc(nv + 1, sizeof *d.ev);
	d.reported = qb_xcalloc(nv + 1, sizeof *d.reported);
	for (size_t i = 0; i < p->nnamed; i++)
		d.names[i] = (char *)p->vars[i].name;
	for (size_t i = 0; i < nv; i++)
		if (p->vars[i].kind == QB_VAR_FORMULA)
			d.ev[i] = compile(&d, p->vars[i].formula, p->vars[i].def_loc,
			                  i < p->nnamed ? i : p->nnamed);
	if (p->answer.formula)
		d.answer = compile(&d, p->answer.formula, p->answer.loc, p->nnamed);
	compile_conds(&d);
	if (p->ndraws > MAX_DRAWS) {
		qb_diag_error(p->draws_loc, "at most %d draws", MAX_DRAWS);
		d.bad = true;
	}
	size_t want = p->ndraws ? p->ndraws : DEFAULT_DRAWS;
	double *pool = NULL;
	size_t n = 0;
	if (!d.bad) {
		size_t cap = p->table ? p->ntable_rows : want;
		pool = qb_arena_alloc(&bank->arena, (cap ? cap : 1) * (nv + 1) * sizeof *pool);
		if (p->table) {
			n = pool_from_table(&d, pool);
			if (!n && !d.bad && p->ntable_rows) {
				qb_diag_error(p->table_loc, "no row of the draws table meets the "
				              "conditions of 'where:'");
				d.bad = true;
			}
		} else {
			uint8_t key[QB_SHA256_SIZE];
			seed_of(key, bank, q, p);
			rng rnd;
			rng_init(&rnd, key);
			double sp = space(p);
			size_t tries = want * TRIES_PER_DRAW, t;
			double *row = qb_xcalloc(nv + 1, sizeof *row);
			for (t = 0; t < tries && n < want && !d.bad; t++) {
				pick(&d, &rnd, row);
				bool dup = false;
				for (size_t k = 0; k < n && !dup; k++)
					dup = same_base(p, row, pool + k * (nv + 1));
				if (dup)
					continue;
				bool finite = complete(&d, row);
				if (conds_fail(&d))
					continue;
				if (!finite) {
					report_nonfinite(&d, row);
					d.bad = true;
					continue;
				}
				memcpy(pool + n * (nv + 1), row, (nv + 1) * sizeof *row);
				n++;
				if ((double)n >= sp)
					break;
			}
			free(row);
			if (!d.bad && !n) {
				qb_diag_error(p->where ? p->where_loc : p->loc,
				              "no draw of the variables meets these conditions (%zu tried)", t);
				d.bad = true;
			} else if (!d.bad && p->ndraws && n < p->ndraws) {
				qb_diag_error(p->draws_loc, "'draws: %u' asks for more draws than the "
				              "variables give: %zu different ones meet the conditions",
				              p->ndraws, n);
				d.bad = true;
			}
		}
	}
	if (!d.bad && n) {
		p->pool = pool;
		p->npool = n;
		check_options(&d, p);
		if (p->answer.formula) { /* the question's answer: draw 0's */
			qb_rare *rare = q->rare;
			qb_numeric *num = memset(qb_arena_alloc(&bank->arena, sizeof *num), 0, sizeof *num);
			qb_params_answer_at(p, 0, num);
			num->loc = p->answer.loc;
			rare->num = num;
		}
	}
	for (size_t i = 0; i < nv; i++)
		if (d.ev[i])
			evaluator_destroy(d.ev[i]);
	if (d.answer)
		evaluator_destroy(d.answer);
	for (size_t i = 0; i < d.nconds; i++) {
		if (d.conds[i].lhs)
			evaluator_destroy(d.conds[i].lhs);
		if (d.conds[i].rhs)
			evaluator_destroy(d.conds[i].rhs);
	}
	free(d.conds);
	free(d.names);
	free(d.vals);
	free(d.ev);
	free(d.reported);
}

void qb_params_answer_at(const qb_params *p, size_t k, qb_numeric *num)
{
	double v = qb_params_value(p, k, p->nvars);
	double tol = p->answer.percent ? fabs(v) * p->answer.tol / 100.0 : p->answer.tol;
	num->value = v;
	num->tol = tol;
	num->lo = v - tol;
	num->hi = v + tol;
	num->percent = p->answer.percent;
	num->range = false;
}

int qb_params_draw(qb_bank *bank)
{
	qb_diag_mark m = qb_diag_mark_now();
	for (size_t i = 0; i < bank->nquestions; i++) {
		qb_question *q = &bank->questions[i];
		if (q->rare && q->rare->params)
			draw_question(bank, q);
	}
	return (int)qb_diag_errors_since(m);
}

/* ---- draw k as a plain question ---- */

typedef struct inst {
	qb_arena *arena;
	const qb_params *p;
	size_t k;
	qb_params_mark_fn mark;
	const void *payload;
} inst;

static void inst_text(const inst *in, qb_text *dst, const qb_text *src)
{
	*dst = *src;
	if (!src->ntr)
		return;
	qb_tr *tr = qb_arena_alloc(in->arena, src->ntr * sizeof *tr);
	qb_buf b = {0};
	for (uint32_t j = 0; j < src->ntr; j++) {
		tr[j] = src->tr[j];
		const char *m = in->mark ? in->mark(in->payload, qb_tr_lang(src, &src->tr[j])) : ".";
		qb_buf_clear(&b);
		qb_params_subst(in->p, in->k, src->tr[j].text, m ? m : ".", &b);
		tr[j].text = qb_arena_strndup(in->arena, b.ptr ? b.ptr : "", b.len);
	}
	qb_buf_dispose(&b);
	dst->tr = tr;
}

const qb_question *qb_params_instance(qb_arena *arena, const qb_question *q, size_t k,
                                      qb_params_mark_fn mark, const void *payload)
{
	const qb_params *p = qb_question_params(q);
	if (!p || k >= p->npool)
		return q;
	inst in = {arena, p, k, mark, payload};
	qb_question *c = qb_arena_alloc(arena, sizeof *c);
	*c = *q;
	inst_text(&in, &c->prompt, &q->prompt);
	inst_text(&in, &c->explanation, &q->explanation);
	qb_choice *ch = q->nchoices ? qb_arena_alloc(arena, q->nchoices * sizeof *ch) : NULL;
	for (size_t i = 0; i < q->nchoices; i++) {
		ch[i] = q->choices[i];
		inst_text(&in, &ch[i].text, &q->choices[i].text);
		inst_text(&in, &ch[i].feedback, &q->choices[i].feedback);
		if (q->choices[i].match) {
			qb_text *m = qb_arena_alloc(arena, sizeof *m);
			inst_text(&in, m, q->choices[i].match);
			ch[i].match = m;
		}
	}
	c->choices = ch;
	qb_rare *r = qb_arena_alloc(arena, sizeof *r);
	*r = *q->rare;
	r->params = NULL;
	inst_text(&in, &r->feedback_wrong, &q->rare->feedback_wrong);
	if (q->rare->feedback_tf) {
		qb_text *tf = qb_arena_alloc(arena, 2 * sizeof *tf);
		inst_text(&in, &tf[0], &q->rare->feedback_tf[0]);
		inst_text(&in, &tf[1], &q->rare->feedback_tf[1]);
		r->feedback_tf = tf;
		if (q->type == QB_QTYPE_TRUE_FALSE && q->nchoices == 2) {
			ch[0].feedback = tf[0];
			ch[1].feedback = tf[1];
		}
	}
	qb_num_more **tail = &r->num_more;
	for (const qb_num_more *m = q->rare->num_more; m; m = m->next) {
		qb_num_more *nm = qb_arena_alloc(arena, sizeof *nm);
		*nm = *m;
		inst_text(&in, &nm->feedback, &m->feedback);
		*tail = nm;
		tail = &nm->next;
	}
	*tail = NULL;
	if (p->answer.formula) {
		qb_numeric *num = qb_arena_alloc(arena, sizeof *num);
		*num = *qb_question_num(q);
		qb_params_answer_at(p, k, num);
		r->num = num;
	}
	c->rare = r;
	return c;
}
