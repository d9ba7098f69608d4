/* rev_store.c - see rev_store.h and revision.h.  The record is a
 * line-oriented text file that diffs well in git:
 *
 *   qbc-revisions 1
 *   bank <bank id>
 *   revision 3
 *   template anki <hash> <time>
 *   question <id> <lang> <hash> <time>
 *   text <id> <element> <lang> <hash> <basis> [reviewed]
 *
 * hash: the first 16 hex digits of the SHA-256 of the content; time: UTC,
 * ISO 8601; element: prompt, option-N, feedback-N, match-N, feedback-wrong,
 * explanation (or title, description with id "-"); basis: what the
 * element's texts in the other languages were when this language's text
 * was last written or reviewed: in a bank of two languages the hash of the
 * other text (16 hex digits); with three or more, one `<lang>:<8 hex
 * digits>` per other language, comma-separated, so a warning can name
 * exactly the languages that changed (with more than eight, one combined
 * hash of 16 digits).  A basis is read whatever form it was written in,
 * and written again in the bank's form when its languages change
 * (revision.c); the part of a language it is out of date for keeps its
 * digits, or, when the old form cannot give them, digits that match no
 * text (`ffffffffffffffff` in a bank back to two languages).  "reviewed",
 * at the end of a text line, marks a text that `qbc review` or `qbc
 * translate import --reviewed` marked as reviewed against that basis; a
 * new edit of the text, or a change of its basis, takes it away.  Records
 * without reviewed texts are written as before the mark existed. */
#include "rev_store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"

#define FORMAT 1

/* ---- small helpers ---- */

void qb_rev_hex_of(char out[HEX], const qb_buf *b)
{
	qb_hash_sha256_hex(out, 8, b->ptr ? b->ptr : "", b->len);
}

/* 16 lower-case hex digits (checked by is_hex16()) to 8 bytes. */
static void hex8_parse(uint8_t out[8], const char *hex)
{
	for (size_t i = 0; i < 8; i++) {
		unsigned v = 0;
		for (size_t k = 0; k < 2; k++) {
			char c = hex[2 * i + k];
			v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
		}
		out[i] = (uint8_t)v;
	}
}

static void fmt_time(char out[32], time_t t)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static bool parse_time(const char *s, time_t *out)
{
	struct tm tm = {0};
	int used = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	           &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6 || s[used] != '\0')
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = timegm(&tm);
	return true;
}


time_t qb_rev_bump(time_t old, time_t now)
{
	return now > old ? now : old + 1;
}

/* ---- the indexes ---- */

/* FNV-1a over up to three strings, each ended by a NUL. */
static size_t key_hash(const char *a, const char *b, const char *c)
{
	const char *k[3] = {a, b, c};
	unsigned long long h = 1469598103934665603ULL;
	for (int i = 0; i < 3 && k[i]; i++)
		for (const unsigned char *p = (const unsigned char *)k[i];; p++) {
			h = (h ^ *p) * 1099511628211ULL;
			if (!*p)
				break;
		}
	return (size_t)(h ^ (h >> 29));
}

void qb_rev_index_init(keyindex *x, size_t n)
{
	free(x->slot);
	x->cap = 16;
	while (x->cap < 2 * n)
		x->cap *= 2;
	x->slot = qb_xcalloc_written(x->cap, sizeof *x->slot);
}


size_t *qb_rev_index_slot(const void *tab, const keyindex *x, qb_rev_key_eq eq, const char *a,
                          const char *b, const char *c)
{
	size_t m = x->cap - 1;
	for (size_t h = key_hash(a, b, c) & m;; h = (h + 1) & m)
		if (!x->slot[h] || eq(tab, x->slot[h] - 1, a, b, c))
			return &x->slot[h];
}

/* The key (a, b) of entry i of a table that grows (names, keys). */
typedef void (*key_at)(const void *tab, size_t i, const char **a, const char **b);

/* Indexes entry n - 1, just appended to a growing table of n entries;
 * when x is half full, x doubles and every entry is indexed again. */
static void index_append(const void *tab, keyindex *x, qb_rev_key_eq eq, key_at at, size_t n)
{
	const char *a, *b;
	if (2 * n > x->cap) {
		qb_rev_index_init(x, 2 * n);
		for (size_t i = 0; i < n; i++) {
			at(tab, i, &a, &b);
			*qb_rev_index_slot(tab, x, eq, a, b, NULL) = i + 1;
		}
	} else {
		at(tab, n - 1, &a, &b);
		*qb_rev_index_slot(tab, x, eq, a, b, NULL) = n;
	}
}

static bool q_eq(const void *tab, size_t i, const char *a, const char *b, const char *c)
{
	const qb_revisions *rev = tab;
	QB_UNUSED(c);
	return strcmp(rev->q[i].qid, a) == 0 && strcmp(rev->q[i].lang, b) == 0;
}

static bool qid_eq(const void *tab, size_t i, const char *a, const char *b, const char *c)
{
	const qb_revisions *rev = tab;
	QB_UNUSED(b);
	QB_UNUSED(c);
	return strcmp(rev->q[i].qid, a) == 0;
}

/* A text entry's question id, element and language. */
const char *qb_rev_t_qid(const qb_revisions *rev, const tent *e)
{
	return rev->ids[e->qid];
}

const char *qb_rev_t_elem(const qb_revisions *rev, const tent *e)
{
	return rev->keys[e->key].elem;
}

const char *qb_rev_t_lang(const qb_revisions *rev, const tent *e)
{
	return rev->keys[e->key].lang;
}

static bool t_eq(const void *tab, size_t i, const char *a, const char *b, const char *c)
{
	const qb_revisions *rev = tab;
	const tent *e = &rev->t[i];
	return strcmp(qb_rev_t_qid(rev, e), a) == 0 && strcmp(qb_rev_t_elem(rev, e), b) == 0 &&
	       strcmp(qb_rev_t_lang(rev, e), c) == 0;
}

static bool tkey_eq(const void *tab, size_t i, const char *a, const char *b, const char *c)
{
	const qb_revisions *rev = tab;
	QB_UNUSED(c);
	return strcmp(rev->keys[i].elem, a) == 0 && strcmp(rev->keys[i].lang, b) == 0;
}

/* Rebuilds every index after the tables changed.  The first entry of a
 * duplicated key wins. */
void qb_rev_reindex(qb_revisions *rev)
{
	qb_rev_index_init(&rev->qx, rev->nq);
	qb_rev_index_init(&rev->idx, rev->nq);
	free(rev->tx.slot); /* built when first needed: qb_rev_find_t() */
	rev->tx = (keyindex){NULL, 0};
	for (size_t i = 0; i < rev->nq; i++) {
		size_t *s = qb_rev_index_slot(rev, &rev->qx, q_eq, rev->q[i].qid, rev->q[i].lang, NULL);
		if (!*s)
			*s = i + 1;
		s = qb_rev_index_slot(rev, &rev->idx, qid_eq, rev->q[i].qid, NULL, NULL);
		if (!*s)
			*s = i + 1;
	}
}

/* The texts' index: most look-ups never need it (qb_rev_find_t_next()). */
static void index_texts(qb_revisions *rev)
{
	qb_rev_index_init(&rev->tx, rev->nt);
	for (size_t i = 0; i < rev->nt; i++) {
		const tent *e = &rev->t[i];
		size_t *s = qb_rev_index_slot(rev, &rev->tx, t_eq, qb_rev_t_qid(rev, e), qb_rev_t_elem(rev, e),
		                       qb_rev_t_lang(rev, e));
		if (!*s)
			*s = i + 1;
	}
}

char *qb_rev_path(const char *bank_path)
{
	size_t n = strlen(bank_path);
	if (n > 3 && strcmp(bank_path + n - 3, ".qb") == 0)
		return qb_xasprintf("%.*s.lock", (int)(n - 3), bank_path);
	return qb_xasprintf("%s.lock", bank_path);
}

void qb_rev_free(qb_revisions *rev)
{
	if (!rev)
		return;
	free(rev->bank);
	for (size_t i = 0; i < rev->ntpl; i++)
		free(rev->tpl[i].name);
	free(rev->tpl);
	free(rev->q);
	free(rev->t);
	free(rev->qx.slot);
	free(rev->idx.slot);
	free(rev->tx.slot);
	qb_arena_dispose(&rev->strs);
	free(rev->names);
	free(rev->nx.slot);
	free(rev->ids);
	free(rev->keys);
	free(rev->kx.slot);
	free(rev);
}

/* ---- the tables' strings ---- */

/* An element or language name, stored once: a record has a few dozen
 * (prompt, option-N, ..., its languages; thousands for a bank in
 * thousands of languages) for hundreds of thousands of entries, so they
 * are found by a hashed index, not a scan. */
static bool name_eq(const void *tab, size_t i, const char *a, const char *b, const char *c)
{
	const qb_revisions *rev = tab;
	QB_UNUSED(b);
	QB_UNUSED(c);
	return strcmp(rev->names[i], a) == 0;
}

static void name_at(const void *tab, size_t i, const char **a, const char **b)
{
	*a = ((const qb_revisions *)tab)->names[i];
	*b = NULL;
}

const char *qb_rev_name_of(qb_revisions *rev, const char *s)
{
	if (rev->nx.cap) {
		size_t *slot = qb_rev_index_slot(rev, &rev->nx, name_eq, s, NULL, NULL);
		if (*slot)
			return rev->names[*slot - 1];
	}
	if ((rev->nnames & (rev->nnames - 1)) == 0) /* 0, 1, 2, 4, ...: grow */
		rev->names = qb_xrealloc(rev->names, (rev->nnames ? 2 * rev->nnames : 1) *
		                                         sizeof *rev->names);
	rev->names[rev->nnames++] = qb_arena_strdup(&rev->strs, s);
	index_append(rev, &rev->nx, name_eq, name_at, rev->nnames);
	return rev->names[rev->nnames - 1];
}

/* A question id of the text table, stored once for a run of entries of
 * that question (they are consecutive): its index in rev->ids. */
uint32_t qb_rev_id_of(qb_revisions *rev, const char *s)
{
	if (!rev->nids || strcmp(rev->ids[rev->nids - 1], s) != 0) {
		if (rev->nids == rev->capids)
			rev->ids = qb_xrealloc(rev->ids, (rev->capids = rev->capids * 2 + 64) *
			                                     sizeof *rev->ids);
		rev->ids[rev->nids++] = qb_arena_strdup(&rev->strs, s);
	}
	return (uint32_t)(rev->nids - 1);
}

static void tkey_at(const void *tab, size_t i, const char **a, const char **b)
{
	const tkey *k = &((const qb_revisions *)tab)->keys[i];
	*a = k->elem;
	*b = k->lang;
}

/* The index in rev->keys of (elem, lang), added when new. */
uint32_t qb_rev_key_of(qb_revisions *rev, const char *elem, const char *lang)
{
	if (rev->kx.cap && rev->nkeys) { /* mostly the entry before's successor */
		size_t *s = qb_rev_index_slot(rev, &rev->kx, tkey_eq, elem, lang, NULL);
		if (*s)
			return (uint32_t)(*s - 1);
	}
	if (rev->nkeys == rev->capkeys)
		rev->keys = qb_xrealloc(rev->keys, (rev->capkeys = rev->capkeys * 2 + 16) *
		                                       sizeof *rev->keys);
	rev->keys[rev->nkeys++] = (tkey){qb_rev_name_of(rev, elem), qb_rev_name_of(rev, lang)};
	index_append(rev, &rev->kx, tkey_eq, tkey_at, rev->nkeys);
	return (uint32_t)(rev->nkeys - 1);
}

/* ---- the bases of text entries ---- */


static bool is_hex16(const char *s);

/* Sets e's basis to basis (as basis_of() makes it). */
void qb_rev_put_basis(qb_revisions *rev, tent *e, const char *basis)
{
	e->long_basis = !is_hex16(basis);
	if (e->long_basis)
		e->basis.s = qb_arena_strdup(&rev->strs, basis);
	else
		hex8_parse(e->basis.b, basis);
}

/* Whether e's basis is basis. */
bool qb_rev_basis_is(const tent *e, const char *basis)
{
	if (e->long_basis)
		return strcmp(e->basis.s, basis) == 0;
	uint8_t b[8];
	if (!is_hex16(basis))
		return false;
	hex8_parse(b, basis);
	return memcmp(b, e->basis.b, 8) == 0;
}

bool qb_rev_basis_same(const tent *a, const tent *b)
{
	if (a->long_basis != b->long_basis)
		return false;
	return a->long_basis ? strcmp(a->basis.s, b->basis.s) == 0
	                     : memcmp(a->basis.b, b->basis.b, 8) == 0;
}

/* e's basis as text: out holds the short form. */
static const char *qb_rev_basis_text(const tent *e, char out[HEX])
{
	if (e->long_basis)
		return e->basis.s;
	qb_hash_hex(out, e->basis.b, 8);
	return out;
}

/* ---- lookups ---- */

qent *qb_rev_find_q(const qb_revisions *rev, const char *qid, const char *lang)
{
	if (!rev->qx.cap)
		return NULL;
	size_t i = *qb_rev_index_slot(rev, &rev->qx, q_eq, qid, lang, NULL);
	return i ? &rev->q[i - 1] : NULL;
}

bool qb_rev_has_qid(const qb_revisions *rev, const char *qid)
{
	return rev->idx.cap && *qb_rev_index_slot(rev, &rev->idx, qid_eq, qid, NULL, NULL) != 0;
}

tent *qb_rev_find_t(const qb_revisions *rev, const char *qid, const char *elem, const char *lang)
{
	if (!rev->nt)
		return NULL;
	if (!rev->tx.cap) /* a cache: the record itself does not change */
		index_texts((qb_revisions *)rev);
	size_t i = *qb_rev_index_slot(rev, &rev->tx, t_eq, qid, elem, lang);
	return i ? &rev->t[i - 1] : NULL;
}

/* The same, trying first the entry at *cursor: a record lists the texts
 * in the order qb_rev_each_element() visits them, so a pass over the bank finds
 * almost every entry right after the previous one, without hashing.
 * *cursor moves past the entry found. */
tent *qb_rev_find_t_next(const qb_revisions *rev, size_t *cursor, const char *qid,
                         const char *elem, const char *lang)
{
	tent *e = *cursor < rev->nt && t_eq(rev, *cursor, qid, elem, lang)
	                  ? &rev->t[*cursor]
	                  : qb_rev_find_t(rev, qid, elem, lang);
	if (e)
		*cursor = (size_t)(e - rev->t) + 1;
	return e;
}

pent *qb_rev_find_p(const qb_revisions *rev, const char *name)
{
	for (size_t i = 0; i < rev->ntpl; i++)
		if (strcmp(rev->tpl[i].name, name) == 0)
			return &rev->tpl[i];
	return NULL;
}

time_t qb_rev_question_time(const qb_revisions *rev, const char *qid, const char *lang)
{
	const qent *e = rev ? qb_rev_find_q(rev, qid, lang) : NULL;
	return e ? e->time : 0;
}

time_t qb_rev_template_time(const qb_revisions *rev, const char *name)
{
	const pent *p = rev ? qb_rev_find_p(rev, name) : NULL;
	return p ? p->time : 0;
}

time_t qb_rev_latest(const qb_revisions *rev)
{
	time_t t = 0;
	for (size_t i = 0; rev && i < rev->ntpl; i++)
		if (rev->tpl[i].time > t)
			t = rev->tpl[i].time;
	for (size_t i = 0; rev && i < rev->nq; i++)
		if (rev->q[i].time > t)
			t = rev->q[i].time;
	return t;
}

unsigned qb_rev_number(const qb_revisions *rev)
{
	return rev ? rev->revision : 0;
}

void qb_rev_times_take(qb_rev_times *t, const qb_revisions *rev, const qb_bank *bank,
                       const char *const *langs, size_t nlangs)
{
	t->revision = qb_rev_number(rev);
	t->latest = qb_rev_latest(rev);
	t->ntpl = rev->ntpl;
	t->tpl_name = qb_xcalloc(rev->ntpl + 1, sizeof *t->tpl_name);
	t->tpl_time = qb_xcalloc(rev->ntpl + 1, sizeof *t->tpl_time);
	for (size_t i = 0; i < rev->ntpl; i++) {
		t->tpl_name[i] = qb_xstrdup(rev->tpl[i].name);
		t->tpl_time[i] = rev->tpl[i].time;
	}
	size_t n = nlangs ? nlangs : bank->nlangs;
	t->question = qb_xcalloc(bank->nquestions + 1, sizeof *t->question);
	for (size_t i = 0; i < bank->nquestions; i++)
		for (size_t k = 0; k < n; k++) {
			time_t tl = qb_rev_question_time(rev, bank->questions[i].id,
			                                 nlangs ? langs[k] : bank->langs[k].code);
			if (tl > t->question[i])
				t->question[i] = tl;
		}
}

time_t qb_rev_times_template(const qb_rev_times *t, const char *name)
{
	for (size_t i = 0; i < t->ntpl; i++)
		if (strcmp(t->tpl_name[i], name) == 0)
			return t->tpl_time[i];
	return 0;
}

void qb_rev_times_dispose(qb_rev_times *t)
{
	for (size_t i = 0; i < t->ntpl; i++)
		free(t->tpl_name[i]);
	free(t->tpl_name);
	free(t->tpl_time);
	free(t->question);
	memset(t, 0, sizeof *t);
}

/* ---- reading ---- */

static int split(char *line, char **tok, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	return n;
}

static bool is_hex16(const char *s)
{
	if (strlen(s) != 16)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/* A basis as written by basis_of(): 16 hex digits, or lang:8hex pairs. */
static bool is_basis(const char *s)
{
	if (is_hex16(s))
		return true;
	while (*s) {
		size_t n = strcspn(s, ":,");
		if (!n || s[n] != ':')
			return false;
		s += n + 1;
		size_t h = strspn(s, "0123456789abcdef");
		if (h != 8 || (s[h] && s[h] != ','))
			return false;
		s += h + (s[h] == ',');
	}
	return true;
}

/* Whether line starts with word (after blanks) and a space or tab. */
static bool starts_with(const char *line, const char *word)
{
	const char *p = line + strspn(line, " \t");
	size_t wl = strlen(word);
	return strncmp(p, word, wl) == 0 && (p[wl] == ' ' || p[wl] == '\t');
}

/* The numbers of question and text lines of f: the sizes of the tables,
 * known before they are read.  Leaves f rewound. */
static void count_lines(FILE *f, size_t *nq, size_t *nt)
{
	size_t cap = 0;
	char *line = NULL;
	*nq = *nt = 0;
	for (ssize_t len; (len = getline(&line, &cap, f)) > 0;) {
		*nq += starts_with(line, "question");
		*nt += starts_with(line, "text");
	}
	free(line);
	rewind(f);
}

/* Registers the record's text for the quotes of its errors: the record
 * is read a line at a time and is not kept. */
static void quote_record(const char *path, bool *quoted)
{
	char *data = NULL;
	size_t len = 0;
	if (!*quoted && qb_fs_read(path, &data, &len) == 0)
		qb_diag_add_source_owned(path, data, len);
	*quoted = true;
}

qb_revisions *qb_rev_load(const char *path, bool *io)
{
	*io = false;
	qb_revisions *rev = qb_xcalloc(1, sizeof *rev);
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return rev;
		qb_diag_fatal("cannot read revision record '%s': %s", path, strerror(errno));
		*io = true;
		qb_rev_free(rev);
		return NULL;
	}
	/* The tables are allocated once, at their size. */
	size_t cap_q, cap_t, cap_p = 0, linecap = 0;
	count_lines(f, &cap_q, &cap_t);
	rev->q = qb_xcalloc_written(cap_q ? cap_q : 1, sizeof *rev->q);
	rev->t = qb_xcalloc_written(cap_t ? cap_t : 1, sizeof *rev->t); /* bit-fields */
	bool ok = true, header = false, quoted = false;
	char *line = NULL;
	int lineno = 0;
	/* Numbering counts every line, empty ones included. */
	for (ssize_t len; (len = getline(&line, &linecap, f)) > 0;) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		lineno++;
		if (*line == '#' || *line == '\0')
			continue;
		char *tok[8];
		int n = split(line, tok, 8);
		qb_loc l = {path, lineno, 1};
		bool good = false;
		if (!header) {
			good = n == 2 && strcmp(tok[0], "qbc-revisions") == 0 &&
			       strtol(tok[1], NULL, 10) == FORMAT;
			header = good;
			if (!good) {
				quote_record(path, &quoted);
				qb_diag_error(l, "not a qbc revision record of format %d; move it away to "
				                 "start a new one", FORMAT);
				ok = false;
				break;
			}
			continue;
		}
		if (n == 2 && strcmp(tok[0], "bank") == 0 && !rev->bank) {
			rev->bank = qb_xstrdup(tok[1]);
			good = true;
		} else if (n == 2 && strcmp(tok[0], "revision") == 0) {
			rev->revision = (unsigned)strtoul(tok[1], NULL, 10);
			good = true;
		} else if (n == 4 && strcmp(tok[0], "template") == 0 && is_hex16(tok[2])) {
			time_t t;
			if ((good = parse_time(tok[3], &t))) {
				if (rev->ntpl == cap_p)
					rev->tpl = qb_xrealloc(rev->tpl, (cap_p = cap_p * 2 + 4) * sizeof *rev->tpl);
				pent *e = &rev->tpl[rev->ntpl++];
				e->name = qb_xstrdup(tok[1]);
				memcpy(e->hash, tok[2], HEX);
				e->time = t;
			}
		} else if (n == 5 && strcmp(tok[0], "question") == 0 && is_hex16(tok[3]) &&
		           rev->nq < cap_q) {
			time_t t;
			if ((good = parse_time(tok[4], &t))) {
				qent *e = &rev->q[rev->nq++];
				uint32_t id = qb_rev_id_of(rev, tok[1]); /* may move rev->ids */
				e->qid = rev->ids[id];
				e->lang = qb_rev_name_of(rev, tok[2]);
				hex8_parse(e->hash, tok[3]);
				e->time = t;
			}
		} else if ((n == 6 || (n == 7 && strcmp(tok[6], "reviewed") == 0)) &&
		           strcmp(tok[0], "text") == 0 && is_hex16(tok[4]) && is_basis(tok[5]) &&
		           rev->nt < cap_t && rev->nids < (1u << 30)) {
			tent *e = &rev->t[rev->nt++];
			e->qid = qb_rev_id_of(rev, tok[1]) & 0x3fffffffu;
			e->reviewed = n == 7;
			e->key = qb_rev_key_of(rev, tok[2], tok[3]);
			hex8_parse(e->hash, tok[4]);
			qb_rev_put_basis(rev, e, tok[5]);
			good = true;
		}
		if (!good) {
			quote_record(path, &quoted);
			qb_diag_error(l, "malformed line in the revision record; restore it from git, "
			                 "or move the file away to start a new record");
			ok = false;
		}
	}
	if (ferror(f)) {
		qb_diag_fatal("cannot read revision record '%s': %s", path, strerror(errno));
		*io = true;
		ok = false;
	} else if (ok && !header) {
		quote_record(path, &quoted);
		qb_diag_error(QB_LOC(path, 1, 1), "empty revision record; move it away to start a "
		                                    "new one");
		ok = false;
	}
	free(line);
	fclose(f);
	if (!ok) {
		qb_rev_free(rev);
		return NULL;
	}
	qb_rev_reindex(rev);
	return rev;
}

/* ---- writing ---- */

static void put_text(FILE *f, const qb_revisions *rev, const tent *e)
{
	char hex[HEX], basis[HEX];
	qb_hash_hex(hex, e->hash, 8);
	fprintf(f, "text %s %s %s %s %s%s\n", qb_rev_t_qid(rev, e), qb_rev_t_elem(rev, e), qb_rev_t_lang(rev, e), hex,
	        qb_rev_basis_text(e, basis), e->reviewed ? " reviewed" : "");
}

int qb_rev_save_begin(const qb_revisions *rev, const char *path, const char *bank_name,
                      qb_fs_atomic *a)
{
	/* Written line by line into the temporary file: the record is as
	 * big as the bank's source, and never held whole. */
	if (qb_fs_atomic_open(a, path) != 0) {
		qb_diag_fatal("cannot write revision record '%s': %s", path, strerror(errno));
		return -1;
	}
	FILE *f = a->f;
	/* The file name only: the record must not depend on the folder the
	 * build was started from. */
	const char *slash = strrchr(bank_name, '/');
	bank_name = slash ? slash + 1 : bank_name;
	char tm[32];
	fprintf(f, "# qbc revision record of %s: commit it together with the bank.\n"
	           "# 'qbc build' updates it and 'qbc review' marks translations as "
	           "reviewed; do not edit it by hand.\n",
	        bank_name);
	fprintf(f, "qbc-revisions %d\n", FORMAT);
	if (rev->bank)
		fprintf(f, "bank %s\n", rev->bank);
	fprintf(f, "revision %u\n", rev->revision);
	for (size_t i = 0; i < rev->ntpl; i++) {
		fmt_time(tm, rev->tpl[i].time);
		fprintf(f, "template %s %s %s\n", rev->tpl[i].name, rev->tpl[i].hash, tm);
	}
	/* Texts are stored in source order: the bank's own ("-") first, the
	 * passages' (qid: the passage's id) next, then each question's, in
	 * the same order as the question lines. */
	size_t ti = 0;
	for (; ti < rev->nt && strcmp(qb_rev_t_qid(rev, &rev->t[ti]), "-") == 0; ti++)
		put_text(f, rev, &rev->t[ti]);
	for (; ti < rev->nt && (!rev->nq || strcmp(qb_rev_t_qid(rev, &rev->t[ti]),
	                                           rev->q[0].qid) != 0); ti++)
		put_text(f, rev, &rev->t[ti]);
	for (size_t i = 0; i < rev->nq;) {
		const char *qid = rev->q[i].qid;
		fputc('\n', f);
		for (; i < rev->nq && strcmp(rev->q[i].qid, qid) == 0; i++) {
			fmt_time(tm, rev->q[i].time);
			char hex[HEX];
			qb_hash_hex(hex, rev->q[i].hash, 8);
			fprintf(f, "question %s %s %s %s\n", qid, rev->q[i].lang, hex, tm);
		}
		for (; ti < rev->nt && strcmp(qb_rev_t_qid(rev, &rev->t[ti]), qid) == 0; ti++)
			put_text(f, rev, &rev->t[ti]);
	}
	if (ferror(f) || fflush(f) != 0) {
		int err = errno;
		qb_fs_atomic_discard(a);
		qb_diag_fatal("cannot write revision record '%s': %s", path, strerror(err));
		return -1;
	}
	return 0;
}

int qb_rev_save_commit(qb_fs_atomic *a, const char *path)
{
	if (qb_fs_atomic_commit(a) != 0) {
		qb_diag_fatal("cannot write revision record '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int qb_rev_save(const qb_revisions *rev, const char *path, const char *bank_name)
{
	qb_fs_atomic a;
	return qb_rev_save_begin(rev, path, bank_name, &a) == 0 ? qb_rev_save_commit(&a, path) : -1;
}

