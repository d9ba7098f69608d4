/* Unit tests of the revision record's hashes (revision.c) and of its
 * stale rules' table (stale.c).  A bank whose hashes do not fit the
 * budget gets them through a window that is hashed again for the second
 * pass.  That path must give exactly what every row
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
#include "stale.h"

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

/* A bank of two questions in NLANG languages (codes aaa, aab, ...),
 * more names than a record once searched one by one; edited: question
 * b's text in language EDITED. */
#define NLANG 1500
#define EDITED 1400

/* The code of language k: three letters. */
static const char *code(int k)
{
	static char c[4][4];
	static int next;
	char *s = c[next++ % 4];
	s[0] = (char)('a' + k / 676);
	s[1] = (char)('a' + k / 26 % 26);
	s[2] = (char)('a' + k % 26);
	s[3] = '\0';
	return s;
}

static qb_bank *make_lang_bank(bool edited)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_puts(&b, "bank: langs\nlanguages:");
	for (int k = 0; k < NLANG; k++)
		qb_buf_appendf(&b, " %s", code(k));
	qb_buf_puts(&b, "\ntitle:\n");
	for (int k = 0; k < NLANG; k++)
		qb_buf_appendf(&b, "  %s: T %d\n", code(k), k);
	for (int i = 0; i < 2; i++) {
		qb_buf_appendf(&b, "%d. %c\n", i + 1, "ab"[i]);
		for (int k = 0; k < NLANG; k++)
			qb_buf_appendf(&b, "   %s: Q %d %d%s\n", code(k), i, k,
			               edited && i == 1 && k == EDITED ? " edited" : "");
		const char *marks[] = {"*", "-"};
		for (int o = 0; o < 2; o++)
			for (int k = 0; k < NLANG; k++)
				qb_buf_appendf(&b, "   %s %s: O %d %d\n", k ? " " : marks[o], code(k), o, k);
		qb_buf_puts(&b, "   explanation:\n");
		for (int k = 0; k < NLANG; k++)
			qb_buf_appendf(&b, "     %s: E %d\n", code(k), k);
	}
	qb_bank *bank = qb_read_text("langs.qb", b.ptr, b.len);
	qb_buf_dispose(&b);
	return bank;
}

/* The record of make_lang_bank(false), loaded back and updated with the
 * same bank, then with the edited one. */
static void many_languages(void)
{
	qb_bank *bank = make_lang_bank(false);
	OK(bank && bank->nquestions == 2);
	if (!bank)
		return;
	bool io;
	char *path = qb_fs_join(dir, "langs.lock");
	qb_revisions *rev = qb_rev_load(path, &io);
	qb_rev_report report = {0};
	OK(rev && qb_rev_update(rev, bank, NULL, dir, NOW, &report));
	qb_rev_report_dispose(&report);
	OK(rev && qb_rev_save(rev, path, "langs.qb") == 0);
	qb_rev_free(rev);
	char *first = slurp(path);
	OK(first && strstr(first, "text b option-2 cfr "));

	rev = qb_rev_load(path, &io);
	OK(rev != NULL);
	report = (qb_rev_report){0};
	OK(rev && !qb_rev_update(rev, bank, NULL, dir, NOW + 60, &report));
	OK(report.nadded == 0 && report.nchanged == 0 && report.nremoved == 0);
	qb_rev_report_dispose(&report);
	OK(rev && qb_rev_save(rev, path, "langs.qb") == 0);
	char *again = slurp(path);
	OK(first && again && strcmp(first, again) == 0);
	qb_rev_free(rev);
	qb_bank_free(bank);

	bank = make_lang_bank(true);
	rev = qb_rev_load(path, &io);
	report = (qb_rev_report){0};
	OK(rev && bank && qb_rev_update(rev, bank, NULL, dir, NOW + 60, &report));
	OK(report.nchanged == 1 && report.nchanged && strcmp(report.changed[0], "b") == 0);
	OK(rev && qb_rev_question_time(rev, "b", code(EDITED)) == NOW + 60);
	OK(rev && qb_rev_question_time(rev, "b", code(EDITED - 1)) == NOW);
	OK(rev && qb_rev_question_time(rev, "a", code(EDITED)) == NOW);
	qb_rev_report_dispose(&report);
	qb_rev_free(rev);
	qb_bank_free(bank);
	free(first);
	free(again);
	free(path);
}

/* The update's question pass reads the hashes the question thread made
 * (qb_rev_hashes_start()): the edited question, and only it, changed.
 * What the writers keep of the record (qb_rev_times_take()) gives the
 * same times in the languages built.  Then the save in two steps: the
 * record is in place only after the commit, the same bytes as it was
 * read; a discarded save leaves nothing behind. */
static void question_pass_and_save(const qb_bank *edited)
{
	bool io;
	char *path = qb_fs_join(dir, "new0.lock");
	qb_revisions *rev = qb_rev_load(path, &io);
	free(path);
	OK(rev != NULL);
	if (!rev)
		return;
	qb_rev_hashes *h = hashes(edited, FULL);
	qb_rev_report report = {0};
	OK(qb_rev_update(rev, edited, h, dir, NOW + 60, &report));
	qb_rev_hashes_free(h);
	OK(report.nchanged == 1 && strcmp(report.changed[0], "q-1400") == 0);
	qb_rev_report_dispose(&report);
	OK(qb_rev_question_time(rev, "q-1400", "en") == NOW + 60);
	OK(qb_rev_question_time(rev, "q-1400", "sw") == NOW);
	OK(qb_rev_question_time(rev, "q-1399", "en") == NOW);
	size_t k = 0;
	while (k < edited->nquestions && strcmp(edited->questions[k].id, "q-1400") != 0)
		k++;
	OK(k < edited->nquestions);
	const char *sw[] = {"sw"};
	for (int only_sw = 0; only_sw <= 1 && k < edited->nquestions; only_sw++) {
		qb_rev_times t;
		qb_rev_times_take(&t, rev, edited, only_sw ? sw : NULL, only_sw ? 1 : 0);
		OK(t.question[k] == (only_sw ? NOW : NOW + 60));
		OK(t.question[k - 1] == NOW);
		OK(t.revision == qb_rev_number(rev) && t.latest == qb_rev_latest(rev));
		OK(qb_rev_times_template(&t, dir) == qb_rev_template_time(rev, dir));
		OK(qb_rev_times_template(&t, "no-such-folder") == 0);
		qb_rev_times_dispose(&t);
	}
	qb_rev_free(rev);

	path = qb_fs_join(dir, "next0.lock");
	char *before = slurp(path);
	rev = qb_rev_load(path, &io);
	OK(rev != NULL);
	char *to = qb_fs_join(dir, "two-step.lock");
	for (int commit = 0; rev && commit <= 1; commit++) {
		unlink(to);
		int files = h_entries(dir);
		qb_fs_atomic a;
		OK(qb_rev_save_begin(rev, to, "rev.qb", &a) == 0);
		OK(access(to, F_OK) != 0 && h_entries(dir) == files + 1); /* only the temporary file */
		if (commit)
			OK(qb_rev_save_commit(&a, to) == 0);
		else
			qb_fs_atomic_discard(&a);
		char *after = slurp(to);
		if (commit)
			OK(after && before && strcmp(after, before) == 0);
		else
			OK(!after && h_entries(dir) == files);
		free(after);
	}
	free(to);
	qb_rev_free(rev);
	free(before);
	free(path);
}

/* Review marks the stale text "reviewed" at the end of its line; the mark
 * reads back, survives an update however the hashes come, and a line
 * with anything else there is malformed. */
static void reviewed(const qb_bank *bank)
{
	bool io;
	char *path = qb_fs_join(dir, "next0.lock");
	qb_revisions *rev = qb_rev_load(path, &io);
	OK(rev != NULL);
	if (!rev) {
		free(path);
		return;
	}
	OK(qb_rev_review(rev, bank, NULL, 0, NULL, NULL) == 1);
	char *to = qb_fs_join(dir, "reviewed.lock");
	OK(qb_rev_save(rev, to, "rev.qb") == 0);
	qb_rev_free(rev);
	char *text = slurp(to);
	const char *mark = text ? strstr(text, " reviewed\n") : NULL;
	OK(mark != NULL);
	OK(mark && !strstr(mark + 1, " reviewed\n")); /* that one text only */
	const char *line = mark;
	while (line && line > text && line[-1] != '\n')
		line--;
	OK(line && strncmp(line, "text q-1400 prompt sw ", 22) == 0);
	for (int how = FULL; how <= NONE; how++) {
		char out[32];
		snprintf(out, sizeof out, "rv%d.lock", how);
		char *again = stale_then_update(bank, "reviewed.lock", how, "/dev/null", out);
		OK(again && text && strcmp(again, text) == 0);
		free(again);
	}
	/* Another word where "reviewed" goes: not a record. */
	if (mark) {
		qb_buf bad = QB_BUF_INIT;
		qb_buf_append(&bad, text, (size_t)(mark - text));
		qb_buf_puts(&bad, " reviewd\n");
		qb_buf_puts(&bad, mark + strlen(" reviewed\n"));
		char *bp = qb_fs_join(dir, "bad.lock");
		OK(qb_fs_write_atomic(bp, bad.ptr, bad.len) == 0);
		fflush(stderr);
		int saved = dup(2);
		OK(freopen("/dev/null", "w", stderr) != NULL);
		rev = qb_rev_load(bp, &io);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		OK(rev == NULL && !io);
		qb_rev_free(rev);
		free(bp);
		qb_buf_dispose(&bad);
	}
	free(text);
	free(to);
	free(path);
}

/* The rules table (stale.c): a row for every pair, and a text is stale
 * for another language exactly when its basis differs for it and that
 * language's text neither is new nor caught up; the build takes in every
 * part it is not stale for and that is not already the same. */
static void rules_table(void)
{
	for (int p = 0; p < QB_PART_COUNT; p++)
		for (int o = 0; o < QB_OTHER_COUNT; o++) {
			const qb_stale_rule *r = qb_stale_rule_of((qb_stale_part)p, (qb_stale_other)o);
			OK(r->part == (qb_stale_part)p && r->other == (qb_stale_other)o);
			bool stale = p == QB_PART_DIFFERS && o != QB_OTHER_NEW && o != QB_OTHER_CAUGHT;
			OK(r->stale == stale);
			OK(r->take == (!stale && p != QB_PART_SAME));
		}
}

int main(void)
{
	rules_table();
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
	OK(rec[FULL] && !strstr(rec[FULL], "reviewed\n")); /* the format as before */
	for (int how = FULL; how <= NONE; how++) {
		free(rec[how]);
		free(wtext[how]);
	}
	reviewed(bank);
	question_pass_and_save(bank);
	qb_bank_free(bank);
	many_languages();
	qb_diag_dispose();

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	OK(system(cmd) == 0);
	return h_done("test_revision");
}
