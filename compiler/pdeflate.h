/* pdeflate.h - deflate on every core, with libdeflate.  The data is cut
 * into blocks of a fixed size; each block is deflated on its own by one
 * whole-buffer libdeflate call (no preset dictionary: libdeflate has
 * none), and every block but the last is made the middle of a stream (its
 * final bit cleared, an empty stored block after it, as zlib's sync flush
 * ends), so the compressed blocks concatenate into one raw deflate stream.
 * The block size is fixed, never derived from the number of cores: the
 * bytes are the same on every machine.  Data of one block is one plain
 * libdeflate call.  Each worker reads its block through the caller's
 * reader, and the compressed blocks of a multi-block stream go to an
 * unlinked scratch file as they are done (in memory only when no scratch
 * file can be made), so compressing a member of any size takes a few
 * blocks of memory. */
#ifndef QB_PDEFLATE_H
#define QB_PDEFLATE_H

#include <stdint.h>

#include "qb.h"

/* Input per block.  Each block starts without the previous 32 KiB as
 * history, which costs a little size: see tests/bench/README.md. */
#define QB_PDEFLATE_BLOCK ((size_t)4 << 20)

/* Reads len bytes at offset off of the data into buf; 0, or -1 on error.
 * Called from several threads at once, for different ranges. */
typedef int (*qb_pdeflate_read_fn)(void *payload, void *buf, size_t len, uint64_t off);

/* One compressed block: in memory (data), or at off of the scratch file
 * when data is NULL. */
typedef struct qb_pdeflate_part {
	uint8_t *data;
	uint64_t off;
	size_t len;
} qb_pdeflate_part;

/* The raw deflate stream, as the blocks' parts one after the other (never
 * copied into one buffer). */
typedef struct qb_pdeflated {
	qb_pdeflate_part *parts;
	size_t nparts;
	int spill;      /* the scratch file's descriptor, or -1               */
	uint64_t len;   /* compressed size: the sum of the parts' lens         */
	uint32_t crc;   /* CRC-32 of the uncompressed data                    */
	uint64_t size;  /* uncompressed size                                  */
	size_t ahead;   /* blocks compressed ahead and used (qb_pdeflate_ahead) */
} qb_pdeflated;

/* About the memory one worker takes while it compresses a block: the
 * block, its compressed bytes and libdeflate's compressor. */
#define QB_PDEFLATE_WORKER_MEM (2 * QB_PDEFLATE_BLOCK + ((size_t)1 << 20))
/* How many threads qb_pdeflate() may use in room bytes of memory: one
 * per core, fewer when room holds fewer workers, never less than one. */
int qb_pdeflate_threads_within(size_t room);

/* Compresses the size bytes that read gives at libdeflate's level (1-12)
 * into *out, with threads threads (0: one per core, at most 8; never more
 * than blocks); the bytes do not depend on threads.  Returns 0, or -1 when
 * a read or the compressor failed (nothing to free then). */
int qb_pdeflate(qb_pdeflated *out, qb_pdeflate_read_fn read, void *payload, uint64_t size,
                int level, int threads);

/* Compression ahead, of data still being written in place (the Anki
 * collection while SQLite fills its file).  The writer tells every write
 * once it is done (qb_pdeflate_ahead_wrote()); a thread of its own
 * compresses each block once the data has grown QB_PDEFLATE_AHEAD_SLACK
 * past the block's end, and a block written into after its compression
 * began is compressed again at the end.  qb_pdeflate_ahead_finish() then
 * gives the same bytes as qb_pdeflate() of the finished data.  The data
 * must be readable through read, at any offset below what was written,
 * from the ahead thread while it is written. */
typedef struct qb_pdeflate_ahead qb_pdeflate_ahead;
/* Past a block's end before it is compressed ahead: the pages a writer
 * such as SQLite still changes are near the end of what it wrote. */
#define QB_PDEFLATE_AHEAD_SLACK ((uint64_t)2 << 20)
/* Bytes before from change until the end: never compressed ahead. */
qb_pdeflate_ahead *qb_pdeflate_ahead_new(qb_pdeflate_read_fn read, void *payload, int level,
                                         uint64_t from);
/* len bytes at off were written (len reaching UINT64_MAX: the data was
 * cut at off). */
void qb_pdeflate_ahead_wrote(qb_pdeflate_ahead *a, uint64_t off, uint64_t len);
/* The data is size bytes and written no more: compresses what is left
 * on threads threads (as qb_pdeflate()) into *out and frees a.  Returns 0,
 * or -1 when a read or the compressor failed. */
int qb_pdeflate_ahead_finish(qb_pdeflate_ahead *a, qb_pdeflated *out, uint64_t size, int threads);
/* The blocks compressed ahead so far (for tests). */
size_t qb_pdeflate_ahead_done(qb_pdeflate_ahead *a);
/* Abandons a (NULL is allowed). */
void qb_pdeflate_ahead_free(qb_pdeflate_ahead *a);

/* Copies up to n bytes of d's stream from offset off into buf; returns
 * how many (0 at the end). */
size_t qb_pdeflated_read(const qb_pdeflated *d, uint64_t off, void *buf, size_t n);
void qb_pdeflated_free(qb_pdeflated *d);

#endif
