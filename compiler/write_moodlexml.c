/* write_moodlexml.c - Moodle XML for a course's question bank (Question
 * bank -> Import -> "Moodle XML format"), both languages in one question.
 *
 * The file is one <quiz>: a category question, then every question of the
 * bank in order as Moodle's own type of it, one function per type:
 * multichoice (single, multiple), truefalse, shortanswer, numerical,
 * matching, cloze (multianswer).  Every element written is one that
 * Moodle 4.5's importer reads (question/format/xml/format.php:
 * import_headers, import_answer, import_combined_feedback,
 * import_question_tags, import_category and import_<type>); what Moodle
 * cannot express is a located error (a choice gap that differs between
 * languages) or warning (all-or-nothing scoring of parts, pinning).
 *
 * Texts are the bank's Markdown rendered to HTML by the render layer
 * (render.h: language fallback, media, labels; md4c with raw HTML off)
 * and, when more than one language is written, wrapped per language in
 * <span lang="xx" class="multilang">...</span>, default language first,
 * for Moodle's "Multi-language content" filter.  That filter ends a
 * language at the first </span>, so no span may sit inside: math loses
 * its span (put_html) and cloze gaps sit between the languages' runs
 * (write_multianswer).  libxml2's xmlTextWriter writes every text as
 * escaped text (not CDATA: its CDATA writer does not split "]]>"), so
 * nothing from the bank can leave its <text> element, and an author's own
 * "@@PLUGINFILE@@" is written as "&#64;@PLUGINFILE@@".  Pictures and
 * sounds are embedded as <file encoding="base64"> next to the <text> that
 * uses them, under content-addressed names, and referenced as
 * @@PLUGINFILE@@/<name>.
 *
 * Grades (fractions) are always one of Moodle's grades (question/format.php
 * refuses the whole file otherwise); write_multichoice() says which.
 *
 * Re-importing: Moodle makes a new question for every question of the
 * file and drops an idnumber that already exists in the target category
 * (README, "Editing and regenerating").  So the category is one per
 * revision of the bank: $course$/top/<title>/revision N (date), and the
 * category's description lists each question's last-change date.  The
 * combined feedback ("Your answer is correct." ...) comes from the label
 * catalogues: answerCorrect, answerPartiallyCorrect, answerIncorrect. */
#include "write.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <matheval.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "markup.h"
#include "params.h"
#include "render.h"

#define IDNUMBER_MAX 100     /* question_bank_entries.idnumber              */
#define NAME_PROMPT_CHARS 60 /* characters of the prompt in <name>          */
#define PLUGINFILE "@@PLUGINFILE@@/"

typedef struct ctx {
	const qb_render_ctx *r;
	const qb_bank *bank;
	const char **langs;  /* the languages written, default first          */
	size_t nlangs;
	xmlTextWriterPtr w;
	qb_media_set media;  /* every image, named @@PLUGINFILE@@/<hash>.<ext> */
	size_t *used;        /* the images of the element being written       */
	size_t nused;
	bool failed;         /* a problem was reported                        */
	char *category;      /* the category's path (heap), once written      */
	struct mform *pm;    /* the calculated question being written: its
	                        placeholders in Moodle's form, else NULL      */
	bool esc_under;      /* pm: '_' written &#95; (a numeric prompt)      */
	size_t draw, ndraws; /* write_draws(): the draw written, of ndraws    */
	bool left_category;  /* a subcategory was written since the last
	                        passage's description                         */
} ctx;

static void pm_md_html(ctx *c, qb_buf *out, const char *md);

static void xok(ctx *c, int r)
{
	if (r < 0)
		c->failed = true;
}

/* ---- images ---- */

/* render.h naming callback: @@PLUGINFILE@@/<16 hex of sha256>.<ext>, so
 * that markup writes the src Moodle rewrites; <file name> drops the
 * prefix. */
static char *media_name(const char *src, const unsigned char *data, size_t len)
{
	char hex[2 * 8 + 1];
	qb_hash_sha256_hex(hex, 8, data, len);
	qb_buf name = QB_BUF_INIT;
	qb_buf_appendf(&name, PLUGINFILE "%s", hex);
	const char *dot = strrchr(src, '.');
	for (const char *p = dot && !strchr(dot, '/') ? dot : ""; *p; p++) {
		char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		if (ch == '.' || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			qb_buf_putc(&name, ch);
	}
	return qb_buf_detach(&name);
}

/* qb_markup_images callback: notes the image for the element. */
static void note_image(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(offset);
	ctx *c = payload;
	qb_media_note(&c->media, src, &c->used, &c->nused);
}

/* Writes a <file> for every image noted since the last call. */
static void write_files(ctx *c)
{
	for (size_t i = 0; i < c->nused; i++) {
		const qb_media *m = &c->media.files[c->used[i]];
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "file"));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "name",
		                                   BAD_CAST(m->name + strlen(PLUGINFILE))));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "path", BAD_CAST "/"));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "encoding", BAD_CAST "base64"));
		xok(c, xmlTextWriterWriteBase64(c->w, (const char *)m->data, 0, (int)m->len));
		xok(c, xmlTextWriterEndElement(c->w));
	}
	c->nused = 0;
}

/* ---- texts ---- */

/* Appends html to out as Moodle should store it:
 *  - every @@PLUGINFILE@@ that is not the start of one of our media srcs
 *    as &#64;@PLUGINFILE@@ (Moodle replaces the marker anywhere in a text
 *    by its file area's URL; md4c escapes the author's quotes, so src="
 *    only precedes a src markup wrote);
 *  - a formula's <span class="math ...">\(...\)</span> as the bare
 *    \(...\) for Moodle's MathJax filter: a </span> inside a language's
 *    <span class="multilang"> would end it for the multilang filter, whose
 *    expression stops at the first </span> (the TeX is HTML-escaped, so
 *    the wrapper's </span> is the next tag; raw HTML from a bank is
 *    escaped, so the wrapper only comes from markup);
 *  - each byte of esc as a character reference (&#123; for '{' in a
 *    cloze text, which Moodle would read as a gap; md4c writes these
 *    bytes only in text and attribute values, where the reference reads
 *    the same). */
static void put_html(qb_buf *out, const char *html, const char *esc)
{
	static const char marker[] = "@@PLUGINFILE@@", src[] = "src=\"",
	                  math[] = "<span class=\"math ", end[] = "</span>";
	bool in_math = false;
	for (const char *p = html; *p; p++) {
		if (strncmp(p, marker, sizeof marker - 1) == 0) {
			bool ours = (size_t)(p - html) >= sizeof src - 1 &&
			            memcmp(p - (sizeof src - 1), src, sizeof src - 1) == 0;
			qb_buf_puts(out, ours ? "@" : "&#64;");
		} else if (strncmp(p, math, sizeof math - 1) == 0 && strchr(p, '>')) {
			p = strchr(p, '>');
			in_math = true;
		} else if (in_math && strncmp(p, end, sizeof end - 1) == 0) {
			p += sizeof end - 2;
			in_math = false;
		} else if (esc && strchr(esc, *p)) {
			qb_buf_appendf(out, "&#%d;", (unsigned char)*p);
		} else {
			qb_buf_putc(out, *p);
		}
	}
}

/* Opens and closes one language's part of a text: a multilang span when
 * more than one language is written. */
static void lang_open(ctx *c, qb_buf *out, const char *lang)
{
	if (c->nlangs > 1)
		qb_buf_appendf(out, "<span lang=\"%s\" class=\"multilang\">", lang);
}

static void lang_close(ctx *c, qb_buf *out)
{
	if (c->nlangs > 1)
		qb_buf_puts(out, "</span>");
}

/* Appends one language's HTML to out: in a multilang span when more than
 * one language is written. */
static void lang_html(ctx *c, qb_buf *out, const char *lang, const char *html)
{
	lang_open(c, out, lang);
	put_html(out, html, NULL);
	lang_close(c, out);
}

/* Renders md (one language) to HTML in out, noting its media. */
static void md_html(ctx *c, qb_buf *out, const char *md)
{
	if (c->pm) {
		pm_md_html(c, out, md);
		return;
	}
	qb_markup_images(md, note_image, c);
	if (qb_render_html(c->r, out, md, &c->media) != 0)
		c->failed = true;
}

/* Appends the HTML of t in every written language to out (nothing when
 * t is absent) and notes its media. */
static void text_html(ctx *c, qb_buf *out, const qb_text *t)
{
	qb_buf html = QB_BUF_INIT;
	for (size_t i = 0; t->present && i < c->nlangs; i++) {
		qb_buf_clear(&html);
		md_html(c, &html, qb_render_md(c->r, t, c->langs[i]));
		lang_html(c, out, c->langs[i], qb_buf_cstr(&html));
	}
	qb_buf_dispose(&html);
}

/* Appends the plain text of t (HTML-escaped) in every written language to
 * out, for Moodle's plain-text fields that it shows through its filters
 * (matching answers, the choices of a cloze gap).  The spans are
 * separated by a space, which the multilang filter allows, so that with
 * the filter off the languages read as words, not one run. */
static void text_plain(ctx *c, qb_buf *out, const qb_text *t)
{
	qb_buf plain = QB_BUF_INIT;
	for (size_t i = 0; t->present && i < c->nlangs; i++) {
		qb_buf_clear(&plain);
		qb_render_plain(&plain, qb_render_md(c->r, t, c->langs[i]));
		if (i)
			qb_buf_putc(out, ' ');
		lang_open(c, out, c->langs[i]);
		qb_escape_html(out, qb_buf_cstr(&plain));
		lang_close(c, out);
	}
	qb_buf_dispose(&plain);
}

/* <tag format="html"><text>html</text><file>s of the media noted</tag>. */
static void write_html(ctx *c, const char *tag, const char *html)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST html));
	write_files(c);
	xok(c, xmlTextWriterEndElement(c->w));
}

/* write_html() of t (an empty text when t is absent), or of the label
 * key when t is NULL; after the label, the HTML of more when present. */
static void write_text(ctx *c, const char *tag, const qb_text *t, const char *key,
                       const qb_text *more)
{
	qb_buf all = QB_BUF_INIT;
	if (t)
		text_html(c, &all, t);
	for (size_t i = 0; !t && i < c->nlangs; i++) {
		qb_buf label = QB_BUF_INIT;
		bool with = more && more->present;
		qb_buf_appendf(&label, with ? "<p>%s</p>" : "%s",
		               qb_render_label(c->r, c->langs[i], key));
		if (with)
			md_html(c, &label, qb_render_md(c->r, more, c->langs[i]));
		lang_html(c, &all, c->langs[i], qb_buf_cstr(&label));
		qb_buf_dispose(&label);
	}
	write_html(c, tag, qb_buf_cstr(&all));
	qb_buf_dispose(&all);
}

/* <tag><text>s</text></tag> for a plain-text field. */
static void write_plain(ctx *c, const char *tag, const char *s)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST s));
	xok(c, xmlTextWriterEndElement(c->w));
}

static void write_elem(ctx *c, const char *tag, const char *value)
{
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST tag, BAD_CAST value));
}

/* The plain text of the Markdown md, whitespace collapsed, cut after max
 * characters (code points) with "…"; appended to out. */
static void plain_start(qb_buf *out, const char *md, size_t max)
{
	qb_buf b = QB_BUF_INIT;
	qb_render_plain(&b, md);
	size_t chars = 0;
	bool space = false;
	for (const char *p = qb_buf_cstr(&b); *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			space = out->len > 0;
			continue;
		}
		if (((unsigned char)*p & 0xC0) != 0x80) {
			if (chars + space >= max) {
				qb_buf_puts(out, "\xE2\x80\xA6");
				break;
			}
			if (space)
				qb_buf_putc(out, ' '), chars++;
			space = false;
			chars++;
		}
		qb_buf_putc(out, *p);
	}
	qb_buf_dispose(&b);
}

/* ---- grades ---- */

/* The grade 100/n when it is one of Moodle's grades, else NULL. */
static const char *equal_share(size_t n)
{
	static const char *const share[] = {NULL,       "100",      "50",   "33.33333",
	                                    "25",       "20",       "16.66667", "14.28571",
	                                    "12.5",     "11.11111", "10"};
	if (n < QB_NELEM(share))
		return share[n];
	return n == 20 ? "5" : NULL;
}

/* Warns that Moodle grades q's parts although q is all-or-nothing: the
 * nearest Moodle question is written (what it grades otherwise is said in
 * the message), and 'scoring: partial' says so in the bank. */
static void all_or_nothing_warning(const qb_question *q, const char *what)
{
	qb_loc scoring = qb_question_rare(q)->scoring_loc;
	qb_diag_warning(scoring.line ? scoring : q->loc,
	                "question '%s' is scored all-or-nothing, but Moodle gives partial credit "
	                "for %s; write 'scoring: partial' to accept that in Moodle XML", q->id, what);
}

/* ---- the parts every question has ---- */

/* The feedback an answer shows: its own, else for a wrong answer the
 * question's feedback-wrong. */
static const qb_text *answer_feedback(const qb_question *q, const qb_choice *ch, bool right)
{
	if (ch && ch->feedback.present)
		return &ch->feedback;
	return right ? NULL : qb_question_feedback_wrong(q);
}

/* <answer fraction= format=><text>text</text> (HTML when html, with its
 * files) <feedback>fb</feedback> ... (the caller ends it). */
static void start_answer(ctx *c, const char *fraction, const char *text, bool html,
                         const qb_text *fb)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "answer"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "fraction", BAD_CAST fraction));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format",
	                                   BAD_CAST(html ? "html" : "plain_text")));
	write_elem(c, "text", text);
	if (html)
		write_files(c);
	static const qb_text none = {0};
	write_text(c, "feedback", fb ? fb : &none, NULL, NULL);
}

/* The prompt's HTML in every written language with each byte of esc as
 * a character reference (put_html), then tail. */
static void prompt_html(ctx *c, qb_buf *out, const qb_question *q, const char *esc,
                        const char *tail)
{
	qb_buf prompt = QB_BUF_INIT;
	text_html(c, &prompt, &q->prompt);
	put_html(out, qb_buf_cstr(&prompt), esc);
	qb_buf_puts(out, tail);
	qb_buf_dispose(&prompt);
}

/* <question type=...>: name (the id, then the start of name_md, else of
 * the prompt in the main language), question text (qtext, or the prompt
 * when NULL), general feedback, grade (1 when NULL), penalty, idnumber. */
static void start_question(ctx *c, const qb_question *q, const char *type, const char *qtext,
                           const char *name_md, const char *grade)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST type));
	qb_buf name = QB_BUF_INIT;
	qb_buf_appendf(&name, "%s: ", q->id);
	if (c->ndraws)
		qb_buf_appendf(&name, "(%zu/%zu) ", c->draw + 1, c->ndraws);
	plain_start(&name, name_md ? name_md : qb_render_md(c->r, &q->prompt, c->r->main_lang),
	            NAME_PROMPT_CHARS);
	write_plain(c, "name", qb_buf_cstr(&name));
	qb_buf_dispose(&name);
	if (qtext)
		write_html(c, "questiontext", qtext);
	else
		write_text(c, "questiontext", &q->prompt, NULL, NULL);
	write_text(c, "generalfeedback", &q->explanation, NULL, NULL);
	write_elem(c, "defaultgrade", grade ? grade : "1");
	write_elem(c, "penalty", "0.3333333");
	write_elem(c, "hidden", "0");
	if (!c->draw) /* a later draw (write_draws()): the first has the id */
		write_elem(c, "idnumber", q->id);
}

/* The combined feedback of multichoice and matching: the labels, and
 * after the wrong ones the question's feedback-wrong when more. */
static void combined_feedback(ctx *c, const qb_text *more)
{
	write_text(c, "correctfeedback", NULL, "answerCorrect", NULL);
	write_text(c, "partiallycorrectfeedback", NULL, "answerPartiallyCorrect", more);
	write_text(c, "incorrectfeedback", NULL, "answerIncorrect", more);
	write_elem(c, "shownumcorrect", "");
}

/* The option of q that stops Moodle shuffling it: Moodle cannot keep one
 * in place, so a shuffled question with a pinned option is not shuffled
 * (check_shuffle() warns).  NULL when there is none. */
static const qb_choice *pinned_option(const qb_bank *bank, const qb_question *q)
{
	for (size_t i = 0; qb_question_shuffles(bank, q) && i < q->nchoices; i++)
		if (q->choices[i].pinned)
			return &q->choices[i];
	return NULL;
}

/* <shuffleanswers>: the question's shuffling, off when an option is
 * pinned. */
static void shuffle_answers(ctx *c, const qb_question *q)
{
	bool shuffle = qb_question_shuffles(c->bank, q) && !pinned_option(c->bank, q);
	write_elem(c, "shuffleanswers", shuffle ? "true" : "false");
}

static void end_question(ctx *c, const qb_question *q)
{
	if (q->ntags) {
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "tags"));
		for (size_t t = 0; t < q->ntags; t++)
			write_plain(c, "tag", q->tags[t].name);
		xok(c, xmlTextWriterEndElement(c->w));
	}
	xok(c, xmlTextWriterEndElement(c->w));
}

/* ---- one function per type ---- */

/* single and multiple: multichoice.  single: 100 for the correct option,
 * 0 for the others.  multiple, partial: each of the k correct options
 * 100/k and each wrong one -100/k, which is qbc's rule (right picks minus
 * wrong picks over k, never below 0).  multiple, all-or-nothing: each
 * wrong one -100, so that any wrong pick scores 0; with k = 1 that is
 * all-or-nothing, with more Moodle still gives credit for picking only
 * some of the correct options (a warning says so). */
/* A question with marks (issue 36): each option's share of the mark as
 * Moodle's grade (qb_check_moodlexml() refused any other): Moodle grades a
 * single question by the picked option's grade and a multiple one by the
 * sum of the picked options' grades, from 0 to 100%, which are qbc's
 * rules (a single question's negative grade aside: Moodle keeps it below
 * 0, where qbc's players stop at 0). */
static const char *mark_grade(const qb_bank *bank, const qb_question *q, size_t i)
{
	const char *g = qb_share_moodle(qb_choice_share(bank, q, i));
	return g ? g : "0";
}

/* The main language's prompt of q's first draw: the start of a
 * calculated question's name (Moodle shows a name as written). */
static const char *draw0_prompt(ctx *c, qb_arena *a, const qb_question *q)
{
	return qb_render_md(c->r, &qb_render_draw(c->r, a, q, 0)->prompt, c->r->main_lang);
}

static int text_decimals(const ctx *c, const struct mform *m, const qb_text *t);
static void calc_answer_tail(ctx *c, const char *tol, const char *tolerancetype, int decimals);
static void write_datasets(ctx *c, const struct mform *m);

/* m: a parameterised question (NULL: not), written as Moodle's
 * calculatedmulti, the same answers with their formulas shown with
 * correctanswerlength decimals, then the datasets. */
static void write_multichoice(ctx *c, const qb_question *q, struct mform *m)
{
	size_t ncorrect = qb_question_ncorrect(q);
	bool single = q->type == QB_QTYPE_SINGLE;
	const char *right = single ? "100" : equal_share(ncorrect);
	bool all = !single && qb_question_scoring(c->bank, q) == QB_SCORING_ALL;
	bool marks = qb_question_has_marks(q);
	char *wrong = single ? qb_xstrdup("0")
	                     : qb_xasprintf("-%s", all ? "100" : right ? right : "0");
	c->pm = m;
	qb_arena a0 = {0};
	start_question(c, q, m ? "calculatedmulti" : "multichoice", NULL,
	               m ? draw0_prompt(c, &a0, q) : NULL, NULL);
	qb_arena_dispose(&a0);
	if (m)
		write_elem(c, "synchronize", "0");
	write_elem(c, "single", single ? "true" : "false");
	shuffle_answers(c, q);
	write_elem(c, "answernumbering", "abc");
	if (!m)
		write_elem(c, "showstandardinstruction", "1");
	combined_feedback(c, NULL);
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		qb_buf html = QB_BUF_INIT;
		text_html(c, &html, &ch->text);
		start_answer(c, marks ? mark_grade(c->bank, q, i)
		                : ch->correct ? (right ? right : "0") : wrong,
		             qb_buf_cstr(&html), true, answer_feedback(q, ch, ch->correct));
		if (m)
			calc_answer_tail(c, "0.01", "1", text_decimals(c, m, &ch->text));
		xok(c, xmlTextWriterEndElement(c->w));
		qb_buf_dispose(&html);
	}
	if (m)
		write_datasets(c, m);
	c->pm = NULL;
	end_question(c, q);
	free(wrong);
}

/* true-false: truefalse, the answers named "true" and "false" (Moodle
 * shows them in the learner's language), 100 for the right one. */
static void write_truefalse(ctx *c, const qb_question *q)
{
	start_question(c, q, "truefalse", NULL, NULL, NULL);
	for (size_t i = 0; i < 2 && i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		start_answer(c, ch->correct ? "100" : "0", i == 0 ? "true" : "false", false,
		             answer_feedback(q, ch, ch->correct));
		xok(c, xmlTextWriterEndElement(c->w));
	}
	end_question(c, q);
}

/* Moodle's short-answer matching reads '*' as "any text"; "\*" is a star. */
static void star_escape(qb_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '*')
			qb_buf_putc(out, '\\');
		qb_buf_putc(out, *s);
	}
}

/* The distinct answers of q's accepted (right) or listed wrong options in
 * every written language, as Moodle compares them (qb_answer_normalise:
 * Moodle also ignores case unless usecase, and surrounding space), each
 * with the option it came from.  Returns the count; *out is heap. */
typedef struct sa_answer {
	const char *text;      /* as written (the model trims it)          */
	const qb_choice *from;
} sa_answer;

static size_t distinct_answers(ctx *c, const qb_question *q, bool right, sa_answer **out,
                               char ***keys, size_t *nkeys)
{
	size_t n = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		if (ch->correct != right)
			continue;
		for (size_t l = 0; l < c->nlangs; l++) {
			const char *s = qb_render_md(c->r, &ch->text, c->langs[l]);
			char *key = qb_answer_normalise(s, q->case_sensitive);
			size_t k;
			for (k = 0; k < *nkeys && strcmp((*keys)[k], key) != 0; k++)
				;
			if (k < *nkeys || !*key) {
				free(key);
				continue;
			}
			*keys = qb_xrealloc(*keys, (*nkeys + 1) * sizeof **keys);
			(*keys)[(*nkeys)++] = key;
			*out = qb_xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = (sa_answer){s, ch};
		}
	}
	return n;
}

/* short-answer: shortanswer.  Moodle compares an answer's text with the
 * learner's response literally (no filter), so each distinct accepted
 * string of every written language is one <answer> at 100, then each
 * listed wrong one at 0, then "*" (anything else) at 0 with the
 * feedback-wrong: Moodle takes the first answer that matches. */
static void write_shortanswer(ctx *c, const qb_question *q)
{
	qb_buf qtext = QB_BUF_INIT;
	prompt_html(c, &qtext, q, "_", ""); /* see write_numerical() */
	start_question(c, q, "shortanswer", qb_buf_cstr(&qtext), NULL, NULL);
	qb_buf_dispose(&qtext);
	write_elem(c, "usecase", q->case_sensitive ? "1" : "0");
	char **keys = NULL;
	size_t nkeys = 0;
	for (int pass = 0; pass < 2; pass++) {
		sa_answer *a = NULL;
		size_t n = distinct_answers(c, q, pass == 0, &a, &keys, &nkeys);
		for (size_t i = 0; i < n; i++) {
			qb_buf t = QB_BUF_INIT;
			star_escape(&t, a[i].text);
			start_answer(c, pass == 0 ? "100" : "0", qb_buf_cstr(&t), false,
			             answer_feedback(q, a[i].from, pass == 0));
			xok(c, xmlTextWriterEndElement(c->w));
			qb_buf_dispose(&t);
		}
		free(a);
	}
	if (qb_question_feedback_wrong(q)->present) {
		start_answer(c, "0", "*", false, qb_question_feedback_wrong(q));
		xok(c, xmlTextWriterEndElement(c->w));
	}
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	end_question(c, q);
}

/* A number as PHP reads it back exactly: the shortest %.*g that
 * round-trips. */
static void put_number(qb_buf *out, double v)
{
	char s[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof s, "%.*g", prec, v);
		if (strtod(s, NULL) == v)
			break;
	}
	qb_buf_puts(out, s);
}

/* A numeric question's further answers, each an <answer> with its
 * fraction and feedback, by credit from the highest (Moodle grades with
 * the first answer that holds the number; qbc with the best). */
static void write_num_more(ctx *c, const qb_question *q)
{
	size_t n;
	const qb_num_more **v = qb_question_num_more_by_credit(q, &n);
	for (size_t i = 0; i < n; i++) {
		const qb_num_more *m = v[i];
		qb_buf f = QB_BUF_INIT, val = QB_BUF_INIT, t = QB_BUF_INIT;
		double half = (m->num.hi - m->num.lo) / 2;
		qb_buf_appendf(&f, "%.7g", m->credit); /* Moodle's fractions: 50, 33.33333 */
		put_number(&val, m->num.range ? m->num.lo + half : m->num.value);
		put_number(&t, m->num.range ? half : m->num.tol);
		start_answer(c, qb_buf_cstr(&f), qb_buf_cstr(&val), false,
		             m->feedback.present ? &m->feedback : NULL);
		write_elem(c, "tolerance", qb_buf_cstr(&t));
		xok(c, xmlTextWriterEndElement(c->w));
		qb_buf_dispose(&f);
		qb_buf_dispose(&val);
		qb_buf_dispose(&t);
	}
	free(v);
}

/* A numeric question's unit, as Moodle's numerical and calculated types
 * keep it (shown after the box, not graded). */
static void write_units(ctx *c, const qb_question *q)
{
	if (qb_question_rare(q)->unit) {
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "units"));
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "unit"));
		write_elem(c, "multiplier", "1");
		write_elem(c, "unit_name", qb_question_rare(q)->unit);
		xok(c, xmlTextWriterEndElement(c->w));
		xok(c, xmlTextWriterEndElement(c->w));
	}
	write_elem(c, "unitgradingtype", "0");
	write_elem(c, "unitpenalty", "0");
	write_elem(c, "showunits", qb_question_rare(q)->unit ? "0" : "3");
	write_elem(c, "unitsleft", "0");
}

/* numeric: numerical.  value ± tolerance (absolute, Moodle's "nominal"
 * tolerance; a percentage is already absolute in the model); a range
 * lo..hi is its middle ± half its width.  A unit is Moodle's one unit
 * (multiplier 1), optional when typed (unitgradingtype 0, showunits 0:
 * "42" and "42 GB" both count) and shown after the box through Moodle's
 * answer-box placeholder: a line "__________ GB" at the end of the
 * question text (the renderers of numerical and shortanswer put the box
 * where the first run of five or more underscores is, so the prompt's
 * own are written as &#95;). */
static void write_numerical(ctx *c, const qb_question *q)
{
	qb_buf qtext = QB_BUF_INIT, tail = QB_BUF_INIT, v = QB_BUF_INIT, t = QB_BUF_INIT;
	if (qb_question_rare(q)->unit) {
		qb_buf_puts(&tail, "<p>__________ ");
		qb_escape_html(&tail, qb_question_rare(q)->unit);
		qb_buf_puts(&tail, "</p>");
	}
	prompt_html(c, &qtext, q, "_", qb_buf_cstr(&tail));
	qb_buf_dispose(&tail);
	start_question(c, q, "numerical", qb_buf_cstr(&qtext), NULL, NULL);
	const qb_numeric *num = qb_question_num(q);
	double half = (num->hi - num->lo) / 2;
	put_number(&v, num->range ? num->lo + half : num->value);
	put_number(&t, num->range ? half : num->tol);
	start_answer(c, "100", qb_buf_cstr(&v), false, NULL);
	write_elem(c, "tolerance", qb_buf_cstr(&t));
	xok(c, xmlTextWriterEndElement(c->w));
	write_num_more(c, q);
	if (qb_question_feedback_wrong(q)->present) {
		start_answer(c, "0", "*", false, qb_question_feedback_wrong(q));
		write_elem(c, "tolerance", "0");
		xok(c, xmlTextWriterEndElement(c->w));
	}
	write_units(c, q);
	end_question(c, q);
	qb_buf_dispose(&qtext);
	qb_buf_dispose(&v);
	qb_buf_dispose(&t);
}

/* ---- parameterised questions (issue 38): Moodle's calculated types ----
 *
 * A parameterised numeric question is Moodle's 'calculated' (or
 * 'calculatedsimple' when its variables are what that form makes: ranges
 * of any value at some decimals, no conditions, no table), a single or
 * multiple one 'calculatedmulti'.  The pool is their datasets' items,
 * numbered 1..N as qbc's draws, so that Moodle picks a draw as it always
 * does (one item number for every dataset of the question: a draw stays
 * whole).  Each variable of a range, a list or a table is a dataset,
 * shown in texts as the wildcard '{h}'; a formula (a variable of other
 * variables, a text's '{=...}', the answer) is written as Moodle's formula
 * of those wildcards (qtype_calculated_find_formula_errors(): PHP's
 * functions, pow(a,b) for a^b, pi() for pi; '^' is refused).  libmatheval
 * reads qbc's formula and gives it back fully parenthesised
 * (evaluator_get_string()), in which each 'x^y' is its own '(x^y)': no
 * parser of ours; its numbers and constants are named first (x1, pi), so
 * that it neither folds nor shortens them (it prints numbers with %g).
 * qbc rounds a variable to its decimals before a formula uses it, which
 * round(F,d) does in Moodle; in a text '{=round(F,d)}' also shows it with
 * those decimals (Moodle shows a text's formula unrounded, and an option's
 * with its correctanswerlength).  A formula Moodle's functions cannot say
 * (erf, step, acot, ...) becomes a dataset of its pool values (a warning
 * says so).  Texts are rendered with a mark for each placeholder, every
 * '{' of the HTML written &#123; (nothing from the bank reads as a
 * wildcard), and the marks replaced by the Moodle forms. */

#define MOODLE_MAX_ITEMS 100 /* qtype_calculated::MAX_DATASET_ITEMS       */
#define PH_OPEN "\xEE\x80\x81"  /* U+E001: a placeholder's mark in a text */
#define PH_CLOSE "\xEE\x80\x82" /* U+E002                                 */

typedef struct mvar {
	char *name;    /* the dataset's (wildcard's) name, when a dataset     */
	char *expr;    /* in a Moodle formula: "{h}", "round(F,2)"          */
	char *text;    /* in a text: "{h}", "{=round(F,2)}"                 */
	char *raw;     /* the answer's formula, unrounded                    */
	bool *deps;    /* the variables whose datasets expr uses (n)          */
	bool dataset;  /* its values are a dataset                            */
	bool fallback; /* a formula Moodle cannot say: its values a dataset   */
	bool used;     /* written in a text or formula: its dataset is needed */
} mvar;

typedef struct mform {
	const qb_params *p;
	mvar *v;       /* nvars + 1: the answer last                          */
	size_t n;
	size_t nitems; /* the items written: the pool, at most Moodle's 100  */
	bool simple;   /* calculatedsimple                                    */
} mform;

static bool ident_start(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}

static bool ident_char(char ch)
{
	return ident_start(ch) || (ch >= '0' && ch <= '9');
}

static bool digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* The index of the named variable s[0..len) among the first upto, or
 * (size_t)-1. */
static size_t var_named(const qb_params *p, const char *s, size_t len, size_t upto)
{
	for (size_t i = 0; i < upto && i < p->nnamed; i++)
		if (p->vars[i].name && strlen(p->vars[i].name) == len &&
		    memcmp(p->vars[i].name, s, len) == 0)
			return i;
	return (size_t)-1;
}

/* The end of the parenthesised group that opens at s[at] ('('). */
static size_t group_end(const char *s, size_t at)
{
	int depth = 0;
	for (size_t i = at; s[i]; i++) {
		depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
		if (!depth)
			return i;
	}
	return strlen(s);
}

/* s with each '(x^y)' of libmatheval's fully parenthesised form made
 * Moodle's 'pow(x,y)' and each cot, sec, csc and their hyperbolic forms
 * PHP's reciprocal (1/tan(...)). */
static void moodle_ops(qb_buf *s)
{
	static const char *const recip[][2] = {{"cot", "tan"}, {"sec", "cos"}, {"csc", "sin"},
	                                       {"coth", "tanh"}, {"sech", "cosh"}, {"csch", "sinh"}};
	for (char *hat; (hat = strchr(qb_buf_cstr(s), '^')) != NULL;) {
		char *str = s->ptr;
		size_t p = (size_t)(hat - str), lo = 0, hi = s->len;
		int depth = 0;
		for (size_t i = p; i-- > 0;) {
			depth += str[i] == ')' ? 1 : str[i] == '(' ? -1 : 0;
			if (depth < 0) {
				lo = i;
				break;
			}
		}
		depth = 0;
		for (size_t i = p + 1; i < s->len; i++) {
			depth += str[i] == '(' ? 1 : str[i] == ')' ? -1 : 0;
			if (depth < 0) {
				hi = i;
				break;
			}
		}
		bool wrapped = str[lo] == '(' && hi < s->len;
		qb_buf t = QB_BUF_INIT;
		size_t from = wrapped ? lo + 1 : 0, to = wrapped ? hi : s->len;
		qb_buf_append(&t, str, wrapped ? lo : 0);
		qb_buf_puts(&t, "pow(");
		qb_buf_append(&t, str + from, p - from);
		qb_buf_putc(&t, ',');
		qb_buf_append(&t, str + p + 1, to - p - 1);
		qb_buf_putc(&t, ')');
		if (wrapped)
			qb_buf_puts(&t, str + hi + 1);
		qb_buf_clear(s);
		qb_buf_puts(s, qb_buf_cstr(&t));
		qb_buf_dispose(&t);
	}
	for (size_t k = 0; k < QB_NELEM(recip); k++) {
		size_t nl = strlen(recip[k][0]);
		for (size_t i = 0; i + nl < s->len; i++) {
			char *str = s->ptr;
			if ((i && ident_char(str[i - 1])) || memcmp(str + i, recip[k][0], nl) != 0 ||
			    str[i + nl] != '(')
				continue;
			size_t end = group_end(str, i + nl);
			qb_buf t = QB_BUF_INIT;
			qb_buf_append(&t, str, i);
			qb_buf_appendf(&t, "(1/%s", recip[k][1]);
			qb_buf_append(&t, str + i + nl, end + 1 - (i + nl));
			qb_buf_putc(&t, ')');
			qb_buf_puts(&t, str + end + 1);
			qb_buf_clear(s);
			qb_buf_puts(s, qb_buf_cstr(&t));
			qb_buf_dispose(&t);
		}
	}
}

/* Moodle's form of the formula f of variables among the first upto
 * (their exprs), its datasets added to deps; NULL (heap otherwise) when
 * libmatheval does not read it or Moodle's functions cannot say it. */
static char *moodle_formula(const mform *m, const char *f, size_t upto, bool *deps)
{
	static const char *const same[] = {"abs",  "acos", "acosh", "asin", "asinh", "atan",
	                                   "atanh", "cos", "cosh",  "exp",  "log",   "sin",
	                                   "sinh", "sqrt", "tan",   "tanh", "pow"};
	qb_buf named = QB_BUF_INIT, s = QB_BUF_INIT, out = QB_BUF_INIT;
	const char **lit = NULL;
	size_t *litlen = NULL, nlit = 0;
	char *result = NULL;
	void *ev = NULL;
	/* numbers as variables x<k>; pi and e as variables too */
	for (const char *p = f; *p;) {
		if (ident_start(*p)) {
			const char *b = p;
			while (ident_char(*p))
				p++;
			size_t len = (size_t)(p - b);
			if (*p == '(')
				qb_buf_append(&named, b, len);
			else if ((len == 2 && memcmp(b, "pi", 2) == 0) || (len == 1 && *b == 'e'))
				qb_buf_appendf(&named, "qbc_%.*s", (int)len, b);
			else
				qb_buf_appendf(&named, "v_%.*s", (int)len, b);
		} else if (digit(*p) || (*p == '.' && digit(p[1]))) {
			const char *b = p;
			while (digit(*p))
				p++;
			if (*p == '.')
				for (p++; digit(*p);)
					p++;
			if ((*p == 'e' || *p == 'E') &&
			    (digit(p[1]) || ((p[1] == '+' || p[1] == '-') && digit(p[2])))) {
				for (p += 2; digit(*p);)
					p++;
			}
			lit = qb_xrealloc(lit, (nlit + 1) * sizeof *lit);
			litlen = qb_xrealloc(litlen, (nlit + 1) * sizeof *litlen);
			lit[nlit] = b;
			litlen[nlit] = (size_t)(p - b);
			qb_buf_appendf(&named, "qbc_%zu", nlit++);
		} else {
			qb_buf_putc(&named, *p++);
		}
	}
	ev = evaluator_create(named.ptr ? named.ptr : (char *)"");
	if (!ev)
		goto done;
	qb_buf_puts(&s, evaluator_get_string(ev));
	moodle_ops(&s);
	for (const char *p = qb_buf_cstr(&s); *p;) {
		if (!ident_start(*p)) {
			qb_buf_putc(&out, *p++);
			continue;
		}
		const char *b = p;
		while (ident_char(*p))
			p++;
		size_t len = (size_t)(p - b);
		if (*p == '(') { /* a function */
			size_t k;
			for (k = 0; k < QB_NELEM(same) && !(strlen(same[k]) == len && memcmp(same[k], b, len) == 0); k++)
				;
			if (k == QB_NELEM(same))
				goto done;
			qb_buf_append(&out, b, len);
		} else if (len > 4 && memcmp(b, "qbc_", 4) == 0 && digit(b[4])) {
			size_t k = strtoul(b + 4, NULL, 10);
			if (k >= nlit)
				goto done;
			qb_buf_append(&out, lit[k], litlen[k]);
		} else if (len == 6 && memcmp(b, "qbc_pi", 6) == 0) {
			qb_buf_puts(&out, "pi()");
		} else if (len == 5 && memcmp(b, "qbc_e", 5) == 0) {
			qb_buf_puts(&out, "exp(1)");
		} else if (len > 2 && memcmp(b, "v_", 2) == 0) {
			size_t j = var_named(m->p, b + 2, len - 2, upto);
			if (j == (size_t)-1 || !m->v[j].expr)
				goto done;
			qb_buf_puts(&out, m->v[j].expr);
			for (size_t d = 0; d < m->n; d++)
				deps[d] = deps[d] || m->v[j].deps[d];
		} else {
			goto done;
		}
	}
	result = qb_buf_detach(&out);
done:
	if (ev)
		evaluator_destroy(ev);
	free(lit);
	free(litlen);
	qb_buf_dispose(&named);
	qb_buf_dispose(&s);
	qb_buf_dispose(&out);
	return result;
}

/* A dataset name for want that Moodle reads as a wildcard
 * ([[:alpha:]][[:alpha:][:digit:]_-]*) and no other variable has. */
static char *wildcard_name(const mform *m, size_t self, const char *want)
{
	qb_buf b = QB_BUF_INIT;
	for (int k = 0;; k++) {
		qb_buf_clear(&b);
		if (!((*want >= 'A' && *want <= 'Z') || (*want >= 'a' && *want <= 'z')))
			qb_buf_putc(&b, 'v');
		qb_buf_puts(&b, want);
		if (k)
			qb_buf_appendf(&b, "%d", k);
		size_t j = var_named(m->p, b.ptr, b.len, m->p->nnamed);
		bool taken = j != (size_t)-1 && j != self;
		for (size_t i = 0; !taken && i < m->n; i++)
			taken = i != self && m->v[i].name && strcmp(m->v[i].name, b.ptr) == 0;
		if (!taken)
			return qb_buf_detach(&b);
	}
}

/* The decimals formula variable i is shown with: those written, else
 * (qbc shows it without trailing zeros) the most any written draw needs. */
static int shown_decimals(const mform *m, size_t i)
{
	const qb_params *p = m->p;
	bool written = i < p->nvars ? p->vars[i].decimals_written : p->answer.decimals_written;
	int dec = i < p->nvars ? p->vars[i].decimals : p->answer.decimals, most = 0;
	for (size_t k = 0; !written && k < m->nitems; k++) {
		double x = qb_params_value(p, k, i);
		int d = 0;
		while (d < dec && fabs(x * pow(10, d) - round(x * pow(10, d))) > 1e-9 * fmax(1, fabs(x * pow(10, d))))
			d++;
		most = d > most ? d : most;
	}
	return written ? dec : most;
}

/* Variable i (i == nvars: the answer) as a dataset of its pool values. */
static void as_dataset(mform *m, size_t i, const char *want)
{
	mvar *v = &m->v[i];
	v->dataset = true;
	v->name = wildcard_name(m, i, want);
	free(v->expr);
	free(v->text);
	v->expr = qb_xasprintf("{%s}", v->name);
	v->text = i < m->p->nvars ? qb_xasprintf("{%s}", v->name)
	                          : qb_xasprintf("{=round({%s},%d)}", v->name, shown_decimals(m, i));
	memset(v->deps, 0, m->n * sizeof *v->deps);
	v->deps[i] = true;
}

static void mform_free(mform *m)
{
	for (size_t i = 0; m && i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].expr);
		free(m->v[i].text);
		free(m->v[i].raw);
		free(m->v[i].deps);
	}
	if (m)
		free(m->v);
	free(m);
}

/* q's placeholders and answer in Moodle's form (heap; mform_free()). */
static mform *mform_make(const qb_question *q, const qb_params *p)
{
	mform *m = qb_xcalloc(1, sizeof *m);
	m->p = p;
	m->n = p->nvars + 1;
	m->v = qb_xcalloc(m->n, sizeof *m->v);
	m->nitems = p->npool < MOODLE_MAX_ITEMS ? p->npool : MOODLE_MAX_ITEMS;
	m->simple = q->type == QB_QTYPE_NUMERIC && !p->where && !p->ntable_rows;
	for (size_t i = 0; i < m->n; i++)
		m->v[i].deps = qb_xcalloc(m->n, sizeof *m->v[i].deps);
	for (size_t i = 0; i < p->nvars; i++) {
		const qb_var *var = &p->vars[i];
		mvar *v = &m->v[i];
		if (var->kind != QB_VAR_FORMULA) {
			as_dataset(m, i, var->name ? var->name : "x");
			/* what Moodle's uniform distribution at 'decimals' draws */
			m->simple = m->simple && var->kind == QB_VAR_RANGE &&
			            (var->step == 0 || fabs(var->step - pow(10, -var->decimals)) < 1e-12);
			continue;
		}
		char *f = var->formula ? moodle_formula(m, var->formula, i < p->nnamed ? i : p->nnamed,
		                                        v->deps)
		                       : NULL;
		if (f) {
			v->expr = qb_xasprintf("round(%s,%d)", f, var->decimals);
			v->text = qb_xasprintf("{=%s}", v->expr);
		} else {
			char want[32];
			snprintf(want, sizeof want, "f%zu", i + 1 - p->nnamed);
			as_dataset(m, i, var->name ? var->name : want);
			v->fallback = true;
			m->simple = false;
		}
		free(f);
	}
	mvar *a = &m->v[p->nvars];
	if (p->answer.formula) {
		a->raw = moodle_formula(m, p->answer.formula, p->nnamed, a->deps);
		if (a->raw) {
			a->text = qb_xasprintf("{=round(%s,%d)}", a->raw, shown_decimals(m, p->nvars));
		} else {
			as_dataset(m, p->nvars, "answer");
			a->raw = qb_xstrdup(a->expr);
			a->fallback = true;
			m->simple = false;
		}
	} else {
		a->raw = qb_xstrdup("0");
		a->text = qb_xstrdup("");
	}
	return m;
}

/* Notes that variable i is written: its datasets are needed. */
static void mform_use(mform *m, size_t i)
{
	m->v[i].used = true;
	for (size_t d = 0; d < m->n; d++)
		if (m->v[i].deps[d])
			m->v[d].used = true;
}

/* md_html() of a calculated question's text: each placeholder a mark,
 * rendered, every '{' written &#123; (and '_' &#95; where Moodle's answer
 * box would take a run of them, c->esc_under), the marks made the Moodle
 * forms. */
static void pm_md_html(ctx *c, qb_buf *out, const char *md)
{
	mform *m = c->pm;
	qb_buf marked = QB_BUF_INIT, html = QB_BUF_INIT;
	size_t n = strlen(md), at = 0;
	qb_placeholder ph;
	while (qb_params_next(m->p, md, n, at, &ph)) {
		qb_buf_append(&marked, md + at, ph.off - at);
		qb_buf_appendf(&marked, PH_OPEN "%zu" PH_CLOSE, ph.var);
		at = ph.off + ph.len;
	}
	qb_buf_append(&marked, md + at, n - at);
	qb_markup_images(qb_buf_cstr(&marked), note_image, c);
	if (qb_render_html(c->r, &html, qb_buf_cstr(&marked), &c->media) != 0)
		c->failed = true;
	for (const char *s = qb_buf_cstr(&html); *s; s++) {
		if (strncmp(s, PH_OPEN, sizeof PH_OPEN - 1) == 0) {
			char *end;
			size_t i = strtoul(s + sizeof PH_OPEN - 1, &end, 10);
			if (i < m->n && strncmp(end, PH_CLOSE, sizeof PH_CLOSE - 1) == 0) {
				mform_use(m, i);
				qb_buf_puts(out, m->v[i].text);
				s = end + sizeof PH_CLOSE - 2;
				continue;
			}
		}
		if (*s == '{')
			qb_buf_puts(out, "&#123;");
		else if (*s == '_' && c->esc_under)
			qb_buf_puts(out, "&#95;");
		else
			qb_buf_putc(out, *s);
	}
	qb_buf_dispose(&marked);
	qb_buf_dispose(&html);
}

/* The decimals of the formulas in t's languages: a calculatedmulti
 * option's correctanswerlength, with which Moodle shows every formula of
 * it (sprintf's %.*F). */
static int text_decimals(const ctx *c, const mform *m, const qb_text *t)
{
	int d = 0;
	for (size_t l = 0; t->present && l < c->nlangs; l++) {
		const char *md = qb_render_md(c->r, t, c->langs[l]);
		size_t n = strlen(md);
		qb_placeholder ph;
		for (size_t at = 0; qb_params_next(m->p, md, n, at, &ph); at = ph.off + ph.len) {
			int dec = m->v[ph.var].dataset ? 0 : shown_decimals(m, ph.var);
			d = dec > d ? dec : d;
		}
	}
	return d;
}

/* The elements of a calculated answer after its text and feedback. */
static void calc_answer_tail(ctx *c, const char *tol, const char *tolerancetype, int decimals)
{
	char d[16];
	snprintf(d, sizeof d, "%d", decimals);
	write_elem(c, "tolerance", tol);
	write_elem(c, "tolerancetype", tolerancetype);
	write_elem(c, "correctanswerformat", "1");
	write_elem(c, "correctanswerlength", d);
}

/* <dataset_definitions>: a private dataset per variable written, its
 * items the first m->nitems draws of the pool. */
static void write_datasets(ctx *c, const mform *m)
{
	const qb_params *p = m->p;
	char buf[64], items[32];
	snprintf(items, sizeof items, "%zu", m->nitems);
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "dataset_definitions"));
	for (size_t i = 0; i < m->n; i++) {
		const mvar *v = &m->v[i];
		if (!v->dataset || !v->used)
			continue;
		const qb_var *var = i < p->nvars ? &p->vars[i] : NULL;
		int dec = var ? var->decimals : 15;
		double lo = (double)INFINITY, hi = -(double)INFINITY;
		for (size_t k = 0; k < m->nitems; k++) {
			double x = qb_params_value(p, k, i);
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		if (var && var->kind == QB_VAR_RANGE)
			lo = var->lo, hi = var->hi;
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "dataset_definition"));
		write_plain(c, "status", "private");
		write_plain(c, "name", v->name);
		write_elem(c, "type", m->simple ? "calculatedsimple" : "calculated");
		write_plain(c, "distribution", "uniform");
		qb_buf b = QB_BUF_INIT;
		if (var) {
			write_plain(c, "minimum", qb_params_number(lo, dec, ".", buf, sizeof buf));
			write_plain(c, "maximum", qb_params_number(hi, dec, ".", buf, sizeof buf));
		} else {
			put_number(&b, lo);
			write_plain(c, "minimum", qb_buf_cstr(&b));
			qb_buf_clear(&b);
			put_number(&b, hi);
			write_plain(c, "maximum", qb_buf_cstr(&b));
		}
		snprintf(buf, sizeof buf, "%d", var ? dec : 0);
		write_plain(c, "decimals", buf);
		write_elem(c, "itemcount", items);
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "dataset_items"));
		for (size_t k = 0; k < m->nitems; k++) {
			xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "dataset_item"));
			snprintf(buf, sizeof buf, "%zu", k + 1);
			write_elem(c, "number", buf);
			qb_buf_clear(&b);
			if (var)
				qb_buf_puts(&b, qb_params_value_text(p, k, i, ".", buf, sizeof buf));
			else
				put_number(&b, qb_params_value(p, k, i));
			write_elem(c, "value", qb_buf_cstr(&b));
			xok(c, xmlTextWriterEndElement(c->w));
		}
		xok(c, xmlTextWriterEndElement(c->w));
		write_elem(c, "number_of_items", items);
		xok(c, xmlTextWriterEndElement(c->w));
		qb_buf_dispose(&b);
	}
	xok(c, xmlTextWriterEndElement(c->w));
}

/* A parameterised numeric question: calculated (calculatedsimple), the
 * answer Moodle's formula with its tolerance (a percentage Moodle's
 * relative tolerance, 1; else nominal, 2) and its decimals
 * (correctanswerlength); further answers and the unit as
 * write_numerical() writes them. */
static void write_calculated(ctx *c, const qb_question *q, mform *m)
{
	const qb_params *p = m->p;
	qb_buf qtext = QB_BUF_INIT, t = QB_BUF_INIT;
	c->pm = m;
	c->esc_under = true;
	text_html(c, &qtext, &q->prompt);
	c->esc_under = false;
	if (qb_question_rare(q)->unit) {
		qb_buf_puts(&qtext, "<p>__________ ");
		qb_escape_html(&qtext, qb_question_rare(q)->unit);
		qb_buf_puts(&qtext, "</p>");
	}
	qb_arena a0 = {0};
	start_question(c, q, m->simple ? "calculatedsimple" : "calculated", qb_buf_cstr(&qtext),
	               draw0_prompt(c, &a0, q), NULL);
	qb_arena_dispose(&a0);
	write_elem(c, "synchronize", "0");
	write_elem(c, "single", "0");
	write_elem(c, "answernumbering", "abc");
	write_elem(c, "shuffleanswers", "0");
	write_text(c, "correctfeedback", NULL, "answerCorrect", NULL);
	write_text(c, "partiallycorrectfeedback", NULL, "answerPartiallyCorrect", NULL);
	write_text(c, "incorrectfeedback", NULL, "answerIncorrect", NULL);
	mvar *a = &m->v[p->nvars];
	const char *type = "2";
	if (p->answer.formula) {
		put_number(&t, p->answer.percent ? p->answer.tol / 100 : p->answer.tol);
		type = p->answer.percent ? "1" : "2";
		mform_use(m, p->nvars);
	} else {
		const qb_numeric *num = qb_question_num(q);
		double half = num ? (num->hi - num->lo) / 2 : 0;
		free(a->raw);
		qb_buf b = QB_BUF_INIT;
		put_number(&b, num ? (num->range ? num->lo + half : num->value) : 0);
		a->raw = qb_buf_detach(&b);
		put_number(&t, num ? (num->range ? half : num->tol) : 0);
	}
	start_answer(c, "100", a->raw, false, NULL);
	calc_answer_tail(c, qb_buf_cstr(&t), type,
	                 p->answer.formula ? shown_decimals(m, p->nvars) : p->answer.decimals);
	xok(c, xmlTextWriterEndElement(c->w));
	size_t nmore;
	const qb_num_more **more = qb_question_num_more_by_credit(q, &nmore);
	for (size_t i = 0; i < nmore; i++) {
		const qb_num_more *mo = more[i];
		qb_buf f = QB_BUF_INIT, val = QB_BUF_INIT, tol = QB_BUF_INIT;
		double half = (mo->num.hi - mo->num.lo) / 2;
		qb_buf_appendf(&f, "%.7g", mo->credit);
		put_number(&val, mo->num.range ? mo->num.lo + half : mo->num.value);
		put_number(&tol, mo->num.range ? half : mo->num.tol);
		start_answer(c, qb_buf_cstr(&f), qb_buf_cstr(&val), false,
		             mo->feedback.present ? &mo->feedback : NULL);
		calc_answer_tail(c, qb_buf_cstr(&tol), "2", p->answer.decimals);
		xok(c, xmlTextWriterEndElement(c->w));
		qb_buf_dispose(&f);
		qb_buf_dispose(&val);
		qb_buf_dispose(&tol);
	}
	free(more);
	if (qb_question_feedback_wrong(q)->present) {
		start_answer(c, "0", "*", false, qb_question_feedback_wrong(q));
		calc_answer_tail(c, "0", "2", p->answer.decimals);
		xok(c, xmlTextWriterEndElement(c->w));
	}
	write_units(c, q);
	write_datasets(c, m);
	c->pm = NULL;
	end_question(c, q);
	qb_buf_dispose(&qtext);
	qb_buf_dispose(&t);
}

/* qb_markup_images callback: counts. */
static void count_media(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(src);
	QB_UNUSED(offset);
	++*(size_t *)payload;
}

/* Reports media in t, which Moodle's field for it cannot hold. */
static void no_media(const qb_render_ctx *r, const qb_question *q, const qb_text *t,
                     const char *what)
{
	for (size_t i = 0; t->present && i < r->nlangs; i++) {
		size_t n = 0;
		const qb_tr *tr = qb_render_tr(r, t, r->langs[i]);
		qb_markup_images(tr ? tr->text : "", count_media, &n);
		if (n) {
			qb_render_error(r, qb_tr_loc(t, tr), "question '%s': Moodle's %s cannot hold a "
			                "picture or sound", q->id, what);
			return;
		}
	}
}

/* matching: matching.  Each pair a subquestion (the left side as HTML,
 * the right side as Moodle's plain-text answer); a distractor a
 * subquestion with an empty text.  Moodle scores right pairs / pairs,
 * qbc's partial rule (all-or-nothing: a warning). */
static void write_matching(ctx *c, const qb_question *q)
{
	start_question(c, q, "matching", NULL, NULL, NULL);
	shuffle_answers(c, q);
	combined_feedback(c, qb_question_feedback_wrong(q));
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		qb_buf left = QB_BUF_INIT, right = QB_BUF_INIT;
		text_html(c, &left, &ch->text);
		text_plain(c, &right, qb_choice_match(ch));
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "subquestion"));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
		write_elem(c, "text", qb_buf_cstr(&left));
		write_files(c);
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "answer"));
		write_elem(c, "text", qb_buf_cstr(&right));
		xok(c, xmlTextWriterEndElement(c->w));
		xok(c, xmlTextWriterEndElement(c->w));
		qb_buf_dispose(&left);
		qb_buf_dispose(&right);
	}
	end_question(c, q);
}

/* ---- cloze ---- */

/* Appends s as one answer or feedback of a gap in Moodle's embedded-answer
 * syntax, so that it reads back as s both on import and after a teacher
 * saves the question unchanged in Moodle's cloze editor.  Moodle reads an
 * answer up to a '~', '#' or '}' not preceded by '\\', '&' or "&amp;", a
 * feedback up to a '~' or '}' not preceded by '\\', then decodes the HTML
 * character references in it and "\\}", "\\#" (qtype_multianswer_extract_
 * question, question/type/multianswer/questiontype.php).  The editing
 * form writes each stored gap back with every "&#" turned into "&\\#"
 * (edit_multianswer_form.php, set_data()), which would leave a numeric
 * reference as literal text on the next save; so '&', '<', '>' and '"'
 * are named references and '}', '#' Moodle's own escapes.  '~' has no
 * form either path keeps: it stays &#126; (right on import, changed by
 * the editor), as does a '\\' or '&' that ends s, which would escape the
 * separator after it.  Returns false when s holds one of those. */
static void cloze_escape(qb_buf *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '&':
			qb_buf_puts(out, p[1] ? "&amp;" : "&#38;");
			break;
		case '<':
			qb_buf_puts(out, "&lt;");
			break;
		case '>':
			qb_buf_puts(out, "&gt;");
			break;
		case '"':
			qb_buf_puts(out, "&quot;");
			break;
		case '}':
		case '#':
			qb_buf_putc(out, '\\');
			qb_buf_putc(out, *p);
			break;
		case '~':
			qb_buf_puts(out, "&#126;");
			break;
		case '\\':
			qb_buf_puts(out, p[1] ? "\\" : "&#92;");
			break;
		default:
			qb_buf_putc(out, *p);
		}
	}
}

/* Appends one alternative of a gap: its mark ("=" when right, else "%0%"
 * when the text starts with what would read as a mark) and its text. */
static void cloze_alternative(qb_buf *out, bool right, const char *text)
{
	if (right)
		qb_buf_putc(out, '=');
	else if (*text == '=' || *text == '%')
		qb_buf_puts(out, "%0%");
	cloze_escape(out, text);
}

#define GAP_MARK "\xEE\x80\x80" /* U+E000: a gap in the rendered prompt      */

/* The first language (index > 0) whose version of a gap (g[l], one per
 * written language) differs from the first's in what Moodle keeps once
 * per gap: its kind, and for a choice gap the number of choices and the
 * right one; 0 when none does. */
static size_t gap_differs(const qb_cloze_gap *const *g, size_t nlangs)
{
	for (size_t l = 1; l < nlangs; l++)
		if (g[l]->choice != g[0]->choice || !g[l]->num != !g[0]->num ||
		    (g[0]->num && (g[l]->num->lo != g[0]->num->lo || g[l]->num->hi != g[0]->num->hi)) ||
		    (g[0]->choice && (g[l]->nanswers != g[0]->nanswers || g[l]->right != g[0]->right)))
			return l;
	return 0;
}

/* A range's middle or half width rounded to 14 significant digits, as
 * the author's digits give them (36.1..37.2: 36.65 ± 0.55, not
 * 36.650000000000006 ± 0.5500000000000007: the subtraction is a few
 * units off in the 16th digit). */
static double range_decimal(double v)
{
	char s[40];
	snprintf(s, sizeof s, "%.14g", v);
	return strtod(s, NULL);
}

/* A numeric gap as Moodle's {1:NUMERICAL:=value:tolerance}, as
 * write_numerical() writes a numeric question (a range is its middle ±
 * half its width, a percentage already absolute); the feedback for a
 * wrong answer on every other number ('*'). */
static void cloze_numeric_gap(qb_buf *out, const qb_numeric *num, const qb_buf *fb)
{
	double half = (num->hi - num->lo) / 2;
	qb_buf_puts(out, "{1:NUMERICAL:=");
	put_number(out, num->range ? range_decimal(num->lo + half) : num->value);
	qb_buf_putc(out, ':');
	put_number(out, num->range ? range_decimal(half) : num->tol);
	if (fb->len) {
		qb_buf_puts(out, "~*#");
		cloze_escape(out, qb_buf_cstr(fb));
	}
}

/* One gap's embedded answer, {1:TYPE:...}, from its versions in every
 * written language (g[l]).  A typed gap accepts the distinct answers of
 * every language (Moodle compares them literally, as in shortanswer); a
 * choice gap's choices are multilang texts, so every language must have
 * the same number of choices with the right one at the same place. */
static void cloze_gap(ctx *c, qb_buf *out, const qb_question *q, const qb_cloze_gap *const *g)
{
	qb_buf html = QB_BUF_INIT;
	qb_buf fb = QB_BUF_INIT;
	if (qb_question_feedback_wrong(q)->present)
		text_html(c, &fb, qb_question_feedback_wrong(q));
	if (gap_differs(g, c->nlangs)) { /* qb_check_moodlexml() reported it */
		c->failed = true;
		goto done;
	}
	if (g[0]->num) {
		cloze_numeric_gap(out, g[0]->num, &fb);
	} else if (g[0]->choice) {
		qb_buf_puts(out, "{1:MULTICHOICE_S:"); /* shuffled: the right one is not always first */
		for (size_t k = 0; k < g[0]->nanswers; k++) {
			if (k)
				qb_buf_putc(out, '~');
			qb_buf_clear(&html);
			for (size_t l = 0; l < c->nlangs; l++) {
				if (l)
					qb_buf_putc(&html, ' ');
				lang_open(c, &html, c->langs[l]);
				qb_escape_html(&html, g[l]->answers[k]);
				lang_close(c, &html);
			}
			cloze_alternative(out, k == g[0]->right, qb_buf_cstr(&html));
			if (k != g[0]->right && fb.len) {
				qb_buf_putc(out, '#');
				cloze_escape(out, qb_buf_cstr(&fb));
			}
		}
	} else {
		qb_buf_puts(out, q->case_sensitive ? "{1:SHORTANSWER_C:" : "{1:SHORTANSWER:");
		char **keys = NULL;
		size_t nkeys = 0;
		for (size_t l = 0; l < c->nlangs; l++)
			for (size_t k = 0; k < g[l]->nanswers; k++) {
				char *key = qb_answer_normalise(g[l]->answers[k], q->case_sensitive);
				size_t j;
				for (j = 0; j < nkeys && strcmp(keys[j], key) != 0; j++)
					;
				if (j < nkeys || !*key) {
					free(key);
					continue;
				}
				keys = qb_xrealloc(keys, (nkeys + 1) * sizeof *keys);
				keys[nkeys++] = key;
				if (nkeys > 1)
					qb_buf_putc(out, '~');
				qb_buf_clear(&html);
				star_escape(&html, g[l]->answers[k]);
				cloze_alternative(out, true, qb_buf_cstr(&html));
			}
		for (size_t j = 0; j < nkeys; j++)
			free(keys[j]);
		free(keys);
		if (fb.len) {
			qb_buf_puts(out, "~*#");
			cloze_escape(out, qb_buf_cstr(&fb));
		}
	}
	qb_buf_putc(out, '}');
done:
	qb_buf_dispose(&html);
	qb_buf_dispose(&fb);
}

/* cloze: multianswer.  Moodle reads the gaps out of the question text
 * ({1:SHORTANSWER:=a~=b}, {1:MULTICHOICE:=right~wrong}) and draws each
 * where it was.  Its renderer marks a gap with a <span> before the
 * filters run, and the multilang filter ends a language at the first
 * </span>, so a gap cannot sit inside a language's span: the text is the
 * languages' runs between the gaps, each run a multilang group, and each
 * gap once between them (every language has the same gaps in the same
 * order).  Each language's prompt is rendered whole, with a mark where
 * each gap is, then cut at the marks, so Markdown around a gap stays
 * right once the filter keeps one language.  '{' in the text is written
 * &#123; so that nothing from the bank reads as a gap.  Moodle scores
 * right gaps / gaps (the question is worth one mark per gap), qbc's
 * partial rule (all-or-nothing with two gaps or more: a warning); it
 * ignores <defaultgrade> and takes the sum of the gaps' marks, which is
 * what is written.  The name shows each gap as "___", not its answers. */
static void write_multianswer(ctx *c, const qb_question *q)
{
	qb_arena a = {0};
	const qb_cloze_gap ***gaps = qb_arena_alloc(&a, c->nlangs * sizeof *gaps);
	char **runs = qb_arena_alloc(&a, c->nlangs * sizeof *runs);
	size_t ngaps = 0;
	bool ok = true;
	qb_buf name = QB_BUF_INIT; /* the main language's prompt, gaps as ___ */
	for (size_t l = 0; l < c->nlangs; l++) {
		/* The gaps, and the prompt with each replaced by the mark. */
		qb_cloze_part *p = NULL;
		size_t np = 0, n = 0;
		if (qb_cloze_split(&a, qb_render_md(c->r, &q->prompt, c->langs[l]), &p, &np) < 0)
			ok = false, np = 0;
		gaps[l] = qb_arena_alloc(&a, (np + 1) * sizeof **gaps);
		qb_buf md = QB_BUF_INIT, html = QB_BUF_INIT;
		bool main = strcmp(c->langs[l], c->r->main_lang) == 0;
		for (size_t i = 0; i < np; i++) {
			if (p[i].gap) {
				gaps[l][n++] = p[i].gap;
				qb_buf_puts(&md, GAP_MARK);
				if (main)
					qb_buf_puts(&name, "\\_\\_\\_");
			} else {
				qb_buf_append(&md, p[i].text, p[i].len);
				if (main)
					qb_buf_append(&name, p[i].text, p[i].len);
			}
		}
		if (l && n != ngaps)
			ok = false;
		ngaps = n;
		md_html(c, &html, qb_buf_cstr(&md));
		qb_buf esc = QB_BUF_INIT;
		put_html(&esc, qb_buf_cstr(&html), "{");
		runs[l] = qb_arena_strdup(&a, qb_buf_cstr(&esc));
		size_t marks = 0;
		for (const char *m = runs[l]; (m = strstr(m, GAP_MARK)) != NULL; m++)
			marks++;
		if (marks != ngaps)
			ok = false;
		qb_buf_dispose(&md);
		qb_buf_dispose(&html);
		qb_buf_dispose(&esc);
	}
	if (!ok) {
		qb_render_error(c->r, qb_text_loc(&q->prompt), "question '%s': its gaps cannot be written for "
		                "Moodle (a language has other gaps, or the text holds U+E000)", q->id);
		c->failed = true;
	}

	qb_buf text = QB_BUF_INIT;
	const qb_cloze_gap **g = qb_arena_alloc(&a, c->nlangs * sizeof *g);
	for (size_t gi = 0; ok && gi <= ngaps; gi++) {
		bool empty = true;
		const char **ends = qb_arena_alloc(&a, c->nlangs * sizeof *ends);
		for (size_t l = 0; l < c->nlangs; l++) {
			ends[l] = strstr(runs[l], GAP_MARK);
			if (!ends[l])
				ends[l] = runs[l] + strlen(runs[l]);
			empty = empty && ends[l] == runs[l];
		}
		for (size_t l = 0; !empty && l < c->nlangs; l++) {
			lang_open(c, &text, c->langs[l]);
			qb_buf_append(&text, runs[l], (size_t)(ends[l] - runs[l]));
			lang_close(c, &text);
		}
		for (size_t l = 0; l < c->nlangs; l++) {
			runs[l] = (char *)ends[l] + (*ends[l] ? strlen(GAP_MARK) : 0);
			g[l] = gi < ngaps ? gaps[l][gi] : NULL;
		}
		if (gi < ngaps)
			cloze_gap(c, &text, q, g);
	}
	char grade[32];
	snprintf(grade, sizeof grade, "%zu", ngaps);
	start_question(c, q, "cloze", qb_buf_cstr(&text), name.len ? qb_buf_cstr(&name) : NULL,
	               grade);
	end_question(c, q);
	qb_buf_dispose(&name);
	qb_buf_dispose(&text);
	qb_arena_dispose(&a);
}

/* Whether Moodle writes q with datasets (calculated, calculatedmulti);
 * a parameterised question of another type is written with its first
 * draw (qb_check_moodlexml() warns). */
static bool calculated_type(const qb_question *q)
{
	return q->type == QB_QTYPE_NUMERIC || q->type == QB_QTYPE_SINGLE ||
	       q->type == QB_QTYPE_MULTIPLE;
}

static void write_plain_question(ctx *c, const qb_question *q);
static void write_draws(ctx *c, const qb_question *q);

static void write_question(ctx *c, const qb_question *q)
{
	const qb_params *p = qb_question_params(q);
	if (p && qb_question_ndraws(q) && calculated_type(q)) {
		mform *m = mform_make(q, p);
		if (q->type == QB_QTYPE_NUMERIC)
			write_calculated(c, q, m);
		else
			write_multichoice(c, q, m);
		mform_free(m);
	} else if (p && qb_question_ndraws(q)) {
		write_draws(c, q);
	} else {
		write_plain_question(c, q);
	}
}

static void write_plain_question(ctx *c, const qb_question *q)
{
	switch (q->type) {
	case QB_QTYPE_SINGLE:
	case QB_QTYPE_MULTIPLE:
		write_multichoice(c, q, NULL);
		break;
	case QB_QTYPE_TRUE_FALSE:
		write_truefalse(c, q);
		break;
	case QB_QTYPE_SHORT:
		write_shortanswer(c, q);
		break;
	case QB_QTYPE_NUMERIC:
		write_numerical(c, q);
		break;
	case QB_QTYPE_MATCHING:
		write_matching(c, q);
		break;
	case QB_QTYPE_CLOZE:
		write_multianswer(c, q);
		break;
	}
}

/* ---- passages ---- */

/* A passage as Moodle's description question (no answer, no mark), before
 * each run of its questions: a teacher adds it to a quiz page above them.
 * Its id is the idnumber of its first only (Moodle drops a second
 * question with an idnumber the category has); import_moodlexml.c reads
 * it back as the passage of the questions that follow. */
static void write_description(ctx *c, const qb_passage *p, bool first)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "description"));
	qb_buf name = QB_BUF_INIT;
	qb_buf_appendf(&name, "%s: ", p->id);
	plain_start(&name, qb_render_md(c->r, &p->text, c->r->main_lang), NAME_PROMPT_CHARS);
	write_plain(c, "name", qb_buf_cstr(&name));
	qb_buf_dispose(&name);
	write_text(c, "questiontext", &p->text, NULL, NULL);
	write_html(c, "generalfeedback", "");
	write_elem(c, "defaultgrade", "0");
	write_elem(c, "penalty", "0");
	write_elem(c, "hidden", "0");
	if (first)
		write_elem(c, "idnumber", p->id);
	xok(c, xmlTextWriterEndElement(c->w));
}

/* After the last question of a passage's run, where a question without
 * one follows: the category again (Moodle stays in it), which ends the
 * passage for import_moodlexml.c, as a category change does. */
static void end_passage(ctx *c)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "category"));
	write_plain(c, "category", c->category ? c->category : "");
	xok(c, xmlTextWriterEndElement(c->w));
}

/* A parameterised question Moodle cannot draw itself (true-false, short
 * answer, matching, cloze: only its calculated types have datasets): each
 * draw a question of its own, in a category of the question's id below
 * the bank's, from which a quiz's random question picks one per attempt
 * (Moodle's way to give each attempt a variant).  The first draw has the
 * question's id as its idnumber (import_moodlexml.c reads it back, and
 * the others as its draws); then the bank's category again. */
static void write_draws(ctx *c, const qb_question *q)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "category"));
	qb_buf path = QB_BUF_INIT, info = QB_BUF_INIT;
	qb_buf_appendf(&path, "%s/%s", c->category ? c->category : "$course$/top", q->id);
	write_plain(c, "category", qb_buf_cstr(&path));
	qb_buf_appendf(&info, "<p>%s: %zu draws. Add a random question from this category to a "
	               "quiz: each attempt shows one of them.</p>", q->id, qb_question_ndraws(q));
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "info"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST qb_buf_cstr(&info)));
	xok(c, xmlTextWriterEndElement(c->w));
	xok(c, xmlTextWriterEndElement(c->w));
	/* a passage's description, as before each run of its questions: the
	 * new category ends the run for import_moodlexml.c (a quiz's random
	 * question never picks a description) */
	if (q->passage)
		write_description(c, qb_question_passage(c->bank, q), false);
	c->ndraws = qb_question_ndraws(q);
	for (c->draw = 0; c->draw < c->ndraws; c->draw++) {
		qb_arena a = {0};
		write_plain_question(c, qb_render_draw(c->r, &a, q, c->draw));
		qb_arena_dispose(&a);
	}
	c->draw = c->ndraws = 0;
	end_passage(c);
	c->left_category = true;
	qb_buf_dispose(&path);
	qb_buf_dispose(&info);
}

/* ---- the category ---- */

static void utc_date(char out[11], time_t t)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}

/* The category question: $course$/top/<title>/revision N (date), with the
 * bank's description (plain text) and every question's last-change date
 * as its info. */
static void write_category(ctx *c)
{
	const qb_bank *bank = c->bank;
	qb_buf path = QB_BUF_INIT, title = QB_BUF_INIT, info = QB_BUF_INIT;
	plain_start(&title, qb_render_md(c->r, &bank->title, c->r->main_lang), 200);
	qb_buf_puts(&path, "$course$/top/");
	/* '/' separates categories; Moodle reads "//" as a '/' in a name. */
	for (const char *p = title.len ? qb_buf_cstr(&title) : bank->id; *p; p++)
		qb_buf_puts(&path, *p == '/' ? "//" : (char[]){*p, '\0'});
	char date[11];
	utc_date(date, c->r->latest);
	qb_buf_appendf(&path, "/revision %u (%s)", c->r->revision, date);

	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "category"));
	write_plain(c, "category", qb_buf_cstr(&path));
	c->category = qb_xstrdup(qb_buf_cstr(&path));
	/* Moodle imports no files for a category (import_category()), so its
	 * description is the plain text of the bank's, without pictures. */
	qb_buf plain = QB_BUF_INIT, esc = QB_BUF_INIT;
	for (size_t i = 0; bank->description.present && i < c->nlangs; i++) {
		qb_buf_clear(&plain);
		qb_buf_clear(&esc);
		qb_render_plain(&plain, qb_render_md(c->r, &bank->description, c->langs[i]));
		qb_escape_html(&esc, qb_buf_cstr(&plain));
		lang_html(c, &info, c->langs[i], qb_buf_cstr(&esc));
	}
	qb_buf_dispose(&plain);
	qb_buf_dispose(&esc);
	qb_buf_appendf(&info, "<p>%s, revision %u. Last changed:</p><ul>", bank->id,
	               c->r->revision);
	for (size_t i = 0; i < bank->nquestions; i++) {
		utc_date(date, qb_render_question_time(c->r, &bank->questions[i]));
		qb_buf_appendf(&info, "<li>%s %s</li>", bank->questions[i].id, date);
	}
	qb_buf_puts(&info, "</ul>");
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "info"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST qb_buf_cstr(&info)));
	xok(c, xmlTextWriterEndElement(c->w));
	xok(c, xmlTextWriterEndElement(c->w));
	qb_buf_dispose(&path);
	qb_buf_dispose(&title);
	qb_buf_dispose(&info);
}

/* The written languages as Moodle XML orders them: the main (default)
 * language first, then the others in bank order.  A heap array. */
static const char **moodle_langs(const qb_render_ctx *r, size_t *n)
{
	const char **langs = qb_xcalloc(r->nlangs + 1, sizeof *langs);
	*n = 0;
	langs[(*n)++] = r->main_lang;
	for (size_t i = 0; i < r->nlangs; i++)
		if (strcmp(r->langs[i], r->main_lang) != 0)
			langs[(*n)++] = r->langs[i];
	return langs;
}

/* ---- the format's rules ---- */

/* A cloze question's gaps: one list of choices per gap, and the partial
 * credit Moodle gives for each right gap. */
/* Whether a gap's answer survives an unchanged save in Moodle's cloze
 * editor (cloze_escape()'s rule): no '~', and a typed answer (written
 * as it is) that does not end in '\\' or '&'. */
static bool editor_keeps(const char *s, bool typed)
{
	size_t n = strlen(s);
	return !strchr(s, '~') && !(typed && n && (s[n - 1] == '\\' || s[n - 1] == '&'));
}

static void check_cloze(const qb_render_ctx *r, const char **langs, size_t nlangs,
                        const qb_question *q)
{
	qb_arena a = {0};
	const qb_cloze_gap ***gaps = qb_arena_alloc(&a, nlangs * sizeof *gaps);
	size_t ngaps = 0;
	for (size_t l = 0; l < nlangs; l++) {
		qb_cloze_part *p = NULL;
		size_t np = 0, n = 0;
		if (qb_cloze_split(&a, qb_render_md(r, &q->prompt, langs[l]), &p, &np) < 0)
			np = 0;
		gaps[l] = qb_arena_alloc(&a, (np + 1) * sizeof **gaps);
		for (size_t i = 0; i < np; i++)
			if (p[i].gap)
				gaps[l][n++] = p[i].gap;
		if (l && n != ngaps)
			goto done; /* the writer says it cannot write them */
		ngaps = n;
	}
	const qb_cloze_gap **g = qb_arena_alloc(&a, (nlangs + 1) * sizeof *g);
	for (size_t gi = 0; gi < ngaps; gi++) {
		for (size_t l = 0; l < nlangs; l++)
			g[l] = gaps[l][gi];
		size_t l = gap_differs(g, nlangs);
		if (l) {
			const qb_tr *tr = qb_render_tr(r, &q->prompt, langs[l]);
			qb_render_error(r, tr ? qb_tr_text_loc(&q->prompt, tr) : qb_text_loc(&q->prompt),
			                "question '%s': gap %zu differs between %s and %s in its kind, "
			                "number of choices, right choice or number; Moodle keeps one list of "
			                "choices per gap", q->id, gi + 1, langs[0], langs[l]);
			goto done;
		}
	}
	for (size_t gi = 0; gi < ngaps; gi++) {
		bool kept = !(qb_question_feedback_wrong(q)->present &&
		              strchr(qb_render_md(r, qb_question_feedback_wrong(q), langs[0]), '~'));
		for (size_t l = 0; l < nlangs && kept; l++)
			for (size_t k = 0; k < gaps[l][gi]->nanswers && kept; k++)
				kept = gaps[l][gi]->num || editor_keeps(gaps[l][gi]->answers[k], !gaps[l][gi]->choice);
		if (!kept)
			qb_diag_warning(qb_text_loc(&q->prompt), "question '%s': gap %zu holds a '~' (or "
			                "an answer ending in '\\' or '&'), which Moodle's cloze editor "
			                "turns into a character reference when a teacher saves the "
			                "question", q->id, gi + 1);
	}
	if (ngaps > 1 && qb_question_scoring(r->bank, q) == QB_SCORING_ALL)
		all_or_nothing_warning(q, _("each right gap"));
done:
	qb_arena_dispose(&a);
}

/* Marks (issue 36) Moodle cannot hold: each option's share must be one
 * of Moodle's grades (it refuses the whole file otherwise). */
static void check_marks(const qb_render_ctx *r, const qb_bank *bank, const qb_question *q)
{
	for (size_t k = 0; k < q->nchoices; k++) {
		qb_share s = qb_choice_share(bank, q, k);
		if (qb_share_moodle(s))
			continue;
		char m[32];
		qb_mark mk = {(int16_t)s.num, (uint16_t)s.den};
		qb_render_error(r, qb_choice_loc(&q->choices[k]), "this option of question '%s' "
		                "earns %s of its mark, which is none of Moodle's grades (100%%, 90%%, "
		                "83.3%%, 80%%, 75%%, 70%%, 66.7%%, 60%%, 50%%, 40%%, 33.3%%, 30%%, 25%%, "
		                "20%%, 16.7%%, 14.3%%, 12.5%%, 11.1%%, 10%%, 5%%, 0%% and their "
		                "negatives)", q->id,
		                s.den <= UINT16_MAX && s.num <= INT16_MAX && s.num >= INT16_MIN
		                    ? qb_mark_text(mk, m, sizeof m) : "?");
	}
}

/* What Moodle XML cannot express, at the question: an error when the
 * question cannot be written, a warning when the nearest Moodle question
 * is written instead. */
/* A parameterised question written with datasets: what its formulas
 * and pool become in Moodle. */
static void check_calculated(const qb_question *q, const qb_params *p)
{
	mform *m = mform_make(q, p);
	for (size_t i = 0; i < m->n; i++) {
		if (!m->v[i].fallback)
			continue;
		bool answer = i == p->nvars;
		const char *f = answer ? p->answer.formula : p->vars[i].formula;
		size_t n = strlen(f);
		while (n && f[n - 1] == ' ')
			n--;
		qb_diag_warning(answer ? p->answer.loc : p->vars[i].def_loc,
		                "question '%s': Moodle's formulas have no form of '%.*s' (none of its "
		                "functions): Moodle gets its values from the pool, as the dataset '%s'",
		                q->id, (int)n, f, m->v[i].name);
	}
	if (p->npool > MOODLE_MAX_ITEMS)
		qb_diag_warning(p->draws_loc.line ? p->draws_loc : p->loc,
		                "question '%s' has %zu draws: a Moodle calculated question holds at "
		                "most %d, so the first %d are written", q->id, p->npool,
		                MOODLE_MAX_ITEMS, MOODLE_MAX_ITEMS);
	mform_free(m);
}

void qb_check_moodlexml(const qb_render_ctx *r, const qb_bank *bank)
{
	size_t nlangs;
	const char **langs = moodle_langs(r, &nlangs);
	qb_arena drawn = {0};
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		const qb_params *params = qb_question_params(q);
		if (params && qb_question_ndraws(q) && calculated_type(q)) {
			check_calculated(q, params);
		} else if (params && qb_question_ndraws(q)) {
			q = qb_render_draw(r, &drawn, q, 0); /* its draws' questions: as the first */
		}
		bool all = qb_question_scoring(bank, q) == QB_SCORING_ALL;
		if (strlen(q->id) > IDNUMBER_MAX)
			qb_render_error(r, q->id_loc, "question id '%s' is longer than Moodle's %d "
			                "characters", q->id, IDNUMBER_MAX);
		const qb_choice *pinned = q->type == QB_QTYPE_SINGLE || q->type == QB_QTYPE_MULTIPLE ||
		                                  q->type == QB_QTYPE_MATCHING
		                              ? pinned_option(bank, q)
		                              : NULL;
		if (pinned)
			qb_diag_warning(qb_choice_loc(pinned), "Moodle cannot keep an option in place while "
			                "shuffling: the Moodle XML question '%s' is not shuffled", q->id);
		size_t ncorrect = qb_question_ncorrect(q);
		if (qb_question_has_marks(q)) {
			check_marks(r, bank, q);
			continue;
		}
		switch (q->type) {
		case QB_QTYPE_MULTIPLE:
			if (!equal_share(ncorrect))
				qb_render_error(r, q->loc, "question '%s' has %zu correct options: Moodle's "
				                "grades cannot split 100%% equally over %zu (use 1 to 10, or "
				                "20)", q->id, ncorrect, ncorrect);
			else if (all && ncorrect > 1)
				all_or_nothing_warning(q, _("picking only some of its correct options"));
			break;
		case QB_QTYPE_MATCHING:
			if (all)
				all_or_nothing_warning(q, _("each right pair"));
			for (size_t k = 0; k < q->nchoices; k++)
				no_media(r, q, qb_choice_match(&q->choices[k]), _("matching answers"));
			break;
		case QB_QTYPE_CLOZE:
			check_cloze(r, langs, nlangs, q);
			break;
		default:
			break;
		}
	}
	qb_arena_dispose(&drawn);
	free(langs);
}

/* ---- the file ---- */

/* libxml2's output callbacks over the temporary file (closed by
 * qb_fs_atomic_commit(), not by libxml2); err keeps the first errno. */
typedef struct sink {
	FILE *f;
	int err;
} sink;

static int file_write(void *payload, const char *data, int len)
{
	sink *s = payload;
	if (fwrite(data, 1, (size_t)len, s->f) == (size_t)len)
		return len;
	if (!s->err)
		s->err = errno ? errno : EIO;
	return -1;
}

static int file_close(void *payload)
{
	QB_UNUSED(payload);
	return 0;
}

int qb_write_moodlexml(const qb_render_ctx *r, const qb_bank *bank)
{
	ctx c = {.r = r, .bank = bank};
	c.langs = moodle_langs(r, &c.nlangs);
	if (qb_render_media(r, media_name, &c.media) != 0) {
		free(c.langs);
		return -1;
	}
	/* Written as it is made into the temporary file, never held whole:
	 * the file is several times the bank's size. */
	qb_fs_atomic out;
	if (qb_fs_atomic_open(&out, r->path) != 0) {
		qb_diag_fatal("cannot write '%s': %s", r->path, strerror(errno));
		qb_media_set_dispose(&c.media);
		free(c.langs);
		return -1;
	}
	sink sk = {out.f, 0};
	xmlOutputBufferPtr ob = xmlOutputBufferCreateIO(file_write, file_close, &sk, NULL);
	c.w = ob ? xmlNewTextWriter(ob) : NULL; /* frees ob when done */
	if (c.w) {
		xok(&c, xmlTextWriterSetIndent(c.w, 1));
		xok(&c, xmlTextWriterSetIndentString(c.w, BAD_CAST "  "));
		xok(&c, xmlTextWriterStartDocument(c.w, "1.0", "UTF-8", NULL));
		xok(&c, xmlTextWriterStartElement(c.w, BAD_CAST "quiz"));
		write_category(&c);
		bool *written = qb_xcalloc(bank->npassages + 1, sizeof *written);
		for (size_t i = 0; i < bank->nquestions; i++) {
			const qb_question *q = &bank->questions[i];
			if (i && q[-1].passage && !q->passage)
				end_passage(&c);
			/* a subcategory of draws ends a passage for Moodle's import:
			 * its description again */
			if (qb_question_starts_passage(bank, i ? q - 1 : NULL, q) ||
			    (q->passage && c.left_category)) {
				write_description(&c, qb_question_passage(bank, q), !written[q->passage - 1]);
				written[q->passage - 1] = true;
			}
			c.left_category = false;
			write_question(&c, q);
		}
		free(written);
		xok(&c, xmlTextWriterEndElement(c.w));
		xok(&c, xmlTextWriterEndDocument(c.w));
		xmlFreeTextWriter(c.w); /* flushes into out.f */
	} else if (ob) {
		xmlOutputBufferClose(ob);
	}
	int rc = c.failed || !c.w ? -1 : 0;
	if (!c.w)
		qb_diag_fatal("cannot write Moodle XML for bank '%s' (out of memory)", bank->id);
	if (sk.err || ferror(out.f))
		qb_diag_fatal("cannot write '%s': %s", r->path, strerror(sk.err ? sk.err : EIO));
	if (rc || sk.err || ferror(out.f)) {
		qb_fs_atomic_discard(&out);
		rc = -1;
	} else if (qb_fs_atomic_commit(&out) != 0) {
		qb_diag_fatal("cannot write '%s': %s", r->path, strerror(errno));
		rc = -1;
	}
	qb_media_set_dispose(&c.media);
	free(c.used);
	free(c.langs);
	free(c.category);
	return rc;
}
