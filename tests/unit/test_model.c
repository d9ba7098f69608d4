/* Unit tests of the model's helpers (model.c): resolved scoring and
 * shuffling, the cloze splitter, the short-answer rule, what the reader
 * makes of each question type, and the language look-ups (the index and
 * qb_text_tr() against a plain search by code). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "harness.h"
#include "model.h"
#include "read.h"

static void scoring_and_shuffle(void)
{
	qb_bank *b = qb_bank_new("t.qb");
	qb_question q = {0};
	q.shuffle = QB_UNSET;
	q.type = QB_QTYPE_MULTIPLE;
	INT_EQ(qb_question_scoring(b, &q), QB_SCORING_ALL);
	b->scoring = QB_SCORING_PARTIAL;
	INT_EQ(qb_question_scoring(b, &q), QB_SCORING_PARTIAL);
	q.scoring = QB_SCORING_ALL;
	INT_EQ(qb_question_scoring(b, &q), QB_SCORING_ALL);
	q.scoring = QB_SCORING_INHERIT;
	q.type = QB_QTYPE_SINGLE; /* no partial credit: always all-or-nothing */
	INT_EQ(qb_question_scoring(b, &q), QB_SCORING_ALL);
	q.type = QB_QTYPE_CLOZE;
	INT_EQ(qb_question_scoring(b, &q), QB_SCORING_PARTIAL);
	STR_EQ(qb_scoring_name(QB_SCORING_PARTIAL), "partial");
	STR_EQ(qb_scoring_name(QB_SCORING_INHERIT), "all-or-nothing");

	q.type = QB_QTYPE_SINGLE;
	OK(!qb_question_shuffles(b, &q));
	b->shuffle_options = true;
	OK(qb_question_shuffles(b, &q));
	q.shuffle = QB_NO;
	OK(!qb_question_shuffles(b, &q));
	b->shuffle_options = false;
	q.shuffle = QB_YES;
	OK(qb_question_shuffles(b, &q));
	q.type = QB_QTYPE_NUMERIC; /* nothing to shuffle */
	OK(!qb_question_shuffles(b, &q));
	qb_bank_free(b);

	STR_EQ(qb_qtype_name(QB_QTYPE_SHORT), "short-answer");
	STR_EQ(qb_qtype_name(QB_QTYPE_TRUE_FALSE), "true-false");
	STR_EQ(qb_qtype_name(QB_QTYPE_CLOZE), "cloze");
}

static void cloze(void)
{
	qb_arena a = {0};
	qb_cloze_part *p;
	size_t n;
	const char *t = "NCCL's {{all-reduce | allreduce}} sums; \\{{x}} {{=ring ~tree ~ star}}.";
	INT_EQ(qb_cloze_split(&a, t, &p, &n), 2);
	INT_EQ(n, 5);
	OK(p[0].gap == NULL && p[0].len == 7 && strncmp(p[0].text, "NCCL's ", 7) == 0);
	OK(p[1].gap && !p[1].gap->choice);
	INT_EQ(p[1].gap->nanswers, 2);
	STR_EQ(p[1].gap->answers[0], "all-reduce");
	STR_EQ(p[1].gap->answers[1], "allreduce");
	INT_EQ(p[1].gap->off, 7);
	INT_EQ(p[1].gap->len, 26);
	/* '\{' is literal: the escaped brace does not open a gap. */
	OK(p[2].gap == NULL && strncmp(p[2].text, " sums; \\{{x}} ", p[2].len) == 0);
	OK(p[3].gap && p[3].gap->choice);
	INT_EQ(p[3].gap->nanswers, 3);
	INT_EQ(p[3].gap->right, 0);
	INT_EQ(p[3].gap->nright, 1);
	STR_EQ(p[3].gap->answers[2], "star");
	OK(p[4].gap == NULL && p[4].len == 1);

	INT_EQ(qb_cloze_split(&a, "no gap at all", &p, &n), 0);
	INT_EQ(n, 1);
	INT_EQ(qb_cloze_split(&a, "a {{=x =y}} b", &p, &n), 1);
	INT_EQ(p[1].gap->nright, 2);
	INT_EQ(qb_cloze_split(&a, "a {{~x ~y}}", &p, &n), 1);
	INT_EQ(p[1].gap->nright, 0);
	INT_EQ(qb_cloze_split(&a, "open {{x", &p, &n), -1);
	INT_EQ(qb_cloze_split(&a, "", &p, &n), 0);
	INT_EQ(n, 0);
	qb_arena_dispose(&a);
}

/* Numeric gaps (issue 36): read by qb_numeric_parse(), as 'answer:'. */
static void cloze_numeric(void)
{
	qb_arena a = {0};
	qb_cloze_part *p;
	size_t n;
	const char *t = "g {{# 9.81 \xC2\xB1 0.05 }} body {{#36.1..37.2}} c {{#343 +- 2%}} x {{#9,81}} r {{#1..y}} t {{#3 \xC2\xB1 z}}";
	INT_EQ(qb_cloze_split(&a, t, &p, &n), 6);
	const qb_cloze_gap *g = p[1].gap;
	OK(g && g->num && !g->choice && g->num_err == QB_NUMERIC_OK);
	OK(g->num->value == 9.81 && g->num->tol == 0.05 && !g->num->range && !g->num->percent);
	INT_EQ(g->nanswers, 1);
	STR_EQ(g->answers[0], "9.81 \xC2\xB1 0.05");
	g = p[3].gap;
	OK(g->num && g->num->range && g->num->lo == 36.1 && g->num->hi == 37.2);
	g = p[5].gap;
	OK(g->num && g->num->percent && g->num->lo > 336.139 && g->num->lo < 336.141);
	g = p[7].gap;
	OK(g->num && g->num_err == QB_NUMERIC_BAD_VALUE);
	STR_EQ(t + g->num_at, "9,81}} r {{#1..y}} t {{#3 \xC2\xB1 z}}");
	INT_EQ(g->num_len, 4);
	g = p[9].gap;
	OK(g->num && g->num_err == QB_NUMERIC_BAD_RANGE);
	g = p[11].gap;
	OK(g->num && g->num_err == QB_NUMERIC_BAD_TOL);
	OK(strncmp(t + g->num_at, "z", g->num_len) == 0 && g->num_len == 1);
	/* the parser alone, as a numeric question's answer: the same */
	qb_numeric num = {0};
	size_t at, len;
	OK(qb_numeric_parse("-2.5 +- 0.3", 11, &num, &at, &len) == QB_NUMERIC_OK);
	OK(num.lo == -2.8 && num.hi == -2.2);
	qb_arena_dispose(&a);
}

static void normalise(void)
{
	char *s = qb_answer_normalise("  All   Reduce\t ", false);
	STR_EQ(s, "all reduce");
	free(s);
	s = qb_answer_normalise("  All   Reduce ", true);
	STR_EQ(s, "All Reduce");
	free(s);
	s = qb_answer_normalise("\xC3\x89T\xC3\x89\xC2\xA0X", false); /* ÉTÉ<nbsp>X */
	STR_EQ(s, "\xC3\xA9t\xC3\xA9 x");
	free(s);
	s = qb_answer_normalise("E\xCC\x81", false); /* E + combining acute: NFC é */
	STR_EQ(s, "\xC3\xA9");
	free(s);
	s = qb_answer_normalise("   ", false);
	STR_EQ(s, "");
	free(s);
}

static const char bank[] =
	"bank: b\nlanguages: en sw\nscoring: partial\nshuffle-options: yes\n"
	"draw: 2 per tag\ntitle:\n  en: T\n  sw: T\n"
	"1. tf\n type: true-false\n answer: false\n en: Water boils at 50 C.\n sw: Maji huchemka.\n"
	" feedback-true:\n  en: No.\n  sw: Hapana.\n"
	" explanation:\n  en: E\n  sw: E\n"
	"2. num\n type: numeric\n answer: 9.8 +- 2%\n unit: m/s\n en: g?\n sw: g?\n"
	" explanation:\n  en: E\n  sw: E\n"
	"3. match\n type: matching\n shuffle: no\n scoring: all-or-nothing\n en: Pair\n sw: Unganisha\n"
	" - en: ice => solid\n   sw: barafu => yabisi\n"
	" *! en: steam => gas\n   sw: mvuke => gesi\n"
	" - en: => liquid\n   sw: => kimiminika\n"
	" explanation:\n  en: E\n  sw: E\n"
	"4. rng\n type: numeric\n answer: 3..4\n en: x\n sw: x\n explanation:\n  en: E\n  sw: E\n";

static void reader(void)
{
	qb_diag_set_color(0);
	qb_bank *b = qb_read_text("t.qb", bank, sizeof bank - 1);
	INT_EQ(qb_diag_errors(), 0);
	INT_EQ(b->scoring, QB_SCORING_PARTIAL);
	OK(b->shuffle_options);
	INT_EQ(b->draw, 2);
	OK(b->draw_per_tag);
	INT_EQ(b->nquestions, 4);
	const qb_question *q = &b->questions[0];
	INT_EQ(q->type, QB_QTYPE_TRUE_FALSE);
	OK(!q->truth);
	INT_EQ(q->nchoices, 2);
	OK(!q->choices[0].correct && q->choices[1].correct);
	OK(!q->choices[0].text.present);
	STR_EQ(qb_text_get(&q->choices[0].feedback, "sw"), "Hapana.");
	OK(!q->choices[1].feedback.present);

	q = &b->questions[1];
	INT_EQ(q->type, QB_QTYPE_NUMERIC);
	const qb_numeric *num = qb_question_num(q);
	OK(num->percent);
	OK(num->value > 9.79 && num->value < 9.81);
	OK(num->tol > 0.1959 && num->tol < 0.1961);
	OK(num->lo > 9.6039 && num->hi < 9.9961 && num->hi > 9.9959);
	STR_EQ(qb_question_rare(q)->unit, "m/s");

	q = &b->questions[2];
	INT_EQ(q->type, QB_QTYPE_MATCHING);
	INT_EQ(q->shuffle, QB_NO);
	OK(!qb_question_shuffles(b, q));
	INT_EQ(qb_question_scoring(b, q), QB_SCORING_ALL);
	INT_EQ(q->nchoices, 3);
	STR_EQ(qb_text_get(&q->choices[0].text, "en"), "ice");
	STR_EQ(qb_text_get(qb_choice_match(&q->choices[0]), "sw"), "yabisi");
	OK(q->choices[1].pinned && !q->choices[0].pinned);
	OK(!q->choices[2].text.present && qb_choice_match(&q->choices[2])->present);
	STR_EQ(qb_text_get(qb_choice_match(&q->choices[2]), "sw"), "kimiminika");
	/* the right side's column: after 'ice => ' */
	INT_EQ(qb_tr_text_col(b, &qb_choice_match(&q->choices[0])->tr[0]),
	       qb_tr_text_col(b, &q->choices[0].text.tr[0]) + 7);

	q = &b->questions[3];
	OK(qb_question_num(q)->range);
	OK(qb_question_num(q)->lo == 3 && qb_question_num(q)->hi == 4 && qb_question_num(q)->value == 3.5);
	qb_bank_free(b);
	qb_diag_dispose();
}

/* The translation of t in lang found by comparing every code. */
static const qb_tr *scan(const qb_text *t, const char *lang)
{
	for (size_t i = 0; i < t->ntr; i++)
		if (strcmp(qb_tr_lang(t, &t->tr[i]), lang) == 0)
			return &t->tr[i];
	return NULL;
}

/* Every look-up of t (each declared language, by code and by index, and
 * one undeclared) gives what the plain search gives. */
static void same_as_scan(const qb_bank *b, const qb_text *t)
{
	for (size_t k = 0; k < b->nlangs; k++) {
		OK(qb_text_tr(t, b->langs[k].code) == scan(t, b->langs[k].code));
		OK(qb_text_tr_at(t, k) == scan(t, b->langs[k].code));
	}
	OK(qb_text_tr(t, "xx") == scan(t, "xx"));
}

static void lang_index(void)
{
	/* The index: every code found at its k, through growth; an unknown
	 * code is not; a code put twice keeps its first k. */
	qb_lang_index ix = {0};
	char codes[300][4];
	INT_EQ(qb_lang_index_get(&ix, "aa"), QB_LANG_NONE);
	for (size_t k = 0; k < 300; k++) {
		snprintf(codes[k], sizeof codes[k], "%c%c%c", 'a' + (int)(k / 26 / 26),
		         'a' + (int)(k / 26 % 26), 'a' + (int)(k % 26));
		qb_lang_index_put(&ix, codes[k], k);
	}
	qb_lang_index_put(&ix, codes[7], 99);
	INT_EQ(ix.n, 300);
	OK(ix.nslots >= 2 * ix.n);
	size_t wrong = 0;
	for (size_t k = 0; k < 300; k++)
		wrong += qb_lang_index_get(&ix, codes[k]) != k;
	INT_EQ(wrong, 0);
	INT_EQ(qb_lang_index_get(&ix, "zzz"), QB_LANG_NONE);
	INT_EQ(qb_lang_index_get(&ix, "aa"), QB_LANG_NONE);
	qb_lang_index_dispose(&ix);

	/* Texts as the reader makes them: in the declared order, in another
	 * order, with languages missing, with an undeclared one. */
	static const char src[] =
		"bank: b\nlanguages: en sw fr de\ntitle:\n  en: T\n  sw: T2\n  fr: T3\n  de: T4\n"
		"1. q\n sw: P\n en: P2\n de: P3\n fr: P4\n"
		" * en: A\n   de: A2\n"
		" - fr: B\n"
		" - en: C\n   sw: C2\n   xx: C3\n"
		" explanation:\n  en: E\n  sw: E2\n  fr: E3\n  de: E4\n";
	qb_diag_set_color(0);
	qb_bank *b = qb_read_text("t.qb", src, sizeof src - 1);
	INT_EQ(b->nlangs, 4);
	INT_EQ(qb_bank_lang_index(b, "fr"), 2);
	INT_EQ(qb_bank_lang_index(b, "xx"), QB_LANG_NONE);
	OK(qb_bank_has_lang(b, "de") && !qb_bank_has_lang(b, "xx"));
	const qb_question *q = &b->questions[0];
	OK(b->title.ordered);
	OK(!q->prompt.ordered);
	OK(q->choices[0].text.ordered); /* en de: sw and fr missing */
	OK(q->choices[2].text.ordered); /* en sw, then the undeclared xx */
	STR_EQ(qb_tr_lang(&q->choices[2].text, &q->choices[2].text.tr[2]), "xx");
	INT_EQ(b->code_lang[qb_tr_code(b, &q->choices[2].text.tr[2])], QB_TR_NO_LANG);
	INT_EQ(b->code_lang[qb_tr_code(b, &q->choices[2].text.tr[1])], 1);
	same_as_scan(b, &b->title);
	same_as_scan(b, &q->prompt);
	same_as_scan(b, &q->explanation);
	for (size_t i = 0; i < q->nchoices; i++)
		same_as_scan(b, &q->choices[i].text);
	STR_EQ(qb_text_get(&q->prompt, "de"), "P3");
	STR_EQ(qb_text_get(&q->choices[0].text, "de"), "A2");
	OK(!qb_text_get(&q->choices[0].text, "sw"));
	STR_EQ(qb_text_get(&q->choices[2].text, "xx"), "C3");
	/* A text of a bank that declares no languages is searched by code. */
	qb_bank *hb = qb_bank_new("h.qb");
	qb_tr tr[2] = {{.text = "x"}, {.text = "y"}};
	qb_tr_place(hb, &tr[0], 0, 0, qb_bank_code(hb, "sw"));
	qb_tr_place(hb, &tr[1], 0, 0, qb_bank_code(hb, "en"));
	INT_EQ(qb_bank_code(hb, "sw"), qb_tr_code(hb, &tr[0])); /* each code once */
	qb_text hand = {.tr = tr, .ntr = 2, .bank = hb, .present = true};
	STR_EQ(qb_text_get(&hand, "en"), "y");
	STR_EQ(qb_tr_lang(&hand, &tr[0]), "sw");
	OK(!qb_text_get(&hand, "fr"));
	OK(!qb_text_tr_at(&hand, 0));
	qb_bank_free(hb);
	qb_bank_free(b);

	/* Languages declared after a text was tagged: its codes are then
	 * declared ones, and look-ups find them. */
	static const char late[] = "title:\n  sw: K\n  en: T\nlanguages: en sw\nbank: late\n"
	                           "1. q\n   en: P\n   sw: S\n";
	b = qb_read_text("late.qb", late, sizeof late - 1);
	STR_EQ(qb_text_get(&b->title, "en"), "T");
	STR_EQ(qb_text_get(&b->title, "sw"), "K");
	INT_EQ(b->code_lang[qb_tr_code(b, &b->title.tr[0])], 1);
	INT_EQ(b->code_lang[qb_tr_code(b, &b->title.tr[1])], 0);
	OK(!b->title.ordered); /* tagged before the languages: searched */
	OK(b->questions[0].prompt.ordered);
	STR_EQ(qb_text_get(&b->questions[0].prompt, "sw"), "S");
	same_as_scan(b, &b->title);
	same_as_scan(b, &b->questions[0].prompt);
	qb_bank_free(b);
	qb_diag_dispose();
}

/* A translation's code and columns: packed when they fit, kept in the
 * bank's far table when they do not; either way read back as placed. */
static void tr_place(void)
{
	qb_bank *b = qb_bank_new("p.qb");
	static const struct { int col, text_col; uint32_t code; bool far; } cases[] = {
		{0, 0, 0, false},          {1, 5, 3, false},       {2047, 2110, 16383, false},
		{2048, 2052, 1, true},     {10, 74, 1, true},      {10, 9, 1, true},
		{3, 7, 16384, true},       {-1, 4, 1, true},       {1000000, 1000004, 70000, true},
	};
	qb_tr tr[QB_NELEM(cases)];
	for (size_t i = 0; i < QB_NELEM(cases); i++)
		qb_tr_place(b, &tr[i], cases[i].col, cases[i].text_col, cases[i].code);
	for (size_t i = 0; i < QB_NELEM(cases); i++) { /* after every far entry was made */
		INT_EQ(qb_tr_col(b, &tr[i]), cases[i].col);
		INT_EQ(qb_tr_text_col(b, &tr[i]), cases[i].text_col);
		INT_EQ(qb_tr_code(b, &tr[i]), cases[i].code);
		INT_EQ((tr[i].pos & QB_TR_FAR) != 0, cases[i].far);
	}
	INT_EQ(b->nfar, 6);
	INT_EQ(sizeof(qb_tr), 16);
	qb_bank_free(b);
}

/* Marks (issue 36): read exactly, written back the same, shared out as
 * the question's type and scoring say, and Moodle's grades. */
static void marks(void)
{
	qb_mark m;
	char buf[32];
	INT_EQ(qb_mark_parse("-25%", 4, &m), QB_MARK_OK);
	INT_EQ(m.num, -1);
	INT_EQ(m.den, 4);
	INT_EQ(qb_mark_parse("(\xE2\x88\x92" "33.3%)", 10, &m), QB_MARK_OK);
	INT_EQ(m.num, -1);
	INT_EQ(m.den, 3);
	STR_EQ(qb_mark_text(m, buf, sizeof buf), "-33.3%");
	INT_EQ(qb_mark_parse("33.33333%", 9, &m), QB_MARK_OK);
	INT_EQ(m.den, 3);
	INT_EQ(qb_mark_parse("14.25%", 6, &m), QB_MARK_OK); /* not a seventh */
	INT_EQ(m.den, 400);
	STR_EQ(qb_mark_text(m, buf, sizeof buf), "14.25%");
	INT_EQ(qb_mark_parse("12.5%", 5, &m), QB_MARK_OK);
	STR_EQ(qb_mark_text(m, buf, sizeof buf), "12.5%");
	INT_EQ(qb_mark_parse("1/12", 4, &m), QB_MARK_OK);
	STR_EQ(qb_mark_text(m, buf, sizeof buf), "1/12");
	INT_EQ(qb_mark_parse("-2/7", 4, &m), QB_MARK_OK);
	STR_EQ(qb_mark_text(m, buf, sizeof buf), "-28.6%");
	INT_EQ(qb_mark_parse("-28.6%", 6, &m), QB_MARK_OK);
	INT_EQ(m.den, 7);
	INT_EQ(qb_mark_parse("-150%", 5, &m), QB_MARK_RANGE);
	INT_EQ(qb_mark_parse("12.345%", 7, &m), QB_MARK_DIGITS);
	INT_EQ(qb_mark_parse("25", 2, &m), QB_MARK_SYNTAX);
	INT_EQ(qb_mark_parse("12.1234567%", 11, &m), QB_MARK_DIGITS);
	INT_EQ(qb_mark_parse("33.33333333333333333%", 21, &m), QB_MARK_OK);
	INT_EQ(m.den, 3);
	INT_EQ(qb_mark_parse("12.125%", 7, &m), QB_MARK_OK);
	INT_EQ(m.den, 800);
	INT_EQ(qb_mark_parse("1/0", 3, &m), QB_MARK_RANGE);
	INT_EQ(qb_mark_parse("99999999999%", 12, &m), QB_MARK_RANGE);
	INT_EQ(qb_mark_from_percent(-33.33333, &m), QB_MARK_OK);
	INT_EQ(m.den, 3);
	INT_EQ(qb_mark_from_percent(-33.3, &m), QB_MARK_OK); /* not Moodle's: 333/1000 */
	INT_EQ(m.den, 1000);

	static const char src[] = "bank: m\nlanguages: en\nscoring: partial\ntitle:\n  en: M\n\n"
	                          "1. s\n   en: S?\n   * en: a\n   - -25% en: b\n   * 50% en: c\n"
	                          "   explanation: en: x\n\n"
	                          "2. m\n   type: multiple\n   en: M?\n   * 50% en: a\n   * en: b\n"
	                          "   * en: c\n   - en: d\n   - -1/3 en: e\n   explanation: en: x\n";
	qb_bank *b = qb_read_text("t.qb", src, sizeof src - 1);
	const qb_question *s = &b->questions[0], *q = &b->questions[1];
	OK(qb_question_has_marks(s));
	OK(!s->choices[2].correct); /* '* 50%' is partly right */
	INT_EQ(qb_choice_share(b, s, 0).num, 1);
	INT_EQ(qb_choice_share(b, s, 1).num, -1);
	INT_EQ(qb_choice_share(b, s, 1).den, 4);
	STR_EQ(qb_share_moodle(qb_choice_share(b, s, 2)), "50");
	/* the unmarked right options share what 50% leaves: 25% each */
	STR_EQ(qb_share_moodle(qb_choice_share(b, q, 1)), "25");
	/* an unmarked wrong option: minus one right option's share, a third */
	STR_EQ(qb_share_moodle(qb_choice_share(b, q, 3)), "-33.33333");
	STR_EQ(qb_share_moodle(qb_choice_share(b, q, 4)), "-33.33333");
	OK(qb_share_moodle((qb_share){1, 12}) == NULL);
	qb_bank_free(b);
}

int main(void)
{
	lang_index();
	tr_place();
	scoring_and_shuffle();
	cloze();
	cloze_numeric();
	normalise();
	reader();
	marks();
	return h_done("test_model");
}
