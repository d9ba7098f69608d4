/* zipw.c - see zipw.h. */
#include "zipw.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "pdeflate.h"

/* Every compressed member, small or big, is deflated here (pdeflate.c,
 * libdeflate at QB_ZIPW_LEVEL: tests/bench/README.md has the measurements
 * behind it), never by libzip: libzip gets it already deflated. */

struct qb_zipw {
	zip_t *zip;
	char *path; /* destination                                          */
	char *tmp;  /* what libzip writes; renamed to path on commit         */
	time_t mtime;
	int level;
	char *room_of; /* the bank whose memory goal bounds the threads, or NULL */
	qb_zipw_stream *streams; /* every stream made for z, freed with it  */
	/* Members of one block (most of a QTI package's thousands): one
	 * compressor for them all, and their deflated bytes appended to one
	 * unlinked scratch file, not held in memory until the commit. */
	struct libdeflate_compressor *small;
	uint8_t *small_out;
	size_t small_cap;
	int small_fd;            /* -1 until made, or if it cannot be     */
	uint64_t small_end;
	/* What libzip's source of each such member reads: a record of 32
	 * bytes in chunks, not two allocations per member (200,000 items in
	 * a QTI package of a big bank). */
	struct small_chunk *chunks;
	zip_error_t small_error; /* the sources' error, shared            */
};

/* A member of one block in z's scratch file. */
typedef struct small_rec {
	qb_zipw *z;
	uint64_t off;  /* where its deflated bytes start in z->small_fd */
	uint32_t len;  /* how many there are                           */
	uint32_t size; /* its size uncompressed                        */
	uint32_t crc;
	uint32_t pos;  /* what libzip has read                         */
} small_rec;

#define SMALL_CHUNK 4096

struct small_chunk {
	struct small_chunk *next;
	size_t n;
	small_rec recs[SMALL_CHUNK];
};

/* A stream's bytes stay in memory up to this size. */
#define STREAM_MEM ((size_t)1 << 20)

struct qb_zipw_stream {
	qb_zipw_stream *next;
	qb_zipw *z;
	qb_buf mem;       /* every byte while they fit, then those not yet in fd */
	int fd;           /* the scratch file, once they no longer fit; or -1    */
	uint64_t size;    /* bytes appended                                      */
	bool failed;      /* a write failed (reported)                           */
	bool added;       /* a member now: read only                             */
	bool let_go;      /* added deflated: its bytes are no longer kept        */
};

qb_zipw *qb_zipw_open(const char *path, time_t mtime)
{
	char *tmp = qb_fs_tmpname(path);
	if (!tmp) {
		qb_diag_fatal("cannot create a file next to '%s': %s", path, strerror(errno));
		return NULL;
	}
	int err = 0;
	zip_t *zip = zip_open(tmp, ZIP_CREATE | ZIP_TRUNCATE, &err);
	if (!zip) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, err);
		qb_diag_fatal("cannot create '%s': %s", path, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	qb_zipw *z = qb_xcalloc(1, sizeof *z);
	z->zip = zip;
	z->path = qb_xstrdup(path);
	z->tmp = tmp;
	z->mtime = mtime;
	z->level = QB_ZIPW_LEVEL;
	z->small_fd = -1;
	zip_error_init(&z->small_error);
	return z;
}

void qb_zipw_set_level(qb_zipw *z, int level)
{
	z->level = level;
}

void qb_zipw_set_room(qb_zipw *z, const char *bank_path)
{
	free(z->room_of);
	z->room_of = bank_path ? qb_xstrdup(bank_path) : NULL;
}

/* zip_file_set_mtime() converts through localtime(), so the bytes would
 * depend on the builder's time zone.  Write the MS-DOS date and time of
 * mtime in UTC instead (clamped to 1980, the format's first year). */
static int set_dostime(zip_t *zip, zip_uint64_t idx, time_t mtime)
{
	struct tm tm;
	if (mtime < 315532800 || !gmtime_r(&mtime, &tm)) /* 1980-01-01 */
		tm = (struct tm){.tm_year = 80, .tm_mday = 1};
	zip_uint16_t dtime = (zip_uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
	zip_uint16_t ddate = (zip_uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) |
	                                    tm.tm_mday);
	return zip_file_set_dostime(zip, idx, dtime, ddate, 0);
}

/* Adds src (NULL: libzip could not make it) as member name; compress:
 * src is already deflated. */
static int add_source(qb_zipw *z, const char *name, zip_source_t *src, bool compress)
{
	if (!src)
		goto fail;
	zip_int64_t idx = zip_file_add(z->zip, name, src, ZIP_FL_ENC_UTF_8);
	if (idx < 0) {
		zip_source_free(src);
		goto fail;
	}
	if (zip_set_file_compression(z->zip, (zip_uint64_t)idx,
	                             compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0 ||
	    set_dostime(z->zip, (zip_uint64_t)idx, z->mtime) != 0 ||
	    zip_file_set_external_attributes(z->zip, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
	                                     (zip_uint32_t)0100644 << 16) != 0)
		goto fail;
	return 0;
fail:
	qb_diag_fatal("cannot add '%s' to '%s': %s", name, z->path, zip_strerror(z->zip));
	return -1;
}

/* ---- deflated members (pdeflate.h) ---- */

static int stream_pread(qb_zipw_stream *s, void *buf, size_t len, uint64_t off);

/* A libzip source read on demand: data already deflated (d), which libzip
 * copies as it is since its stat gives the method, the CRC and both
 * sizes; or a stored stream kept in its scratch file (stored). */
typedef struct member_src {
	qb_pdeflated d;
	qb_zipw_stream *stored;
	zip_uint64_t pos;
	zip_error_t error;
} member_src;

static zip_int64_t member_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
	member_src *s = ud;
	uint64_t total = s->stored ? s->stored->size : s->d.len;
	switch (cmd) {
	case ZIP_SOURCE_OPEN:
		s->pos = 0;
		return 0;
	case ZIP_SOURCE_READ: {
		size_t n = total - s->pos < len ? (size_t)(total - s->pos) : (size_t)len;
		if (s->stored ? n && stream_pread(s->stored, data, n, s->pos) != 0
		              : qb_pdeflated_read(&s->d, s->pos, data, n) != n) {
			zip_error_set(&s->error, ZIP_ER_READ, errno); /* a scratch file failed */
			return -1;
		}
		s->pos += n;
		return (zip_int64_t)n;
	}
	case ZIP_SOURCE_CLOSE:
		return 0;
	case ZIP_SOURCE_STAT: {
		zip_stat_t *st = data;
		zip_stat_init(st);
		st->valid = ZIP_STAT_SIZE;
		st->size = total;
		if (!s->stored) {
			st->valid |= ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC;
			st->size = s->d.size;
			st->comp_size = s->d.len;
			st->comp_method = ZIP_CM_DEFLATE;
			st->crc = s->d.crc;
		}
		return sizeof *st;
	}
	case ZIP_SOURCE_ERROR:
		return zip_error_to_data(&s->error, data, len);
	case ZIP_SOURCE_FREE: /* a stored stream goes with z */
		qb_pdeflated_free(&s->d);
		zip_error_fini(&s->error);
		free(s);
		return 0;
	case ZIP_SOURCE_SUPPORTS:
		return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ,
		                                      ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
		                                      ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
	default:
		zip_error_set(&s->error, ZIP_ER_OPNOTSUPP, 0);
		return -1;
	}
}

/* Reads exactly len bytes at off of the file *payload (a
 * qb_pdeflate_read_fn).  Returns 0, or -1 with errno set (EIO: the file
 * ended first). */
static int read_fd(void *payload, void *buf, size_t len, uint64_t off)
{
	int fd = *(const int *)payload;
	for (size_t got = 0; got < len;) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

/* The source of a member of one block kept in z's scratch file: as
 * member_cb(), with nothing to free. */
static zip_int64_t small_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
	small_rec *r = ud;
	zip_error_t *error = &r->z->small_error;
	switch (cmd) {
	case ZIP_SOURCE_OPEN:
		r->pos = 0;
		return 0;
	case ZIP_SOURCE_READ: {
		size_t n = r->len - r->pos < len ? r->len - r->pos : (size_t)len;
		if (read_fd(&r->z->small_fd, data, n, r->off + r->pos) != 0) {
			zip_error_set(error, ZIP_ER_READ, errno);
			return -1;
		}
		r->pos += (uint32_t)n;
		return (zip_int64_t)n;
	}
	case ZIP_SOURCE_CLOSE:
	case ZIP_SOURCE_FREE:
		return 0;
	case ZIP_SOURCE_STAT: {
		zip_stat_t *st = data;
		zip_stat_init(st);
		st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC;
		st->size = r->size;
		st->comp_size = r->len;
		st->comp_method = ZIP_CM_DEFLATE;
		st->crc = r->crc;
		return sizeof *st;
	}
	case ZIP_SOURCE_ERROR:
		return zip_error_to_data(error, data, len);
	case ZIP_SOURCE_SUPPORTS:
		return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ,
		                                      ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
		                                      ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
	default:
		zip_error_set(error, ZIP_ER_OPNOTSUPP, 0);
		return -1;
	}
}

/* A new record in z's chunks. */
static small_rec *small_rec_new(qb_zipw *z)
{
	if (!z->chunks || z->chunks->n == SMALL_CHUNK) {
		struct small_chunk *c = qb_xmalloc(sizeof *c);
		c->next = z->chunks;
		c->n = 0;
		z->chunks = c;
	}
	return &z->chunks->recs[z->chunks->n++];
}

/* A libzip source of s (freed when none can be made). */
static zip_source_t *member_source(qb_zipw *z, member_src *s)
{
	zip_error_init(&s->error);
	zip_source_t *src = zip_source_function(z->zip, member_cb, s);
	if (!src)
		member_cb(s, NULL, 0, ZIP_SOURCE_FREE);
	return src;
}

/* Deflates size bytes from read (on every core when they are several
 * blocks) and adds them as name. */
static int read_mem(void *payload, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, (const char *)payload + off, len);
	return 0;
}

/* Deflates data (at most one block) with z's own compressor and keeps the
 * result at the end of z's scratch file (in memory when there is none):
 * the same bytes as qb_pdeflate(), without a compressor made and the
 * result held for each member. */
static int add_small(qb_zipw *z, const char *name, const void *data, size_t len)
{
	if (!z->small && !(z->small = libdeflate_alloc_compressor(z->level))) {
		qb_diag_fatal("cannot compress '%s' for '%s'", name, z->path);
		return -1;
	}
	size_t bound = libdeflate_deflate_compress_bound(z->small, len);
	if (bound > z->small_cap) {
		z->small_out = qb_xrealloc(z->small_out, bound);
		z->small_cap = bound;
	}
	size_t used = libdeflate_deflate_compress(z->small, data, len, z->small_out, bound);
	if (!used) {
		qb_diag_fatal("cannot compress '%s' for '%s'", name, z->path);
		return -1;
	}
	if (z->small_fd == -1)
		z->small_fd = qb_fs_scratch(z->path);
	for (size_t put = 0; z->small_fd >= 0 && put < used;) {
		ssize_t n = pwrite(z->small_fd, z->small_out + put, used - put,
		                   (off_t)(z->small_end + put));
		if (n <= 0) { /* kept in memory, as when there is no scratch file */
			close(z->small_fd);
			z->small_fd = -2;
			break;
		}
		put += (size_t)n;
	}
	uint32_t crc = libdeflate_crc32(0, data, len);
	if (z->small_fd >= 0) {
		small_rec *r = small_rec_new(z);
		*r = (small_rec){z, z->small_end, (uint32_t)used, (uint32_t)len, crc, 0};
		z->small_end += used;
		return add_source(z, name, zip_source_function(z->zip, small_cb, r), true);
	}
	/* No scratch file: the bytes stay in memory, with a source of their own. */
	member_src *s = qb_xcalloc(1, sizeof *s);
	qb_pdeflate_part *part = qb_xcalloc(1, sizeof *part);
	part->len = used;
	part->data = qb_xmalloc(used);
	memcpy(part->data, z->small_out, used);
	s->d = (qb_pdeflated){part, 1, -1, used, crc, len, 0};
	return add_source(z, name, member_source(z, s), true);
}

/* Adds s, whose s->d was just made (made: 0, or -1 when compressing
 * failed: s is freed), as the deflated member name. */
static int add_made(qb_zipw *z, const char *name, member_src *s, int made)
{
	if (made != 0) {
		free(s);
		qb_diag_fatal("cannot compress '%s' for '%s'", name, z->path);
		return -1;
	}
	return add_source(z, name, member_source(z, s), true);
}

static int add_deflated(qb_zipw *z, const char *name, qb_pdeflate_read_fn read, void *payload,
                        uint64_t size)
{
	member_src *s = qb_xcalloc(1, sizeof *s);
	int threads = z->room_of && size > QB_PDEFLATE_BLOCK
	                  ? qb_pdeflate_threads_within(qb_mem_room(z->room_of))
	                  : 0;
	return add_made(z, name, s, qb_pdeflate(&s->d, read, payload, size, z->level, threads));
}

/* ---- compressed ahead (zipw.h) ---- */

struct qb_zipw_ahead {
	int fd;
	char *file;
	qb_pdeflate_ahead *ahead;
};

qb_zipw_ahead *qb_zipw_ahead_new(const char *file, uint64_t from)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	qb_zipw_ahead *h = qb_xmalloc(sizeof *h);
	*h = (qb_zipw_ahead){fd, qb_xstrdup(file), NULL};
	h->ahead = qb_pdeflate_ahead_new(read_fd, &h->fd, QB_ZIPW_LEVEL, from);
	return h;
}

void qb_zipw_ahead_wrote(qb_zipw_ahead *h, uint64_t off, uint64_t len)
{
	qb_pdeflate_ahead_wrote(h->ahead, off, len);
}

size_t qb_zipw_ahead_done(qb_zipw_ahead *h)
{
	return qb_pdeflate_ahead_done(h->ahead);
}

void qb_zipw_ahead_free(qb_zipw_ahead *h)
{
	if (!h)
		return;
	qb_pdeflate_ahead_free(h->ahead); /* joins its thread, which reads fd */
	close(h->fd);
	free(h->file);
	free(h);
}

int qb_zipw_add_ahead(qb_zipw *z, const char *name, qb_zipw_ahead *h)
{
	struct stat st;
	int rc = -1;
	if (fstat(h->fd, &st) != 0) {
		qb_diag_fatal("cannot read '%s': %s", h->file, strerror(errno));
	} else if (z->level != QB_ZIPW_LEVEL) { /* compressed ahead at the other: all again */
		rc = add_deflated(z, name, read_fd, &h->fd, (uint64_t)st.st_size);
	} else {
		member_src *s = qb_xcalloc(1, sizeof *s);
		qb_pdeflate_ahead *a = h->ahead;
		h->ahead = NULL; /* freed by the finish */
		rc = add_made(z, name, s, qb_pdeflate_ahead_finish(a, &s->d, (uint64_t)st.st_size, 0));
	}
	qb_zipw_ahead_free(h);
	return rc;
}

/* A member from memory, deflated: by z's own compressor when it is one
 * block (add_small()), else on every core. */
static int add_mem_deflated(qb_zipw *z, const char *name, const void *data, size_t len)
{
	return len <= QB_PDEFLATE_BLOCK ? add_small(z, name, data, len)
	                                : add_deflated(z, name, read_mem, (void *)data, len);
}

int qb_zipw_add_owned(qb_zipw *z, const char *name, void *data, size_t len, bool compress)
{
	if (compress) {
		int rc = add_mem_deflated(z, name, data, len);
		free(data);
		return rc;
	}
	zip_source_t *src = zip_source_buffer(z->zip, data, len, 1);
	if (!src)
		free(data);
	return add_source(z, name, src, false);
}

int qb_zipw_add(qb_zipw *z, const char *name, const void *data, size_t len, bool compress)
{
	if (compress) /* deflated now: no copy needed */
		return add_mem_deflated(z, name, data, len);
	void *copy = qb_xmalloc(len);
	if (len)
		memcpy(copy, data, len);
	return qb_zipw_add_owned(z, name, copy, len, compress);
}

int qb_zipw_add_file(qb_zipw *z, const char *name, const char *file, bool compress)
{
	if (compress) { /* deflated now */
		struct stat st;
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			qb_diag_fatal("cannot read '%s': %s", file, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		int rc = add_deflated(z, name, read_fd, &fd, (uint64_t)st.st_size);
		close(fd);
		return rc;
	}
	/* Read while the archive is written, by qb_zipw_commit(). */
	return add_source(z, name, zip_source_file(z->zip, file, 0, -1), false);
}

/* ---- streamed members ---- */

static void stream_failed(qb_zipw_stream *s)
{
	if (!s->failed)
		qb_diag_fatal("cannot write a scratch file next to '%s': %s", s->z->path,
		              strerror(errno));
	s->failed = true;
}

/* Appends what memory holds to the scratch file. */
static int stream_flush(qb_zipw_stream *s)
{
	for (size_t put = 0; put < s->mem.len;) {
		ssize_t n = write(s->fd, s->mem.ptr + put, s->mem.len - put);
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			stream_failed(s);
			return -1;
		}
		put += (size_t)n;
	}
	qb_buf_clear(&s->mem);
	return 0;
}

qb_zipw_stream *qb_zipw_stream_new(qb_zipw *z)
{
	qb_zipw_stream *s = qb_xcalloc(1, sizeof *s);
	s->z = z;
	s->fd = -1;
	s->next = z->streams;
	z->streams = s;
	return s;
}

int qb_zipw_stream_write(qb_zipw_stream *s, const void *data, size_t len)
{
	if (s->failed || s->added) {
		if (!s->failed)
			qb_diag_fatal("internal error: a write to a member of '%s' already added",
			              s->z->path);
		s->failed = true;
		return -1;
	}
	qb_buf_append(&s->mem, data, len);
	s->size += len;
	if (s->mem.len < STREAM_MEM)
		return 0;
	if (s->fd < 0 && (s->fd = qb_fs_scratch(s->z->path)) < 0) {
		stream_failed(s);
		return -1;
	}
	return stream_flush(s);
}

int qb_zipw_stream_puts(qb_zipw_stream *s, const char *str)
{
	return qb_zipw_stream_write(s, str, strlen(str));
}

uint64_t qb_zipw_stream_size(const qb_zipw_stream *s)
{
	return s->size;
}

/* Reads len bytes at off of a stream whose bytes are all in memory or all
 * in the file: safe from several threads at once. */
static int stream_pread(qb_zipw_stream *s, void *buf, size_t len, uint64_t off)
{
	if (s->fd < 0) {
		memcpy(buf, s->mem.ptr + off, len);
		return 0;
	}
	return read_fd(&s->fd, buf, len, off);
}

int qb_zipw_stream_read(qb_zipw_stream *s, uint64_t off, void *buf, size_t len)
{
	if (s->failed)
		return -1;
	if (s->let_go || off > s->size || len > s->size - off) {
		qb_diag_fatal("internal error: a read past the end of a scratch file of '%s'",
		              s->z->path);
		return -1;
	}
	if (s->fd >= 0 && s->mem.len && stream_flush(s) != 0)
		return -1;
	if (len && stream_pread(s, buf, len, off) != 0) {
		qb_diag_fatal("cannot read back a scratch file of '%s': %s", s->z->path,
		              strerror(errno));
		return -1;
	}
	return 0;
}

/* Frees s's bytes, in memory and in its scratch file. */
static void stream_let_go(qb_zipw_stream *s)
{
	qb_buf_dispose(&s->mem);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->let_go = true;
}

static int read_stream(void *payload, void *buf, size_t len, uint64_t off)
{
	return stream_pread(payload, buf, len, off);
}

int qb_zipw_add_stream(qb_zipw *z, const char *name, qb_zipw_stream *s, bool compress)
{
	if (s->failed || (s->fd >= 0 && s->mem.len && stream_flush(s) != 0))
		return -1;
	s->added = true;
	if (compress) { /* deflated now: the bytes are let go */
		int rc = add_deflated(z, name, read_stream, s, s->size);
		stream_let_go(s);
		return rc;
	}
	if (s->fd < 0)
		return add_source(z, name, zip_source_buffer(z->zip, s->size ? s->mem.ptr : "", s->size, 0),
		                  false);
	member_src *m = qb_xcalloc(1, sizeof *m);
	m->d.spill = -1;
	m->stored = s;
	return add_source(z, name, member_source(z, m), false);
}

/* Frees every stream of z (after libzip is done with them). */
static void free_streams(qb_zipw *z)
{
	for (qb_zipw_stream *s = z->streams, *next; s; s = next) {
		next = s->next;
		stream_let_go(s);
		free(s);
	}
	z->streams = NULL;
}

/* After libzip has read every member (or dropped them). */
static void free_small(qb_zipw *z)
{
	if (z->small)
		libdeflate_free_compressor(z->small);
	free(z->small_out);
	if (z->small_fd >= 0)
		close(z->small_fd);
	for (struct small_chunk *c = z->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	zip_error_fini(&z->small_error);
}

/* Frees z and what it holds, once libzip is done with its members. */
static void zipw_free(qb_zipw *z)
{
	free_small(z);
	free_streams(z);
	free(z->tmp);
	free(z->room_of);
	free(z->path);
	free(z);
}

int qb_zipw_commit(qb_zipw *z)
{
	int rc = 0;
	if (zip_close(z->zip) != 0) {
		qb_diag_fatal("cannot write '%s': %s", z->path, zip_strerror(z->zip));
		zip_discard(z->zip);
		unlink(z->tmp);
		rc = -1;
	} else if (qb_fs_rename_durable(z->tmp, z->path) != 0) {
		qb_diag_fatal("cannot write '%s': %s", z->path, strerror(errno));
		rc = -1;
	}
	z->zip = NULL;
	zipw_free(z);
	return rc;
}

void qb_zipw_discard(qb_zipw *z)
{
	if (!z)
		return;
	if (z->zip)
		zip_discard(z->zip);
	unlink(z->tmp);
	zipw_free(z);
}
