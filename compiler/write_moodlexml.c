/* write_moodlexml.c - Moodle XML for a course's question bank (Question
 * bank -> Import -> "Moodle XML format"), both languages in one question.
 *
 * The file is one <quiz>: a category question, then every question of the
 * bank in order as a multichoice question.  Every element written is one
 * that Moodle 4.5's importer reads (question/format/xml/format.php:
 * import_headers, import_multichoice, import_answer,
 * import_combined_feedback, import_question_tags, import_category).
 *
 * Texts are the bank's Markdown rendered to HTML by the render layer
 * (render.h: language fallback, media, labels; md4c with raw HTML off)
 * and, when more than one language is written, wrapped per language in
 * <span lang="xx" class="multilang">...</span>, default language first,
 * for Moodle's "Multi-language content" filter.  libxml2's xmlTextWriter
 * writes them as escaped text (not CDATA: its CDATA writer does not split
 * "]]>"), so nothing from the bank can leave its <text> element, and an
 * author's own "@@PLUGINFILE@@" is written as "&#64;@PLUGINFILE@@".
 * Images are embedded as <file encoding="base64"> next to the <text> that
 * uses them, under content-addressed names, and referenced as
 * @@PLUGINFILE@@/<name>.
 *
 * Grades (fractions) are always one of Moodle's grades (question/format.php
 * refuses the whole file otherwise):
 *   single:   the correct option 100, the others 0;
 *   multiple: each of the k correct options 100/k (k must be 1-10 or 20 so
 *             that 100/k is a Moodle grade; anything else is a located
 *             error); each of the w wrong options -100/w, rounded up to the
 *             next Moodle grade when 100/w is not one.  The correct set
 *             scores 100, every wrong pick costs at least 100/w, and
 *             ticking every option scores 0 (Moodle never goes below 0).
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "markup.h"
#include "render.h"

#define IDNUMBER_MAX 100     /* question_bank_entries.idnumber              */
#define NAME_PROMPT_CHARS 60 /* characters of the prompt in <name>          */
#define PLUGINFILE "@@PLUGINFILE@@/"

/* Moodle's grades, in percent, as the importer matches them
 * (question_bank::fraction_options_full(), lib/questionlib.php). */
static const char *const grades[] = {"100",      "90",       "83.33333", "80",       "75",
                                     "70",       "66.66667", "60",       "50",       "40",
                                     "33.33333", "30",       "25",       "20",       "16.66667",
                                     "14.28571", "12.5",     "11.11111", "10",       "5"};

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
} ctx;

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
	for (size_t i = 0; i < c->media.nsrcs; i++) {
		if (strcmp(c->media.srcs[i], src) != 0)
			continue;
		size_t f = c->media.file_of[i], k;
		for (k = 0; k < c->nused && c->used[k] != f; k++)
			;
		if (k == c->nused) {
			c->used = qb_xrealloc(c->used, (c->nused + 1) * sizeof *c->used);
			c->used[c->nused++] = f;
		}
	}
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

/* Appends html to out with every @@PLUGINFILE@@ that is not the start of
 * one of our image srcs written as &#64;@PLUGINFILE@@: Moodle replaces
 * the marker anywhere in a text by its file area's URL.  md4c escapes the
 * author's quotes, so src=" only precedes a src markup wrote. */
static void put_html(qb_buf *out, const char *html)
{
	static const char marker[] = "@@PLUGINFILE@@", src[] = "src=\"";
	const char *p = html, *m;
	while ((m = strstr(p, marker)) != NULL) {
		qb_buf_append(out, p, (size_t)(m - p));
		bool ours = (size_t)(m - html) >= sizeof src - 1 &&
		            memcmp(m - (sizeof src - 1), src, sizeof src - 1) == 0;
		qb_buf_puts(out, ours ? "@" : "&#64;");
		p = m + 1;
	}
	qb_buf_puts(out, p);
}

/* Appends one language's HTML to out: in a multilang span when more than
 * one language is written. */
static void lang_html(ctx *c, qb_buf *out, const char *lang, const char *html)
{
	if (c->nlangs > 1)
		qb_buf_appendf(out, "<span lang=\"%s\" class=\"multilang\">", lang);
	put_html(out, html);
	if (c->nlangs > 1)
		qb_buf_puts(out, "</span>");
}

/* Appends the HTML of t in every written language to out (nothing when
 * t is absent) and notes its images. */
static void text_html(ctx *c, qb_buf *out, const qb_text *t)
{
	qb_buf html = QB_BUF_INIT;
	for (size_t i = 0; t->present && i < c->nlangs; i++) {
		qb_buf_clear(&html);
		const char *md = qb_render_md(c->r, t, c->langs[i]);
		qb_markup_images(md, note_image, c);
		if (qb_render_html(c->r, &html, md, &c->media) != 0)
			c->failed = true;
		lang_html(c, out, c->langs[i], qb_buf_cstr(&html));
	}
	qb_buf_dispose(&html);
}

/* <text>html</text>, then the <file>s its images need. */
static void write_text_files(ctx *c, const char *html)
{
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST html));
	write_files(c);
}

/* <tag format="html"><text>HTML</text><file .../>...</tag> for t (an empty
 * text when t is absent), or for the label key when t is NULL. */
static void write_text(ctx *c, const char *tag, const qb_text *t, const char *key)
{
	qb_buf all = QB_BUF_INIT;
	if (t)
		text_html(c, &all, t);
	for (size_t i = 0; !t && i < c->nlangs; i++)
		lang_html(c, &all, c->langs[i], qb_render_label(c->r, c->langs[i], key));
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	write_text_files(c, qb_buf_cstr(&all));
	xok(c, xmlTextWriterEndElement(c->w));
	qb_buf_dispose(&all);
}

/* <tag><text>s</text></tag> for a plain-text field. */
static void write_plain(ctx *c, const char *tag, const char *s)
{
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST s));
	xok(c, xmlTextWriterEndElement(c->w));
}

/* The plain text of t in the main language, whitespace collapsed, cut
 * after max characters (code points) with "…"; appended to out. */
static void plain_start(ctx *c, qb_buf *out, const qb_text *t, size_t max)
{
	qb_buf b = QB_BUF_INIT;
	qb_render_plain(&b, qb_render_md(c->r, t, c->r->main_lang));
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

/* The smallest Moodle grade >= 100/n (n >= 1). */
static const char *share_up(size_t n)
{
	const char *g = grades[0];
	for (size_t i = 0; i < QB_NELEM(grades); i++)
		if (strtod(grades[i], NULL) * (double)n >= 100.0 - 1e-3)
			g = grades[i];
	return g;
}

/* ---- questions ---- */

static void write_question(ctx *c, const qb_question *q)
{
	size_t ncorrect = qb_question_ncorrect(q), nwrong = q->nchoices - ncorrect;
	bool single = q->type == QB_QTYPE_SINGLE;
	const char *right = single ? "100" : equal_share(ncorrect);
	char *wrong = single ? qb_xstrdup("0") : nwrong ? qb_xasprintf("-%s", share_up(nwrong)) : NULL;
	if (!right) {
		qb_render_error(c->r, q->loc, "question '%s' has %zu correct options: Moodle's grades "
		                "cannot split 100%% equally over %zu (use 1 to 10, or 20)", q->id,
		                ncorrect, ncorrect);
		c->failed = true;
	}
	if (strlen(q->id) > IDNUMBER_MAX) {
		qb_render_error(c->r, q->id_loc, "question id '%s' is longer than Moodle's %d "
		                "characters", q->id, IDNUMBER_MAX);
		c->failed = true;
	}

	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "multichoice"));
	qb_buf name = QB_BUF_INIT;
	qb_buf_appendf(&name, "%s: ", q->id);
	plain_start(c, &name, &q->prompt, NAME_PROMPT_CHARS);
	write_plain(c, "name", qb_buf_cstr(&name));
	qb_buf_dispose(&name);
	write_text(c, "questiontext", &q->prompt, NULL);
	write_text(c, "generalfeedback", &q->explanation, NULL);
	static const char *const fixed[][2] = {
		{"defaultgrade", "1"}, {"penalty", "0.3333333"}, {"hidden", "0"}};
	for (size_t i = 0; i < QB_NELEM(fixed); i++)
		xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST fixed[i][0], BAD_CAST fixed[i][1]));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "idnumber", BAD_CAST q->id));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "single",
	                                 BAD_CAST(single ? "true" : "false")));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "shuffleanswers", BAD_CAST "false"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "answernumbering", BAD_CAST "abc"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "showstandardinstruction", BAD_CAST "1"));
	write_text(c, "correctfeedback", NULL, "answerCorrect");
	write_text(c, "partiallycorrectfeedback", NULL, "answerPartiallyCorrect");
	write_text(c, "incorrectfeedback", NULL, "answerIncorrect");
	if (!single)
		xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "shownumcorrect", BAD_CAST ""));
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "answer"));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "fraction",
		                                   BAD_CAST(ch->correct ? (right ? right : "0") : wrong)));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
		qb_buf html = QB_BUF_INIT;
		text_html(c, &html, &ch->text);
		write_text_files(c, qb_buf_cstr(&html));
		qb_buf_dispose(&html);
		write_text(c, "feedback", &ch->feedback, NULL);
		xok(c, xmlTextWriterEndElement(c->w));
	}
	if (q->ntags) {
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "tags"));
		for (size_t t = 0; t < q->ntags; t++)
			write_plain(c, "tag", q->tags[t].name);
		xok(c, xmlTextWriterEndElement(c->w));
	}
	xok(c, xmlTextWriterEndElement(c->w));
	free(wrong);
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
	plain_start(c, &title, &bank->title, 200);
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

/* ---- the file ---- */

int qb_write_moodlexml(const qb_render_ctx *r, const qb_bank *bank)
{
	ctx c = {.r = r, .bank = bank};
	/* The main (default) language first, then the others in bank order. */
	c.langs = qb_xcalloc(r->nlangs + 1, sizeof *c.langs);
	c.langs[c.nlangs++] = r->main_lang;
	for (size_t i = 0; i < r->nlangs; i++)
		if (strcmp(r->langs[i], r->main_lang) != 0)
			c.langs[c.nlangs++] = r->langs[i];
	if (qb_render_media(r, media_name, &c.media) != 0) {
		free(c.langs);
		return -1;
	}
	xmlBufferPtr buf = xmlBufferCreate();
	c.w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (c.w) {
		xok(&c, xmlTextWriterSetIndent(c.w, 1));
		xok(&c, xmlTextWriterSetIndentString(c.w, BAD_CAST "  "));
		xok(&c, xmlTextWriterStartDocument(c.w, "1.0", "UTF-8", NULL));
		xok(&c, xmlTextWriterStartElement(c.w, BAD_CAST "quiz"));
		write_category(&c);
		for (size_t i = 0; i < bank->nquestions; i++)
			write_question(&c, &bank->questions[i]);
		xok(&c, xmlTextWriterEndElement(c.w));
		xok(&c, xmlTextWriterEndDocument(c.w));
		xmlFreeTextWriter(c.w); /* flushes into buf */
	}
	int rc = c.failed || !c.w ? -1 : 0;
	if (!c.w)
		qb_diag_fatal("cannot write Moodle XML for bank '%s' (out of memory)", bank->id);
	if (!rc && qb_fs_write_atomic(r->path, xmlBufferContent(buf),
	                              (size_t)xmlBufferLength(buf)) != 0) {
		qb_diag_fatal("cannot write '%s': %s", r->path, strerror(errno));
		rc = -1;
	}
	if (buf)
		xmlBufferFree(buf);
	qb_media_set_dispose(&c.media);
	free(c.used);
	free(c.langs);
	return rc;
}
