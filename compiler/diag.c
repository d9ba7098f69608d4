/* diag.c - see diag.h. */
#include "diag.h"

#include <libdeflate.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "i18n.h"
#include "utf8.h"

/* A source is quoted from its text, or, once the text is dropped (or for
 * a file read in blocks), from the file: a pass over it checks that it
 * still holds what was read and notes where every MARK_EVERY-th line
 * starts, and a quote reads from the mark before its line. */
#define MARK_EVERY 64

typedef struct source {
	char *file;
	char *text; /* NULL once dropped: then read again for a quote      */
	size_t len;
	unsigned long crc;         /* CRC-32 of a dropped text           */
	bool reading;              /* being read a block at a time        */
	size_t fed;                /* its bytes so far (crc: their CRC)   */
	uint64_t *marks;           /* line 1 + k * MARK_EVERY starts at marks[k] */
	size_t nmarks;
	int nlines;
	bool marked;               /* marks made (from the file as it is) */
	bool unquotable;           /* the file changed since it was read  */
	size_t marked_len;         /* the file's length and CRC-32 when    */
	unsigned long marked_crc;  /* the marks were made                  */
	struct source *next;
} source;

static source *sources;

/* The line the last quote showed, so that many messages on one line (one
 * per language of a 'languages:' line) cost one read of the file and one
 * walk along the line: each quote walks on from the window of the one
 * before (character chars + 1 starts at byte at) instead of from the
 * line's start. */
static struct {
	const source *src; /* NULL: none                                    */
	int line;
	bool held;         /* text holds the line, read from the file       */
	qb_buf text;
	int chars;
	size_t at;
} shown;

/* Makes line of s the one shown (the caches start afresh for another). */
static void shown_is(const source *s, int line)
{
	if (shown.src != s || shown.line != line) {
		shown.src = s;
		shown.line = line;
		shown.held = false;
		shown.chars = 0;
		shown.at = 0;
	}
}

/* Counts only grow; a summary prints what came since the previous one. */
static unsigned long nerrors, nwarnings, summed_errors, summed_warnings;
static bool werror;
/* clang's -ferror-limit: after max_errors errors (0: no limit) since the
 * last summary, errors are counted, not printed, nor the notes that
 * follow one; the summary says how many were hidden. */
static unsigned long max_errors = 50, shown_errors, hidden_errors;
static bool hiding;
static int color = -1; /* -1: decide from the terminal */
static FILE *stream;    /* NULL: stderr */

/* A diagnostic, or a source, kept by qb_diag_later_begin(). */
typedef struct later_item {
	bool is_source;
	qb_diag_level level;
	qb_loc loc;
	char *text; /* the message (translated), or the source's text */
	size_t len; /* the source's                                    */
	char *file; /* the source's                                    */
	bool borrowed; /* the source's text is the caller's (qb_diag_later_borrow_source()) */
} later_item;

struct qb_diag_later {
	later_item *items;
	size_t n, cap;
};

static _Thread_local qb_diag_later *later; /* this thread's, while kept */
/* The output format a diagnostic is about (qb_diag_set_format()). */
static _Thread_local const char *format_tag;

void qb_diag_set_format(const char *name) { format_tag = name; }

static void later_push(later_item it)
{
	if (later->n == later->cap) {
		later->cap = later->cap ? 2 * later->cap : 8;
		later->items = qb_xrealloc(later->items, later->cap * sizeof *later->items);
	}
	later->items[later->n++] = it;
}

void qb_diag_later_begin(void)
{
	later = qb_xcalloc(1, sizeof *later);
}

qb_diag_later *qb_diag_later_end(void)
{
	qb_diag_later *l = later;
	later = NULL;
	return l;
}

void qb_diag_later_free(qb_diag_later *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		if (!l->items[i].borrowed)
			free(l->items[i].text);
		free(l->items[i].file);
	}
	free(l->items);
	free(l);
}

void qb_diag_later_each(const qb_diag_later *l, qb_diag_later_fn fn, void *payload)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (!l->items[i].is_source)
			fn(payload, l->items[i].level, l->items[i].loc, l->items[i].text);
}

/* Registers text (owned) for file, in place of an earlier text of that
 * file: a bank read again (watch) is quoted as it is now. */
static void add_source(const char *file, char *text, size_t len)
{
	if (later) {
		later_push((later_item){true, QB_DIAG_NOTE, {NULL, 0, 0}, text, len, qb_xstrdup(file),
		                        false});
		return;
	}
	for (source **p = &sources; *p;) {
		source *s = *p;
		if (strcmp(s->file, file) == 0) {
			*p = s->next;
			if (shown.src == s) /* a quote of the file as it was */
				shown.src = NULL;
			free(s->file);
			free(s->text);
			free(s->marks);
			free(s);
		} else {
			p = &s->next;
		}
	}
	source *s = qb_xcalloc(1, sizeof *s);
	s->file = qb_xstrdup(file);
	s->text = text;
	s->len = len;
	s->next = sources;
	sources = s;
}

void qb_diag_add_source(const char *file, const char *text, size_t len)
{
	for (const source *s = later ? NULL : sources; s; s = s->next)
		if (s->text == text && s->len == len && strcmp(s->file, file) == 0)
			return;
	for (size_t i = 0; later && i < later->n; i++) {
		const later_item *it = &later->items[i];
		if (it->borrowed && it->text == text && it->len == len && strcmp(it->file, file) == 0)
			return;
	}
	add_source(file, qb_xstrndup(text, len), len);
}

void qb_diag_add_source_owned(const char *file, char *text, size_t len)
{
	add_source(file, text, len);
}

void qb_diag_later_borrow_source(const char *file, const char *text, size_t len)
{
	if (!later) {
		qb_diag_add_source(file, text, len);
		return;
	}
	later_push((later_item){true, QB_DIAG_NOTE, {NULL, 0, 0}, (char *)text, len,
	                        qb_xstrdup(file), true});
}

/* Enough to tell an edited file from the one read (a quote is all that
 * depends on it).  libdeflate's CRC-32 (the same value as zlib's) runs
 * while the reader reads the bank, so it is the fast one. */
static unsigned long text_crc(const char *text, size_t len)
{
	return libdeflate_crc32(0, text, len);
}

void qb_diag_drop_source(const char *file)
{
	for (source *s = sources; s; s = s->next)
		if (s->text && strcmp(s->file, file) == 0) {
			s->crc = text_crc(s->text, s->len);
			free(s->text);
			s->text = NULL;
		}
}

static source *find_source(const char *file)
{
	for (source *s = sources; s; s = s->next)
		if (strcmp(s->file, file) == 0)
			return s;
	return NULL;
}

void qb_diag_add_source_file(const char *file)
{
	add_source(file, NULL, 0);
	source *s = sources; /* add_source() puts it first */
	s->crc = 0;
	s->reading = true;
}

void qb_diag_source_feed(const char *file, const char *data, size_t len)
{
	source *s = find_source(file);
	if (s && s->reading) {
		s->crc = libdeflate_crc32((uint32_t)s->crc, data, len);
		s->fed += len;
	}
}

void qb_diag_source_done(const char *file)
{
	source *s = find_source(file);
	if (!s || !s->reading)
		return;
	s->reading = false;
	s->len = s->fed;
	/* Marks made during the read hold only if the file was what the
	 * reader read. */
	if (s->marked && (s->marked_len != s->len || s->marked_crc != s->crc))
		s->unquotable = true;
}

/* One pass over the file of a source without its text: its length and
 * CRC-32, and where every MARK_EVERY-th line starts (lines end at \n,
 * \r\n or \r, as the readers split them). */
static void mark_lines(source *s)
{
	s->marked = true;
	FILE *f = fopen(s->file, "rb");
	if (!f) {
		s->unquotable = true;
		return;
	}
	unsigned char buf[1 << 16];
	unsigned long crc = 0;
	uint64_t off = 0;
	size_t cap = 0;
	int line = 1;
	bool cr = false, in_line = false;
	for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) {
		crc = libdeflate_crc32((uint32_t)crc, buf, n);
		for (size_t i = 0; i < n; i++, off++) {
			unsigned char c = buf[i];
			if (cr && c == '\n') { /* the \n of \r\n */
				cr = false;
				continue;
			}
			cr = false;
			if (!in_line) { /* a line starts here */
				in_line = true;
				if ((line - 1) % MARK_EVERY == 0) {
					if (s->nmarks == cap)
						s->marks = qb_xrealloc(s->marks, (cap = cap * 2 + 64) *
						                                     sizeof *s->marks);
					s->marks[s->nmarks++] = off;
				}
			}
			if (c == '\n' || c == '\r') {
				cr = c == '\r';
				in_line = false;
				line++;
			}
		}
	}
	s->nlines = in_line ? line : line - 1;
	s->unquotable = ferror(f) != 0;
	fclose(f);
	s->marked_len = (size_t)off;
	s->marked_crc = crc;
	if (!s->reading && (s->marked_len != s->len || s->marked_crc != s->crc))
		s->unquotable = true;
}

/* Line `line` of a source without its text, read from its file into
 * shown.text; NULL when the file no longer holds what was read. */
static const char *file_line(source *s, int line, size_t *len)
{
	if (!s->marked)
		mark_lines(s);
	if (s->unquotable || line < 1 || line > s->nlines)
		return NULL;
	if (shown.held) { /* many messages on one line */
		*len = shown.text.len;
		return qb_buf_cstr(&shown.text);
	}
	size_t k = (size_t)(line - 1) / MARK_EVERY;
	FILE *f = k < s->nmarks ? fopen(s->file, "rb") : NULL;
	if (!f || fseeko(f, (off_t)s->marks[k], SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return NULL;
	}
	int at = (int)(k * MARK_EVERY) + 1;
	shown.text.len = 0;
	for (int c; (c = getc(f)) != EOF;) {
		if (c == '\n' || c == '\r') {
			if (at == line)
				break;
			if (c == '\r') {
				int d = getc(f);
				if (d != '\n' && d != EOF)
					ungetc(d, f);
			}
			at++;
			continue;
		}
		if (at == line)
			qb_buf_putc(&shown.text, (char)c);
	}
	fclose(f);
	shown.held = true;
	*len = shown.text.len;
	return qb_buf_cstr(&shown.text);
}

void qb_diag_dispose(void)
{
	while (sources) {
		source *next = sources->next;
		free(sources->file);
		free(sources->text);
		free(sources->marks);
		free(sources);
		sources = next;
	}
	qb_buf_dispose(&shown.text);
	shown.src = NULL;
}

void qb_diag_set_werror(bool on) { werror = on; }
void qb_diag_set_max_errors(unsigned long n) { max_errors = n; }
void qb_diag_set_color(int on) { color = on; }
void qb_diag_set_stream(FILE *f) { stream = f; }
unsigned long qb_diag_errors(void) { return nerrors; }
qb_diag_mark qb_diag_mark_now(void) { return (qb_diag_mark){nerrors, nwarnings}; }
unsigned long qb_diag_errors_since(qb_diag_mark m) { return nerrors - m.errors; }
unsigned long qb_diag_warnings_since(qb_diag_mark m) { return nwarnings - m.warnings; }

static bool use_color(void)
{
	if (stream)
		return false;
	if (color >= 0)
		return color;
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(STDERR_FILENO);
}

/* The line-th line of file (1-based) without its terminator, or NULL. */
static const char *find_line(const char *file, int line, size_t *len)
{
	source *s = find_source(file);
	if (!s)
		return NULL;
	shown_is(s, line);
	if (!s->text)
		return file_line(s, line, len);
	const char *p = s->text, *end = s->text + s->len;
	for (int l = 1; l < line && p < end; l++) {
		const char *nl = p;
		while (nl < end && *nl != '\n' && *nl != '\r')
			nl++;
		if (nl < end && *nl == '\r' && nl + 1 < end && nl[1] == '\n')
			nl++;
		p = nl < end ? nl + 1 : end;
	}
	if (p >= end)
		return NULL;
	const char *q = p;
	while (q < end && *q != '\n' && *q != '\r')
		q++;
	*len = (size_t)(q - p);
	return p;
}

/* The quote shows at most QUOTE_WIDTH characters of a line: from the
 * start when the caret is within the first QUOTE_CARET_AT, else a window
 * with the caret at that place.  Where the line is cut, "..." shows it. */
enum { QUOTE_WIDTH = 150, QUOTE_CARET_AT = 120 };

/* Prints the quoted line and a caret under column col (in characters).
 * Bytes that are not printable (control characters, invalid UTF-8) are
 * shown as '?', so the quote never corrupts a terminal. */
static void quote(FILE *f, qb_loc loc, bool c)
{
	size_t len;
	const char *line = find_line(loc.file, loc.line, &len);
	if (!line)
		return;
	qb_buf text = QB_BUF_INIT, caret = QB_BUF_INIT;
	int first = loc.col > QUOTE_CARET_AT ? loc.col - QUOTE_CARET_AT + 1 : 1;
	int last = first + QUOTE_WIDTH - 1;
	int chars = 0;
	size_t i = 0;
	if (shown.chars < first) { /* find_line() made this line the one shown */
		chars = shown.chars;
		i = shown.at;
	}
	if (first > 1) {
		qb_buf_puts(&text, "...");
		qb_buf_puts(&caret, "   ");
	}
	bool more = false;
	while (i < len) {
		if (chars + 1 == first) {
			shown.chars = chars;
			shown.at = i;
		}
		unsigned char b = (unsigned char)line[i];
		size_t n = qb_utf8_next(line + i, len - i);
		chars++;
		i += n;
		if (chars < first)
			continue;
		if (chars > last) {
			more = true;
			break;
		}
		if (n == 1 && (b < 0x20 || b >= 0x7F)) {
			qb_buf_putc(&text, b == '\t' ? ' ' : '?');
		} else {
			qb_buf_append(&text, line + i - n, n);
		}
		if (chars < loc.col)
			qb_buf_putc(&caret, ' ');
	}
	if (more)
		qb_buf_puts(&text, "...");
	for (int k = chars + 1 > first ? chars + 1 : first; k < loc.col; k++)
		qb_buf_putc(&caret, ' ');
	fprintf(f, "%5d | %s\n", loc.line, qb_buf_cstr(&text));
	fprintf(f, "      | %s%s^%s\n", qb_buf_cstr(&caret), c ? "\033[1;32m" : "",
	        c ? "\033[0m" : "");
	qb_buf_dispose(&text);
	qb_buf_dispose(&caret);
}

/* The longest quotation a message shows, in characters: a 'quoted'
 * id or text from the bank longer than this is cut, and "…" shows it. */
enum { QUOTED_MAX = 64 };

/* Where the quotation opened by the ' at s[0] closes: the next ' that is
 * not followed by a letter or digit (an apostrophe, as in "it's", is);
 * NULL when none does. */
static const char *quote_end(const char *s)
{
	for (const char *p = strchr(s + 1, '\''); p; p = strchr(p + 1, '\''))
		if (!(((unsigned char)p[1] | 0x20) >= 'a' && ((unsigned char)p[1] | 0x20) <= 'z') &&
		    !(p[1] >= '0' && p[1] <= '9'))
			return p;
	return NULL;
}

/* Writes the message m, each quotation in it cut to QUOTED_MAX
 * characters.  A quotation opens with a ' at the start or after a space
 * or '(', so that apostrophes inside words do not count. */
static void put_capped(FILE *f, const char *m)
{
	const char *p = m;
	while (*p) {
		const char *q = strchr(p, '\'');
		while (q && q > m && q[-1] != ' ' && q[-1] != '(')
			q = strchr(q + 1, '\'');
		const char *e = q ? quote_end(q) : NULL;
		if (!e) {
			fputs(p, f);
			return;
		}
		size_t n = (size_t)(e - q - 1), cut = 0;
		for (int chars = 0; cut < n && chars < QUOTED_MAX; chars++)
			cut += qb_utf8_next(q + 1 + cut, n - cut);
		fwrite(p, 1, (size_t)(q + 1 - p) + cut, f);
		if (cut < n)
			fputs("\u2026", f);
		p = e;
		fputc('\'', f);
		p++;
	}
}

static void vdiag(qb_diag_level level, qb_loc loc, const char *fmt, va_list ap)
	QB_PRINTF(3, 0);
static void vdiag(qb_diag_level level, qb_loc loc, const char *fmt, va_list ap)
{
	/* TRANSLATORS: the kind of a diagnostic, as in
	 * "bank.qb:3:1: error: ..."; keep them short. */
	static const char *const names[] = {N_("error"), N_("warning"), N_("note")};
	static const char *const colors[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
	if (later) { /* kept, translated, for qb_diag_later_report() */
		qb_buf m = QB_BUF_INIT;
		if (format_tag)
			qb_buf_appendf(&m, "[%s] ", format_tag);
		qb_buf_vappendf(&m, gettext(fmt), ap);
		later_push((later_item){false, level, loc, qb_buf_detach(&m), 0, NULL, false});
		return;
	}
	if (level == QB_DIAG_WARNING && werror)
		level = QB_DIAG_ERROR;
	if (level == QB_DIAG_ERROR)
		nerrors++;
	else if (level == QB_DIAG_WARNING)
		nwarnings++;
	if (level == QB_DIAG_ERROR && max_errors && shown_errors >= max_errors) {
		hidden_errors++;
		hiding = true;
		return;
	}
	if (level == QB_DIAG_NOTE && hiding)
		return;
	hiding = false;
	shown_errors += level == QB_DIAG_ERROR;
	bool c = use_color();
	FILE *f = stream ? stream : stderr;
	if (c)
		fputs("\033[1m", f);
	if (loc.file && loc.line > 0)
		fprintf(f, "%s:%d:%d: ", loc.file, loc.line, loc.col > 0 ? loc.col : 1);
	else if (loc.file)
		fprintf(f, "%s: ", loc.file);
	else
		fputs("qbc: ", f);
	fprintf(f, "%s%s:%s ", c ? colors[level] : "", gettext(names[level]), c ? "\033[0m" : "");
	if (format_tag)
		fprintf(f, "[%s] ", format_tag);
	fmt = gettext(fmt);
	qb_buf msg = QB_BUF_INIT;
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n > 0) {
		msg.ptr = qb_xmalloc((size_t)n + 1);
		msg.cap = (size_t)n + 1;
		vsnprintf(msg.ptr, msg.cap, fmt, ap);
		msg.len = (size_t)n;
	}
	put_capped(f, qb_buf_cstr(&msg));
	qb_buf_dispose(&msg);
	fputc('\n', f);
	if (loc.file && loc.line > 0)
		quote(f, loc, c);
}

#define DEFINE_DIAG(name, level)                                             \
	void name(qb_loc loc, const char *fmt, ...)                          \
	{                                                                    \
		va_list ap;                                                  \
		va_start(ap, fmt);                                           \
		vdiag(level, loc, fmt, ap);                                  \
		va_end(ap);                                                  \
	}
DEFINE_DIAG(qb_diag_error, QB_DIAG_ERROR)
DEFINE_DIAG(qb_diag_warning, QB_DIAG_WARNING)
DEFINE_DIAG(qb_diag_note, QB_DIAG_NOTE)

void qb_diag_vwarning(qb_loc loc, const char *fmt, va_list ap)
{
	vdiag(QB_DIAG_WARNING, loc, fmt, ap);
}

static void diag_at(qb_diag_level level, qb_loc loc, const char *fmt, ...) QB_PRINTF(3, 4);
static void diag_at(qb_diag_level level, qb_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(level, loc, fmt, ap);
	va_end(ap);
}

void qb_diag_later_report(qb_diag_later *l)
{
	for (size_t i = 0; l && i < l->n; i++) {
		later_item *it = &l->items[i];
		if (it->is_source) {
			/* A borrowed text may not outlive the list: copied. */
			add_source(it->file, it->borrowed ? qb_xstrndup(it->text, it->len) : it->text,
			           it->len);
			if (!it->borrowed)
				it->text = NULL; /* the source list owns it now */
		} else {
			diag_at(it->level, it->loc, QB_DIAG_AS_IS, it->text);
		}
	}
	qb_diag_later_free(l);
}

void qb_diag_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(QB_DIAG_ERROR, (qb_loc){NULL, 0, 0}, fmt, ap);
	va_end(ap);
}

void qb_diag_summary(void)
{
	unsigned long ne = nerrors - summed_errors, nw = nwarnings - summed_warnings;
	summed_errors = nerrors;
	summed_warnings = nwarnings;
	if (!ne && !nw)
		return;
	FILE *f = stream ? stream : stderr;
	if (ne && nw) {
		qb_buf e = QB_BUF_INIT, w = QB_BUF_INIT;
		qb_buf_appendf(&e, ngettext("%lu error", "%lu errors", ne), ne);
		qb_buf_appendf(&w, ngettext("%lu warning", "%lu warnings", nw), nw);
		/* TRANSLATORS: the two counts, as "3 errors" and "1 warning". */
		fprintf(f, _("%s and %s generated.\n"), qb_buf_cstr(&e), qb_buf_cstr(&w));
		qb_buf_dispose(&e);
		qb_buf_dispose(&w);
	} else if (ne) {
		fprintf(f, ngettext("%lu error generated.\n", "%lu errors generated.\n", ne), ne);
	} else {
		fprintf(f, ngettext("%lu warning generated.\n", "%lu warnings generated.\n", nw), nw);
	}
	if (hidden_errors)
		fprintf(stderr, ngettext("qbc: %lu more error was not shown after the first %lu; "
		                         "'--max-errors 0' shows them all\n",
		                         "qbc: %lu more errors were not shown after the first %lu; "
		                         "'--max-errors 0' shows them all\n", hidden_errors),
		        hidden_errors, max_errors);
	shown_errors = hidden_errors = 0;
	hiding = false;
}
