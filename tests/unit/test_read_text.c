/* Unit tests of the line classifier, which knows no model, and of what
 * the reader makes of a few mistakes it recovers from. */
#include <string.h>

#include "diag.h"
#include "harness.h"
#include "read.h"

static qb_line cl(const char *s)
{
	qb_line l;
	qb_line_classify(s, strlen(s), &l);
	return l;
}

int main(void)
{
	qb_line l;
	INT_EQ(cl("").kind, QB_LINE_BLANK);
	INT_EQ(cl("   \t ").kind, QB_LINE_BLANK);
	INT_EQ(cl("  # comment").kind, QB_LINE_COMMENT);

	l = cl("12. all-reduce");
	INT_EQ(l.kind, QB_LINE_QUESTION);
	INT_EQ(l.number, 12);
	INT_EQ(l.rest, 4);
	INT_EQ(cl("3) id").kind, QB_LINE_QUESTION);
	INT_EQ(cl("3.").kind, QB_LINE_QUESTION);
	INT_EQ(cl("3.5 is a number").kind, QB_LINE_TEXT);

	l = cl("   * en: right");
	INT_EQ(l.kind, QB_LINE_OPTION);
	OK(l.correct);
	INT_EQ(l.indent, 3);
	INT_EQ(l.rest, 5);
	l = cl("- en: wrong");
	INT_EQ(l.kind, QB_LINE_OPTION);
	OK(!l.correct);
	OK(!l.pinned);
	/* a mark after the bullet (issue 36), then a language tag or the end */
	l = cl("   - -25% en: London");
	INT_EQ(l.kind, QB_LINE_OPTION);
	INT_EQ(l.mark, 5);
	INT_EQ(l.marklen, 4);
	INT_EQ(l.rest, 10);
	l = cl("- \xE2\x88\x92" "25% en: London"); /* the minus sign */
	INT_EQ(l.marklen, 6);
	l = cl("*! (50%) en: half");
	OK(l.pinned);
	INT_EQ(l.mark, 3);
	INT_EQ(l.marklen, 5);
	l = cl("- -1/3");
	INT_EQ(l.marklen, 4);
	l = cl("- 50% of people");   /* untagged text: no mark */
	INT_EQ(l.marklen, 0);
	INT_EQ(l.rest, 2);
	l = cl("- en: 50%");
	INT_EQ(l.marklen, 0);
	l = cl("  *! en: All of the above");
	INT_EQ(l.kind, QB_LINE_OPTION);
	OK(l.correct && l.pinned);
	INT_EQ(l.rest, 5);
	l = cl("-!");
	INT_EQ(l.kind, QB_LINE_OPTION);
	OK(l.pinned);
	INT_EQ(cl("-!x").kind, QB_LINE_TEXT);
	l = cl("\xE2\x80\xA2 seed bullet");
	INT_EQ(l.kind, QB_LINE_OPTION);
	INT_EQ(l.rest, 4);
	INT_EQ(cl("-not a bullet").kind, QB_LINE_TEXT);
	INT_EQ(cl("**bold** text").kind, QB_LINE_TEXT);

	INT_EQ(cl("  > en: why").kind, QB_LINE_FEEDBACK);
	INT_EQ(cl(">").kind, QB_LINE_FEEDBACK);

	l = cl("    sw-KE: Habari");
	INT_EQ(l.kind, QB_LINE_TR);
	INT_EQ(l.word, 4);
	INT_EQ(l.wordlen, 5);
	INT_EQ(l.rest, 11);
	INT_EQ(cl("en:").kind, QB_LINE_TR);
	INT_EQ(cl("en:no-space").kind, QB_LINE_TEXT);
	INT_EQ(cl("https://example.org").kind, QB_LINE_TEXT);

	INT_EQ(cl("explanation:").kind, QB_LINE_KEY);
	INT_EQ(cl("pass-mark: 80%").kind, QB_LINE_KEY);
	INT_EQ(cl("tags: a b").kind, QB_LINE_KEY);
	INT_EQ(cl("passage: lighthouse").kind, QB_LINE_KEY);
	/* A keyword wins over a language of the same shape. */
	INT_EQ(cl("bank: x").kind, QB_LINE_KEY);
	INT_EQ(cl("explaination: x").kind, QB_LINE_BADKEY);
	INT_EQ(cl("Note: capitalised prose").kind, QB_LINE_TEXT);
	INT_EQ(cl("Explanation:").kind, QB_LINE_BADKEY); /* capitalised by an editor */

	/* Marks that look like bullets: options, flagged. */
	l = cl("  \xE2\x80\x93 en: en dash");
	INT_EQ(l.kind, QB_LINE_OPTION);
	INT_EQ(l.badmark, 3);
	OK(!l.correct);
	INT_EQ(l.rest, 6);
	l = cl("\xE2\x88\x97 en: U+2217 star");
	INT_EQ(l.kind, QB_LINE_OPTION);
	OK(l.correct);
	INT_EQ(cl("\xE2\x80\x94 em dash").badmark, 3);
	INT_EQ(cl("- en: x").badmark, 0);
	INT_EQ(cl("\xE2\x80\x93no space").kind, QB_LINE_TEXT);
	INT_EQ(cl("\xC3\xA9t\xC3\xA9 is prose").kind, QB_LINE_TEXT);

	/* What the reader keeps after the mistakes it reports. */
	static const char bank[] =
		"bank: b\nlanguages: en sw\ntitle:\n  en: T\n  sw: T\n"
		"1. q\n"
		"   en: First line\\\n"
		"       second line\n"
		"   sw:Bila nafasi\\\n" /* no space after the tag, and a stray '\' */
		"   - en: a\n     sw: a\n"
		"   \xE2\x80\x93 en: b\n     sw: b\n"
		"   explanation:\n     en: E\n     sw: E \\\n";
	qb_diag_set_color(0);
	qb_bank *b = qb_read_text("t.qb", bank, sizeof bank - 1);
	INT_EQ(b->nquestions, 1);
	const qb_question *q = &b->questions[0];
	STR_EQ(qb_text_get(&q->prompt, "en"), "First line\\\nsecond line");
	const int *cols0 = qb_bank_text_cols(b, q->prompt.tr[0].text);
	INT_EQ(cols0 ? cols0[0] : 0, 8);
	STR_EQ(qb_text_get(&q->prompt, "sw"), "Bila nafasi");
	INT_EQ(q->prompt.ntr, 2);
	INT_EQ(q->nchoices, 2);
	STR_EQ(qb_text_get(&q->choices[1].text, "sw"), "b");
	STR_EQ(qb_text_get(&q->explanation, "sw"), "E");
	qb_bank_free(b);
	qb_diag_dispose();

	/* Block Markdown on continuation lines: the '\' only joins lines
	 * next to a block, a line of '\' alone is an empty line, a table gets
	 * an empty line above it (column 0: no source line), and a fenced
	 * code block runs to its fence, keeping its indentation, blank lines
	 * and '#' lines. */
	static const char blocks[] =
		"bank: b\nlanguages: en\ntitle:\n  en: T\n"
		"1. q\n"
		"   en: Intro\\\n"
		"       - one\\\n"
		"       - two\\\n"
		"       \\\n"
		"       After\\\n"
		"       | a |\\\n"
		"       |---|\n"
		"   - en: x\n   * en: y\n"
		"   explanation:\n"
		"     en: Code:\\\n"
		"         ```c\n"
		"         # not a comment\n"
		"\n"
		"           int x;\n"
		"         ```\\\n"
		"         Done\n";
	qb_diag_mark m = qb_diag_mark_now();
	b = qb_read_text("t.qb", blocks, sizeof blocks - 1);
	INT_EQ(qb_diag_errors_since(m), 0);
	q = &b->questions[0];
	STR_EQ(qb_text_get(&q->prompt, "en"), "Intro\n- one\n- two\n\nAfter\n\n| a |\n|---|");
	const int *cols = qb_bank_text_cols(b, q->prompt.tr[0].text);
	OK(cols && cols[0] == 8 && cols[3] == 8 && cols[4] == 8 && cols[5] == 0 && cols[6] == 8);
	STR_EQ(qb_text_get(&q->explanation, "en"),
	       "Code:\n```c\n# not a comment\n\n  int x;\n```\nDone");
	INT_EQ(q->nchoices, 2);
	qb_bank_free(b);

	/* Passages (issue 36): a question names its passage, which may come
	 * after it; 'passage:' among a question's keys is that key, anywhere
	 * else it starts a passage (and ends the question above). */
	static const char passages[] =
		"bank: p\nlanguages: en\ntitle:\n  en: T\n"
		"1. one\n   passage: later\n   en: Q?\n   * en: a\n   - en: b\n"
		"   explanation:\n     en: E.\n"
		"passage: later\n  en: The text.\n"
		"2. two\n   en: Q2?\n   * en: a\n   - en: b\n   explanation:\n     en: E.\n";
	m = qb_diag_mark_now();
	b = qb_read_text("p.qb", passages, sizeof passages - 1);
	INT_EQ(qb_diag_errors_since(m), 0);
	INT_EQ(b->npassages, 1);
	STR_EQ(b->passages[0].id, "later");
	STR_EQ(qb_text_get(&b->passages[0].text, "en"), "The text.");
	INT_EQ(b->nquestions, 2);
	STR_EQ(qb_text_get(&b->questions[0].explanation, "en"), "E.");
	OK(qb_question_passage(b, &b->questions[0]) == &b->passages[0]);
	OK(qb_question_passage(b, &b->questions[1]) == NULL);
	OK(qb_question_starts_passage(b, NULL, &b->questions[0]));
	OK(!qb_question_starts_passage(b, &b->questions[0], &b->questions[1]));
	qb_bank_free(b);
	qb_diag_dispose();
	return h_done("unit/read_text");
}
