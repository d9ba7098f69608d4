/* diag.h - compiler-style diagnostics, collected and never fatal.
 *
 *   input/x.qb:12:5: error: question 'allreduce' has no Kiswahili ('sw') explanation
 *      12 |    en: ...
 *         |    ^
 *
 * The format follows the GNU Coding Standards ("Formatting Error
 * Messages").  Source lines are found through qb_diag_add_source(), which
 * readers call with the text they parsed.  Colour is used only when stderr
 * is a terminal and NO_COLOR is unset.  A long source line is quoted as a
 * window around the caret, with "..." where it is cut, and a 'quoted'
 * id or text inside a message shows at most 64 characters, then "…".
 *
 * Callers that need to know whether a step reported an error take a mark
 * before it and ask for the errors since:
 *
 *   qb_diag_mark m = qb_diag_mark_now();
 *   qb_validate(bank);
 *   if (qb_diag_errors_since(m)) ...                                    */
#ifndef QB_DIAG_H
#define QB_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "qb.h"

typedef enum qb_diag_level {
	QB_DIAG_ERROR,
	QB_DIAG_WARNING,
	QB_DIAG_NOTE
} qb_diag_level;

/* Registers the text of a source file so diagnostics can quote its lines,
 * in place of an earlier text of that file.  The text is copied, unless
 * it is already the registered text of file (the same pointer): then
 * nothing happens.  file must be the same string used in the qb_loc values
 * of that file. */
void qb_diag_add_source(const char *file, const char *text, size_t len);
/* The same, taking text (from malloc) instead of a copy: the caller that
 * read a whole file hands it over, and its memory is not spent twice. */
void qb_diag_add_source_owned(const char *file, char *text, size_t len);
/* Frees the registered text of file (a bank, once read and checked),
 * keeping its hash: a later quotation reads the file again and quotes it
 * only when it still holds that text.  A build then does not keep a copy
 * of the bank for the few diagnostics that come after the checks. */
void qb_diag_drop_source(const char *file);
/* A source read a block at a time: quotes read the file again.  The
 * reader feeds each block as it reads it, and says when it is done; from
 * then on a file that no longer holds what was read is not quoted. */
void qb_diag_add_source_file(const char *file);
void qb_diag_source_feed(const char *file, const char *data, size_t len);
void qb_diag_source_done(const char *file);

/* The format is translated here (gettext), so callers pass the English
 * text and `make pot` extracts it.  A message already formatted from a
 * translated format is passed with QB_DIAG_AS_IS, which no catalogue
 * holds. */
#define QB_DIAG_AS_IS "%s"
void qb_diag_error(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
void qb_diag_warning(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
/* The same for a wrapper that takes its own arguments. */
void qb_diag_vwarning(qb_loc loc, const char *fmt, va_list ap) QB_PRINTF(2, 0);
void qb_diag_note(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
/* A problem that is not tied to a bank position (I/O, library failure):
 * printed as "qbc: error: ..." and counted as an error. */
void qb_diag_fatal(const char *fmt, ...) QB_PRINTF(1, 2);

/* Until called again with NULL, every diagnostic of this thread is about
 * the output format called name (its --format name) and says so after its
 * kind: "warning: [moodlexml] ...".  The driver sets it around a format's
 * rules and its writer, so that a teacher sees which output a message is
 * for. */
void qb_diag_set_format(const char *name);

/* --werror: warnings are printed and counted as errors. */
void qb_diag_set_werror(bool on);
/* Sends the diagnostics (and summaries) to f instead of stderr, without
 * colour; NULL restores stderr.  `qbc preview` captures them this way
 * (open_memstream()) to show them in the page exactly as printed. */
void qb_diag_set_stream(FILE *f);
/* --max-errors, as clang's -ferror-limit: after n errors (default 50; 0:
 * no limit) until the next summary, errors are counted but not printed,
 * nor the notes that follow them, and the summary ends with a line that
 * says how many more there were. */
void qb_diag_set_max_errors(unsigned long n);
/* Overrides the colour decision (for tests); -1 restores auto. */
void qb_diag_set_color(int on);

/* Diagnostics of a step run on another thread, kept there and reported
 * later by the main thread, in their order: qb_diag_later_begin() on the
 * thread sends its diagnostics and sources into a new list until
 * qb_diag_later_end() returns it; qb_diag_later_report() reports them (with
 * --werror, --max-errors and the counts as if reported then) and frees
 * the list, qb_diag_later_free() drops them.  A location's file must live
 * until the list is reported. */
typedef struct qb_diag_later qb_diag_later;
void qb_diag_later_begin(void);
qb_diag_later *qb_diag_later_end(void);
void qb_diag_later_report(qb_diag_later *l);
void qb_diag_later_free(qb_diag_later *l);
/* While diagnostics are kept (qb_diag_later_begin()), registers text for
 * file without a copy: the caller keeps it until the list is reported
 * (which copies it) or freed, and a reader's qb_diag_add_source() of the
 * same text then copies nothing.  translate import reads back the bank it
 * edited from the text it is about to write.  Without a list, the same
 * as qb_diag_add_source(). */
void qb_diag_later_borrow_source(const char *file, const char *text, size_t len);
/* Each diagnostic of l in order (its message translated), for a caller
 * that reports them at other places (translate import: a bank it did not
 * write is no place to point at). */
typedef void (*qb_diag_later_fn)(void *payload, qb_diag_level level, qb_loc loc,
                                 const char *message);
void qb_diag_later_each(const qb_diag_later *l, qb_diag_later_fn fn, void *payload);

/* Every error reported so far (for unit tests; callers use a mark). */
unsigned long qb_diag_errors(void);
/* A point in the stream of diagnostics. */
typedef struct qb_diag_mark {
	unsigned long errors, warnings;
} qb_diag_mark;
qb_diag_mark qb_diag_mark_now(void);
/* The number of errors (warnings under --werror included) reported since m. */
unsigned long qb_diag_errors_since(qb_diag_mark m);
/* The number of warnings (not turned into errors) reported since m. */
unsigned long qb_diag_warnings_since(qb_diag_mark m);
/* Prints "N errors, M warnings generated." for what was reported since
 * the last summary (or the start), when there was anything. */
void qb_diag_summary(void);
/* Frees the registered sources. */
void qb_diag_dispose(void);

#endif
