/* preview.c - see preview.h.
 *
 * Threads: the driver's thread publishes (reads the packages back, builds
 * the page's JSON); libmicrohttpd answers each connection on a thread of
 * its own.  What they share is one snapshot behind a mutex: the JSON, a
 * version number (bumped at each publish, waking every waiting page) and
 * the table of files served.  Responses copy what they send, so a publish
 * never pulls bytes from under a response.
 *
 * Safety (a local development server reachable by any page the browser
 * opens): only GET and HEAD (405); the Host header must name the served
 * address (403: DNS rebinding); paths are looked up by exact name in the
 * table, so "..", "%2e%2e", "%2f", absolute paths, symlinks and folders
 * all end in 404; request line and headers bounded (8 KiB, else
 * libmicrohttpd refuses the request), idle connections dropped after 10
 * seconds (slowloris), at most 1,000 connections. */
#include "preview.h"

#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "lang.h"
#include "markup.h"
#include "render.h"
#include "revision.h"
#include "template.h"

enum {
	HEADER_LIMIT = 8 * 1024,  /* request line and headers, per connection */
	IDLE_SECONDS = 10,        /* an idle (or slow) connection is dropped   */
	MAX_CONNECTIONS = 1000,
	WAIT_SECONDS = 20,        /* a long poll answers at the latest then    */
	PORT_TRIES = 100,         /* 8000, 8001, ... without --port           */
};

/* A file served, by its path without the leading '/'. */
typedef struct pv_file {
	char *path;
	unsigned char *data;
	size_t len;
} pv_file;

/* What the page shows of one bank. */
typedef struct pv_bank {
	json_t *good;  /* the last good version (NULL: none yet)          */
	char *diags;   /* what its last build printed                     */
	bool failed;   /* the last build had errors                       */
	pv_file *files;
	size_t nfiles;
} pv_bank;

struct qb_preview {
	struct MHD_Daemon *d;
	char *url;
	char *host;     /* as the Host header names it, without the port  */
	bool loopback, wildcard;
	unsigned port;
	char *page, *script, *style; /* templates/preview/               */
	size_t page_len, script_len, style_len;

	pthread_mutex_t lock; /* guards what follows                       */
	pthread_cond_t changed;
	unsigned long version;
	bool stopping;
	char *state;          /* the page's JSON                           */
	json_t *ui;           /* the page's own words, in the user's
	                         language: set before the first publish    */
	json_t *stale;        /* {qid: {lang: true}} for the next publish:
	                         the driver's thread only                  */
	size_t nbanks;
	pv_bank *banks;
};

/* ==== Reading the packages back ========================================= */

static void files_free(pv_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].path);
		free(f[i].data);
	}
	free(f);
}

static void add_file(pv_file **files, size_t *n, char *path, unsigned char *data, size_t len)
{
	*files = qb_xrealloc(*files, (*n + 1) * sizeof **files);
	(*files)[(*n)++] = (pv_file){path, data, len};
}

/* The bytes of member name (or of index idx when name is NULL). */
static unsigned char *zip_member(zip_t *z, const char *name, zip_int64_t idx, size_t *len)
{
	zip_stat_t st;
	if (name)
		idx = zip_name_locate(z, name, 0);
	if (idx < 0 || zip_stat_index(z, (zip_uint64_t)idx, 0, &st) != 0 ||
	    !(st.valid & ZIP_STAT_SIZE))
		return NULL;
	zip_file_t *f = zip_fopen_index(z, (zip_uint64_t)idx, 0);
	if (!f)
		return NULL;
	unsigned char *data = qb_xmalloc(st.size + 1);
	zip_int64_t got = zip_fread(f, data, st.size);
	zip_fclose(f);
	if (got < 0 || (zip_uint64_t)got != st.size) {
		free(data);
		return NULL;
	}
	data[st.size] = '\0';
	*len = (size_t)st.size;
	return data;
}

/* Every member of the SCORM zip as b/<i>/scorm/<member>. */
static int read_scorm(const char *path, size_t bi, pv_file **files, size_t *n, char build[13])
{
	int err = 0;
	zip_t *z = zip_open(path, ZIP_RDONLY, &err);
	if (!z) {
		qb_diag_fatal("cannot read back '%s' (libzip error %d)", path, err);
		return -1;
	}
	int rc = 0;
	zip_int64_t count = zip_get_num_entries(z, 0);
	for (zip_int64_t i = 0; i < count && rc == 0; i++) {
		const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
		size_t len = 0;
		unsigned char *data = name ? zip_member(z, NULL, i, &len) : NULL;
		if (!data) {
			qb_diag_fatal("cannot read back '%s' from '%s'", name ? name : "?", path);
			rc = -1;
			break;
		}
		if (strcmp(name, "data.js") == 0)
			qb_hash_sha256_hex(build, 6, data, len);
		add_file(files, n, qb_xasprintf("b/%zu/scorm/%s", bi, name), data, len);
	}
	zip_discard(z);
	return rc;
}

/* A note type as the page needs it: templates, CSS, field names. */
static json_t *notetype(json_t *m)
{
	json_t *t = json_array_get(json_object_get(m, "tmpls"), 0), *names = json_array();
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(m, "flds"), i, f)
		json_array_append(names, json_object_get(f, "name"));
	return json_pack("{s:O?, s:O?, s:O?, s:o}", "qfmt", json_object_get(t, "qfmt"), "afmt",
	                 json_object_get(t, "afmt"), "css", json_object_get(m, "css"), "fields",
	                 names);
}

/* The note types (into types: {"quiz"|"cloze"|"drawn": ...}, drawn: the
 * parameterised questions' type, write_anki.c) and the notes (into
 * notes: {ID field: {type, cards, fields}}) of collection.anki2 at col. */
static int read_collection(const char *col, json_t *types, json_t *notes)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	json_t *models = NULL, *names = json_object();
	int rc = -1;
	if (sqlite3_open_v2(col, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "select models from col", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto done;
	models = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	sqlite3_finalize(st);
	st = NULL;
	const char *key;
	json_t *m;
	json_object_foreach(models, key, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		const char *kind = json_integer_value(json_object_get(m, "type")) == 1 ? "cloze"
		                   : name && strcmp(name, "qbc drawn") == 0    ? "drawn"
		                                                               : "quiz";
		json_object_set_new(types, kind, notetype(m));
		json_object_set_new(names, key, json_string(kind));
	}
	if (sqlite3_prepare_v2(db, "select n.mid, n.flds, (select count(*) from cards c where "
	                           "c.nid = n.id) from notes n order by n.id",
	                       -1, &st, NULL) != SQLITE_OK)
		goto done;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char mid[32];
		snprintf(mid, sizeof mid, "%lld", (long long)sqlite3_column_int64(st, 0));
		const char *kind = json_string_value(json_object_get(names, mid));
		json_t *t = kind ? json_object_get(types, kind) : NULL;
		if (!t)
			continue;
		json_t *fields = json_object(), *fnames = json_object_get(t, "fields");
		const char *flds = (const char *)sqlite3_column_text(st, 1);
		for (size_t i = 0; flds; i++) {
			const char *end = strchr(flds, '\x1f');
			size_t len = end ? (size_t)(end - flds) : strlen(flds);
			const char *name = json_string_value(json_array_get(fnames, i));
			if (name)
				json_object_set_new(fields, name, json_stringn(flds, len));
			flds = end ? end + 1 : NULL;
		}
		const char *id = json_string_value(json_object_get(fields, "ID"));
		json_t *note = json_pack("{s:s, s:i, s:o}", "type", kind, "cards",
		                         sqlite3_column_int(st, 2), "fields", fields);
		if (id)
			json_object_set_new(notes, id, note);
		else
			json_decref(note);
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	sqlite3_close(db);
	json_decref(models);
	json_decref(names);
	return rc;
}

/* The .apkg: its media as b/<i>/anki/<name>, its note types and notes. */
static int read_apkg(const char *path, size_t bi, pv_file **files, size_t *n, json_t *types,
                     json_t *notes)
{
	int err = 0, rc = -1;
	zip_t *z = zip_open(path, ZIP_RDONLY, &err);
	char *col = NULL;
	unsigned char *data = NULL;
	json_t *media = NULL;
	if (!z) {
		qb_diag_fatal("cannot read back '%s' (libzip error %d)", path, err);
		return -1;
	}
	size_t len = 0;
	if (!(data = zip_member(z, "media", -1, &len)) ||
	    !(media = json_loadb((const char *)data, len, 0, NULL)))
		goto done;
	free(data);
	const char *num;
	json_t *name;
	json_object_foreach(media, num, name) {
		const char *nm = json_string_value(name);
		if (!nm || !(data = zip_member(z, num, -1, &len)))
			goto done;
		add_file(files, n, qb_xasprintf("b/%zu/anki/%s", bi, nm), data, len);
	}
	data = zip_member(z, "collection.anki2", -1, &len);
	col = qb_fs_tmpname(path);
	if (!data || !col || qb_fs_write_atomic(col, data, len) != 0)
		goto done;
	rc = read_collection(col, types, notes);
done:
	if (rc != 0)
		qb_diag_fatal("cannot read back the Anki package '%s'", path);
	if (col)
		unlink(col);
	free(col);
	free(data);
	json_decref(media);
	zip_discard(z);
	return rc;
}

/* ==== The page's JSON ==================================================== */

/* A translation's state from the record: "missing" (the question has no
 * text in lang), "stale" (qbc check warns that it may be), "new" (not yet
 * in the record: never built) or "reviewed" (in the record, not stale). */
static const char *tr_state(const qb_question *q, const struct qb_revisions *rev,
                            const char *lang, json_t *stale)
{
	if (!qb_text_tr(&q->prompt, lang))
		return "missing";
	if (json_object_get(json_object_get(stale, q->id), lang))
		return "stale";
	if (rev && qb_rev_question_time(rev, q->id, lang) == 0)
		return "new";
	return "reviewed";
}

static json_t *bank_json(const qb_bank *bank, const struct qb_revisions *rev,
                         const char *const *langs, size_t nlangs, json_t *types, json_t *notes,
                         const char *build, json_t *stale)
{
	json_t *b = json_object(), *jl = json_array(), *names = json_object();
	json_t *qs = json_array();
	qb_buf t = QB_BUF_INIT;
	const qb_tr *title = qb_text_tr(&bank->title, qb_bank_default_lang(bank));
	qb_render_plain(&t, title ? title->text : "");
	for (size_t i = 0; i < nlangs; i++) {
		const char *own = qb_lang_native_name(langs[i]);
		json_array_append_new(jl, json_string(langs[i]));
		json_object_set_new(names, langs[i], json_string(own ? own : langs[i]));
	}
	for (size_t qi = 0; qi < bank->nquestions; qi++) {
		const qb_question *q = &bank->questions[qi];
		json_t *tags = json_array(), *status = json_object(), *qn = json_object();
		for (size_t k = 0; k < q->ntags; k++)
			json_array_append_new(tags, json_string(q->tags[k].name));
		for (size_t i = 0; i < nlangs; i++) {
			json_object_set_new(status, langs[i], json_string(tr_state(q, rev, langs[i], stale)));
			qb_buf id = QB_BUF_INIT;
			qb_escape_html(&id, bank->id);
			qb_buf_putc(&id, ':');
			qb_escape_html(&id, q->id);
			qb_buf_putc(&id, ':');
			qb_escape_html(&id, langs[i]);
			json_t *note = json_object_get(notes, qb_buf_cstr(&id));
			if (note)
				json_object_set(qn, langs[i], note);
			qb_buf_dispose(&id);
		}
		json_array_append_new(qs, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o}", "id", q->id, "type",
		                                    qb_qtype_name(q->type), "line", q->loc.line, "tags",
		                                    tags, "status", status, "notes", qn));
	}
	json_object_set_new(b, "id", json_string(bank->id));
	json_object_set_new(b, "file", json_string(bank->path));
	json_object_set_new(b, "title", json_string(qb_buf_cstr(&t)));
	json_object_set_new(b, "langs", jl);
	json_object_set_new(b, "langNames", names);
	json_object_set_new(b, "defaultLang", json_string(qb_bank_default_lang(bank)));
	json_object_set_new(b, "anki", json_incref(types));
	json_object_set_new(b, "scormBuild", json_string(build));
	json_object_set_new(b, "questions", qs);
	qb_buf_dispose(&t);
	return b;
}

/* The page's own words (its headings, buttons, statuses), in the
 * language of qbc's messages, as the page's script names them; "{x}"
 * marks what the script puts in. */
static const struct {
	const char *key, *text;
} ui_texts[] = {
	{"title", N_("qbc preview")},
	/* TRANSLATORS: the page's heading; {title} is the bank's title. */
	{"titleOf", N_("qbc preview: {title}")},
	{"bank", N_("Bank")},
	{"language", N_("Language")},
	{"night", N_("Night mode")},
	{"connecting", N_("connecting…")},
	{"live", N_("live: up to date")},
	{"updatedAt", N_("updated at {time}")},
	{"offline", N_("not connected: is qbc preview still running?")},
	{"errorsShown", N_("Errors: the page shows the last version that built")},
	{"errorsOnly", N_("The bank has errors: fix them to see its questions")},
	{"warnings", N_("Warnings")},
	{"questions", N_("Questions")},
	{"colId", N_("Id")},
	{"colType", N_("Type")},
	{"colTags", N_("Tags")},
	{"colLangs", N_("Languages")},
	/* TRANSLATORS: a translation's state in the preview's list of
	 * questions, shown after the language's code ("fr stale"). */
	{"stMissing", N_("missing")},
	{"stStale", N_("stale")},
	{"stNew", N_("new")},
	{"stStaleLong", N_("may be stale: qbc check warns")},
	{"stNewLong", N_("new: not in the revision record yet")},
	{"stReviewedLong", N_("reviewed: in the revision record, not stale")},
	{"anki", N_("Anki card")},
	/* TRANSLATORS: {apkg} is the package's extension, '.apkg'. */
	{"ankiHint", N_("The card as the {apkg}'s note type shows it: pick with a click or a letter "
	                "key, then show the answer.")},
	{"card", N_("Card")},
	{"gap", N_("Gap {n}")},
	{"showAnswer", N_("Show answer")},
	{"noCard", N_("No Anki card: see the messages above.")},
	{"front", N_("Front")},
	{"back", N_("Back")},
	{"frontTitle", N_("Anki card, front")},
	{"backTitle", N_("Anki card, back")},
	{"scorm", N_("SCORM player")},
	{"scormHint", N_("The player of the SCORM 1.2 package on this question, with a stand-in "
	                 "LMS.")},
	{"again", N_("Answer again")},
	{"noPlayer", N_("No SCORM 1.2 package: see the messages above.")},
	{"lmsRecord", N_("What the LMS would record")},
	{"colInteraction", N_("Interaction")},
	{"colResponse", N_("Response")},
	{"colResult", N_("Result")},
	{"colWeight", N_("Weight")},
	{"nothingYet", N_("Nothing yet: answer the question in the player.")},
	/* TRANSLATORS: {status} is SCORM's own word (passed, failed,
	 * incomplete, ...) or "not attempted"; {score} a percentage. */
	{"lessonStatus", N_("Lesson status: {status}; score: {score}")},
	{"notAttempted", N_("not attempted")},
	{"scoreLater", N_("set once every question is answered")},
};

/* {"lang", "dir", "text": {key: words}}: the page speaks the language
 * qbc's messages are in. */
static json_t *ui_json(void)
{
	json_t *text = json_object();
	for (size_t i = 0; i < QB_NELEM(ui_texts); i++)
		json_object_set_new(text, ui_texts[i].key, json_string(_(ui_texts[i].text)));
	char *lang = qb_i18n_language();
	for (char *c = lang; *c; c++) /* a catalogue's pt_BR is HTML's pt-BR */
		if (*c == '_')
			*c = '-';
	/* TRANSLATORS: "rtl" when your language is written from right to
	 * left, as Arabic; else "ltr". Only these two words are read. */
	const char *dir = strcmp(_("ltr"), "rtl") == 0 ? "rtl" : "ltr";
	json_t *ui = json_pack("{s:s, s:s, s:o}", "lang", lang, "dir", dir, "text", text);
	free(lang);
	return ui;
}

/* The whole state, under the lock. */
static void state_update(qb_preview *p)
{
	json_t *banks = json_array();
	for (size_t i = 0; i < p->nbanks; i++) {
		pv_bank *b = &p->banks[i];
		json_t *o = b->good ? json_deep_copy(b->good) : json_object();
		json_object_set_new(o, "diagnostics", json_string(b->diags ? b->diags : ""));
		json_object_set_new(o, "failed", json_boolean(b->failed));
		json_object_set_new(o, "base", json_sprintf("/b/%zu/", i));
		json_array_append_new(banks, o);
	}
	p->version++;
	json_t *all = json_pack("{s:I, s:O, s:o}", "version", (json_int_t)p->version, "ui", p->ui,
	                        "banks", banks);
	free(p->state);
	p->state = json_dumps(all, JSON_COMPACT);
	json_decref(all);
	pthread_cond_broadcast(&p->changed);
}

int qb_preview_publish(qb_preview *p, size_t i, const qb_bank *bank,
                       const struct qb_revisions *rev, const char *const *langs,
                       size_t nlangs, const char *dir, const char *diags, bool errors)
{
	pv_file *files = NULL;
	size_t nfiles = 0;
	json_t *good = NULL, *types = json_object(), *notes = json_object();
	char build[13] = "";
	int rc = 0;
	if (bank) {
		char *apkg = qb_xasprintf("%s/%s.apkg", dir, bank->id);
		char *scorm = qb_xasprintf("%s/%s.scorm12.zip", dir, bank->id);
		if (access(apkg, F_OK) == 0 && read_apkg(apkg, i, &files, &nfiles, types, notes) != 0)
			rc = -1;
		if (access(scorm, F_OK) == 0 && read_scorm(scorm, i, &files, &nfiles, build) != 0)
			rc = -1;
		good = bank_json(bank, rev, langs, nlangs, types, notes, build, p->stale);
		free(apkg);
		free(scorm);
	}
	json_decref(types);
	json_decref(notes);
	json_object_clear(p->stale);
	pthread_mutex_lock(&p->lock);
	pv_bank *b = &p->banks[i];
	if (good) {
		json_decref(b->good);
		b->good = good;
		files_free(b->files, b->nfiles);
		b->files = files;
		b->nfiles = nfiles;
		files = NULL;
		nfiles = 0;
	}
	free(b->diags);
	b->diags = qb_xstrdup(diags ? diags : "");
	b->failed = errors || rc != 0;
	state_update(p);
	pthread_mutex_unlock(&p->lock);
	files_free(files, nfiles);
	return rc;
}

void qb_preview_stale(void *payload, const char *qid, const char *lang)
{
	qb_preview *p = payload;
	json_t *q = json_object_get(p->stale, qid);
	if (!q)
		json_object_set_new(p->stale, qid, q = json_object());
	json_object_set_new(q, lang, json_true());
}

/* ==== HTTP =============================================================== */

static const char *content_type(const char *path)
{
	static const char *const types[][2] = {
		{".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
		{".css", "text/css; charset=utf-8"}, {".json", "application/json"},
		{".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
		{".gif", "image/gif"}, {".webp", "image/webp"}, {".svg", "image/svg+xml"},
		{".mp3", "audio/mpeg"}, {".ogg", "audio/ogg"}, {".oga", "audio/ogg"},
		{".wav", "audio/wav"}, {".m4a", "audio/mp4"}, {".mp4", "video/mp4"},
		{".webm", "video/webm"}, {".woff2", "font/woff2"}, {".xml", "application/xml"},
		{".xsd", "application/xml"}, {".dtd", "application/xml-dtd"},
	};
	size_t n = strlen(path);
	for (size_t i = 0; i < QB_NELEM(types); i++) {
		size_t k = strlen(types[i][0]);
		if (n >= k && strcasecmp(path + n - k, types[i][0]) == 0)
			return types[i][1];
	}
	return "application/octet-stream";
}

/* Queues a response with a copy of data.  Pages, scripts and styles may
 * be framed by the preview page only; anything else (a bank's picture,
 * an SVG) runs sandboxed if opened by itself. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             const void *data, size_t len)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)(uintptr_t)data, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	bool active = strncmp(type, "text/", 5) == 0 || strncmp(type, "application/json", 16) == 0;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
	MHD_add_response_header(r, "Content-Security-Policy",
	                        active ? "frame-ancestors 'self'"
	                               : "default-src 'none'; style-src 'unsafe-inline'; sandbox");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned status, const char *msg)
{
	return reply(c, status, "text/plain; charset=utf-8", msg, strlen(msg));
}

/* True when the Host header names the address served (with its port):
 * a page of another site that resolves its own name to 127.0.0.1 (DNS
 * rebinding) sends its own name, and is refused. */
static bool host_ok(const qb_preview *p, const char *h)
{
	if (!h)
		return false;
	const char *colon = strrchr(h, ':');
	if (!colon || (strchr(h, ']') && colon < strchr(h, ']')))
		return false;
	char *end = NULL;
	unsigned long port = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end || port != p->port)
		return false;
	size_t n = (size_t)(colon - h);
	if (n == strlen(p->host) && strncasecmp(h, p->host, n) == 0)
		return true;
	static const char *const local[] = {"127.0.0.1", "localhost", "[::1]"};
	for (size_t i = 0; p->loopback && i < QB_NELEM(local); i++)
		if (n == strlen(local[i]) && strncasecmp(h, local[i], n) == 0)
			return true;
	if (p->wildcard) { /* any address of this computer, never a name */
		char lit[64];
		if (n + 1 > sizeof lit)
			return false;
		memcpy(lit, h, n);
		lit[n] = '\0';
		unsigned char a[16];
		if (lit[0] == '[' && n > 2 && lit[n - 1] == ']') {
			lit[n - 1] = '\0';
			return inet_pton(AF_INET6, lit + 1, a) == 1;
		}
		return inet_pton(AF_INET, lit, a) == 1;
	}
	return false;
}

/* The state once its version differs from since (or WAIT_SECONDS have
 * passed, or the server stops): a long poll. */
static enum MHD_Result wait_state(qb_preview *p, struct MHD_Connection *c, const char *since)
{
	unsigned long v = since ? strtoul(since, NULL, 10) : 0;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += WAIT_SECONDS;
	pthread_mutex_lock(&p->lock);
	while (p->version == v && !p->stopping)
		if (pthread_cond_timedwait(&p->changed, &p->lock, &until) == ETIMEDOUT)
			break;
	enum MHD_Result r = reply(c, MHD_HTTP_OK, "application/json", p->state, strlen(p->state));
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* libmicrohttpd's unescaping, but a path or argument with an escaped NUL
 * ("%00", which would cut the C string it hands on) becomes one that
 * nothing matches.  Returns the new length. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	QB_UNUSED(cls);
	QB_UNUSED(c);
	for (const char *p = s; (p = strchr(p, '%')) != NULL; p++)
		if (p[1] == '0' && p[2] == '0') {
			strcpy(s, "\x7f");
			return 1;
		}
	return MHD_http_unescape(s);
}

static const char card_frame[] =
	"<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body></body></html>\n";

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
	qb_preview *p = cls;
	QB_UNUSED(version);
	QB_UNUSED(upload);
	QB_UNUSED(con_cls);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (*upload_size) { /* a GET with a body: read and ignored */
		*upload_size = 0;
		return MHD_YES;
	}
	if (!host_ok(p, MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)))
		return text(c, MHD_HTTP_FORBIDDEN, "wrong Host\n");
	if (strcmp(url, "/") == 0)
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", p->page, p->page_len);
	if (strcmp(url, "/preview.js") == 0)
		return reply(c, MHD_HTTP_OK, content_type(url), p->script, p->script_len);
	if (strcmp(url, "/preview.css") == 0)
		return reply(c, MHD_HTTP_OK, content_type(url), p->style, p->style_len);
	if (strcmp(url, "/api/wait") == 0)
		return wait_state(p, c, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "v"));
	if (strcmp(url, "/api/state") == 0)
		return wait_state(p, c, "0");
	enum MHD_Result r = MHD_NO;
	bool found = false;
	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; i < p->nbanks && !found; i++) {
		const pv_bank *b = &p->banks[i];
		char frame[64];
		snprintf(frame, sizeof frame, "/b/%zu/anki/", i);
		if (strcmp(url, frame) == 0) {
			r = reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", card_frame,
			          sizeof card_frame - 1);
			found = true;
		}
		for (size_t k = 0; k < b->nfiles && !found; k++)
			if (url[0] == '/' && strcmp(url + 1, b->files[k].path) == 0) {
				r = reply(c, MHD_HTTP_OK, content_type(url), b->files[k].data,
				          b->files[k].len);
				found = true;
			}
	}
	pthread_mutex_unlock(&p->lock);
	return found ? r : text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* ==== Start and stop ===================================================== */

static char *load(const char *tdir, const char *name, size_t *len)
{
	char *rel = qb_xasprintf("preview/%s", name);
	char *s = qb_template_load(tdir, rel, len);
	free(rel);
	return s;
}

/* The address to bind, or -1 after a diagnostic. */
static int resolve(const char *host, struct sockaddr_storage *sa, socklen_t *len)
{
	struct addrinfo hints = {0}, *res = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	int e = getaddrinfo(host, NULL, &hints, &res);
	if (e != 0 || !res) {
		qb_diag_fatal("--host '%s': %s", host, gai_strerror(e));
		return -1;
	}
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static void set_port(struct sockaddr_storage *sa, unsigned port)
{
	if (sa->ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)(void *)sa)->sin_port = htons((uint16_t)port);
}

qb_preview *qb_preview_start(const qb_preview_opts *o)
{
	qb_preview *p = qb_xcalloc(1, sizeof *p);
	const char *host = o->host ? o->host : "127.0.0.1";
	struct sockaddr_storage sa;
	socklen_t salen = 0;
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_cond_init(&p->changed, &ca);
	pthread_condattr_destroy(&ca);
	p->nbanks = o->nbanks;
	p->stale = json_object();
	p->ui = ui_json();
	p->banks = qb_xcalloc(o->nbanks ? o->nbanks : 1, sizeof *p->banks);
	p->page = load(o->templates_dir, "index.html", &p->page_len);
	p->script = load(o->templates_dir, "preview.js", &p->script_len);
	p->style = load(o->templates_dir, "preview.css", &p->style_len);
	if (!p->page || !p->script || !p->style || resolve(host, &sa, &salen) != 0)
		goto fail;
	bool v6 = sa.ss_family == AF_INET6;
	char addr[INET6_ADDRSTRLEN] = "";
	if (v6) {
		const struct in6_addr *a6 = &((struct sockaddr_in6 *)(void *)&sa)->sin6_addr;
		inet_ntop(AF_INET6, a6, addr, sizeof addr);
		p->loopback = IN6_IS_ADDR_LOOPBACK(a6);
		p->wildcard = IN6_IS_ADDR_UNSPECIFIED(a6);
	} else {
		const struct in_addr *a4 = &((struct sockaddr_in *)(void *)&sa)->sin_addr;
		inet_ntop(AF_INET, a4, addr, sizeof addr);
		p->loopback = (ntohl(a4->s_addr) >> 24) == 127;
		p->wildcard = a4->s_addr == htonl(INADDR_ANY);
	}
	p->host = v6 ? qb_xasprintf("[%s]", addr) : qb_xstrdup(addr);
	unsigned first = o->port >= 0 ? (unsigned)o->port : 8000;
	unsigned tries = o->port >= 0 ? 1 : PORT_TRIES;
	for (unsigned k = 0; k < tries && !p->d; k++) {
		set_port(&sa, first + k);
		p->d = MHD_start_daemon(
			MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
				(v6 ? MHD_USE_IPv6 : 0),
			0, NULL, NULL, answer, p, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
			MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HEADER_LIMIT,
			MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_SECONDS,
			MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
			MHD_OPTION_THREAD_STACK_SIZE, (size_t)256 * 1024,
			MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL, MHD_OPTION_END);
	}
	if (!p->d) {
		if (o->port >= 0)
			qb_diag_fatal("cannot serve at %s port %d: %s", p->host, o->port,
			              strerror(errno ? errno : EADDRINUSE));
		else
			qb_diag_fatal("cannot serve at %s: ports %u to %u are taken", p->host, first,
			              first + tries - 1);
		goto fail;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(p->d, MHD_DAEMON_INFO_BIND_PORT);
	p->port = info ? info->port : first;
	p->url = qb_xasprintf("http://%s:%u/", p->host, p->port);
	pthread_mutex_lock(&p->lock);
	state_update(p);
	pthread_mutex_unlock(&p->lock);
	return p;
fail:
	qb_preview_stop(p);
	return NULL;
}

const char *qb_preview_url(const qb_preview *p)
{
	return p->url;
}

bool qb_preview_public(const qb_preview *p)
{
	return !p->loopback;
}

void qb_preview_stop(qb_preview *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	if (p->d)
		MHD_stop_daemon(p->d);
	for (size_t i = 0; i < p->nbanks; i++) {
		json_decref(p->banks[i].good);
		free(p->banks[i].diags);
		files_free(p->banks[i].files, p->banks[i].nfiles);
	}
	free(p->banks);
	json_decref(p->stale);
	json_decref(p->ui);
	free(p->state);
	free(p->page);
	free(p->script);
	free(p->style);
	free(p->url);
	free(p->host);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
