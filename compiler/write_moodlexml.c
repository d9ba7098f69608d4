/* write_moodlexml.c - Moodle XML for a course's question bank (Question
 * bank -> Import -> "Moodle XML format"), both languages in one question.
 *
 * The file is one <quiz>: a category question, then every question of the
 * bank in order as a multichoice question.  Every element written is one
 * that Moodle 4.5's importer reads (question/format/xml/format.php:
 * import_headers, import_multichoice, import_answer,
 * import_combined_feedback, import_question_tags, import_category).
 *
 * Texts are the bank's Markdown rendered to HTML (markup.h, raw HTML off)
 * and, when more than one language is written, wrapped per language in
 * <span lang="xx" class="multilang">...</span>, default language first,
 * for Moodle's "Multi-language content" filter.  libxml2's xmlTextWriter
 * writes them as escaped text (not CDATA: its CDATA writer does not split
 * "]]>"), so nothing from the bank can leave its <text> element.  Images
 * are embedded as <file encoding="base64"> next to the <text> that uses
 * them, under content-addressed names, and referenced as
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
 * category's description lists each question's last-change date. */
#include "write.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "markup.h"
#include "revision.h"

#define IDNUMBER_MAX 100  /* question_bank_entries.idnumber              */
#define NAME_PROMPT_CHARS 60 /* characters of the prompt in <name>          */

/* Moodle's grades, in percent, as the importer matches them
 * (question_bank::fraction_options_full(), lib/questionlib.php). */
static const char *const grades[] = {"100",      "90",       "83.33333", "80",       "75",
                                     "70",       "66.66667", "60",       "50",       "40",
                                     "33.33333", "30",       "25",       "20",       "16.66667",
                                     "14.28571", "12.5",     "11.11111", "10",       "5"};

/* The feedback Moodle shows after a whole question, per language (English
 * for any other). */
static const struct label {
	const char *lang, *correct, *partial, *incorrect;
} labels[] = {
	{"en", "Your answer is correct.", "Your answer is partially correct.",
	 "Your answer is incorrect."},
	{"sw", "Jibu lako ni sahihi.", "Jibu lako ni sahihi kwa sehemu.", "Jibu lako si sahihi."},
};

typedef struct media {
	char *name; /* <hash>.<ext>, the name inside Moodle's file area      */
	char *path; /* the file on disk                                      */
} media;

typedef struct ctx {
	const qb_bank *bank;
	const qb_build_opts *opts;
	const char **langs;  /* the languages written, default first          */
	size_t nlangs;
	xmlTextWriterPtr w;
	media *files;        /* images of the element being written           */
	size_t nfiles;
	qb_loc loc;          /* the text being rendered, for messages         */
	char *img;           /* the last src handed to markup                 */
	bool failed;         /* a located error was reported                  */
	bool xml_failed;     /* libxml2 failed (out of memory)                */
} ctx;

static void xok(ctx *c, int r)
{
	if (r < 0)
		c->xml_failed = true;
}

/* ---- images ---- */

static bool has_scheme(const char *s)
{
	const char *p = s;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	       *p == '+' || *p == '-' || *p == '.')
		p++;
	return (s[0] == '/' && s[1] == '/') || (p != s && *p == ':');
}

/* markup.h image callback: records the image for the element being
 * written and returns @@PLUGINFILE@@/<name>.  A problem is reported, marks
 * the build failed and gives "#". */
static const char *image_src(void *payload, const char *src)
{
	ctx *c = payload;
	char *path = NULL, *data = NULL;
	size_t len = 0;
	if (has_scheme(src) || src[0] == '/') {
		qb_diag_error(c->loc, "image '%s' is not a file next to the bank; Moodle XML embeds "
		              "every image", src);
		c->failed = true;
		return "#";
	}
	path = qb_fs_join(c->bank->dir, src);
	if (qb_fs_read(path, &data, &len) != 0) {
		qb_diag_error(c->loc, "cannot read image '%s'", path);
		c->failed = true;
		free(path);
		return "#";
	}
	char hex[2 * 8 + 1];
	qb_hash_sha256_hex(hex, 8, data, len);
	free(data);
	qb_buf name = QB_BUF_INIT;
	qb_buf_puts(&name, hex);
	/* The extension, lower case, letters and digits only. */
	const char *dot = strrchr(src, '.');
	if (dot && !strchr(dot, '/') && dot[1]) {
		qb_buf_putc(&name, '.');
		for (const char *p = dot + 1; *p && name.len < sizeof hex + 8; p++) {
			char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
			if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
				qb_buf_putc(&name, ch);
		}
	}
	size_t i;
	for (i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i].name, qb_buf_cstr(&name)) == 0)
			break;
	if (i == c->nfiles) {
		c->files = qb_xrealloc(c->files, (c->nfiles + 1) * sizeof *c->files);
		c->files[c->nfiles].name = qb_xstrdup(qb_buf_cstr(&name));
		c->files[c->nfiles].path = path;
		c->nfiles++;
		path = NULL;
	}
	free(path);
	free(c->img);
	c->img = qb_xasprintf("@@PLUGINFILE@@/%s", qb_buf_cstr(&name));
	qb_buf_dispose(&name);
	return c->img;
}

/* Writes a <file> for every image collected since the last call. */
static void write_files(ctx *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		char *data = NULL;
		size_t len = 0;
		if (qb_fs_read(c->files[i].path, &data, &len) != 0) {
			qb_diag_fatal("cannot read image '%s'", c->files[i].path);
			c->failed = true;
		} else {
			xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "file"));
			xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "name",
			                                   BAD_CAST c->files[i].name));
			xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "path", BAD_CAST "/"));
			xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "encoding", BAD_CAST "base64"));
			xok(c, xmlTextWriterWriteBase64(c->w, data, 0, (int)len));
			xok(c, xmlTextWriterEndElement(c->w));
		}
		free(data);
		free(c->files[i].name);
		free(c->files[i].path);
	}
	c->nfiles = 0;
}

/* ---- texts ---- */

/* The Markdown of t in lang, else in the bank's default language, else "". */
static const char *text_md(const ctx *c, const qb_text *t, const char *lang, qb_loc *loc)
{
	const qb_tr *tr = qb_text_tr(t, lang);
	if (!tr)
		tr = qb_text_tr(t, qb_bank_default_lang(c->bank));
	if (loc)
		*loc = tr ? tr->text_loc : t->loc;
	return tr ? tr->text : "";
}

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

/* <tag format="html"><text>HTML</text><file .../>...</tag> for t (empty
 * text when t is absent). */
static void write_text(ctx *c, const char *tag, const qb_text *t)
{
	qb_buf all = QB_BUF_INIT, html = QB_BUF_INIT;
	for (size_t i = 0; t->present && i < c->nlangs; i++) {
		qb_buf_clear(&html);
		const char *md = text_md(c, t, c->langs[i], &c->loc);
		if (qb_markup_html(&html, md, QB_MARKUP_INLINE, image_src, c) != 0)
			c->xml_failed = true;
		lang_html(c, &all, c->langs[i], qb_buf_cstr(&html));
	}
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST qb_buf_cstr(&all)));
	write_files(c);
	xok(c, xmlTextWriterEndElement(c->w));
	qb_buf_dispose(&all);
	qb_buf_dispose(&html);
}

/* A combined-feedback label element in every language written. */
static void write_label(ctx *c, const char *tag, size_t which)
{
	qb_buf all = QB_BUF_INIT;
	for (size_t i = 0; i < c->nlangs; i++) {
		const struct label *l = &labels[0];
		for (size_t k = 0; k < QB_NELEM(labels); k++)
			if (strcmp(labels[k].lang, c->langs[i]) == 0)
				l = &labels[k];
		const char *s = which == 0 ? l->correct : which == 1 ? l->partial : l->incorrect;
		lang_html(c, &all, c->langs[i], s);
	}
	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST tag));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST qb_buf_cstr(&all)));
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

/* The plain text of t in the default language, whitespace collapsed, cut
 * after max characters (code points) with "…"; appended to out. */
static void plain_start(ctx *c, qb_buf *out, const qb_text *t, size_t max)
{
	qb_buf b = QB_BUF_INIT;
	qb_markup_plain(&b, text_md(c, t, qb_bank_default_lang(c->bank), NULL));
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
		qb_diag_error(q->loc, "question '%s' has %zu correct options: Moodle's grades cannot "
		              "split 100%% equally over %zu (use 1 to 10, or 20)", q->id, ncorrect,
		              ncorrect);
		c->failed = true;
	}
	if (q->id && strlen(q->id) > IDNUMBER_MAX) {
		qb_diag_error(q->id_loc, "question id '%s' is longer than Moodle's %d characters",
		              q->id, IDNUMBER_MAX);
		c->failed = true;
	}

	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "multichoice"));
	qb_buf name = QB_BUF_INIT;
	if (q->id)
		qb_buf_appendf(&name, "%s: ", q->id);
	else
		qb_buf_appendf(&name, "%d. ", q->number);
	plain_start(c, &name, &q->prompt, NAME_PROMPT_CHARS);
	write_plain(c, "name", qb_buf_cstr(&name));
	qb_buf_dispose(&name);
	write_text(c, "questiontext", &q->prompt);
	write_text(c, "generalfeedback", &q->explanation);
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "defaultgrade", BAD_CAST "1"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "penalty", BAD_CAST "0.3333333"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "hidden", BAD_CAST "0"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "idnumber", BAD_CAST(q->id ? q->id : "")));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "single",
	                                 BAD_CAST(single ? "true" : "false")));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "shuffleanswers", BAD_CAST "false"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "answernumbering", BAD_CAST "abc"));
	xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "showstandardinstruction", BAD_CAST "1"));
	write_label(c, "correctfeedback", 0);
	write_label(c, "partiallycorrectfeedback", 1);
	write_label(c, "incorrectfeedback", 2);
	if (!single)
		xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "shownumcorrect", BAD_CAST ""));
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		qb_text none = {0};
		xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "answer"));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "fraction",
		                                   BAD_CAST(ch->correct ? (right ? right : "0") : wrong)));
		xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "format", BAD_CAST "html"));
		/* The answer's own text and files, then its feedback. */
		qb_buf all = QB_BUF_INIT, html = QB_BUF_INIT;
		for (size_t l = 0; l < c->nlangs; l++) {
			qb_buf_clear(&html);
			if (qb_markup_html(&html, text_md(c, &ch->text, c->langs[l], &c->loc),
			                   QB_MARKUP_INLINE, image_src, c) != 0)
				c->xml_failed = true;
			lang_html(c, &all, c->langs[l], qb_buf_cstr(&html));
		}
		xok(c, xmlTextWriterWriteElement(c->w, BAD_CAST "text", BAD_CAST qb_buf_cstr(&all)));
		write_files(c);
		qb_buf_dispose(&all);
		qb_buf_dispose(&html);
		write_text(c, "feedback", ch->feedback.present ? &ch->feedback : &none);
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
 * bank's description and every question's last-change date as its info. */
static void write_category(ctx *c)
{
	const qb_bank *bank = c->bank;
	const qb_revisions *rev = c->opts->rev;
	qb_buf path = QB_BUF_INIT, title = QB_BUF_INIT, info = QB_BUF_INIT;
	plain_start(c, &title, &bank->title, 200);
	qb_buf_puts(&path, "$course$/top/");
	/* '/' separates categories; Moodle reads "//" as a '/' in a name. */
	for (const char *p = title.len ? qb_buf_cstr(&title) : bank->id; *p; p++)
		qb_buf_puts(&path, *p == '/' ? "//" : (char[]){*p, '\0'});
	char date[11];
	if (rev && qb_rev_number(rev) > 0) {
		utc_date(date, qb_rev_latest(rev));
		qb_buf_appendf(&path, "/revision %u (%s)", qb_rev_number(rev), date);
	}

	xok(c, xmlTextWriterStartElement(c->w, BAD_CAST "question"));
	xok(c, xmlTextWriterWriteAttribute(c->w, BAD_CAST "type", BAD_CAST "category"));
	write_plain(c, "category", qb_buf_cstr(&path));

	qb_buf html = QB_BUF_INIT;
	for (size_t i = 0; bank->description.present && i < c->nlangs; i++) {
		qb_buf_clear(&html);
		const char *md = text_md(c, &bank->description, c->langs[i], &c->loc);
		if (qb_markup_html(&html, md, QB_MARKUP_INLINE, NULL, NULL) != 0)
			c->xml_failed = true;
		lang_html(c, &info, c->langs[i], qb_buf_cstr(&html));
	}
	qb_buf_dispose(&html);
	if (rev && qb_rev_number(rev) > 0) {
		qb_buf_appendf(&info, "<p>%s, revision %u. Last changed:</p><ul>", bank->id,
		               qb_rev_number(rev));
		for (size_t i = 0; i < bank->nquestions; i++) {
			const qb_question *q = &bank->questions[i];
			time_t latest = 0;
			for (size_t l = 0; q->id && l < bank->nlangs; l++) {
				time_t t = qb_rev_question_time(rev, q->id, bank->langs[l].code);
				latest = t > latest ? t : latest;
			}
			utc_date(date, latest);
			qb_buf_appendf(&info, "<li>%s %s</li>", q->id ? q->id : "?", date);
		}
		qb_buf_puts(&info, "</ul>");
	}
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

int qb_write_moodlexml(const qb_bank *bank, const qb_build_opts *opts)
{
	ctx c = {.bank = bank, .opts = opts};
	/* The default language first, then the others in bank order. */
	const char *dl = qb_bank_default_lang(bank);
	c.langs = qb_xcalloc(opts->nlangs + 1, sizeof *c.langs);
	for (size_t i = 0; i < opts->nlangs; i++)
		if (dl && strcmp(opts->langs[i], dl) == 0)
			c.langs[c.nlangs++] = opts->langs[i];
	for (size_t i = 0; i < opts->nlangs; i++)
		if (!dl || strcmp(opts->langs[i], dl) != 0)
			c.langs[c.nlangs++] = opts->langs[i];

	int rc = QB_EXIT_OK;
	xmlBufferPtr buf = xmlBufferCreate();
	c.w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!c.w) {
		c.xml_failed = true;
	} else {
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
	if (c.xml_failed) {
		qb_diag_fatal("cannot write Moodle XML for bank '%s' (out of memory)", bank->id);
		rc = QB_EXIT_IO;
	} else if (c.failed) {
		rc = QB_EXIT_ERRORS;
	} else {
		const qb_writer *w = qb_writer_find("moodlexml");
		char *path = qb_writer_output_path(w, bank, opts);
		if (qb_fs_write_atomic(path, xmlBufferContent(buf), (size_t)xmlBufferLength(buf)) != 0) {
			qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
			rc = QB_EXIT_IO;
		}
		free(path);
	}
	if (buf)
		xmlBufferFree(buf);
	write_files(&c);
	free(c.files);
	free(c.img);
	free(c.langs);
	return rc;
}
