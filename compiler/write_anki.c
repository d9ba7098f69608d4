/* write_anki.c - the Anki deck package writer (.apkg, issue #3).
 *
 * Writes the legacy package that every Anki imports (anki-format.md, short
 * version): a zip with collection.anki2 (schema 11, built by anki_db.c),
 * the JSON `media` map and numbered media members, nothing else.
 *
 * One note per (question, language), one card per note.  What keeps a
 * re-import updating the learner's existing notes (§B8):
 *   - the GUID is a hash of the bank id, the question id and the language;
 *   - the note type id, its ordered field names and its template names are
 *     constants below (a test fails if they change);
 *   - deck names are fixed: "<bank id>::<language's own name>";
 *   - a note's mod is qb_render_question_time(), the note type's the
 *     templates' time (render.h, from the revision record), so a note's
 *     time moves exactly when what it shows changed;
 *   - the card CSS and JS are static "_" media named by content hash.
 *
 * Texts, times, pictures and labels come from the render layer
 * (render.h).  Nothing from a bank becomes markup, script or template
 * syntax: texts go through md4c with raw HTML off (markup.h), then qb_escape_mustache() and
 * a guard for Anki's [sound:]/[latex] syntax; the data the card script
 * reads is JSON placed as HTML text. */
#include "write.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "anki_db.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "lang.h"
#include "markup.h"
#include "params.h"
#include "render.h"
#include "template.h"
#include "zipw.h"

/* ==== The frozen contract (anki-format.md §B3) ===========================
 * Changing the note type key, the field names or their order, or the
 * template names makes every Anki treat the package as a different note
 * type: existing notes stop updating.  tests/anki/run.sh fails when they
 * change.  Template HTML and CSS (templates/anki/) may change freely. */

/* The note type id is derived from this key (never from time).  v1
 * ("qbc-mcq-v1") held labels, per-option markup and every other
 * language's full rendering in each note; v2 holds a note's content once
 * (issue 12).  README.md, "For Anki users", says what a learner with v1
 * notes sees on importing v2. */
#define NOTETYPE_KEY "qbc-quiz-v2"
#define NOTETYPE_NAME "qbc quiz"

enum {
	F_ID,          /* "<bank>:<question>:<lang>": the first field (csum)   */
	F_LANG,        /* the note's language code                            */
	F_QUESTION,    /* the prompt (the sort field)                         */
	F_OPTIONS,     /* the options, each with its feedback; data-ok marks
	                  the correct ones (shown only on the back)          */
	F_EXPLANATION, /* the explanation                                     */
	F_TRANSLATION, /* the other language(s) (the linear rule: a note in
	                  the default language carries every other language,
	                  any other note the default language), behind
	                  collapsed toggles                                  */
	F_EXTRA,       /* HTML shown at the end of the back; empty for now,
	                  room for later content (sources, notes)            */
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"ID", "Lang", "Question", "Options", "Explanation", "Translation", "Extra",
};

#define SORT_FIELD F_QUESTION
#define TEMPLATE_NAME "Quiz"

/* The second note type, Anki's Cloze kind (type 1), for cloze questions:
 * one card per gap, the card of gap N having ord N - 1.  Frozen like the
 * first (tests/anki/run.sh). */
#define CLOZE_KEY "qbc-cloze-v1"
#define CLOZE_NAME "qbc cloze"
#define CLOZE_TEMPLATE "Cloze"

enum {
	C_ID, C_LANG,
	C_TEXT,        /* the prompt, each gap as {{cN::answer}} or, for a
	                  choice gap, {{cN::right::choice / choice}}        */
	C_EXPLANATION, C_TRANSLATION, C_EXTRA, /* as the quiz type's        */
	C_COUNT
};

static const char *const cloze_field_names[C_COUNT] = {
	"ID", "Lang", "Text", "Explanation", "Translation", "Extra",
};

/* The third note type, for parameterised questions (issue 38): the quiz
 * type's fields and templates' names, and one more field, Draws, that the
 * quiz type cannot take (adding a field to it would be a new schema: every
 * learner's existing notes would stop updating, anki-format.md §B3).  The
 * fields show the pool's first draw, so a card without scripts is a
 * complete question; Draws holds the other draws' fields, each rendered
 * from qb_render_draw(), as JSON in HTML text, from which the card script
 * shows one draw per review.  Frozen like the others (tests/anki/run.sh).
 * A cloze question keeps the cloze type and shows its first draw. */
#define DRAWN_KEY "qbc-drawn-v1"
#define DRAWN_NAME "qbc drawn"

enum {
	F_DRAWS = F_COUNT, /* [{}, {"q": Question, "o": Options, "e":
	                      Explanation, "t": Translation}, ...]: draw k's
	                      fields where they differ from draw 0's (the
	                      note's own fields, entry {}), as text */
	D_COUNT
};

static const char *const drawn_field_names[D_COUNT] = {
	"ID", "Lang", "Question", "Options", "Explanation", "Translation", "Extra", "Draws",
};

/* What differs between the note types. */
typedef struct notetype_def {
	const char *key, *name, *tmpl_name, *front, *back;
	int type; /* 0 standard, 1 cloze */
	const char *const *fields;
	size_t nfields, sortf;
} notetype_def;

static const notetype_def quiz_type = {NOTETYPE_KEY, NOTETYPE_NAME, TEMPLATE_NAME,
                                       "anki/front.html", "anki/back.html", 0,
                                       field_names, F_COUNT, SORT_FIELD};
static const notetype_def cloze_type = {CLOZE_KEY, CLOZE_NAME, CLOZE_TEMPLATE,
                                        "anki/cloze-front.html", "anki/cloze-back.html", 1,
                                        cloze_field_names, C_COUNT, C_TEXT};
static const notetype_def drawn_type = {DRAWN_KEY, DRAWN_NAME, TEMPLATE_NAME,
                                        "anki/drawn-front.html", "anki/drawn-back.html", 0,
                                        drawn_field_names, D_COUNT, SORT_FIELD};

/* Ids chosen from hashes fall in genanki's range [2^30, 2^31)
 * (§A4.3): positive, far from Anki's millisecond ids, safe in JS. */
#define HASH_ID_BASE ((int64_t)1 << 30)

/* Longest media name Anki syncs is 120 bytes (§A5); ours stay well below. */
#define MEDIA_STEM_MAX 40
#define MEDIA_EXT_MAX 8

/* Anki's base91 alphabet for GUIDs, in digit order (§A4.4). */
static const char base91[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	"!#$%&()*+,-./:;<=>?@[]^_`{|}~";

/* The labels the card script uses (templates/labels/ keys), written once
 * per language into the static "_qbc-labels-<hash>.js". */
static const char *const script_labels[] = {
	"correct", "incorrect", "correctAnswer", "correctAnswers", "yourAnswer", "noAnswer",
	"hintSingle", "hintMultiple", "tapSingle", "tapMultiple", "explanation", "feedback",
	"partialScore", "typeAnswer", "typeNumber", "matchPrompt", "colon", "listSep",
};

/* ==== State ============================================================== */

/* A static file from templates/anki/, stored as a "_" media file. */
typedef struct static_file {
	char *name;
	unsigned char *data;
	size_t len;
} static_file;

typedef struct anki {
	const qb_render_ctx *ctx;
	const qb_bank *bank;
	const char *const *langs;  /* languages written, in bank order          */
	size_t nlangs;
	static_file statics[3];    /* card CSS, labels JS, card JS: first media */
	size_t nstatics;
	qb_media_set images;       /* the bank's pictures (render.h)            */
	char *css_name, *js_name, *labels_name; /* static media names (statics) */
	json_t *decks;             /* col.decks                                 */
	int64_t *dids;             /* deck id of each written language          */
	struct rendered *cache;    /* the question being written, per draw and
	                              language: cache[draw * nlangs + li]     */
	size_t ncache;             /* entries of cache allocated              */
	/* The question being written (render_note()): its draws, made by
	 * qb_render_draw() in draw_arena when first needed (drawq[k] NULL
	 * until then), ndraws of them (1 when it is not parameterised). */
	const qb_question *cur;
	const qb_question **drawq;
	size_t ndraws, ndrawq;     /* ndrawq: entries of drawq allocated     */
	qb_arena draw_arena;
	/* The renderer's buffers, reused from note to note: build_fields()'s,
	 * finish_field()'s and the note's (every string of a note in one,
	 * copied at its size into the note's single allocation). */
	qb_buf fields[D_COUNT], scratch[2], note;
	size_t hub;                /* the language every note carries: hub_index() */
	struct note_pipe *pipe;    /* the notes, rendered ahead (qb_begin_anki) */
	int rc;                    /* qb_begin_anki(): 0, or -1 after a diagnostic */
} anki;

/* A choice question's parts in one language, rendered once for every note
 * that shows them (its own note and the translations of the others). */
typedef struct rendered {
	qb_buf prompt, options, explanation;
	bool done;
} rendered;

/* ==== Times and ids ====================================================== */

/* Times (anki-format.md §B2, §B3).  A changed note must get a strictly
 * newer mod than any earlier build, or Anki skips the edit; an unchanged
 * note keeps its value, so a re-import leaves it alone.  A note shows its
 * question in every written language (the Translation field) and labels
 * and templates from templates/: qb_render_question_time().  The note
 * type's mod is the templates' time: Anki copies new templates and CSS
 * only when it is newer than its copy. */

/* Base for millisecond ids: the epoch, but never in the future (§A4.3). */
static int64_t id_base_ms(const qb_render_ctx *ctx)
{
	time_t now = time(NULL);
	time_t t = ctx->latest < now ? ctx->latest : now;
	return (int64_t)t * 1000;
}

static int64_t hash_id(const char *key)
{
	uint8_t d[QB_SHA256_SIZE];
	qb_hash_sha256(d, key, strlen(key));
	return HASH_ID_BASE + (int64_t)(qb_hash_u64(d) % (uint64_t)HASH_ID_BASE);
}

static int64_t notetype_id(const notetype_def *t)
{
	return hash_id(t->key);
}

/* Decks are matched by name (§B5); the id only has to be unique. */
static int64_t deck_id(const char *name)
{
	char *key = qb_xasprintf("qbc-deck:%s", name);
	int64_t id = hash_id(key);
	free(key);
	return id;
}

/* base91 of the first 8 bytes of sha256("qbank:<bank>:<question>:<lang>")
 * (§A4.4, genanki's guid_for digits), appended to out. */
static void note_guid(qb_buf *out, const char *bank_id, const char *qid, const char *lang)
{
	char *key = qb_xasprintf("qbank:%s:%s:%s", bank_id, qid, lang);
	uint8_t d[QB_SHA256_SIZE];
	qb_hash_sha256(d, key, strlen(key));
	free(key);
	uint64_t v = qb_hash_u64(d);
	char rev[16];
	size_t n = 0;
	do {
		rev[n++] = base91[v % 91];
		v /= 91;
	} while (v);
	while (n)
		qb_buf_putc(out, rev[--n]);
}

/* The parent deck: the bank id, the most stable name a bank has (the
 * GUIDs derive from it too).  A title can be reworded; a deck name cannot
 * (§B5), so the title goes into the deck description instead. */
static char *parent_deck_name(const qb_bank *bank)
{
	return qb_xstrdup(bank->id);
}

/* "<parent>::<the language's name in itself>" ("English", "Kiswahili"). */
static char *lang_deck_name(const anki *a, const char *lang)
{
	const char *native = qb_lang_native_name(lang);
	char *parent = parent_deck_name(a->bank);
	char *name = qb_xasprintf("%s::%s", parent, native ? native : lang);
	free(parent);
	return name;
}

/* ==== Labels ============================================================= */

static const char *label(const anki *a, const char *lang, const char *key)
{
	return qb_render_label(a->ctx, lang, key);
}

/* "Show in Kiswahili", in the card's language, as plain text. */
static void show_in_label(const anki *a, qb_buf *out, const char *lang, const char *other)
{
	const char *vars[] = {"lang", qb_render_lang_name(a->ctx, lang, other), NULL};
	qb_buf tmp = QB_BUF_INIT;
	qb_render_label_expand(a->ctx, &tmp, lang, "showIn", vars);
	qb_buf_puts(out, qb_buf_cstr(&tmp));
	qb_buf_dispose(&tmp);
}

/* ==== Media ============================================================== */

/* Already-compressed formats are stored, the rest deflated. */
static bool worth_compressing(const char *name)
{
	static const char *const packed[] = {".png", ".jpg", ".jpeg", ".gif", ".webp",
	                                     ".mp3", ".ogg", ".mp4", ".webm", ".woff2"};
	size_t n = strlen(name);
	for (size_t i = 0; i < QB_NELEM(packed); i++) {
		size_t k = strlen(packed[i]);
		if (n >= k && strcasecmp(name + n - k, packed[i]) == 0)
			return false;
	}
	return true;
}

static bool safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* "<stem>-<8 hex of sha256>.<ext>" from the source path: one path
 * component of [A-Za-z0-9_.-], never starting with '_' (that would make
 * it a static file) or '.', at most ~60 bytes (§A5).  A changed picture
 * gets a new name, so the field changes and Anki copies the new file. */
static char *media_name(const char *src, const unsigned char *data, size_t len)
{
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	const char *dot = strrchr(base, '.');
	size_t stem_len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (stem_len > MEDIA_STEM_MAX)
		stem_len = MEDIA_STEM_MAX;
	qb_buf out = QB_BUF_INIT;
	if (stem_len == 0 || !safe_char(base[0]) || base[0] == '_' || base[0] == '-')
		qb_buf_putc(&out, 'm');
	for (size_t i = 0; i < stem_len; i++)
		qb_buf_putc(&out, safe_char(base[i]) ? base[i] : '-');
	char hex[2 * 4 + 1];
	qb_hash_sha256_hex(hex, 4, data, len);
	qb_buf_appendf(&out, "-%s", hex);
	if (dot && dot != base && dot[1]) {
		qb_buf_putc(&out, '.');
		for (size_t i = 1; dot[i] && i <= MEDIA_EXT_MAX; i++) {
			char c = dot[i];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			qb_buf_putc(&out, safe_char(c) ? c : '-');
		}
	}
	return qb_buf_detach(&out);
}

static char *add_static_data(anki *a, char *data, size_t len, const char *stem,
                             const char *ext);

/* Loads a static file from templates/anki/ as "_qbc-<stem>-<hash>.<ext>".
 * Anki never overwrites a "_" file (§A5), so the name follows the content. */
static char *add_static(anki *a, const char *rel, const char *stem, const char *ext)
{
	size_t len = 0;
	char *data = qb_template_load(a->ctx->templates_dir, rel, &len);
	return data ? add_static_data(a, data, len, stem, ext) : NULL;
}

/* Stores data (heap, taken) as "_qbc-<stem>-<hash>.<ext>". */
static char *add_static_data(anki *a, char *data, size_t len, const char *stem, const char *ext)
{
	char hex[2 * 5 + 1];
	qb_hash_sha256_hex(hex, 5, data, len);
	char *name = qb_xasprintf("_qbc-%s-%s.%s", stem, hex, ext);
	a->statics[a->nstatics++] = (static_file){name, (unsigned char *)data, len};
	return name;
}

/* ==== Field HTML ========================================================= */

/* Inline Markdown -> HTML, images named as package media. */
static int md(anki *a, qb_buf *out, const char *text)
{
	return qb_render_html(a->ctx, out, text, &a->images);
}

/* The last step for every field: no Anki template syntax ({{...}}) and no
 * media/LaTeX tags ([sound:...], [latex], [$], [$$], [anki:...]) can come
 * from a bank.  s is HTML; "[" becomes the reference "&#91;".  The
 * renderer's own <audio> for a bank's sound becomes [sound:<media name>]
 * (Anki plays it with its own player; the name is ours, safe chars). */
static void finish_field_into(qb_buf *o, const qb_buf *html, qb_buf *m)
{
	static const char *const tags[] = {"sound:", "latex]", "$]", "$$]", "anki:", "/latex]",
	                                   "/$]", "/$$]"};
	/* The first step's buffer is the caller's, reused from field to
	 * field: made for each field, it was a sixth of the renderer's time.
	 * The second step appends to o. */
	qb_buf_clear(m);
	qb_buf_reserve(m, html->len + 64);
	qb_escape_mustache(m, qb_buf_cstr(html));
	qb_buf_reserve(o, m->len + 64);
	static const char audio_open[] = "<audio controls src=\"";
	const char *s = qb_buf_cstr(m), *end = s + m->len;
	/* Only two things change: the renderer's <audio> and a '[' before a
	 * media or LaTeX tag.  The next of each is searched for once and the
	 * plain run before it appended whole (a search from every '<' of the
	 * HTML was a tenth of the renderer's time). */
	const char *audio = strstr(s, "<audio"), *bracket = memchr(s, '[', m->len);
	for (;;) {
		const char *next = audio && (!bracket || audio < bracket) ? audio : bracket;
		if (!next) {
			qb_buf_append(o, s, (size_t)(end - s));
			break;
		}
		qb_buf_append(o, s, (size_t)(next - s));
		s = next;
		/* A sound (markup.c writes it; a bank's text cannot: raw HTML is
		 * off) becomes Anki's own player tag, after the guard above. */
		const char *name_end, *close;
		if (s == audio && strncmp(s, audio_open, sizeof audio_open - 1) == 0 &&
		    (name_end = strchr(s + sizeof audio_open - 1, '"')) != NULL &&
		    (close = strstr(name_end, "</audio>")) != NULL) {
			const char *name = s + sizeof audio_open - 1;
			qb_buf_puts(o, "[sound:");
			qb_buf_append(o, name, (size_t)(name_end - name));
			qb_buf_putc(o, ']');
			s = close + strlen("</audio>");
		} else if (s == audio) {
			qb_buf_putc(o, *s++);
		} else {
			size_t k;
			for (k = 0; k < QB_NELEM(tags); k++)
				if (strncasecmp(s + 1, tags[k], strlen(tags[k])) == 0)
					break;
			qb_buf_puts(o, k < QB_NELEM(tags) ? "&#91;" : "[");
			s++;
		}
		/* What was found may now lie behind s: search again from it. */
		if (audio && audio < s)
			audio = strstr(s, "<audio");
		if (bracket && bracket < s)
			bracket = memchr(s, '[', (size_t)(end - s));
	}
}

/* The same, as a string of its own (heap). */
static char *finish_field(const qb_buf *html)
{
	qb_buf m = QB_BUF_INIT, out = QB_BUF_INIT;
	finish_field_into(&out, html, &m);
	qb_buf_dispose(&m);
	return qb_buf_detach(&out);
}

static const char *tr_text(const anki *a, const qb_text *t, const char *lang)
{
	return qb_render_md(a->ctx, t, lang);
}

/* A listed answer's feedback in lang, if it has one, as <small>. */
static int feedback_html(anki *a, qb_buf *out, const qb_text *fb, const char *lang)
{
	const char *t = fb->present ? tr_text(a, fb, lang) : "";
	if (!*t)
		return 0;
	qb_buf_puts(out, "<small>");
	if (md(a, out, t) != 0)
		return -1;
	qb_buf_puts(out, "</small>");
	return 0;
}

/* q's passage in lang, if it has one, before its prompt: on the front of
 * each of its notes (and in each translation). */
static int passage_html(anki *a, qb_buf *out, const qb_question *q, const char *lang)
{
	const qb_passage *p = qb_question_passage(a->bank, q);
	if (!p)
		return 0;
	qb_buf_puts(out, "<div class=\"qb-passage\">");
	if (md(a, out, tr_text(a, &p->text, lang)) != 0)
		return -1;
	qb_buf_puts(out, "</div>");
	return 0;
}

/* A number written with mark for its decimal point ("%g"). */
static void number_with_mark(qb_buf *out, double x, const char *mark)
{
	char num[64];
	snprintf(num, sizeof num, "%g", x);
	for (const char *c = num; *c; c++)
		if (*c == '.')
			qb_buf_puts(out, mark);
		else
			qb_buf_putc(out, *c);
}

/* A numeric answer as written ("3.5 ± 0.1 GB", "3…4 ms", "42"); a drawn
 * answer (value: its text in the note's language, "3,19") as the prompt
 * writes its numbers ("3,19 ± 2%", "3,19 ± 0,05"). */
static void numeric_value(qb_buf *out, const qb_question *q, const qb_numeric *n,
                          const char *value, const char *mark)
{
	if (value) {
		qb_buf_puts(out, value);
		if (n->tol > 0 && n->percent) {
			qb_buf_puts(out, " \xC2\xB1 ");
			number_with_mark(out, n->tol / fabs(n->value ? n->value : 1) * 100, mark);
			qb_buf_putc(out, '%');
		} else if (n->tol > 0) {
			qb_buf_puts(out, " \xC2\xB1 ");
			number_with_mark(out, n->tol, mark);
		}
	} else if (n->range)
		qb_buf_appendf(out, "%g\xE2\x80\xA6%g", n->lo, n->hi);
	else if (n->tol > 0 && n->percent)
		qb_buf_appendf(out, "%g \xC2\xB1 %g%%", n->value,
		               n->tol / fabs(n->value ? n->value : 1) * 100);
	else if (n->tol > 0)
		qb_buf_appendf(out, "%g \xC2\xB1 %g", n->value, n->tol);
	else
		qb_buf_appendf(out, "%g", n->value);
	if (qb_question_rare(q)->unit) {
		qb_buf_putc(out, ' ');
		qb_escape_html(out, qb_question_rare(q)->unit);
	}
}

/* A numeric question's "options": the accepted answer, marked correct,
 * then each further answer with its interval and its credit ("3 ± 1
 * (50%)") and its feedback: the back shows them all, and the script
 * picks the best that holds the learner's number. */
static int numeric_answer(anki *a, qb_buf *out, const qb_question *q, const char *lang,
                          size_t k)
{
	/* Draw k of a parameterised question (q is the draw, a->cur the
	 * question): its answer as the draw's texts write it. */
	const qb_params *p = a->cur && q != a->cur ? qb_question_params(a->cur) : NULL;
	char buf[64];
	const char *mark = NULL, *value = NULL;
	if (p && p->answer.formula && k < p->npool) {
		mark = qb_render_decimal_mark(a->ctx, lang);
		value = qb_params_value_text(p, k, p->nvars, mark, buf, sizeof buf);
	}
	qb_buf_puts(out, "<li data-ok>");
	numeric_value(out, q, qb_question_num(q), value, mark);
	qb_buf_puts(out, "</li>");
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		qb_buf_appendf(out, "<li data-lo=\"%.17g\" data-hi=\"%.17g\" data-credit=\"%g\">",
		               m->num.lo, m->num.hi, m->credit);
		numeric_value(out, q, &m->num, NULL, NULL);
		qb_buf_appendf(out, " (%g%%)", m->credit);
		if (feedback_html(a, out, &m->feedback, lang) != 0)
			return -1;
		qb_buf_puts(out, "</li>");
	}
	return 0;
}

/* Whether lang is written right to left (its catalogue says). */
static bool is_rtl(const anki *a, const char *lang)
{
	return strcmp(qb_render_lang_dir(a->ctx, lang), "rtl") == 0;
}

/* A question with marks (issue 36): the option's share of the mark,
 * "<span class=qb-share>\u221225%</span>", which the back shows (the
 * front's CSS hides it), with and without the script. */
static void option_mark(qb_buf *out, const qb_bank *bank, const qb_question *q, size_t i)
{
	char m[40];
	qb_buf_appendf(out, "<span class=\"qb-share\">%s</span> ",
	               qb_share_text(qb_choice_share(bank, q, i), m, sizeof m));
}

/* The options in lang: "<ol class=qb-options data-type=T data-shuffle
 * data-scoring=partial><li data-ok data-pin>text<small>feedback</small>
 * </li>...</ol>" (data-type only when not single; the others only when
 * they apply: the card script shuffles and scores).  Everything else
 * (numbers, keys, marks, words, headings) comes from the card's CSS and
 * script, so a note holds its texts and little else.  The front hides the
 * feedback and never styles data-ok; the back marks the correct options
 * with CSS even without JavaScript. */
static int options_list(anki *a, qb_buf *out, const qb_question *q, const char *lang, size_t k)
{
	qb_buf_puts(out, "<ol class=\"qb-options\"");
	if (is_rtl(a, lang))
		qb_buf_puts(out, " dir=\"rtl\"");
	if (q->type != QB_QTYPE_SINGLE)
		qb_buf_appendf(out, " data-type=\"%s\"", qb_qtype_name(q->type));
	if (qb_question_shuffles(a->bank, q))
		qb_buf_puts(out, " data-shuffle");
	if ((q->type == QB_QTYPE_MULTIPLE || q->type == QB_QTYPE_MATCHING) &&
	    qb_question_scoring(a->bank, q) == QB_SCORING_PARTIAL)
		qb_buf_puts(out, " data-scoring=\"partial\"");
	if (q->type == QB_QTYPE_SHORT && q->case_sensitive)
		qb_buf_puts(out, " data-case");
	bool marks = qb_question_has_marks(q);
	if (marks)
		qb_buf_puts(out, " data-marks");
	if (q->type == QB_QTYPE_NUMERIC) {
		/* %.17g: exact round trip; the script compares lo <= x <= hi. */
		qb_buf_appendf(out, " data-lo=\"%.17g\" data-hi=\"%.17g\">", qb_question_num(q)->lo, qb_question_num(q)->hi);
		if (numeric_answer(a, out, q, lang, k) != 0) /* numeric has no choices */
			return -1;
	} else {
		qb_buf_putc(out, '>');
	}
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *c = &q->choices[i];
		bool ok = q->type == QB_QTYPE_MATCHING ? c->text.present : c->correct;
		qb_buf_puts(out, "<li");
		if (ok)
			qb_buf_puts(out, " data-ok");
		if (c->pinned && qb_question_shuffles(a->bank, q))
			qb_buf_puts(out, " data-pin");
		if (marks) /* issue 36: what picking it earns, %.17g: exact */
			qb_buf_appendf(out, " data-mark=\"%.17g\"",
			               qb_share_value(qb_choice_share(a->bank, q, i)));
		qb_buf_putc(out, '>');
		if (marks)
			option_mark(out, a->bank, q, i);
		if (q->type == QB_QTYPE_MATCHING) {
			/* "left<span class=qb-match>right</span>"; a distractor has
			 * no left side and no data-ok. */
			if (c->text.present && md(a, out, tr_text(a, &c->text, lang)) != 0)
				return -1;
			qb_buf_puts(out, "<span class=\"qb-match\">");
			if (md(a, out, tr_text(a, qb_choice_match(c), lang)) != 0)
				return -1;
			qb_buf_puts(out, "</span>");
		} else if (!c->text.present) /* true-false: the words are labels */
			qb_escape_html(out, label(a, lang, i == 0 ? "true" : "false"));
		else if (q->type == QB_QTYPE_SHORT) /* answers are plain text */
			qb_escape_html(out, tr_text(a, &c->text, lang));
		else if (md(a, out, tr_text(a, &c->text, lang)) != 0)
			return -1;
		if (feedback_html(a, out, &c->feedback, lang) != 0)
			return -1;
		qb_buf_puts(out, "</li>");
	}
	qb_buf_puts(out, "</ol>");
	/* feedback-wrong, once: the back shows it for a wrong pick without
	 * feedback of its own (without the script, always). */
	const qb_text *wrong = qb_question_feedback_wrong(q);
	const char *fbw = wrong->present ? tr_text(a, wrong, lang) : "";
	if (*fbw) {
		qb_buf_puts(out, "<small class=\"qb-fbw\">");
		if (md(a, out, fbw) != 0)
			return -1;
		qb_buf_puts(out, "</small>");
	}
	return 0;
}

static int explanation(anki *a, qb_buf *out, const qb_question *q, const char *lang)
{
	const char *text = q->explanation.present ? tr_text(a, &q->explanation, lang) : "";
	return *text ? md(a, out, text) : 0;
}

/* ==== Cloze ============================================================== */

/* A gap's place in rendered HTML: GAP_MARK, its index, GAP_END (private
 * use code points, untouched by Markdown and by finish_field). */
#define GAP_MARK "\xEE\x80\x80"
#define GAP_END "\xEE\x80\x81"

/* A cloze prompt in lang as HTML, each gap's place marked; *gaps gets the
 * gaps in order (in arena), *ngaps their number. */
static int cloze_marked(anki *a, qb_arena *arena, qb_buf *out, const qb_question *q,
                        const char *lang, const qb_cloze_gap ***gaps, size_t *ngaps)
{
	qb_cloze_part *parts = NULL;
	size_t nparts = 0, g = 0;
	int n = qb_cloze_split(arena, tr_text(a, &q->prompt, lang), &parts, &nparts);
	*gaps = qb_arena_alloc(arena, (n > 0 ? (size_t)n : 1) * sizeof **gaps);
	qb_buf marked = QB_BUF_INIT;
	for (size_t i = 0; i < nparts; i++) {
		if (parts[i].gap) {
			(*gaps)[g] = parts[i].gap;
			qb_buf_appendf(&marked, GAP_MARK "%zu" GAP_END, g++);
		} else
			qb_buf_append(&marked, parts[i].text, parts[i].len);
	}
	*ngaps = g;
	int rc = md(a, out, qb_buf_cstr(&marked));
	qb_buf_dispose(&marked);
	return rc;
}

/* Text inside Anki's {{cN::...}}: HTML-escaped, and the characters of
 * Anki's cloze and media syntax ({ } : [) as references, so an answer
 * from a bank can neither end the gap, start a hint or another gap, nor
 * become a [sound:] tag. */
static void cloze_escape(qb_buf *out, const char *s)
{
	qb_buf h = QB_BUF_INIT;
	qb_escape_html(&h, s);
	for (const char *p = qb_buf_cstr(&h); *p; p++) {
		if (*p == '{')
			qb_buf_puts(out, "&#123;");
		else if (*p == '}')
			qb_buf_puts(out, "&#125;");
		else if (*p == ':')
			qb_buf_puts(out, "&#58;");
		else if (*p == '[')
			qb_buf_puts(out, "&#91;");
		else
			qb_buf_putc(out, *p);
	}
	qb_buf_dispose(&h);
}

/* A numeric gap's accepted number as the back shows it: the author's
 * digits, a range '36.1 – 37.2', a tolerance '9.81 ± 0.05' (also
 * when written '+-'), in arena. */
static const char *numeric_gap_answer(qb_arena *arena, const qb_cloze_gap *g)
{
	const char *s = g->answers[0];
	qb_buf b = QB_BUF_INIT;
	for (const char *p = s; *p; p++) {
		if (p[0] == '.' && p[1] == '.' && g->num->range) {
			qb_buf_puts(&b, " \xE2\x80\x93 "); /* en dash */
			p++;
		} else if (p[0] == '+' && p[1] == '-') {
			qb_buf_puts(&b, "\xC2\xB1");
			p++;
		} else
			qb_buf_putc(&b, *p);
	}
	const char *out = qb_arena_strndup(arena, qb_buf_cstr(&b), b.len);
	qb_buf_dispose(&b);
	return out;
}

/* A gap's answer: a typed gap's first accepted answer, a choice gap's
 * right choice, a numeric gap's number or range (in arena). */
static const char *gap_answer(qb_arena *arena, const qb_cloze_gap *g)
{
	if (g->num)
		return numeric_gap_answer(arena, g);
	size_t i = g->choice ? g->right : 0;
	return i < g->nanswers ? g->answers[i] : "";
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A choice gap's choices as Anki's hint, "a / b / c", in sorted order:
 * the bank lists the right one first, and its place must tell nothing. */
static void cloze_hint(qb_buf *out, const qb_cloze_gap *gap)
{
	const char **sorted = qb_xcalloc(gap->nanswers ? gap->nanswers : 1, sizeof *sorted);
	for (size_t k = 0; k < gap->nanswers; k++)
		sorted[k] = gap->answers[k];
	qsort(sorted, gap->nanswers, sizeof *sorted, cmp_str);
	for (size_t k = 0; k < gap->nanswers; k++) {
		if (k)
			qb_buf_puts(out, " / ");
		cloze_escape(out, sorted[k]);
	}
	free(sorted);
}

/* Replaces the marks of html: as Anki's {{cN::answer}} (a choice gap
 * with its choices as the hint, "{{cN::right::a / b / c}}", sorted) when
 * anki is true, else as the answer underlined (the translations). */
static void cloze_fill(qb_arena *arena, qb_buf *out, const char *html,
                       const qb_cloze_gap *const *gaps, size_t ngaps, bool for_anki)
{
	const char *h = html, *m;
	while ((m = strstr(h, GAP_MARK)) != NULL) {
		const char *num = m + strlen(GAP_MARK);
		char *end = NULL;
		unsigned long g = strtoul(num, &end, 10);
		if (end == num || g >= ngaps || strncmp(end, GAP_END, strlen(GAP_END)) != 0) {
			/* Not ours (a bank's own private-use character): as is. */
			qb_buf_append(out, h, (size_t)(num - h));
			h = num;
			continue;
		}
		qb_buf_append(out, h, (size_t)(m - h));
		const qb_cloze_gap *gap = gaps[g];
		if (for_anki) {
			qb_buf_appendf(out, "{{c%lu::", g + 1);
			cloze_escape(out, gap_answer(arena, gap));
			if (gap->choice) {
				qb_buf_puts(out, "::");
				cloze_hint(out, gap);
			}
			qb_buf_puts(out, "}}");
		} else {
			qb_buf_puts(out, "<u class=\"qb-gap\">");
			qb_escape_html(out, gap_answer(arena, gap));
			qb_buf_puts(out, "</u>");
		}
		h = end + strlen(GAP_END);
	}
	qb_buf_puts(out, h);
}

/* The number of gaps (cards) of a cloze question in lang; at least 1.  A
 * parameterised one is counted in its first draw, the one its note
 * shows (add_notes() asks on its own thread: an arena of its own). */
static size_t cloze_gaps(anki *a, const qb_question *q, const char *lang)
{
	qb_arena arena = QB_ARENA_INIT;
	qb_cloze_part *parts = NULL;
	size_t nparts = 0;
	q = qb_render_draw(a->ctx, &arena, q, 0);
	int n = qb_cloze_split(&arena, tr_text(a, &q->prompt, lang), &parts, &nparts);
	qb_arena_dispose(&arena);
	return n > 0 ? (size_t)n : 1;
}

/* A cloze prompt with its answers filled in (for the translations). */
static int cloze_filled(anki *a, qb_buf *out, const qb_question *q, const char *lang)
{
	qb_arena arena = QB_ARENA_INIT;
	qb_buf html = QB_BUF_INIT;
	const qb_cloze_gap **gaps = NULL;
	size_t ngaps = 0;
	int rc = passage_html(a, out, q, lang);
	if (rc == 0)
		rc = cloze_marked(a, &arena, &html, q, lang, &gaps, &ngaps);
	if (rc == 0)
		cloze_fill(&arena, out, qb_buf_cstr(&html), gaps, ngaps, false);
	qb_buf_dispose(&html);
	qb_arena_dispose(&arena);
	return rc;
}

/* One other language in a collapsed <details>: its own name as the
 * summary (the script turns it into "Show in ..." in the card's
 * language), then its prompt, options and explanation. */
static const rendered *rendered_in(anki *a, size_t li, size_t k);
static const qb_question *drawn(anki *a, size_t k);

/* Language li's translation of draw k of the question being written
 * (a->cur; a cloze question: its first draw). */
static int translation(anki *a, qb_buf *out, size_t li, size_t k)
{
	const qb_question *q = drawn(a, k);
	const char *other = a->langs[li];
	const char *native = qb_lang_native_name(other);
	qb_buf_puts(out, "<details class=\"qb-translation\" lang=\"");
	qb_escape_html(out, other);
	qb_buf_puts(out, is_rtl(a, other) ? "\" dir=\"rtl\"><summary>" : "\"><summary>");
	qb_escape_html(out, native ? native : other);
	qb_buf_puts(out, "</summary><div class=\"qb-tr-question\">");
	if (q->type == QB_QTYPE_CLOZE) {
		if (cloze_filled(a, out, q, other) != 0)
			return -1;
		qb_buf_puts(out, "</div>");
		/* an imported question may have no explanation yet: no box */
		if (q->explanation.present) {
			qb_buf_puts(out, "<div class=\"qb-tr-explanation\">");
			if (explanation(a, out, q, other) != 0)
				return -1;
			qb_buf_puts(out, "</div>");
		}
	} else {
		const rendered *r = rendered_in(a, li, k);
		if (!r)
			return -1;
		qb_buf_append(out, r->prompt.ptr, r->prompt.len);
		qb_buf_puts(out, "</div>");
		qb_buf_append(out, r->options.ptr, r->options.len);
		if (q->explanation.present) {
			qb_buf_puts(out, "<div class=\"qb-tr-explanation\">");
			qb_buf_append(out, r->explanation.ptr, r->explanation.len);
			qb_buf_puts(out, "</div>");
		}
	}
	qb_buf_puts(out, "</details>");
	return 0;
}

/* The language the other notes carry, as an index into a->langs: the
 * bank's default language, or the first written one when --lang leaves
 * the default out. */
static size_t hub_index(const anki *a)
{
	const char *def = qb_bank_default_lang(a->bank);
	for (size_t k = 0; def && k < a->nlangs; k++)
		if (strcmp(a->langs[k], def) == 0)
			return k;
	return 0;
}

/* The linear rule: the hub language's note carries every other written
 * language; any other note carries the hub language only. */
static bool carries(const anki *a, size_t li, size_t other)
{
	return other != li && (li == a->hub || other == a->hub);
}

/* The Translation field of the note in language li: a constant number of
 * translations for every note but the hub's, so a bank in L languages
 * costs L times one language, not L squared. */
static int field_translation(anki *a, qb_buf *out, size_t li, size_t k)
{
	if (li != a->hub)
		return translation(a, out, a->hub, k);
	for (size_t o = 0; o < a->nlangs; o++)
		if (o != li && translation(a, out, o, k) != 0)
			return -1;
	return 0;
}

/* The labels script: window.qbcLabels = {lang: {key: text, ...,
 * showIn: {other: "Show in <other>"}}} for every written language; showIn
 * only for the languages its notes carry (linear in languages). */
static char *labels_script(const anki *a, size_t *len)
{
	json_t *all = json_object();
	for (size_t i = 0; i < a->nlangs; i++) {
		const char *lang = a->langs[i];
		json_t *l = json_object(), *show = json_object();
		for (size_t k = 0; k < QB_NELEM(script_labels); k++)
			json_object_set_new(l, script_labels[k],
			                    json_string(label(a, lang, script_labels[k])));
		for (size_t k = 0; k < a->nlangs; k++) {
			if (!carries(a, i, k))
				continue;
			qb_buf tmp = QB_BUF_INIT;
			show_in_label(a, &tmp, lang, a->langs[k]);
			json_object_set_new(show, a->langs[k], json_string(qb_buf_cstr(&tmp)));
			qb_buf_dispose(&tmp);
		}
		json_object_set_new(l, "showIn", show);
		json_object_set_new(all, lang, l);
	}
	char *j = json_dumps(all, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_SORT_KEYS);
	json_decref(all);
	char *s = qb_xasprintf("/* qbc card labels (templates/labels/) */\nwindow.qbcLabels = %s;\n",
	                       j ? j : "{}");
	free(j);
	*len = strlen(s);
	return s;
}

/* " <bank> lang::<code> <question tags> " (§A4.1): no spaces inside a tag,
 * each tag once. */
static char *note_tags(const qb_bank *bank, const qb_question *q, const char *lang)
{
	size_t n = 2 + q->ntags;
	char **tags = qb_xcalloc(n, sizeof *tags);
	tags[0] = qb_xstrdup(bank->id);
	tags[1] = qb_xasprintf("lang::%s", lang);
	for (size_t i = 0; i < q->ntags; i++)
		tags[2 + i] = qb_xstrdup(q->tags[i].name);
	qb_buf out = QB_BUF_INIT;
	qb_buf_putc(&out, ' ');
	for (size_t i = 0; i < n; i++) {
		for (char *c = tags[i]; *c; c++)
			if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == '\x1f')
				*c = '_';
		bool dup = tags[i][0] == '\0';
		for (size_t j = 0; j < i && !dup; j++)
			dup = strcmp(tags[i], tags[j]) == 0;
		if (!dup) {
			qb_buf_puts(&out, tags[i]);
			qb_buf_putc(&out, ' ');
		}
	}
	for (size_t i = 0; i < n; i++)
		free(tags[i]);
	free(tags);
	return qb_buf_detach(&out);
}

/* ==== The note type, decks and options =================================== */

/* req (§A3.2): for a front that uses fields without conditionals, Anki's
 * rule gives "any" of the fields the front shows. */
static json_t *template_req(const notetype_def *t, const char *qfmt)
{
	json_t *fields = json_array();
	for (size_t i = 0; i < t->nfields; i++) {
		char *plain = qb_xasprintf("{{%s}}", t->fields[i]);
		char *filtered = qb_xasprintf(":%s}}", t->fields[i]);
		if (strstr(qfmt, plain) || strstr(qfmt, filtered))
			json_array_append_new(fields, json_integer((json_int_t)i));
		free(plain);
		free(filtered);
	}
	return json_pack("[[i, s, o]]", 0, "any", fields);
}

typedef struct static_lookup {
	const anki *a;
} static_lookup;

static const char *lookup_static(void *payload, const char *name)
{
	const anki *a = ((static_lookup *)payload)->a;
	if (strcmp(name, "js") == 0)
		return a->js_name;
	if (strcmp(name, "css") == 0)
		return a->css_name;
	if (strcmp(name, "labels") == 0)
		return a->labels_name;
	return NULL;
}

/* Expands templates/anki/<rel> into a heap string, or NULL. */
static char *expand(const anki *a, const char *rel)
{
	char *tmpl = qb_template_load(a->ctx->templates_dir, rel, NULL);
	if (!tmpl)
		return NULL;
	qb_buf out = QB_BUF_INIT;
	static_lookup l = {a};
	int rc = qb_template_expand(&out, rel, tmpl, lookup_static, &l);
	free(tmpl);
	if (rc != 0) {
		qb_buf_dispose(&out);
		return NULL;
	}
	return qb_buf_detach(&out);
}

static json_t *notetype_json(const anki *a, const notetype_def *t, int64_t default_did)
{
	json_t *nt = NULL;
	char *qfmt = expand(a, t->front);
	char *afmt = expand(a, t->back);
	char *css = expand(a, "anki/notetype.css");
	if (!qfmt || !afmt || !css)
		goto done;
	json_t *flds = json_array();
	for (size_t i = 0; i < t->nfields; i++)
		json_array_append_new(
			flds, json_pack("{s:s, s:i, s:b, s:b, s:s, s:i, s:[]}", "name", t->fields[i],
			                "ord", (int)i, "sticky", 0, "rtl", 0, "font", "Arial", "size",
			                20, "media"));
	json_t *tmpls = json_pack("[{s:s, s:i, s:s, s:s, s:s, s:s, s:n, s:s, s:i}]", "name",
	                          t->tmpl_name, "ord", 0, "qfmt", qfmt, "afmt", afmt, "bqfmt", "",
	                          "bafmt", "", "did", "bfont", "", "bsize", 0);
	nt = json_object();
	json_object_set_new(nt, "id", json_integer(notetype_id(t)));
	json_object_set_new(nt, "name", json_string(t->name));
	json_object_set_new(nt, "type", json_integer(t->type));
	json_object_set_new(nt, "mod", json_integer((json_int_t)a->ctx->templates_time));
	json_object_set_new(nt, "usn", json_integer(-1));
	json_object_set_new(nt, "sortf", json_integer((json_int_t)t->sortf));
	json_object_set_new(nt, "did", json_integer(default_did));
	json_object_set_new(nt, "tmpls", tmpls);
	json_object_set_new(nt, "flds", flds);
	json_object_set_new(nt, "css", json_string(css));
	json_object_set_new(nt, "latexPre",
	                    json_string("\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n"
	                                "\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n"
	                                "\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n"
	                                "\\begin{document}\n"));
	json_object_set_new(nt, "latexPost", json_string("\\end{document}"));
	json_object_set_new(nt, "latexsvg", json_false());
	json_object_set_new(nt, "req", template_req(t, qfmt));
	json_object_set_new(nt, "tags", json_array());
	json_object_set_new(nt, "vers", json_array());
done:
	free(qfmt);
	free(afmt);
	free(css);
	return nt;
}

/* A normal deck (§A3.4). */
static json_t *deck_json(int64_t id, const char *name, const char *desc, time_t mod)
{
	return json_pack("{s:I, s:s, s:I, s:i, s:s, s:i, s:i, s:b, s:b, s:i, s:i,"
	                 " s:[i,i], s:[i,i], s:[i,i], s:[i,i]}",
	                 "id", (json_int_t)id, "name", name, "mod", (json_int_t)mod, "usn", -1,
	                 "desc", desc, "dyn", 0, "conf", 1, "collapsed", 0, "browserCollapsed", 0,
	                 "extendNew", 0, "extendRev", 0, "lrnToday", 0, 0, "revToday", 0, 0,
	                 "newToday", 0, 0, "timeToday", 0, 0);
}

static void set_id_key(json_t *obj, int64_t id, json_t *value)
{
	char key[32];
	snprintf(key, sizeof key, "%lld", (long long)id);
	json_object_set_new(obj, key, value);
}

/* Anki's default options group "1" (§A3.5). */
static json_t *dconf_json(void)
{
	json_t *g = json_pack(
		"{s:i, s:s, s:i, s:i, s:i, s:i, s:b, s:b,"
		" s:{s:[i,i], s:[i,i,i], s:i, s:b, s:i, s:i, s:b},"
		" s:{s:[i], s:i, s:i, s:i, s:i},"
		" s:{s:i, s:f, s:f, s:i, s:i, s:i, s:b, s:f}}",
		"id", 1, "name", "Default", "mod", 0, "usn", -1, "maxTaken", 60, "timer", 0,
		"autoplay", 1, "replayq", 1,
		"new", "delays", 1, 10, "ints", 1, 4, 7, "initialFactor", 2500, "separate", 1,
		"order", 1, "perDay", 20, "bury", 0,
		"lapse", "delays", 10, "mult", 0, "minInt", 1, "leechFails", 8, "leechAction", 0,
		"rev", "perDay", 200, "ease4", 1.3, "fuzz", 0.05, "minSpace", 1, "ivlFct", 1,
		"maxIvl", 36500, "bury", 0, "hardFactor", 1.2);
	return json_pack("{s:o}", "1", g);
}

/* The collection config (§A3.6). */
static json_t *conf_json(int64_t ntid, size_t ncards)
{
	char mid[32];
	snprintf(mid, sizeof mid, "%lld", (long long)ntid);
	return json_pack("{s:[i], s:i, s:i, s:i, s:i, s:b, s:b, s:s, s:I, s:s, s:b, s:b}",
	                 "activeDecks", 1, "curDeck", 1, "newSpread", 0, "collapseTime", 1200,
	                 "timeLim", 0, "estTimes", 1, "dueCounts", 1, "curModel", mid, "nextPos",
	                 (json_int_t)ncards + 1, "sortType", "noteFld", "sortBackwards", 0,
	                 "addToCur", 1);
}

/* A deck description (Anki shows it as HTML): the plain text of a bank
 * text in lang, HTML-escaped; "" if absent. */
static char *deck_desc(const anki *a, const qb_text *t, const char *lang)
{
	qb_buf p = QB_BUF_INIT, h = QB_BUF_INIT;
	qb_render_plain(&p, tr_text(a, t, lang));
	qb_escape_html(&h, qb_buf_cstr(&p));
	qb_buf_dispose(&p);
	char *out = finish_field(&h);
	qb_buf_dispose(&h);
	return out;
}

/* html, in a language written right to left inside a block that carries
 * its direction and language, so that the card reads right to left even
 * where no script runs (the cloze front has none; card.js sets dir only
 * on the card).  Left to right is the default: those notes stay lean. */
static void in_lang(const anki *a, qb_buf *out, const char *lang, const qb_buf *html)
{
	bool rtl = is_rtl(a, lang);
	if (rtl) {
		qb_buf_puts(out, "<div dir=\"rtl\" lang=\"");
		qb_escape_html(out, lang);
		qb_buf_puts(out, "\">");
	}
	if (html->len)
		qb_buf_append(out, html->ptr, html->len);
	if (rtl)
		qb_buf_puts(out, "</div>");
}

/* ==== The writer ========================================================= */

/* Starts writing q (render_note(), at its first language): no draw made
 * yet, nothing rendered. */
static void begin_question(anki *a, const qb_question *q)
{
	qb_arena_dispose(&a->draw_arena);
	a->cur = q;
	a->ndraws = qb_question_ndraws(q) ? qb_question_ndraws(q) : 1;
	if (a->ndraws > a->ndrawq) {
		free(a->drawq);
		a->drawq = qb_xcalloc(a->ndraws, sizeof *a->drawq);
		a->ndrawq = a->ndraws;
	}
	memset(a->drawq, 0, a->ndraws * sizeof *a->drawq);
	size_t need = a->ndraws * (a->nlangs ? a->nlangs : 1);
	if (need > a->ncache) {
		a->cache = qb_xrealloc(a->cache, need * sizeof *a->cache);
		memset(a->cache + a->ncache, 0, (need - a->ncache) * sizeof *a->cache);
		a->ncache = need;
	}
	for (size_t i = 0; i < need; i++)
		a->cache[i].done = false;
}

/* Draw k of the question being written, as a plain question (render.h);
 * the question itself when it is not parameterised. */
static const qb_question *drawn(anki *a, size_t k)
{
	if (!a->drawq[k])
		a->drawq[k] = qb_render_draw(a->ctx, &a->draw_arena, a->cur, k);
	return a->drawq[k];
}

/* Draw k's parts in language li, rendered at the first call for the
 * question being written (begin_question() resets the cache); NULL
 * after a diagnostic. */
static const rendered *rendered_in(anki *a, size_t li, size_t k)
{
	rendered *r = &a->cache[k * a->nlangs + li];
	if (r->done)
		return r;
	const char *lang = a->langs[li];
	const qb_question *q = drawn(a, k);
	qb_buf_clear(&r->prompt);
	qb_buf_clear(&r->options);
	qb_buf_clear(&r->explanation);
	if (passage_html(a, &r->prompt, q, lang) != 0 ||
	    md(a, &r->prompt, tr_text(a, &q->prompt, lang)) != 0 ||
	    options_list(a, &r->options, q, lang, k) != 0 ||
	    explanation(a, &r->explanation, q, lang) != 0)
		return NULL;
	r->done = true;
	return r;
}

/* Appends html, finished (finish_field()), to the note being made
 * (a->note), ended by a NUL; its offset and length there into *off and
 * *len. */
static void note_field(anki *a, const qb_buf *html, size_t *off, size_t *len)
{
	*off = a->note.len;
	finish_field_into(&a->note, html, &a->scratch[0]);
	*len = a->note.len - *off;
	qb_buf_putc(&a->note, '\0');
}

/* Sets key of obj to the text of b when it differs from same. */
static void draw_key(json_t *obj, const char *key, const qb_buf *b, const qb_buf *same)
{
	if (b->len != same->len || (b->len && memcmp(b->ptr, same->ptr, b->len) != 0))
		json_object_set_new(obj, key, json_stringn_nocheck(b->len ? b->ptr : "", b->len));
}

/* The Draws field of the note in language li (into out, JSON as HTML
 * text): for each draw of the question being written, the fields that are
 * not draw 0's (b: draw 0's fields, before finish_field()).  The card
 * script puts them in place of the note's own (templates/anki/card.js).
 * Every '<', '>' and '&' of the JSON is a \uXXXX escape, so the field is
 * text without markup or references (quotes need none there, which keeps
 * it a third smaller than &quot;), inert until then; Anki's [sound:] and
 * template syntax cannot arise from it (finish_field(), after). */
static int draws_field(anki *a, qb_buf *out, const qb_buf *b, size_t li)
{
	const char *lang = a->langs[li];
	int rc = -1;
	json_t *all = json_array();
	qb_buf q = QB_BUF_INIT, e = QB_BUF_INIT, t = QB_BUF_INIT;
	char *text = NULL;
	json_array_append_new(all, json_object()); /* draw 0: the fields */
	for (size_t k = 1; k < a->ndraws; k++) {
		const rendered *r = rendered_in(a, li, k);
		qb_buf_clear(&q);
		qb_buf_clear(&e);
		qb_buf_clear(&t);
		if (!r || field_translation(a, &t, li, k) != 0)
			goto done;
		in_lang(a, &q, lang, &r->prompt);
		if (r->explanation.len)
			in_lang(a, &e, lang, &r->explanation);
		json_t *d = json_object();
		draw_key(d, "q", &q, &b[F_QUESTION]);
		draw_key(d, "o", &r->options, &a->cache[li].options);
		draw_key(d, "e", &e, &b[F_EXPLANATION]);
		draw_key(d, "t", &t, &b[F_TRANSLATION]);
		json_array_append_new(all, d);
	}
	text = json_dumps(all, JSON_COMPACT);
	if (!text) {
		qb_diag_fatal("cannot write the draws of question '%s'", a->cur->id);
		goto done;
	}
	qb_escape_script_json(out, text);
	rc = 0;
done:
	free(text);
	json_decref(all);
	qb_buf_dispose(&q);
	qb_buf_dispose(&e);
	qb_buf_dispose(&t);
	return rc;
}

/* Builds the fields of the note for (the question being written,
 * language li) into a->note, their offsets and lengths into off[] and
 * len[]: F_COUNT fields, or D_COUNT for a parameterised question (its
 * first draw, and the others in Draws). */
static int build_fields(anki *a, size_t off[D_COUNT], size_t len[D_COUNT], size_t li)
{
	const char *lang = a->langs[li];
	const qb_question *q = a->cur;
	bool draws = qb_question_params(q) != NULL;
	size_t nfields = draws ? (size_t)D_COUNT : (size_t)F_COUNT;
	qb_buf *b = a->fields; /* reused from note to note, as finish_field()'s */
	for (size_t i = 0; i < nfields; i++)
		qb_buf_clear(&b[i]);
	qb_escape_html(&b[F_ID], a->bank->id);
	qb_buf_putc(&b[F_ID], ':');
	qb_escape_html(&b[F_ID], q->id);
	qb_buf_putc(&b[F_ID], ':');
	qb_escape_html(&b[F_ID], lang);
	qb_escape_html(&b[F_LANG], lang);
	const rendered *r = rendered_in(a, li, 0);
	if (!r || field_translation(a, &b[F_TRANSLATION], li, 0) != 0)
		return -1;
	in_lang(a, &b[F_QUESTION], lang, &r->prompt);
	if (r->explanation.len)
		in_lang(a, &b[F_EXPLANATION], lang, &r->explanation);
	if (draws && draws_field(a, &b[F_DRAWS], b, li) != 0)
		return -1;
	for (size_t i = 0; i < nfields; i++)
		note_field(a, i == F_OPTIONS ? &r->options : &b[i], &off[i], &len[i]);
	return 0;
}

/* The fields of the cloze note for (q, lang), as build_fields(), the Text
 * field with Anki's cloze syntax added after finish_field (which would
 * escape it). */
static int build_cloze_fields(anki *a, size_t off[C_COUNT], size_t len[C_COUNT], size_t li)
{
	const char *lang = a->langs[li];
	/* A parameterised cloze question shows its first draw: Anki's cloze
	 * filter makes the cards, which no script of ours can redo. */
	const qb_question *q = drawn(a, 0);
	int rc = -1;
	qb_buf b[C_COUNT];
	for (size_t i = 0; i < C_COUNT; i++)
		b[i] = (qb_buf)QB_BUF_INIT;
	qb_arena arena = QB_ARENA_INIT;
	const qb_cloze_gap **gaps = NULL;
	size_t ngaps = 0;
	qb_escape_html(&b[C_ID], a->bank->id);
	qb_buf_putc(&b[C_ID], ':');
	qb_escape_html(&b[C_ID], q->id);
	qb_buf_putc(&b[C_ID], ':');
	qb_escape_html(&b[C_ID], lang);
	qb_escape_html(&b[C_LANG], lang);
	qb_buf text_html = QB_BUF_INIT, expl_html = QB_BUF_INIT;
	if (passage_html(a, &text_html, q, lang) != 0 ||
	    cloze_marked(a, &arena, &text_html, q, lang, &gaps, &ngaps) != 0 ||
	    explanation(a, &expl_html, q, lang) != 0 ||
	    field_translation(a, &b[C_TRANSLATION], li, 0) != 0) {
		qb_buf_dispose(&text_html);
		qb_buf_dispose(&expl_html);
		goto done;
	}
	in_lang(a, &b[C_TEXT], lang, &text_html);
	if (expl_html.len)
		in_lang(a, &b[C_EXPLANATION], lang, &expl_html);
	qb_buf_dispose(&text_html);
	qb_buf_dispose(&expl_html);
	for (size_t i = 0; i < C_COUNT; i++) {
		if (i != C_TEXT) {
			note_field(a, &b[i], &off[i], &len[i]);
			continue;
		}
		qb_buf *text = &a->scratch[1];
		qb_buf_clear(text);
		finish_field_into(text, &b[i], &a->scratch[0]);
		off[i] = a->note.len;
		cloze_fill(&arena, &a->note, qb_buf_cstr(text), gaps, ngaps, true);
		len[i] = a->note.len - off[i];
		qb_buf_putc(&a->note, '\0');
	}
	rc = 0;
done:
	for (size_t i = 0; i < C_COUNT; i++)
		qb_buf_dispose(&b[i]);
	qb_arena_dispose(&arena);
	return rc;
}

/* Decks: Default, the parent, one per written language (§A3.4), into
 * a->decks; a->dids[k] is the deck of a->langs[k]. */
static int build_decks(anki *a)
{
	const qb_bank *bank = a->bank;
	time_t epoch = a->ctx->latest;
	char *parent = parent_deck_name(bank);
	char *desc = deck_desc(a, &bank->title, qb_bank_default_lang(bank));
	int64_t parent_id = deck_id(parent);
	a->decks = json_object();
	set_id_key(a->decks, 1, deck_json(1, "Default", "", epoch));
	set_id_key(a->decks, parent_id, deck_json(parent_id, parent, desc, epoch));
	free(parent);
	free(desc);
	a->dids = qb_xcalloc(a->nlangs, sizeof *a->dids);
	for (size_t k = 0; k < a->nlangs; k++) {
		char *name = lang_deck_name(a, a->langs[k]);
		char key[32];
		a->dids[k] = deck_id(name);
		snprintf(key, sizeof key, "%lld", (long long)a->dids[k]);
		if (a->dids[k] == parent_id || json_object_get(a->decks, key)) {
			/* Two 30-bit hashes of different names: never in practice. */
			qb_diag_fatal("deck id collision for '%s'", name);
			free(name);
			return -1;
		}
		char *d = deck_desc(a, &bank->description, a->langs[k]);
		set_id_key(a->decks, a->dids[k], deck_json(a->dids[k], name, d, epoch));
		free(name);
		free(d);
	}
	return 0;
}

/* q's note type: cloze for a cloze question, else drawn for a
 * parameterised one, else quiz. */
static const notetype_def *note_type(const qb_question *q)
{
	if (q->type == QB_QTYPE_CLOZE)
		return &cloze_type;
	return qb_question_params(q) ? &drawn_type : &quiz_type;
}

/* Cards per note: 1, or a cloze question's gaps in that language. */
static size_t note_ncards(anki *a, const qb_question *q, const char *lang)
{
	return q->type == QB_QTYPE_CLOZE ? cloze_gaps(a, q, lang) : 1;
}

/* The fields of a note as the renderer thread hands them to the SQLite
 * one: note k of add_notes() (question k / nlangs, language k % nlangs). */
#define MAX_FIELDS ((int)D_COUNT > (int)C_COUNT ? (int)D_COUNT : (int)C_COUNT)
typedef struct note_job {
	char *store;               /* every string of the note, one allocation */
	const char *fields[MAX_FIELDS]; /* in store                            */
	size_t lens[MAX_FIELDS];   /* their lengths                            */
	const char *guid, *tags;   /* in store                                 */
	size_t bytes;              /* store's size, for the budget             */
	int rc;                    /* 0, or -1 after a diagnostic              */
} note_job;

/* Notes rendered ahead of the inserts.  Rendering a note's fields (md4c,
 * escaping) and inserting it (SQLite) take about the same time, so the
 * renderer runs on a second thread.  It starts in qb_begin_anki(), while
 * the driver works out the revision record, and stays at most RING notes
 * and `budget` bytes of fields ahead of the inserts (ahead_budget()):
 * that bounds the memory at any size and keeps it within the build's
 * goal.  The threads signal each other only when one waits, and then
 * after half the room, not at every note.
 *
 * Each thread frees only what it allocated: the renderer frees the notes
 * already inserted before it renders the next.  A thread freeing another
 * thread's blocks takes that thread's malloc arena lock, and when the
 * inserts freed the notes the two threads met on that lock at every note. */
#define RING ((size_t)16384)
#define AHEAD_MAX ((size_t)32 << 20)
#define AHEAD_MIN ((size_t)256 << 10) /* a few notes, whatever the room */
#define AHEAD_ROOM_MIN ((size_t)48 << 20) /* less room: AHEAD_MIN */
/* The room the collection's compression ahead needs: a block in, a block
 * out and a compressor beside the final workers' (zipw.h). */
#define AHEAD_DEFLATE_ROOM ((size_t)32 << 20)
typedef struct note_pipe {
	anki *a;
	size_t nnotes;
	note_job *ring;            /* cap jobs; note k in ring[k % cap]        */
	size_t cap;
	size_t made, taken;        /* notes rendered, notes inserted           */
	size_t ahead;              /* bytes of the notes in [taken, made)      */
	size_t budget;             /* at most that many bytes ahead            */
	size_t freed;              /* notes freed (the renderer's own count)   */
	bool stop;                 /* render no more (failed inserts, or end)  */
	bool threaded;
	bool full_wait, empty_wait; /* the renderer waits for room, the
	                               inserts for a note                      */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
} note_pipe;

/* Renders note k into job. */
static void render_note(anki *a, note_job *job, size_t k)
{
	const qb_question *q = &a->bank->questions[k / a->nlangs];
	size_t li = k % a->nlangs;
	if (li == 0)
		begin_question(a, q);
	memset(job, 0, sizeof *job);
	/* The note's strings are made in a->note, then copied into one
	 * allocation (a dozen of them per note were a fifth of the
	 * renderer's time, with their frees). */
	qb_buf_clear(&a->note);
	size_t off[MAX_FIELDS] = {0}, len[MAX_FIELDS] = {0};
	const notetype_def *t = note_type(q);
	job->rc = t == &cloze_type ? build_cloze_fields(a, off, len, li) : build_fields(a, off, len, li);
	if (job->rc == 0) {
		size_t guid = a->note.len;
		note_guid(&a->note, a->bank->id, q->id, a->langs[li]);
		qb_buf_putc(&a->note, '\0');
		size_t tags = a->note.len;
		char *tg = note_tags(a->bank, q, a->langs[li]);
		qb_buf_puts(&a->note, tg);
		qb_buf_putc(&a->note, '\0');
		free(tg);
		job->store = qb_xmalloc(a->note.len);
		memcpy(job->store, a->note.ptr, a->note.len);
		for (size_t i = 0; i < t->nfields; i++) {
			job->fields[i] = job->store + off[i];
			job->lens[i] = len[i];
		}
		job->guid = job->store + guid;
		job->tags = job->store + tags;
		job->bytes = a->note.len;
	}
}

static void job_dispose(note_job *job)
{
	free(job->store);
}

/* Frees the notes before `upto` (all inserted), on the thread that made them. */
static void free_upto(note_pipe *p, size_t upto)
{
	for (; p->freed < upto; p->freed++)
		job_dispose(&p->ring[p->freed % p->cap]);
}

static bool pipe_full(const note_pipe *p, size_t cap, size_t bytes)
{
	return p->made - p->taken >= cap || p->ahead > bytes;
}

static void *renderer(void *arg)
{
	note_pipe *p = arg;
	for (size_t k = 0; k < p->nnotes; k++) {
		pthread_mutex_lock(&p->lock);
		if (!p->stop && pipe_full(p, p->cap, p->budget)) {
			p->full_wait = true;
			while (!p->stop && pipe_full(p, p->cap / 2 + 1, p->budget / 2))
				pthread_cond_wait(&p->cond, &p->lock);
			p->full_wait = false;
		}
		bool stop = p->stop;
		size_t taken = p->taken;
		pthread_mutex_unlock(&p->lock);
		if (stop)
			break;
		free_upto(p, taken);
		note_job *job = &p->ring[k % p->cap];
		render_note(p->a, job, k);
		pthread_mutex_lock(&p->lock);
		p->made++;
		p->ahead += job->bytes;
		if (p->empty_wait)
			pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (job->rc != 0)
			break; /* the inserts stop at this note */
	}
	return NULL;
}

/* How many bytes of notes may be rendered ahead: a third of the room the
 * build's memory goal leaves when the renderer starts (qb_mem_room()), at
 * most AHEAD_MAX; the other two thirds are for the steps after it (the
 * record's update, SQLite, the deflate).  The room differs with the
 * bank's shape: about 60 MiB for 10,000 questions of real texts, 17 MiB
 * for 10,000 or 100,000 short ones, whose model and record are most of
 * the goal; below AHEAD_ROOM_MIN the renderer stays a few notes ahead, as
 * the steps after it need what there is. */
static size_t ahead_budget(const char *bank_path)
{
	size_t room = qb_mem_room(bank_path);
	if (room < AHEAD_ROOM_MIN) /* the model and record take most of the goal */
		return AHEAD_MIN;
	return room / 3 > AHEAD_MAX ? AHEAD_MAX : room / 3;
}

/* Starts rendering a's notes (on a second thread when one can start). */
static note_pipe *pipe_start(anki *a)
{
	note_pipe *p = qb_xcalloc(1, sizeof *p);
	p->a = a;
	p->nnotes = a->bank->nquestions * a->nlangs;
	p->cap = p->nnotes < RING ? (p->nnotes ? p->nnotes : 1) : RING;
	p->ring = qb_xcalloc(p->cap, sizeof *p->ring);
	p->budget = ahead_budget(a->bank->path);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threaded = p->nnotes > 1 && pthread_create(&p->tid, NULL, renderer, p) == 0;
	return p;
}

/* Stops the renderer, waits for it and frees every note. */
static void pipe_end(note_pipe *p)
{
	if (!p)
		return;
	if (p->threaded) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->tid, NULL);
	}
	free_upto(p, p->made); /* the notes not freed yet, inserted or not */
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p->ring);
	free(p);
}

/* Note k, once rendered.  The renderer stops early only after a failed
 * note, which it hands over first. */
static note_job *next_note(note_pipe *p, size_t k)
{
	note_job *job = &p->ring[k % p->cap];
	if (!p->threaded) {
		free_upto(p, k);
		render_note(p->a, job, k);
		p->made++;
		return job;
	}
	pthread_mutex_lock(&p->lock);
	p->empty_wait = true;
	while (p->made == k)
		pthread_cond_wait(&p->cond, &p->lock);
	p->empty_wait = false;
	pthread_mutex_unlock(&p->lock);
	return job;
}

/* Note k was inserted. */
static void note_done(note_pipe *p, const note_job *job)
{
	if (!p->threaded) {
		p->taken++;
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->taken++;
	p->ahead -= job->bytes;
	if (p->full_wait && !pipe_full(p, p->cap / 2 + 1, p->budget / 2))
		pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* One note per (question, language), in bank order, languages
 * interleaved; one new card per note, or one per gap of a cloze note
 * (ord = gap number - 1).  That order is also the cards' due position.
 * *ncards gets the number of cards, *has_cloze whether a cloze note was
 * written.  The notes are rendered on a second thread (note_pipe). */
static int add_notes(anki *a, qb_anki_db *db, int64_t base_ms, size_t *ncards, bool *has_cloze,
                     bool *has_drawn)
{
	const qb_bank *bank = a->bank;
	size_t nnotes = bank->nquestions * a->nlangs, total = 0, j = 0;
	for (size_t qi = 0; qi < bank->nquestions; qi++)
		for (size_t li = 0; li < a->nlangs; li++)
			total += note_ncards(a, &bank->questions[qi], a->langs[li]);
	*ncards = total;
	*has_cloze = *has_drawn = false;
	note_pipe *p = a->pipe;
	int rc = 0;
	for (size_t k = 0; k < nnotes && rc == 0; k++) {
		const qb_question *q = &bank->questions[k / a->nlangs];
		size_t li = k % a->nlangs;
		const char *lang = a->langs[li];
		const notetype_def *t = note_type(q);
		*has_cloze |= t == &cloze_type;
		*has_drawn |= t == &drawn_type;
		note_job *job = next_note(p, k);
		if ((rc = job->rc) != 0)
			break;
		time_t mod = qb_render_question_time(a->ctx, q);
		/* Ids below the base, so none is in the future (§A4.3):
		 * notes just below it, cards below the notes. */
		int64_t nid = base_ms - (int64_t)nnotes + (int64_t)k;
		qb_anki_note note = {nid, job->guid, notetype_id(t), (int64_t)mod, job->tags,
		                     job->fields, job->lens, t->nfields, t->sortf};
		rc = qb_anki_db_add_note(db, &note);
		size_t n = note_ncards(a, q, lang);
		for (size_t ord = 0; ord < n && rc == 0; ord++, j++) {
			int64_t cid = base_ms - (int64_t)nnotes - (int64_t)total + (int64_t)j;
			qb_anki_card card = {cid, nid, a->dids[li], (int)ord, (int64_t)mod,
			                     (int64_t)j + 1};
			rc = qb_anki_db_add_card(db, &card);
		}
		note_done(p, job);
	}
	return rc == 0 ? 0 : -1;
}

static void col_wrote(void *ahead, uint64_t off, uint64_t len)
{
	qb_zipw_ahead_wrote(ahead, off, len);
}

/* The whole collection.anki2 (anki_db.c) into the scratch file col,
 * compressed ahead (ahead, unless NULL) while SQLite writes it. */
static int build_collection(anki *a, const char *col, qb_zipw_ahead *ahead)
{
	int rc = -1;
	qb_anki_db *db = NULL;
	json_t *models = NULL, *dconf = NULL, *conf = NULL;
	int64_t base_ms = id_base_ms(a->ctx);
	size_t ncards = 0;
	bool has_cloze = false, has_drawn = false;

	db = qb_anki_db_new(col, ahead ? col_wrote : NULL, ahead);
	if (!db || add_notes(a, db, base_ms, &ncards, &has_cloze, &has_drawn) != 0)
		goto done;
	models = json_object();
	json_t *nt = notetype_json(a, &quiz_type, a->nlangs ? a->dids[0] : 1);
	if (!nt)
		goto done;
	set_id_key(models, notetype_id(&quiz_type), nt);
	/* The cloze note type only where a bank has cloze questions. */
	if (has_cloze) {
		nt = notetype_json(a, &cloze_type, a->nlangs ? a->dids[0] : 1);
		if (!nt)
			goto done;
		set_id_key(models, notetype_id(&cloze_type), nt);
	}
	/* The drawn note type only where a bank has parameterised questions. */
	if (has_drawn) {
		nt = notetype_json(a, &drawn_type, a->nlangs ? a->dids[0] : 1);
		if (!nt)
			goto done;
		set_id_key(models, notetype_id(&drawn_type), nt);
	}
	dconf = dconf_json();
	conf = conf_json(notetype_id(&quiz_type), ncards);
	/* crt: the start of the UTC day of the ids' base, in seconds. */
	qb_anki_col c = {base_ms / 1000 / 86400 * 86400, base_ms, conf, models, a->decks, dconf};
	if (qb_anki_db_set_col(db, &c) != 0 || qb_anki_db_finish(db, col) != 0)
		goto done;
	rc = 0;
done:
	qb_anki_db_free(db);
	json_decref(models);
	json_decref(dconf);
	json_decref(conf);
	return rc;
}

/* The package (§A1): collection.anki2, the media map, then the media as
 * 0, 1, 2, ... in map order (the static files, then the pictures); every
 * member with the latest time of the record.  Once the collection is
 * compressed, its scratch file is removed while the rest is written
 * (*removal). */
static int write_package(const anki *a, const char *col, qb_zipw_ahead **ahead,
                         qb_fs_removal **removal)
{
	int rc = -1;
	json_t *map = json_object();
	char *map_text = NULL;
	qb_zipw *zip = NULL;
	char key[32];
	size_t n = a->nstatics + a->images.nfiles;

	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "%zu", i);
		const char *name = i < a->nstatics ? a->statics[i].name
		                                   : a->images.files[i - a->nstatics].name;
		json_object_set_new(map, key, json_string(name));
	}
	map_text = json_dumps(map, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!map_text) {
		qb_diag_fatal("cannot write the media map of '%s'", a->ctx->path);
		goto done;
	}
	zip = qb_zipw_open(a->ctx->path, a->ctx->latest);
	if (!zip)
		goto done;
	qb_zipw_ahead *h = *ahead;
	*ahead = NULL; /* freed by the add, whatever happens */
	if ((h ? qb_zipw_add_ahead(zip, "collection.anki2", h)
	       : qb_zipw_add_file(zip, "collection.anki2", col, true)) != 0)
		goto done;
	*removal = qb_fs_remove_async(col);
	if (qb_zipw_add(zip, "media", map_text, strlen(map_text), true) != 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof key, "%zu", i);
		int r;
		if (i < a->nstatics)
			r = qb_zipw_add(zip, key, a->statics[i].data, a->statics[i].len, true);
		else {
			const qb_media *m = &a->images.files[i - a->nstatics];
			r = qb_zipw_add(zip, key, m->data, m->len, worth_compressing(m->name));
		}
		if (r != 0)
			goto done;
	}
	qb_zipw *z = zip;
	zip = NULL; /* commit frees it, whatever happens */
	if (qb_zipw_commit(z) != 0)
		goto done;
	rc = 0;
done:
	qb_zipw_discard(zip);
	free(map_text);
	json_decref(map);
	return rc;
}

/* Before the record is known: the pictures, the static files (the note
 * type refers to their names) and the notes' renderer. */
void *qb_begin_anki(const qb_render_ctx *ctx, const qb_bank *bank)
{
	anki *a = qb_xcalloc(1, sizeof *a);
	*a = (anki){.ctx = ctx, .bank = bank, .langs = ctx->langs, .nlangs = ctx->nlangs, .rc = -1};
	a->hub = hub_index(a);
	a->ncache = ctx->nlangs ? ctx->nlangs : 1;
	a->cache = qb_xcalloc(a->ncache, sizeof *a->cache);
	if (qb_render_media(ctx, media_name, &a->images) != 0)
		return a;
	a->css_name = add_static(a, "anki/card.css", "card", "css");
	size_t llen = 0;
	char *labels = labels_script(a, &llen);
	a->labels_name = add_static_data(a, labels, llen, "labels", "js");
	a->js_name = add_static(a, "anki/card.js", "card", "js");
	if (!a->css_name || !a->js_name)
		return a;
	a->pipe = pipe_start(a);
	a->rc = 0;
	return a;
}

void qb_end_anki(void *early)
{
	anki *a = early;
	pipe_end(a->pipe);
	json_decref(a->decks);
	for (size_t i = 0; i < a->nstatics; i++) {
		free(a->statics[i].name);
		free(a->statics[i].data);
	}
	qb_media_set_dispose(&a->images);
	free(a->dids);
	for (size_t i = 0; i < a->ncache; i++) {
		qb_buf_dispose(&a->cache[i].prompt);
		qb_buf_dispose(&a->cache[i].options);
		qb_buf_dispose(&a->cache[i].explanation);
	}
	free(a->cache);
	free(a->drawq);
	qb_arena_dispose(&a->draw_arena);
	for (size_t i = 0; i < D_COUNT; i++)
		qb_buf_dispose(&a->fields[i]);
	qb_buf_dispose(&a->scratch[0]);
	qb_buf_dispose(&a->scratch[1]);
	qb_buf_dispose(&a->note);
	free(a);
}

int qb_write_anki(const qb_render_ctx *ctx, const qb_bank *bank)
{
	QB_UNUSED(bank);
	anki *a = ctx->early; /* qb_begin_anki(), which the render layer calls first */
	if (a->rc != 0)
		return -1;
	/* The collection is built in a scratch file next to the package. */
	char *col = qb_fs_tmpname(ctx->path);
	if (!col) {
		qb_diag_fatal("cannot create a file next to '%s': %s", ctx->path, strerror(errno));
		return -1;
	}
	/* Compressed ahead, from its second page (the first, SQLite's header
	 * and schema, changes until the end), when the memory goal leaves
	 * room for the compressor's buffers beside the renderer's. */
	qb_zipw_ahead *ahead = qb_mem_room(a->bank->path) >= AHEAD_DEFLATE_ROOM
	                           ? qb_zipw_ahead_new(col, QB_ANKI_DB_PAGE_SIZE)
	                           : NULL;
	qb_fs_removal *removal = NULL;
	int rc = build_decks(a) != 0 || build_collection(a, col, ahead) != 0 ||
	                 write_package(a, col, &ahead, &removal) != 0
	             ? -1
	             : 0;
	qb_zipw_ahead_free(ahead);
	qb_fs_removal_wait(removal);
	unlink(col); /* when the package failed before its removal began */
	free(col);
	return rc;
}
