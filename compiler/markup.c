/* markup.c - see markup.h. */
#include "markup.h"

#include <ctype.h>
#include <md4c-html.h>
#include <md4c.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"

/* Inline Markdown plus strikethrough; never raw HTML. */
#define PARSER_FLAGS (MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH)

static void collect(const MD_CHAR *text, MD_SIZE size, void *userdata)
{
	qb_buf_append(userdata, text, size);
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

/* Decodes the few entities md4c-html writes in attribute values. */
static char *attr_decode(const char *s, size_t n)
{
	qb_buf b = QB_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		static const struct { const char *ent; char c; } ents[] = {
			{"&amp;", '&'}, {"&quot;", '"'}, {"&lt;", '<'}, {"&gt;", '>'}};
		size_t k;
		for (k = 0; k < QB_NELEM(ents); k++) {
			size_t el = strlen(ents[k].ent);
			if (i + el <= n && memcmp(s + i, ents[k].ent, el) == 0) {
				qb_buf_putc(&b, ents[k].c);
				i += el - 1;
				break;
			}
		}
		if (k == QB_NELEM(ents))
			qb_buf_putc(&b, s[i]);
	}
	return qb_buf_detach(&b);
}

/* Rewrites the attribute values that md4c-html wrote for images and
 * links.  Raw HTML is off, so every "<img src=" and "<a href=" in the
 * rendering was written by md4c itself, never by the author. */
static void postprocess(qb_buf *out, const char *html, qb_markup_image_fn image, void *payload)
{
	static const char *const attrs[] = {"<img src=\"", "<a href=\""};
	const char *p = html;
	for (;;) {
		const char *hit = NULL;
		size_t which = 0;
		for (size_t k = 0; k < QB_NELEM(attrs); k++) {
			const char *h = strstr(p, attrs[k]);
			if (h && (!hit || h < hit)) {
				hit = h;
				which = k;
			}
		}
		if (!hit)
			break;
		const char *val = hit + strlen(attrs[which]);
		const char *end = strchr(val, '"');
		if (!end)
			break;
		qb_buf_append(out, p, (size_t)(val - p));
		char *url = attr_decode(val, (size_t)(end - val));
		const char *repl = NULL;
		if (which == 0 && image)
			repl = image(payload, url);
		else if (which == 1 && !qb_markup_url_safe(url))
			repl = "#";
		if (repl)
			qb_escape_html(out, repl);
		else
			qb_buf_append(out, val, (size_t)(end - val));
		free(url);
		p = end;
	}
	qb_buf_puts(out, p);
}

int qb_markup_html(qb_buf *out, const char *md, unsigned flags, qb_markup_image_fn image,
                   void *payload)
{
	qb_buf raw = QB_BUF_INIT;
	if (md_html(md, (MD_SIZE)strlen(md), collect, &raw, PARSER_FLAGS, 0) != 0) {
		qb_buf_dispose(&raw);
		return -1;
	}
	const char *html = qb_buf_cstr(&raw);
	size_t len = raw.len;
	/* Trailing newline(s) that md4c-html puts after each block. */
	while (len && html[len - 1] == '\n')
		len--;
	if ((flags & QB_MARKUP_INLINE) && len >= 7 && strncmp(html, "<p>", 3) == 0 &&
	    strncmp(html + len - 4, "</p>", 4) == 0) {
		/* Only when it is a single paragraph. */
		char *inner = qb_xstrndup(html + 3, len - 7);
		if (!strstr(inner, "<p>")) {
			postprocess(out, inner, image, payload);
			free(inner);
			qb_buf_dispose(&raw);
			return 0;
		}
		free(inner);
	}
	char *whole = qb_xstrndup(html, len);
	postprocess(out, whole, image, payload);
	free(whole);
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

static int w_span(MD_SPANTYPE t, void *detail, void *u)
{
	walk *w = u;
	if (!w->fn || t != w->want)
		return 0;
	const MD_ATTRIBUTE *a = t == MD_SPAN_IMG ? &((MD_SPAN_IMG_DETAIL *)detail)->src
	                                         : &((MD_SPAN_A_DETAIL *)detail)->href;
	char *src = qb_xstrndup(a->text ? a->text : "", a->size);
	size_t md_len = strlen(w->md);
	size_t off = (a->text >= w->md && a->text <= w->md + md_len) ? (size_t)(a->text - w->md)
	                                                             : 0;
	w->fn(w->payload, src, off);
	free(src);
	return 0;
}

static int w_span_leave(MD_SPANTYPE t, void *d, void *u)
{
	QB_UNUSED(t);
	QB_UNUSED(d);
	QB_UNUSED(u);
	return 0;
}

static int w_text(MD_TEXTTYPE t, const MD_CHAR *text, MD_SIZE size, void *u)
{
	walk *w = u;
	if (!w->plain)
		return 0;
	if (t == MD_TEXT_BR || t == MD_TEXT_SOFTBR)
		qb_buf_putc(w->plain, ' ');
	else if (t == MD_TEXT_NULLCHAR)
		qb_buf_puts(w->plain, "\xEF\xBF\xBD");
	else if (t == MD_TEXT_ENTITY) {
		/* Keep entities readable: the common ones decoded, others as written. */
		static const struct { const char *e, *c; } ents[] = {
			{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&nbsp;", " "}};
		size_t k;
		for (k = 0; k < QB_NELEM(ents); k++)
			if (strlen(ents[k].e) == size && memcmp(ents[k].e, text, size) == 0) {
				qb_buf_puts(w->plain, ents[k].c);
				break;
			}
		if (k == QB_NELEM(ents))
			qb_buf_append(w->plain, text, size);
	} else
		qb_buf_append(w->plain, text, size);
	return 0;
}

static int walk_md(walk *w)
{
	MD_PARSER parser = {0, PARSER_FLAGS, w_block, w_block_leave, w_span, w_span_leave, w_text,
	                    NULL, NULL};
	return md_parse(w->md, (MD_SIZE)strlen(w->md), &parser, w) == 0 ? 0 : -1;
}

int qb_markup_images(const char *md, qb_markup_image_visit fn, void *payload)
{
	walk w = {md, MD_SPAN_IMG, fn, payload, NULL};
	return walk_md(&w);
}

int qb_markup_links(const char *md, qb_markup_image_visit fn, void *payload)
{
	walk w = {md, MD_SPAN_A, fn, payload, NULL};
	return walk_md(&w);
}

int qb_markup_plain(qb_buf *out, const char *md)
{
	qb_buf tmp = QB_BUF_INIT;
	walk w = {md, MD_SPAN_A, NULL, NULL, &tmp};
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
