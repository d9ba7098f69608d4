/* zipw.c - see zipw.h. */
#include "zipw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"

/* The deflate level of every compressed member.  Measured with
 * tests/bench/floor.c on the 10,000-question bank's package (150 MB of
 * SQLite): level 9 takes 2.6 s for 13.57 MB, level 6 1.5 s for 13.70 MB
 * (1 % more), level 1 0.7 s for 19.2 MB (41 % more).  Level 6, zlib's
 * default, keeps the size and halves the time; see tests/bench/README.md. */
#define DEFLATE_LEVEL 6

struct qb_zipw {
	zip_t *zip;
	char *path; /* destination                                          */
	char *tmp;  /* what libzip writes; renamed to path on commit         */
	time_t mtime;
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
	return z;
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

/* Adds src (NULL: libzip could not make it) as member name. */
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
	                             compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
	                             compress ? DEFLATE_LEVEL : 0) != 0 ||
	    set_dostime(z->zip, (zip_uint64_t)idx, z->mtime) != 0 ||
	    zip_file_set_external_attributes(z->zip, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
	                                     (zip_uint32_t)0100644 << 16) != 0)
		goto fail;
	return 0;
fail:
	qb_diag_fatal("cannot add '%s' to '%s': %s", name, z->path, zip_strerror(z->zip));
	return -1;
}

int qb_zipw_add_owned(qb_zipw *z, const char *name, void *data, size_t len, bool compress)
{
	zip_source_t *src = zip_source_buffer(z->zip, data, len, 1);
	if (!src)
		free(data);
	return add_source(z, name, src, compress);
}

int qb_zipw_add(qb_zipw *z, const char *name, const void *data, size_t len, bool compress)
{
	void *copy = qb_xmalloc(len);
	if (len)
		memcpy(copy, data, len);
	return qb_zipw_add_owned(z, name, copy, len, compress);
}

int qb_zipw_add_file(qb_zipw *z, const char *name, const char *file, bool compress)
{
	/* Read while the archive is written, by qb_zipw_commit(). */
	return add_source(z, name, zip_source_file(z->zip, file, 0, -1), compress);
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
	free(z->tmp);
	free(z->path);
	free(z);
	return rc;
}

void qb_zipw_discard(qb_zipw *z)
{
	if (!z)
		return;
	if (z->zip)
		zip_discard(z->zip);
	unlink(z->tmp);
	free(z->tmp);
	free(z->path);
	free(z);
}
