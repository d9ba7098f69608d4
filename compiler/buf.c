/* buf.c - see buf.h. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static void grow(qb_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->ptr = qb_xrealloc(b->ptr, cap);
	b->cap = cap;
}

void qb_buf_reserve(qb_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	b->ptr = qb_xrealloc(b->ptr, need);
	b->cap = need;
	b->ptr[b->len] = '\0';
}

void qb_buf_append(qb_buf *b, const char *data, size_t n)
{
	grow(b, n);
	if (n)
		memcpy(b->ptr + b->len, data, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void qb_buf_puts(qb_buf *b, const char *s)
{
	qb_buf_append(b, s, strlen(s));
}

void qb_buf_vappendf(qb_buf *b, const char *fmt, va_list ap)
{
	/* Formats straight into the free space; only when it is too small
	 * is the text formatted a second time, after growing. */
	grow(b, 63);
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(b->ptr + b->len, b->cap - b->len, fmt, aq);
	va_end(aq);
	if (n <= 0) {
		b->ptr[b->len] = '\0';
		return;
	}
	if ((size_t)n < b->cap - b->len) {
		b->len += (size_t)n;
		return;
	}
	grow(b, (size_t)n);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void qb_buf_appendf(qb_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	qb_buf_vappendf(b, fmt, ap);
	va_end(ap);
}

const char *qb_buf_cstr(const qb_buf *b)
{
	return b->ptr ? b->ptr : "";
}

void qb_buf_clear(qb_buf *b)
{
	b->len = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

char *qb_buf_detach(qb_buf *b)
{
	char *p = b->ptr ? b->ptr : qb_xstrdup("");
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

void qb_buf_dispose(qb_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}
