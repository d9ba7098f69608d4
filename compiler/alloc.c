/* alloc.c - the only place that calls malloc and friends directly. */
#include "alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

QB_NORETURN static void oom(size_t n)
{
	fprintf(stderr, "qbc: out of memory (%zu bytes)\n", n);
	abort();
}

void *qb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *qb_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom(count * size);
	return p;
}

void *qb_xcalloc_written(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		oom(SIZE_MAX);
	size_t n = count * size;
	void *p = qb_xmalloc(n ? n : 1);
	memset(p, 0, n ? n : 1);
	return p;
}

void *qb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *qb_xstrndup(const char *s, size_t n)
{
	char *p = qb_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *qb_xstrdup(const char *s)
{
	return qb_xstrndup(s, strlen(s));
}

char *qb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	char *p = qb_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

size_t qb_mem_room(const char *bank_path)
{
	struct stat st;
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, resident = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	if (resident <= 0 || stat(bank_path, &st) != 0)
		return 0;
	double goal = 3.0 * (double)st.st_size + (double)(30 << 20);
	double held = (double)resident * (double)sysconf(_SC_PAGESIZE);
	return goal > held ? (size_t)(goal - held) : 0;
}
