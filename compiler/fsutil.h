/* fsutil.h - whole-file reads, paths and atomic output files.
 *
 * Every output of qbc is written to a temporary file in the destination's
 * folder and renamed over the destination only when complete (libgit2's
 * filebuf), so a failed or killed build never leaves a half-written file
 * and never touches the previous output.  Functions return 0 on success
 * and -1 on failure with errno set; the caller reports the problem. */
#ifndef QB_FSUTIL_H
#define QB_FSUTIL_H

#include <stdio.h>

#include "qb.h"

/* Reads the whole file; *data is NUL-terminated and owned by the caller. */
int qb_fs_read(const char *path, char **data, size_t *len);
/* Creates dir and its parents (like mkdir -p). */
int qb_fs_mkdirs(const char *dir);
/* dir + "/" + name in a fresh heap string. */
char *qb_fs_join(const char *dir, const char *name);

/* The first of the folders <dir of the executable><rel[i]> that exists
 * (the executable from /proc/self/exe, else argv0), in a heap string;
 * NULL when none does.  How qbc finds its templates and catalogues. */
char *qb_fs_beside_exe(const char *argv0, const char *const *rel, size_t n);

/* A temporary path next to path, for libraries that write files
 * themselves (sqlite3, libzip); the file is created empty. */
char *qb_fs_tmpname(const char *path);
/* Removes path on a thread of its own when one can start: freeing a big
 * file's pages (a few milliseconds per 100 MB) then passes beside the
 * caller's next steps.  qb_fs_removal_wait() waits for it (and removes
 * path itself when no thread started); NULL waits for nothing. */
typedef struct qb_fs_removal qb_fs_removal;
qb_fs_removal *qb_fs_remove_async(const char *path);
void qb_fs_removal_wait(qb_fs_removal *r);
/* A scratch file next to path (on the output's file system), open for
 * reading and writing and already unlinked: it goes with its descriptor.
 * Returns the descriptor, or -1 with errno set. */
int qb_fs_scratch(const char *path);
/* Writes data to path atomically: a temporary file next to it, fsynced,
 * then renamed over it.  On failure path is untouched and nothing is left. */
int qb_fs_write_atomic(const char *path, const void *data, size_t len);
/* An output file written piece by piece (for outputs too big to hold
 * whole): qb_fs_atomic_open() makes a temporary file next to path,
 * written through f; qb_fs_atomic_commit() flushes, fsyncs and renames it
 * over path (on failure the temporary file is removed and path is
 * intact); qb_fs_atomic_discard() removes it (safe after a commit). */
typedef struct qb_fs_atomic {
	char *path; /* final destination                                     */
	char *tmp;  /* temporary file next to it                             */
	FILE *f;    /* open for writing while the file is under way          */
} qb_fs_atomic;
int qb_fs_atomic_open(qb_fs_atomic *a, const char *path);
int qb_fs_atomic_commit(qb_fs_atomic *a);
void qb_fs_atomic_discard(qb_fs_atomic *a);
/* fsyncs tmp and renames it to path; removes tmp on failure. */
int qb_fs_rename_durable(const char *tmp, const char *path);

#endif
