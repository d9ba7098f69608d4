/* langguess.c - see langguess.h.  libexttextcat classifies a text by its
 * character n-grams against one fingerprint per language and names every
 * language within a small margin of the best ("[sco][en]" for a short
 * English text).  The guess is the first of them that qbc names
 * (lang.c: the languages of its users; Scots reads much as English, and
 * Asturian as Spanish, in a quiz's short sentences), or the first when it
 * names none; the next one is the hesitation.  Each text is also
 * classified alone, and how many agree says how sure. */
#include "langguess.h"

#include <stdbool.h>
#include <string.h>
#include <textcat.h>

#include "buf.h"
#include "lang.h"

#ifndef QB_TEXTCAT_DIR
#define QB_TEXTCAT_DIR "/usr/share/libexttextcat/"
#endif

/* The library's category name ("sw--utf8", "zh-CN-utf8") as a language
 * code: its encoding suffix dropped. */
static bool code_of(const char *name, char *out)
{
	size_t n = strlen(name);
	if (n > 5 && strcmp(name + n - 5, "-utf8") == 0)
		n -= 5;
	while (n && name[n - 1] == '-')
		n--;
	if (!n || n >= QB_LANGGUESS_LEN || !qb_lang_valid(name, n))
		return false;
	memcpy(out, name, n);
	out[n] = '\0';
	return true;
}

/* The first of cand[0..k) qbc names, else the first; its index. */
static int pick(const candidate_t *cand, int k)
{
	char c[QB_LANGGUESS_LEN];
	for (int i = 0; i < k; i++)
		if (code_of(cand[i].name, c) && qb_lang_english_name(c))
			return i;
	return 0;
}

int qb_langguess_texts(const char *const *texts, size_t n, qb_langguess *out)
{
	int rc = -1;
	qb_buf all = QB_BUF_INIT;
	candidate_t *cand = NULL;
	memset(out, 0, sizeof *out);
	void *h = special_textcat_Init(QB_TEXTCAT_DIR "fpdb.conf", QB_TEXTCAT_DIR);
	if (!h)
		goto done;
	cand = textcat_GetClassifyFullOutput(h);
	if (!cand)
		goto done;
	for (size_t i = 0; i < n && all.len < QB_LANGGUESS_MAX; i++) {
		qb_buf_puts(&all, texts[i]);
		qb_buf_puts(&all, "\n");
	}
	size_t len = all.len < QB_LANGGUESS_MAX ? all.len : QB_LANGGUESS_MAX;
	int k = len ? textcat_ClassifyFull(h, all.ptr, len, cand) : 0;
	rc = 0;
	int best = k > 0 ? pick(cand, k) : 0;
	if (k <= 0 || !code_of(cand[best].name, out->code))
		goto done;
	for (int i = 0; i < k && !*out->second; i++)
		if (i != best && code_of(cand[i].name, out->second) && !qb_lang_english_name(out->second))
			out->second[0] = '\0'; /* a hesitation worth saying is between named ones */
	/* each text alone: how many read as the guess */
	for (size_t i = 0; i < n; i++) {
		size_t tl = strlen(texts[i]);
		int m = textcat_ClassifyFull(h, texts[i], tl < 4096 ? tl : 4096, cand);
		char c[QB_LANGGUESS_LEN];
		if (m <= 0)
			continue; /* too short to tell */
		out->of++;
		out->agree += code_of(cand[pick(cand, m)].name, c) && strcmp(c, out->code) == 0;
	}
	/* A language qbc does not name is taken only when most of at least
	 * three questions read as it alone: a sentence or two reads as Danish
	 * or Scots as easily as English. */
	if (!qb_lang_english_name(out->code) && (out->of < 3 || 2 * out->agree <= out->of))
		out->code[0] = out->second[0] = '\0';
done:
	if (cand)
		textcat_ReleaseClassifyFullOutput(h, cand);
	if (h)
		textcat_Done(h);
	qb_buf_dispose(&all);
	return rc;
}
