/* zipw.h - writing a zip archive with libzip, deterministically and
 * atomically.  Members keep the order in which they are added, every
 * member gets the same fixed modification time, and the archive is built
 * under a temporary name and renamed over the destination only by
 * qb_zipw_commit().  Errors are reported through diag.h. */
#ifndef QB_ZIPW_H
#define QB_ZIPW_H

#include <time.h>

#include "qb.h"

typedef struct qb_zipw qb_zipw;

/* Starts an archive that will become path; mtime is the fixed time given
 * to every member.  Returns NULL (after a diagnostic) on failure. */
qb_zipw *qb_zipw_open(const char *path, time_t mtime);
/* Adds a member with a copy of data.  compress selects deflate (level 6)
 * or store.  Returns 0, or -1 after a diagnostic. */
int qb_zipw_add(qb_zipw *z, const char *name, const void *data, size_t len, bool compress);
/* The same, taking data (from malloc) instead of a copy: libzip frees
 * it, whatever happens. */
int qb_zipw_add_owned(qb_zipw *z, const char *name, void *data, size_t len, bool compress);
/* Adds a member with the contents of file, which is read only by
 * qb_zipw_commit() (so it must stay until then, and is never held in
 * memory whole).  Returns 0, or -1 after a diagnostic. */
int qb_zipw_add_file(qb_zipw *z, const char *name, const char *file, bool compress);
/* Writes the archive and renames it over the destination; frees z.
 * Returns 0, or -1 after a diagnostic (the destination is untouched). */
int qb_zipw_commit(qb_zipw *z);
/* Abandons the archive; frees z.  NULL is allowed. */
void qb_zipw_discard(qb_zipw *z);

#endif
