/* pdeflate.c - see pdeflate.h. */
#include "pdeflate.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "alloc.h"

#define BLOCK QB_PDEFLATE_BLOCK /* input per block: fixed, see pdeflate.h */
#define SINK ((size_t)64 << 10) /* inflate's output while a block is walked */
#define MAX_THREADS 8

typedef struct block {
	qb_pdeflate_part part; /* compressed                                 */
	uint32_t crc;          /* of the block's input                       */
	size_t in_len;
} block;

typedef struct work {
	qb_pdeflate_read_fn read;
	void *payload;
	uint64_t size;
	int level;
	block *blocks;
	size_t nblocks;
	pthread_mutex_t lock; /* guards next, failed and spill_end           */
	size_t next;
	bool failed;
	int spill;            /* the scratch file for the blocks, or -1       */
	uint64_t spill_end;
} work;

/* One worker's buffers, reused from block to block. */
typedef struct worker_buf {
	struct libdeflate_compressor *c;
	uint8_t *in, *out, *sink;
	size_t out_cap;
} worker_buf;

/* Appends a compressed block to the scratch file: its offset there, or
 * UINT64_MAX when it could not be written (then it stays in memory). */
static uint64_t spill(work *w, const uint8_t *data, size_t len)
{
	if (w->spill < 0)
		return UINT64_MAX;
	pthread_mutex_lock(&w->lock);
	uint64_t off = w->spill_end;
	w->spill_end += len;
	pthread_mutex_unlock(&w->lock);
	for (size_t put = 0; put < len;) {
		ssize_t n = pwrite(w->spill, data + put, len - put, (off_t)(off + put));
		if (n <= 0)
			return UINT64_MAX; /* the hole it leaves is never read */
		put += (size_t)n;
	}
	return off;
}

/* Turns the complete deflate stream out[0..n) into the middle of a longer
 * one: its last block's BFINAL bit cleared, then an empty stored block
 * (what zlib's Z_SYNC_FLUSH writes), so that it ends on a byte boundary
 * and the next block's stream follows it as it is.  libdeflate says
 * nothing of where its last block starts, so the blocks are walked with
 * zlib's inflate, which stops at each block boundary (Z_BLOCK) and tells
 * the bit there: the method of zlib's gzjoin example.  out has room for 5
 * more bytes.  Returns the new length, or 0 when the stream is not what
 * libdeflate should have written. */
static size_t unfinal(uint8_t *out, size_t n, uint8_t *sink)
{
	z_stream s;
	memset(&s, 0, sizeof s);
	if (inflateInit2(&s, -15) != Z_OK)
		return 0;
	s.next_in = out;
	s.avail_in = (uInt)n;
	/* Bits: where the last block starts, where it ends.  At a boundary
	 * (data_type 128) inflate has read up to there but data_type & 7 bits;
	 * 64 tells that the block just ended was the last. */
	uint64_t last = 0, end = UINT64_MAX;
	int rc;
	do {
		s.next_out = sink;
		s.avail_out = (uInt)SINK;
		rc = inflate(&s, Z_BLOCK);
		uint64_t at = (uint64_t)s.total_in * 8 - (unsigned)(s.data_type & 7);
		if (rc == Z_OK && (s.data_type & 128))
			*((s.data_type & 64) ? &end : &last) = at;
	} while (rc == Z_OK);
	inflateEnd(&s);
	if (rc != Z_STREAM_END || end == UINT64_MAX || (end + 7) / 8 != n || last >= end)
		return 0;
	out[last / 8] &= (uint8_t)~(1u << (last % 8));
	unsigned used = (unsigned)(end % 8);
	if (used)
		out[n - 1] &= (uint8_t)((1u << used) - 1); /* the padding: zeros */
	/* The stored block's 3 header bits (zeros) fit in the last byte's
	 * padding, or take one more byte. */
	if (used == 0 || used > 5)
		out[n++] = 0;
	memcpy(out + n, "\0\0\xff\xff", 4); /* LEN 0, NLEN */
	return n + 4;
}

/* Compresses block i. */
static int compress_block(work *w, size_t i, worker_buf *b)
{
	uint64_t off = (uint64_t)i * BLOCK;
	size_t len = w->size - off < BLOCK ? (size_t)(w->size - off) : BLOCK;
	bool last = i + 1 == w->nblocks;
	if (len && w->read(w->payload, b->in, len, off) != 0)
		return -1;
	size_t used = libdeflate_deflate_compress(b->c, b->in, len, b->out, b->out_cap - 5);
	if (!used || (!last && !(used = unfinal(b->out, used, b->sink))))
		return -1;
	uint8_t *out = NULL;
	uint64_t at = spill(w, b->out, used);
	if (at == UINT64_MAX) { /* kept in memory */
		out = qb_xmalloc(used);
		memcpy(out, b->out, used);
	}
	w->blocks[i] = (block){{out, at, used}, libdeflate_crc32(0, b->in, len), len};
	return 0;
}

static void *worker(void *arg)
{
	work *w = arg;
	size_t in_cap = w->size < BLOCK ? (size_t)w->size : BLOCK;
	worker_buf b = {libdeflate_alloc_compressor(w->level), qb_xmalloc(in_cap ? in_cap : 1),
	                NULL, w->nblocks > 1 ? qb_xmalloc(SINK) : NULL, 0};
	if (b.c)
		b.out_cap = libdeflate_deflate_compress_bound(b.c, in_cap) + 5;
	b.out = qb_xmalloc(b.out_cap ? b.out_cap : 1);
	for (;;) {
		pthread_mutex_lock(&w->lock);
		size_t i = w->next++;
		bool stop = w->failed || i >= w->nblocks;
		if (!stop && !b.c)
			w->failed = stop = true;
		pthread_mutex_unlock(&w->lock);
		if (stop)
			break;
		if (compress_block(w, i, &b) != 0) {
			pthread_mutex_lock(&w->lock);
			w->failed = true;
			pthread_mutex_unlock(&w->lock);
		}
	}
	if (b.c)
		libdeflate_free_compressor(b.c);
	free(b.in);
	free(b.out);
	free(b.sink);
	return NULL;
}

/* The cores online, at most MAX_THREADS. */
static int cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int qb_pdeflate(qb_pdeflated *out, qb_pdeflate_read_fn read, void *payload, uint64_t size,
                int level, int threads)
{
	work w = {read, payload, size, level, NULL, 0, PTHREAD_MUTEX_INITIALIZER, 0, false, -1, 0};
	w.nblocks = size ? (size_t)((size + BLOCK - 1) / BLOCK) : 1;
	if (w.nblocks > 1) { /* one block stays in memory */
		FILE *scratch = tmpfile(); /* unlinked: gone with its descriptor */
		if (scratch) {
			w.spill = dup(fileno(scratch));
			fclose(scratch);
		}
	}
	w.blocks = qb_xcalloc(w.nblocks, sizeof *w.blocks);
	pthread_t tid[MAX_THREADS];
	int nthreads = 0, want = threads > 0 ? threads : cores();
	if (want > MAX_THREADS)
		want = MAX_THREADS;
	if ((size_t)want > w.nblocks)
		want = (int)w.nblocks;
	/* The caller's thread is one of the workers. */
	while (nthreads < want - 1 && pthread_create(&tid[nthreads], NULL, worker, &w) == 0)
		nthreads++;
	worker(&w);
	for (int i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&w.lock);
	uLong crc = 0;
	*out = (qb_pdeflated){qb_xcalloc(w.nblocks, sizeof *out->parts), w.nblocks, w.spill, 0, 0,
	                      size};
	for (size_t i = 0; i < w.nblocks; i++) {
		out->parts[i] = w.blocks[i].part;
		out->len += w.blocks[i].part.len;
		crc = crc32_combine(crc, w.blocks[i].crc, (z_off_t)w.blocks[i].in_len);
	}
	out->crc = (uint32_t)crc;
	free(w.blocks);
	if (w.failed) {
		qb_pdeflated_free(out);
		return -1;
	}
	return 0;
}
size_t qb_pdeflated_read(const qb_pdeflated *d, uint64_t off, void *buf, size_t n)
{
	size_t got = 0;
	for (size_t i = 0; i < d->nparts && got < n; i++) {
		const qb_pdeflate_part *p = &d->parts[i];
		if (off >= p->len) {
			off -= p->len;
			continue;
		}
		size_t k = p->len - (size_t)off < n - got ? p->len - (size_t)off : n - got;
		if (p->data) {
			memcpy((uint8_t *)buf + got, p->data + off, k);
		} else {
			ssize_t r = pread(d->spill, (uint8_t *)buf + got, k, (off_t)(p->off + off));
			if (r <= 0)
				return got; /* short: the zip writer reports it */
			k = (size_t)r;
		}
		got += k;
		off = 0;
	}
	return got;
}

void qb_pdeflated_free(qb_pdeflated *d)
{
	for (size_t i = 0; i < d->nparts; i++)
		free(d->parts[i].data);
	free(d->parts);
	if (d->spill >= 0)
		close(d->spill);
	*d = (qb_pdeflated){.spill = -1};
}
