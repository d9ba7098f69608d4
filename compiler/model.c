/* model.c - constructors and accessors of the model (see model.h). */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

qb_bank *qb_bank_new(const char *path)
{
	qb_bank *bank = qb_xcalloc(1, sizeof *bank);
	bank->path = qb_arena_strdup(&bank->arena, path);
	const char *slash = strrchr(path, '/');
	bank->dir = slash ? qb_arena_strndup(&bank->arena, path,
	                                     slash == path ? 1 : (size_t)(slash - path))
	                  : ".";
	bank->pass_mark = -1;
	return bank;
}

void qb_bank_free(qb_bank *bank)
{
	if (!bank)
		return;
	qb_arena_dispose(&bank->arena);
	free(bank);
}

const char *qb_bank_default_lang(const qb_bank *bank)
{
	if (bank->default_lang)
		return bank->default_lang;
	return bank->nlangs ? bank->langs[0].code : NULL;
}

bool qb_bank_has_lang(const qb_bank *bank, const char *code)
{
	for (size_t i = 0; i < bank->nlangs; i++)
		if (strcmp(bank->langs[i].code, code) == 0)
			return true;
	return false;
}

const qb_tr *qb_text_tr(const qb_text *t, const char *lang)
{
	for (size_t i = 0; i < t->ntr; i++)
		if (strcmp(t->tr[i].lang, lang) == 0)
			return &t->tr[i];
	return NULL;
}

const char *qb_text_get(const qb_text *t, const char *lang)
{
	const qb_tr *tr = qb_text_tr(t, lang);
	return tr ? tr->text : NULL;
}

size_t qb_question_ncorrect(const qb_question *q)
{
	size_t n = 0;
	for (size_t i = 0; i < q->nchoices; i++)
		n += q->choices[i].correct;
	return n;
}

const char *qb_qtype_name(qb_qtype type)
{
	switch (type) {
	case QB_QTYPE_SINGLE:
		return "single";
	case QB_QTYPE_MULTIPLE:
		return "multiple";
	}
	return "single";
}
