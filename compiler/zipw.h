/* zipw.h - writing a zip archive with libzip, deterministically and
 * atomically.  Members keep the order in which they are added, every
 * member gets the same fixed modification time, and the archive is built
 * under a temporary name and renamed over the destination only by
 * qb_zipw_commit().  Errors are reported through diag.h. */
#ifndef QB_ZIPW_H
#define QB_ZIPW_H

#include <stdint.h>
#include <time.h>

#include "qb.h"

typedef struct qb_zipw qb_zipw;

/* Starts an archive that will become path; mtime is the fixed time given
 * to every member.  Returns NULL (after a diagnostic) on failure. */
qb_zipw *qb_zipw_open(const char *path, time_t mtime);
/* The libdeflate level (1-12) of the members compressed from now on;
 * QB_ZIPW_LEVEL unless set (the benchmark's floor program tries others). */
#define QB_ZIPW_LEVEL 6
void qb_zipw_set_level(qb_zipw *z, int level);
/* From now on, a member of several blocks is compressed on as many
 * threads as the memory goal of the bank at bank_path leaves room for at
 * that moment (qb_mem_room(), qb_pdeflate_threads_within()), not one per
 * core: a writer whose model already takes most of the goal stays
 * within it.  The bytes are the same. */
void qb_zipw_set_room(qb_zipw *z, const char *bank_path);
/* Adds a member with a copy of data.  compress selects deflate (libdeflate,
 * QB_ZIPW_LEVEL) or store.  Returns 0, or -1 after a diagnostic. */
int qb_zipw_add(qb_zipw *z, const char *name, const void *data, size_t len, bool compress);
/* The same, taking data (from malloc) instead of a copy: libzip frees
 * it, whatever happens. */
int qb_zipw_add_owned(qb_zipw *z, const char *name, void *data, size_t len, bool compress);
/* Adds a member with the contents of file, which is read only by
 * qb_zipw_commit() (so it must stay until then, and is never held in
 * memory whole).  Returns 0, or -1 after a diagnostic. */
int qb_zipw_add_file(qb_zipw *z, const char *name, const char *file, bool compress);
/* A file still being written in place, compressed ahead while it is
 * written (the Anki collection while SQLite fills it; pdeflate.h): the
 * writer tells each write once it is done, and qb_zipw_add_ahead() adds
 * the finished file with what is left compressed on every core, the same
 * bytes as qb_zipw_add_file().  Bytes before from change until the end.
 * NULL when the file cannot be opened: it is then added whole. */
typedef struct qb_zipw_ahead qb_zipw_ahead;
qb_zipw_ahead *qb_zipw_ahead_new(const char *file, uint64_t from);
void qb_zipw_ahead_wrote(qb_zipw_ahead *h, uint64_t off, uint64_t len);
/* The blocks compressed so far (for tests). */
size_t qb_zipw_ahead_done(qb_zipw_ahead *h);
/* Adds the file as a deflated member; frees h, whatever happens.
 * Returns 0, or -1 after a diagnostic. */
int qb_zipw_add_ahead(qb_zipw *z, const char *name, qb_zipw_ahead *h);
/* Abandons h (NULL is allowed). */
void qb_zipw_ahead_free(qb_zipw_ahead *h);
/* A streamed member, for contents too big to hold whole: the writer
 * appends to it piece by piece, and zipw keeps the bytes in memory up to
 * 1 MiB and beyond that in an unlinked scratch file next to the archive,
 * which it owns.  A stream belongs to z: qb_zipw_commit() and
 * qb_zipw_discard() free it, added or not, so a writer never opens,
 * unlinks or closes a file.  A stream that is never added serves as
 * scratch space the writer reads back (qb_zipw_stream_read()). */
typedef struct qb_zipw_stream qb_zipw_stream;
qb_zipw_stream *qb_zipw_stream_new(qb_zipw *z);
/* Appends len bytes.  Returns 0, or -1 after a diagnostic (reported once;
 * the stream then stays failed). */
int qb_zipw_stream_write(qb_zipw_stream *s, const void *data, size_t len);
int qb_zipw_stream_puts(qb_zipw_stream *s, const char *str);
/* The bytes appended so far. */
uint64_t qb_zipw_stream_size(const qb_zipw_stream *s);
/* Copies exactly len bytes from offset off into buf.  Returns 0, or -1
 * after a diagnostic. */
int qb_zipw_stream_read(qb_zipw_stream *s, uint64_t off, void *buf, size_t len);
/* Adds the stream's bytes as member name, at this place in the order; the
 * stream is read only from now on, and once deflated (compress) its bytes
 * are let go: it cannot be read back.  Returns 0, or -1 after a diagnostic
 * (also when a write to the stream had failed). */
int qb_zipw_add_stream(qb_zipw *z, const char *name, qb_zipw_stream *s, bool compress);
/* Writes the archive and renames it over the destination; frees z.
 * Returns 0, or -1 after a diagnostic (the destination is untouched). */
int qb_zipw_commit(qb_zipw *z);
/* Abandons the archive; frees z.  NULL is allowed. */
void qb_zipw_discard(qb_zipw *z);

#endif
