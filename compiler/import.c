/* import.c - `qbc import`: the importers' common builder (questions,
 * texts, ids, tags, media), the format sniffer, and the command itself:
 * read the source, import it into the model, run the checks, write the
 * .qb (write_qb.c) and its media, report what was carried. */
#include "import.h"
#include "params.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nettle/base64.h>
#include <utf8proc.h>

#include "alloc.h"
#include "diag.h"
#include "driver.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "lang.h"
#include "langguess.h"
#include "utf8.h"
#include "validate.h"
#include "read.h"
#include "write.h"
#include "write_json.h"
#include "write_qb.h"

/* ---- texts ---- */

void qb_imp_ml_set(qb_imp_ml *ml, const char *lang, const char *text, size_t len)
{
	size_t i = 0;
	while (i < ml->n && strcmp(ml->lang[i], lang) != 0)
		i++;
	if (i == QB_NELEM(ml->lang))
		return; /* more languages than any bank has: the rest is dropped */
	if (i == ml->n) {
		ml->lang[ml->n++] = qb_xstrdup(lang);
		ml->text[i] = NULL;
	}
	free(ml->text[i]);
	ml->text[i] = qb_xstrndup(text, len);
}

void qb_imp_ml_dispose(qb_imp_ml *ml)
{
	for (size_t i = 0; i < ml->n; i++) {
		free(ml->lang[i]);
		free(ml->text[i]);
	}
	ml->n = 0;
}

/* s trimmed and in NFC, in the bank's arena (s is valid UTF-8: the
 * source was checked); Windows line ends (a spreadsheet's cells) made
 * '\n'. */
static const char *text_nfc(qb_imp *im, const char *s)
{
	qb_buf lf = QB_BUF_INIT;
	if (strchr(s, '\r')) {
		for (const char *p = s; *p; p++)
			if (!(p[0] == '\r' && p[1] == '\n'))
				qb_buf_putc(&lf, *p);
		s = qb_buf_cstr(&lf);
	}
	const char *out = NULL;
	size_t n = strlen(s);
	while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (qb_utf8_is_nfc(s, n)) {
		out = qb_arena_strndup(&im->bank->arena, s, n);
	} else {
		utf8proc_uint8_t *nfc = NULL;
		utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n,
		                                  &nfc, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
		out = m >= 0 ? qb_arena_strndup(&im->bank->arena, (const char *)nfc, (size_t)m)
		             : qb_arena_strndup(&im->bank->arena, s, n);
		free(nfc);
	}
	qb_buf_dispose(&lf);
	return out;
}

void qb_imp_text(qb_imp *im, qb_text *t, qb_loc loc, const qb_imp_ml *ml)
{
	*t = (qb_text){.bank = im->bank, .line = loc.line, .col = loc.col, .present = true};
	t->tr = ml->n ? qb_arena_alloc(&im->bank->arena, ml->n * sizeof *t->tr) : NULL;
	for (size_t i = 0; i < ml->n; i++) {
		qb_buf canon = QB_BUF_INIT;
		const char *lang = *ml->lang[i] ? ml->lang[i] : im->lang;
		qb_lang_canonical(&canon, lang, strlen(lang));
		qb_tr *tr = &t->tr[t->ntr++];
		*tr = (qb_tr){.text = text_nfc(im, ml->text[i]), .line = loc.line};
		qb_tr_place(im->bank, tr, loc.col, loc.col, qb_bank_code(im->bank, qb_buf_cstr(&canon)));
		qb_buf_dispose(&canon);
	}
}

void qb_imp_text1(qb_imp *im, qb_text *t, qb_loc loc, const char *s)
{
	qb_imp_ml ml = {0};
	qb_imp_ml_set(&ml, im->lang, s, strlen(s));
	qb_imp_text(im, t, loc, &ml);
	qb_imp_ml_dispose(&ml);
}

double qb_imp_strtod(const char *s, char **end)
{
	const char *p = s;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	return strtod(s, end);
}

bool qb_imp_entity_at(const char *s, size_t n)
{
	size_t i = 1;
	if (!n || s[0] != '&')
		return false;
	if (i < n && s[i] == '#')
		i++;
	size_t start = i;
	while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	                 (s[i] >= '0' && s[i] <= '9')))
		i++;
	return i > start && i < n && s[i] == ';';
}

void qb_imp_md_escape(qb_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if ((strchr("\\`*_[]$", s[i]) && s[i]) || qb_imp_entity_at(s + i, n - i))
			qb_buf_putc(out, '\\');
		qb_buf_putc(out, s[i]);
	}
}

void qb_imp_plain(qb_imp *im, qb_text *t, qb_loc loc, const char *s)
{
	qb_buf b = QB_BUF_INIT;
	qb_imp_md_escape(&b, s, strlen(s));
	qb_imp_text1(im, t, loc, qb_buf_cstr(&b));
	qb_buf_dispose(&b);
}

void qb_imp_text_md(qb_buf *out, const char *s, qb_imp_format f, const qb_html_md_cb *cb)
{
	qb_buf h = QB_BUF_INIT;
	if (f == QB_IMP_AUTO) { /* HTML allowed, line breaks kept */
		bool tags = false;
		for (const char *p = strchr(s, '<'); p && !tags; p = strchr(p + 1, '<'))
			tags = ((p[1] >= 'a' && p[1] <= 'z') || p[1] == '/') && strchr(p, '>');
		f = tags ? QB_IMP_HTML : QB_IMP_PLAIN;
		for (const char *p = s; tags && *p; p++)
			if (*p == '\n')
				qb_buf_puts(&h, "<br>");
			else
				qb_buf_putc(&h, *p);
		if (tags)
			s = qb_buf_cstr(&h);
	}
	if (f == QB_IMP_HTML) {
		qb_html_to_md(out, s, cb);
	} else if (f == QB_IMP_MARKDOWN) {
		qb_buf_puts(out, s);
	} else {
		for (const char *p = s, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			if (n && p[n - 1] == '\r')
				n--;
			qb_imp_md_escape(out, p, n);
			if (!nl)
				break;
			qb_buf_puts(out, "\\\n");
		}
	}
	qb_buf_dispose(&h);
}

/* ---- languages (Moodle's multi-language filter) ---- */

/* The languages of html's multilang spans and {mlang xx} blocks, in order. */
size_t qb_imp_langs_of(const char *html, char langs[][QB_IMP_LANG_LEN], size_t max)
{
	size_t n = 0;
	for (const char *p = html; (p = strstr(p, "lang=")) != NULL && n < max; p += 5) {
		const char *v = p + 5;
		char q = *v == '"' || *v == '\'' ? *v++ : 0;
		size_t len = strcspn(v, q ? (q == '"' ? "\"" : "'") : " >");
		if (!len || len >= QB_IMP_LANG_LEN)
			continue;
		/* only a span marked multilang */
		const char *open = p;
		while (open > html && *open != '<')
			open--;
		const char *close = strchr(p, '>');
		if (!close || strncmp(open, "<span", 5) != 0)
			continue;
		char *tag = qb_xstrndup(open, (size_t)(close - open));
		bool ml = strstr(tag, "multilang") != NULL;
		free(tag);
		if (!ml)
			continue;
		size_t k;
		for (k = 0; k < n && !(strlen(langs[k]) == len && strncmp(langs[k], v, len) == 0); k++)
			;
		if (k == n) {
			memcpy(langs[n], v, len);
			langs[n++][len] = '\0';
		}
	}
	for (const char *p = html; (p = strstr(p, "{mlang ")) != NULL && n < max; p += 7) {
		size_t len = strcspn(p + 7, "}");
		if (!len || len >= QB_IMP_LANG_LEN || !p[7 + len])
			continue;
		size_t k;
		for (k = 0; k < n && !(strlen(langs[k]) == len && strncmp(langs[k], p + 7, len) == 0);
		     k++)
			;
		if (k == n && strncmp(p + 7, "other", 5) != 0) {
			memcpy(langs[n], p + 7, len);
			langs[n++][len] = '\0';
		}
	}
	return n;
}

/* html as language lang sees it: other languages' multilang spans and
 * {mlang} blocks removed, lang's own unwrapped. */
void qb_imp_project(qb_buf *out, const char *html, const char *lang)
{
	const char *p = html;
	while (*p) {
		if (strncmp(p, "<span", 5) == 0) {
			const char *close = strchr(p, '>');
			char *tag = close ? qb_xstrndup(p, (size_t)(close - p)) : NULL;
			const char *lv = tag ? strstr(tag, "lang=") : NULL;
			if (tag && lv && strstr(tag, "multilang")) {
				lv += 5;
				char q = *lv == '"' || *lv == '\'' ? *lv++ : 0;
				size_t len = strcspn(lv, q == '\'' ? "'" : q ? "\"" : " >");
				bool mine = strlen(lang) == len && strncmp(lv, lang, len) == 0;
				const char *end = strstr(close, "</span>");
				if (!end)
					end = close + strlen(close);
				if (mine)
					qb_buf_append(out, close + 1, (size_t)(end - close - 1));
				free(tag);
				p = *end ? end + 7 : end;
				continue;
			}
			free(tag);
		}
		if (strncmp(p, "{mlang ", 7) == 0) {
			const char *close = strchr(p, '}');
			const char *end = close ? strstr(close, "{mlang}") : NULL;
			if (close && end) {
				size_t len = (size_t)(close - p - 7);
				bool mine = (strlen(lang) == len && strncmp(p + 7, lang, len) == 0);
				if (mine)
					qb_buf_append(out, close + 1, (size_t)(end - close - 1));
				p = end + 7;
				continue;
			}
		}
		qb_buf_putc(out, *p++);
	}
}

void qb_imp_ml_split(qb_imp_ml *ml, const char *s, char (*qlangs)[QB_IMP_LANG_LEN],
                     size_t nqlangs, qb_imp_conv *conv, void *payload)
{
	char langs[QB_IMP_MAX_LANGS][QB_IMP_LANG_LEN];
	size_t nl = qb_imp_langs_of(s, langs, QB_IMP_MAX_LANGS);
	/* the question's languages too: text outside the blocks is theirs */
	for (size_t k = 0; nl && k < nqlangs && nl < QB_IMP_MAX_LANGS; k++) {
		size_t i;
		for (i = 0; i < nl && strcmp(langs[i], qlangs[k]) != 0; i++)
			;
		if (i == nl)
			memcpy(langs[nl++], qlangs[k], sizeof langs[0]);
	}
	qb_buf md = QB_BUF_INIT, proj = QB_BUF_INIT;
	if (!nl) {
		/* Text outside any language's block shows in every language
		 * (Moodle's filter): in a question whose prompt has languages,
		 * it is the text of each of them. */
		conv(payload, &md, s);
		for (size_t i = 0; md.len && i < (nqlangs ? nqlangs : 1); i++)
			qb_imp_ml_set(ml, nqlangs ? qlangs[i] : "", md.ptr, md.len);
	}
	for (size_t i = 0; i < nl; i++) {
		qb_buf_clear(&md);
		qb_buf_clear(&proj);
		qb_imp_project(&proj, s, langs[i]);
		conv(payload, &md, qb_buf_cstr(&proj));
		if (md.len)
			qb_imp_ml_set(ml, langs[i], md.ptr, md.len);
	}
	qb_buf_dispose(&md);
	qb_buf_dispose(&proj);
}

/* ---- questions ---- */

qb_question *qb_imp_question(qb_imp *im, qb_qtype type, qb_loc loc)
{
	if (im->nqs == im->capqs) {
		im->capqs = im->capqs ? 2 * im->capqs : 16;
		im->qs = qb_xrealloc(im->qs, im->capqs * sizeof *im->qs);
		im->cats = qb_xrealloc(im->cats, im->capqs * sizeof *im->cats);
	}
	im->cats[im->nqs] = NULL;
	im->ncats = im->nqs + 1;
	qb_question *q = &im->qs[im->nqs++];
	memset(q, 0, sizeof *q);
	q->loc = loc;
	q->id_loc = loc;
	q->type = type;
	q->shuffle = QB_UNSET;
	q->number = (int)im->nqs;
	q->passage = im->passage;
	if (type != QB_QTYPE_SINGLE)
		q->type_loc = loc;
	im->counts.by_type[type]++;
	return q;
}

static qb_question *last_q(qb_imp *im)
{
	return &im->qs[im->nqs - 1];
}

qb_choice *qb_imp_choice(qb_imp *im, qb_loc loc)
{
	qb_question *q = last_q(im);
	q->choices = qb_xrealloc(q->choices, (q->nchoices + 1) * sizeof *q->choices);
	qb_choice *c = &q->choices[q->nchoices++];
	memset(c, 0, sizeof *c);
	c->text.bank = im->bank; /* the file of its place */
	qb_choice_set_loc(c, loc);
	return c;
}

qb_text *qb_imp_match(qb_imp *im)
{
	qb_question *q = last_q(im);
	qb_text *m = qb_arena_alloc(&im->bank->arena, sizeof *m);
	*m = (qb_text){.bank = im->bank};
	q->choices[q->nchoices - 1].match = m;
	return m;
}

void qb_imp_truefalse(qb_imp *im, bool truth, const qb_imp_ml *fb_true,
                      const qb_imp_ml *fb_false, qb_loc loc)
{
	qb_question *q = last_q(im);
	q->truth = truth;
	qb_question_rare_w(&im->bank->arena, q)->answer_loc = loc;
	if ((fb_true && fb_true->n) || (fb_false && fb_false->n)) {
		qb_text *tf = qb_arena_alloc(&im->bank->arena, 2 * sizeof *tf);
		tf[0] = tf[1] = (qb_text){.bank = im->bank};
		qb_question_rare_w(&im->bank->arena, q)->feedback_tf = tf;
		if (fb_true && fb_true->n)
			qb_imp_text(im, &tf[0], loc, fb_true);
		if (fb_false && fb_false->n)
			qb_imp_text(im, &tf[1], loc, fb_false);
	}
	for (int i = 0; i < 2; i++) {
		qb_choice *c = qb_imp_choice(im, loc);
		q = last_q(im);
		c->correct = (i == 0) == truth;
		c->feedback = *qb_question_feedback(q, i == 0);
		c->text.bank = im->bank;
		qb_text_set_loc(&c->text, loc);
	}
}

/* Moodle's context prefixes: the levels a category lives at, not names
 * a teacher gave. */
static const char *const moodle_contexts[] = {"$course$", "$cat1$", "$module$", "$system$"};

/* name past its Moodle context prefixes ("$course$::", "$system$/"). */
static const char *past_contexts(const char *name)
{
	for (bool again = true; again;) {
		again = false;
		while (*name == ' ' || *name == '/' || (name[0] == ':' && name[1] == ':'))
			name += *name == ':' ? 2 : 1;
		for (size_t i = 0; i < QB_NELEM(moodle_contexts); i++) {
			size_t n = strlen(moodle_contexts[i]);
			if (strncmp(name, moodle_contexts[i], n) == 0 &&
			    (!name[n] || name[n] == '/' || name[n] == ':' || name[n] == ' ')) {
				name += n;
				again = true;
			}
		}
	}
	return name;
}

void qb_imp_tag(qb_imp *im, qb_loc loc, const char *name)
{
	qb_buf b = QB_BUF_INIT;
	name = past_contexts(name);
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\'' || strncmp(p, "\xE2\x80\x9C", 3) == 0 ||
		    strncmp(p, "\xE2\x80\x9D", 3) == 0 || strncmp(p, "\xE2\x80\x98", 3) == 0 ||
		    strncmp(p, "\xE2\x80\x99", 3) == 0) {
			if ((unsigned char)*p >= 0x80)
				p += 2;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (b.len && b.ptr[b.len - 1] != '-')
				qb_buf_putc(&b, '-');
			continue;
		}
		qb_buf_putc(&b, *p);
	}
	while (b.len && b.ptr[b.len - 1] == '-')
		b.ptr[--b.len] = '\0';
	qb_question *q = last_q(im);
	bool dup = !b.len;
	for (size_t i = 0; !dup && i < q->ntags; i++)
		dup = strcmp(q->tags[i].name, b.ptr) == 0;
	if (!dup) {
		q->tags = qb_xrealloc(q->tags, (q->ntags + 1) * sizeof *q->tags);
		q->tags[q->ntags++] = (qb_tag){text_nfc(im, b.ptr), loc};
	}
	qb_buf_dispose(&b);
}

char *qb_imp_category(const char *path)
{
	qb_buf b = QB_BUF_INIT;
	path = past_contexts(path);
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		while (n && p[0] == ' ') {
			p++;
			n--;
		}
		size_t k = n;
		while (k && p[k - 1] == ' ')
			k--;
		bool skip = !k || p[0] == '$' || (k == 3 && strncmp(p, "top", 3) == 0) ||
		            (k > 11 && strncmp(p, "Default for", 11) == 0);
		if (!skip) {
			if (b.len)
				qb_buf_puts(&b, "::");
			qb_buf_append(&b, p, k);
		}
		p += n;
		if (*p)
			p++;
	}
	return b.len ? qb_buf_detach(&b) : NULL;
}

void qb_imp_in_category(qb_imp *im, qb_loc loc, const char *cat)
{
	cat = past_contexts(cat);
	free(im->cats[im->nqs - 1]);
	im->cats[im->nqs - 1] = qb_xstrdup(cat);
	if (!im->split)
		qb_imp_tag(im, loc, cat);
}

/* ---- ids ---- */

/* A short slug of s: lower-case ASCII letters and digits (a letter with
 * accents as its base letter: utf8proc's compatibility decomposition,
 * marks stripped, so 'lumière' is 'lumiere'), runs of anything else one
 * '-', at most 40 characters, cut at a '-'. */
static void slug_max(qb_buf *out, const char *s, size_t max);

static void slug(qb_buf *out, const char *s)
{
	slug_max(out, s, 40);
}

/* slug() cut at max characters instead of 40. */
static void slug_max(qb_buf *out, const char *s, size_t max)
{
	size_t start = out->len;
	utf8proc_uint8_t *ascii = NULL;
	if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &ascii,
	                 UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPAT |
	                     UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK) >= 0)
		s = (const char *)ascii;
	for (; *s && out->len - start < max + 8; s++) {
		char c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			qb_buf_putc(out, c);
		else if (out->len > start && out->ptr[out->len - 1] != '-')
			qb_buf_putc(out, '-');
	}
	free(ascii);
	if (out->len - start > max) {
		size_t cut = start + max;
		while (cut > start + 10 && out->ptr[cut] != '-')
			cut--;
		out->len = out->ptr[cut] == '-' ? cut : start + max;
		out->ptr[out->len] = '\0';
	}
	while (out->len > start && out->ptr[out->len - 1] == '-')
		out->ptr[--out->len] = '\0';
}

/* FNV-1a: the ids' hashed index (a scan of every id given was quadratic
 * in a big file's questions). */
static size_t id_hash(const char *s)
{
	size_t h = 14695981039346656037u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static bool id_used(const qb_imp *im, const char *id)
{
	for (size_t h = im->id_cap ? id_hash(id) & (im->id_cap - 1) : 0;
	     im->id_cap && im->id_slots[h]; h = (h + 1) & (im->id_cap - 1))
		if (strcmp(im->used_ids[im->id_slots[h] - 1], id) == 0)
			return true;
	return false;
}

static void id_slot(qb_imp *im, size_t i)
{
	size_t h = id_hash(im->used_ids[i]) & (im->id_cap - 1);
	while (im->id_slots[h])
		h = (h + 1) & (im->id_cap - 1);
	im->id_slots[h] = i + 1;
}

/* id (heap) given: kept, and its slot, the index at most half full. */
static void id_add(qb_imp *im, char *id)
{
	if (im->nids == im->ids_cap)
		im->used_ids = qb_xrealloc(im->used_ids,
		                           (im->ids_cap = im->ids_cap * 2 + 64) * sizeof *im->used_ids);
	im->used_ids[im->nids++] = id;
	if (2 * im->nids > im->id_cap) {
		free(im->id_slots);
		im->id_cap = im->id_cap ? 2 * im->id_cap : 256;
		im->id_slots = qb_xcalloc(im->id_cap, sizeof *im->id_slots);
		for (size_t i = 0; i < im->nids; i++)
			id_slot(im, i);
	} else {
		id_slot(im, im->nids - 1);
	}
}

/* A new id, unique among the questions' and passages': want if it is a
 * valid unused id, else a slug of name, else of text, else of fallback,
 * with '-2', '-3'... until unused; kept in the bank's arena and in the
 * index of used ids. */
static const char *unique_id(qb_imp *im, const char *want, const char *name,
                             const qb_text *text, const char *fallback)
{
	qb_buf b = QB_BUF_INIT;
	size_t bad;
	if (want && *want && qb_id_valid(want, &bad) && !id_used(im, want))
		qb_buf_puts(&b, want);
	else {
		if (name && *name)
			slug(&b, name);
		if (!b.len && text->ntr)
			slug(&b, text->tr[0].text);
		if (!b.len)
			qb_buf_puts(&b, fallback);
		size_t base = b.len;
		for (int k = 2; id_used(im, qb_buf_cstr(&b)); k++) {
			b.len = base;
			qb_buf_appendf(&b, "-%d", k);
		}
	}
	const char *id = qb_arena_strdup(&im->bank->arena, qb_buf_cstr(&b));
	id_add(im, qb_buf_detach(&b));
	return id;
}

void qb_imp_id(qb_imp *im, const char *want, const char *name)
{
	qb_question *q = last_q(im);
	q->id = unique_id(im, want, name, &q->prompt, "question");
}

/* ---- passages ---- */

void qb_imp_passage(qb_imp *im, qb_loc loc, const qb_imp_ml *ml, const char *want,
                    const char *name)
{
	qb_passage p = {.loc = loc, .id_loc = loc};
	qb_imp_text(im, &p.text, loc, ml);
	for (size_t i = 0; want && *want && i < im->npassages; i++) {
		const qb_passage *o = &im->passages[i];
		bool same = strcmp(o->id, want) == 0 && o->text.ntr == p.text.ntr;
		for (uint32_t k = 0; same && k < p.text.ntr; k++)
			same = qb_tr_code(im->bank, &o->text.tr[k]) == qb_tr_code(im->bank, &p.text.tr[k]) &&
			       strcmp(o->text.tr[k].text, p.text.tr[k].text) == 0;
		if (same) {
			im->passage = (uint32_t)i + 1;
			return;
		}
	}
	p.id = unique_id(im, want, name, &p.text, "passage");
	im->passages = qb_xrealloc(im->passages, (im->npassages + 1) * sizeof *im->passages);
	im->passages[im->npassages++] = p;
	im->passage = (uint32_t)im->npassages;
}

void qb_imp_passage_end(qb_imp *im)
{
	im->passage = 0;
}

/* ---- media ---- */

const char *qb_imp_media_add(qb_imp *im, const char *base, const unsigned char *data,
                             size_t len)
{
	char hex[2 * 4 + 1];
	qb_hash_sha256_hex(hex, 4, data, len);
	const char *slash = strrchr(base, '/');
	base = slash ? slash + 1 : base;
	const char *dot = strrchr(base, '.');
	size_t stem = dot ? (size_t)(dot - base) : strlen(base);
	qb_buf b = QB_BUF_INIT;
	qb_buf_puts(&b, "media/");
	for (size_t i = 0; i < stem && i < 40; i++) {
		char c = base[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		          c == '_' || c == '-';
		qb_buf_putc(&b, ok ? c : '-');
	}
	qb_buf_appendf(&b, "-%s", hex);
	for (const char *p = dot ? dot : ""; *p; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		if (c == '.' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			qb_buf_putc(&b, c);
	}
	const char *name = qb_arena_strdup(&im->bank->arena, qb_buf_cstr(&b));
	qb_buf_dispose(&b);
	for (size_t i = 0; i < im->nmedia; i++)
		if (strcmp(im->media[i].name, name) == 0)
			return name;
	im->media = qb_xrealloc(im->media, (im->nmedia + 1) * sizeof *im->media);
	qb_imp_media *m = &im->media[im->nmedia++];
	m->name = qb_xstrdup(name);
	m->data = qb_xmalloc(len ? len : 1);
	memcpy(m->data, data, len);
	m->len = len;
	return name;
}

bool qb_imp_base64(const char *b64, unsigned char **data, size_t *len)
{
	size_t blen = strlen(b64);
	size_t dlen = BASE64_DECODE_LENGTH(blen);
	uint8_t *bytes = qb_xmalloc(dlen + 1);
	struct base64_decode_ctx ctx;
	base64_decode_init(&ctx);
	/* nettle skips white space inside the base64 */
	if (!base64_decode_update(&ctx, &dlen, bytes, blen, b64) || !base64_decode_final(&ctx)) {
		free(bytes);
		return false;
	}
	*data = bytes;
	*len = dlen;
	return true;
}

/* The media types a data: URL may carry: a file name for each. */
static const struct {
	const char *mime, *name;
} data_types[] = {
	{"image/png", "picture.png"}, {"image/jpeg", "picture.jpg"}, {"image/jpg", "picture.jpg"},
	{"image/gif", "picture.gif"}, {"image/webp", "picture.webp"},
	{"image/svg+xml", "picture.svg"}, {"audio/mpeg", "sound.mp3"}, {"audio/mp3", "sound.mp3"},
	{"audio/ogg", "sound.ogg"},   {"audio/wav", "sound.wav"},   {"audio/x-wav", "sound.wav"},
	{"audio/wave", "sound.wav"},  {"audio/mp4", "sound.m4a"},   {"audio/x-m4a", "sound.m4a"},
	{"audio/opus", "sound.opus"},
};

const char *qb_imp_data_url(qb_imp *im, qb_loc loc, const char *url)
{
	const char *comma = strchr(url, ',');
	const char *b64 = comma ? strstr(url, ";base64,") : NULL;
	const char *name = NULL;
	for (size_t i = 0; comma && i < QB_NELEM(data_types); i++) {
		size_t n = strlen(data_types[i].mime);
		if (strncasecmp(url + 5, data_types[i].mime, n) == 0 && url[5 + n] &&
		    strchr(";,", url[5 + n]))
			name = data_types[i].name;
	}
	if (!name || !b64 || b64 + 7 != comma) {
		qb_imp_lost(im, loc, _("a data: URL that is not a base64 picture or sound "
		                       "(%.*s): not carried"), (int)(comma ? comma - url : 16), url);
		return NULL;
	}
	unsigned char *bytes = NULL;
	size_t len = 0;
	if (!qb_imp_base64(comma + 1, &bytes, &len)) {
		qb_imp_lost(im, loc, _("a data: URL whose base64 is not valid: not carried"));
		return NULL;
	}
	const char *path = qb_imp_media_add(im, name, bytes, len);
	free(bytes);
	return path;
}

/* ---- what is not carried ---- */

/* The kind of a message: its quoted names ('...') and numbers blanked, so
 * that the same warning about another picture or question is the same
 * kind. */
static char *fold_key(const char *msg)
{
	qb_buf b = QB_BUF_INIT;
	for (const char *p = msg; *p; p++) {
		if (*p == '\'' && strchr(p + 1, '\'')) {
			qb_buf_puts(&b, "''");
			p = strchr(p + 1, '\'');
		} else if (*p >= '0' && *p <= '9') {
			while (p[1] >= '0' && p[1] <= '9')
				p++;
			qb_buf_putc(&b, '#');
		} else {
			qb_buf_putc(&b, *p);
		}
	}
	return qb_buf_detach(&b);
}

/* Holds back the warning msg (translated, heap: taken) at loc, of the
 * kind key (heap: taken). */
static void fold_add(qb_imp *im, qb_loc loc, char *msg, char *key)
{
	for (size_t i = 0; i < im->nfolds; i++) {
		qb_imp_fold *f = &im->folds[i];
		if (strcmp(f->key, key) != 0)
			continue;
		f->more++;
		if (loc.line > 0 && f->nlines < QB_IMP_FOLD_LINES &&
		    (f->nlines ? f->lines[f->nlines - 1] : f->loc.line) != loc.line)
			f->lines[f->nlines++] = loc.line;
		free(key);
		free(msg);
		return;
	}
	im->folds = qb_xrealloc(im->folds, (im->nfolds + 1) * sizeof *im->folds);
	im->folds[im->nfolds++] = (qb_imp_fold){.key = key, .msg = msg, .loc = loc};
}

void qb_imp_fold_report(qb_imp *im)
{
	for (size_t i = 0; i < im->nfolds; i++) {
		qb_imp_fold *f = &im->folds[i];
		if (!f->more) {
			qb_diag_warning(f->loc, QB_DIAG_AS_IS, f->msg);
		} else {
			qb_buf lines = QB_BUF_INIT, m = QB_BUF_INIT;
			for (size_t k = 0; k < f->nlines; k++)
				qb_buf_appendf(&lines, "%s%d", k ? ", " : "", f->lines[k]);
			if (f->nlines < f->more && f->nlines)
				qb_buf_puts(&lines, ", \xE2\x80\xA6");
			qb_buf_puts(&m, f->msg);
			if (!f->nlines)
				qb_buf_appendf(&m, ngettext(" (and %zu more like it on the same line)",
				                            " (and %zu more like it on the same line)", f->more),
				               f->more);
			else if (f->more == 1)
				qb_buf_appendf(&m, _(" (and 1 more like it: line %s)"), qb_buf_cstr(&lines));
			else
				/* TRANSLATORS: after a warning: "(and 359 more like it: lines 12, 30, …)" */
				qb_buf_appendf(&m, ngettext(" (and %zu more like it: lines %s)",
				                            " (and %zu more like it: lines %s)", f->more),
				               f->more, qb_buf_cstr(&lines));
			qb_diag_warning(f->loc, QB_DIAG_AS_IS, qb_buf_cstr(&m));
			qb_buf_dispose(&lines);
			qb_buf_dispose(&m);
		}
		free(f->key);
		free(f->msg);
	}
	free(im->folds);
	im->folds = NULL;
	im->nfolds = 0;
}

/* The message of fmt (translated) and ap, heap. */
static char *vformat(const char *fmt, va_list ap) QB_PRINTF(1, 0);
static char *vformat(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	fmt = gettext(fmt);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *s = qb_xmalloc((size_t)(n > 0 ? n : 0) + 1);
	vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	return s;
}

void qb_imp_skip(qb_imp *im, qb_loc loc, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = vformat(fmt, ap);
	va_end(ap);
	/* A question named by its text (a GIFT description has no title) is
	 * named by its first line, so that the warning stays one line. */
	const char *nm = name && *name ? name : "?";
	int nlen = (int)strcspn(nm, "\r\n");
	char *first = qb_xasprintf("%.*s%s", nlen, nm, nm[nlen] ? "\xE2\x80\xA6" : "");
	char *msg = qb_xasprintf(_("question '%s' is not imported: %s"), first, why);
	free(first);
	/* the kind: why, whatever the question (a skipped essay is not of
	 * the kind of a skipped calculated question) */
	fold_add(im, loc, msg, qb_xasprintf("skip\n%s", why));
	im->counts.skipped++;
	free(why);
}

void qb_imp_lost(qb_imp *im, qb_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = vformat(fmt, ap);
	fold_add(im, loc, msg, fold_key(msg));
	va_end(ap);
	im->counts.notes++;
}

/* ---- the format from the content ---- */

const char *qb_import_sniff(const char *data, size_t len)
{
	size_t i = 0;
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	if (i < len && data[i] == '<') {
		const char *quiz = strstr(data + i, "<quiz");
		return quiz ? "moodlexml" : NULL;
	}
	/* CSV or TSV: a header row naming qbc's columns. */
	size_t hl = strcspn(data + i, "\n");
	for (size_t k = 0; k + 7 <= hl; k++)
		if (strncasecmp(data + i + k, "prompt:", 7) == 0 && (k == 0 || strchr(",\t\"", data[i + k - 1])))
			return "csv";
	/* Moodle's CSV question format plugin: 'questionname,questiontext,A,...' */
	if (hl >= 13 && strncasecmp(data + i, "questionname", 12) == 0 && strchr(",\t", data[i + 12]))
		return "csv";
	/* The per-type layouts of a Chinese fork of that plugin:
	 * 'multichoicename,questiontext,...' (import_csv.c) */
	static const char *const typed[] = {"multichoicename", "shortanswername", "truefalsename"};
	for (size_t t = 0; t < sizeof typed / sizeof *typed; t++) {
		size_t n = strlen(typed[t]);
		if (hl > n && strncasecmp(data + i, typed[t], n) == 0 && strchr(",\t", data[i + n]))
			return "csv";
	}
	/* Aiken: a line 'ANSWER: X' after option lines 'A. ' or 'A) '. */
	for (const char *p = data + i; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, "ANSWER:", 7) == 0 || strncmp(p, "ANSWER :", 8) == 0)
			return "aiken";
	/* GIFT: an answer block '{...}' after some text, or a '::title::'. */
	const char *open = strchr(data + i, '{');
	if ((open && strchr(open, '}')) || strncmp(data + i, "::", 2) == 0 ||
	    strncmp(data + i, "$CATEGORY:", 10) == 0)
		return "gift";
	return NULL;
}

/* ---- the command ---- */

static const struct {
	const char *name;
	qb_import_fn *fn;
} importers[] = {
	{"moodlexml", qb_import_moodlexml},
	{"aiken", qb_import_aiken},
	{"gift", qb_import_gift},
	{"csv", qb_import_csv},
};

/* The first invalid UTF-8 byte of data, or -1. */
static long bad_utf8(const char *data, size_t len)
{
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)data + i,
		                                      (utf8proc_ssize_t)(len - i), &cp);
		if (k <= 0)
			return (long)i;
		i += (size_t)k;
	}
	return -1;
}

qb_loc qb_imp_at(const qb_imp *im, const char *data, size_t off)
{
	int line = 1;
	size_t bol = 0;
	for (size_t i = 0; i < off && data[i]; i++)
		if (data[i] == '\n') {
			line++;
			bol = i + 1;
		}
	return (qb_loc){im->file, line, 1 + (int)qb_utf8_count(data + bol, off - bol)};
}

/* Declares the languages the texts use, in the order they first appear,
 * with lang (--lang) first when it is one of them. */
static void declare_langs(qb_imp *im, const char *first)
{
	qb_bank *b = im->bank;
	b->langs = qb_arena_alloc(&b->arena, (b->ncodes + 1) * sizeof *b->langs);
	b->nlangs = 0;
	if (first && qb_lang_index_get(&b->code_index, first) != QB_LANG_NONE)
		b->langs[b->nlangs++] = (qb_lang){qb_arena_strdup(&b->arena, first), {b->path, 0, 0}};
	for (size_t i = 0; i < b->ncodes; i++) {
		if (!*b->codes[i] || (first && strcmp(b->codes[i], first) == 0))
			continue;
		b->langs[b->nlangs++] = (qb_lang){b->codes[i], {b->path, 0, 0}};
	}
	if (!b->nlangs)
		b->langs[b->nlangs++] = (qb_lang){qb_arena_strdup(&b->arena, im->lang), {b->path, 0, 0}};
	for (size_t i = 0; i < b->nlangs; i++)
		qb_lang_index_put(&b->lang_index, b->langs[i].code, i);
	qb_bank_codes_declared(b);
}

/* Moves the questions into the bank; gives the bank its title. */
static void finish_bank(qb_imp *im, const char *title)
{
	qb_bank *b = im->bank;
	for (size_t i = 0; i < im->nqs; i++) {
		qb_question *q = &im->qs[i];
		if (q->choices)
			qb_arena_adopt(&b->arena, q->choices);
		if (q->tags)
			qb_arena_adopt(&b->arena, q->tags);
	}
	b->questions = im->qs ? qb_arena_adopt(&b->arena, im->qs) : NULL;
	b->nquestions = im->nqs;
	/* A course's exports and hand-written GIFT seldom explain every
	 * question: the bank builds, and the checks list the ones to write. */
	for (size_t i = 0; i < b->nquestions && !b->explanations_optional; i++)
		if (!b->questions[i].explanation.present) {
			b->explanations_optional = true;
			b->explanations_loc = (qb_loc){b->path, 0, 0};
		}
	im->qs = NULL;
	im->nqs = 0;
	b->passages = im->passages ? qb_arena_adopt(&b->arena, im->passages) : NULL;
	b->npassages = im->npassages;
	im->passages = NULL;
	im->npassages = 0;
	declare_langs(im, im->langs_in_order ? NULL : im->lang);
	qb_imp_ml ml = {0};
	for (size_t i = 0; i < b->nlangs; i++)
		qb_imp_ml_set(&ml, b->langs[i].code, title, strlen(title));
	qb_imp_text(im, &b->title, (qb_loc){b->path, 1, 1}, &ml);
	qb_imp_ml_dispose(&ml);
}

/* Every translation of q's texts in code from gives code to. */
static void relabel_question(qb_bank *b, qb_question *q, uint32_t from, uint32_t to)
{
	qb_text *ts[6] = {&q->prompt, &q->explanation, NULL, NULL, NULL, NULL};
	size_t nt = 2;
	if (q->rare) {
		ts[nt++] = &q->rare->feedback_wrong;
		if (q->rare->feedback_tf) {
			ts[nt++] = &q->rare->feedback_tf[0];
			ts[nt++] = &q->rare->feedback_tf[1];
		}
	}
	for (size_t c = 0; c <= q->nchoices; c++) {
		qb_text *more[3] = {NULL, NULL, NULL};
		if (c < q->nchoices) {
			more[0] = &q->choices[c].text;
			more[1] = &q->choices[c].feedback;
			more[2] = (qb_text *)q->choices[c].match; /* made by the importer */
		}
		for (size_t k = 0; k < nt + 3; k++) {
			qb_text *t = k < nt ? (c ? NULL : ts[k]) : more[k - nt];
			for (uint32_t i = 0; t && i < t->ntr; i++)
				if (qb_tr_code(b, &t->tr[i]) == from)
					qb_tr_place(b, &t->tr[i], qb_tr_col(b, &t->tr[i]),
					            qb_tr_text_col(b, &t->tr[i]), to);
		}
	}
}

/* The texts that named no language (imported as QB_IMP_LANG_UND, without
 * --lang) get the language libexttextcat reads in them; 'en' when it
 * cannot tell.  A multilingual export (multilang spans) has none: its
 * declared languages stay. */
static void guess_lang(qb_imp *im)
{
	qb_bank *b = im->bank;
	size_t u = b->code_index.n ? qb_lang_index_get(&b->code_index, QB_IMP_LANG_UND)
	                           : QB_LANG_NONE;
	if (u == QB_LANG_NONE)
		return;
	const char **texts = qb_xcalloc(im->nqs + 1, sizeof *texts);
	qb_buf *bufs = qb_xcalloc(im->nqs + 1, sizeof *bufs);
	size_t n = 0;
	for (size_t i = 0; i < im->nqs; i++) {
		const qb_question *q = &im->qs[i];
		qb_buf *tb = &bufs[n];
		for (size_t c = 0; c <= q->nchoices; c++) {
			const qb_text *t = c ? &q->choices[c - 1].text : &q->prompt;
			for (uint32_t k = 0; k < t->ntr; k++)
				if (qb_tr_code(b, &t->tr[k]) == u)
					qb_buf_appendf(tb, "%s%s", tb->len ? "\n" : "", t->tr[k].text);
		}
		if (tb->len)
			texts[n++] = qb_buf_cstr(tb);
	}
	qb_langguess g;
	const char *code = "en";
	if (qb_langguess_texts(texts, n, &g) == 0 && *g.code) {
		code = g.code;
		memcpy(im->guessed, g.code, sizeof im->guessed);
		im->lang = im->guessed;
		memcpy(im->guess_second, g.second, sizeof im->guess_second);
		im->guess_agree = g.agree;
		im->guess_of = g.of;
	} else {
		im->guess_failed = true;
		im->lang = "en";
	}
	qb_buf canon = QB_BUF_INIT;
	qb_lang_canonical(&canon, code, strlen(code));
	size_t k = qb_lang_index_get(&b->code_index, qb_buf_cstr(&canon));
	if (k == QB_LANG_NONE) {
		/* the code's new name: every text in it follows */
		b->codes[u] = qb_arena_strdup(&b->arena, qb_buf_cstr(&canon));
		qb_lang_index_put(&b->code_index, b->codes[u], u);
	} else {
		for (size_t i = 0; i < im->nqs; i++)
			relabel_question(b, &im->qs[i], (uint32_t)u, (uint32_t)k);
		b->codes[u] = ""; /* used by no text now: declared by no one */
	}
	qb_buf_dispose(&canon);
	for (size_t i = 0; i <= n; i++)
		qb_buf_dispose(&bufs[i]);
	free(bufs);
	free(texts);
}

static qb_import_fn *importer(const char *fmt)
{
	for (size_t i = 0; i < QB_NELEM(importers); i++)
		if (strcmp(importers[i].name, fmt) == 0)
			return importers[i].fn;
	return NULL;
}

int qb_imp_run(qb_imp *im, const char **fmt, const char *data, size_t len)
{
	qb_diag_mark m = qb_diag_mark_now();
	long badat = bad_utf8(data, len);
	if (badat >= 0) {
		qb_diag_error(qb_imp_at(im, data, (size_t)badat),
		              "this byte (0x%02X) is not UTF-8: save the file as UTF-8 and import "
		              "it again", (unsigned char)data[badat]);
		return -1;
	}
	if (!*fmt)
		*fmt = qb_import_sniff(data, len);
	qb_import_fn *fn = *fmt ? importer(*fmt) : NULL;
	if (!fn) {
		qb_diag_error(QB_LOC(im->file, 0, 0), "cannot tell the format of '%s'; say it with "
		              "--from moodlexml, gift, aiken or csv", im->file);
		return -1;
	}
	size_t skip = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	int rc = fn(im, data + skip, len - skip);
	qb_imp_fold_report(im);
	if (rc != 0 || qb_diag_errors_since(m))
		return -1;
	if (!im->lang_given)
		guess_lang(im);
	finish_bank(im, im->title ? im->title : im->bank->id);
	/* the pools of parameterised questions (Moodle's calculated ones):
	 * their tables, checked as a bank's are */
	return qb_params_draw(im->bank) ? -1 : 0;
}

void qb_imp_dispose(qb_imp *im)
{
	for (size_t i = 0; i < im->nqs; i++) {
		free(im->qs[i].choices);
		free(im->qs[i].tags);
	}
	free(im->qs);
	free(im->passages);
	for (size_t i = 0; i < im->nmedia; i++) {
		free(im->media[i].name);
		free(im->media[i].data);
	}
	free(im->media);
	for (size_t i = 0; i < im->nids; i++)
		free(im->used_ids[i]);
	for (size_t i = 0; im->cats && i < im->ncats; i++)
		free(im->cats[i]);
	free(im->cats);
	free(im->used_ids);
	free(im->id_slots);
	free(im->title);
	for (size_t i = 0; i < im->nfolds; i++) {
		free(im->folds[i].key);
		free(im->folds[i].msg);
	}
	free(im->folds);
}

/* The output's folder ("." for a bare name), heap. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return qb_xstrdup(".");
	return qb_xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* The default output: the source's file name with .qb, in the current
 * folder; heap. */
static char *default_out(const char *src)
{
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (n > 6 && strncmp(base + n - 7, ".moodle", 7) == 0)
		n -= 7;
	return qb_xasprintf("%.*s.qb", (int)n, base);
}

static int write_media(const qb_imp *im, const char *dir)
{
	for (size_t i = 0; i < im->nmedia; i++) {
		char *path = qb_fs_join(dir, im->media[i].name);
		char *mdir = dir_of(path);
		int rc = qb_fs_mkdirs(mdir);
		if (rc == 0)
			rc = qb_fs_write_atomic(path, im->media[i].data, im->media[i].len);
		if (rc != 0)
			qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
		free(mdir);
		free(path);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* The written file read again must give the model imported: a text the
 * .qb format cannot hold as it is (a line break inside a paragraph, an
 * indented line) is reported at its question. */
static size_t check_readback(const qb_bank *bank, const char *out)
{
	char *data = NULL;
	size_t len = 0;
	if (qb_fs_read(out, &data, &len) != 0)
		return 0;
	qb_bank *back = qb_read_text(out, data, len);
	size_t ondisk = back ? back->nquestions : 0;
	qb_build_opts opts = {0};
	const char **langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
	for (size_t i = 0; i < bank->nlangs; i++)
		langs[i] = bank->langs[i].code;
	opts.langs = langs;
	opts.nlangs = bank->nlangs;
	size_t first = SIZE_MAX, more = 0;
	qb_buf lines = QB_BUF_INIT;
	/* A question of each bank at a time: the two banks' whole trees were
	 * several times the source. */
	for (size_t i = 0; i < bank->nquestions; i++) {
		json_t *x = qb_json_question(bank, i, &opts);
		json_t *y = back && i < back->nquestions ? qb_json_question(back, i, &opts) : NULL;
		json_object_del(x, "source");
		if (y)
			json_object_del(y, "source");
		bool same = y && json_equal(x, y);
		json_decref(x);
		json_decref(y);
		if (same)
			continue;
		if (first == SIZE_MAX) {
			first = i;
		} else if (more++ < QB_IMP_FOLD_LINES) {
			qb_buf_appendf(&lines, "%s%d", lines.len ? ", " : "", bank->questions[i].loc.line);
		}
	}
	/* one warning for them all (qb_imp_fold_report()'s form) */
	if (first != SIZE_MAX) {
		qb_buf m = QB_BUF_INIT;
		qb_buf_appendf(&m, _("question '%s' reads back from '%s' differently from what was "
		                     "imported (a .qb text cannot hold a line break inside a paragraph "
		                     "or an indented line): check its texts"),
		               bank->questions[first].id, out);
		if (more > QB_IMP_FOLD_LINES)
			qb_buf_puts(&lines, ", \xE2\x80\xA6");
		if (more == 1)
			qb_buf_appendf(&m, _(" (and 1 more like it: line %s)"), qb_buf_cstr(&lines));
		else if (more)
			qb_buf_appendf(&m, ngettext(" (and %zu more like it: lines %s)",
			                            " (and %zu more like it: lines %s)", more),
			               more, qb_buf_cstr(&lines));
		qb_diag_warning(bank->questions[first].loc, QB_DIAG_AS_IS, qb_buf_cstr(&m));
		qb_buf_dispose(&m);
	}
	qb_buf_dispose(&lines);
	/* the passages, by id (write_qb.c writes each before its first question) */
	json_t *pa = bank->npassages ? qb_json_passages(bank, &opts) : NULL;
	json_t *pb = back && back->npassages ? qb_json_passages(back, &opts) : NULL;
	for (size_t i = 0; i < json_array_size(pa); i++) {
		json_t *x = json_array_get(pa, i), *y = NULL;
		for (size_t k = 0; !y && k < json_array_size(pb); k++)
			if (json_equal(json_object_get(json_array_get(pb, k), "id"), json_object_get(x, "id")))
				y = json_array_get(pb, k);
		if (!y || !json_equal(x, y))
			qb_diag_warning(bank->passages[i].loc, "passage '%s' reads back from '%s' "
			                "differently from what was imported (a .qb text cannot hold a line "
			                "break inside a paragraph or an indented line): check its text",
			                bank->passages[i].id, out);
	}
	json_decref(pa);
	json_decref(pb);
	free(langs);
	qb_bank_free(back);
	free(data);
	return ondisk;
}

/* What an import run wrote, for its last line: banks and the questions
 * read back from them (what is on disk, not what was meant). */
typedef struct import_totals {
	size_t banks, questions;
} import_totals;

/* Checks bank, writes it to out and reads it back (*ondisk: the questions
 * the file holds): OK, BANK_ERRORS (the checks found errors: written all
 * the same) or IO. */
static qb_drv_status write_bank(const qb_bank *bank, const char *out, size_t *ondisk)
{
	qb_diag_mark checks = qb_diag_mark_now();
	qb_validate(bank);
	bool problems = qb_diag_errors_since(checks) > 0;
	if (qb_write_qb(bank, out) != 0) {
		qb_diag_fatal("cannot write '%s': %s", out, strerror(errno));
		return QB_DRV_IO;
	}
	*ondisk = check_readback(bank, out);
	if (problems) {
		printf(_("qbc import: %s has the errors shown above: fix them, then 'qbc check %s'\n"),
		       out, out);
		return QB_DRV_BANK_ERRORS;
	}
	return QB_DRV_OK;
}

/* The longest category slug in a --split file name (then cut at a '-'). */
#define SPLIT_SLUG_MAX 100

/* A --split view's passages: those its questions are read with (their
 * indexes in sub[] made the view's), and in the first view those that no
 * question of the bank is read with, so that none is lost.  view->passages
 * is heap (the caller frees it). */
static void view_passages(const qb_bank *b, qb_bank *view, qb_question *sub, size_t n,
                          bool first)
{
	uint32_t *to = qb_xcalloc(b->npassages + 1, sizeof *to);
	bool *used = qb_xcalloc(b->npassages + 1, sizeof *used);
	for (size_t i = 0; i < b->nquestions; i++)
		if (b->questions[i].passage)
			used[b->questions[i].passage - 1] = true;
	for (size_t i = 0; i < n; i++)
		if (sub[i].passage)
			to[sub[i].passage - 1] = 1;
	view->passages = qb_xcalloc(b->npassages + 1, sizeof *view->passages);
	view->npassages = 0;
	for (size_t k = 0; k < b->npassages; k++)
		if (to[k] || (first && !used[k])) {
			view->passages[view->npassages++] = b->passages[k];
			to[k] = (uint32_t)view->npassages;
		}
	for (size_t i = 0; i < n; i++)
		if (sub[i].passage)
			sub[i].passage = to[sub[i].passage - 1];
	free(to);
	free(used);
}

/* --split: a bank per category, <OUT>-<category>.qb beside OUT, each a
 * view of the imported bank (its questions of that category; the texts
 * and the arena stay the imported bank's).  Each category has a name of
 * its own: two whose slugs are the same (cut, or differing only in case
 * or punctuation) get '-2', '-3', ..., so no file is written twice.
 * *tot counts the banks written and the questions read back from them. */
static qb_drv_status write_split(qb_imp *im, const char *out, const char *outdir,
                                 import_totals *tot)
{
	qb_bank *b = im->bank;
	qb_drv_status rc = QB_DRV_OK;
	bool *done = qb_xcalloc(b->nquestions + 1, sizeof *done);
	qb_question *sub = qb_xcalloc(b->nquestions + 1, sizeof *sub);
	char **names = qb_xcalloc(b->nquestions + 1, sizeof *names);
	size_t nnames = 0;
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	size_t stem = strlen(base) > 3 && strcmp(base + strlen(base) - 3, ".qb") == 0
	                  ? strlen(base) - 3 : strlen(base);
	for (size_t i = 0; i < b->nquestions; i++) {
		if (done[i])
			continue;
		const char *cat = im->cats[i] ? im->cats[i] : "";
		size_t n = 0;
		for (size_t k = i; k < b->nquestions; k++) {
			const char *ck = im->cats[k] ? im->cats[k] : "";
			if (!done[k] && strcmp(ck, cat) == 0) {
				done[k] = true;
				sub[n] = b->questions[k];
				sub[n].number = (int)n + 1;
				n++;
			}
		}
		qb_buf slugb = QB_BUF_INIT, title = QB_BUF_INIT, id = QB_BUF_INIT;
		slug_max(&slugb, cat, SPLIT_SLUG_MAX);
		size_t base_len = slugb.len;
		for (int k = 2;; k++) {
			size_t u = 0;
			while (u < nnames && strcmp(names[u], qb_buf_cstr(&slugb)) != 0)
				u++;
			if (u == nnames)
				break;
			slugb.len = base_len;
			qb_buf_appendf(&slugb, "%s%d", base_len ? "-" : "", k);
		}
		names[nnames++] = qb_xstrdup(qb_buf_cstr(&slugb));
		qb_buf_appendf(&id, "%s%s%s", b->id, slugb.len ? "-" : "", qb_buf_cstr(&slugb));
		for (const char *p = *cat ? cat : b->id; *p; p++)
			if (p[0] == ':' && p[1] == ':')
				qb_buf_puts(&title, " / "), p++;
			else
				qb_buf_putc(&title, *p);
		char *path = qb_xasprintf("%s/%.*s%s%s.qb", outdir, (int)stem, base,
		                          slugb.len ? "-" : "", qb_buf_cstr(&slugb));
		qb_bank view = *b;
		view.questions = sub;
		view.nquestions = n;
		view_passages(b, &view, sub, n, i == 0);
		view.id = qb_arena_strdup(&b->arena, qb_buf_cstr(&id));
		qb_imp_ml ml = {0};
		for (size_t l = 0; l < b->nlangs; l++)
			qb_imp_ml_set(&ml, b->langs[l].code, title.ptr, title.len);
		qb_imp_text(im, &view.title, (qb_loc){b->path, 1, 1}, &ml);
		qb_imp_ml_dispose(&ml);
		size_t ondisk = 0;
		qb_drv_status r = write_bank(&view, path, &ondisk);
		if (r != QB_DRV_IO) {
			printf(ngettext("qbc import: %s: %zu question of category '%s'\n",
			                "qbc import: %s: %zu questions of category '%s'\n", ondisk),
			       path, ondisk, *cat ? cat : _("(none)"));
			tot->banks++;
			tot->questions += ondisk;
		}
		rc = r > rc ? r : rc;
		free(view.passages);
		free(path);
		qb_buf_dispose(&slugb);
		qb_buf_dispose(&title);
		qb_buf_dispose(&id);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(done);
	free(sub);
	return rc;
}

/* What was imported: ondisk, the questions the written files hold. */
static void report(const qb_imp *im, const char *src, const char *fmt, const char *out,
                   size_t ondisk)
{
	const qb_bank *b = im->bank;
	printf(ngettext("qbc import: %s (%s) -> %s: %zu question", "qbc import: %s (%s) -> %s: %zu questions",
	                ondisk),
	       src, fmt, out, ondisk);
	const char *sep = " (";
	for (int t = 0; t < QB_QTYPE_COUNT; t++)
		if (im->counts.by_type[t]) {
			printf("%s%zu %s", sep, im->counts.by_type[t], qb_qtype_name((qb_qtype)t));
			sep = ", ";
		}
	printf("%s", *sep == ',' ? ")" : "");
	printf(_(", languages"));
	for (size_t i = 0; i < b->nlangs; i++)
		printf(" %s", b->langs[i].code);
	printf(ngettext(", %zu media file\n", ", %zu media files\n", im->nmedia), im->nmedia);
	if (im->counts.skipped || im->counts.notes) {
		qb_buf q = QB_BUF_INIT, p = QB_BUF_INIT;
		qb_buf_appendf(&q, ngettext("%zu question skipped", "%zu questions skipped",
		                            im->counts.skipped), im->counts.skipped);
		qb_buf_appendf(&p, ngettext("%zu part", "%zu parts", im->counts.notes), im->counts.notes);
		/* TRANSLATORS: "2 questions skipped" and "3 parts". */
		printf(_("qbc import: not carried: %s, %s (see the warnings above)\n"), qb_buf_cstr(&q),
		       qb_buf_cstr(&p));
		qb_buf_dispose(&q);
		qb_buf_dispose(&p);
	}
}

/* What langguess.c read in the texts that name no language, and how sure. */
static void report_guess(const qb_imp *im)
{
	if (im->guess_failed) {
		printf(_("qbc import: the texts name no language, and they are too short or too "
		         "mixed to tell which; they are taken as English (en): say theirs with "
		         "--lang\n"));
		return;
	}
	if (!*im->guessed)
		return;
	qb_buf d = QB_BUF_INIT, second = QB_BUF_INIT;
	qb_lang_describe(&d, im->guessed);
	if (*im->guess_second) {
		qb_lang_describe(&second, im->guess_second);
		/* TRANSLATORS: "English ('en')", then "Scots ('sco')" */
		printf(_("qbc import: the texts name no language; they read as %s, nearly as well as "
		         "%s, and %zu of %zu questions alone as %s: if that is wrong, say theirs with "
		         "--lang\n"),
		       qb_buf_cstr(&d), qb_buf_cstr(&second), im->guess_agree, im->guess_of,
		       im->guessed);
	} else
		/* TRANSLATORS: "Kiswahili ('sw')" */
		printf(_("qbc import: the texts name no language; they read as %s, and %zu of %zu "
		         "questions alone as %s: if that is wrong, say theirs with --lang\n"),
		       qb_buf_cstr(&d), im->guess_agree, im->guess_of, im->guessed);
	qb_buf_dispose(&d);
	qb_buf_dispose(&second);
}

/* Imports one file; adds what it wrote to *tot. */
static qb_drv_status import_one(const qb_drv_opts *o, const char *src, import_totals *tot)
{
	char *data = NULL, *out = NULL, *outdir = NULL;
	size_t len = 0;
	qb_drv_status rc = QB_DRV_OK;
	qb_imp im = {0};
	const char *fmt = o->from;
	if (fmt && !importer(fmt)) {
		qb_drv_usage(o->command, "--from: unknown format '%s' (moodlexml, gift, aiken or csv)", fmt);
		return QB_DRV_USAGE;
	}
	if (o->langs && !qb_lang_valid(o->langs, strlen(o->langs))) {
		qb_drv_usage(o->command, "--lang: '%s' is not a language tag such as 'en'", o->langs);
		return QB_DRV_USAGE;
	}
	size_t bad;
	if (o->bank_id && !qb_id_valid(o->bank_id, &bad)) {
		qb_drv_usage(o->command, "--bank: '%s' is not a bank id (ASCII letters, digits, '-' "
		             "and '_')", o->bank_id);
		return QB_DRV_USAGE;
	}
	if (qb_fs_read(src, &data, &len) != 0) {
		qb_diag_fatal("cannot read '%s': %s", src, strerror(errno));
		return QB_DRV_IO;
	}
	/* The diagnostics quote the source from these bytes, the importer's
	 * too: one copy, let go once it is imported (a later quote reads
	 * the file again). */
	const char *text = data;
	qb_diag_add_source_owned(src, data, len);
	data = NULL;
	out = o->outdir ? qb_xstrdup(o->outdir) : default_out(src);
	outdir = dir_of(out);
	im.bank = qb_bank_new(src);
	im.bank->dir = qb_arena_strdup(&im.bank->arena, outdir);
	im.file = im.bank->path;
	/* without --lang, untagged texts wait as "und" for langguess.c */
	im.lang = o->langs ? o->langs : QB_IMP_LANG_UND;
	im.lang_given = o->langs != NULL;
	im.split = o->split;
	{
		qb_buf id = QB_BUF_INIT;
		if (o->bank_id)
			qb_buf_puts(&id, o->bank_id);
		else {
			const char *base = strrchr(out, '/');
			slug(&id, base ? base + 1 : out);
			if (id.len > 3 && strcmp(id.ptr + id.len - 3, "-qb") == 0)
				id.ptr[id.len -= 3] = '\0';
		}
		if (!id.len)
			qb_buf_puts(&id, "imported");
		im.bank->id = qb_arena_strdup(&im.bank->arena, qb_buf_cstr(&id));
		im.bank->id_loc = (qb_loc){src, 1, 1};
		qb_buf_dispose(&id);
	}
	int imported = qb_imp_run(&im, &fmt, text, len);
	qb_diag_drop_source(src);
	text = NULL;
	if (imported != 0) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	if (qb_fs_mkdirs(outdir) != 0) {
		qb_diag_fatal("cannot create '%s': %s", outdir, strerror(errno));
		rc = QB_DRV_IO;
		goto done;
	}
	if (write_media(&im, outdir) != 0) {
		rc = QB_DRV_IO;
		goto done;
	}
	import_totals mine = {0, 0};
	if (im.split) {
		rc = write_split(&im, out, outdir, &mine);
	} else {
		rc = write_bank(im.bank, out, &mine.questions);
		mine.banks = rc != QB_DRV_IO;
	}
	report(&im, src, fmt, im.split ? "a bank per category" : out, mine.questions);
	tot->banks += mine.banks;
	tot->questions += mine.questions;
	report_guess(&im);
	if (rc != QB_DRV_IO && !im.split && strcmp(fmt, "csv") == 0)
		/* The sheet is not read again: say which file is the source now,
		 * and the way back for a teacher who works in a spreadsheet. */
		printf(_("qbc import: %s is now the file to edit (%s is not read again); to edit it "
		         "as a spreadsheet again: qbc build --format csv %s\n"), out, src, out);
done:
	qb_imp_dispose(&im);
	qb_bank_free(im.bank);
	free(out);
	free(outdir);
	free(data);
	return rc;
}

/* The run's last line: what was written, or that nothing was, and the
 * errors and warnings reported (the exit status says the same: 0 when
 * banks were written without errors). */
static void last_line(const import_totals *tot, unsigned long errors, unsigned long warnings)
{
	qb_buf bk = QB_BUF_INIT, qs = QB_BUF_INIT, er = QB_BUF_INIT, wa = QB_BUF_INIT;
	qb_buf_appendf(&bk, ngettext("%zu bank", "%zu banks", tot->banks), tot->banks);
	qb_buf_appendf(&qs, ngettext("%zu question", "%zu questions", tot->questions),
	               tot->questions);
	qb_buf_appendf(&er, ngettext("%lu error", "%lu errors", errors), errors);
	qb_buf_appendf(&wa, ngettext("%lu warning", "%lu warnings", warnings), warnings);
	if (!tot->banks)
		/* TRANSLATORS: "2 errors" */
		printf(_("qbc import: nothing written: %s\n"), qb_buf_cstr(&er));
	else if (errors && warnings)
		/* TRANSLATORS: "2 banks", "30 questions", "2 errors", "5 warnings" */
		printf(_("qbc import: wrote %s (%s) with %s and %s\n"), qb_buf_cstr(&bk),
		       qb_buf_cstr(&qs), qb_buf_cstr(&er), qb_buf_cstr(&wa));
	else if (errors || warnings)
		/* TRANSLATORS: "2 banks", "30 questions", "5 warnings" (or "2 errors") */
		printf(_("qbc import: wrote %s (%s) with %s\n"), qb_buf_cstr(&bk), qb_buf_cstr(&qs),
		       qb_buf_cstr(errors ? &er : &wa));
	else
		/* TRANSLATORS: "2 banks", "30 questions" */
		printf(_("qbc import: wrote %s (%s)\n"), qb_buf_cstr(&bk), qb_buf_cstr(&qs));
	qb_buf_dispose(&bk);
	qb_buf_dispose(&qs);
	qb_buf_dispose(&er);
	qb_buf_dispose(&wa);
}

qb_drv_status qb_drv_import(const qb_drv_opts *o)
{
	if (o->nbanks > 1 && (o->outdir || o->bank_id)) {
		qb_drv_usage(o->command, "-o and --bank name one bank: give one FILE with them");
		return QB_DRV_USAGE;
	}
	qb_drv_status rc = QB_DRV_OK;
	import_totals tot = {0, 0};
	qb_diag_mark m = qb_diag_mark_now();
	for (size_t i = 0; i < o->nbanks; i++) {
		qb_drv_status r = import_one(o, o->banks[i], &tot);
		rc = r > rc ? r : rc;
		if (r == QB_DRV_USAGE)
			return rc;
	}
	last_line(&tot, qb_diag_errors_since(m), qb_diag_warnings_since(m));
	return rc;
}

/* ---- marks (issue 36) ---- */

static bool near_pct(double a, double b)
{
	return a - b < 0.01 && b - a < 0.01;
}

static void imp_mark(qb_imp *im, qb_choice *c, double percent, qb_loc loc)
{
	if (qb_mark_from_percent(percent, &c->mark) != QB_MARK_OK) {
		c->mark = (qb_mark){0, 0};
		qb_imp_lost(im, loc, "an option's grade of %g%% is not carried: a mark is a share "
		            "from -100%% to 100%% with at most two decimals", percent);
	}
}

void qb_imp_marks(qb_imp *im, qb_question *q, const double *percent, qb_loc loc)
{
	size_t n = q->nchoices, k = 0;
	if (q->type == QB_QTYPE_SINGLE) {
		for (size_t i = 0; i < n; i++) {
			qb_choice *c = &q->choices[i];
			c->correct = percent[i] >= 100;
			c->mark = (qb_mark){0, 0};
			if (!c->correct && !near_pct(percent[i], 0))
				imp_mark(im, c, percent[i], loc);
		}
		return;
	}
	if (q->type != QB_QTYPE_MULTIPLE)
		return;
	for (size_t i = 0; i < n; i++) {
		q->choices[i].correct = percent[i] > 0;
		q->choices[i].mark = (qb_mark){0, 0};
		k += percent[i] > 0;
	}
	double share = k ? 100.0 / (double)k : 0;
	bool equal = true, partial = true, all = true;
	for (size_t i = 0; i < n; i++) {
		if (percent[i] > 0)
			equal = equal && near_pct(percent[i], share);
		else {
			partial = partial && near_pct(percent[i], -share);
			all = all && percent[i] <= -100;
		}
	}
	if (equal && (partial || all)) {
		q->scoring = all && !partial ? QB_SCORING_ALL
		             : k <= 1 && all ? QB_SCORING_ALL
		                             : QB_SCORING_PARTIAL;
		return;
	}
	q->scoring = QB_SCORING_PARTIAL;
	for (size_t i = 0; i < n; i++) {
		qb_choice *c = &q->choices[i];
		if (c->correct ? !equal : !near_pct(percent[i], -share))
			imp_mark(im, c, percent[i], loc);
	}
}
