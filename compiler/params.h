/* params.h - parameterised questions (issue 38): variables drawn for each
 * attempt.
 *
 * A question with a 'vars:' block is parameterised:
 *
 *     vars:
 *       h = 5..50 step 5          a range with a step (decimals: the step's)
 *       m = 0.5..2.5 decimals 1   any value of a range, shown with 1 decimal
 *       n = 2, 3, 5, 7            one of a list (decimals: the most written)
 *       g = 9.81                  a constant
 *       t = sqrt(2*h/g)           a formula of variables above it (2 decimals,
 *       v = g*t decimals 1        or as many as 'decimals N' says)
 *     where: h != 20, h*g < 400   conditions a draw must meet
 *     draws: 12                   how many draws the pool holds (default: up
 *                                 to 20, as many as the variables allow)
 *
 * Texts of the question (prompt, options, feedback, explanation, cloze
 * gaps) show a variable as '{h}' and a formula as '{=2*h}'; a numeric
 * question's 'answer:' is a formula with a tolerance ('sqrt(2*h/g) ± 2%').
 * Formulas are GNU libmatheval's (+ - * / ^, sqrt exp log sin cos tan abs
 * ..., pi, e), evaluated only here.
 *
 * The pool: qb_params_draw() draws it once when the bank is read, from a
 * seed made of the bank id, the question id and the question's definition
 * (variables, conditions, answer, draws), so a rebuild draws the same
 * numbers and an unchanged question keeps its pool.  A 'draws:' block with
 * a table (what an import of Moodle's datasets gives) is the pool as it is.
 * Every value is rounded to its shown decimals before formulas use it: the
 * numbers a learner reads give the answer.
 *
 * Writers never evaluate anything: they take draw k of a question through
 * the render layer (qb_render_draw(), render.h), a plain question with
 * every '{h}' replaced by the number written in its language's way, or the
 * values themselves (qb_params_value(), qb_params_value_text()). */
#ifndef QB_PARAMS_H
#define QB_PARAMS_H

#include "model.h"
#include "buf.h"

typedef enum qb_var_kind {
	QB_VAR_RANGE,   /* lo..hi, step (0: any value at 'decimals')        */
	QB_VAR_LIST,    /* one of list[0..nlist) (a constant: one)          */
	QB_VAR_FORMULA  /* formula of variables defined above it            */
} qb_var_kind;

typedef struct qb_var {
	const char *name;    /* NULL for a text's '{=formula}'               */
	const char *def;     /* what follows '=' as written, trimmed (the
	                        formula of a '{=formula}')                   */
	qb_loc loc;          /* the name (a '{=...}': its '{')              */
	qb_loc def_loc;      /* the definition                               */
	qb_var_kind kind;
	double lo, hi, step; /* RANGE                                         */
	const double *list;  /* LIST                                          */
	size_t nlist;
	const char *formula; /* FORMULA: the formula alone                    */
	int decimals;        /* decimals shown, and the value's rounding: a
	                        formula's value without 'decimals N' is
	                        rounded to 2 and shown without trailing
	                        zeros (18, 2.5, 2.26)                        */
	bool decimals_written; /* 'decimals N' was written                   */
} qb_var;

/* A numeric question's answer as a formula: 'answer: sqrt(2*h/g) ± 2%'. */
typedef struct qb_param_answer {
	const char *formula; /* NULL: the question's answer is no formula     */
	qb_loc loc;          /* the formula                                  */
	double tol;          /* absolute, or percent of the value when percent */
	bool percent;
	int decimals;        /* '{answer}' is shown with these (2 by default) */
	bool decimals_written; /* 'decimals N' was written                   */
} qb_param_answer;

typedef struct qb_params {
	qb_var *vars;         /* the 'vars:' lines in order, then every
	                         distinct '{=formula}' of the question's texts */
	size_t nvars, nnamed; /* nnamed: the 'vars:' lines                    */
	size_t capvars;       /* while read: vars is on the heap (params.c)  */
	qb_loc loc;           /* the 'vars:' keyword                          */
	const char *where;    /* the conditions as written, NULL when none   */
	qb_loc where_loc;     /* the conditions (after 'where:')             */
	qb_param_answer answer;
	unsigned ndraws;      /* 'draws: N', 0 when not written              */
	qb_loc draws_loc;
	/* A 'draws:' table: the pool as given (an import of Moodle's
	 * datasets): columns name variables, rows are draws. */
	const char **table_names;
	size_t ntable_cols, ntable_rows;
	const double *table;  /* ntable_rows * ntable_cols                   */
	qb_loc table_loc;
	/* The pool, filled by qb_params_draw(): npool draws; draw k's value
	 * of variable i is pool[k * (nvars + 1) + i] and its answer (numeric:
	 * NAN otherwise) pool[k * (nvars + 1) + nvars]. */
	size_t npool;
	const double *pool;
} qb_params;

/* q's parameters, NULL when q is not parameterised. */
const qb_params *qb_question_params(const qb_question *q);

/* Draws the pool of every parameterised question of bank, reporting what
 * is wrong at the variable, formula or condition: a formula that does not
 * parse, an unknown or later variable, a value that is not a finite
 * number, conditions no draw meets, a pool smaller than 'draws:' asks,
 * options of a draw that coincide, '{x}' naming no variable.  The readers
 * and importers call it once their bank is complete.  Returns the number
 * of errors reported. */
int qb_params_draw(qb_bank *bank);

/* Draws in q's pool: 0 when q is not parameterised. */
static inline size_t qb_question_ndraws(const qb_question *q)
{
	const qb_params *p = qb_question_params(q);
	return p ? p->npool : 0;
}

/* Variable i's value in draw k; i == nvars: the answer. */
static inline double qb_params_value(const qb_params *p, size_t k, size_t i)
{
	return p->pool[k * (p->nvars + 1) + i];
}

/* x with decimals digits after mark ("2,26"): the one way a drawn
 * number is written; buf holds at least 64 bytes. */
const char *qb_params_number(double x, int decimals, const char *mark, char *buf, size_t size);

/* Variable i's value in draw k as text with mark (i == nvars: the
 * answer, with its decimals). */
const char *qb_params_value_text(const qb_params *p, size_t k, size_t i, const char *mark,
                                 char *buf, size_t size);

/* A placeholder in a text: '{name}' (a variable or 'answer') or
 * '{=formula}'; off and len are its bytes, var its variable's index
 * (nvars: the answer). */
typedef struct qb_placeholder {
	size_t off, len;
	size_t var;
} qb_placeholder;

/* Finds the next placeholder of p in text[from..n): fills *ph and
 * returns true, or false when there is none.  '{{', '}}' and '\{' are
 * never placeholders; '{x}' naming nothing of p is skipped (the checks
 * report it). */
bool qb_params_next(const qb_params *p, const char *text, size_t n, size_t from,
                    qb_placeholder *ph);

/* Appends text with each placeholder replaced by draw k's value written
 * with mark ('.' in a numeric cloze gap, '{{#{f} ± 0.1}}', whose number
 * every language writes with a '.'). */
void qb_params_subst(const qb_params *p, size_t k, const char *text, const char *mark, qb_buf *out);

/* ---- for the readers and importers ---- */

/* q's parameters, made empty in bank's arena the first time (loc: its
 * 'vars:' keyword). */
qb_params *qb_params_new(qb_bank *bank, qb_question *q, qb_loc loc);
/* One line of 'vars:', s[0..n) at loc: 'name = definition'; reports what
 * is wrong with it. */
void qb_params_add_var(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc);
/* The question of p is read: its variables move into bank's arena, exactly
 * sized (they grow on the heap while read). */
void qb_params_end(qb_bank *bank, qb_params *p);
/* 'where:' s[0..n) at loc: conditions separated by ','. */
void qb_params_set_where(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc);
/* 'draws: n'. */
void qb_params_set_draws(qb_params *p, unsigned n, qb_loc loc);
/* A line of a 'draws:' table: the first names the variables ('h | g'),
 * each other is a draw ('5 | 9.81'). */
void qb_params_table_line(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc);
/* A numeric question's 'answer:' s[0..n) at loc: 'formula', 'formula ± 0.1'
 * or 'formula ± 2%', optionally followed by 'decimals N'. */
void qb_params_set_answer(qb_bank *bank, qb_params *p, const char *s, size_t n, qb_loc loc);
/* Draw k's accepted answer (its tolerance applied). */
void qb_params_answer_at(const qb_params *p, size_t k, qb_numeric *num);

/* How a language writes the decimal mark (render.c: its label). */
typedef const char *(*qb_params_mark_fn)(const void *payload, const char *lang);
/* Draw k of q as a plain question in arena (qb_render_draw() passes each
 * language's mark; the checks pass NULL: '.'). */
const qb_question *qb_params_instance(qb_arena *arena, const qb_question *q, size_t k,
                                      qb_params_mark_fn mark, const void *payload);

/* True when a '{' after the character before may open a placeholder: not
 * after a letter, '^', '_', '}' or '{' (TeX's groups: '\\mathrm{kJ}',
 * 'x^{2}', '\\frac{a}{b}'; an escaped '\\{' followed by '{a}}'). */
bool qb_params_brace_opens(char before);

/* The identifier character set of variable names: [A-Za-z_][A-Za-z0-9_]*. */
bool qb_params_name_ok(const char *s, size_t n);

#endif
