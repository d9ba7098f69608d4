/* scorm_manifest.h - imsmanifest.xml for the SCORM packages, written with
 * libxml2's xmlTextWriter.
 *
 * The manifest follows what Moodle's parser reads (shared/docs/
 * scorm-moodle.md §1): IMS CP elements unprefixed in the default
 * namespace, the ADL CP prefix exactly "adlcp:", one organization with one
 * SCO item.  The manifest, organization, item and resource identifiers are
 * derived from the bank id only, so they never change between builds:
 * Moodle keeps learners' tracks by item identifier (§6). */
#ifndef QB_SCORM_MANIFEST_H
#define QB_SCORM_MANIFEST_H

#include "buf.h"
#include "model.h"
#include "render.h"

typedef enum qb_scorm_version {
	QB_SCORM_12,   /* SCORM 1.2: IMS CP 1.1.2 + ADL CP 1.2          */
	QB_SCORM_2004  /* SCORM 2004 4th Edition                         */
} qb_scorm_version;

/* What the manifest describes besides the bank. */
typedef struct qb_scorm_manifest {
	qb_scorm_version version;
	const char *launch;        /* the SCO's launch file, e.g. "index.html"  */
	const char *const *files;  /* every file of the package except the
	                              manifest itself, in zip order           */
	size_t nfiles;
	unsigned revision;         /* manifest version: the bank's revision
	                              number, which increases with content    */
} qb_scorm_manifest;

/* Appends the identifier "<prefix>-<bank id>" to out, with every character
 * outside [A-Za-z0-9_.-] replaced by '_' (an xsd:ID, and stable). */
void qb_scorm_manifest_ident(qb_buf *out, const char *prefix, const qb_bank *bank);

/* Appends the whole imsmanifest.xml for bank to out: titles and LOM
 * metadata in the languages of r, the mastery score (1.2) or a
 * scaled passing score (2004) from the bank's pass mark.  Returns 0, or -1
 * after a diagnostic when libxml2 fails. */
int qb_scorm_manifest_write(qb_buf *out, const qb_render_ctx *r, const qb_bank *bank,
                            const qb_scorm_manifest *m);

#endif
