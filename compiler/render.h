/* render.h - the render layer: what sits between the model and every
 * writer, decided once.
 *
 * qb_render_write() (declared in write.h, the driver's one call per
 * output) builds a qb_render_ctx for the writer and calls it.  The
 * context says which languages to write and how each text falls back,
 * which times to stamp, where the output goes and which labels each
 * language shows.  Writers use the functions below for everything that is
 * not their format:
 *
 *   texts     qb_render_tr(), qb_render_md(): "this language, else the
 *             bank's default";
 *   times     ctx->latest, ctx->templates_time, qb_render_question_time();
 *   media     qb_render_media() collects and reads every image once,
 *             before rendering, with the writer's naming callback;
 *   Markdown  qb_render_html(), qb_render_plain() (md4c, raw HTML off,
 *             images named through the media set, unsafe links defused);
 *   labels    qb_render_label(), qb_render_label_expand(),
 *             qb_render_lang_name(), qb_render_lang_dir() over one
 *             catalogue format (templates/labels/<code>.json, overridden
 *             by <bank-dir>/labels/<code>.json; templates/labels/README.md);
 *   failure   qb_render_error() for "the bank cannot be written in this
 *             format"; a writer that returns -1 without it reported an
 *             I/O or library failure (through diag.h, as zipw.c and
 *             template.c do).
 *
 * A writer is `int qb_write_<name>(const qb_render_ctx *, const qb_bank *)`
 * returning 0 or -1 (write.h). */
#ifndef QB_RENDER_H
#define QB_RENDER_H

#include <time.h>

#include "buf.h"
#include "markup.h"
#include "model.h"
#include "write.h"

typedef struct qb_labels qb_labels;             /* the resolved catalogues */
typedef struct qb_render_state qb_render_state; /* what a writer reports    */

struct qb_render_ctx {
	const qb_writer *writer;
	const qb_bank *bank;
	const char *const *langs;  /* languages to write, in bank order; never
	                              empty                                    */
	size_t nlangs;
	const char *main_lang;     /* for parts that have one language (titles,
	                              the first screen): the bank's default when
	                              it is written, else langs[0]            */
	const char *path;          /* the output file: <outdir>/<bank-id><ext> */
	const char *templates_dir; /* templates/ (never NULL)                   */
	time_t latest;             /* the latest time in the revision record:
	                              zip members, whole-package times         */
	time_t templates_time;     /* when the writer's templates folder or the
	                              labels last changed; else latest         */
	unsigned revision;         /* the record's revision number (>= 1); it
	                              increases with content                  */
	const struct qb_rev_times *times; /* the record's times; NULL: no record */
	unsigned long seed;        /* --seed (write.h), for the HTML's print  */
	qb_labels *labels;
	qb_render_state *state;
	void *early;               /* the writer's qb_begin_fn result, or NULL */
};

/* ---- texts ---- */

/* The translation of t shown in lang: lang's own, else the bank's default
 * language's, else NULL. */
const qb_tr *qb_render_tr(const qb_render_ctx *ctx, const qb_text *t, const char *lang);
/* Its Markdown, or "" when there is none. */
const char *qb_render_md(const qb_render_ctx *ctx, const qb_text *t, const char *lang);

/* ---- parameterised questions (params.h) ---- */

/* Draw k of q (k < qb_question_ndraws(q)): a plain question made in arena,
 * whose every text in every language has each '{h}', '{=formula}' and
 * '{answer}' replaced by draw k's value written with that language's
 * decimal mark, and whose numeric answer (qb_question_num()) is draw k's
 * with its tolerance; a cloze gap '{{#{t} ± 0.1}}' becomes a plain numeric
 * gap.  It has no parameters itself.  A question that is not
 * parameterised is returned as it is. */
const qb_question *qb_render_draw(const qb_render_ctx *ctx, qb_arena *arena,
                                  const qb_question *q, size_t k);
/* How lang writes a number's decimal mark (its label "decimalMark"). */
const char *qb_render_decimal_mark(const qb_render_ctx *ctx, const char *lang);

/* ---- times ---- */

/* When what the writer shows of q (one of ctx->bank's questions) last
 * changed: the latest of its times in every written language and
 * ctx->templates_time (ctx->latest without a record).  Worked out once per
 * question, as writers ask for it once per question and language. */
time_t qb_render_question_time(const qb_render_ctx *ctx, const qb_question *q);

/* ---- media ---- */

/* Names a picture in the output from its path as written ("media/a.png")
 * and its bytes: a heap string. */
typedef char *(*qb_media_name_fn)(const char *src, const unsigned char *data, size_t len);

typedef struct qb_media {
	char *name;          /* the name the naming callback gave            */
	unsigned char *data; /* the file's bytes                             */
	size_t len;
	qb_media_kind kind;  /* a picture or a sound (markup.h)              */
} qb_media;

typedef struct qb_media_set {
	qb_media *files;     /* one per distinct name, in bank order         */
	size_t nfiles;
	char **srcs;         /* every src as written ...                     */
	size_t *file_of;     /* ... and the index of its file                */
	size_t nsrcs;
} qb_media_set;

/* Reads every picture and sound the written languages show (each
 * question's prompt, options with their matching right sides and
 * feedback, its default feedback and explanation, then the bank's
 * description, each text in every written language) into set, named by
 * name.  A file that cannot be
 * read is reported at the text that names it.  Returns 0, or -1 after
 * reporting (set is then empty). */
int qb_render_media(const qb_render_ctx *ctx, qb_media_name_fn name, qb_media_set *set);
/* A naming callback for writers that put media in a folder of their
 * package (SCORM, QTI): "media/<16 hex of sha256>.<ext>", made of safe
 * characters only; the extension lower case, letters and digits only
 * (file names Moodle keeps unchanged: scorm-moodle.md section 1). */
char *qb_render_media_hashed_name(const char *src, const unsigned char *data, size_t len);
/* The output name of src, or NULL when set does not hold it. */
const char *qb_media_find(const qb_media_set *set, const char *src);
/* Adds the index in set->files of src's file to the list (*used, *nused)
 * unless it is there: the files a part of an output shows (an item, a
 * question), each once.  Nothing when set does not hold src. */
void qb_media_note(const qb_media_set *set, const char *src, size_t **used, size_t *nused);
void qb_media_set_dispose(qb_media_set *set);

/* ---- Markdown ---- */

/* Appends the inline HTML of md (markup.h, QB_MARKUP_INLINE): pictures get
 * their names from media (kept as written when media is NULL or lacks
 * them).  Returns 0, or -1 after reporting (out of memory). */
int qb_render_html(const qb_render_ctx *ctx, qb_buf *out, const char *md,
                   const qb_media_set *media);
/* Appends the plain text of md. */
void qb_render_plain(qb_buf *out, const char *md);

/* ---- labels ---- */

/* The label key of the user interface in lang (a written language), never
 * NULL: the catalogue's string, "" for a key no catalogue has. */
const char *qb_render_label(const qb_render_ctx *ctx, const char *lang, const char *key);
/* Appends the label with each "{name}" replaced by the value that follows
 * name in vars ({"lang", "Kiswahili", NULL}); unknown names stay. */
void qb_render_label_expand(const qb_render_ctx *ctx, qb_buf *out, const char *lang,
                            const char *key, const char *const *vars);
/* The name of language code in the language ui: ui's catalogue's
 * languageNames, else code's own name (qb_render_lang_own_name). */
const char *qb_render_lang_name(const qb_render_ctx *ctx, const char *ui, const char *code);
/* Calls fn for each written language whose name ui's catalogue holds (the
 * first choice of qb_render_lang_name(), its languageNames), in written
 * order, with that name; O(the catalogue's names), however many languages
 * are written. */
typedef void (*qb_render_name_fn)(void *payload, const char *code, const char *name);
void qb_render_lang_names(const qb_render_ctx *ctx, const char *ui, qb_render_name_fn fn,
                          void *payload);
/* The language's name in itself: its catalogue's "name", else lang.c's
 * table, else the code. */
const char *qb_render_lang_own_name(const qb_render_ctx *ctx, const char *code);
/* The writing direction of a written language: "ltr" or "rtl", for a
 * dir="..." attribute on its text. */
const char *qb_render_lang_dir(const qb_render_ctx *ctx, const char *lang);

/* Warns once for each declared language whose labels are missing or
 * incomplete, naming the missing keys and the language used instead.
 * The driver calls it once per bank (qb_render_write() does not warn).
 * Returns -1, silently, when a catalogue cannot be read: the writers
 * report that as an I/O failure. */
int qb_render_check_labels(const qb_bank *bank, const char *templates_dir);

/* ---- failure ---- */

/* Reports at loc that the bank cannot be written in this format (a limit
 * of the format); qb_render_write() then returns QB_WRITE_EBANK. */
void qb_render_error(const qb_render_ctx *ctx, qb_loc loc, const char *fmt, ...)
	QB_PRINTF(3, 4);

#endif
