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

/* What is known of a block: nothing yet, the ahead thread compressing
 * it, or compressed. */
enum { TODO, BUSY, DONE };

typedef struct block {
	qb_pdeflate_part part; /* compressed                                 */
	uint32_t crc;          /* of the block's input                       */
	size_t in_len;
	int state;
	unsigned stamp;        /* ahead: the writes told into the block      */
} block;

/* One stream's blocks and the threads compressing them.  qb_pdeflate()
 * makes one for a single call; a qb_pdeflate_ahead is one that lives
 * while its data is written. */
typedef struct work {
	qb_pdeflate_read_fn read;
	void *payload;
	uint64_t size;
	int level;
	block *blocks;
	size_t nblocks, cap;
	pthread_mutex_t lock; /* guards all below, and each block's state   */
	size_t next;
	bool failed;
	int spill;            /* the scratch file for the blocks, or -1       */
	uint64_t spill_end;
	/* ahead only */
	pthread_cond_t wake;  /* a block became ready, or stop               */
	uint64_t from, seen;  /* never before from; the data's end so far     */
	bool started, stop;
	bool final;           /* finish() under way: take any block          */
	pthread_t tid;
} work;

/* One worker's buffers, reused from block to block. */
typedef struct worker_buf {
	struct libdeflate_compressor *c;
	uint8_t *in, *out, *sink;
	size_t out_cap;
} worker_buf;

/* Buffers for blocks of at most in_cap bytes (b->c NULL when libdeflate
 * could not make a compressor). */
static void buf_init(worker_buf *b, int level, size_t in_cap, bool sink)
{
	*b = (worker_buf){libdeflate_alloc_compressor(level), qb_xmalloc(in_cap ? in_cap : 1), NULL,
	                  sink ? qb_xmalloc(SINK) : NULL, 0};
	if (b->c)
		b->out_cap = libdeflate_deflate_compress_bound(b->c, in_cap) + 5;
	b->out = qb_xmalloc(b->out_cap ? b->out_cap : 1);
}

static void buf_dispose(worker_buf *b)
{
	if (b->c)
		libdeflate_free_compressor(b->c);
	free(b->in);
	free(b->out);
	free(b->sink);
}

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

/* Compresses the len bytes of block i (the stream's last when last) into
 * *got.  Returns 0, or -1 when the read or the compressor failed. */
static int compress_block(work *w, size_t i, size_t len, bool last, worker_buf *b, block *got)
{
	if (!b->c || (len && w->read(w->payload, b->in, len, (uint64_t)i * BLOCK) != 0))
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
	*got = (block){{out, at, used}, libdeflate_crc32(0, b->in, len), len, DONE, 0};
	return 0;
}

/* Block i's input size in a stream of w->size bytes. */
static size_t block_len(const work *w, size_t i)
{
	uint64_t off = (uint64_t)i * BLOCK;
	return w->size - off < BLOCK ? (size_t)(w->size - off) : BLOCK;
}

/* Forgets what block i's compression gave (the lock held). */
static void drop(block *k)
{
	free(k->part.data);
	k->part = (qb_pdeflate_part){NULL, 0, 0};
	k->state = TODO;
}

/* Takes blocks still to do, one after the other, until none is left;
 * b's buffers are made at the first (*have). */
static void take_blocks(work *w, worker_buf *b, bool *have)
{
	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (w->next < w->nblocks && w->blocks[w->next].state != TODO)
			w->next++; /* done ahead, or the ahead thread has it */
		size_t i = w->next++;
		bool stop = w->failed || i >= w->nblocks;
		if (!stop)
			w->blocks[i].state = BUSY;
		pthread_mutex_unlock(&w->lock);
		if (stop)
			break;
		if (!*have) {
			buf_init(b, w->level, w->size < BLOCK ? (size_t)w->size : BLOCK, w->nblocks > 1);
			*have = true;
		}
		block got;
		int rc = compress_block(w, i, block_len(w, i), i + 1 == w->nblocks, b, &got);
		pthread_mutex_lock(&w->lock);
		if (rc == 0)
			w->blocks[i] = got;
		else
			w->failed = true;
		pthread_mutex_unlock(&w->lock);
	}
}

/* Compresses every block still to do, with the others. */
static void *worker(void *arg)
{
	worker_buf b = {0};
	bool have = false;
	take_blocks(arg, &b, &have);
	if (have)
		buf_dispose(&b);
	return NULL;
}

/* The cores online, at most MAX_THREADS. */
static int cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int qb_pdeflate_threads_within(size_t room)
{
	size_t fit = room / QB_PDEFLATE_WORKER_MEM;
	int n = cores();
	return fit < 1 ? 1 : fit < (size_t)n ? (int)fit : n;
}

/* An unlinked scratch file for the compressed blocks, or -1. */
static int scratch(void)
{
	FILE *f = tmpfile(); /* unlinked: gone with its descriptor */
	if (!f)
		return -1;
	int fd = dup(fileno(f));
	fclose(f);
	return fd;
}

/* Makes w->blocks hold exactly n blocks (the new ones to do). */
static void resize(work *w, size_t n)
{
	for (size_t i = n; i < w->nblocks; i++)
		drop(&w->blocks[i]);
	if (n > w->cap) {
		size_t cap = w->cap ? w->cap : 16;
		while (cap < n)
			cap *= 2;
		w->blocks = qb_xrealloc(w->blocks, cap * sizeof *w->blocks);
		w->cap = cap;
	}
	for (size_t i = w->nblocks; i < n; i++)
		w->blocks[i] = (block){.state = TODO};
	w->nblocks = n;
}

/* Blocks compressed (the lock held, or no other thread). */
static size_t count_done(const work *w)
{
	size_t n = 0;
	for (size_t i = 0; i < w->nblocks; i++)
		n += w->blocks[i].state == DONE;
	return n;
}

/* Keeps block i of n if it was compressed ahead and may stay: only as a
 * full block in the middle, as the ahead thread never knows which block
 * is last (the lock held).  Returns whether it was kept. */
static bool keep_ahead(work *w, size_t i, size_t n)
{
	if (w->blocks[i].state != DONE)
		return false;
	if (i + 1 == n || w->blocks[i].in_len != block_len(w, i)) {
		drop(&w->blocks[i]);
		return false;
	}
	return true;
}

/* Compresses what is left of w's blocks for size bytes of data on
 * threads threads, then joins them into *out and frees w's blocks. */
static int finish(work *w, qb_pdeflated *out, uint64_t size, int threads)
{
	size_t n = size ? (size_t)((size + BLOCK - 1) / BLOCK) : 1;
	if (n > 1 && w->spill < 0)
		w->spill = scratch(); /* one block stays in memory */
	bool ahead = w->started;
	pthread_mutex_lock(&w->lock);
	w->size = size;
	if (w->nblocks < n)
		resize(w, n);
	size_t kept = 0; /* blocks compressed ahead and used */
	for (size_t i = 0; i < n; i++)
		kept += keep_ahead(w, i, n);
	size_t all = w->nblocks;
	w->nblocks = n; /* the workers' view; the ahead thread's block stays */
	size_t held = SIZE_MAX; /* the ahead thread's block */
	for (size_t i = 0; i < all; i++)
		if (w->blocks[i].state == BUSY)
			held = i;
	w->next = 0;
	/* The ahead thread, unless a failure ended it, is one of the
	 * workers now. */
	int helper = ahead && !w->stop;
	w->final = true;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);

	pthread_t tid[MAX_THREADS];
	int nthreads = 0, want = threads > 0 ? threads : cores();
	if (want > MAX_THREADS)
		want = MAX_THREADS;
	if ((size_t)want > n)
		want = (int)n;
	/* The caller's thread is one of the workers. */
	while (nthreads < want - 1 - helper && pthread_create(&tid[nthreads], NULL, worker, w) == 0)
		nthreads++;
	worker(w);
	for (int i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	if (ahead) { /* its last block, then what it left to do */
		pthread_join(w->tid, NULL);
		w->started = false;
		w->nblocks = all;
		resize(w, n);
		if (held < n)
			kept += keep_ahead(w, held, n);
		w->next = 0;
		worker(w);
	}
	uLong crc = 0;
	*out = (qb_pdeflated){qb_xcalloc(n, sizeof *out->parts), n, w->spill, 0, 0, size, kept};
	w->spill = -1;
	for (size_t i = 0; i < n; i++) {
		out->parts[i] = w->blocks[i].part;
		out->len += w->blocks[i].part.len;
		crc = crc32_combine(crc, w->blocks[i].crc, (z_off_t)w->blocks[i].in_len);
	}
	out->crc = (uint32_t)crc;
	bool failed = w->failed;
	free(w->blocks);
	w->blocks = NULL;
	w->nblocks = w->cap = 0;
	if (failed) {
		qb_pdeflated_free(out);
		return -1;
	}
	return 0;
}

int qb_pdeflate(qb_pdeflated *out, qb_pdeflate_read_fn read, void *payload, uint64_t size,
                int level, int threads)
{
	work w = {.read = read, .payload = payload, .level = level, .spill = -1,
	          .lock = PTHREAD_MUTEX_INITIALIZER};
	int rc = finish(&w, out, size, threads);
	pthread_mutex_destroy(&w.lock);
	return rc;
}

/* ---- compression ahead (pdeflate.h) ---- */

struct qb_pdeflate_ahead {
	work w;
};

/* How many blocks from the start have QB_PDEFLATE_AHEAD_SLACK written past
 * their end when the data's end so far is seen. */
static size_t ripe(uint64_t seen)
{
	return seen < QB_PDEFLATE_AHEAD_SLACK ? 0 : (size_t)((seen - QB_PDEFLATE_AHEAD_SLACK) / BLOCK);
}

/* The first block ready for the ahead thread, or SIZE_MAX (the lock
 * held): ripe, to do, and wholly after from. */
static size_t ready(const work *w)
{
	size_t end = ripe(w->seen) < w->nblocks ? ripe(w->seen) : w->nblocks;
	for (size_t i = (size_t)((w->from + BLOCK - 1) / BLOCK); i < end; i++)
		if (w->blocks[i].state == TODO)
			return i;
	return SIZE_MAX;
}

static void *ahead_main(void *arg)
{
	work *w = arg;
	worker_buf b;
	buf_init(&b, w->level, BLOCK, true);
	pthread_mutex_lock(&w->lock);
	while (!w->stop && !w->final) {
		size_t i = ready(w);
		if (i == SIZE_MAX) {
			pthread_cond_wait(&w->wake, &w->lock);
			continue;
		}
		w->blocks[i].state = BUSY;
		unsigned stamp = w->blocks[i].stamp;
		pthread_mutex_unlock(&w->lock);
		block got;
		int rc = compress_block(w, i, BLOCK, false, &b, &got);
		pthread_mutex_lock(&w->lock);
		if (rc == 0 && w->blocks[i].stamp == stamp) {
			got.stamp = stamp;
			w->blocks[i] = got;
		} else { /* written meanwhile: to do again; a failure ends the thread */
			if (rc == 0)
				free(got.part.data);
			w->blocks[i].state = TODO;
			w->stop = w->stop || rc != 0;
		}
	}
	bool final = w->final && !w->stop;
	pthread_mutex_unlock(&w->lock);
	if (final) { /* the data is finished: a worker like the others */
		bool have = true;
		take_blocks(w, &b, &have);
	}
	buf_dispose(&b);
	return NULL;
}

qb_pdeflate_ahead *qb_pdeflate_ahead_new(qb_pdeflate_read_fn read, void *payload, int level,
                                         uint64_t from)
{
	qb_pdeflate_ahead *a = qb_xcalloc(1, sizeof *a);
	a->w = (work){.read = read, .payload = payload, .level = level, .spill = -1, .from = from};
	pthread_mutex_init(&a->w.lock, NULL);
	pthread_cond_init(&a->w.wake, NULL);
	return a;
}

void qb_pdeflate_ahead_wrote(qb_pdeflate_ahead *a, uint64_t off, uint64_t len)
{
	work *w = &a->w;
	if (!len)
		return;
	uint64_t end = len > UINT64_MAX - off ? UINT64_MAX : off + len;
	pthread_mutex_lock(&w->lock);
	bool more = false; /* a block may have become ready */
	for (size_t i = (size_t)(off / BLOCK); i < w->nblocks && (uint64_t)i * BLOCK < end; i++) {
		w->blocks[i].stamp++;
		if (w->blocks[i].state == DONE) {
			drop(&w->blocks[i]);
			more = true;
		}
	}
	if (end != UINT64_MAX && end > w->seen) { /* not a truncation */
		more = more || ripe(w->seen) != ripe(end);
		w->seen = end;
		size_t need = (size_t)((end + BLOCK - 1) / BLOCK);
		if (need > w->nblocks)
			resize(w, need);
	}
	if (more && !w->stop && ready(w) != SIZE_MAX) {
		if (w->started)
			pthread_cond_signal(&w->wake);
		else if (w->spill >= 0 || (w->spill = scratch()) >= 0)
			w->started = pthread_create(&w->tid, NULL, ahead_main, w) == 0;
	}
	pthread_mutex_unlock(&w->lock);
}

size_t qb_pdeflate_ahead_done(qb_pdeflate_ahead *a)
{
	pthread_mutex_lock(&a->w.lock);
	size_t n = count_done(&a->w);
	pthread_mutex_unlock(&a->w.lock);
	return n;
}

/* Stops the ahead thread (not yet joined). */
static void stop(work *w)
{
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

int qb_pdeflate_ahead_finish(qb_pdeflate_ahead *a, qb_pdeflated *out, uint64_t size, int threads)
{
	int rc = finish(&a->w, out, size, threads);
	qb_pdeflate_ahead_free(a);
	return rc;
}

void qb_pdeflate_ahead_free(qb_pdeflate_ahead *a)
{
	if (!a)
		return;
	work *w = &a->w;
	stop(w);
	if (w->started)
		pthread_join(w->tid, NULL);
	for (size_t i = 0; i < w->nblocks; i++)
		drop(&w->blocks[i]);
	free(w->blocks);
	if (w->spill >= 0)
		close(w->spill);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(a);
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
