/* Unit tests of the line classifier, which knows no model. */
#include <string.h>

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
	/* A keyword wins over a language of the same shape. */
	INT_EQ(cl("bank: x").kind, QB_LINE_KEY);
	INT_EQ(cl("explaination: x").kind, QB_LINE_BADKEY);
	INT_EQ(cl("Note: capitalised prose").kind, QB_LINE_TEXT);
	return h_done("unit/read_text");
}
