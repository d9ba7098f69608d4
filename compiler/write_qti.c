/* write_qti.c - IMS QTI content packages: QTI 2.1 (`qti`, what OpenOLAT
 * and Inspera document that they import; README.md, "QTI for other
 * systems") and QTI 3.0 (`qti3`, 1EdTech's current version, what QTI 3
 * players such as @citolab/qti-components run), from one writer.
 *
 * The two versions have the same information model: QTI 3.0 renamed
 * every element and attribute (assessmentItem -> qti-assessment-item,
 * baseType -> base-type), moved to other namespaces and resource types,
 * wraps a modal feedback's content in qti-content-body and plays sounds
 * with <audio> where 2.1 has <object>.  So this writer names everything
 * in 2.1's camelCase and el()/at() turn a name into 3.0's form.
 *
 * One package per language (zipw.h: atomic, deterministic), <bank-id>.
 * <lang>.qti.zip (write.h's per_lang): the importers whose source could
 * be read (QTIWorks, OpenOLAT) take a package of one test.  It holds:
 *   imsmanifest.xml             one resource per item, one for the test
 *                               and one per picture or sound, each item
 *                               and the test depending on what it shows;
 *                               resource metadata: qtiMetadata and LOM
 *                               (titles as plain text, gaps as ___)
 *   item-<id>-<lang>.xml        one assessmentItem per question,
 *                               xml:lang on the item
 *   test-<lang>.xml             the assessmentTest: the bank's order,
 *                               'shuffle-questions' as ordering, 'draw:'
 *                               as selection (one section per first tag
 *                               with draw-per-tag)
 *   media/<hash>.<ext>          the pictures and sounds
 *   qbc-math.css                with MathML: hides its TeX annotation
 *
 * One item per language, not both languages in one item: QTI has no way
 * to show one language of several (an item has one xml:lang), LMSs file
 * imported items by language in their banks.
 *
 * Texts are the bank's Markdown rendered to HTML by the render layer
 * (md4c, raw HTML off, so a <script> in a bank is text), parsed back
 * with libxml2's HTML parser and written element by element through
 * xmlTextWriter: only the HTML elements QTI's content model has, with
 * their attributes; everything from the bank is escaped by the writer.
 * Formulas become MathML through blahtexml (below, "formulas"), the TeX
 * as written kept as its annotation.
 *
 * Scores are 0..1 per item (SCORE, MAXSCORE 1), computed by explicit
 * response processing (no templates to fetch), with qbc's rules:
 * multiple partial = (right picks - wrong picks) / right options, never
 * below 0 (a mapping with lowerBound 0); a single or multiple question
 * with marks (issue 36): the same mapping with each option's share;
 * matching partial = right pairs / pairs; cloze partial = right gaps /
 * gaps; all-or-nothing = the whole
 * correct response.  Feedback (an outcome FB_<id> per feedback) shows
 * each picked option's feedback, the question's feedback-wrong below
 * full score and the explanation after every answer, as modal feedback.
 * A short answer is compared as typed apart from case (QTI's mapping has
 * no white-space rule): the nearest to qb_answer_normalise().
 *
 * A parameterised question (issue 38) draws in its item's template
 * processing ("parameterised questions" below): its texts show the
 * attempt's draw as printed variables and MathML variables, and
 * response processing checks that draw's answer. */
#include "write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "markup.h"
#include "params.h"
#include "render.h"
#include "zipw.h"

#define NS_QTI21 "http://www.imsglobal.org/xsd/imsqti_v2p1"
#define NS_QTI30 "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"
#define NS_XSI "http://www.w3.org/2001/XMLSchema-instance"
#define NS_LOM "http://ltsc.ieee.org/xsd/LOM"
#define XSD_QTI21 "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
#define XSD_QTI30 "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd"

/* What differs between the versions besides the names (el(), at()). */
typedef struct qti_version {
	const char *ns, *xsd;           /* items and tests                  */
	const char *cp_ns, *cp_xsd;     /* the manifest                     */
	const char *md_ns, *md_xsd;     /* qtiMetadata                      */
	const char *lom_xsd;
	const char *item_type, *test_type;
	const char *schema, *schemaversion; /* the manifest's metadata      */
} qti_version;

static const qti_version V21 = {
	NS_QTI21, XSD_QTI21,
	"http://www.imsglobal.org/xsd/imscp_v1p1",
	"http://www.imsglobal.org/xsd/imscp_v1p1.xsd",
	"http://www.imsglobal.org/xsd/imsqti_metadata_v2p1",
	"http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_metadata_v2p1.xsd",
	"http://www.imsglobal.org/xsd/imsmd_loose_v1p3p2.xsd",
	"imsqti_item_xmlv2p1", "imsqti_test_xmlv2p1",
	"QTIv2.1 Package", "1.0.0",
};

static const qti_version V30 = {
	NS_QTI30, XSD_QTI30,
	"http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
	"https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd",
	"http://www.imsglobal.org/xsd/imsqti_metadata_v3p0",
	"https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_metadatav3p0_v1p0.xsd",
	"https://purl.imsglobal.org/spec/md/v1p3/schema/xsd/imsmd_loose_v1p3p2.xsd",
	"imsqti_item_xmlv3p0", "imsqti_test_xmlv3p0",
	"QTI Package", "3.0.0",
};

/* The pictures and sounds an item shows, for its manifest resource.  Only
 * the items that show any are kept: the manifest makes every item's file
 * name and identifier again (item_file(), q_ident()), so a big bank's
 * items take no memory until it is written. */
typedef struct item_media {
	size_t item;         /* language by language, question by question   */
	size_t *media;       /* indexes into the media set                   */
	size_t nmedia;
} item_media;

/* A number of response processing for each draw of a parameterised
 * question (issue 38): a bound of the accepted interval, or the correct
 * response. */
typedef struct tpl_float {
	char *ident;         /* its template variable, or the response whose
	                        correct response it is (correct)             */
	double *v;           /* draw by draw                                 */
	bool correct;        /* a setCorrectResponse of response ident       */
} tpl_float;

/* The template variables of the item of a parameterised question: the
 * pool's values written in the item's language, a DRAW that picks one
 * draw for the attempt (template processing), and the numbers response
 * processing reads from that draw. */
typedef struct tpl {
	const qb_params *p;
	const qb_question *q;     /* the question                            */
	qb_arena *arena;          /* its draws' (made when asked for)        */
	const qb_question **draw; /* draw k as a plain question (render.h)  */
	const qb_question **dot;  /* the same with every number's mark '.':
	                             its cloze gaps' numbers read            */
	size_t n;                 /* draws                                   */
	const char *mark;         /* the language's decimal mark             */
	bool *used, *math;        /* each variable (nvars + 1: the answer)
	                             shown by the item's texts, in a formula */
	char **ident;             /* each variable's template variable       */
	tpl_float *f;
	size_t nf;
	bool quiet;               /* writing the passage: no placeholders    */
} tpl;

typedef struct ctx {
	const qb_render_ctx *r;
	const qb_bank *bank;
	const qti_version *v;
	bool v3;
	xmlTextWriterPtr w;
	qb_buf name;         /* scratch for el() and at()                    */
	qb_media_set media;
	item_media *cur;     /* the item being written (its media)           */
	item_media *with_media; /* the items written that show media, in order */
	size_t nwith, capwith;
	const qb_cloze_part *gaps; /* cloze: the parts, while writing its prompt */
	size_t ngaps_parts;
	const struct math_set *math; /* the formulas as MathML, or NULL       */
	bool item_math;      /* the item being written shows MathML          */
	tpl *t;              /* the item's template variables, or NULL       */
	const qb_question *gap_src; /* an item written as its first draw: that
	                       draw with a decimal point, its gaps' numbers */
	bool failed;
} ctx;

static void xok(ctx *c, int rc)
{
	if (rc < 0)
		c->failed = true;
}

/* ---- names: 2.1's camelCase, or 3.0's qti-kebab-case ---- */

static const char *kebab(ctx *c, const char *camel, bool element)
{
	if (!c->v3)
		return camel;
	qb_buf_clear(&c->name);
	if (element)
		qb_buf_puts(&c->name, "qti-");
	for (const char *p = camel; *p; p++) {
		if (*p >= 'A' && *p <= 'Z') {
			qb_buf_putc(&c->name, '-');
			qb_buf_putc(&c->name, (char)(*p - 'A' + 'a'));
		} else {
			qb_buf_putc(&c->name, *p);
		}
	}
	return qb_buf_cstr(&c->name);
}

/* Starts the QTI element named (in 2.1) name. */
static void el(ctx *c, const char *name)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST kebab(c, name, true)));
}

/* Starts an element whose name is the same in both versions. */
static void el_plain(ctx *c, const char *name)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST name));
}

static void end(ctx *c)
{
	xok(c, xmlTextWriterEndElement(c->w));
}

static void at(ctx *c, const char *name, const char *value)
{
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST kebab(c, name, false), BAD_CAST value));
}

static void at_plain(ctx *c, const char *name, const char *value)
{
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST name, BAD_CAST value));
}

static void text(ctx *c, const char *s)
{
	xok(c, xmlTextWriterWriteString(c->w, BAD_CAST s));
}

/* A number as JavaScript and Java read it back exactly: the shortest
 * %g that round-trips, without an exponent when one is that short. */
static void put_number(char *s, size_t n, double v)
{
	for (int exp_ok = 0; exp_ok < 2; exp_ok++)
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(s, n, "%.*g", prec, v);
			if (strtod(s, NULL) == v && (exp_ok || !strchr(s, 'e')))
				return;
		}
}

/* ---- expressions of response processing ---- */

/* <name attr="value"/>: a QTI element (qti), else a plain one. */
static void leaf(ctx *c, bool qti, const char *name, const char *attr, const char *value)
{
	if (qti)
		el(c, name);
	else
		el_plain(c, name);
	at(c, attr, value);
	end(c);
}

static void variable(ctx *c, const char *id)
{
	leaf(c, true, "variable", "identifier", id);
}

static void base_value(ctx *c, const char *type, const char *value)
{
	el(c, "baseValue");
	at(c, "baseType", type);
	text(c, value);
	end(c);
}

static void base_float(ctx *c, double v)
{
	char s[40];
	put_number(s, sizeof s, v);
	base_value(c, "float", s);
}

static void correct(ctx *c, const char *id)
{
	leaf(c, true, "correct", "identifier", id);
}

static void map_response(ctx *c, const char *id)
{
	leaf(c, true, "mapResponse", "identifier", id);
}

/* <setOutcomeValue identifier=id> ... (the caller writes the expression
 * and ends it). */
static void set_outcome(ctx *c, const char *id)
{
	el(c, "setOutcomeValue");
	at(c, "identifier", id);
}

/* <responseCondition><responseIf> (the caller writes the condition, the
 * rules and ends both). */
static void response_if(ctx *c)
{
	el(c, "responseCondition");
	el(c, "responseIf");
}

/* Shows feedback fb: sets its own outcome, FB_<fb>, to fb (a rule).  One
 * outcome per feedback rather than one of cardinality multiple: adding to
 * a multiple that starts NULL is where players differ. */
static void add_feedback(ctx *c, const char *fb)
{
	char id[48];
	snprintf(id, sizeof id, "FB_%s", fb);
	set_outcome(c, id);
	base_value(c, "identifier", fb);
	end(c);
}

/* Ends the condition response_if() opened with the rule SCORE = 1. */
static void then_score_one(ctx *c)
{
	set_outcome(c, "SCORE");
	base_float(c, 1);
	end(c);
	end(c);
	end(c);
}

/* SCORE = 1 when the response id is the correct one (a rule). */
static void score_if_correct(ctx *c, const char *id)
{
	response_if(c);
	el(c, "match");
	variable(c, id);
	correct(c, id);
	end(c);
	then_score_one(c);
}

/* SCORE = mapResponse(id) (a rule). */
static void score_mapped(ctx *c, const char *id)
{
	set_outcome(c, "SCORE");
	map_response(c, id);
	end(c);
}

/* SCORE from RESPONSE: its mapping with partial credit, else 1 for the
 * correct response (rules). */
static void score_response(ctx *c, bool partial)
{
	if (partial)
		score_mapped(c, "RESPONSE");
	else
		score_if_correct(c, "RESPONSE");
}

/* Shows feedback fb when the response (cardinality multiple when multi)
 * holds the identifier choice (a rule). */
static void feedback_if_chosen(ctx *c, bool multi, const char *choice, const char *fb)
{
	response_if(c);
	el(c, multi ? "member" : "match");
	if (multi) {
		base_value(c, "identifier", choice);
		variable(c, "RESPONSE");
	} else {
		variable(c, "RESPONSE");
		base_value(c, "identifier", choice);
	}
	end(c);
	add_feedback(c, fb);
	end(c);
	end(c);
}

/* The rules every item ends with: feedback-wrong below full score, the
 * explanation after any answer. */
static void feedback_end(ctx *c, const qb_question *q)
{
	if (qb_question_feedback_wrong(q)->present) {
		response_if(c);
		el(c, "lt");
		variable(c, "SCORE");
		variable(c, "MAXSCORE");
		end(c);
		add_feedback(c, "WRONG");
		end(c);
		end(c);
	}
	if (q->explanation.present)
		add_feedback(c, "EXPLANATION");
}

/* ---- declarations ---- */

/* <responseDeclaration>, open: the caller adds correctResponse, mapping
 * and ends it. */
static void response_decl(ctx *c, const char *id, const char *cardinality, const char *type)
{
	el(c, "responseDeclaration");
	at(c, "identifier", id);
	at(c, "cardinality", cardinality);
	at(c, "baseType", type);
}

static void correct_response(ctx *c, const char *const *values, size_t n)
{
	el(c, "correctResponse");
	for (size_t i = 0; i < n; i++) {
		el(c, "value");
		text(c, values[i]);
		end(c);
	}
	end(c);
}

/* <mapping> open: the caller adds map_entry()s and ends it. */
static void mapping(ctx *c, double lower, double upper)
{
	char s[40];
	el(c, "mapping");
	if (!isnan(lower)) {
		put_number(s, sizeof s, lower);
		at(c, "lowerBound", s);
	}
	if (!isnan(upper)) {
		put_number(s, sizeof s, upper);
		at(c, "upperBound", s);
	}
	at(c, "defaultValue", "0");
}

static void map_entry(ctx *c, const char *key, double value, int case_sensitive)
{
	char s[40];
	put_number(s, sizeof s, value);
	el(c, "mapEntry");
	at(c, "mapKey", key);
	at(c, "mappedValue", s);
	if (case_sensitive >= 0)
		at(c, "caseSensitive", case_sensitive ? "true" : "false");
	end(c);
}

/* The most feedback ids q can have. */
static size_t feedback_max(const qb_question *q)
{
	size_t n = q->nchoices + 2;
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next)
		n++;
	return n;
}

/* The feedback of a numeric question's k-th further answer (from 1). */
static const qb_text *num_more_feedback(const qb_question *q, size_t k)
{
	const qb_num_more *m = qb_question_num_more(q);
	while (m && --k)
		m = m->next;
	return m ? &m->feedback : &qb_no_text;
}

/* The feedback of q, in the order they are declared and shown: each
 * option's (F<n>), a numeric question's further answers' (N<k>),
 * feedback-wrong (WRONG), the explanation (EXPLANATION).
 * Returns how many; ids holds them. */
static size_t feedback_ids(const qb_question *q, char (*ids)[32], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < q->nchoices && n < max; i++)
		if (q->choices[i].feedback.present)
			snprintf(ids[n++], sizeof ids[0], "F%zu", i + 1);
	size_t k = 0; /* a numeric question's further answers' (N<k>) */
	for (const qb_num_more *m = qb_question_num_more(q); m && n < max; m = m->next)
		if (++k, m->feedback.present)
			snprintf(ids[n++], sizeof ids[0], "N%zu", k);
	if (qb_question_feedback_wrong(q)->present && n < max)
		snprintf(ids[n++], sizeof ids[0], "WRONG");
	if (q->explanation.present && n < max)
		snprintf(ids[n++], sizeof ids[0], "EXPLANATION");
	return n;
}

/* Opens a single-valued float outcomeDeclaration; the caller ends it. */
static void float_outcome(ctx *c, const char *name)
{
	el(c, "outcomeDeclaration");
	at(c, "identifier", name);
	at(c, "cardinality", "single");
	at(c, "baseType", "float");
}

/* SCORE (0), MAXSCORE (1) and FB_<id> for each feedback of q. */
static void outcome_decls(ctx *c, const qb_question *q)
{
	static const char *const names[] = {"SCORE", "MAXSCORE"};
	for (size_t i = 0; i < QB_NELEM(names); i++) {
		float_outcome(c, names[i]);
		el(c, "defaultValue");
		el(c, "value");
		text(c, i ? "1" : "0");
		end(c);
		end(c);
		end(c);
	}
	size_t max = feedback_max(q);
	char (*ids)[32] = qb_xcalloc(max, sizeof *ids);
	size_t n = feedback_ids(q, ids, max);
	for (size_t i = 0; i < n; i++) {
		char id[48];
		snprintf(id, sizeof id, "FB_%s", ids[i]);
		el(c, "outcomeDeclaration");
		at(c, "identifier", id);
		at(c, "cardinality", "single");
		at(c, "baseType", "identifier");
		end(c);
	}
	free(ids);
}

/* ---- parameterised questions (issue 38): template variables ---- */

/* A parameterised question's item draws one of the pool's draws when the
 * attempt starts: template processing sets qbc-draw to a random integer
 * 1..draws, then each variable its texts show to that draw's value, an
 * <index n="qbc-draw"> of an <ordered> list of the pool's values as the
 * item's language writes them (a string each: "2,26" in French).  The
 * texts show them as <printedVariable>; a formula shows them as MathML
 * identifiers of template variables with mathVariable (QTI's way to put
 * a template value in MathML, where printedVariable cannot go).  A
 * variable's template variable is named as the variable ('h'), so a
 * player that fills no MathML variable shows the formula with its
 * symbol.  Response processing reads that draw's accepted interval from
 * template variables (qbc-lo, qbc-hi), and template processing sets the
 * correct response; a choice's right option is the same in every draw.
 * Every template variable's default value is draw 0's, and the correct
 * response as declared is draw 0's too: a player that runs no template
 * processing plays draw 0, its numbers and its answer agreeing. */

/* The private-use character that marks a placeholder in a text being
 * written: U+E001, the variable's index, U+E001 (as GAP_MARK a gap). */
#define VAR_MARK "\xEE\x80\x81"

/* q's parameters when it is parameterised and has a pool, else NULL. */
static const qb_params *params_of(const qb_question *q)
{
	const qb_params *p = qb_question_params(q);
	return p && qb_question_ndraws(q) ? p : NULL;
}

/* Appends md with each placeholder of p (NULL: none) as its mark. */
static void mark_vars(const qb_params *p, const char *md, size_t n, qb_buf *out)
{
	size_t at = 0;
	qb_placeholder ph;
	while (p && qb_params_next(p, md, n, at, &ph)) {
		qb_buf_append(out, md + at, ph.off - at);
		qb_buf_appendf(out, VAR_MARK "%zu" VAR_MARK, ph.var);
		at = ph.off + ph.len;
	}
	qb_buf_append(out, md + at, n - at);
}

/* The mark at s: its variable into *var, and where it ends; else NULL. */
static const char *var_mark(const char *s, size_t *var)
{
	if (strncmp(s, VAR_MARK, 3) != 0 || s[3] < '0' || s[3] > '9')
		return NULL;
	char *endp;
	unsigned long v = strtoul(s + 3, &endp, 10);
	if (strncmp(endp, VAR_MARK, 3) != 0)
		return NULL;
	*var = v;
	return endp + 3;
}

/* Appends s with each mark of p's variables as fn writes it. */
typedef void (*mark_fn)(const qb_params *p, size_t var, size_t k, const char *mark, qb_buf *out);

static void unmark(const qb_params *p, const char *s, size_t k, const char *mark, mark_fn fn,
                   qb_buf *out)
{
	const char *m, *after;
	size_t var;
	while ((m = strstr(s, VAR_MARK)) != NULL) {
		qb_buf_append(out, s, (size_t)(m - s));
		if ((after = var_mark(m, &var)) != NULL && var <= p->nvars) {
			fn(p, var, k, mark, out);
			s = after;
		} else {
			qb_buf_append(out, m, 3);
			s = m + 3;
		}
	}
	qb_buf_puts(out, s);
}

/* A mark as draw k's value. */
static void mark_value(const qb_params *p, size_t var, size_t k, const char *mark, qb_buf *out)
{
	char v[64];
	qb_buf_puts(out, qb_params_value_text(p, k, var, mark, v, sizeof v));
}

/* A mark as the placeholder it was: '{h}', '{=2*h}', '{answer}'. */
static void mark_source(const qb_params *p, size_t var, size_t k, const char *mark, qb_buf *out)
{
	QB_UNUSED(k);
	QB_UNUSED(mark);
	if (var == p->nvars)
		qb_buf_puts(out, "{answer}");
	else if (p->vars[var].name)
		qb_buf_appendf(out, "{%s}", p->vars[var].name);
	else
		qb_buf_appendf(out, "{=%s}", p->vars[var].def);
}

/* A mark as the identifier blahtexml keeps: \mathrm{qbcv<index in
 * letters>}, which it writes <mi>qbcv...</mi>. */
#define MATH_VAR "qbcv"

static void mark_math(const qb_params *p, size_t var, size_t k, const char *mark, qb_buf *out)
{
	QB_UNUSED(p);
	QB_UNUSED(k);
	QB_UNUSED(mark);
	char letters[16];
	size_t n = 0;
	do
		letters[n++] = (char)('a' + var % 26);
	while ((var /= 26) > 0 && n < sizeof letters);
	qb_buf_puts(out, "\\mathrm{" MATH_VAR);
	while (n)
		qb_buf_putc(out, letters[--n]);
	qb_buf_putc(out, '}');
}

/* The variable of an identifier mark_math() wrote, or SIZE_MAX. */
static size_t math_var(const char *s)
{
	if (strncmp(s, MATH_VAR, 4) != 0 || !s[4])
		return SIZE_MAX;
	size_t var = 0;
	for (s += 4; *s; s++) {
		if (*s < 'a' || *s > 'z' || var > SIZE_MAX / 26 - 26)
			return SIZE_MAX;
		var = var * 26 + (size_t)(*s - 'a');
	}
	return var;
}

/* Variable i's template variable: its name, unless the item names
 * something else so (then qbc-v-<name>); 'answer' (a name no variable
 * may have) for '{answer}', qbc-f<n> for a text's n-th '{=formula}'. */
static char *var_ident(const qb_params *p, size_t i)
{
	static const char *const taken[] = {"RESPONSE", "SCORE", "MAXSCORE", "completionStatus",
	                                    "numAttempts", "duration", "QTI_CONTEXT"};
	if (i == p->nvars)
		return qb_xstrdup("answer");
	const char *name = p->vars[i].name;
	if (!name)
		return qb_xasprintf("qbc-f%zu", i + 1 - p->nnamed);
	bool clash = strncmp(name, "RESPONSE_", 9) == 0 || strncmp(name, "FB_", 3) == 0 ||
	             strncmp(name, "GAP_", 4) == 0;
	for (size_t k = 0; k < QB_NELEM(taken); k++)
		clash |= strcmp(name, taken[k]) == 0;
	return clash ? qb_xasprintf("qbc-v-%s", name) : qb_xstrdup(name);
}

/* qb_markup_math callback: the variables a formula shows. */
static void tpl_math_note(void *payload, const char *tex, size_t offset)
{
	QB_UNUSED(offset);
	tpl *t = payload;
	size_t var;
	for (const char *m = strstr(tex, VAR_MARK); m; m = strstr(m + 3, VAR_MARK))
		if (var_mark(m, &var) && var <= t->p->nvars)
			t->math[var] = true;
}

/* Notes the variables text t of the item shows. */
static void tpl_text(const qb_render_ctx *r, tpl *t, const qb_text *txt, const char *lang)
{
	if (!txt->present)
		return;
	const char *md = qb_render_md(r, txt, lang);
	qb_buf marked = QB_BUF_INIT;
	mark_vars(t->p, md, strlen(md), &marked);
	const char *s = qb_buf_cstr(&marked), *m;
	size_t var;
	while ((m = strstr(s, VAR_MARK)) != NULL) {
		const char *after = var_mark(m, &var);
		if (after && var <= t->p->nvars)
			t->used[var] = true;
		s = after ? after : m + 3;
	}
	qb_markup_math(qb_buf_cstr(&marked), tpl_math_note, t);
	qb_buf_dispose(&marked);
}

/* Starts the template variables of q's item in lang (c->t), its draws
 * made in arena; false when q is not parameterised. */
static bool tpl_begin(ctx *c, tpl *t, qb_arena *arena, const qb_question *q, const char *lang)
{
	const qb_params *p = params_of(q);
	if (!p)
		return false;
	*t = (tpl){.p = p, .q = q, .arena = arena, .n = qb_question_ndraws(q),
	           .mark = qb_render_decimal_mark(c->r, lang)};
	t->draw = qb_xcalloc(t->n, sizeof *t->draw);
	t->dot = qb_xcalloc(t->n, sizeof *t->dot);
	t->used = qb_xcalloc(p->nvars + 1, sizeof *t->used);
	t->math = qb_xcalloc(p->nvars + 1, sizeof *t->math);
	t->ident = qb_xcalloc(p->nvars + 1, sizeof *t->ident);
	for (size_t i = 0; i <= p->nvars; i++)
		t->ident[i] = var_ident(p, i);
	tpl_text(c->r, t, &q->prompt, lang);
	tpl_text(c->r, t, &q->explanation, lang);
	tpl_text(c->r, t, qb_question_feedback_wrong(q), lang);
	for (size_t k = 0; k < q->nchoices; k++) {
		tpl_text(c->r, t, &q->choices[k].text, lang);
		tpl_text(c->r, t, &q->choices[k].feedback, lang);
		if (q->type == QB_QTYPE_MATCHING)
			tpl_text(c->r, t, qb_choice_match(&q->choices[k]), lang);
	}
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next)
		tpl_text(c->r, t, &m->feedback, lang);
	c->t = t;
	return true;
}

static void tpl_end(ctx *c, tpl *t)
{
	if (t->p)
		for (size_t i = 0; i <= t->p->nvars; i++)
			free(t->ident[i]);
	for (size_t i = 0; i < t->nf; i++) {
		free(t->f[i].ident);
		free(t->f[i].v);
	}
	free(t->f);
	free(t->ident);
	free(t->used);
	free(t->math);
	free(t->draw);
	free(t->dot);
	*t = (tpl){0};
	c->t = NULL;
}

/* Draw k of the item's question (a question of its own: made once, when
 * asked for; most items need none). */
static const qb_question *tpl_draw(ctx *c, size_t k)
{
	tpl *t = c->t;
	if (!t->draw[k])
		t->draw[k] = qb_render_draw(c->r, t->arena, t->q, k);
	return t->draw[k];
}

/* The same with a decimal point whatever the language: a number as a
 * program reads it. */
static const qb_question *tpl_dot(ctx *c, size_t k)
{
	tpl *t = c->t;
	if (!t->dot[k])
		t->dot[k] = qb_params_instance(t->arena, t->q, k, NULL, NULL);
	return t->dot[k];
}

/* True when texts a and b read the same in lang. */
static bool same_md(ctx *c, const qb_text *a, const qb_text *b, const char *lang)
{
	return strcmp(qb_render_md(c->r, a, lang), qb_render_md(c->r, b, lang)) == 0;
}

/* True when the item of q can draw: what its response processing
 * compares the response to changes between draws only as numbers that
 * template variables hold (numeric answers and gaps).  A short answer
 * whose accepted answers show variables, or a cloze whose typed or
 * choice gaps do, is written as its first draw. */
static bool tpl_fits(ctx *c, const qb_question *q, const char *lang)
{
	const tpl *t = c->t;
	if (q->type == QB_QTYPE_SHORT) {
		for (size_t k = 1; k < t->n; k++)
			for (size_t i = 0; i < q->nchoices; i++)
				if (!same_md(c, &tpl_draw(c, 0)->choices[i].text, &tpl_draw(c, k)->choices[i].text,
				             lang))
					return false;
		return true;
	}
	if (q->type != QB_QTYPE_CLOZE)
		return true;
	qb_arena arena = QB_ARENA_INIT;
	qb_cloze_part *parts = NULL, *first = NULL;
	size_t nparts = 0, nfirst = 0;
	bool fits = true;
	const char *md = qb_render_md(c->r, &q->prompt, lang);
	qb_buf src = QB_BUF_INIT;
	mark_vars(t->p, md, strlen(md), &src);
	qb_cloze_split(&arena, qb_buf_cstr(&src), &parts, &nparts);
	qb_cloze_split(&arena, qb_render_md(c->r, &tpl_dot(c, 0)->prompt, lang), &first, &nfirst);
	fits = nparts == nfirst;
	for (size_t i = 0; fits && i < nparts; i++)
		fits = !parts[i].gap == !first[i].gap;
	for (size_t k = 1; fits && k < t->n; k++) {
		qb_cloze_part *dk = NULL;
		size_t ndk = 0;
		qb_cloze_split(&arena, qb_render_md(c->r, &tpl_dot(c, k)->prompt, lang), &dk, &ndk);
		fits = ndk == nfirst;
		for (size_t i = 0; fits && i < ndk; i++) {
			const qb_cloze_gap *a = first[i].gap, *b = dk[i].gap;
			if (!a || !b) {
				fits = !a && !b;
				continue;
			}
			fits = a->choice == b->choice && !a->num == !b->num && a->nanswers == b->nanswers &&
			       a->right == b->right;
			for (size_t j = 0; fits && !a->num && j < a->nanswers; j++)
				fits = strcmp(a->answers[j], b->answers[j]) == 0;
		}
	}
	qb_buf_dispose(&src);
	qb_arena_dispose(&arena);
	return fits;
}

/* A number of response processing in each draw (v, as many as draws;
 * draw 0's when q is not parameterised): the template variable ident
 * that holds the attempt's, or NULL when every draw has the same (the
 * caller writes v[0]).  correct: ident is a response whose correct
 * response template processing sets to it. */
static const char *tpl_float_add(ctx *c, const char *ident, const double *v, bool correct)
{
	tpl *t = c->t;
	size_t k = 1;
	while (t && k < t->n && v[k] == v[0])
		k++;
	if (!t || k == t->n)
		return NULL;
	t->f = qb_xrealloc(t->f, (t->nf + 1) * sizeof *t->f);
	tpl_float *f = &t->f[t->nf++];
	f->ident = qb_xstrdup(ident);
	f->v = qb_xcalloc(t->n, sizeof *f->v);
	memcpy(f->v, v, t->n * sizeof *v);
	f->correct = correct;
	return f->ident;
}

/* The draws of the item being written: 1 when it does not draw. */
static size_t ndraws(const ctx *c)
{
	return c->t ? c->t->n : 1;
}


static void put_decimal(char *s, size_t n, double v);
static void base_decimal(ctx *c, double v);

/* <templateDeclaration> of a single value, draw 0's its default. */
static void template_decl(ctx *c, const char *ident, const char *type, bool math, const char *dflt)
{
	el(c, "templateDeclaration");
	at(c, "identifier", ident);
	at(c, "cardinality", "single");
	at(c, "baseType", type);
	if (math)
		at(c, "mathVariable", "true");
	el(c, "defaultValue");
	el(c, "value");
	text(c, dflt);
	end(c);
	end(c);
	end(c);
}

/* Variable i's value in each draw as the language writes it (a heap
 * array of t->n); *varies: they are not all the same. */
typedef char value_text[64];

static value_text *var_texts(const tpl *t, size_t i, bool *varies)
{
	value_text *v = qb_xcalloc(t->n, sizeof *v);
	*varies = false;
	for (size_t k = 0; k < t->n; k++) {
		qb_params_value_text(t->p, k, i, t->mark, v[k], sizeof v[k]);
		*varies |= strcmp(v[k], v[0]) != 0;
	}
	return v;
}

#define DRAW_VAR "qbc-draw"

/* <index n="qbc-draw"><ordered>: the caller writes a value per draw and
 * ends both. */
static void by_draw(ctx *c)
{
	el(c, "index");
	at(c, "n", DRAW_VAR);
	el(c, "ordered");
}

/* The template declarations and template processing of the item being
 * written (nothing when it does not draw). */
static void tpl_write(ctx *c)
{
	const tpl *t = c->t;
	if (!t)
		return;
	char v[64];
	bool *varies = qb_xcalloc(t->p->nvars + 1, sizeof *varies);
	value_text **texts = qb_xcalloc(t->p->nvars + 1, sizeof *texts);
	bool any = t->nf > 0;
	for (size_t i = 0; i <= t->p->nvars; i++)
		if (t->used[i]) {
			texts[i] = var_texts(t, i, &varies[i]);
			any |= varies[i];
		}
	if (any)
		template_decl(c, DRAW_VAR, "integer", false, "1");
	for (size_t i = 0; i <= t->p->nvars; i++)
		if (t->used[i])
			template_decl(c, t->ident[i], "string", t->math[i], texts[i][0]);
	for (size_t i = 0; i < t->nf; i++)
		if (!t->f[i].correct) {
			put_decimal(v, sizeof v, t->f[i].v[0]);
			template_decl(c, t->f[i].ident, "float", false, v);
		}
	if (any) {
		el(c, "templateProcessing");
		el(c, "setTemplateValue");
		at(c, "identifier", DRAW_VAR);
		el(c, "randomInteger");
		at(c, "min", "1");
		snprintf(v, sizeof v, "%zu", t->n);
		at(c, "max", v);
		end(c);
		end(c);
		for (size_t i = 0; i <= t->p->nvars; i++) {
			if (!varies[i])
				continue;
			el(c, "setTemplateValue");
			at(c, "identifier", t->ident[i]);
			by_draw(c);
			for (size_t k = 0; k < t->n; k++)
				base_value(c, "string", texts[i][k]);
			end(c);
			end(c);
			end(c);
		}
		for (size_t i = 0; i < t->nf; i++) {
			el(c, t->f[i].correct ? "setCorrectResponse" : "setTemplateValue");
			at(c, "identifier", t->f[i].ident);
			by_draw(c);
			for (size_t k = 0; k < t->n; k++)
				base_decimal(c, t->f[i].v[k]);
			end(c);
			end(c);
			end(c);
		}
		end(c);
	}
	for (size_t i = 0; i <= t->p->nvars; i++)
		free(texts[i]);
	free(texts);
	free(varies);
}

/* ---- formulas: MathML from blahtexml ---- */

/* QTI's format for math is MathML (2.1 allows MathML 2's <math>, 3.0
 * MathML 3's).  Debian's C libraries have no TeX-to-MathML converter;
 * blahtexml (Debian's blahtexml, a small C++ program) converts a whole
 * XML document of formulas in one run, so a bank with math runs it once
 * per build (write) and once per check (to warn, located, about a
 * formula it cannot convert, or that it is not installed): its
 * presentation MathML, with the author's TeX as the annotation, takes
 * the place of the <span class="math"> in every item.  A formula it
 * cannot convert, or every formula when it is not installed, stays TeX
 * for the player's MathJax, as before (compiler/README.md says why this
 * converter). */

#define NS_MATHML "http://www.w3.org/1998/Math/MathML"
#define NS_BLAHTEX "http://gva.noekeon.org/blahtexml"
#define BLAHTEXML "blahtexml"

extern char **environ; /* the environment blahtexml runs in: qbc's */

typedef struct formula {
	const char *tex;   /* into the set's arena: a parameterised
	                      question's placeholders as marks (VAR_MARK)   */
	const char *shown; /* as written, its placeholders too ('{h}')       */
	qb_loc loc;        /* the first text that shows it                  */
	xmlNodePtr math;   /* its <math> in the set's document, or NULL     */
	const char *error; /* blahtexml's reason, when it has none          */
	bool quiet;        /* a first draw's (tpl_fits()): warned as written */
} formula;

typedef struct math_set {
	formula *f;        /* sorted by TeX once converted                  */
	size_t n, cap;
	qb_arena arena;
	xmlDocPtr doc;     /* blahtexml's output                             */
	bool missing;      /* blahtexml could not be run                     */
} math_set;

typedef struct math_walk {
	math_set *set;
	qb_loc loc;
	const qb_params *p;   /* the question's, while its texts are read  */
	bool quiet;           /* reading a first draw's texts               */
	const math_set *find; /* instead: is any formula found in it MathML? */
	bool any;
} math_walk;

static const formula *math_find(const math_set *m, const char *tex);

static void math_note(void *payload, const char *tex, size_t offset)
{
	QB_UNUSED(offset);
	math_walk *w = payload;
	if (w->find) {
		const formula *f = math_find(w->find, tex);
		w->any |= f && f->math;
		return;
	}
	math_set *m = w->set;
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->f[i].tex, tex) == 0) {
			m->f[i].quiet &= w->quiet;
			return;
		}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->f = qb_xrealloc(m->f, m->cap * sizeof *m->f);
	}
	qb_buf shown = QB_BUF_INIT;
	if (w->p)
		unmark(w->p, tex, 0, NULL, mark_source, &shown);
	else
		qb_buf_puts(&shown, tex);
	m->f[m->n++] = (formula){qb_arena_strdup(&m->arena, tex),
	                         qb_arena_strdup(&m->arena, qb_buf_cstr(&shown)), w->loc, NULL, NULL,
	                         w->quiet};
	qb_buf_dispose(&shown);
}

static void math_text(const qb_render_ctx *r, math_walk *w, const qb_text *t, const char *lang)
{
	if (!t->present)
		return;
	const qb_tr *tr = qb_text_tr(t, lang);
	const char *md = qb_render_md(r, t, lang);
	qb_buf marked = QB_BUF_INIT;
	mark_vars(w->p, md, strlen(md), &marked);
	w->loc = tr ? qb_tr_text_loc(t, tr) : qb_text_loc(t);
	qb_markup_math(qb_buf_cstr(&marked), math_note, w);
	qb_buf_dispose(&marked);
}

/* Every formula of q's texts in lang, to w. */
static void math_texts(const qb_render_ctx *r, math_walk *w, const qb_question *q,
                       const char *lang);

static void math_question(const qb_render_ctx *r, math_walk *w, const qb_question *q,
                          const char *lang)
{
	math_texts(r, w, q, lang);
	if (!params_of(q) || (q->type != QB_QTYPE_SHORT && q->type != QB_QTYPE_CLOZE))
		return;
	/* and its first draw's, for an item written as its first draw (a
	 * short answer or a cloze: tpl_fits()) */
	qb_arena arena = QB_ARENA_INIT;
	w->quiet = true;
	math_texts(r, w, qb_render_draw(r, &arena, q, 0), lang);
	w->quiet = false;
	qb_arena_dispose(&arena);
}

static void math_texts(const qb_render_ctx *r, math_walk *w, const qb_question *q,
                       const char *lang)
{
	const qb_passage *passage = qb_question_passage(r->bank, q);
	w->p = NULL;
	if (passage)
		math_text(r, w, &passage->text, lang);
	w->p = params_of(q);
	math_text(r, w, &q->prompt, lang);
	math_text(r, w, &q->explanation, lang);
	math_text(r, w, qb_question_feedback_wrong(q), lang);
	for (size_t k = 0; k < q->nchoices; k++) {
		math_text(r, w, &q->choices[k].text, lang);
		math_text(r, w, &q->choices[k].feedback, lang);
		if (q->type == QB_QTYPE_MATCHING)
			math_text(r, w, qb_choice_match(&q->choices[k]), lang);
	}
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next)
		math_text(r, w, &m->feedback, lang);
	w->p = NULL;
}

/* Every formula of every text the packages show, in r's languages. */
static void math_collect(const qb_render_ctx *r, const qb_bank *bank, math_set *m)
{
	math_walk w = {m, {0}, NULL, false, NULL, false};
	for (size_t l = 0; l < r->nlangs; l++)
		for (size_t i = 0; i < bank->nquestions; i++)
			math_question(r, &w, &bank->questions[i], r->langs[l]);
}

/* True when the item of q in lang shows a formula as MathML. */
static bool item_math(const qb_render_ctx *r, const math_set *m, const qb_question *q,
                      const char *lang)
{
	if (!m || m->missing || !m->n)
		return false;
	math_walk w = {NULL, {0}, NULL, false, m, false};
	math_question(r, &w, q, lang);
	return w.any;
}

/* True when some formula is written as MathML. */
static bool math_any(const math_set *m)
{
	for (size_t i = 0; m && !m->missing && i < m->n; i++)
		if (m->f[i].math)
			return true;
	return false;
}

/* The stylesheet of the items that show MathML: players that rebuild
 * the item's elements as HTML (@citolab/qti-components) lose MathML's
 * namespace and would show the TeX annotation beside the formula. */
#define MATH_CSS "qbc-math.css"
#define MATH_CSS_TEXT "annotation, annotation-xml { display: none; }\n"

/* Runs blahtexml on in (a file) into out (a file); -1 when it cannot
 * be run. */
static int blahtexml_run(FILE *in, FILE *out)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status = 0;
	char a0[] = BLAHTEXML, a1[] = "--xmlin", a2[] = "--mathml-encoding", a3[] = "raw";
	char *argv[] = {a0, a1, a2, a3, NULL};
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	int rc = posix_spawn_file_actions_adddup2(&fa, fileno(in), 0) ||
	         posix_spawn_file_actions_adddup2(&fa, fileno(out), 1) ||
	         posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0) ||
	         posix_spawnp(&pid, BLAHTEXML, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	/* it exits 1 when a formula had an error, and says which in its output */
	return WIFEXITED(status) && WEXITSTATUS(status) <= 1 ? 0 : -1;
}

static int formula_cmp(const void *a, const void *b)
{
	return strcmp(((const formula *)a)->tex, ((const formula *)b)->tex);
}

/* The formulas of r's texts converted to MathML, in one run of
 * blahtexml; m->missing when it could not be run. */
static void math_convert(const qb_render_ctx *r, const qb_bank *bank, math_set *m)
{
	FILE *in = NULL, *out = NULL;
	xmlBufferPtr buf = NULL;
	xmlTextWriterPtr w = NULL;
	math_collect(r, bank, m);
	if (!m->n)
		goto done;
	m->missing = true;
	buf = xmlBufferCreate();
	w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!w)
		goto done;
	int ok = xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) >= 0 &&
	         xmlTextWriterStartElement(w, BAD_CAST "formulas") >= 0 &&
	         xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns:b", BAD_CAST NS_BLAHTEX) >= 0;
	qb_params none = {0}; /* any mark: an identifier of its own */
	none.nvars = SIZE_MAX - 1;
	for (size_t i = 0; ok && i < m->n; i++) {
		qb_buf tex = QB_BUF_INIT;
		unmark(&none, m->f[i].tex, 0, NULL, mark_math, &tex);
		ok = xmlTextWriterStartElement(w, BAD_CAST "f") >= 0 &&
		     xmlTextWriterWriteAttribute(w, BAD_CAST "b:inline", BAD_CAST qb_buf_cstr(&tex)) >= 0 &&
		     xmlTextWriterEndElement(w) >= 0;
		qb_buf_dispose(&tex);
	}
	ok = ok && xmlTextWriterEndDocument(w) >= 0;
	xmlFreeTextWriter(w);
	w = NULL;
	in = ok ? tmpfile() : NULL;
	out = in ? tmpfile() : NULL;
	if (!out || fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), in) !=
	                (size_t)xmlBufferLength(buf) ||
	    fflush(in) != 0 || fseek(in, 0, SEEK_SET) != 0 || blahtexml_run(in, out) != 0)
		goto done;
	qb_buf got = QB_BUF_INIT;
	char chunk[8192];
	size_t k;
	if (fseek(out, 0, SEEK_SET) == 0)
		while ((k = fread(chunk, 1, sizeof chunk, out)) > 0)
			qb_buf_append(&got, chunk, k);
	m->doc = got.len && got.len < INT_MAX
	             ? xmlReadMemory(got.ptr, (int)got.len, NULL, "UTF-8", XML_PARSE_NONET)
	             : NULL;
	qb_buf_dispose(&got);
	xmlNodePtr root = m->doc ? xmlDocGetRootElement(m->doc) : NULL;
	if (!root)
		goto done;
	m->missing = false;
	size_t i = 0;
	for (xmlNodePtr f = root->children; f && i < m->n; f = f->next) {
		if (f->type != XML_ELEMENT_NODE)
			continue;
		for (xmlNodePtr x = f->children; x; x = x->next) {
			if (x->type != XML_ELEMENT_NODE)
				continue;
			if (strcmp((const char *)x->name, "math") == 0) {
				m->f[i].math = x;
			} else if (strcmp((const char *)x->name, "error") == 0) {
				xmlChar *e = xmlNodeGetContent(x);
				m->f[i].error = qb_arena_strdup(&m->arena, e ? (const char *)e : "");
				xmlFree(e);
			}
		}
		i++;
	}
	qsort(m->f, m->n, sizeof *m->f, formula_cmp);
done:
	if (w)
		xmlFreeTextWriter(w);
	if (buf)
		xmlBufferFree(buf);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static void math_dispose(math_set *m)
{
	free(m->f);
	qb_arena_dispose(&m->arena);
	if (m->doc)
		xmlFreeDoc(m->doc);
}

static const formula *math_find(const math_set *m, const char *tex)
{
	if (!m || m->missing || !m->n)
		return NULL;
	formula key = {tex, NULL, {0}, NULL, NULL, false};
	return bsearch(&key, m->f, m->n, sizeof *m->f, formula_cmp);
}

/* Writes n, an element of blahtexml's MathML, and what it holds. */
static void mathml_node(ctx *c, xmlNodePtr n)
{
	for (; n; n = n->next) {
		if (n->type == XML_TEXT_NODE) {
			text(c, (const char *)n->content);
			continue;
		}
		if (n->type != XML_ELEMENT_NODE)
			continue;
		size_t var = SIZE_MAX;
		if (c->t && strcmp((const char *)n->name, "mi") == 0 && n->children &&
		    !n->children->next && n->children->type == XML_TEXT_NODE)
			var = math_var((const char *)n->children->content);
		if (c->t && var <= c->t->p->nvars) {
			/* a placeholder: the identifier of its template variable */
			el_plain(c, "mi");
			text(c, c->t->ident[var]);
			end(c);
			continue;
		}
		el_plain(c, (const char *)n->name);
		for (xmlAttrPtr a = n->properties; a; a = a->next) {
			if (a->ns)
				continue;
			xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
			at_plain(c, (const char *)a->name, v ? (const char *)v : "");
			xmlFree(v);
		}
		mathml_node(c, n->children);
		end(c);
	}
}

/* <math> for the formula tex: the MathML, the TeX as its annotation. */
static void mathml(ctx *c, const formula *f, bool display)
{
	el_plain(c, "math");
	at_plain(c, "xmlns", NS_MATHML);
	if (display)
		at_plain(c, "display", "block");
	el_plain(c, "semantics");
	size_t kids = 0;
	for (xmlNodePtr k = f->math->children; k; k = k->next)
		kids += k->type == XML_ELEMENT_NODE;
	if (kids != 1)
		el_plain(c, "mrow");
	mathml_node(c, f->math->children);
	if (kids != 1)
		end(c);
	el_plain(c, "annotation");
	at_plain(c, "encoding", "application/x-tex");
	text(c, f->shown);
	end(c);
	end(c);
	end(c);
}

/* A <span class="math inline|display"> of the render layer (markup.c:
 * \(TeX\) or \[TeX\]) written as MathML; false when it has none. */
static bool math_span(ctx *c, xmlNodePtr n)
{
	xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
	bool is_math = cls && strncmp((const char *)cls, "math ", 5) == 0;
	bool display = is_math && strcmp((const char *)cls, "math display") == 0;
	xmlFree(cls);
	if (!is_math || !c->math)
		return false;
	xmlChar *content = xmlNodeGetContent(n);
	const char *s = content ? (const char *)content : "";
	size_t len = strlen(s);
	const formula *f = NULL;
	if (len >= 4 && s[0] == '\\' && (s[1] == '(' || s[1] == '[')) {
		char *tex = qb_xstrndup(s + 2, len - 4);
		f = math_find(c->math, tex);
		free(tex);
	}
	if (f && f->math)
		mathml(c, f, display);
	xmlFree(content);
	return f && f->math;
}

/* The format's rules for formulas: blahtexml must be there, and read
 * each; else the formula stays TeX (a warning, at its text). */
static void check_math(const qb_render_ctx *r, const qb_bank *bank)
{
	math_set m = {0};
	math_convert(r, bank, &m);
	if (m.n && m.missing)
		qb_diag_warning(m.f[0].loc,
		                "formulas are written as TeX in QTI, which players do not typeset: "
		                "install blahtexml (Debian's package blahtexml), which converts "
		                "them to MathML");
	for (size_t i = 0; !m.missing && i < m.n; i++)
		if (!m.f[i].math && !m.f[i].quiet)
			qb_diag_warning(m.f[i].loc,
			                "blahtexml cannot convert the formula '%s' to MathML ('%s'): QTI "
			                "players will show its TeX",
			                m.f[i].shown, m.f[i].error ? m.f[i].error : "");
	math_dispose(&m);
}

void qb_check_qti21(const qb_render_ctx *r, const qb_bank *bank)
{
	check_math(r, bank);
}

void qb_check_qti30(const qb_render_ctx *r, const qb_bank *bank)
{
	check_math(r, bank);
}

/* ---- HTML ---- */

/* The elements of QTI's content model that md4c writes, in both
 * versions; others are written as their content. */
static bool html_known(const char *n)
{
	static const char *const known[] = {
		"p",  "div", "span", "em",    "strong", "b",     "i",     "code",  "pre",   "ul",
		"ol", "li",  "a",    "img",   "br",     "hr",    "table", "thead", "tbody", "tfoot",
		"tr", "th",  "td",   "sub",   "sup",    "h1",    "h2",    "h3",    "h4",    "h5",
		"h6", "blockquote",  "caption", "dl",   "dt",    "dd",    "q",     "small", NULL};
	for (size_t i = 0; known[i]; i++)
		if (strcmp(known[i], n) == 0)
			return true;
	return false;
}

static bool attr_known(const char *el_name, const char *a, bool v3)
{
	if (strcmp(a, "class") == 0)
		return true;
	if (strcmp(a, "dir") == 0)
		return v3;
	if (strcmp(el_name, "a") == 0)
		return strcmp(a, "href") == 0;
	if (strcmp(el_name, "img") == 0)
		return strcmp(a, "src") == 0 || strcmp(a, "alt") == 0 || strcmp(a, "width") == 0 ||
		       strcmp(a, "height") == 0;
	if (strcmp(el_name, "td") == 0 || strcmp(el_name, "th") == 0) /* align: both versions */
		return strcmp(a, "colspan") == 0 || strcmp(a, "rowspan") == 0 || strcmp(a, "align") == 0;
	return false;
}

static const char *audio_type(const char *src)
{
	static const char *const types[][2] = {
		{".mp3", "audio/mpeg"}, {".ogg", "audio/ogg"}, {".oga", "audio/ogg"},
		{".opus", "audio/ogg"}, {".wav", "audio/wav"}, {".m4a", "audio/mp4"},
		{".aac", "audio/aac"},  {".flac", "audio/flac"}, {".webm", "audio/webm"}};
	const char *dot = strrchr(src, '.');
	for (size_t i = 0; dot && i < QB_NELEM(types); i++)
		if (strcmp(dot, types[i][0]) == 0)
			return types[i][1];
	return "application/octet-stream";
}

static void write_gap(ctx *c, size_t g);

/* The private-use character that marks a cloze gap in the rendered
 * prompt: U+E000, the gap's number, U+E000. */
#define GAP_MARK "\xEE\x80\x80"

/* Writes a text node: cloze gap marks become their interactions, a
 * placeholder's mark its printed variable. */
static void html_text(ctx *c, const char *s)
{
	for (;;) {
		const char *g = c->gaps ? strstr(s, GAP_MARK) : NULL;
		const char *v = c->t ? strstr(s, VAR_MARK) : NULL;
		const char *p = g && (!v || g < v) ? g : v, *after;
		char *endp = NULL;
		size_t var = 0;
		unsigned long gap = 0;
		if (!p)
			break;
		if (p == g) {
			gap = strtoul(p + 3, &endp, 10);
			after = strncmp(endp, GAP_MARK, 3) == 0 ? endp + 3 : NULL;
		} else {
			after = var_mark(p, &var);
			if (after && var > c->t->p->nvars)
				after = NULL;
		}
		if (!after)
			break;
		qb_buf before = QB_BUF_INIT;
		qb_buf_append(&before, s, (size_t)(p - s));
		text(c, qb_buf_cstr(&before));
		qb_buf_dispose(&before);
		if (p == g)
			write_gap(c, gap);
		else
			leaf(c, true, "printedVariable", "identifier", c->t->ident[var]);
		s = after;
	}
	text(c, s);
}

static void html_nodes(ctx *c, xmlNodePtr n);

static void html_element(ctx *c, xmlNodePtr n)
{
	const char *name = (const char *)n->name;
	if (strcmp(name, "span") == 0 && math_span(c, n))
		return;
	if (strcmp(name, "audio") == 0) {
		xmlChar *src = xmlGetProp(n, BAD_CAST "src");
		el_plain(c, c->v3 ? "audio" : "object");
		if (c->v3) {
			at_plain(c, "controls", "true"); /* xs:boolean in 3.0 */
			at_plain(c, "src", src ? (const char *)src : "");
		} else {
			at_plain(c, "data", src ? (const char *)src : "");
			at_plain(c, "type", audio_type(src ? (const char *)src : ""));
		}
		xmlFree(src);
		html_nodes(c, n->children);
		end(c);
		return;
	}
	if (!html_known(name)) {
		html_nodes(c, n->children);
		return;
	}
	el_plain(c, name);
	bool alt = false;
	for (xmlAttrPtr a = n->properties; a; a = a->next) {
		if (!attr_known(name, (const char *)a->name, c->v3))
			continue;
		xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
		qb_buf value = QB_BUF_INIT; /* a placeholder: draw 0's value */
		if (c->t)
			unmark(c->t->p, v ? (const char *)v : "", 0, c->t->mark, mark_value, &value);
		else
			qb_buf_puts(&value, v ? (const char *)v : "");
		at_plain(c, (const char *)a->name, qb_buf_cstr(&value));
		qb_buf_dispose(&value);
		xmlFree(v);
		alt |= strcmp((const char *)a->name, "alt") == 0;
	}
	if (strcmp(name, "img") == 0 && !alt)
		at_plain(c, "alt", "");
	html_nodes(c, n->children);
	end(c);
}

static void html_nodes(ctx *c, xmlNodePtr n)
{
	for (; n; n = n->next) {
		if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE)
			html_text(c, (const char *)n->content);
		else if (n->type == XML_ELEMENT_NODE)
			html_element(c, n);
	}
}

/* The first <div> of a parsed document: the wrapper put_html() added. */
static xmlNodePtr first_div(xmlNodePtr n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)n->name, "div") == 0)
			return n;
		xmlNodePtr d = first_div(n->children);
		if (d)
			return d;
	}
	return NULL;
}

/* Writes html (from the render layer) as XML elements and text. */
static void put_html(ctx *c, const char *html)
{
	qb_buf doc = QB_BUF_INIT;
	qb_buf_puts(&doc, "<!DOCTYPE html><html><body><div>");
	qb_buf_puts(&doc, html);
	qb_buf_puts(&doc, "</div></body></html>");
	htmlDocPtr d = htmlReadMemory(doc.ptr, (int)doc.len, NULL, "UTF-8",
	                              HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	xmlNodePtr div = d ? first_div(xmlDocGetRootElement(d)) : NULL;
	if (div)
		html_nodes(c, div->children);
	else
		c->failed = true;
	if (d)
		xmlFreeDoc(d);
	qb_buf_dispose(&doc);
}

/* qb_markup_images callback: notes a picture or sound of the item. */
static void note_media(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(offset);
	ctx *c = payload;
	if (c->cur)
		qb_media_note(&c->media, src, &c->cur->media, &c->cur->nmedia);
}

/* Writes the Markdown md as HTML content, noting its media. */
static void put_md(ctx *c, const char *md)
{
	qb_buf html = QB_BUF_INIT;
	qb_markup_images(md, note_media, c);
	if (qb_render_html(c->r, &html, md, &c->media) != 0)
		c->failed = true;
	put_html(c, qb_buf_cstr(&html));
	qb_buf_dispose(&html);
}

/* Writes t in the item's language (else the bank's default), its
 * placeholders as printed variables. */
static void put_text(ctx *c, const qb_text *t, const char *lang)
{
	const char *md = qb_render_md(c->r, t, lang);
	if (!c->t || c->t->quiet) {
		put_md(c, md);
		return;
	}
	qb_buf marked = QB_BUF_INIT;
	mark_vars(c->t->p, md, strlen(md), &marked);
	put_md(c, qb_buf_cstr(&marked));
	qb_buf_dispose(&marked);
}

/* Writes an option's text: a parameterised question's in a <span>, as
 * players lay a choice's content out in a row (a flex box), where the
 * space between a printed variable and the word after it ("{left}
 * litres") is dropped unless they share one element. */
static void put_option(ctx *c, const qb_text *t, const char *lang)
{
	if (c->t) {
		el_plain(c, "span");
		at_plain(c, "class", "qbc-option");
	}
	put_text(c, t, lang);
	if (c->t)
		end(c);
}

static void put_plain(ctx *c, const char *md)
{
	qb_buf plain = QB_BUF_INIT;
	qb_render_plain(&plain, md);
	text(c, qb_buf_cstr(&plain));
	qb_buf_dispose(&plain);
}

/* <itemBody>, after the item's stylesheet when it shows MathML. */
static char *stimulus_ident(const qb_passage *p, const char *lang);

/* The item body's start: QTI 3.0's reference to the passage's shared
 * stimulus, the stylesheet, <itemBody> and the passage itself (a player
 * that loads no stimulus, and QTI 2.1, which has none, show it there). */
static void item_body(ctx *c, const qb_question *q, const char *lang)
{
	const qb_passage *passage = qb_question_passage(c->bank, q);
	tpl_write(c);
	if (passage && c->v3) {
		char *ident = stimulus_ident(passage, lang), *file = qb_xasprintf("%s.xml", ident);
		el(c, "assessmentStimulusRef");
		at(c, "identifier", ident);
		at(c, "href", file);
		at(c, "title", passage->id);
		end(c);
		free(ident);
		free(file);
	}
	if (c->item_math) {
		el(c, "stylesheet");
		at(c, "href", MATH_CSS);
		at(c, "type", "text/css");
		end(c);
	}
	el(c, "itemBody");
	if (passage) {
		el_plain(c, "div");
		at_plain(c, "class", "qbc-passage");
		if (c->t) /* the bank's text, not the question's */
			c->t->quiet = true;
		put_text(c, &passage->text, lang);
		if (c->t)
			c->t->quiet = false;
		end(c);
	}
}

/* <div class="qbc-prompt">: the prompt. */
static void prompt(ctx *c, const qb_question *q, const char *lang)
{
	el_plain(c, "div");
	at_plain(c, "class", "qbc-prompt");
	put_text(c, &q->prompt, lang);
	end(c);
}

/* Ends the response declaration, declares the outcomes, starts the
 * item body with the prompt and the interaction (RESPONSE, shuffled as
 * q is).  Returns whether it is shuffled. */
static bool start_body(ctx *c, const qb_question *q, const char *lang, const char *interaction)
{
	end(c);
	outcome_decls(c, q);
	item_body(c, q, lang);
	prompt(c, q, lang);
	el(c, interaction);
	at(c, "responseIdentifier", "RESPONSE");
	bool shuffle = qb_question_shuffles(c->bank, q);
	at(c, "shuffle", shuffle ? "true" : "false");
	return shuffle;
}

/* Ends the response declaration, declares the outcomes and writes the
 * item body: the prompt, then a paragraph with the text entry (RESPONSE)
 * and the unit when there is one. */
static void text_entry_body(ctx *c, const qb_question *q, const char *lang, const char *unit)
{
	end(c);
	outcome_decls(c, q);
	item_body(c, q, lang);
	prompt(c, q, lang);
	el_plain(c, "p");
	leaf(c, true, "textEntryInteraction", "responseIdentifier", "RESPONSE");
	if (unit) {
		text(c, " ");
		text(c, unit);
	}
	end(c);
	end(c);
}

/* ---- one function per type ---- */

static void choice_id(char *s, size_t n, size_t i)
{
	snprintf(s, n, "C%zu", i + 1);
}

/* single, multiple, true-false: choiceInteraction. */
static void write_choice(ctx *c, const qb_question *q, const char *lang)
{
	bool tf = q->type == QB_QTYPE_TRUE_FALSE, multi = q->type == QB_QTYPE_MULTIPLE;
	bool partial = multi && qb_question_scoring(c->bank, q) == QB_SCORING_PARTIAL;
	bool marks = qb_question_has_marks(q); /* issue 36: each option's share */
	size_t ncorrect = qb_question_ncorrect(q);
	char id[32];
	partial = partial || marks;
	response_decl(c, "RESPONSE", multi ? "multiple" : "single", "identifier");
	const char **right = qb_xcalloc(q->nchoices + 1, sizeof *right);
	char (*ids)[32] = qb_xcalloc(q->nchoices + 1, sizeof *ids);
	size_t nright = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		choice_id(ids[i], sizeof ids[i], i);
		if (q->choices[i].correct)
			right[nright++] = ids[i];
	}
	correct_response(c, right, nright);
	if (partial) {
		mapping(c, 0, 1);
		for (size_t i = 0; i < q->nchoices; i++)
			map_entry(c, ids[i],
			          marks ? qb_share_value(qb_choice_share(c->bank, q, i))
			                : (q->choices[i].correct ? 1.0 : -1.0) / (double)ncorrect,
			          -1);
		end(c);
	}
	bool shuffle = start_body(c, q, lang, "choiceInteraction");
	at(c, "maxChoices", multi ? "0" : "1");
	for (size_t i = 0; i < q->nchoices; i++) {
		el(c, "simpleChoice");
		at(c, "identifier", ids[i]);
		if (shuffle && q->choices[i].pinned)
			at(c, "fixed", "true");
		if (tf)
			text(c, qb_render_label(c->r, lang, i == 0 ? "true" : "false"));
		else
			put_option(c, &q->choices[i].text, lang);
		end(c);
	}
	end(c);
	end(c);
	el(c, "responseProcessing");
	score_response(c, partial);
	for (size_t i = 0; i < q->nchoices; i++) {
		if (!q->choices[i].feedback.present)
			continue;
		snprintf(id, sizeof id, "F%zu", i + 1);
		feedback_if_chosen(c, multi, ids[i], id);
	}
	feedback_end(c, q);
	end(c);
	free(right);
	free(ids);
}

/* Adds the form of s that qb_answer_normalise() compares to keys (heap
 * strings), unless it is empty or there already.  Returns it, or NULL. */
static const char *distinct_key(char ***keys, size_t *n, const char *s, bool case_sensitive)
{
	char *key = qb_answer_normalise(s, case_sensitive);
	for (size_t k = 0; k < *n; k++)
		if (strcmp((*keys)[k], key) == 0)
			*key = '\0';
	if (!*key) {
		free(key);
		return NULL;
	}
	*keys = qb_xrealloc(*keys, (*n + 1) * sizeof **keys);
	(*keys)[(*n)++] = key;
	return key;
}

static void free_keys(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* The accepted (right) or listed wrong answers of a short-answer
 * question in lang, distinct as qb_answer_normalise() compares them
 * (*out, heap strings: as they are mapped, since the mapping ignores case
 * when the question does), each with its option (*from). */
static size_t short_answers(ctx *c, const qb_question *q, const char *lang, bool right,
                            char ***out, const qb_choice ***from)
{
	size_t n = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		if (ch->correct != right ||
		    !distinct_key(out, &n, qb_render_md(c->r, &ch->text, lang), q->case_sensitive))
			continue;
		*from = qb_xrealloc(*from, n * sizeof **from);
		(*from)[n - 1] = ch;
	}
	return n;
}

/* short-answer: textEntryInteraction, a mapping of the accepted answers
 * (caseSensitive as the question); feedback per listed answer. */
static void write_short(ctx *c, const qb_question *q, const char *lang)
{
	char **ok = NULL, **bad = NULL;
	const qb_choice **ok_from = NULL, **bad_from = NULL;
	size_t nok = short_answers(c, q, lang, true, &ok, &ok_from);
	size_t nbad = short_answers(c, q, lang, false, &bad, &bad_from);
	response_decl(c, "RESPONSE", "single", "string");
	correct_response(c, (const char *const *)ok, nok ? 1 : 0);
	mapping(c, 0, 1);
	for (size_t i = 0; i < nok; i++)
		map_entry(c, ok[i], 1, q->case_sensitive);
	end(c);
	text_entry_body(c, q, lang, NULL);
	el(c, "responseProcessing");
	score_mapped(c, "RESPONSE");
	for (int pass = 0; pass < 2; pass++) {
		size_t n = pass ? nbad : nok;
		char **a = pass ? bad : ok;
		const qb_choice **from = pass ? bad_from : ok_from;
		for (size_t i = 0; i < n; i++) {
			size_t k = (size_t)(from[i] - q->choices);
			if (!from[i]->feedback.present)
				continue;
			char fb[32];
			snprintf(fb, sizeof fb, "F%zu", k + 1);
			response_if(c);
			el(c, "stringMatch");
			at(c, "caseSensitive", q->case_sensitive ? "true" : "false");
			variable(c, "RESPONSE");
			base_value(c, "string", a[i]);
			end(c);
			add_feedback(c, fb);
			end(c);
			end(c);
		}
	}
	feedback_end(c, q);
	end(c);
	free_keys(ok, nok);
	free_keys(bad, nbad);
	free(ok_from);
	free(bad_from);
}

/* A number of the bank as the decimal its author's digits make: v
 * rounded to 15 significant digits, in the fewest digits that say it,
 * without an exponent when one is not needed.  A bound worked out in
 * binary floating point (83.6 + 1% is 84.43599999999999, 0.7 + 0.1 is
 * 0.7999999999999999) is a few units off in its 17th digit, and a bank's
 * numbers have fewer than 15 digits: rounding to 15 gives back the exact
 * decimal (84.436, 0.8), which a player reads as it reads the learner's
 * typing of it, so an end of the interval scores. */
static void put_decimal(char *s, size_t n, double v)
{
	char r[40];
	snprintf(r, sizeof r, "%.15g", v);
	double want = strtod(r, NULL);
	/* the fewest digits that say want: its 15 significant digits less
	 * their trailing zeros (distinct decimals of 15 digits are distinct
	 * doubles), counted once rather than tried one by one, as a
	 * parameterised question's pool writes thousands of bounds */
	snprintf(r, sizeof r, "%.14e", want);
	const char *e = strchr(r, 'e');
	int prec = 15;
	for (const char *d = e ? e - 1 : r; prec > 1 && *d == '0'; d--)
		prec--;
	snprintf(s, n, "%.*g", prec, want);
	if (!strchr(s, 'e'))
		return;
	for (int dec = 1; dec <= 340; dec++) { /* 1e-7: 0.0000001 */
		snprintf(r, sizeof r, "%.*f", dec, want);
		if (strtod(r, NULL) == want && strlen(r) < 32) {
			snprintf(s, n, "%s", r);
			return;
		}
		if (strlen(r) >= 32)
			return;
	}
}

static void base_decimal(ctx *c, double v)
{
	char s[40];
	put_decimal(s, sizeof s, v);
	base_value(c, "float", s);
}

/* The bounds of an accepted interval: the numbers, or the template
 * variables that hold the attempt's draw's (NULL: the numbers). */
typedef struct bounds {
	double lo, hi;
	const char *lo_var, *hi_var;
} bounds;

/* The response rid in b's closed interval (an expression). */
static void in_interval(ctx *c, const char *rid, const bounds *b)
{
	el(c, "and");
	el(c, "gte");
	variable(c, rid);
	if (b->lo_var)
		variable(c, b->lo_var);
	else
		base_decimal(c, b->lo);
	end(c);
	el(c, "lte");
	variable(c, rid);
	if (b->hi_var)
		variable(c, b->hi_var);
	else
		base_decimal(c, b->hi);
	end(c);
	end(c);
}

/* The bounds of the interval num(q) of each draw, template variables
 * <prefix>lo<suffix> and <prefix>hi<suffix> when they change; the
 * correct response of rid set to each draw's value unless rid is NULL. */
typedef qb_numeric (*num_of_fn)(ctx *c, const qb_question *q, size_t k, const void *arg);

/* The correct response of draw k whose accepted number is num: '{answer}'
 * as the texts show it (2.02 for 2.0192...) when it is accepted, else the
 * number. */
static double shown_answer(const ctx *c, size_t k, const qb_numeric *num)
{
	char s[64];
	if (!c->t || !c->t->p->answer.formula)
		return num->value;
	double v = strtod(qb_params_value_text(c->t->p, k, c->t->p->nvars, ".", s, sizeof s), NULL);
	return v >= num->lo && v <= num->hi ? v : num->value;
}

static bounds draw_bounds(ctx *c, const qb_question *q, num_of_fn num_of, const void *arg,
                          const char *suffix, const char *rid)
{
	size_t n = ndraws(c);
	double *lo = qb_xcalloc(n, sizeof *lo), *hi = qb_xcalloc(n, sizeof *hi);
	double *v = qb_xcalloc(n, sizeof *v);
	for (size_t k = 0; k < n; k++) {
		qb_numeric num = num_of(c, q, k, arg);
		lo[k] = num.lo;
		hi[k] = num.hi;
		v[k] = rid ? shown_answer(c, k, &num) : num.value;
	}
	char id[48];
	bounds b = {lo[0], hi[0], NULL, NULL};
	snprintf(id, sizeof id, "qbc-lo%s", suffix);
	b.lo_var = tpl_float_add(c, id, lo, false);
	snprintf(id, sizeof id, "qbc-hi%s", suffix);
	b.hi_var = tpl_float_add(c, id, hi, false);
	if (rid)
		tpl_float_add(c, rid, v, true);
	free(lo);
	free(hi);
	free(v);
	return b;
}

/* The accepted number of q in draw k: its answer formula's. */
static qb_numeric answer_of(ctx *c, const qb_question *q, size_t k, const void *arg)
{
	QB_UNUSED(arg);
	qb_numeric num = *qb_question_num(q);
	if (c->t && c->t->p->answer.formula)
		qb_params_answer_at(c->t->p, k, &num);
	return num;
}

/* Further answer *(size_t *)arg (by credit from the highest): the same
 * in every draw. */
static qb_numeric more_of(ctx *c, const qb_question *q, size_t k, const void *arg)
{
	QB_UNUSED(c);
	QB_UNUSED(k);
	size_t n;
	const qb_num_more **more = qb_question_num_more_by_credit(q, &n);
	qb_numeric num = *(const size_t *)arg < n ? more[*(const size_t *)arg]->num
	                                          : *qb_question_num(q);
	free(more);
	return num;
}

/* numeric: textEntryInteraction of base type float; right in the closed
 * interval the model accepts (value +- tolerance, or the range), written
 * as its two bounds in decimal (put_decimal()): both ends score.  The
 * correct response is the value as written, or a range's middle (36.65
 * for 36.1..37.2), in decimal too. */
static void write_numeric(ctx *c, const qb_question *q, const char *lang)
{
	qb_numeric num = answer_of(c, q, 0, NULL);
	char v[40];
	put_decimal(v, sizeof v, shown_answer(c, 0, &num));
	response_decl(c, "RESPONSE", "single", "float");
	const char *vals[] = {v};
	correct_response(c, vals, 1);
	/* a parameterised question: each draw's interval and value */
	bounds b = draw_bounds(c, q, answer_of, NULL, "", "RESPONSE");
	size_t n;
	const qb_num_more **more = qb_question_num_more_by_credit(q, &n);
	bounds *mb = qb_xcalloc(n + 1, sizeof *mb);
	for (size_t i = 0; i < n; i++) {
		char suffix[32];
		snprintf(suffix, sizeof suffix, "-n%zu", i + 1);
		mb[i] = draw_bounds(c, q, more_of, &i, suffix, NULL);
	}
	text_entry_body(c, q, lang, qb_question_rare(q)->unit);
	el(c, "responseProcessing");
	response_if(c);
	in_interval(c, "RESPONSE", &b);
	if (!n) {
		then_score_one(c);
	} else {
		/* further answers: the best that holds the number gives its
		 * credit (by credit from the highest: the first branch taken) */
		set_outcome(c, "SCORE");
		base_float(c, 1);
		end(c);
		end(c);
		for (size_t i = 0; i < n; i++) {
			el(c, "responseElseIf");
			in_interval(c, "RESPONSE", &mb[i]);
			set_outcome(c, "SCORE");
			base_float(c, more[i]->credit / 100);
			end(c);
			if (more[i]->feedback.present) {
				size_t k = 1;
				for (const qb_num_more *m = qb_question_num_more(q); m != more[i]; m = m->next)
					k++;
				char id[32];
				snprintf(id, sizeof id, "N%zu", k);
				add_feedback(c, id);
			}
			end(c);
		}
		end(c);
	}
	free(more);
	free(mb);
	feedback_end(c, q);
	end(c);
}

/* matching: matchInteraction, the left sides (L<n>) against every right
 * side (R<n>, distractors too); partial: right pairs / pairs. */
static void write_matching(ctx *c, const qb_question *q, const char *lang)
{
	bool partial = qb_question_scoring(c->bank, q) == QB_SCORING_PARTIAL;
	size_t npairs = 0;
	char (*pairs)[48] = qb_xcalloc(q->nchoices + 1, sizeof *pairs);
	const char **vals = qb_xcalloc(q->nchoices + 1, sizeof *vals);
	for (size_t i = 0; i < q->nchoices; i++) {
		if (!q->choices[i].text.present)
			continue;
		snprintf(pairs[npairs], sizeof pairs[npairs], "L%zu R%zu", i + 1, i + 1);
		vals[npairs] = pairs[npairs];
		npairs++;
	}
	response_decl(c, "RESPONSE", "multiple", "directedPair");
	correct_response(c, vals, npairs);
	if (partial) {
		mapping(c, 0, 1);
		for (size_t i = 0; i < npairs; i++)
			map_entry(c, pairs[i], 1.0 / (double)npairs, -1);
		end(c);
	}
	bool shuffle = start_body(c, q, lang, "matchInteraction");
	char n[32];
	snprintf(n, sizeof n, "%zu", npairs);
	at(c, "maxAssociations", n);
	for (int side = 0; side < 2; side++) {
		el(c, "simpleMatchSet");
		for (size_t i = 0; i < q->nchoices; i++) {
			const qb_choice *ch = &q->choices[i];
			const qb_text *t = side ? qb_choice_match(ch) : &ch->text;
			if (!t->present)
				continue;
			char id[32];
			snprintf(id, sizeof id, "%c%zu", side ? 'R' : 'L', i + 1);
			el(c, "simpleAssociableChoice");
			at(c, "identifier", id);
			at(c, "matchMax", "1");
			if (shuffle && ch->pinned)
				at(c, "fixed", "true");
			put_option(c, t, lang);
			end(c);
		}
		end(c);
	}
	end(c);
	end(c);
	el(c, "responseProcessing");
	score_response(c, partial);
	feedback_end(c, q);
	end(c);
	free(pairs);
	free(vals);
}

/* The gaps of a split cloze text, in order. */
static size_t cloze_gaps(const qb_cloze_part *parts, size_t nparts, const qb_cloze_gap ***out)
{
	size_t n = 0;
	for (size_t i = 0; i < nparts; i++) {
		if (!parts[i].gap)
			continue;
		*out = qb_xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = parts[i].gap;
	}
	return n;
}

/* Writes gap number g (from 0) of the cloze being written: an inline
 * choice or a text entry. */
static void write_gap(ctx *c, size_t g)
{
	const qb_cloze_gap **gaps = NULL;
	size_t ngaps = cloze_gaps(c->gaps, c->ngaps_parts, &gaps);
	if (g >= ngaps) {
		free(gaps);
		return;
	}
	const qb_cloze_gap *gap = gaps[g];
	char rid[32];
	snprintf(rid, sizeof rid, "RESPONSE_%zu", g + 1);
	el(c, gap->choice ? "inlineChoiceInteraction" : "textEntryInteraction");
	at(c, "responseIdentifier", rid);
	if (gap->choice) {
		at(c, "shuffle", "false");
		for (size_t k = 0; k < gap->nanswers; k++) {
			char id[48];
			snprintf(id, sizeof id, "G%zu_%zu", g + 1, k + 1);
			el(c, "inlineChoice");
			at(c, "identifier", id);
			put_plain(c, gap->answers[k]);
			end(c);
		}
	}
	end(c);
	free(gaps);
}

/* A numeric gap's outcome, GAP_<g>: 1 when its response (a float) is
 * within the accepted bounds, as write_numeric() checks a numeric
 * question, else 0.  Its declaration: */
static void numeric_gap_decl(ctx *c, size_t g)
{
	char id[32];
	snprintf(id, sizeof id, "GAP_%zu", g + 1);
	float_outcome(c, id);
	el(c, "defaultValue");
	el(c, "value");
	text(c, "0");
	end(c);
	end(c);
	end(c);
}

/* Its rule, before the score's. */
static void numeric_gap_rule(ctx *c, size_t g, const bounds *b)
{
	char rid[32], id[32];
	snprintf(rid, sizeof rid, "RESPONSE_%zu", g + 1);
	snprintf(id, sizeof id, "GAP_%zu", g + 1);
	response_if(c);
	in_interval(c, rid, b);
	set_outcome(c, id);
	base_float(c, 1);
	end(c);
	end(c);
	end(c);
}

/* Gap g's score, 0 or 1: its outcome (numeric) or its mapped response. */
static void gap_score(ctx *c, size_t g, const qb_cloze_gap *gap)
{
	char id[32];
	snprintf(id, sizeof id, gap->num ? "GAP_%zu" : "RESPONSE_%zu", g + 1);
	if (gap->num)
		variable(c, id);
	else
		map_response(c, id);
}

/* A number gap's accepted number in draw k: gap arg->g of the draw's
 * prompt, read with a decimal point (an item written as its first draw:
 * of gap_src). */
typedef struct gap_of_arg {
	const char *lang;
	size_t g;
	qb_arena *arena;
} gap_of_arg;

static qb_numeric gap_of(ctx *c, const qb_question *q, size_t k, const void *arg)
{
	const gap_of_arg *a = arg;
	const qb_question *d = c->t ? tpl_dot(c, k) : c->gap_src ? c->gap_src : q;
	qb_cloze_part *parts = NULL;
	size_t nparts = 0;
	qb_cloze_split(a->arena, qb_render_md(c->r, &d->prompt, a->lang), &parts, &nparts);
	for (size_t i = 0, g = 0; i < nparts; i++)
		if (parts[i].gap && g++ == a->g && parts[i].gap->num)
			return *parts[i].gap->num;
	return (qb_numeric){0}; /* tpl_fits() saw a number gap in every draw */
}

/* cloze: one text entry or inline choice per gap, in the prompt; a
 * mapping per gap (1 for a right answer), or for a numeric gap a float
 * entry and a range check; partial: right gaps / gaps. */

static void write_cloze(ctx *c, const qb_question *q, const char *lang)
{
	bool partial = qb_question_scoring(c->bank, q) == QB_SCORING_PARTIAL;
	qb_cloze_part *parts = NULL, *gparts = NULL;
	size_t nparts = 0, ngparts = 0;
	qb_arena arena = QB_ARENA_INIT;
	const char *md = qb_render_md(c->r, &q->prompt, lang);
	/* the texts between the gaps: a parameterised question's as written,
	 * its placeholders marked (before the split: '{{#{f}}}' is one gap) */
	qb_buf src = QB_BUF_INIT;
	mark_vars(c->t ? c->t->p : NULL, md, strlen(md), &src);
	qb_cloze_split(&arena, qb_buf_cstr(&src), &parts, &nparts);
	/* the gaps: its first draw's, a number gap's read with a decimal
	 * point (gap_src: an item written as its first draw), the others' as
	 * the language writes them */
	const qb_question *gq = c->t ? tpl_dot(c, 0) : c->gap_src;
	gparts = parts;
	ngparts = nparts;
	if (gq) {
		qb_cloze_part *lparts = NULL;
		size_t nlparts = 0;
		qb_cloze_split(&arena, qb_render_md(c->r, &gq->prompt, lang), &gparts, &ngparts);
		qb_cloze_split(&arena, qb_render_md(c->r, &(c->t ? tpl_draw(c, 0) : q)->prompt, lang),
		               &lparts, &nlparts);
		for (size_t i = 0; i < ngparts && nlparts == ngparts; i++)
			if (gparts[i].gap && !gparts[i].gap->num && lparts[i].gap)
				gparts[i].gap = lparts[i].gap;
	}
	const qb_cloze_gap **gaps = NULL;
	size_t ngaps = cloze_gaps(gparts, ngparts, &gaps);
	bounds *gb = qb_xcalloc(ngaps + 1, sizeof *gb);
	for (size_t g = 0; g < ngaps; g++) {
		const qb_cloze_gap *gap = gaps[g];
		char rid[32], right[48];
		snprintf(rid, sizeof rid, "RESPONSE_%zu", g + 1);
		if (gap->num) {
			char v[40], suffix[32];
			put_decimal(v, sizeof v, gap->num->value);
			response_decl(c, rid, "single", "float");
			const char *nv[] = {v};
			correct_response(c, nv, 1);
			end(c);
			gap_of_arg a = {lang, g, &arena};
			snprintf(suffix, sizeof suffix, "-g%zu", g + 1);
			gb[g] = draw_bounds(c, q, gap_of, &a, suffix, rid);
			continue;
		}
		response_decl(c, rid, "single", gap->choice ? "identifier" : "string");
		if (gap->choice)
			snprintf(right, sizeof right, "G%zu_%zu", g + 1, gap->right + 1);
		const char *vals[] = {gap->choice ? right : gap->nanswers ? gap->answers[0] : ""};
		correct_response(c, vals, 1);
		mapping(c, 0, 1);
		if (gap->choice) {
			map_entry(c, right, 1, -1);
		} else {
			char **seen = NULL;
			size_t nseen = 0;
			for (size_t k = 0; k < gap->nanswers; k++) {
				const char *key = distinct_key(&seen, &nseen, gap->answers[k], q->case_sensitive);
				if (key)
					map_entry(c, key, 1, q->case_sensitive);
			}
			free_keys(seen, nseen);
		}
		end(c);
		end(c);
	}
	outcome_decls(c, q);
	for (size_t g = 0; g < ngaps; g++)
		if (gaps[g]->num)
			numeric_gap_decl(c, g);
	/* the prompt with a mark for each gap, rendered whole, so that
	 * Markdown spans across gaps; html_text() writes the gaps */
	qb_buf marked = QB_BUF_INIT;
	for (size_t i = 0, g = 0; i < nparts; i++) {
		if (parts[i].gap)
			qb_buf_appendf(&marked, GAP_MARK "%zu" GAP_MARK, g++);
		else
			qb_buf_append(&marked, parts[i].text, parts[i].len);
	}
	item_body(c, q, lang);
	el_plain(c, "div");
	at_plain(c, "class", "qbc-prompt");
	c->gaps = gparts;
	c->ngaps_parts = ngparts;
	put_md(c, qb_buf_cstr(&marked));
	c->gaps = NULL;
	end(c);
	end(c);
	el(c, "responseProcessing");
	for (size_t g = 0; g < ngaps; g++)
		if (gaps[g]->num)
			numeric_gap_rule(c, g, &gb[g]);
	set_outcome(c, "SCORE");
	if (partial) {
		el(c, "divide");
		el(c, "sum");
		for (size_t g = 0; g < ngaps; g++)
			gap_score(c, g, gaps[g]);
		end(c);
		base_float(c, (double)(ngaps ? ngaps : 1));
		end(c);
		end(c);
	} else {
		base_float(c, 0);
		end(c);
		response_if(c);
		el(c, "and");
		for (size_t g = 0; g < ngaps; g++) {
			el(c, "gte");
			gap_score(c, g, gaps[g]);
			base_float(c, 1);
			end(c);
		}
		end(c);
		then_score_one(c);
	}
	feedback_end(c, q);
	end(c);
	qb_buf_dispose(&marked);
	qb_buf_dispose(&src);
	free(gaps);
	free(gb);
	qb_arena_dispose(&arena);
}

/* <modalFeedback> showing t when FEEDBACK holds id. */
static void modal_feedback(ctx *c, const char *id, const qb_text *t, const char *lang,
                           const char *title)
{
	char out[48];
	snprintf(out, sizeof out, "FB_%s", id);
	el(c, "modalFeedback");
	at(c, "outcomeIdentifier", out);
	at(c, "showHide", "show");
	at(c, "identifier", id);
	if (title)
		at(c, "title", title);
	if (c->v3)
		el(c, "contentBody");
	el_plain(c, "div");
	put_text(c, t, lang);
	end(c);
	if (c->v3)
		end(c);
	end(c);
}

static const char *interaction_of(const qb_question *q)
{
	switch (q->type) {
	case QB_QTYPE_SHORT:
	case QB_QTYPE_NUMERIC:
		return "textEntryInteraction";
	case QB_QTYPE_MATCHING:
		return "matchInteraction";
	case QB_QTYPE_CLOZE:
		return NULL; /* text entries and inline choices */
	default:
		return "choiceInteraction";
	}
}

/* ---- documents in memory ---- */

/* Makes w (NULL: it could not be made, c fails) c's writer, with the
 * XML declaration written. */
static xmlTextWriterPtr doc_begin(ctx *c, xmlTextWriterPtr w)
{
	if (!w) {
		c->failed = true;
		return NULL;
	}
	c->w = w;
	/* no indentation: it would add white space inside texts (mixed
	 * content), between words and their markup */
	xok(c, xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	return w;
}

/* Ends c's document, if it has one, and frees its writer (which flushes
 * what it holds). */
static void doc_end(ctx *c)
{
	if (c->w) {
		xok(c, xmlTextWriterEndDocument(c->w));
		xmlFreeTextWriter(c->w);
		c->w = NULL;
	}
}

/* A new writer into buf, with the XML declaration written. */
static xmlTextWriterPtr doc_open(ctx *c, xmlBufferPtr *buf)
{
	*buf = xmlBufferCreate();
	return doc_begin(c, *buf ? xmlNewTextWriterMemory(*buf, 0) : NULL);
}

/* Ends the document and adds it to z as name. */
static void doc_close(ctx *c, xmlBufferPtr buf, qb_zipw *z, const char *name)
{
	doc_end(c);
	if (buf && !c->failed &&
	    qb_zipw_add(z, name, xmlBufferContent(buf), (size_t)xmlBufferLength(buf), true) != 0)
		c->failed = true;
	if (buf)
		xmlBufferFree(buf);
}

/* libxml2's output into a zipw stream: a failed write is reported by the
 * stream and fails the document. */
static int stream_write(void *payload, const char *data, int len)
{
	return qb_zipw_stream_write(payload, data, (size_t)len) == 0 ? len : -1;
}

static int stream_close(void *payload)
{
	QB_UNUSED(payload);
	return 0;
}

/* As doc_open(), into a stream of z (zipw.h: a scratch file past 1 MiB)
 * for a document that grows with the bank: the manifest lists every item
 * (155 MB for 100,000 short questions, once held whole and doubled by
 * its buffer's growth). */
static xmlTextWriterPtr doc_open_stream(ctx *c, qb_zipw *z, qb_zipw_stream **s)
{
	*s = qb_zipw_stream_new(z);
	xmlOutputBufferPtr ob = *s ? xmlOutputBufferCreateIO(stream_write, stream_close, *s, NULL)
	                           : NULL;
	xmlTextWriterPtr w = ob ? xmlNewTextWriter(ob) : NULL; /* frees ob when done */
	if (ob && !w)
		xmlOutputBufferClose(ob);
	return doc_begin(c, w);
}

/* Ends the document and adds its stream to z as name (a stream never
 * added is z's to free). */
static void doc_close_stream(ctx *c, qb_zipw_stream *s, qb_zipw *z, const char *name)
{
	doc_end(c); /* flushes into s */
	if (s && !c->failed && qb_zipw_add_stream(z, name, s, true) != 0)
		c->failed = true;
}

/* The root element's namespaces and schema location. */
static void root_ns(ctx *c, const char *ns, const char *xsd)
{
	at_plain(c, "xmlns", ns);
	at_plain(c, "xmlns:xsi", NS_XSI);
	qb_buf loc = QB_BUF_INIT;
	qb_buf_appendf(&loc, "%s %s", ns, xsd);
	at_plain(c, "xsi:schemaLocation", qb_buf_cstr(&loc));
	qb_buf_dispose(&loc);
}

/* "q-<id>": an id may start with a digit, which an NCName may not. */
static char *q_ident(const qb_question *q, const char *lang)
{
	return lang ? qb_xasprintf("q-%s-%s", q->id, lang) : qb_xasprintf("q-%s", q->id);
}

/* ---- passages: QTI 3.0's shared stimuli ---- */

/* The identifier of passage p's stimulus in lang (its file: ".xml"). */
static char *stimulus_ident(const qb_passage *p, const char *lang)
{
	return qb_xasprintf("stimulus-%s-%s", p->id, lang);
}

/* True when some question of the bank is read with passage k. */
static bool passage_used(const qb_bank *bank, size_t k)
{
	for (size_t i = 0; i < bank->nquestions; i++)
		if (bank->questions[i].passage == k + 1)
			return true;
	return false;
}

/* The stimulus of passage p in lang: its text as the stimulus body. */
static void write_stimulus(ctx *c, qb_zipw *z, const qb_passage *p, const char *lang)
{
	xmlBufferPtr buf = NULL;
	char *ident = stimulus_ident(p, lang), *file = qb_xasprintf("%s.xml", ident);
	if (doc_open(c, &buf)) {
		el(c, "assessmentStimulus");
		root_ns(c, c->v->ns, c->v->xsd);
		at(c, "identifier", ident);
		at(c, "title", p->id);
		at_plain(c, "xml:lang", lang);
		bool math = false;
		if (c->math && !c->math->missing && c->math->n) {
			math_walk w = {NULL, {0}, NULL, false, c->math, false};
			math_text(c->r, &w, &p->text, lang);
			math = w.any;
		}
		if (math) {
			el(c, "stylesheet");
			at(c, "href", MATH_CSS);
			at(c, "type", "text/css");
			end(c);
		}
		el(c, "stimulusBody");
		el_plain(c, "div");
		at_plain(c, "class", "qbc-passage");
		put_text(c, &p->text, lang);
		end(c);
		end(c);
		end(c);
	}
	doc_close(c, buf, z, file);
	free(ident);
	free(file);
}

/* The stimulus's manifest resource: its file, the pictures and sounds it
 * shows. */
static void note_stimulus_media(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(offset);
	ctx *c = payload;
	size_t *used = NULL, nused = 0;
	qb_media_note(&c->media, src, &used, &nused);
	for (size_t i = 0; i < nused; i++) {
		char *ref = qb_xasprintf("media-%zu", used[i] + 1); /* media_ident() */
		el_plain(c, "dependency");
		at_plain(c, "identifierref", ref);
		end(c);
		free(ref);
	}
	free(used);
}

static void stimulus_resource(ctx *c, const qb_passage *p, const char *lang)
{
	char *ident = stimulus_ident(p, lang), *file = qb_xasprintf("%s.xml", ident);
	el_plain(c, "resource");
	at_plain(c, "identifier", ident);
	at_plain(c, "type", "imsqti_stimulus_xmlv3p0");
	at_plain(c, "href", file);
	el_plain(c, "file");
	at_plain(c, "href", file);
	end(c);
	qb_markup_images(qb_render_md(c->r, &p->text, lang), note_stimulus_media, c);
	end(c);
	free(ident);
	free(file);
}

/* The item file of q in lang. */
static char *item_file(const qb_question *q, const char *lang)
{
	return qb_xasprintf("item-%s-%s.xml", q->id, lang);
}

/* Writes item k of the package, q in lang. */
static void write_item(ctx *c, qb_zipw *z, const qb_question *q, const char *lang, size_t k)
{
	item_media it = {k, NULL, 0};
	xmlBufferPtr buf = NULL;
	char *file = item_file(q, lang);
	if (!doc_open(c, &buf)) {
		doc_close(c, buf, z, file);
		free(file);
		return;
	}
	c->cur = &it;
	c->item_math = item_math(c->r, c->math, q, lang);
	/* a parameterised question draws (its template variables), or, when
	 * what its answers are compared to changes otherwise, is its first
	 * draw */
	qb_arena arena = QB_ARENA_INIT;
	tpl vars = {0};
	if (tpl_begin(c, &vars, &arena, q, lang) && !tpl_fits(c, q, lang)) {
		const qb_question *first = tpl_draw(c, 0);
		c->gap_src = tpl_dot(c, 0);
		tpl_end(c, &vars);
		q = first;
	}
	el(c, "assessmentItem");
	root_ns(c, c->v->ns, c->v->xsd);
	char *ident = q_ident(q, lang);
	at(c, "identifier", ident);
	free(ident);
	at(c, "title", q->id);
	at(c, "adaptive", "false");
	at(c, "timeDependent", "false");
	at_plain(c, "xml:lang", lang);
	switch (q->type) {
	case QB_QTYPE_SHORT:
		write_short(c, q, lang);
		break;
	case QB_QTYPE_NUMERIC:
		write_numeric(c, q, lang);
		break;
	case QB_QTYPE_MATCHING:
		write_matching(c, q, lang);
		break;
	case QB_QTYPE_CLOZE:
		write_cloze(c, q, lang);
		break;
	default:
		write_choice(c, q, lang);
		break;
	}
	size_t max = feedback_max(q);
	char (*ids)[32] = qb_xcalloc(max, sizeof *ids);
	size_t nfb = feedback_ids(q, ids, max);
	for (size_t i = 0; i < nfb; i++) {
		const qb_text *t = strcmp(ids[i], "WRONG") == 0         ? qb_question_feedback_wrong(q)
		                   : strcmp(ids[i], "EXPLANATION") == 0 ? &q->explanation
		                   : ids[i][0] == 'N' ? num_more_feedback(q, strtoul(ids[i] + 1, NULL, 10))
		                       : &q->choices[strtoul(ids[i] + 1, NULL, 10) - 1].feedback;
		modal_feedback(c, ids[i], t, lang,
		               t == &q->explanation ? qb_render_label(c->r, lang, "explanation") : NULL);
	}
	free(ids);
	end(c);
	tpl_end(c, &vars);
	c->gap_src = NULL;
	qb_arena_dispose(&arena);
	doc_close(c, buf, z, file);
	free(file);
	c->cur = NULL;
	if (it.nmedia) {
		if (c->nwith == c->capwith) {
			c->capwith = c->capwith ? 2 * c->capwith : 16;
			c->with_media = qb_xrealloc(c->with_media, c->capwith * sizeof *c->with_media);
		}
		c->with_media[c->nwith++] = it;
	}
}

/* The test in lang: one section, or one per first tag when the bank
 * draws per tag. */
static void write_test(ctx *c, qb_zipw *z, const char *lang, const char *file)
{
	const qb_bank *b = c->bank;
	qb_zipw_stream *out = NULL; /* it lists every question: streamed */
	if (!doc_open_stream(c, z, &out)) {
		doc_close_stream(c, out, z, file);
		return;
	}
	el(c, "assessmentTest");
	root_ns(c, c->v->ns, c->v->xsd);
	char *ident = qb_xasprintf("test-%s-%s", b->id, lang);
	at(c, "identifier", ident);
	free(ident);
	qb_buf title = QB_BUF_INIT;
	qb_render_plain(&title, qb_render_md(c->r, &b->title, lang));
	at(c, "title", title.len ? qb_buf_cstr(&title) : b->id);
	qb_buf_dispose(&title);
	static const char *const outs[] = {"SCORE", "MAXSCORE"};
	for (size_t i = 0; i < QB_NELEM(outs); i++) {
		float_outcome(c, outs[i]);
		end(c);
	}
	if (b->pass_mark >= 0) {
		el(c, "outcomeDeclaration");
		at(c, "identifier", "PASS");
		at(c, "cardinality", "single");
		at(c, "baseType", "boolean");
		end(c);
	}
	el(c, "testPart");
	at(c, "identifier", "part");
	at(c, "navigationMode", "nonlinear");
	at(c, "submissionMode", "individual");
	/* sections: the bank's, or one per first tag (in order of first use) */
	const char **tags = NULL;
	size_t ntags = 0;
	for (size_t i = 0; i < b->nquestions; i++) {
		const char *t = b->draw_per_tag && b->questions[i].ntags ? b->questions[i].tags[0].name : "";
		size_t k;
		for (k = 0; k < ntags && strcmp(tags[k], t) != 0; k++)
			;
		if (k == ntags) {
			tags = qb_xrealloc(tags, (ntags + 1) * sizeof *tags);
			tags[ntags++] = t;
		}
	}
	for (size_t s = 0; s < ntags; s++) {
		size_t n = 0;
		for (size_t i = 0; i < b->nquestions; i++) {
			const qb_question *q = &b->questions[i];
			n += strcmp(b->draw_per_tag && q->ntags ? q->tags[0].name : "", tags[s]) == 0;
		}
		el(c, "assessmentSection");
		char sid[32];
		snprintf(sid, sizeof sid, "section-%zu", s + 1);
		at(c, "identifier", sid);
		at(c, "title", *tags[s] ? tags[s] : b->id);
		at(c, "visible", "true");
		if (b->draw > 0 && (size_t)b->draw < n) {
			char d[32];
			snprintf(d, sizeof d, "%d", b->draw);
			el(c, "selection");
			at(c, "select", d);
			end(c);
		}
		if (b->shuffle_questions) {
			el(c, "ordering");
			at(c, "shuffle", "true");
			end(c);
		}
		for (size_t i = 0; i < b->nquestions; i++) {
			const qb_question *q = &b->questions[i];
			if (strcmp(b->draw_per_tag && q->ntags ? q->tags[0].name : "", tags[s]) != 0)
				continue;
			el(c, "assessmentItemRef");
			char *id = q_ident(q, NULL), *href = item_file(q, lang);
			at(c, "identifier", id);
			at(c, "href", href);
			free(id);
			free(href);
			end(c);
		}
		end(c);
	}
	free(tags);
	end(c);
	el(c, "outcomeProcessing");
	for (size_t i = 0; i < QB_NELEM(outs); i++) {
		set_outcome(c, outs[i]);
		el(c, "sum");
		el(c, "testVariables");
		at(c, "variableIdentifier", outs[i]);
		end(c);
		end(c);
		end(c);
	}
	if (b->pass_mark >= 0) {
		set_outcome(c, "PASS");
		el(c, "gte");
		el(c, "product");
		variable(c, "SCORE");
		base_float(c, 100);
		end(c);
		el(c, "product");
		variable(c, "MAXSCORE");
		base_float(c, b->pass_mark);
		end(c);
		end(c);
		end(c);
	}
	end(c);
	end(c);
	doc_close_stream(c, out, z, file);
}

/* ---- the manifest ---- */

static void lom(ctx *c, const char *entry, const char *title, const char *lang)
{
	el_plain(c, "lom");
	at_plain(c, "xmlns", NS_LOM);
	el_plain(c, "general");
	el_plain(c, "identifier");
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "catalog", BAD_CAST "qbc"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "entry", BAD_CAST entry));
	end(c);
	el_plain(c, "title");
	el_plain(c, "string");
	at_plain(c, "language", lang);
	text(c, title);
	end(c);
	end(c);
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "language", BAD_CAST lang));
	end(c);
	end(c);
}

/* qtiMetadata: the interactions an item has (none for a test). */
static void qti_metadata(ctx *c, const char *const *interactions, size_t n, bool feedback)
{
	el_plain(c, "qtiMetadata");
	at_plain(c, "xmlns", c->v->md_ns);
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "timeDependent", BAD_CAST "false"));
	for (size_t i = 0; i < n; i++)
		xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "interactionType",
		                                 BAD_CAST interactions[i]));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "feedbackType",
	                                 BAD_CAST(feedback ? "nonadaptive" : "none")));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "solutionAvailable", BAD_CAST "true"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "toolName", BAD_CAST "qbc"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "toolVersion", BAD_CAST QB_VERSION));
	end(c);
}

static bool has_feedback(const qb_question *q);

/* The item's qtiMetadata: its interaction, or a cloze's text entries
 * and inline choices (as its gaps in lang have them). */
static void item_metadata(ctx *c, const qb_question *q, const char *lang)
{
	const char *kinds[2];
	size_t n = 0;
	if (q->type != QB_QTYPE_CLOZE) {
		kinds[n++] = interaction_of(q);
	} else {
		qb_arena arena = QB_ARENA_INIT;
		qb_cloze_part *parts = NULL;
		size_t nparts = 0;
		bool typed = false, choice = false;
		qb_cloze_split(&arena, qb_render_md(c->r, &q->prompt, lang), &parts, &nparts);
		for (size_t i = 0; i < nparts; i++)
			if (parts[i].gap)
				*(parts[i].gap->choice ? &choice : &typed) = true;
		if (typed)
			kinds[n++] = "textEntryInteraction";
		if (choice)
			kinds[n++] = "inlineChoiceInteraction";
		qb_arena_dispose(&arena);
	}
	qti_metadata(c, kinds, n, has_feedback(q));
}

/* A formula as plain text for a title: TeX's commands of style and
 * spacing, braces and subscript marks dropped, a few symbols as their
 * characters, any other command as its name (\alpha: alpha). */
static void tex_plain(qb_buf *out, const char *tex, size_t n)
{
	static const char *const sym[][2] = {
		{"cdot", "\xC2\xB7"}, {"times", "\xC3\x97"}, {"pm", "\xC2\xB1"},
		{"le", "\xE2\x89\xA4"}, {"leq", "\xE2\x89\xA4"}, {"ge", "\xE2\x89\xA5"},
		{"geq", "\xE2\x89\xA5"}, {"ne", "\xE2\x89\xA0"}, {"neq", "\xE2\x89\xA0"},
		{"to", "\xE2\x86\x92"}, {"rightarrow", "\xE2\x86\x92"},
		{"infty", "\xE2\x88\x9E"}, {"sqrt", "\xE2\x88\x9A"}, {"degree", "\xC2\xB0"},
		{"circ", "\xC2\xB0"}, {"approx", "\xE2\x89\x88"}, {"frac", ""},
		{"mathrm", ""}, {"mathit", ""}, {"mathbf", ""}, {"mathsf", ""}, {"mathtt", ""},
		{"text", ""}, {"textrm", ""}, {"operatorname", ""}, {"boldsymbol", ""},
		{"left", ""}, {"right", ""}, {"displaystyle", ""}, {"quad", " "}, {"qquad", " "},
		{"alpha", "\xCE\xB1"}, {"Alpha", "\xCE\x91"}, {"beta", "\xCE\xB2"}, {"Beta", "\xCE\x92"},
		{"gamma", "\xCE\xB3"}, {"Gamma", "\xCE\x93"}, {"delta", "\xCE\xB4"}, {"Delta", "\xCE\x94"},
		{"epsilon", "\xCE\xB5"}, {"Epsilon", "\xCE\x95"}, {"zeta", "\xCE\xB6"}, {"Zeta", "\xCE\x96"},
		{"eta", "\xCE\xB7"}, {"Eta", "\xCE\x97"}, {"theta", "\xCE\xB8"}, {"Theta", "\xCE\x98"},
		{"iota", "\xCE\xB9"}, {"Iota", "\xCE\x99"}, {"kappa", "\xCE\xBA"}, {"Kappa", "\xCE\x9A"},
		{"lambda", "\xCE\xBB"}, {"Lambda", "\xCE\x9B"}, {"mu", "\xCE\xBC"}, {"Mu", "\xCE\x9C"},
		{"nu", "\xCE\xBD"}, {"Nu", "\xCE\x9D"}, {"xi", "\xCE\xBE"}, {"Xi", "\xCE\x9E"},
		{"omicron", "\xCE\xBF"}, {"Omicron", "\xCE\x9F"}, {"pi", "\xCF\x80"}, {"Pi", "\xCE\xA0"},
		{"rho", "\xCF\x81"}, {"Rho", "\xCE\xA1"}, {"sigma", "\xCF\x83"}, {"Sigma", "\xCE\xA3"},
		{"tau", "\xCF\x84"}, {"Tau", "\xCE\xA4"}, {"upsilon", "\xCF\x85"}, {"Upsilon", "\xCE\xA5"},
		{"phi", "\xCF\x86"}, {"Phi", "\xCE\xA6"}, {"chi", "\xCF\x87"}, {"Chi", "\xCE\xA7"},
		{"psi", "\xCF\x88"}, {"Psi", "\xCE\xA8"}, {"omega", "\xCF\x89"}, {"Omega", "\xCE\xA9"}};
	for (size_t i = 0; i < n; i++) {
		char ch = tex[i];
		if (ch == '{' || ch == '}' || ch == '_')
			continue;
		if (ch != '\\') {
			qb_buf_putc(out, ch);
			continue;
		}
		size_t k = i + 1;
		while (k < n && ((tex[k] >= 'a' && tex[k] <= 'z') || (tex[k] >= 'A' && tex[k] <= 'Z')))
			k++;
		if (k == i + 1) { /* \, \; \{ \\ ... */
			if (k < n)
				qb_buf_putc(out, strchr(",;:! \\", tex[k]) ? ' ' : tex[k]);
			i = k;
			continue;
		}
		size_t j;
		for (j = 0; j < QB_NELEM(sym); j++)
			if (strlen(sym[j][0]) == k - i - 1 && strncmp(sym[j][0], tex + i + 1, k - i - 1) == 0)
				break;
		if (j < QB_NELEM(sym) && strcmp(sym[j][1], "\xC2\xB0") == 0 && out->len &&
		    out->ptr[out->len - 1] == '^')
			out->len--; /* ^\circ: a degree */
		if (j < QB_NELEM(sym))
			qb_buf_puts(out, sym[j][1]);
		else
			qb_buf_append(out, tex + i + 1, k - i - 1);
		i = k - 1;
	}
}

typedef struct math_spans {
	const char *md;
	qb_buf *out;
	size_t done;  /* md copied to out up to here */
} math_spans;

/* qb_markup_math callback: copies md up to the formula, then the
 * formula as plain text. */
static void math_plain(void *payload, const char *tex, size_t offset)
{
	math_spans *m = payload;
	size_t n = strlen(tex);
	if (offset < m->done || strncmp(m->md + offset, tex, n) != 0)
		return; /* not where it was written: left as it is */
	qb_buf_append(m->out, m->md + m->done, offset - m->done);
	tex_plain(m->out, tex, n);
	m->done = offset + n;
}

/* The prompt of q in lang as a plain-text title (a manifest's): a
 * cloze's gaps as ___ (their answers are the solution), formulas as
 * tex_plain() reads them, no Markdown. */
static void plain_title(ctx *c, qb_buf *title, const qb_question *q, const char *lang)
{
	const char *md = qb_render_md(c->r, &q->prompt, lang);
	qb_buf gapless = QB_BUF_INIT, tidy = QB_BUF_INIT;
	qb_arena arena = QB_ARENA_INIT;
	if (q->type == QB_QTYPE_CLOZE) {
		qb_cloze_part *parts = NULL;
		size_t nparts = 0;
		qb_cloze_split(&arena, md, &parts, &nparts);
		for (size_t i = 0; i < nparts; i++)
			if (parts[i].gap)
				qb_buf_puts(&gapless, "\\_\\_\\_"); /* escaped: not emphasis */
			else
				qb_buf_append(&gapless, parts[i].text, parts[i].len);
		md = qb_buf_cstr(&gapless);
	}
	math_spans m = {md, &tidy, 0};
	qb_markup_math(md, math_plain, &m);
	qb_buf_puts(&tidy, md + m.done);
	qb_buf_clear(&gapless);
	qb_render_plain(&gapless, qb_buf_cstr(&tidy));
	/* one line: runs of white space (a code block's lines) as one space */
	bool space = false;
	for (const char *p = qb_buf_cstr(&gapless); *p; p++) {
		bool ws = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
		if (!ws && space && title->len && title->ptr[title->len - 1] != ' ')
			qb_buf_putc(title, ' ');
		if (!ws)
			qb_buf_putc(title, *p);
		space = ws;
	}
	qb_buf_dispose(&gapless);
	qb_buf_dispose(&tidy);
	qb_arena_dispose(&arena);
}

static void file_ref(ctx *c, const char *href)
{
	leaf(c, false, "file", "href", href);
}

static void dependency(ctx *c, const char *ref)
{
	leaf(c, false, "dependency", "identifierref", ref);
}

static char *media_ident(size_t i)
{
	return qb_xasprintf("media-%zu", i + 1);
}

static bool has_feedback(const qb_question *q)
{
	for (size_t i = 0; i < q->nchoices; i++)
		if (q->choices[i].feedback.present)
			return true;
	return q->explanation.present || qb_question_feedback_wrong(q)->present;
}

static void write_manifest(ctx *c, qb_zipw *z, const char *lang)
{
	const qb_render_ctx *r = c->r;
	qb_zipw_stream *out = NULL;
	if (!doc_open_stream(c, z, &out)) {
		doc_close_stream(c, out, z, "imsmanifest.xml");
		return;
	}
	el_plain(c, "manifest");
	at_plain(c, "xmlns", c->v->cp_ns);
	at_plain(c, "xmlns:xsi", NS_XSI);
	qb_buf loc = QB_BUF_INIT;
	qb_buf_appendf(&loc, "%s %s %s %s %s %s", c->v->cp_ns, c->v->cp_xsd, c->v->md_ns,
	               c->v->md_xsd, NS_LOM, c->v->lom_xsd);
	at_plain(c, "xsi:schemaLocation", qb_buf_cstr(&loc));
	qb_buf_dispose(&loc);
	char *mid = qb_xasprintf("qbc-%s-%s-qti", c->bank->id, lang);
	at_plain(c, "identifier", mid);
	free(mid);
	el_plain(c, "metadata");
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "schema", BAD_CAST c->v->schema));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "schemaversion", BAD_CAST c->v->schemaversion));
	end(c);
	el_plain(c, "organizations");
	end(c);
	el_plain(c, "resources");
	char *file = qb_xasprintf("test-%s.xml", lang);
	char *id = qb_xasprintf("test-%s", lang);
	el_plain(c, "resource");
	at_plain(c, "identifier", id);
	at_plain(c, "type", c->v->test_type);
	at_plain(c, "href", file);
	el_plain(c, "metadata");
	qti_metadata(c, NULL, 0, false);
	qb_buf title = QB_BUF_INIT;
	qb_render_plain(&title, qb_render_md(r, &c->bank->title, lang));
	lom(c, id, title.len ? qb_buf_cstr(&title) : c->bank->id, lang);
	qb_buf_dispose(&title);
	end(c);
	file_ref(c, file);
	for (size_t i = 0; i < c->bank->nquestions; i++) {
		char *ident = q_ident(&c->bank->questions[i], lang);
		dependency(c, ident);
		free(ident);
	}
	end(c);
	free(file);
	free(id);
	const item_media *next = c->with_media, *past = c->with_media + c->nwith;
	for (size_t k = 0; k < c->bank->nquestions; k++) {
		const qb_question *q = &c->bank->questions[k];
		char *ident = q_ident(q, lang), *ifile = item_file(q, lang);
		/* a parameterised question's title and gaps: its first draw's */
		qb_arena arena = QB_ARENA_INIT;
		const qb_question *first = params_of(q) ? qb_render_draw(r, &arena, q, 0) : q;
		el_plain(c, "resource");
		at_plain(c, "identifier", ident);
		at_plain(c, "type", c->v->item_type);
		at_plain(c, "href", ifile);
		el_plain(c, "metadata");
		item_metadata(c, first, lang);
		qb_buf ititle = QB_BUF_INIT;
		qb_buf_appendf(&ititle, "%s: ", q->id);
		plain_title(c, &ititle, first, lang);
		qb_arena_dispose(&arena);
		lom(c, ident, qb_buf_cstr(&ititle), lang);
		qb_buf_dispose(&ititle);
		end(c);
		file_ref(c, ifile);
		free(ident);
		free(ifile);
		const item_media *shown = next < past && next->item == k ? next++ : NULL;
		for (size_t m = 0; shown && m < shown->nmedia; m++) {
			char *ref = media_ident(shown->media[m]);
			dependency(c, ref);
			free(ref);
		}
		if (item_math(r, c->math, q, lang))
			dependency(c, "qbc-math-css");
		if (c->v3 && qb_question_passage(c->bank, q)) {
			char *sref = stimulus_ident(qb_question_passage(c->bank, q), lang);
			dependency(c, sref);
			free(sref);
		}
		end(c);
	}
	for (size_t k = 0; c->v3 && k < c->bank->npassages; k++)
		if (passage_used(c->bank, k))
			stimulus_resource(c, &c->bank->passages[k], lang);
	if (math_any(c->math)) {
		el_plain(c, "resource");
		at_plain(c, "identifier", "qbc-math-css");
		at_plain(c, "type", "webcontent");
		at_plain(c, "href", MATH_CSS);
		file_ref(c, MATH_CSS);
		end(c);
	}
	for (size_t i = 0; i < c->media.nfiles; i++) {
		char *mref = media_ident(i);
		el_plain(c, "resource");
		at_plain(c, "identifier", mref);
		at_plain(c, "type", "webcontent");
		at_plain(c, "href", c->media.files[i].name);
		file_ref(c, c->media.files[i].name);
		end(c);
		free(mref);
	}
	end(c);
	end(c);
	doc_close_stream(c, out, z, "imsmanifest.xml");
}

/* ---- the package ---- */

/* The package of lang, path. */
static int write_package(ctx *c, const char *path, size_t l)
{
	const qb_render_ctx *r = c->r;
	const qb_bank *bank = c->bank;
	const char *lang = r->langs[l];
	qb_zipw *z = qb_zipw_open(path, r->latest);
	if (!z)
		return -1;
	/* A bank of many short questions takes most of its memory goal (the
	 * items' members), so the manifest compresses on fewer threads. */
	qb_zipw_set_room(z, bank->path);
	for (size_t i = 0; i < bank->nquestions && !c->failed; i++)
		write_item(c, z, &bank->questions[i], lang, i);
	for (size_t k = 0; c->v3 && k < bank->npassages && !c->failed; k++)
		if (passage_used(bank, k))
			write_stimulus(c, z, &bank->passages[k], lang);
	char *file = qb_xasprintf("test-%s.xml", lang);
	if (!c->failed)
		write_test(c, z, lang, file);
	free(file);
	for (size_t i = 0; i < c->media.nfiles && !c->failed; i++)
		if (qb_zipw_add(z, c->media.files[i].name, c->media.files[i].data,
		                c->media.files[i].len, false) != 0)
			c->failed = true;
	if (!c->failed && math_any(c->math) &&
	    qb_zipw_add(z, MATH_CSS, MATH_CSS_TEXT, strlen(MATH_CSS_TEXT), true) != 0)
		c->failed = true;
	if (!c->failed)
		write_manifest(c, z, lang);
	int rc = -1;
	if (c->failed) {
		qb_diag_fatal("cannot write the QTI package for bank '%s'", bank->id);
		qb_zipw_discard(z);
	} else {
		rc = qb_zipw_commit(z);
	}
	for (size_t i = 0; i < c->nwith; i++)
		free(c->with_media[i].media);
	c->nwith = 0;
	return rc;
}

/* One package per language, <bank-id>.<lang><ext> (write.h, per_lang):
 * each holds one test, which is what LMSs import (README.md, "QTI for
 * other systems"). */
static int write_qti(const qb_render_ctx *r, const qb_bank *bank, const qti_version *v)
{
	ctx c = {.r = r, .bank = bank, .v = v, .v3 = v == &V30};
	math_set math = {0};
	math_convert(r, bank, &math);
	c.math = &math;
	int rc = qb_render_media(r, qb_render_media_hashed_name, &c.media);
	for (size_t l = 0; l < r->nlangs && rc == 0; l++) {
		char *path = qb_writer_lang_path(r->path, v == &V30 ? ".qti3.zip" : ".qti.zip",
		                                 r->langs[l]);
		rc = write_package(&c, path, l);
		free(path);
	}
	free(c.with_media);
	qb_buf_dispose(&c.name);
	qb_media_set_dispose(&c.media);
	math_dispose(&math);
	return rc;
}

int qb_write_qti21(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_qti(r, bank, &V21);
}

int qb_write_qti30(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_qti(r, bank, &V30);
}
