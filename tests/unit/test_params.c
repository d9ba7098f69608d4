/* Unit tests of parameterised questions (params.h): how a drawn number is
 * written, where placeholders are, a draw as a plain question, and that
 * the pool is drawn from what defines the question, and from nothing else. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "params.h"
#include "read.h"

static const char bank_text[] =
	"bank: u\nlanguages: en fr\ntitle:\n  en: U\n  fr: U\n\n"
	"1. fall\n   type: numeric\n   vars:\n     h = 5..50 step 5\n     g = 9.81\n"
	"     t = sqrt(2*h/g) decimals 3\n"
	"   where: h != 25\n"
	"   en: From {h} m ({{x}} {=2*h} \\{h}).\n   fr: De {h} m, $g = {g}\\,\\mathrm{g}^{h}$.\n"
	"   answer: t \xC2\xB1 2%\n   explanation:\n     en: t = {t} s ~ {answer}\n     fr: t = {t} s\n";

static const char *comma(const void *payload, const char *lang)
{
	(void)payload;
	return strcmp(lang, "fr") == 0 ? "," : ".";
}

/* A numeric gap's number is written with a '.' in every language, the
 * text around it with the language's mark. */
static void gap_in_french(void)
{
	static const char text[] =
		"bank: g\nlanguages: en fr\ntitle:\n  en: G\n  fr: G\n\n"
		"1. gap\n   type: cloze\n   vars:\n     m = 1.5\n     f = m*2.1 decimals 2\n"
		"   en: {m} kg: {{#{f} \xC2\xB1 0.1}} N.\n   fr: {m} kg : {{# {f} \xC2\xB1 0.1}} N ({f}).\n"
		"   explanation:\n     en: x\n     fr: x\n";
	qb_bank *bank = qb_read_text("g.qb", text, strlen(text));
	qb_arena a = QB_ARENA_INIT;
	const qb_question *d = qb_params_instance(&a, &bank->questions[0], 0, comma, NULL);
	STR_EQ(qb_text_get(&d->prompt, "en"), "1.5 kg: {{#3.15 \xC2\xB1 0.1}} N.");
	STR_EQ(qb_text_get(&d->prompt, "fr"), "1,5 kg : {{# 3.15 \xC2\xB1 0.1}} N (3,15).");
	qb_arena_dispose(&a);
	qb_bank_free(bank);
}

static qb_bank *read_bank(const char *text)
{
	return qb_read_text("u.qb", text, strlen(text));
}

static void numbers(void)
{
	char b[64];
	STR_EQ(qb_params_number(2.5, 2, ".", b, sizeof b), "2.50");
	STR_EQ(qb_params_number(2.5, 1, ",", b, sizeof b), "2,5");
	STR_EQ(qb_params_number(-0.0001, 2, ".", b, sizeof b), "0.00");
	STR_EQ(qb_params_number(-3, 0, ",", b, sizeof b), "-3");
	STR_EQ(qb_params_number(1234.5678, 3, "\xD9\xAB", b, sizeof b), "1234\xD9\xAB" "568");
	OK(qb_params_name_ok("h_2", 3));
	OK(!qb_params_name_ok("2h", 2));
	OK(!qb_params_name_ok("", 0));
}

static void pool_and_placeholders(void)
{
	qb_bank *bank = read_bank(bank_text);
	const qb_question *q = &bank->questions[0];
	const qb_params *p = qb_question_params(q);
	OK(p != NULL && p->npool > 1);
	if (!p || p->npool < 2) {
		qb_bank_free(bank);
		return;
	}
	/* 10 values of h, one left out by 'where:' */
	INT_EQ(p->npool, 9);
	INT_EQ(p->nnamed, 3);
	INT_EQ(p->nvars, 4); /* and '{=2*h}' */
	for (size_t k = 0; k < p->npool; k++) {
		double h = qb_params_value(p, k, 0), t = qb_params_value(p, k, 2);
		OK(h != 25 && h >= 5 && h <= 50 && fmod(h, 5) == 0);
		OK(fabs(t - round(sqrt(2 * h / 9.81) * 1000) / 1000) < 1e-12);
		OK(qb_params_value(p, k, p->nvars) == t);
		OK(qb_params_value(p, k, 3) == 2 * h);
		for (size_t j = 0; j < k; j++)
			OK(qb_params_value(p, j, 0) != h);
	}
	/* placeholders: '{h}' and '{=2*h}', not '{{x}}' nor '\{h}', nor a TeX
	 * group ('\mathrm{g}^{h}' below) */
	const char *en = qb_text_get(&q->prompt, "en");
	qb_placeholder ph;
	size_t at = 0, n = 0, vars[4];
	while (n < 4 && qb_params_next(p, en, strlen(en), at, &ph)) {
		vars[n++] = ph.var;
		at = ph.off + ph.len;
	}
	INT_EQ(n, 2);
	INT_EQ(vars[0], 0);
	INT_EQ(vars[1], 3);
	/* draw 1 as a plain question: numbers in, the answer of draw 1 */
	qb_arena a = QB_ARENA_INIT;
	const qb_question *d = qb_params_instance(&a, q, 1, NULL, NULL);
	char want[160], hb[64], tb[64];
	qb_params_value_text(p, 1, 0, ".", hb, sizeof hb);
	snprintf(want, sizeof want, "From %s m ({{x}} %s \\{h}).", hb,
	         qb_params_number(2 * qb_params_value(p, 1, 0), 0, ".", tb, sizeof tb));
	STR_EQ(qb_text_get(&d->prompt, "en"), want);
	snprintf(want, sizeof want, "De %s m, $g = 9.81\\,\\mathrm{g}^{h}$.", hb);
	STR_EQ(qb_text_get(&d->prompt, "fr"), want);
	OK(qb_question_params(d) == NULL);
	OK(fabs(qb_question_num(d)->value - qb_params_value(p, 1, 2)) < 1e-12);
	OK(fabs(qb_question_num(d)->hi - qb_question_num(d)->value * 1.02) < 1e-9);
	/* the template's own answer is draw 0's, for a writer that draws nothing */
	OK(qb_question_num(q)->value == qb_params_value(p, 0, 2));
	qb_arena_dispose(&a);
	qb_bank_free(bank);
}

/* The same definition draws the same pool; another question id, bank id
 * or definition another one. */
static void seeded(void)
{
	char *other = strdup(bank_text);
	qb_bank *b1 = read_bank(bank_text), *b2 = read_bank(bank_text);
	memcpy(strstr(other, "1. fall"), "1. gall", 7);
	qb_bank *b3 = read_bank(other);
	const qb_params *p1 = qb_question_params(&b1->questions[0]);
	const qb_params *p2 = qb_question_params(&b2->questions[0]);
	const qb_params *p3 = qb_question_params(&b3->questions[0]);
	OK(p1 && p2 && p3 && p1->npool == p2->npool && p1->npool == p3->npool);
	if (p1 && p2 && p3) {
		size_t w = p1->npool * (p1->nvars + 1) * sizeof(double);
		OK(memcmp(p1->pool, p2->pool, w) == 0);
		OK(memcmp(p1->pool, p3->pool, w) != 0); /* the same values, another order */
	}
	qb_bank_free(b1);
	qb_bank_free(b2);
	qb_bank_free(b3);
	free(other);
}

int main(void)
{
	numbers();
	gap_in_french();
	pool_and_placeholders();
	seeded();
	return h_done("test_params");
}
