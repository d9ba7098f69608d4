/* apkgdump.c - looks inside an Anki package for the tests, with the same
 * libraries an importer would use: libzip for the archive, sqlite3 for
 * collection.anki2 (opened from memory, read-only).
 *
 *   apkgdump PKG members          name, size, method (store/deflate), mtime
 *   apkgdump PKG cat MEMBER       the member's bytes on stdout
 *   apkgdump PKG sql QUERY...     each query's rows, columns joined by '|'
 *
 * Exit status: 0 ok, 1 a query or member failed, 2 usage. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

static int usage(void)
{
	fputs("usage: apkgdump PKG members|cat MEMBER|sql QUERY...\n", stderr);
	return 2;
}

/* Reads member name of z into a fresh buffer; NULL if absent. */
static unsigned char *read_member(zip_t *z, const char *name, size_t *len)
{
	zip_stat_t st;
	if (zip_stat(z, name, 0, &st) != 0)
		return NULL;
	zip_file_t *f = zip_fopen(z, name, 0);
	if (!f)
		return NULL;
	unsigned char *buf = malloc(st.size ? st.size : 1);
	zip_int64_t n = buf ? zip_fread(f, buf, st.size) : -1;
	zip_fclose(f);
	if (n < 0 || (zip_uint64_t)n != st.size) {
		free(buf);
		return NULL;
	}
	*len = st.size;
	return buf;
}

static int members(zip_t *z)
{
	zip_int64_t n = zip_get_num_entries(z, 0);
	for (zip_int64_t i = 0; i < n; i++) {
		zip_stat_t st;
		if (zip_stat_index(z, (zip_uint64_t)i, 0, &st) != 0)
			return 1;
		printf("%s\t%llu\t%s\t%lld\n", st.name, (unsigned long long)st.size,
		       st.comp_method == ZIP_CM_STORE ? "store" : "deflate", (long long)st.mtime);
	}
	return 0;
}

static int sql(zip_t *z, int nq, char **queries)
{
	size_t len = 0;
	unsigned char *data = read_member(z, "collection.anki2", &len);
	if (!data) {
		fputs("apkgdump: no collection.anki2\n", stderr);
		return 1;
	}
	sqlite3 *db = NULL;
	int rc = 1;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		goto done;
	/* sqlite3_deserialize takes memory from sqlite3_malloc. */
	unsigned char *copy = sqlite3_malloc64(len);
	if (!copy)
		goto done;
	memcpy(copy, data, len);
	if (sqlite3_deserialize(db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
	                        SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) !=
	    SQLITE_OK) {
		fprintf(stderr, "apkgdump: %s\n", sqlite3_errmsg(db));
		goto done;
	}
	for (int q = 0; q < nq; q++) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, queries[q], -1, &st, NULL) != SQLITE_OK) {
			fprintf(stderr, "apkgdump: %s\n", sqlite3_errmsg(db));
			goto done;
		}
		int r;
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			int nc = sqlite3_column_count(st);
			for (int c = 0; c < nc; c++) {
				const unsigned char *v = sqlite3_column_text(st, c);
				printf("%s%s", c ? "|" : "", v ? (const char *)v : "");
			}
			putchar('\n');
		}
		sqlite3_finalize(st);
		if (r != SQLITE_DONE) {
			fprintf(stderr, "apkgdump: %s\n", sqlite3_errmsg(db));
			goto done;
		}
	}
	rc = 0;
done:
	sqlite3_close(db);
	free(data);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return usage();
	int err = 0;
	zip_t *z = zip_open(argv[1], ZIP_RDONLY | ZIP_CHECKCONS, &err);
	if (!z) {
		fprintf(stderr, "apkgdump: cannot open %s (libzip error %d)\n", argv[1], err);
		return 1;
	}
	int rc;
	if (strcmp(argv[2], "members") == 0)
		rc = members(z);
	else if (strcmp(argv[2], "cat") == 0 && argc == 4) {
		size_t len = 0;
		unsigned char *d = read_member(z, argv[3], &len);
		rc = d && fwrite(d, 1, len, stdout) == len ? 0 : 1;
		free(d);
	} else if (strcmp(argv[2], "sql") == 0 && argc >= 4)
		rc = sql(z, argc - 3, argv + 3);
	else
		rc = usage();
	zip_discard(z);
	return rc;
}
