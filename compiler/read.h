/* read.h - the readers (front ends).  A reader turns one source file into
 * a qb_bank and knows no output format.  Syntax problems are reported
 * through diag.h as they are found; the bank is returned even when it has
 * errors, so that the checks can report everything in one run. */
#ifndef QB_READ_H
#define QB_READ_H

#include "model.h"

/* Reads the bank at path with the reader for its format.  Returns NULL,
 * after a diagnostic, only when the file cannot be read at all (I/O);
 * the caller frees the bank with qb_bank_free(). */
qb_bank *qb_read(const char *path);

/* ---- the plain-text reader (read_text.c) ---- */

/* The text is given whole (it stays the caller's). */
qb_bank *qb_read_text(const char *path, const char *data, size_t len);
/* The file at path, read block bytes at a time (0: 1 MiB): the reader
 * keeps only the lines it still looks at, never the whole text.  NULL
 * after a diagnostic when the file cannot be read. */
qb_bank *qb_read_file(const char *path, size_t block);

/* The classification of one source line, free of model code so that it
 * can be unit-tested alone (md4c's md_analyze_line). */
typedef enum qb_line_kind {
	QB_LINE_BLANK,
	QB_LINE_COMMENT,   /* # ...                                            */
	QB_LINE_QUESTION,  /* 12. id                                           */
	QB_LINE_OPTION,    /* - text, * text (correct), • text; also – text;
	                      -! and *! pin the option                         */
	QB_LINE_FEEDBACK,  /* > text                                           */
	QB_LINE_TR,        /* en: text                                         */
	QB_LINE_KEY,       /* languages: en sw   (a known keyword)             */
	QB_LINE_BADKEY,    /* word: ...          (an unknown keyword)          */
	QB_LINE_TEXT       /* anything else                                    */
} qb_line_kind;

typedef struct qb_line {
	qb_line_kind kind;
	size_t indent;     /* bytes of leading white space                     */
	long number;       /* QB_LINE_QUESTION: the number                     */
	bool correct;      /* QB_LINE_OPTION: marked '*'                       */
	bool pinned;       /* QB_LINE_OPTION: '!' right after the mark          */
	size_t badmark;    /* QB_LINE_OPTION: bytes of a look-alike mark that
	                    * is not an option mark ('–', '∗', '◦', ...); 0 for
	                    * '-', '*' and '•'                                 */
	size_t mark;       /* QB_LINE_OPTION: offset of a mark after the bullet
	                    * ('- -25% en: ...', issue 36), followed by the end
	                    * of the line or a language tag; rest is after it */
	size_t marklen;    /* its bytes; 0 when there is none                  */
	size_t word;       /* offset of the keyword or language tag            */
	size_t wordlen;
	size_t rest;       /* offset of what follows the marker, tag or key    */
} qb_line;

/* Classifies s[0..len) (one line without its terminator). */
void qb_line_classify(const char *s, size_t len, qb_line *out);

/* The keywords of the format, for messages and suggestions. */
extern const char *const qb_text_keywords[];

#endif
