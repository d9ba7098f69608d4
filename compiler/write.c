/* write.c - the registry of writers.  Adding a writer: see README.md. */
#include "write.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fsutil.h"
#include "i18n.h"

const qb_writer qb_writers[] = {
	/* name, ext, desc (for --help, translated there), by_default, make, templates, write, check (the
	 * format's rules), types (beyond single and multiple), begin and end (early work), and one
	 * output per language (per_lang) */
	{"anki", ".apkg", N_("Anki deck package"), true, true, "anki", qb_write_anki, NULL,
	 QB_TYPE_BIT(QB_QTYPE_TRUE_FALSE) | QB_TYPE_BIT(QB_QTYPE_SHORT) |
	     QB_TYPE_BIT(QB_QTYPE_NUMERIC) | QB_TYPE_BIT(QB_QTYPE_MATCHING) |
	     QB_TYPE_BIT(QB_QTYPE_CLOZE), qb_begin_anki, qb_end_anki, false},
	{"scorm12", ".scorm12.zip", N_("SCORM 1.2 package for Moodle"), true, true, "scorm",
	 qb_write_scorm12, qb_check_scorm12, QB_TYPES_ALL, NULL, NULL, false},
	{"scorm2004", ".scorm2004.zip", N_("SCORM 2004 4th edition package"), false, true, "scorm",
	 qb_write_scorm2004, qb_check_scorm2004, QB_TYPES_ALL, NULL, NULL, false},
	{"moodlexml", ".moodle.xml", N_("Moodle XML for a course's question bank"), false, true, NULL,
	 qb_write_moodlexml, qb_check_moodlexml, QB_TYPES_ALL, NULL, NULL, false},
	{"qti", ".qti.zip",
	 N_("IMS QTI 2.1 packages, one per language, for LMSs that import QTI (OpenOLAT...)"), false,
	 true, NULL, qb_write_qti21, qb_check_qti21, QB_TYPES_ALL, NULL, NULL, true},
	{"qti3", ".qti3.zip",
	 N_("IMS QTI 3.0 packages, one per language (QTI 3 players and item banks)"), false, false,
	 NULL, qb_write_qti30, qb_check_qti30, QB_TYPES_ALL, NULL, NULL, true},
	{"html", ".html", N_("one offline HTML file: the player, and worksheets and keys to print"), false,
	 true, "html", qb_write_html, qb_check_html, QB_TYPES_ALL, NULL, NULL, false},
	{"csv", ".csv",
	 N_("a spreadsheet in the layout 'qbc import' reads, to edit the bank as a sheet again"),
	 false, false, NULL, qb_write_csv, qb_check_csv, QB_TYPES_ALL, NULL, NULL, false},
	{"json", ".json", N_("the model as JSON, as 'qbc dump --json' prints it"), false, false, NULL,
	 qb_write_json, NULL, QB_TYPES_ALL, NULL, NULL, false},
	{NULL, NULL, NULL, false, false, NULL, NULL, NULL, 0, NULL, NULL, false},
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

char *qb_writer_lang_path(const char *path, const char *ext, const char *lang)
{
	size_t n = strlen(path), e = strlen(ext);
	if (n >= e && strcmp(path + n - e, ext) == 0)
		n -= e;
	return qb_xasprintf("%.*s.%s%s", (int)n, path, lang, ext);
}

void qb_writer_outputs(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts,
                       char ***out, size_t *n)
{
	char *path = qb_writer_output_path(w, bank, opts);
	size_t nlangs = opts->nlangs ? opts->nlangs : bank->nlangs;
	if (!w->per_lang) {
		*out = qb_xcalloc(1, sizeof **out);
		(*out)[0] = path;
		*n = 1;
		return;
	}
	*out = qb_xcalloc(nlangs ? nlangs : 1, sizeof **out);
	for (size_t i = 0; i < nlangs; i++)
		(*out)[i] = qb_writer_lang_path(path, w->ext,
		                                opts->nlangs ? opts->langs[i] : bank->langs[i].code);
	*n = nlangs;
	free(path);
}
