/* Unit tests of the zip side: deflate on every core (pdeflate.c) and a
 * big member written through zipw.c, read back with zlib and libzip. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include "anki_db.h"
#include "diag.h"
#include "fsutil.h"
#include "harness.h"
#include "pdeflate.h"
#include "zipw.h"

/* Text that compresses like a collection's: repeated markup with varying
 * numbers, so matches would cross the blocks; seed varies the text, and
 * with it where each block's deflate stream ends within its last byte. */
static uint8_t *sample_seeded(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n ? n : 1);
	uint32_t x = seed;
	for (size_t i = 0; i < n;) {
		char line[96];
		x = x * 1103515245u + 12345u;
		int k = snprintf(line, sizeof line, "<li data-ok>option %u of question %zu</li>",
		                 (x >> 16) % 97, i / 4096);
		for (int j = 0; j < k && i < n; j++)
			p[i++] = (uint8_t)line[j];
	}
	return p;
}

static uint8_t *sample(size_t n)
{
	return sample_seeded(n, 12345);
}

static int read_mem(void *payload, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, (const uint8_t *)payload + off, len);
	return 0;
}

static int read_fails(void *payload, void *buf, size_t len, uint64_t off)
{
	(void)payload;
	(void)buf;
	(void)len;
	return off >= ((uint64_t)2 << 20) ? -1 : 0;
}

/* d's stream in one buffer, read through qb_pdeflated_read() in odd
 * pieces. */
static uint8_t *joined(const qb_pdeflated *d)
{
	uint8_t *all = malloc(d->len + 1);
	uint64_t at = 0;
	size_t n;
	while ((n = qb_pdeflated_read(d, at, all + at, 777)) > 0)
		at += n;
	return at == d->len ? all : (free(all), NULL);
}

/* True when the raw deflate stream d inflates to exactly data[0..n). */
static bool inflates_to(const qb_pdeflated *d, const uint8_t *data, size_t n)
{
	z_stream s;
	memset(&s, 0, sizeof s);
	uint8_t *in = joined(d);
	if (!in || inflateInit2(&s, -15) != Z_OK) {
		free(in);
		return false;
	}
	uint8_t *out = malloc(n + 1);
	s.next_in = in;
	s.avail_in = (uInt)d->len;
	s.next_out = out;
	s.avail_out = (uInt)(n + 1);
	int rc = inflate(&s, Z_FINISH);
	bool ok = rc == Z_STREAM_END && s.total_out == n && s.avail_in == 0 &&
	          memcmp(out, data, n) == 0;
	inflateEnd(&s);
	free(out);
	free(in);
	return ok;
}

/* mkdtemp(tmpl), a failure counted as a failed check. */
static bool made_dir(char *tmpl)
{
	if (mkdtemp(tmpl))
		return true;
	OK(!"mkdtemp");
	return false;
}

static void test_pdeflate(void)
{
	/* Sizes around the block size, an empty input, and several blocks. */
	const size_t sizes[] = {0, 1, QB_PDEFLATE_BLOCK, QB_PDEFLATE_BLOCK + 1,
	                        2 * QB_PDEFLATE_BLOCK + 500000};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		uint8_t *data = sample(n);
		qb_pdeflated one, three;
		INT_EQ(qb_pdeflate(&one, read_mem, data, n, 6, 1), 0);
		INT_EQ(qb_pdeflate(&three, read_mem, data, n, 6, 3), 0);
		OK(inflates_to(&one, data, n));
		/* The same bytes whatever the number of threads. */
		uint8_t *a = joined(&one), *b = joined(&three);
		OK(a && b && one.len == three.len && memcmp(a, b, (size_t)one.len) == 0);
		free(a);
		free(b);
		INT_EQ(one.crc, crc32(0L, data, (uInt)n));
		INT_EQ(one.size, n);
		if (n > 1000) /* it does compress */
			OK(one.len < n / 4);
		qb_pdeflated_free(&one);
		qb_pdeflated_free(&three);
		free(data);
	}
	/* Blocks whose streams end at every bit of a byte: each non-final
	 * block's end is stitched to the next (unfinal() in pdeflate.c). */
	for (uint32_t seed = 1; seed <= 16; seed++) {
		size_t n = 2 * QB_PDEFLATE_BLOCK + seed * 1000;
		uint8_t *data = sample_seeded(n, seed * 7919);
		qb_pdeflated d;
		INT_EQ(qb_pdeflate(&d, read_mem, data, n, 6, 2), 0);
		OK(inflates_to(&d, data, n));
		INT_EQ(d.crc, crc32(0L, data, (uInt)n));
		qb_pdeflated_free(&d);
		free(data);
	}
	/* A read error fails the whole thing. */
	qb_pdeflated d;
	INT_EQ(qb_pdeflate(&d, read_fails, NULL, (uint64_t)3 * QB_PDEFLATE_BLOCK, 6, 2), -1);
}

/* ---- compression ahead: a file written in place, as SQLite does ---- */

#define BLK QB_PDEFLATE_BLOCK

typedef struct written {
	int fd;
	qb_pdeflate_ahead *ahead;
	uint64_t poke_at;  /* the ahead thread's read there writes first    */
	const uint8_t *poke; /* the bytes it writes (once)                   */
	int fail;          /* reads fail while set                          */
} written;

static int read_written(void *payload, void *buf, size_t len, uint64_t off)
{
	written *w = payload;
	if (__atomic_load_n(&w->fail, __ATOMIC_SEQ_CST) ||
	    pread(w->fd, buf, len, (off_t)off) != (ssize_t)len)
		return -1;
	if (w->poke && off == w->poke_at) { /* written while it is compressed */
		const uint8_t *p = w->poke;
		w->poke = NULL;
		if (pwrite(w->fd, p + off, len, (off_t)off) != (ssize_t)len)
			return -1;
		qb_pdeflate_ahead_wrote(w->ahead, off, len);
	}
	return 0;
}

/* Writes data[off..off+len) in 64 KiB pieces, telling each. */
static void put(written *w, const uint8_t *data, uint64_t off, size_t len)
{
	for (size_t at = 0; at < len;) {
		size_t k = len - at < 65536 ? len - at : 65536;
		OK(pwrite(w->fd, data + off + at, k, (off_t)(off + at)) == (ssize_t)k);
		qb_pdeflate_ahead_wrote(w->ahead, off + at, k);
		at += k;
	}
}

/* Waits (at most 20 s) until the ahead thread has done n blocks. */
static bool wait_done(qb_pdeflate_ahead *a, size_t n)
{
	for (int i = 0; i < 2000 && qb_pdeflate_ahead_done(a) < n; i++)
		usleep(10000);
	return qb_pdeflate_ahead_done(a) >= n;
}

/* The ahead result against qb_pdeflate() of the same bytes: the same
 * stream, byte for byte, and the same CRC. */
static void same_as_plain(const qb_pdeflated *d, const uint8_t *data, size_t n)
{
	qb_pdeflated plain;
	INT_EQ(qb_pdeflate(&plain, read_mem, (void *)data, n, 6, 2), 0);
	uint8_t *a = joined(d), *b = joined(&plain);
	OK(a && b && d->len == plain.len && memcmp(a, b, (size_t)d->len) == 0);
	INT_EQ(d->crc, plain.crc);
	INT_EQ(d->size, n);
	OK(inflates_to(d, data, n));
	free(a);
	free(b);
	qb_pdeflated_free(&plain);
}

static void test_ahead(void)
{
	char path[] = "/tmp/qbc-unit-ahead-XXXXXX";
	int fd = mkstemp(path);
	OK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	size_t n = 6 * BLK + 12345;
	uint8_t *data = sample_seeded(n, 99), *old = sample_seeded(n, 7);

	/* Written as SQLite writes its file: the first 64 KiB (its first
	 * page) last, and blocks 2 and 3 at first as they were.  Block 2 is
	 * written again after it was compressed ahead; block 3 while the ahead
	 * thread compresses it (the read above).  Blocks 1 to 4 have the slack
	 * past their end (5 is the last but one; 0 holds the first page): all
	 * 4 are done ahead in the end, 2 and 3 twice.  A block compressed
	 * before its last write would make the stream differ. */
	written w = {fd, qb_pdeflate_ahead_new(read_written, &w, 6, 65536), 3 * BLK, data, 0};
	put(&w, old, 2 * BLK, 2 * BLK);
	put(&w, data, 65536, 2 * BLK - 65536);
	put(&w, data, 4 * BLK, n - 4 * BLK);
	OK(wait_done(w.ahead, 4));
	OK(w.poke == NULL);
	put(&w, data, 2 * BLK, BLK);
	put(&w, data, 0, 65536);
	OK(wait_done(w.ahead, 4));
	qb_pdeflated d;
	INT_EQ(qb_pdeflate_ahead_finish(w.ahead, &d, n, 2), 0);
	INT_EQ(d.ahead, 4);
	same_as_plain(&d, data, n);
	qb_pdeflated_free(&d);

	/* Cut short after the blocks were compressed ahead: what lies past the
	 * cut is not used, and the block the cut makes last is done again. */
	OK(ftruncate(fd, 0) == 0);
	w = (written){fd, qb_pdeflate_ahead_new(read_written, &w, 6, 65536), 0, NULL, 0};
	put(&w, data, 0, n);
	OK(wait_done(w.ahead, 4));
	size_t cut = 3 * BLK + 1000;
	OK(ftruncate(fd, (off_t)cut) == 0);
	qb_pdeflate_ahead_wrote(w.ahead, cut, UINT64_MAX - cut);
	INT_EQ(qb_pdeflate_ahead_finish(w.ahead, &d, cut, 2), 0);
	INT_EQ(d.ahead, 2); /* blocks 1 and 2; 3 is now the last */
	same_as_plain(&d, data, cut);
	qb_pdeflated_free(&d);

	/* Reads failing while the data is written stop the ahead thread;
	 * everything is compressed at the end. */
	OK(ftruncate(fd, 0) == 0);
	w = (written){fd, qb_pdeflate_ahead_new(read_written, &w, 6, 0), 0, NULL, 1};
	put(&w, data, 0, n);
	usleep(100000);
	INT_EQ(qb_pdeflate_ahead_done(w.ahead), 0);
	__atomic_store_n(&w.fail, 0, __ATOMIC_SEQ_CST);
	INT_EQ(qb_pdeflate_ahead_finish(w.ahead, &d, n, 2), 0);
	INT_EQ(d.ahead, 0);
	same_as_plain(&d, data, n);
	qb_pdeflated_free(&d);

	/* Abandoned with its thread at work: nothing leaks (ASan). */
	w = (written){fd, qb_pdeflate_ahead_new(read_written, &w, 6, 0), 0, NULL, 0};
	put(&w, data, 0, n);
	qb_pdeflate_ahead_free(w.ahead);

	close(fd);
	free(data);
	free(old);
}

/* zipw's side: a file compressed ahead becomes the same member as one
 * added whole, and at another level (the floor program's) it is all
 * compressed again. */
static void test_zipw_ahead(void)
{
	char dir[] = "/tmp/qbc-unit-zipa-XXXXXX";
	if (!made_dir(dir))
		return;
	char *file = qb_fs_join(dir, "col"), *zpath = qb_fs_join(dir, "out.zip");
	size_t n = 4 * BLK + 4321;
	uint8_t *data = sample_seeded(n, 5);
	for (int level = 6; level >= 1; level -= 5) {
		INT_EQ(qb_fs_write_atomic(file, "", 0), 0);
		qb_zipw_ahead *h = qb_zipw_ahead_new(file, 65536);
		OK(h != NULL);
		int fd = open(file, O_WRONLY);
		for (size_t at = 0; h && at < n; at += 65536) {
			size_t k = n - at < 65536 ? n - at : 65536;
			OK(pwrite(fd, data + at, k, (off_t)at) == (ssize_t)k);
			qb_zipw_ahead_wrote(h, at, k);
		}
		close(fd);
		qb_zipw *z = qb_zipw_open(zpath, 1700000000);
		qb_zipw_set_level(z, level);
		INT_EQ(qb_zipw_add_ahead(z, "col", h), 0);
		INT_EQ(qb_zipw_add_file(z, "whole", file, true), 0);
		INT_EQ(qb_zipw_commit(z), 0);
		int err = 0;
		zip_t *in = zip_open(zpath, ZIP_RDONLY | ZIP_CHECKCONS, &err);
		OK(in != NULL);
		zip_stat_t a, b;
		OK(in && zip_stat(in, "col", 0, &a) == 0 && zip_stat(in, "whole", 0, &b) == 0);
		if (in) {
			INT_EQ(a.comp_size, b.comp_size);
			INT_EQ(a.crc, crc32(0L, data, (uInt)n));
			uint8_t *back = malloc(n);
			zip_file_t *f = zip_fopen(in, "col", 0);
			OK(f && zip_fread(f, back, n) == (zip_int64_t)n && memcmp(back, data, n) == 0);
			if (f)
				zip_fclose(f);
			free(back);
			zip_close(in);
		}
		unlink(zpath);
	}
	unlink(file);
	rmdir(dir);
	free(file);
	free(zpath);
	free(data);
}

/* The compressed bytes of member name of the archive at path (NULL when
 * it cannot be read); *len their count. */
static uint8_t *raw_member(const char *path, const char *name, zip_uint64_t *len)
{
	int err = 0;
	zip_t *in = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &err);
	zip_stat_t st;
	if (!in || zip_stat(in, name, 0, &st) != 0) {
		if (in)
			zip_close(in);
		return NULL;
	}
	uint8_t *buf = malloc(st.comp_size + 1);
	zip_file_t *f = zip_fopen(in, name, ZIP_FL_COMPRESSED);
	bool ok = f && zip_fread(f, buf, st.comp_size) == (zip_int64_t)st.comp_size;
	if (f)
		zip_fclose(f);
	zip_close(in);
	*len = st.comp_size;
	return ok ? buf : (free(buf), NULL);
}

static void told(void *h, uint64_t off, uint64_t len)
{
	qb_zipw_ahead_wrote(h, off, len);
}

/* The Anki collection as write_anki.c builds it: SQLite fills its file
 * through anki_db.c's watching VFS while zipw compresses it ahead; the
 * member must be the bytes of the finished file compressed whole. */
static void test_collection_ahead(void)
{
	char dir[] = "/tmp/qbc-unit-col-XXXXXX";
	if (!made_dir(dir))
		return;
	char *col = qb_fs_join(dir, "col"), *zpath = qb_fs_join(dir, "out.zip");
	INT_EQ(qb_fs_write_atomic(col, "", 0), 0);
	qb_zipw_ahead *h = qb_zipw_ahead_new(col, QB_ANKI_DB_PAGE_SIZE);
	qb_anki_db *db = qb_anki_db_new(col, told, h);
	OK(db != NULL);
	/* About 20 MB of notes: blocks 1 to 3 are compressed ahead. */
	uint8_t *text = sample_seeded(6000, 3);
	text[5999] = 0;
	for (int i = 0; db && i < 3200; i++) {
		char guid[32], id[32];
		snprintf(guid, sizeof guid, "g%d", i);
		snprintf(id, sizeof id, "note %d ", i);
		const char *fields[] = {id, (const char *)text + i % 100};
		size_t lens[] = {strlen(fields[0]), strlen(fields[1])};
		qb_anki_note note = {1700000000000 + i, guid, 7, 1700000000, " t ", fields, lens, 2, 0};
		qb_anki_card card = {1600000000000 + i, note.id, 1, 0, 1700000000, i + 1};
		if (qb_anki_db_add_note(db, &note) != 0 || qb_anki_db_add_card(db, &card) != 0) {
			OK(!"insert");
			break;
		}
	}
	json_t *o = json_object();
	qb_anki_col c = {1700000000, 1700000000000, o, o, o, o};
	INT_EQ(qb_anki_db_set_col(db, &c), 0);
	INT_EQ(qb_anki_db_finish(db, col), 0);
	qb_anki_db_free(db);
	json_decref(o);
	for (int i = 0; i < 2000 && qb_zipw_ahead_done(h) < 3; i++)
		usleep(10000);
	INT_EQ(qb_zipw_ahead_done(h), 3);
	qb_zipw *z = qb_zipw_open(zpath, 1700000000);
	INT_EQ(qb_zipw_add_ahead(z, "ahead", h), 0);
	INT_EQ(qb_zipw_add_file(z, "whole", col, true), 0);
	INT_EQ(qb_zipw_commit(z), 0);
	zip_uint64_t na = 0, nw = 0;
	uint8_t *a = raw_member(zpath, "ahead", &na), *w = raw_member(zpath, "whole", &nw);
	OK(a && w && na == nw && nw > 0 && memcmp(a, w, (size_t)nw) == 0);
	free(a);
	free(w);
	free(text);
	unlink(col);
	unlink(zpath);
	rmdir(dir);
	free(col);
	free(zpath);
}

/* A member big enough for pdeflate, added from a file and from memory,
 * read back through libzip: it must see a deflated member with the right
 * CRC and contents. */
static void test_big_member(void)
{
	char dir[] = "/tmp/qbc-unit-zip-XXXXXX";
	if (!made_dir(dir))
		return;
	char *file = qb_fs_join(dir, "big.bin"), *zpath = qb_fs_join(dir, "out.zip");
	size_t n = (size_t)QB_PDEFLATE_BLOCK + 777777;
	uint8_t *data = sample(n);
	INT_EQ(qb_fs_write_atomic(file, data, n), 0);
	qb_zipw *z = qb_zipw_open(zpath, 1700000000);
	OK(z != NULL);
	INT_EQ(qb_zipw_add_file(z, "from-file", file, true), 0);
	INT_EQ(qb_zipw_add(z, "from-memory", data, n, true), 0);
	INT_EQ(qb_zipw_add(z, "small", "hello", 5, true), 0);
	INT_EQ(qb_zipw_commit(z), 0);

	int err = 0;
	zip_t *in = zip_open(zpath, ZIP_RDONLY | ZIP_CHECKCONS, &err);
	OK(in != NULL);
	const char *names[] = {"from-file", "from-memory"};
	for (size_t k = 0; in && k < 2; k++) {
		zip_stat_t st;
		INT_EQ(zip_stat(in, names[k], 0, &st), 0);
		INT_EQ(st.comp_method, ZIP_CM_DEFLATE);
		INT_EQ(st.size, n);
		INT_EQ(st.crc, crc32(0L, data, (uInt)n));
		OK(st.comp_size < n / 4);
		uint8_t *back = malloc(n);
		zip_file_t *f = zip_fopen(in, names[k], 0);
		OK(f && zip_fread(f, back, n) == (zip_int64_t)n && memcmp(back, data, n) == 0);
		if (f)
			zip_fclose(f);
		free(back);
	}
	if (in)
		zip_close(in);
	unlink(file);
	unlink(zpath);
	rmdir(dir);
	free(file);
	free(zpath);
	free(data);
}

/* Members of one block, as a QTI package's thousands of items: more than
 * one chunk of their records (4,096), each read back through libzip with
 * its own bytes and CRC, the archive checked for consistency. */
static void test_many_small(void)
{
	char dir[] = "/tmp/qbc-unit-zip-XXXXXX";
	if (!made_dir(dir))
		return;
	char *zpath = qb_fs_join(dir, "out.zip");
	enum { N = 9000 };
	qb_zipw *z = qb_zipw_open(zpath, 1700000000);
	OK(z != NULL);
	char name[32], text[128];
	int failed = 0;
	for (int i = 0; z && i < N; i++) {
		snprintf(name, sizeof name, "item-%d.xml", i);
		int len = snprintf(text, sizeof text, "<item n='%d'>%0*d</item>", i, i % 60, i);
		failed += qb_zipw_add(z, name, text, (size_t)len, true) != 0;
	}
	INT_EQ(failed, 0);
	if (z)
		INT_EQ(qb_zipw_commit(z), 0);
	int err = 0;
	zip_t *in = zip_open(zpath, ZIP_RDONLY | ZIP_CHECKCONS, &err);
	OK(in != NULL);
	INT_EQ(in ? zip_get_num_entries(in, 0) : 0, N);
	int bad = 0;
	for (int i = 0; in && i < N; i++) {
		snprintf(name, sizeof name, "item-%d.xml", i);
		int len = snprintf(text, sizeof text, "<item n='%d'>%0*d</item>", i, i % 60, i);
		zip_stat_t st;
		char back[128];
		zip_file_t *f = zip_stat(in, name, 0, &st) == 0 ? zip_fopen(in, name, 0) : NULL;
		bad += !f || st.comp_method != ZIP_CM_DEFLATE || st.size != (zip_uint64_t)len ||
		       st.crc != crc32(0L, (const Bytef *)text, (uInt)len) ||
		       zip_fread(f, back, sizeof back) != len || memcmp(back, text, (size_t)len) != 0;
		if (f)
			zip_fclose(f);
	}
	INT_EQ(bad, 0);
	if (in)
		zip_close(in);
	unlink(zpath);
	rmdir(dir);
	free(zpath);
}

/* Streamed members: small (kept in memory), past the memory limit (a
 * scratch file), big (deflated on every core) and stored from a scratch
 * file, each
 * written in odd pieces, and once deflated no longer readable; a stream
 * read back and never added; no scratch
 * file ever visible beside the archive, nothing left after a discard. */
static void test_streams(void)
{
	char dir[] = "/tmp/qbc-unit-zips-XXXXXX";
	if (!made_dir(dir))
		return;
	char *zpath = qb_fs_join(dir, "out.zip");
	const size_t sizes[] = {5, ((size_t)2 << 20) + 3, (size_t)QB_PDEFLATE_BLOCK + 12345,
	                        ((size_t)2 << 20) + 5};
	const char *names[] = {"small", "spilled", "big", "stored"};
	size_t n = sizes[2];
	uint8_t *data = sample(n);
	qb_zipw *z = qb_zipw_open(zpath, 1700000000);
	OK(z != NULL);
	uint8_t back[4096];
	qb_zipw_stream *scratch = qb_zipw_stream_new(z);
	for (size_t at = 0; at < n; at += 1001)
		INT_EQ(qb_zipw_stream_write(scratch, data + at, n - at < 1001 ? n - at : 1001), 0);
	for (size_t k = 0; k < 4; k++) {
		qb_zipw_stream *s = qb_zipw_stream_new(z);
		for (size_t at = 0; at < sizes[k]; at += 65537)
			INT_EQ(qb_zipw_stream_write(s, data + at,
			                            sizes[k] - at < 65537 ? sizes[k] - at : 65537), 0);
		INT_EQ(qb_zipw_stream_size(s), sizes[k]);
		INT_EQ(qb_zipw_add_stream(z, names[k], s, k < 3), 0);
		if (k == 0 || k == 3) { /* read only once added; deflated: let go */
			qb_diag_mark m = qb_diag_mark_now();
			INT_EQ(qb_zipw_stream_read(s, 0, back, 1), k == 0 ? -1 : 0);
			INT_EQ(qb_zipw_stream_write(s, "x", 1), -1);
			OK(qb_diag_errors_since(m) == (k == 0 ? 2 : 1));
		}
	}
	/* The scratch stream reads back exactly, at any offset. */
	INT_EQ(qb_zipw_stream_read(scratch, 3000000, back, sizeof back), 0);
	OK(memcmp(back, data + 3000000, sizeof back) == 0);
	INT_EQ(qb_zipw_stream_read(scratch, 0, back, 10), 0);
	OK(memcmp(back, data, 10) == 0);
	INT_EQ(qb_zipw_stream_write(scratch, "tail", 4), 0);
	INT_EQ(qb_zipw_stream_read(scratch, n, back, 4), 0);
	OK(memcmp(back, "tail", 4) == 0);
	/* Only the archive's temporary file is there: scratch files are
	 * unlinked from the start. */
	INT_EQ(h_entries(dir), 1);
	INT_EQ(qb_zipw_commit(z), 0);
	INT_EQ(h_entries(dir), 1);

	int err = 0;
	zip_t *in = zip_open(zpath, ZIP_RDONLY | ZIP_CHECKCONS, &err);
	OK(in != NULL);
	for (size_t k = 0; in && k < 4; k++) {
		zip_stat_t st;
		INT_EQ(zip_stat(in, names[k], 0, &st), 0);
		INT_EQ(st.size, sizes[k]);
		INT_EQ(st.comp_method, k < 3 ? ZIP_CM_DEFLATE : ZIP_CM_STORE);
		INT_EQ(st.crc, crc32(0L, data, (uInt)sizes[k]));
		uint8_t *got = malloc(sizes[k]);
		zip_file_t *f = zip_fopen(in, names[k], 0);
		OK(f && zip_fread(f, got, sizes[k]) == (zip_int64_t)sizes[k] &&
		   memcmp(got, data, sizes[k]) == 0);
		if (f)
			zip_fclose(f);
		free(got);
	}
	if (in)
		zip_close(in);
	unlink(zpath);

	/* A discarded archive leaves nothing, its streams included. */
	z = qb_zipw_open(zpath, 1700000000);
	qb_zipw_stream *s = qb_zipw_stream_new(z);
	INT_EQ(qb_zipw_stream_write(s, data, n), 0);
	qb_zipw_discard(z);
	INT_EQ(h_entries(dir), 0);
	rmdir(dir);
	free(zpath);
	free(data);
}

/* The threads the memory allows: at least one, one per worker that fits,
 * at most one per core; and an archive whose threads the room bounds is
 * the same bytes. */
static void test_room(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int cores = online < 1 ? 1 : online > 8 ? 8 : (int)online;
	INT_EQ(qb_pdeflate_threads_within(0), 1);
	INT_EQ(qb_pdeflate_threads_within(QB_PDEFLATE_WORKER_MEM - 1), 1);
	INT_EQ(qb_pdeflate_threads_within(QB_PDEFLATE_WORKER_MEM), 1);
	INT_EQ(qb_pdeflate_threads_within(2 * QB_PDEFLATE_WORKER_MEM), cores < 2 ? cores : 2);
	INT_EQ(qb_pdeflate_threads_within((size_t)-1), cores);

	char dir[] = "/tmp/qbc-unit-room-XXXXXX";
	if (!made_dir(dir))
		return;
	char *bank = qb_fs_join(dir, "tiny.qb");
	OK(qb_fs_write_atomic(bank, "bank: t\n", 8) == 0);
	size_t n = 2 * QB_PDEFLATE_BLOCK + 777;
	uint8_t *data = sample(n);
	char *bytes[2] = {NULL, NULL};
	size_t lens[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		char *zpath = qb_fs_join(dir, k ? "room.zip" : "cores.zip");
		qb_zipw *z = qb_zipw_open(zpath, 1700000000);
		OK(z != NULL);
		if (!z) {
			free(zpath);
			continue;
		}
		if (k) /* a goal of about 30 MiB: room for one worker at most */
			qb_zipw_set_room(z, bank);
		qb_zipw_stream *s = qb_zipw_stream_new(z);
		INT_EQ(qb_zipw_stream_write(s, data, n), 0);
		INT_EQ(qb_zipw_add_stream(z, "big", s, true), 0);
		INT_EQ(qb_zipw_commit(z), 0);
		OK(qb_fs_read(zpath, &bytes[k], &lens[k]) == 0);
		unlink(zpath);
		free(zpath);
	}
	OK(bytes[0] && bytes[1] && lens[0] == lens[1] && memcmp(bytes[0], bytes[1], lens[0]) == 0);
	free(bytes[0]);
	free(bytes[1]);
	free(data);
	unlink(bank);
	free(bank);
	rmdir(dir);
}

/* A removal on its own thread: the file is gone once waited for; a path
 * that is not there, or no removal at all, is fine. */
static void test_removal(void)
{
	char dir[] = "/tmp/qbc-unit-rm-XXXXXX";
	if (!made_dir(dir))
		return;
	char *path = qb_fs_join(dir, "big.tmp");
	size_t n = (size_t)8 << 20;
	uint8_t *data = sample(n);
	OK(qb_fs_write_atomic(path, data, n) == 0);
	qb_fs_removal *r = qb_fs_remove_async(path);
	OK(r != NULL);
	qb_fs_removal_wait(r);
	OK(access(path, F_OK) != 0);
	qb_fs_removal_wait(qb_fs_remove_async(path)); /* not there any more */
	qb_fs_removal_wait(NULL);
	INT_EQ(h_entries(dir), 0);
	free(data);
	free(path);
	rmdir(dir);
}

int main(void)
{
	test_pdeflate();
	test_ahead();
	test_zipw_ahead();
	test_collection_ahead();
	test_big_member();
	test_many_small();
	test_streams();
	test_room();
	test_removal();
	return h_done("zip");
}
