/* escape.c - see escape.h. */
#include "escape.h"

#include <libxml/HTMLparser.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "alloc.h"

void qb_escape_html(qb_buf *out, const char *s)
{
	for (;;) {
		size_t run = strcspn(s, "&<>\"'"); /* appended in one block */
		qb_buf_append(out, s, run);
		s += run;
		switch (*s) {
		case '\0': return;
		case '&': qb_buf_puts(out, "&amp;"); break;
		case '<': qb_buf_puts(out, "&lt;"); break;
		case '>': qb_buf_puts(out, "&gt;"); break;
		case '"': qb_buf_puts(out, "&quot;"); break;
		default: qb_buf_puts(out, "&#39;"); break;
		}
		s++;
	}
}

void qb_escape_script_json(qb_buf *out, const char *s)
{
	for (;;) {
		size_t run = strcspn(s, "<>&\xE2"); /* appended in one block */
		qb_buf_append(out, s, run);
		s += run;
		unsigned char c = (unsigned char)*s;
		if (!c)
			return;
		if (c == '<')
			qb_buf_puts(out, "\\u003c");
		else if (c == '>')
			qb_buf_puts(out, "\\u003e");
		else if (c == '&')
			qb_buf_puts(out, "\\u0026");
		else if ((unsigned char)s[1] == 0x80 &&
		         ((unsigned char)s[2] == 0xA8 || (unsigned char)s[2] == 0xA9)) {
			qb_buf_puts(out, (unsigned char)s[2] == 0xA8 ? "\\u2028" : "\\u2029");
			s += 2;
		} else
			qb_buf_putc(out, (char)c);
		s++;
	}
}

void qb_escape_mustache(qb_buf *out, const char *s)
{
	for (;;) {
		size_t run = strcspn(s, "{}"); /* appended in one block */
		qb_buf_append(out, s, run);
		s += run;
		if (!*s)
			return;
		/* each brace followed by the same brace is replaced, one by one */
		if (s[1] == s[0])
			qb_buf_puts(out, s[0] == '{' ? "&#123;" : "&#125;");
		else
			qb_buf_putc(out, s[0]);
		s++;
	}
}

size_t qb_entity_decode(qb_buf *out, const char *s, size_t n, unsigned flags)
{
	const char *semi = n > 2 && s[0] == '&' ? memchr(s, ';', n) : NULL;
	if (!semi)
		return 0;
	size_t len = (size_t)(semi - s) + 1;
	if ((flags & QB_ENTITY_NBSP_SPACE) && len == 6 && memcmp(s, "&nbsp;", 6) == 0) {
		qb_buf_putc(out, ' ');
		return len;
	}
	long cp = -1;
	if (s[1] == '#') {
		bool hex = s[2] == 'x' || (s[2] == 'X' && !(flags & QB_ENTITY_ANKI));
		const char *d = s + (hex ? 3 : 2);
		unsigned long v = 0;
		if (d == semi)
			return 0;
		for (const char *p = d; p < semi; p++) {
			int c = (unsigned char)*p, dv;
			if (c >= '0' && c <= '9')
				dv = c - '0';
			else if (hex && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
				dv = (c | 0x20) - 'a' + 10;
			else
				return 0;
			if (v <= 0x10FFFF)
				v = v * (hex ? 16 : 10) + (unsigned long)dv;
		}
		if (v > 0 && v <= 0x10FFFF)
			cp = (long)v;
		else if (flags & QB_ENTITY_ANKI)
			return 0;
		else
			cp = 0xFFFD;
	} else {
		char name[48];
		if (len - 2 >= sizeof name)
			return 0;
		memcpy(name, s + 1, len - 2);
		name[len - 2] = '\0';
		const htmlEntityDesc *e = (flags & QB_ENTITY_ANKI) && strcmp(name, "apos") == 0
		                              ? NULL
		                              : htmlEntityLookup((const xmlChar *)name);
		if (!e)
			return 0;
		cp = (long)e->value;
	}
	utf8proc_uint8_t u[4];
	utf8proc_ssize_t k = utf8proc_encode_char((utf8proc_int32_t)cp, u);
	qb_buf_append(out, (const char *)u, (size_t)k);
	return len;
}

void qb_escape_script_text(const char *js, size_t len,
                           void (*put)(void *payload, const char *s, size_t n), void *payload)
{
	for (size_t i = 0; i < len;) {
		const char *lt = memchr(js + i, '<', len - i);
		size_t run = lt ? (size_t)(lt - (js + i)) : len - i;
		put(payload, js + i, run);
		if ((i += run) == len)
			break;
		bool special = i + 1 < len && (js[i + 1] == '/' || js[i + 1] == '!') &&
		               (strncasecmp(js + i, "</script", 8) == 0 || strncmp(js + i, "<!--", 4) == 0);
		put(payload, special ? "<\\" : "<", special ? 2 : 1);
		i++;
	}
}

int qb_escape_script_file(FILE *f, size_t piece,
                          void (*put)(void *payload, const char *s, size_t n), void *payload)
{
	/* A '<' in a piece's last 8 bytes waits for the next piece, so that
	 * "</script" and "<!--" are seen whole. */
	char *buf = qb_xmalloc(piece + 9);
	size_t keep = 0;
	int rc = fseek(f, 0, SEEK_SET) == 0 ? 0 : -1;
	while (rc == 0) {
		size_t n = fread(buf + keep, 1, piece, f), have = keep + n, upto = have;
		bool end = n < piece;
		buf[have] = '\0';
		if (ferror(f)) {
			rc = -1;
			break;
		}
		if (!end) {
			size_t from = have > 8 ? have - 8 : 0;
			const char *lt = memchr(buf + from, '<', have - from);
			if (lt)
				upto = (size_t)(lt - buf);
		}
		qb_escape_script_text(buf, upto, put, payload);
		keep = have - upto;
		memmove(buf, buf + upto, keep);
		if (end)
			break;
	}
	free(buf);
	return rc;
}
