/* Unit tests of the text helpers: buffers, escaping, languages,
 * Markdown, templates and hashes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "harness.h"
#include "hash.h"
#include "lang.h"
#include "markup.h"
#include "template.h"
#include "utf8.h"

static const char *html(const char *md, unsigned flags)
{
	static qb_buf b = QB_BUF_INIT;
	qb_buf_clear(&b);
	qb_markup_html(&b, md, flags, NULL, NULL);
	return qb_buf_cstr(&b);
}

/* Every code point the NFC quick check passes, between two letters, is
 * left unchanged by utf8proc's normalisation; returns how many passed. */
static long nfc_quick_check_agrees(void)
{
	long passed = 0;
	for (utf8proc_int32_t cp = 0x80; cp < 0x110000; cp++) {
		if (!utf8proc_codepoint_valid(cp))
			continue;
		utf8proc_uint8_t s[8] = "a";
		utf8proc_ssize_t k = utf8proc_encode_char(cp, s + 1);
		s[1 + k] = 'e';
		if (!qb_utf8_is_nfc((const char *)s, (size_t)k + 2))
			continue;
		passed++;
		utf8proc_uint8_t *nfc = NULL;
		utf8proc_ssize_t m = utf8proc_map(s, k + 2, &nfc, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
		if (m != k + 2 || memcmp(nfc, s, (size_t)m) != 0)
			passed = -cp;
		free(nfc);
		if (passed < 0)
			break;
	}
	return passed;
}

static const char *rename_img(void *payload, const char *src)
{
	(void)payload;
	return strcmp(src, "media/a.png") == 0 ? "x-1234.png" : NULL;
}

static const char *lookup(void *payload, const char *name)
{
	(void)payload;
	return strcmp(name, "who") == 0 ? "world" : NULL;
}

static int nimages;
static void count_image(void *payload, const char *src, size_t off)
{
	(void)payload;
	(void)src;
	(void)off;
	nimages++;
}

static void put_buf(void *payload, const char *s, size_t n)
{
	qb_buf_append(payload, s, n);
}

/* A script escaped from a file in small pieces must read as escaped
 * whole: drawn scripts dense with "</script", "<!--" and their parts,
 * so that pieces end inside them at every offset.  Returns how many
 * differed (printed). */
static int script_pieces_agree(void)
{
	static const char *const bits[] = {"<", "/", "!", "-", "script", "SCRIPT", "a", "</script",
	                                   "<!--", "x", "<<", "</scr"};
	uint32_t x = 7;
	int bad = 0;
	qb_buf whole = QB_BUF_INIT, pieces = QB_BUF_INIT, js = QB_BUF_INIT;
	for (int t = 0; t < 5000; t++) {
		qb_buf_clear(&js);
		x = x * 1103515245u + 12345u;
		for (int k = 1 + (int)((x >> 16) % 40); k > 0; k--) {
			x = x * 1103515245u + 12345u;
			qb_buf_puts(&js, bits[(x >> 16) % QB_NELEM(bits)]);
		}
		qb_buf_clear(&whole);
		qb_buf_clear(&pieces);
		qb_escape_script_text(qb_buf_cstr(&js), js.len, put_buf, &whole);
		FILE *f = tmpfile();
		size_t piece = 1 + (size_t)t % 19;
		if (!f || fwrite(js.ptr, 1, js.len, f) != js.len ||
		    qb_escape_script_file(f, piece, put_buf, &pieces) != 0 || whole.len != pieces.len ||
		    memcmp(qb_buf_cstr(&whole), qb_buf_cstr(&pieces), whole.len) != 0) {
			if (bad++ < 3)
				printf("FAIL script in pieces of %zu: %s\n", piece, qb_buf_cstr(&js));
		}
		if (f)
			fclose(f);
	}
	qb_buf_dispose(&whole);
	qb_buf_dispose(&pieces);
	qb_buf_dispose(&js);
	return bad;
}

int main(void)
{
	/* buffers */
	qb_buf b = QB_BUF_INIT;
	STR_EQ(qb_buf_cstr(&b), "");
	qb_buf_appendf(&b, "%d-%s", 42, "x");
	qb_buf_putc(&b, '!');
	STR_EQ(qb_buf_cstr(&b), "42-x!");
	INT_EQ(b.len, 5);
	char *d = qb_buf_detach(&b);
	STR_EQ(d, "42-x!");
	free(d);
	INT_EQ(b.len, 0);

	/* counting characters: code points, an invalid byte as one */
	INT_EQ(qb_utf8_count("", 0), 0);
	INT_EQ(qb_utf8_count("abc", 3), 3);
	INT_EQ(qb_utf8_count("K\xC3\xA9\xE2\x80\x93\xF0\x9F\x98\x80", 10), 4); /* Ké–😀 */
	INT_EQ(qb_utf8_count("a\xFF\xC3", 3), 3);  /* a bad byte, a cut sequence */
	INT_EQ(qb_utf8_count("\xE2\x80\x93", 2), 2); /* counted only up to n */
	INT_EQ(qb_utf8_next("\xE2\x80\x93x", 4), 3);
	INT_EQ(qb_utf8_next("\xED\xA0\x80", 3), 1); /* a surrogate is not UTF-8 */
	INT_EQ(qb_utf8_next("x", 0), 0);

	/* the NFC quick check: yes only where normalising changes nothing */
	OK(qb_utf8_is_nfc("", 0));
	OK(qb_utf8_is_nfc("plain ASCII", 11));
	OK(qb_utf8_is_nfc("a\xE2\x80\x94" "b\xE2\x80\x99", 8)); /* a—b’ */
	OK(!qb_utf8_is_nfc("e\xCC\x81", 3));                   /* e + U+0301 composes */
	OK(!qb_utf8_is_nfc("\xE2\x84\xAB", 3));               /* U+212B is a singleton */
	OK(!qb_utf8_is_nfc("\xE1\x84\x80\xE1\x85\xA1", 6)); /* Hangul jamo compose */
	OK(!qb_utf8_is_nfc("a\xFF", 2));                        /* not UTF-8 */
	long passed = nfc_quick_check_agrees();
	OK(passed > 1000000);
	INT_EQ(passed < 0 ? -passed : 0, 0); /* the first code point it got wrong */

	/* escaping */
	qb_escape_html(&b, "<a href=\"x\">&'</a>");
	STR_EQ(qb_buf_cstr(&b), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	qb_buf_clear(&b);
	qb_escape_script_json(&b, "{\"t\":\"</script>&\xE2\x80\xA8\"}");
	STR_EQ(qb_buf_cstr(&b), "{\"t\":\"\\u003c/script\\u003e\\u0026\\u2028\"}");
	qb_buf_clear(&b);
	qb_escape_mustache(&b, "a {{Front}} b }}");
	STR_EQ(qb_buf_cstr(&b), "a &#123;{Front&#125;} b &#125;}");
	qb_buf_clear(&b);
	qb_escape_script_text("a</script><!-- </SCRIPT <b", 26, put_buf, &b);
	STR_EQ(qb_buf_cstr(&b), "a<\\/script><\\!-- <\\/SCRIPT <b");
	qb_buf_clear(&b);
	INT_EQ(script_pieces_agree(), 0);

	/* languages */
	OK(qb_lang_valid("sw", 2));
	OK(qb_lang_valid("sw-KE", 5));
	OK(qb_lang_valid("zh-Hant-TW", 10));
	OK(!qb_lang_valid("Kiswahili", 9));
	OK(!qb_lang_valid("e", 1));
	OK(!qb_lang_valid("en-", 3));
	qb_lang_canonical(&b, "ZH-hant-tw", 10);
	STR_EQ(qb_buf_cstr(&b), "zh-Hant-TW");
	qb_buf_clear(&b);
	STR_EQ(qb_lang_english_name("sw-KE"), "Kiswahili");
	STR_EQ(qb_lang_native_name("fr"), "Français");
	OK(qb_lang_english_name("xx") == NULL);

	/* Markdown: raw HTML is text, links are defused, images renamed */
	STR_EQ(html("<script>alert(1)</script>", QB_MARKUP_INLINE),
	       "&lt;script&gt;alert(1)&lt;/script&gt;");
	STR_EQ(html("*a* `b`", QB_MARKUP_INLINE), "<em>a</em> <code>b</code>");
	STR_EQ(html("x", 0), "<p>x</p>");
	STR_EQ(html("[x](javascript:alert(1))", QB_MARKUP_INLINE), "<a href=\"#\">x</a>");
	STR_EQ(html("[x](JavaScript:alert(1))", QB_MARKUP_INLINE), "<a href=\"#\">x</a>");
	STR_EQ(html("[x](https://e.org/?a=1&b=2)", QB_MARKUP_INLINE),
	       "<a href=\"https://e.org/?a=1&amp;b=2\">x</a>");
	qb_markup_html(&b, "![alt](media/a.png)", QB_MARKUP_INLINE, rename_img, NULL);
	STR_EQ(qb_buf_cstr(&b), "<img src=\"x-1234.png\" alt=\"alt\">");
	qb_buf_clear(&b);
	qb_markup_plain(&b, "**Bold** and `code` & <b>");
	STR_EQ(qb_buf_cstr(&b), "Bold and code & <b>");
	qb_buf_clear(&b);
	qb_markup_images("![a](x.png) text ![b](y.png)", count_image, NULL);
	INT_EQ(nimages, 2);

	/* templates: strict placeholders */
	OK(qb_template_expand(&b, "t", "hello %%who%%, 100%% sure", lookup, NULL) == 0);
	STR_EQ(qb_buf_cstr(&b), "hello world, 100%% sure");
	qb_buf_clear(&b);
	qb_diag_set_color(0);
	OK(qb_template_expand(&b, "t", "%%nobody%%", lookup, NULL) != 0);
	INT_EQ(qb_diag_errors(), 1);
	qb_buf_dispose(&b);

	/* hashes: known vectors */
	uint8_t h1[QB_SHA1_SIZE];
	qb_hash_sha1(h1, "abc", 3);
	INT_EQ(h1[0], 0xa9);
	INT_EQ(h1[19], 0x9d);
	char hex[17];
	qb_hash_sha256_hex(hex, 8, "abc", 3);
	STR_EQ(hex, "ba7816bf8f01cfea");
	return h_done("unit/text");
}
