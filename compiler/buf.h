/* buf.h - the one growable byte buffer for generated text (cmark's
 * cmark_strbuf, curl's dynbuf).  Always NUL-terminated once anything was
 * appended.  Out-of-memory aborts. */
#ifndef QB_BUF_H
#define QB_BUF_H

#include <stdarg.h>

#include "qb.h"

typedef struct qb_buf {
	char *ptr;   /* NULL until the first append                      */
	size_t len;  /* bytes in use, excluding the terminating NUL       */
	size_t cap;  /* bytes allocated                                   */
} qb_buf;

#define QB_BUF_INIT {NULL, 0, 0}

/* Makes room for extra more bytes (and the NUL) at once, exactly: for a
 * size known in advance. */
void qb_buf_reserve(qb_buf *b, size_t extra);
void qb_buf_append(qb_buf *b, const char *data, size_t n);
void qb_buf_puts(qb_buf *b, const char *s);
/* One byte: inline, as callers put text out byte by byte in their
 * inner loops; the buffer grows only through qb_buf_append(). */
static inline void qb_buf_putc(qb_buf *b, char c)
{
	if (b->len + 1 < b->cap) {
		b->ptr[b->len++] = c;
		b->ptr[b->len] = '\0';
	} else
		qb_buf_append(b, &c, 1);
}
void qb_buf_appendf(qb_buf *b, const char *fmt, ...) QB_PRINTF(2, 3);
void qb_buf_vappendf(qb_buf *b, const char *fmt, va_list ap) QB_PRINTF(2, 0);
/* The contents as a C string ("" when empty); valid until the next append. */
const char *qb_buf_cstr(const qb_buf *b);
void qb_buf_clear(qb_buf *b);
/* Hands the heap string to the caller (never NULL) and resets the buffer. */
char *qb_buf_detach(qb_buf *b);
void qb_buf_dispose(qb_buf *b);

#endif
