/* write_qb.c - the model as a .qb source (see write_qb.h).
 *
 * The inverse of read_text.c for the texts an importer makes: a text's
 * lines after the first are continuation lines ending in '\\' (an empty
 * line is a lone '\\'; a line that already ends in the '\\' of a hard
 * line break needs no second one), and a fenced code block's lines are
 * written as they are, the closing fence followed by '\\' when the text
 * goes on.  A continuation line that the reader would take for a comment
 * or a question gets a Markdown escape ('\\#', '1\\.'). */
#include "write_qb.h"
#include "params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fsutil.h"

/* A number as the reader takes it: digits and '.', never an exponent.
 * Where %g would write one (|v| at least 1e15 or below 1e-4) the same 15
 * significant digits are written out in full, zeros and all: a buffer of
 * "%.20f" would cut 1e50's 51 digits and write another number. */
void qb_qb_put_num(qb_buf *out, double v)
{
	char s[48];
	snprintf(s, sizeof s, "%.15g", v);
	if (!strchr(s, 'e')) {
		qb_buf_puts(out, s);
		return;
	}
	snprintf(s, sizeof s, "%.14e", v); /* [-]d.dddddddddddddde[+-]x */
	const char *p = s;
	if (*p == '-')
		qb_buf_putc(out, *p++);
	char digits[16];
	size_t nd = 0;
	for (; *p && *p != 'e'; p++)
		if (*p != '.' && nd < sizeof digits)
			digits[nd++] = *p;
	long point = (*p ? strtol(p + 1, NULL, 10) : 0) + 1; /* digits before the '.' */
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (point <= 0) {
		qb_buf_puts(out, "0.");
		for (long i = point; i < 0; i++)
			qb_buf_putc(out, '0');
		qb_buf_append(out, digits, nd);
	} else if ((size_t)point >= nd) {
		qb_buf_append(out, digits, nd);
		for (size_t i = nd; i < (size_t)point; i++)
			qb_buf_putc(out, '0');
	} else {
		qb_buf_append(out, digits, (size_t)point);
		qb_buf_putc(out, '.');
		qb_buf_append(out, digits + point, nd - (size_t)point);
	}
}

size_t qb_qb_fence_len(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && s[k] == s[0] && (s[0] == '`' || s[0] == '~'))
		k++;
	return k >= 3 ? k : 0;
}

/* True when a continuation line s[0..n) would read as something else:
 * a comment, or a question line ('12. word'). */
static bool needs_escape(const char *s, size_t n, size_t *at)
{
	if (n && s[0] == '#') {
		*at = 0;
		return true;
	}
	size_t i = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i && i + 1 < n && s[i] == '.' && s[i + 1] == ' ' && !memchr(s + i + 2, ' ', n - i - 2)) {
		*at = i;
		return true;
	}
	return false;
}

void qb_qb_put_text(qb_buf *out, const char *text, int indent)
{
	const char *p = text;
	size_t fence = 0; /* the open fence's length, 0 outside code */
	char fch = 0;
	bool first = true;
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (!first)
			qb_buf_appendf(out, "%*s", indent, "");
		size_t at;
		if (fence) {
			qb_buf_append(out, p, n);
			size_t s0 = 0;
			while (s0 < n && p[s0] == ' ')
				s0++;
			size_t k = qb_qb_fence_len(p + s0, n - s0);
			if (k >= fence && p[s0] == fch) {
				fence = 0;
				if (nl)
					qb_buf_putc(out, '\\');
			}
		} else {
			if (!first && needs_escape(p, n, &at)) {
				qb_buf_append(out, p, at);
				qb_buf_putc(out, '\\');
				qb_buf_append(out, p + at, n - at);
			} else
				qb_buf_append(out, p, n);
			if ((fence = qb_qb_fence_len(p, n)) != 0)
				fch = p[0];
			else if (nl && (n == 0 || p[n - 1] != '\\'))
				qb_buf_putc(out, '\\');
		}
		qb_buf_putc(out, '\n');
		if (!nl)
			break;
		p = nl + 1;
		first = false;
	}
}

/* Every language of t: 'xx: text', the first on the current line when
 * inline, each following at indent. */
static void put_trs(qb_buf *out, const qb_bank *bank, const qb_text *t, int indent, bool inline_)
{
	bool first = true;
	for (size_t k = 0; k < bank->nlangs; k++) {
		const qb_tr *tr = qb_text_tr_at(t, k);
		if (!tr)
			continue;
		if (!(first && inline_))
			qb_buf_appendf(out, "%*s", indent, "");
		const char *code = bank->langs[k].code;
		qb_buf_appendf(out, "%s: ", code);
		qb_qb_put_text(out, tr->text, indent + (int)strlen(code) + 2);
		first = false;
	}
	if (first && inline_)
		qb_buf_putc(out, '\n');
}

/* 'keyword:' and the text's languages under it. */
static void put_keyword_text(qb_buf *out, const qb_bank *bank, const char *kw,
                             const qb_text *t, int indent)
{
	if (!t->present)
		return;
	qb_buf_appendf(out, "%*s%s:\n", indent, "", kw);
	put_trs(out, bank, t, indent + 2, false);
}

/* A matching pair's languages: 'left => right' ('=> right' for a
 * distractor), the right side of the same language. */
/* An option's mark after its bullet ('- -25% en: ...', issue 36). */
static void put_mark(qb_buf *out, const qb_choice *ch)
{
	char m[32];
	if (ch->mark.den)
		qb_buf_appendf(out, "%s ", qb_mark_text(ch->mark, m, sizeof m));
}

static void put_pair(qb_buf *out, const qb_bank *bank, const qb_choice *c, int indent)
{
	const qb_text *m = qb_choice_match(c);
	bool first = true;
	for (size_t k = 0; k < bank->nlangs; k++) {
		const qb_tr *l = qb_text_tr_at(&c->text, k), *r = qb_text_tr_at(m, k);
		if (!l && !r)
			continue;
		if (!first)
			qb_buf_appendf(out, "%*s", indent, "");
		qb_buf_appendf(out, "%s: ", bank->langs[k].code);
		if (l)
			qb_buf_appendf(out, "%s ", l->text);
		qb_buf_puts(out, "=>");
		if (r)
			qb_buf_appendf(out, " %s", r->text);
		qb_buf_putc(out, '\n');
		first = false;
	}
	if (first)
		qb_buf_putc(out, '\n');
}

/* 'passage: <id>' and its languages. */
static void put_passage(qb_buf *out, const qb_bank *bank, const qb_passage *p)
{
	qb_buf_appendf(out, "\npassage: %s\n", p->id ? p->id : "");
	put_trs(out, bank, &p->text, 2, false);
}

/* 'answer: ' and a numeric answer's value, without the line's end. */
static void put_numeric(qb_buf *out, const qb_numeric *num)
{
	qb_buf_puts(out, "   answer: ");
	if (num->range) {
		qb_qb_put_num(out, num->lo);
		qb_buf_puts(out, "..");
		qb_qb_put_num(out, num->hi);
	} else {
		qb_qb_put_num(out, num->value);
		if (num->tol > 0) {
			qb_buf_puts(out, " \xC2\xB1 ");
			if (num->percent && num->value != 0) {
				qb_qb_put_num(out, num->tol * 100 / (num->value < 0 ? -num->value : num->value));
				qb_buf_putc(out, '%');
			} else
				qb_qb_put_num(out, num->tol);
		}
	}
}

/* A numeric question's further answers, after its prompt (a '>' line
 * there would be read as the prompt's): 'answer: 2..4 = 50%' and its
 * feedback. */
static void put_num_more(qb_buf *out, const qb_bank *bank, const qb_question *q)
{
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		put_numeric(out, &m->num);
		qb_buf_puts(out, " = ");
		qb_qb_put_num(out, m->credit);
		qb_buf_puts(out, "%\n");
		if (m->feedback.present) {
			qb_buf_puts(out, "     > ");
			put_trs(out, bank, &m->feedback, 7, true);
		}
	}
}

/* A parameterised question's 'vars:', 'where:' and 'draws:' (params.h). */
static void put_params(qb_buf *out, const qb_params *p)
{
	qb_buf_puts(out, "   vars:\n");
	for (size_t i = 0; i < p->nnamed; i++)
		qb_buf_appendf(out, "     %s = %s\n", p->vars[i].name, p->vars[i].def);
	if (p->where)
		qb_buf_appendf(out, "   where: %s\n", p->where);
	if (p->table_names) {
		qb_buf_puts(out, "   draws:\n     ");
		for (size_t c = 0; c < p->ntable_cols; c++)
			qb_buf_appendf(out, "%s%s", c ? " | " : "", p->table_names[c]);
		for (size_t r = 0; r < p->ntable_rows; r++) {
			qb_buf_puts(out, "\n     ");
			for (size_t c = 0; c < p->ntable_cols; c++) {
				if (c)
					qb_buf_puts(out, " | ");
				qb_qb_put_num(out, p->table[r * p->ntable_cols + c]);
			}
		}
		qb_buf_putc(out, '\n');
	} else if (p->ndraws)
		qb_buf_appendf(out, "   draws: %u\n", p->ndraws);
}

/* A numeric answer that is a formula: 'answer: sqrt(2*h/g) ± 2%'. */
static void put_param_answer(qb_buf *out, const qb_param_answer *a)
{
	qb_buf_appendf(out, "   answer: %s", a->formula);
	if (a->tol > 0) {
		qb_buf_puts(out, " \xC2\xB1 ");
		qb_qb_put_num(out, a->tol);
		if (a->percent)
			qb_buf_putc(out, '%');
	}
	if (a->decimals_written)
		qb_buf_appendf(out, " decimals %d", a->decimals);
}

static void put_question(qb_buf *out, const qb_bank *bank, const qb_question *q, size_t i)
{
	qb_buf_appendf(out, "\n%zu. %s\n", i + 1, q->id ? q->id : "");
	const qb_passage *passage = qb_question_passage(bank, q);
	if (passage)
		qb_buf_appendf(out, "   passage: %s\n", passage->id ? passage->id : "");
	if (q->type != QB_QTYPE_SINGLE)
		qb_buf_appendf(out, "   type: %s\n", qb_qtype_name(q->type));
	if (q->ntags) {
		qb_buf_puts(out, "   tags:");
		for (size_t t = 0; t < q->ntags; t++)
			qb_buf_appendf(out, " %s", q->tags[t].name);
		qb_buf_putc(out, '\n');
	}
	if (q->scoring != QB_SCORING_INHERIT && qb_qtype_partial(q->type))
		qb_buf_appendf(out, "   scoring: %s\n", qb_scoring_name(q->scoring));
	if (q->shuffle != QB_UNSET && qb_qtype_shuffles(q->type))
		qb_buf_appendf(out, "   shuffle: %s\n", q->shuffle == QB_YES ? "yes" : "no");
	if (q->case_sensitive && (q->type == QB_QTYPE_SHORT || q->type == QB_QTYPE_CLOZE))
		qb_buf_puts(out, "   case-sensitive: yes\n");
	const qb_params *params = qb_question_params(q);
	if (params)
		put_params(out, params);
	if (q->type == QB_QTYPE_TRUE_FALSE)
		qb_buf_appendf(out, "   answer: %s\n", q->truth ? "true" : "false");
	if (q->type == QB_QTYPE_NUMERIC) {
		if (params && params->answer.formula)
			put_param_answer(out, &params->answer);
		else
			put_numeric(out, qb_question_num(q));
		qb_buf_putc(out, '\n');
		if (qb_question_rare(q)->unit)
			qb_buf_appendf(out, "   unit: %s\n", qb_question_rare(q)->unit);
	}
	put_trs(out, bank, &q->prompt, 3, false);
	if (q->type != QB_QTYPE_TRUE_FALSE && q->type != QB_QTYPE_NUMERIC &&
	    q->type != QB_QTYPE_CLOZE) {
		for (size_t c = 0; c < q->nchoices; c++) {
			const qb_choice *ch = &q->choices[c];
			qb_buf_appendf(out, "   %c%s ", ch->correct ? '*' : '-', ch->pinned ? "!" : "");
			put_mark(out, ch);
			if (q->type == QB_QTYPE_MATCHING)
				put_pair(out, bank, ch, 5);
			else
				put_trs(out, bank, &ch->text, 5, true);
			if (ch->feedback.present) {
				qb_buf_puts(out, "     > ");
				put_trs(out, bank, &ch->feedback, 7, true);
			}
		}
	}
	if (q->type == QB_QTYPE_NUMERIC)
		put_num_more(out, bank, q);
	put_keyword_text(out, bank, "feedback-wrong", qb_question_feedback_wrong(q), 3);
	if (q->type == QB_QTYPE_TRUE_FALSE) {
		put_keyword_text(out, bank, "feedback-true", qb_question_feedback(q, true), 3);
		put_keyword_text(out, bank, "feedback-false", qb_question_feedback(q, false), 3);
	}
	put_keyword_text(out, bank, "explanation", &q->explanation, 3);
}

void qb_qb_source(qb_buf *out, const qb_bank *bank)
{
	qb_buf_puts(out, "# Written by 'qbc import'; the format is described in input/README.md.\n");
	qb_buf_appendf(out, "bank: %s\nlanguages:", bank->id ? bank->id : "");
	for (size_t i = 0; i < bank->nlangs; i++)
		qb_buf_appendf(out, " %s", bank->langs[i].code);
	qb_buf_putc(out, '\n');
	if (bank->default_lang)
		qb_buf_appendf(out, "default-language: %s\n", bank->default_lang);
	if (bank->pass_mark >= 0)
		qb_buf_appendf(out, "pass-mark: %d%%\n", bank->pass_mark);
	if (bank->scoring == QB_SCORING_PARTIAL)
		qb_buf_puts(out, "scoring: partial\n");
	if (bank->shuffle_options)
		qb_buf_puts(out, "shuffle-options: yes\n");
	if (bank->shuffle_questions)
		qb_buf_puts(out, "shuffle-questions: yes\n");
	if (bank->draw)
		qb_buf_appendf(out, "draw: %d%s\n", bank->draw, bank->draw_per_tag ? " per tag" : "");
	if (bank->explanations_optional)
		qb_buf_puts(out, "# Some questions have no explanation yet: 'qbc check' lists them.\n"
		                 "# Remove the next line once every question has one.\n"
		                 "explanations: optional\n");
	put_keyword_text(out, bank, "title", &bank->title, 0);
	put_keyword_text(out, bank, "description", &bank->description, 0);
	/* Each passage right before the first question read with it; one
	 * that no question names at the end, so that none is lost. */
	bool *written = bank->npassages ? qb_xcalloc(bank->npassages, sizeof *written) : NULL;
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		if (qb_question_passage(bank, q) && !written[q->passage - 1]) {
			written[q->passage - 1] = true;
			put_passage(out, bank, qb_question_passage(bank, q));
		}
		put_question(out, bank, q, i);
	}
	for (size_t k = 0; k < bank->npassages; k++)
		if (!written[k])
			put_passage(out, bank, &bank->passages[k]);
	free(written);
}

int qb_write_qb(const qb_bank *bank, const char *path)
{
	qb_buf b = QB_BUF_INIT;
	qb_qb_source(&b, bank);
	int rc = qb_fs_write_atomic(path, b.ptr ? b.ptr : "", b.len);
	int err = errno;
	qb_buf_dispose(&b);
	errno = err;
	return rc;
}
