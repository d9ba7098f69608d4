/* translate_cmd.c - `qbc translate export` and `qbc translate import`
 * (translate.h): the bank's texts out to a translator's PO or XLIFF file,
 * and the translations back into the bank in place (qb_edit.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <utf8proc.h>

#include "alloc.h"
#include "diag.h"
#include "driver.h"
#include "fsutil.h"
#include "i18n.h"
#include "lang.h"
#include "qb_edit.h"
#include "read.h"
#include "revision.h"
#include "translate.h"
#include "utf8.h"
#include "validate.h"

/* "po" or "xliff": --format, else from the file's name. */
static const char *file_format(const qb_drv_opts *o, const char *path)
{
	if (o->formats)
		return o->formats;
	const char *dot = path ? strrchr(path, '.') : NULL;
	return dot && (strcmp(dot, ".xlf") == 0 || strcmp(dot, ".xliff") == 0) ? "xliff" : "po";
}

/* The glossary beside the bank (glossary.md), or NULL. */
static char *read_glossary(const qb_bank *bank)
{
	char *path = qb_fs_join(bank->dir, "glossary.md"), *text = NULL;
	size_t len;
	if (qb_fs_read(path, &text, &len) != 0)
		text = NULL;
	free(path);
	return text;
}

/* The bank's record in *rev, NULL when it has none yet; QB_DRV_IO after
 * a diagnostic when it cannot be read. */
static qb_drv_status load_record(const qb_bank *bank, char **rpath, qb_revisions **rev)
{
	bool io = false;
	*rpath = qb_rev_path(bank->path);
	*rev = qb_rev_load(*rpath, &io);
	if (!*rev)
		return QB_DRV_IO;
	if (qb_rev_number(*rev) == 0) {
		qb_rev_free(*rev);
		*rev = NULL;
	}
	return QB_DRV_OK;
}

/* The language a file names (a PO header's "fr_FR", "sr@latin" or
 * "pt_BR.UTF-8"), as a BCP 47 code in *out; false when it is none. */
static bool file_lang(qb_buf *out, const char *s)
{
	qb_buf b = QB_BUF_INIT;
	for (const char *p = s; *p && *p != '.' && *p != '@'; p++)
		qb_buf_putc(&b, *p == '_' ? '-' : *p);
	bool ok = qb_lang_valid(qb_buf_cstr(&b), b.len);
	if (ok)
		qb_lang_canonical(out, qb_buf_cstr(&b), b.len);
	qb_buf_dispose(&b);
	return ok;
}

/* An earlier XLIFF file that a tool wrote (placeholders without their
 * data, its own white space) made whole against the bank's units, as the
 * import makes it (qb_xliff_resolve()), so that its translations are
 * kept with their markup.  -1 after an error located in the file. */
static int resolve_prev(qb_tu_file *prev, const qb_tu_list *units, const char *path)
{
	bool any = false;
	for (size_t i = 0; i < prev->n && !any; i++)
		any = prev->v[i].unresolved || prev->v[i].space_default;
	if (!any)
		return 0;
	size_t *map = qb_xcalloc(prev->n + 1, sizeof *map);
	int rc = 0;
	qb_tu_match(units, prev, map);
	for (size_t i = 0; i < prev->n; i++)
		if (map[i] != SIZE_MAX && qb_xliff_resolve(&prev->v[i], &units->v[map[i]], path) != 0)
			rc = -1;
	free(map);
	return rc;
}

static qb_drv_status export_bank(const qb_drv_opts *o, const char *path)
{
	if (!o->langs) {
		qb_drv_usage(o->command, "translate export: --lang LANG is needed");
		return QB_DRV_USAGE;
	}
	if (!qb_lang_valid(o->langs, strlen(o->langs))) {
		qb_drv_usage(o->command, "--lang: '%s' is not a BCP 47 language code", o->langs);
		return QB_DRV_USAGE;
	}
	const char *fmt = file_format(o, o->outdir);
	if (strcmp(fmt, "po") != 0 && strcmp(fmt, "xliff") != 0) {
		qb_drv_usage(o->command, "--format: '%s' is not po or xliff", fmt);
		return QB_DRV_USAGE;
	}
	qb_diag_mark m = qb_diag_mark_now();
	qb_bank *bank = qb_read(path);
	if (!bank)
		return QB_DRV_IO;
	qb_drv_status rc = QB_DRV_OK;
	char *rpath = NULL, *gloss = NULL, *out = NULL;
	qb_revisions *rev = NULL;
	qb_tu_list units = {NULL, 0, NULL, NULL};
	qb_tu_walk *walk = NULL;
	qb_tu_file prev = {.lang = NULL};
	qb_tu_kept kept = {NULL, NULL, NULL, 0};
	qb_buf lang = QB_BUF_INIT;
	qb_lang_canonical(&lang, o->langs, strlen(o->langs));
	/* The language's own missing texts are what it exports. */
	qb_validate_unfinished(bank, qb_buf_cstr(&lang));
	if (qb_diag_errors_since(m)) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	const char *deflang = qb_bank_default_lang(bank);
	if (deflang && strcmp(deflang, qb_buf_cstr(&lang)) == 0) {
		qb_drv_usage(o->command, "--lang: '%s' is the bank's default language, the source",
		             qb_buf_cstr(&lang));
		rc = QB_DRV_USAGE;
		goto done;
	}
	if ((rc = load_record(bank, &rpath, &rev)) != QB_DRV_OK)
		goto done;
	gloss = read_glossary(bank);
	if (o->outdir) {
		out = qb_xstrdup(o->outdir);
	} else {
		size_t n = strlen(path);
		if (n > 3 && strcmp(path + n - 3, ".qb") == 0)
			n -= 3;
		out = qb_xasprintf("%.*s.%s.%s", (int)n, path, qb_buf_cstr(&lang),
		                   strcmp(fmt, "po") == 0 ? "po" : "xlf");
	}
	/* The translator's earlier file, which this export replaces: its
	 * translations, header and comments are kept, and its sources are
	 * the previous sources of the units that changed (msgmerge). */
	size_t nkept = 0;
	bool earlier = strcmp(out, "-") != 0 && access(out, F_OK) == 0;
	bool po = strcmp(fmt, "po") == 0;
	qb_diag_mark m2 = qb_diag_mark_now();
	/* Read before the units are made: the parser's whole-file list
	 * (libgettextpo's, libxml2's tree) is at its peak while it is
	 * copied, and the units with their notes need not be there too. */
	if (earlier && ((po ? qb_po_read_kept(out, &prev, &kept) : qb_xliff_read(out, &prev)) != 0 ||
	                qb_diag_errors_since(m2))) {
		qb_diag_note(QB_LOC(out, 0, 0), "nothing was written");
		rc = qb_diag_errors_since(m2) ? QB_DRV_BANK_ERRORS : QB_DRV_IO;
		goto done;
	}
	/* A PO file of no earlier file is written a part of the units at
	 * a time: a big bank's units are never held together. */
	if (po && !earlier && strcmp(out, "-") != 0) {
		walk = qb_tu_walk_new(bank, qb_buf_cstr(&lang), rev, gloss);
		if (qb_po_write_walk(walk, bank, qb_buf_cstr(&lang), out) != 0) {
			rc = QB_DRV_IO;
			goto done;
		}
	} else {
		qb_tu_collect(&units, bank, qb_buf_cstr(&lang), rev, gloss);
	}
	if (earlier) {
		/* A file of another language has nothing to say about these; one
		 * of a region of it (fr_FR for fr) is the translator's, as the
		 * import takes it. */
		qb_buf plang = QB_BUF_INIT;
		const char *want = qb_buf_cstr(&lang), *have = NULL;
		if (prev.lang && file_lang(&plang, prev.lang))
			have = qb_buf_cstr(&plang);
		size_t wl = strlen(want);
		bool same = !prev.lang || (have && (strcmp(have, want) == 0 ||
		                                    (strncmp(have, want, wl) == 0 && have[wl] == '-')));
		qb_buf_dispose(&plang);
		/* Messages whose msgctxt a tool dropped placed, and a tool's
		 * XLIFF made whole, as the import does. */
		if (same && po)
			qb_tu_in_place(&prev, &units, bank, out);
		else if (same)
			resolve_prev(&prev, &units, out);
		if (qb_diag_errors_since(m2)) {
			qb_diag_note(QB_LOC(out, 0, 0), "nothing was written");
			rc = QB_DRV_BANK_ERRORS;
			goto done;
		}
		size_t nprev = 0;
		if (same && qb_tu_merge(&units, &prev, &kept, out, rev != NULL, &nprev, &nkept) != 0) {
			qb_diag_note(QB_LOC(out, 0, 0), "nothing was written");
			rc = QB_DRV_BANK_ERRORS;
			goto done;
		}
		if (same) {
			units.header = kept.header;
			units.header_comments = kept.header_comments;
		}
	}
	int w = walk                   ? 0
	        : strcmp(fmt, "po") == 0 ? qb_po_write(&units, bank, qb_buf_cstr(&lang), out)
	                                 : qb_xliff_write(&units, bank, qb_buf_cstr(&lang), out);
	if (w != 0) {
		rc = QB_DRV_IO;
		goto done;
	}
	size_t nstate[4] = {0, 0, 0, 0};
	size_t nunits = units.n;
	if (walk)
		nunits = qb_tu_walk_counts(walk, nstate);
	for (size_t i = 0; i < units.n; i++)
		nstate[units.v[i].state]++;
	if (strcmp(out, "-") != 0) {
		/* Each count its own plural ("0 périmé", "1 ignorée"), the
		 * sentence one message. */
		size_t ntr = nstate[QB_TU_TRANSLATED] + nstate[QB_TU_REVIEWED];
		size_t nst = nstate[QB_TU_STALE], nun = nstate[QB_TU_UNTRANSLATED];
		qb_buf c[4] = {QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT};
		qb_buf_appendf(&c[0], ngettext("%zu text", "%zu texts", nunits), nunits);
		/* TRANSLATORS: a count of texts, in "(3 translated, 1 stale,
		 * 0 untranslated)". */
		qb_buf_appendf(&c[1], ngettext("%zu translated", "%zu translated", ntr), ntr);
		qb_buf_appendf(&c[2], ngettext("%zu stale", "%zu stale", nst), nst);
		qb_buf_appendf(&c[3], ngettext("%zu untranslated", "%zu untranslated", nun), nun);
		/* TRANSLATORS: "bank.qb: 26 texts to translate into sw (26
		 * translated, 0 stale, 0 untranslated) written to bank.sw.po". */
		printf(_("%s: %s to translate into %s (%s, %s, %s) written to %s\n"), bank->path,
		       qb_buf_cstr(&c[0]), qb_buf_cstr(&lang), qb_buf_cstr(&c[1]), qb_buf_cstr(&c[2]),
		       qb_buf_cstr(&c[3]), out);
		for (size_t i = 0; i < 4; i++)
			qb_buf_dispose(&c[i]);
	}
	if (nkept)
		printf(ngettext("  %zu translation kept from the earlier %s, which the bank does not "
		                "have yet (import it)\n",
		                "  %zu translations kept from the earlier %s, which the bank does not "
		                "have yet (import it)\n", nkept),
		       nkept, out);
done:
	qb_tu_walk_free(walk);
	qb_tu_dispose(&units);
	qb_tu_file_dispose(&prev);
	qb_tu_kept_dispose(&kept);
	qb_buf_dispose(&lang);
	qb_rev_free(rev);
	free(rpath);
	free(gloss);
	free(out);
	qb_bank_free(bank);
	return rc;
}

/* What an import did, for its report. */
typedef struct import_counts {
	size_t added, changed, same, confirmed, untranslated, changed_source, unknown, altered;
	size_t current, stale;
} import_counts;

/* The new sides of the matching pairs the file translates: both sides
 * of a pair are on one line, so they are written together. */
typedef struct pair_edit {
	const qb_choice *ch;
	const char *left, *right; /* NULL: as the bank has it */
} pair_edit;

typedef struct pairs {
	pair_edit *v;
	size_t n;
} pairs;

/* Writes u's new text, or keeps it for its pair. */
static int edit_unit(qb_edit *ed, const qb_tu *u, const char *lang, const char *text, pairs *p)
{
	if (!u->pair)
		return qb_edit_set(ed, u->text, lang, text);
	p->v = qb_xrealloc(p->v, (p->n + 1) * sizeof *p->v);
	bool left = u->text == &u->pair->text;
	p->v[p->n++] = (pair_edit){u->pair, left ? text : NULL, left ? NULL : text};
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const pair_edit *x = a, *y = b;
	return x->ch == y->ch ? 0 : (uintptr_t)x->ch < (uintptr_t)y->ch ? -1 : 1;
}

static int pairs_flush(qb_edit *ed, pairs *p, const char *lang)
{
	int rc = 0;
	/* A pair's two sides together (qsort is not stable: the sides are
	 * gathered, each given once). */
	if (p->n)
		qsort(p->v, p->n, sizeof *p->v, cmp_pair);
	for (size_t i = 0; i < p->n;) {
		const qb_choice *ch = p->v[i].ch;
		const char *left = NULL, *right = NULL;
		for (; i < p->n && p->v[i].ch == ch; i++) {
			left = p->v[i].left ? p->v[i].left : left;
			right = p->v[i].right ? p->v[i].right : right;
		}
		if (!left)
			left = qb_text_get(&ch->text, lang);
		if (!right)
			right = qb_text_get(qb_choice_match(ch), lang);
		qb_buf b = QB_BUF_INIT;
		if (ch->text.present)
			qb_buf_appendf(&b, "%s => %s", left ? left : "", right ? right : "");
		else
			qb_buf_appendf(&b, "=> %s", right ? right : "");
		const qb_text *t = ch->text.present ? &ch->text : qb_choice_match(ch);
		if (qb_edit_set(ed, t, lang, qb_buf_cstr(&b)) != 0)
			rc = -1;
		qb_buf_dispose(&b);
	}
	return rc;
}

/* A translator's text as the reader keeps texts: line ends '\n', no white
 * space around it, NFC.  NULL when it is not UTF-8. */
static char *clean_text(const char *s)
{
	qb_buf b = QB_BUF_INIT;
	for (const char *p = s; *p; p++)
		if (!(*p == '\r' && p[1] == '\n'))
			qb_buf_putc(&b, *p);
	const char *t = qb_buf_cstr(&b);
	size_t n = b.len;
	while (n && strchr(" \t\n", *t)) {
		t++;
		n--;
	}
	while (n && strchr(" \t\n", t[n - 1]))
		n--;
	utf8proc_uint8_t *nfc = NULL;
	utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)t, (utf8proc_ssize_t)n, &nfc,
	                                  UTF8PROC_STABLE | UTF8PROC_COMPOSE);
	char *out = m >= 0 ? qb_xstrndup((const char *)nfc, (size_t)m) : NULL;
	free(nfc);
	qb_buf_dispose(&b);
	return out;
}

static int cmp_key(const void *a, const void *b)
{
	const qb_tu_in *x = *(const qb_tu_in *const *)a, *y = *(const qb_tu_in *const *)b;
	int d = strcmp(x->key, y->key);
	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/* Reports each unit of f whose key an earlier one has, and each text
 * that is not UTF-8; cleans the others (clean_text()). */
static void check_file(qb_tu_file *f, const char *fpath)
{
	const qb_tu_in **v = qb_xcalloc(f->n + 1, sizeof *v);
	for (size_t i = 0; i < f->n; i++)
		v[i] = &f->v[i];
	if (f->n)
		qsort(v, f->n, sizeof *v, cmp_key);
	for (size_t i = 1; i < f->n; i++)
		if (*v[i]->key && strcmp(v[i]->key, v[i - 1]->key) == 0)
			qb_diag_error(QB_LOC(fpath, v[i]->line, v[i]->line ? 1 : 0),
			              "a second unit '%s'; the first is on line %d", v[i]->key,
			              v[i - 1]->line);
	free(v);
	for (size_t i = 0; i < f->n; i++) {
		char *src = clean_text(f->v[i].source), *trg = clean_text(f->v[i].target);
		if (!src || !trg) {
			qb_diag_error(QB_LOC(fpath, f->v[i].line, f->v[i].line ? 1 : 0),
			              "the unit '%s' is not UTF-8 text (give the file in UTF-8)",
			              f->v[i].key);
			free(src);
			free(trg);
			continue;
		}
		free(f->v[i].source);
		free(f->v[i].target);
		f->v[i].source = src;
		f->v[i].target = trg;
	}
}

/* The keys of l's units, taken from it, and l let go (the edited bank's
 * units are found by them). */
static char **take_keys(qb_tu_list *l, size_t *n)
{
	char **keys = qb_xcalloc(l->n + 1, sizeof *keys);
	for (size_t i = 0; i < l->n; i++) {
		keys[i] = l->v[i].key;
		l->v[i].key = NULL;
	}
	*n = l->n;
	qb_tu_dispose(l);
	return keys;
}

/* The unit keys[k] of the bank before the import in after (the same
 * bank's units after it), or NULL. */
static const qb_tu *after_unit(const qb_tu_list *after, char *const *keys, size_t k)
{
	if (k < after->n && strcmp(after->v[k].key, keys[k]) == 0)
		return &after->v[k];
	return qb_tu_find(after, keys[k]);
}

/* The target language: --lang, checked against the language the file
 * names (its region may be more than --lang says: fr_FR for fr, with a
 * note), or the file's.  -1 after an error located in the file. */
static int import_lang(qb_buf *lang, const qb_drv_opts *o, const qb_tu_file *f,
                       const char *fpath)
{
	qb_loc at = {fpath, f->lang_line, f->lang_line ? 1 : 0};
	qb_buf fl = QB_BUF_INIT;
	int rc = 0;
	if (f->lang && !file_lang(&fl, f->lang)) {
		qb_diag_error(at, "the file's language '%s' is not a BCP 47 language code",
		              f->lang);
		rc = -1;
	} else if (!o->langs && !f->lang) {
		qb_diag_error(at, "the file names no target language; give --lang");
		rc = -1;
	} else if (!o->langs) {
		qb_buf_puts(lang, qb_buf_cstr(&fl));
	} else if (!qb_lang_valid(o->langs, strlen(o->langs))) {
		qb_diag_error(QB_LOC(fpath, 0, 0), "'%s' is not a BCP 47 language code", o->langs);
		rc = -1;
	} else {
		qb_lang_canonical(lang, o->langs, strlen(o->langs));
		const char *want = qb_buf_cstr(lang), *have = qb_buf_cstr(&fl);
		size_t n = strlen(want);
		if (!f->lang || strcmp(have, want) == 0) {
			/* the same language */
		} else if (strncmp(have, want, n) == 0 && have[n] == '-') {
			qb_diag_note(at, "the file's language '%s' taken as '%s'", f->lang, want);
		} else {
			qb_diag_error(at, "the file is a translation into '%s', not '%s': give the "
			              "file of '%s' (or --lang %s)", f->lang, want, want, have);
			rc = -1;
		}
	}
	qb_buf_dispose(&fl);
	return rc;
}

/* A translation as the .qb reader takes texts: no control character
 * (check_encoding() in read_text.c), and not past the length the checks
 * call very long (QB_LONG_TEXT, a warning there) unless its source is
 * too; one more than four times its source's length is refused.  -1
 * after an error. */
static int check_target(const qb_tu_in *in, const char *fpath)
{
	qb_loc at = {fpath, in->line, in->line ? 1 : 0};
	for (const unsigned char *p = (const unsigned char *)in->target; *p; p++)
		if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F) {
			qb_diag_error(at, "translation of '%s': control character U+%04X in the text",
			              in->key, (unsigned)*p);
			return -1;
		}
	size_t n = qb_utf8_count(in->target, strlen(in->target));
	size_t ns = qb_utf8_count(in->source, strlen(in->source));
	if (n <= QB_LONG_TEXT || ns > QB_LONG_TEXT)
		return 0;
	if (n > 4 * ns) {
		qb_diag_error(at, "translation of '%s': %zu characters, for a source of %zu: a text "
		              "of the bank is at most %d characters (more is hard to read on a phone)",
		              in->key, n, ns, QB_LONG_TEXT);
		return -1;
	}
	qb_diag_warning(at, "translation of '%s': very long (%zu characters; more than %d is hard "
	                "to read on a phone)", in->key, n, QB_LONG_TEXT);
	return 0;
}

/* The letters and digits of a text's literal pieces (every byte of a
 * character outside ASCII counts as one). */
static void literal_piece(void *payload, const char *kind, const char *s, size_t len)
{
	for (size_t i = 0; !kind && i < len; i++)
		if ((unsigned char)s[i] >= 0x80 || (s[i] >= '0' && s[i] <= '9') ||
		    ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z'))
			qb_buf_putc(payload, s[i]);
}

/* True when a and b have the same words, differing only in markup,
 * punctuation or white space: what a tool that drops XLIFF's
 * placeholders or reflows white space leaves of a source. */
static bool same_words(const char *a, const char *b)
{
	qb_buf x = QB_BUF_INIT, y = QB_BUF_INIT;
	qb_tu_pieces(a, literal_piece, &x);
	qb_tu_pieces(b, literal_piece, &y);
	bool same = strcmp(qb_buf_cstr(&x), qb_buf_cstr(&y)) == 0;
	qb_buf_dispose(&x);
	qb_buf_dispose(&y);
	return same;
}

/* What the edited bank's read-back reports, told at the units of the
 * translator's file whose translations it is about. */
typedef struct readback {
	const qb_tu_file *f;
	const char *const *done;
	const qb_tu_list *after;          /* the edited bank's units */
	char *const *keys;                /* the bank's units' keys before it */
	const size_t *map;                /* each unit of f's among them */
	const char *lang, *fpath, *bpath;
} readback;

static void readback_at(void *payload, qb_diag_level level, qb_loc loc, const char *message)
{
	const readback *rb = payload;
	const qb_tu_in *hit = NULL;
	for (size_t i = 0; loc.file && strcmp(loc.file, rb->bpath) == 0 && i < rb->f->n; i++) {
		const qb_tu *u = rb->done[i] ? after_unit(rb->after, rb->keys, rb->map[i]) : NULL;
		const qb_tr *tr = u ? qb_text_tr(u->text, rb->lang) : NULL;
		if (!tr || !u->target)
			continue;
		int last = (int)tr->line;
		for (const char *p = u->target; (p = strchr(p, '\n')) != NULL; p++)
			last++;
		if (loc.line >= (int)tr->line && loc.line <= last)
			hit = &rb->f->v[i];
	}
	if (hit) {
		qb_loc at = {rb->fpath, hit->line, hit->line ? 1 : 0};
		if (level == QB_DIAG_ERROR)
			qb_diag_error(at, "translation of '%s': %s", hit->key, message);
		else if (level == QB_DIAG_WARNING)
			qb_diag_warning(at, "translation of '%s': %s", hit->key, message);
	} else if (level == QB_DIAG_ERROR) {
		/* (A warning about another text was told when the bank was read.) */
		qb_diag_error(QB_LOC(rb->fpath, 0, 0), "the bank with these translations would "
		              "not check: %s", message);
	}
}

static qb_drv_status import_file(const qb_drv_opts *o, const char *fpath, const char *bpath)
{
	qb_drv_status rc = QB_DRV_OK;
	qb_tu_file f = {.lang = NULL};
	char *src = NULL, *rpath = NULL;
	const char *text = NULL; /* the bank's bytes, held by diag.c */
	size_t len = 0;
	qb_bank *bank = NULL, *nb = NULL;
	qb_revisions *rev = NULL;
	qb_edit *ed = NULL;
	qb_tu_list units = {NULL, 0, NULL, NULL}, after = {NULL, 0, NULL, NULL};
	qb_buf result = QB_BUF_INIT, lang = QB_BUF_INIT;
	const char **done = NULL; /* the text written for each unit of f      */
	bool *cur = NULL;         /* its record entry made current (else stale) */
	bool *rv = NULL;          /* the file marks it reviewed                */
	size_t *map = NULL;       /* the unit of the bank it translates       */
	char **keys = NULL;       /* the keys of those units, once let go     */
	size_t nkeys = 0;
	bool *taken = NULL;       /* per unit of the bank: translated by one  */
	import_counts n = {0};
	pairs pend = {NULL, 0};
	int lockfd = -1;
	const char *fmt = file_format(o, fpath);
	qb_diag_mark m = qb_diag_mark_now();
	if (strcmp(fmt, "po") != 0 && strcmp(fmt, "xliff") != 0) {
		qb_drv_usage(o->command, "--format: '%s' is not po or xliff", fmt);
		return QB_DRV_USAGE;
	}
	if ((strcmp(fmt, "po") == 0 ? qb_po_read(fpath, &f) : qb_xliff_read(fpath, &f)) != 0) {
		rc = qb_diag_errors_since(m) ? QB_DRV_BANK_ERRORS : QB_DRV_IO;
		goto done;
	}
	check_file(&f, fpath);
	if (qb_diag_errors_since(m)) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	if (import_lang(&lang, o, &f, fpath) != 0) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	/* As builds do: the bank and its record are read and written under
	 * an exclusive lock on the bank file. */
	lockfd = open(bpath, O_RDONLY | O_CLOEXEC);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) != 0) {
		qb_diag_fatal("cannot lock '%s': %s", bpath, strerror(errno));
		rc = QB_DRV_IO;
		goto done;
	}
	if (qb_fs_read(bpath, &src, &len) != 0) {
		qb_diag_fatal("cannot read '%s': %s", bpath, strerror(errno));
		rc = QB_DRV_IO;
		goto done;
	}
	/* The diagnostics quote the bank from these bytes, which the editor
	 * cuts into lines: one copy of the bank, not one for each (the
	 * reader finds them registered and copies nothing). */
	qb_diag_add_source_owned(bpath, src, len);
	text = src;
	src = NULL;
	bank = qb_read_text(bpath, text, len);
	if (!bank) {
		rc = QB_DRV_IO;
		goto done;
	}
	if (qb_diag_errors_since(m)) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	/* A file of fr_FR, without --lang, for a bank that has fr: fr. */
	const char *dash = strchr(qb_buf_cstr(&lang), '-');
	if (!o->langs && dash && !qb_bank_has_lang(bank, qb_buf_cstr(&lang))) {
		char *primary = qb_xstrndup(qb_buf_cstr(&lang), (size_t)(dash - qb_buf_cstr(&lang)));
		if (qb_bank_has_lang(bank, primary)) {
			qb_diag_note(QB_LOC(fpath, f.lang_line, f.lang_line ? 1 : 0),
			             "the file's language '%s' taken as '%s'", f.lang, primary);
			qb_buf_clear(&lang);
			qb_buf_puts(&lang, primary);
		}
		free(primary);
	}
	const char *L = qb_buf_cstr(&lang);
	/* The language may be a new one in the making: its missing texts
	 * are what the file brings, or what is left (qbc check lists them). */
	qb_validate_unfinished(bank, L);
	if (qb_diag_errors_since(m)) {
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	const char *deflang = qb_bank_default_lang(bank);
	if (deflang && strcmp(deflang, L) == 0) {
		qb_diag_error(QB_LOC(fpath, 0, 0), "'%s' is the bank's default language, the source "
		              "of the translations", L);
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	qb_tu_collect_bare(&units, bank, L);
	qb_tu_in_place(&f, &units, bank, fpath);
	ed = qb_edit_new(bank, text, len);
	done = qb_xcalloc(f.n + 1, sizeof *done);
	cur = qb_xcalloc(f.n + 1, sizeof *cur);
	rv = qb_xcalloc(f.n + 1, sizeof *rv);
	/* Where each unit's text is now: an option inserted, deleted or moved
	 * since the export moves the others' keys. */
	map = qb_xcalloc(f.n + 1, sizeof *map);
	taken = qb_xcalloc(units.n + 1, sizeof *taken);
	qb_tu_match(&units, &f, map);
	/* First every check, so that one mistake writes nothing. */
	for (size_t i = 0; i < f.n; i++) {
		qb_tu_in *in = &f.v[i];
		qb_loc at = {fpath, in->line, in->line ? 1 : 0};
		const qb_tu *u = map[i] == SIZE_MAX || taken[map[i]] ? NULL : &units.v[map[i]];
		if (u)
			taken[map[i]] = true;
		if (!u) {
			if (*in->key) /* (one without a key was reported as it was placed) */
				qb_diag_warning(at, "skipped '%s': the bank has no such text", in->key);
			n.unknown++;
			continue;
		}
		if (strcmp(fmt, "xliff") == 0 && qb_xliff_resolve(in, u, fpath) != 0)
			continue;
		if (strcmp(u->source, in->source) != 0 && same_words(u->source, in->source)) {
			qb_diag_warning(at, "skipped '%s': its source differs from the bank's '%s' text only "
			                "in markup, punctuation or white space, as a tool that drops "
			                "XLIFF's placeholders leaves it; translate it in a tool that "
			                "keeps them", in->key, deflang);
			n.altered++;
			continue;
		}
		if (strcmp(u->source, in->source) != 0) {
			qb_diag_warning(at, "skipped '%s': its '%s' text changed in the bank since the file "
			                "was made; export again", in->key, deflang);
			n.changed_source++;
			continue;
		}
		if (!*in->target) {
			n.untranslated++;
			continue;
		}
		if (check_target(in, fpath) != 0)
			continue;
		bool same = u->target && strcmp(u->target, in->target) == 0;
		/* A file without states (a tool dropped them) says nothing of a
		 * translation it does not change. */
		cur[i] = (o->reviewed || !in->fuzzy) && !(same && in->nostate);
		/* Reviewed in the file: marked there by a reviewer, or qbc's own
		 * note on a text the file leaves as exported. */
		rv[i] = in->reviewed || (same && in->reviewed_kept);
		qb_buf why = QB_BUF_INIT;
		if (!same && qb_tu_markup_check(in->source, in->target, &why) != 0) {
			qb_diag_error(at, "translation of '%s': %s", in->key, qb_buf_cstr(&why));
			qb_buf_dispose(&why);
			continue;
		}
		qb_buf_dispose(&why);
		if (same) {
			if (cur[i]) {
				n.confirmed++;
				done[i] = in->target; /* the record may mark it current */
			} else {
				n.same++;
			}
			continue;
		}
		if (edit_unit(ed, u, L, in->target, &pend) != 0) {
			qb_diag_error(at, "translation of '%s': its place in %s cannot be found", in->key,
			              bpath);
			continue;
		}
		done[i] = in->target;
		if (u->target)
			n.changed++;
		else
			n.added++;
	}
	/* A file of another bank, or one a tool emptied, is no translation. */
	if (!f.n)
		qb_diag_error(QB_LOC(fpath, 0, 0), "the file has no translation unit");
	else if (n.unknown + n.altered + n.changed_source == f.n && !qb_diag_errors_since(m))
		qb_diag_error(QB_LOC(fpath, 0, 0), "none of the file's %zu units is a text of %s as "
		              "the bank has it: is it the file of another bank?", f.n, bpath);
	if (pairs_flush(ed, &pend, L) != 0)
		qb_diag_error(QB_LOC(fpath, 0, 0), "a pair's place in %s cannot be found", bpath);
	if (qb_diag_errors_since(m)) {
		qb_diag_note(QB_LOC(bpath, 0, 0), "nothing was written");
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	bool newlang = !qb_bank_has_lang(bank, L);
	/* A new language comes in as far as it is translated: `qbc check`
	 * lists the texts still without it. */
	size_t left = 0;
	for (size_t i = 0; i < units.n; i++)
		left += !units.v[i].target;
	for (size_t i = 0; i < f.n; i++)
		left -= done[i] && !units.v[map[i]].target;
	keys = take_keys(&units, &nkeys);
	if (newlang && n.added && qb_edit_add_lang(ed, L) != 0) {
		qb_diag_error(QB_LOC(bpath, 1, 1), "the bank has no 'languages:' line to add '%s' to", L);
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	/* What the edited text is made from is the editor's lines and the
	 * old bytes they point into: with edits, the old bank's model (read
	 * back from the edited text instead) and the file's sources (checked)
	 * go first, so that the text is made beside neither. */
	bool edits = n.added || n.changed;
	if (edits) {
		qb_bank_free(bank);
		bank = NULL;
	}
	for (size_t i = 0; i < f.n; i++) {
		free(f.v[i].source);
		f.v[i].source = NULL;
	}
	qb_edit_result(ed, &result);
	qb_edit_free(ed); /* its lines: the bank's size again */
	ed = NULL;
	/* The edited text grew by doubling: its slack let go (a big block
	 * shrinks in place). */
	if (result.ptr && result.cap > result.len + 1) {
		result.ptr = qb_xrealloc(result.ptr, result.len + 1);
		result.cap = result.len + 1;
	}
	if (edits) {
		/* The edited bank must read as the file says before it replaces
		 * the old one.  The old bank's bytes are not needed any more
		 * (the record is found from the path, the units are the keys
		 * and f's): let go before the new one is read, so the two are
		 * never held together. */
		qb_diag_drop_source(bpath);
		text = NULL;
		qb_diag_mark m2 = qb_diag_mark_now();
		/* Its diagnostics point at lines of a bank that is not written
		 * yet: they are told at the translator's units (readback_at()).
		 * They quote the text to be written, borrowed, not copied. */
		qb_diag_later_begin();
		qb_diag_later_borrow_source(bpath, qb_buf_cstr(&result), result.len);
		nb = qb_read_text(bpath, qb_buf_cstr(&result), result.len);
		if (nb)
			qb_validate_unfinished(nb, L);
		qb_diag_later *kept = qb_diag_later_end();
		if (!nb) {
			qb_diag_later_report(kept);
			rc = QB_DRV_IO;
			goto done;
		}
		qb_tu_collect_bare(&after, nb, L);
		readback rb = {&f, done, &after, keys, map, L, fpath, bpath};
		qb_diag_later_each(kept, readback_at, &rb);
		qb_diag_later_free(kept);
		for (size_t i = 0; i < f.n; i++) {
			const qb_tu *u = done[i] ? after_unit(&after, keys, map[i]) : NULL;
			if (done[i] && (!u || !u->target || strcmp(u->target, done[i]) != 0))
				qb_diag_error(QB_LOC(fpath, f.v[i].line, 1), "translation of '%s' does not "
				              "read back from the bank as written: write its line breaks as "
				              "its source does (a '\\' ends a line of text)", f.v[i].key);
		}
		if (qb_diag_errors_since(m2)) {
			qb_diag_note(QB_LOC(bpath, 0, 0), "nothing was written");
			rc = QB_DRV_BANK_ERRORS;
			goto done;
		}
		if (qb_fs_write_atomic(bpath, result.ptr, result.len) != 0) {
			qb_diag_fatal("cannot write '%s': %s", bpath, strerror(errno));
			rc = QB_DRV_IO;
			goto done;
		}
	}
	/* The record: fuzzy translations stay stale, the others are current. */
	if ((rc = load_record(nb ? nb : bank, &rpath, &rev)) != QB_DRV_OK)
		goto done;
	const qb_bank *cb = nb ? nb : bank;
	if (!nb) {
		qb_tu_collect_bare(&after, bank, L);
	}
	for (size_t i = 0; rev && i < f.n; i++) {
		const qb_tu *u = done[i] ? after_unit(&after, keys, map[i]) : NULL;
		if (u && u->qid && *u->elem &&
		    qb_rev_set_text(rev, cb, u->qid, u->elem, u->text, L, cur[i],
		                    cur[i] && (o->reviewed || rv[i])))
			cur[i] ? n.current++ : n.stale++;
	}
	if (rev && n.current + n.stale && qb_rev_save(rev, rpath, bpath) != 0) {
		rc = QB_DRV_IO;
		goto done;
	}
	/* Each count its own plural ("0 périmé", "1 ignorée"), the
	 * sentence one message. */
	size_t k = n.changed_source + n.altered + n.unknown, same = n.same + n.confirmed;
	qb_buf c[8] = {QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT,
	               QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT, QB_BUF_INIT};
	/* TRANSLATORS: counts of translations, in "3 added, 1 changed, ...". */
	qb_buf_appendf(&c[0], ngettext("%zu added", "%zu added", n.added), n.added);
	qb_buf_appendf(&c[1], ngettext("%zu changed", "%zu changed", n.changed), n.changed);
	qb_buf_appendf(&c[2], ngettext("%zu unchanged", "%zu unchanged", same), same);
	qb_buf_appendf(&c[3], ngettext("%zu skipped", "%zu skipped", k), k);
	qb_buf_appendf(&c[4], ngettext("%zu changed in the bank since the export",
	                               "%zu changed in the bank since the export", n.changed_source),
	               n.changed_source);
	qb_buf_appendf(&c[5], ngettext("%zu unknown", "%zu unknown", n.unknown), n.unknown);
	qb_buf_appendf(&c[6], ngettext("%zu untranslated", "%zu untranslated", n.untranslated),
	               n.untranslated);
	qb_buf_appendf(&c[7], ngettext("%zu changed by a tool", "%zu changed by a tool", n.altered),
	               n.altered);
	if (n.altered)
		/* TRANSLATORS: "bank.qb: sw from bank.sw.po: 3 added, 1 changed,
		 * 20 unchanged, 3 skipped (1 changed in the bank since the
		 * export, 1 changed by a tool, 1 unknown), 0 untranslated". */
		printf(_("%s: %s from %s: %s, %s, %s, %s (%s, %s, %s), %s\n"), bpath, L, fpath,
		       qb_buf_cstr(&c[0]), qb_buf_cstr(&c[1]), qb_buf_cstr(&c[2]), qb_buf_cstr(&c[3]),
		       qb_buf_cstr(&c[4]), qb_buf_cstr(&c[7]), qb_buf_cstr(&c[5]), qb_buf_cstr(&c[6]));
	else
		/* TRANSLATORS: "bank.qb: sw from bank.sw.po: 3 added, 1 changed,
		 * 20 unchanged, 2 skipped (1 changed in the bank since the
		 * export, 1 unknown), 0 untranslated". */
		printf(_("%s: %s from %s: %s, %s, %s, %s (%s, %s), %s\n"), bpath, L, fpath,
		       qb_buf_cstr(&c[0]), qb_buf_cstr(&c[1]), qb_buf_cstr(&c[2]), qb_buf_cstr(&c[3]),
		       qb_buf_cstr(&c[4]), qb_buf_cstr(&c[5]), qb_buf_cstr(&c[6]));
	if (newlang && n.added)
		printf(_("  '%s' added to the bank's languages\n"), L);
	if (newlang && n.added && left)
		printf(ngettext("  %zu text still has no '%s' translation: qbc check lists it\n",
		                "  %zu texts still have no '%s' translation: qbc check lists them\n",
		                left),
		       left, L);
	if (rev) {
		qb_buf_clear(&c[0]);
		qb_buf_clear(&c[1]);
		qb_buf_appendf(&c[0],
		               o->reviewed ? ngettext("%zu marked current (reviewed)",
		                                      "%zu marked current (reviewed)", n.current)
		                           : ngettext("%zu marked current", "%zu marked current",
		                                      n.current),
		               n.current);
		qb_buf_appendf(&c[1], ngettext("%zu left stale (fuzzy)", "%zu left stale (fuzzy)",
		                               n.stale), n.stale);
		/* TRANSLATORS: "  revision record: 3 marked current, 1 left
		 * stale (fuzzy)". */
		printf(_("  revision record: %s, %s\n"), qb_buf_cstr(&c[0]), qb_buf_cstr(&c[1]));
	}
	for (size_t i = 0; i < 8; i++)
		qb_buf_dispose(&c[i]);
done:
	if (lockfd >= 0)
		close(lockfd);
	free(pend.v);
	free(done);
	free(cur);
	free(rv);
	free(map);
	free(taken);
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	qb_edit_free(ed);
	qb_tu_dispose(&units);
	qb_tu_dispose(&after);
	qb_buf_dispose(&result);
	qb_buf_dispose(&lang);
	qb_tu_file_dispose(&f);
	qb_rev_free(rev);
	free(rpath);
	qb_bank_free(nb);
	qb_bank_free(bank);
	free(src);
	return rc;
}

qb_drv_status qb_drv_translate(const qb_drv_opts *o)
{
	const char *verb = o->banks[0];
	if (strcmp(verb, "export") == 0) {
		if (o->nbanks != 2) {
			qb_drv_usage(o->command, "translate export takes one bank");
			return QB_DRV_USAGE;
		}
		return export_bank(o, o->banks[1]);
	}
	if (strcmp(verb, "import") == 0) {
		if (o->nbanks != 3) {
			qb_drv_usage(o->command, "translate import takes a file and a bank");
			return QB_DRV_USAGE;
		}
		return import_file(o, o->banks[1], o->banks[2]);
	}
	qb_drv_usage(o->command, "'%s' is neither export nor import", verb);
	return QB_DRV_USAGE;
}
