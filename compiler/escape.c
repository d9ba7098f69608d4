/* escape.c - see escape.h. */
#include "escape.h"

#include <string.h>

void qb_escape_html(qb_buf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': qb_buf_puts(out, "&amp;"); break;
		case '<': qb_buf_puts(out, "&lt;"); break;
		case '>': qb_buf_puts(out, "&gt;"); break;
		case '"': qb_buf_puts(out, "&quot;"); break;
		case '\'': qb_buf_puts(out, "&#39;"); break;
		default: qb_buf_putc(out, *s); break;
		}
	}
}

void qb_escape_script_json(qb_buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '<' || c == '>' || c == '&')
			qb_buf_appendf(out, "\\u%04x", c);
		else if (c == 0xE2 && (unsigned char)s[1] == 0x80 &&
		         ((unsigned char)s[2] == 0xA8 || (unsigned char)s[2] == 0xA9)) {
			qb_buf_appendf(out, "\\u%04x", (unsigned char)s[2] == 0xA8 ? 0x2028 : 0x2029);
			s += 2;
		} else
			qb_buf_putc(out, (char)c);
	}
}

void qb_escape_mustache(qb_buf *out, const char *s)
{
	for (; *s; s++) {
		if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) {
			qb_buf_puts(out, s[0] == '{' ? "&#123;" : "&#125;");
			continue;
		}
		qb_buf_putc(out, *s);
	}
}
