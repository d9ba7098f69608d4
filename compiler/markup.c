/* markup.c - see markup.h. */
#include "markup.h"

#include <ctype.h>
#include <md4c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "escape.h"

/* CommonMark plus strikethrough, tables and LaTeX math spans; never raw
 * HTML. */
#define PARSER_FLAGS \
	(MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH | MD_FLAG_TABLES | MD_FLAG_LATEXMATHSPANS)

qb_media_kind qb_markup_media_kind(const char *src)
{
	static const char *const pictures[] = {"png", "jpg", "jpeg", "gif", "webp", "svg"};
	static const char *const sounds[] = {"mp3", "ogg", "oga", "m4a", "wav", "opus"};
	const char *dot = strrchr(src, '.');
	if (!dot || strchr(dot, '/'))
		return QB_MEDIA_OTHER;
	for (size_t i = 0; i < QB_NELEM(pictures); i++)
		if (strcasecmp(dot + 1, pictures[i]) == 0)
			return QB_MEDIA_IMAGE;
	for (size_t i = 0; i < QB_NELEM(sounds); i++)
		if (strcasecmp(dot + 1, sounds[i]) == 0)
			return QB_MEDIA_AUDIO;
	return QB_MEDIA_OTHER;
}

bool qb_markup_url_safe(const char *url)
{
	const char *p = url;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':' || p == url)
		return true; /* no scheme: relative path or #fragment */
	size_t n = (size_t)(p - url);
	return (n == 4 && strncasecmp(url, "http", 4) == 0) ||
	       (n == 5 && strncasecmp(url, "https", 5) == 0) ||
	       (n == 6 && strncasecmp(url, "mailto", 6) == 0);
}

/* ---- the HTML renderer: md4c's parser callbacks ----
 *
 * The output is byte for byte what md4c-html 0.4 writes (its escaping,
 * newlines and tags), except that images and links are ours to decide:
 * the image callback names the src, unsafe link schemes become "#". */

typedef struct html {
	qb_buf *out;
	qb_markup_image_fn image;
	void *payload;
	int img_depth;       /* 1 inside an image's alt text: plain text only */
	bool audio;          /* that image is a sound: <audio>               */
	int depth;           /* block nesting                                 */
	int top_blocks;      /* blocks directly in the document               */
	MD_BLOCKTYPE top;    /* the type of the last of them                  */
} html;

/* Text escaping as md4c-html does it: & < > " only. */
/* The bytes put_text() escapes: a table, as every byte of every text
 * passes this test (a sixth of the Anki renderer's time when it was four
 * comparisons a byte). */
static const bool html_special[256] = {['&'] = true, ['<'] = true, ['>'] = true, ['"'] = true};

static void put_text(qb_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t run = i; /* bytes that need no escaping go in one block */
		while (run < n && !html_special[(unsigned char)s[run]])
			run++;
		qb_buf_append(out, s + i, run - i);
		if ((i = run) == n)
			break;
		switch (s[i]) {
		case '&': qb_buf_puts(out, "&amp;"); break;
		case '<': qb_buf_puts(out, "&lt;"); break;
		case '>': qb_buf_puts(out, "&gt;"); break;
		default: qb_buf_puts(out, "&quot;"); break;
		}
	}
}

/* URL escaping as md4c-html does it: '&' as "&amp;", everything outside
 * letters, digits and -_.+!*(),%#@?=;:/$ percent-encoded. */
static void put_url(qb_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    (c && strchr("-_.+!*(),%#@?=;:/$", c)))
			qb_buf_putc(out, (char)c);
		else if (c == '&')
			qb_buf_puts(out, "&amp;");
		else
			qb_buf_appendf(out, "%%%02X", c);
	}
}

/* A character reference from md4c: decoded when known, else as written. */
static void put_entity(qb_buf *out, const char *s, size_t n,
                       void (*put)(qb_buf *, const char *, size_t), unsigned flags)
{
	qb_buf tmp = QB_BUF_INIT;
	if (qb_entity_decode(&tmp, s, n, flags) == n)
		put(out, tmp.ptr, tmp.len);
	else
		put(out, s, n);
	qb_buf_dispose(&tmp);
}

static const char replacement_char[] = "\xEF\xBF\xBD";

static void put_raw(qb_buf *out, const char *s, size_t n)
{
	qb_buf_append(out, s, n);
}

/* An attribute (src, href, title) through put, references decoded. */
static void put_attr(qb_buf *out, const MD_ATTRIBUTE *a,
                     void (*put)(qb_buf *, const char *, size_t))
{
	for (int i = 0; a->substr_offsets[i] < a->size; i++) {
		const char *t = a->text + a->substr_offsets[i];
		size_t n = a->substr_offsets[i + 1] - a->substr_offsets[i];
		if (a->substr_types[i] == MD_TEXT_NULLCHAR)
			qb_buf_puts(out, replacement_char);
		else if (a->substr_types[i] == MD_TEXT_ENTITY)
			put_entity(out, t, n, put, 0);
		else
			put(out, t, n);
	}
}

/* The value of an attribute as the author meant it: a heap string. */
static char *attr_value(const MD_ATTRIBUTE *a)
{
	qb_buf b = QB_BUF_INIT;
	if (a->text)
		put_attr(&b, a, put_raw);
	return qb_buf_detach(&b);
}

static int h_enter_block(MD_BLOCKTYPE t, void *detail, void *u)
{
	html *h = u;
	qb_buf *o = h->out;
	if (h->depth++ == 1) {
		h->top_blocks++;
		h->top = t;
	}
	switch (t) {
	case MD_BLOCK_QUOTE: qb_buf_puts(o, "<blockquote>\n"); break;
	case MD_BLOCK_UL: qb_buf_puts(o, "<ul>\n"); break;
	case MD_BLOCK_OL: {
		unsigned start = ((MD_BLOCK_OL_DETAIL *)detail)->start;
		if (start == 1)
			qb_buf_puts(o, "<ol>\n");
		else
			qb_buf_appendf(o, "<ol start=\"%u\">\n", start);
		break;
	}
	case MD_BLOCK_LI: qb_buf_puts(o, "<li>"); break;
	case MD_BLOCK_HR: qb_buf_puts(o, "<hr>\n"); break;
	case MD_BLOCK_H: qb_buf_appendf(o, "<h%u>", ((MD_BLOCK_H_DETAIL *)detail)->level); break;
	case MD_BLOCK_CODE: {
		/* A code block and a table may be wider than a phone: each scrolls
		 * in its own box (the outputs' CSS), which a keyboard can reach. */
		const MD_BLOCK_CODE_DETAIL *d = detail;
		qb_buf_puts(o, "<pre tabindex=\"0\"><code");
		if (d->lang.text) {
			qb_buf_puts(o, " class=\"language-");
			put_attr(o, &d->lang, put_text);
			qb_buf_putc(o, '"');
		}
		qb_buf_putc(o, '>');
		break;
	}
	case MD_BLOCK_P: qb_buf_puts(o, "<p>"); break;
	case MD_BLOCK_TABLE: qb_buf_puts(o, "<div class=\"qb-scroll\" tabindex=\"0\"><table>\n"); break;
	case MD_BLOCK_THEAD: qb_buf_puts(o, "<thead>\n"); break;
	case MD_BLOCK_TBODY: qb_buf_puts(o, "<tbody>\n"); break;
	case MD_BLOCK_TR: qb_buf_puts(o, "<tr>\n"); break;
	case MD_BLOCK_TH:
	case MD_BLOCK_TD: {
		static const char *const align[] = {"", " align=\"left\"", " align=\"center\"",
		                                    " align=\"right\""};
		MD_ALIGN a = ((MD_BLOCK_TD_DETAIL *)detail)->align;
		qb_buf_appendf(o, "<%s%s>", t == MD_BLOCK_TH ? "th" : "td",
		               (unsigned)a < 4 ? align[a] : "");
		break;
	}
	default: break; /* raw HTML is off */
	}
	return 0;
}

static int h_leave_block(MD_BLOCKTYPE t, void *detail, void *u)
{
	html *h = u;
	qb_buf *o = h->out;
	h->depth--;
	switch (t) {
	case MD_BLOCK_QUOTE: qb_buf_puts(o, "</blockquote>\n"); break;
	case MD_BLOCK_UL: qb_buf_puts(o, "</ul>\n"); break;
	case MD_BLOCK_OL: qb_buf_puts(o, "</ol>\n"); break;
	case MD_BLOCK_LI: qb_buf_puts(o, "</li>\n"); break;
	case MD_BLOCK_H: qb_buf_appendf(o, "</h%u>\n", ((MD_BLOCK_H_DETAIL *)detail)->level); break;
	case MD_BLOCK_CODE: qb_buf_puts(o, "</code></pre>\n"); break;
	case MD_BLOCK_P: qb_buf_puts(o, "</p>\n"); break;
	case MD_BLOCK_TABLE: qb_buf_puts(o, "</table></div>\n"); break;
	case MD_BLOCK_THEAD: qb_buf_puts(o, "</thead>\n"); break;
	case MD_BLOCK_TBODY: qb_buf_puts(o, "</tbody>\n"); break;
	case MD_BLOCK_TR: qb_buf_puts(o, "</tr>\n"); break;
	case MD_BLOCK_TH: qb_buf_puts(o, "</th>\n"); break;
	case MD_BLOCK_TD: qb_buf_puts(o, "</td>\n"); break;
	default: break;
	}
	return 0;
}

/* A picture is an <img> with its description as alt text; a sound is an
 * <audio controls> with its description as the fallback text. */
static void open_img(html *h, const MD_SPAN_IMG_DETAIL *d)
{
	char *src = attr_value(&d->src);
	h->audio = qb_markup_media_kind(src) == QB_MEDIA_AUDIO;
	qb_buf_puts(h->out, h->audio ? "<audio controls src=\"" : "<img src=\"");
	const char *repl = h->image ? h->image(h->payload, src) : NULL;
	if (repl)
		qb_escape_html(h->out, repl);
	else
		put_attr(h->out, &d->src, put_url);
	free(src);
	qb_buf_puts(h->out, h->audio ? "\">" : "\" alt=\"");
}

static void open_a(html *h, const MD_SPAN_A_DETAIL *d)
{
	qb_buf_puts(h->out, "<a href=\"");
	char *href = attr_value(&d->href);
	if (qb_markup_url_safe(href))
		put_attr(h->out, &d->href, put_url);
	else
		qb_buf_putc(h->out, '#');
	free(href);
	if (d->title.text) {
		qb_buf_puts(h->out, "\" title=\"");
		put_attr(h->out, &d->title, put_text);
	}
	qb_buf_puts(h->out, "\">");
}

static const char *span_tag(MD_SPANTYPE t)
{
	switch (t) {
	case MD_SPAN_EM: return "em";
	case MD_SPAN_STRONG: return "strong";
	case MD_SPAN_CODE: return "code";
	case MD_SPAN_DEL: return "del";
	case MD_SPAN_U: return "u";
	default: return NULL;
	}
}

static int h_enter_span(MD_SPANTYPE t, void *detail, void *u)
{
	html *h = u;
	if (h->img_depth > 0) /* alt text: plain text only */
		return 0;
	if (t == MD_SPAN_IMG) {
		open_img(h, detail);
		h->img_depth = 1;
	} else if (t == MD_SPAN_A)
		open_a(h, detail);
	else if (t == MD_SPAN_LATEXMATH)
		qb_buf_puts(h->out, "<span class=\"math inline\" dir=\"ltr\">\\(");
	else if (t == MD_SPAN_LATEXMATH_DISPLAY)
		qb_buf_puts(h->out, "<span class=\"math display\" dir=\"ltr\">\\[");
	else if (span_tag(t))
		qb_buf_appendf(h->out, "<%s>", span_tag(t));
	return 0;
}

static int h_leave_span(MD_SPANTYPE t, void *detail, void *u)
{
	html *h = u;
	if (h->img_depth > 0) {
		/* As md4c-html: the first image to end closes the tag. */
		if (t == MD_SPAN_IMG && --h->img_depth == 0 && h->audio) {
			qb_buf_puts(h->out, "</audio>");
		} else if (t == MD_SPAN_IMG && h->img_depth == 0) {
			const MD_SPAN_IMG_DETAIL *d = detail;
			if (d->title.text) {
				qb_buf_puts(h->out, "\" title=\"");
				put_attr(h->out, &d->title, put_text);
			}
			qb_buf_puts(h->out, "\">");
		}
		return 0;
	}
	if (t == MD_SPAN_A)
		qb_buf_puts(h->out, "</a>");
	else if (t == MD_SPAN_LATEXMATH)
		qb_buf_puts(h->out, "\\)</span>");
	else if (t == MD_SPAN_LATEXMATH_DISPLAY)
		qb_buf_puts(h->out, "\\]</span>");
	else if (span_tag(t))
		qb_buf_appendf(h->out, "</%s>", span_tag(t));
	return 0;
}

static int h_text(MD_TEXTTYPE t, const MD_CHAR *text, MD_SIZE size, void *u)
{
	html *h = u;
	switch (t) {
	case MD_TEXT_NULLCHAR: qb_buf_puts(h->out, replacement_char); break;
	case MD_TEXT_BR: qb_buf_puts(h->out, h->img_depth ? " " : "<br>\n"); break;
	case MD_TEXT_SOFTBR: qb_buf_puts(h->out, h->img_depth ? " " : "\n"); break;
	case MD_TEXT_ENTITY: put_entity(h->out, text, size, put_text, 0); break;
	default: put_text(h->out, text, size); break;
	}
	return 0;
}

/* Bytes that may give a one-line text a meaning in Markdown: control
 * characters (line ends among them), backslash escapes, code, emphasis,
 * strikethrough, math, links and pictures, autolinks, entities and
 * tables. */
static const bool markup_byte[256] = {
	[0x01] = true, [0x02] = true, [0x03] = true, [0x04] = true, [0x05] = true, [0x06] = true,
	[0x07] = true, [0x08] = true, [0x09] = true, [0x0a] = true, [0x0b] = true, [0x0c] = true,
	[0x0d] = true, [0x0e] = true, [0x0f] = true, [0x10] = true, [0x11] = true, [0x12] = true,
	[0x13] = true, [0x14] = true, [0x15] = true, [0x16] = true, [0x17] = true, [0x18] = true,
	[0x19] = true, [0x1a] = true, [0x1b] = true, [0x1c] = true, [0x1d] = true, [0x1e] = true,
	[0x1f] = true, [0x7f] = true, ['\\'] = true, ['`'] = true, ['*'] = true, ['_'] = true,
	['~'] = true, ['$'] = true, ['['] = true, [']'] = true, ['!'] = true, ['<'] = true,
	['&'] = true, ['|'] = true,
};

/* A text that Markdown leaves as it is: one line with none of the bytes
 * above, starting with a letter, a parenthesis or a quotation mark (so no
 * block starts: no list, heading, quote or code) and ending with a
 * printable ASCII character (so nothing to trim).  md4c makes it one
 * paragraph of its characters, escaped.  Three texts in four of a bank
 * are such; md4c's parse, which allocates as it goes, was half of the
 * Anki renderer's time.  tests/unit/test_render.c checks both ways give
 * the same bytes. */
static bool plain_line(const char *md, size_t n)
{
	if (!n)
		return false;
	unsigned char first = (unsigned char)md[0], last = (unsigned char)md[n - 1];
	bool opens = ((first | 0x20) >= 'a' && (first | 0x20) <= 'z') || first >= 0x80 ||
	             first == '(' || first == '"' || first == '\'';
	if (!opens || last <= ' ' || last >= 0x7f)
		return false;
	for (size_t i = 0; i < n; i++)
		if (markup_byte[(unsigned char)md[i]])
			return false;
	return true;
}

int qb_markup_html(qb_buf *out, const char *md, unsigned flags, qb_markup_image_fn image,
                   void *payload)
{
	size_t n = strlen(md);
	if (plain_line(md, n)) {
		bool inline_ = flags & QB_MARKUP_INLINE;
		if (!inline_)
			qb_buf_puts(out, "<p>");
		put_text(out, md, n);
		if (!inline_)
			qb_buf_puts(out, "</p>");
		return 0;
	}
	qb_buf raw = QB_BUF_INIT;
	html h = {&raw, image, payload, 0, false, 0, 0, MD_BLOCK_DOC};
	MD_PARSER parser = {0, PARSER_FLAGS, h_enter_block, h_leave_block, h_enter_span,
	                    h_leave_span, h_text, NULL, NULL};
	if (md_parse(md, (MD_SIZE)n, &parser, &h) != 0) {
		qb_buf_dispose(&raw);
		return -1;
	}
	const char *s = qb_buf_cstr(&raw);
	size_t len = raw.len;
	/* The newline(s) md4c-html puts after each block. */
	while (len && s[len - 1] == '\n')
		len--;
	/* A single paragraph loses its <p>...</p>. */
	if ((flags & QB_MARKUP_INLINE) && h.top_blocks == 1 && h.top == MD_BLOCK_P) {
		s += 3;
		len -= 7;
	}
	qb_buf_append(out, s, len);
	qb_buf_dispose(&raw);
	return 0;
}

/* ---- walking spans with the md4c parser ---- */

typedef struct walk {
	const char *md;
	MD_SPANTYPE want;
	qb_markup_image_visit fn;
	void *payload;
	qb_buf *plain; /* for qb_markup_plain */
	qb_buf *math;  /* for qb_markup_math: the formula being read */
	size_t math_off;
	bool in_math;
} walk;

static int w_block(MD_BLOCKTYPE t, void *d, void *u)
{
	QB_UNUSED(t);
	QB_UNUSED(d);
	QB_UNUSED(u);
	return 0;
}

static int w_block_leave(MD_BLOCKTYPE t, void *d, void *u)
{
	QB_UNUSED(d);
	walk *w = u;
	if (w->plain && w->plain->len && t != MD_BLOCK_DOC)
		qb_buf_putc(w->plain, ' ');
	return 0;
}

static bool is_math(MD_SPANTYPE t)
{
	return t == MD_SPAN_LATEXMATH || t == MD_SPAN_LATEXMATH_DISPLAY;
}

static int w_span(MD_SPANTYPE t, void *detail, void *u)
{
	walk *w = u;
	if (w->math && is_math(t)) {
		qb_buf_clear(w->math);
		w->math_off = SIZE_MAX;
		w->in_math = true;
		return 0;
	}
	if (!w->fn || t != w->want)
		return 0;
	const MD_ATTRIBUTE *a = t == MD_SPAN_IMG ? &((MD_SPAN_IMG_DETAIL *)detail)->src
	                                         : &((MD_SPAN_A_DETAIL *)detail)->href;
	char *src = attr_value(a);
	size_t md_len = strlen(w->md);
	size_t off = (a->text >= w->md && a->text <= w->md + md_len) ? (size_t)(a->text - w->md)
	                                                             : 0;
	w->fn(w->payload, src, off);
	free(src);
	return 0;
}

static int w_span_leave(MD_SPANTYPE t, void *d, void *u)
{
	QB_UNUSED(d);
	walk *w = u;
	if (w->math && w->in_math && is_math(t)) {
		w->in_math = false;
		w->fn(w->payload, qb_buf_cstr(w->math), w->math_off == SIZE_MAX ? 0 : w->math_off);
	}
	return 0;
}

static int w_text(MD_TEXTTYPE t, const MD_CHAR *text, MD_SIZE size, void *u)
{
	walk *w = u;
	if (w->math && w->in_math) {
		size_t md_len = strlen(w->md);
		if (w->math_off == SIZE_MAX && text >= w->md && text <= w->md + md_len)
			w->math_off = (size_t)(text - w->md);
		qb_buf_append(w->math, text, size);
		return 0;
	}
	if (!w->plain)
		return 0;
	if (t == MD_TEXT_BR || t == MD_TEXT_SOFTBR)
		qb_buf_putc(w->plain, ' ');
	else if (t == MD_TEXT_NULLCHAR)
		qb_buf_puts(w->plain, "\xEF\xBF\xBD");
	else if (t == MD_TEXT_ENTITY)
		put_entity(w->plain, text, size, put_raw, QB_ENTITY_NBSP_SPACE);
	else
		qb_buf_append(w->plain, text, size);
	return 0;
}

static int walk_md(walk *w)
{
	/* Links start with '[' (inline, reference) or '<' (autolinks; the
	 * permissive ones are off), images with "![", and math with '$': a
	 * text without the one it looks for has none, and need not be
	 * parsed. */
	if (!w->plain && (w->math ? !strchr(w->md, '$')
	                          : w->want == MD_SPAN_IMG ? !strstr(w->md, "![")
	                                                   : !strpbrk(w->md, "[<")))
		return 0;
	MD_PARSER parser = {0, PARSER_FLAGS, w_block, w_block_leave, w_span, w_span_leave, w_text,
	                    NULL, NULL};
	return md_parse(w->md, (MD_SIZE)strlen(w->md), &parser, w) == 0 ? 0 : -1;
}

int qb_markup_images(const char *md, qb_markup_image_visit fn, void *payload)
{
	walk w = {md, MD_SPAN_IMG, fn, payload, NULL, NULL, 0, false};
	return walk_md(&w);
}

int qb_markup_links(const char *md, qb_markup_image_visit fn, void *payload)
{
	walk w = {md, MD_SPAN_A, fn, payload, NULL, NULL, 0, false};
	return walk_md(&w);
}

int qb_markup_math(const char *md, qb_markup_image_visit fn, void *payload)
{
	qb_buf tex = QB_BUF_INIT;
	walk w = {md, MD_SPAN_LATEXMATH, fn, payload, NULL, &tex, 0, false};
	int rc = walk_md(&w);
	qb_buf_dispose(&tex);
	return rc;
}

int qb_markup_plain(qb_buf *out, const char *md)
{
	qb_buf tmp = QB_BUF_INIT;
	walk w = {md, MD_SPAN_A, NULL, NULL, &tmp, NULL, 0, false};
	int rc = walk_md(&w);
	/* Drop the separator after the last block. */
	size_t len = tmp.len;
	while (len && tmp.ptr[len - 1] == ' ')
		len--;
	if (len)
		qb_buf_append(out, tmp.ptr, len);
	qb_buf_dispose(&tmp);
	return rc;
}
