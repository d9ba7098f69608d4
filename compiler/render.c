/* render.c - see render.h. */
#include "render.h"
#include "params.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "lang.h"
#include "markup.h"
#include "revision.h"

/* The folder of the label catalogues under templates/ and next to a bank;
 * also the name under which the revision record may time them. */
/* The catalogue every other falls back to, and whose keys are the full set. */
#define REFERENCE_LANG "en"

struct qb_render_state {
	qb_write_status failure; /* QB_WRITE_OK until something is reported  */
	time_t templates_raw;     /* the record's template time, 0 if none    */
};

/* ==== Texts and times ==================================================== */

const qb_tr *qb_render_tr(const qb_render_ctx *ctx, const qb_text *t, const char *lang)
{
	const qb_tr *tr = qb_text_tr(t, lang);
	return tr ? tr : qb_text_tr(t, qb_bank_default_lang(ctx->bank));
}

const char *qb_render_md(const qb_render_ctx *ctx, const qb_text *t, const char *lang)
{
	const qb_tr *tr = qb_render_tr(ctx, t, lang);
	return tr ? tr->text : "";
}

time_t qb_render_question_time(const qb_render_ctx *ctx, const qb_question *q)
{
	if (!ctx->times)
		return ctx->latest;
	time_t t = ctx->state->templates_raw;
	const qb_question *first = ctx->bank->questions;
	if (q >= first && q < first + ctx->bank->nquestions && ctx->times->question[q - first] > t)
		t = ctx->times->question[q - first];
	return t ? t : ctx->latest;
}

/* ==== Failure ============================================================ */

static void fail(const qb_render_ctx *ctx, qb_write_status kind)
{
	if (ctx->state->failure == QB_WRITE_OK)
		ctx->state->failure = kind;
}

void qb_render_error(const qb_render_ctx *ctx, qb_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt = gettext(fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *msg = qb_xmalloc(n > 0 ? (size_t)n + 1 : 1);
	va_start(ap, fmt);
	vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	va_end(ap);
	qb_diag_error(loc, QB_DIAG_AS_IS, msg);
	free(msg);
	fail(ctx, QB_WRITE_EBANK);
}

/* ==== Media ============================================================== */

typedef struct media_walk {
	qb_media_set *set;
	qb_loc *locs; /* where each src was first named */
} media_walk;

static void note_src(void *payload, const char *src, size_t off)
{
	QB_UNUSED(off);
	media_walk *w = payload;
	qb_media_set *s = w->set;
	for (size_t i = 0; i < s->nsrcs; i++)
		if (strcmp(s->srcs[i], src) == 0)
			return;
	s->srcs = qb_xrealloc(s->srcs, (s->nsrcs + 1) * sizeof *s->srcs);
	w->locs = qb_xrealloc(w->locs, (s->nsrcs + 1) * sizeof *w->locs);
	s->srcs[s->nsrcs++] = qb_xstrdup(src);
}

/* Every image src of t in the written languages, in order. */
static void walk_text(const qb_render_ctx *ctx, media_walk *w, const qb_text *t)
{
	if (!t->present)
		return;
	for (size_t i = 0; i < ctx->nlangs; i++) {
		const qb_tr *tr = qb_render_tr(ctx, t, ctx->langs[i]);
		if (!tr)
			continue;
		size_t before = w->set->nsrcs;
		qb_markup_images(tr->text, note_src, w);
		for (size_t k = before; k < w->set->nsrcs; k++)
			w->locs[k] = qb_tr_text_loc(t, tr);
	}
}

int qb_render_media(const qb_render_ctx *ctx, qb_media_name_fn name, qb_media_set *set)
{
	const qb_bank *bank = ctx->bank;
	media_walk w = {set, NULL};
	int rc = 0;
	*set = (qb_media_set){0};
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		walk_text(ctx, &w, &q->prompt);
		for (size_t c = 0; c < q->nchoices; c++) {
			walk_text(ctx, &w, &q->choices[c].text);
			walk_text(ctx, &w, qb_choice_match(&q->choices[c]));
			walk_text(ctx, &w, &q->choices[c].feedback);
		}
		walk_text(ctx, &w, qb_question_feedback_wrong(q));
		walk_text(ctx, &w, &q->explanation);
	}
	walk_text(ctx, &w, &bank->description);
	for (size_t i = 0; i < bank->npassages; i++)
		walk_text(ctx, &w, &bank->passages[i].text);
	set->file_of = qb_xcalloc(set->nsrcs ? set->nsrcs : 1, sizeof *set->file_of);
	/* validate.c made sure each src is a relative path below the bank. */
	for (size_t i = 0; i < set->nsrcs; i++) {
		char *path = qb_fs_join(bank->dir, set->srcs[i]);
		char *data = NULL;
		size_t len = 0;
		if (qb_fs_read(path, &data, &len) != 0) {
			qb_diag_error(w.locs[i], "cannot read %s '%s': %s",
			              qb_markup_media_kind(set->srcs[i]) == QB_MEDIA_AUDIO ? _("sound")
			                                                                   : _("image"),
			              path, strerror(errno));
			fail(ctx, QB_WRITE_EIO);
			free(path);
			rc = -1;
			continue;
		}
		free(path);
		char *nm = name(set->srcs[i], (unsigned char *)data, len);
		size_t f;
		for (f = 0; f < set->nfiles; f++)
			if (strcmp(set->files[f].name, nm) == 0)
				break;
		if (f == set->nfiles) {
			set->files = qb_xrealloc(set->files, (set->nfiles + 1) * sizeof *set->files);
			set->files[set->nfiles++] = (qb_media){nm, (unsigned char *)data, len,
			                                       qb_markup_media_kind(set->srcs[i])};
		} else { /* the same picture under another path */
			free(nm);
			free(data);
		}
		set->file_of[i] = f;
	}
	free(w.locs);
	if (rc != 0)
		qb_media_set_dispose(set);
	return rc;
}

const char *qb_media_find(const qb_media_set *set, const char *src)
{
	for (size_t i = 0; set && i < set->nsrcs; i++)
		if (strcmp(set->srcs[i], src) == 0)
			return set->files[set->file_of[i]].name;
	return NULL;
}

void qb_media_note(const qb_media_set *set, const char *src, size_t **used, size_t *nused)
{
	for (size_t i = 0; i < set->nsrcs; i++) {
		if (strcmp(set->srcs[i], src) != 0)
			continue;
		size_t f = set->file_of[i], k;
		for (k = 0; k < *nused && (*used)[k] != f; k++)
			;
		if (k == *nused) {
			*used = qb_xrealloc(*used, (*nused + 1) * sizeof **used);
			(*used)[(*nused)++] = f;
		}
	}
}

void qb_media_set_dispose(qb_media_set *set)
{
	for (size_t i = 0; i < set->nfiles; i++) {
		free(set->files[i].name);
		free(set->files[i].data);
	}
	for (size_t i = 0; i < set->nsrcs; i++)
		free(set->srcs[i]);
	free(set->files);
	free(set->srcs);
	free(set->file_of);
	*set = (qb_media_set){0};
}

/* ==== Markdown =========================================================== */

static const char *media_src(void *payload, const char *src)
{
	return qb_media_find(payload, src);
}

int qb_render_html(const qb_render_ctx *ctx, qb_buf *out, const char *md,
                   const qb_media_set *media)
{
	if (qb_markup_html(out, md, QB_MARKUP_INLINE, media_src, (void *)media) != 0) {
		qb_diag_fatal("cannot render a text of bank '%s' (out of memory)", ctx->bank->id);
		fail(ctx, QB_WRITE_EIO);
		return -1;
	}
	return 0;
}

void qb_render_plain(qb_buf *out, const char *md)
{
	qb_markup_plain(out, md);
}

/* ==== Labels ============================================================= */

typedef struct lang_labels {
	const char *code;  /* a written language (not owned)                 */
	json_t *labels;    /* every key: own, overrides, then fallbacks      */
	char *name;        /* the language's own name, or NULL               */
	bool rtl;
} lang_labels;

struct qb_labels {
	lang_labels *l;
	size_t n;
	size_t *of_lang;   /* per declared language: 1 + its index in l, or 0 */
	json_t *by_primary; /* "sw": [indexes in l of "sw-KE", ...], for the
	                       written codes that have a subtag              */
};

/* Reads <dir>/<code>.json, else <dir>/<primary subtag>.json, into *out
 * (NULL when neither exists).  Returns -1 (after a diagnostic when report
 * is set) when a file exists but cannot be read or is not a catalogue. */
static int read_catalogue(const char *dir, const char *code, bool report, json_t **out)
{
	*out = NULL;
	qb_buf primary = QB_BUF_INIT;
	for (const char *p = code; *p && *p != '-'; p++)
		qb_buf_putc(&primary, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
	const char *names[] = {code, qb_buf_cstr(&primary)};
	int rc = 0;
	size_t nnames = strcmp(code, names[1]) == 0 ? 1 : 2; /* "fr": once */
	for (size_t i = 0; i < nnames && !*out && rc == 0; i++) {
		char *file = qb_xasprintf("%s/%s.json", dir, names[i]);
		char *text = NULL;
		size_t len = 0;
		if (qb_fs_read(file, &text, &len) != 0) {
			if (errno != ENOENT) {
				if (report)
					qb_diag_fatal("cannot read '%s': %s", file, strerror(errno));
				rc = -1;
			}
			free(file);
			continue;
		}
		json_error_t err;
		json_t *cat = json_loadb(text, len, 0, &err);
		json_t *labels = json_object_get(cat, "labels");
		json_t *dir_v = json_object_get(cat, "dir");
		const char *bad = !cat ? err.text
		                  : !json_is_object(labels) ? "no \"labels\" object"
		                  : dir_v && (!json_is_string(dir_v) ||
		                              (strcmp(json_string_value(dir_v), "ltr") != 0 &&
		                               strcmp(json_string_value(dir_v), "rtl") != 0))
		                      ? "\"dir\" is not \"ltr\" or \"rtl\""
		                  : NULL;
		if (!bad) {
			const char *key;
			json_t *v;
			json_object_foreach(labels, key, v)
				if (!json_is_string(v) && !(strcmp(key, "languageNames") == 0 &&
				                            json_is_object(v)))
					bad = "a label that is not a string";
		}
		if (bad) {
			if (report)
				qb_diag_fatal("%s:%d:%d: not a label catalogue: %s (see templates/labels/README.md)",
			              file, cat ? 1 : err.line, cat ? 1 : err.column, bad);
			json_decref(cat);
			rc = -1;
		} else
			*out = cat;
		free(text);
		free(file);
	}
	qb_buf_dispose(&primary);
	return rc;
}

/* Overlays the catalogue cat on l, key by key (languageNames name by name). */
static void overlay(lang_labels *l, json_t *cat)
{
	if (!cat)
		return;
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(cat, "labels"), key, v) {
		json_t *mine = json_object_get(l->labels, key);
		if (json_is_object(v) && json_is_object(mine))
			json_object_update(mine, v);
		else
			json_object_set_new(l->labels, key, json_deep_copy(v));
	}
	const char *name = json_string_value(json_object_get(cat, "name"));
	if (name) {
		free(l->name);
		l->name = qb_xstrdup(name);
	}
	const char *dir = json_string_value(json_object_get(cat, "dir"));
	if (dir)
		l->rtl = strcmp(dir, "rtl") == 0;
}

/* The labels of code from templates/labels/ overridden by the bank's
 * labels/; *found tells whether either had a catalogue. */
static int own_labels(const qb_bank *bank, const char *templates_dir, const char *code,
                      bool report, lang_labels *l, bool *found)
{
	char *tdir = qb_fs_join(templates_dir, QB_LABELS_DIR);
	char *bdir = qb_fs_join(bank->dir, QB_LABELS_DIR);
	json_t *t = NULL, *b = NULL;
	int rc = read_catalogue(tdir, code, report, &t) | read_catalogue(bdir, code, report, &b);
	*l = (lang_labels){code, json_object(), NULL, false};
	overlay(l, t);
	overlay(l, b);
	*found = t || b;
	json_decref(t);
	json_decref(b);
	free(tdir);
	free(bdir);
	return rc;
}

static void lang_labels_dispose(lang_labels *l)
{
	json_decref(l->labels);
	free(l->name);
}

static bool same_catalogue(const char *a, const char *b)
{
	size_t na = strcspn(a, "-"), nb = strcspn(b, "-");
	return na == nb && strncasecmp(a, b, na) == 0;
}

/* The catalogues every language falls back to, each read once per bank
 * when first needed (not once per language: a bank may have a thousand). */
typedef struct fallbacks {
	bool ref_read, def_read;
	int ref_rc, def_rc;
	lang_labels ref;      /* the reference's labels                       */
	lang_labels def;      /* the default language's; labels NULL when it
	                         has no catalogue                             */
	json_t *bare[2];      /* the labels of a language without a catalogue:
	                         from the reference [0], from def [1]; shared by
	                         every such language (a bank may have a thousand) */
} fallbacks;

static void fallbacks_dispose(fallbacks *fbs)
{
	if (fbs->def.labels)
		lang_labels_dispose(&fbs->def);
	if (fbs->ref.labels)
		lang_labels_dispose(&fbs->ref);
	json_decref(fbs->bare[0]);
	json_decref(fbs->bare[1]);
}

/* Resolves the labels of code: its own, then the missing keys from the
 * bank's default language, then from the reference.  *missing (if not
 * NULL) receives the keys code's own catalogues lack, *fallback the
 * language they come from and *found whether code has a catalogue. */
static int resolve(const qb_bank *bank, const char *templates_dir, const char *code,
                   bool report, fallbacks *fbs, lang_labels *out, qb_buf *missing,
                   const char **fallback, bool *found)
{
	int rc = own_labels(bank, templates_dir, code, report, out, found);
	if (!fbs->ref_read) {
		bool ref_found;
		fbs->ref_read = true;
		fbs->ref_rc = own_labels(bank, templates_dir, REFERENCE_LANG, report, &fbs->ref,
		                         &ref_found);
		if (fbs->ref_rc == 0 && !ref_found) {
			if (report)
				qb_diag_fatal("cannot read template '%s/%s/%s.json': %s", templates_dir,
				              QB_LABELS_DIR, REFERENCE_LANG, strerror(ENOENT));
			fbs->ref_rc = -1;
		}
	}
	rc |= fbs->ref_rc;
	const char *dlang = qb_bank_default_lang(bank);
	const char *fb = dlang && !same_catalogue(dlang, code) ? dlang : REFERENCE_LANG;
	const lang_labels *def = NULL;
	if (rc == 0 && strcmp(fb, REFERENCE_LANG) != 0) {
		if (!fbs->def_read) {
			bool def_found = false;
			fbs->def_read = true;
			fbs->def_rc = own_labels(bank, templates_dir, fb, report, &fbs->def, &def_found);
			if (!def_found) {
				lang_labels_dispose(&fbs->def);
				fbs->def = (lang_labels){0};
			}
		}
		rc = fbs->def_rc;
		if (fbs->def.labels)
			def = &fbs->def;
		else
			fb = REFERENCE_LANG;
	}
	/* A language without a catalogue gets the labels the last such
	 * language got (its own are empty: every key is missing). */
	json_t **bare = &fbs->bare[def != NULL];
	bool shared = rc == 0 && !*found && *bare;
	const char *key;
	json_t *v;
	json_object_foreach(fbs->ref.labels, key, v) {
		if (json_object_get(out->labels, key))
			continue;
		if (missing)
			qb_buf_appendf(missing, "%s'%s'", missing->len ? ", " : "", key);
		if (shared)
			continue;
		json_t *from = def ? json_object_get(def->labels, key) : NULL;
		json_object_set_new(out->labels, key, json_deep_copy(from ? from : v));
	}
	if (shared) {
		json_decref(out->labels);
		out->labels = json_incref(*bare);
	} else if (rc == 0 && !*found) {
		*bare = json_incref(out->labels);
	}
	if (fallback)
		*fallback = fb;
	return rc;
}

static void labels_free(qb_labels *labels)
{
	if (!labels)
		return;
	for (size_t i = 0; i < labels->n; i++)
		lang_labels_dispose(&labels->l[i]);
	free(labels->l);
	free(labels->of_lang);
	json_decref(labels->by_primary);
	free(labels);
}

static qb_labels *labels_load(const qb_bank *bank, const char *templates_dir,
                              const char *const *langs, size_t nlangs)
{
	qb_labels *labels = qb_xcalloc(1, sizeof *labels);
	labels->l = qb_xcalloc(nlangs, sizeof *labels->l);
	labels->of_lang = qb_xcalloc(bank->nlangs + 1, sizeof *labels->of_lang);
	labels->by_primary = json_object();
	for (size_t i = 0; i < nlangs; i++) {
		size_t k = qb_bank_lang_index(bank, langs[i]);
		if (k != QB_LANG_NONE && !labels->of_lang[k])
			labels->of_lang[k] = i + 1;
		size_t np = strcspn(langs[i], "-");
		if (langs[i][np]) {
			char *primary = qb_xstrndup(langs[i], np);
			json_t *a = json_object_get(labels->by_primary, primary);
			if (!a)
				json_object_set_new(labels->by_primary, primary, a = json_array());
			json_array_append_new(a, json_integer((json_int_t)i));
			free(primary);
		}
	}
	fallbacks fbs = {0};
	for (size_t i = 0; i < nlangs; i++, labels->n++) {
		bool found;
		if (resolve(bank, templates_dir, langs[i], true, &fbs, &labels->l[i], NULL, NULL,
		            &found) != 0) {
			labels->n++;
			labels_free(labels);
			labels = NULL;
			break;
		}
	}
	fallbacks_dispose(&fbs);
	return labels;
}

int qb_render_check_labels(const qb_bank *bank, const char *templates_dir)
{
	if (!templates_dir)
		return 0; /* qb_render_write() reports it */
	fallbacks fbs = {0};
	int status = 0;
	for (size_t i = 0; i < bank->nlangs && status == 0; i++) {
		const qb_lang *lang = &bank->langs[i];
		lang_labels l;
		qb_buf missing = QB_BUF_INIT, who = QB_BUF_INIT, fbw = QB_BUF_INIT;
		const char *fb = NULL;
		bool found = false;
		/* A catalogue that cannot be read is the writers' I/O error. */
		int rc = resolve(bank, templates_dir, lang->code, false, &fbs, &l, &missing, &fb,
		                 &found);
		lang_labels_dispose(&l);
		qb_lang_describe(&who, lang->code);
		qb_lang_describe(&fbw, fb ? fb : REFERENCE_LANG);
		if (rc == 0 && !found)
			qb_diag_warning(lang->loc,
			                "no user-interface labels for %s (templates/%s/%s.json, or "
			                "%s/%s.json next to the bank); it shows those of %s for all of "
			                "them: %s",
			                qb_buf_cstr(&who), QB_LABELS_DIR, lang->code, QB_LABELS_DIR, lang->code,
			                qb_buf_cstr(&fbw), qb_buf_cstr(&missing));
		else if (rc == 0 && missing.len)
			qb_diag_warning(lang->loc, "the user-interface labels for %s lack %s; it shows "
			                           "those of %s for them",
			                qb_buf_cstr(&who), qb_buf_cstr(&missing), qb_buf_cstr(&fbw));
		qb_buf_dispose(&missing);
		qb_buf_dispose(&who);
		qb_buf_dispose(&fbw);
		status = rc != 0 ? -1 : 0;
	}
	fallbacks_dispose(&fbs);
	return status;
}

/* The labels of a written language: found through the bank's language
 * index, as writers ask for them per text and language. */
static const lang_labels *labels_of(const qb_render_ctx *ctx, const char *lang)
{
	if (!ctx->labels)
		return NULL;
	size_t k = qb_bank_lang_index(ctx->bank, lang);
	if (k != QB_LANG_NONE)
		return ctx->labels->of_lang[k] ? &ctx->labels->l[ctx->labels->of_lang[k] - 1] : NULL;
	for (size_t i = 0; i < ctx->labels->n; i++)
		if (strcmp(ctx->labels->l[i].code, lang) == 0)
			return &ctx->labels->l[i];
	return NULL;
}

const char *qb_render_label(const qb_render_ctx *ctx, const char *lang, const char *key)
{
	const lang_labels *l = labels_of(ctx, lang);
	const char *s = l ? json_string_value(json_object_get(l->labels, key)) : NULL;
	return s ? s : "";
}

void qb_render_label_expand(const qb_render_ctx *ctx, qb_buf *out, const char *lang,
                            const char *key, const char *const *vars)
{
	const char *s = qb_render_label(ctx, lang, key);
	while (*s) {
		const char *close = *s == '{' ? strchr(s, '}') : NULL;
		const char *val = NULL;
		for (size_t i = 0; close && vars && vars[i] && vars[i + 1]; i += 2)
			if (strlen(vars[i]) == (size_t)(close - s - 1) &&
			    strncmp(vars[i], s + 1, (size_t)(close - s - 1)) == 0)
				val = vars[i + 1];
		if (val) {
			qb_buf_puts(out, val);
			s = close + 1;
		} else
			qb_buf_putc(out, *s++);
	}
}

const char *qb_render_lang_own_name(const qb_render_ctx *ctx, const char *code)
{
	const lang_labels *l = labels_of(ctx, code);
	if (l && l->name)
		return l->name;
	const char *native = qb_lang_native_name(code);
	return native ? native : code;
}

const char *qb_render_lang_name(const qb_render_ctx *ctx, const char *ui, const char *code)
{
	const lang_labels *l = labels_of(ctx, ui);
	json_t *names = l ? json_object_get(l->labels, "languageNames") : NULL;
	const char *s = json_string_value(json_object_get(names, code));
	if (!s) { /* "sw-KE": the name of "sw" */
		char *primary = qb_xstrndup(code, strcspn(code, "-"));
		s = json_string_value(json_object_get(names, primary));
		free(primary);
	}
	return s ? s : qb_render_lang_own_name(ctx, code);
}

/* A written language's name from a catalogue's languageNames. */
typedef struct lang_name {
	size_t i;        /* the language's index in the labels (written order) */
	bool exact;      /* under its own code, not its primary subtag's      */
	const char *name;
} lang_name;

static int lang_name_cmp(const void *a, const void *b)
{
	const lang_name *x = a, *y = b;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return (int)y->exact - (int)x->exact;
}

void qb_render_lang_names(const qb_render_ctx *ctx, const char *ui, qb_render_name_fn fn,
                          void *payload)
{
	const lang_labels *l = labels_of(ctx, ui);
	json_t *names = l ? json_object_get(l->labels, "languageNames") : NULL;
	if (!json_object_size(names))
		return;
	/* Walk the catalogue's names, not the written languages: a bank of a
	 * thousand languages has names for a few of them. */
	lang_name *found = NULL;
	size_t n = 0, cap = 0;
	const char *key;
	json_t *v;
	json_object_foreach(names, key, v) {
		const char *name = json_string_value(v);
		if (!name)
			continue;
		size_t k = qb_bank_lang_index(ctx->bank, key);
		size_t exact = k != QB_LANG_NONE ? ctx->labels->of_lang[k] : 0;
		json_t *subs = json_object_get(ctx->labels->by_primary, key);
		if (n + 1 + json_array_size(subs) > cap) {
			cap = 2 * (n + 1 + json_array_size(subs));
			found = qb_xrealloc(found, cap * sizeof *found);
		}
		if (exact)
			found[n++] = (lang_name){exact - 1, true, name};
		size_t j;
		json_t *ix;
		json_array_foreach(subs, j, ix)
			found[n++] = (lang_name){(size_t)json_integer_value(ix), false, name};
	}
	qsort(found, n, sizeof *found, lang_name_cmp);
	for (size_t j = 0; j < n; j++)
		if (j == 0 || found[j].i != found[j - 1].i)
			fn(payload, ctx->labels->l[found[j].i].code, found[j].name);
	free(found);
}

const char *qb_render_lang_dir(const qb_render_ctx *ctx, const char *lang)
{
	const lang_labels *l = labels_of(ctx, lang);
	return l && l->rtl ? "rtl" : "ltr";
}

/* ==== The driver's entry ================================================= */

bool qb_writer_supports(const qb_writer *w, qb_qtype type)
{
	return type == QB_QTYPE_SINGLE || type == QB_QTYPE_MULTIPLE ||
	       (w->types & QB_TYPE_BIT(type)) != 0;
}

/* Reports each question of a type the writer cannot write yet, once, at
 * its 'type:' line: the build fails cleanly instead. */
static bool supports_types(const qb_render_ctx *ctx)
{
	bool ok = true;
	for (size_t i = 0; i < ctx->bank->nquestions; i++) {
		const qb_question *q = &ctx->bank->questions[i];
		if (qb_writer_supports(ctx->writer, q->type))
			continue;
		qb_render_error(ctx, q->type_loc.line ? q->type_loc : q->loc,
		                "question '%s' is a %s question; the %s format does not support it "
		                "yet", q->id ? q->id : "", qb_qtype_name(q->type), ctx->writer->name);
		ok = false;
	}
	return ok;
}

/* Fills ctx's languages from opts (every declared language when opts
 * names none; *all is then the heap array to free) and its main one. */
static void ctx_langs(qb_render_ctx *ctx, const qb_bank *bank, const qb_build_opts *opts,
                      const char ***all)
{
	ctx->langs = opts->langs;
	ctx->nlangs = opts->nlangs;
	*all = NULL;
	if (!ctx->nlangs) { /* every declared language (validate.c: at least one) */
		*all = qb_xcalloc(bank->nlangs + 1, sizeof **all);
		for (size_t i = 0; i < bank->nlangs; i++)
			(*all)[i] = bank->langs[i].code;
		ctx->langs = *all;
		ctx->nlangs = bank->nlangs;
	}
	const char *def = qb_bank_default_lang(bank);
	ctx->main_lang = ctx->langs[0];
	for (size_t i = 0; i < ctx->nlangs; i++)
		if (def && strcmp(ctx->langs[i], def) == 0)
			ctx->main_lang = def;
}

int qb_render_check(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts)
{
	qb_render_state state = {QB_WRITE_OK, 0};
	qb_render_ctx ctx = {.writer = w, .bank = bank, .templates_dir = opts->templates_dir,
	                     .latest = opts->epoch, .times = opts->times, .state = &state};
	const char **all;
	ctx_langs(&ctx, bank, opts, &all);
	if (supports_types(&ctx) && w->check)
		w->check(&ctx, bank);
	free(all);
	return state.failure;
}

/* A writer's output between qb_render_begin() and qb_render_finish(): its
 * context lives here, at one address, for work a writer started early. */
struct qb_render_job {
	qb_render_ctx ctx;
	qb_render_state state;
	const char **all;  /* ctx.langs when opts names none */
	char *path;        /* ctx.path, from qb_render_finish() */
	qb_write_status rc; /* QB_WRITE_OK, or why it cannot be written */
};

qb_render_job *qb_render_begin(const qb_writer *w, const qb_bank *bank,
                               const qb_build_opts *opts)
{
	qb_render_job *job = qb_xcalloc(1, sizeof *job); /* state: QB_WRITE_OK, no times */
	job->ctx = (qb_render_ctx){.writer = w, .bank = bank, .templates_dir = opts->templates_dir,
	                           .state = &job->state, .seed = opts->seed};
	job->rc = QB_WRITE_EIO;
	if (w->templates && !opts->templates_dir) {
		qb_diag_fatal("cannot find the templates folder (templates/%s); set QBC_TEMPLATES",
		              w->templates);
		return job;
	}
	ctx_langs(&job->ctx, bank, opts, &job->all);
	if (opts->templates_dir &&
	    !(job->ctx.labels = labels_load(bank, opts->templates_dir, job->ctx.langs,
	                                    job->ctx.nlangs)))
		return job;
	job->rc = QB_WRITE_OK;
	if (w->begin)
		job->ctx.early = w->begin(&job->ctx, bank);
	return job;
}

void qb_render_discard(qb_render_job *job)
{
	if (!job)
		return;
	if (job->ctx.early)
		job->ctx.writer->end(job->ctx.early);
	labels_free(job->ctx.labels);
	free(job->path);
	free(job->all);
	free(job);
}

int qb_render_finish(qb_render_job *job, const qb_build_opts *opts)
{
	qb_render_ctx *ctx = &job->ctx;
	const qb_bank *bank = ctx->bank;
	qb_write_status rc = job->rc;
	if (rc != QB_WRITE_OK)
		goto done;
	ctx->latest = opts->epoch;
	ctx->times = opts->times;
	if (opts->times) {
		const char *tdir = ctx->writer->templates;
		time_t t = tdir ? qb_rev_times_template(opts->times, tdir) : 0;
		time_t tl = qb_rev_times_template(opts->times, QB_LABELS_DIR);
		job->state.templates_raw = tl > t ? tl : t;
	}
	ctx->templates_time = job->state.templates_raw ? job->state.templates_raw : opts->epoch;
	unsigned n = opts->times ? opts->times->revision : 0;
	ctx->revision = n ? n : 1;
	/* Where opts says now (the driver's staging folder). */
	job->path = qb_writer_output_path(ctx->writer, bank, opts);
	ctx->path = job->path;
	/* The format's rules ran in qb_render_check(), which the driver calls
	 * for every format before the first is written. */
	if (ctx->writer->write(ctx, bank) == 0)
		rc = QB_WRITE_OK;
	else
		rc = job->state.failure == QB_WRITE_EBANK ? QB_WRITE_EBANK : QB_WRITE_EIO;
done:
	qb_render_discard(job);
	return rc;
}

int qb_render_write(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts)
{
	return qb_render_finish(qb_render_begin(w, bank, opts), opts);
}

char *qb_render_media_hashed_name(const char *src, const unsigned char *data, size_t len)
{
	qb_buf name = QB_BUF_INIT;
	char hex[2 * 8 + 1];
	qb_hash_sha256_hex(hex, 8, data, len);
	qb_buf_appendf(&name, "media/%s", hex);
	const char *dot = strrchr(src, '.');
	if (dot && !strchr(dot, '/')) {
		size_t mark = name.len;
		qb_buf_putc(&name, '.');
		for (const char *p = dot + 1; *p && name.len - mark <= 8; p++) {
			char ch = *p;
			if (ch >= 'A' && ch <= 'Z')
				ch = (char)(ch - 'A' + 'a');
			if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
				qb_buf_putc(&name, ch);
		}
		if (name.len == mark + 1)
			name.len = mark, name.ptr[mark] = '\0';
	}
	return qb_buf_detach(&name);
}

/* ---- parameterised questions ---- */

const char *qb_render_decimal_mark(const qb_render_ctx *ctx, const char *lang)
{
	const char *m = qb_render_label(ctx, lang, "decimalMark");
	return *m ? m : ".";
}

static const char *draw_mark(const void *payload, const char *lang)
{
	return qb_render_decimal_mark(payload, lang);
}

const qb_question *qb_render_draw(const qb_render_ctx *ctx, qb_arena *arena,
                                  const qb_question *q, size_t k)
{
	return qb_params_instance(arena, q, k, draw_mark, ctx);
}
