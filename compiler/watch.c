/* watch.c - see watch.h. */
#include "watch.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "alloc.h"
#include "revision.h"

/* One file that makes a bank dirty: a name in a watched folder. */
typedef struct watched {
	int wd;
	char *name;
	size_t bank;
} watched;

struct qb_watch {
	int fd;
	watched *w;
	size_t n;
	size_t bank; /* the bank whose media are being added */
};

qb_watch *qb_watch_new(void)
{
	int fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0)
		return NULL;
	qb_watch *w = qb_xcalloc(1, sizeof *w);
	w->fd = fd;
	return w;
}

void qb_watch_free(qb_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i].name);
	free(w->w);
	close(w->fd);
	free(w);
}

int qb_watch_file(qb_watch *s, const char *path, size_t bank)
{
	char *dir = qb_xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	int wd = inotify_add_watch(s->fd, slash ? dir : ".", IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE);
	free(dir);
	if (wd < 0)
		return -1;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < s->n; i++)
		if (s->w[i].wd == wd && s->w[i].bank == bank && strcmp(s->w[i].name, base) == 0)
			return 0;
	s->w = qb_xrealloc(s->w, (s->n + 1) * sizeof *s->w);
	s->w[s->n++] = (watched){wd, qb_xstrdup(base), bank};
	return 0;
}

static void watch_media(void *payload, const char *path)
{
	qb_watch *s = payload;
	(void)qb_watch_file(s, path, s->bank);
}

void qb_watch_bank_media(qb_watch *s, const qb_bank *bank, size_t i)
{
	s->bank = i;
	qb_rev_each_media(bank, watch_media, s);
}

/* Marks the banks named by the inotify events in ev[0..n). */
static void mark_dirty(const qb_watch *s, const char *ev, ssize_t n, bool *dirty)
{
	for (const char *p = ev; p < ev + n;) {
		const struct inotify_event *e = (const struct inotify_event *)(const void *)p;
		for (size_t i = 0; i < s->n; i++)
			if (e->wd == s->w[i].wd && e->len && strcmp(e->name, s->w[i].name) == 0)
				dirty[s->w[i].bank] = true;
		p += sizeof *e + e->len;
	}
}

int qb_watch_wait(qb_watch *s, bool *dirty, size_t nbanks, int stopfd)
{
	_Alignas(struct inotify_event) char ev[sizeof(struct inotify_event) + 4096];
	memset(dirty, 0, nbanks * sizeof *dirty);
	for (;;) {
		struct pollfd pfd[2] = {{s->fd, POLLIN, 0}, {stopfd, POLLIN, 0}};
		int r = poll(pfd, stopfd >= 0 ? 2 : 1, -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (stopfd >= 0 && pfd[1].revents)
			return 0;
		ssize_t n = read(s->fd, ev, sizeof ev);
		if (n <= 0) {
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			return -1;
		}
		mark_dirty(s, ev, n, dirty);
		/* Let an editor finish writing (several events per save). */
		struct pollfd one = {s->fd, POLLIN, 0};
		while (poll(&one, 1, 150) > 0 && (n = read(s->fd, ev, sizeof ev)) > 0)
			mark_dirty(s, ev, n, dirty);
		for (size_t i = 0; i < nbanks; i++)
			if (dirty[i])
				return 1;
	}
}
