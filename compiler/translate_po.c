/* translate_po.c - translation units as gettext PO files, written and read
 * by gettext's own libgettextpo (see translate.h).
 *
 * One message per unit: msgctxt is the unit's key (so that two equal
 * source texts stay two messages), msgid the default language's text,
 * msgstr the translation ("" when there is none), "#." the notes, "#:" the
 * bank line of the source text, a last "#. reviewed" on a text the record
 * marks reviewed (PO has no such state), and the flag "fuzzy" on a stale one,
 * with "#| msgid" its previous source when the file it replaces had
 * another (qb_tu_previous(), as msgmerge --previous does).
 * libgettextpo does not say on which line of the file a message stands,
 * so the reader finds each msgctxt line itself, for located errors. */
#include "translate.h"

#include <errno.h>
#include <gettext-po.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"

/* libgettextpo reports through callbacks without a payload: the reports
 * go straight to diag.c, whose sink is the one global state. */
static void po_xerror(int severity, po_message_t message, const char *filename, size_t lineno,
                      size_t column, int multiline_p, const char *text)
{
	QB_UNUSED(message);
	QB_UNUSED(multiline_p);
	qb_loc loc = {filename, (int)lineno, (int)column};
	if (severity == PO_SEVERITY_WARNING)
		qb_diag_warning(loc, QB_DIAG_AS_IS, text);
	else
		qb_diag_error(loc, QB_DIAG_AS_IS, text);
	if (severity == PO_SEVERITY_FATAL_ERROR) {
		qb_diag_summary();
		exit(QB_EXIT_IO);
	}
}

static void po_xerror2(int severity, po_message_t message1, const char *filename1, size_t lineno1,
                       size_t column1, int multiline_p1, const char *text1,
                       po_message_t message2, const char *filename2, size_t lineno2,
                       size_t column2, int multiline_p2, const char *text2)
{
	QB_UNUSED(message2);
	QB_UNUSED(multiline_p2);
	qb_loc loc = {filename2, (int)lineno2, (int)column2};
	po_xerror(severity == PO_SEVERITY_FATAL_ERROR ? PO_SEVERITY_ERROR : severity, message1,
	          filename1, lineno1, column1, multiline_p1, text1);
	qb_diag_note(loc, QB_DIAG_AS_IS, text2);
	if (severity == PO_SEVERITY_FATAL_ERROR) {
		qb_diag_summary();
		exit(QB_EXIT_IO);
	}
}

static const struct po_xerror_handler handler = {po_xerror, po_xerror2};

/* po_file_free() leaves the messages' contexts behind (libgettextpo
 * 0.21): setting each to NULL frees it first. */
static void po_free(po_file_t file)
{
	po_message_iterator_t it = po_message_iterator(file, NULL);
	for (po_message_t m; (m = po_next_message(it)) != NULL;)
		po_message_set_msgctxt(m, NULL);
	po_message_iterator_free(it);
	po_file_free(file);
}

int qb_po_write(const qb_tu_list *l, const qb_bank *bank, const char *lang, const char *path)
{
	po_file_t file = po_file_create();
	po_message_iterator_t it = po_message_iterator(file, NULL);
	qb_buf header = QB_BUF_INIT;
	qb_buf_appendf(&header,
	               "Project-Id-Version: %s\n"
	               "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\n"
	               "Last-Translator: FULL NAME <EMAIL@ADDRESS>\n"
	               "Language-Team: LANGUAGE <LL@li.org>\n"
	               "Language: %s\n"
	               "MIME-Version: 1.0\n"
	               "Content-Type: text/plain; charset=UTF-8\n"
	               "Content-Transfer-Encoding: 8bit\n"
	               "X-Generator: qbc %s\n"
	               "X-Source-Language: %s\n",
	               bank->id ? bank->id : "bank", lang, QB_VERSION, qb_bank_default_lang(bank));
	po_message_t h = po_message_create();
	po_message_set_msgid(h, "");
	po_message_set_msgstr(h, qb_buf_cstr(&header));
	po_message_insert(it, h);
	qb_buf_dispose(&header);
	for (size_t i = 0; i < l->n; i++) {
		const qb_tu *u = &l->v[i];
		po_message_t m = po_message_create();
		po_message_set_msgctxt(m, u->key);
		po_message_set_msgid(m, u->source);
		po_message_set_msgstr(m, u->target ? u->target : "");
		if (u->state == QB_TU_REVIEWED) {
			/* PO has no reviewed state: a last note line says it. */
			char *note = qb_xasprintf("%s\nreviewed", u->note);
			po_message_set_extracted_comments(m, note);
			free(note);
		} else {
			po_message_set_extracted_comments(m, u->note);
		}
		const qb_tr *tr = qb_text_tr(u->text, qb_bank_default_lang(bank));
		if (tr)
			po_message_add_filepos(m, bank->path, (size_t)tr->line);
		po_message_set_fuzzy(m, u->state == QB_TU_STALE);
		if (u->prev)
			po_message_set_prev_msgid(m, u->prev);
		po_message_insert(it, m);
	}
	po_message_iterator_free(it);
	int rc = 0;
	if (strcmp(path, "-") == 0) {
		rc = po_file_write(file, "/dev/stdout", &handler) ? 0 : -1;
	} else {
		char *tmp = qb_fs_tmpname(path);
		if (!tmp) {
			qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
			rc = -1;
		} else if (!po_file_write(file, tmp, &handler)) {
			unlink(tmp);
			rc = -1;
		} else if (qb_fs_rename_durable(tmp, path) != 0) {
			qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
			rc = -1;
		}
		free(tmp);
	}
	po_free(file);
	return rc;
}

/* The C string of a PO string literal's contents s[0..n) (the escapes
 * gettext writes). */
static void unquote(qb_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
		}
		qb_buf_putc(out, c);
	}
}

/* The line of each message's msgctxt in the file's text, as "key" ->
 * line pairs, in order. */
typedef struct ctx_line {
	char *key;
	int line;
} ctx_line;

static ctx_line *ctx_lines(const char *text, size_t *n)
{
	ctx_line *v = NULL;
	size_t cap = 0;
	*n = 0;
	int ln = 1;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > 9 && strncmp(p, "msgctxt \"", 9) == 0) {
			qb_buf k = QB_BUF_INIT;
			const char *e = p + len;
			while (e > p + 9 && e[-1] != '"')
				e--;
			if (e > p + 9)
				unquote(&k, p + 9, (size_t)(e - 1 - (p + 9)));
			/* A long key is continued on the following string lines. */
			const char *q = nl;
			while (q && q[1] == '"') {
				const char *nl2 = strchr(q + 1, '\n');
				size_t l2 = nl2 ? (size_t)(nl2 - (q + 1)) : strlen(q + 1);
				if (l2 >= 2)
					unquote(&k, q + 2, l2 - 2);
				q = nl2;
			}
			if (*n == cap)
				v = qb_xrealloc(v, (cap = cap * 2 + 64) * sizeof *v);
			v[(*n)++] = (ctx_line){qb_buf_detach(&k), ln};
		}
		ln++;
		p = nl ? nl + 1 : p + len;
	}
	return v;
}

int qb_po_read(const char *path, qb_tu_file *out)
{
	memset(out, 0, sizeof *out);
	char *text = NULL;
	size_t len = 0;
	if (qb_fs_read(path, &text, &len) != 0) {
		qb_diag_fatal("cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	qb_diag_mark mk = qb_diag_mark_now();
	po_file_t file = po_file_read(path, &handler);
	if (!file || qb_diag_errors_since(mk)) {
		if (file)
			po_free(file);
		free(text);
		return -1;
	}
	size_t nctx = 0, next = 0;
	ctx_line *lines = ctx_lines(text, &nctx);
	/* A copy (libgettextpo's xstrdup), the caller's to free. */
	char *header = (char *)po_file_domain_header(file, NULL);
	if (header)
		out->lang = po_header_field(header, "Language");
	free(header);
	if (out->lang && !*out->lang) {
		free(out->lang);
		out->lang = NULL;
	}
	po_message_iterator_t it = po_message_iterator(file, NULL);
	size_t cap = 0;
	for (po_message_t m; (m = po_next_message(it)) != NULL;) {
		const char *ctx = po_message_msgctxt(m);
		if (po_message_is_obsolete(m) || !ctx)
			continue; /* the header, and messages a tool retired */
		if (out->n == cap)
			out->v = qb_xrealloc(out->v, (cap = cap * 2 + 64) * sizeof *out->v);
		qb_tu_in *u = &out->v[out->n++];
		u->key = qb_xstrdup(ctx);
		u->source = qb_xstrdup(po_message_msgid(m));
		u->target = qb_xstrdup(po_message_msgstr(m) ? po_message_msgstr(m) : "");
		u->fuzzy = po_message_is_fuzzy(m) != 0;
		u->line = 0;
		/* The messages come in file order: look from the last one on. */
		for (size_t k = 0; k < nctx; k++) {
			size_t j = (next + k) % nctx;
			if (strcmp(lines[j].key, ctx) == 0) {
				u->line = lines[j].line;
				next = j + 1;
				break;
			}
		}
	}
	po_message_iterator_free(it);
	po_free(file);
	for (size_t k = 0; k < nctx; k++)
		free(lines[k].key);
	free(lines);
	free(text);
	return 0;
}

void qb_tu_file_dispose(qb_tu_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].key);
		free(f->v[i].source);
		free(f->v[i].target);
	}
	free(f->v);
	free(f->lang);
	memset(f, 0, sizeof *f);
}
