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
#include <stdint.h>

#include "qb.h"

/* The index of a language the bank does not declare. */
#define QB_LANG_NONE ((size_t)-1)

/* The bank's declared languages by code: a hash table, so that finding a
 * language is O(1) however many a bank declares (issue 12: time linear in
 * languages).  The reader fills it as it reads 'languages:'. */
typedef struct qb_lang_slot {
	const char *code; /* NULL: empty                                    */
	size_t k;         /* its index in qb_bank.langs                     */
} qb_lang_slot;

typedef struct qb_lang_index {
	qb_lang_slot *slots; /* a power of two of them, at most half full  */
	size_t nslots, n;
} qb_lang_index;

/* Adds code (a string that outlives the index) as language k; a code
 * already there keeps its first k. */
void qb_lang_index_put(qb_lang_index *ix, const char *code, size_t k);
/* The k of code, or QB_LANG_NONE. */
size_t qb_lang_index_get(const qb_lang_index *ix, const char *code);
void qb_lang_index_dispose(qb_lang_index *ix);

/* Where the lines of the bank's continued texts start, by text: few texts
 * have them, so they are kept beside the translations, not in each. */
typedef struct qb_cols_slot {
	const char *text; /* NULL: empty                                    */
	const int *cols;
} qb_cols_slot;

typedef struct qb_cols_index {
	qb_cols_slot *slots; /* a power of two of them, at most half full  */
	size_t nslots, n;
} qb_cols_index;

/* One language version of a text.  Kept small (a bank is mostly short
 * texts): positions are line and columns of the file of the text holding
 * it (qb_tr_loc(), qb_tr_text_loc()), as the tag and the text's first
 * character are always on one line. */
typedef struct qb_tr {
	const char *text; /* Markdown source, NFC, never NULL (may be "");
	                   * where the lines of a text continued with '\\'
	                   * start: qb_bank_text_cols()                         */
	int line;         /* the line of the language tag and of the text      */
	uint32_t pos;     /* the language code as written ("" for none), as an
	                   * index into its bank's codes (qb_tr_code(),
	                   * qb_tr_lang()); the column of the language tag
	                   * (qb_tr_col()) and of the text's first character
	                   * (qb_tr_text_col()): packed by qb_tr_place()       */
} qb_tr;

/* Where a translation's code and columns do not fit its pos: the code's
 * index below 2^14, the tag's column below 2^11 and the text's column at
 * most 63 after it fit; else pos has QB_TR_FAR set and the index of one
 * of these in its bank (qb_bank.far). */
typedef struct qb_tr_far {
	int col, text_col;
	uint32_t code;
} qb_tr_far;
#define QB_TR_FAR 0x80000000u

/* qb_bank.code_lang of a code the bank does not declare. */
#define QB_TR_NO_LANG UINT32_MAX

struct qb_bank;

/* A text in several languages, in source order.  present is false when
 * the element was not written at all (for example no feedback).
 *
 * bank is the bank whose reader made the text: its file is the text's
 * (qb_text_loc(), qb_tr_loc()), its codes are the translations' language
 * codes (qb_tr_lang()), and its language index makes look-ups fast
 * (writers never need it): qb_text_tr() finds a declared language without
 * comparing codes, directly when the author wrote the languages in the
 * declared order (tr[k] is language k), by bisection when some are missing
 * (ordered), else by comparing indexes.  A text whose bank declares no
 * languages is searched by code. */
typedef struct qb_text {
	qb_tr *tr;     /* translations in source order                     */
	const struct qb_bank *bank;
	int line, col; /* position of the element's marker or keyword        */
	uint32_t ntr;
	bool present;
	bool ordered;  /* the declared indexes of tr[] strictly increase     */
} qb_text;


/* An option.  What it is depends on the question's type:
 *   single, multiple  an option, correct when marked '*';
 *   true-false        two synthetic choices, 0 = true and 1 = false, whose
 *                     text.present is false (writers take the words from
 *                     the label keys "true" and "false"); feedback from
 *                     'feedback-true:' and 'feedback-false:';
 *   short-answer      an answer: correct = accepted ('*'), else a listed
 *                     wrong answer ('-'); texts are plain text;
 *   matching          a pair: text is the left side, match the right side;
 *                     a distractor ('=> right') has text.present false. */
/* An option's mark (issue 36): the share of its question's mark the option
 * earns when picked, num/den of the whole mark, from -1 to 1 (a negative
 * share takes a part of the mark away); den 0: none written, the option
 * earns what its bullet and the question's scoring give
 * (qb_choice_share()).  Kept exact as a fraction: '-33.3%' is read as a
 * third, as Moodle's grades are. */
typedef struct qb_mark {
	int16_t num;
	uint16_t den;
} qb_mark;

typedef struct qb_choice {
	qb_text text;     /* the option itself                              */
	qb_text feedback; /* why it is right or wrong; .present may be false */
	const qb_text *match; /* matching: the right side (qb_choice_match());
	                     NULL otherwise: most choices have none          */
	int line, col;    /* the bullet, in its text's bank: qb_choice_loc()  */
	bool correct;     /* marked with '*'                                 */
	bool pinned;      /* '!' after the mark: stays where it is when the
	                     options are shuffled                            */
	qb_mark mark;     /* single and multiple: a mark written after the
	                     bullet ('- -25% en: ...'); den 0 when none      */
} qb_choice;

/* Question types (JSON names: single multiple true-false short-answer
 * numeric matching cloze, qb_qtype_name()). */
typedef enum qb_qtype {
	QB_QTYPE_SINGLE,     /* exactly one correct option                   */
	QB_QTYPE_MULTIPLE,   /* one or more correct options                  */
	QB_QTYPE_TRUE_FALSE, /* true or false                                */
	QB_QTYPE_SHORT,      /* a typed word or phrase                       */
	QB_QTYPE_NUMERIC,    /* a typed number                               */
	QB_QTYPE_MATCHING,   /* pairs                                        */
	QB_QTYPE_CLOZE       /* gaps in the prompt                           */
} qb_qtype;
#define QB_QTYPE_COUNT 7

/* How a question is scored: INHERIT (not written) takes the bank's. */
typedef enum qb_scoring { QB_SCORING_INHERIT, QB_SCORING_ALL, QB_SCORING_PARTIAL } qb_scoring;
typedef enum qb_tristate { QB_UNSET = -1, QB_NO = 0, QB_YES = 1 } qb_tristate;

/* A numeric question's accepted answer. */
typedef struct qb_numeric {
	double value, tol;  /* value ± tol (tol absolute; 0 = exact)           */
	double lo, hi;      /* the accepted closed interval, always filled     */
	bool percent;       /* tol was written in percent (tol already absolute) */
	bool range;         /* written as a range 'lo..hi' (value is the middle) */
	qb_loc loc;         /* the value after 'answer:' (line 0: none)        */
} qb_numeric;

/* A numeric question's further accepted answer, after the full-mark one
 * ('answer: 2..4 = 50%' and its '>' feedback): a list in the order
 * written (qb_question_num_more()). */
typedef struct qb_num_more {
	qb_numeric num;
	double credit;       /* percent of the question's mark, 0 to 100     */
	qb_text feedback;    /* shown when this answer is the best match      */
	qb_loc loc;          /* its 'answer:' keyword                         */
	struct qb_num_more *next;
} qb_num_more;

typedef struct qb_tag {
	const char *name;
	qb_loc loc;
} qb_tag;

/* What few questions have: keywords that are seldom written (their places;
 * line 0: not written), a numeric question's answer and unit, true-false
 * feedback and the feedback for a wrong answer.  Behind a pointer
 * (qb_question_rare(), qb_question_rare_w()): a big bank holds none. */
typedef struct qb_rare {
	qb_loc scoring_loc;
	qb_loc shuffle_loc;
	qb_loc case_loc;
	qb_loc answer_loc;   /* the 'answer:' keyword                        */
	qb_loc unit_loc;
	const char *unit;    /* numeric, NULL if none                        */
	qb_text feedback_wrong; /* every type: the default feedback for a
	                        wrong answer (qb_question_feedback_wrong())   */
	const qb_numeric *num; /* numeric: its answer (qb_question_num());
	                        NULL for the other types                     */
	qb_text *feedback_tf; /* true-false: 'feedback-true:' and
	                        'feedback-false:' (also on the synthetic
	                        choices' feedback); NULL when neither was
	                        written: qb_question_feedback()              */
	qb_num_more *num_more; /* numeric: the further accepted answers
	                        (partial credit), NULL when none             */
	struct qb_params *params; /* a parameterised question's variables and
	                        pool (params.h, qb_question_params()), NULL
	                        for the others                               */
} qb_rare;

typedef struct qb_question {
	const char *id;      /* authored id; NULL if the author wrote none    */
	qb_loc id_loc;
	qb_loc loc;          /* the number                                   */
	qb_loc type_loc;     /* line 0 when the type was not written         */
	qb_tag *tags;
	size_t ntags;
	qb_text prompt;
	qb_choice *choices;
	size_t nchoices;
	qb_text explanation;
	qb_rare *rare;       /* NULL when the question has none of it        */
	int number;          /* the printed number, as written ("3." -> 3)   */
	qb_qtype type;
	qb_scoring scoring;  /* as written (INHERIT when absent); resolved by
	                        qb_question_scoring()                        */
	qb_tristate shuffle; /* as written; resolved by qb_question_shuffles() */
	bool case_sensitive; /* short-answer and cloze typed gaps            */
	bool truth;          /* true-false: the right answer                 */
	uint32_t passage;    /* 1 + the index of its passage in the bank's
	                        passages (qb_question_passage()); 0: none    */
} qb_question;

/* A passage: a text (a reading, a picture, a sound) shown with each
 * question that names it ('passage: <id>' among the question's keys).
 * Its id follows the rules of question ids and is unique with them. */
typedef struct qb_passage {
	const char *id;
	qb_loc id_loc;
	qb_loc loc;          /* the 'passage:' keyword                      */
	qb_text text;        /* one language line per language              */
} qb_passage;

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
	qb_lang_index lang_index;/* langs by code (empty for a bank built by
	                            hand: look-ups then compare codes)     */
	qb_loc langs_loc;        /* the 'languages:' line (line 0 if none)  */
	const char *default_lang;/* NULL means the first declared language  */
	qb_loc default_lang_loc;
	int pass_mark;           /* percent; -1 when the bank has none      */
	qb_loc pass_mark_loc;
	qb_text title;
	qb_text description;
	qb_scoring scoring;      /* ALL when absent                         */
	qb_loc scoring_loc;
	bool shuffle_options;    /* 'shuffle-options: yes'                  */
	qb_loc shuffle_options_loc;
	bool shuffle_questions;  /* 'shuffle-questions: yes' (SCORM only)   */
	qb_loc shuffle_questions_loc;
	int draw;                /* questions per SCORM attempt; 0: all     */
	bool draw_per_tag;       /* draw from each tag (a question's first) */
	qb_loc draw_loc;
	/* 'explanations: optional' (a bank 'qbc import' brought in from a
	 * course that has none for some questions): a question without one
	 * is a warning, a to-do, instead of an error; line 0 when absent. */
	bool explanations_optional;
	qb_loc explanations_loc;
	qb_question *questions;
	size_t nquestions;
	qb_passage *passages;    /* in source order (qb_question.passage)   */
	size_t npassages;
	qb_cols_index cols;      /* see qb_bank_text_cols()                 */
	/* Every language code a translation was tagged with ("" for none),
	 * each once (qb_tr.lang), and its index in langs or QB_TR_NO_LANG:
	 * a translation holds 4 bytes for its language. */
	const char **codes;
	uint32_t *code_lang;
	size_t ncodes, capcodes;
	qb_lang_index code_index;/* codes by code                           */
	qb_tr_far *far;          /* the translations whose pos does not fit */
	size_t nfar, capfar;
	qb_arena arena;          /* owns everything above                   */
} qb_bank;

/* Where t (its marker or keyword), a translation tr of t (its language
 * tag) and tr's text start. */
qb_loc qb_text_loc(const qb_text *t);
qb_loc qb_tr_loc(const qb_text *t, const qb_tr *tr);
qb_loc qb_tr_text_loc(const qb_text *t, const qb_tr *tr);
/* Sets t's position: the file is its bank's. */
void qb_text_set_loc(qb_text *t, qb_loc loc);
/* Sets tr's language (an index into bank's codes) and columns. */
void qb_tr_place(qb_bank *bank, qb_tr *tr, int col, int text_col, uint32_t code);
/* What qb_tr_place() set: the code's index, the tag's column, the text's. */
static inline uint32_t qb_tr_code(const qb_bank *bank, const qb_tr *tr)
{
	return tr->pos & QB_TR_FAR ? bank->far[tr->pos & ~QB_TR_FAR].code : tr->pos >> 17;
}
static inline int qb_tr_col(const qb_bank *bank, const qb_tr *tr)
{
	return tr->pos & QB_TR_FAR ? bank->far[tr->pos & ~QB_TR_FAR].col
	                           : (int)(tr->pos >> 6 & 0x7ff);
}
static inline int qb_tr_text_col(const qb_bank *bank, const qb_tr *tr)
{
	return tr->pos & QB_TR_FAR ? bank->far[tr->pos & ~QB_TR_FAR].text_col
	                           : (int)(tr->pos >> 6 & 0x7ff) + (int)(tr->pos & 0x3f);
}
/* The language code of tr, a translation of t ("" when untagged). */
static inline const char *qb_tr_lang(const qb_text *t, const qb_tr *tr)
{
	return t->bank->codes[qb_tr_code(t->bank, tr)];
}
/* Where c's bullet is (its text knows the bank, and so the file). */
static inline qb_loc qb_choice_loc(const qb_choice *c)
{
	return (qb_loc){c->text.bank ? c->text.bank->path : NULL, c->line, c->col};
}
static inline void qb_choice_set_loc(qb_choice *c, qb_loc loc)
{
	c->line = loc.line;
	c->col = loc.col;
}

/* A new empty bank for the file at path; the caller frees it with
 * qb_bank_free(). */
qb_bank *qb_bank_new(const char *path);
void qb_bank_free(qb_bank *bank);

/* The bank's default language: the declared default, else the first
 * declared language, else NULL. */
const char *qb_bank_default_lang(const qb_bank *bank);
/* True when code is one of the bank's declared languages. */
bool qb_bank_has_lang(const qb_bank *bank, const char *code);
/* For the text of a translation continued with '\\' (the very pointer
 * of qb_tr.text): the column where each following line's text starts
 * (one per '\n' in text; 0 for a '\n' the reader added, which starts no
 * source line).  NULL for any other text: its lines start at column 1. */
const int *qb_bank_text_cols(const qb_bank *bank, const char *text);
/* Records cols (arena memory) for text. */
void qb_bank_set_text_cols(qb_bank *bank, const char *text, const int *cols);
/* The index of code in bank->langs, or QB_LANG_NONE: O(1). */
size_t qb_bank_lang_index(const qb_bank *bank, const char *code);
/* The index of code in bank->codes, added when new (for qb_tr.lang). */
uint32_t qb_bank_code(qb_bank *bank, const char *code);
/* Updates bank->code_lang after languages were declared. */
void qb_bank_codes_declared(qb_bank *bank);

/* The translation of t in lang, or NULL: O(1) for a declared language of
 * a text the reader made in the declared order (see qb_text). */
const qb_tr *qb_text_tr(const qb_text *t, const char *lang);
/* The translation of t in the bank's declared language k, or NULL; t's
 * index must be set (else NULL). */
const qb_tr *qb_text_tr_at(const qb_text *t, size_t k);
/* The text of t in lang, or NULL. */
const char *qb_text_get(const qb_text *t, const char *lang);
/* Sets t->ordered from its bank's declared languages:
 * the reader calls it when a text is complete. */
void qb_text_index(qb_text *t);

/* A text with no translations, not written. */
extern const qb_text qb_no_text;
/* c's right side (matching), else qb_no_text. */
static inline const qb_text *qb_choice_match(const qb_choice *c)
{
	return c->match ? c->match : &qb_no_text;
}
/* q's 'feedback-true:' (truth true) or 'feedback-false:', else
 * qb_no_text. */
static inline const qb_text *qb_question_feedback(const qb_question *q, bool truth)
{
	return q->rare && q->rare->feedback_tf ? &q->rare->feedback_tf[truth ? 0 : 1] : &qb_no_text;
}
/* q's accepted answer (numeric), else one that is all zeros. */
const qb_numeric *qb_question_num(const qb_question *q);
/* q's further accepted answers with partial credit (numeric), NULL if none. */
const qb_num_more *qb_question_num_more(const qb_question *q);
/* Those answers by credit from the highest (the order written among
 * equals), as a heap array of *n (NULL when none): a writer that grades
 * with the first answer holding the number grades with the best. */
const qb_num_more **qb_question_num_more_by_credit(const qb_question *q, size_t *n);
/* q's seldom written parts, all empty when it has none. */
static inline const qb_rare *qb_question_rare(const qb_question *q)
{
	static const qb_rare none = {{0}, {0}, {0}, {0}, {0}, NULL, {0}, NULL, NULL, NULL, NULL};
	return q->rare ? q->rare : &none;
}
static inline const qb_text *qb_question_feedback_wrong(const qb_question *q)
{
	return &qb_question_rare(q)->feedback_wrong;
}
/* The same, to be set: made in arena the first time. */
qb_rare *qb_question_rare_w(qb_arena *arena, qb_question *q);
/* Reports, at loc, a numeric answer whose number s[0..n) (the value, the
 * tolerance or the range's ends, or the answer plus or minus its
 * tolerance) is too large for a double (400 nines): every output would
 * hold 'inf' or lose it.  The reader and every importer call it, so the
 * error points into the source.  Marks num unusable (loc.line 0) and
 * returns true then. */
bool qb_numeric_too_large(qb_numeric *num, qb_loc loc, const char *s, size_t n);

/* What qb_numeric_parse() found wrong, if anything. */
typedef enum qb_numeric_err {
	QB_NUMERIC_OK,
	QB_NUMERIC_BAD_RANGE,     /* 'lo..hi' whose ends are not two numbers  */
	QB_NUMERIC_BAD_VALUE,     /* the value, s[at..at+len), is no number   */
	QB_NUMERIC_BAD_TOL,       /* the tolerance, s[at..at+len)             */
	QB_NUMERIC_TOO_LARGE      /* s[at..at+len) is beyond a double: num's
	                             parts are not finite (qb_numeric_too_large()
	                             reports it)                              */
} qb_numeric_err;

/* Reads an accepted number as a numeric question's 'answer:' and a
 * numeric cloze gap write it, s[0..n): '42', '3.5 ± 0.1' (or '+-'),
 * '3.5 ± 2%', '3..4'; numbers with an optional sign and a '.'
 * fraction.  Fills num (not its loc); on an error, *at and *len give the
 * part of s to quote.  Reports nothing: the reader and the checks do. */
qb_numeric_err qb_numeric_parse(const char *s, size_t n, qb_numeric *num, size_t *at, size_t *len);

/* q's passage in bank, or NULL when it has none. */
static inline const qb_passage *qb_question_passage(const qb_bank *bank, const qb_question *q)
{
	return q->passage && q->passage <= bank->npassages ? &bank->passages[q->passage - 1] : NULL;
}
/* True when q's passage is not the one of prev (the question shown before
 * it; NULL for the first): where a paper shows the passage once. */
static inline bool qb_question_starts_passage(const qb_bank *bank, const qb_question *prev,
                                              const qb_question *q)
{
	return qb_question_passage(bank, q) && (!prev || prev->passage != q->passage);
}

/* Number of correct options of q. */
size_t qb_question_ncorrect(const qb_question *q);

const char *qb_qtype_name(qb_qtype type);
/* "all-or-nothing" or "partial". */
const char *qb_scoring_name(qb_scoring s);
/* True for the types whose options are chosen (single, multiple,
 * true-false); true-false's are synthetic. */
bool qb_qtype_has_options(qb_qtype type);
/* True for the types with partial credit (multiple, matching, cloze). */
bool qb_qtype_partial(qb_qtype type);
/* True for the types whose options may be shuffled (single, multiple,
 * matching). */
bool qb_qtype_shuffles(qb_qtype type);

/* q's scoring: its own, else the bank's; always ALL for a type without
 * partial credit. */
qb_scoring qb_question_scoring(const qb_bank *bank, const qb_question *q);
/* True when q's options are shown shuffled: its 'shuffle:', else the
 * bank's 'shuffle-options:'; false for a type that does not shuffle. */
bool qb_question_shuffles(const qb_bank *bank, const qb_question *q);

/* ---- marks: negative marking and partial credit (issue 36) ---- */

/* A share of a question's mark, num/den (den > 0), exact. */
typedef struct qb_share {
	long num, den;
} qb_share;

/* Why qb_mark_parse() refused a mark. */
typedef enum qb_mark_err {
	QB_MARK_OK,
	QB_MARK_SYNTAX,  /* not a percent nor a fraction                   */
	QB_MARK_RANGE,   /* beyond -100% .. 100%                           */
	QB_MARK_DIGITS   /* more than two decimals, and no Moodle grade     */
} qb_mark_err;

/* Reads the mark s[0..n): a percent ('-25%', '50 %', '33.3%', with '-',
 * '+' or the minus sign U+2212, optionally in parentheses) or a fraction
 * ('-1/3').  A percent with decimals that a third, a sixth, a seventh or
 * a ninth rounds to ('33.3%', '33.33%', '14.29%', Moodle's 33.33333) is
 * that fraction. */
qb_mark_err qb_mark_parse(const char *s, size_t n, qb_mark *out);
/* Bytes of a mark at the start of s[0..n) (up to the first space), or 0
 * when s does not start with one (the reader's test). */
size_t qb_mark_len(const char *s, size_t n);
/* A mark from a percent (an importer's '%-25%' or fraction="-33.33333"). */
qb_mark_err qb_mark_from_percent(double percent, qb_mark *out);
/* m as an author writes it, read back exactly by qb_mark_parse(): "-25%",
 * "12.5%", "33.3%" for a third, "1/12" for a share that no percent
 * writes; buf holds at least 32 bytes. */
const char *qb_mark_text(qb_mark m, char *buf, size_t size);
/* True when q (single or multiple) has an option with a written mark. */
bool qb_question_has_marks(const qb_question *q);
/* What option i of q earns when picked, for every writer:
 *   single    its mark, else 1 for '*' and 0 for '-';
 *   multiple  its mark, else (partial scoring) a '*' option an equal part
 *             of what the marked '*' options leave of the whole, and a
 *             '-' option minus one right option's share (1 / number of
 *             right options), as the partial rule has always been; with
 *             all-or-nothing scoring 1/nright and 0 (marks then are an
 *             error, validate.c).
 * The question's score is the sum of what its picked options earn, never
 * below 0 nor above 1 (Moodle's rule for a multiple-answer question). */
qb_share qb_choice_share(const qb_bank *bank, const qb_question *q, size_t i);
static inline double qb_share_value(qb_share s)
{
	return (double)s.num / (double)s.den;
}
/* s as learners read it on an answer key: "+50%", "\u221225%" (the minus
 * sign), "0%", "+33.3%", "+1/12"; buf holds at least 32 bytes. */
const char *qb_share_text(qb_share s, char *buf, size_t size);
/* The Moodle grade of s ("-33.33333", "50"), or NULL when s is none of
 * Moodle's grades (100, 90, 83.33333, ..., 5, 0 and their negatives). */
const char *qb_share_moodle(qb_share s);

/* ---- cloze ---- */

/* A gap: a typed gap has its accepted answers; a choice gap its choices,
 * the right one (marked '=') at index right. */
typedef struct qb_cloze_gap {
	bool choice;
	/* Numeric gaps ('{{#9.81 ± 0.05}}', '{{#36.1..37.2}}'): the accepted
	 * number or range as qb_numeric_parse() reads it (answers[0] is the
	 * number as written), else NULL.  num_err says whether it parsed;
	 * num_at and num_len, from the start of the split text, what to quote. */
	const qb_numeric *num;
	qb_numeric_err num_err;
	size_t num_at, num_len;
	const char **answers;  /* trimmed, in the arena                       */
	size_t nanswers;
	size_t right;          /* choice gaps: index of the first '='          */
	size_t nright;         /* choice gaps: how many are marked '='         */
	size_t off, len;       /* the '{{...}}' in the text, in bytes          */
} qb_cloze_gap;

/* A literal run of text (Markdown as written; '\{' stays, as Markdown
 * renders it '{') or a gap. */
typedef struct qb_cloze_part {
	const char *text;          /* into the split text: literal Markdown   */
	size_t len;
	const qb_cloze_gap *gap;   /* or NULL                                 */
} qb_cloze_part;

/* Splits text into literal runs and gaps ('{{a|b}}' typed, '{{=a ~b}}'
 * choice), in the arena.  Returns the number of gaps, or -1 when a '{{'
 * is not closed (everything from it on is then one literal run). */
int qb_cloze_split(qb_arena *arena, const char *text, qb_cloze_part **parts, size_t *nparts);

/* ---- short answers ---- */

/* The short-answer matching rule, shared by the checks and the tests
 * (players reimplement it in JavaScript identically:
 * s.normalize('NFC').trim().replace(/\s+/g, ' ') and, unless case
 * sensitive, .toLowerCase()): surrounding white space removed, inner runs
 * of white space made one space, and letters lower-cased (per code point)
 * unless case_sensitive.  A heap string. */
char *qb_answer_normalise(const char *s, bool case_sensitive);

#endif
