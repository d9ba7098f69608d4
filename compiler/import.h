/* import.h - importers: a question bank in another tool's format (Moodle
 * XML, Aiken, ...) into the reader's model, for `qbc import`.
 *
 * An importer is a reader of a foreign format: it fills a qb_bank through
 * the builder below, every node located in the SOURCE file (so that the
 * checks point into what the teacher gave), reports what it cannot carry
 * as located warnings, and what makes the source invalid as located
 * errors (then nothing is written).  It knows no output format: the bank
 * goes through the same checks as a hand-written one and write_qb.c
 * writes it as a .qb source. */
#ifndef QB_IMPORT_H
#define QB_IMPORT_H

#include "buf.h"
#include "model.h"

/* The most languages one imported text may have (a language code is at
 * most QB_IMP_LANG_LEN - 1 bytes). */
#define QB_IMP_MAX_LANGS 64
#define QB_IMP_LANG_LEN 36
/* The language of untagged texts while an import without --lang runs,
 * until langguess.c names it (BCP 47's "undetermined"). */
#define QB_IMP_LANG_UND "und"

/* One text being built: its translations, each a heap string. */
typedef struct qb_imp_ml {
	char *lang[QB_IMP_MAX_LANGS];
	char *text[QB_IMP_MAX_LANGS];
	size_t n;
} qb_imp_ml;

/* Adds (or replaces) the translation of lang; text is copied. */
void qb_imp_ml_set(qb_imp_ml *ml, const char *lang, const char *text, size_t len);
void qb_imp_ml_dispose(qb_imp_ml *ml);

/* The languages of a text's Moodle multilang spans
 * (<span lang="xx" class="multilang">) and {mlang xx}...{mlang} blocks,
 * in order, at most max. */
size_t qb_imp_langs_of(const char *s, char langs[][QB_IMP_LANG_LEN], size_t max);
/* Appends s as language lang sees it: other languages' spans and blocks
 * removed, lang's own unwrapped. */
void qb_imp_project(qb_buf *out, const char *s, const char *lang);
/* Appends the text s made ready for the model (Markdown) to out. */
typedef void qb_imp_conv(void *payload, qb_buf *out, const char *s);
/* Sets ml from s, one conv()erted text per language of its spans and
 * blocks; text outside them is every language's.  A text without any is
 * the text of each of qlangs (the languages of its question's prompt),
 * or untagged (--lang) when there are none.  Empty texts are left out. */
void qb_imp_ml_split(qb_imp_ml *ml, const char *s, char (*qlangs)[QB_IMP_LANG_LEN],
                     size_t nqlangs, qb_imp_conv *conv, void *payload);

/* What one import run counts, for the report. */
typedef struct qb_imp_counts {
	size_t by_type[QB_QTYPE_COUNT];
	size_t skipped;   /* questions not carried (a warning each)          */
	size_t notes;     /* parts not carried (a warning or note each)      */
	size_t media;     /* files written into media/                       */
} qb_imp_counts;

/* A media file an importer found (bytes decoded), to be written into
 * media/ beside the new bank under name. */
typedef struct qb_imp_media {
	char *name;       /* "media/<name>", as the Markdown refers to it     */
	unsigned char *data;
	size_t len;
} qb_imp_media;

/* Warnings of one kind (the same message but for its quoted names and
 * numbers), reported once when the importer is done: the first, with
 * how many more and their first lines. */
#define QB_IMP_FOLD_LINES 8
typedef struct qb_imp_fold {
	char *key;        /* the message, quotes and numbers blanked (heap) */
	char *msg;        /* the first one, translated (heap)               */
	qb_loc loc;
	size_t more;      /* how many more                                  */
	int lines[QB_IMP_FOLD_LINES]; /* their first lines, each once       */
	size_t nlines;
} qb_imp_fold;

/* The state of one import. */
typedef struct qb_imp {
	qb_bank *bank;          /* path: the source file; dir: the output's  */
	const char *file;       /* bank->path, for qb_loc                    */
	const char *lang;       /* the language of untagged text (--lang)    */
	bool lang_given;        /* --lang was given (else lang is a default) */
	char guessed[QB_IMP_LANG_LEN]; /* the language guessed for the texts
	                           that name none (langguess.c), or ""      */
	char guess_second[QB_IMP_LANG_LEN]; /* a close second, or ""        */
	size_t guess_agree, guess_of; /* questions read as it alone, of    */
	bool guess_failed;      /* untagged texts, no guess: im->lang taken */
	qb_question *qs;        /* heap while building; adopted at the end   */
	size_t nqs, capqs;
	qb_imp_media *media;
	size_t nmedia;
	char **used_ids;        /* ids given so far (heap)                   */
	size_t *id_slots;       /* their hashed index: 1 + an index of used_ids, 0 empty */
	size_t id_cap, ids_cap; /* id_slots' size (a power of two), used_ids' */
	char **cats;            /* each question's category (heap, or NULL) */
	size_t ncats;
	bool split;             /* --split: a bank per category, no tag      */
	bool langs_in_order;    /* the bank's languages in the order the texts
	                           have them (else --lang's first)          */
	char *title;            /* the bank's title when the source names it
	                           (heap), else the bank id is the title      */
	size_t nids;
	qb_imp_counts counts;
	qb_imp_fold *folds;     /* the warnings held back, by kind          */
	size_t nfolds;
	qb_passage *passages;   /* heap while building (qb_imp_passage())    */
	size_t npassages;
	uint32_t passage;       /* 1 + the passage of the questions that
	                           follow; 0: none                           */
} qb_imp;

/* A new question of type at loc; its choices are added with
 * qb_imp_choice().  The pointer is valid until the next qb_imp_question(). */
qb_question *qb_imp_question(qb_imp *im, qb_qtype type, qb_loc loc);
/* A new choice of the last question. */
qb_choice *qb_imp_choice(qb_imp *im, qb_loc loc);
/* Sets t from ml (untagged texts get im->lang), NFC, trimmed, at loc. */
void qb_imp_text(qb_imp *im, qb_text *t, qb_loc loc, const qb_imp_ml *ml);
/* Sets t to one text in im->lang. */
void qb_imp_text1(qb_imp *im, qb_text *t, qb_loc loc, const char *s);
/* Sets t to the plain text s in im->lang, Markdown's marks escaped. */
void qb_imp_plain(qb_imp *im, qb_text *t, qb_loc loc, const char *s);
/* strtod() for a number a teacher wrote: digits (or '.' and digits)
 * after an optional sign, never the words 'inf', 'infinity' or 'nan'
 * (then 0, and *end = s).  A number beyond a double's range is still
 * HUGE_VAL: qb_numeric_too_large() reports it at its source. */
double qb_imp_strtod(const char *s, char **end);
/* True when s[0..n) starts with what Markdown reads as a character
 * reference ('&amp;', '&#39;'). */
bool qb_imp_entity_at(const char *s, size_t n);
/* Appends plain text s[0..n) to out with Markdown's marks escaped (and a
 * '&' that would start a character reference). */
void qb_imp_md_escape(qb_buf *out, const char *s, size_t n);
/* Adds a tag to the last question (skipped when it is already there);
 * spaces become '-', quotes are dropped. */
void qb_imp_tag(qb_imp *im, qb_loc loc, const char *name);
/* A Moodle category path "$course$/top/A/B" as a tag "A::B" (Moodle's
 * own levels dropped); heap, or NULL when nothing is left. */
char *qb_imp_category(const char *path);
/* Puts the last question in category cat (a tag, qb_imp_category()):
 * the tag, or with --split the bank it goes to. */
void qb_imp_in_category(qb_imp *im, qb_loc loc, const char *cat);
/* Gives the last question an id: want (an idnumber) when it is a valid
 * id, else a slug of name (else of its prompt), unique in the bank. */
void qb_imp_id(qb_imp *im, const char *want, const char *name);
/* A passage (a GIFT description, a Moodle description question) at loc
 * with the text ml: the questions made after it are read with it, until
 * the next passage or qb_imp_passage_end().  Its id: want (an idnumber)
 * when valid and unused, else a slug of name or of its text, unique among
 * the questions' and passages' ids.  A passage with want as id and the
 * same text is that passage again (qbc's Moodle XML repeats one before
 * each run of its questions). */
void qb_imp_passage(qb_imp *im, qb_loc loc, const qb_imp_ml *ml, const char *want,
                    const char *name);
/* The questions made from here on have no passage (a new category). */
void qb_imp_passage_end(qb_imp *im);
/* Makes a matching question's right side for the last choice. */
qb_text *qb_imp_match(qb_imp *im);
/* Makes a true-false question's two synthetic choices and feedback
 * (fb_true/fb_false may be NULL). */
void qb_imp_truefalse(qb_imp *im, bool truth, const qb_imp_ml *fb_true,
                      const qb_imp_ml *fb_false, qb_loc loc);
/* Adds a file for media/: its Markdown path is returned (arena memory),
 * named after base (made safe) and the start of its content's hash. */
const char *qb_imp_media_add(qb_imp *im, const char *base, const unsigned char *data,
                             size_t len);
/* Decodes base64 (white space inside skipped): *data (heap) and *len, or
 * false when it is not base64. */
bool qb_imp_base64(const char *b64, unsigned char **data, size_t *len);
/* The media path of a data: URL's picture or sound (base64), added as
 * qb_imp_media_add() does; NULL after a warning at loc when it is not
 * one. */
const char *qb_imp_data_url(qb_imp *im, qb_loc loc, const char *url);
/* A question that cannot be carried: a located warning naming it. */
void qb_imp_skip(qb_imp *im, qb_loc loc, const char *name, const char *fmt, ...)
	QB_PRINTF(4, 5);
/* A part that cannot be carried: a located warning. */
void qb_imp_lost(qb_imp *im, qb_loc loc, const char *fmt, ...) QB_PRINTF(3, 4);
/* Reports the warnings of qb_imp_skip() and qb_imp_lost() held back
 * since the last call, one per kind: the first, "(and 359 more like it:
 * lines 12, 30, 48, …)".  qb_imp_run() calls it when the importer is
 * done. */
void qb_imp_fold_report(qb_imp *im);

/* Negative marks and partial credit (issue 36): q (single or multiple,
 * its choices made) from the percent each option earns in the source
 * (Moodle's fraction, GIFT's '%-25%'): which options are right, their
 * marks and, for multiple, the scoring.  What the '*' and '-' bullets and
 * the scoring say alone is written without marks: qbc's own Moodle XML
 * (k right options at 100/k, the wrong ones at -100/k: partial; at -100:
 * all-or-nothing) reads back as it was.  A percent that no mark holds is
 * reported as lost (the option then counts right or wrong). */
void qb_imp_marks(qb_imp *im, qb_question *q, const double *percent, qb_loc loc);

/* The position of byte off of a source text data (NUL-terminated) of im. */
qb_loc qb_imp_at(const qb_imp *im, const char *data, size_t off);

/* ---- the importers: each returns 0, or -1 after located errors ---- */
typedef int qb_import_fn(qb_imp *im, const char *data, size_t len);
qb_import_fn qb_import_aiken, qb_import_moodlexml, qb_import_gift, qb_import_csv;

/* Imports data (len bytes of the file im->file, NUL-terminated; a UTF-8
 * byte order mark skipped) into im->bank, which the caller made and named
 * (id, dir), with the importer *fmt ("moodlexml", "gift", "aiken", "csv";
 * NULL: sniffed, and *fmt set), then moves the questions into the bank
 * and gives it its languages and title.  0, or -1 after located errors
 * (bytes that are not UTF-8, a format it cannot tell, the importer's). */
int qb_imp_run(qb_imp *im, const char **fmt, const char *data, size_t len);
/* Frees what im holds besides its bank. */
void qb_imp_dispose(qb_imp *im);

/* The format of data by its content: "moodlexml", "aiken", or NULL. */
const char *qb_import_sniff(const char *data, size_t len);

/* ---- HTML (from Moodle's editors) to qbc's Markdown (import_html.c) ---- */

/* Appends the Markdown of the HTML fragment html to out.  A construct
 * Markdown cannot say is reported through lost(payload, what), once per
 * kind; images call image(payload, src) for the path to write (NULL:
 * keep src). */
typedef struct qb_html_md_cb {
	void (*lost)(void *payload, const char *what);
	const char *(*image)(void *payload, const char *src);
	void *payload;
} qb_html_md_cb;
void qb_html_to_md(qb_buf *out, const char *html, const qb_html_md_cb *cb);

/* The text formats of Moodle's texts (and GIFT's [html] [markdown]
 * [plain] [moodle]). */
typedef enum qb_imp_format {
	QB_IMP_AUTO,     /* Moodle's auto-format: HTML when it has tags, else
	                    plain text; its line breaks kept               */
	QB_IMP_HTML,
	QB_IMP_MARKDOWN, /* kept as it is                                   */
	QB_IMP_PLAIN     /* Markdown's marks escaped, line breaks kept      */
} qb_imp_format;
/* Appends the Markdown of s, written in format f, to out. */
void qb_imp_text_md(qb_buf *out, const char *s, qb_imp_format f, const qb_html_md_cb *cb);

#endif
