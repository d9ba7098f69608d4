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
	    xmlTextWriterWriteAttribute(c->w, BAD_CAST "subType", BAD_CAST(strcmp(kind, "math") == 0 ? "qbc:math" : strcmp(kind, "code") == 0 ? "qbc:code" : strcmp(kind, "link") == 0 ? "qbc:link" : strcmp(kind, "media") == 0 ? "qbc:media" : "qbc:gap")) < 0 ||
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

static bool is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0 &&
	       n->ns && strcmp((const char *)n->ns->href, XLIFF_NS) == 0;
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

/* The text of a <source> or <target>: text, and each <ph>'s data. */
static int seg_text(qb_buf *out, const xmlNode *seg, const xmlNode *orig, const char *file)
{
	for (const xmlNode *c = seg->children; c; c = c->next) {
		if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
			qb_buf_puts(out, (const char *)c->content);
			continue;
		}
		if (c->type != XML_ELEMENT_NODE)
			continue;
		char *ref = is(c, "ph") ? attr(c, "dataRef") : NULL;
		const xmlNode *d = NULL;
		for (const xmlNode *k = orig ? orig->children : NULL; ref && k; k = k->next) {
			char *id = is(k, "data") ? attr(k, "id") : NULL;
			if (id && strcmp(id, ref) == 0)
				d = k;
			free(id);
		}
		free(ref);
		if (!d) {
			qb_diag_error(QB_LOC(file, (int)xmlGetLineNo(c), 1),
			              "<%s> is not a placeholder of this unit's original data: the "
			              "protected markup must be kept", (const char *)c->name);
			return -1;
		}
		xmlChar *s = xmlNodeGetContent(d);
		qb_buf_puts(out, s ? (const char *)s : "");
		xmlFree(s);
	}
	return 0;
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
	int rc = 0;
	xmlNode *root = xmlDocGetRootElement(doc);
	if (!is(root, "xliff")) {
		qb_diag_error(QB_LOC(path, root ? (int)xmlGetLineNo(root) : 0, 1),
		              "not an XLIFF 2.0 file: the root is not <xliff> in its namespace");
		rc = -1;
		goto done;
	}
	out->lang = attr(root, "trgLang");
	size_t cap = 0;
	for (xmlNode *f = root->children; f; f = f->next) {
		if (!is(f, "file"))
			continue;
		for (xmlNode *u = f->children; u; u = u->next) {
			if (!is(u, "unit"))
				continue;
			xmlNode *seg = child(u, "segment"), *src = child(seg, "source"),
			        *trg = child(seg, "target");
			char *key = attr(u, "name");
			if (!key || !src) {
				qb_diag_error(QB_LOC(path, (int)xmlGetLineNo(u), 1),
				              "a <unit> without a name or a <segment> without a <source>");
				free(key);
				rc = -1;
				continue;
			}
			if (out->n == cap)
				out->v = qb_xrealloc(out->v, (cap = cap * 2 + 64) * sizeof *out->v);
			qb_tu_in *in = &out->v[out->n++];
			memset(in, 0, sizeof *in);
			in->key = key;
			in->line = (int)xmlGetLineNo(trg ? trg : src);
			qb_buf s = QB_BUF_INIT, t = QB_BUF_INIT;
			xmlNode *orig = child(u, "originalData");
			if (seg_text(&s, src, orig, path) != 0 || (trg && seg_text(&t, trg, orig, path) != 0))
				rc = -1;
			in->source = qb_xstrdup(qb_buf_cstr(&s));
			in->target = qb_xstrdup(qb_buf_cstr(&t));
			qb_buf_dispose(&s);
			qb_buf_dispose(&t);
			char *state = attr(seg, "state");
			in->fuzzy = !state || strcmp(state, "initial") == 0;
			free(state);
		}
	}
done:
	xmlFreeDoc(doc);
	return rc;
}
