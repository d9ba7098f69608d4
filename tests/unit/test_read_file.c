/* Unit tests of reading a bank file a block at a time (qb_read_file()):
 * whatever the block size, even one byte, the model and the diagnostics
 * are those of the whole text read at once (qb_read_text()).  The banks
 * put at block edges what the reader must carry across them: texts
 * continued with '\', fenced code, \r\n and \r line ends, a byte-order
 * mark, invalid UTF-8 and NUL bytes, a line longer than a block, a last
 * line without its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "harness.h"
#include "read.h"

static char path[] = "/tmp/qbc-unit-read-XXXXXX";

static void dump_text(qb_buf *o, const char *name, const qb_text *t)
{
	if (!t->present && !t->ntr)
		return;
	qb_buf_appendf(o, "  %s %d:%d present=%d\n", name, t->line, t->col, t->present);
	for (size_t i = 0; i < t->ntr; i++) {
		const qb_tr *tr = &t->tr[i];
		qb_buf_appendf(o, "    [%s] %d:%d:%d %s\n", qb_tr_lang(t, tr), tr->line,
		               qb_tr_col(t->bank, tr), qb_tr_text_col(t->bank, tr), tr->text);
		const int *cols = qb_bank_text_cols(t->bank, tr->text);
		for (const char *p = tr->text; cols && (p = strchr(p, '\n')) != NULL; p++)
			qb_buf_appendf(o, "      col %d\n", *cols++);
	}
}

/* Everything the reader made of the bank, as text. */
static char *dump(const qb_bank *b)
{
	qb_buf o = QB_BUF_INIT;
	qb_buf_appendf(&o, "bank %s langs", b->id ? b->id : "-");
	for (size_t k = 0; k < b->nlangs; k++)
		qb_buf_appendf(&o, " %s@%d:%d", b->langs[k].code, b->langs[k].loc.line,
		               b->langs[k].loc.col);
	qb_buf_appendf(&o, "\n");
	dump_text(&o, "title", &b->title);
	dump_text(&o, "description", &b->description);
	for (size_t i = 0; i < b->nquestions; i++) {
		const qb_question *q = &b->questions[i];
		qb_buf_appendf(&o, "q %d %s %d:%d type %s\n", q->number, q->id ? q->id : "-",
		               q->loc.line, q->loc.col, qb_qtype_name(q->type));
		for (size_t t = 0; t < q->ntags; t++)
			qb_buf_appendf(&o, "  tag %s %d:%d\n", q->tags[t].name, q->tags[t].loc.line,
			               q->tags[t].loc.col);
		dump_text(&o, "prompt", &q->prompt);
		for (size_t c = 0; c < q->nchoices; c++) {
			const qb_choice *ch = &q->choices[c];
			qb_buf_appendf(&o, "  choice %zu %d:%d correct=%d\n", c, ch->line, ch->col,
			               ch->correct);
			dump_text(&o, "text", &ch->text);
			dump_text(&o, "feedback", &ch->feedback);
			dump_text(&o, "match", qb_choice_match(ch));
		}
		dump_text(&o, "explanation", &q->explanation);
		dump_text(&o, "feedback-wrong", qb_question_feedback_wrong(q));
		dump_text(&o, "feedback-true", qb_question_feedback(q, true));
		dump_text(&o, "feedback-false", qb_question_feedback(q, false));
	}
	return qb_buf_detach(&o);
}

/* Reads the bank (whole when block is 0, else from the file block bytes
 * at a time); returns its dump and the diagnostics (*diags). */
static char *read_as(const char *text, size_t len, size_t block, char **diags)
{
	char dpath[64];
	snprintf(dpath, sizeof dpath, "%s.err", path);
	fflush(stderr);
	int saved = dup(2);
	FILE *e = freopen(dpath, "w", stderr);
	OK(e != NULL);
	qb_bank *b = block ? qb_read_file(path, block) : qb_read_text(path, text, len);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char *out = b ? dump(b) : NULL;
	qb_bank_free(b);
	FILE *f = fopen(dpath, "rb");
	qb_buf d = QB_BUF_INIT;
	char chunk[4096];
	for (size_t n; f && (n = fread(chunk, 1, sizeof chunk, f)) > 0;)
		qb_buf_append(&d, chunk, n);
	if (f)
		fclose(f);
	remove(dpath);
	*diags = qb_buf_detach(&d);
	return out;
}

/* The diagnostics' first lines ("file:line:col: level: ..."), sorted: a
 * block read reports a block's encoding errors before the next block's
 * lines, the whole text all of them first. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *heads(const char *diags)
{
	char *copy = strdup(diags ? diags : "");
	char **v = calloc(strlen(copy) + 1, sizeof *v);
	size_t n = 0;
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (strncmp(l, path, strlen(path)) == 0)
			v[n++] = l;
	qsort(v, n, sizeof *v, cmp_str);
	qb_buf o = QB_BUF_INIT;
	for (size_t i = 0; i < n; i++)
		qb_buf_appendf(&o, "%s\n", v[i]);
	free(v);
	free(copy);
	return qb_buf_detach(&o);
}

/* Writes the bank, reads it whole and in blocks of several sizes, and
 * checks that each read gives the same model and diagnostics. */
static void same_in_blocks(const char *name, const char *text, size_t len, bool exact_order)
{
	FILE *f = fopen(path, "wb");
	OK(f && fwrite(text, 1, len, f) == len);
	if (f)
		fclose(f);
	char *whole_diags, *whole = read_as(text, len, 0, &whole_diags);
	OK(whole != NULL);
	char *whole_heads = heads(whole_diags);
	static const size_t blocks[] = {1, 2, 3, 7, 64, 4096, 1 << 20};
	for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
		char *diags, *got = read_as(text, len, blocks[i], &diags);
		bool same = got && whole && strcmp(got, whole) == 0;
		char *got_heads = heads(diags);
		bool same_diags = exact_order ? strcmp(diags, whole_diags) == 0
		                              : strcmp(got_heads, whole_heads) == 0;
		if (!same || !same_diags)
			printf("%s, blocks of %zu bytes:\n--- whole\n%s%s--- in blocks\n%s%s", name,
			       blocks[i], whole ? whole : "(null)\n", whole_diags, got ? got : "(null)\n",
			       diags);
		OK(same);
		OK(same_diags);
		free(got);
		free(diags);
		free(got_heads);
	}
	free(whole);
	free(whole_diags);
	free(whole_heads);
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	/* Every read is compared whole: no error limit (it holds until a
	 * summary, which this test never prints). */
	qb_diag_set_max_errors(0);

	static const char plain[] =
	    "\xEF\xBB\xBF# a bank with every kind of line\n"
	    "bank: blocks\nlanguages: en sw\ntitle:\n  en: Blocks\n  sw: Vipande\n"
	    "1. continued\n   tags: a b\n   en: A text that goes on \\\n       on the next line \\\n"
	    "       and the next.\n   sw: Maandishi \\\n       yanaendelea.\n"
	    "   * en: Right\n     sw: Sahihi\n     > en: Yes.\n       sw: Ndiyo.\n"
	    "   - en: Wrong\n     sw: Kosa\n"
	    "   explanation:\n     en: Code:\n\n       ```\n       int x = 1;\n\n         y();\n"
	    "       ```\n     sw: Msimbo.\n"
	    "2. pairs\n   type: matching\n   en: Match.\n   sw: Linganisha.\n"
	    "   - en: left => right\n     sw: kushoto => kulia\n"
	    "   explanation:\n     en: Because.\n     sw: Kwa sababu.\n"
	    "3. tf\n   type: true-false\n   answer: true\n   en: True?\n   sw: Kweli?\n"
	    "   feedback-false:\n     en: No.\n     sw: Hapana.\n"
	    "   explanation:\n     en: It is.\n     sw: Ndivyo.\n"
	    "4. long\n   en: ";
	qb_buf b = QB_BUF_INIT;
	qb_buf_append(&b, plain, sizeof plain - 1);
	for (int i = 0; i < 3000; i++) /* a line longer than most blocks */
		qb_buf_appendf(&b, "w%d ", i);
	qb_buf_appendf(&b, "\n   sw: Ndefu\n   * en: A\n     sw: A\n   - en: B\n     sw: B\n"
	                   "   explanation:\n     en: E.\n     sw: E.");  /* no line end */
	same_in_blocks("plain", b.ptr, b.len, true);

	/* The same with \r\n line ends, and with \r alone. */
	qb_buf crlf = QB_BUF_INIT, cr = QB_BUF_INIT;
	for (size_t i = 0; i < b.len; i++) {
		if (b.ptr[i] == '\n') {
			qb_buf_append(&crlf, "\r\n", 2);
			qb_buf_putc(&cr, '\r');
		} else {
			qb_buf_putc(&crlf, b.ptr[i]);
			qb_buf_putc(&cr, b.ptr[i]);
		}
	}
	same_in_blocks("crlf", crlf.ptr, crlf.len, true);
	same_in_blocks("cr", cr.ptr, cr.len, true);

	/* Mistakes: bad bytes (more than the 20 shown) between syntax errors,
	 * and a code fence left open at the end. */
	qb_buf bad = QB_BUF_INIT;
	qb_buf_appendf(&bad, "bank: bad\nlanguages: en sw\ntitle:\n  en: T\n  sw: K\n");
	for (int i = 0; i < 30; i++) {
		qb_buf_appendf(&bad, "%d. q%d\n   en: P\xff%d\n   sw:S\n   * en: A\n     sw: A", i + 1,
		               i, i);
		qb_buf_putc(&bad, '\0');
		qb_buf_appendf(&bad, "\n   - en: B\n     sw: B\n   explanation:\n     en: E\n"
		                     "     sw: E\n");
	}
	qb_buf_appendf(&bad, "31. open\n   en: P\n   sw: S\n   explanation:\n     en: ```\n"
	                     "     code\n");
	same_in_blocks("bad", bad.ptr, bad.len, false);

	/* Syntax errors far into the file, past many of the marks a quote
	 * starts from, with \r\n line ends: the quotes read the file again
	 * and show the very lines the whole text shows. */
	qb_buf late = QB_BUF_INIT;
	qb_buf_appendf(&late, "bank: late\r\nlanguages: en sw\r\ntitle:\r\n  en: T\r\n  sw: K\r\n");
	for (int i = 0; i < 150; i++)
		qb_buf_appendf(&late, "%d. q%d\r\n   en: P%d\r\n   sw:%sS\r\n\r\n   * en: A\r\n     sw: A\r\n"
		                      "   - en: B\r\n     sw: B\r\n   explanation:\r\n     en: E\r\n"
		                      "     sw: E\r\n",
		               i + 1, i, i, i % 37 == 36 ? "" : " ");
	same_in_blocks("late", late.ptr, late.len, true);
	qb_buf_dispose(&late);

	/* An empty file and one of blank lines. */
	same_in_blocks("empty", "", 0, true);
	same_in_blocks("blank", "\n\n\r\n", 4, true);

	/* A file that cannot be read. */
	OK(qb_read_file("/nonexistent/x.qb", 0) == NULL);

	qb_buf_dispose(&b);
	qb_buf_dispose(&crlf);
	qb_buf_dispose(&cr);
	qb_buf_dispose(&bad);
	remove(path);
	qb_diag_dispose();
	return h_done("test_read_file");
}
