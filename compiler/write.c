/* write.c - the registry of writers.  Adding a writer: see README.md. */
#include "write.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fsutil.h"
#include "i18n.h"

const qb_writer qb_writers[] = {
	/* name, ext, desc (for --help, translated there), by_default, make, templates, write, check (the
	 * format's rules), types (beyond single and multiple), begin and end (early work) */
	{"anki", ".apkg", N_("Anki deck package"), true, true, "anki", qb_write_anki, NULL,
	 QB_TYPE_BIT(QB_QTYPE_TRUE_FALSE) | QB_TYPE_BIT(QB_QTYPE_SHORT) |
	     QB_TYPE_BIT(QB_QTYPE_NUMERIC) | QB_TYPE_BIT(QB_QTYPE_MATCHING) |
	     QB_TYPE_BIT(QB_QTYPE_CLOZE), qb_begin_anki, qb_end_anki},
	{"scorm12", ".scorm12.zip", N_("SCORM 1.2 package for Moodle"), true, true, "scorm",
	 qb_write_scorm12, qb_check_scorm12, QB_TYPES_ALL, NULL, NULL},
	{"scorm2004", ".scorm2004.zip", N_("SCORM 2004 4th edition package"), false, true, "scorm",
	 qb_write_scorm2004, qb_check_scorm2004, QB_TYPES_ALL, NULL, NULL},
	{"moodlexml", ".moodle.xml", N_("Moodle XML for a course's question bank"), false, true, NULL,
	 qb_write_moodlexml, qb_check_moodlexml, QB_TYPES_ALL, NULL, NULL},
	{"qti", ".qti.zip", N_("IMS QTI 2.1 package for LMSs that import QTI (OpenOLAT...)"), false,
	 true, NULL, qb_write_qti21, NULL, QB_TYPES_ALL, NULL, NULL},
	{"qti3", ".qti3.zip", N_("IMS QTI 3.0 package (QTI 3 players and item banks)"), false, false,
	 NULL, qb_write_qti30, NULL, QB_TYPES_ALL, NULL, NULL},
	{"html", ".html", N_("one offline HTML file: the player, and worksheets and keys to print"), false,
	 true, "html", qb_write_html, qb_check_html, QB_TYPES_ALL, NULL, NULL},
	{"json", ".json", N_("the model as JSON, as 'qbc dump --json' prints it"), false, false, NULL,
	 qb_write_json, NULL, QB_TYPES_ALL, NULL, NULL},
	{NULL, NULL, NULL, false, false, NULL, NULL, NULL, 0, NULL, NULL},
};

const qb_writer *qb_writer_find(const char *name)
{
	for (const qb_writer *w = qb_writers; w->name; w++)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}

char *qb_writer_output_path(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts)
{
	char *name = qb_xasprintf("%s%s", bank->id, w->ext);
	char *path = qb_fs_join(opts->outdir, name);
	free(name);
	return path;
}
