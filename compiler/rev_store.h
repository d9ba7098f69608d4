/* rev_store.h - the revision record's storage (rev_store.c): its tables,
 * their hashed indexes and strings, and its file format, read and
 * written.  Not part of qbc's interface: revision.c, the record's rules,
 * is its one user. */
#ifndef QB_REV_STORE_H
#define QB_REV_STORE_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "arena.h"
#include "buf.h"
#include "revision.h"

#define HEX 17 /* 16 hex digits and a NUL */

/* The tables' strings (ids, element and language names, bases) live in
 * the record's arena: ids once per question, names once per record. */
typedef struct qent {
	const char *qid, *lang;
	uint8_t hash[8]; /* the 16 hex digits as bytes */
	time_t time;
} qent;

/* A text entry: the table is the bulk of the record (about twenty per
 * question of a two-language bank), so it holds numbers, 24 bytes in all:
 * the question id and the (element, language) pair as indexes into the
 * record's tables, the hash as bytes, and the basis as bytes too when it
 * is one hash (a bank of two languages), else the text in the arena. */
typedef struct tent {
	unsigned qid : 30;       /* rev->ids[qid]                             */
	unsigned long_basis : 1; /* basis.s, not basis.b                      */
	unsigned reviewed : 1;   /* reviewed against this basis: the top      */
	uint32_t key;            /* rev->keys[key]: element and language      */
	uint8_t hash[8];         /* the 16 hex digits as bytes                */
	union {
		uint8_t b[8];    /* 16 hex digits as bytes                    */
		const char *s;   /* lang:8hex,...: see the top of the file     */
	} basis;
} tent;

/* An element and a language of the record, each pair once. */
typedef struct tkey {
	const char *elem, *lang;
} tkey;

typedef struct pent {
	char *name;
	char hash[HEX];
	time_t time;
} pent;

/* A hashed index over one table of the record: open addressing, linear
 * probing; a slot holds an entry's position + 1 (0: empty). */
typedef struct keyindex {
	size_t *slot;
	size_t cap; /* a power of two, at least twice the entries */
} keyindex;

struct qb_revisions {
	unsigned revision;
	char *bank;       /* the bank id the record was written for        */
	pent *tpl;
	size_t ntpl;
	qent *q;
	size_t nq;
	tent *t;
	size_t nt;
	keyindex qx;       /* q by question id and language                 */
	keyindex idx;      /* q by question id (its first entry)            */
	keyindex tx;       /* t by question id, element and language        */
	qb_arena strs;     /* the strings of q and t                        */
	const char **names; /* element and language names, each once        */
	size_t nnames;
	keyindex nx;       /* names by string                               */
	const char **ids;  /* question ids of t (tent.qid), in order         */
	size_t nids, capids;
	tkey *keys;        /* (element, language) pairs of t (tent.key)      */
	size_t nkeys, capkeys;
	keyindex kx;       /* keys by pair                                   */
};

/* The first 16 hex digits of the SHA-256 of b. */
void qb_rev_hex_of(char out[HEX], const qb_buf *b);

/* The time of a content that changed: now, or one second after its
 * previous time old if now is not later. */
time_t qb_rev_bump(time_t old, time_t now);

/* A text entry's question id, element and language. */
const char *qb_rev_t_qid(const qb_revisions *rev, const tent *e);

const char *qb_rev_t_elem(const qb_revisions *rev, const tent *e);

const char *qb_rev_t_lang(const qb_revisions *rev, const tent *e);

/* Rebuilds every index after the tables changed.  The first entry of a
 * duplicated key wins. */
void qb_rev_reindex(qb_revisions *rev);

/* An element or language name, stored once in the record. */
const char *qb_rev_name_of(qb_revisions *rev, const char *s);

/* A question id of the text table, stored once for a run of entries of
 * that question (they are consecutive): its index in rev->ids. */
uint32_t qb_rev_id_of(qb_revisions *rev, const char *s);

/* The index in rev->keys of (elem, lang), added when new. */
uint32_t qb_rev_key_of(qb_revisions *rev, const char *elem, const char *lang);

/* Sets e's basis to basis (as basis_of() makes it). */
void qb_rev_put_basis(qb_revisions *rev, tent *e, const char *basis);

/* Whether e's basis is basis. */
bool qb_rev_basis_is(const tent *e, const char *basis);

/* Whether a and b have the same basis. */
bool qb_rev_basis_same(const tent *a, const tent *b);

/* The entries of the record: a question in a language, whether it has a
 * question, a text, a template folder; NULL (false) when none. */
qent *qb_rev_find_q(const qb_revisions *rev, const char *qid, const char *lang);

bool qb_rev_has_qid(const qb_revisions *rev, const char *qid);

tent *qb_rev_find_t(const qb_revisions *rev, const char *qid, const char *elem, const char *lang);

/* The same, trying first the entry at *cursor: a record lists the texts
 * in the order qb_rev_each_element() visits them, so a pass over the bank finds
 * almost every entry right after the previous one, without hashing.
 * *cursor moves past the entry found. */
tent *qb_rev_find_t_next(const qb_revisions *rev, size_t *cursor, const char *qid,
                         const char *elem, const char *lang);

pent *qb_rev_find_p(const qb_revisions *rev, const char *name);

/* The slot for key (a, b, c): where it is, or the empty slot where it
 * would go.  eq tells whether entry i of the table has that key. */
typedef bool (*qb_rev_key_eq)(const void *tab, size_t i, const char *a, const char *b,
                              const char *c);

/* An empty index for n entries. */
void qb_rev_index_init(keyindex *x, size_t n);

size_t *qb_rev_index_slot(const void *tab, const keyindex *x, qb_rev_key_eq eq, const char *a,
                          const char *b, const char *c);

#endif
