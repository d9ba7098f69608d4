/* anki_strip.c - prints qb_anki_strip_html_media() and
 * qb_anki_field_checksum() of each input line, for tests/anki/run.sh,
 * which compares them with Anki's own Python implementation.  Input: one
 * HTML text per line, "\n" written as the two characters \ n.  Output per
 * line: the checksum, a tab, the stripped text (newlines escaped back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anki_db.h"
#include "buf.h"

int main(void)
{
	char line[65536];
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = '\0';
		qb_buf in = QB_BUF_INIT, out = QB_BUF_INIT;
		for (const char *p = line; *p; p++) {
			if (p[0] == '\\' && p[1] == 'n') {
				qb_buf_putc(&in, '\n');
				p++;
			} else
				qb_buf_putc(&in, *p);
		}
		qb_anki_strip_html_media(&out, qb_buf_cstr(&in));
		printf("%lld\t", (long long)qb_anki_field_checksum(qb_buf_cstr(&in)));
		for (const char *p = qb_buf_cstr(&out); *p; p++)
			fputs(*p == '\n' ? "\\n" : (char[]){*p, 0}, stdout);
		putchar('\n');
		qb_buf_dispose(&in);
		qb_buf_dispose(&out);
	}
	return 0;
}
