/* write_csv.c - the bank as a spreadsheet in the layout `qbc import`
 * reads (import_csv.c, input/README.md "Bringing questions in from a
 * spreadsheet"): `qbc build --format csv` gives a teacher who imported a
 * sheet a sheet again.  One row per question:
 *
 *   id, type, tags, right, unit, [pass-mark, shuffle-options,
 *   shuffle-questions,] then per language xx: prompt:xx, options:xx,
 *   feedback:xx, feedback-wrong:xx, explanation:xx
 *
 * The bank's settings columns appear only when the bank sets them, their
 * value on the first row.  UTF-8 with a byte order mark and CRLF row ends,
 * as Excel's "CSV UTF-8" saves it, so that Excel opens it as UTF-8; a
 * cell is quoted when it holds a comma, a quote, a line break or spaces at
 * its ends.  What a row cannot hold is a warning of qb_check_csv(). */
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "i18n.h"
#include "params.h"
#include "render.h"
#include "write.h"
#include "write_qb.h"

static void cell(qb_buf *out, const char *s, size_t n, bool first)
{
	if (!first)
		qb_buf_putc(out, ',');
	bool quote = n && (s[0] == ' ' || s[n - 1] == ' ' || s[0] == '\t' || s[n - 1] == '\t');
	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		qb_buf_append(out, s, n);
		return;
	}
	qb_buf_putc(out, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			qb_buf_putc(out, '"');
		qb_buf_putc(out, s[i]);
	}
	qb_buf_putc(out, '"');
}

static void cells(qb_buf *out, const qb_buf *b, size_t len)
{
	cell(out, b->ptr ? b->ptr : "", len, false);
}

static const char *text(const qb_text *t, const char *lang)
{
	const char *s = t->present ? qb_text_get(t, lang) : NULL;
	return s ? s : "";
}

/* Lines of a cell: one per option (or its feedback), empty lines kept
 * in between; *keep is the length up to the last line with text. */
static void add_line(qb_buf *b, size_t *n, size_t *keep, const char *s)
{
	if ((*n)++)
		qb_buf_putc(b, '\n');
	qb_buf_puts(b, s);
	if (*s)
		*keep = b->len;
}

static bool settings(const qb_bank *b)
{
	return b->pass_mark >= 0 || b->shuffle_options || b->shuffle_questions;
}

static void row(qb_buf *out, const qb_render_ctx *ctx, const qb_bank *bank,
                const qb_question *q, bool first)
{
	qb_buf b = QB_BUF_INIT;
	cell(out, q->id ? q->id : "", q->id ? strlen(q->id) : 0, true);
	const char *type = qb_qtype_name(q->type);
	cell(out, type, strlen(type), false);
	for (size_t i = 0; i < q->ntags; i++)
		qb_buf_appendf(&b, "%s%s", i ? " " : "", q->tags[i].name);
	cells(out, &b, b.len);
	qb_buf_clear(&b);
	/* right */
	size_t nright = qb_question_ncorrect(q);
	if (q->type == QB_QTYPE_TRUE_FALSE)
		qb_buf_puts(&b, q->truth ? "true" : "false");
	else if (q->type == QB_QTYPE_NUMERIC) {
		const qb_numeric *num = qb_question_num(q);
		if (num->range) {
			qb_qb_put_num(&b, num->lo);
			qb_buf_puts(&b, "..");
			qb_qb_put_num(&b, num->hi);
		} else {
			qb_qb_put_num(&b, num->value);
			if (num->tol > 0) {
				qb_buf_puts(&b, " \xC2\xB1 ");
				if (num->percent && num->value != 0) {
					qb_qb_put_num(&b, num->tol * 100 /
					                      (num->value < 0 ? -num->value : num->value));
					qb_buf_putc(&b, '%');
				} else
					qb_qb_put_num(&b, num->tol);
			}
		}
	} else if (q->type != QB_QTYPE_MATCHING && q->type != QB_QTYPE_CLOZE &&
	           !(q->type == QB_QTYPE_SHORT && nright == q->nchoices)) {
		for (size_t i = 0; i < q->nchoices; i++)
			if (q->choices[i].correct)
				qb_buf_appendf(&b, "%s%zu", b.len ? " " : "", i + 1);
	}
	cells(out, &b, b.len);
	qb_buf_clear(&b);
	const char *unit = q->type == QB_QTYPE_NUMERIC ? qb_question_rare(q)->unit : NULL;
	cell(out, unit ? unit : "", unit ? strlen(unit) : 0, false);
	if (settings(bank)) {
		if (first && bank->pass_mark >= 0)
			qb_buf_appendf(&b, "%d%%", bank->pass_mark);
		cells(out, &b, b.len);
		qb_buf_clear(&b);
		const char *so = first && bank->shuffle_options ? "yes" : "";
		const char *sq = first && bank->shuffle_questions ? "yes" : "";
		cell(out, so, strlen(so), false);
		cell(out, sq, strlen(sq), false);
	}
	for (size_t l = 0; l < ctx->nlangs; l++) {
		const char *lang = ctx->langs[l];
		const char *p = text(&q->prompt, lang);
		cell(out, p, strlen(p), false);
		size_t n = 0, keep = 0;
		for (size_t i = 0; q->type != QB_QTYPE_TRUE_FALSE && i < q->nchoices; i++) {
			const qb_choice *c = &q->choices[i];
			if (q->type == QB_QTYPE_MATCHING) {
				qb_buf pair = QB_BUF_INIT;
				qb_buf_appendf(&pair, "%s => %s", text(&c->text, lang),
				               text(qb_choice_match(c), lang));
				add_line(&b, &n, &keep, qb_buf_cstr(&pair));
				qb_buf_dispose(&pair);
			} else
				add_line(&b, &n, &keep, text(&c->text, lang));
		}
		cells(out, &b, keep);
		qb_buf_clear(&b);
		n = keep = 0;
		if (q->type == QB_QTYPE_TRUE_FALSE) {
			add_line(&b, &n, &keep, text(qb_question_feedback(q, true), lang));
			add_line(&b, &n, &keep, text(qb_question_feedback(q, false), lang));
		} else
			for (size_t i = 0; i < q->nchoices; i++)
				add_line(&b, &n, &keep, text(&q->choices[i].feedback, lang));
		cells(out, &b, keep);
		qb_buf_clear(&b);
		const char *fw = text(qb_question_feedback_wrong(q), lang);
		cell(out, fw, strlen(fw), false);
		const char *ex = text(&q->explanation, lang);
		cell(out, ex, strlen(ex), false);
	}
	qb_buf_puts(out, "\r\n");
	qb_buf_dispose(&b);
}

int qb_write_csv(const qb_render_ctx *ctx, const qb_bank *bank)
{
	qb_buf out = QB_BUF_INIT;
	qb_buf_puts(&out, "\xEF\xBB\xBFid,type,tags,right,unit");
	if (settings(bank))
		qb_buf_puts(&out, ",pass-mark,shuffle-options,shuffle-questions");
	for (size_t l = 0; l < ctx->nlangs; l++) {
		static const char *const per[] = {"prompt", "options", "feedback", "feedback-wrong",
		                                  "explanation"};
		for (size_t k = 0; k < QB_NELEM(per); k++)
			qb_buf_appendf(&out, ",%s:%s", per[k], ctx->langs[l]);
	}
	qb_buf_puts(&out, "\r\n");
	for (size_t i = 0; i < bank->nquestions; i++) { /* a parameterised one: draw 0 */
		qb_arena drawn = QB_ARENA_INIT;
		row(&out, ctx, bank, qb_render_draw(ctx, &drawn, &bank->questions[i], 0), i == 0);
		qb_arena_dispose(&drawn);
	}
	int rc = qb_fs_write_atomic(ctx->path, out.ptr, out.len);
	if (rc != 0)
		qb_diag_fatal("cannot write '%s': %s", ctx->path, strerror(errno));
	qb_buf_dispose(&out);
	return rc;
}

/* What a row cannot hold: said once per question, written the nearest
 * way. */
void qb_check_csv(const qb_render_ctx *ctx, const qb_bank *bank)
{
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		const char *id = q->id ? q->id : "";
		if (qb_question_ndraws(q))
			qb_diag_warning(q->loc, "question '%s': a spreadsheet has no column for drawn "
			                "numbers ('vars:'); its row shows the first draw's numbers, and "
			                "an import of the sheet gives a question without variables", id);
		if (q->scoring != QB_SCORING_INHERIT || q->shuffle != QB_UNSET || q->case_sensitive)
			qb_diag_warning(q->loc, "question '%s': a spreadsheet has no column for its "
			                "'scoring:', 'shuffle:' or 'case-sensitive:' line; the bank's "
			                "settings apply to it there", id);
		bool lines = false, pinned = false;
		for (size_t c = 0; c < q->nchoices; c++) {
			pinned = pinned || q->choices[c].pinned;
			for (size_t l = 0; l < ctx->nlangs; l++) {
				const char *a = text(&q->choices[c].text, ctx->langs[l]);
				const char *f = text(&q->choices[c].feedback, ctx->langs[l]);
				const char *m = text(qb_choice_match(&q->choices[c]), ctx->langs[l]);
				lines = lines || strchr(a, '\n') || strchr(f, '\n') || strchr(m, '\n');
			}
		}
		if (lines)
			qb_diag_warning(q->loc, "question '%s' has an option or a feedback of several "
			                "lines: a spreadsheet cell holds one line per option, so they "
			                "come apart there", id);
		if (pinned)
			qb_diag_warning(q->loc, "question '%s' pins an option in place ('*!' or '-!'): "
			                "a spreadsheet cannot say so", id);
	}
}
