/* anki_db.h - the SQLite side of an Anki package: the collection.anki2
 * database at schema 11 (anki-format.md §A2-§A4).
 *
 * The collection is built in a scratch file that the caller names and
 * removes (memory stays flat whatever the collection's size), filled with
 * prepared statements inside one transaction; the same input always
 * gives the same bytes.  The JSON columns of `col` are
 * written from jansson values.  This module knows Anki's rules for rows
 * (field separator, sort field, checksum); it knows nothing of banks. */
#ifndef QB_ANKI_DB_H
#define QB_ANKI_DB_H

#include <jansson.h>
#include <stdint.h>

#include "buf.h"
#include "qb.h"

typedef struct qb_anki_db qb_anki_db;

/* The collection's page size (anki_db.c says why): page 1, SQLite's
 * header and the schema, is written again at the end. */
#define QB_ANKI_DB_PAGE_SIZE 65536

/* The one `col` row (§A3.1).  Times: crt in seconds, mod/scm in ms. */
typedef struct qb_anki_col {
	int64_t crt;           /* collection creation, seconds               */
	int64_t mod_ms;        /* last change, milliseconds                  */
	const json_t *conf;    /* collection config object                   */
	const json_t *models;  /* {"<notetype id>": notetype}                */
	const json_t *decks;   /* {"<deck id>": deck}                        */
	const json_t *dconf;   /* {"<options id>": options}                  */
} qb_anki_col;

/* One row of `notes` (§A4.1).  sfld and csum are computed from fields. */
typedef struct qb_anki_note {
	int64_t id;                 /* milliseconds-style id                 */
	const char *guid;
	int64_t mid;                /* notetype id                           */
	int64_t mod;                /* seconds                               */
	const char *tags;           /* " a b c " (leading and trailing space)*/
	const char *const *fields;  /* HTML, in notetype field order         */
	const size_t *lens;         /* their lengths (strlen())              */
	size_t nfields;
	size_t sortf;               /* index of the sort field               */
} qb_anki_note;

/* One row of `cards` for a new card (§A4.2). */
typedef struct qb_anki_card {
	int64_t id;
	int64_t nid;
	int64_t did;
	int ord;                    /* template index                        */
	int64_t mod;                /* seconds                               */
	int64_t due;                /* new-card position, 1-based            */
} qb_anki_card;

/* Told of each write into the database file once it is done: len bytes
 * at off (len reaching UINT64_MAX: the file was cut at off). */
typedef void (*qb_anki_db_wrote_fn)(void *payload, uint64_t off, uint64_t len);

/* Creates an empty schema-11 collection in file (absent or empty) and
 * begins the one transaction; wrote (unless NULL) is told of every write
 * into file from then on.  Returns NULL after a diagnostic.  Free
 * with qb_anki_db_free(). */
qb_anki_db *qb_anki_db_new(const char *file, qb_anki_db_wrote_fn wrote, void *payload);

/* Insert rows.  Return 0, or -1 after a diagnostic. */
int qb_anki_db_set_col(qb_anki_db *db, const qb_anki_col *col);
int qb_anki_db_add_note(qb_anki_db *db, const qb_anki_note *note);
int qb_anki_db_add_card(qb_anki_db *db, const qb_anki_card *card);

/* Commits the transaction and closes the database: file (the one given
 * to qb_anki_db_new) then holds the collection.  Returns 0, or -1 after
 * a diagnostic.  The database cannot be used afterwards except to free
 * it. */
int qb_anki_db_finish(qb_anki_db *db, const char *file);

/* Closes the database (rolling back an unfinished transaction).  NULL is
 * allowed. */
void qb_anki_db_free(qb_anki_db *db);

/* Anki's stripHTMLMedia (anki@2.1.16:anki/utils.py:143-154): every
 * <img src=X> becomes " X ", comments and <style>/<script> blocks are
 * dropped, all other tags removed and character references decoded
 * (numeric, and the HTML 4 names through libxml2's table).  Appends the
 * result to out. */
void qb_anki_strip_html_media(qb_buf *out, const char *html);

/* Anki's fieldChecksum: the first 4 bytes of SHA-1 of the stripped field,
 * as a big-endian unsigned number (§A4.1). */
int64_t qb_anki_field_checksum(const char *html);

#endif
