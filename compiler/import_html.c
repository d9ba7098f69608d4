/* import_html.c - HTML from Moodle's editors (Atto, TinyMCE, qbc's own
 * Moodle XML) to qbc's Markdown, through libxml2's HTML parser.
 *
 * Paragraphs and <div>s become paragraphs (white space collapsed, so no
 * soft line breaks), <br> a hard break, <strong>/<b> '**', <em>/<i> '*',
 * <code> backticks, <pre> a fenced block, lists '-' and '1.' items,
 * <table> a pipe table (first row the header), <a href> a link, <img>
 * and <audio> an image (src through the caller's callback), <del>/<s>
 * '~~', <blockquote> '>' lines, TeX \(..\) and \[..\] '$..$' and
 * '$$..$$'.  Styles, classes and <span>s are dropped quietly; what
 * Markdown (or a .qb text, whose lines cannot be indented) cannot say
 * is reported once per kind through cb->lost: headings (kept as strong
 * text), nested lists (flattened), underline, sub- and superscript,
 * colours and fonts, embedded media other than images and sounds. */
#include <libxml/HTMLparser.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "import.h"
#include "markup.h"

typedef struct h2m {
	qb_buf *out;   /* finished blocks                                 */
	qb_buf para;   /* the paragraph being filled                      */
	const qb_html_md_cb *cb;
	int list_depth;
	bool lost_seen[16];
} h2m;

enum { L_HEADING, L_NESTED, L_UNDERLINE, L_SUBSUP, L_FONT, L_MEDIA, L_FORM, L_OTHER, L_STORE,
       L_FILE, L_WEB };

static void lost(h2m *h, int kind, const char *what)
{
	if (h->lost_seen[kind] || !h->cb || !h->cb->lost)
		return;
	h->lost_seen[kind] = true;
	h->cb->lost(h->cb->payload, _(what));
}

static bool is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && xmlStrcasecmp(n->name, BAD_CAST name) == 0;
}

static const char *attr(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (xmlStrcasecmp(a->name, BAD_CAST name) == 0 && a->children &&
		    a->children->content)
			return (const char *)a->children->content;
	return NULL;
}

/* Appends the TeX s[0..n) between the marks d: a formula written over
 * several lines is one line (TeX reads a line end as a space; a line of
 * its own would end the formula and read '+ b' as a list item), its
 * spaces inside the marks dropped. */
static void put_formula(qb_buf *b, const char *d, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	qb_buf_puts(b, d);
	for (size_t i = 0; i < n; i++) {
		bool ws = s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r';
		if (!ws)
			qb_buf_putc(b, s[i]);
		else if (b->ptr[b->len - 1] != ' ')
			qb_buf_putc(b, ' ');
	}
	qb_buf_puts(b, d);
}

/* Appends text with white space collapsed and Markdown's marks escaped;
 * TeX between \( \) or \[ \] becomes $ $ or $$ $$, $$..$$ stays. */
static void put_text(qb_buf *b, const char *s, bool code)
{
	while (*s) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			if (b->len && b->ptr[b->len - 1] != ' ' && b->ptr[b->len - 1] != '\n')
				qb_buf_putc(b, ' ');
			s++;
			continue;
		}
		if (!code && s[0] == '\\' && (s[1] == '(' || s[1] == '[')) {
			const char *end = strstr(s + 2, s[1] == '(' ? "\\)" : "\\]");
			if (end) {
				put_formula(b, s[1] == '(' ? "$" : "$$", s + 2, (size_t)(end - s - 2));
				s = end + 2;
				continue;
			}
		}
		if (!code && s[0] == '$' && s[1] == '$') {
			const char *end = strstr(s + 2, "$$");
			if (end) {
				put_formula(b, "$$", s + 2, (size_t)(end - s - 2));
				s = end + 2;
				continue;
			}
		}
		if (code)
			qb_buf_putc(b, *s);
		else if (qb_imp_entity_at(s, strlen(s)))
			qb_buf_puts(b, "\\&");
		else
			qb_imp_md_escape(b, s, 1);
		s++;
	}
}

static void walk(h2m *h, xmlNode *n, qb_buf *b);

static void children(h2m *h, xmlNode *n, qb_buf *b)
{
	for (xmlNode *c = n->children; c; c = c->next)
		walk(h, c, b);
}

/* s trimmed of spaces at both ends, in place, and of hard breaks at its
 * end (a trailing <br>, which Moodle's editors leave at the end of a
 * paragraph or a table cell: kept, it would show as a '\'). */
static void trim(qb_buf *b)
{
	size_t s = 0;
	while (s < b->len && (b->ptr[s] == ' ' || b->ptr[s] == '\n'))
		s++;
	size_t e = b->len;
	for (;;) {
		if (e > s && (b->ptr[e - 1] == ' ' || b->ptr[e - 1] == '\n')) {
			e--;
			continue;
		}
		/* A hard break ("\\" before a line end) with nothing after it:
		 * a last <br> (editors write '<p>text<br></p>') shows nothing,
		 * and a .qb line ending in '\' would continue onto the next. */
		size_t k = 0;
		while (e - k > s && b->ptr[e - k - 1] == '\\')
			k++;
		if (k % 2 && e < b->len && b->ptr[e] == '\n') {
			e--;
			continue;
		}
		break;
	}
	if (b->len) {
		memmove(b->ptr, b->ptr + s, e - s);
		b->len = e - s;
		b->ptr[b->len] = '\0';
	}
}

static void add_block(h2m *h, const char *s)
{
	if (!*s)
		return;
	if (h->out->len)
		qb_buf_puts(h->out, "\n\n");
	qb_buf_puts(h->out, s);
}

/* Ends the open paragraph: a line that Markdown would read as a block
 * ('#', '>', '-', '+', '|', '1.') gets its mark escaped. */
static void flush(h2m *h)
{
	trim(&h->para);
	if (!h->para.len)
		return;
	const char *p = h->para.ptr;
	qb_buf b = QB_BUF_INIT;
	size_t digits = strspn(p, "0123456789");
	if (strchr("#>-+|=", p[0]))
		qb_buf_putc(&b, '\\');
	else if (digits && (p[digits] == '.' || p[digits] == ')') &&
	         (p[digits + 1] == ' ' || !p[digits + 1])) { /* not a numbered list */
		qb_buf_append(&b, p, digits);
		qb_buf_putc(&b, '\\');
		p += digits;
	}
	qb_buf_puts(&b, p);
	add_block(h, qb_buf_cstr(&b));
	qb_buf_dispose(&b);
	qb_buf_clear(&h->para);
}

/* The inline Markdown of n's children, trimmed, hard breaks made spaces
 * when oneline (table cells, list items). */
static void inline_of(h2m *h, xmlNode *n, qb_buf *b, bool oneline)
{
	children(h, n, b);
	trim(b);
	if (oneline)
		for (size_t i = 0; i < b->len; i++)
			if (b->ptr[i] == '\n') {
				b->ptr[i] = ' ';
				if (i && b->ptr[i - 1] == '\\')
					b->ptr[i - 1] = ' ';
			}
}

static void list(h2m *h, xmlNode *n, qb_buf *lines, int *k)
{
	bool ordered = is(n, "ol");
	for (xmlNode *li = n->children; li; li = li->next) {
		if (!is(li, "li"))
			continue;
		qb_buf item = QB_BUF_INIT;
		xmlNode *nested[8];
		size_t nn = 0;
		for (xmlNode *c = li->children; c; c = c->next) {
			if ((is(c, "ul") || is(c, "ol")) && nn < QB_NELEM(nested))
				nested[nn++] = c;
			else
				walk(h, c, &item);
		}
		trim(&item);
		for (size_t i = 0; i < item.len; i++)
			if (item.ptr[i] == '\n') {
				item.ptr[i] = ' ';
				if (i && item.ptr[i - 1] == '\\')
					item.ptr[i - 1] = ' ';
			}
		if (lines->len)
			qb_buf_putc(lines, '\n');
		if (ordered)
			qb_buf_appendf(lines, "%d. %s", ++*k, qb_buf_cstr(&item));
		else
			qb_buf_appendf(lines, "- %s", qb_buf_cstr(&item));
		qb_buf_dispose(&item);
		for (size_t i = 0; i < nn; i++) {
			lost(h, L_NESTED, "a list inside a list (its items are made items of the outer "
			                  "list: a .qb text cannot indent them)");
			list(h, nested[i], lines, k);
		}
	}
}

static void table(h2m *h, xmlNode *n, qb_buf *lines, size_t *cols)
{
	for (xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "thead") || is(c, "tbody") || is(c, "tfoot")) {
			table(h, c, lines, cols);
			continue;
		}
		if (!is(c, "tr"))
			continue;
		size_t nc = 0;
		qb_buf row = QB_BUF_INIT;
		qb_buf_putc(&row, '|');
		for (xmlNode *td = c->children; td; td = td->next) {
			if (!is(td, "td") && !is(td, "th"))
				continue;
			qb_buf cell = QB_BUF_INIT;
			inline_of(h, td, &cell, true);
			qb_buf_putc(&row, ' ');
			for (const char *p = qb_buf_cstr(&cell); *p; p++) {
				if (*p == '|')
					qb_buf_putc(&row, '\\');
				qb_buf_putc(&row, *p);
			}
			qb_buf_puts(&row, " |");
			qb_buf_dispose(&cell);
			nc++;
		}
		if (lines->len)
			qb_buf_putc(lines, '\n');
		qb_buf_puts(lines, qb_buf_cstr(&row));
		qb_buf_dispose(&row);
		if (!*cols) {
			*cols = nc ? nc : 1;
			qb_buf_puts(lines, "\n|");
			for (size_t i = 0; i < *cols; i++)
				qb_buf_puts(lines, " --- |");
		}
	}
}

/* Wraps the inline Markdown of n's children in mark. */
static void wrap(h2m *h, xmlNode *n, qb_buf *b, const char *mark)
{
	qb_buf in = QB_BUF_INIT;
	children(h, n, &in);
	trim(&in);
	if (in.len) {
		qb_buf_puts(b, mark);
		qb_buf_puts(b, in.ptr);
		qb_buf_puts(b, mark);
	}
	qb_buf_dispose(&in);
}

/* True for a target only the source's own files give: Moodle's file
 * store (@@PLUGINFILE@@) or a data: URL. */
static bool embedded(const char *src)
{
	return strncmp(src, "@@PLUGINFILE@@", 14) == 0 || strncmp(src, "data:", 5) == 0;
}

/* True for a picture or sound on the web, which no offline package can
 * show. */
static bool web(const char *src)
{
	return strncasecmp(src, "http://", 7) == 0 || strncasecmp(src, "https://", 8) == 0;
}

/* The media path of an embedded src through the caller's callback, or
 * NULL (reported: the callback says which file is missing; without one,
 * the kind is reported once).  Never the src itself: no package holds
 * Moodle's file store. */
static const char *embedded_path(h2m *h, const char *src)
{
	if (h->cb && h->cb->image)
		return h->cb->image(h->cb->payload, src);
	lost(h, L_STORE, "a picture or sound in Moodle's file store (@@PLUGINFILE@@) or a data: "
	                 "URL, whose file this format does not hold (dropped)");
	return NULL;
}

static void media(h2m *h, xmlNode *n, qb_buf *b, const char *src, const char *alt)
{
	if (!src)
		return;
	const char *path = NULL;
	if (embedded(src)) {
		path = embedded_path(h, src);
		if (!path) { /* the description stays, as text */
			if (alt && *alt)
				qb_imp_md_escape(b, alt, strlen(alt));
			return;
		}
	} else if (web(src)) {
		/* a package is played offline: the picture stays a link to the
		 * page it was on, which the checks accept and learners can follow */
		lost(h, L_WEB, "a picture or sound on the web (http: or https:), which no package "
		               "shows offline (kept as a link to it; save the file in media/ and "
		               "show it with ![...](media/...))");
		qb_buf_putc(b, '[');
		if (alt && *alt)
			qb_imp_md_escape(b, alt, strlen(alt));
		else
			qb_imp_md_escape(b, src, strlen(src));
		qb_buf_appendf(b, "](%s)", src);
		return;
	} else if (h->cb && h->cb->image) {
		path = h->cb->image(h->cb->payload, src);
	}
	qb_buf_puts(b, "![");
	qb_imp_md_escape(b, alt ? alt : "", alt ? strlen(alt) : 0);
	qb_buf_appendf(b, "](%s)", path ? path : src);
	QB_UNUSED(n);
}

static void walk(h2m *h, xmlNode *n, qb_buf *b)
{
	if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
		put_text(b, (const char *)n->content, false);
		return;
	}
	if (n->type != XML_ELEMENT_NODE)
		return;
	bool top = b == &h->para;
	if (is(n, "p") || is(n, "div") || is(n, "h1") || is(n, "h2") || is(n, "h3") ||
	    is(n, "h4") || is(n, "h5") || is(n, "h6")) {
		bool heading = n->name[0] == 'h' || n->name[0] == 'H';
		if (heading)
			lost(h, L_HEADING, "a heading (kept as strong text: a .qb text has no headings)");
		if (!top) { /* a block inside a cell or an item: its text */
			if (b->len)
				qb_buf_putc(b, ' ');
			children(h, n, b);
			return;
		}
		flush(h);
		if (heading)
			wrap(h, n, &h->para, "**");
		else
			children(h, n, &h->para);
		flush(h);
	} else if (is(n, "br")) {
		while (b->len && b->ptr[b->len - 1] == ' ')
			b->ptr[--b->len] = '\0';
		if (b->len)
			qb_buf_puts(b, "\\\n");
	} else if (is(n, "strong") || is(n, "b")) {
		wrap(h, n, b, "**");
	} else if (is(n, "em") || is(n, "i")) {
		wrap(h, n, b, "*");
	} else if (is(n, "del") || is(n, "s") || is(n, "strike")) {
		wrap(h, n, b, "~~");
	} else if (is(n, "code") || is(n, "tt") || is(n, "kbd") || is(n, "samp")) {
		xmlChar *t = xmlNodeGetContent(n);
		const char *s = t ? (const char *)t : "";
		const char *tick = strchr(s, '`') ? "``" : "`";
		qb_buf_puts(b, tick);
		put_text(b, s, true);
		qb_buf_puts(b, tick);
		xmlFree(t);
	} else if (is(n, "pre") && top) {
		flush(h);
		xmlChar *t = xmlNodeGetContent(n);
		qb_buf code = QB_BUF_INIT;
		qb_buf_puts(&code, "```");
		for (xmlNode *c = n->children; c; c = c->next) {
			const char *cls = is(c, "code") ? attr(c, "class") : NULL;
			if (cls && strncmp(cls, "language-", 9) == 0 && !strpbrk(cls + 9, " `"))
				qb_buf_puts(&code, cls + 9);
		}
		qb_buf_putc(&code, '\n');
		const char *s = t ? (const char *)t : "";
		size_t len = strlen(s);
		while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
			len--;
		while (len && s[0] == '\n') {
			s++;
			len--;
		}
		qb_buf_append(&code, s, len);
		qb_buf_puts(&code, "\n```");
		add_block(h, qb_buf_cstr(&code));
		qb_buf_dispose(&code);
		xmlFree(t);
	} else if ((is(n, "ul") || is(n, "ol")) && top) {
		flush(h);
		qb_buf lines = QB_BUF_INIT;
		int k = 0;
		list(h, n, &lines, &k);
		add_block(h, qb_buf_cstr(&lines));
		qb_buf_dispose(&lines);
	} else if (is(n, "table") && top) {
		flush(h);
		qb_buf lines = QB_BUF_INIT;
		size_t cols = 0;
		table(h, n, &lines, &cols);
		add_block(h, qb_buf_cstr(&lines));
		qb_buf_dispose(&lines);
	} else if (is(n, "blockquote") && top) {
		flush(h);
		qb_buf inner = QB_BUF_INIT;
		h2m sub = {&inner, QB_BUF_INIT, h->cb, h->list_depth, {0}};
		children(&sub, n, &sub.para);
		flush(&sub);
		qb_buf_dispose(&sub.para);
		qb_buf q = QB_BUF_INIT;
		for (const char *p = qb_buf_cstr(&inner), *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
			nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			qb_buf_appendf(&q, "%s>%s%.*s", q.len ? "\n" : "", len ? " " : "", (int)len, p);
			if (!nl)
				break;
		}
		add_block(h, qb_buf_cstr(&q));
		qb_buf_dispose(&q);
		qb_buf_dispose(&inner);
	} else if (is(n, "a")) {
		const char *href = attr(n, "href");
		qb_buf in = QB_BUF_INIT;
		children(h, n, &in);
		trim(&in);
		if (href && embedded(href)) {
			/* a sound or picture linked from the text (Moodle's editors
			 * link a sound this way): carried as a qbc sound or picture;
			 * another file is not carried (its text is kept) */
			bool data = href[0] == 'd';
			const char *path = data || qb_markup_media_kind(href) != QB_MEDIA_OTHER
			                       ? embedded_path(h, href) : NULL;
			if (path && qb_markup_media_kind(path) != QB_MEDIA_OTHER)
				qb_buf_appendf(b, "![%s](%s)", qb_buf_cstr(&in), path);
			else {
				if (!path && !data && qb_markup_media_kind(href) == QB_MEDIA_OTHER)
					lost(h, L_FILE, "a link to a file that is neither a picture nor a sound "
					                "(its text is kept, without the link)");
				qb_buf_puts(b, qb_buf_cstr(&in));
			}
		} else if (href && *href)
			qb_buf_appendf(b, "[%s](%s)", qb_buf_cstr(&in), href);
		else
			qb_buf_puts(b, qb_buf_cstr(&in));
		qb_buf_dispose(&in);
	} else if (is(n, "img")) {
		media(h, n, b, attr(n, "src"), attr(n, "alt"));
	} else if (is(n, "audio")) {
		const char *src = attr(n, "src");
		for (xmlNode *c = n->children; !src && c; c = c->next)
			if (is(c, "source"))
				src = attr(c, "src");
		xmlChar *t = xmlNodeGetContent(n);
		qb_buf alt = QB_BUF_INIT;
		put_text(&alt, t ? (const char *)t : "", true);
		trim(&alt);
		media(h, n, b, src, qb_buf_cstr(&alt));
		qb_buf_dispose(&alt);
		xmlFree(t);
	} else if (is(n, "u") || is(n, "ins")) {
		lost(h, L_UNDERLINE, "underlining (the text is kept, not underlined)");
		children(h, n, b);
	} else if (is(n, "sub") || is(n, "sup")) {
		lost(h, L_SUBSUP, "a subscript or superscript (kept as plain text; write it as math, "
		                  "$x^2$)");
		children(h, n, b);
	} else if (is(n, "font")) {
		lost(h, L_FONT, "a font or colour (the text is kept)");
		children(h, n, b);
	} else if (is(n, "video") || is(n, "iframe") || is(n, "object") || is(n, "embed")) {
		lost(h, L_MEDIA, "an embedded video or page (only images and sounds are carried)");
	} else if (is(n, "input") || is(n, "select") || is(n, "textarea") || is(n, "button") ||
	           is(n, "script") || is(n, "style")) {
		lost(h, L_FORM, "a form control, script or style element (dropped)");
	} else if (is(n, "span") || is(n, "html") || is(n, "body") || is(n, "thead") ||
	           is(n, "tbody") || is(n, "small") || is(n, "big") || is(n, "abbr") ||
	           is(n, "cite") || is(n, "q") || is(n, "mark") || is(n, "label") ||
	           is(n, "section") || is(n, "article") || is(n, "center") || is(n, "dfn") ||
	           is(n, "var") || is(n, "nobr") || is(n, "wbr")) {
		children(h, n, b);
	} else {
		lost(h, L_OTHER, "an HTML element Markdown has no form for (its text is kept)");
		if (!top)
			qb_buf_putc(b, ' ');
		children(h, n, b);
	}
}

void qb_html_to_md(qb_buf *out, const char *html, const qb_html_md_cb *cb)
{
	/* A fragment: libxml2 wraps it in <html><body>. */
	qb_buf doc = QB_BUF_INIT;
	qb_buf_appendf(&doc, "<html><head><meta charset=\"utf-8\"></head><body>%s</body></html>",
	               html);
	htmlDocPtr d = htmlReadMemory(doc.ptr, (int)doc.len, NULL, "UTF-8",
	                              HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	                                  HTML_PARSE_NONET | HTML_PARSE_NOIMPLIED);
	qb_buf_dispose(&doc);
	if (!d)
		return;
	h2m h = {out, QB_BUF_INIT, cb, 0, {0}};
	xmlNode *root = xmlDocGetRootElement(d);
	xmlNode *body = NULL;
	for (xmlNode *c = root ? root->children : NULL; c; c = c->next)
		if (is(c, "body"))
			body = c;
	if (body)
		children(&h, body, &h.para);
	flush(&h);
	qb_buf_dispose(&h.para);
	xmlFreeDoc(d);
}
