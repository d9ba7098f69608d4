/* write.h - the writer interface and registry (cmark's renderers).
 *
 * The registry below is the single list of outputs.  A writer turns a
 * checked, error-free `const qb_bank *` into one output file.  It never
 * looks at source syntax, never looks itself up here and never decides
 * what the render layer decides once for every writer (render.h): the
 * languages and the fallback of each text, the times, the output path,
 * the media, the labels and the Markdown.  It returns 0, or -1 after
 * reporting through the context; on failure it leaves no partial output
 * behind and any earlier output in place (write to a temporary file, then
 * rename). */
#ifndef QB_WRITE_H
#define QB_WRITE_H

#include <time.h>

#include "model.h"

/* What the driver builds for a bank; the render layer turns it into a
 * qb_render_ctx for each writer. */
typedef struct qb_build_opts {
	const char *outdir;        /* existing folder for the outputs          */
	const char *const *langs;  /* languages to write, in bank order        */
	size_t nlangs;             /* 0: every declared language              */
	time_t epoch;              /* the latest time in the revision record:
	                              for zip members and whole-package times  */
	const char *templates_dir; /* the templates/ folder; NULL if not found  */
	const struct qb_rev_times *times; /* what the bank's revision record
	                              says of its questions and templates:
	                              every time a writer stamps comes from it
	                              (NULL: use epoch everywhere)             */
	unsigned long seed;        /* --seed: the printed version the HTML file
	                              opens its print screen with (0: the
	                              bank's order), at most QB_SEED_MAX       */
} qb_build_opts;

#define QB_SEED_MAX 999999

/* What qb_render_write() returns. */
typedef enum qb_write_status {
	QB_WRITE_OK = 0, /* the output was written                              */
	QB_WRITE_EBANK,  /* the bank cannot be written in this format (a format
	                    limit); reported at the bank's text                 */
	QB_WRITE_EIO     /* an I/O or library failure                           */
} qb_write_status;

typedef struct qb_render_ctx qb_render_ctx; /* render.h */

/* A writer: 0, or -1 after reporting through ctx (render.h). */
typedef int (*qb_write_fn)(const qb_render_ctx *ctx, const qb_bank *bank);
/* A format's rules: what the format cannot express, reported with
 * qb_render_error() (an error) or qb_diag_warning() (written the nearest
 * way, and said so).  It reads the bank only; it writes nothing.  `qbc
 * check` runs it, and `qbc build` runs it for every selected format before
 * the first is written, so a warning under --werror stops the build. */
typedef void (*qb_check_fn)(const qb_render_ctx *ctx, const qb_bank *bank);
/* Work a writer starts before the revision record is worked out, from the
 * bank, its languages and the templates alone (ctx has no record, no
 * times and no output path yet), so that it runs on another core while the record is read
 * and updated.  The write finds it as ctx->early; the render layer hands
 * it to qb_end_fn after the write, or instead of it when the build stops
 * before writing.  NULL: nothing started. */
typedef void *(*qb_begin_fn)(const qb_render_ctx *ctx, const qb_bank *bank);
typedef void (*qb_end_fn)(void *early);

typedef struct qb_writer {
	const char *name;      /* as given to --format                        */
	const char *ext;       /* output file name: <bank-id><ext>            */
	const char *desc;      /* one line for --help                         */
	bool by_default;       /* built when --format is not given            */
	bool make;             /* built by make for every bank in input/      */
	const char *templates; /* its folder under templates/, or NULL        */
	qb_write_fn write;
	qb_check_fn check;     /* its format's rules, or NULL                */
	unsigned types;        /* question types it writes besides single and
	                          multiple: QB_TYPE_BIT()s, or QB_TYPES_ALL;
	                          a bank with another type fails to build in
	                          this format with one error per question    */
	qb_begin_fn begin;     /* work started early, or NULL (with end)     */
	qb_end_fn end;
	bool per_lang;         /* one output per language written,
	                          <bank-id>.<lang><ext> (QTI: an LMS imports a
	                          package of one test); the writer is given
	                          <bank-id><ext> and names each from it      */
} qb_writer;

#define QB_TYPE_BIT(t) (1u << (unsigned)(t))
#define QB_TYPES_ALL ((1u << QB_QTYPE_COUNT) - 1)

/* True when w can write questions of type (render.c). */
bool qb_writer_supports(const qb_writer *w, qb_qtype type);

/* The folder under templates/ that every writer uses (the label
 * catalogues, render.h); the revision record times it like a writer's. */
#define QB_LABELS_DIR "labels"

/* The registry, in the order outputs are built; terminated by a NULL name.
 * It is the one list of outputs: `--format all` and `--format make`, the
 * Makefile and the revision record's template folders all follow it. */
extern const qb_writer qb_writers[];

/* The writer called name, or NULL. */
const qb_writer *qb_writer_find(const char *name);

/* <outdir>/<bank-id><ext> in a fresh heap string. */
char *qb_writer_output_path(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts);

/* The files w writes for bank: <outdir>/<bank-id><ext>, or for a
 * per_lang writer <outdir>/<bank-id>.<lang><ext> for each language opts
 * names (every declared one when it names none); *out holds *n heap
 * strings (free each, then the array). */
void qb_writer_outputs(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts,
                       char ***out, size_t *n);

/* path, a per_lang writer's <...>/<bank-id><ext>, as the file of lang:
 * <...>/<bank-id>.<lang><ext> (a fresh heap string). */
char *qb_writer_lang_path(const char *path, const char *ext, const char *lang);

/* Runs the rules of w's format for bank (render.c): the question types
 * it writes, then w->check, on the languages opts names.  Returns a
 * qb_write_status (QB_WRITE_EBANK after an error).  Warnings are told
 * apart by the caller with a qb_diag_mark. */
int qb_render_check(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts);

/* Runs writer w for bank (render.c), once qb_render_check() passed:
 * builds its context (languages, times, output path, labels), calls it
 * and says how it went: a qb_write_status.  qb_render_begin() and
 * qb_render_finish() in one call. */
int qb_render_write(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts);

/* One output in two steps, so that a writer's early work (qb_begin_fn)
 * overlaps the revision record: qb_render_begin() builds the context from
 * opts' languages and templates (not its record, times or output path)
 * and starts w->begin; qb_render_finish() adds the record, times and
 * output path from opts, writes, frees the job and returns a
 * qb_write_status.
 * qb_render_discard() frees a job that is not to be written. */
typedef struct qb_render_job qb_render_job;
qb_render_job *qb_render_begin(const qb_writer *w, const qb_bank *bank,
                               const qb_build_opts *opts);
int qb_render_finish(qb_render_job *job, const qb_build_opts *opts);
void qb_render_discard(qb_render_job *job);

/* ---- the writers (one file each) and their formats' rules ---- */
int qb_write_json(const qb_render_ctx *ctx, const qb_bank *bank);
/* write_csv.c: the spreadsheet `qbc import` reads back. */
int qb_write_csv(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_csv(const qb_render_ctx *ctx, const qb_bank *bank);
int qb_write_anki(const qb_render_ctx *ctx, const qb_bank *bank);
void *qb_begin_anki(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_end_anki(void *early);
/* SCORM 1.2 and SCORM 2004 4th Edition zips for Moodle (write_scorm.c). */
int qb_write_scorm12(const qb_render_ctx *ctx, const qb_bank *bank);
int qb_write_scorm2004(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_scorm12(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_scorm2004(const qb_render_ctx *ctx, const qb_bank *bank);
/* Moodle XML for a course's question bank (write_moodlexml.c). */
int qb_write_moodlexml(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_moodlexml(const qb_render_ctx *ctx, const qb_bank *bank);
/* IMS QTI 2.1 and 3.0 content packages (write_qti.c). */
int qb_write_qti21(const qb_render_ctx *ctx, const qb_bank *bank);
int qb_write_qti30(const qb_render_ctx *ctx, const qb_bank *bank);
/* Formulas: blahtexml must be installed and convert each to MathML. */
void qb_check_qti21(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_qti30(const qb_render_ctx *ctx, const qb_bank *bank);
/* The player as one offline HTML file, with its paper versions (write_html.c). */
int qb_write_html(const qb_render_ctx *ctx, const qb_bank *bank);
void qb_check_html(const qb_render_ctx *ctx, const qb_bank *bank);

#endif
