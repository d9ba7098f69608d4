/* revision.c - see revision.h.  The record's rules: what is stale, by
 * the table of stale.c, read from and written into the record's bases;
 * the update a build makes, review, and what an import records.  The
 * record's storage (its tables, indexes and file format) is rev_store.c,
 * the bank's side (its elements, hashes and the threads that work them
 * out) rev_bank.c. */
#include "revision.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "rev_bank.h"
#include "rev_store.h"
#include "stale.h"
#include "write.h"

/* Banks of three to this many languages keep one short hash per other
 * language in each basis, so a warning names the language that changed;
 * larger ones keep one combined hash, so the record stays linear in size. */
#define BASIS_PAIRS_MAX 8

/* The bases of one element's texts, worked out once per element: per
 * language the first 8 bytes of SHA-256("<lang>=<text>\x1e") and their XOR
 * (in a bank of two languages the basis of one text is the other's, as
 * records have always held), and for three to BASIS_PAIRS_MAX languages
 * each text's own short hash. */
typedef struct basis_set {
	const qb_bank *bank;
	const qb_text *t;  /* the element's texts                            */
	uint8_t (*h)[8];   /* per declared language                          */
	uint8_t all[8];    /* their XOR                                      */
	char (*own)[HEX];  /* text_hash() of each text, for the pairs form   */
} basis_set;

/* The bases of the element whose texts' hashes are row (NULL: worked out
 * here from t). */
static void basis_set_init(basis_set *bs, const qb_bank *bank, const qb_text *t,
                           const qb_rev_text_hashes *row)
{
	size_t n = bank->nlangs;
	bool pairs = n > 2 && n <= BASIS_PAIRS_MAX;
	qb_rev_text_hashes *mine = NULL;
	if (!row)
		qb_rev_hash_texts(mine = qb_xcalloc(n ? n : 1, sizeof *mine), bank, t);
	row = row ? row : mine;
	bs->bank = bank;
	bs->t = t;
	bs->h = qb_xcalloc(n ? n : 1, sizeof *bs->h);
	bs->own = pairs ? qb_xcalloc(n, sizeof *bs->own) : NULL;
	memset(bs->all, 0, sizeof bs->all);
	for (size_t k = 0; k < n; k++) {
		memcpy(bs->h[k], row[k].lang, 8);
		for (size_t i = 0; i < 8; i++)
			bs->all[i] ^= row[k].lang[i];
		if (pairs)
			qb_hash_hex(bs->own[k], row[k].text, 8);
	}
	free(mine);
}

static void basis_set_dispose(basis_set *bs)
{
	free(bs->h);
	free(bs->own);
}

/* The basis of the element's text in lang (a heap string): 16 hex digits,
 * or `<lang>:<8 hex>` per other language, comma-separated.  The combined
 * form takes O(1), whatever the number of languages. */
static char *basis_of(const basis_set *bs, const char *lang)
{
	const qb_bank *bank = bs->bank;
	size_t self = qb_bank_lang_index(bank, lang);
	if (bs->own) {
		qb_buf b = QB_BUF_INIT;
		for (size_t k = 0; k < bank->nlangs; k++)
			if (k != self)
				qb_buf_appendf(&b, "%s%s:%.8s", b.len ? "," : "", bank->langs[k].code,
				               bs->own[k]);
		return qb_buf_detach(&b);
	}
	uint8_t x[8];
	memcpy(x, bs->all, sizeof x);
	if (self != QB_LANG_NONE)
		for (size_t i = 0; i < 8; i++)
			x[i] ^= bs->h[self][i];
	char *hex = qb_xmalloc(HEX);
	qb_hash_hex(hex, x, sizeof x);
	return hex;
}

/* qb_rev_basis_is(e, basis_of(bs, lang)), where self is lang's index, without
 * making the string in the common case: a short basis, compared as the
 * bytes it is.  The stale check and the update ask it of every text. */
static bool basis_matches(const tent *e, const basis_set *bs, size_t self, const char *lang)
{
	if (!e->long_basis && !bs->own) {
		uint8_t x[8];
		memcpy(x, bs->all, sizeof x);
		if (self != QB_LANG_NONE)
			for (size_t i = 0; i < 8; i++)
				x[i] ^= bs->h[self][i];
		return memcmp(x, e->basis.b, 8) == 0;
	}
	char *basis = basis_of(bs, lang);
	bool same = qb_rev_basis_is(e, basis);
	free(basis);
	return same;
}

/* ---- renames ---- */

static bool bank_qid_eq(const void *tab, size_t i, const char *a, const char *b,
                        const char *c)
{
	const qb_bank *bank = tab;
	QB_UNUSED(b);
	QB_UNUSED(c);
	return strcmp(bank->questions[i].id, a) == 0;
}

void qb_rev_check_renames(const qb_revisions *rev, const qb_bank *bank)
{
	if (!rev->revision)
		return;
	keyindex ids = {NULL, 0};
	qb_rev_index_init(&ids, bank->nquestions);
	for (size_t i = 0; i < bank->nquestions; i++) {
		size_t *s = qb_rev_index_slot(bank, &ids, bank_qid_eq, bank->questions[i].id, NULL, NULL);
		if (!*s)
			*s = i + 1;
	}
	qb_buf removed = QB_BUF_INIT;
	size_t nremoved = 0;
	for (size_t i = 0; i < rev->nq; i++)
		if ((i == 0 || strcmp(rev->q[i - 1].qid, rev->q[i].qid) != 0) &&
		    !*qb_rev_index_slot(bank, &ids, bank_qid_eq, rev->q[i].qid, NULL, NULL))
			qb_buf_appendf(&removed, "%s'%s'", nremoved++ ? ", " : "", rev->q[i].qid);
	const qb_question *added = NULL;
	for (size_t i = 0; nremoved && i < bank->nquestions && !added; i++)
		if (!qb_rev_has_qid(rev, bank->questions[i].id))
			added = &bank->questions[i];
	if (added)
		qb_diag_warning(added->id_loc, "question id '%s' is new while %s %s removed since the "
		                               "last build: if an id was renamed, learners' progress on "
		                               "the old id does not carry over to the new one; keep the "
		                               "old id to keep it",
		                /* TRANSLATORS: "question id 'x' is new while 'y' was removed". */
		                added->id, qb_buf_cstr(&removed), nremoved == 1 ? _("was") : _("were"));
	qb_buf_dispose(&removed);
	free(ids.slot);
}

/* ---- the stale rules (stale.c) applied to the record ---- */

/* Language k's part in a basis of the pairs form: the first 8 hex digits
 * of the hash of its current text. */
static void own_part(char out[HEX], const basis_set *bs, size_t k)
{
	if (bs->own) {
		memcpy(out, bs->own[k], HEX);
		return;
	}
	const char *s = qb_rev_text_in(bs->bank, bs->t, k);
	uint8_t h[8];
	qb_rev_text_hash8(h, s ? s : "");
	qb_hash_hex(out, h, 8);
}

/* Where the part of language code is in a basis of the pairs form (its
 * 8 hex digits), or NULL. */
static const char *pair_of(const char *basis, const char *code)
{
	size_t len = strlen(code);
	for (const char *p = basis; *p;) {
		if (strncmp(p, code, len) == 0 && p[len] == ':')
			return p + len + 1;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	return NULL;
}

/* What each language's text of one element did since the record. */
typedef struct elem_state {
	const tent *const *old; /* per bank language: the record's entry, or NULL */
	bool *changed;          /* a text that differs from the record's (or new)  */
	bool *caught;           /* changed, and was stale itself: brought up to date */
	size_t nchanged;
} elem_state;

/* The part of the basis of e (the text of the bank's language self) for
 * language k, against k's current text (stale.h).  A basis of the pairs
 * form says it exactly, whatever the bank's languages now; a short basis
 * in a bank of two languages is the other one's part; a short basis in a
 * bank of three to BASIS_PAIRS_MAX was written when the bank had two, and
 * is the part of the one language it matches; the combined form of more
 * languages cannot tell the parts apart: when it is out of date, it is
 * for the languages that changed (st), or for all when none did. */
static qb_stale_part basis_part(const tent *e, const basis_set *bs, size_t self, size_t k,
                                const elem_state *st)
{
	const qb_bank *bank = bs->bank;
	if (e->long_basis) {
		const char *p = pair_of(e->basis.s, bank->langs[k].code);
		if (!p)
			return QB_PART_NONE;
		char own[HEX];
		own_part(own, bs, k);
		return strncmp(p, own, 8) == 0 ? QB_PART_SAME : QB_PART_DIFFERS;
	}
	if (bs->own) {
		if (memcmp(e->basis.b, bs->h[k], 8) == 0)
			return QB_PART_SAME;
		for (size_t j = 0; j < bank->nlangs; j++)
			if (j != self && j != k && memcmp(e->basis.b, bs->h[j], 8) == 0)
				return QB_PART_NONE; /* the basis is j's: k came later */
		return QB_PART_DIFFERS;
	}
	uint8_t x[8];
	memcpy(x, bs->all, sizeof x);
	for (size_t i = 0; i < 8; i++)
		x[i] ^= bs->h[self][i];
	if (memcmp(x, e->basis.b, 8) == 0)
		return QB_PART_SAME;
	if (bank->nlangs <= 2 || !st)
		return QB_PART_DIFFERS;
	size_t others = st->nchanged - st->changed[self];
	return !others || st->changed[k] ? QB_PART_DIFFERS : QB_PART_SAME;
}

/* old[k]: the record's entry for the element's text in the bank's
 * language k, or NULL. */
static void elem_state_init(elem_state *st, const qb_bank *bank, const qb_text *t,
                            const basis_set *bs, const qb_rev_text_hashes *row, const tent *const *old)
{
	size_t n = bank->nlangs;
	st->old = old;
	st->changed = qb_xcalloc(n + 1, sizeof *st->changed);
	st->caught = qb_xcalloc(n + 1, sizeof *st->caught);
	st->nchanged = 0;
	for (size_t k = 0; k < n; k++) {
		const char *s = qb_rev_text_in(bank, t, k);
		if (!s)
			continue;
		uint8_t h[8];
		if (row)
			memcpy(h, row[k].text, 8);
		else
			qb_rev_text_hash8(h, s);
		st->changed[k] = !old[k] || memcmp(old[k]->hash, h, 8) != 0;
		st->nchanged += st->changed[k];
	}
	/* The combined form cannot tell which language a text was stale
	 * for: there a text catches up only when it alone changed. */
	bool combined = n > BASIS_PAIRS_MAX;
	for (size_t k = 0; k < n; k++) {
		if (!st->changed[k])
			continue;
		if (!old[k]) { /* a new translation is written against the others */
			st->caught[k] = true;
			continue;
		}
		for (size_t j = 0; j < n && !st->caught[k]; j++)
			if (j != k && old[j] && !st->changed[j] && qb_rev_text_in(bank, t, j) &&
			    basis_part(old[k], bs, k, j, st) == QB_PART_DIFFERS)
				st->caught[k] = !combined || st->nchanged == 1;
	}
}

static void elem_state_dispose(elem_state *st)
{
	free(st->changed);
	free(st->caught);
}

static qb_stale_other other_of(const elem_state *st, size_t k)
{
	if (!st->old[k])
		return QB_OTHER_NEW;
	if (!st->changed[k])
		return QB_OTHER_SAME;
	return st->caught[k] ? QB_OTHER_CAUGHT : QB_OTHER_CHANGED;
}

/* The table's verdict on the unchanged text e of language self: whether
 * it is stale, and for which languages ("'xx', 'yy'" appended to who when
 * not NULL); take[k] (when not NULL) for the languages the build takes
 * into its basis; *settled (when not NULL) when one of those caught up. */
static bool judge(const tent *e, const basis_set *bs, size_t self, const elem_state *st,
                  bool *take, bool *settled, qb_buf *who)
{
	const qb_bank *bank = bs->bank;
	/* the combined form, out of date while nothing changed: one of them */
	bool guess = !e->long_basis && !bs->own && bank->nlangs > 2 &&
	             st->nchanged == (size_t)st->changed[self];
	bool stale = false;
	if (settled)
		*settled = false;
	for (size_t k = 0; k < bank->nlangs; k++) {
		if (take)
			take[k] = true;
		if (k == self || !qb_rev_text_in(bank, bs->t, k))
			continue;
		qb_stale_part part = basis_part(e, bs, self, k, st);
		qb_stale_other other = other_of(st, k);
		const qb_stale_rule *r = qb_stale_rule_of(part, other);
		if (take)
			take[k] = r->take;
		if (settled && r->take && part == QB_PART_DIFFERS && other == QB_OTHER_CAUGHT)
			*settled = true;
		if (r->stale && who)
			qb_buf_appendf(who, "%s'%s'", !who->len ? "" : guess ? _(" or ") : ", ",
			               bank->langs[k].code);
		stale |= r->stale;
	}
	return stale;
}

/* Brings the basis of e (language self) up to date for the languages
 * take[k] names (st: NULL when not worked out), in the form the bank's
 * number of languages asks for; the parts not taken stay as they are (a
 * part out of date stays out of date).  True when the basis changed. */
static bool rebase(qb_revisions *rev, tent *e, const basis_set *bs, size_t self,
                   const elem_state *st, const bool *take)
{
	const qb_bank *bank = bs->bank;
	size_t n = bank->nlangs;
	bool current = true, took = false;
	for (size_t k = 0; k < n; k++) {
		if (k == self || !qb_rev_text_in(bank, bs->t, k))
			continue;
		qb_stale_part p = basis_part(e, bs, self, k, st);
		if (p == QB_PART_SAME)
			continue;
		if (take[k])
			took = true;
		else
			current = false;
	}
	char *basis = basis_of(bs, bank->langs[self].code);
	bool changed = false;
	if (current) {
		changed = !qb_rev_basis_is(e, basis);
		if (changed)
			qb_rev_put_basis(rev, e, basis);
	} else if (bs->own && (took || !e->long_basis)) {
		/* the pairs form: the parts taken from the texts now, the
		 * others kept (a short basis recorded with two languages gives
		 * its digits to the part out of date) */
		qb_buf b = QB_BUF_INIT;
		for (size_t k = 0; k < n; k++) {
			if (k == self)
				continue;
			qb_stale_part p = qb_rev_text_in(bank, bs->t, k) ? basis_part(e, bs, self, k, st)
			                                          : QB_PART_SAME;
			char part[HEX];
			const char *keep = NULL;
			if (p == QB_PART_SAME || take[k])
				own_part(part, bs, k);
			else if (p == QB_PART_NONE)
				continue;
			else if (e->long_basis)
				keep = pair_of(e->basis.s, bank->langs[k].code);
			else
				qb_hash_hex(part, e->basis.b, 8);
			qb_buf_appendf(&b, "%s%s:%.8s", b.len ? "," : "", bank->langs[k].code,
			               keep ? keep : part);
		}
		changed = !qb_rev_basis_is(e, qb_buf_cstr(&b));
		if (changed)
			qb_rev_put_basis(rev, e, qb_buf_cstr(&b));
		qb_buf_dispose(&b);
	} else if (e->long_basis && n == 2) {
		/* back to two languages, out of date for the other one: a short
		 * basis that matches no text (its old text cannot be told in
		 * this form; a review clears it) */
		qb_rev_put_basis(rev, e, "ffffffffffffffff");
		changed = true;
	}
	free(basis);
	return changed;
}

/* ---- stale translations ---- */

typedef struct stale_ctx {
	const qb_revisions *rev;
	const qb_bank *bank;
	size_t nstale;
	size_t cursor; /* qb_rev_find_t_next() */
	qb_rev_hashes *hashes;
	size_t elem;   /* the element's row in hashes */
	qb_rev_stale_fn fn;
	qb_rev_stale_text_fn tfn; /* qb_rev_stale_texts(): quiet, per element */
	void *payload;
} stale_ctx;

static void stale_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                       const qb_rev_elem_ref *what)
{
	stale_ctx *c = payload;
	const qb_rev_text_hashes *row = c->hashes ? qb_rev_hashes_row(c->hashes, c->elem++) : NULL;
	basis_set bs;
	basis_set_init(&bs, c->bank, t, row);
	elem_state st = {NULL, NULL, NULL, 0}; /* worked out for the first candidate */
	const tent **old = NULL;
	for (size_t i = 0; i < t->ntr; i++) {
		const qb_tr *tr = &t->tr[i];
		const tent *e = qb_rev_find_t_next(c->rev, &c->cursor, qid, elem, qb_tr_lang(t, tr));
		if (!e)
			continue;
		uint8_t h[8];
		size_t self = qb_bank_lang_index(c->bank, qb_tr_lang(t, tr));
		if (row && self != QB_LANG_NONE && qb_rev_text_in(c->bank, t, self) == tr->text)
			memcpy(h, row[self].text, 8);
		else
			qb_rev_text_hash8(h, tr->text);
		/* changed since the record (written now), or current */
		if (memcmp(h, e->hash, 8) != 0 || self == QB_LANG_NONE ||
		    basis_matches(e, &bs, self, qb_tr_lang(t, tr)))
			continue;
		if (!st.changed) {
			old = qb_xcalloc(c->bank->nlangs + 1, sizeof *old);
			for (size_t k = 0; k < c->bank->nlangs; k++)
				old[k] = qb_rev_find_t(c->rev, qid, elem, c->bank->langs[k].code);
			elem_state_init(&st, c->bank, t, &bs, row, old);
		}
		qb_buf who = QB_BUF_INIT;
		if (!judge(e, &bs, self, &st, NULL, NULL, &who)) {
			qb_buf_dispose(&who);
			continue;
		}
		char buf[256];
		if (c->tfn)
			c->tfn(c->payload, qid, elem, qb_tr_lang(t, tr));
		else
			qb_diag_warning(qb_tr_loc(t, tr), "'%s' text of %s may be stale: %s changed",
			                qb_tr_lang(t, tr), qb_rev_elem_what(what, buf, sizeof buf),
			                qb_buf_cstr(&who));
		qb_buf_dispose(&who);
		c->nstale++;
		if (c->fn)
			c->fn(c->payload, qid, qb_tr_lang(t, tr));
	}
	free(old);
	elem_state_dispose(&st);
	basis_set_dispose(&bs);
}

void qb_rev_check_stale(const qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes)
{
	qb_rev_check_stale_each(rev, bank, hashes, NULL, NULL);
}

void qb_rev_check_stale_each(const qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes,
                             qb_rev_stale_fn fn, void *payload)
{
	stale_ctx c = {rev, bank, 0, 0, hashes, 0, fn, NULL, payload};
	qb_rev_each_element(bank, stale_elem, &c);
	if (c.nstale)
		qb_diag_note(QB_LOC(bank->path, 0, 0),
		             ngettext("after checking the translation, run 'qbc review %s' to mark it "
		                      "reviewed",
		                      "after checking the translations, run 'qbc review %s' to mark them "
		                      "reviewed", c.nstale),
		             bank->path);
}

void qb_rev_stale_texts(const qb_revisions *rev, const qb_bank *bank, qb_rev_stale_text_fn fn,
                        void *payload)
{
	stale_ctx c = {rev, bank, 0, 0, NULL, 0, NULL, fn, payload};
	qb_rev_each_element(bank, stale_elem, &c);
}

/* ---- updating ---- */


typedef struct upd_ctx {
	qb_revisions *old; /* its arena takes the new table's strings too    */
	const qb_bank *bank;
	tent *t;
	size_t nt, cap;
	bool changed;
	size_t cursor; /* into old, qb_rev_find_t_next() */
	qb_rev_hashes *hashes;
	size_t elem;   /* the element's row in hashes */
	tent *olds;    /* upd_elem()'s scratch, nlangs + 1 each: made once, */
	const tent **oldp; /* not for each of the bank's elements         */
	bool *take;
} upd_ctx;

static void upd_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                     const qb_rev_elem_ref *what)
{
	QB_UNUSED(what);
	upd_ctx *c = payload;
	const qb_rev_text_hashes *row = c->hashes ? qb_rev_hashes_row(c->hashes, c->elem++) : NULL;
	size_t n = c->bank->nlangs;
	basis_set bs;
	basis_set_init(&bs, c->bank, t, row);
	/* The record's entries of the element, copied first: in place, the
	 * loop below writes over them, and the settling reads them all. */
	tent *olds = c->olds;
	const tent **old = c->oldp;
	memset(olds, 0, (n + 1) * sizeof *olds);
	memset(old, 0, (n + 1) * sizeof *old);
	for (size_t k = 0; k < n; k++) {
		if (!qb_rev_text_in(c->bank, t, k))
			continue;
		const tent *o = qb_rev_find_t_next(c->old, &c->cursor, qid, elem, c->bank->langs[k].code);
		if (o) {
			olds[k] = *o;
			old[k] = &olds[k];
		}
	}
	elem_state st = {NULL, NULL, NULL, 0};
	bool *take = c->take;
	for (size_t k = 0; k < n; k++) {
		const char *lang = c->bank->langs[k].code;
		const char *s = qb_rev_text_in(c->bank, t, k);
		if (!s)
			continue;
		uint8_t h[8];
		if (row)
			memcpy(h, row[k].text, 8);
		else
			qb_rev_text_hash8(h, s);
		/* In place, o is (a copy of) the entry this one replaces. */
		const tent *o = old[k];
		tent e;
		if (c->t == c->old->t) {
			e = *o;
		} else {
			e.qid = qb_rev_id_of(c->old, qid) & 0x3fffffffu;
			e.key = qb_rev_key_of(c->old, elem, lang);
		}
		memcpy(e.hash, h, 8);
		bool same_text = o && memcmp(o->hash, h, 8) == 0;
		if (same_text && basis_matches(o, &bs, k, lang)) {
			/* current, as recorded */
			e.long_basis = o->long_basis;
			e.basis = o->basis;
			e.reviewed = o->reviewed;
		} else if (same_text) {
			/* stale, or out of date only for what the table lets the
			 * build take in (stale.c) */
			if (!st.changed)
				elem_state_init(&st, c->bank, t, &bs, row, old);
			bool settled = false;
			e.long_basis = o->long_basis;
			e.basis = o->basis;
			judge(o, &bs, k, &st, take, &settled, NULL);
			rebase(c->old, &e, &bs, k, &st, take);
			/* Reviewed stays with a text that is current and took no
			 * text that caught up. */
			e.reviewed = o->reviewed && !settled && basis_matches(&e, &bs, k, lang);
		} else {
			/* written now: against every other language's text */
			char *basis = basis_of(&bs, lang);
			if (o && qb_rev_basis_is(o, basis)) {
				e.long_basis = o->long_basis;
				e.basis = o->basis;
			} else {
				qb_rev_put_basis(c->old, &e, basis);
			}
			free(basis);
			e.reviewed = 0;
		}
		if (!o || memcmp(o->hash, e.hash, 8) != 0 || !qb_rev_basis_same(o, &e) ||
		    o->reviewed != e.reviewed)
			c->changed = true;
		if (c->nt == c->cap) /* only when the count was wrong */
			c->t = qb_xrealloc(c->t, (c->cap = c->cap * 2 + 64) * sizeof *c->t);
		c->t[c->nt++] = e;
	}
	elem_state_dispose(&st);
	basis_set_dispose(&bs);
}

/* Whether the bank's texts have the record's keys, in the record's order
 * (each key once): a rebuild, or a bank whose texts were edited but not
 * added, removed or moved.  Then the table is updated in place: o in
 * upd_elem() is always the entry being replaced, and no second table of
 * the bank's size is needed. */
typedef struct same_ctx {
	const qb_revisions *rev;
	const qb_bank *bank;
	size_t n;
	bool same;
} same_ctx;

static void same_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                      const qb_rev_elem_ref *what)
{
	QB_UNUSED(what);
	same_ctx *c = payload;
	for (size_t k = 0; c->same && k < c->bank->nlangs; k++) {
		const char *lang = c->bank->langs[k].code;
		if (!qb_rev_text_in(c->bank, t, k))
			continue;
		const tent *e = c->n < c->rev->nt ? &c->rev->t[c->n++] : NULL;
		/* The bank's keys are distinct (the checks passed), so a record
		 * that lists them one for one in order holds each key once. */
		c->same = e && strcmp(qb_rev_t_qid(c->rev, e), qid) == 0 &&
		          strcmp(qb_rev_t_elem(c->rev, e), elem) == 0 && strcmp(qb_rev_t_lang(c->rev, e), lang) == 0;
	}
}

/* Appends id unless it is the last one (a question's entries are
 * consecutive, one per language). */
static void push_id(char ***v, size_t *n, const char *id)
{
	if (*n && strcmp((*v)[*n - 1], id) == 0)
		return;
	*v = qb_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = qb_xstrdup(id);
}

/* Hash of the files of one template folder, by sorted name. */
static int dir_hash(char out[HEX], const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return -1;
	qb_buf b = QB_BUF_INIT;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *path = qb_fs_join(dir, name);
		struct stat st;
		if (name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				char sub[HEX];
				if (dir_hash(sub, path) == 0)
					qb_buf_appendf(&b, "%s/%s\x1e", name, sub);
			} else {
				char *data = NULL;
				size_t len = 0;
				if (qb_fs_read(path, &data, &len) == 0) {
					char h[HEX];
					qb_hash_sha256_hex(h, 8, data, len);
					qb_buf_appendf(&b, "%s=%s\x1e", name, h);
					free(data);
				}
			}
		}
		free(path);
		free(names[i]);
	}
	free(names);
	qb_rev_hex_of(out, &b);
	qb_buf_dispose(&b);
	return 0;
}

/* A template folder's hash, and the version of the compiler that fills
 * the templates: a new qbc may render fields differently, so it counts
 * as a template change (every note gets a newer time once). */
static int dir_hash_versioned(char out[HEX], const char *dir)
{
	char h[HEX];
	if (dir_hash(h, dir) != 0)
		return -1;
	qb_buf b = QB_BUF_INIT;
	qb_buf_appendf(&b, "qbc %s\x1e%s", QB_VERSION, h);
	qb_rev_hex_of(out, &b);
	qb_buf_dispose(&b);
	return 0;
}

/* Brings the record of template folder name up to date; true when its
 * content changed.  A missing folder is skipped. */
static bool update_template(qb_revisions *rev, const char *templates_dir, const char *name,
                            time_t now)
{
	char *dir = qb_fs_join(templates_dir, name);
	char h[HEX];
	bool changed = false;
	if (dir_hash_versioned(h, dir) == 0) {
		pent *p = qb_rev_find_p(rev, name);
		if (!p) {
			rev->tpl = qb_xrealloc(rev->tpl, (rev->ntpl + 1) * sizeof *rev->tpl);
			p = &rev->tpl[rev->ntpl++];
			p->name = qb_xstrdup(name);
			p->hash[0] = '\0';
			p->time = 0;
		}
		if (strcmp(p->hash, h) != 0) {
			memcpy(p->hash, h, HEX);
			p->time = qb_rev_bump(p->time, now);
			changed = true;
		}
	}
	free(dir);
	return changed;
}

bool qb_rev_update(qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes,
                   const char *templates_dir, time_t now, qb_rev_report *report)
{
	memset(report, 0, sizeof *report);
	report->created = rev->revision == 0;
	bool changed = report->created;
	/* The bank id is part of every Anki GUID and SCORM identifier. */
	if (rev->bank && strcmp(rev->bank, bank->id) != 0) {
		qb_diag_warning(bank->id_loc, "the bank id changed from '%s' to '%s': Anki sees new "
		                              "notes and Moodle a new activity, so learners' progress "
		                              "does not carry over",
		                rev->bank, bank->id);
		changed = true;
	}
	if (!rev->bank || strcmp(rev->bank, bank->id) != 0) {
		free(rev->bank);
		rev->bank = qb_xstrdup(bank->id);
		changed = true;
	}

	/* Templates: the folders the registry names, each once, and the
	 * label catalogues every writer shows. */
	for (const qb_writer *w = qb_writers; templates_dir && w->name; w++) {
		if (!w->templates)
			continue;
		bool seen = false;
		for (const qb_writer *v = qb_writers; v != w; v++)
			seen |= v->templates && strcmp(v->templates, w->templates) == 0;
		if (!seen && update_template(rev, templates_dir, w->templates, now)) {
			changed = true;
			report->templates_changed = !report->created;
		}
	}
	if (templates_dir && update_template(rev, templates_dir, QB_LABELS_DIR, now)) {
		changed = true;
		report->templates_changed = !report->created;
	}

	/* Questions, in source order; what is not in the bank is removed. */
	size_t nq = 0, capq = bank->nquestions * bank->nlangs;
	qent *q = qb_xcalloc_written(capq ? capq : 1, sizeof *q);
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *qq = &bank->questions[i];
		bool known = qb_rev_has_qid(rev, qq->id);
		const char *qid = qb_arena_strdup(&rev->strs, qq->id);
		for (size_t k = 0; k < bank->nlangs; k++) {
			const char *lang = bank->langs[k].code;
			const qent *o = qb_rev_find_q(rev, qq->id, lang);
			qent *e = &q[nq++];
			e->qid = qid;
			e->lang = qb_rev_name_of(rev, lang);
			qb_rev_question_hash_at(hashes, bank, i, k, e->hash);
			if (o && memcmp(o->hash, e->hash, 8) == 0)
				e->time = o->time;
			else {
				e->time = qb_rev_bump(o ? o->time : 0, now);
				changed = true;
				if (known)
					push_id(&report->changed, &report->nchanged, qq->id);
			}
		}
		if (!known)
			push_id(&report->added, &report->nadded, qq->id);
	}
	if (nq != rev->nq)
		changed = true;

	/* Texts. */
	upd_ctx c = {rev, bank, NULL, 0, 0, false, 0, hashes, 0,
	             qb_xcalloc(bank->nlangs + 1, sizeof(tent)),
	             qb_xcalloc(bank->nlangs + 1, sizeof(const tent *)),
	             qb_xcalloc(bank->nlangs + 1, sizeof(bool))};
	same_ctx same = {rev, bank, 0, rev->nt > 0};
	qb_rev_each_element(bank, same_elem, &same);
	if (same.same && same.n == rev->nt) {
		c.t = rev->t;
		c.cap = rev->nt;
	} else {
		qb_rev_each_element(bank, qb_rev_count_elem, &c.cap);
		c.cap *= bank->nlangs;
		c.t = qb_xcalloc_written(c.cap ? c.cap : 1, sizeof *c.t);
	}
	qb_rev_each_element(bank, upd_elem, &c);
	free(c.olds);
	free(c.oldp);
	free(c.take);
	if (c.nt != rev->nt)
		c.changed = true;

	/* Swap in the new tables; what the old one has and the new one has
	 * not was removed. */
	qent *oldq = rev->q;
	size_t oldnq = rev->nq;
	rev->q = q;
	rev->nq = nq;
	if (rev->t != c.t)
		free(rev->t);
	rev->t = c.t;
	rev->nt = c.nt;
	qb_rev_reindex(rev);
	for (size_t i = 0; i < oldnq; i++) {
		if (!qb_rev_has_qid(rev, oldq[i].qid)) {
			push_id(&report->removed, &report->nremoved, oldq[i].qid);
			changed = true;
		}
	}
	free(oldq);
	changed |= c.changed;
	if (changed)
		rev->revision++;
	return changed;
}

typedef struct review_ctx {
	qb_revisions *rev;
	const qb_bank *bank;
	const char *const *ids;
	size_t nids;
	const char *lang;
	size_t n;
	qb_buf *what;
} review_ctx;

static void review_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                        const qb_rev_elem_ref *what)
{
	review_ctx *c = payload;
	bool wanted = c->nids == 0;
	for (size_t k = 0; k < c->nids && !wanted; k++)
		wanted = strcmp(c->ids[k], qid) == 0;
	if (!wanted)
		return;
	size_t n = c->bank->nlangs;
	basis_set bs;
	basis_set_init(&bs, c->bank, t, NULL);
	elem_state st = {NULL, NULL, NULL, 0};
	tent **ents = qb_xcalloc(n + 1, sizeof *ents);
	for (size_t k = 0; k < n; k++)
		ents[k] = qb_rev_find_t(c->rev, qid, elem, c->bank->langs[k].code);
	/* What the stale check reports (judge()) gets the current texts as
	 * its basis, and the mark. */
	for (size_t k = 0; k < n; k++) {
		const char *s = qb_rev_text_in(c->bank, t, k);
		tent *e = ents[k];
		if (!s || !e || (c->lang && strcmp(c->bank->langs[k].code, c->lang) != 0))
			continue;
		uint8_t h[8];
		qb_rev_text_hash8(h, s);
		if (memcmp(h, e->hash, 8) != 0 || basis_matches(e, &bs, k, c->bank->langs[k].code))
			continue;
		if (!st.changed)
			elem_state_init(&st, c->bank, t, &bs, NULL, (const tent *const *)ents);
		if (!judge(e, &bs, k, &st, NULL, NULL, NULL))
			continue;
		char *basis = basis_of(&bs, c->bank->langs[k].code);
		qb_rev_put_basis(c->rev, e, basis);
		free(basis);
		e->reviewed = 1;
		c->n++;
		if (c->what) {
			char buf[256];
			qb_buf_appendf(c->what, "%s (%s)\n", qb_rev_elem_what(what, buf, sizeof buf),
			               c->bank->langs[k].code);
		}
	}
	free(ents);
	elem_state_dispose(&st);
	basis_set_dispose(&bs);
}

size_t qb_rev_review(qb_revisions *rev, const qb_bank *bank, const char *const *ids,
                     size_t nids, const char *lang, qb_buf *what)
{
	review_ctx c = {rev, bank, ids, nids, lang, 0, what};
	qb_rev_each_element(bank, review_elem, &c);
	return c.n;
}

bool qb_rev_set_text(qb_revisions *rev, const qb_bank *bank, const char *qid, const char *elem,
                     const qb_text *t, const char *lang, bool current, bool reviewed)
{
	tent *self = qb_rev_find_t(rev, qid, elem, lang);
	const char *s = qb_text_get(t, lang);
	size_t me = qb_bank_lang_index(bank, lang);
	if (!self || !s || me == QB_LANG_NONE)
		return false;
	uint8_t h[8];
	qb_rev_text_hash8(h, s);
	bool changed = memcmp(h, self->hash, 8) != 0;
	memcpy(self->hash, h, 8);
	if (changed)
		self->reviewed = 0; /* a new text, not reviewed yet */
	basis_set bs;
	basis_set_init(&bs, bank, t, NULL);
	/* The other languages take the imported text into their bases: a
	 * translation, fuzzy or not, never makes its sources stale (stale.c).
	 * Their other parts stay as they are. */
	bool *take = qb_xcalloc(bank->nlangs + 1, sizeof *take);
	take[me] = true;
	for (size_t k = 0; k < bank->nlangs; k++) {
		tent *e = k == me ? NULL : qb_rev_find_t(rev, qid, elem, bank->langs[k].code);
		if (!e || !qb_rev_text_in(bank, t, k))
			continue;
		if (rebase(rev, e, &bs, k, NULL, take)) {
			e->reviewed = 0; /* reviewed against another text */
			changed = true;
		}
	}
	free(take);
	/* Translated (not fuzzy): written against the others as they are
	 * now; fuzzy keeps its basis, so a stale translation stays stale. */
	if (current) {
		char *basis = basis_of(&bs, lang);
		if (!qb_rev_basis_is(self, basis)) {
			qb_rev_put_basis(rev, self, basis);
			self->reviewed = 0;
			changed = true;
		}
		free(basis);
		if (reviewed && !self->reviewed) {
			self->reviewed = 1;
			changed = true;
		}
	}
	basis_set_dispose(&bs);
	return changed;
}

bool qb_rev_text_reviewed(const qb_revisions *rev, const char *qid, const char *elem,
                          const char *lang, const char *text)
{
	const tent *e = rev && text ? qb_rev_find_t(rev, qid, elem, lang) : NULL;
	if (!e || !e->reviewed)
		return false;
	uint8_t h[8];
	qb_rev_text_hash8(h, text);
	return memcmp(h, e->hash, 8) == 0;
}

/* ---- the change report ---- */

static void print_ids(char *const *ids, size_t n)
{
	if (!n)
		return;
	fputs(" (", stdout);
	for (size_t i = 0; i < n; i++)
		printf("%s%s", i ? ", " : "", ids[i]);
	fputc(')', stdout);
}

void qb_rev_report_print(const qb_rev_report *r, const char *bank_id, bool dry_run)
{
	/* TRANSLATORS: the change report, as "optique: 2 added (a, b),
	 * 1 changed (c), 0 removed"; the counts are of questions (ngettext
	 * with one English form, for languages whose words agree with them). */
	printf(ngettext("%s: %zu added", "%s: %zu added", r->nadded), bank_id, r->nadded);
	if (!r->created)
		print_ids(r->added, r->nadded);
	printf(ngettext(", %zu changed", ", %zu changed", r->nchanged), r->nchanged);
	print_ids(r->changed, r->nchanged);
	printf(ngettext(", %zu removed", ", %zu removed", r->nremoved), r->nremoved);
	print_ids(r->removed, r->nremoved);
	if (r->templates_changed)
		fputs(_("; templates changed"), stdout);
	if (r->created)
		fputs(_(" (new revision record)"), stdout);
	if (dry_run)
		fputs(_(" [dry run: nothing written]"), stdout);
	fputc('\n', stdout);
	if (r->nremoved)
		fputs(_("  removed questions stay in learners' Anki collections (a package cannot "
		        "delete notes), and Moodle keeps the attempts already made on them\n"),
		      stdout);
}

void qb_rev_report_dispose(qb_rev_report *r)
{
	char **lists[] = {r->added, r->changed, r->removed};
	size_t counts[] = {r->nadded, r->nchanged, r->nremoved};
	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < counts[k]; i++)
			free(lists[k][i]);
		free(lists[k]);
	}
	memset(r, 0, sizeof *r);
}
