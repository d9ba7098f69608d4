/* preview.h - the `qbc preview` server (GNU libmicrohttpd): one local page
 * that shows each question as the Anki card and as the SCORM player show
 * it, kept current as the bank is saved.
 *
 * The driver reads and checks each bank, runs the real writers into a
 * private folder (never output/, never the revision record) and hands the
 * packages here: the page shows what they carry, read back from them, so
 * a preview cannot differ from a package.  Everything is served from
 * memory by exact name: no request ever opens a file. */
#ifndef QB_PREVIEW_H
#define QB_PREVIEW_H

#include "model.h"

struct qb_revisions;
typedef struct qb_preview qb_preview;

typedef struct qb_preview_opts {
	const char *host;          /* address to bind; NULL: 127.0.0.1      */
	int port;                  /* -1: 8000 or the next free one; 0: any */
	const char *templates_dir; /* templates/, for templates/preview/    */
	size_t nbanks;
} qb_preview_opts;

/* Loads the page and starts serving (an empty page until the banks are
 * published).  Returns NULL after a diagnostic. */
qb_preview *qb_preview_start(const qb_preview_opts *o);
/* The URL it serves ("http://127.0.0.1:8000/"), and whether anyone but
 * this computer may reach it. */
const char *qb_preview_url(const qb_preview *p);
bool qb_preview_public(const qb_preview *p);

/* Publishes bank i.  With bank (error-free), the packages the driver wrote
 * into dir (<id>.apkg, <id>.scorm12.zip: either may be missing, when the
 * bank is too big for the format) replace what the page showed; rev (may
 * be NULL) gives each translation's state.  Without, the page keeps its
 * last good version.  diags is what the build printed: the page shows it
 * over everything, as errors when errors is true, else as warnings.
 * Returns 0, or -1 after a diagnostic when a package cannot be read back
 * (the page then shows the bank without it). */
int qb_preview_publish(qb_preview *p, size_t i, const qb_bank *bank,
                       const struct qb_revisions *rev, const char *const *langs,
                       size_t nlangs, const char *dir, const char *diags, bool errors);

/* Notes that the translation of question qid in lang may be stale, for
 * the next qb_preview_publish() (a qb_rev_stale_fn; payload is p). */
void qb_preview_stale(void *p, const char *qid, const char *lang);

/* Wakes the waiting pages and stops the server. */
void qb_preview_stop(qb_preview *p);

#endif
