/* anki_db.c - see anki_db.h.  The schema and the column rules are from
 * anki-format.md §A2 (rslib/src/storage/schema11.sql:1-78) and §A4. */
#include "anki_db.h"

#include <ctype.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "alloc.h"
#include "diag.h"
#include "escape.h"
#include "hash.h"

/* A VFS over SQLite's own that tells the database file's writes to
 * qb_anki_db_new()'s caller once they are done: a shim in the manner of
 * SQLite's own (ext/misc/vfstrace.c), every call passed on as it is. */
typedef struct watch_vfs {
	sqlite3_vfs vfs;          /* what SQLite sees: first                  */
	sqlite3_vfs *base;
	qb_anki_db_wrote_fn wrote;
	void *payload;
	char name[48];            /* unique: registered while the db is open  */
} watch_vfs;

typedef struct watch_file {
	sqlite3_file file;        /* what SQLite sees: first                  */
	watch_vfs *vfs;           /* NULL: not the database (a temp file)     */
	/* the base VFS's file follows */
} watch_file;

struct qb_anki_db {
	sqlite3 *db;
	sqlite3_stmt *ins_col;
	sqlite3_stmt *ins_note;
	sqlite3_stmt *ins_card;
	bool in_tx;   /* BEGIN done, COMMIT not yet                            */
	watch_vfs *watch; /* NULL: no one is told of the writes                */
};

static sqlite3_file *real(sqlite3_file *f)
{
	return (sqlite3_file *)((watch_file *)f + 1);
}

static int w_close(sqlite3_file *f)
{
	int rc = real(f)->pMethods->xClose(real(f));
	f->pMethods = NULL;
	return rc;
}
static int w_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return real(f)->pMethods->xRead(real(f), buf, n, off);
}
static int w_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	int rc = real(f)->pMethods->xWrite(real(f), buf, n, off);
	watch_vfs *v = ((watch_file *)f)->vfs;
	if (v && n > 0 && off >= 0) /* told even when it failed: bytes may have changed */
		v->wrote(v->payload, (uint64_t)off, (uint64_t)n);
	return rc;
}
static int w_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	int rc = real(f)->pMethods->xTruncate(real(f), size);
	watch_vfs *v = ((watch_file *)f)->vfs;
	if (v && size >= 0)
		v->wrote(v->payload, (uint64_t)size, UINT64_MAX - (uint64_t)size);
	return rc;
}
static int w_sync(sqlite3_file *f, int flags)
{
	return real(f)->pMethods->xSync(real(f), flags);
}
static int w_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return real(f)->pMethods->xFileSize(real(f), size);
}
static int w_lock(sqlite3_file *f, int lock)
{
	return real(f)->pMethods->xLock(real(f), lock);
}
static int w_unlock(sqlite3_file *f, int lock)
{
	return real(f)->pMethods->xUnlock(real(f), lock);
}
static int w_reserved(sqlite3_file *f, int *out)
{
	return real(f)->pMethods->xCheckReservedLock(real(f), out);
}
static int w_control(sqlite3_file *f, int op, void *arg)
{
	return real(f)->pMethods->xFileControl(real(f), op, arg);
}
static int w_sector(sqlite3_file *f)
{
	return real(f)->pMethods->xSectorSize(real(f));
}
static int w_device(sqlite3_file *f)
{
	return real(f)->pMethods->xDeviceCharacteristics(real(f));
}

/* Version 1: no shared memory (no WAL: the journal is off) and no
 * memory-mapped pages, so every write comes through w_write(). */
static const sqlite3_io_methods watch_io = {
	1, w_close, w_read, w_write, w_truncate, w_sync, w_size, w_lock, w_unlock, w_reserved,
	w_control, w_sector, w_device, NULL, NULL, NULL, NULL, NULL, NULL,
};

static int w_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	watch_vfs *v = (watch_vfs *)vfs;
	watch_file *wf = (watch_file *)f;
	wf->vfs = (flags & SQLITE_OPEN_MAIN_DB) ? v : NULL;
	int rc = v->base->xOpen(v->base, name, real(f), flags, out);
	/* SQLite closes what has methods, even after a failed open. */
	f->pMethods = real(f)->pMethods ? &watch_io : NULL;
	return rc;
}
static int w_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xDelete(b, name, sync);
}
static int w_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xAccess(b, name, flags, out);
}
static int w_fullpath(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xFullPathname(b, name, n, out);
}
static int w_random(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xRandomness(b, n, out);
}
static int w_sleep(sqlite3_vfs *vfs, int us)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xSleep(b, us);
}
static int w_time(sqlite3_vfs *vfs, double *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xCurrentTime(b, out);
}
static int w_error(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	return b->xGetLastError ? b->xGetLastError(b, n, out) : 0;
}
static int w_time64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
	sqlite3_vfs *b = ((watch_vfs *)vfs)->base;
	if (b->iVersion >= 2 && b->xCurrentTimeInt64)
		return b->xCurrentTimeInt64(b, out);
	double t;
	int rc = b->xCurrentTime(b, &t);
	*out = (sqlite3_int64)(t * 86400000.0);
	return rc;
}

/* A watching VFS over the default one, registered under a name of its
 * own; NULL when there is no default VFS. */
static watch_vfs *watch_new(qb_anki_db_wrote_fn wrote, void *payload)
{
	sqlite3_vfs *base = sqlite3_vfs_find(NULL);
	if (!base)
		return NULL;
	watch_vfs *v = qb_xcalloc(1, sizeof *v);
	v->base = base;
	v->wrote = wrote;
	v->payload = payload;
	snprintf(v->name, sizeof v->name, "qbc-watch-%p", (void *)v);
	v->vfs = (sqlite3_vfs){
		.iVersion = 2,
		.szOsFile = (int)sizeof(watch_file) + base->szOsFile,
		.mxPathname = base->mxPathname,
		.zName = v->name,
		.xOpen = w_open,
		.xDelete = w_delete,
		.xAccess = w_access,
		.xFullPathname = w_fullpath,
		.xRandomness = w_random,
		.xSleep = w_sleep,
		.xCurrentTime = w_time,
		.xGetLastError = w_error,
		.xCurrentTimeInt64 = w_time64,
	};
	if (sqlite3_vfs_register(&v->vfs, 0) != SQLITE_OK) {
		free(v);
		return NULL;
	}
	return v;
}

static void watch_free(watch_vfs *v)
{
	if (!v)
		return;
	sqlite3_vfs_unregister(&v->vfs);
	free(v);
}

/* The schema of collection.anki2 at version 11, as Anki writes it. */
static const char schema_sql[] =
	"CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,"
	" scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL,"
	" ls integer NOT NULL, conf text NOT NULL, models text NOT NULL, decks text NOT NULL,"
	" dconf text NOT NULL, tags text NOT NULL);"
	"CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL,"
	" mod integer NOT NULL, usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,"
	" sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL,"
	" data text NOT NULL);"
	"CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL,"
	" ord integer NOT NULL, mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL,"
	" queue integer NOT NULL, due integer NOT NULL, ivl integer NOT NULL,"
	" factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,"
	" left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL,"
	" flags integer NOT NULL, data text NOT NULL);"
	"CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL,"
	" ease integer NOT NULL, ivl integer NOT NULL, lastIvl integer NOT NULL,"
	" factor integer NOT NULL, time integer NOT NULL, type integer NOT NULL);"
	"CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);";
/* Anki's indexes, made after the rows are in (qb_anki_db_finish()). */
static const char index_sql[] =
	"CREATE INDEX ix_notes_usn ON notes (usn);"
	"CREATE INDEX ix_cards_usn ON cards (usn);"
	"CREATE INDEX ix_revlog_usn ON revlog (usn);"
	"CREATE INDEX ix_cards_nid ON cards (nid);"
	"CREATE INDEX ix_cards_sched ON cards (did, queue, due);"
	"CREATE INDEX ix_revlog_cid ON revlog (cid);"
	"CREATE INDEX ix_notes_csum ON notes (csum);";

/* ver 11, dty/usn/ls 0 (§A3.1); tags "{}". */
static const char ins_col_sql[] =
	"INSERT INTO col (id, crt, mod, scm, ver, dty, usn, ls, conf, models, decks, dconf, tags)"
	" VALUES (1, ?1, ?2, ?2, 11, 0, 0, 0, ?3, ?4, ?5, ?6, '{}')";
/* usn -1, flags 0, data "" (§A4.1). */
static const char ins_note_sql[] =
	"INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data)"
	" VALUES (?1, ?2, ?3, ?4, -1, ?5, ?6, ?7, ?8, 0, '')";
/* A new card: type 0, queue 0, scheduling zero (§A4.2). */
static const char ins_card_sql[] =
	"INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, reps,"
	" lapses, left, odue, odid, flags, data)"
	" VALUES (?1, ?2, ?3, ?4, ?5, -1, 0, 0, ?6, 0, 0, 0, 0, 0, 0, 0, 0, '')";

#define STR_(x) #x
#define STR(x) STR_(x)
#define PAGE_SIZE_SQL STR(QB_ANKI_DB_PAGE_SIZE)

/* Anki's field separator in notes.flds (anki/utils.py joinFields). */
#define FIELD_SEP '\x1f'

static int db_fail(qb_anki_db *db, const char *what)
{
	qb_diag_fatal("anki collection: %s: %s", what, sqlite3_errmsg(db->db));
	return -1;
}

qb_anki_db *qb_anki_db_new(const char *file, qb_anki_db_wrote_fn wrote, void *payload)
{
	qb_anki_db *db = qb_xcalloc(1, sizeof *db);
	if (wrote && !(db->watch = watch_new(wrote, payload))) {
		qb_diag_fatal("anki collection: cannot open a database in '%s'", file);
		goto fail;
	}
	if (sqlite3_open_v2(file, &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	                    db->watch ? db->watch->name : NULL) != SQLITE_OK) {
		qb_diag_fatal("anki collection: cannot open a database in '%s'", file);
		goto fail;
	}
	/* A scratch file: no journal, no syncs (a failed build deletes it),
	 * SQLite's small page cache, so memory stays flat however big the
	 * collection. */
	if (sqlite3_exec(db->db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;", NULL,
	                 NULL, NULL) != SQLITE_OK) {
		db_fail(db, "setting up the database");
		goto fail;
	}
	/* 64 KiB pages, not the 4096 of Anki's own files (§A2): a note's
	 * fields (2-6 KB) then fit in its page instead of spilling into
	 * overflow pages, so the collection is 17 % smaller, and deflates to
	 * 32 % fewer bytes, since the fields stay contiguous.  SQLite reads
	 * any page size; Anki's importer only reads rows from it.  The page
	 * cache is set to 2 MiB after the page size: left to its default, a
	 * one-transaction build of 64 KiB pages held about 16 MiB more. */
	if (sqlite3_exec(db->db, "PRAGMA page_size = " PAGE_SIZE_SQL "; PRAGMA cache_size = -2048;"
	                         " PRAGMA encoding = 'UTF-8';", NULL,
	                 NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db->db, schema_sql, NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(db, "creating the schema");
		goto fail;
	}
	if (sqlite3_prepare_v2(db->db, ins_col_sql, -1, &db->ins_col, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->db, ins_note_sql, -1, &db->ins_note, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->db, ins_card_sql, -1, &db->ins_card, NULL) != SQLITE_OK) {
		db_fail(db, "preparing statements");
		goto fail;
	}
	if (sqlite3_exec(db->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(db, "BEGIN");
		goto fail;
	}
	db->in_tx = true;
	return db;
fail:
	qb_anki_db_free(db);
	return NULL;
}

/* Steps a fully bound insert and resets it for the next row. */
static int step(qb_anki_db *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, what);
	return 0;
}

/* Binds a compact JSON dump of v (insertion order, so deterministic). */
static int bind_json(sqlite3_stmt *st, int i, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!s)
		return SQLITE_NOMEM;
	return sqlite3_bind_text(st, i, s, -1, free);
}

int qb_anki_db_set_col(qb_anki_db *db, const qb_anki_col *col)
{
	sqlite3_stmt *st = db->ins_col;
	if (sqlite3_bind_int64(st, 1, col->crt) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, col->mod_ms) != SQLITE_OK ||
	    bind_json(st, 3, col->conf) != SQLITE_OK || bind_json(st, 4, col->models) != SQLITE_OK ||
	    bind_json(st, 5, col->decks) != SQLITE_OK || bind_json(st, 6, col->dconf) != SQLITE_OK)
		return db_fail(db, "binding the col row");
	return step(db, st, "inserting the col row");
}

int qb_anki_db_add_note(qb_anki_db *db, const qb_anki_note *note)
{
	qb_buf flds = QB_BUF_INIT, sfld = QB_BUF_INIT;
	int rc = -1;
	size_t len = note->nfields;
	for (size_t i = 0; i < note->nfields; i++)
		len += note->lens[i];
	qb_buf_reserve(&flds, len);
	for (size_t i = 0; i < note->nfields; i++) {
		if (i)
			qb_buf_putc(&flds, FIELD_SEP);
		qb_buf_append(&flds, note->fields[i], note->lens[i]);
	}
	qb_anki_strip_html_media(&sfld, note->sortf < note->nfields ? note->fields[note->sortf] : "");
	int64_t csum = qb_anki_field_checksum(note->nfields ? note->fields[0] : "");

	sqlite3_stmt *st = db->ins_note;
	if (sqlite3_bind_int64(st, 1, note->id) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, note->guid, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, note->mid) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 4, note->mod) != SQLITE_OK ||
	    sqlite3_bind_text(st, 5, note->tags, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 6, qb_buf_cstr(&flds), (int)flds.len, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 7, qb_buf_cstr(&sfld), (int)sfld.len, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 8, csum) != SQLITE_OK) {
		db_fail(db, "binding a note");
		goto done;
	}
	rc = step(db, st, "inserting a note");
done:
	qb_buf_dispose(&flds);
	qb_buf_dispose(&sfld);
	return rc;
}

int qb_anki_db_add_card(qb_anki_db *db, const qb_anki_card *card)
{
	sqlite3_stmt *st = db->ins_card;
	if (sqlite3_bind_int64(st, 1, card->id) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, card->nid) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 3, card->did) != SQLITE_OK ||
	    sqlite3_bind_int(st, 4, card->ord) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 5, card->mod) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 6, card->due) != SQLITE_OK)
		return db_fail(db, "binding a card");
	return step(db, st, "inserting a card");
}

/* Header fields that a file database gets from its commits and an
 * in-memory one leaves zero: the change counter (offset 24), the counter
 * the page count is valid for (92) and the SQLite version that wrote it
 * (96).  Zeroed, so that the file's bytes depend on its rows alone, not
 * on the number of commits or the library's version (§A2). */
static int zero_header_counters(qb_anki_db *db, const char *file)
{
	static const unsigned char zeros[8];
	FILE *f = fopen(file, "r+b");
	if (!f)
		return -1;
	int rc = fseek(f, 24, SEEK_SET) == 0 && fwrite(zeros, 1, 4, f) == 4 &&
	                 fseek(f, 92, SEEK_SET) == 0 && fwrite(zeros, 1, 8, f) == 8
	             ? 0
	             : -1;
	if (fclose(f) != 0)
		rc = -1;
	if (db->watch) {
		db->watch->wrote(db->watch->payload, 24, 4);
		db->watch->wrote(db->watch->payload, 92, 8);
	}
	return rc;
}

int qb_anki_db_finish(qb_anki_db *db, const char *file)
{
	if (sqlite3_exec(db->db, index_sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "creating the indexes");
	if (sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "COMMIT");
	db->in_tx = false;
	sqlite3_finalize(db->ins_col);
	sqlite3_finalize(db->ins_note);
	sqlite3_finalize(db->ins_card);
	db->ins_col = db->ins_note = db->ins_card = NULL;
	if (sqlite3_close(db->db) != SQLITE_OK)
		return db_fail(db, "closing the database");
	db->db = NULL;
	if (zero_header_counters(db, file) != 0) {
		qb_diag_fatal("anki collection: cannot finish '%s': %s", file, strerror(errno));
		return -1;
	}
	return 0;
}

void qb_anki_db_free(qb_anki_db *db)
{
	if (!db)
		return;
	sqlite3_finalize(db->ins_col);
	sqlite3_finalize(db->ins_note);
	sqlite3_finalize(db->ins_card);
	if (db->db) {
		if (db->in_tx)
			sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db->db);
	}
	watch_free(db->watch);
	free(db);
}

/* ---- Anki's text rules ---- */

/* Case-insensitive prefix test. */
static bool starts_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* Finds needle case-insensitively in s, or NULL.  Every needle here
 * starts with '<' or '-', which have no case: strchr() skips to the
 * places where one can start, instead of a comparison at every byte. */
static const char *find_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);
	bool caseless = !isalpha((unsigned char)needle[0]);
	for (; *s; s++) {
		if (caseless && (s = strchr(s, needle[0])) == NULL)
			return NULL;
		if (strncasecmp(s, needle, n) == 0)
			return s;
	}
	return NULL;
}

/* reMedia = (?i)<img[^>]+src=["']?([^"'>]+)["']?[^>]*>   at p (which
 * starts with "<img").  On a match appends " X " and returns the end of
 * the match; otherwise returns NULL. */
static const char *strip_img(qb_buf *out, const char *p)
{
	const char *gt = strchr(p + 4, '>');
	if (!gt)
		return NULL;
	/* [^>]+ is greedy: take the last "src=" that leaves at least one
	 * character after "<img". */
	const char *src = NULL;
	for (const char *s = p + 5; s + 4 <= gt; s++)
		if (starts_ci(s, "src="))
			src = s;
	while (src) {
		const char *v = src + 4;
		if (*v == '"' || *v == '\'')
			v++;
		size_t n = strcspn(v, "\"'>");
		if (n > 0) {
			/* ["']?[^>]*> always matches up to the first '>' after v. */
			const char *end = strchr(v + n, '>');
			qb_buf_putc(out, ' ');
			qb_buf_append(out, v, n);
			qb_buf_putc(out, ' ');
			return end + 1;
		}
		/* Backtrack: an earlier "src=". */
		const char *prev = NULL;
		for (const char *s = p + 5; s < src; s++)
			if (starts_ci(s, "src="))
				prev = s;
		src = prev;
	}
	return NULL;
}

/* Removes the blocks that start with open (case-insensitive prefix of the
 * opening tag, up to its '>') and end with close. */
static char *drop_blocks(const char *s, const char *open, const char *close, bool tag)
{
	qb_buf b = QB_BUF_INIT;
	for (;;) {
		const char *o = find_ci(s, open);
		if (!o)
			break;
		const char *body = o + strlen(open);
		if (tag) {
			body = strchr(body, '>');
			if (!body)
				break;
			body++;
		}
		const char *c = find_ci(body, close);
		if (!c)
			break;
		qb_buf_append(&b, s, (size_t)(o - s));
		s = c + strlen(close);
	}
	qb_buf_puts(&b, s);
	return qb_buf_detach(&b);
}

/* entsToTxt (anki@2.1.16:anki/utils.py:157-177): "&nbsp;" -> " ", then
 * every match of &#?\w+; that names a character is decoded: "&#x" + hex
 * (lower-case x only), "&#" + decimal, or an HTML 4 entity name (Python's
 * html.entities.name2codepoint, which is libxml2's HTML 4 table without
 * "apos").  Anything else is left as written. */
static void decode_entities(qb_buf *out, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		size_t k = s[i] == '&' ? qb_entity_decode(out, s + i, n - i,
		                                          QB_ENTITY_ANKI | QB_ENTITY_NBSP_SPACE)
		                       : 0;
		if (k)
			i += k;
		else
			qb_buf_putc(out, s[i++]);
	}
}

void qb_anki_strip_html_media(qb_buf *out, const char *html)
{
	/* 1. media: <img ... src=X ...> -> " X " */
	qb_buf m = QB_BUF_INIT;
	const char *p = html;
	for (;;) {
		const char *img = find_ci(p, "<img");
		if (!img)
			break;
		qb_buf_append(&m, p, (size_t)(img - p));
		const char *after = strip_img(&m, img);
		if (after)
			p = after;
		else {
			qb_buf_append(&m, img, 4);
			p = img + 4;
		}
	}
	qb_buf_puts(&m, p);
	/* 2. comments, <style> and <script> blocks */
	char *a = drop_blocks(qb_buf_cstr(&m), "<!--", "-->", false);
	char *b = drop_blocks(a, "<style", "</style>", true);
	char *c = drop_blocks(b, "<script", "</script>", true);
	/* 3. every tag: <.*?> */
	qb_buf t = QB_BUF_INIT;
	for (const char *s = c; *s;) {
		const char *gt = *s == '<' ? strchr(s, '>') : NULL;
		if (gt)
			s = gt + 1;
		else
			qb_buf_putc(&t, *s++);
	}
	/* 4. character references */
	decode_entities(out, qb_buf_cstr(&t));
	qb_buf_dispose(&t);
	free(c);
	free(b);
	free(a);
	qb_buf_dispose(&m);
}

int64_t qb_anki_field_checksum(const char *html)
{
	qb_buf s = QB_BUF_INIT;
	qb_anki_strip_html_media(&s, html);
	uint8_t d[QB_SHA1_SIZE];
	qb_hash_sha1(d, qb_buf_cstr(&s), s.len);
	qb_buf_dispose(&s);
	return (int64_t)(((uint32_t)d[0] << 24) | ((uint32_t)d[1] << 16) | ((uint32_t)d[2] << 8) |
	                 (uint32_t)d[3]);
}
