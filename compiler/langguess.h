/* langguess.h - the language of texts that do not say theirs (an import
 * without --lang), guessed with libexttextcat's n-gram fingerprints
 * (Debian's libexttextcat-data). */
#ifndef QB_LANGGUESS_H
#define QB_LANGGUESS_H

#include <stddef.h>

#define QB_LANGGUESS_LEN 36

typedef struct qb_langguess {
	char code[QB_LANGGUESS_LEN];   /* BCP 47 ("sw"), "" when no guess     */
	char second[QB_LANGGUESS_LEN]; /* the next candidate when the texts
	                                  read almost as well in it, else ""  */
	size_t agree;                  /* texts that read as code alone       */
	size_t of;                     /* texts long enough to be read alone  */
} qb_langguess;

/* Guesses the one language of texts[0..n) (a question's texts each): all
 * of them together (the first QB_LANGGUESS_MAX bytes) give the guess, and
 * each alone says how sure it is (agree of of).  0, with out->code "" when
 * the texts are too short or unlike any language, or read as a language
 * qbc does not name (lang.c) and most of at least three questions do not
 * agree; -1 when the library's
 * data cannot be read (nothing reported: the caller says what it takes). */
int qb_langguess_texts(const char *const *texts, size_t n, qb_langguess *out);

/* The most bytes read for the guess. */
#define QB_LANGGUESS_MAX (64 * 1024)

#endif
