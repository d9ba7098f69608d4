/* rev_bank.h - the bank's side of the revision record (rev_bank.c): its
 * text elements in source order, their names in the record and in
 * messages, and their hashes, worked out on other threads while the bank
 * is checked (qb_rev_hashes, revision.h).  Not part of qbc's interface:
 * revision.c, the record's storage and its stale rules, is its one user. */
#ifndef QB_REV_BANK_H
#define QB_REV_BANK_H

#include <stdint.h>

#include "model.h"
#include "revision.h"

/* One text's two hashes (qb_rev_hashes): the first 8 bytes of SHA-256 of
 * the text, as tent keeps it, and of "<lang>=<text>\x1e", its part of the
 * bases of the other languages' texts.  An absent text counts as "". */
typedef struct qb_rev_text_hashes {
	uint8_t text[8], lang[8];
} qb_rev_text_hashes;

/* Where an element is, for messages: formatted only by the callbacks that
 * print it (qb_rev_elem_what()), since a build visits every element several
 * times and prints almost none. */
typedef enum {
	QB_REV_W_TITLE, QB_REV_W_DESCRIPTION, QB_REV_W_PROMPT, QB_REV_W_OPTION, QB_REV_W_FEEDBACK,
	QB_REV_W_MATCH, QB_REV_W_FEEDBACK_WRONG, QB_REV_W_EXPLANATION,
	QB_REV_W_PASSAGE /* qid: the passage's id */
} qb_rev_elem_kind;

typedef struct qb_rev_elem_ref {
	qb_rev_elem_kind kind;
	const char *qid;
	size_t n; /* the option's number, from 1 */
} qb_rev_elem_ref;

/* What qb_rev_each_element() calls for each text element: its question
 * id ("-" for the title and description, a passage's id for its text),
 * its name in the record (prompt, option-N, feedback-N, match-N,
 * feedback-wrong, explanation, title, description, passage), its texts
 * and where it is. */
typedef void (*qb_rev_elem_fn)(void *payload, const char *qid, const char *elem,
                               const qb_text *t, const qb_rev_elem_ref *where);

/* A text's hash as tent keeps it: the first 8 bytes of its SHA-256. */
void qb_rev_text_hash8(uint8_t out[8], const char *s);

/* The text of t in the bank's language k (O(1): model.h), by its index:
 * no lookup of the code, as this runs for every text several times. */
const char *qb_rev_text_in(const qb_bank *bank, const qb_text *t, size_t k);

/* Works out row[k] for the element's text in each of the bank's languages. */
void qb_rev_hash_texts(qb_rev_text_hashes *row, const qb_bank *bank, const qb_text *t);

/* The element's description ("question 'x' option 2"), in buf. */
const char *qb_rev_elem_what(const qb_rev_elem_ref *r, char *buf, size_t size);

/* Calls fn for every text element of the bank, in source order: the
 * order of the record's text lines and of the hashes' rows. */
void qb_rev_each_element(const qb_bank *bank, qb_rev_elem_fn fn, void *payload);

/* Counts the elements (an upper bound of the texts per language). */
void qb_rev_count_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                       const qb_rev_elem_ref *what);

/* Question i's hash in the bank's language k into out: from the question
 * thread (waiting for it) or worked out here. */
void qb_rev_question_hash_at(qb_rev_hashes *x, const qb_bank *bank, size_t i, size_t k,
                             uint8_t out[8]);

/* The row of element i (in qb_rev_each_element() order), once it is
 * done: a qb_rev_text_hashes per language of the bank.  The reader asks
 * for the rows in order; a row before the last one asked for may be
 * gone, except when the window holds every row. */
const qb_rev_text_hashes *qb_rev_hashes_row(qb_rev_hashes *x, size_t i);

#endif
