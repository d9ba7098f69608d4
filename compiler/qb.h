/* qb.h - definitions shared by every module of qbc: version, exit codes,
 * source locations and a few compiler attributes.  Every .c file of the
 * compiler includes it (usually through its own header). */
#ifndef QB_H
#define QB_H

#include <stdbool.h>
#include <stddef.h>

#define QB_VERSION "0.1.0"

/* Exit codes of the qbc binary (DEVELOPERS.md, "Quality bar"). */
enum {
	QB_EXIT_OK = 0,     /* success                                   */
	QB_EXIT_ERRORS = 1, /* the bank has errors                       */
	QB_EXIT_USAGE = 2,  /* bad command line                          */
	QB_EXIT_IO = 3      /* I/O or library failure                    */
};

#if defined(__GNUC__)
#define QB_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define QB_NORETURN __attribute__((noreturn))
#else
#define QB_PRINTF(fmt, args)
#define QB_NORETURN
#endif
#define QB_UNUSED(x) ((void)(x))
#define QB_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A position in a source file.  line and col are 1-based; col counts
 * characters (code points), not bytes, as the GNU Coding Standards ask.
 * line == 0 means "no position" (a whole-file or command-line problem). */
typedef struct qb_loc {
	const char *file; /* path as given on the command line (not owned)   */
	int line;         /* 1-based line, 0 if unknown                      */
	int col;          /* 1-based column in characters, 0 if unknown      */
} qb_loc;
/* A qb_loc in an argument list.  xgettext, which extracts the messages
 * (make pot), takes the commas of a compound literal for separators of
 * arguments, and would miss the message after it. */
#define QB_LOC(file, line, col) ((qb_loc){(file), (line), (col)})

#endif
