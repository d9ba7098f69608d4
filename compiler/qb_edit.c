/* qb_edit.c - the source-preserving .qb editor (see qb_edit.h).
 *
 * The source is kept as its lines; an edit replaces the lines of one
 * translation, or adds lines after one.  Where a translation ends is
 * found as the reader finds it (input/README.md): its line goes on while
 * it ends in '\\' (up to a blank line, a comment or the start of anything
 * else the model knows) and, inside fenced code, up to the closing
 * fence. */
#include "qb_edit.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "write_qb.h"

typedef struct line {
	const char *s;   /* the line's bytes, without its '\n'              */
	size_t len;
	bool nl;         /* a '\n' ended it                                 */
	bool gone;       /* replaced by the repl of an earlier line         */
	char *repl;      /* whole lines replacing it (each with its '\n')   */
	char *after;     /* whole lines added after it                      */
} line;

struct qb_edit {
	const qb_bank *bank;
	line *v;
	size_t n;
	int *starts;     /* lines where something of the model starts, sorted */
	size_t nstarts, capstarts;
};

static void add_start(qb_edit *ed, int ln)
{
	if (ln <= 0)
		return;
	if (ed->nstarts == ed->capstarts)
		ed->starts = qb_xrealloc(ed->starts, (ed->capstarts = ed->capstarts * 2 + 64) *
		                                         sizeof *ed->starts);
	ed->starts[ed->nstarts++] = ln;
}

static void add_text(qb_edit *ed, const qb_text *t)
{
	if (!t || !t->present)
		return;
	add_start(ed, t->line);
	for (uint32_t i = 0; i < t->ntr; i++)
		add_start(ed, t->tr[i].line);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

qb_edit *qb_edit_new(const qb_bank *bank, const char *src, size_t len)
{
	qb_edit *ed = qb_xcalloc(1, sizeof *ed);
	ed->bank = bank;
	size_t cap = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(src + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (src + i)) : len - i;
		if (ed->n == cap)
			ed->v = qb_xrealloc(ed->v, (cap = cap * 2 + 256) * sizeof *ed->v);
		ed->v[ed->n++] = (line){src + i, n, nl != NULL, false, NULL, NULL};
		i += n + (nl != NULL);
	}
	const qb_loc header[] = {bank->id_loc, bank->langs_loc, bank->default_lang_loc,
	                         bank->pass_mark_loc, bank->scoring_loc, bank->shuffle_options_loc,
	                         bank->shuffle_questions_loc, bank->draw_loc};
	for (size_t i = 0; i < QB_NELEM(header); i++)
		add_start(ed, header[i].line);
	add_text(ed, &bank->title);
	add_text(ed, &bank->description);
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		const qb_rare *rare = qb_question_rare(q);
		const qb_loc locs[] = {q->loc,           q->id_loc,          q->type_loc,
		                       rare->scoring_loc, rare->shuffle_loc, rare->case_loc,
		                       rare->answer_loc,  rare->unit_loc};
		for (size_t k = 0; k < QB_NELEM(locs); k++)
			add_start(ed, locs[k].line);
		for (size_t k = 0; k < q->ntags; k++)
			add_start(ed, q->tags[k].loc.line);
		add_text(ed, &q->prompt);
		for (size_t c = 0; c < q->nchoices; c++) {
			add_start(ed, q->choices[c].line);
			add_text(ed, &q->choices[c].text);
			add_text(ed, &q->choices[c].feedback);
			add_text(ed, q->choices[c].match);
		}
		if (qb_question_rare(q)->feedback_tf) {
			add_text(ed, qb_question_feedback(q, true));
			add_text(ed, qb_question_feedback(q, false));
		}
		add_text(ed, qb_question_feedback_wrong(q));
		add_text(ed, &q->explanation);
	}
	qsort(ed->starts, ed->nstarts, sizeof *ed->starts, cmp_int);
	return ed;
}

void qb_edit_free(qb_edit *ed)
{
	if (!ed)
		return;
	for (size_t i = 0; i < ed->n; i++) {
		free(ed->v[i].repl);
		free(ed->v[i].after);
	}
	free(ed->v);
	free(ed->starts);
	free(ed);
}

/* The first line after ln where something of the model starts, or the
 * line after the last one. */
static int next_start(const qb_edit *ed, int ln)
{
	size_t lo = 0, hi = ed->nstarts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ed->starts[mid] <= ln)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ed->nstarts ? ed->starts[lo] : (int)ed->n + 1;
}

/* The byte offset of 1-based character column col in l. */
static size_t col_offset(const line *l, int col)
{
	size_t i = 0;
	for (int c = 1; c < col && i < l->len; c++) {
		i++;
		while (i < l->len && ((unsigned char)l->s[i] & 0xC0) == 0x80)
			i++;
	}
	return i;
}

/* The last line (1-based) of the translation tr, whose text starts at
 * byte off of its line. */
static int tr_end(const qb_edit *ed, const qb_tr *tr, size_t off)
{
	int ln = tr->line, stop = next_start(ed, tr->line);
	size_t fence = 0;
	char fch = 0;
	for (;;) {
		const line *l = &ed->v[ln - 1];
		const char *s = l->s + off;
		size_t n = l->len - off;
		if (fence) {
			size_t sp = strspn(s, " \t");
			sp = sp < n ? sp : n;
			size_t k = qb_qb_fence_len(s + sp, n - sp);
			if (k >= fence && s[sp] == fch)
				fence = 0;
			else if (ln + 1 < stop && (size_t)ln < ed->n) {
				ln++;
				off = 0;
				continue;
			}
		} else {
			size_t sp = strspn(s, " \t");
			sp = sp < n ? sp : n;
			if ((fence = qb_qb_fence_len(s + sp, n - sp)) != 0) {
				fch = s[sp];
				if (ln + 1 < stop && (size_t)ln < ed->n) {
					ln++;
					off = 0;
					continue;
				}
				return ln;
			}
		}
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
			n--;
		if (!n || s[n - 1] != '\\' || ln + 1 >= stop || (size_t)ln >= ed->n)
			return ln;
		const line *next = &ed->v[ln];
		size_t sp = strspn(next->s, " \t");
		if (sp >= next->len || next->s[sp] == '#')
			return ln; /* a dropped '\\' before a blank line or a comment */
		ln++;
		off = 0;
	}
}

/* Appends text as qb_qb_put_text() writes it, but as an author writes it
 * where the reader would read the same text either way: an empty line of
 * fenced code without indentation, and no lone '\\' line before a table
 * (the reader puts the empty line above a table by itself).  The import
 * reads the edited bank back, so a form the reader takes otherwise is
 * caught there. */
static void put_text(qb_buf *out, const char *text, int indent)
{
	qb_buf b = QB_BUF_INIT;
	qb_qb_put_text(&b, text, indent);
	const char *p = qb_buf_cstr(&b);
	size_t fence = 0;
	bool prev_cont = false; /* the line before ends in '\\' */
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		size_t sp = strspn(p, " ");
		sp = sp < n ? sp : n;
		const char *next = nl ? nl + 1 : p + n;
		size_t f = qb_qb_fence_len(p + sp, n - sp);
		if (fence && sp == n) {
			n = 0; /* an empty line of code */
		} else if (!fence && prev_cont && n == sp + 1 && p[sp] == '\\' &&
		           next[strspn(next, " ")] == '|') {
			p = next; /* the reader's own empty line above a table */
			continue;
		}
		if (f)
			fence = fence ? 0 : f;
		prev_cont = n && p[n - 1] == '\\';
		qb_buf_append(out, p, n);
		if (nl)
			qb_buf_putc(out, '\n');
		p = next;
	}
	qb_buf_dispose(&b);
}

static const qb_tr *find_tr(const qb_text *t, const char *lang)
{
	for (uint32_t i = 0; i < t->ntr; i++)
		if (strcmp(qb_tr_lang(t, &t->tr[i]), lang) == 0)
			return &t->tr[i];
	return NULL;
}

/* b's text in a block of its size: a bank's every text may be edited,
 * and a buffer's doubling would hold up to twice the edited lines. */
static char *fit(qb_buf *b)
{
	size_t n = b->len;
	return qb_xrealloc(qb_buf_detach(b), n + 1);
}

int qb_edit_set(qb_edit *ed, const qb_text *t, const char *lang, const char *text)
{
	const qb_tr *tr = find_tr(t, lang);
	if (tr) {
		if (tr->line < 1 || (size_t)tr->line > ed->n)
			return -1;
		line *l = &ed->v[tr->line - 1];
		if (l->gone || l->repl)
			return -1;
		int col = qb_tr_col(t->bank, tr), text_col = qb_tr_text_col(t->bank, tr);
		size_t off = col_offset(l, text_col);
		int end = tr_end(ed, tr, off);
		qb_buf b = QB_BUF_INIT;
		/* The line up to the text as written, unless the text is the
		 * right side of a pair, which starts after ' => ': then up to
		 * the tag, and the tag. */
		size_t tag = col_offset(l, col), taglen = strlen(lang);
		bool at_tag = off >= tag + taglen + 1 && memcmp(l->s + tag, lang, taglen) == 0 &&
		              l->s[tag + taglen] == ':' &&
		              strspn(l->s + tag + taglen + 1, " \t") == off - tag - taglen - 1;
		if (at_tag) {
			qb_buf_append(&b, l->s, off);
		} else {
			qb_buf_append(&b, l->s, tag);
			qb_buf_appendf(&b, "%s: ", lang);
		}
		put_text(&b, text, at_tag ? text_col - 1 : col - 1 + (int)taglen + 2);
		l->repl = fit(&b);
		for (int k = tr->line + 1; k <= end; k++)
			ed->v[k - 1].gone = true;
		return 0;
	}
	/* A new language: after the text's last translation, as indented. */
	const qb_tr *last = NULL;
	for (uint32_t i = 0; i < t->ntr; i++)
		if (!last || t->tr[i].line > last->line)
			last = &t->tr[i];
	if (!last || last->line < 1 || (size_t)last->line > ed->n)
		return -1;
	const line *l = &ed->v[last->line - 1];
	int end = tr_end(ed, last, col_offset(l, qb_tr_text_col(t->bank, last)));
	int last_col = qb_tr_col(t->bank, last);
	size_t tag = col_offset(l, last_col);
	qb_buf b = QB_BUF_INIT;
	line *at = &ed->v[end - 1];
	if (at->after)
		qb_buf_puts(&b, at->after);
	/* The indentation before the tag, as written when it is only white
	 * space (the tag may follow a bullet: then spaces). */
	if (strspn(l->s, " \t") >= tag)
		qb_buf_append(&b, l->s, tag);
	else
		qb_buf_appendf(&b, "%*s", last_col - 1, "");
	qb_buf_appendf(&b, "%s: ", lang);
	put_text(&b, text, last_col - 1 + (int)strlen(lang) + 2);
	free(at->after);
	at->after = fit(&b);
	return 0;
}

int qb_edit_add_lang(qb_edit *ed, const char *lang)
{
	int ln = ed->bank->langs_loc.line;
	if (ln < 1 || (size_t)ln > ed->n)
		return -1;
	line *l = &ed->v[ln - 1];
	if (l->repl)
		return -1;
	size_t n = l->len;
	while (n && (l->s[n - 1] == ' ' || l->s[n - 1] == '\t' || l->s[n - 1] == '\r'))
		n--;
	qb_buf b = QB_BUF_INIT;
	qb_buf_append(&b, l->s, n);
	qb_buf_appendf(&b, " %s", lang);
	qb_buf_append(&b, l->s + n, l->len - n);
	qb_buf_putc(&b, '\n');
	l->repl = qb_buf_detach(&b);
	return 0;
}

void qb_edit_result(const qb_edit *ed, qb_buf *out)
{
	for (size_t i = 0; i < ed->n; i++) {
		const line *l = &ed->v[i];
		if (l->repl) {
			qb_buf_puts(out, l->repl);
			/* The replaced lines always end in '\n'; the file's last
			 * line may not have. */
			if (!l->nl && i + 1 == ed->n && out->len && !l->after)
				out->ptr[--out->len] = '\0';
		} else if (!l->gone) {
			qb_buf_append(out, l->s, l->len);
			if (l->nl)
				qb_buf_putc(out, '\n');
			else if (l->after)
				qb_buf_putc(out, '\n');
		}
		if (l->after)
			qb_buf_puts(out, l->after);
	}
}
