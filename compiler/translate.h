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
	const char *comment; /* the translator's own comments, kept from the
	                       earlier file (PO "# "), or NULL             */
	const qb_choice *pair; /* the pair of a matching question's side, or
	                          NULL: both sides are written together   */
} qb_tu;

typedef struct qb_tu_list {
	qb_tu *v;
	size_t n;
	const char *header; /* the earlier file's PO header, whose translator
	                       fields a new export keeps, or NULL           */
	const char *header_comments; /* and its comments ("# ..."), or NULL */
} qb_tu_list;

/* The units of bank in lang (rev may be NULL: no states but untranslated
 * and translated; glossary may be NULL).  Texts without a default-language
 * text are left out. */
void qb_tu_collect(qb_tu_list *out, const qb_bank *bank, const char *lang,
                   const qb_revisions *rev, const char *glossary);
/* The same without notes (NULL) nor states from a record: what an
 * import reads (notes made only to be let go leave holes in the heap). */
void qb_tu_collect_bare(qb_tu_list *out, const qb_bank *bank, const char *lang);
void qb_tu_dispose(qb_tu_list *l);
/* The same units a part at a time, for an export that has no earlier
 * file to merge (a big bank's units, their keys and notes, are more than
 * its model): each qb_tu_walk_next() lets go of the part before and makes
 * the units of the next questions, at least QB_TU_PART of them but for
 * the last part (whole questions), with the states qb_tu_collect() gives
 * them; false when there are none left. */
#define QB_TU_PART 2048
typedef struct qb_tu_walk qb_tu_walk;
qb_tu_walk *qb_tu_walk_new(const qb_bank *bank, const char *lang, const qb_revisions *rev,
                           const char *glossary);
bool qb_tu_walk_next(qb_tu_walk *w);
const qb_tu_list *qb_tu_walk_part(const qb_tu_walk *w);
/* The units walked so far, and as many of each state (qb_tu_state). */
size_t qb_tu_walk_counts(const qb_tu_walk *w, size_t nstate[4]);
void qb_tu_walk_free(qb_tu_walk *w);
struct qb_tu_file;
/* Where each unit of a translator's file f lives in the bank now: map[i]
 * is the index in l of the unit f->v[i] is about, or SIZE_MAX when the
 * bank has no such text.  Keys name places ("q/option 2"), so an option
 * is found by its source text among its question's options of the same
 * kind: one inserted, deleted or moved since the file was made takes
 * the translations of its text, its feedback and its pair's right side
 * with it, and an option whose text changed in place keeps its place;
 * the caller still compares sources (a removed option's units map to
 * none).  Linear in the units but for sorting. */
void qb_tu_match(const qb_tu_list *l, const struct qb_tu_file *f, size_t *map);

/* What a new export keeps of the file it replaces besides its units:
 * its PO header and the translator's comments (PO "# " lines) of each
 * unit that has some, sorted by key. */
typedef struct qb_tu_comment {
	char *key, *text;
} qb_tu_comment;
typedef struct qb_tu_kept {
	char *header;       /* the file's PO header (the msgstr of ""), or NULL */
	char *header_comments; /* the header's translator comments, or NULL */
	qb_tu_comment *v;
	size_t n;
} qb_tu_kept;
void qb_tu_kept_dispose(qb_tu_kept *k);

/* What gettext's msgmerge does, from the translator's earlier file for
 * the language (the one export writes over), so that an export never
 * drops a translator's work: for each unit of f (found by qb_tu_match()),
 *  - with the bank's source: a translation the bank lacks is taken from
 *    f (fuzzy when f has it fuzzy; current when f has it current and the
 *    record stale: the translator checked it); a translation that differs
 *    from the bank's is an error located in f (fpath): importing f first
 *    keeps it, and writing over it would lose it;
 *  - with another source: f's source is the unit's previous source
 *    (prev) and the unit is stale, with f's translation, else the bank's
 *    (with a record (record true), a unit it knows as current keeps its
 *    state and translation: it was brought up to date since the source
 *    changed);
 * and the translator's comments of kept (NULL: none) go with the unit.
 * The strings stay f's and kept's.  Returns -1 after an error, else 0,
 * with *nprev the units given a previous source and *nkept the
 * translations taken from f. */
int qb_tu_merge(qb_tu_list *l, const struct qb_tu_file *f, const qb_tu_kept *kept,
                const char *fpath, bool record, size_t *nprev, size_t *nkept);
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
/* The same from a walk's parts (a file, not "-"), a chunk a part. */
int qb_po_write_walk(qb_tu_walk *w, const qb_bank *bank, const char *lang, const char *path);
int qb_po_read(const char *path, qb_tu_file *out);
/* The key of each message of f that has none (ref_line: a tool dropped
 * its msgctxt): the unit whose source text is on that line of the bank
 * with the same text, else the one unit with that source.  Reports the
 * messages it cannot place (a warning, the key left "") and those that
 * take a unit another one has (an error). */
void qb_tu_in_place(qb_tu_file *f, const qb_tu_list *units, const qb_bank *bank,
                    const char *path);
/* The PO file an export replaces, read once: its units (as qb_po_read()
 * gives them, in its charset) and what the new file keeps of it (qb_tu_kept).  0, or -1
 * after a diagnostic. */
int qb_po_read_kept(const char *path, qb_tu_file *units, qb_tu_kept *out);

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
