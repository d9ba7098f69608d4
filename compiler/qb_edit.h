/* qb_edit.h - the one source-preserving .qb editor: changes the lines of
 * single translations of a bank and leaves every other byte as it is
 * (comments, order, indentation, continuation lines, other languages),
 * so that `git diff` shows only what changed.  `qbc translate import`
 * writes translations with it.
 *
 * The edits are made against the bank read from the very source given
 * to qb_edit_new() (positions from the model's qb_tr); the result is
 * a new source, which the caller reads again before writing it. */
#ifndef QB_QB_EDIT_H
#define QB_QB_EDIT_H

#include "buf.h"
#include "model.h"

typedef struct qb_edit qb_edit;

/* An editor of src[0..len), from which bank was read. */
qb_edit *qb_edit_new(const qb_bank *bank, const char *src, size_t len);
void qb_edit_free(qb_edit *ed);

/* Sets the text of t in lang to text: the lines of its translation
 * replaced (the tag and the indentation before it kept), or, for a
 * language t lacks, new lines after its last translation, indented as
 * that one.  A matching pair's two sides share their line: set the left
 * side's text (or, for a pair without one, the right side's) to the
 * whole "left => right".  Returns 0, or -1 when the text's lines cannot
 * be found. */
int qb_edit_set(qb_edit *ed, const qb_text *t, const char *lang, const char *text);
/* Adds lang at the end of the 'languages:' line.  -1 when there is none. */
int qb_edit_add_lang(qb_edit *ed, const char *lang);
/* The edited source. */
void qb_edit_result(const qb_edit *ed, qb_buf *out);

#endif
