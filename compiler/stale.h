/* stale.h - the rules of stale translations, as one table (stale.c).
 *
 * The revision record keeps, for each text (an element of the bank in one
 * language), its hash and its basis: what the element's texts in the other
 * languages were when this text was last written, imported or reviewed.
 * A text is stale when it did not change since the record and its basis
 * is out of date for another language K, unless K's change is one that
 * leaves it current.  The table says, for one text L that did not change
 * and one other language K of the element, from
 *
 *   - the part of L's basis for K against K's current text, and
 *   - what K's text did since the record,
 *
 * whether L is stale for K, and whether the next build takes K's current
 * text into L's basis.  revision.c applies it to the record; what each
 * event (an edit, an import, review, a language added or removed, a
 * rename, a bank reverted with git) does follows from it, as input/README.md
 * sets out. */
#ifndef QB_STALE_H
#define QB_STALE_H

#include <stdbool.h>

/* The part of L's basis for language K, against K's text now. */
typedef enum {
	QB_PART_SAME,    /* L was written against K's text as it is now         */
	QB_PART_DIFFERS, /* against another text of K                           */
	QB_PART_NONE,    /* L's basis does not know K: a language added since   */
	QB_PART_COUNT
} qb_stale_part;

/* What K's text did since the record. */
typedef enum {
	QB_OTHER_NEW,     /* the record has no entry for it: a new translation  */
	QB_OTHER_SAME,    /* unchanged                                          */
	QB_OTHER_CAUGHT,  /* changed, and it was stale itself (for a language   */
	                  /* that did not change): a translation brought up to  */
	                  /* date                                               */
	QB_OTHER_CHANGED, /* changed otherwise: an edit of a source             */
	QB_OTHER_COUNT
} qb_stale_other;

typedef struct qb_stale_rule {
	qb_stale_part part;
	qb_stale_other other;
	bool stale; /* L is stale for K                                         */
	bool take;  /* the next build takes K's text into L's basis (settles)   */
} qb_stale_rule;

/* The row for (part, other). */
const qb_stale_rule *qb_stale_rule_of(qb_stale_part part, qb_stale_other other);

#endif
