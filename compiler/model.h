/* model.h - the in-memory question bank: one tree that every reader fills
 * and every writer reads (cmark's node tree).
 *
 * All nodes and strings live in the bank's arena and are freed together by
 * qb_bank_free().  Every node carries the qb_loc of the source construct it
 * came from.  Writers receive `const qb_bank *` and must not look at source
 * syntax.  Texts are kept as the author wrote them (inline Markdown, NFC). */
#ifndef QB_MODEL_H
#define QB_MODEL_H

#include "arena.h"
#include "qb.h"

/* One language version of a text. */
typedef struct qb_tr {
	const char *lang; /* language code as written in the source, e.g. "sw" */
	const char *text; /* Markdown source, NFC, never NULL (may be "")      */
	qb_loc loc;       /* position of the language tag                      */
	qb_loc text_loc;  /* position of the first character of the text       */
	const int *cols;  /* for a text continued with '\\': the column where
	                   * each following line's text starts (one per '\n'
	                   * in text), or NULL                                  */
} qb_tr;

/* A text in several languages, in source order.  present is false when
 * the element was not written at all (for example no feedback). */
typedef struct qb_text {
	qb_tr *tr;     /* translations in source order                     */
	size_t ntr;
	qb_loc loc;    /* position of the element's marker or keyword        */
	bool present;
} qb_text;

typedef struct qb_choice {
	qb_text text;     /* the option itself                              */
	qb_text feedback; /* why it is right or wrong; .present may be false */
	bool correct;     /* marked with '*'                                 */
	qb_loc loc;       /* the bullet                                      */
} qb_choice;

/* Question types.  Room for more (true/false, ...) later. */
typedef enum qb_qtype {
	QB_QTYPE_SINGLE,   /* exactly one correct option                     */
	QB_QTYPE_MULTIPLE  /* one or more correct options                    */
} qb_qtype;

typedef struct qb_tag {
	const char *name;
	qb_loc loc;
} qb_tag;

typedef struct qb_question {
	const char *id;      /* authored id; NULL if the author wrote none    */
	qb_loc id_loc;
	int number;          /* the printed number, as written ("3." -> 3)   */
	qb_loc loc;          /* the number                                   */
	qb_qtype type;
	qb_loc type_loc;     /* line 0 when the type was not written         */
	qb_tag *tags;
	size_t ntags;
	qb_text prompt;
	qb_choice *choices;
	size_t nchoices;
	qb_text explanation;
} qb_question;

typedef struct qb_lang {
	const char *code;    /* BCP 47 code as declared, e.g. "sw"            */
	qb_loc loc;
} qb_lang;

typedef struct qb_bank {
	const char *path;        /* the bank file, as given                 */
	const char *dir;         /* its folder ("." for a bare file name)   */
	const char *id;          /* NULL if missing                         */
	qb_loc id_loc;
	qb_lang *langs;          /* declared languages, in declared order   */
	size_t nlangs;
	qb_loc langs_loc;        /* the 'languages:' line (line 0 if none)  */
	const char *default_lang;/* NULL means the first declared language  */
	qb_loc default_lang_loc;
	int pass_mark;           /* percent; -1 when the bank has none      */
	qb_loc pass_mark_loc;
	qb_text title;
	qb_text description;
	qb_question *questions;
	size_t nquestions;
	qb_arena arena;          /* owns everything above                   */
} qb_bank;

/* A new empty bank for the file at path; the caller frees it with
 * qb_bank_free(). */
qb_bank *qb_bank_new(const char *path);
void qb_bank_free(qb_bank *bank);

/* The bank's default language: the declared default, else the first
 * declared language, else NULL. */
const char *qb_bank_default_lang(const qb_bank *bank);
/* True when code is one of the bank's declared languages. */
bool qb_bank_has_lang(const qb_bank *bank, const char *code);

/* The translation of t in lang, or NULL. */
const qb_tr *qb_text_tr(const qb_text *t, const char *lang);
/* The text of t in lang, or NULL. */
const char *qb_text_get(const qb_text *t, const char *lang);

/* Number of correct options of q. */
size_t qb_question_ncorrect(const qb_question *q);

const char *qb_qtype_name(qb_qtype type);

#endif
