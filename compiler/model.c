/* model.c - constructors and accessors of the model (see model.h). */
#include "model.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"

qb_bank *qb_bank_new(const char *path)
{
	qb_bank *bank = qb_xcalloc(1, sizeof *bank);
	bank->path = qb_arena_strdup(&bank->arena, path);
	const char *slash = strrchr(path, '/');
	bank->dir = slash ? qb_arena_strndup(&bank->arena, path,
	                                     slash == path ? 1 : (size_t)(slash - path))
	                  : ".";
	bank->pass_mark = -1;
	bank->scoring = QB_SCORING_ALL;
	return bank;
}

void qb_bank_free(qb_bank *bank)
{
	if (!bank)
		return;
	qb_lang_index_dispose(&bank->lang_index);
	qb_lang_index_dispose(&bank->code_index);
	free(bank->codes);
	free(bank->code_lang);
	free(bank->cols.slots);
	free(bank->far);
	qb_arena_dispose(&bank->arena);
	free(bank);
}

const char *qb_bank_default_lang(const qb_bank *bank)
{
	if (bank->default_lang)
		return bank->default_lang;
	return bank->nlangs ? bank->langs[0].code : NULL;
}

/* ---- the language index ---- */

/* FNV-1a: language codes are short. */
static size_t code_hash(const char *s)
{
	uint64_t h = 14695981039346656037u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

/* The slot of code, or the empty slot where it would go. */
static qb_lang_slot *index_slot(const qb_lang_index *ix, const char *code)
{
	size_t mask = ix->nslots - 1;
	for (size_t i = code_hash(code) & mask;; i = (i + 1) & mask)
		if (!ix->slots[i].code || strcmp(ix->slots[i].code, code) == 0)
			return &ix->slots[i];
}

void qb_lang_index_put(qb_lang_index *ix, const char *code, size_t k)
{
	if (2 * (ix->n + 1) > ix->nslots) {
		qb_lang_index old = *ix;
		ix->nslots = old.nslots ? 2 * old.nslots : 16;
		ix->slots = qb_xcalloc(ix->nslots, sizeof *ix->slots);
		for (size_t i = 0; i < old.nslots; i++)
			if (old.slots[i].code)
				*index_slot(ix, old.slots[i].code) = old.slots[i];
		free(old.slots);
	}
	qb_lang_slot *s = index_slot(ix, code);
	if (!s->code) {
		*s = (qb_lang_slot){code, k};
		ix->n++;
	}
}

size_t qb_lang_index_get(const qb_lang_index *ix, const char *code)
{
	if (!ix->n)
		return QB_LANG_NONE;
	const qb_lang_slot *s = index_slot(ix, code);
	return s->code ? s->k : QB_LANG_NONE;
}

void qb_lang_index_dispose(qb_lang_index *ix)
{
	free(ix->slots);
	*ix = (qb_lang_index){0};
}

uint32_t qb_bank_code(qb_bank *bank, const char *code)
{
	size_t k = bank->code_index.n ? qb_lang_index_get(&bank->code_index, code) : QB_LANG_NONE;
	if (k != QB_LANG_NONE)
		return (uint32_t)k;
	if (bank->ncodes == bank->capcodes) {
		bank->capcodes = bank->capcodes ? 2 * bank->capcodes : 8;
		bank->codes = qb_xrealloc(bank->codes, bank->capcodes * sizeof *bank->codes);
		bank->code_lang = qb_xrealloc(bank->code_lang,
		                              bank->capcodes * sizeof *bank->code_lang);
	}
	size_t n = bank->ncodes++;
	bank->codes[n] = qb_arena_strdup(&bank->arena, code);
	size_t d = bank->lang_index.n ? qb_lang_index_get(&bank->lang_index, code) : QB_LANG_NONE;
	bank->code_lang[n] = d != QB_LANG_NONE ? (uint32_t)d : QB_TR_NO_LANG;
	qb_lang_index_put(&bank->code_index, bank->codes[n], n);
	return (uint32_t)n;
}

void qb_bank_codes_declared(qb_bank *bank)
{
	for (size_t i = 0; i < bank->ncodes; i++) {
		size_t d = bank->lang_index.n ? qb_lang_index_get(&bank->lang_index, bank->codes[i])
		                              : QB_LANG_NONE;
		bank->code_lang[i] = d != QB_LANG_NONE ? (uint32_t)d : QB_TR_NO_LANG;
	}
}

size_t qb_bank_lang_index(const qb_bank *bank, const char *code)
{
	if (bank->lang_index.n)
		return qb_lang_index_get(&bank->lang_index, code);
	for (size_t i = 0; i < bank->nlangs; i++)
		if (strcmp(bank->langs[i].code, code) == 0)
			return i;
	return QB_LANG_NONE;
}

/* ---- where continued texts' lines start ---- */

static size_t cols_home(const qb_cols_index *ix, const char *text)
{
	uint64_t h = (uint64_t)(uintptr_t)text * UINT64_C(0x9E3779B97F4A7C15);
	return (size_t)(h >> 32) & (ix->nslots - 1);
}

void qb_bank_set_text_cols(qb_bank *bank, const char *text, const int *cols)
{
	qb_cols_index *ix = &bank->cols;
	if (2 * (ix->n + 1) > ix->nslots) {
		qb_cols_index grown = {qb_xcalloc(ix->nslots ? 2 * ix->nslots : 16, sizeof *grown.slots),
		                       ix->nslots ? 2 * ix->nslots : 16, 0};
		for (size_t i = 0; i < ix->nslots; i++)
			if (ix->slots[i].text) {
				size_t k = cols_home(&grown, ix->slots[i].text);
				while (grown.slots[k].text)
					k = (k + 1) & (grown.nslots - 1);
				grown.slots[k] = ix->slots[i];
				grown.n++;
			}
		free(ix->slots);
		*ix = grown;
	}
	size_t k = cols_home(ix, text);
	while (ix->slots[k].text && ix->slots[k].text != text)
		k = (k + 1) & (ix->nslots - 1);
	if (!ix->slots[k].text)
		ix->n++;
	ix->slots[k] = (qb_cols_slot){text, cols};
}

const int *qb_bank_text_cols(const qb_bank *bank, const char *text)
{
	const qb_cols_index *ix = &bank->cols;
	if (!ix->n)
		return NULL;
	for (size_t k = cols_home(ix, text); ix->slots[k].text; k = (k + 1) & (ix->nslots - 1))
		if (ix->slots[k].text == text)
			return ix->slots[k].cols;
	return NULL;
}

bool qb_bank_has_lang(const qb_bank *bank, const char *code)
{
	return qb_bank_lang_index(bank, code) != QB_LANG_NONE;
}

/* ---- texts ---- */

const qb_text qb_no_text;

const qb_numeric *qb_question_num(const qb_question *q)
{
	static const qb_numeric none;
	return q->rare && q->rare->num ? q->rare->num : &none;
}

const qb_num_more *qb_question_num_more(const qb_question *q)
{
	return q->rare ? q->rare->num_more : NULL;
}

const qb_num_more **qb_question_num_more_by_credit(const qb_question *q, size_t *n)
{
	*n = 0;
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next)
		++*n;
	if (!*n)
		return NULL;
	const qb_num_more **v = qb_xcalloc(*n, sizeof *v);
	size_t k = 0;
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		size_t i = k++; /* insertion: stable, and the lists are short */
		while (i && v[i - 1]->credit < m->credit) {
			v[i] = v[i - 1];
			i--;
		}
		v[i] = m;
	}
	return v;
}

bool qb_numeric_too_large(qb_numeric *num, qb_loc loc, const char *s, size_t n)
{
	if (isfinite(num->value) && isfinite(num->tol) && isfinite(num->lo) && isfinite(num->hi))
		return false;
	qb_diag_error(loc, "'%.*s' is too large: a number here is at most about 1.8e308, and "
	                   "so are the answer plus or minus its tolerance", (int)n, s);
	num->loc.line = 0;
	return true;
}

static bool num_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A number as the source writes it: an optional sign, digits with an
 * optional '.' fraction (no exponent, no ',').  s[0..n) is trimmed. */
static bool parse_number(const char *s, size_t n, double *out)
{
	while (n && num_space(*s)) {
		s++;
		n--;
	}
	while (n && num_space(s[n - 1]))
		n--;
	size_t i = 0, digits = 0, dots = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	for (; i < n; i++)
		if (isdigit((unsigned char)s[i]))
			digits++;
		else if (s[i] == '.' && !dots)
			dots++;
		else
			return false;
	if (!digits)
		return false;
	char *num = qb_xstrndup(s, n);
	*out = strtod(num, NULL);
	free(num);
	return true;
}

static bool num_finite(const qb_numeric *num)
{
	return isfinite(num->value) && isfinite(num->tol) && isfinite(num->lo) && isfinite(num->hi);
}

qb_numeric_err qb_numeric_parse(const char *v, size_t n, qb_numeric *num, size_t *at, size_t *len)
{
	const char *end = v + n;
	const char *range = NULL, *pm = NULL;
	for (const char *p = v; p + 1 < end && !range; p++)
		if (p[0] == '.' && p[1] == '.')
			range = p;
	for (const char *p = v; p + 1 < end && !pm; p++)
		if ((p[0] == '\xC2' && p[1] == '\xB1') || (p[0] == '+' && p[1] == '-'))
			pm = p; /* '±' (two bytes, as '+-') */
	*at = 0;
	*len = n;
	if (range && !pm) {
		if (!parse_number(v, (size_t)(range - v), &num->lo) ||
		    !parse_number(range + 2, n - (size_t)(range - v) - 2, &num->hi))
			return QB_NUMERIC_BAD_RANGE;
		num->range = true;
		num->value = num->lo / 2 + num->hi / 2;
		num->tol = num->hi / 2 - num->lo / 2;
		return num_finite(num) ? QB_NUMERIC_OK : QB_NUMERIC_TOO_LARGE;
	}
	if (!parse_number(v, pm ? (size_t)(pm - v) : n, &num->value)) {
		*len = pm ? (size_t)(pm - v) : n;
		return QB_NUMERIC_BAD_VALUE;
	}
	if (pm) {
		const char *t = pm + 2;
		while (t < end && num_space(*t))
			t++;
		size_t tn = (size_t)(end - t);
		while (tn && num_space(t[tn - 1]))
			tn--;
		num->percent = tn && t[tn - 1] == '%';
		*at = (size_t)(t - v);
		*len = tn;
		if (!parse_number(t, tn - num->percent, &num->tol) || num->tol < 0)
			return QB_NUMERIC_BAD_TOL;
		if (!num_finite(num))
			return QB_NUMERIC_TOO_LARGE;
		if (num->percent)
			num->tol = num->tol * (num->value < 0 ? -num->value : num->value) / 100;
		*at = 0;
		*len = n;
	}
	num->lo = num->value - num->tol;
	num->hi = num->value + num->tol;
	return num_finite(num) ? QB_NUMERIC_OK : QB_NUMERIC_TOO_LARGE;
}

static const qb_lang_index *text_index(const qb_text *t)
{
	return t->bank && t->bank->lang_index.n ? &t->bank->lang_index : NULL;
}

qb_loc qb_text_loc(const qb_text *t)
{
	return (qb_loc){t->bank ? t->bank->path : NULL, t->line, t->col};
}

qb_loc qb_tr_loc(const qb_text *t, const qb_tr *tr)
{
	return (qb_loc){t->bank ? t->bank->path : NULL, tr->line, qb_tr_col(t->bank, tr)};
}

qb_loc qb_tr_text_loc(const qb_text *t, const qb_tr *tr)
{
	return (qb_loc){t->bank ? t->bank->path : NULL, tr->line, qb_tr_text_col(t->bank, tr)};
}

void qb_tr_place(qb_bank *bank, qb_tr *tr, int col, int text_col, uint32_t code)
{
	if (code < 1u << 14 && col >= 0 && col < 1 << 11 && text_col >= col && text_col - col < 64) {
		tr->pos = code << 17 | (uint32_t)col << 6 | (uint32_t)(text_col - col);
		return;
	}
	if (bank->nfar == bank->capfar) {
		bank->capfar = bank->capfar ? 2 * bank->capfar : 16;
		bank->far = qb_xrealloc(bank->far, bank->capfar * sizeof *bank->far);
	}
	bank->far[bank->nfar] = (qb_tr_far){col, text_col, code};
	tr->pos = QB_TR_FAR | (uint32_t)bank->nfar++;
}

void qb_text_set_loc(qb_text *t, qb_loc loc)
{
	t->line = loc.line;
	t->col = loc.col;
}

/* The declared index of t's translation i, or QB_TR_NO_LANG. */
static uint32_t tr_decl(const qb_text *t, size_t i)
{
	return t->bank->code_lang[qb_tr_code(t->bank, &t->tr[i])];
}

void qb_text_index(qb_text *t)
{
	/* Undeclared codes count as unordered (QB_TR_NO_LANG is the
	 * greatest): a text tagged before its bank's 'languages:' is
	 * searched, not bisected. */
	t->ordered = true;
	for (size_t i = 1; t->bank && i < t->ntr; i++)
		if (tr_decl(t, i) <= tr_decl(t, i - 1))
			t->ordered = false;
}

const qb_tr *qb_text_tr_at(const qb_text *t, size_t k)
{
	if (!text_index(t) || k == QB_LANG_NONE)
		return NULL;
	if (k < t->ntr && tr_decl(t, k) == k) /* written in the declared order */
		return &t->tr[k];
	if (t->ordered) { /* some missing: tr[k] is at or before position k */
		size_t lo = 0, hi = k < t->ntr ? k : t->ntr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (tr_decl(t, mid) < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < t->ntr && tr_decl(t, lo) == k ? &t->tr[lo] : NULL;
	}
	for (size_t i = 0; i < t->ntr; i++)
		if (tr_decl(t, i) == k)
			return &t->tr[i];
	return NULL;
}

const qb_tr *qb_text_tr(const qb_text *t, const char *lang)
{
	if (text_index(t)) {
		size_t k = qb_lang_index_get(text_index(t), lang);
		if (k != QB_LANG_NONE)
			return qb_text_tr_at(t, k);
	}
	if (!t->ntr)
		return NULL;
	/* An undeclared code: compare the codes' indexes. */
	size_t c = t->bank->code_index.n ? qb_lang_index_get(&t->bank->code_index, lang)
	                                 : QB_LANG_NONE;
	for (size_t i = 0; c != QB_LANG_NONE && i < t->ntr; i++)
		if (qb_tr_code(t->bank, &t->tr[i]) == c)
			return &t->tr[i];
	return NULL;
}

const char *qb_text_get(const qb_text *t, const char *lang)
{
	const qb_tr *tr = qb_text_tr(t, lang);
	return tr ? tr->text : NULL;
}

qb_rare *qb_question_rare_w(qb_arena *arena, qb_question *q)
{
	if (!q->rare) {
		q->rare = qb_arena_alloc(arena, sizeof *q->rare);
		memset(q->rare, 0, sizeof *q->rare);
	}
	return q->rare;
}

size_t qb_question_ncorrect(const qb_question *q)
{
	size_t n = 0;
	for (size_t i = 0; i < q->nchoices; i++)
		n += q->choices[i].correct;
	return n;
}

static const char *const qtype_names[QB_QTYPE_COUNT] = {
	"single", "multiple", "true-false", "short-answer", "numeric", "matching", "cloze",
};

const char *qb_qtype_name(qb_qtype type)
{
	return (unsigned)type < QB_QTYPE_COUNT ? qtype_names[type] : "single";
}

const char *qb_scoring_name(qb_scoring s)
{
	return s == QB_SCORING_PARTIAL ? "partial" : "all-or-nothing";
}

bool qb_qtype_has_options(qb_qtype type)
{
	return type == QB_QTYPE_SINGLE || type == QB_QTYPE_MULTIPLE || type == QB_QTYPE_TRUE_FALSE;
}

bool qb_qtype_partial(qb_qtype type)
{
	return type == QB_QTYPE_MULTIPLE || type == QB_QTYPE_MATCHING || type == QB_QTYPE_CLOZE;
}

bool qb_qtype_shuffles(qb_qtype type)
{
	return type == QB_QTYPE_SINGLE || type == QB_QTYPE_MULTIPLE || type == QB_QTYPE_MATCHING;
}

qb_scoring qb_question_scoring(const qb_bank *bank, const qb_question *q)
{
	if (!qb_qtype_partial(q->type))
		return QB_SCORING_ALL;
	qb_scoring s = q->scoring != QB_SCORING_INHERIT ? q->scoring : bank->scoring;
	return s == QB_SCORING_PARTIAL ? QB_SCORING_PARTIAL : QB_SCORING_ALL;
}

bool qb_question_shuffles(const qb_bank *bank, const qb_question *q)
{
	if (!qb_qtype_shuffles(q->type))
		return false;
	return q->shuffle != QB_UNSET ? q->shuffle == QB_YES : bank->shuffle_options;
}

/* ---- marks (issue 36) ---- */

/* x to the nearest whole number, halves away from 0 (no libm). */
static long round_l(double x)
{
	return x < 0 ? -(long)(0.5 - x) : (long)(x + 0.5);
}

static double abs_d(double x)
{
	return x < 0 ? -x : x;
}

static long gcd_l(long a, long b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a ? a : 1;
}

static qb_share share_make(long num, long den)
{
	if (den < 0) {
		num = -num;
		den = -den;
	}
	long g = gcd_l(num, den);
	return (qb_share){num / g, den / g};
}

/* Fits n/d (reduced, d > 0) in a qb_mark, checking the range. */
static qb_mark_err mark_set(long num, long den, qb_mark *out)
{
	qb_share s = share_make(num, den);
	if (s.num > s.den || s.num < -s.den)
		return QB_MARK_RANGE;
	if (s.den > 10000)
		return QB_MARK_DIGITS;
	*out = (qb_mark){(int16_t)s.num, (uint16_t)s.den};
	return QB_MARK_OK;
}

/* The thirds, sixths, sevenths and ninths of a mark, which no decimal
 * percent writes: a percent within tol of one (written with decimals: it
 * rounds to what was written) is that fraction. */
static bool mark_snap(double percent, double tol, qb_mark *out)
{
	static const int dens[] = {3, 6, 7, 9};
	for (size_t k = 0; k < QB_NELEM(dens); k++) {
		long d = dens[k];
		long a = round_l(percent * (double)d / 100.0);
		if (labs(a) <= d && abs_d(percent - 100.0 * (double)a / (double)d) <= tol &&
		    share_make(a, d).den == d)
			return mark_set(a, d, out) == QB_MARK_OK;
	}
	return false;
}

/* The sign at s: '-', '+', the minus sign U+2212 or the en dash U+2013
 * (word processors); its bytes (0: none), *neg set. */
static size_t mark_sign(const char *s, size_t n, bool *neg)
{
	*neg = false;
	if (n >= 1 && (s[0] == '-' || s[0] == '+')) {
		*neg = s[0] == '-';
		return 1;
	}
	if (n >= 3 && (memcmp(s, "\xE2\x88\x92", 3) == 0 || memcmp(s, "\xE2\x80\x93", 3) == 0)) {
		*neg = true;
		return 3;
	}
	return 0;
}

/* The shape of a mark: [(] [sign] digits [. digits] (% | / digits) [)].
 * Fills the parts; false when s[0..n) has another shape. */
static bool mark_shape(const char *s, size_t n, bool *neg, size_t *ia, size_t *ib, size_t *fa,
                       size_t *fb, bool *percent)
{
	size_t i = 0;
	bool paren = n && s[0] == '(';
	if (paren) {
		if (s[n - 1] != ')')
			return false;
		i = 1;
		n--;
	}
	i += mark_sign(s + i, n - i, neg);
	*ia = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	*ib = i;
	if (*ib == *ia)
		return false;
	*fa = *fb = i;
	if (i < n && s[i] == '.') {
		*fa = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		*fb = i;
		if (*fb == *fa)
			return false;
	}
	if (i + 1 == n && s[i] == '%') {
		*percent = true;
		return true;
	}
	if (i < n && s[i] == '/' && *fa == *fb) {
		*percent = false;
		*fa = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		*fb = i;
		return *fb > *fa && i == n;
	}
	return false;
}

size_t qb_mark_len(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && s[k] != ' ' && s[k] != '\t')
		k++;
	bool neg, percent;
	size_t ia, ib, fa, fb;
	return mark_shape(s, k, &neg, &ia, &ib, &fa, &fb, &percent) ? k : 0;
}

qb_mark_err qb_mark_parse(const char *s, size_t n, qb_mark *out)
{
	bool neg, percent;
	size_t ia, ib, fa, fb;
	if (!mark_shape(s, n, &neg, &ia, &ib, &fa, &fb, &percent))
		return QB_MARK_SYNTAX;
	while (ib - ia > 1 && s[ia] == '0')
		ia++;
	if (ib - ia > 4)
		return QB_MARK_RANGE; /* 10000% or more, or n/10000... */
	long whole = 0;
	for (size_t i = ia; i < ib; i++)
		whole = whole * 10 + (s[i] - '0');
	if (!percent) {
		long den = 0;
		for (size_t i = fa; i < fb && den <= 100000; i++)
			den = den * 10 + (s[i] - '0');
		if (den == 0)
			return QB_MARK_RANGE; /* n/0 */
		if (den > 100000)
			return QB_MARK_DIGITS;
		return mark_set(neg ? -whole : whole, den, out);
	}
	/* the percent as a double for the snap, exactly up to 4 decimals */
	double pct = (double)whole, unit = 1;
	long frac = 0, scale = 1;
	for (size_t i = fa; i < fb; i++) {
		unit /= 10;
		pct += unit * (s[i] - '0');
		if (i - fa < 4) {
			frac = frac * 10 + (s[i] - '0');
			scale *= 10;
		} else if (s[i] != '0')
			scale = 0; /* more digits than a mark keeps */
	}
	if (neg)
		pct = -pct;
	if (pct > 100 || pct < -100)
		return QB_MARK_RANGE;
	if (fb > fa && mark_snap(pct, 0.5 * unit > 1e-9 ? 0.5 * unit : 1e-9, out))
		return QB_MARK_OK;
	if (!scale)
		return QB_MARK_DIGITS;
	long num = whole * scale + frac;
	return mark_set(neg ? -num : num, 100 * scale, out);
}

qb_mark_err qb_mark_from_percent(double percent, qb_mark *out)
{
	if (!(percent >= -100.0 - 1e-9 && percent <= 100.0 + 1e-9))
		return QB_MARK_RANGE;
	if (mark_snap(percent, 0.001, out)) /* Moodle's own tolerance */
		return QB_MARK_OK;
	long r = round_l(percent * 100.0);
	if (abs_d(percent * 100.0 - (double)r) > 1e-6 * (r < 1 && r > -1 ? 1.0 : abs_d((double)r)))
		return QB_MARK_DIGITS;
	return mark_set(r, 10000, out);
}

const char *qb_mark_text(qb_mark m, char *buf, size_t size)
{
	long num = m.num, den = m.den ? m.den : 1;
	if ((num * 100) % den == 0)
		snprintf(buf, size, "%ld%%", num * 100 / den);
	else if ((num * 10000) % den == 0) {
		long h = labs(num * 10000 / den);
		snprintf(buf, size, "%s%ld.%02ld%%", num < 0 ? "-" : "", h / 100, h % 100);
		size_t n = strlen(buf); /* 12.50% -> 12.5% */
		if (n >= 2 && buf[n - 2] == '0') {
			buf[n - 2] = '%';
			buf[n - 1] = '\0';
		}
	} else if (den == 3 || den == 6 || den == 7 || den == 9)
		snprintf(buf, size, "%.1f%%", 100.0 * (double)num / (double)den);
	else
		snprintf(buf, size, "%ld/%ld", num, den);
	/* a percent that reads back as another share (33.3% is a third)
	 * is written as its fraction */
	qb_mark back;
	if (buf[strlen(buf) - 1] == '%' &&
	    (qb_mark_parse(buf, strlen(buf), &back) != QB_MARK_OK || back.num != m.num ||
	     back.den != (m.den ? m.den : 1)))
		snprintf(buf, size, "%ld/%ld", num, den);
	return buf;
}

bool qb_question_has_marks(const qb_question *q)
{
	if (q->type != QB_QTYPE_SINGLE && q->type != QB_QTYPE_MULTIPLE)
		return false;
	for (size_t i = 0; i < q->nchoices; i++)
		if (q->choices[i].mark.den)
			return true;
	return false;
}

qb_share qb_choice_share(const qb_bank *bank, const qb_question *q, size_t i)
{
	const qb_choice *c = &q->choices[i];
	if (c->mark.den)
		return share_make(c->mark.num, c->mark.den);
	if (q->type != QB_QTYPE_MULTIPLE)
		return (qb_share){c->correct ? 1 : 0, 1};
	/* multiple: the right options share what the marked ones leave */
	long nright = 0, nfree = 0;
	qb_share left = {1, 1};
	for (size_t k = 0; k < q->nchoices; k++) {
		const qb_choice *o = &q->choices[k];
		if (!o->correct)
			continue;
		nright++;
		if (o->mark.den)
			left = share_make(left.num * o->mark.den - (long)o->mark.num * left.den,
			                  left.den * o->mark.den);
		else
			nfree++;
	}
	if (!nright)
		return (qb_share){0, 1};
	if (c->correct)
		return share_make(left.num, left.den * nfree);
	if (qb_question_scoring(bank, q) != QB_SCORING_PARTIAL)
		return (qb_share){0, 1};
	return share_make(-1, nright);
}

const char *qb_share_text(qb_share s, char *buf, size_t size)
{
	qb_share r = share_make(s.num, s.den);
	char m[32];
	if (r.den > UINT16_MAX || r.num > INT16_MAX || r.num < -INT16_MAX)
		snprintf(m, sizeof m, "%.1f%%", 100.0 * (double)r.num / (double)r.den);
	else
		qb_mark_text((qb_mark){(int16_t)r.num, (uint16_t)r.den}, m, sizeof m);
	snprintf(buf, size, "%s%s", r.num > 0 ? "+" : r.num < 0 ? "\xE2\x88\x92" : "",
	         m[0] == '-' ? m + 1 : m);
	return buf;
}

const char *qb_share_moodle(qb_share s)
{
	static const struct {
		long num, den;
		const char *pos, *neg;
	} grades[] = {
		{1, 1, "100", "-100"},           {9, 10, "90", "-90"},
		{5, 6, "83.33333", "-83.33333"}, {4, 5, "80", "-80"},
		{3, 4, "75", "-75"},             {7, 10, "70", "-70"},
		{2, 3, "66.66667", "-66.66667"}, {3, 5, "60", "-60"},
		{1, 2, "50", "-50"},             {2, 5, "40", "-40"},
		{1, 3, "33.33333", "-33.33333"}, {3, 10, "30", "-30"},
		{1, 4, "25", "-25"},             {1, 5, "20", "-20"},
		{1, 6, "16.66667", "-16.66667"}, {1, 7, "14.28571", "-14.28571"},
		{1, 8, "12.5", "-12.5"},         {1, 9, "11.11111", "-11.11111"},
		{1, 10, "10", "-10"},            {1, 20, "5", "-5"},
	};
	if (s.num == 0)
		return "0";
	qb_share r = share_make(s.num, s.den);
	for (size_t k = 0; k < QB_NELEM(grades); k++)
		if (labs(r.num) == grades[k].num && r.den == grades[k].den)
			return r.num < 0 ? grades[k].neg : grades[k].pos;
	return NULL;
}

/* ---- cloze ---- */

static bool cloze_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* s[0..n) trimmed, in the arena. */
static const char *trimmed(qb_arena *arena, const char *s, size_t n)
{
	while (n && cloze_space(*s)) {
		s++;
		n--;
	}
	while (n && cloze_space(s[n - 1]))
		n--;
	return qb_arena_strndup(arena, s, n);
}

/* A numeric gap, '{{#9.81 ± 0.05}}': s[0..n) is what follows the '#',
 * at off in the split text. */
static void cloze_numeric_gap(qb_arena *arena, const char *s, size_t n, size_t off, qb_cloze_gap *gap)
{
	qb_numeric *num = qb_arena_alloc(arena, sizeof *num);
	memset(num, 0, sizeof *num);
	while (n && cloze_space(*s)) {
		s++;
		n--;
		off++;
	}
	while (n && cloze_space(s[n - 1]))
		n--;
	size_t at, len;
	gap->num_err = qb_numeric_parse(s, n, num, &at, &len);
	gap->num_at = off + at;
	gap->num_len = len;
	gap->num = num;
	gap->answers = qb_arena_alloc(arena, sizeof *gap->answers);
	gap->answers[0] = qb_arena_strndup(arena, s, n);
	gap->nanswers = 1;
}

/* Fills gap from the inside of '{{...}}', s[0..n), at off in the split
 * text. */
static void cloze_gap(qb_arena *arena, const char *s, size_t n, size_t off, qb_cloze_gap *gap)
{
	size_t i = 0;
	while (i < n && cloze_space(s[i]))
		i++;
	if (i < n && s[i] == '#') {
		cloze_numeric_gap(arena, s + i + 1, n - i - 1, off + i + 1, gap);
		return;
	}
	gap->choice = i < n && (s[i] == '=' || s[i] == '~');
	size_t cap = 1;
	for (size_t k = 0; k < n; k++)
		cap += s[k] == '|' || s[k] == '=' || s[k] == '~';
	gap->answers = qb_arena_alloc(arena, cap * sizeof *gap->answers);
	if (!gap->choice) {
		size_t start = 0;
		for (size_t k = 0; k <= n; k++)
			if (k == n || s[k] == '|') {
				gap->answers[gap->nanswers++] = trimmed(arena, s + start, k - start);
				start = k + 1;
			}
		return;
	}
	/* '=right ~wrong ~wrong': a mark starts an item at the start or
	 * after white space. */
	size_t start = i;
	bool right = s[i] == '=';
	for (size_t k = i + 1; k <= n; k++)
		if (k == n || ((s[k] == '=' || s[k] == '~') && cloze_space(s[k - 1]))) {
			if (right) {
				if (!gap->nright)
					gap->right = gap->nanswers;
				gap->nright++;
			}
			gap->answers[gap->nanswers++] = trimmed(arena, s + start + 1, k - start - 1);
			if (k < n) {
				start = k;
				right = s[k] == '=';
			}
		}
}

int qb_cloze_split(qb_arena *arena, const char *text, qb_cloze_part **parts, size_t *nparts)
{
	size_t n = strlen(text), cap = 1, np = 0;
	for (size_t i = 0; i + 1 < n; i++)
		cap += text[i] == '{' && text[i + 1] == '{';
	cap = 2 * cap + 1;
	qb_cloze_part *p = qb_arena_alloc(arena, cap * sizeof *p);
	int ngaps = 0;
	size_t lit = 0, i = 0;
	while (i < n) {
		if (text[i] == '\\' && i + 1 < n) {
			i += 2; /* '\{' and every other escape stay literal */
			continue;
		}
		if (!(text[i] == '{' && i + 1 < n && text[i + 1] == '{')) {
			i++;
			continue;
		}
		const char *close = strstr(text + i + 2, "}}");
		if (!close) {
			ngaps = -1;
			break;
		}
		if (i > lit)
			p[np++] = (qb_cloze_part){text + lit, i - lit, NULL};
		qb_cloze_gap *gap = qb_arena_alloc(arena, sizeof *gap);
		memset(gap, 0, sizeof *gap);
		gap->off = i;
		gap->len = (size_t)(close - text) + 2 - i;
		cloze_gap(arena, text + i + 2, (size_t)(close - text) - i - 2, i + 2, gap);
		p[np++] = (qb_cloze_part){text + i, gap->len, gap};
		ngaps++;
		i = lit = (size_t)(close - text) + 2;
	}
	if (n > lit)
		p[np++] = (qb_cloze_part){text + lit, n - lit, NULL};
	*parts = p;
	*nparts = np;
	return ngaps;
}

/* ---- short answers ---- */

char *qb_answer_normalise(const char *s, bool case_sensitive)
{
	utf8proc_uint8_t *nfc = NULL;
	utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)strlen(s),
	                                  &nfc, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	const utf8proc_uint8_t *src = m >= 0 ? nfc : (const utf8proc_uint8_t *)s;
	size_t len = m >= 0 ? (size_t)m : strlen(s);
	qb_buf b = QB_BUF_INIT;
	bool space = false;
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate(src + i, (utf8proc_ssize_t)(len - i), &cp);
		if (k <= 0) { /* not UTF-8: kept byte for byte */
			qb_buf_putc(&b, (char)src[i++]);
			continue;
		}
		i += (size_t)k;
		utf8proc_category_t cat = utf8proc_category(cp);
		if (cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v' ||
		    cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
		    cat == UTF8PROC_CATEGORY_ZP || cp == 0xFEFF) {
			space = b.len > 0;
			continue;
		}
		if (space)
			qb_buf_putc(&b, ' ');
		space = false;
		if (!case_sensitive)
			cp = utf8proc_tolower(cp);
		utf8proc_uint8_t enc[4];
		utf8proc_ssize_t e = utf8proc_encode_char(cp, enc);
		qb_buf_append(&b, (const char *)enc, (size_t)e);
	}
	free(nfc);
	if (!b.ptr)
		return qb_xstrdup("");
	return qb_buf_detach(&b);
}
