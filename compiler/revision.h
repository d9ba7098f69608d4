/* revision.h - the revision record kept next to a bank (input/x.lock).
 *
 * For each question and language it holds a content hash (its texts and
 * the bytes of the images they show) and the time that content last changed; for each text element and language, the
 * hash of the text and of the other languages' texts it was last written
 * or reviewed against (a gettext-style "fuzzy" marker); and the same hash
 * and time for each template folder.  Writers take every time they stamp
 * from it, so the same bank, record and templates give byte-identical
 * outputs, and a note's time moves only when its content changed.
 *
 * `qbc build` creates and updates the record, `qbc check` only reads it,
 * `qbc review` marks translations as reviewed. */
#ifndef QB_REVISION_H
#define QB_REVISION_H

#include <time.h>

#include "buf.h"
#include "fsutil.h"
#include "model.h"

typedef struct qb_revisions qb_revisions;

/* What an update changed, for the change report.  Arrays of ids in
 * source order (removed: in the record's order); owned by the report. */
typedef struct qb_rev_report {
	char **added, **changed, **removed;
	size_t nadded, nchanged, nremoved;
	bool templates_changed; /* a template folder's content changed     */
	bool created;           /* there was no record before              */
} qb_rev_report;

/* The record's path for a bank: the bank path with ".qb" replaced by
 * ".lock" (or ".lock" appended).  A heap string. */
char *qb_rev_path(const char *bank_path);

/* Reads the record at path.  A missing file gives an empty record
 * (qb_rev_number() 0).  Returns NULL after diagnostics when the file exists
 * but cannot be read (io true) or is malformed (io false). */
qb_revisions *qb_rev_load(const char *path, bool *io);
void qb_rev_free(qb_revisions *rev);

/* Every text's hashes, which the stale check and the update both need,
 * and every question's, which the update needs: qb_rev_hashes_start()
 * works them out on other threads (the bank must not change until
 * qb_rev_hashes_free()), while the caller goes on checking the bank and
 * reading its record; the first use waits for them.
 * The functions below take NULL too, and then hash as they go. */
typedef struct qb_rev_hashes qb_rev_hashes;
qb_rev_hashes *qb_rev_hashes_start(const qb_bank *bank);
/* The same, keeping at most about budget bytes of hashes (a window of the
 * rows, hashed again for a second pass; at least a few hundred rows).
 * qb_rev_hashes_start() gives it a twelfth of qb_mem_room(), 2 to 16 MiB; the
 * tests give it less, so that
 * a small bank takes the windowed path. */
qb_rev_hashes *qb_rev_hashes_start_budget(const qb_bank *bank, size_t budget);
/* Starts the next pass over the rows now, when they do not all fit in
 * the budget (about 60,000 texts in two languages): the build calls it
 * after the stale check, so that the update finds its first rows hashed
 * while it works out the question times. */
void qb_rev_hashes_rewind(qb_rev_hashes *x);
void qb_rev_hashes_free(qb_rev_hashes *hashes);

/* Warns about stale translations: a text that did not change since the
 * record while the text of another language it was written against did,
 * as the table of stale.c says. */
void qb_rev_check_stale(const qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes);
/* The same, calling fn for each stale translation too (the preview marks
 * them in its list of questions). */
typedef void (*qb_rev_stale_fn)(void *payload, const char *qid, const char *lang);
void qb_rev_check_stale_each(const qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes,
                             qb_rev_stale_fn fn, void *payload);

/* Calls fn, quietly, for each text the stale check would warn about,
 * with its element's name in the record (prompt, option-N, feedback-N,
 * match-N, feedback-wrong, explanation; title and description with qid
 * "-"): the states `qbc translate export` gives its units. */
typedef void (*qb_rev_stale_text_fn)(void *payload, const char *qid, const char *elem,
                                     const char *lang);
void qb_rev_stale_texts(const qb_revisions *rev, const qb_bank *bank, qb_rev_stale_text_fn fn,
                        void *payload);

/* Warns, at the first new id, when the bank has question ids the record
 * does not know while the record has ids the bank lost: most likely a
 * rename, which loses learners' progress.  check and build both call it
 * before anything is written, so --werror stops the build. */
void qb_rev_check_renames(const qb_revisions *rev, const qb_bank *bank);

/* Brings rev up to date with bank and the templates under templates_dir
 * (the folders named in the writer registry; missing ones are skipped).  Changed and
 * new content gets the time now, or one second after its previous time
 * if that is not earlier.  Fills report (qb_rev_report_dispose() it).
 * Returns true when anything in the record changed. */
bool qb_rev_update(qb_revisions *rev, const qb_bank *bank, qb_rev_hashes *hashes,
                   const char *templates_dir, time_t now, qb_rev_report *report);

/* Marks the translations of bank as reviewed: every text that
 * qb_rev_check_stale() reports as stale (of the questions named in ids,
 * or all when nids is 0; in lang, or every language when lang is NULL)
 * gets the other languages' current texts as its basis, and the mark
 * "reviewed" (qb_rev_text_reviewed()) until a new edit.  Returns the
 * number of texts it marked; when what is not NULL, appends a line for
 * each ("question 'x' prompt (fr)\n"). */
size_t qb_rev_review(qb_revisions *rev, const qb_bank *bank, const char *const *ids,
                     size_t nids, const char *lang, qb_buf *what);

/* For `qbc translate import`: records the text t of element elem of
 * question qid in lang (its current text) as written, by the rules of
 * stale.c: the element's texts in the other languages take it into their
 * bases (an import never makes them stale; their other parts stay as
 * they are).  current false (a fuzzy unit) keeps the entry's own basis,
 * so a translation that was stale stays stale; true writes it against
 * the others' current texts; reviewed (with current) marks it reviewed
 * too, as review does, and a changed text loses its mark.  True when the
 * record changed; false too when it has no entry for the text (a new
 * translation: the next build records it as current). */
bool qb_rev_set_text(qb_revisions *rev, const qb_bank *bank, const char *qid, const char *elem,
                     const qb_text *t, const char *lang, bool current, bool reviewed);

/* Whether the record marks text (element elem of question qid in lang)
 * as reviewed: `qbc review` or an import --reviewed marked it, and
 * neither it nor its basis changed since.  Whether it is stale now is
 * the stale check's to say. */
bool qb_rev_text_reviewed(const qb_revisions *rev, const char *qid, const char *elem,
                          const char *lang, const char *text);

/* Writes the record atomically.  Returns 0, or -1 after a diagnostic. */
int qb_rev_save(const qb_revisions *rev, const char *path, const char *bank_name);
/* The same in two steps, so that a build can let the record go before its
 * writers and still keep it as it was when one fails: _begin() writes the
 * whole record into a temporary file next to path (0, or -1 after a
 * diagnostic, nothing left behind); then _commit() puts it in place (0, or
 * -1 after a diagnostic), or qb_fs_atomic_discard(a) removes it. */
int qb_rev_save_begin(const qb_revisions *rev, const char *path, const char *bank_name,
                      qb_fs_atomic *a);
int qb_rev_save_commit(qb_fs_atomic *a, const char *path);

/* What the writers stamp, taken from the record (qb_rev_times_take()) so
 * that the record itself can be freed before them: its tables are as big
 * as the bank's model, and a big bank's writers need the memory. */
typedef struct qb_rev_times {
	unsigned revision; /* qb_rev_number()                                */
	time_t latest;     /* qb_rev_latest()                                */
	time_t *question;  /* per question of the bank: the latest time it
	                      changed in the languages built (0: none)       */
	char **tpl_name;   /* the template folders' times                    */
	time_t *tpl_time;
	size_t ntpl;
} qb_rev_times;
/* langs: the languages built (nlangs 0: every declared one). */
void qb_rev_times_take(qb_rev_times *t, const qb_revisions *rev, const qb_bank *bank,
                       const char *const *langs, size_t nlangs);
/* qb_rev_template_time() of the record t was taken from. */
time_t qb_rev_times_template(const qb_rev_times *t, const char *name);
void qb_rev_times_dispose(qb_rev_times *t);

/* The time the content of question qid in lang last changed, or 0. */
time_t qb_rev_question_time(const qb_revisions *rev, const char *qid, const char *lang);
/* The time the template folder name ("anki", "scorm") last changed, or 0. */
time_t qb_rev_template_time(const qb_revisions *rev, const char *name);
/* The latest time in the record (0 when empty). */
time_t qb_rev_latest(const qb_revisions *rev);
/* The record's revision number: 1 for a new bank, +1 for each update
 * that changed anything.  Increases with content (SCORM manifest version). */
unsigned qb_rev_number(const qb_revisions *rev);

/* Calls fn with the path of every image the bank's texts show (the bank's
 * folder joined with the src as written), in source order, repeats
 * included: what a build reads, and what `watch` and `make` follow. */
typedef void (*qb_rev_media_fn)(void *payload, const char *path);
void qb_rev_each_media(const qb_bank *bank, qb_rev_media_fn fn, void *payload);

/* Prints "bank: N added, M changed (a, b), K removed" and what removals
 * mean, to stdout. */
void qb_rev_report_print(const qb_rev_report *report, const char *bank_id, bool dry_run);
void qb_rev_report_dispose(qb_rev_report *report);

#endif
