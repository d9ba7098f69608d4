/* Unit tests of diagnostics kept on another thread (qb_diag_later): the
 * build reads the revision record beside the bank, and the record's
 * messages must come out whole, in order, after the bank's, counted and
 * turned into errors by --werror as if printed then. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "harness.h"

static const char record[] = "qbc-revisions 1\nnot a line\nanother bad line\n";

/* What the record reader does on its thread: its source, an error on
 * line 2, a warning on line 3, a note without a place. */
static void *report_on_thread(void *arg)
{
	qb_diag_later **out = arg;
	qb_diag_later_begin();
	qb_diag_add_source_owned("r.lock", qb_xstrdup(record), strlen(record));
	qb_diag_error(QB_LOC("r.lock", 2, 1), "malformed line %d", 2);
	qb_diag_warning(QB_LOC("r.lock", 3, 5), "odd line %s", "three");
	qb_diag_note(QB_LOC("r.lock", 0, 0), "a note");
	*out = qb_diag_later_end();
	return NULL;
}

static qb_diag_later *kept_on_thread(void)
{
	qb_diag_later *l = NULL;
	pthread_t t;
	if (pthread_create(&t, NULL, report_on_thread, &l) != 0)
		return NULL;
	pthread_join(t, NULL);
	return l;
}

static void test_kept_then_reported(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	qb_diag_set_stream(f);
	qb_diag_mark m = qb_diag_mark_now();
	qb_diag_later *l = kept_on_thread();
	OK(l != NULL);
	fflush(f);
	INT_EQ(len, 0); /* nothing printed, nothing counted on the thread */
	INT_EQ(qb_diag_errors_since(m), 0);
	qb_diag_error(QB_LOC("bank.qb", 1, 1), "the bank's own error");
	qb_diag_later_report(l);
	fflush(f);
	INT_EQ(qb_diag_errors_since(m), 2);
	INT_EQ(qb_diag_warnings_since(m), 1);
	const char *bank = strstr(text, "bank.qb:1:1: error: the bank's own error");
	const char *err = strstr(text, "r.lock:2:1: error: malformed line 2");
	const char *quote = strstr(text, "    2 | not a line");
	const char *warn = strstr(text, "r.lock:3:5: warning: odd line three");
	const char *note = strstr(text, "r.lock: note: a note");
	OK(bank && err && quote && warn && note);
	OK(bank && err && bank < err);          /* after the bank's */
	OK(err && quote && warn && err < quote && quote < warn && warn < note);
	qb_diag_set_stream(NULL);
	fclose(f);
	free(text);
}

static void test_werror_and_dropped(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	qb_diag_set_stream(f);
	qb_diag_set_werror(true);
	qb_diag_mark m = qb_diag_mark_now();
	qb_diag_later_report(kept_on_thread());
	fflush(f);
	INT_EQ(qb_diag_errors_since(m), 2); /* the warning, under --werror */
	OK(strstr(text, "r.lock:3:5: error: odd line three") != NULL);
	qb_diag_set_werror(false);
	/* Dropped (the bank had errors): nothing printed, nothing counted. */
	m = qb_diag_mark_now();
	size_t before = len;
	qb_diag_later_free(kept_on_thread());
	qb_diag_later_report(NULL);
	fflush(f);
	INT_EQ(len, before);
	INT_EQ(qb_diag_errors_since(m), 0);
	qb_diag_set_stream(NULL);
	fclose(f);
	free(text);
}

int main(void)
{
	qb_diag_set_color(0);
	test_kept_then_reported();
	test_werror_and_dropped();
	qb_diag_dispose();
	return h_done("diag-later");
}
