/* diag.h - compiler-style diagnostics, collected and never fatal.
 *
 *   input/x.qb:12:5: error: question 'allreduce' has no Kiswahili ('sw') explanation
 *      12 |    en: ...
 *         |    ^
 *
 * The format follows the GNU Coding Standards ("Formatting Error
 * Messages").  Source lines are found through qb_diag_add_source(), which
 * readers call with the text they parsed.  Colour is used only when stderr
 * is a terminal and NO_COLOR is unset.  The counters decide the exit code. */
#ifndef QB_DIAG_H
#define QB_DIAG_H

#include "qb.h"

typedef enum qb_diag_level {
	QB_DIAG_ERROR,
	QB_DIAG_WARNING,
	QB_DIAG_NOTE
} qb_diag_level;

/* Registers the text of a source file so diagnostics can quote its lines.
 * The text is copied.  file must be the same pointer or string used in the
 * qb_loc values of that file. */
void qb_diag_add_source(const char *file, const char *text, size_t len);

void qb_diag_error(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
void qb_diag_warning(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
void qb_diag_note(qb_loc loc, const char *fmt, ...) QB_PRINTF(2, 3);
/* A problem that is not tied to a bank position (I/O, library failure):
 * printed as "qbc: error: ..." and counted as an error. */
void qb_diag_fatal(const char *fmt, ...) QB_PRINTF(1, 2);

/* --werror: warnings are printed and counted as errors. */
void qb_diag_set_werror(bool on);
/* Overrides the colour decision (for tests); -1 restores auto. */
void qb_diag_set_color(int on);

unsigned qb_diag_errors(void);
/* Resets the counters (not the sources). */
void qb_diag_reset_counts(void);
/* Prints "N errors, M warnings generated." when there was anything. */
void qb_diag_summary(void);
/* Frees the registered sources. */
void qb_diag_dispose(void);

#endif
