/* Unit tests of the revision record's hashes (revision.c): a bank whose
 * hashes do not fit the budget gets them through a window that is hashed
 * again for the second pass.  That path must give exactly what every row
 * in memory (and hashing as it goes, with no rows at all) gives: the same
 * record and the same stale-translation warnings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "harness.h"
#include "read.h"
#include "revision.h"

#define NQ 1500     /* about 7,500 elements: many windows of a few hundred */
#define CHANGED 1400 /* the question whose English prompt changes: far past the first window */
#define NOW ((time_t)1790000000)

enum { FULL, WINDOW, NONE }; /* how the hashes are made */

static char dir[] = "/tmp/qbc-unit-rev-XXXXXX";

static qb_bank *make_bank(const char *name, bool edited)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_appendf(&b, "bank: rev\nlanguages: en sw\ntitle:\n  en: T\n  sw: K\n");
	for (int i = 0; i < NQ; i++) {
		qb_buf_appendf(&b, "%d. q-%d\n   en: Question %d%s\n   sw: Swali %d\n", i + 1, i, i,
		               edited && i == CHANGED ? ", edited" : "", i);
		qb_buf_appendf(&b, "   * en: Right %d\n     sw: Sahihi %d\n", i, i);
		if (i % 3 == 0)
			qb_buf_appendf(&b, "     > en: Yes.\n       sw: Ndiyo.\n");
		qb_buf_appendf(&b, "   - en: Wrong %d\n     sw: Kosa %d\n", i, i);
		qb_buf_appendf(&b, "   explanation:\n     en: Because %d.\n     sw: Kwa sababu %d.\n",
		               i, i);
	}
	qb_bank *bank = qb_read_text(name, b.ptr, b.len);
	qb_buf_dispose(&b);
	return bank;
}

static qb_rev_hashes *hashes(const qb_bank *bank, int how)
{
	return how == FULL ? qb_rev_hashes_start(bank)
	     : how == WINDOW ? qb_rev_hashes_start_budget(bank, 1)
	                     : NULL;
}

static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len = 0;
	if (qb_fs_read(path, &data, &len) != 0)
		return NULL;
	return data;
}

/* Loads the record from (or starts one), checks bank against it with its
 * stderr in warn_path, updates it and saves it to out; returns the saved
 * text (heap). */
static char *stale_then_update(const qb_bank *bank, const char *from, int how,
                               const char *warn_path, const char *out)
{
	bool io;
	char *path = qb_fs_join(dir, from ? from : "none.lock");
	qb_revisions *rev = qb_rev_load(path, &io);
	free(path);
	OK(rev != NULL);
	if (!rev)
		return NULL;
	qb_rev_hashes *h = hashes(bank, how);
	fflush(stderr);
	int saved = dup(2);
	OK(freopen(warn_path, "w", stderr) != NULL);
	qb_rev_check_stale(rev, bank, h);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	qb_rev_report report = {0};
	qb_rev_update(rev, bank, h, dir, NOW, &report);
	qb_rev_hashes_free(h);
	qb_rev_report_dispose(&report);
	char *to = qb_fs_join(dir, out);
	OK(qb_rev_save(rev, to, "rev.qb") == 0);
	qb_rev_free(rev);
	char *text = slurp(to);
	free(to);
	return text;
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char warn[3][64];
	qb_bank *bank = make_bank("rev.qb", false);
	OK(bank && bank->nquestions == NQ);

	/* A new record: the same, however the hashes come. */
	char *rec[3];
	for (int how = FULL; how <= NONE; how++) {
		char out[32];
		snprintf(warn[how], sizeof warn[how], "%s/w%d", dir, how);
		snprintf(out, sizeof out, "new%d.lock", how);
		rec[how] = stale_then_update(bank, NULL, how, warn[how], out);
	}
	OK(rec[FULL] && strstr(rec[FULL], "text q-1499 explanation sw "));
	OK(rec[WINDOW] && rec[FULL] && strcmp(rec[WINDOW], rec[FULL]) == 0);
	OK(rec[NONE] && rec[FULL] && strcmp(rec[NONE], rec[FULL]) == 0);
	for (int how = FULL; how <= NONE; how++)
		free(rec[how]);
	qb_bank_free(bank);

	/* One English prompt edited far past the first window: its Swahili
	 * text is stale, and the window finds it as the full rows do. */
	bank = make_bank("rev.qb", true);
	char *wtext[3];
	for (int how = FULL; how <= NONE; how++) {
		char out[32];
		snprintf(out, sizeof out, "next%d.lock", how);
		rec[how] = stale_then_update(bank, "new0.lock", how, warn[how], out);
		wtext[how] = slurp(warn[how]);
	}
	OK(wtext[FULL] && strstr(wtext[FULL], "q-1400") && strstr(wtext[FULL], "'sw'"));
	OK(wtext[FULL] && !strstr(wtext[FULL], "q-1399"));
	OK(wtext[WINDOW] && wtext[FULL] && strcmp(wtext[WINDOW], wtext[FULL]) == 0);
	OK(wtext[NONE] && wtext[FULL] && strcmp(wtext[NONE], wtext[FULL]) == 0);
	OK(rec[WINDOW] && rec[FULL] && strcmp(rec[WINDOW], rec[FULL]) == 0);
	OK(rec[NONE] && rec[FULL] && strcmp(rec[NONE], rec[FULL]) == 0);
	for (int how = FULL; how <= NONE; how++) {
		free(rec[how]);
		free(wtext[how]);
	}
	qb_bank_free(bank);
	qb_diag_dispose();

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	OK(system(cmd) == 0);
	return h_done("test_revision");
}
