/* Unit tests of the render layer (compiler/render.h): the Markdown
 * renderer against md4c-html, language fallback, the media collector, the
 * label catalogues and their warnings, and the driver's entry. */
#include <md4c-html.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "harness.h"
#include "markup.h"
#include "read.h"
#include "render.h"

/* ---- Markdown: the same bytes as md4c-html wherever we decide nothing ---- */

static void collect(const MD_CHAR *text, MD_SIZE size, void *u)
{
	qb_buf_append(u, text, size);
}

static void same_as_md4c_html(const char *md)
{
	qb_buf ours = QB_BUF_INIT, theirs = QB_BUF_INIT;
	qb_markup_html(&ours, md, 0, NULL, NULL);
	md_html(md, (MD_SIZE)strlen(md), collect, &theirs, MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH,
	        0);
	/* qb_markup_html drops the newline after the last block. */
	size_t n = theirs.len;
	while (n && theirs.ptr[n - 1] == '\n')
		n--;
	if (ours.len == n && memcmp(qb_buf_cstr(&ours), qb_buf_cstr(&theirs), n) == 0)
		h_pass++;
	else {
		h_fail++;
		printf("FAIL md4c-html differs for \"%s\":\n  ours:   %s\n  theirs: %.*s\n", md,
		       qb_buf_cstr(&ours), (int)n, qb_buf_cstr(&theirs));
	}
	qb_buf_dispose(&ours);
	qb_buf_dispose(&theirs);
}

/* One-line texts rendered without md4c (plain_line() in markup.c) must
 * give what md4c gives: each text against itself with a line end after
 * it, which always goes through md4c and renders the same.  The texts
 * are drawn from letters, digits, spaces, every ASCII punctuation, tabs
 * and a few UTF-8 characters (é, a no-break space, U+202F), with and
 * without the inline flag.  *differ counts the texts rendered otherwise
 * (each printed); returns how many went the short way. */
static size_t same_as_parsed(int *differ)
{
	static const char *const bits[] = {
		"a", "Z", "q", "word", " ", " ", "  ", "1", "9.", "0)", "\t", "\xc3\xa9", "\xc2\xa0",
		"\xe2\x80\xaf", "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".",
		"/", ":", ";", "<", "=", ">", "?", "@", "[", "\\", "]", "^", "_", "`", "{", "|", "}", "~",
		"http://x.org", "&amp;", "**", "www.a.org",
	};
	uint32_t x = 2024;
	size_t fast = 0;
	qb_buf t = QB_BUF_INIT, nl = QB_BUF_INIT, a = QB_BUF_INIT, b = QB_BUF_INIT;
	for (int i = 0; i < 20000; i++) {
		qb_buf_clear(&t);
		x = x * 1103515245u + 12345u;
		int len = 1 + (int)((x >> 16) % 9);
		for (int k = 0; k < len; k++) {
			x = x * 1103515245u + 12345u;
			/* mostly letters and spaces, as texts are */
			uint32_t r = (x >> 16) % 100;
			qb_buf_puts(&t, r < 50 ? bits[r % 4] : r < 65 ? " " : bits[r % QB_NELEM(bits)]);
		}
		qb_buf_clear(&nl);
		qb_buf_puts(&nl, qb_buf_cstr(&t));
		qb_buf_putc(&nl, '\n');
		for (unsigned flags = 0; flags <= QB_MARKUP_INLINE; flags += QB_MARKUP_INLINE) {
			qb_buf_clear(&a);
			qb_buf_clear(&b);
			qb_markup_html(&a, qb_buf_cstr(&t), flags, NULL, NULL);
			qb_markup_html(&b, qb_buf_cstr(&nl), flags, NULL, NULL);
			if (a.len != b.len || memcmp(qb_buf_cstr(&a), qb_buf_cstr(&b), a.len) != 0) {
				(*differ)++;
				printf("FAIL \"%s\" (flags %u): \"%s\", md4c \"%s\"\n", qb_buf_cstr(&t), flags,
				       qb_buf_cstr(&a), qb_buf_cstr(&b));
			}
		}
		/* the short way is taken where nothing can be markup */
		const char *s = qb_buf_cstr(&t);
		fast += t.len && strcspn(s, "\\`*_~$[]!<&|\t") == t.len &&
		        (((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z') || strchr("(\"'", *s)) &&
		        s[t.len - 1] != ' ' && (unsigned char)s[t.len - 1] < 0x80;
	}
	qb_buf_dispose(&t);
	qb_buf_dispose(&nl);
	qb_buf_dispose(&a);
	qb_buf_dispose(&b);
	return fast;
}

static const char *rename_png(void *payload, const char *src)
{
	(void)payload;
	return strcmp(src, "media/a.png") == 0 ? "media/0123.png" : NULL;
}

static const char *html(const char *md)
{
	static qb_buf b = QB_BUF_INIT;
	qb_buf_clear(&b);
	qb_markup_html(&b, md, QB_MARKUP_INLINE, rename_png, NULL);
	return qb_buf_cstr(&b);
}

/* ---- a bank on disk ---- */

static char *tmp;

static void put(const char *rel, const char *text)
{
	char *path = qb_fs_join(tmp, rel);
	char *dir = qb_xstrdup(path);
	*strrchr(dir, '/') = '\0';
	qb_fs_mkdirs(dir);
	OK(qb_fs_write_atomic(path, text, strlen(text)) == 0);
	free(dir);
	free(path);
}

static const char bank_text[] =
	"bank: demo\n"
	"languages: en, sw-KE, fr, ar\n"
	"default-language: sw-KE\n"
	"title:\n"
	"  en: Demo\n"
	"  sw-KE: Jaribio\n"
	"  fr: Démo\n"
	"  ar: عرض\n"
	"\n"
	"1. q1\n"
	"   en: Look ![a](media/pic.png) and ![b](./media/pic.png)\n"
	"   sw-KE: Tazama ![a](media/pic.png)\n"
	"   fr: Regarde ![a](media/other.png)\n"
	"   ar: انظر\n"
	" * en: yes\n"
	"   sw-KE: ndiyo\n"
	"   fr: oui\n"
	"   ar: نعم\n"
	" - en: no\n"
	"   sw-KE: hapana\n"
	"   fr: non\n"
	"   ar: لا\n"
	"explanation:\n"
	"   en: Because.\n"
	"   sw-KE: Kwa sababu.\n"
	"   fr: Parce que.\n"
	"   ar: لأن.\n";

static const char en_json[] =
	"{\"name\": \"English\", \"dir\": \"ltr\", \"labels\": {\"check\": \"Check\", "
	"\"showIn\": \"Show in {lang}\", \"correct\": \"Correct\", "
	"\"languageNames\": {\"en\": \"English\", \"sw\": \"Swahili\"}}}";
static const char sw_json[] =
	"{\"name\": \"Kiswahili\", \"dir\": \"ltr\", \"labels\": {\"check\": \"Angalia\", "
	"\"showIn\": \"Onyesha kwa {lang}\", \"languageNames\": {\"en\": \"Kiingereza\"}}}";
/* The bank's own: Arabic, partial; and an override of one English label. */
static const char ar_json[] =
	"{\"name\": \"العربية\", \"dir\": \"rtl\", \"labels\": {\"check\": \"تحقق\"}}";
static const char en_override[] = "{\"labels\": {\"check\": \"Check it\"}}";

/* A naming callback: the file's length, so equal files get equal names. */
static char *name_by_length(const char *src, const unsigned char *data, size_t len)
{
	(void)src;
	(void)data;
	return qb_xasprintf("img-%zu", len);
}

static int ran;

/* qb_render_lang_names() callback: "code=name;" appended to a qb_buf. */
static void collect_name(void *payload, const char *code, const char *name)
{
	qb_buf_appendf(payload, "%s=%s;", code, name);
}

/* The names qb_render_lang_names() gives for ui, and every written
 * language it leaves out is one qb_render_lang_name() names by its own
 * name. */
static void lang_names_agree(const qb_render_ctx *ctx, const char *ui, const char *want)
{
	qb_buf b = QB_BUF_INIT;
	qb_render_lang_names(ctx, ui, collect_name, &b);
	STR_EQ(qb_buf_cstr(&b), want);
	for (size_t i = 0; i < ctx->nlangs; i++) {
		char *entry = qb_xasprintf("%s=%s;", ctx->langs[i],
		                           qb_render_lang_name(ctx, ui, ctx->langs[i]));
		OK(strstr(qb_buf_cstr(&b), entry) ||
		   strcmp(qb_render_lang_name(ctx, ui, ctx->langs[i]),
		          qb_render_lang_own_name(ctx, ctx->langs[i])) == 0);
		free(entry);
	}
	qb_buf_dispose(&b);
}

/* The writer: checks what the render layer gives it. */
static int probe(const qb_render_ctx *ctx, const qb_bank *bank)
{
	ran++;
	INT_EQ(ctx->nlangs, 4);
	STR_EQ(ctx->main_lang, "sw-KE");
	char *want = qb_fs_join(tmp, "out/demo.probe");
	STR_EQ(ctx->path, want);
	free(want);
	INT_EQ(ctx->latest, 1700000000);
	INT_EQ(ctx->templates_time, 1700000000); /* no record */
	INT_EQ(ctx->revision, 1);

	/* texts: own, else the default language's */
	const qb_question *q = &bank->questions[0];
	STR_EQ(qb_render_md(ctx, &q->prompt, "ar"), "انظر");
	STR_EQ(qb_render_md(ctx, &q->prompt, "de"), "Tazama ![a](media/pic.png)");
	INT_EQ(qb_render_question_time(ctx, q), 1700000000);

	/* media: read once per file, named by the writer, in bank order */
	qb_media_set set;
	OK(qb_render_media(ctx, name_by_length, &set) == 0);
	INT_EQ(set.nsrcs, 3);  /* media/pic.png, ./media/pic.png, media/other.png */
	INT_EQ(set.nfiles, 2); /* the same picture under two paths is one file  */
	STR_EQ(qb_media_find(&set, "./media/pic.png"), "img-3");
	STR_EQ(qb_media_find(&set, "media/other.png"), "img-5");
	OK(qb_media_find(&set, "media/none.png") == NULL);
	qb_buf b = QB_BUF_INIT;
	OK(qb_render_html(ctx, &b, qb_render_md(ctx, &q->prompt, "en"), &set) == 0);
	STR_EQ(qb_buf_cstr(&b), "Look <img src=\"img-3\" alt=\"a\"> and <img src=\"img-3\" alt=\"b\">");
	qb_media_set_dispose(&set);

	/* labels: the tag's primary subtag, overrides key by key, the default
	 * language for what a catalogue lacks, then English */
	STR_EQ(qb_render_label(ctx, "sw-KE", "check"), "Angalia");
	STR_EQ(qb_render_label(ctx, "sw-KE", "correct"), "Correct");
	STR_EQ(qb_render_label(ctx, "en", "check"), "Check it");
	STR_EQ(qb_render_label(ctx, "en", "showIn"), "Show in {lang}");
	STR_EQ(qb_render_label(ctx, "fr", "check"), "Angalia"); /* no fr: the default's */
	STR_EQ(qb_render_label(ctx, "ar", "check"), "تحقق");
	STR_EQ(qb_render_label(ctx, "ar", "showIn"), "Onyesha kwa {lang}");
	STR_EQ(qb_render_label(ctx, "en", "nope"), "");
	STR_EQ(qb_render_lang_dir(ctx, "ar"), "rtl");
	STR_EQ(qb_render_lang_dir(ctx, "en"), "ltr");
	STR_EQ(qb_render_lang_name(ctx, "en", "sw-KE"), "Swahili");
	STR_EQ(qb_render_lang_name(ctx, "sw-KE", "fr"), "Français"); /* its own name */
	STR_EQ(qb_render_lang_own_name(ctx, "ar"), "العربية");
	/* the names a catalogue holds, in written order ("sw-KE" under "sw") */
	lang_names_agree(ctx, "en", "en=English;sw-KE=Swahili;");
	lang_names_agree(ctx, "sw-KE", "en=Kiingereza;");
	lang_names_agree(ctx, "fr", "en=Kiingereza;"); /* the default's catalogue */
	lang_names_agree(ctx, "ar", "en=Kiingereza;");
	qb_buf_clear(&b);
	const char *vars[] = {"lang", qb_render_lang_name(ctx, "sw-KE", "en"), NULL};
	qb_render_label_expand(ctx, &b, "sw-KE", "showIn", vars);
	STR_EQ(qb_buf_cstr(&b), "Onyesha kwa Kiingereza");
	qb_buf_dispose(&b);

	/* a format limit */
	qb_render_error(ctx, q->loc, "too big for the probe");
	return -1;
}

/* Languages without a catalogue share one set of labels: each still
 * gets the default language's, then English for what that lacks. */
static const char bare_bank[] =
	"bank: bare\n"
	"languages: sw, de, fr, nl\n"
	"title:\n"
	"  sw: Jaribio\n"
	"  de: Test\n"
	"  fr: Test\n"
	"  nl: Test\n"
	"1. q\n"
	"   sw: Swali?\n"
	"   de: Frage?\n"
	"   fr: Question ?\n"
	"   nl: Vraag?\n"
	"   * sw: Ndiyo\n"
	"     de: Ja\n"
	"     fr: Oui\n"
	"     nl: Ja\n"
	"   - sw: Hapana\n"
	"     de: Nein\n"
	"     fr: Non\n"
	"     nl: Nee\n";

static int probe_bare(const qb_render_ctx *ctx, const qb_bank *bank)
{
	(void)bank;
	ran++;
	const char *bare[] = {"de", "fr", "nl"};
	for (size_t i = 0; i < 3; i++) {
		STR_EQ(qb_render_label(ctx, bare[i], "check"), "Angalia");
		STR_EQ(qb_render_label(ctx, bare[i], "correct"), "Correct");
		STR_EQ(qb_render_lang_dir(ctx, bare[i]), "ltr");
	}
	STR_EQ(qb_render_label(ctx, "sw", "check"), "Angalia");
	return -1; /* nothing written */
}

static int fails_io(const qb_render_ctx *ctx, const qb_bank *bank)
{
	(void)ctx;
	(void)bank;
	return -1;
}

int main(void)
{
	/* Markdown */
	static const char *const cases[] = {
		"plain", "*em* **strong** ~~del~~ `code`", "a & b < c > d \"e\"",
		"&amp; &eacute; &#233; &#x41; &#0; &nbsp;", "line\\\nbreak", "soft\nbreak",
		"[link](https://example.org/?a=1&b=\"2\" \"title\")", "[rel](a%20b/é.html)",
		"![alt *em* `c`](x.png \"t\")", "# h1\n\ntext", "- a\n- b\n\n1. c\n2. d",
		"3. three", "> quote\n> more", "a\n\n---\n\nb",
		"<b>raw</b> off", "<https://example.org>", "\\*not em\\*", "two\n\nparagraphs",
	};
	for (size_t i = 0; i < QB_NELEM(cases); i++)
		same_as_md4c_html(cases[i]);
	int differ = 0;
	OK(same_as_parsed(&differ) > 5000); /* both ways well exercised */
	INT_EQ(differ, 0);
	STR_EQ(html("x ![a](media/a.png)"), "x <img src=\"media/0123.png\" alt=\"a\">");
	STR_EQ(html("![a](https://example.org/a.png)"),
	       "<img src=\"https://example.org/a.png\" alt=\"a\">");
	STR_EQ(html("[x](javascript:alert(1))"), "<a href=\"#\">x</a>");
	STR_EQ(html("[x](&#106;avascript:alert(1))"), "<a href=\"#\">x</a>");
	STR_EQ(html("[x](JavaScript:alert(1))"), "<a href=\"#\">x</a>");
	/* Code blocks and tables scroll in their own box on a narrow screen,
	 * so a keyboard must reach them (issue 22). */
	STR_EQ(html("```c\nint x;\n```"), "<pre tabindex=\"0\"><code class=\"language-c\">int x;\n</code></pre>");
	STR_EQ(html("    indented"), "<pre tabindex=\"0\"><code>indented\n</code></pre>");
	STR_EQ(html("| a |\n|---|\n| 1 |"), "<div class=\"qb-scroll\" tabindex=\"0\"><table>\n<thead>\n<tr>\n"
	       "<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table></div>");
	STR_EQ(html("one paragraph"), "one paragraph");
	STR_EQ(html("one\n\ntwo"), "<p>one</p>\n<p>two</p>");
	qb_buf p = QB_BUF_INIT;
	qb_markup_plain(&p, "**a** &amp; &eacute;&nbsp;b");
	STR_EQ(qb_buf_cstr(&p), "a & é b");
	qb_buf_dispose(&p);

	/* a bank, its templates and its own labels on disk */
	char dir[] = "/tmp/qbc-render-XXXXXX";
	tmp = mkdtemp(dir);
	OK(tmp != NULL);
	put("tpl/labels/en.json", en_json);
	put("tpl/labels/sw.json", sw_json);
	put("bank/labels/ar.json", ar_json);
	put("bank/labels/en.json", en_override);
	put("bank/media/pic.png", "abc");
	put("bank/media/other.png", "abcde");
	char *bpath = qb_fs_join(tmp, "bank/demo.qb");
	qb_bank *bank = qb_read_text(bpath, bank_text, strlen(bank_text));
	OK(bank && qb_diag_errors() == 0);
	char *tdir = qb_fs_join(tmp, "tpl");
	char *odir = qb_fs_join(tmp, "out");
	OK(qb_fs_mkdirs(odir) == 0);

	/* one warning per language: fr has nothing, sw-KE and ar lack keys */
	qb_diag_set_werror(true); /* count the warnings */
	unsigned before = qb_diag_errors();
	OK(qb_render_check_labels(bank, tdir) == 0);
	INT_EQ(qb_diag_errors() - before, 3);
	qb_diag_set_werror(false);

	/* the driver's entry */
	qb_writer w = {"probe", ".probe", "a test", false, false, NULL, probe, NULL, 0, NULL, NULL, false};
	qb_build_opts opts = {odir, NULL, 0, 1700000000, tdir, NULL, 0};
	INT_EQ(qb_render_write(&w, bank, &opts), QB_WRITE_EBANK);
	INT_EQ(ran, 1);
	w.write = fails_io;
	INT_EQ(qb_render_write(&w, bank, &opts), QB_WRITE_EIO);
	/* a writer with templates and no templates folder never runs */
	w.templates = "probe";
	opts.templates_dir = NULL;
	ran = 0;
	w.write = probe;
	INT_EQ(qb_render_write(&w, bank, &opts), QB_WRITE_EIO);
	INT_EQ(ran, 0);

	qb_diag_mark mark = qb_diag_mark_now();
	qb_bank *bare = qb_read_text(bpath, bare_bank, strlen(bare_bank));
	OK(bare && qb_diag_errors_since(mark) == 0);
	opts.templates_dir = tdir;
	w = (qb_writer){"probe", ".probe", "a test", false, false, NULL, probe_bare, NULL, 0, NULL, NULL, false};
	if (bare)
		qb_render_write(&w, bare, &opts);
	INT_EQ(ran, 1);
	qb_bank_free(bare);

	qb_bank_free(bank);
	free(bpath);
	free(tdir);
	free(odir);
	qb_diag_dispose();
	char *cmd = qb_xasprintf("rm -rf '%s'", tmp);
	OK(system(cmd) == 0);
	free(cmd);
	return h_done("unit/render");
}
