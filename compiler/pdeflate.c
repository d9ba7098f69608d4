/* pdeflate.c - see pdeflate.h. */
#include "pdeflate.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "alloc.h"

#define BLOCK ((size_t)1 << 20) /* input per block: fixed, see pdeflate.h */
#define DICT ((size_t)32 << 10) /* deflate's window                        */
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

/* Compresses block i; in holds DICT + BLOCK bytes. */
static int compress_block(work *w, size_t i, uint8_t *in)
{
	uint64_t off = (uint64_t)i * BLOCK;
	size_t len = w->size - off < BLOCK ? (size_t)(w->size - off) : BLOCK;
	size_t dict = off < DICT ? (size_t)off : DICT;
	bool last = i + 1 == w->nblocks;
	if (w->read(w->payload, in, dict + len, off - dict) != 0)
		return -1;
	z_stream s;
	memset(&s, 0, sizeof s);
	if (deflateInit2(&s, w->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	int rc = dict ? deflateSetDictionary(&s, in, (uInt)dict) : Z_OK;
	/* deflateBound() holds the whole block; 64 bytes more hold the
	 * sync flush's empty stored block, so one call always completes. */
	size_t cap = deflateBound(&s, len) + 64;
	uint8_t *out = qb_xmalloc(cap);
	s.next_in = in + dict;
	s.avail_in = (uInt)len;
	s.next_out = out;
	s.avail_out = (uInt)cap;
	if (rc == Z_OK)
		rc = deflate(&s, last ? Z_FINISH : Z_SYNC_FLUSH);
	bool done = last ? rc == Z_STREAM_END : rc == Z_OK && s.avail_in == 0 && s.avail_out > 0;
	size_t used = cap - s.avail_out;
	deflateEnd(&s);
	if (!done) {
		free(out);
		return -1;
	}
	uint64_t at = spill(w, out, used);
	if (at != UINT64_MAX) {
		free(out);
		out = NULL;
	} else { /* kept: only what was written, the bound is several times that */
		out = qb_xrealloc(out, used ? used : 1);
	}
	w->blocks[i] = (block){{out, at, used}, (uint32_t)crc32(0L, in + dict, (uInt)len), len};
	return 0;
}

static void *worker(void *arg)
{
	work *w = arg;
	uint8_t *in = qb_xmalloc(DICT + BLOCK);
	for (;;) {
		pthread_mutex_lock(&w->lock);
		size_t i = w->next++;
		bool stop = w->failed || i >= w->nblocks;
		pthread_mutex_unlock(&w->lock);
		if (stop)
			break;
		if (compress_block(w, i, in) != 0) {
			pthread_mutex_lock(&w->lock);
			w->failed = true;
			pthread_mutex_unlock(&w->lock);
		}
	}
	free(in);
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
	FILE *scratch = tmpfile(); /* unlinked: gone with its descriptor */
	if (scratch) {
		w.spill = dup(fileno(scratch));
		fclose(scratch);
	}
	w.nblocks = size ? (size_t)((size + BLOCK - 1) / BLOCK) : 1;
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
	uLong crc = crc32(0L, Z_NULL, 0);
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
