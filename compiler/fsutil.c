/* fsutil.c - see fsutil.h. */
#include "fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"

int qb_fs_read(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	/* A regular file is read into a buffer of its size (and one byte to
	 * see the end), allocated once; anything else grows as it comes. */
	qb_buf b = QB_BUF_INIT;
	struct stat st;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	qb_buf_reserve(&b, regular ? (size_t)st.st_size + 1 : 65536);
	size_t n;
	do {
		if (b.len + 1 >= b.cap)
			qb_buf_reserve(&b, b.cap); /* doubling */
		n = fread(b.ptr + b.len, 1, b.cap - b.len - 1, f);
		b.len += n;
	} while (n > 0);
	b.ptr[b.len] = '\0';
	int err = ferror(f) ? errno : 0;
	fclose(f);
	if (err) {
		qb_buf_dispose(&b);
		errno = err;
		return -1;
	}
	*len = b.len;
	*data = qb_buf_detach(&b);
	return 0;
}

int qb_fs_mkdirs(const char *dir)
{
	char *p = qb_xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
		if (rc)
			break;
	}
	if (!rc && mkdir(p, 0777) != 0 && errno != EEXIST)
		rc = -1;
	struct stat st;
	if (!rc && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
		if (!errno)
			errno = ENOTDIR;
		rc = -1;
	}
	free(p);
	return rc;
}

char *qb_fs_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	if (n && dir[n - 1] == '/')
		return qb_xasprintf("%s%s", dir, name);
	return qb_xasprintf("%s/%s", dir, name);
}

/* mkstemp next to path: "<dir>/.<name>.XXXXXX.tmp" is hidden, and the
 * suffix keeps the destination's extension out of the way of globs. */
static int make_tmp(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path) + 1 : 0;
	char *t = qb_xasprintf("%.*s.%s.XXXXXX.tmp", dirlen, path, base);
	int fd = mkstemps(t, 4);
	if (fd < 0) {
		free(t);
		return -1;
	}
	*tmp = t;
	return fd;
}

struct qb_fs_removal {
	pthread_t tid;
	bool started;
	char *path;
};

static void *remove_path(void *arg)
{
	unlink(((qb_fs_removal *)arg)->path);
	return NULL;
}

qb_fs_removal *qb_fs_remove_async(const char *path)
{
	qb_fs_removal *r = qb_xcalloc(1, sizeof *r);
	r->path = qb_xstrdup(path);
	r->started = pthread_create(&r->tid, NULL, remove_path, r) == 0;
	return r;
}

void qb_fs_removal_wait(qb_fs_removal *r)
{
	if (!r)
		return;
	if (r->started)
		pthread_join(r->tid, NULL);
	else
		unlink(r->path);
	free(r->path);
	free(r);
}

char *qb_fs_tmpname(const char *path)
{
	char *tmp = NULL;
	int fd = make_tmp(path, &tmp);
	if (fd < 0)
		return NULL;
	close(fd);
	return tmp;
}

int qb_fs_scratch(const char *path)
{
	char *tmp = NULL;
	int fd = make_tmp(path, &tmp);
	if (fd < 0)
		return -1;
	unlink(tmp);
	free(tmp);
	return fd;
}

int qb_fs_atomic_open(qb_fs_atomic *a, const char *path)
{
	memset(a, 0, sizeof *a);
	int fd = make_tmp(path, &a->tmp);
	if (fd < 0)
		return -1;
	a->f = fdopen(fd, "wb");
	if (!a->f) {
		int err = errno;
		close(fd);
		unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
		errno = err;
		return -1;
	}
	a->path = qb_xstrdup(path);
	return 0;
}

int qb_fs_rename_durable(const char *tmp, const char *path)
{
	int fd = open(tmp, O_RDONLY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	/* Files from mkstemp are 0600; outputs are ordinary files. */
	mode_t mask = umask(0);
	umask(mask);
	if (chmod(tmp, 0666 & ~mask) != 0 || rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

int qb_fs_atomic_commit(qb_fs_atomic *a)
{
	int rc = 0;
	if (fflush(a->f) != 0 || ferror(a->f) || fsync(fileno(a->f)) != 0)
		rc = -1; /* ferror(): a write that failed before the flush */
	int err = errno;
	if (fclose(a->f) != 0 && !rc) {
		rc = -1;
		err = errno;
	}
	a->f = NULL;
	if (!rc) {
		rc = qb_fs_rename_durable(a->tmp, a->path);
		err = errno;
		free(a->tmp); /* renamed, or removed on failure */
		a->tmp = NULL;
	}
	qb_fs_atomic_discard(a);
	errno = err;
	return rc;
}

void qb_fs_atomic_discard(qb_fs_atomic *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof *a);
}

int qb_fs_write_atomic(const char *path, const void *data, size_t len)
{
	qb_fs_atomic a;
	if (qb_fs_atomic_open(&a, path) != 0)
		return -1;
	if (len && fwrite(data, 1, len, a.f) != len) {
		int err = errno;
		qb_fs_atomic_discard(&a);
		errno = err;
		return -1;
	}
	return qb_fs_atomic_commit(&a);
}

char *qb_fs_beside_exe(const char *argv0, const char *const *rel, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0) {
		if (!argv0 || !realpath(argv0, exe))
			return NULL;
	} else
		exe[len] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	for (size_t i = 0; i < n; i++) {
		char *dir = qb_xasprintf("%s%s", exe, rel[i]);
		struct stat st;
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return dir;
		free(dir);
	}
	return NULL;
}
