/* translate_xliff.c - translation units as XLIFF 2.0 (OASIS core), written
 * with libxml2's xmlTextWriter and read with its parser (translate.h).
 *
 * A unit per text: id "u<N>", name its key; notes: the context (category
 * "context") and the source language's file and line ("location"), and
 * for a stale unit whose source changed since the file it replaces, that
 * file's source as a note of category "previous-source" (applying to the
 * source; XLIFF 2.0 core has no element of its own for it); one
 * segment whose state is initial (untranslated, or stale with its old
 * target), translated, or reviewed (marked so in the record by `qbc
 * review` or an import --reviewed).  Protected markup (formulas, code, a
 * link's or picture's '[' / '![' and its "](target)", a cloze gap's braces
 * and marks around its answers) becomes <ph dataRef=".."/>, its text in
 * the unit's <originalData>, so that tools show it as a tag the translator
 * moves but does not edit; a picture's description, a link's text and a
 * gap's answers stay text to translate. */
#include "translate.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"

#define XLIFF_NS "urn:oasis:names:tc:xliff:document:2.0"

/* The protected pieces of one unit (source and target), each distinct
 * text once: d1, d2, ... */
typedef struct data_set {
	char **v;
	size_t n, cap;
} data_set;

static size_t data_id(data_set *d, const char *s, size_t len)
{
	for (size_t i = 0; i < d->n; i++)
		if (strlen(d->v[i]) == len && memcmp(d->v[i], s, len) == 0)
			return i + 1;
	if (d->n == d->cap)
		d->v = qb_xrealloc(d->v, (d->cap = d->cap * 2 + 8) * sizeof *d->v);
	d->v[d->n++] = qb_xstrndup(s, len);
	return d->n;
}

static void data_collect(void *payload, const char *kind, const char *s, size_t len)
{
	if (kind)
		data_id(payload, s, len);
}

/* The unit's placeholders: a target's placeholder takes the id of the
 * source's one with the same data (each once), as XLIFF pairs them. */
typedef struct ph_set {
	size_t *ref;   /* the data of placeholder i + 1                      */
	bool *paired;  /* taken by a target placeholder                      */
	size_t n, nsource;
} ph_set;

typedef struct seg_ctx {
	xmlTextWriterPtr w;
	data_set *d;
	ph_set *ph;
	bool target;
	int rc;
} seg_ctx;

static size_t ph_id(ph_set *p, size_t ref, bool target)
{
	for (size_t i = 0; target && i < p->nsource; i++)
		if (p->ref[i] == ref && !p->paired[i]) {
			p->paired[i] = true;
			return i + 1;
		}
	p->ref = qb_xrealloc(p->ref, (p->n + 1) * sizeof *p->ref);
	p->paired = qb_xrealloc(p->paired, (p->n + 1) * sizeof *p->paired);
	p->ref[p->n] = ref;
	p->paired[p->n] = false;
	if (!target)
		p->nsource = p->n + 1;
	return ++p->n;
}

static void seg_piece(void *payload, const char *kind, const char *s, size_t len)
{
	seg_ctx *c = payload;
	if (!kind) {
		char *t = qb_xstrndup(s, len);
		if (xmlTextWriterWriteString(c->w, BAD_CAST t) < 0)
			c->rc = -1;
		free(t);
		return;
	}
	char id[32], ref[32];
	size_t r = data_id(c->d, s, len);
	snprintf(id, sizeof id, "p%zu", ph_id(c->ph, r, c->target));
	snprintf(ref, sizeof ref, "d%zu", r);
	if (xmlTextWriterStartElement(c->w, BAD_CAST "ph") < 0 ||
	    xmlTextWriterWriteAttribute(c->w, BAD_CAST "id", BAD_CAST id) < 0 ||
	    xmlTextWriterWriteAttribute(c->w, BAD_CAST "dataRef", BAD_CAST ref) < 0 ||
	    xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "other") < 0 ||
	    xmlTextWriterWriteAttribute(c->w, BAD_CAST "subType", BAD_CAST(strcmp(kind, "math") == 0 ? "qbc:math" : strcmp(kind, "code") == 0 ? "qbc:code" : strcmp(kind, "link") == 0 ? "qbc:link" : strcmp(kind, "media") == 0 ? "qbc:media" : strcmp(kind, "var") == 0 ? "qbc:var" : "qbc:gap")) < 0 ||
	    xmlTextWriterEndElement(c->w) < 0)
		c->rc = -1;
}

static int write_seg(xmlTextWriterPtr w, const char *name, const char *text, data_set *d,
                     ph_set *ph)
{
	seg_ctx c = {w, d, ph, strcmp(name, "target") == 0, 0};
	if (xmlTextWriterStartElement(w, BAD_CAST name) < 0)
		return -1;
	qb_tu_pieces(text, seg_piece, &c);
	return c.rc || xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

static int write_unit(xmlTextWriterPtr w, const qb_bank *bank, const qb_tu *u, size_t i)
{
	int rc = 0;
	char id[32];
	snprintf(id, sizeof id, "u%zu", i + 1);
	data_set d = {NULL, 0, 0};
	qb_tu_pieces(u->source, data_collect, &d);
	if (u->target)
		qb_tu_pieces(u->target, data_collect, &d);
	const qb_tr *tr = qb_text_tr(u->text, qb_bank_default_lang(bank));
	char where[64];
	snprintf(where, sizeof where, "%d", tr ? tr->line : 0);
#define X(call) do { if ((call) < 0) rc = -1; } while (0)
	X(xmlTextWriterStartElement(w, BAD_CAST "unit"));
	X(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id));
	X(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST u->key));
	X(xmlTextWriterStartElement(w, BAD_CAST "notes"));
	X(xmlTextWriterStartElement(w, BAD_CAST "note"));
	X(xmlTextWriterWriteAttribute(w, BAD_CAST "category", BAD_CAST "context"));
	X(xmlTextWriterWriteString(w, BAD_CAST u->note));
	X(xmlTextWriterEndElement(w));
	X(xmlTextWriterStartElement(w, BAD_CAST "note"));
	X(xmlTextWriterWriteAttribute(w, BAD_CAST "category", BAD_CAST "location"));
	X(xmlTextWriterWriteFormatString(w, "%s:%s", bank->path, where));
	X(xmlTextWriterEndElement(w));
	if (u->prev) {
		X(xmlTextWriterStartElement(w, BAD_CAST "note"));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "category", BAD_CAST "previous-source"));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "appliesTo", BAD_CAST "source"));
		X(xmlTextWriterWriteString(w, BAD_CAST u->prev));
		X(xmlTextWriterEndElement(w));
	}
	X(xmlTextWriterEndElement(w));
	if (d.n) {
		X(xmlTextWriterStartElement(w, BAD_CAST "originalData"));
		for (size_t k = 0; k < d.n; k++) {
			char ref[32];
			snprintf(ref, sizeof ref, "d%zu", k + 1);
			X(xmlTextWriterStartElement(w, BAD_CAST "data"));
			X(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST ref));
			X(xmlTextWriterWriteString(w, BAD_CAST d.v[k]));
			X(xmlTextWriterEndElement(w));
		}
		X(xmlTextWriterEndElement(w));
	}
	X(xmlTextWriterStartElement(w, BAD_CAST "segment"));
	X(xmlTextWriterWriteAttribute(w, BAD_CAST "state",
	                              BAD_CAST(u->state == QB_TU_REVIEWED     ? "reviewed"
	                                       : u->state == QB_TU_TRANSLATED ? "translated"
	                                                                      : "initial")));
	ph_set ph = {NULL, NULL, 0, 0};
	/* No indentation inside <source> and <target>: it would be text. */
	X(xmlTextWriterSetIndent(w, 0));
	X(xmlTextWriterWriteString(w, BAD_CAST "\n    "));
	if (write_seg(w, "source", u->source, &d, &ph) != 0)
		rc = -1;
	if (u->target) {
		X(xmlTextWriterWriteString(w, BAD_CAST "\n    "));
		if (write_seg(w, "target", u->target, &d, &ph) != 0)
			rc = -1;
	}
	X(xmlTextWriterWriteString(w, BAD_CAST "\n   "));
	X(xmlTextWriterEndElement(w));
	X(xmlTextWriterWriteString(w, BAD_CAST "\n  "));
	X(xmlTextWriterEndElement(w));
	X(xmlTextWriterWriteString(w, BAD_CAST "\n  "));
	X(xmlTextWriterSetIndent(w, 1));
#undef X
	free(ph.ref);
	free(ph.paired);
	for (size_t k = 0; k < d.n; k++)
		free(d.v[k]);
	free(d.v);
	return rc;
}

int qb_xliff_write(const qb_tu_list *l, const qb_bank *bank, const char *lang, const char *path)
{
	int rc = 0;
	xmlBufferPtr xbuf = xmlBufferCreate();
	xmlTextWriterPtr w = xbuf ? xmlNewTextWriterMemory(xbuf, 0) : NULL;
	if (!w)
		rc = -1;
#define X(call) do { if (!rc && (call) < 0) rc = -1; } while (0)
	if (w) {
		X(xmlTextWriterSetIndent(w, 1));
		X(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
		X(xmlTextWriterStartElementNS(w, NULL, BAD_CAST "xliff", BAD_CAST XLIFF_NS));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "2.0"));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "srcLang", BAD_CAST qb_bank_default_lang(bank)));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "trgLang", BAD_CAST lang));
		X(xmlTextWriterStartElement(w, BAD_CAST "file"));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "f1"));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "original", BAD_CAST bank->path));
		X(xmlTextWriterWriteAttribute(w, BAD_CAST "xml:space", BAD_CAST "preserve"));
		for (size_t i = 0; i < l->n && !rc; i++)
			if (write_unit(w, bank, &l->v[i], i) != 0)
				rc = -1;
		X(xmlTextWriterEndDocument(w));
		xmlFreeTextWriter(w);
	}
#undef X
	if (rc) {
		qb_diag_fatal("cannot write the XLIFF file '%s' (libxml2 failed)", path);
	} else if (strcmp(path, "-") == 0) {
		if (fwrite(xmlBufferContent(xbuf), 1, (size_t)xmlBufferLength(xbuf), stdout) !=
		    (size_t)xmlBufferLength(xbuf))
			rc = -1;
	} else if (qb_fs_write_atomic(path, xmlBufferContent(xbuf), (size_t)xmlBufferLength(xbuf)) != 0) {
		qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	if (xbuf)
		xmlBufferFree(xbuf);
	return rc;
}

/* ---- reading ---- */

/* An element of XLIFF 2: in its namespace, or in none (ilib-xliff writes
 * its files without one). */
static bool is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0 &&
	       (!n->ns || strcmp((const char *)n->ns->href, XLIFF_NS) == 0);
}

static xmlNode *child(const xmlNode *n, const char *name)
{
	for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is(c, name))
			return c;
	return NULL;
}

static char *attr(const xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	char *s = v ? qb_xstrdup((const char *)v) : NULL;
	xmlFree(v);
	return s;
}

/* A placeholder left in a text for qb_xliff_resolve(): its id, its
 * dataRef and, when the file has it, its data, between bytes XML cannot
 * hold, so that no text of a file is taken for one. */
#define PH_OPEN '\x01'
#define PH_SEP '\x1f'
#define PH_DATA '\x1e'
#define PH_CLOSE '\x02'

/* The text of a <source> or <target>: text, and each <ph>'s data (a
 * placeholder for qb_xliff_resolve() when the data is not in the file, or
 * when white space is the tool's: *unresolved is then set). */
static int seg_text(qb_buf *out, const xmlNode *seg, const xmlNode *orig, const char *file,
                    bool keep, bool *unresolved)
{
	for (const xmlNode *c = seg->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			qb_buf_puts(out, (const char *)c->content);
			continue;
		}
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!is(c, "ph")) {
			qb_diag_error(QB_LOC(file, (int)xmlGetLineNo(c), 1),
			              "<%s> is not a placeholder of this unit's original data: the "
			              "protected markup must be kept", (const char *)c->name);
			return -1;
		}
		char *ref = attr(c, "dataRef"), *id = attr(c, "id");
		const xmlNode *d = NULL;
		for (const xmlNode *k = orig ? orig->children : NULL; ref && k; k = k->next) {
			char *did = is(k, "data") ? attr(k, "id") : NULL;
			if (did && strcmp(did, ref) == 0)
				d = k;
			free(did);
		}
		xmlChar *s = d ? xmlNodeGetContent(d) : NULL;
		if (d && !keep) {
			qb_buf_puts(out, s ? (const char *)s : "");
		} else {
			qb_buf_putc(out, PH_OPEN);
			qb_buf_puts(out, id ? id : "");
			qb_buf_putc(out, PH_SEP);
			qb_buf_puts(out, ref ? ref : "");
			if (d) {
				qb_buf_putc(out, PH_DATA);
				qb_buf_puts(out, s ? (const char *)s : "");
			}
			qb_buf_putc(out, PH_CLOSE);
			*unresolved = true;
		}
		xmlFree(s);
		free(ref);
		free(id);
	}
	return 0;
}

typedef struct read_ctx {
	const char *path;
	qb_tu_file *out;
	size_t cap;
	int rc;
} read_ctx;

static void read_unit(read_ctx *r, xmlNode *u)
{
	const char *path = r->path;
	xmlNode *seg = child(u, "segment"), *src = child(seg, "source");
	char *key = attr(u, "name");
	if (!key || !src) {
		qb_diag_error(QB_LOC(path, (int)xmlGetLineNo(u), 1),
		              "a <unit> without a name or a <segment> without a <source>");
		free(key);
		r->rc = -1;
		return;
	}
	qb_tu_file *out = r->out;
	if (out->n == r->cap)
		out->v = qb_xrealloc(out->v, (r->cap = r->cap * 2 + 64) * sizeof *out->v);
	qb_tu_in *in = &out->v[out->n++];
	memset(in, 0, sizeof *in);
	in->key = key;
	in->space_default = xmlNodeGetSpacePreserve(seg) != 1;
	qb_buf s = QB_BUF_INIT, t = QB_BUF_INIT;
	xmlNode *orig = child(u, "originalData");
	bool any_target = false, initial = false, reviewed = true, nostate = false;
	/* A tool may split a unit's text into segments (and <ignorable>
	 * white space between them): the unit's text is all of them. */
	for (xmlNode *g = u->children; g; g = g->next) {
		if (!is(g, "segment") && !is(g, "ignorable"))
			continue;
		xmlNode *gs = child(g, "source"), *gt = child(g, "target");
		if (!in->line || gt)
			in->line = (int)xmlGetLineNo(gt ? gt : gs ? gs : g);
		if ((gs && seg_text(&s, gs, orig, path, in->space_default, &in->unresolved) != 0) ||
		    (gt && seg_text(&t, gt, orig, path, in->space_default, &in->unresolved) != 0))
			r->rc = -1;
		if (!gt && gs && is(g, "ignorable")) /* the same white space in both */
			if (seg_text(&t, gs, orig, path, in->space_default, &in->unresolved) != 0)
				r->rc = -1;
		any_target |= gt != NULL;
		if (!is(g, "segment"))
			continue;
		char *state = attr(g, "state");
		nostate |= !state;
		initial |= state && strcmp(state, "initial") == 0;
		reviewed &= state && (strcmp(state, "reviewed") == 0 || strcmp(state, "final") == 0);
		free(state);
	}
	in->source = qb_xstrdup(qb_buf_cstr(&s));
	in->target = qb_xstrdup(any_target ? qb_buf_cstr(&t) : "");
	qb_buf_dispose(&s);
	qb_buf_dispose(&t);
	/* No state: a tool dropped it (XLIFF's default is initial, which
	 * would make every translation stale): a new target is translated,
	 * an unchanged one keeps what the record says. */
	in->nostate = nostate && !initial;
	in->fuzzy = initial;
	in->reviewed = reviewed && !initial && !nostate;
}

/* The units of a <file> or <group>, groups within groups too. */
static void read_units(read_ctx *r, xmlNode *parent)
{
	for (xmlNode *u = parent->children; u; u = u->next) {
		if (is(u, "unit"))
			read_unit(r, u);
		else if (is(u, "group"))
			read_units(r, u);
	}
}

int qb_xliff_read(const char *path, qb_tu_file *out)
{
	memset(out, 0, sizeof *out);
	xmlDocPtr doc = xmlReadFile(path, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                           XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *e = xmlGetLastError();
		qb_diag_error(QB_LOC(path, e ? e->line : 0, 1), "this is not well-formed XML: %s",
		              e && e->message ? e->message : "not XML");
		return -1;
	}
	read_ctx r = {path, out, 0, 0};
	xmlNode *root = xmlDocGetRootElement(doc);
	char *version = is(root, "xliff") ? attr(root, "version") : NULL;
	if (!version || strncmp(version, "2.", 2) != 0) {
		qb_diag_error(QB_LOC(path, root ? (int)xmlGetLineNo(root) : 0, 1),
		              "not an XLIFF 2 file: the root is not <xliff version=\"2.x\">");
		r.rc = -1;
		goto done;
	}
	out->lang = attr(root, "trgLang");
	out->lang_line = (int)xmlGetLineNo(root);
	for (xmlNode *f = root->children; f; f = f->next)
		if (is(f, "file"))
			read_units(&r, f);
done:
	free(version);
	xmlFreeDoc(doc);
	return r.rc;
}

/* ---- a unit made whole against the bank ---- */

/* The export's placeholders of a unit: each id ("p3") and data ref
 * ("d2") with its data, and the white space before each piece of data in
 * the source, as qb_xliff_write() numbers them. */
typedef struct ph_map {
	data_set d;
	ph_set ph;
	bool target;
	char **ws;        /* the source's white space before data i + 1, or NULL */
	size_t nws;
	const char *text; /* the text being split, for the white space         */
	size_t at;        /* where its last piece ended                          */
} ph_map;

static void map_piece(void *payload, const char *kind, const char *s, size_t len)
{
	ph_map *m = payload;
	if (!kind)
		return;
	size_t r = data_id(&m->d, s, len);
	ph_id(&m->ph, r, m->target);
	if (m->target)
		return;
	/* The white space right before it in the source. */
	size_t off = (size_t)(s - m->text), a = off;
	while (a > m->at && strchr(" \t\n", m->text[a - 1]))
		a--;
	if (r > m->nws) {
		m->ws = qb_xrealloc(m->ws, r * sizeof *m->ws);
		for (size_t k = m->nws; k < r; k++)
			m->ws[k] = NULL;
		m->nws = r;
	}
	if (!m->ws[r - 1])
		m->ws[r - 1] = qb_xstrndup(m->text + a, off - a);
	m->at = off + len;
}

/* The data a placeholder of the file stands for, or NULL. */
static const char *ph_data(const ph_map *m, const char *id, const char *ref, size_t *which)
{
	unsigned long n = 0;
	char end = 0;
	*which = 0;
	if (ref && sscanf(ref, "d%lu%c", &n, &end) == 1 && n >= 1 && n <= m->d.n) {
		*which = (size_t)n;
		return m->d.v[n - 1];
	}
	if (id && sscanf(id, "p%lu%c", &n, &end) == 1 && n >= 1 && n <= m->ph.n) {
		*which = m->ph.ref[n - 1];
		return m->d.v[*which - 1];
	}
	return NULL;
}

/* The white space of s[0..n): a run that ends before a placeholder loses
 * what a pretty-printer adds there (a line break and its indentation). */
static size_t strip_pretty(const char *s, size_t n)
{
	size_t e = n;
	while (e && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	return e && s[e - 1] == '\n' ? e - 1 : n;
}

/* text with its placeholders given their data; -1 after an error. */
static int resolve_text(qb_buf *out, const char *text, const ph_map *m, bool space_default,
                        const qb_tu_in *in, const char *path)
{
	const char *p = text;
	for (const char *o; (o = strchr(p, PH_OPEN)) != NULL;) {
		const char *sep = strchr(o, PH_SEP), *close = strchr(o, PH_CLOSE);
		if (!sep || !close || sep > close)
			break;
		size_t lit = (size_t)(o - p);
		if (space_default)
			lit = strip_pretty(p, lit);
		qb_buf_append(out, p, lit);
		char *id = qb_xstrndup(o + 1, (size_t)(sep - o - 1));
		const char *dm = memchr(sep, PH_DATA, (size_t)(close - sep));
		char *ref = qb_xstrndup(sep + 1, (size_t)((dm ? dm : close) - sep - 1));
		size_t which = 0;
		char *own = dm ? qb_xstrndup(dm + 1, (size_t)(close - dm - 1)) : NULL;
		const char *data = own ? own : ph_data(m, id, ref, &which);
		if (own) /* the file's own data: the source's piece of the same text */
			for (size_t k = 0; k < m->d.n && !which; k++)
				if (strcmp(m->d.v[k], own) == 0)
					which = k + 1;
		if (!data) {
			qb_diag_error(QB_LOC(path, in->line, in->line ? 1 : 0),
			              "translation of '%s': the placeholder <ph id=\"%s\"> has no data "
			              "in the file and is none of the unit's: keep the placeholders as "
			              "the file gave them", in->key, id);
			free(id);
			free(ref);
			free(own);
			return -1;
		}
		/* Pretty-printing took the line break before a piece of markup
		 * that starts a line in the source (a code block): put it back. */
		if (space_default && which && which <= m->nws && m->ws[which - 1] &&
		    strchr(m->ws[which - 1], '\n') && out->len &&
		    !strchr(" \t\n", qb_buf_cstr(out)[out->len - 1]))
			qb_buf_puts(out, m->ws[which - 1]);
		qb_buf_puts(out, data);
		free(id);
		free(ref);
		free(own);
		p = close + 1;
	}
	qb_buf_puts(out, p);
	/* The text's ends, as the reader keeps texts. */
	size_t n = out->len;
	while (n && strchr(" \t\n", qb_buf_cstr(out)[n - 1]))
		n--;
	size_t a = 0;
	while (a < n && strchr(" \t\n", qb_buf_cstr(out)[a]))
		a++;
	char *t = qb_xstrndup(qb_buf_cstr(out) + a, n - a);
	qb_buf_clear(out);
	qb_buf_puts(out, t);
	free(t);
	return 0;
}

/* s with every run of white space one space, for a comparison that XLIFF's
 * default white space allows. */
static char *collapse(const char *s)
{
	qb_buf b = QB_BUF_INIT;
	bool space = false;
	for (const char *p = s; *p; p++) {
		if (strchr(" \t\n\r", *p)) {
			space = true;
			continue;
		}
		if (space && b.len)
			qb_buf_putc(&b, ' ');
		space = false;
		qb_buf_putc(&b, *p);
	}
	return qb_buf_detach(&b);
}

int qb_xliff_resolve(qb_tu_in *in, const qb_tu *u, const char *path)
{
	if (!in->unresolved && !in->space_default)
		return 0;
	ph_map m = {{NULL, 0, 0}, {NULL, NULL, 0, 0}, false, NULL, 0, u->source, 0};
	qb_tu_pieces(u->source, map_piece, &m);
	m.target = true;
	if (u->target)
		qb_tu_pieces(u->target, map_piece, &m);
	int rc = 0;
	qb_buf s = QB_BUF_INIT, t = QB_BUF_INIT;
	if (resolve_text(&s, in->source, &m, in->space_default, in, path) != 0 ||
	    resolve_text(&t, in->target, &m, in->space_default, in, path) != 0) {
		rc = -1;
	} else {
		free(in->source);
		free(in->target);
		in->source = qb_buf_detach(&s);
		in->target = qb_buf_detach(&t);
		if (in->space_default && strcmp(in->source, u->source) != 0) {
			char *a = collapse(in->source), *b = collapse(u->source);
			if (strcmp(a, b) == 0) {
				free(in->source);
				in->source = qb_xstrdup(u->source);
			}
			free(a);
			free(b);
		}
		in->unresolved = false;
	}
	qb_buf_dispose(&s);
	qb_buf_dispose(&t);
	for (size_t k = 0; k < m.d.n; k++)
		free(m.d.v[k]);
	free(m.d.v);
	free(m.ph.ref);
	free(m.ph.paired);
	for (size_t k = 0; k < m.nws; k++)
		free(m.ws[k]);
	free(m.ws);
	return rc;
}
