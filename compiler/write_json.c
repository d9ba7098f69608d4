/* write_json.c - the canonical JSON form of the model (jansson), for
 * `qbc dump --json`, `qbc build --format json` and the golden tests.
 * Keys keep a fixed order; texts are the author's Markdown, each with an
 * "_html" twin rendered by markup.c. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "markup.h"
#include "render.h"
#include "write.h"
#include "write_json.h"
#include "params.h"

static json_t *text_obj(const qb_text *t, const qb_build_opts *opts, bool html)
{
	if (!t->present)
		return json_null();
	json_t *o = json_object();
	for (size_t i = 0; i < opts->nlangs; i++) {
		const char *s = qb_text_get(t, opts->langs[i]);
		if (!s)
			continue;
		if (html) {
			qb_buf b = QB_BUF_INIT; /* pictures as written: no media here */
			qb_markup_html(&b, s, QB_MARKUP_INLINE, NULL, NULL);
			json_object_set_new(o, opts->langs[i], json_string(qb_buf_cstr(&b)));
			qb_buf_dispose(&b);
		} else
			json_object_set_new(o, opts->langs[i], json_string(s));
	}
	return o;
}

static void set_text(json_t *o, const char *key, const qb_text *t, const qb_build_opts *opts)
{
	json_object_set_new(o, key, text_obj(t, opts, false));
	char *hk = qb_xasprintf("%s_html", key);
	json_object_set_new(o, hk, text_obj(t, opts, true));
	free(hk);
}

/* The gaps of a cloze question in each language. */
static json_t *gaps_obj(const qb_question *q, const qb_build_opts *opts)
{
	json_t *o = json_object();
	qb_arena a = {0};
	for (size_t i = 0; i < opts->nlangs; i++) {
		const char *s = qb_text_get(&q->prompt, opts->langs[i]);
		if (!s)
			continue;
		qb_cloze_part *p;
		size_t np;
		json_t *arr = json_array();
		if (qb_cloze_split(&a, s, &p, &np) >= 0)
			for (size_t k = 0; k < np; k++) {
				const qb_cloze_gap *g = p[k].gap;
				if (!g)
					continue;
				json_t *jg = json_object();
				json_object_set_new(jg, "kind", json_string(g->num ? "numeric" : g->choice ? "choice" : "typed"));
				json_t *ans = json_array();
				for (size_t j = 0; j < g->nanswers; j++)
					json_array_append_new(ans, json_string(g->answers[j]));
				json_object_set_new(jg, "answers", ans);
				if (g->choice)
					json_object_set_new(jg, "right", json_integer((json_int_t)g->right));
				if (g->num) { /* as a numeric question's answer */
					json_object_set_new(jg, "value", json_real(g->num->value));
					json_object_set_new(jg, "tolerance", json_real(g->num->tol));
					json_object_set_new(jg, "min", json_real(g->num->lo));
					json_object_set_new(jg, "max", json_real(g->num->hi));
				}
				json_array_append_new(arr, jg);
			}
		json_object_set_new(o, opts->langs[i], arr);
	}
	qb_arena_dispose(&a);
	return o;
}

/* A numeric question's further answers: each as "answer" is, with its
 * credit (percent) and feedback. */
static json_t *num_more_arr(const qb_question *q, const qb_build_opts *opts)
{
	json_t *arr = json_array();
	for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
		json_t *a = json_object();
		json_object_set_new(a, "value", json_real(m->num.value));
		json_object_set_new(a, "tolerance", json_real(m->num.tol));
		json_object_set_new(a, "min", json_real(m->num.lo));
		json_object_set_new(a, "max", json_real(m->num.hi));
		json_object_set_new(a, "percent", json_boolean(m->num.percent));
		json_object_set_new(a, "credit", json_real(m->credit));
		if (m->feedback.present)
			set_text(a, "feedback", &m->feedback, opts);
		json_array_append_new(arr, a);
	}
	return arr;
}

/* A parameterised question's variables, conditions, answer formula and
 * pool (params.h): what its outputs draw from. */
static json_t *params_obj(const qb_params *p)
{
	static const char *const kinds[] = {"range", "list", "formula"};
	json_t *o = json_object(), *vars = json_array(), *pool = json_array();
	for (size_t i = 0; i < p->nvars; i++) {
		const qb_var *v = &p->vars[i];
		json_t *jv = json_object();
		json_object_set_new(jv, "name", v->name ? json_string(v->name) : json_null());
		json_object_set_new(jv, "definition", json_string(v->def));
		json_object_set_new(jv, "kind", json_string(kinds[v->kind]));
		json_object_set_new(jv, "decimals", json_integer(v->decimals));
		json_array_append_new(vars, jv);
	}
	json_object_set_new(o, "vars", vars);
	json_object_set_new(o, "where", p->where ? json_string(p->where) : json_null());
	if (p->answer.formula) {
		json_t *a = json_object();
		json_object_set_new(a, "formula", json_string(p->answer.formula));
		json_object_set_new(a, "tolerance", json_real(p->answer.tol));
		json_object_set_new(a, "percent", json_boolean(p->answer.percent));
		json_object_set_new(a, "decimals", json_integer(p->answer.decimals));
		json_object_set_new(o, "answer", a);
	}
	json_object_set_new(o, "draws", json_integer(p->ndraws));
	for (size_t k = 0; k < p->npool; k++) {
		json_t *row = json_object();
		for (size_t i = 0; i < p->nvars; i++)
			json_object_set_new(row, p->vars[i].name ? p->vars[i].name : p->vars[i].def,
			                    json_real(qb_params_value(p, k, i)));
		if (p->answer.formula)
			json_object_set_new(row, "answer", json_real(qb_params_value(p, k, p->nvars)));
		json_array_append_new(pool, row);
	}
	json_object_set_new(o, "pool", pool);
	return o;
}

/* The keys that only some types have. */
static void type_keys(json_t *jq, const qb_question *q, const qb_build_opts *opts)
{
	switch (q->type) {
	case QB_QTYPE_TRUE_FALSE:
		json_object_set_new(jq, "answer", json_boolean(q->truth));
		break;
	case QB_QTYPE_SHORT:
		json_object_set_new(jq, "case_sensitive", json_boolean(q->case_sensitive));
		break;
	case QB_QTYPE_NUMERIC: {
		json_t *a = json_object();
		const qb_numeric *num = qb_question_num(q);
		json_object_set_new(a, "value", json_real(num->value));
		json_object_set_new(a, "tolerance", json_real(num->tol));
		json_object_set_new(a, "min", json_real(num->lo));
		json_object_set_new(a, "max", json_real(num->hi));
		json_object_set_new(a, "percent", json_boolean(num->percent));
		json_object_set_new(jq, "answer", a);
		if (qb_question_num_more(q))
			json_object_set_new(jq, "more_answers", num_more_arr(q, opts));
		const char *unit = qb_question_rare(q)->unit;
		json_object_set_new(jq, "unit", unit ? json_string(unit) : json_null());
		break;
	}
	case QB_QTYPE_CLOZE:
		json_object_set_new(jq, "case_sensitive", json_boolean(q->case_sensitive));
		json_object_set_new(jq, "gaps", gaps_obj(q, opts));
		break;
	default:
		break;
	}
}

/* The bank's passages (only a bank that has some: the others' JSON stays
 * as it was). */
static json_t *passages_json(const qb_bank *bank, const qb_build_opts *opts)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < bank->npassages; i++) {
		const qb_passage *p = &bank->passages[i];
		json_t *jp = json_object();
		json_object_set_new(jp, "id", p->id ? json_string(p->id) : json_null());
		set_text(jp, "text", &p->text, opts);
		json_array_append_new(arr, jp);
	}
	return arr;
}

/* The bank without its questions ("questions" last, and empty). */
static json_t *bank_head(const qb_bank *bank, const qb_build_opts *opts)
{
	json_t *root = json_object();
	json_object_set_new(root, "id", bank->id ? json_string(bank->id) : json_null());
	json_t *langs = json_array();
	for (size_t i = 0; i < opts->nlangs; i++)
		json_array_append_new(langs, json_string(opts->langs[i]));
	json_object_set_new(root, "languages", langs);
	const char *dl = qb_bank_default_lang(bank);
	json_object_set_new(root, "default_language", dl ? json_string(dl) : json_null());
	json_object_set_new(root, "pass_mark",
	                    bank->pass_mark >= 0 ? json_integer(bank->pass_mark) : json_null());
	json_object_set_new(root, "scoring", json_string(qb_scoring_name(bank->scoring)));
	json_object_set_new(root, "shuffle_options", json_boolean(bank->shuffle_options));
	json_object_set_new(root, "shuffle_questions", json_boolean(bank->shuffle_questions));
	json_object_set_new(root, "draw", json_integer(bank->draw));
	json_object_set_new(root, "draw_per_tag", json_boolean(bank->draw_per_tag));
	if (bank->explanations_optional) /* only then: older dumps stay the same */
		json_object_set_new(root, "explanations", json_string("optional"));
	json_object_set_new(root, "title", text_obj(&bank->title, opts, false));
	json_object_set_new(root, "description", text_obj(&bank->description, opts, false));
	if (bank->npassages)
		json_object_set_new(root, "passages", passages_json(bank, opts));
	json_object_set_new(root, "questions", json_array());
	return root;
}

/* A question with marks (issue 36): each option's written mark ("-25%",
 * null when none) and the share of the question's mark it earns. */
static void set_mark(json_t *jc, const qb_bank *bank, const qb_question *q, size_t i)
{
	char m[32];
	const qb_choice *ch = &q->choices[i];
	json_object_set_new(jc, "mark", ch->mark.den ? json_string(qb_mark_text(ch->mark, m, sizeof m))
	                                             : json_null());
	json_object_set_new(jc, "share", json_real(qb_share_value(qb_choice_share(bank, q, i))));
}

static json_t *question_json(const qb_bank *bank, const qb_question *q,
                             const qb_build_opts *opts)
{
	json_t *jq = json_object();
	json_object_set_new(jq, "id", q->id ? json_string(q->id) : json_null());
	json_object_set_new(jq, "number", json_integer(q->number));
	json_object_set_new(jq, "type", json_string(qb_qtype_name(q->type)));
	json_object_set_new(jq, "scoring",
	                    json_string(qb_scoring_name(qb_question_scoring(bank, q))));
	json_object_set_new(jq, "shuffle", json_boolean(qb_question_shuffles(bank, q)));
	json_t *tags = json_array();
	for (size_t t = 0; t < q->ntags; t++)
		json_array_append_new(tags, json_string(q->tags[t].name));
	json_object_set_new(jq, "tags", tags);
	const qb_passage *passage = qb_question_passage(bank, q);
	if (passage)
		json_object_set_new(jq, "passage", passage->id ? json_string(passage->id) : json_null());
	set_text(jq, "prompt", &q->prompt, opts);
	json_t *chs = json_array();
	bool marks = qb_question_has_marks(q);
	for (size_t c = 0; c < q->nchoices; c++) {
		const qb_choice *ch = &q->choices[c];
		json_t *jc = json_object();
		set_text(jc, "text", &ch->text, opts);
		if (q->type == QB_QTYPE_MATCHING)
			set_text(jc, "match", qb_choice_match(ch), opts);
		json_object_set_new(jc, "correct", json_boolean(ch->correct));
		json_object_set_new(jc, "pinned", json_boolean(ch->pinned));
		if (marks)
			set_mark(jc, bank, q, c);
		set_text(jc, "feedback", &ch->feedback, opts);
		json_array_append_new(chs, jc);
	}
	json_object_set_new(jq, "choices", chs);
	type_keys(jq, q, opts);
	if (qb_question_params(q))
		json_object_set_new(jq, "params", params_obj(qb_question_params(q)));
	if (qb_question_feedback_wrong(q)->present)
		set_text(jq, "feedback_wrong", qb_question_feedback_wrong(q), opts);
	set_text(jq, "explanation", &q->explanation, opts);
	json_t *src = json_object();
	json_object_set_new(src, "file", json_string(q->loc.file));
	json_object_set_new(src, "line", json_integer(q->loc.line));
	json_object_set_new(jq, "source", src);
	return jq;
}

json_t *qb_json_bank(const qb_bank *bank, const qb_build_opts *opts)
{
	json_t *root = bank_head(bank, opts);
	json_t *qs = json_object_get(root, "questions");
	for (size_t i = 0; i < bank->nquestions; i++)
		json_array_append_new(qs, question_json(bank, &bank->questions[i], opts));
	return root;
}

json_t *qb_json_passages(const qb_bank *bank, const qb_build_opts *opts)
{
	return passages_json(bank, opts);
}

json_t *qb_json_question(const qb_bank *bank, size_t i, const qb_build_opts *opts)
{
	return question_json(bank, &bank->questions[i], opts);
}

char *qb_json_dump(const qb_bank *bank, const qb_build_opts *opts)
{
	json_t *root = qb_json_bank(bank, opts);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(root);
	return s;
}

enum { JSON_FLAGS = JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) };

/* Writes json_dumps(v) with every line after the first indented by
 * 'indent' spaces (a JSON string never holds a raw newline). */
static void put_indented(FILE *f, const json_t *v, const char *indent)
{
	char *s = json_dumps(v, JSON_FLAGS);
	for (const char *p = s, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		fwrite(p, 1, nl ? (size_t)(nl + 1 - p) : strlen(p), f);
		if (nl)
			fputs(indent, f);
	}
	free(s);
}

/* The same text as qb_json_dump() and a newline, written a question at
 * a time so that the whole tree is never held: the head dumped with an
 * empty "questions" array, each question dumped and indented to its
 * place in it. */
int qb_write_json(const qb_render_ctx *ctx, const qb_bank *bank)
{
	qb_build_opts langs = {.langs = ctx->langs, .nlangs = ctx->nlangs};
	static const char empty_tail[] = "[]\n}";
	json_t *head = bank_head(bank, &langs);
	char *hs = json_dumps(head, JSON_FLAGS);
	json_decref(head);
	size_t hl = strlen(hs), tl = sizeof empty_tail - 1;
	qb_fs_atomic out;
	int rc = qb_fs_atomic_open(&out, ctx->path);
	bool split = bank->nquestions && hl >= tl && strcmp(hs + hl - tl, empty_tail) == 0;
	if (rc == 0 && !split) { /* no questions (or not the expected head) */
		char *all = qb_json_dump(bank, &langs);
		fprintf(out.f, "%s\n", all);
		free(all);
	} else if (rc == 0) {
		fwrite(hs, 1, hl - tl, out.f);
		fputs("[\n", out.f);
		for (size_t i = 0; i < bank->nquestions; i++) {
			json_t *jq = question_json(bank, &bank->questions[i], &langs);
			fputs("    ", out.f);
			put_indented(out.f, jq, "    ");
			fputs(i + 1 < bank->nquestions ? ",\n" : "\n", out.f);
			json_decref(jq);
		}
		fputs("  ]\n}\n", out.f);
	}
	free(hs);
	if (rc == 0 && ferror(out.f)) {
		qb_fs_atomic_discard(&out);
		rc = -1;
	} else if (rc == 0)
		rc = qb_fs_atomic_commit(&out);
	if (rc != 0)
		qb_diag_fatal("cannot write '%s': %s", ctx->path, strerror(errno));
	return rc;
}
