/* validate.h - the checks: rules over a whole bank, reporting every
 * problem through diag.h in one run.  They only read the model. */
#ifndef QB_VALIDATE_H
#define QB_VALIDATE_H

#include "model.h"

/* Texts longer than this many characters get a warning. */
#define QB_LONG_TEXT 1000
/* More options than this get a warning. */
#define QB_MANY_OPTIONS 10
/* A text that is the same in two languages gets a warning when it has at
 * least QB_SAME_TEXT_WORDS ordinary words: QB_WORD_LETTERS or more letters
 * and none upper-case but the text's first letter, outside code, link
 * addresses and URLs (so that names such as 'Isaac Newton', code and
 * numbers may be the same, and 'The nucleus' may not). */
#define QB_SAME_TEXT_WORDS 2
#define QB_WORD_LETTERS 3
/* A formula with this many ordinary words most likely holds a sentence
 * caught between a '$' and the wrong other '$': a warning. */
#define QB_FORMULA_WORDS 2
/* Question ids are at most this many characters (SCORM and Anki use them). */
#define QB_ID_MAX 64

/* Runs every check on bank.  Problems are counted by diag.h. */
void qb_validate(const qb_bank *bank);
/* The same, but a text without a text in lang (NULL: none), a language
 * being translated, is not an error: `qbc translate import` of a new
 * language's first part. */
void qb_validate_unfinished(const qb_bank *bank, const char *lang);

/* The questions without an explanation in a bank that says
 * 'explanations: optional' (0 in any other bank: there each is an error). */
size_t qb_validate_unexplained(const qb_bank *bank);

/* True when s is a valid id: 1..QB_ID_MAX of [A-Za-z0-9_-].  When it is
 * not, *bad is the byte offset of the first offending character (or the
 * length when it is too long or empty). */
bool qb_id_valid(const char *s, size_t *bad);

#endif
