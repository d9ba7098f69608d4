/* validate.c - see validate.h.  One static function per rule; each says
 * what is wrong, where, and what to write instead. */
#include "validate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utf8proc.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "i18n.h"
#include "lang.h"
#include "markup.h"
#include "params.h"
#include "utf8.h"

typedef struct ctx {
	const qb_bank *bank;
	char *realdir;            /* the bank's folder, resolved, or NULL     */
	const char *undeclared[16]; /* undeclared languages already reported */
	size_t nundeclared;
	const char *unfinished;   /* a language being translated, or NULL      */
	size_t *missing;          /* per language of the bank: texts without it */
} ctx;

static char *describe_lang(const char *lang);

/* A text without the bank's language k: an error, and counted for the
 * summary; none for a language being translated (c->unfinished). */
static void missing_text(ctx *c, qb_loc loc, const char *what, size_t k)
{
	const char *code = c->bank->langs[k].code;
	if (c->unfinished && strcmp(code, c->unfinished) == 0)
		return;
	char *d = describe_lang(code);
	qb_diag_error(loc, "%s has no %s text", what, d);
	free(d);
	c->missing[k]++;
}

/* True the first time an undeclared language is seen: it is reported
 * once, not on every line that uses it. */
static bool first_undeclared(ctx *c, const char *lang)
{
	for (size_t i = 0; i < c->nundeclared; i++)
		if (strcmp(c->undeclared[i], lang) == 0)
			return false;
	if (c->nundeclared < QB_NELEM(c->undeclared))
		c->undeclared[c->nundeclared++] = lang;
	return true;
}

bool qb_id_valid(const char *s, size_t *bad)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_')) {
			*bad = i;
			return false;
		}
	}
	if (n == 0 || n > QB_ID_MAX) {
		*bad = n;
		return false;
	}
	return true;
}

/* Characters (code points) in s[0..n). */
static int nchars(const char *s, size_t n)
{
	return (int)qb_utf8_count(s, n);
}

/* The position of byte off of tr's text, also on a continuation line. */
static qb_loc shift(const qb_bank *b, const qb_text *t, const qb_tr *tr, size_t off)
{
	qb_loc l = qb_tr_text_loc(t, tr);
	const int *cols = qb_bank_text_cols(b, tr->text);
	const char *start = tr->text;
	size_t k = 0;
	for (const char *p = tr->text; p < tr->text + off; p++)
		if (*p == '\n') {
			int col = cols ? cols[k++] : 1;
			start = p + 1;
			if (!col) /* added by the reader: the same source line */
				continue;
			l.col = col;
			l.line++;
		}
	l.col += nchars(start, (size_t)(tr->text + off - start));
	return l;
}

/* "question 'id'" or "question 3" when the author gave no id. */
static void qname(qb_buf *b, const qb_question *q)
{
	if (q->id)
		qb_buf_appendf(b, _("question '%s'"), q->id);
	else
		qb_buf_appendf(b, _("question %d"), q->number);
}

static char *describe_lang(const char *lang)
{
	qb_buf b = QB_BUF_INIT;
	qb_lang_describe(&b, lang);
	return qb_buf_detach(&b);
}

/* ---- images and links ---- */

typedef struct visit {
	ctx *c;
	const qb_text *t;
	const qb_tr *tr;
} visit;

static bool safe_path_chars(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-' || *s == '/'))
			return false;
	return true;
}

/* Moodle's own name for its file store, which only Moodle resolves: a
 * text exported without its files (or imported from GIFT) keeps it. */
static bool moodle_store(const char *url)
{
	return strncmp(url, "@@PLUGINFILE@@", 14) == 0;
}

static void check_image(void *payload, const char *src, size_t off)
{
	const visit *v = payload;
	qb_loc l = shift(v->c->bank, v->t, v->tr, off);
	if (moodle_store(src)) {
		qb_diag_error(l, "'%s' is in Moodle's file store, which no package holds: put the "
		                 "file in media/ and write 'media/<name>'", src);
		return;
	}
	if (!qb_markup_url_safe(src) || strchr(src, ':')) {
		qb_diag_error(l, "image '%s' is not a file: images must be files in the bank's "
		                 "folder, e.g. 'media/picture.png'", src);
		return;
	}
	if (!*src) {
		qb_diag_error(l, "image without a file name");
		return;
	}
	if (!safe_path_chars(src)) {
		qb_diag_error(l, "image path '%s' may only use ASCII letters, digits, '.', '_', '-' "
		                 "and '/'", src);
		return;
	}
	bool escapes = src[0] == '/';
	for (const char *p = src; *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
		if (strncmp(p, "../", 3) == 0 || strcmp(p, "..") == 0)
			escapes = true;
	if (escapes) {
		qb_diag_error(l, "image '%s' is outside the bank's folder; keep media below it, e.g. "
		                 "'media/picture.png'", src);
		return;
	}
	qb_media_kind kind = qb_markup_media_kind(src);
	if (kind == QB_MEDIA_OTHER) {
		qb_diag_error(l, "'%s' is neither a picture (png, jpg, jpeg, gif, webp, svg) nor a "
		                 "sound (mp3, ogg, oga, m4a, wav, opus)", src);
		return;
	}
	char *path = qb_xasprintf("%s/%s", v->c->bank->dir, src);
	char real[PATH_MAX];
	if (!realpath(path, real)) {
		qb_diag_error(l, "%s '%s' not found (looked for '%s')",
		              kind == QB_MEDIA_AUDIO ? _("sound") : _("image"), src, path);
	} else if (v->c->realdir && (strncmp(real, v->c->realdir, strlen(v->c->realdir)) != 0 ||
	                             real[strlen(v->c->realdir)] != '/')) {
		qb_diag_error(l, "image '%s' leads outside the bank's folder (through a link)", src);
	}
	free(path);
}

/* A formula whose braces do not pair up, or an empty one: what KaTeX and
 * MathJax would show as an error or as nothing.  (KaTeX itself checks the
 * rest in the player.) */
static void check_math(void *payload, const char *tex, size_t off)
{
	const visit *v = payload;
	int depth = 0;
	size_t i = 0, unopened = SIZE_MAX;
	for (; tex[i]; i++) {
		if (tex[i] == '\\' && tex[i + 1]) {
			i++;
			continue;
		}
		if (tex[i] == '{')
			depth++;
		else if (tex[i] == '}' && --depth < 0 && unopened == SIZE_MAX)
			unopened = i;
	}
	if (!*tex || strspn(tex, " ") == strlen(tex))
		qb_diag_error(shift(v->c->bank, v->t, v->tr, off), "empty formula");
	else if (unopened != SIZE_MAX)
		qb_diag_error(shift(v->c->bank, v->t, v->tr, off + unopened), "this '}' closes no '{' in the formula");
	else if (depth > 0)
		qb_diag_error(shift(v->c->bank, v->t, v->tr, off), "the formula has %d '{' without '}'", depth);
}

static void check_link(void *payload, const char *url, size_t off)
{
	const visit *v = payload;
	if (moodle_store(url)) {
		qb_diag_error(shift(v->c->bank, v->t, v->tr, off),
		              "link '%s' leads into Moodle's file store, which no package holds: "
		              "put the file in media/ (a sound or a picture as '![...](media/<name>)')",
		              url);
		return;
	}
	if (!qb_markup_url_safe(url)) {
		qb_diag_error(shift(v->c->bank, v->t, v->tr, off),
		              "link '%s' uses a scheme other than http, https or mailto", url);
		return;
	}
	/* a link to a file beside the bank: the file must be there */
	size_t n = strcspn(url, "#?");
	if (!n || strchr(url, ':') || url[0] == '/' || url[0] == '#' || url[0] == '?')
		return;
	char *path = qb_xasprintf("%s/%.*s", v->c->bank->dir, (int)n, url);
	if (access(path, F_OK) != 0)
		qb_diag_warning(shift(v->c->bank, v->t, v->tr, off),
		                "link '%s': no such file (looked for '%s')", url, path);
	free(path);
}

/* ---- texts ---- */

/* True when t has a line with a language tag (tagged) or without one. */
static bool text_has(const qb_text *t, bool tagged)
{
	for (size_t i = 0; i < t->ntr; i++)
		if ((*qb_tr_lang(t, &t->tr[i]) != '\0') == tagged)
			return true;
	return false;
}

static bool has_untagged(const qb_text *t)
{
	return text_has(t, false);
}


/* The code point at s[0..n) and its length in *len (1 for a bad byte). */
static utf8proc_int32_t cp_at(const char *s, size_t n, size_t *len)
{
	utf8proc_int32_t cp = -1;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
	*len = k > 0 ? (size_t)k : 1;
	return k > 0 ? cp : -1;
}

static bool is_letter(utf8proc_int32_t cp)
{
	utf8proc_category_t k = cp < 0 ? UTF8PROC_CATEGORY_CN : utf8proc_category(cp);
	return (k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO) ||
	       (k >= UTF8PROC_CATEGORY_MN && k <= UTF8PROC_CATEGORY_ME);
}

/* The number of ordinary words in Markdown text s: words of at least
 * QB_WORD_LETTERS letters, none of them upper-case but the first letter
 * of the text's first word (a capital there is the sentence's, as in 'The
 * nucleus'), outside code spans, formulas, link and image addresses and
 * URLs.  Names ('Isaac Newton', 'NVLink', 'LL128'), code and numbers are
 * not ordinary words, so a text made of them may be the same in every
 * language. */
static int ordinary_words(const char *s)
{
	int words = 0;
	bool first = true; /* the text's first word is still to come */
	size_t n = strlen(s), i = 0;
	while (i < n) {
		if (s[i] == '\\' && s[i + 1] == '$') { /* an escaped dollar sign */
			i += 2;
			continue;
		}
		if (s[i] == '`' || s[i] == '$') {
			/* a code span or a formula: up to the same run of marks */
			const char *mark = s[i] == '`' ? "`" : "$";
			size_t r = strspn(s + i, mark);
			const char *e = s + i + r;
			while ((e = strchr(e, *mark)) && strspn(e, mark) != r)
				e += strspn(e, mark);
			i = e ? (size_t)(e - s) + r : i + r;
			continue;
		}
		if (s[i] == ']' && s[i + 1] == '(') { /* a link's or image's address */
			const char *e = strchr(s + i, ')');
			i = e ? (size_t)(e - s) + 1 : n;
			continue;
		}
		size_t len;
		if (!is_letter(cp_at(s + i, n - i, &len))) {
			i += len;
			continue;
		}
		/* A word: letters, joined by inner hyphens and apostrophes. */
		int letters = 0;
		bool upper = false, sentence_case = first;
		first = false;
		for (;;) {
			utf8proc_int32_t cp = cp_at(s + i, n - i, &len);
			if (is_letter(cp)) {
				utf8proc_category_t k = utf8proc_category(cp);
				bool cap = k == UTF8PROC_CATEGORY_LU || k == UTF8PROC_CATEGORY_LT;
				upper |= cap && !(sentence_case && letters == 0);
				letters += k <= UTF8PROC_CATEGORY_LO;
				i += len;
				continue;
			}
			size_t l2;
			if ((cp == '-' || cp == '\'' || cp == 0x2019) && i + len < n &&
			    is_letter(cp_at(s + i + len, n - i - len, &l2))) {
				i += len;
				continue;
			}
			break;
		}
		if (strncmp(s + i, "://", 3) == 0) { /* a URL: up to the next space */
			while (i < n && s[i] != ' ' && s[i] != '\n')
				i++;
			continue;
		}
		if (letters >= QB_WORD_LETTERS && !upper)
			words++;
	}
	return words;
}

/* By text, then by position in the text (qsort of pointers into tr). */
static int tr_text_cmp(const void *pa, const void *pb)
{
	const qb_tr *a = *(const qb_tr *const *)pa, *b = *(const qb_tr *const *)pb;
	int d = strcmp(a->text, b->text);
	return d ? d : (a > b) - (a < b);
}

/* A text that is the same in two languages is likely an untranslated
 * copy, unless it holds no ordinary words (see ordinary_words()).  Each
 * translation is compared with the first earlier one of the same text,
 * found by sorting (not by comparing every pair: a bank may have a
 * thousand languages). */
static void check_same(const qb_text *t, const char *what)
{
	if (t->ntr < 2)
		return;
	const qb_tr **by_text = qb_xcalloc(t->ntr, sizeof *by_text);
	const qb_tr **first = qb_xcalloc(t->ntr, sizeof *first);
	size_t n = 0;
	for (size_t i = 0; i < t->ntr; i++)
		if (*qb_tr_lang(t, &t->tr[i]) && *t->tr[i].text)
			by_text[n++] = &t->tr[i];
	qsort(by_text, n, sizeof *by_text, tr_text_cmp);
	for (size_t i = 1; i < n; i++)
		if (strcmp(by_text[i]->text, by_text[i - 1]->text) == 0)
			first[by_text[i] - t->tr] = first[by_text[i - 1] - t->tr]
			                                ? first[by_text[i - 1] - t->tr]
			                                : by_text[i - 1];
	for (size_t i = 1; i < t->ntr; i++) {
		const qb_tr *a = &t->tr[i], *b = first[i];
		if (b && ordinary_words(a->text) >= QB_SAME_TEXT_WORDS)
			qb_diag_warning(qb_tr_loc(t, a), "the '%s' text of %s is the same as the '%s' one: "
			                        "an untranslated copy?", qb_tr_lang(t, a), what,
			                qb_tr_lang(t, b));
	}
	free(by_text);
	free(first);
}

/* ---- dollars and formulas ---- */

/* TeX with what may hold words removed: command names, the groups of the
 * text commands (\text{...}, \mathrm{...}: words meant as words), sub-
 * and superscripts (x_{max}).  What is left of a real formula is symbols
 * and one-letter names; a sentence caught between two '$' keeps its words. */
static void tex_bare(qb_buf *out, const char *tex)
{
	static const char *const text_cmds[] = {"text", "textrm", "textit", "textbf", "mathrm",
	                                        "mathit", "mathbf", "mathsf", "mbox", "operatorname"};
	for (const char *p = tex; *p;) {
		bool skip_group = false;
		if (*p == '\\') {
			const char *n = ++p;
			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
				p++;
			for (size_t i = 0; i < QB_NELEM(text_cmds); i++)
				skip_group |= (size_t)(p - n) == strlen(text_cmds[i]) &&
				              strncmp(n, text_cmds[i], (size_t)(p - n)) == 0;
			if (p == n && *p)
				p++; /* \{, \$ ... */
			qb_buf_putc(out, ' ');
		} else if (*p == '_' || *p == '^') {
			p++;
			skip_group = *p == '{';
			if (*p == '\\')
				continue; /* a command as the script (n_\mathrm{...}): its own turn */
			if (!skip_group && *p)
				p += 1;
		} else {
			qb_buf_putc(out, *p++);
			continue;
		}
		while (*p == ' ')
			p++;
		if (skip_group && *p == '{') { /* to the matching '}' */
			int depth = 0;
			for (; *p; p++) {
				if (*p == '\\' && p[1]) {
					p++;
					continue;
				}
				depth += *p == '{';
				if (*p == '}' && --depth == 0) {
					p++;
					break;
				}
			}
		}
	}
}

/* The formulas of one text: their offsets, for the '$' that belong to
 * them, and their number. */
typedef struct formulas {
	const visit *v;
	size_t *off, n, cap;
	int *words; /* ordinary words in each */
} formulas;

static void note_formula(void *payload, const char *tex, size_t off)
{
	formulas *f = payload;
	check_math((void *)f->v, tex, off);
	if (f->n == f->cap) {
		f->cap = 2 * f->cap + 4;
		f->off = qb_xrealloc(f->off, f->cap * sizeof *f->off);
		f->words = qb_xrealloc(f->words, f->cap * sizeof *f->words);
	}
	qb_buf bare = QB_BUF_INIT;
	tex_bare(&bare, tex);
	f->words[f->n] = ordinary_words(qb_buf_cstr(&bare));
	f->off[f->n++] = off;
	qb_buf_dispose(&bare);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* True when the '$' run at s[i..i+r) reads as a dollar amount: before a
 * number ($5, US$5) or after a number and a space (5 $, the French and
 * Canadian habit), never before a letter. */
static bool dollar_amount(const char *s, size_t i, size_t r)
{
	char next = s[i + r];
	if (is_digit(next))
		return true;
	bool letter = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
	              next == '\\' || (unsigned char)next >= 0x80;
	return !letter && i >= 2 && s[i - 1] == ' ' && is_digit(s[i - 2]);
}

/* Checks the '$' of one translation: a '$' that belongs to no formula and
 * is no dollar amount most likely opens a formula whose closing '$' is
 * missing, and shifts the pairs after it.  Returns its number of formulas. */
static size_t check_dollars(const visit *v)
{
	const char *s = v->tr->text;
	formulas f = {v, NULL, 0, 0, NULL};
	if (!strchr(s, '$'))
		return 0;
	qb_markup_math(s, note_formula, &f);
	/* The '$' runs that delimit a formula: the one just before each TeX,
	 * and the next run of the same length after it.  Two dollar amounts
	 * ("$5 and $6", "5 $ et 6 $") pair up as a formula too. */
	size_t *used = qb_xcalloc(2 * f.n + 1, sizeof *used), nused = 0;
	for (size_t k = 0; k < f.n; k++) {
		size_t o = f.off[k], r = 0, close = SIZE_MAX;
		while (r < o && r < 2 && s[o - r - 1] == '$')
			r++;
		if (!r)
			continue;
		used[nused++] = o - r;
		for (size_t i = o; s[i]; i++) {
			if (s[i] == '\\' && s[i + 1]) {
				i++;
				continue;
			}
			if (s[i] == '$' && strspn(s + i, "$") == r) {
				used[nused++] = close = i;
				break;
			}
		}
		qb_loc at = shift(v->c->bank, v->t, v->tr, o - r);
		if (close != SIZE_MAX && dollar_amount(s, o - r, r) && dollar_amount(s, close, r))
			qb_diag_warning(at, "these two '$' are dollar signs, but they pair up as a formula "
			                "around the text between them; write each as '\\$'");
		else if (f.words[k] >= QB_FORMULA_WORDS)
			qb_diag_warning(at, "this formula holds %d ordinary words: is a '$' missing before "
			                "it or after it? (a dollar sign is written '\\$')", f.words[k]);
	}
	bool fence = false;
	for (size_t i = 0; s[i];) {
		const char *line = s + i + strspn(s + i, " ");
		bool fence_line = (i == 0 || s[i - 1] == '\n') &&
		                  (strncmp(line, "```", 3) == 0 || strncmp(line, "~~~", 3) == 0);
		fence ^= fence_line;
		if (fence || fence_line) { /* fenced code: the whole line */
			const char *e = strchr(s + i, '\n');
			i = e ? (size_t)(e - s) + 1 : strlen(s);
			continue;
		}
		if (s[i] == '`') { /* a code span: to the same run of backticks */
			size_t r = strspn(s + i, "`");
			const char *e = strchr(s + i + r, '`');
			while (e && strspn(e, "`") != r)
				e = strchr(e + strspn(e, "`"), '`');
			i = e ? (size_t)(e - s) + r : i + r;
			continue;
		}
		if (s[i] == '\\' && s[i + 1]) {
			i += 2;
			continue;
		}
		if (s[i] != '$') {
			i++;
			continue;
		}
		size_t r = strspn(s + i, "$");
		bool belongs = false;
		for (size_t k = 0; k < nused && !belongs; k++)
			belongs = used[k] == i;
		if (!belongs && r <= 2 && !dollar_amount(s, i, r)) {
			qb_diag_warning(shift(v->c->bank, v->t, v->tr, i),
			                "this '$' opens or closes no formula: is its other '$' missing? "
			                "(a dollar sign is written '\\$')");
			break;
		}
		i += r;
	}
	free(used);
	free(f.off);
	free(f.words);
	return f.n;
}

/* True when t has a text in every language of bank b. */
static bool complete(const qb_bank *b, const qb_text *t)
{
	for (size_t k = 0; k < b->nlangs; k++)
		if (!qb_text_tr(t, b->langs[k].code))
			return false;
	return b->nlangs > 0;
}

/* Checks one translated text.  what describes it for messages, e.g.
 * "option 2 of question 'x'". */
static void check_text(ctx *c, const qb_text *t, const char *what, bool check_missing,
                       bool untagged_ok)
{
	const qb_bank *b = c->bank;
	const qb_tr *first_tr = NULL; /* the first translation checked ... */
	size_t first_nf = 0;          /* ... and its number of formulas    */
	for (size_t i = 0; i < t->ntr; i++) {
		const qb_tr *tr = &t->tr[i];
		if (!*qb_tr_lang(t, tr)) {
			if (!untagged_ok) {
				/* Suggest a language this text still lacks. */
				const char *want = qb_bank_default_lang(b);
				for (size_t k = 0; k < b->nlangs; k++)
					if (!qb_text_tr(t, b->langs[k].code)) {
						want = b->langs[k].code;
						break;
					}
				const qb_tr *prev = i ? &t->tr[i - 1] : NULL;
				if (complete(b, t) && prev && *qb_tr_lang(t, prev)) {
					/* Every language is there: the line is the rest of
					 * the text above, wrapped without a '\'. */
					int end = prev->line;
					for (const char *p = prev->text; *p; p++)
						end += *p == '\n';
					qb_diag_error(qb_tr_loc(t, tr), "a line without a language tag after the '%s' "
					                       "text; to continue that text here, end line "
					                       "%d with '\\'", qb_tr_lang(t, prev), end);
				} else
					qb_diag_error(qb_tr_loc(t, tr), "text without a language tag; start the line "
					                       "with '%s:'", want ? want : "en");
			}
			continue;
		}
		if (b->nlangs && !qb_bank_has_lang(b, qb_tr_lang(t, tr))) {
			if (first_undeclared(c, qb_tr_lang(t, tr)))
				qb_diag_error(qb_tr_loc(t, tr), "language '%s' is not declared in 'languages:' "
				                       "(line %d)", qb_tr_lang(t, tr), b->langs_loc.line);
			continue;
		}
		if (!*tr->text) {
			char *d = describe_lang(qb_tr_lang(t, tr));
			qb_diag_error(qb_tr_loc(t, tr), "empty %s text for %s", d, what);
			free(d);
			continue;
		}
		int n = nchars(tr->text, strlen(tr->text));
		if (n > QB_LONG_TEXT)
			qb_diag_warning(qb_tr_loc(t, tr), "the '%s' text of %s is very long (%d characters; more "
			                         "than %d is hard to read on a phone)",
			                qb_tr_lang(t, tr), what, n, QB_LONG_TEXT);
		visit v = {c, t, tr};
		qb_markup_images(tr->text, check_image, &v);
		qb_markup_links(tr->text, check_link, &v);
		size_t nf = check_dollars(&v);
		/* The same formulas in every language: a text with fewer or more
		 * has most likely lost or gained a '$'. */
		if (!first_tr) {
			first_tr = tr;
			first_nf = nf;
		} else if (nf != first_nf) {
			qb_diag_warning(qb_tr_loc(t, tr),
			                ngettext("the '%s' text of %s has %zu formula, the '%s' text "
			                         "%zu: is a '$' missing?",
			                         "the '%s' text of %s has %zu formulas, the '%s' text "
			                         "%zu: is a '$' missing?", nf),
			                qb_tr_lang(t, tr), what, nf, qb_tr_lang(t, first_tr), first_nf);
		}
	}
	check_same(t, what);
	/* A line without a tag most likely is the missing translation: one
	 * diagnostic for it is enough. */
	if (!check_missing || has_untagged(t))
		return;
	for (size_t k = 0; k < b->nlangs; k++) {
		if (qb_text_tr(t, b->langs[k].code))
			continue;
		missing_text(c, qb_text_loc(t), what, k);
	}
}

/* The same for any text of question q. */
static bool question_has(const qb_question *q, bool tagged)
{
	if (text_has(&q->prompt, tagged) || text_has(&q->explanation, tagged) ||
	    text_has(qb_question_feedback_wrong(q), tagged) ||
	    text_has(qb_question_feedback(q, true), tagged) ||
	    text_has(qb_question_feedback(q, false), tagged))
		return true;
	for (size_t i = 0; i < q->nchoices; i++)
		if (text_has(&q->choices[i].text, tagged) || text_has(&q->choices[i].feedback, tagged) ||
		    text_has(qb_choice_match(&q->choices[i]), tagged))
			return true;
	return false;
}

/* ---- the header ---- */

static void check_header(ctx *c)
{
	const qb_bank *b = c->bank;
	qb_loc top = {b->path, 1, 1};
	if (!b->id && !b->nlangs && !b->langs_loc.line && !b->title.present) {
		qb_diag_error(top, "the bank has no header: it needs 'bank:', 'languages:' and "
		                   "'title:' before the first question");
		qb_diag_note(QB_LOC(b->path, 0, 0), "a bank starts with 'bank: my-quiz', "
		             "'languages: en sw' and a 'title:' block; see input/README.md");
		return;
	}
	if (!b->id)
		qb_diag_error(top, "the bank has no id; add a line such as 'bank: my-quiz'");
	else {
		size_t bad;
		if (!qb_id_valid(b->id, &bad)) {
			qb_loc l = b->id_loc;
			l.col += nchars(b->id, bad);
			if (bad == strlen(b->id))
				qb_diag_error(b->id_loc, "the bank id is longer than %d characters",
				              QB_ID_MAX);
			else
				qb_diag_error(l, "the bank id '%s' may only use ASCII letters, digits, "
				                 "'-' and '_'", b->id);
		}
	}
	if (!b->nlangs && !b->langs_loc.line)
		qb_diag_error(top, "the bank declares no languages; add a line such as "
		                   "'languages: en sw'");
	if (b->default_lang && b->nlangs && !qb_bank_has_lang(b, b->default_lang))
		qb_diag_error(b->default_lang_loc, "default language '%s' is not one of "
		                                   "'languages:' (line %d)",
		              b->default_lang, b->langs_loc.line);
	if (b->pass_mark_loc.line && (b->pass_mark < 0 || b->pass_mark > 100))
		qb_diag_error(b->pass_mark_loc, "the pass mark must be between 0 and 100%%, not %d",
		              b->pass_mark);
	if (!b->title.present)
		qb_diag_error(top, "the bank has no title; add 'title:' with one line per language");
	else
		check_text(c, &b->title, _("the bank's title"), true, false);
	if (b->description.present)
		check_text(c, &b->description, _("the bank's description"), true, false);
}

/* ---- questions ---- */

/* Orders questions (of one array, with ids) by id, then by position. */
static int by_id(const void *a, const void *b)
{
	const qb_question *p = *(const qb_question *const *)a, *q = *(const qb_question *const *)b;
	int d = strcmp(p->id, q->id);
	return d ? d : (p > q) - (p < q);
}

static void check_ids(ctx *c)
{
	const qb_bank *b = c->bank;
	/* first[i]: the earliest question with the same id as question i
	 * (i itself when it is the first); found by sorting, not by
	 * comparing every pair. */
	const qb_question **order = qb_xcalloc(b->nquestions + 1, sizeof *order);
	size_t *first = qb_xcalloc(b->nquestions + 1, sizeof *first);
	size_t n = 0;
	for (size_t i = 0; i < b->nquestions; i++) {
		first[i] = i;
		if (b->questions[i].id)
			order[n++] = &b->questions[i];
	}
	qsort(order, n, sizeof *order, by_id);
	for (size_t k = 1; k < n; k++)
		if (strcmp(order[k]->id, order[k - 1]->id) == 0)
			first[order[k] - b->questions] = first[order[k - 1] - b->questions];
	for (size_t i = 0; i < b->nquestions; i++) {
		const qb_question *q = &b->questions[i];
		if (!q->id)
			continue;
		size_t bad;
		if (!qb_id_valid(q->id, &bad)) {
			qb_loc l = q->id_loc;
			if (bad == strlen(q->id))
				qb_diag_error(l, "question id '%s' is longer than %d characters", q->id,
				              QB_ID_MAX);
			else {
				l.col += nchars(q->id, bad);
				qb_diag_error(l, "question id '%s' may only use ASCII letters, digits, '-' "
				                 "and '_'", q->id);
			}
		}
		if (first[i] != i) {
			qb_diag_error(q->id_loc, "duplicate question id '%s'", q->id);
			qb_diag_note(b->questions[first[i]].id_loc, "'%s' is first used here", q->id);
		}
	}
	free(order);
	free(first);
}

/* ---- passages ---- */

/* Orders ids (passages' and questions') by id, passages first. */
typedef struct id_ent {
	const char *id;
	qb_loc loc;
	bool question;
} id_ent;

static int by_id_ent(const void *a, const void *b)
{
	const id_ent *x = a, *y = b;
	int d = strcmp(x->id, y->id);
	return d ? d : (int)x->question - (int)y->question;
}

static void check_passages(ctx *c)
{
	const qb_bank *b = c->bank;
	if (!b->npassages)
		return;
	/* Ids: valid, and unique among passages and questions (found by
	 * sorting, as check_ids() does). */
	id_ent *e = qb_xcalloc(b->npassages + b->nquestions + 1, sizeof *e);
	size_t n = 0;
	for (size_t i = 0; i < b->npassages; i++)
		if (b->passages[i].id)
			e[n++] = (id_ent){b->passages[i].id, b->passages[i].id_loc, false};
	for (size_t i = 0; i < b->nquestions; i++)
		if (b->questions[i].id)
			e[n++] = (id_ent){b->questions[i].id, b->questions[i].id_loc, true};
	qsort(e, n, sizeof *e, by_id_ent);
	for (size_t k = 1; k < n; k++) {
		if (e[k].question || strcmp(e[k].id, e[k - 1].id) != 0)
			continue;
		qb_diag_error(e[k].loc, "duplicate passage id '%s'", e[k].id);
		qb_diag_note(e[k - 1].loc, "'%s' is first used here", e[k].id);
	}
	for (size_t k = 1; k < n; k++)
		if (e[k].question && !e[k - 1].question && strcmp(e[k].id, e[k - 1].id) == 0) {
			qb_diag_error(e[k - 1].loc, "passage id '%s' is also a question's id; passages "
			                            "and questions need ids of their own", e[k].id);
			qb_diag_note(e[k].loc, "question '%s' is here", e[k].id);
		}
	free(e);
	bool *used = qb_xcalloc(b->npassages, sizeof *used);
	for (size_t i = 0; i < b->nquestions; i++)
		if (qb_question_passage(b, &b->questions[i]))
			used[b->questions[i].passage - 1] = true;
	for (size_t i = 0; i < b->npassages; i++) {
		const qb_passage *p = &b->passages[i];
		size_t bad;
		if (!p->id) {
			qb_diag_error(p->loc, "'passage:' needs the passage's id, e.g. "
			                      "'passage: lighthouse'");
			continue;
		}
		if (!qb_id_valid(p->id, &bad)) {
			qb_loc l = p->id_loc;
			if (bad == strlen(p->id))
				qb_diag_error(l, "passage id '%s' is longer than %d characters", p->id,
				              QB_ID_MAX);
			else {
				l.col += nchars(p->id, bad);
				qb_diag_error(l, "passage id '%s' may only use ASCII letters, digits, '-' "
				                 "and '_'", p->id);
			}
		}
		if (!p->text.present || !p->text.ntr)
			qb_diag_error(p->loc, "passage '%s' has no text; write one language line per "
			                      "language under 'passage: %s'", p->id, p->id);
		else {
			qb_buf what = QB_BUF_INIT;
			qb_buf_appendf(&what, _("passage '%s'"), p->id);
			check_text(c, &p->text, qb_buf_cstr(&what), true, false);
			qb_buf_dispose(&what);
		}
		if (!used[i] && p->text.ntr)
			qb_diag_warning(p->loc, "no question is read with passage '%s'; write "
			                        "'passage: %s' among the keys of its questions", p->id,
			                p->id);
	}
	free(used);
}

/* A matching pair: both sides in the same languages. */
static void check_pair(ctx *c, const qb_choice *ch, const char *what)
{
	const qb_text *match = qb_choice_match(ch);
	if (match->present)
		check_text(c, match, what, false, false);
	for (size_t t = 0; t < ch->text.ntr; t++) {
		const qb_tr *tr = &ch->text.tr[t];
		if (*qb_tr_lang(&ch->text, tr) && !qb_text_tr(match, qb_tr_lang(&ch->text, tr)))
			qb_diag_error(qb_tr_loc(&ch->text, tr), "the '%s' text of %s has no ' => ' between the left and "
			                       "the right side; write 'left => right'", qb_tr_lang(&ch->text, tr), what);
	}
	if (!ch->text.present) /* a distractor: its right side in every language */
		for (size_t k = 0; k < c->bank->nlangs; k++)
			if (match->present && !qb_text_tr(match, c->bank->langs[k].code)) {
				missing_text(c, qb_choice_loc(ch), what, k);
			}
}

static void check_choices(ctx *c, const qb_question *q, const char *name, bool untagged)
{
	const qb_bank *b = c->bank;
	qb_buf what = QB_BUF_INIT;
	size_t pairs = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		qb_buf_clear(&what);
		/* What a question of a type calls its options ("option",
		 * "pair", "answer") is written whole in every message that
		 * names one, so that each language gives the word its article,
		 * gender and plural. */
		qb_buf_appendf(&what,
		               /* TRANSLATORS: "option 2 of question 'x'", quoted by
		                * other messages, as in "the 'fr' text of %s". */
		               q->type == QB_QTYPE_SHORT      ? _("answer %zu of %s")
		               : q->type == QB_QTYPE_MATCHING ? _("pair %zu of %s")
		                                              : _("option %zu of %s"),
		               i + 1, name);
		if (q->type == QB_QTYPE_MATCHING) {
			pairs += ch->text.present;
			if (ch->text.present)
				check_text(c, &ch->text, qb_buf_cstr(&what), !untagged, untagged);
			check_pair(c, ch, qb_buf_cstr(&what));
		} else
			check_text(c, &ch->text, qb_buf_cstr(&what), !untagged, untagged);
		if (ch->pinned && !qb_qtype_shuffles(q->type))
			qb_diag_error(qb_choice_loc(ch),
			              q->type == QB_QTYPE_SHORT
			                  ? _("'!' pins an option in place when options are shuffled; the "
			                      "answers of a question of type '%s' are not shuffled")
			              : q->type == QB_QTYPE_MATCHING
			                  ? _("'!' pins an option in place when options are shuffled; the "
			                      "pairs of a question of type '%s' are not shuffled")
			                  : _("'!' pins an option in place when options are shuffled; the "
			                      "options of a question of type '%s' are not shuffled"),
			              qb_qtype_name(q->type));
		if (ch->feedback.present) {
			qb_buf_clear(&what);
			qb_buf_appendf(&what,
			               q->type == QB_QTYPE_SHORT      ? _("the feedback of answer %zu of %s")
			               : q->type == QB_QTYPE_MATCHING ? _("the feedback of pair %zu of %s")
			                                              : _("the feedback of option %zu of %s"),
			               i + 1, name);
			check_text(c, &ch->feedback, qb_buf_cstr(&what), false, untagged);
			/* Feedback is optional, but if written, in every language. */
			if (!untagged && ch->feedback.ntr && !has_untagged(&ch->feedback))
				for (size_t k = 0; k < b->nlangs; k++) {
					if (qb_text_tr(&ch->feedback, b->langs[k].code))
						continue;
					missing_text(c, qb_text_loc(&ch->feedback), qb_buf_cstr(&what), k);
				}
		}
		/* The same option text twice in one language (a short answer
		 * may repeat one: a language may have fewer spellings). */
		for (size_t t = 0; t < ch->text.ntr && q->type != QB_QTYPE_SHORT; t++) {
			const qb_tr *tr = &ch->text.tr[t];
			if (!*qb_tr_lang(&ch->text, tr) || !*tr->text)
				continue;
			for (size_t j = 0; j < i; j++) {
				const char *other = qb_text_get(&q->choices[j].text, qb_tr_lang(&ch->text, tr));
				if (other && strcmp(other, tr->text) == 0) {
					qb_diag_error(qb_tr_loc(&ch->text, tr),
					              q->type == QB_QTYPE_MATCHING
					                  ? _("pair %zu of %s repeats pair %zu in '%s'")
					                  : _("option %zu of %s repeats option %zu in '%s'"),
					              i + 1, name, j + 1, qb_tr_lang(&ch->text, tr));
					break;
				}
			}
		}
	}
	qb_buf_dispose(&what);
	if (q->type == QB_QTYPE_MATCHING && pairs < 2)
		qb_diag_error(q->nchoices ? qb_choice_loc(&q->choices[0]) : q->loc,
		              ngettext("matching %s has %zu pair; it needs at least two ('left => right')",
		                       "matching %s has %zu pairs; it needs at least two ('left => right')",
		                       pairs),
		              name, pairs);
	else if (q->nchoices < 2 && qb_qtype_has_options(q->type))
		qb_diag_error(q->nchoices ? qb_choice_loc(&q->choices[0]) : q->loc,
		              ngettext("%s has %zu option; it needs at least two",
		                       "%s has %zu options; it needs at least two", q->nchoices),
		              name, q->nchoices);
	if (q->nchoices > QB_MANY_OPTIONS)
		qb_diag_warning(qb_choice_loc(&q->choices[QB_MANY_OPTIONS]),
		                q->type == QB_QTYPE_SHORT
		                    ? ngettext("%s has %zu answer; more than %d is hard to answer on a "
		                               "phone",
		                               "%s has %zu answers; more than %d is hard to answer on a "
		                               "phone", q->nchoices)
		                : q->type == QB_QTYPE_MATCHING
		                    ? ngettext("%s has %zu pair; more than %d is hard to answer on a "
		                               "phone",
		                               "%s has %zu pairs; more than %d is hard to answer on a "
		                               "phone", q->nchoices)
		                    : ngettext("%s has %zu option; more than %d is hard to answer on a "
		                               "phone",
		                               "%s has %zu options; more than %d is hard to answer on a "
		                               "phone", q->nchoices),
		                name, q->nchoices, QB_MANY_OPTIONS);
}

/* A question-level text block (feedback-wrong:, ...): optional, but in
 * every language when written. */
static void check_block(ctx *c, const qb_text *t, const char *kw, const char *name,
                        bool untagged)
{
	if (!t->present)
		return;
	qb_buf what = QB_BUF_INIT;
	/* TRANSLATORS: "the 'hint:' of question 'x'"; the keyword stays. */
	qb_buf_appendf(&what, _("the '%s:' of %s"), kw, name);
	check_text(c, t, qb_buf_cstr(&what), !untagged, untagged);
	qb_buf_dispose(&what);
}

/* A numeric question's further answers: each range in order, each
 * feedback in every language. */
static void check_num_more(ctx *c, const qb_question *q, const char *name, bool untagged)
{
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		if (m->num.range && m->num.lo > m->num.hi)
			qb_diag_error(m->num.loc, "the range of %s starts above its end (%g > %g); write "
			              "the smaller number first", name, m->num.lo, m->num.hi);
		check_block(c, &m->feedback, "answer", name, untagged);
	}
}

/* Warns about each '{...}' in the literal runs of a cloze prompt (outside
 * formulas and code): most likely a gap written with single braces, which
 * learners would see with its answer.  Returns how many. */
static int single_brace_gaps(ctx *c, const qb_question *q, const qb_tr *tr,
                             const qb_cloze_part *p, size_t np)
{
	int found = 0;
	for (size_t k = 0; k < np; k++) {
		if (p[k].gap)
			continue;
		const char *s = p[k].text, *end = s + p[k].len;
		bool math = false;
		for (const char *x = s; x < end; x++) {
			if (*x == '\\' && x + 1 < end) {
				x++;
				continue;
			}
			if (*x == '`') { /* a code span: to its closing run */
				size_t r = strspn(x, "`");
				const char *e = x + r;
				while (e < end && (e = memchr(e, '`', (size_t)(end - e))) != NULL &&
				       strspn(e, "`") != r)
					e += strspn(e, "`");
				x = e && e < end ? e + r - 1 : end - 1;
				continue;
			}
			if (*x == '$')
				math = !math;
			if (math || *x != '{')
				continue;
			const char *close = x + 1;
			while (close < end && *close != '}' && *close != '{' && *close != '\n')
				close++;
			if (close >= end || *close != '}' || close == x + 1)
				continue;
			qb_diag_warning(shift(c->bank, &q->prompt, tr, (size_t)(x - tr->text)),
			                "'%.*s' looks like a gap written with single braces: learners would see it "
			              "with its answer; write '{%.*s}' (or '\\{' for a brace)",
			              (int)(close - x + 1), x, (int)(close - x + 1), x);
			found++;
			x = close;
		}
	}
	return found;
}

/* A numeric gap ('{{#9.81 ± 0.05}}') that qb_numeric_parse() could not
 * read, located at the part it names. */
static void check_numeric_gap(ctx *c, const qb_question *q, const qb_tr *tr, const qb_cloze_gap *g)
{
	const char *s = tr->text + g->num_at;
	int n = (int)g->num_len;
	qb_loc l = shift(c->bank, &q->prompt, tr, g->num_at);
	switch (g->num_err) {
	case QB_NUMERIC_OK:
		if (g->num->range && g->num->lo > g->num->hi)
			qb_diag_error(l, "the range of this numeric gap starts above its end (%g > %g); "
			                 "write the smaller number first", g->num->lo, g->num->hi);
		break;
	case QB_NUMERIC_BAD_RANGE:
		qb_diag_error(l, "the range '%.*s' of this numeric gap is not two numbers, e.g. "
		                 "'{{#36.1..37.2}}'", n, s);
		break;
	case QB_NUMERIC_BAD_VALUE:
		qb_diag_error(l, "'%.*s' is not a number; write a numeric gap with '.' as the decimal "
		                 "point, e.g. '{{#9.81}}' or '{{#9.81 \xC2\xB1 0.05}}'", n, s);
		break;
	case QB_NUMERIC_BAD_TOL:
		qb_diag_error(l, "the tolerance '%.*s' is not a number; write e.g. '{{#9.81 \xC2\xB1 "
		                 "0.05}}' or '{{#343 \xC2\xB1 2%%}}'", n, s);
		break;
	case QB_NUMERIC_TOO_LARGE: {
		qb_numeric num = *g->num;
		qb_numeric_too_large(&num, l, s, g->num_len);
		break;
	}
	}
}

/* The gaps of a cloze question, in every language: the same number, a
 * right choice in each choice gap, no empty answer, no gap written with
 * single braces. */
static void check_cloze(ctx *c, const qb_question *q, const char *name)
{
	qb_arena a = {0};
	int first = -1;
	const qb_tr *first_tr = NULL;
	for (size_t i = 0; i < q->prompt.ntr; i++) {
		const qb_tr *tr = &q->prompt.tr[i];
		if (!*qb_tr_lang(&q->prompt, tr) || (c->bank->nlangs && !qb_bank_has_lang(c->bank, qb_tr_lang(&q->prompt, tr))))
			continue;
		qb_cloze_part *p;
		size_t np;
		int n = qb_cloze_split(&a, tr->text, &p, &np);
		if (n < 0) {
			const char *open = tr->text;
			for (size_t k = 0; k < np; k++)
				if (!p[k].gap)
					open = p[k].text;
			const char *at = strstr(open, "{{");
			qb_diag_error(shift(c->bank, &q->prompt, tr, at ? (size_t)(at - tr->text) : 0),
			              "this '{{' has no '}}'; a gap is written '{{answer}}' (write '\\{' "
			              "for a literal brace)");
			continue;
		}
		single_brace_gaps(c, q, tr, p, np);
		if (n == 0) {
			qb_diag_error(qb_tr_text_loc(&q->prompt, tr), "the '%s' prompt of cloze %s has no gap; write each "
			                            "gap as '{{answer}}' or '{{=right ~wrong}}'",
			              qb_tr_lang(&q->prompt, tr), name);
			continue;
		}
		if (first < 0) {
			first = n;
			first_tr = tr;
		} else if (n != first) {
			/* Either line may be the wrong one: name both. */
			const char *fl = qb_tr_lang(&q->prompt, first_tr);
			qb_diag_error(qb_tr_text_loc(&q->prompt, tr),
			              ngettext("the '%s' prompt of %s has %d gap, the '%s' one %d; every "
			                       "language needs the same gaps in the same order",
			                       "the '%s' prompt of %s has %d gaps, the '%s' one %d; every "
			                       "language needs the same gaps in the same order",
			                       (unsigned long)n),
			              qb_tr_lang(&q->prompt, tr), name, n, fl, first);
			qb_diag_note(qb_tr_text_loc(&q->prompt, first_tr),
			             ngettext("the '%s' prompt, with %d gap", "the '%s' prompt, with %d gaps",
			                      (unsigned long)first),
			             fl, first);
		}
		for (size_t k = 0; k < np; k++) {
			const qb_cloze_gap *g = p[k].gap;
			if (!g)
				continue;
			qb_loc l = shift(c->bank, &q->prompt, tr, g->off);
			if (g->num) {
				check_numeric_gap(c, q, tr, g);
				continue;
			}
			if (g->choice && !g->nright)
				qb_diag_error(l, "this choice gap has no right choice; mark it with '=' "
				                 "instead of '~'");
			else if (g->choice && g->nright != 1)
				qb_diag_error(l, "this choice gap has %zu right choices; mark exactly one "
				                 "with '=' and the wrong ones with '~'", g->nright);
			else if (g->choice && g->nanswers < 2)
				qb_diag_error(l, "this choice gap has one choice; add wrong ones with '~'");
			for (size_t j = 0; j < g->nanswers; j++)
				if (!*g->answers[j]) {
					qb_diag_error(l, "this gap has an empty answer");
					break;
				}
		}
	}
	qb_arena_dispose(&a);
}

/* What each type needs, and the keys that only some types take. */
static void check_type(ctx *c, const qb_question *q, const char *name, bool untagged)
{
	const char *tn = qb_qtype_name(q->type);
	size_t ncorrect = qb_question_ncorrect(q);
	if (qb_question_rare(q)->scoring_loc.line && !qb_qtype_partial(q->type))
		qb_diag_error(qb_question_rare(q)->scoring_loc, "'scoring:' is for multiple, matching and cloze "
		                              "questions; a question of type '%s' is right or wrong", tn);
	if (qb_question_rare(q)->shuffle_loc.line && !qb_qtype_shuffles(q->type))
		qb_diag_error(qb_question_rare(q)->shuffle_loc, "'shuffle:' is for single, multiple and matching "
		                              "questions; a question of type '%s' has no options to shuffle", tn);
	if (qb_question_rare(q)->case_loc.line && q->type != QB_QTYPE_SHORT && q->type != QB_QTYPE_CLOZE)
		qb_diag_error(qb_question_rare(q)->case_loc,
		              "'case-sensitive:' is for short-answer and cloze questions");
	if (qb_question_rare(q)->unit_loc.line && q->type != QB_QTYPE_NUMERIC)
		qb_diag_error(qb_question_rare(q)->unit_loc, "'unit:' is for numeric questions");
	if (q->type != QB_QTYPE_TRUE_FALSE) {
		if (qb_question_feedback(q, true)->present)
			qb_diag_error(qb_text_loc(qb_question_feedback(q, true)), "'feedback-true:' is for true-false questions; "
			                                    "give an option its feedback with '>'");
		if (qb_question_feedback(q, false)->present)
			qb_diag_error(qb_text_loc(qb_question_feedback(q, false)), "'feedback-false:' is for true-false "
			                                     "questions; give an option its feedback "
			                                     "with '>'");
	}
	if ((q->type == QB_QTYPE_NUMERIC || q->type == QB_QTYPE_CLOZE) && q->nchoices)
		qb_diag_error(qb_choice_loc(&q->choices[0]), "a question of type '%s' has no options; %s", tn,
		              q->type == QB_QTYPE_NUMERIC ? _("write its answer as 'answer: 42'")
		                                          : _("write its gaps in the prompt as "
		                                              "'{{answer}}'"));
	switch (q->type) {
	case QB_QTYPE_TRUE_FALSE:
		if (!qb_question_rare(q)->answer_loc.line)
			qb_diag_error(q->loc, "true-false %s has no answer; add 'answer: true' or "
			                      "'answer: false'", name);
		check_block(c, qb_question_feedback(q, true), "feedback-true", name, untagged);
		check_block(c, qb_question_feedback(q, false), "feedback-false", name, untagged);
		break;
	case QB_QTYPE_SHORT:
		if (!ncorrect)
			qb_diag_error(q->nchoices ? qb_choice_loc(&q->choices[0]) : q->loc,
			              "short-answer %s has no accepted answer; write one per line, "
			              "starting with '*'", name);
		break;
	case QB_QTYPE_NUMERIC:
		if (!qb_question_rare(q)->answer_loc.line)
			qb_diag_error(q->loc, "numeric %s has no answer; add e.g. 'answer: 42', "
			                      "'answer: 3.5 \xC2\xB1 0.1' or 'answer: 3..4'", name);
		else if (qb_question_num(q)->range && qb_question_num(q)->lo > qb_question_num(q)->hi)
			qb_diag_error(qb_question_num(q)->loc,
			              "the range of %s starts above its end (%g > %g); write the smaller "
			              "number first",
			              name, qb_question_num(q)->lo, qb_question_num(q)->hi);
		check_num_more(c, q, name, untagged);
		break;
	case QB_QTYPE_CLOZE:
		if (q->prompt.present)
			check_cloze(c, q, name);
		break;
	default:
		break;
	}
}

/* True when s has a quotation mark: straight, curly ('“basics”', as word
 * processors type them) or any other. */
static bool has_quote(const char *s)
{
	static const utf8proc_int32_t other[] = {0x201A, 0x201E, 0x301D, 0x301E, 0x301F,
	                                         0xFF02, 0xFF07};
	size_t n = strlen(s), len;
	for (size_t i = 0; i < n; i += len) {
		utf8proc_int32_t cp = cp_at(s + i, n - i, &len);
		if (cp == '"' || cp == '\'')
			return true;
		if (cp > 0x7F && (utf8proc_category(cp) == UTF8PROC_CATEGORY_PI ||
		                  utf8proc_category(cp) == UTF8PROC_CATEGORY_PF))
			return true;
		for (size_t k = 0; k < QB_NELEM(other); k++)
			if (cp == other[k])
				return true;
	}
	return false;
}

/* ---- media names that give an answer away ---- */

/* s lower-cased (ASCII), every run of other characters than letters and
 * digits one space, with a space at each end: " evaporation en ogg ". */
static void name_words(qb_buf *out, const char *s, size_t n)
{
	qb_buf_putc(out, ' ');
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		bool word = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch >= 0x80;
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a'), word = true;
		if (word)
			qb_buf_putc(out, (char)ch);
		else if (out->len && out->ptr[out->len - 1] != ' ')
			qb_buf_putc(out, ' ');
	}
	if (out->ptr[out->len - 1] != ' ')
		qb_buf_putc(out, ' ');
}

/* The accepted answers of a question, as name_words() makes them: a
 * short answer's '*' lines and a cloze question's typed answers and
 * right choices, in every language. */
typedef struct giveaway {
	ctx *c;
	const qb_question *q;
	const qb_text *t;
	const qb_tr *tr;
	qb_buf answers; /* each as " word word \n" */
} giveaway;

static void add_answer(giveaway *g, const char *s)
{
	size_t letters = 0;
	for (const char *p = s; *p; p++)
		letters += ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z');
	if (letters < 3) /* 'a', '42': in file names for other reasons */
		return;
	name_words(&g->answers, s, strlen(s));
	qb_buf_putc(&g->answers, '\n');
}

/* qb_markup_images callback: warns when the base name of src holds an
 * accepted answer. */
static void check_media_name(void *payload, const char *src, size_t off)
{
	giveaway *g = payload;
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	const char *dot = strrchr(base, '.');
	qb_buf name = QB_BUF_INIT;
	name_words(&name, base, dot ? (size_t)(dot - base) : strlen(base));
	for (const char *a = qb_buf_cstr(&g->answers); *a;) {
		size_t len = strcspn(a, "\n");
		char *ans = qb_xstrndup(a, len);
		if (strstr(qb_buf_cstr(&name), ans)) {
			char *shown = qb_xstrndup(ans + 1, len - 2);
			qb_diag_warning(shift(g->c->bank, g->t, g->tr, off),
			                "the file name '%s' holds '%s', an accepted answer of question "
			                "'%s': Anki shows the name in the card's source; name the file "
			                "neutrally", base, shown, g->q->id ? g->q->id : "");
			free(shown);
			free(ans);
			break;
		}
		free(ans);
		a += len + (a[len] == '\n');
	}
	qb_buf_dispose(&name);
}

/* A picture or sound in the prompt whose file name holds an accepted
 * answer (evaporation-en.ogg, answer 'evaporation') gives it away: Anki
 * keeps the name in the card, in [sound:...] or <img src>. */
static void check_media_names(ctx *c, const qb_question *q)
{
	if (q->type != QB_QTYPE_SHORT && q->type != QB_QTYPE_CLOZE)
		return;
	giveaway g = {c, q, &q->prompt, NULL, QB_BUF_INIT};
	qb_arena a = {0};
	for (size_t i = 0; i < q->nchoices; i++)
		for (size_t k = 0; q->choices[i].correct && k < q->choices[i].text.ntr; k++)
			add_answer(&g, q->choices[i].text.tr[k].text);
	for (size_t k = 0; q->type == QB_QTYPE_CLOZE && k < q->prompt.ntr; k++) {
		qb_cloze_part *p;
		size_t np;
		if (qb_cloze_split(&a, q->prompt.tr[k].text, &p, &np) < 0)
			continue;
		for (size_t j = 0; j < np; j++)
			for (size_t x = 0; p[j].gap && x < p[j].gap->nanswers; x++)
				if (!p[j].gap->choice || x == p[j].gap->right)
					add_answer(&g, p[j].gap->answers[x]);
	}
	for (size_t k = 0; g.answers.len && k < q->prompt.ntr; k++) {
		g.tr = &q->prompt.tr[k];
		qb_markup_images(g.tr->text, check_media_name, &g);
	}
	qb_arena_dispose(&a);
	qb_buf_dispose(&g.answers);
}

/* Marks after the bullets (issue 36): only on single and multiple
 * questions; '*' earns, '-' earns nothing or takes away (a single
 * question's partly right '- 50%' aside); a multiple question's right
 * options share the whole mark, and its marks need partial scoring. */
static void check_marks(const qb_bank *b, const qb_question *q, const char *name)
{
	bool any = false;
	for (size_t i = 0; i < q->nchoices; i++)
		any = any || q->choices[i].mark.den;
	if (!any)
		return;
	if (q->type != QB_QTYPE_SINGLE && q->type != QB_QTYPE_MULTIPLE) {
		for (size_t i = 0; i < q->nchoices; i++)
			if (q->choices[i].mark.den) {
				qb_diag_error(qb_choice_loc(&q->choices[i]), "%s is of type '%s': marks "
				              "such as '-25%%' are for single and multiple questions",
				              name, qb_qtype_name(q->type));
				return;
			}
	}
	bool multiple = q->type == QB_QTYPE_MULTIPLE;
	long num = 0, den = 1, nfree = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		if (ch->correct && !ch->mark.den)
			nfree++;
		if (!ch->mark.den)
			continue;
		char m[32];
		qb_mark_text(ch->mark, m, sizeof m);
		if (ch->correct && ch->mark.num <= 0)
			qb_diag_error(qb_choice_loc(ch), "a right option ('*') cannot have the mark %s: "
			              "a mark that takes away goes on a wrong option ('- %s en: ...')",
			              m, m);
		else if (multiple && !ch->correct && ch->mark.num > 0)
			qb_diag_error(qb_choice_loc(ch), "a wrong option ('-') of multiple-choice %s "
			              "cannot earn %s; mark it '*' to make it one of the right options",
			              name, m);
		else if (ch->correct) {
			num = num * ch->mark.den + (long)ch->mark.num * den;
			den *= ch->mark.den;
		}
	}
	if (!multiple)
		return;
	/* the right options' shares: the whole mark, once */
	if (num > den || (num < den && !nfree) || (num == den && nfree)) {
		qb_mark sum = {0, 0};
		char m[32];
		if (qb_mark_parse("0%", 2, &sum) == QB_MARK_OK) {
			long g = num, h = den;
			while (h) {
				long t = g % h;
				g = h;
				h = t;
			}
			g = g ? g : 1;
			if (num / g <= INT16_MAX && den / g <= UINT16_MAX)
				sum = (qb_mark){(int16_t)(num / g), (uint16_t)(den / g)};
		}
		qb_diag_error(q->loc, "the marks of the right options of %s add up to %s; together "
		              "they make the whole mark, 100%%", name,
		              sum.den ? qb_mark_text(sum, m, sizeof m) : "?");
	}
	if (qb_question_scoring(b, q) != QB_SCORING_PARTIAL) {
		qb_loc at = qb_question_rare(q)->scoring_loc;
		qb_diag_error(at.line ? at : q->loc, "%s has marks but is scored all-or-nothing; "
		              "marks are partial credit: write 'scoring: partial'", name);
	}
}

static void check_question(ctx *c, const qb_question *q);

/* A parameterised question is checked as its first draw shows it, every
 * '{h}' a number (params.c has checked the variables and every draw). */
static void check_drawn(ctx *c, const qb_question *q)
{
	if (!qb_question_ndraws(q)) {
		check_question(c, q);
		return;
	}
	qb_arena a = QB_ARENA_INIT;
	check_question(c, qb_params_instance(&a, q, 0, NULL, NULL));
	qb_arena_dispose(&a);
}

static void check_question(ctx *c, const qb_question *q)
{
	const qb_bank *b = c->bank;
	qb_buf nb = QB_BUF_INIT;
	qname(&nb, q);
	const char *name = qb_buf_cstr(&nb);
	size_t ncorrect = qb_question_ncorrect(q);
	bool untagged = question_has(q, false);

	/* A question that lacks several parts (a printed quiz pasted in)
	 * gets one line listing them, not a cascade. */
	const char *lacks[4];
	size_t nl = 0;
	if (!q->id)
		lacks[nl++] = _("an id");
	if (!ncorrect && q->nchoices && qb_qtype_has_options(q->type) &&
	    q->type != QB_QTYPE_TRUE_FALSE)
		lacks[nl++] = _("a correct-option mark ('*')");
	if (!q->explanation.present && !b->explanations_optional)
		lacks[nl++] = _("an explanation");
	if (untagged)
		lacks[nl++] = question_has(q, true)
		                  ? _("language tags on some lines ('en:', 'sw:', ...)")
		                  : _("a second language (no line has a language tag such as 'en:')");
	bool folded = nl >= 2;
	if (folded) {
		qb_buf m = QB_BUF_INIT;
		for (size_t i = 0; i < nl; i++)
			/* TRANSLATORS: joins the last two parts a question lacks. */
			qb_buf_appendf(&m, "%s%s", i == 0 ? "" : i + 1 == nl ? _(" and ") : ", ", lacks[i]);
		qb_diag_error(q->loc, "%s lacks %s", name, qb_buf_cstr(&m));
		qb_buf_dispose(&m);
	} else {
		if (!q->id)
			qb_diag_error(q->loc, "%s has no id; write one after the number, e.g. '%d. "
			                      "my-question'", name, q->number);
		if (!q->explanation.present && !b->explanations_optional)
			qb_diag_error(q->loc, "%s has no explanation; add 'explanation:' with one line "
			                      "per language", name);
	}
	if (!q->explanation.present && b->explanations_optional)
		qb_diag_warning(q->loc, "%s has no explanation yet (to do: the bank says "
		                        "'explanations: optional')", name);

	/* The prompt. */
	if (!q->prompt.present)
		qb_diag_error(q->loc, "%s has no prompt; add one line per language below its number "
		                      "line", name);
	else {
		qb_buf what = QB_BUF_INIT;
		qb_buf_appendf(&what, _("the prompt of %s"), name);
		check_text(c, &q->prompt, qb_buf_cstr(&what), !untagged, folded);
		qb_buf_dispose(&what);
	}

	if (q->type != QB_QTYPE_TRUE_FALSE)
		check_choices(c, q, name, folded);
	check_type(c, q, name, folded);
	check_marks(b, q, name);
	check_media_names(c, q);
	check_block(c, qb_question_feedback_wrong(q), "feedback-wrong", name, folded);

	/* The answer key. */
	if (q->nchoices && !(folded && !ncorrect)) {
		if (q->type == QB_QTYPE_SINGLE && ncorrect != 1) {
			if (!ncorrect)
				qb_diag_error(q->loc, "%s has no correct option; mark it with '*' instead "
				                      "of '-'", name);
			else {
				qb_loc second = q->loc;
				size_t seen = 0;
				for (size_t i = 0; i < q->nchoices && seen < 2; i++)
					if (q->choices[i].correct && ++seen == 2)
						second = qb_choice_loc(&q->choices[i]);
				qb_diag_error(second, "single-choice %s has %zu correct options; mark "
				                           "exactly one with '*', or add 'type: multiple'",
				              name, ncorrect);
			}
		} else if (q->type == QB_QTYPE_MULTIPLE && !ncorrect)
			qb_diag_error(q->loc, "%s has no correct option; mark one or more with '*'", name);
	}

	/* The explanation. */
	if (q->explanation.present) {
		qb_buf what = QB_BUF_INIT;
		qb_buf_appendf(&what, _("the explanation of %s"), name);
		check_text(c, &q->explanation, qb_buf_cstr(&what), !untagged, folded);
		qb_buf_dispose(&what);
	}

	/* Tags: Anki splits tags at spaces; quotes break its search syntax. */
	for (size_t i = 0; i < q->ntags; i++)
		if (has_quote(q->tags[i].name))
			qb_diag_error(q->tags[i].loc, "tag '%s' may not contain quotes", q->tags[i].name);
	qb_buf_dispose(&nb);
}

/* Drawing: enough questions for every attempt. */
static void check_draw(const qb_bank *b)
{
	if (!b->draw_loc.line || !b->draw)
		return;
	if (!b->draw_per_tag) {
		if ((size_t)b->draw > b->nquestions)
			qb_diag_error(b->draw_loc, "'draw: %d' asks for more questions than the bank has "
			                           "(%zu)", b->draw, b->nquestions);
		return;
	}
	for (size_t i = 0; i < b->nquestions; i++) {
		const qb_question *q = &b->questions[i];
		if (!q->ntags) {
			qb_diag_error(q->loc, "question '%s' has no tag, but 'draw: %d per tag' (line %d) "
			                      "draws by the first tag of each question",
			              q->id ? q->id : "", b->draw, b->draw_loc.line);
			continue;
		}
		size_t n = 0;
		bool first = true;
		for (size_t j = 0; j < b->nquestions; j++) {
			const qb_question *o = &b->questions[j];
			if (!o->ntags || strcmp(o->tags[0].name, q->tags[0].name) != 0)
				continue;
			n++;
			if (j < i)
				first = false;
		}
		if (first && n < (size_t)b->draw)
			qb_diag_error(q->tags[0].loc,
			              ngettext("tag '%s' has %zu question, fewer than 'draw: %d per tag' "
			                       "(line %d) draws",
			                       "tag '%s' has %zu questions, fewer than 'draw: %d per tag' "
			                       "(line %d) draws", n),
			              q->tags[0].name, n, b->draw, b->draw_loc.line);
	}
}

size_t qb_validate_unexplained(const qb_bank *bank)
{
	size_t n = 0;
	for (size_t i = 0; bank->explanations_optional && i < bank->nquestions; i++)
		n += !bank->questions[i].explanation.present;
	return n;
}

void qb_validate(const qb_bank *bank)
{
	qb_validate_unfinished(bank, NULL);
}

void qb_validate_unfinished(const qb_bank *bank, const char *lang)
{
	ctx c = {0};
	c.bank = bank;
	c.unfinished = lang;
	c.missing = qb_xcalloc(bank->nlangs + 1, sizeof *c.missing);
	char real[PATH_MAX];
	if (realpath(bank->dir, real))
		c.realdir = qb_xstrdup(real);
	check_header(&c);
	if (!bank->nquestions && (bank->id || bank->title.present))
		qb_diag_error(QB_LOC(bank->path, 1, 1), "the bank has no questions; a question "
		                                          "starts with a line such as '1. my-question'");
	check_ids(&c);
	check_passages(&c);
	for (size_t i = 0; i < bank->nquestions; i++)
		check_drawn(&c, &bank->questions[i]);
	check_draw(bank);
	size_t todo = qb_validate_unexplained(bank);
	if (todo)
		qb_diag_note(bank->explanations_loc,
		             ngettext("%zu of the bank's %zu questions has no explanation yet: the "
		                      "warnings above list it; remove 'explanations: optional' once "
		                      "every question has one",
		                      "%zu of the bank's %zu questions have no explanation yet: the "
		                      "warnings above list them; remove 'explanations: optional' once "
		                      "every question has one", todo),
		             todo, bank->nquestions);
	/* What is left of a language in the making (missing from more than
	 * one text), per language, whatever the error limit shows of the
	 * list. */
	for (size_t k = 0; k < bank->nlangs; k++)
		if (c.missing[k] > 1) {
			char *d = describe_lang(bank->langs[k].code);
			qb_diag_note(QB_LOC(bank->path, 0, 0), "%s is missing from %zu of the bank's texts; 'qbc "
			             "translate export --lang %s %s' writes them for a translator",
			             d, c.missing[k], bank->langs[k].code, bank->path);
			free(d);
		}
	free(c.missing);
	free(c.realdir);
}
