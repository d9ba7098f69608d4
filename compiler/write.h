/* write.h - the writer interface and registry (cmark's renderers).
 *
 * A writer turns a checked, error-free `const qb_bank *` into one output
 * file in opts->outdir.  It never looks at source syntax.  It reports
 * problems through diag.h and returns QB_EXIT_OK, QB_EXIT_ERRORS (the bank
 * cannot be written in this format, e.g. it exceeds a format limit) or
 * QB_EXIT_IO.  On failure it leaves no partial output behind and any
 * earlier output in place (write to a temporary file, then rename). */
#ifndef QB_WRITE_H
#define QB_WRITE_H

#include <time.h>

#include "model.h"

typedef struct qb_build_opts {
	const char *outdir;        /* existing folder for the outputs          */
	const char *const *langs;  /* languages to write, in bank order        */
	size_t nlangs;
	time_t epoch;              /* the latest time in the revision record:
	                              for zip members and whole-package times  */
	const char *templates_dir; /* the templates/ folder; NULL if not found  */
	const struct qb_revisions *rev; /* the bank's revision record: every
	                              time a writer stamps comes from it
	                              (NULL: use epoch everywhere)             */
} qb_build_opts;

typedef int (*qb_write_fn)(const qb_bank *bank, const qb_build_opts *opts);

typedef struct qb_writer {
	const char *name;    /* as given to --format                          */
	const char *ext;     /* output file name: <bank-id><ext>              */
	const char *desc;    /* one line for --help                           */
	bool by_default;     /* built when --format is not given              */
	qb_write_fn write;
} qb_writer;

/* The registry, in the order outputs are built; terminated by a NULL name. */
extern const qb_writer qb_writers[];

/* The writer called name, or NULL. */
const qb_writer *qb_writer_find(const char *name);

/* <outdir>/<bank-id><ext> in a fresh heap string. */
char *qb_writer_output_path(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts);

/* ---- the writers (one file each) ---- */
int qb_write_json(const qb_bank *bank, const qb_build_opts *opts);
int qb_write_anki(const qb_bank *bank, const qb_build_opts *opts);
/* SCORM 1.2 and SCORM 2004 4th Edition zips for Moodle (write_scorm.c). */
int qb_write_scorm12(const qb_bank *bank, const qb_build_opts *opts);
int qb_write_scorm2004(const qb_bank *bank, const qb_build_opts *opts);
/* Moodle XML for a course's question bank (write_moodlexml.c). */
int qb_write_moodlexml(const qb_bank *bank, const qb_build_opts *opts);

#endif
