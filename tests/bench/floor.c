/* floor.c - the cost floor of an Anki package, for `make bench`.
 *
 *   floor IN.apkg OUT.apkg [LEVEL]
 *
 * Loads every row of IN.apkg's collection (col, notes, cards, and the
 * other tables) and its media into memory, then, timed: creates an
 * in-memory SQLite database with the same page size and schema, inserts
 * the same rows with prepared statements in one transaction, serializes
 * it, and writes it with the media into a zip through qbc's own zip layer
 * (zipw.c: libdeflate at LEVEL, default 9, the collection in blocks on
 * every core, libzip for the archive), so the floor compresses exactly as
 * qbc does.  Prints the timed seconds on stdout.
 *
 * Whatever qbc does beyond that (reading and checking the bank, Markdown,
 * the note fields) is its own overhead: `qbc build --format anki` divided
 * by this figure is the ratio the benchmark reports. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>

#include "zipw.h"

typedef struct table {
	char *name;
	char *insert;        /* INSERT INTO name VALUES (?, ?, ...) */
	int ncols;
	sqlite3_value **vals; /* rows * ncols */
	size_t nrows;
} table;

typedef struct member {
	char *name;
	void *data;
	zip_uint64_t len;
} member;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "floor: %s: %s\n", what, why ? why : "failed");
	exit(3);
}

static void *read_member(zip_t *z, const char *name, zip_uint64_t *len)
{
	zip_stat_t st;
	if (zip_stat(z, name, 0, &st) != 0)
		die(name, zip_strerror(z));
	zip_file_t *f = zip_fopen(z, name, 0);
	void *buf = malloc(st.size ? st.size : 1);
	if (!f || !buf || zip_fread(f, buf, st.size) != (zip_int64_t)st.size)
		die(name, zip_strerror(z));
	zip_fclose(f);
	*len = st.size;
	return buf;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		die(sql, err);
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: floor IN.apkg OUT.apkg [LEVEL]\n");
		return 2;
	}
	int level = argc == 4 ? atoi(argv[3]) : 9;
	int zerr = 0;
	zip_t *in = zip_open(argv[1], ZIP_RDONLY, &zerr);
	if (!in)
		die(argv[1], "cannot open");

	/* ---- untimed: everything into memory ---- */
	zip_uint64_t col_len;
	void *col = read_member(in, "collection.anki2", &col_len);
	zip_int64_t nentries = zip_get_num_entries(in, 0);
	member *media = calloc((size_t)nentries + 1, sizeof *media);
	size_t nmedia = 0;
	for (zip_int64_t i = 0; i < nentries; i++) {
		const char *name = zip_get_name(in, (zip_uint64_t)i, 0);
		if (!name || strcmp(name, "collection.anki2") == 0)
			continue;
		media[nmedia].name = strdup(name);
		media[nmedia].data = read_member(in, name, &media[nmedia].len);
		nmedia++;
	}
	zip_close(in);

	sqlite3 *src;
	if (sqlite3_open(":memory:", &src) != SQLITE_OK)
		die("sqlite3_open", NULL);
	unsigned char *copy = sqlite3_malloc64(col_len);
	memcpy(copy, col, col_len);
	if (sqlite3_deserialize(src, "main", copy, (sqlite3_int64)col_len, (sqlite3_int64)col_len,
	                        SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
	    SQLITE_OK)
		die("sqlite3_deserialize", sqlite3_errmsg(src));

	char **schema = NULL;
	bool *is_index = NULL; /* made after the rows, as anki_db.c does */
	size_t nschema = 0;
	table *tables = NULL;
	size_t ntables = 0;
	sqlite3_stmt *st;
	/* The package's page size, then the schema, in creation order, and
	 * every table's rows. */
	int page_size = 4096;
	if (sqlite3_prepare_v2(src, "PRAGMA page_size", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		page_size = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(src, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL"
	                            " ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		die("schema", sqlite3_errmsg(src));
	while (sqlite3_step(st) == SQLITE_ROW) {
		schema = realloc(schema, (nschema + 1) * sizeof *schema);
		is_index = realloc(is_index, (nschema + 1) * sizeof *is_index);
		is_index[nschema] = strcmp((const char *)sqlite3_column_text(st, 0), "index") == 0;
		schema[nschema++] = strdup((const char *)sqlite3_column_text(st, 2));
		if (strcmp((const char *)sqlite3_column_text(st, 0), "table") == 0) {
			tables = realloc(tables, (ntables + 1) * sizeof *tables);
			memset(&tables[ntables], 0, sizeof *tables);
			tables[ntables++].name = strdup((const char *)sqlite3_column_text(st, 1));
		}
	}
	sqlite3_finalize(st);
	for (size_t t = 0; t < ntables; t++) {
		table *tb = &tables[t];
		char sql[256];
		snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", tb->name);
		if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK)
			die(sql, sqlite3_errmsg(src));
		tb->ncols = sqlite3_column_count(st);
		size_t cap = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (tb->nrows == cap) {
				cap = cap ? 2 * cap : 64;
				tb->vals = realloc(tb->vals, cap * (size_t)tb->ncols * sizeof *tb->vals);
			}
			for (int c = 0; c < tb->ncols; c++)
				tb->vals[tb->nrows * (size_t)tb->ncols + (size_t)c] =
					sqlite3_value_dup(sqlite3_column_value(st, c));
			tb->nrows++;
		}
		sqlite3_finalize(st);
		size_t len = strlen(tb->name) + 32 + 3 * (size_t)tb->ncols;
		tb->insert = malloc(len);
		int n = snprintf(tb->insert, len, "INSERT INTO \"%s\" VALUES (", tb->name);
		for (int c = 0; c < tb->ncols; c++)
			n += snprintf(tb->insert + n, len - (size_t)n, c ? ",?" : "?");
		snprintf(tb->insert + n, len - (size_t)n, ")");
	}
	sqlite3_close(src);

	/* ---- timed: the same rows into a new database, then the zip ---- */
	double t0 = now();
	sqlite3 *db;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK)
		die("sqlite3_open", NULL);
	char pragma[96];
	snprintf(pragma, sizeof pragma, "PRAGMA page_size = %d; PRAGMA encoding = 'UTF-8';",
	         page_size);
	exec(db, pragma);
	for (size_t i = 0; i < nschema; i++)
		if (!is_index[i])
			exec(db, schema[i]);
	exec(db, "BEGIN");
	for (size_t t = 0; t < ntables; t++) {
		table *tb = &tables[t];
		if (sqlite3_prepare_v2(db, tb->insert, -1, &st, NULL) != SQLITE_OK)
			die(tb->insert, sqlite3_errmsg(db));
		for (size_t r = 0; r < tb->nrows; r++) {
			for (int c = 0; c < tb->ncols; c++)
				sqlite3_bind_value(st, c + 1, tb->vals[r * (size_t)tb->ncols + (size_t)c]);
			if (sqlite3_step(st) != SQLITE_DONE)
				die(tb->insert, sqlite3_errmsg(db));
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
	}
	for (size_t i = 0; i < nschema; i++)
		if (is_index[i])
			exec(db, schema[i]);
	exec(db, "COMMIT");
	sqlite3_int64 size = 0;
	unsigned char *bytes = sqlite3_serialize(db, "main", &size, 0);
	if (!bytes)
		die("sqlite3_serialize", NULL);
	qb_zipw *out = qb_zipw_open(argv[2], 0);
	if (!out)
		die(argv[2], "cannot create");
	qb_zipw_set_level(out, level);
	if (qb_zipw_add(out, "collection.anki2", bytes, (size_t)size, true) != 0)
		die("zip", NULL);
	for (size_t i = 0; i < nmedia; i++)
		if (qb_zipw_add(out, media[i].name, media[i].data, media[i].len, true) != 0)
			die("zip", NULL);
	if (qb_zipw_commit(out) != 0)
		die(argv[2], NULL);
	double dt = now() - t0;
	sqlite3_free(bytes);
	sqlite3_close(db);
	printf("%.3f\n", dt);

	for (size_t t = 0; t < ntables; t++) {
		for (size_t k = 0; k < tables[t].nrows * (size_t)tables[t].ncols; k++)
			sqlite3_value_free(tables[t].vals[k]);
		free(tables[t].vals);
		free(tables[t].name);
		free(tables[t].insert);
	}
	free(tables);
	for (size_t i = 0; i < nschema; i++)
		free(schema[i]);
	free(schema);
	free(is_index);
	for (size_t i = 0; i < nmedia; i++) {
		free(media[i].name);
		free(media[i].data);
	}
	free(media);
	free(col);
	return 0;
}
