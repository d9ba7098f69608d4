/* read_text.c - the primary reader: the printed-quiz text format
 * (documented for authors in input/README.md).
 *
 * The file is read a block of whole lines at a time (the line source
 * below), each block checked for UTF-8 and split into lines (\n, \r\n or
 * \r); the reader lets go of the lines behind it, so a bank is never held
 * whole.  Each line is classified on its own by
 * qb_line_classify() (md4c's md_analyze_line).  A small state machine then
 * builds the model from the classified lines.  Syntax problems are
 * reported with their file:line:col and reading goes on, so one run shows
 * every problem; semantic rules (missing translations, answer keys, ...)
 * are left to validate.c. */
#include "read.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "i18n.h"
#include "lang.h"
#include "params.h"
#include "utf8.h"

const char *const qb_text_keywords[] = {
	"bank", "languages", "default-language", "pass-mark", "title", "description",
	"scoring", "shuffle-options", "shuffle-questions", "draw", "explanations",
	"type", "tags", "explanation", "shuffle", "case-sensitive", "answer", "unit",
	"feedback-true", "feedback-false", "feedback-wrong", "passage", "vars", "where", "draws",
	NULL,
};

/* ---------------------------------------------------------------------
 * Line classification
 * ------------------------------------------------------------------- */

static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* Length of a "word:" keyword or language tag at s, followed by ':' and
 * then a space, a tab or the end of the line; 0 if there is none. */
static size_t key_at(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_'))
		i++;
	if (i == 0 || i >= len || s[i] != ':')
		return 0;
	if (i + 1 < len && !is_space(s[i + 1]))
		return 0;
	return i;
}

static bool is_keyword(const char *s, size_t n)
{
	/* Every "en:" line asks: the first letter rules most words out. */
	for (const char *const *k = qb_text_keywords; *k; k++)
		if ((*k)[0] == s[0] && strncmp(*k, s, n) == 0 && (*k)[n] == '\0')
			return true;
	return false;
}

static bool is_keyword_nocase(const char *s, size_t n)
{
	for (const char *const *k = qb_text_keywords; *k; k++)
		if (strlen(*k) == n && strncasecmp(*k, s, n) == 0)
			return true;
	return false;
}

static size_t skip_space(const char *s, size_t len, size_t i)
{
	while (i < len && is_space(s[i]))
		i++;
	return i;
}

/* Bytes of a character at s that looks like an option mark but is not
 * one: a dash other than '-' (en dash, em dash, minus sign, ...), a star
 * other than '*', or a bullet other than '•'; 0 if there is none.
 * *star tells a star (a correct option) from the others. */
static size_t lookalike_mark(const char *s, size_t n, int *star)
{
	static const utf8proc_int32_t stars[] = {0x2217, 0x2731, 0x273B, 0xFE61, 0xFF0A};
	static const utf8proc_int32_t bullets[] = {0x00B7, 0x2023, 0x2043, 0x2212, 0x2219,
	                                           0x25A0, 0x25AA, 0x25CB, 0x25CF, 0x25E6,
	                                           0x27A2, 0xFF0D};
	utf8proc_int32_t cp;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
	if (k < 2)
		return 0; /* ASCII marks are the real ones */
	*star = 0;
	for (size_t i = 0; i < QB_NELEM(stars); i++)
		if (cp == stars[i])
			*star = 1;
	bool bullet = false;
	for (size_t i = 0; i < QB_NELEM(bullets); i++)
		if (cp == bullets[i])
			bullet = true;
	return *star || bullet || utf8proc_category(cp) == UTF8PROC_CATEGORY_PD ? (size_t)k : 0;
}

/* A mark after an option's bullet ('- -25% en: ...', '* 50% en: ...'):
 * only when the end of the line or a language tag follows it, so that an
 * untagged text that starts with a percent stays a text. */
static void option_mark(const char *s, size_t len, qb_line *out)
{
	size_t at = out->rest, m = qb_mark_len(s + at, len - at);
	if (!m)
		return;
	size_t after = skip_space(s, len, at + m);
	size_t k = after < len ? key_at(s + after, len - after) : 0;
	if (after < len && !(k && qb_lang_valid(s + after, k)))
		return;
	out->mark = at;
	out->marklen = m;
	out->rest = after;
}

void qb_line_classify(const char *s, size_t len, qb_line *out)
{
	memset(out, 0, sizeof *out);
	size_t i = skip_space(s, len, 0);
	out->indent = i;
	out->rest = i;
	if (i == len) {
		out->kind = QB_LINE_BLANK;
		return;
	}
	const char *p = s + i;
	size_t n = len - i;
	if (p[0] == '#') {
		out->kind = QB_LINE_COMMENT;
		return;
	}
	/* "12." or "12)" then a space or the end: a question. */
	size_t d = 0;
	while (d < n && d < 9 && isdigit((unsigned char)p[d]))
		d++;
	if (d > 0 && d < n && (p[d] == '.' || p[d] == ')') && (d + 1 == n || is_space(p[d + 1]))) {
		out->kind = QB_LINE_QUESTION;
		out->number = strtol(p, NULL, 10);
		out->rest = skip_space(s, len, i + d + 1);
		return;
	}
	/* Bullets: '-', '*' (correct) or U+2022 '•', then a space or the end. */
	size_t bl = 0;
	if (p[0] == '-' || p[0] == '*')
		bl = 1;
	else if (n >= 3 && memcmp(p, "\xE2\x80\xA2", 3) == 0)
		bl = 3;
	/* '-!' and '*!': a pinned option. */
	bool pin = bl == 1 && n >= 2 && p[1] == '!';
	if (bl && (bl + pin == n || is_space(p[bl + pin]))) {
		out->kind = QB_LINE_OPTION;
		out->correct = p[0] == '*';
		out->pinned = pin;
		out->rest = skip_space(s, len, i + bl + pin);
		option_mark(s, len, out);
		return;
	}
	/* A dash, star or bullet that a word processor put in place of
	 * '-' or '*': an option all the same, so that the reader reports
	 * the mark once instead of the cascade an untagged line gives. */
	int star;
	bl = lookalike_mark(p, n, &star);
	if (bl && bl < n && is_space(p[bl])) {
		out->kind = QB_LINE_OPTION;
		out->correct = star;
		out->badmark = bl;
		out->rest = skip_space(s, len, i + bl);
		return;
	}
	if (p[0] == '>' && (n == 1 || is_space(p[1]))) {
		out->kind = QB_LINE_FEEDBACK;
		out->rest = skip_space(s, len, i + 1);
		return;
	}
	size_t k = key_at(p, n);
	if (k) {
		out->word = i;
		out->wordlen = k;
		out->rest = skip_space(s, len, i + k + 1);
		if (is_keyword(p, k))
			out->kind = QB_LINE_KEY;
		else if (qb_lang_valid(p, k))
			out->kind = QB_LINE_TR;
		else if (islower((unsigned char)p[0]) || is_keyword_nocase(p, k))
			out->kind = QB_LINE_BADKEY; /* 'Explanation:' too, as editors capitalise */
		else
			out->kind = QB_LINE_TEXT;
		return;
	}
	out->kind = QB_LINE_TEXT;
}

/* ---------------------------------------------------------------------
 * Reader state
 * ------------------------------------------------------------------- */

/* Growable arrays are built in heap buffers and moved into the arena
 * when an element is complete, so the model holds only arena memory. */
typedef struct vec {
	void *v;
	size_t n, cap, size;
} vec;

static void *vec_push(vec *a)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = qb_xrealloc(a->v, a->cap * a->size);
	}
	void *p = (char *)a->v + a->n++ * a->size;
	memset(p, 0, a->size);
	return p;
}

/* From this size a vector is handed to the arena as it is (shrunk to
 * fit) instead of copied: no second copy of the questions at the end. */
#define VEC_ADOPT_MIN ((size_t)256 << 10)

static void *vec_move(vec *a, qb_arena *arena)
{
	void *p = NULL;
	if (a->n * a->size >= VEC_ADOPT_MIN) {
		p = qb_arena_adopt(arena, qb_xrealloc(a->v, a->n * a->size));
		a->v = NULL;
		a->n = a->cap = 0;
		return p;
	}
	if (a->n) {
		p = qb_arena_alloc(arena, a->n * a->size);
		memcpy(p, a->v, a->n * a->size);
	}
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
	return p;
}

/* A text element being filled: its translations until it is closed. */
typedef struct pending_text {
	qb_text *dst;
	vec trs;      /* qb_tr                                          */
	bool ordered; /* their declared indexes strictly increase       */
} pending_text;

/* Where the encoding check of a file is, from one block of whole lines to
 * the next. */
typedef struct enc_state {
	int line;     /* the line the block starts at                     */
	int reported; /* errors so far (the first 20 are shown)            */
} enc_state;

/* The source's lines, read a block at a time (or given whole).  A block
 * holds whole lines and stays where it is until every line in it is
 * released, so a line's pointer holds until then: the reader looks ahead
 * as far as a text goes on, and lets go of the lines behind it.  So a
 * bank of any size is read in little more memory than its model. */
typedef struct lblock {
	struct lblock *next;
	char *data;          /* its bytes (heap), or the caller's text         */
	size_t cap;          /* data's allocated size, when owned; 0: unknown  */
	bool owned;
	size_t end;          /* the number of lines up to its last one         */
} lblock;

typedef struct linesrc {
	const char *file;    /* for diagnostics                                */
	FILE *f;             /* NULL: the whole text is `text`                 */
	const char *text;    /* the text given whole (until taken)             */
	size_t textlen;
	size_t block;        /* bytes read at a time                           */
	char *carry;         /* bytes read past the last line end              */
	size_t ncarry;
	bool started;        /* the first block was made (byte-order mark)     */
	bool eof;            /* nothing more to make blocks of                 */
	bool ioerr;          /* reading failed (reported)                      */
	enc_state enc;
	lblock *head, *tail; /* the blocks, oldest first                       */
	char *spare;         /* a released block's buffer, for the next one    */
	size_t spare_cap;
	const char **line;   /* lines [first, first + n)                       */
	size_t *len;
	size_t first, n, cap;
} linesrc;

static bool ls_get(linesrc *ls, size_t i, const char **line, size_t *len);

typedef struct reader {
	qb_bank *bank;
	const char *file;
	/* the current line */
	const char *line;
	size_t len;
	int lineno;

	bool in_questions;   /* a question line was seen                      */
	bool header_seen;    /* a header keyword was seen                     */
	vec stray;           /* qb_loc of header lines held back (see below)   */

	vec langs;           /* qb_lang                                       */
	vec questions;       /* qb_question                                   */
	qb_question *q;      /* the question being read (in questions.v)      */
	vec choices;         /* qb_choice of q                                */
	vec tags;            /* qb_tag of q                                   */
	pending_text text;   /* the text receiving language lines             */
	const char *jtext;   /* the line's text joined with its continuation  */
	size_t jlen;         /* lines ('\\' at the end), or NULL               */
	vec jcols;           /* int: where each continuation line's text starts */
	const char *kw;      /* the keyword of a QB_LINE_KEY line, as meant    */
	char *answer;        /* the value of q's 'answer:' (heap), or NULL     */
	qb_loc answer_vloc;  /* where that value starts                       */
	int target;          /* what text is open, see enum below             */
	qb_text *num_fb;     /* the feedback a '>' line gives: that of the
	                        further numeric answer just read, else NULL */
	qb_text scratch;     /* swallows the language lines of a rejected line */
	qb_loc target_loc;
	vec passages;        /* qb_passage                                    */
	vec passage_refs;    /* passage_ref: the questions' 'passage:' keys   */
	qb_params *params;   /* the question's parameters whose block is open */
	int block;           /* what its lines are: BLOCK_VARS, BLOCK_TABLE    */
} reader;

/* The blocks of lines under 'vars:' and 'draws:' (a table). */
enum { BLOCK_NONE, BLOCK_VARS, BLOCK_TABLE };

/* A question's 'passage:' key, resolved when the whole file is read (a
 * passage may come after the questions that name it). */
typedef struct passage_ref {
	size_t question;     /* its index in reader.questions                 */
	char *id;            /* heap                                          */
	qb_loc loc;
} passage_ref;

enum {
	T_NONE,
	T_TITLE,
	T_DESCRIPTION,
	T_PROMPT,
	T_CHOICE,
	T_FEEDBACK,
	T_EXPLANATION,
	T_QFEEDBACK,
	T_PASSAGE
};

static qb_loc loc_at(const reader *r, size_t off)
{
	/* Columns count characters. */
	size_t n = off < r->len ? off : r->len;
	return (qb_loc){r->file, r->lineno, 1 + (int)qb_utf8_count(r->line, n)};
}

/* NFC-normalised, trimmed copy of s[0..n) in the bank's arena. */
static const char *text_dup(reader *r, const char *s, size_t n)
{
	while (n && is_space(s[n - 1]))
		n--;
	if (qb_utf8_is_nfc(s, n))
		return qb_arena_strndup(&r->bank->arena, s, n);
	utf8proc_uint8_t *nfc = NULL;
	utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &nfc,
	                                  UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	if (m < 0) /* cannot happen: the file was validated */
		return qb_arena_strndup(&r->bank->arena, s, n);
	const char *out = qb_arena_strndup(&r->bank->arena, (const char *)nfc, (size_t)m);
	free(nfc);
	return out;
}

/* ---------------------------------------------------------------------
 * Texts
 * ------------------------------------------------------------------- */

static const char *target_name(int t)
{
	switch (t) {
	/* TRANSLATORS: in "second 'sw' text for this prompt". */
	case T_TITLE: return _("title");
	case T_DESCRIPTION: return _("description");
	case T_PROMPT: return _("prompt");
	case T_CHOICE: return _("option");
	case T_FEEDBACK: return _("feedback");
	case T_EXPLANATION: return _("explanation");
	case T_QFEEDBACK: return _("feedback");
	case T_PASSAGE: return _("passage");
	default: return _("text");
	}
}

/* Closes the open text: its translations move into the arena. */
static void close_text(reader *r)
{
	if (r->text.dst) {
		r->text.dst->ntr = (uint32_t)r->text.trs.n;
		r->text.dst->tr = vec_move(&r->text.trs, &r->bank->arena);
		qb_text_index(r->text.dst);
	}
	r->text.dst = NULL;
	r->target = T_NONE;
}

static void open_text(reader *r, qb_text *dst, int target, qb_loc loc)
{
	close_text(r);
	r->text.dst = dst;
	r->text.trs.size = sizeof(qb_tr);
	r->text.ordered = true;
	dst->present = true;
	dst->bank = r->bank;
	qb_text_set_loc(dst, loc);
	r->target = target;
	r->target_loc = loc;
}

/* True when s[0..n) is one of the bank's languages (any language when
 * none is declared yet). */
static bool declared(const reader *r, const char *s, size_t n)
{
	if (!qb_lang_valid(s, n))
		return false;
	if (!r->langs.n)
		return true;
	qb_buf c = QB_BUF_INIT;
	qb_lang_canonical(&c, s, n);
	bool found = qb_lang_index_get(&r->bank->lang_index, qb_buf_cstr(&c)) != QB_LANG_NONE;
	qb_buf_dispose(&c);
	return found;
}

/* A language line written wrongly, s[0..n) starting at the tag: 'sw:text'
 * (no space), 'en:' and a no-break space, 'fr : text'.  Reports it at
 * *loc (unless loc is NULL) and returns true, with the tag's length in
 * *taglen and the text's offset in *textoff, so that the caller can keep
 * the text in its language. */
static bool bad_tag(const reader *r, const qb_loc *loc, const char *s, size_t n,
                    size_t *taglen, size_t *textoff)
{
	size_t i = 0;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-'))
		i++;
	size_t colon = skip_space(s, n, i);
	if (!i || colon >= n || s[colon] != ':' || !declared(r, s, i))
		return false;
	size_t t = colon + 1;
	utf8proc_int32_t cp = 0;
	utf8proc_ssize_t k = 0;
	if (t < n)
		k = utf8proc_iterate((const utf8proc_uint8_t *)s + t, (utf8proc_ssize_t)(n - t), &cp);
	bool odd_space = k > 1 && utf8proc_category(cp) == UTF8PROC_CATEGORY_ZS;
	int bad = colon > i ? 1 : odd_space ? 2 : t < n && !is_space(s[t]) ? 3 : 0;
	if (!bad)
		return false;
	if (loc && bad == 1)
		qb_diag_error(*loc, "space before the ':' of '%.*s'; write the ':' right after the "
		                    "language, as in '%.*s: text'", (int)i, s, (int)i, s);
	else if (loc && bad == 2)
		qb_diag_error(*loc, "'%.*s:' is followed by %s (U+%04X), not an ordinary space; type "
		                    "a space after the ':'", (int)i, s,
		              cp == 0xA0 ? _("a no-break space") : cp == 0x202F
		                                                       ? _("a narrow no-break space")
		                                                       : _("a special space"),
		              (unsigned)cp);
	else if (loc)
		qb_diag_error(*loc, "no space after '%.*s:'; a language line is written '%.*s: text'",
		              (int)i, s, (int)i, s);
	if (odd_space)
		t += (size_t)k;
	*taglen = i;
	*textoff = skip_space(s, n, t);
	return true;
}

/* What block Markdown the line s[0..n) (without its indentation) starts,
 * or NULL.  Where a line ending in '\\' meets block Markdown (on either
 * side), the '\\' only joins the lines; between two lines of ordinary
 * text it is also a line break.  cont: a continuation line, where '-' or
 * '=' alone underline the line above as a heading. */
static const char *block_markdown(const char *s, size_t n, bool cont)
{
	if (!n)
		return NULL;
	char c = s[0];
	size_t same = 0, other = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			same++;
		else if (!is_space(s[i]))
			other++;
	if (strchr("-*_=", c) && !other && (same >= 3 || (cont && (c == '-' || c == '='))))
		return "a horizontal rule or heading underline";
	if ((c == '-' || c == '*' || c == '+') && (n == 1 || is_space(s[1])))
		return "a list item";
	size_t d = 0;
	while (d < n && d < 10 && isdigit((unsigned char)s[d]))
		d++;
	if (d && d < 10 && d < n && (s[d] == '.' || s[d] == ')') && (d + 1 == n || is_space(s[d + 1])))
		return "a numbered list item";
	if (c == '>')
		return "a quote";
	if (c == '|')
		return "a table";
	if (n >= 3 && (memcmp(s, "```", 3) == 0 || memcmp(s, "~~~", 3) == 0))
		return "a code block";
	size_t h = 0;
	while (h < n && s[h] == '#')
		h++;
	if (c == '#' && h <= 6 && (h == n || is_space(s[h])))
		return "a heading";
	return NULL;
}

/* The fence ('```' or '~~~', 3 or more) that s[0..n) opens, or 0. */
static size_t fence_at(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && (s[k] == '`' || s[k] == '~') && s[k] == s[0])
		k++;
	return k >= 3 ? k : 0;
}

/* Adds a translation to the open text.  lang may be NULL for a text
 * without a language tag (recorded with lang "" for the checks). */
static void add_tr(reader *r, const char *lang, size_t langlen, qb_loc loc, size_t textoff,
                   const char *text, size_t textlen)
{
	qb_buf canon = QB_BUF_INIT;
	if (lang)
		qb_lang_canonical(&canon, lang, langlen);
	const char *code = qb_buf_cstr(&canon);
	/* The open text so far, as close_text() will make it. */
	qb_text sofar = {.tr = r->text.trs.v, .ntr = (uint32_t)r->text.trs.n, .ordered = r->text.ordered,
	                 .bank = r->bank};
	const qb_tr *prev = *code ? qb_text_tr(&sofar, code) : NULL;
	if (prev) {
		qb_diag_error(loc, "second '%s' text for this %s; the first is on line %d", code,
		              target_name(r->target), prev->line);
		qb_buf_dispose(&canon);
		return;
	}
	qb_tr *t = vec_push(&r->text.trs);
	uint32_t c = qb_bank_code(r->bank, code);
	qb_tr_place(r->bank, t, loc.col, loc_at(r, textoff).col, c);
	const uint32_t *decl = r->bank->code_lang;
	r->text.ordered = r->text.ordered &&
	                  (!sofar.ntr || decl[c] > decl[qb_tr_code(r->bank, &t[-1])]);
	t->line = loc.line;
	t->text = text_dup(r, text, textlen);
	if (r->jtext && r->jcols.n) {
		int *cols = qb_arena_alloc(&r->bank->arena, r->jcols.n * sizeof *cols);
		memcpy(cols, r->jcols.v, r->jcols.n * sizeof *cols);
		qb_bank_set_text_cols(r->bank, t->text, cols);
	}
	qb_buf_dispose(&canon);
}

/* Handles what follows a marker on its own line (a bullet, '>', or a
 * keyword such as 'explanation:'): nothing, a language line, or text
 * without a language tag. */
static void marker_rest(reader *r, size_t rest)
{
	const char *text = r->jtext;
	size_t textlen = r->jlen;
	if (rest >= r->len)
		return;
	qb_line sub;
	qb_line_classify(r->line + rest, r->len - rest, &sub);
	size_t tag, toff;
	qb_loc at = loc_at(r, rest);
	if (sub.kind == QB_LINE_TR) {
		toff = rest + sub.rest;
		add_tr(r, r->line + rest + sub.word, sub.wordlen, loc_at(r, rest), toff,
		       text ? text : r->line + toff, text ? textlen : r->len - toff);
	} else if (bad_tag(r, &at, r->line + rest, r->len - rest, &tag, &toff)) {
		add_tr(r, r->line + rest, tag, at, rest + toff,
		       text ? text + toff : r->line + rest + toff,
		       text ? textlen - toff : r->len - rest - toff);
	} else {
		add_tr(r, NULL, 0, loc_at(r, rest), rest, text ? text : r->line + rest,
		       text ? textlen : r->len - rest);
	}
}

/* The mark after an option's bullet (issue 36): its value, or a located
 * error (the option then has none).  What the mark means for the
 * question's type and the option's bullet is validate.c's. */
static void option_mark_read(reader *r, qb_choice *c, const qb_line *ln)
{
	qb_mark m;
	qb_loc at = loc_at(r, ln->mark);
	switch (qb_mark_parse(r->line + ln->mark, ln->marklen, &m)) {
	case QB_MARK_OK:
		c->mark = m;
		return;
	case QB_MARK_RANGE:
		qb_diag_error(at, "the mark '%.*s' is not from -100%% to 100%% of the question's mark",
		              (int)ln->marklen, r->line + ln->mark);
		return;
	default:
		qb_diag_error(at, "the mark '%.*s' is too precise: write a percent with at most two "
		              "decimals ('12.25%%'), or a third as '33.3%%'",
		              (int)ln->marklen, r->line + ln->mark);
		return;
	}
}

/* After a line that was rejected, its language lines are read into a
 * scratch text that is not part of the model, so that one mistake gives
 * one diagnostic and not one per following line. */
static void swallow(reader *r)
{
	memset(&r->scratch, 0, sizeof r->scratch);
	open_text(r, &r->scratch, T_NONE, (qb_loc){r->file, r->lineno, 1});
}

/* ---------------------------------------------------------------------
 * Questions
 * ------------------------------------------------------------------- */

/* Reads a numeric question's 'answer:' (qb_numeric_parse()): '42',
 * '3.5 ± 0.1' (or '+-'), '3.5 ± 2%', '3..4'. */
static void numeric_answer(const char *v, qb_loc vloc, qb_numeric *num)
{
	size_t n = strlen(v), at, len;
	num->loc = vloc;
	qb_loc l = vloc;
	switch (qb_numeric_parse(v, n, num, &at, &len)) {
	case QB_NUMERIC_OK:
		return;
	case QB_NUMERIC_BAD_RANGE:
		qb_diag_error(vloc, "the range '%s' is not two numbers, e.g. 'answer: 3..4'", v);
		break;
	case QB_NUMERIC_BAD_VALUE:
		qb_diag_error(vloc, "'%.*s' is not a number; write it with '.' as the decimal point, "
		                    "e.g. 'answer: 3.5' or 'answer: 3.5 \xC2\xB1 0.1'",
		              (int)len, v);
		break;
	case QB_NUMERIC_BAD_TOL:
		l.col += (int)qb_utf8_count(v, at);
		qb_diag_error(l, "the tolerance '%.*s' is not a number; write e.g. '\xC2\xB1 "
		                 "0.1' or '\xC2\xB1 2%%'", (int)len, v + at);
		break;
	case QB_NUMERIC_TOO_LARGE:
		l.col += (int)qb_utf8_count(v, at);
		qb_numeric_too_large(num, l, v + at, len);
		break;
	}
	num->loc.line = 0;
}

/* q's seldom written parts, to be set. */
static qb_rare *rare_w(reader *r, qb_question *q)
{
	return qb_question_rare_w(&r->bank->arena, q);
}

/* A matching question's options: each language's 'left => right' is
 * split into text (left) and match (right); '=> right' is a distractor. */
static void split_pairs(reader *r, qb_choice *c)
{
	qb_arena *a = &r->bank->arena;
	qb_tr *left = c->text.ntr ? qb_arena_alloc(a, c->text.ntr * sizeof *left) : NULL;
	qb_tr *right = c->text.ntr ? qb_arena_alloc(a, c->text.ntr * sizeof *right) : NULL;
	size_t nl = 0, nr = 0;
	for (size_t i = 0; i < c->text.ntr; i++) {
		const qb_tr *tr = &c->text.tr[i];
		const char *t = tr->text, *arrow = strstr(t, " => ");
		size_t skip = 4;
		if (strncmp(t, "=> ", 3) == 0 || strcmp(t, "=>") == 0) {
			arrow = t;
			skip = t[2] ? 3 : 2;
		}
		if (!arrow) {
			left[nl++] = *tr; /* reported by the checks: no ' => ' */
			continue;
		}
		qb_tr rt = *tr;
		const char *rs = arrow + skip;
		while (*rs == ' ')
			rs++;
		rt.text = rs;
		const int *cols = qb_bank_text_cols(r->bank, t);
		if (cols) /* the right side's lines start where the text's did */
			qb_bank_set_text_cols(r->bank, rs, cols);
		if (!memchr(t, '\n', (size_t)(rs - t)))
			qb_tr_place(r->bank, &rt, qb_tr_col(r->bank, tr),
			            qb_tr_text_col(r->bank, tr) + (int)qb_utf8_count(t, (size_t)(rs - t)),
			            qb_tr_code(r->bank, tr));
		right[nr++] = rt;
		if (arrow != t) {
			qb_tr lt = *tr;
			lt.text = qb_arena_strndup(a, t, (size_t)(arrow - t));
			if (cols)
				qb_bank_set_text_cols(r->bank, lt.text, cols);
			left[nl++] = lt;
		}
	}
	qb_text *match = qb_arena_alloc(a, sizeof *match);
	*match = (qb_text){.tr = right, .ntr = (uint32_t)nr, .bank = r->bank, .line = c->text.line,
	                   .col = c->text.col, .present = nr > 0};
	c->text.tr = left;
	c->text.ntr = (uint32_t)nl;
	c->text.present = nl > 0;
	qb_text_index(match);
	c->match = match;
	qb_text_index(&c->text);
}

/* A numeric question's further answer, 'answer: 2..4 = 50%' (val[eq] the
 * '='): its value and credit, appended to q's list; a '>' feedback line
 * may follow it. */
static void num_more_answer(reader *r, qb_question *q, qb_loc kloc, const char *val,
                            size_t vlen, size_t eq, size_t rest)
{
	qb_num_more *m = qb_arena_alloc(&r->bank->arena, sizeof *m);
	memset(m, 0, sizeof *m);
	m->loc = kloc;
	size_t c = skip_space(val, vlen, eq + 1), e = vlen;
	while (e > c && is_space(val[e - 1]))
		e--;
	qb_numeric cr = {0};
	size_t at, len;
	if (e == c || val[e - 1] != '%' ||
	    qb_numeric_parse(val + c, e - 1 - c, &cr, &at, &len) != QB_NUMERIC_OK || cr.range ||
	    cr.tol != 0 || cr.value < 0 || cr.value > 100)
		qb_diag_error(loc_at(r, rest + c), "the credit of a further answer is a percentage "
		              "from 0%% to 100%%, e.g. 'answer: 2..4 = 50%%'");
	m->credit = cr.value;
	size_t ve = eq;
	while (ve && is_space(val[ve - 1]))
		ve--;
	char *v = qb_xstrndup(val, ve);
	numeric_answer(v, loc_at(r, rest), &m->num);
	free(v);
	qb_rare *rare = rare_w(r, q);
	qb_num_more **tail = &rare->num_more;
	while (*tail)
		tail = &(*tail)->next;
	*tail = m;
	r->num_fb = &m->feedback;
}

/* A single question's marks as an author may type them (issue 36): '*'
 * with a share below 100% ('* 50% en: ...') is a partly right option, as
 * '- 50%' is; '- 100%' or '* 100%' is the right option. */
static void single_marks(qb_choice *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!c[i].mark.den || c[i].mark.num <= 0)
			continue;
		if (c[i].mark.num == c[i].mark.den) {
			c[i].correct = true;
			c[i].mark = (qb_mark){0, 0};
		} else
			c[i].correct = false;
	}
}

/* What a question's type makes of what was read. */
static void finish_type(reader *r, qb_question *q)
{
	if (q->type != QB_QTYPE_NUMERIC && qb_question_num_more(q))
		qb_diag_error(qb_question_num_more(q)->loc, "only a numeric question has further "
		              "answers with a credit ('answer: 2..4 = 50%%')");
	const char *v = r->answer;
	bool ok = false;
	if (v && q->type == QB_QTYPE_TRUE_FALSE) {
		ok = true;
		if (strcmp(v, "true") == 0)
			q->truth = true;
		else if (strcmp(v, "false") == 0)
			q->truth = false;
		else {
			qb_diag_error(r->answer_vloc, "a true-false answer is 'true' or 'false', not "
			                              "'%s'", v);
			ok = false;
		}
	} else if (v && q->type == QB_QTYPE_NUMERIC && qb_question_params(q)) {
		qb_params_set_answer(r->bank, q->rare->params, v, strlen(v), r->answer_vloc);
	} else if (v && q->type == QB_QTYPE_NUMERIC) {
		qb_numeric *num = qb_arena_alloc(&r->bank->arena, sizeof *num);
		*num = (qb_numeric){0};
		numeric_answer(v, r->answer_vloc, num);
		rare_w(r, q)->num = num;
	} else if (v) {
		qb_diag_error(qb_question_rare(q)->answer_loc,
		              "'answer:' is for true-false and numeric questions; "
		              "a question of type '%s' marks its answers with '*'",
		              qb_qtype_name(q->type));
	}
	if (q->type == QB_QTYPE_MATCHING)
		for (size_t i = 0; i < r->choices.n; i++)
			split_pairs(r, (qb_choice *)r->choices.v + i);
	if (q->type == QB_QTYPE_SINGLE)
		single_marks((qb_choice *)r->choices.v, r->choices.n);
	if (q->type == QB_QTYPE_TRUE_FALSE) {
		if (r->choices.n)
			qb_diag_error(qb_choice_loc((qb_choice *)r->choices.v),
			              "a true-false question has no options; write 'answer: true' or "
			              "'answer: false' (and 'feedback-true:', 'feedback-false:')");
		r->choices.n = 0;
		for (int i = 0; i < 2; i++) {
			qb_choice *c = vec_push(&r->choices);
			c->correct = (i == 0) == q->truth && ok;
			c->feedback = *qb_question_feedback(q, i == 0);
			qb_choice_set_loc(c, q->loc);
			c->text.bank = r->bank;
			qb_text_set_loc(&c->text, q->loc);
		}
	}
	free(r->answer);
	r->answer = NULL;
}

static void end_question(reader *r)
{
	close_text(r);
	r->num_fb = NULL;
	if (!r->q)
		return;
	finish_type(r, r->q);
	if (r->q->rare && r->q->rare->params)
		qb_params_end(r->bank, r->q->rare->params);
	r->q->nchoices = r->choices.n;
	r->q->choices = vec_move(&r->choices, &r->bank->arena);
	r->q->ntags = r->tags.n;
	r->q->tags = vec_move(&r->tags, &r->bank->arena);
	r->q = NULL;
}

static qb_choice *last_choice(reader *r)
{
	return r->choices.n ? (qb_choice *)r->choices.v + r->choices.n - 1 : NULL;
}

/* Choices live in a heap vec while the question is read, and their
 * qb_text members are filled through pointers into it, so the vec must
 * not move while a choice text is open: reserve before pushing. */
static qb_choice *push_choice(reader *r)
{
	close_text(r);
	return vec_push(&r->choices);
}

static void begin_question(reader *r, const qb_line *ln)
{
	end_question(r);
	if (!r->in_questions) {
		r->in_questions = true;
		r->stray.n = 0; /* text above the first question: see finish() */
	}
	r->q = vec_push(&r->questions);
	/* questions.v may have moved: nothing else points into it. */
	r->q->number = (int)ln->number;
	r->q->loc = loc_at(r, ln->indent);
	r->q->type = QB_QTYPE_SINGLE;
	r->q->shuffle = QB_UNSET;
	r->choices.size = sizeof(qb_choice);
	r->tags.size = sizeof(qb_tag);
	size_t rest = ln->rest;
	if (rest >= r->len) {
		/* No id (reported by the checks); the prompt may still follow. */
		open_text(r, &r->q->prompt, T_PROMPT, r->q->loc);
		r->q->prompt.present = false;
		return;
	}
	const char *id = r->line + rest;
	size_t idlen = r->len - rest;
	while (idlen && is_space(id[idlen - 1]))
		idlen--;
	bool has_space = false;
	for (size_t i = 0; i < idlen; i++)
		if (is_space(id[i]))
			has_space = true;
	if (has_space) {
		/* "1. What is ...?": the prompt was written where the id goes,
		 * as in a printed quiz.  Keep it as a text without a language
		 * tag so the checks can say what the question lacks. */
		open_text(r, &r->q->prompt, T_PROMPT, r->q->loc);
		add_tr(r, NULL, 0, loc_at(r, rest), rest, id, idlen);
		return;
	}
	r->q->id = qb_arena_strndup(&r->bank->arena, id, idlen);
	r->q->id_loc = loc_at(r, rest);
	open_text(r, &r->q->prompt, T_PROMPT, r->q->loc);
	r->q->prompt.present = false; /* until a language line arrives */
}

/* ---------------------------------------------------------------------
 * Passages
 * ------------------------------------------------------------------- */

/* 'passage: <id>' outside a question's keys: a passage starts, and its
 * language lines follow.  It ends the question above, and the header. */
static void begin_passage(reader *r, const qb_line *ln, const char *val, size_t vlen)
{
	end_question(r);
	if (!r->in_questions) {
		r->in_questions = true;
		r->stray.n = 0;
	}
	r->passages.size = sizeof(qb_passage);
	qb_passage *p = vec_push(&r->passages);
	p->loc = loc_at(r, ln->word);
	if (vlen) {
		p->id = qb_arena_strndup(&r->bank->arena, val, vlen);
		p->id_loc = loc_at(r, ln->rest);
	}
	/* passages.v does not move while its text is open: the next push
	 * comes after close_text(). */
	open_text(r, &p->text, T_PASSAGE, p->loc);
	p->text.present = false; /* until a language line arrives */
}

/* A question's 'passage:' key: which passage it is read with. */
static void passage_key(reader *r, qb_loc kloc, const char *val, size_t vlen, qb_loc vloc)
{
	r->passage_refs.size = sizeof(passage_ref);
	size_t qi = r->questions.n - 1;
	if (r->passage_refs.n) {
		const passage_ref *last = (passage_ref *)r->passage_refs.v + r->passage_refs.n - 1;
		if (last->question == qi) {
			qb_diag_error(kloc, "second 'passage:' line; the first is on line %d",
			              last->loc.line);
			return;
		}
	}
	if (!vlen) {
		qb_diag_error(kloc, "'passage:' needs the passage's id, e.g. 'passage: lighthouse'");
		return;
	}
	passage_ref *ref = vec_push(&r->passage_refs);
	ref->question = qi;
	ref->id = qb_xstrndup(val, vlen);
	ref->loc = vloc;
}

static int cmp_passage_id(const void *a, const void *b)
{
	const qb_passage *x = *(const qb_passage *const *)a, *y = *(const qb_passage *const *)b;
	return strcmp(x->id ? x->id : "", y->id ? y->id : "");
}

/* The same, the earlier first among equal ids. */
static int cmp_passage_at(const void *a, const void *b)
{
	const qb_passage *x = *(const qb_passage *const *)a, *y = *(const qb_passage *const *)b;
	int d = cmp_passage_id(a, b);
	return d ? d : (x > y) - (x < y);
}

/* Sets each question's passage from its 'passage:' key, once every
 * passage is known: a passage the bank lacks is reported there. */
static void resolve_passages(reader *r, qb_bank *bank)
{
	size_t n = bank->npassages;
	const qb_passage **by = qb_xcalloc(n + 1, sizeof *by);
	for (size_t i = 0; i < n; i++)
		by[i] = &bank->passages[i];
	qsort(by, n, sizeof *by, cmp_passage_at);
	for (size_t i = 0; i < r->passage_refs.n; i++) {
		passage_ref *ref = (passage_ref *)r->passage_refs.v + i;
		qb_passage key = {.id = ref->id};
		const qb_passage *kp = &key;
		const qb_passage **hit = n ? bsearch(&kp, by, n, sizeof *by, cmp_passage_id) : NULL;
		while (hit && hit > by && cmp_passage_id(hit - 1, hit) == 0)
			hit--; /* a duplicate id (reported by the checks): the first */
		if (hit)
			bank->questions[ref->question].passage = (uint32_t)(*hit - bank->passages) + 1;
		else
			qb_diag_error(ref->loc, "unknown passage '%s'; a passage starts with a line "
			                        "'passage: %s' followed by its language lines",
			              ref->id, ref->id);
		free(ref->id);
	}
	free(by);
	free(r->passage_refs.v);
}

/* ---------------------------------------------------------------------
 * Keywords
 * ------------------------------------------------------------------- */

static const char *suggest(const char *w, size_t n)
{
	/* The keyword within edit distance 2, if any. */
	const char *best = NULL;
	size_t bestd = 3;
	for (const char *const *k = qb_text_keywords; *k; k++) {
		size_t m = strlen(*k);
		if (n > 40 || m > 40)
			continue;
		size_t d[41][41];
		for (size_t i = 0; i <= n; i++)
			d[i][0] = i;
		for (size_t j = 0; j <= m; j++)
			d[0][j] = j;
		for (size_t i = 1; i <= n; i++)
			for (size_t j = 1; j <= m; j++) {
				size_t c = d[i - 1][j - 1] + (tolower((unsigned char)w[i - 1]) != (*k)[j - 1]);
				if (d[i - 1][j] + 1 < c)
					c = d[i - 1][j] + 1;
				if (d[i][j - 1] + 1 < c)
					c = d[i][j - 1] + 1;
				d[i][j] = c;
			}
		if (d[n][m] < bestd) {
			bestd = d[n][m];
			best = *k;
		}
	}
	return best;
}

/* The next item of a list separated by spaces or commas in val[0..vlen),
 * from *i on: its start in *start, its end in *i.  False at the end. */
static bool next_item(const char *val, size_t vlen, size_t *i, size_t *start)
{
	while (*i < vlen && (is_space(val[*i]) || val[*i] == ','))
		(*i)++;
	*start = *i;
	while (*i < vlen && !is_space(val[*i]) && val[*i] != ',')
		(*i)++;
	return *i > *start;
}

static bool key_is(const reader *r, const qb_line *ln, const char *k)
{
	QB_UNUSED(ln);
	return strcmp(r->kw, k) == 0;
}

/* The value after a keyword, without trailing white space. */
static size_t key_value(const reader *r, const qb_line *ln, const char **val)
{
	*val = r->line + ln->rest;
	size_t vlen = r->len > ln->rest ? r->len - ln->rest : 0;
	while (vlen && is_space((*val)[vlen - 1]))
		vlen--;
	return vlen;
}

/* True the first time a keyword is written for its element (its loc is
 * then recorded in *seen); else reports the second one. */
static bool once(qb_loc kloc, const char *kw, qb_loc *seen)
{
	if (seen->line) {
		qb_diag_error(kloc, "second '%s:' line; the first is on line %d", kw, seen->line);
		return false;
	}
	*seen = kloc;
	return true;
}

/* 1 for 'yes', 0 for 'no', -1 (reported) for anything else. */
static int yes_no(const char *val, size_t vlen, qb_loc vloc, const char *kw)
{
	if (vlen == 3 && strncmp(val, "yes", 3) == 0)
		return 1;
	if (vlen == 2 && strncmp(val, "no", 2) == 0)
		return 0;
	qb_diag_error(vloc, "'%s:' is 'yes' or 'no', not '%.*s'", kw, (int)vlen, val);
	return -1;
}

static qb_scoring scoring_value(const char *val, size_t vlen, qb_loc vloc)
{
	if (vlen == 14 && strncmp(val, "all-or-nothing", 14) == 0)
		return QB_SCORING_ALL;
	if (vlen == 7 && strncmp(val, "partial", 7) == 0)
		return QB_SCORING_PARTIAL;
	qb_diag_error(vloc, "unknown scoring '%.*s'; use 'all-or-nothing' or 'partial'", (int)vlen,
	              val);
	return QB_SCORING_INHERIT;
}

static void header_key(reader *r, const qb_line *ln)
{
	qb_bank *b = r->bank;
	const char *val;
	size_t vlen = key_value(r, ln, &val);
	qb_loc kloc = loc_at(r, ln->word), vloc = loc_at(r, ln->rest);
	close_text(r);
	if (!r->header_seen) {
		r->header_seen = true;
		/* Lines held back above the first keyword are stray after all. */
		for (size_t i = 0; i < r->stray.n; i++)
			qb_diag_error(((qb_loc *)r->stray.v)[i],
			              "text outside a header field; write it under 'title:' or "
			              "'description:', or start the line with '#' to make it a comment");
		r->stray.n = 0;
	}
	if (key_is(r, ln, "bank")) {
		if (b->id)
			qb_diag_error(kloc, "second 'bank:' line; the first is on line %d", b->id_loc.line);
		else if (!vlen)
			qb_diag_error(kloc, "'bank:' needs the bank's id, e.g. 'bank: my-quiz'");
		else {
			b->id = qb_arena_strndup(&b->arena, val, vlen);
			b->id_loc = vloc;
		}
	} else if (key_is(r, ln, "languages")) {
		if (b->langs_loc.line) {
			qb_diag_error(kloc, "second 'languages:' line; the first is on line %d",
			              b->langs_loc.line);
			return;
		}
		b->langs_loc = kloc;
		r->langs.size = sizeof(qb_lang);
		size_t i = 0, s;
		while (next_item(val, vlen, &i, &s)) {
			qb_loc l = loc_at(r, ln->rest + s);
			if (!qb_lang_valid(val + s, i - s)) {
				qb_diag_error(l, "'%.*s' is not a language tag; use a BCP 47 tag such as "
				                 "'en', 'sw' or 'sw-KE'", (int)(i - s), val + s);
				continue;
			}
			qb_buf c = QB_BUF_INIT;
			qb_lang_canonical(&c, val + s, i - s);
			if (qb_lang_index_get(&b->lang_index, qb_buf_cstr(&c)) != QB_LANG_NONE)
				qb_diag_error(l, "language '%s' is listed twice", qb_buf_cstr(&c));
			else {
				qb_lang *lg = vec_push(&r->langs);
				lg->code = qb_arena_strdup(&b->arena, qb_buf_cstr(&c));
				lg->loc = l;
				qb_lang_index_put(&b->lang_index, lg->code, r->langs.n - 1);
			}
			qb_buf_dispose(&c);
		}
		/* Texts tagged before this line now have declared languages. */
		qb_bank_codes_declared(b);
		if (!r->langs.n && i == 0)
			qb_diag_error(kloc, "'languages:' needs at least one language, e.g. "
			                    "'languages: en sw'");
	} else if (key_is(r, ln, "default-language")) {
		if (!qb_lang_valid(val, vlen)) {
			qb_diag_error(vloc, "'%.*s' is not a language tag", (int)vlen, val);
			return;
		}
		qb_buf c = QB_BUF_INIT;
		qb_lang_canonical(&c, val, vlen);
		b->default_lang = qb_arena_strdup(&b->arena, qb_buf_cstr(&c));
		b->default_lang_loc = vloc;
		qb_buf_dispose(&c);
	} else if (key_is(r, ln, "pass-mark")) {
		char *end = NULL;
		char *num = qb_xstrndup(val, vlen);
		errno = 0;
		long v = strtol(num, &end, 10);
		if (end && *end == '%')
			end++;
		if (!vlen || !(isdigit((unsigned char)num[0]) || num[0] == '-') || *end || errno) {
			qb_diag_error(vloc, "the pass mark must be a whole percentage, e.g. "
			                    "'pass-mark: 80%%'");
		} else {
			b->pass_mark = v > 1000 ? 1000 : v < -1000 ? -1000 : (int)v; /* range: validate.c */
			b->pass_mark_loc = vloc;
		}
		free(num);
	} else if (key_is(r, ln, "scoring")) {
		if (once(kloc, "scoring", &b->scoring_loc)) {
			qb_scoring v = scoring_value(val, vlen, vloc);
			b->scoring = v == QB_SCORING_INHERIT ? QB_SCORING_ALL : v;
		}
	} else if (key_is(r, ln, "shuffle-options")) {
		if (once(kloc, "shuffle-options", &b->shuffle_options_loc))
			b->shuffle_options = yes_no(val, vlen, vloc, "shuffle-options") == 1;
	} else if (key_is(r, ln, "shuffle-questions")) {
		if (once(kloc, "shuffle-questions", &b->shuffle_questions_loc))
			b->shuffle_questions = yes_no(val, vlen, vloc, "shuffle-questions") == 1;
	} else if (key_is(r, ln, "draw")) {
		if (!once(kloc, "draw", &b->draw_loc))
			return;
		size_t d = 0;
		while (d < vlen && d < 7 && isdigit((unsigned char)val[d]))
			d++;
		size_t e = skip_space(val, vlen, d);
		bool per_tag = e + 7 == vlen && strncmp(val + e, "per tag", 7) == 0 && e > d;
		long v = d ? strtol(val, NULL, 10) : 0;
		if (!d || (e < vlen && !per_tag) || v < 1)
			qb_diag_error(vloc, "'draw:' is a number of questions, e.g. 'draw: 20' or "
			                    "'draw: 2 per tag'");
		else {
			b->draw = (int)v;
			b->draw_per_tag = per_tag;
		}
	} else if (key_is(r, ln, "explanations")) {
		if (!once(kloc, "explanations", &b->explanations_loc))
			return;
		if (vlen == 8 && strncmp(val, "optional", 8) == 0)
			b->explanations_optional = true;
		else if (!(vlen == 8 && strncmp(val, "required", 8) == 0))
			qb_diag_error(vloc, "'explanations:' is 'optional' (a question without one is a "
			                    "warning) or 'required', not '%.*s'", (int)vlen, val);
	} else if (key_is(r, ln, "title") || key_is(r, ln, "description")) {
		bool title = key_is(r, ln, "title");
		qb_text *t = title ? &b->title : &b->description;
		if (t->present) {
			qb_diag_error(kloc, "second '%s:' block; the first is on line %d",
			              title ? "title" : "description", t->line);
			return;
		}
		open_text(r, t, title ? T_TITLE : T_DESCRIPTION, kloc);
		marker_rest(r, ln->rest);
	} else if (key_is(r, ln, "passage")) {
		begin_passage(r, ln, val, vlen);
	} else {
		qb_diag_error(kloc, "'%s:' belongs inside a question, below its number line", r->kw);
	}
}

/* 'vars:', 'where:' and 'draws:' (params.h): the first and a 'draws:'
 * without a number open a block of lines. */
static void params_key(reader *r, qb_question *q, const qb_line *ln, qb_loc kloc,
                       const char *val, size_t vlen, qb_loc vloc)
{
	qb_params *p = qb_params_new(r->bank, q, kloc);
	if (key_is(r, ln, "vars")) {
		if (p->nnamed) {
			qb_diag_error(kloc, "second 'vars:' block; the first is on line %d", p->loc.line);
			return;
		}
		p->loc = kloc;
		r->params = p;
		r->block = BLOCK_VARS;
		if (vlen)
			qb_params_add_var(r->bank, p, val, vlen, vloc);
	} else if (key_is(r, ln, "where")) {
		if (p->where) {
			qb_diag_error(kloc, "second 'where:' line; the first is on line %d",
			              p->where_loc.line);
			return;
		}
		if (!vlen)
			qb_diag_error(kloc, "'where:' needs conditions, e.g. 'where: a != b'");
		else
			qb_params_set_where(r->bank, p, val, vlen, vloc);
	} else {
		if (p->draws_loc.line) {
			qb_diag_error(kloc, "second 'draws:' line; the first is on line %d",
			              p->draws_loc.line);
			return;
		}
		if (!vlen) { /* a table follows */
			p->draws_loc = kloc;
			r->params = p;
			r->block = BLOCK_TABLE;
			return;
		}
		char *end;
		char tmp[16];
		snprintf(tmp, sizeof tmp, "%.*s", (int)(vlen < 15 ? vlen : 15), val);
		long n = strtol(tmp, &end, 10);
		if (vlen > 6 || *end || n < 1)
			qb_diag_error(vloc, "'draws:' is how many draws the question's pool holds, "
			              "a number from 1 to 1000, e.g. 'draws: 20'");
		else
			qb_params_set_draws(p, (unsigned)n, kloc);
	}
}

static void question_key(reader *r, const qb_line *ln)
{
	qb_question *q = r->q;
	const char *val;
	size_t vlen = key_value(r, ln, &val);
	qb_loc kloc = loc_at(r, ln->word), vloc = loc_at(r, ln->rest);
	r->num_fb = NULL;
	if (key_is(r, ln, "passage")) {
		/* Among a question's keys it names the question's passage;
		 * anywhere else it starts a passage. */
		if (q && !q->prompt.present && !r->choices.n && r->target == T_PROMPT)
			passage_key(r, kloc, val, vlen, vloc);
		else
			begin_passage(r, ln, val, vlen);
		return;
	}
	if (!q) {
		qb_diag_error(kloc, "'%s:' belongs inside a question, below its number line", r->kw);
		swallow(r);
		return;
	}
	if (key_is(r, ln, "type")) {
		if (q->type_loc.line) {
			qb_diag_error(kloc, "second 'type:' line; the first is on line %d",
			              q->type_loc.line);
			return;
		}
		bool found = false;
		for (int t = 0; t < QB_QTYPE_COUNT; t++)
			if (vlen == strlen(qb_qtype_name((qb_qtype)t)) &&
			    strncmp(val, qb_qtype_name((qb_qtype)t), vlen) == 0) {
				q->type = (qb_qtype)t;
				found = true;
			}
		if (!found)
			qb_diag_error(vloc, "unknown question type '%.*s'; use 'single', 'multiple', "
			                    "'true-false', 'short-answer', 'numeric', 'matching' or "
			                    "'cloze'", (int)vlen, val);
		q->type_loc = kloc;
	} else if (key_is(r, ln, "scoring")) {
		if (!once(kloc, "scoring", &rare_w(r, q)->scoring_loc))
			return;
		q->scoring = scoring_value(val, vlen, vloc);
	} else if (key_is(r, ln, "shuffle")) {
		if (!once(kloc, "shuffle", &rare_w(r, q)->shuffle_loc))
			return;
		int v = yes_no(val, vlen, vloc, "shuffle");
		q->shuffle = v < 0 ? QB_UNSET : v ? QB_YES : QB_NO;
	} else if (key_is(r, ln, "case-sensitive")) {
		if (!once(kloc, "case-sensitive", &rare_w(r, q)->case_loc))
			return;
		q->case_sensitive = yes_no(val, vlen, vloc, "case-sensitive") == 1;
	} else if (key_is(r, ln, "answer")) {
		size_t eq = vlen;
		while (eq && val[eq - 1] != '=')
			eq--;
		if (eq && qb_question_rare(q)->answer_loc.line) { /* 'answer: 2..4 = 50%' */
			num_more_answer(r, q, kloc, val, vlen, eq - 1, (size_t)(val - r->line));
			return;
		}
		if (!once(kloc, "answer", &rare_w(r, q)->answer_loc))
			return;
		if (!vlen) { /* reported once: the question has an answer line */
			qb_diag_error(kloc, "'answer:' needs a value, e.g. 'answer: true' or "
			                    "'answer: 42'");
			return;
		}
		free(r->answer);
		r->answer = qb_xstrndup(val, vlen);
		r->answer_vloc = vloc;
	} else if (key_is(r, ln, "unit")) {
		if (!once(kloc, "unit", &rare_w(r, q)->unit_loc))
			return;
		if (!vlen)
			qb_diag_error(kloc, "'unit:' needs the unit, e.g. 'unit: ms'");
		else
			rare_w(r, q)->unit = text_dup(r, val, vlen);
	} else if (key_is(r, ln, "feedback-true") || key_is(r, ln, "feedback-false") ||
	           key_is(r, ln, "feedback-wrong")) {
		bool tf = !key_is(r, ln, "feedback-wrong");
		qb_rare *rare = rare_w(r, q);
		if (tf && !rare->feedback_tf) /* the first of the two */
			rare->feedback_tf = memset(qb_arena_alloc(&r->bank->arena, 2 * sizeof(qb_text)), 0,
			                           2 * sizeof(qb_text));
		qb_text *t = !tf ? &rare->feedback_wrong
		                 : &rare->feedback_tf[key_is(r, ln, "feedback-true") ? 0 : 1];
		if (t->present) {
			qb_diag_error(kloc, "second '%s:' block; the first is on line %d", r->kw,
			              t->line);
			swallow(r);
			return;
		}
		open_text(r, t, T_QFEEDBACK, kloc);
		marker_rest(r, ln->rest);
	} else if (key_is(r, ln, "vars") || key_is(r, ln, "where") || key_is(r, ln, "draws")) {
		params_key(r, q, ln, kloc, val, vlen, vloc);
	} else if (key_is(r, ln, "tags")) {
		size_t i = 0, s;
		while (next_item(val, vlen, &i, &s)) {
			qb_tag *t = vec_push(&r->tags);
			t->name = text_dup(r, val + s, i - s);
			t->loc = loc_at(r, ln->rest + s);
		}
	} else if (key_is(r, ln, "explanation")) {
		if (q->explanation.present) {
			qb_diag_error(kloc, "second 'explanation:' block; the first is on line %d",
			              q->explanation.line);
			return;
		}
		open_text(r, &q->explanation, T_EXPLANATION, kloc);
		marker_rest(r, ln->rest);
	} else {
		qb_diag_error(kloc, "'%s:' belongs in the bank's header, above the first question",
		              r->kw);
	}
}

/* ---------------------------------------------------------------------
 * The line loop
 * ------------------------------------------------------------------- */

/* What a line that follows a '\\' is, when it cannot continue the text:
 * a blank line, a comment, or a line that starts something else (an
 * option or feedback with a language tag, a question, a keyword, a
 * language line).  NULL when it is text that continues. */
static const char *ends_text(const reader *r, const char *s, size_t n)
{
	qb_line ln, sub;
	qb_line_classify(s, n, &ln);
	size_t tag, toff;
	bool tagged_rest = false;
	if (ln.kind == QB_LINE_OPTION || ln.kind == QB_LINE_FEEDBACK) {
		qb_line_classify(s + ln.rest, n - ln.rest, &sub);
		tagged_rest = (sub.kind == QB_LINE_TR && declared(r, s + ln.rest + sub.word,
		                                                   sub.wordlen));
	}
	switch (ln.kind) {
	/* TRANSLATORS: in "this '\' has nothing to continue: a blank line
	 * follows". */
	case QB_LINE_BLANK: return _("a blank line");
	case QB_LINE_COMMENT: return _("a comment");
	case QB_LINE_QUESTION: return memchr(s + ln.rest, ' ', n - ln.rest) ? NULL : _("a question");
	case QB_LINE_OPTION: return tagged_rest || ln.badmark ? _("an option") : NULL;
	case QB_LINE_FEEDBACK: return tagged_rest ? _("feedback") : NULL;
	case QB_LINE_KEY: return _("a keyword line");
	case QB_LINE_TR: return declared(r, s + ln.word, ln.wordlen) ? _("a language line") : NULL;
	default:
		break;
	}
	/* 'sw:text' is a language line too (reported when it is read). */
	return bad_tag(r, NULL, s + ln.indent, n - ln.indent, &tag, &toff) ? _("a language line")
	                                                                    : NULL;
}

/* The text of a line, joined with the following lines while it ends in a
 * backslash, and inside a fenced code block up to its closing fence.
 * Between two lines of ordinary text the '\\' stays, a Markdown hard
 * line break; next to block Markdown it only joins (block_markdown()).  A
 * line holding only '\\' is an empty line (a paragraph break).  Code
 * lines keep their indentation beyond that of their opening fence.
 * *last is the last line used.  A '\\' with nothing to continue (the text
 * ends there) is dropped with a warning, and *changed tells that the text
 * differs from the line. */
/* Line k of ls (it is there: joined() asks for one after a successful
 * ls_get() of the same or a later line). */
#define LINE(k) ls_line(ls, (k), NULL)
#define LEN(k) ls_linelen(ls, (k))

static const char *ls_line(linesrc *ls, size_t k, size_t *len)
{
	const char *p = NULL;
	size_t n = 0;
	ls_get(ls, k, &p, &n);
	if (len)
		*len = n;
	return p;
}

static size_t ls_linelen(linesrc *ls, size_t k)
{
	size_t n = 0;
	ls_line(ls, k, &n);
	return n;
}

static char *joined(reader *r, size_t off, linesrc *ls, size_t idx, size_t *last,
                    size_t *outlen, bool *changed)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_append(&b, r->line + off, r->len - off);
	size_t i = idx;
	r->jcols.size = sizeof(int);
	r->jcols.n = 0;
	*changed = false;
	/* The current line's text: after a language tag on the first line. */
	size_t cur = 0;
	{
		qb_line sub;
		qb_line_classify(b.ptr, b.len, &sub);
		if (sub.kind == QB_LINE_TR)
			cur = sub.rest;
	}
	size_t fence = fence_at(b.ptr + cur, b.len - cur);
	char fch = fence ? b.ptr[cur] : 0;
	size_t base = off + cur; /* the fence's indentation, in bytes */
	int fence_line = (int)idx + 1;
	for (;;) {
		if (fence) {
			/* Inside a fenced code block: every line is code until the
			 * closing fence, except a line that clearly starts
			 * something else in the bank (the fence was not closed). */
			const char *what = NULL;
			if (ls_get(ls, i + 1, NULL, NULL)) {
				qb_line ln;
				qb_line_classify(LINE(i + 1), LEN(i + 1), &ln);
				if (ln.kind != QB_LINE_BLANK && ln.kind != QB_LINE_COMMENT &&
				    ln.kind != QB_LINE_TEXT && ln.kind != QB_LINE_OPTION &&
				    ln.kind != QB_LINE_FEEDBACK)
					what = ends_text(r, LINE(i + 1), LEN(i + 1));
			}
			if (!ls_get(ls, i + 1, NULL, NULL) || what) {
				qb_diag_error(QB_LOC(r->file, fence_line, 1 + (int)qb_utf8_count(
				                                                  LINE(fence_line - 1), base)),
				              "this code block has no closing fence; end it with a line "
				              "holding only '%s'", fch == '~' ? "~~~" : "```");
				break;
			}
			i++;
			size_t sp = 0;
			while (sp < base && sp < LEN(i) && is_space(LINE(i)[sp]))
				sp++;
			qb_buf_putc(&b, '\n');
			cur = b.len;
			qb_buf_append(&b, LINE(i) + sp, LEN(i) - sp);
			*(int *)vec_push(&r->jcols) = 1 + (int)qb_utf8_count(LINE(i), sp);
			*changed = true;
			size_t s0 = skip_space(LINE(i), LEN(i), 0);
			size_t k = fence_at(LINE(i) + s0, LEN(i) - s0);
			/* The closing fence; a '\\' after it continues the text. */
			size_t e = skip_space(LINE(i), LEN(i), s0 + k);
			if (e < LEN(i) && LINE(i)[e] == '\\')
				e = skip_space(LINE(i), LEN(i), e + 1);
			if (k >= fence && LINE(i)[s0] == fch && e == LEN(i))
				fence = 0;
			continue;
		}
		size_t l = b.len;
		while (l > cur && is_space(b.ptr[l - 1]))
			l--;
		if (l == cur || b.ptr[l - 1] != '\\')
			break;
		const char *what = !ls_get(ls, i + 1, NULL, NULL) ? _("the end of the file")
		                                   : ends_text(r, LINE(i + 1), LEN(i + 1));
		if (what) {
			size_t e = LEN(i);
			while (e && is_space(LINE(i)[e - 1]))
				e--;
			qb_loc at = {r->file, (int)i + 1, 1 + (int)qb_utf8_count(LINE(i), e - 1)};
			qb_diag_warning(at, "this '\\' has nothing to continue: %s follows, which ends the "
			                    "text; remove the '\\'", what);
			b.len = l - 1;
			*changed = true;
			break;
		}
		size_t s = skip_space(LINE(i + 1), LEN(i + 1), 0);
		const char *next = LINE(i + 1) + s;
		size_t nlen = LEN(i + 1) - s;
		while (nlen && is_space(next[nlen - 1]))
			nlen--;
		bool blank_next = nlen == 1 && next[0] == '\\';
		bool blank_cur = l - cur == 1;
		bool keep = !blank_next && !blank_cur &&
		            !block_markdown(b.ptr + cur, l - 1 - cur, cur > 0 || i > idx) &&
		            !block_markdown(next, nlen, true);
		b.len = keep ? l : l - 1;
		i++;
		qb_buf_putc(&b, '\n');
		/* A table needs an empty line above it, unless it goes on. */
		const char *nb = block_markdown(next, nlen, true), *cb = NULL;
		if (!blank_cur)
			cb = block_markdown(b.ptr + cur, b.len - 1 - cur, true);
		bool virt = nb && strcmp(nb, "a table") == 0 && !blank_cur &&
		            !(cb && strcmp(cb, "a table") == 0);
		if (virt)
			qb_buf_putc(&b, '\n');
		cur = b.len;
		qb_buf_append(&b, LINE(i) + s, LEN(i) - s);
		*(int *)vec_push(&r->jcols) = 1 + (int)qb_utf8_count(LINE(i), s);
		if (virt) /* a '\n' of no source line: column 0 (qb_tr.cols) */
			*(int *)vec_push(&r->jcols) = 0;
		*changed = true;
		if ((fence = fence_at(next, nlen)) != 0) {
			fch = next[0];
			base = s;
			fence_line = (int)i + 1;
		}
	}
	*last = i;
	*outlen = b.len;
	return qb_buf_detach(&b);
}
#undef LINE
#undef LEN

static void read_line(reader *r, const qb_line *ln)
{
	const char *text = r->jtext;
	size_t textlen = r->jlen;
	if (r->block && ln->kind == QB_LINE_TEXT && ln->indent) {
		const char *s = r->line + ln->indent;
		size_t n = r->len - ln->indent;
		if (r->block == BLOCK_VARS)
			qb_params_add_var(r->bank, r->params, s, n, loc_at(r, ln->indent));
		else
			qb_params_table_line(r->bank, r->params, s, n, loc_at(r, ln->indent));
		return;
	}
	if (ln->kind != QB_LINE_BLANK && ln->kind != QB_LINE_COMMENT)
		r->block = BLOCK_NONE;
	switch (ln->kind) {
	case QB_LINE_BLANK:
	case QB_LINE_COMMENT:
		return;
	case QB_LINE_QUESTION:
		begin_question(r, ln);
		return;
	case QB_LINE_KEY:
	case QB_LINE_BADKEY:
	case QB_LINE_TR: {
		/* A misspelt keyword ('explaination:'), or one that looks like a
		 * language tag ('tag:') but is not a language of the bank, is
		 * reported once and read as the keyword it resembles. */
		const char *w = r->line + ln->word;
		const char *s = NULL;
		if (ln->kind == QB_LINE_KEY) {
			for (const char *const *k = qb_text_keywords; *k; k++)
				if (strlen(*k) == ln->wordlen && strncmp(*k, w, ln->wordlen) == 0)
					s = *k;
		} else if (ln->kind == QB_LINE_BADKEY ||
		           (r->langs.n && ln->wordlen >= 3 && !declared(r, w, ln->wordlen))) {
			s = suggest(w, ln->wordlen);
			if (s && strlen(s) == ln->wordlen && strncasecmp(s, w, ln->wordlen) == 0)
				qb_diag_error(loc_at(r, ln->word), "keywords are written in lower case: "
				                                   "'%s:'", s);
			else if (s)
				qb_diag_error(loc_at(r, ln->word), "unknown keyword '%.*s'; did you mean "
				                                   "'%s:'?", (int)ln->wordlen, w, s);
		}
		if (s) {
			r->kw = s;
			if (r->in_questions)
				question_key(r, ln);
			else
				header_key(r, ln);
			return;
		}
		if (ln->kind == QB_LINE_BADKEY) {
			qb_diag_error(loc_at(r, ln->word), "unknown keyword '%.*s'", (int)ln->wordlen, w);
			swallow(r);
			return;
		}
		break;
	}
	default:
		break;
	}
	if (!r->in_questions && !r->text.dst) {
		qb_loc l = loc_at(r, ln->indent);
		if (ln->kind == QB_LINE_TEXT && !r->header_seen) {
			/* Text above any header field (a printed quiz's title):
			 * held back, and reported only if a header follows, since
			 * a missing header is reported once by the checks. */
			r->stray.size = sizeof(qb_loc);
			*(qb_loc *)vec_push(&r->stray) = l;
			return;
		}
		qb_diag_error(l, "this line belongs to nothing: the header has keywords such as "
		                 "'title:', and questions start with a number such as '1. my-id'");
		return;
	}
	if ((!r->in_questions || !r->q) && ln->kind != QB_LINE_TR && ln->kind != QB_LINE_TEXT) {
		qb_diag_error(loc_at(r, ln->indent), "options and feedback belong inside a question");
		swallow(r);
		return;
	}
	switch (ln->kind) {
	case QB_LINE_OPTION: {
		r->num_fb = NULL;
		if (ln->badmark)
			qb_diag_error(loc_at(r, ln->indent), "'%.*s' is not an option mark; start a wrong "
			                                     "option with '-' and a correct one with '*'",
			              (int)ln->badmark, r->line + ln->indent);
		qb_choice *c = push_choice(r);
		c->correct = ln->correct;
		c->pinned = ln->pinned;
		qb_loc bullet = loc_at(r, ln->indent);
		qb_choice_set_loc(c, bullet);
		if (ln->marklen)
			option_mark_read(r, c, ln);
		open_text(r, &c->text, T_CHOICE, bullet);
		c->text.present = true;
		marker_rest(r, ln->rest);
		return;
	}
	case QB_LINE_FEEDBACK: {
		qb_choice *c = last_choice(r);
		if (r->num_fb && !c) { /* a further numeric answer's */
			if (r->num_fb->present) {
				qb_diag_error(loc_at(r, ln->indent), "second feedback for this option; the "
				              "first is on line %d", r->num_fb->line);
				swallow(r);
				return;
			}
			open_text(r, r->num_fb, T_FEEDBACK, loc_at(r, ln->indent));
			marker_rest(r, ln->rest);
			return;
		}
		if (!c || r->q->explanation.present) {
			qb_diag_error(loc_at(r, ln->indent), "feedback ('>') must follow the option it "
			                                     "explains");
			swallow(r);
			return;
		}
		if (c->feedback.present) {
			qb_diag_error(loc_at(r, ln->indent),
			              "second feedback for this option; the first is on line %d",
			              c->feedback.line);
			swallow(r);
			return;
		}
		open_text(r, &c->feedback, T_FEEDBACK, loc_at(r, ln->indent));
		marker_rest(r, ln->rest);
		return;
	}
	case QB_LINE_TR:
		if (!r->text.dst) {
			qb_diag_error(loc_at(r, ln->indent),
			              "a language line must follow a question, an option, a feedback "
			              "line or 'explanation:'");
			return;
		}
		r->text.dst->present = true;
		add_tr(r, r->line + ln->word, ln->wordlen, loc_at(r, ln->indent), ln->rest,
		       text ? text : r->line + ln->rest, text ? textlen : r->len - ln->rest);
		return;
	default: /* QB_LINE_TEXT */
		if (r->text.dst) {
			size_t i = ln->indent, tag, toff;
			qb_loc at = loc_at(r, i);
			r->text.dst->present = true;
			if (bad_tag(r, &at, r->line + i, r->len - i, &tag, &toff))
				add_tr(r, r->line + i, tag, at, i + toff,
				       text ? text + toff : r->line + i + toff,
				       text ? textlen - toff : r->len - i - toff);
			else
				add_tr(r, NULL, 0, loc_at(r, i), i, text ? text : r->line + i,
				       text ? textlen : r->len - i);
		} else
			qb_diag_error(loc_at(r, ln->indent), "this line belongs to nothing");
		return;
	}
}

/* Reports invalid UTF-8, NUL and control characters in a block of whole
 * lines of file.  Returns NULL when there are none; otherwise a copy of
 * data with every rejected byte replaced by U+FFFD (one character for
 * one, so lines and columns stay true), so that reading can go on and
 * report everything else. */
/* Printable ASCII and the tab: the bytes check_encoding() passes in runs
 * (a table: every byte of a bank goes through this test). */
static const bool plain_ascii[256] = {
	['\t'] = true,
#define R4(c) [(c)] = true, [(c) + 1] = true, [(c) + 2] = true, [(c) + 3] = true
#define R16(c) R4(c), R4((c) + 4), R4((c) + 8), R4((c) + 12)
	R16(0x20), R16(0x30), R16(0x40), R16(0x50), R16(0x60),
	R4(0x70), R4(0x74), R4(0x78), [0x7C] = true, [0x7D] = true, [0x7E] = true, /* not DEL */
#undef R16
#undef R4
};

/* The length of the run of printable ASCII and tabs that d[0..n) starts
 * with: eight bytes at a time while none is outside 0x20..0x7E (a word
 * test from "Bit Twiddling Hacks": a byte with the high bit, one below
 * 0x20, one equal to 0x7F), then byte by byte through the table. */
static size_t printable_run(const char *d, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	size_t i = 0;
	for (;;) {
		for (uint64_t w; i + 8 <= n; i += 8) {
			memcpy(&w, d + i, 8);
			uint64_t del = w ^ (ones * 0x7F);
			if ((w & highs) | ((w - ones * 0x20) & ~w & highs) | ((del - ones) & ~del & highs))
				break;
		}
		size_t stop = i + 8 < n ? i + 8 : n; /* a word with a tab, or the end */
		while (i < stop && plain_ascii[(unsigned char)d[i]])
			i++;
		if (i < stop || i == n)
			return i;
	}
}

static char *check_encoding(const char *file, const char *data, size_t len, size_t *outlen,
                            enc_state *st)
{
	qb_buf clean = QB_BUF_INIT;
	int line = st->line, col = 1, reported = st->reported;
	for (size_t i = 0; i < len;) {
		size_t a = i + printable_run(data + i, len - i); /* the common case */
		if (a > i) {
			if (clean.ptr)
				qb_buf_append(&clean, data + i, a - i);
			col += (int)(a - i);
			i = a;
			continue;
		}
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)data + i,
		                                      (utf8proc_ssize_t)(len - i), &cp);
		if (n < 0 || cp == 0 || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    cp == 0x7F) {
			if (reported++ < 20) {
				qb_loc l = {file, line, col};
				if (n < 0)
					qb_diag_error(l, "invalid UTF-8 (byte 0x%02X); save the file as UTF-8",
					              (unsigned char)data[i]);
				else
					qb_diag_error(l, "control character U+%04X in the text",
					              (unsigned)cp);
			}
			if (!clean.ptr) /* the first bad byte: copy what came before */
				qb_buf_append(&clean, data, i);
			qb_buf_puts(&clean, "\xEF\xBF\xBD");
			col++;
			i++;
			continue;
		}
		if (clean.ptr)
			qb_buf_append(&clean, data + i, (size_t)n);
		if (cp == '\n' || (cp == '\r' && !(i + 1 < len && data[i + 1] == '\n'))) {
			line++;
			col = 1;
		} else if (cp != '\r')
			col++;
		i += (size_t)n;
	}
	st->line = line;
	st->reported = reported;
	if (!clean.ptr)
		return NULL;
	*outlen = clean.len;
	return qb_buf_detach(&clean);
}

/* ---------------------------------------------------------------------
 * The line source
 * ------------------------------------------------------------------- */

#define LS_BLOCK ((size_t)1 << 20)

/* Takes back a block's buffer of cap bytes (0: unknown): kept for the
 * next block, so that reading a big file writes into the same pages
 * rather than into new ones each time (their page faults were a tenth
 * of the read); freed when a buffer is kept already. */
static void ls_recycle(linesrc *ls, char *data, size_t cap)
{
	if (cap && !ls->spare) {
		ls->spare = data;
		ls->spare_cap = cap;
	} else {
		free(data);
	}
}

/* Adds the lines of data[0..len) (whole lines: it ends at a line end or
 * at the end of the file) as a new block; data, of cap bytes when owned
 * (0: unknown), becomes the block's. */
static void ls_add_block(linesrc *ls, char *data, size_t len, bool owned, size_t cap)
{
	size_t at = 0;
	if (!ls->started) {
		ls->started = true;
		/* A UTF-8 byte-order mark is allowed and skipped (after the
		 * encoding check, which counts it as a column). */
		if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
			at = 3;
	}
	size_t clen = len;
	char *clean = check_encoding(ls->file, data, len, &clen, &ls->enc);
	if (clean) {
		if (owned)
			ls_recycle(ls, data, cap);
		data = clean;
		len = clen;
		owned = true;
		cap = 0;
	}
	lblock *b = qb_xcalloc(1, sizeof *b);
	b->data = data;
	b->cap = owned ? cap : 0;
	b->owned = owned;
	/* Split into lines: \n, \r\n or \r (memchr() finds the \n; a \r
	 * before it, rare, ends the line there). */
	for (size_t i = at; i < len;) {
		const char *nl = memchr(data + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - data) : len;
		const char *cr = memchr(data + i, '\r', e - i);
		if (cr)
			e = (size_t)(cr - data);
		if (ls->n == ls->cap) {
			ls->cap = ls->cap ? 2 * ls->cap : 1024;
			ls->line = qb_xrealloc(ls->line, ls->cap * sizeof *ls->line);
			ls->len = qb_xrealloc(ls->len, ls->cap * sizeof *ls->len);
		}
		ls->line[ls->n] = data + i;
		ls->len[ls->n++] = e - i;
		if (e < len && data[e] == '\r' && e + 1 < len && data[e + 1] == '\n')
			e++;
		i = e + 1;
	}
	b->end = ls->first + ls->n;
	if (ls->tail)
		ls->tail->next = b;
	else
		ls->head = b;
	ls->tail = b;
}

/* After the last block: the count of the encoding errors not shown. */
static void ls_ended(linesrc *ls)
{
	if (ls->enc.reported > 20)
		qb_diag_note(QB_LOC(ls->file, 0, 0), "%d more encoding errors not shown",
		             ls->enc.reported - 20);
}

/* Makes the next block: the whole text, or the file's next bytes up to
 * their last line end.  False when there is nothing more. */
static bool ls_more(linesrc *ls)
{
	if (ls->eof)
		return false;
	if (!ls->f) {
		ls->eof = true;
		ls_add_block(ls, (char *)ls->text, ls->textlen, false, 0);
		ls_ended(ls);
		return true;
	}
	qb_buf b = QB_BUF_INIT;
	if (ls->spare) {
		b.ptr = ls->spare;
		b.cap = ls->spare_cap;
		b.ptr[0] = '\0';
		ls->spare = NULL;
	}
	qb_buf_append(&b, ls->carry, ls->ncarry);
	free(ls->carry);
	ls->carry = NULL;
	ls->ncarry = 0;
	size_t cut = 0;
	for (;;) { /* until a line end, or the end of the file */
		size_t from = b.len;
		qb_buf_reserve(&b, ls->block);
		size_t got = fread(b.ptr + b.len, 1, ls->block, ls->f);
		if (got)
			qb_diag_source_feed(ls->file, b.ptr + b.len, got);
		b.len += got;
		if (got < ls->block) {
			if (ferror(ls->f)) {
				qb_diag_fatal("cannot read '%s': %s", ls->file, strerror(errno));
				ls->ioerr = true;
			}
			ls->eof = true;
			cut = b.len;
			break;
		}
		for (size_t k = b.len; k > from; k--)
			if (b.ptr[k - 1] == '\n') {
				cut = k;
				break;
			}
		if (cut)
			break;
	}
	if (cut < b.len) {
		ls->ncarry = b.len - cut;
		ls->carry = qb_xmalloc(ls->ncarry);
		memcpy(ls->carry, b.ptr + cut, ls->ncarry);
	}
	if (!cut) { /* the end of the file, right after a line end */
		qb_buf_dispose(&b);
		ls_ended(ls);
		return false;
	}
	b.len = cut;
	size_t cap = b.cap;
	ls_add_block(ls, qb_buf_detach(&b), cut, true, cap);
	if (ls->eof)
		ls_ended(ls);
	return true;
}

/* Line i (0-based), reading more of the source when needed; false past
 * the last line.  line and len may be NULL (is there a line i?).  Lines
 * before the last ls_release() are gone. */
static bool ls_get(linesrc *ls, size_t i, const char **line, size_t *len)
{
	while (i >= ls->first + ls->n)
		if (!ls_more(ls))
			return false;
	if (i < ls->first)
		return false;
	if (line)
		*line = ls->line[i - ls->first];
	if (len)
		*len = ls->len[i - ls->first];
	return true;
}

/* Lets go of the lines before line i: their blocks are freed. */
static void ls_release(linesrc *ls, size_t i)
{
	while (ls->head && ls->head->end <= i && ls->head != ls->tail) {
		lblock *b = ls->head;
		ls->head = b->next;
		size_t drop = b->end - ls->first;
		memmove(ls->line, ls->line + drop, (ls->n - drop) * sizeof *ls->line);
		memmove(ls->len, ls->len + drop, (ls->n - drop) * sizeof *ls->len);
		ls->n -= drop;
		ls->first = b->end;
		if (b->owned)
			ls_recycle(ls, b->data, b->cap);
		free(b);
	}
}

static void ls_dispose(linesrc *ls)
{
	while (ls->head) {
		lblock *b = ls->head;
		ls->head = b->next;
		if (b->owned)
			free(b->data);
		free(b);
	}
	free(ls->line);
	free(ls->len);
	free(ls->carry);
	free(ls->spare);
}

/* ---------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------- */

static qb_bank *read_lines(const char *path, linesrc *ls)
{
	qb_bank *bank = qb_bank_new(path);
	reader r = {0};
	r.bank = bank;
	r.file = bank->path;
	r.questions.size = sizeof(qb_question);
	ls->file = r.file;
	ls->enc.line = 1;
	for (size_t i = 0; ls_get(ls, i, &r.line, &r.len); i++) {
		ls_release(ls, i);
		r.lineno = (int)i + 1;
		qb_line ln;
		qb_line_classify(r.line, r.len, &ln);
		char *text = NULL;
		size_t textlen = 0, last = i;
		if (ln.kind == QB_LINE_TR || ln.kind == QB_LINE_OPTION || ln.kind == QB_LINE_KEY ||
		    ln.kind == QB_LINE_FEEDBACK || ln.kind == QB_LINE_TEXT) {
			size_t off = ln.kind == QB_LINE_TR ? ln.rest
			           : ln.kind == QB_LINE_TEXT ? ln.indent : ln.rest;
			/* For bullets the language tag is inside the joined text;
			 * marker_rest() classifies it again. */
			bool changed;
			text = joined(&r, off, ls, i, &last, &textlen, &changed);
			if (!changed) {
				free(text);
				text = NULL;
			} else if (ln.kind != QB_LINE_TR && ln.kind != QB_LINE_TEXT) {
				/* Keep only the part after a language tag. */
				qb_line sub;
				qb_line_classify(text, textlen, &sub);
				if (sub.kind == QB_LINE_TR) {
					memmove(text, text + sub.rest, textlen - sub.rest + 1);
					textlen -= sub.rest;
				}
			}
		}
		r.jtext = text;
		r.jlen = textlen;
		read_line(&r, &ln);
		r.jtext = NULL;
		free(text);
		i = last;
	}
	/* The lines go before the model's last moves. */
	ls_dispose(ls);
	end_question(&r);
	close_text(&r);
	bank->nlangs = r.langs.n;
	bank->langs = vec_move(&r.langs, &bank->arena);
	bank->nquestions = r.questions.n;
	bank->questions = vec_move(&r.questions, &bank->arena);
	bank->npassages = r.passages.n;
	bank->passages = vec_move(&r.passages, &bank->arena);
	resolve_passages(&r, bank);
	qb_params_draw(bank);
	/* Lines still held back had no header after them: the checks report
	 * the missing header once instead. */
	free(r.stray.v);
	free(r.jcols.v);
	return bank;
}

qb_bank *qb_read_text(const char *path, const char *data, size_t len)
{
	qb_diag_add_source(path, data, len);
	linesrc ls = {0};
	ls.text = data;
	ls.textlen = len;
	return read_lines(path, &ls);
}

qb_bank *qb_read_file(const char *path, size_t block)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		qb_diag_fatal("cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	/* Quotes read the file again: the whole text is never held. */
	qb_diag_add_source_file(path);
	linesrc ls = {0};
	ls.f = f;
	ls.block = block ? block : LS_BLOCK;
	qb_bank *bank = read_lines(path, &ls);
	bool bad = ls.ioerr;
	fclose(f);
	if (bad) {
		qb_bank_free(bank);
		return NULL;
	}
	qb_diag_source_done(path);
	return bank;
}

qb_bank *qb_read(const char *path)
{
	return qb_read_file(path, 0);
}
