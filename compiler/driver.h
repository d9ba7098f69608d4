/* driver.h - what the commands do, bank by bank: read and check, lock,
 * update the revision record, write every output, save the record.
 *
 * main.c parses the command line and maps the driver's status to the
 * process exit code; nothing here knows exit codes or argv. */
#ifndef QB_DRIVER_H
#define QB_DRIVER_H

#include <stdarg.h>

#include "qb.h"

/* Worse statuses come later: a run returns the worst of its banks. */
typedef enum qb_drv_status {
	QB_DRV_OK,          /* done                                            */
	QB_DRV_BANK_ERRORS, /* a bank has errors (or warnings under --werror)  */
	QB_DRV_USAGE,       /* a value on the command line does not fit a bank */
	QB_DRV_IO           /* I/O or library failure                          */
} qb_drv_status;

typedef struct qb_drv_opts {
	const char *outdir;             /* -o; NULL: "output"                */
	const char *formats;            /* --format list; NULL: the defaults */
	const char *langs;              /* --lang; NULL: every language      */
	bool dry_run;                   /* build --dry-run                   */
	const char *const *questions;   /* review --question                 */
	size_t nquestions;
	const char *const *banks;       /* the bank files                    */
	size_t nbanks;
	const char *argv0;              /* to find templates/                */
	const char *command;            /* for "try 'qbc COMMAND --help'"    */
	const char *host;               /* preview --host; NULL: 127.0.0.1   */
	int port;                       /* preview --port; -1: 8000 or next  */
	bool quiet;                     /* check --quiet: no line per bank   */
	const char *from;               /* import --from                     */
	const char *bank_id;            /* import --bank                     */
	bool split;                     /* import --split                    */
	bool reviewed;                  /* translate import --reviewed       */
	long seed;                      /* build --seed (write.h)            */
} qb_drv_opts;

qb_drv_status qb_drv_check(const qb_drv_opts *o);
qb_drv_status qb_drv_dump(const qb_drv_opts *o);
qb_drv_status qb_drv_build(const qb_drv_opts *o);
qb_drv_status qb_drv_review(const qb_drv_opts *o);
/* qbc import (import.c): each of banks, in another format, into a new
 * .qb (outdir: the .qb's path, for one file). */
qb_drv_status qb_drv_import(const qb_drv_opts *o);
/* qbc translate (translate_cmd.c): banks[0] is "export" (then a bank)
 * or "import" (then a PO or XLIFF file and a bank). */
qb_drv_status qb_drv_translate(const qb_drv_opts *o);
/* Builds, then rebuilds each bank whenever it or a picture it shows is
 * saved; returns only on failure. */
qb_drv_status qb_drv_watch(const qb_drv_opts *o);

/* Serves a live page of the banks' cards and players (preview.h) and
 * rebuilds it whenever a bank, a picture or a labels file is saved;
 * returns on Ctrl-C or SIGTERM (QB_DRV_OK) or on failure. */
qb_drv_status qb_drv_preview(const qb_drv_opts *o);

/* Prints "qbc: <message>" and "qbc: try 'qbc CMD --help'" (or 'qbc
 * --help' when cmd is NULL) to stderr: the one form of a usage error. */
void qb_drv_usage(const char *cmd, const char *fmt, ...) QB_PRINTF(2, 3);
void qb_drv_vusage(const char *cmd, const char *fmt, va_list ap) QB_PRINTF(2, 0);

#endif
