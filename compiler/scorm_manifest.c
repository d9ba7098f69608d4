/* scorm_manifest.c - see scorm_manifest.h.
 *
 * References: IMS Content Packaging 1.1.2 (SCORM 1.2) and 1.1.4 (SCORM
 * 2004 4th Edition), ADL CAM (adlcp:masteryscore, adlcp:scormType), IMS
 * Simple Sequencing (imsss:primaryObjective, minNormalizedMeasure), IMS
 * Meta-data 1.2.1 and IEEE LOM for the metadata. */
#include "scorm_manifest.h"

#include <libxml/xmlwriter.h>
#include <string.h>

#include "diag.h"

/* Namespaces.  Moodle compares qualified names literally, so the prefixes
 * below are part of the contract (scorm-moodle.md §1). */
#define NS_CP12 "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
#define NS_ADLCP12 "http://www.adlnet.org/xsd/adlcp_rootv1p2"
#define NS_IMSMD "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
#define NS_CP2004 "http://www.imsglobal.org/xsd/imscp_v1p1"
#define NS_ADLCP2004 "http://www.adlnet.org/xsd/adlcp_v1p3"
#define NS_IMSSS "http://www.imsglobal.org/xsd/imsss"
#define NS_LOM "http://ltsc.ieee.org/xsd/LOM"

void qb_scorm_manifest_ident(qb_buf *out, const char *prefix, const qb_bank *bank)
{
	qb_buf_puts(out, prefix);
	qb_buf_putc(out, '-');
	for (const char *p = bank->id; *p; p++) {
		char c = *p;
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		          c == '_' || c == '.' || c == '-';
		qb_buf_putc(out, ok ? c : '_');
	}
}

/* The plain text of t in lang (render.h's fallback), appended to out. */
static void plain(qb_buf *out, const qb_render_ctx *r, const qb_text *t, const char *lang)
{
	qb_render_plain(out, qb_render_md(r, t, lang));
}

/* Every xmlTextWriter call returns a negative value on failure. */
#define X(call)                \
	do {                   \
		if ((call) < 0) \
			goto done; \
	} while (0)

static const xmlChar *xc(const char *s) { return (const xmlChar *)s; }

/* <el><string lang>text</string>...</el>, in the style of the version:
 * IMS MD 1.2.1 <imsmd:langstring xml:lang> or LOM <lom:string language>. */
static int lang_strings(xmlTextWriterPtr w, const qb_render_ctx *r, const qb_scorm_manifest *m,
                        const char *el, const qb_text *t)
{
	bool v12 = m->version == QB_SCORM_12;
	const char *pfx = v12 ? "imsmd" : "lom";
	int rc = -1;
	qb_buf txt = QB_BUF_INIT;
	X(xmlTextWriterStartElementNS(w, xc(pfx), xc(el), NULL));
	for (size_t i = 0; i < r->nlangs; i++) {
		qb_buf_clear(&txt);
		plain(&txt, r, t, r->langs[i]);
		X(xmlTextWriterStartElementNS(w, xc(pfx), xc(v12 ? "langstring" : "string"), NULL));
		if (v12)
			X(xmlTextWriterWriteAttributeNS(w, xc("xml"), xc("lang"), NULL,
			                                xc(r->langs[i])));
		else
			X(xmlTextWriterWriteAttribute(w, xc("language"), xc(r->langs[i])));
		X(xmlTextWriterWriteString(w, xc(qb_buf_cstr(&txt))));
		X(xmlTextWriterEndElement(w));
	}
	X(xmlTextWriterEndElement(w));
	rc = 0;
done:
	qb_buf_dispose(&txt);
	return rc;
}

static int metadata(xmlTextWriterPtr w, const qb_render_ctx *r, const qb_bank *bank,
                    const qb_scorm_manifest *m)
{
	bool v12 = m->version == QB_SCORM_12;
	const char *pfx = v12 ? "imsmd" : "lom";
	X(xmlTextWriterStartElement(w, xc("metadata")));
	X(xmlTextWriterWriteElement(w, xc("schema"), xc("ADL SCORM")));
	X(xmlTextWriterWriteElement(w, xc("schemaversion"), xc(v12 ? "1.2" : "2004 4th Edition")));
	X(xmlTextWriterStartElementNS(w, xc(pfx), xc("lom"), NULL));
	X(xmlTextWriterStartElementNS(w, xc(pfx), xc("general"), NULL));
	if (lang_strings(w, r, m, "title", &bank->title) != 0)
		goto done;
	for (size_t i = 0; i < r->nlangs; i++)
		X(xmlTextWriterWriteElementNS(w, xc(pfx), xc("language"), NULL, xc(r->langs[i])));
	if (bank->description.present &&
	    lang_strings(w, r, m, "description", &bank->description) != 0)
		goto done;
	X(xmlTextWriterEndElement(w)); /* general */
	X(xmlTextWriterEndElement(w)); /* lom */
	X(xmlTextWriterEndElement(w)); /* metadata */
	return 0;
done:
	return -1;
}

int qb_scorm_manifest_write(qb_buf *out, const qb_render_ctx *r, const qb_bank *bank,
                            const qb_scorm_manifest *m)
{
	bool v12 = m->version == QB_SCORM_12;
	int rc = -1;
	xmlBufferPtr xbuf = xmlBufferCreate();
	xmlTextWriterPtr w = xbuf ? xmlNewTextWriterMemory(xbuf, 0) : NULL;
	qb_buf id_manifest = QB_BUF_INIT, id_org = QB_BUF_INIT, id_item = QB_BUF_INIT,
	       id_res = QB_BUF_INIT, title = QB_BUF_INIT, num = QB_BUF_INIT;
	if (!w)
		goto done;
	qb_scorm_manifest_ident(&id_manifest, "MANIFEST", bank);
	qb_scorm_manifest_ident(&id_org, "ORG", bank);
	qb_scorm_manifest_ident(&id_item, "ITEM", bank);
	qb_scorm_manifest_ident(&id_res, "RES", bank);
	plain(&title, r, &bank->title, r->main_lang);
	if (!title.len)
		qb_buf_puts(&title, bank->id);

	X(xmlTextWriterSetIndent(w, 1));
	X(xmlTextWriterSetIndentString(w, xc("  ")));
	X(xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	X(xmlTextWriterStartElement(w, xc("manifest")));
	X(xmlTextWriterWriteAttribute(w, xc("identifier"), xc(qb_buf_cstr(&id_manifest))));
	qb_buf_appendf(&num, "%u", m->revision ? m->revision : 1);
	X(xmlTextWriterWriteAttribute(w, xc("version"), xc(qb_buf_cstr(&num))));
	qb_buf_clear(&num);
	X(xmlTextWriterWriteAttribute(w, xc("xmlns"), xc(v12 ? NS_CP12 : NS_CP2004)));
	X(xmlTextWriterWriteAttribute(w, xc("xmlns:adlcp"), xc(v12 ? NS_ADLCP12 : NS_ADLCP2004)));
	if (v12) {
		X(xmlTextWriterWriteAttribute(w, xc("xmlns:imsmd"), xc(NS_IMSMD)));
	} else {
		X(xmlTextWriterWriteAttribute(w, xc("xmlns:imsss"), xc(NS_IMSSS)));
		X(xmlTextWriterWriteAttribute(w, xc("xmlns:lom"), xc(NS_LOM)));
	}
	if (metadata(w, r, bank, m) != 0)
		goto done;

	X(xmlTextWriterStartElement(w, xc("organizations")));
	X(xmlTextWriterWriteAttribute(w, xc("default"), xc(qb_buf_cstr(&id_org))));
	X(xmlTextWriterStartElement(w, xc("organization")));
	X(xmlTextWriterWriteAttribute(w, xc("identifier"), xc(qb_buf_cstr(&id_org))));
	X(xmlTextWriterWriteElement(w, xc("title"), xc(qb_buf_cstr(&title))));
	X(xmlTextWriterStartElement(w, xc("item")));
	X(xmlTextWriterWriteAttribute(w, xc("identifier"), xc(qb_buf_cstr(&id_item))));
	X(xmlTextWriterWriteAttribute(w, xc("identifierref"), xc(qb_buf_cstr(&id_res))));
	X(xmlTextWriterWriteAttribute(w, xc("isvisible"), xc("true")));
	X(xmlTextWriterWriteElement(w, xc("title"), xc(qb_buf_cstr(&title))));
	if (bank->pass_mark >= 0 && v12) {
		/* ADL CAM 1.2: adlcp:masteryscore, 0..100; Moodle turns it into
		 * passed/failed at LMSFinish ("mastery score overrides status"). */
		qb_buf_appendf(&num, "%d", bank->pass_mark);
		X(xmlTextWriterWriteElement(w, xc("adlcp:masteryscore"), xc(qb_buf_cstr(&num))));
	} else if (bank->pass_mark >= 0) {
		/* IMS SS: a primary objective satisfied by measure; LMSs hand
		 * minNormalizedMeasure to the SCO as cmi.scaled_passing_score. */
		qb_buf_appendf(&num, "%d.%02d", bank->pass_mark / 100, bank->pass_mark % 100);
		X(xmlTextWriterStartElement(w, xc("imsss:sequencing")));
		X(xmlTextWriterStartElement(w, xc("imsss:objectives")));
		X(xmlTextWriterStartElement(w, xc("imsss:primaryObjective")));
		X(xmlTextWriterWriteAttribute(w, xc("objectiveID"), xc("pass")));
		X(xmlTextWriterWriteAttribute(w, xc("satisfiedByMeasure"), xc("true")));
		X(xmlTextWriterWriteElement(w, xc("imsss:minNormalizedMeasure"),
		                            xc(qb_buf_cstr(&num))));
		X(xmlTextWriterEndElement(w)); /* primaryObjective */
		X(xmlTextWriterEndElement(w)); /* objectives */
		X(xmlTextWriterEndElement(w)); /* sequencing */
	}
	X(xmlTextWriterEndElement(w)); /* item */
	X(xmlTextWriterEndElement(w)); /* organization */
	X(xmlTextWriterEndElement(w)); /* organizations */

	X(xmlTextWriterStartElement(w, xc("resources")));
	X(xmlTextWriterStartElement(w, xc("resource")));
	X(xmlTextWriterWriteAttribute(w, xc("identifier"), xc(qb_buf_cstr(&id_res))));
	X(xmlTextWriterWriteAttribute(w, xc("type"), xc("webcontent")));
	/* 1.2 spells the attribute scormtype, 2004 scormType (ADL CAM). */
	X(xmlTextWriterWriteAttribute(w, xc(v12 ? "adlcp:scormtype" : "adlcp:scormType"),
	                              xc("sco")));
	X(xmlTextWriterWriteAttribute(w, xc("href"), xc(m->launch)));
	for (size_t i = 0; i < m->nfiles; i++) {
		X(xmlTextWriterStartElement(w, xc("file")));
		X(xmlTextWriterWriteAttribute(w, xc("href"), xc(m->files[i])));
		X(xmlTextWriterEndElement(w));
	}
	X(xmlTextWriterEndElement(w)); /* resource */
	X(xmlTextWriterEndElement(w)); /* resources */
	X(xmlTextWriterEndElement(w)); /* manifest */
	X(xmlTextWriterEndDocument(w));
	xmlFreeTextWriter(w); /* flushes into xbuf */
	w = NULL;
	qb_buf_append(out, (const char *)xmlBufferContent(xbuf), (size_t)xmlBufferLength(xbuf));
	rc = 0;
done:
	if (rc != 0)
		qb_diag_fatal("cannot write imsmanifest.xml for bank '%s' with libxml2", bank->id);
	if (w)
		xmlFreeTextWriter(w);
	if (xbuf)
		xmlBufferFree(xbuf);
	qb_buf_dispose(&id_manifest);
	qb_buf_dispose(&id_org);
	qb_buf_dispose(&id_item);
	qb_buf_dispose(&id_res);
	qb_buf_dispose(&title);
	qb_buf_dispose(&num);
	return rc;
}
