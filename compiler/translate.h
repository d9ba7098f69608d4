/* translate.h - `qbc translate`: a bank's texts as translation units for
 * translators' tools (gettext PO, XLIFF 2.0), and their translations
 * taken back into the bank in place (qb_edit.h).
 *
 * One unit per text of the bank, in bank order: the title, the
 * description, and per question its prompt, options (answers, left sides
 * of pairs), the right sides of pairs, feedback, 'feedback-true:' /
 * 'feedback-false:', 'feedback-wrong:' and the explanation.  A unit's key
 * says where the text lives ("cycle-stages/option 2/feedback") and does
 * not change with edits elsewhere. */
#ifndef QB_TRANSLATE_H
#define QB_TRANSLATE_H

#include "buf.h"
#include "model.h"
#include "revision.h"

typedef enum qb_tu_state {
	QB_TU_UNTRANSLATED, /* no text in the language                      */
	QB_TU_STALE,        /* the source changed since it was translated   */
	QB_TU_TRANSLATED,   /* current                                      */
	QB_TU_REVIEWED      /* current, and marked reviewed in the record   */
} qb_tu_state;

typedef struct qb_tu {
	char *key;          /* "cycle-stages/option 2/feedback"              */
	const char *qid;    /* the record's question id ("-": the bank's)    */
	char elem[32];      /* the record's element name ("" when it has none) */
	const qb_text *text;
	const char *source; /* the default language's text                  */
	const char *target; /* the language's text, or NULL                 */
	const char *prev;   /* a stale unit's previous source (the source of
	                       the translator's earlier file), or NULL      */
	qb_tu_state state;
	char *note;         /* context for the translator, lines of text     */
} qb_tu;

typedef struct qb_tu_list {
	qb_tu *v;
	size_t n;
} qb_tu_list;

/* The units of bank in lang (rev may be NULL: no states but untranslated
 * and translated; glossary may be NULL).  Texts without a default-language
 * text are left out. */
void qb_tu_collect(qb_tu_list *out, const qb_bank *bank, const char *lang,
                   const qb_revisions *rev, const char *glossary);
void qb_tu_dispose(qb_tu_list *l);
/* What gettext's msgmerge --previous does, from the translator's earlier
 * file for the language (the one export writes over): a unit that file
 * has with another source gets that source as its previous one (prev),
 * and is stale when it has a translation, the earlier file's own when
 * the bank has none.  With a record (record true), a unit it knows as
 * current keeps its state: its translation was brought up to date
 * since the source changed.  The strings stay
 * f's; returns the number of units given a previous source. */
struct qb_tu_file;
size_t qb_tu_previous(qb_tu_list *l, const struct qb_tu_file *f, bool record);
/* The unit with key, or NULL. */
const qb_tu *qb_tu_find(const qb_tu_list *l, const char *key);

/* The markup a translation must keep: formulas (\(..\), $..$, $$..$$),
 * code spans and fenced code, link targets (the same), pictures and
 * sounds (as many: a language may have its own picture or recording),
 * and cloze gaps, gap by gap: the same kind, a choice gap's right choice
 * and number of choices, no empty answer (a gap's answers are
 * translated).  Returns 0 when target has the same markup as source, else
 * -1 with a sentence in why ("lacks the formula '$x^2$' of the source"). */
int qb_tu_markup_check(const char *source, const char *target, qb_buf *why);

/* One piece of a text: literal text (kind NULL), or a protected piece of
 * markup, for XLIFF's placeholders: "math", "code", "link" (a link's '['
 * and its "](target)"), "media" (a picture's or sound's '![' and its
 * "](file)"), "gap" (a cloze gap's braces and marks: "{{=", " ~", "|",
 * "}}"; its answers are literal text between them). */
typedef void (*qb_tu_piece_fn)(void *payload, const char *kind, const char *s, size_t len);
void qb_tu_pieces(const char *text, qb_tu_piece_fn fn, void *payload);

/* A unit as a translator's file holds it. */
typedef struct qb_tu_in {
	char *key, *source, *target; /* target "" when untranslated          */
	bool fuzzy;                  /* PO fuzzy, XLIFF state "initial"      */
	bool reviewed;               /* XLIFF state "reviewed" or "final", a
	                                PO translator comment "reviewed"     */
	bool reviewed_kept;          /* PO: qbc's own "#. reviewed" note: the
	                                exported text was reviewed           */
	bool nostate;                /* XLIFF: the segment has no state (a tool
	                                dropped it): only a new target says
	                                anything                            */
	bool space_default;          /* XLIFF without xml:space="preserve": its
	                                white space is the tool's to change  */
	bool unresolved;             /* XLIFF: placeholders left for
	                                qb_xliff_resolve()                   */
	int line;                    /* where the unit is in the file        */
	int ref_line;                /* a PO message without msgctxt (a tool
	                                dropped it): its "#:" bank line, the
	                                key "" until qb_tu_in_place() finds it */
} qb_tu_in;

typedef struct qb_tu_file {
	char *lang;                  /* the file's target language, or NULL  */
	qb_tu_in *v;
	size_t n;
	int lang_line;               /* where the file names its language
	                                (0: unknown)                        */
} qb_tu_file;
void qb_tu_file_dispose(qb_tu_file *f);

/* translate_po.c: the units as a gettext PO file through libgettextpo
 * (msgctxt the key, msgid the source, msgstr the target, extracted
 * comments the notes, fuzzy the stale ones), written atomically to path
 * ("-": stdout); and read back.  0, or -1 after a diagnostic. */
int qb_po_write(const qb_tu_list *l, const qb_bank *bank, const char *lang, const char *path);
int qb_po_read(const char *path, qb_tu_file *out);
/* The key of each message of f that has none (ref_line: a tool dropped
 * its msgctxt): the unit whose source text is on that line of the bank
 * with the same text, else the one unit with that source.  Reports the
 * messages it cannot place (a warning, the key left "") and those that
 * take a unit another one has (an error). */
void qb_tu_in_place(qb_tu_file *f, const qb_tu_list *units, const qb_bank *bank,
                    const char *path);

/* translate_xliff.c: the same as XLIFF 2.0 through libxml2. */
int qb_xliff_write(const qb_tu_list *l, const qb_bank *bank, const char *lang, const char *path);
int qb_xliff_read(const char *path, qb_tu_file *out);
/* A unit read from XLIFF made whole against the bank's unit u: a <ph>
 * whose data the file lacks (a tool dropped <originalData>) takes the
 * data the export gave its id, and in a file that does not preserve
 * white space (xml:space default) the white space a pretty-printer puts
 * around placeholders is taken out, and a source that differs from the
 * bank's only in white space is the bank's.  0, or -1 after an error
 * located at the unit. */
int qb_xliff_resolve(qb_tu_in *in, const qb_tu *u, const char *path);

#endif
