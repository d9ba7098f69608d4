/* write_scorm.c - SCORM 1.2 and SCORM 2004 4th Edition packages for Moodle.
 *
 * A package is one SCO: the static player from templates/scorm/ (index.html,
 * player.css, player.js), the bank's data in a generated data.js, the
 * bank's images under media/, and imsmanifest.xml (scorm_manifest.c).  The
 * texts are rendered to HTML by the render layer (render.h; raw HTML is
 * escaped by md4c) and written as JSON with jansson, escaped for a
 * <script> context; the labels are those of templates/labels/ that the
 * player reads.
 *
 * Saved state (cmi.suspend_data), format 2, as player.js writes it:
 *
 *     2|<lang>|<pos>|<seed>|<drawn>|<answer>,<answer>,...
 *     answer = <key>.<fp>.<value>
 *     value  = option letters (single, multiple; true-false: a true, b false)
 *            | <length>:<typed text> (short-answer, numeric; no escaping)
 *            | one right-side letter per pair, in pair order (matching)
 *            | per gap, a choice letter or <length>:<typed text> (cloze)
 *
 * A typed text is at most typed_cap() UTF-16 units (the player's
 * maxlength), so max_state can count it.  <seed> (SEED_LEN base-36
 * digits, "" when nothing is shuffled or drawn) fixes the attempt's
 * question order, option order and draw; <drawn> lists the keys of the
 * drawn questions in the order shown (only with 'draw:'), so only they
 * count towards max_state.  Format 1 (no seed or draw) is still read.
 *
 * <key> is the first hex digits of SHA-256(question id) (KEY_MIN_HEX, more
 * when two questions of the bank would collide), so answers survive
 * questions being added, removed or reordered.  <fp> is a 4-hex-digit
 * fingerprint of the question's options; when the options change, the old
 * answer no longer matches and is dropped.  (Where the player keeps its
 * state outside an LMS, in the offline HTML file, <fp> is instead
 * CONTENT_FP_HEX digits of a hash of everything the player gets of the
 * question, so any change drops the answer: qb_scorm_player_data().)
 * <letters> are the chosen
 * option ids.  <pos> is the key of the current question, "" for the start
 * screen or "*" for the summary.  The largest state the bank can produce is
 * computed here (max_state) and must stay within the SCORM 1.2 limit.
 *
 * Option ids are the letters a, b, c, ... by authored position.  They fit
 * both SCORM 1.2's CMIFeedback for choice (one character 0-9a-z per choice)
 * and SCORM 2004's CMIShortIdentifier ([A-Za-z0-9_.]), and a teacher reads
 * them in Moodle's Interactions report as the letters the player shows.
 * Options have no authored ids, so a hash of the text would change with
 * every typo fix; the meaning of a letter is instead pinned by <fp> above.
 * Interaction ids are the authored question ids; the manifest identifiers
 * are derived from the bank id (scorm_manifest.h). */
#include "write.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "params.h"
#include "render.h"
#include "scorm_manifest.h"
#include "template.h"
#include "write_scorm.h"
#include "zipw.h"

/* ---- limits ---- */

#define STATE_FORMAT 2         /* first field of the saved state            */
#define SEED_LEN 6             /* base-36 digits of an attempt's seed       */
#define KEY_MIN_HEX 6          /* hex digits of a question key              */
#define FP_HEX 4               /* hex digits of an options fingerprint      */
#define CONTENT_FP_HEX 8       /* ... of a content one (no state limit)     */
#define MAX_OPTIONS 26         /* option ids are the letters a..z: SCORM 1.2
                                  CMIFeedback allows one character per choice,
                                  2004 choice responses need [A-Za-z0-9_.]  */
#define TYPED_MIN 32           /* typed answers: at least this many UTF-16
                                  units may be typed ...                    */
#define TYPED_MAX 250          /* ... at most this many (2004 fill-in: 250)  */
#define NUMBER_CAP 32          /* a typed number                            */
#define SCORM12_STATE_MAX 4096 /* CMIString4096, Moodle's standards mode     */
#define SCORM2004_STATE_MAX 64000 /* SCORM 2004 cmi.suspend_data SPM       */

#define LAUNCH "index.html"

/* KaTeX (Debian's libjs-katex), copied into packages whose bank has math:
 * $QBC_KATEX, else this folder. */
#define KATEX_DIR "/usr/share/javascript/katex"
static const char *const katex_files[] = {"katex.min.js", "katex.min.css"};

/* The static player files copied from templates/scorm/ as they are. */
static const char *const static_files[] = {"player.css", "player.js"};

/* The labels the player reads (player.js, L()), in data.js order;
 * "languageNames" follows them. */
static const char *const player_labels[] = {
	"language", "start", "resume", "questionCount", "passInfo", "questionOf", "chooseOne",
	"chooseMany", "check", "next", "previous", "results", "correct", "wrong",
	"correctOption", "yourChoice", "explanation", "showIn", "hideIn", "announceCorrect",
	"announceWrong", "summary", "score", "scoreDetail", "passed", "failed", "completed",
	"review", "yourAnswer", "notAnswered", "backToQuestion", "tryAgain", "saveError", "saved",
	"standalone", "true", "false", "typeAnswer", "typeNumber", "notANumber", "acceptedAnswers",
	"matchPrompt", "matchChoose", "gap", "partialScore", "partlyCorrect", "colon", "listSep",
	"decimalMark", "letters", "updated", "updatedChanged", "updatedRemoved", "drawOf",
	"nextDraw",
};

typedef struct ctx {
	const qb_render_ctx *r;
	const qb_bank *bank;
	qb_scorm_version version;
	const char *const *langs; /* written languages, in bank order          */
	size_t nlangs;
	qb_media_set media;       /* the bank's pictures (render.h)            */
	bool failed;              /* a text could not be rendered (reported)   */
	bool content_fp;          /* fingerprints cover the whole question
	                             (qb_scorm_player_data())                  */
	const char *const *extra; /* more labels to write, NULL-terminated     */
} ctx;

/* ---- images ---- */

/* ---- JSON helpers ---- */

/* Sets o[key] to v (consumed); a NULL v (invalid UTF-8) becomes "". */
static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v ? v : json_string(""));
}

/* {lang: html, ...} for the selected languages, or JSON null when the text
 * is absent. */
static json_t *html_map(ctx *c, const qb_text *t)
{
	if (!t->present)
		return json_null();
	json_t *o = json_object();
	qb_buf html = QB_BUF_INIT;
	for (size_t i = 0; i < c->nlangs; i++) {
		qb_buf_clear(&html);
		if (qb_render_html(c->r, &html, qb_render_md(c->r, t, c->langs[i]), &c->media) != 0)
			c->failed = true;
		set(o, c->langs[i], json_stringn(qb_buf_cstr(&html), html.len));
	}
	qb_buf_dispose(&html);
	return o;
}

/* {lang: plain text, ...} for the selected languages. */
static json_t *plain_map(ctx *c, const qb_text *t)
{
	json_t *o = json_object();
	qb_buf txt = QB_BUF_INIT;
	for (size_t i = 0; i < c->nlangs; i++) {
		qb_buf_clear(&txt);
		qb_render_plain(&txt, qb_render_md(c->r, t, c->langs[i]));
		set(o, c->langs[i], json_stringn(qb_buf_cstr(&txt), txt.len));
	}
	qb_buf_dispose(&txt);
	return o;
}

/* ---- saved-state keys ---- */

typedef char hexkey[2 * QB_SHA256_SIZE + 1];

static int cmp_keys(const void *a, const void *b)
{
	return strcmp(*(const hexkey *)a, *(const hexkey *)b);
}

/* The shortest key length (>= KEY_MIN_HEX) at which the questions' keys
 * are all different: the keys at full length, sorted once, then for each
 * length only neighbours can share a prefix. */
static size_t key_hex_len(const qb_bank *bank)
{
	size_t nq = bank->nquestions;
	hexkey *keys = qb_xcalloc(nq ? nq : 1, sizeof *keys);
	for (size_t i = 0; i < nq; i++) {
		const char *id = bank->questions[i].id ? bank->questions[i].id : "";
		qb_hash_sha256_hex(keys[i], QB_SHA256_SIZE, id, strlen(id));
	}
	qsort(keys, nq, sizeof *keys, cmp_keys);
	size_t n = KEY_MIN_HEX;
	for (; n < 2 * QB_SHA256_SIZE; n += 2) {
		bool clash = false;
		for (size_t i = 1; i < nq && !clash; i++)
			clash = strncmp(keys[i - 1], keys[i], n) == 0;
		if (!clash)
			break;
	}
	free(keys);
	return n;
}

/* A fingerprint of what the option ids of q mean: the type, and for each
 * option in order, whether it is correct and its text in the default
 * language.  A draw of a question with variables (drawn) adds its prompt,
 * which shows its numbers: a new pool drops an answer given to other
 * numbers, whatever its type. */
static void fingerprint(char out[FP_HEX + 1], const qb_bank *bank, const qb_question *q,
                        bool drawn)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_puts(&b, qb_qtype_name(q->type));
	for (size_t i = 0; i < q->nchoices; i++) {
		const char *t = qb_text_get(&q->choices[i].text, qb_bank_default_lang(bank));
		const char *m = qb_text_get(qb_choice_match(&q->choices[i]), qb_bank_default_lang(bank));
		qb_buf_appendf(&b, "\x1f%c%s", q->choices[i].correct ? '*' : '-', t ? t : "");
		if (m)
			qb_buf_appendf(&b, "\x1e%s", m);
	}
	if (q->type == QB_QTYPE_CLOZE || drawn) { /* the gaps, the numbers */
		const char *p = qb_text_get(&q->prompt, qb_bank_default_lang(bank));
		qb_buf_appendf(&b, "\x1d%s", p ? p : "");
	}
	qb_hash_sha256_hex(out, FP_HEX / 2, qb_buf_cstr(&b), b.len);
	qb_buf_dispose(&b);
}

/* ---- the data ---- */

static void add_name(void *names, const char *code, const char *name)
{
	set(names, code, json_string(name));
}

/* The labels the player uses, for each written language (render.h).
 * languageNames holds the names the language's catalogue has; for the
 * others the player shows a language's own name (langNames), as
 * qb_render_lang_name() does, so the data stays linear in languages. */
static json_t *labels(const ctx *c)
{
	json_t *out = json_object();
	for (size_t i = 0; i < c->nlangs; i++) {
		const char *lang = c->langs[i];
		json_t *l = json_object(), *names = json_object();
		for (size_t k = 0; k < QB_NELEM(player_labels); k++)
			set(l, player_labels[k], json_string(qb_render_label(c->r, lang, player_labels[k])));
		for (const char *const *k = c->extra; k && *k; k++)
			set(l, *k, json_string(qb_render_label(c->r, lang, *k)));
		qb_render_lang_names(c->r, lang, add_name, names);
		set(l, "languageNames", names);
		set(out, lang, l);
	}
	return out;
}

/* The first tag of q, its group when drawing per tag ("" for none). */
static const char *draw_tag(const qb_question *q)
{
	return q->ntags ? q->tags[0].name : "";
}

/* The length of s in UTF-16 code units, as JavaScript counts it (the
 * saved state and an input's maxlength count the same way). */
static size_t js_length(const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xC0) != 0x80)
			n += *p >= 0xF0 ? 2 : 1;
	return n;
}

/* The most a learner may type into an answer box whose accepted or listed
 * answers are at most longest long: twice that, at least TYPED_MIN, at
 * most TYPED_MAX.  The player enforces it (maxlength) and max_state
 * counts it. */
static size_t typed_cap(size_t longest)
{
	size_t cap = 2 * longest;
	return cap < TYPED_MIN ? TYPED_MIN : cap > TYPED_MAX ? TYPED_MAX : cap;
}

/* The saved size of a typed answer of at most cap characters: "<len>:"
 * then the text. */
static size_t typed_state(size_t cap)
{
	size_t digits = 1;
	for (size_t n = cap; n >= 10; n /= 10)
		digits++;
	return digits + 1 + cap;
}

/* {lang: text as written, ...}: answer texts are plain text. */
static json_t *raw_map(ctx *c, const qb_text *t)
{
	json_t *o = json_object();
	for (size_t i = 0; i < c->nlangs; i++)
		set(o, c->langs[i], json_string(qb_render_md(c->r, t, c->langs[i])));
	return o;
}

/* The longest text of t in the written languages, in UTF-16 units. */
static size_t longest_text(const qb_render_ctx *r, const qb_text *t)
{
	size_t m = 0;
	for (size_t i = 0; i < r->nlangs; i++) {
		size_t n = js_length(qb_render_md(r, t, r->langs[i]));
		m = n > m ? n : m;
	}
	return m;
}

/* A cloze question's gaps as the player keeps them: for gap i, whether it
 * is a choice (choice[i]) and its longest answer in any written language
 * (longest[i], UTF-16 units).  Returns the number of gaps; the arrays are
 * in a. */
static size_t gap_lengths(const qb_render_ctx *r, const qb_question *q, qb_arena *a,
                          size_t **longest, bool **choice)
{
	size_t ngaps = 0;
	*longest = NULL;
	*choice = NULL;
	for (size_t l = 0; l < r->nlangs; l++) {
		qb_cloze_part *parts = NULL;
		size_t nparts = 0, g = 0;
		qb_cloze_split(a, qb_render_md(r, &q->prompt, r->langs[l]), &parts, &nparts);
		if (!*longest) { /* the first language's gaps; the others have as many */
			for (size_t i = 0; i < nparts; i++)
				ngaps += parts[i].gap != NULL;
			*longest = qb_arena_alloc(a, (ngaps + 1) * sizeof **longest);
			*choice = qb_arena_alloc(a, (ngaps + 1) * sizeof **choice);
			memset(*longest, 0, (ngaps + 1) * sizeof **longest);
		}
		for (size_t i = 0; i < nparts && g < ngaps; i++) {
			const qb_cloze_gap *gap = parts[i].gap;
			if (!gap)
				continue;
			if (l == 0)
				(*choice)[g] = gap->choice;
			for (size_t k = 0; k < gap->nanswers; k++) {
				size_t n = js_length(gap->answers[k]);
				(*longest)[g] = n > (*longest)[g] ? n : (*longest)[g];
			}
			if (gap->num && (*longest)[g] < NUMBER_CAP / 2) /* typed_cap(): NUMBER_CAP */
				(*longest)[g] = NUMBER_CAP / 2;
			g++;
		}
	}
	return ngaps;
}

/* The largest answer to q, a plain question, the saved state can hold
 * (the part after "<key>.<fp>."). */
static size_t plain_answer_state(const qb_render_ctx *r, const qb_question *q)
{
	switch (q->type) {
	case QB_QTYPE_MULTIPLE:
		return q->nchoices;
	case QB_QTYPE_SHORT: {
		size_t longest = 0;
		for (size_t i = 0; i < q->nchoices; i++) {
			size_t n = longest_text(r, &q->choices[i].text);
			longest = n > longest ? n : longest;
		}
		return typed_state(typed_cap(longest));
	}
	case QB_QTYPE_NUMERIC:
		return typed_state(NUMBER_CAP);
	case QB_QTYPE_MATCHING: {
		size_t pairs = 0;
		for (size_t i = 0; i < q->nchoices; i++)
			pairs += q->choices[i].text.present;
		return pairs;
	}
	case QB_QTYPE_CLOZE: {
		qb_arena a = QB_ARENA_INIT;
		size_t *longest, total = 0;
		bool *choice;
		size_t n = gap_lengths(r, q, &a, &longest, &choice);
		for (size_t i = 0; i < n; i++)
			total += choice[i] ? 1 : typed_state(typed_cap(longest[i]));
		qb_arena_dispose(&a);
		return total;
	}
	default:
		return 1;
	}
}

/* The same for any question: a parameterised one's largest over its
 * draws, where typed answers are capped by the draw's texts (short
 * answer, cloze); the other types save as much in every draw. */
static size_t answer_state(const qb_render_ctx *r, const qb_question *q)
{
	size_t n = qb_question_ndraws(q), most = 0;
	if (n == 0 || (q->type != QB_QTYPE_SHORT && q->type != QB_QTYPE_CLOZE))
		return plain_answer_state(r, q);
	for (size_t k = 0; k < n; k++) {
		qb_arena a = QB_ARENA_INIT;
		size_t st = plain_answer_state(r, qb_render_draw(r, &a, q, k));
		most = st > most ? st : most;
		qb_arena_dispose(&a);
	}
	return most;
}

/* An accepted number, a numeric question's or a numeric gap's, as the
 * player scores it and shows it. */
static json_t *numeric_json(const qb_numeric *num)
{
	json_t *n = json_object();
	set(n, "value", json_real(num->value));
	set(n, "tol", json_real(num->tol));
	set(n, "min", json_real(num->lo));
	set(n, "max", json_real(num->hi));
	set(n, "percent", json_boolean(num->percent));
	set(n, "range", json_boolean(num->range));
	return n;
}

#define GAP_MARK "\xEE\x80\x80" /* U+E000, then the gap's number, then U+E001 */
#define GAP_END "\xEE\x80\x81"

/* A cloze prompt: {prompt: {lang: html with <span class="gap"
 * data-gap="i"></span>}, promptText, gaps: [{choice, answers: {lang:
 * [...]}, right, cap}]}; *state gets the largest saved answer. */
static void cloze_json(ctx *c, const qb_question *q, json_t *o)
{
	json_t *prompt = json_object(), *text = json_object(), *gaps = json_array();
	qb_buf md = QB_BUF_INIT, html = QB_BUF_INIT, out = QB_BUF_INIT;
	qb_arena arena = QB_ARENA_INIT;
	for (size_t l = 0; l < c->nlangs; l++) {
		qb_cloze_part *parts = NULL;
		size_t nparts = 0, g = 0;
		qb_buf_clear(&md);
		qb_cloze_split(&arena, qb_render_md(c->r, &q->prompt, c->langs[l]), &parts, &nparts);
		for (size_t i = 0; i < nparts; i++) {
			if (!parts[i].gap) {
				qb_buf_append(&md, parts[i].text, parts[i].len);
				continue;
			}
			const qb_cloze_gap *gap = parts[i].gap;
			qb_buf_appendf(&md, GAP_MARK "%zu" GAP_END, g);
			json_t *jg = json_array_get(gaps, g);
			if (!jg) {
				jg = json_object();
				set(jg, "choice", json_boolean(gap->choice));
				if (gap->num) /* the same number in every language */
					set(jg, "num", numeric_json(gap->num));
				set(jg, "answers", json_object());
				set(jg, "right", json_object());
				json_array_append_new(gaps, jg);
			}
			json_t *ans = json_array();
			for (size_t k = 0; k < gap->nanswers; k++)
				json_array_append_new(ans, json_string(gap->answers[k]));
			json_object_set_new(json_object_get(jg, "answers"), c->langs[l], ans);
			json_object_set_new(json_object_get(jg, "right"), c->langs[l],
			                    json_integer((json_int_t)gap->right));
			g++;
		}
		qb_buf_clear(&html);
		if (qb_render_html(c->r, &html, qb_buf_cstr(&md), &c->media) != 0)
			c->failed = true;
		/* The marks become the places of the gaps. */
		qb_buf_clear(&out);
		const char *h = qb_buf_cstr(&html), *m;
		while ((m = strstr(h, GAP_MARK)) != NULL) {
			qb_buf_append(&out, h, (size_t)(m - h));
			const char *e = strstr(m, GAP_END);
			if (!e)
				break;
			qb_buf_appendf(&out, "<span class=\"gap\" data-gap=\"%d\"></span>",
			               (int)strtol(m + strlen(GAP_MARK), NULL, 10));
			h = e + strlen(GAP_END);
		}
		qb_buf_puts(&out, h);
		set(prompt, c->langs[l], json_stringn(qb_buf_cstr(&out), out.len));
		qb_buf_clear(&html);
		qb_render_plain(&html, qb_buf_cstr(&md));
		qb_buf_clear(&out);
		h = qb_buf_cstr(&html);
		while ((m = strstr(h, GAP_MARK)) != NULL) {
			qb_buf_append(&out, h, (size_t)(m - h));
			const char *e = strstr(m, GAP_END);
			if (!e)
				break;
			qb_buf_puts(&out, "___");
			h = e + strlen(GAP_END);
		}
		qb_buf_puts(&out, h);
		set(text, c->langs[l], json_stringn(qb_buf_cstr(&out), out.len));
	}
	size_t *longest, i;
	bool *choice;
	size_t ngaps = gap_lengths(c->r, q, &arena, &longest, &choice);
	json_t *jg;
	json_array_foreach(gaps, i, jg)
		set(jg, "cap", json_integer((json_int_t)typed_cap(i < ngaps ? longest[i] : 0)));
	set(o, "prompt", prompt);
	set(o, "promptText", text);
	set(o, "gaps", gaps);
	qb_arena_dispose(&arena);
	qb_buf_dispose(&md);
	qb_buf_dispose(&html);
	qb_buf_dispose(&out);
}

/* The question's data. */
/* A numeric question's further answers: each interval, its credit
 * (percent) and its feedback; the player scores with the best that holds
 * the learner's number. */
static json_t *num_more_json(ctx *c, const qb_question *q)
{
	json_t *arr = json_array();
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		json_t *n = numeric_json(&m->num);
		set(n, "credit", json_real(m->credit));
		set(n, "feedback", html_map(c, &m->feedback));
		json_array_append_new(arr, n);
	}
	return arr;
}

/* The player's object of q, a question of the bank or one draw of it
 * (qb_render_draw(), drawn); id: the bank question's. */
static json_t *one_question_json(ctx *c, const qb_question *q, const char *qid, size_t keylen,
                                 bool drawn)
{
	json_t *o = json_object();
	char key[2 * QB_SHA256_SIZE + 1], fp[FP_HEX + 1];
	qb_hash_sha256_hex(key, keylen / 2, qid, strlen(qid));
	fingerprint(fp, c->bank, q, drawn);
	set(o, "id", json_string(qid));
	set(o, "key", json_string(key));
	if (!c->content_fp)
		set(o, "fp", json_string(fp));
	set(o, "type", json_string(qb_qtype_name(q->type)));
	set(o, "partial", json_boolean(qb_question_scoring(c->bank, q) == QB_SCORING_PARTIAL));
	set(o, "shuffle", json_boolean(qb_question_shuffles(c->bank, q)));
	bool marks = qb_question_has_marks(q);
	if (marks)
		set(o, "marks", json_true());
	set(o, "tag", json_string(draw_tag(q)));
	const qb_passage *passage = qb_question_passage(c->bank, q);
	if (passage && passage->id)
		set(o, "passage", json_string(passage->id));
	if (q->type == QB_QTYPE_CLOZE) {
		cloze_json(c, q, o);
	} else {
		set(o, "prompt", html_map(c, &q->prompt));
		set(o, "promptText", plain_map(c, &q->prompt));
	}
	json_t *opts = json_array();
	size_t longest = 0;
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		json_t *oo = json_object();
		char id[2] = {(char)('a' + i), '\0'};
		set(oo, "id", json_string(id));
		set(oo, "correct", json_boolean(ch->correct));
		set(oo, "pinned", json_boolean(ch->pinned));
		if (marks) { /* issue 36: what picking it earns; the paper key's words */
			char st[40];
			qb_share sh = qb_choice_share(c->bank, q, i);
			set(oo, "mark", json_real(qb_share_value(sh)));
			set(oo, "markText", json_string(qb_share_text(sh, st, sizeof st)));
		}
		if (q->type == QB_QTYPE_SHORT) {
			set(oo, "text", raw_map(c, &ch->text));
			size_t n = longest_text(c->r, &ch->text);
			longest = n > longest ? n : longest;
		} else {
			set(oo, "text", html_map(c, &ch->text));
		}
		if (q->type == QB_QTYPE_MATCHING) {
			set(oo, "match", html_map(c, qb_choice_match(ch)));
			/* The id of the first right side with the same text: the
			 * same right side is one choice in the matcher. */
			size_t first = i;
			const char *mine = qb_text_get(qb_choice_match(ch), qb_bank_default_lang(c->bank));
			for (size_t k = 0; k < i && mine; k++) {
				const char *other =
					qb_text_get(qb_choice_match(&q->choices[k]), qb_bank_default_lang(c->bank));
				if (other && strcmp(other, mine) == 0) {
					first = k;
					break;
				}
			}
			char rid[2] = {(char)('a' + first), '\0'};
			set(oo, "rid", json_string(rid));
		}
		set(oo, "feedback", html_map(c, &ch->feedback));
		json_array_append_new(opts, oo);
	}
	set(o, "options", opts);
	set(o, "feedbackWrong", html_map(c, qb_question_feedback_wrong(q)));
	set(o, "explanation", html_map(c, &q->explanation));
	switch (q->type) {
	case QB_QTYPE_SHORT:
		set(o, "caseSensitive", json_boolean(q->case_sensitive));
		set(o, "cap", json_integer((json_int_t)typed_cap(longest)));
		break;
	case QB_QTYPE_NUMERIC: {
		json_t *n = numeric_json(qb_question_num(q));
		if (qb_question_num_more(q)) /* only when written: fingerprints stay */
			set(n, "more", num_more_json(c, q));
		set(o, "num", n);
		const char *unit = qb_question_rare(q)->unit;
		set(o, "unit", unit ? json_string(unit) : json_null());
		set(o, "cap", json_integer(NUMBER_CAP));
		break;
	}
	default:
		break;
	}
	if (c->content_fp) { /* everything above, pictures included */
		char cfp[CONTENT_FP_HEX + 1];
		char *text = json_dumps(o, JSON_COMPACT);
		qb_hash_sha256_hex(cfp, CONTENT_FP_HEX / 2, text ? text : "", text ? strlen(text) : 0);
		free(text);
		set(o, "fp", json_string(cfp));
	}
	return o;
}

/* The question's data.  A parameterised question (params.h) is its first
 * draw, and "draws": for each draw of its pool, the members of its object
 * that differ from the first draw's ({} for the first), fp among them, so
 * that a saved answer stays with its draw.  The player picks a draw per
 * attempt from the attempt's seed (player.js drawIndex()): a resume shows
 * the same numbers, and the saved state holds nothing more. */
static json_t *question_json(ctx *c, const qb_question *q, size_t keylen)
{
	size_t n = qb_question_ndraws(q);
	if (n == 0)
		return one_question_json(c, q, q->id, keylen, false);
	qb_arena a = QB_ARENA_INIT; /* one draw at a time */
	json_t *first = one_question_json(c, qb_render_draw(c->r, &a, q, 0), q->id, keylen, true);
	json_t *draws = json_array();
	json_array_append_new(draws, json_object());
	qb_arena_dispose(&a);
	for (size_t k = 1; k < n; k++) {
		json_t *d = one_question_json(c, qb_render_draw(c->r, &a, q, k), q->id, keylen, true);
		json_t *diff = json_object(), *v;
		const char *name;
		json_object_foreach(d, name, v)
			if (!json_equal(v, json_object_get(first, name)))
				json_object_set(diff, name, v);
		json_array_append_new(draws, diff);
		json_decref(d);
		qb_arena_dispose(&a);
	}
	set(first, "draws", draws);
	return first;
}

static int size_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The largest sum of entry[] over the questions one attempt can hold: all
 * of them, or the bank's draw (the largest entries of the bank, or of
 * each tag).  *count gets the number of questions drawn. */
static size_t drawn_state(const qb_bank *bank, const size_t *entry, size_t *count)
{
	size_t n = bank->nquestions, sum = 0;
	size_t *sizes = qb_xcalloc(n + 1, sizeof *sizes);
	bool *done = qb_xcalloc(n + 1, sizeof *done);
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		/* One group: the whole bank, or the questions of i's tag. */
		size_t m = 0;
		for (size_t j = i; j < n; j++)
			if (!done[j] && (!bank->draw_per_tag ||
			                 strcmp(draw_tag(&bank->questions[i]),
			                        draw_tag(&bank->questions[j])) == 0)) {
				sizes[m++] = entry[j];
				done[j] = true;
			}
		qsort(sizes, m, sizeof *sizes, size_desc);
		size_t take = bank->draw > 0 && (size_t)bank->draw < m ? (size_t)bank->draw : m;
		for (size_t k = 0; k < take; k++)
			sum += sizes[k];
		*count += take;
	}
	free(sizes);
	free(done);
	return sum;
}

/* data.js goes out a piece at a time (the whole text is several times
 * the bank's size): each piece is hashed for the "build" key, escaped for
 * a <script> and appended to the member's stream; *math tells whether any
 * text shows math (markup.c's <span class="math ...">). */
typedef struct data_out {
	qb_zipw_stream *f;         /* the member's stream, or NULL: ...        */
	FILE *file;                /* ... this file                            */
	struct sha256_ctx sha;
	qb_buf esc;
	bool math;
} data_out;

static int data_raw(data_out *o, const char *s, size_t len)
{
	if (o->f)
		return qb_zipw_stream_write(o->f, s, len);
	return fwrite(s, 1, len, o->file) == len ? 0 : -1;
}

static void data_put(data_out *o, const char *s, size_t len, bool hash)
{
	if (hash)
		sha256_update(&o->sha, len, (const uint8_t *)s);
	qb_buf_clear(&o->esc);
	char *piece = qb_xstrndup(s, len);
	qb_escape_script_json(&o->esc, piece); /* per piece: the same text */
	free(piece);
	o->math = o->math || strstr(qb_buf_cstr(&o->esc), "class=\\\"math ") != NULL;
	data_raw(o, o->esc.ptr, o->esc.len);
}

/* The largest saved state (cmi.suspend_data) the bank can produce in the
 * written languages, with question keys of keylen hex digits. */
static size_t max_state(const qb_render_ctx *r, const qb_bank *bank, size_t keylen)
{
	size_t maxlang = 0;
	for (size_t i = 0; i < r->nlangs; i++) {
		size_t l = strlen(r->langs[i]);
		maxlang = l > maxlang ? l : maxlang;
	}
	size_t *entry = qb_xcalloc(bank->nquestions + 1, sizeof *entry);
	for (size_t i = 0; i < bank->nquestions; i++) /* with its ',' */
		entry[i] = 1 + keylen + 1 + FP_HEX + 1 + answer_state(r, &bank->questions[i]);
	size_t drawn = 0, answers = drawn_state(bank, entry, &drawn);
	free(entry);
	/* A seed when something is drawn or shuffled (player.js needsSeed()),
	 * a parameterised question's draw among them. */
	bool seeded = bank->shuffle_questions || bank->draw > 0;
	for (size_t i = 0; i < bank->nquestions; i++)
		seeded = seeded || qb_question_shuffles(bank, &bank->questions[i]) ||
		         bank->questions[i].type == QB_QTYPE_MATCHING ||
		         qb_question_ndraws(&bank->questions[i]) > 0;
	/* "2|" lang "|" pos "|" seed "|" drawn keys "|" answers */
	return 2 + maxlang + 1 + (keylen > 1 ? keylen : 1) + 1 + (seeded ? SEED_LEN : 0) + 1 +
	       (bank->draw > 0 ? drawn * keylen : 0) + 1 + (answers ? answers - 1 : 0);
}

/* Writes data.js to out, a stream of z; or, when z is NULL, to fout. */
static int data_js(qb_zipw *z, qb_zipw_stream *out, FILE *fout, ctx *c, bool *math)
{
	const qb_bank *bank = c->bank;
	int rc = -1;
	char *dump = NULL;
	qb_buf line = QB_BUF_INIT;
	json_t *d = json_object(), *names = json_object();
	/* The questions' compact JSON, dumped one at a time into a scratch
	 * stream (qlen[i] bytes each): the head, which comes first, needs
	 * them all.  Without a zip (the HTML file), into an unlinked scratch
	 * file: in memory, they would double what the data takes. */
	qb_zipw_stream *qf = z ? qb_zipw_stream_new(z) : NULL;
	FILE *scratch = z ? NULL : tmpfile();
	size_t *qlen = qb_xcalloc(bank->nquestions + 1, sizeof *qlen);
	data_out o = {.f = z ? out : NULL, .file = fout, .esc = QB_BUF_INIT};
	json_t *lab = labels(c);
	size_t keylen = key_hex_len(bank);
	for (size_t i = 0; i < c->nlangs; i++)
		set(names, c->langs[i], json_string(qb_render_lang_own_name(c->r, c->langs[i])));
	for (size_t i = 0; i < bank->nquestions; i++) {
		json_t *jq = question_json(c, &bank->questions[i], keylen);
		char *text = json_dumps(jq, JSON_COMPACT);
		json_decref(jq);
		if (!text) {
			qb_diag_fatal("cannot encode the data of bank '%s' as JSON", bank->id);
			goto done;
		}
		qlen[i] = strlen(text);
		int wr = 0;
		if (qf)
			wr = qb_zipw_stream_write(qf, text, qlen[i]);
		else if (!scratch || fwrite(text, 1, qlen[i], scratch) != qlen[i])
			wr = -1;
		free(text);
		if (wr != 0) {
			if (!qf)
				qb_diag_fatal("cannot write a scratch file for bank '%s': %s", bank->id,
				              strerror(errno));
			goto done;
		}
	}
	size_t state = max_state(c->r, bank, keylen);

	set(d, "format", json_integer(1));
	set(d, "stateFormat", json_integer(STATE_FORMAT));
	set(d, "bank", json_string(bank->id));
	set(d, "scorm", json_string(c->version == QB_SCORM_12 ? "1.2" : "2004"));
	/* The bank's default language first, the others in bank order: the
	 * language buttons, the explanations in another language and a
	 * printed key side by side follow this order. */
	json_t *langs = json_array();
	json_array_append_new(langs, json_string(c->r->main_lang));
	for (size_t i = 0; i < c->nlangs; i++)
		if (strcmp(c->langs[i], c->r->main_lang) != 0)
			json_array_append_new(langs, json_string(c->langs[i]));
	set(d, "langs", langs);
	set(d, "defaultLang", json_string(c->r->main_lang));
	set(d, "langNames", names);
	names = NULL;
	json_t *dirs = json_object();
	for (size_t i = 0; i < c->nlangs; i++)
		set(dirs, c->langs[i], json_string(qb_render_lang_dir(c->r, c->langs[i])));
	set(d, "dirs", dirs);
	set(d, "passMark", bank->pass_mark >= 0 ? json_integer(bank->pass_mark) : json_null());
	set(d, "keyLen", json_integer((json_int_t)keylen));
	set(d, "shuffleQuestions", json_boolean(bank->shuffle_questions));
	set(d, "draw", json_integer(bank->draw));
	set(d, "drawPerTag", json_boolean(bank->draw_per_tag));
	set(d, "maxState", json_integer((json_int_t)state));
	set(d, "title", plain_map(c, &bank->title));
	set(d, "description", html_map(c, &bank->description));
	set(d, "labels", lab);
	lab = NULL;
	if (bank->npassages) { /* by id: a question names its passage */
		json_t *ps = json_object();
		for (size_t i = 0; i < bank->npassages; i++)
			if (bank->passages[i].id)
				set(ps, bank->passages[i].id, html_map(c, &bank->passages[i].text));
		set(d, "passages", ps);
	}
	set(d, "questions", json_array()); /* filled in the text below */
	if (c->failed)
		goto done;

	/* A content version, for the standalone store and for debugging: the
	 * hash of the data, added as a last key "build".  The tree goes as
	 * soon as it is dumped, and the key is put in the text, not dumped a
	 * second time. */
	dump = json_dumps(d, JSON_COMPACT);
	json_decref(d);
	d = NULL;
	static const char empty_tail[] = "\"questions\":[]}";
	size_t dl = dump ? strlen(dump) : 0, tl = sizeof empty_tail - 1;
	if (!dump || dl < tl || strcmp(dump + dl - tl, empty_tail) != 0) {
		qb_diag_fatal("cannot encode the data of bank '%s' as JSON", bank->id);
		goto done;
	}
	/* The head, up to the questions' '[', then the questions, "]"; the
	 * hash covers that and the '}' that "build" comes before. */
	sha256_init(&o.sha);
	static const char head[] = "/* Generated by qbc " QB_VERSION " from the bank; do not edit. */\n"
	                           "window.QB_DATA = ";
	if (scratch && (fflush(scratch) != 0 || fseek(scratch, 0, SEEK_SET) != 0)) {
		qb_diag_fatal("cannot read a scratch file for bank '%s': %s", bank->id,
		              strerror(errno));
		goto done;
	}
	data_raw(&o, head, sizeof head - 1);
	data_put(&o, dump, dl - 2, true);
	uint64_t at = 0;
	for (size_t i = 0; i < bank->nquestions; at += qlen[i++]) {
		qb_buf_clear(&line);
		qb_buf_reserve(&line, qlen[i]);
		if (qf && qb_zipw_stream_read(qf, at, line.ptr, qlen[i]) != 0)
			goto done;
		if (scratch && fread(line.ptr, 1, qlen[i], scratch) != qlen[i]) {
			qb_diag_fatal("cannot read a scratch file for bank '%s': %s", bank->id,
			              strerror(errno));
			goto done;
		}
		line.len = qlen[i];
		if (i)
			data_put(&o, ",", 1, true);
		data_put(&o, line.ptr, line.len, true);
	}
	data_put(&o, "]", 1, true);
	sha256_update(&o.sha, 1, (const uint8_t *)"}");
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(&o.sha, sizeof digest, digest);
	char build[13];
	for (size_t i = 0; i < 6; i++)
		snprintf(build + 2 * i, 3, "%02x", digest[i]);
	/* build: hex digits, nothing to escape */
	char tail[32];
	snprintf(tail, sizeof tail, ",\"build\":\"%s\"};\n", build);
	if (data_raw(&o, tail, strlen(tail)) != 0 || (fout && (fflush(fout) != 0 || ferror(fout)))) {
		if (fout)
			qb_diag_fatal("cannot write a scratch file for bank '%s': %s", bank->id,
			              strerror(errno));
		goto done;
	}
	*math = o.math;
	rc = 0;
done:
	free(qlen);
	if (scratch)
		fclose(scratch);
	qb_buf_dispose(&line);
	free(dump);
	qb_buf_dispose(&o.esc);
	json_decref(d);
	json_decref(names);
	json_decref(lab);
	return rc;
}

/* ---- index.html ---- */

typedef struct page_vars {
	const char *lang;
	const char *dir;      /* of lang: "ltr" or "rtl" */
	const char *title;
	const char *noscript; /* HTML: the notice in every written language */
	bool math;
} page_vars;

static const char *page_lookup(void *payload, const char *name)
{
	const page_vars *v = payload;
	if (strcmp(name, "lang") == 0)
		return v->lang;
	if (strcmp(name, "title") == 0)
		return v->title;
	if (strcmp(name, "dir") == 0)
		return v->dir;
	if (strcmp(name, "noscript") == 0)
		return v->noscript;
	if (strcmp(name, "version") == 0)
		return QB_VERSION;
	if (strcmp(name, "katex") == 0)
		return v->math ? "<link rel=\"stylesheet\" href=\"katex/katex.min.css\">\n"
		                 "<script src=\"katex/katex.min.js\"></script>"
		               : "";
	return NULL;
}

static int index_html(qb_buf *out, ctx *c, const char *lang, bool math)
{
	int rc = -1;
	qb_buf title = QB_BUF_INIT, esc = QB_BUF_INIT, noscript = QB_BUF_INIT;
	char *tmpl = qb_template_load(c->r->templates_dir, "scorm/index.html", NULL);
	if (!tmpl)
		goto done;
	qb_render_plain(&title, qb_render_md(c->r, &c->bank->title, lang));
	qb_escape_html(&esc, title.len ? qb_buf_cstr(&title) : c->bank->id);
	/* Without JavaScript nothing can switch languages: the notice is
	 * shown in every written language, each in its own direction. */
	for (size_t i = 0; i <= c->nlangs; i++) { /* the page's language first */
		const char *l = i == 0 ? lang : c->langs[i - 1];
		if (i > 0 && strcmp(l, lang) == 0)
			continue;
		qb_buf_puts(&noscript, "<p lang=\"");
		qb_escape_html(&noscript, l);
		qb_buf_appendf(&noscript, "\" dir=\"%s\">", qb_render_lang_dir(c->r, l));
		qb_escape_html(&noscript, qb_render_label(c->r, l, "noscript"));
		qb_buf_puts(&noscript, "</p>");
	}
	page_vars v = {lang, qb_render_lang_dir(c->r, lang), qb_buf_cstr(&esc),
	               qb_buf_cstr(&noscript), math};
	rc = qb_template_expand(out, "scorm/index.html", tmpl, page_lookup, &v);
done:
	free(tmpl);
	qb_buf_dispose(&title);
	qb_buf_dispose(&esc);
	qb_buf_dispose(&noscript);
	return rc;
}

/* ---- the package ---- */

/* Adds every file under dir (templates/scorm/schemas/<version>/: the XML
 * Schemas named by the manifest's xsi:schemaLocation and the files they
 * import) to the zip as prefix + its relative path, subfolders kept, in
 * name order.  ADL's conformance suite wants these control documents at
 * the package root; they are not part of the SCO, so no <file> lists
 * them.  Returns 0, or -1 after a diagnostic. */
static int add_schemas(qb_zipw *z, const char *dir, const char *prefix)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;
	if (n < 0) {
		qb_diag_fatal("cannot read the schema folder %s: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *path = qb_fs_join(dir, name);
		char *member = qb_xasprintf("%s%s", prefix, name);
		struct stat st;
		if (rc != 0 || name[0] == '.') {
			/* skipped: an earlier failure, or . .. and hidden files */
		} else if (stat(path, &st) != 0) {
			qb_diag_fatal("cannot read %s: %s", path, strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			char *sub = qb_xasprintf("%s/", member);
			rc = add_schemas(z, path, sub);
			free(sub);
		} else {
			rc = qb_zipw_add_file(z, member, path, true);
		}
		free(member);
		free(path);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The KaTeX files a package carries: the script, the style sheet and the
 * fonts it names in WOFF2 (every browser that runs the player reads
 * WOFF2, and the style sheet lists it first). */
typedef qb_katex_set katex_set; /* write_scorm.h */

static void katex_dispose(katex_set *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->paths[i]);
		free(k->members[i]);
	}
	free(k->paths);
	free(k->members);
	*k = (katex_set){0};
}

static void katex_add(katex_set *k, char *path, const char *member)
{
	k->paths = qb_xrealloc(k->paths, (k->n + 1) * sizeof *k->paths);
	k->members = qb_xrealloc(k->members, (k->n + 1) * sizeof *k->members);
	k->paths[k->n] = path;
	k->members[k->n++] = qb_xasprintf("katex/%s", member);
}

static int woff2(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 6 && strcmp(e->d_name + n - 6, ".woff2") == 0;
}

/* Lists the KaTeX files under dir; -1 after a diagnostic when KaTeX is
 * not there. */
static int katex_list(const char *dir, katex_set *k)
{
	for (size_t i = 0; i < QB_NELEM(katex_files); i++) {
		char *path = qb_fs_join(dir, katex_files[i]);
		struct stat st;
		if (stat(path, &st) != 0) {
			qb_diag_fatal("the bank has math, and KaTeX is not at %s (%s): install Debian's "
			              "libjs-katex ('make' does), or set QBC_KATEX to its folder",
			              path, strerror(errno));
			free(path);
			katex_dispose(k);
			return -1;
		}
		katex_add(k, path, katex_files[i]);
	}
	char *fonts = qb_fs_join(dir, "fonts");
	struct dirent **names = NULL;
	int n = scandir(fonts, &names, woff2, alphasort);
	if (n <= 0) {
		qb_diag_fatal("the bank has math, and KaTeX's fonts are not in %s", fonts);
		free(fonts);
		free(names);
		katex_dispose(k);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *member = qb_xasprintf("fonts/%s", names[i]->d_name);
		katex_add(k, qb_fs_join(fonts, names[i]->d_name), member);
		free(member);
		free(names[i]);
	}
	free(names);
	free(fonts);
	return 0;
}

static int write_scorm(const qb_render_ctx *r, const qb_bank *bank, qb_scorm_version version)
{
	int rc = -1;
	ctx c = {r, bank, version, r->langs, r->nlangs, {0}, false, false, NULL};
	const char **files = NULL;
	qb_zipw *z = NULL;
	qb_buf page = QB_BUF_INIT, manifest = QB_BUF_INIT;
	size_t nfiles = 0;
	katex_set katex = {0};
	bool math = false;
	/* data.js, the biggest member, is streamed: the zip keeps it (in a
	 * scratch file of its own when it is big) until it is added. */
	z = qb_zipw_open(r->path, r->latest);
	qb_zipw_stream *data = z ? qb_zipw_stream_new(z) : NULL;
	if (!z || qb_render_media(r, qb_render_media_hashed_name, &c.media) != 0 ||
	    data_js(z, data, NULL, &c, &math) != 0)
		goto done;
	const char *kdir = getenv("QBC_KATEX") ? getenv("QBC_KATEX") : KATEX_DIR;
	if (math && katex_list(kdir, &katex) != 0)
		goto done;
	if (index_html(&page, &c, r->main_lang, math) != 0)
		goto done;

	/* Every file but the manifest, in zip order. */
	files = qb_xcalloc(3 + QB_NELEM(static_files) + c.media.nfiles + katex.n, sizeof *files);
	files[nfiles++] = LAUNCH;
	for (size_t i = 0; i < QB_NELEM(static_files); i++)
		files[nfiles++] = static_files[i];
	files[nfiles++] = "data.js";
	for (size_t i = 0; i < katex.n; i++)
		files[nfiles++] = katex.members[i];
	for (size_t i = 0; i < c.media.nfiles; i++)
		files[nfiles++] = c.media.files[i].name;
	qb_scorm_manifest m = {version, LAUNCH, files, nfiles, r->revision};
	if (qb_scorm_manifest_write(&manifest, r, bank, &m) != 0)
		goto done;

	if (qb_zipw_add(z, "imsmanifest.xml", manifest.ptr, manifest.len, true) != 0 ||
	    qb_zipw_add(z, LAUNCH, page.ptr, page.len, true) != 0)
		goto done;
	for (size_t i = 0; i < QB_NELEM(static_files); i++) {
		char *rel = qb_xasprintf("scorm/%s", static_files[i]);
		size_t len = 0;
		char *text = qb_template_load(r->templates_dir, rel, &len);
		int ar = text ? qb_zipw_add(z, static_files[i], text, len, true) : -1;
		free(rel);
		free(text);
		if (ar != 0)
			goto done;
	}
	if (qb_zipw_add_stream(z, "data.js", data, true) != 0)
		goto done;
	for (size_t i = 0; i < katex.n; i++)
		if (qb_zipw_add_file(z, katex.members[i], katex.paths[i], true) != 0)
			goto done;
	for (size_t i = 0; i < c.media.nfiles; i++)
		if (qb_zipw_add(z, c.media.files[i].name, c.media.files[i].data, c.media.files[i].len,
		                false) != 0)
			goto done;
	char *schemas = qb_xasprintf("%s/scorm/schemas/%s", r->templates_dir,
	                             version == QB_SCORM_12 ? "scorm12" : "scorm2004");
	int sr = add_schemas(z, schemas, "");
	free(schemas);
	if (sr != 0)
		goto done;
	int cr = qb_zipw_commit(z);
	z = NULL;
	if (cr != 0)
		goto done;
	rc = 0;
done:
	qb_zipw_discard(z);
	katex_dispose(&katex);
	qb_media_set_dispose(&c.media);
	free(files);
	qb_buf_dispose(&page);
	qb_buf_dispose(&manifest);
	return rc;
}

/* Whether dq (q, or a draw of it) fits a SCORM package: option ids are
 * letters and typed answers have a most; reported at q. */
static bool question_fits(const qb_render_ctx *r, const qb_question *q, const qb_question *dq)
{
	bool fits = true;
	if (dq->nchoices > MAX_OPTIONS) {
		qb_render_error(r, q->loc, "question '%s' has %zu options; a SCORM package "
		                "allows at most %d (option ids a..z)", q->id, dq->nchoices,
		                MAX_OPTIONS);
		fits = false;
	}
	size_t longest = 0;
	for (size_t k = 0; dq->type == QB_QTYPE_SHORT && k < dq->nchoices; k++) {
		size_t n = longest_text(r, &dq->choices[k].text);
		longest = n > longest ? n : longest;
	}
	if (longest > TYPED_MAX) {
		qb_render_error(r, q->loc, "question '%s' lists an answer of %zu characters; "
		                "a SCORM package takes typed answers of at most %d",
		                q->id, longest, TYPED_MAX);
		fits = false;
	}
	if (dq->type != QB_QTYPE_CLOZE)
		return fits;
	qb_arena a = QB_ARENA_INIT;
	size_t *gl;
	bool *choice;
	size_t n = gap_lengths(r, dq, &a, &gl, &choice);
	for (size_t g = 0; g < n; g++)
		if (!choice[g] && gl[g] > TYPED_MAX) {
			qb_render_error(r, q->loc, "gap %zu of question '%s' accepts an answer of %zu "
			                "characters; a SCORM package takes typed answers of at most %d",
			                g + 1, q->id, gl[g], TYPED_MAX);
			fits = false;
		}
	qb_arena_dispose(&a);
	return fits;
}

/* What a SCORM package cannot hold, at the question or the bank: option
 * ids are letters, typed answers have a most, and the saved state has the
 * version's limit. */
static void check_scorm(const qb_render_ctx *r, const qb_bank *bank, qb_scorm_version version,
                        bool state_limit)
{
	bool fits = true;
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		size_t n = qb_question_ndraws(q);
		if (n == 0 || (q->type != QB_QTYPE_SHORT && q->type != QB_QTYPE_CLOZE)) {
			fits = question_fits(r, q, q) && fits;
			continue;
		}
		/* Typed answers of every draw (its numbers written out); the
		 * first draw that does not fit is reported. */
		bool ok = true;
		for (size_t k = 0; k < n && ok; k++) {
			qb_arena a = QB_ARENA_INIT;
			ok = question_fits(r, q, qb_render_draw(r, &a, q, k));
			qb_arena_dispose(&a);
		}
		fits = fits && ok;
	}
	size_t limit = version == QB_SCORM_12 ? SCORM12_STATE_MAX : SCORM2004_STATE_MAX;
	size_t state = fits && state_limit ? max_state(r, bank, key_hex_len(bank)) : 0;
	if (state > limit)
		qb_render_error(r, bank->id_loc,
		                "bank '%s' is too big for %s: its saved state (cmi.suspend_data) can "
		                "reach %zu characters, more than the %zu allowed%s",
		                bank->id, version == QB_SCORM_12 ? "SCORM 1.2" : "SCORM 2004",
		                state, limit,
		                version == QB_SCORM_12 ? _(" (Moodle's standards mode, the Moodle "
		                                           "app); split the bank") : "");
}

void qb_check_scorm12(const qb_render_ctx *r, const qb_bank *bank)
{
	check_scorm(r, bank, QB_SCORM_12, true);
}

void qb_check_scorm2004(const qb_render_ctx *r, const qb_bank *bank)
{
	check_scorm(r, bank, QB_SCORM_2004, true);
}

int qb_write_scorm12(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_scorm(r, bank, QB_SCORM_12);
}

int qb_write_scorm2004(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_scorm(r, bank, QB_SCORM_2004);
}

/* ---- the player elsewhere (write_scorm.h) ---- */

void qb_scorm_check_player(const qb_render_ctx *r, const qb_bank *bank)
{
	check_scorm(r, bank, QB_SCORM_12, false);
}

int qb_scorm_player_data(const qb_render_ctx *r, const qb_bank *bank, qb_media_name_fn name,
                         const char *const *labels, FILE *out, bool *math)
{
	ctx c = {r, bank, QB_SCORM_12, r->langs, r->nlangs, {0}, false, true, labels};
	int rc = -1;
	if (qb_render_media(r, name, &c.media) == 0)
		rc = data_js(NULL, NULL, out, &c, math);
	qb_media_set_dispose(&c.media);
	return rc;
}

int qb_scorm_katex(qb_katex_set *k)
{
	const char *kdir = getenv("QBC_KATEX") ? getenv("QBC_KATEX") : KATEX_DIR;
	return katex_list(kdir, k);
}

void qb_scorm_katex_dispose(qb_katex_set *k)
{
	katex_dispose(k);
}

int qb_scorm_index_html(qb_buf *out, const qb_render_ctx *r, const qb_bank *bank, bool math)
{
	ctx c = {r, bank, QB_SCORM_12, r->langs, r->nlangs, {0}, false, true, NULL};
	return index_html(out, &c, r->main_lang, math);
}
