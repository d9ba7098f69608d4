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
 * Saved state (cmi.suspend_data), format 1, as player.js writes it:
 *
 *     1|<lang>|<pos>|<answer>,<answer>,...
 *     answer = <key>.<fp>.<letters>
 *
 * <key> is the first hex digits of SHA-256(question id) (KEY_MIN_HEX, more
 * when two questions of the bank would collide), so answers survive
 * questions being added, removed or reordered.  <fp> is a 4-hex-digit
 * fingerprint of the question's options; when the options change, the old
 * answer no longer matches and is dropped.  <letters> are the chosen
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
#include <sys/stat.h>

#include "alloc.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "render.h"
#include "scorm_manifest.h"
#include "template.h"
#include "zipw.h"

/* ---- limits ---- */

#define STATE_FORMAT 1         /* first field of the saved state            */
#define KEY_MIN_HEX 6          /* hex digits of a question key              */
#define FP_HEX 4               /* hex digits of an options fingerprint      */
#define MAX_OPTIONS 26         /* option ids are the letters a..z: SCORM 1.2
                                  CMIFeedback allows one character per choice,
                                  2004 choice responses need [A-Za-z0-9_.]  */
#define SCORM12_STATE_MAX 4096 /* CMIString4096, Moodle's standards mode     */
#define SCORM2004_STATE_MAX 64000 /* SCORM 2004 cmi.suspend_data SPM       */

#define LAUNCH "index.html"

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
	"standalone",
};

typedef struct ctx {
	const qb_render_ctx *r;
	const qb_bank *bank;
	qb_scorm_version version;
	const char *const *langs; /* written languages, in bank order          */
	size_t nlangs;
	qb_media_set media;       /* the bank's pictures (render.h)            */
	bool failed;              /* a text could not be rendered (reported)   */
} ctx;

/* ---- images ---- */

/* render.h naming callback: "media/<16 hex of sha256>.<ext>", made of
 * safe characters only; the extension lower case, letters and digits only
 * (file names Moodle keeps unchanged: scorm-moodle.md §1). */
static char *media_name(const char *src, const unsigned char *data, size_t len)
{
	qb_buf name = QB_BUF_INIT;
	char hex[2 * 8 + 1];
	qb_hash_sha256_hex(hex, 8, data, len);
	qb_buf_appendf(&name, "media/%s", hex);
	const char *dot = strrchr(src, '.');
	if (dot && !strchr(dot, '/')) {
		size_t mark = name.len;
		qb_buf_putc(&name, '.');
		for (const char *p = dot + 1; *p && name.len - mark <= 8; p++) {
			char ch = *p;
			if (ch >= 'A' && ch <= 'Z')
				ch = (char)(ch - 'A' + 'a');
			if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
				qb_buf_putc(&name, ch);
		}
		if (name.len == mark + 1)
			name.len = mark, name.ptr[mark] = '\0';
	}
	return qb_buf_detach(&name);
}

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
 * language. */
static void fingerprint(char out[FP_HEX + 1], const qb_bank *bank, const qb_question *q)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_puts(&b, qb_qtype_name(q->type));
	for (size_t i = 0; i < q->nchoices; i++) {
		const char *t = qb_text_get(&q->choices[i].text, qb_bank_default_lang(bank));
		qb_buf_appendf(&b, "\x1f%c%s", q->choices[i].correct ? '*' : '-', t ? t : "");
	}
	qb_hash_sha256_hex(out, FP_HEX / 2, qb_buf_cstr(&b), b.len);
	qb_buf_dispose(&b);
}

/* ---- the data ---- */

/* The labels the player uses, for each written language (render.h). */
static json_t *labels(const ctx *c)
{
	json_t *out = json_object();
	for (size_t i = 0; i < c->nlangs; i++) {
		const char *lang = c->langs[i];
		json_t *l = json_object(), *names = json_object();
		for (size_t k = 0; k < QB_NELEM(player_labels); k++)
			set(l, player_labels[k], json_string(qb_render_label(c->r, lang, player_labels[k])));
		for (size_t k = 0; k < c->nlangs; k++)
			set(names, c->langs[k], json_string(qb_render_lang_name(c->r, lang, c->langs[k])));
		set(l, "languageNames", names);
		set(out, lang, l);
	}
	return out;
}

static json_t *question_json(ctx *c, const qb_question *q, size_t keylen, size_t *max_letters)
{
	json_t *o = json_object();
	char key[2 * QB_SHA256_SIZE + 1], fp[FP_HEX + 1];
	qb_hash_sha256_hex(key, keylen / 2, q->id, strlen(q->id));
	fingerprint(fp, c->bank, q);
	set(o, "id", json_string(q->id));
	set(o, "key", json_string(key));
	set(o, "fp", json_string(fp));
	set(o, "type", json_string(qb_qtype_name(q->type)));
	set(o, "prompt", html_map(c, &q->prompt));
	set(o, "promptText", plain_map(c, &q->prompt));
	json_t *opts = json_array();
	for (size_t i = 0; i < q->nchoices; i++) {
		const qb_choice *ch = &q->choices[i];
		json_t *oo = json_object();
		char id[2] = {(char)('a' + i), '\0'};
		set(oo, "id", json_string(id));
		set(oo, "correct", json_boolean(ch->correct));
		set(oo, "text", html_map(c, &ch->text));
		set(oo, "feedback", html_map(c, &ch->feedback));
		json_array_append_new(opts, oo);
	}
	set(o, "options", opts);
	set(o, "explanation", html_map(c, &q->explanation));
	*max_letters = q->type == QB_QTYPE_MULTIPLE ? q->nchoices : 1;
	return o;
}

/* Builds data.js into out; *max_state receives the largest saved state. */
static int data_js(qb_buf *out, ctx *c, size_t *max_state)
{
	const qb_bank *bank = c->bank;
	int rc = -1;
	char *dump = NULL;
	json_t *d = json_object(), *names = json_object();
	/* The questions' compact JSON, dumped one at a time (the whole tree
	 * would take several times the text), comma-separated. */
	qb_buf qs = QB_BUF_INIT;
	bool failed = false;
	json_t *lab = labels(c);
	size_t keylen = key_hex_len(bank);
	/* "1|" + lang + "|" + pos + "|" + answers */
	size_t maxlang = 0;
	for (size_t i = 0; i < c->nlangs; i++) {
		size_t l = strlen(c->langs[i]);
		maxlang = l > maxlang ? l : maxlang;
		set(names, c->langs[i], json_string(qb_render_lang_own_name(c->r, c->langs[i])));
	}
	size_t state = 2 + maxlang + 1 + (keylen > 1 ? keylen : 1) + 1;
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		if (q->nchoices > MAX_OPTIONS) {
			qb_render_error(c->r, q->loc, "question '%s' has %zu options; a SCORM package "
			                "allows at most %d (option ids a..z)", q->id, q->nchoices,
			                MAX_OPTIONS);
			failed = true;
			continue;
		}
		size_t letters = 0;
		json_t *jq = question_json(c, q, keylen, &letters);
		char *text = json_dumps(jq, JSON_COMPACT);
		json_decref(jq);
		if (!text) {
			qb_diag_fatal("cannot encode the data of bank '%s' as JSON", bank->id);
			goto done;
		}
		if (qs.len)
			qb_buf_putc(&qs, ',');
		qb_buf_puts(&qs, text);
		free(text);
		state += (i ? 1 : 0) + keylen + 1 + FP_HEX + 1 + letters;
	}
	if (failed)
		goto done;
	*max_state = state;

	set(d, "format", json_integer(1));
	set(d, "stateFormat", json_integer(STATE_FORMAT));
	set(d, "bank", json_string(bank->id));
	set(d, "scorm", json_string(c->version == QB_SCORM_12 ? "1.2" : "2004"));
	json_t *langs = json_array();
	for (size_t i = 0; i < c->nlangs; i++)
		json_array_append_new(langs, json_string(c->langs[i]));
	set(d, "langs", langs);
	set(d, "defaultLang", json_string(c->r->main_lang));
	set(d, "langNames", names);
	names = NULL;
	set(d, "passMark", bank->pass_mark >= 0 ? json_integer(bank->pass_mark) : json_null());
	set(d, "keyLen", json_integer((json_int_t)keylen));
	set(d, "maxState", json_integer((json_int_t)state));
	set(d, "title", plain_map(c, &bank->title));
	set(d, "description", html_map(c, &bank->description));
	set(d, "labels", lab);
	lab = NULL;
	set(d, "questions", json_array()); /* filled in the text below */
	if (c->failed)
		goto done;

	/* A content version, for the standalone store and for debugging: the
	 * hash of the data, added as a last key "build".  The tree goes as
	 * soon as it is dumped, and the key is put in the dump's text, not
	 * dumped a second time. */
	dump = json_dumps(d, JSON_COMPACT);
	json_decref(d);
	d = NULL;
	static const char empty_tail[] = "\"questions\":[]}";
	size_t dl = dump ? strlen(dump) : 0, tl = sizeof empty_tail - 1;
	if (!dump || dl < tl || strcmp(dump + dl - tl, empty_tail) != 0) {
		qb_diag_fatal("cannot encode the data of bank '%s' as JSON", bank->id);
		goto done;
	}
	/* The head, up to the questions' '[', then the questions, "]}". */
	qb_buf whole = QB_BUF_INIT;
	qb_buf_append(&whole, dump, dl - 2);
	free(dump);
	qb_buf_append(&whole, qs.ptr ? qs.ptr : "", qs.len);
	qb_buf_dispose(&qs);
	qb_buf_puts(&whole, "]}");
	dl = whole.len;
	dump = qb_buf_detach(&whole);
	char build[13];
	qb_hash_sha256_hex(build, 6, dump, dl);
	qb_buf_puts(out, "/* Generated by qbc " QB_VERSION " from the bank; do not edit. */\n"
	                 "window.QB_DATA = ");
	dump[dl - 1] = '\0';
	qb_escape_script_json(out, dump); /* build: hex digits, nothing to escape */
	qb_buf_appendf(out, "%s\"build\":\"%s\"};\n", dl > 2 ? "," : "", build);
	rc = 0;
done:
	free(dump);
	json_decref(d);
	qb_buf_dispose(&qs);
	json_decref(names);
	json_decref(lab);
	return rc;
}

/* ---- index.html ---- */

typedef struct page_vars {
	const char *lang;
	const char *title;
} page_vars;

static const char *page_lookup(void *payload, const char *name)
{
	const page_vars *v = payload;
	if (strcmp(name, "lang") == 0)
		return v->lang;
	if (strcmp(name, "title") == 0)
		return v->title;
	if (strcmp(name, "version") == 0)
		return QB_VERSION;
	return NULL;
}

static int index_html(qb_buf *out, ctx *c, const char *lang)
{
	int rc = -1;
	qb_buf title = QB_BUF_INIT, esc = QB_BUF_INIT;
	char *tmpl = qb_template_load(c->r->templates_dir, "scorm/index.html", NULL);
	if (!tmpl)
		goto done;
	qb_render_plain(&title, qb_render_md(c->r, &c->bank->title, lang));
	qb_escape_html(&esc, title.len ? qb_buf_cstr(&title) : c->bank->id);
	page_vars v = {lang, qb_buf_cstr(&esc)};
	rc = qb_template_expand(out, "scorm/index.html", tmpl, page_lookup, &v);
done:
	free(tmpl);
	qb_buf_dispose(&title);
	qb_buf_dispose(&esc);
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
			char *data = NULL;
			size_t len = 0;
			if (qb_fs_read(path, &data, &len) != 0) {
				qb_diag_fatal("cannot read %s: %s", path, strerror(errno));
				rc = -1;
			} else {
				rc = qb_zipw_add(z, member, data, len, true);
			}
			free(data);
		}
		free(member);
		free(path);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int write_scorm(const qb_render_ctx *r, const qb_bank *bank, qb_scorm_version version)
{
	int rc = -1;
	ctx c = {r, bank, version, r->langs, r->nlangs, {0}, false};
	const char **files = NULL;
	qb_zipw *z = NULL;
	qb_buf data = QB_BUF_INIT, page = QB_BUF_INIT, manifest = QB_BUF_INIT;
	size_t max_state = 0, nfiles = 0;

	if (qb_render_media(r, media_name, &c.media) != 0 || data_js(&data, &c, &max_state) != 0)
		goto done;
	size_t limit = version == QB_SCORM_12 ? SCORM12_STATE_MAX : SCORM2004_STATE_MAX;
	if (max_state > limit) {
		qb_render_error(r, bank->id_loc,
		                "bank '%s' is too big for %s: its saved state (cmi.suspend_data) can "
		                "reach %zu characters, more than the %zu allowed%s",
		                bank->id, version == QB_SCORM_12 ? "SCORM 1.2" : "SCORM 2004",
		                max_state, limit,
		                version == QB_SCORM_12 ? " (Moodle's standards mode, the Moodle "
		                                         "app); split the bank" : "");
		goto done;
	}
	if (index_html(&page, &c, r->main_lang) != 0)
		goto done;

	/* Every file but the manifest, in zip order. */
	files = qb_xcalloc(3 + QB_NELEM(static_files) + c.media.nfiles, sizeof *files);
	files[nfiles++] = LAUNCH;
	for (size_t i = 0; i < QB_NELEM(static_files); i++)
		files[nfiles++] = static_files[i];
	files[nfiles++] = "data.js";
	for (size_t i = 0; i < c.media.nfiles; i++)
		files[nfiles++] = c.media.files[i].name;
	qb_scorm_manifest m = {version, LAUNCH, files, nfiles, r->revision};
	if (qb_scorm_manifest_write(&manifest, r, bank, &m) != 0)
		goto done;

	z = qb_zipw_open(r->path, r->latest);
	if (!z || qb_zipw_add(z, "imsmanifest.xml", manifest.ptr, manifest.len, true) != 0 ||
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
	size_t data_len = data.len; /* the biggest member: handed over, not copied */
	if (qb_zipw_add_owned(z, "data.js", qb_buf_detach(&data), data_len, true) != 0)
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
	qb_media_set_dispose(&c.media);
	free(files);
	qb_buf_dispose(&data);
	qb_buf_dispose(&page);
	qb_buf_dispose(&manifest);
	return rc;
}

int qb_write_scorm12(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_scorm(r, bank, QB_SCORM_12);
}

int qb_write_scorm2004(const qb_render_ctx *r, const qb_bank *bank)
{
	return write_scorm(r, bank, QB_SCORM_2004);
}
