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
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* libgettextpo 0.21 leaks the name of every file it read but the last
 * (its lexer's copy, never freed): a PO file read a chunk at a time
 * leaks 16 bytes a chunk inside the library.  GNU libmatheval keeps the
 * nodes of a formula that does not parse (its parser's error path drops
 * them; params.c destroys every evaluator it made).  LeakSanitizer's hook,
 * the one of the program (the sanitizer build reads it; other builds
 * never call it). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libgettextpo_xmalloc\nleak:libmatheval.so\n";
}
/* ... and quietly: a suppressed leak is no message of qbc's. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

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

/* The fields qbc writes itself; every other field of the translator's
 * earlier header (Last-Translator, Language-Team, PO-Revision-Date,
 * Plural-Forms, a tool's own) is kept. */
static bool own_field(const char *name, size_t n)
{
	static const char *const own[] = {"Project-Id-Version", "Language", "MIME-Version",
	                                  "Content-Type", "Content-Transfer-Encoding",
	                                  "X-Generator", "X-Source-Language"};
	for (size_t k = 0; k < sizeof own / sizeof *own; k++)
		if (strlen(own[k]) == n && strncmp(own[k], name, n) == 0)
			return true;
	return false;
}

/* ours with the translator's fields of old (NULL: none) set through
 * libgettextpo, or NULL when there are none. */
static char *keep_header(const char *ours, const char *old)
{
	char *h = NULL;
	for (const char *p = old; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', len);
		if (colon && colon > p && !own_field(p, (size_t)(colon - p))) {
			char *name = qb_xstrndup(p, (size_t)(colon - p));
			const char *v = colon + 1 + strspn(colon + 1, " ");
			char *value = qb_xstrndup(v, len - (size_t)(v - p));
			char *next = po_header_set_field(h ? h : ours, name, value);
			free(h);
			h = next;
			free(name);
			free(value);
		}
		p = nl ? nl + 1 : p + len;
	}
	return h;
}

/* Messages libgettextpo holds at a time: a big bank's file is written a
 * chunk at a time (each through libgettextpo into a scratch file, then
 * appended), so that memory does not grow with the bank. */
#define QB_PO_CHUNK 2048

/* The messages l->v[from..to) (and the header before them when header
 * is not NULL) as one libgettextpo file. */
static po_file_t po_chunk(const qb_tu_list *l, const qb_bank *bank, const char *header,
                          bool first, size_t from, size_t to)
{
	po_file_t file = po_file_create();
	po_message_iterator_t it = po_message_iterator(file, NULL);
	if (header) {
		po_message_t h = po_message_create();
		po_message_set_msgid(h, "");
		po_message_set_msgstr(h, header);
		if (first && l->header_comments && *l->header_comments)
			po_message_set_comments(h, l->header_comments);
		po_message_insert(it, h);
	}
	for (size_t i = from; i < to; i++) {
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
		if (u->comment)
			po_message_set_comments(m, u->comment);
		po_message_set_fuzzy(m, u->state == QB_TU_STALE);
		if (u->prev)
			po_message_set_prev_msgid(m, u->prev);
		po_message_insert(it, m);
	}
	po_message_iterator_free(it);
	return file;
}

/* Appends the file at scratch to out, after a blank line when sep (the
 * line libgettextpo puts between two messages), without its first
 * message (the header a later chunk is written with) when sep.  0, or -1
 * with errno. */
static int append_file(FILE *out, const char *scratch, bool sep)
{
	FILE *in = fopen(scratch, "rb");
	if (!in)
		return -1;
	char buf[65536];
	size_t n;
	int rc = sep && putc('\n', out) == EOF ? -1 : 0;
	/* The header ends at the first blank line. */
	for (int c, prev = 0; sep && (c = getc(in)) != EOF && !(c == '\n' && prev == '\n');)
		prev = c;
	while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (ferror(in))
		rc = -1;
	fclose(in);
	return rc;
}

/* qb_po_write() of l, or qb_po_write_walk() of w (l NULL). */
static int po_write(const qb_tu_list *l, qb_tu_walk *walk, const qb_bank *bank, const char *lang,
                    const char *path)
{
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
	static const char later_head[] = "Content-Type: text/plain; charset=UTF-8\n";
	char *kept = l ? keep_header(qb_buf_cstr(&header), l->header) : NULL;
	const char *head = kept ? kept : qb_buf_cstr(&header);
	int rc = 0;
	char *scratch = NULL;
	qb_fs_atomic a = {NULL, NULL, NULL};
	if (l && strcmp(path, "-") == 0) {
		/* A pipe: one chunk (reopening stdout per chunk would truncate a
		 * file it is redirected to). */
		po_file_t file = po_chunk(l, bank, head, true, 0, l->n);
		rc = po_file_write(file, "/dev/stdout", &handler) ? 0 : -1;
		po_free(file);
		goto done;
	}
	if (qb_fs_atomic_open(&a, path) != 0 || !(scratch = qb_fs_tmpname(path))) {
		qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
		rc = -1;
		goto done;
	}
	for (size_t from = 0, nchunk = 0; !rc; nchunk++) {
		/* The chunk: the next QB_PO_CHUNK units of l, or the walk's
		 * next part (the first, with the header, even when empty). */
		const qb_tu_list *cl = l;
		size_t to;
		if (walk) {
			if (!qb_tu_walk_next(walk) && nchunk > 0)
				break;
			cl = qb_tu_walk_part(walk);
			from = 0;
			to = cl->n;
		} else {
			if (nchunk > 0 && from >= l->n)
				break;
			to = l->n - from < QB_PO_CHUNK ? l->n : from + QB_PO_CHUNK;
		}
		/* A later chunk has a header too, for its charset: without one,
		 * libgettextpo takes its texts for ASCII and drops every other
		 * byte ("invalid multibyte sequence").  Left out of the file. */
		po_file_t file = po_chunk(cl, bank, nchunk == 0 ? head : later_head, nchunk == 0, from,
		                          to);
		if (!po_file_write(file, scratch, &handler))
			rc = -1; /* reported by libgettextpo */
		else if (append_file(a.f, scratch, nchunk > 0) != 0) {
			qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
			rc = -1;
		}
		po_free(file);
		from = to;
	}
	if (!rc && qb_fs_atomic_commit(&a) != 0) {
		qb_diag_fatal("cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
done:
	if (scratch)
		unlink(scratch);
	qb_fs_atomic_discard(&a);
	free(scratch);
	free(kept);
	qb_buf_dispose(&header);
	return rc;
}

int qb_po_write(const qb_tu_list *l, const qb_bank *bank, const char *lang, const char *path)
{
	return po_write(l, NULL, bank, lang, path);
}

int qb_po_write_walk(qb_tu_walk *w, const qb_bank *bank, const char *lang, const char *path)
{
	return po_write(NULL, w, bank, lang, path);
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

/* Where each message starts in the file's text: the line of its msgctxt
 * (key: the context), or of its msgid when it has none (key: the msgid;
 * bare true), in order.  Obsolete messages ("#~") are not lines of it. */
typedef struct ctx_line {
	char *key;
	int line;
	bool bare;
} ctx_line;

/* The string of the keyword line p (len bytes, kw the keyword and its
 * quote), with the string lines that continue it. */
static char *po_string_at(const char *p, size_t len, const char *nl, size_t kwlen)
{
	qb_buf k = QB_BUF_INIT;
	const char *e = p + len;
	while (e > p + kwlen && e[-1] != '"')
		e--;
	if (e > p + kwlen)
		unquote(&k, p + kwlen, (size_t)(e - 1 - (p + kwlen)));
	/* A long string is continued on the following string lines. */
	for (const char *q = nl; q && q[1] == '"';) {
		const char *nl2 = strchr(q + 1, '\n');
		size_t l2 = nl2 ? (size_t)(nl2 - (q + 1)) : strlen(q + 1);
		while (l2 && (q[1 + l2 - 1] == '\r' || q[1 + l2 - 1] == ' '))
			l2--;
		if (l2 >= 2)
			unquote(&k, q + 2, l2 - 2);
		q = nl2;
	}
	return qb_buf_detach(&k);
}

static ctx_line *ctx_lines(const char *text, size_t *n, int *lang_line)
{
	ctx_line *v = NULL;
	size_t cap = 0;
	*n = 0;
	int ln = 1;
	bool ctx = false; /* the message being read has a msgctxt */
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		bool isctx = len > 9 && strncmp(p, "msgctxt \"", 9) == 0;
		bool isid = len > 7 && strncmp(p, "msgid \"", 7) == 0;
		if (!*lang_line && len > 11 && strncmp(p, "\"Language:", 10) == 0)
			*lang_line = ln;
		if (isctx || (isid && !ctx)) {
			if (*n == cap)
				v = qb_xrealloc(v, (cap = cap * 2 + 64) * sizeof *v);
			v[(*n)++] = (ctx_line){po_string_at(p, len, nl, isctx ? 9 : 7), ln, isid};
		}
		if (isctx || isid)
			ctx = isctx;
		ln++;
		p = nl ? nl + 1 : p + len;
	}
	return v;
}

/* The charset a PO file's header names ("UTF-8" when it names none). */
static char *po_charset(const char *header)
{
	char *ct = header ? po_header_field(header, "Content-Type") : NULL;
	const char *cs = ct ? strstr(ct, "charset=") : NULL;
	char *out = NULL;
	if (cs) {
		cs += 8;
		size_t n = strcspn(cs, " \t;\n");
		out = qb_xstrndup(cs, n);
	}
	free(ct);
	if (!out || !*out || strcmp(out, "CHARSET") == 0 || strcasecmp(out, "ASCII") == 0 ||
	    strcasecmp(out, "US-ASCII") == 0 || strcasecmp(out, "UTF8") == 0) {
		free(out);
		out = qb_xstrdup("UTF-8");
	}
	return out;
}

/* s (from cs) in UTF-8, or NULL when it is not cs text; s itself (a copy)
 * when cd is NULL (the file is UTF-8). */
static char *to_utf8(iconv_t cd, const char *s)
{
	if (!s)
		return NULL;
	if (cd == (iconv_t)-1)
		return qb_xstrdup(s);
	qb_buf out = QB_BUF_INIT;
	char *in = (char *)s;
	size_t inleft = strlen(s);
	iconv(cd, NULL, NULL, NULL, NULL);
	while (inleft) {
		char chunk[256], *o = chunk;
		size_t oleft = sizeof chunk;
		size_t r = iconv(cd, &in, &inleft, &o, &oleft);
		qb_buf_append(&out, chunk, (size_t)(o - chunk));
		if (r == (size_t)-1 && errno != E2BIG) {
			qb_buf_dispose(&out);
			return NULL;
		}
	}
	char chunk[64], *o = chunk;
	size_t oleft = sizeof chunk;
	iconv(cd, NULL, NULL, &o, &oleft);
	qb_buf_append(&out, chunk, (size_t)(o - chunk));
	return qb_buf_detach(&out);
}

/* True when the lines of s (a PO comment) have one that reads "reviewed";
 * last: only its last line counts. */
static bool says_reviewed(const char *s, bool last)
{
	for (const char *p = s; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *a = p, *e = p + len;
		while (a < e && (*a == ' ' || *a == '\t'))
			a++;
		while (e > a && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		bool is = (size_t)(e - a) == 8 && strncasecmp(a, "reviewed", 8) == 0;
		p = nl ? nl + 1 : e;
		if (last && *p)
			continue;
		if (is)
			return true;
	}
	return false;
}

/* says_reviewed() of a message's comments, which libgettextpo joins into
 * a new string at each call and leaves to the caller (0.21's "FIXME:
 * memory leak"): freed here, unless it is its "" of no comment. */
static bool comment_says_reviewed(const char *joined, bool last)
{
	bool r = says_reviewed(joined, last);
	if (joined && *joined)
		free((char *)joined);
	return r;
}

static int cmp_comment(const void *a, const void *b)
{
	return strcmp(((const qb_tu_comment *)a)->key, ((const qb_tu_comment *)b)->key);
}

/* A read in progress: what one chunk of the file hands to the next. */
typedef struct po_reader {
	const char *path;
	qb_tu_file *out;
	qb_tu_kept *kept;
	iconv_t cd;           /* from the header's charset, or (iconv_t)-1 */
	char *charset;
	char *header;         /* the header (libgettextpo's copy), or NULL   */
	size_t cap, kcap;
	bool began;           /* the charset is known                        */
} po_reader;

/* The first chunk's header: the file's charset and language. */
static int po_begin(po_reader *r, po_file_t file)
{
	r->began = true;
	/* A copy (libgettextpo's xstrdup), the caller's to free. */
	r->header = (char *)po_file_domain_header(file, NULL);
	r->charset = po_charset(r->header);
	if (strcasecmp(r->charset, "UTF-8") != 0) {
		/* The file's own encoding, as msgfmt reads it: texts in UTF-8. */
		r->cd = iconv_open("UTF-8", r->charset);
		if (r->cd == (iconv_t)-1) {
			qb_diag_error(QB_LOC(r->path, 0, 0), "the file's charset '%s' is not one this "
			              "system knows; save it as UTF-8", r->charset);
			return -1;
		}
	}
	if (r->header) {
		char *raw = po_header_field(r->header, "Language");
		r->out->lang = to_utf8(r->cd, raw);
		free(raw);
	}
	if (r->out->lang && !*r->out->lang) {
		free(r->out->lang);
		r->out->lang = NULL;
	}
	return 0;
}

/* The messages of file, whose text (its own lines, without a header put
 * before them) begins on line first + 1 of the file, copied into r's
 * units in UTF-8 (libgettextpo leaves them in the file's charset).  A
 * chunk after the first skips the header it was given. */
static int po_take(po_reader *r, po_file_t file, char *text, int first, bool later)
{
	if (!r->began && po_begin(r, file) != 0) {
		free(text);
		return -1;
	}
	qb_tu_file *out = r->out;
	qb_tu_kept *kept = r->kept;
	iconv_t cd = r->cd;
	char *utext = NULL;
	if (cd != (iconv_t)-1) {
		utext = to_utf8(cd, text);
		if (!utext) {
			qb_diag_error(QB_LOC(r->path, 0, 0), "the file is not '%s' text as its header "
			              "says; save it as UTF-8", r->charset);
			free(text);
			return -1;
		}
	}
	size_t nctx = 0, next = 0;
	int lang_line = 0;
	ctx_line *lines = ctx_lines(utext ? utext : text, &nctx, &lang_line);
	if (!first && !later && r->header)
		out->lang_line = lang_line;
	/* The file's bytes were for its lines only: let go of them before
	 * the messages are copied, the peak of the read. */
	free(utext);
	free(text);
	po_message_iterator_t it = po_message_iterator(file, NULL);
	for (po_message_t m; (m = po_next_message(it)) != NULL;) {
		const char *ctx = po_message_msgctxt(m);
		if (po_message_is_obsolete(m))
			continue; /* messages a tool retired */
		if (!ctx && !*po_message_msgid(m) && later)
			continue; /* the header again, put before the chunk's messages */
		/* The translator's comments: a string joined for the call, the
		 * caller's to free when not "" (libgettextpo 0.21: "FIXME: memory
		 * leak"). */
		char *comments = (char *)po_message_comments(m);
		if (comments && !*comments)
			comments = NULL;
		if (!ctx && !*po_message_msgid(m)) { /* the header */
			if (kept) {
				free(kept->header);
				free(kept->header_comments);
				kept->header = to_utf8(cd, po_message_msgstr(m));
				kept->header_comments = to_utf8(cd, comments);
			}
			free(comments);
			continue;
		}
		char *key = ctx ? to_utf8(cd, ctx) : qb_xstrdup("");
		char *msgid = to_utf8(cd, po_message_msgid(m));
		int line = 0;
		/* The messages come in file order: look from the last one on. */
		for (size_t k = 0; k < nctx; k++) {
			size_t j = (next + k) % nctx;
			if (lines[j].bare == !ctx && strcmp(lines[j].key, ctx ? key : msgid) == 0) {
				line = first + lines[j].line;
				next = j + 1;
				break;
			}
		}
		qb_loc at = {r->path, line, line ? 1 : 0};
		if (po_message_msgid_plural(m)) {
			qb_diag_error(at, "'%s' is a plural message (msgid_plural): a text of the bank "
			              "has one translation, given as msgstr", ctx ? key : msgid);
			free(key);
			free(msgid);
			free(comments);
			continue;
		}
		if (out->n == r->cap)
			out->v = qb_xrealloc(out->v, (r->cap = r->cap * 2 + 64) * sizeof *out->v);
		qb_tu_in *u = &out->v[out->n++];
		memset(u, 0, sizeof *u);
		u->key = key;
		u->source = msgid;
		u->target = to_utf8(cd, po_message_msgstr(m) ? po_message_msgstr(m) : "");
		if (!u->source || !u->target) {
			free(u->source);
			free(u->target);
			u->source = qb_xstrdup("");
			u->target = qb_xstrdup("");
			qb_diag_error(at, "the message is not '%s' text as the file's header says; save "
			              "the file as UTF-8", r->charset);
		}
		u->fuzzy = po_message_is_fuzzy(m) != 0;
		u->reviewed = says_reviewed(comments, false);
		char *ucomments = kept && ctx && key && comments ? to_utf8(cd, comments) : NULL;
		free(comments);
		if (ucomments) { /* kept by a new export with the message */
			if (kept->n == r->kcap)
				kept->v = qb_xrealloc(kept->v, (r->kcap = r->kcap * 2 + 16) * sizeof *kept->v);
			kept->v[kept->n++] = (qb_tu_comment){qb_xstrdup(key), ucomments};
		}
		u->reviewed_kept = comment_says_reviewed(po_message_extracted_comments(m), true);
		u->line = line;
		po_filepos_t fp = ctx ? NULL : po_message_filepos(m, 0);
		u->ref_line = fp ? (int)po_filepos_start_line(fp) : 0;
		if (!ctx && !u->ref_line)
			u->ref_line = -1; /* no msgctxt, no "#:": found by its msgid alone */
	}
	po_message_iterator_free(it);
	for (size_t k = 0; k < nctx; k++)
		free(lines[k].key);
	free(lines);
	return 0;
}

/* Messages a chunk of the file holds: libgettextpo builds a whole
 * catalogue of what it reads (some 3 times the file), so a big file is
 * read a chunk of whole messages at a time. */
#define QB_PO_READ_CHUNK 4096

/* How one line of a PO file starts a message: after a message's msgstr
 * (and its string lines), the next comment (but an obsolete one's, "#~"),
 * msgctxt or msgid line is the first line of the next message. */
typedef struct po_split {
	bool in_msgstr; /* a msgstr was read since the last message began */
	size_t count;   /* messages begun                                  */
} po_split;

static bool po_split_line(po_split *s, const char *p, size_t len)
{
	bool starts = false;
	if ((len >= 1 && p[0] == '#' && !(len >= 2 && p[1] == '~')) ||
	    (len >= 7 && strncmp(p, "msgctxt", 7) == 0) || (len >= 5 && strncmp(p, "msgid", 5) == 0)) {
		starts = s->in_msgstr || s->count == 0;
		if (starts) {
			s->in_msgstr = false;
			s->count++;
		}
	} else if (len >= 6 && strncmp(p, "msgstr", 6) == 0) {
		s->in_msgstr = true;
	}
	return starts;
}

static void count_said(void *payload, qb_diag_level level, qb_loc loc, const char *message)
{
	QB_UNUSED(level);
	QB_UNUSED(loc);
	QB_UNUSED(message);
	++*(size_t *)payload;
}

/* A chunk's text given to libgettextpo through scratch (a file it opens
 * by name: /proc/self/fd/N), its diagnostics kept: NULL when it said
 * anything (the whole file is then read as one, for its diagnostics at
 * their places). */
static po_file_t po_read_chunk(FILE *scratch, const char *prefix, size_t plen, const char *text,
                               size_t len)
{
	if (ftruncate(fileno(scratch), 0) != 0)
		return NULL;
	rewind(scratch);
	if ((plen && fwrite(prefix, 1, plen, scratch) != plen) ||
	    (len && fwrite(text, 1, len, scratch) != len) || fflush(scratch) != 0)
		return NULL;
	char name[64];
	snprintf(name, sizeof name, "/proc/self/fd/%d", fileno(scratch));
	qb_diag_later_begin();
	po_file_t file = po_file_read(name, &handler);
	qb_diag_later *said = qb_diag_later_end();
	size_t n = 0;
	qb_diag_later_each(said, count_said, &n);
	qb_diag_later_free(said);
	if (file && n) {
		po_free(file);
		file = NULL;
	}
	return file;
}

static int cmp_in(const void *a, const void *b)
{
	const qb_tu_in *x = *(const qb_tu_in *const *)a, *y = *(const qb_tu_in *const *)b;
	int c = strcmp(x->key, y->key);
	return c ? c : strcmp(x->source, y->source);
}

/* Two messages of the same msgctxt and msgid, which libgettextpo reports
 * within one read but not across chunks. */
static bool has_twice(const qb_tu_file *f)
{
	const qb_tu_in **v = qb_xcalloc(f->n + 1, sizeof *v);
	for (size_t i = 0; i < f->n; i++)
		v[i] = &f->v[i];
	qsort(v, f->n, sizeof *v, cmp_in);
	bool twice = false;
	for (size_t i = 1; !twice && i < f->n; i++)
		twice = cmp_in(&v[i - 1], &v[i]) == 0;
	free(v);
	return twice;
}

/* The file read a chunk of QB_PO_READ_CHUNK messages at a time, each
 * chunk after the first with the file's header before it.  1 when the
 * whole file must be read as one instead: libgettextpo said something
 * about a chunk (its places would be the chunk's), a message is there
 * twice, or no scratch file could be made. */
static int po_read_chunks(po_reader *r)
{
	FILE *in = fopen(r->path, "rb");
	if (!in) {
		qb_diag_fatal("cannot read '%s': %s", r->path, strerror(errno));
		return -1;
	}
	FILE *scratch = tmpfile();
	int rc = scratch ? 0 : 1;
	qb_buf chunk = QB_BUF_INIT, prefix = QB_BUF_INIT;
	po_split split = {false, 0};
	char *line = NULL;
	size_t linecap = 0, first_count = 0;
	int ln = 0, first = 0; /* lines read; the line before the chunk's */
	/* The first message is the header: its msgid "" (no msgctxt, no
	 * string line after it) then its msgstr.  0 not known yet, 1 it is,
	 * 2 it is not, 3 a msgid "" seen. */
	int header = 0;
	bool prefixed = false, eof = false;
	/* Each chunk's own diagnostics (qbc's, not libgettextpo's), reported
	 * once every chunk is read, or dropped when the file is read again
	 * as one. */
	qb_diag_later **said = NULL;
	size_t nsaid = 0;
	while (rc == 0 && !eof) {
		ssize_t len = getline(&line, &linecap, in);
		eof = len < 0;
		bool starts = !eof && po_split_line(&split, line, (size_t)len);
		if (!eof && (header == 0 || header == 3)) {
			size_t n = (size_t)len;
			while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
				n--;
			if (n >= 6 && strncmp(line, "msgstr", 6) == 0)
				header = header == 3 ? 1 : 2;
			else if (n >= 7 && strncmp(line, "msgctxt", 7) == 0)
				header = 2;
			else if (n >= 5 && strncmp(line, "msgid", 5) == 0)
				header = n - 5 - strspn(line + 5, " \t") == 2 &&
				         strncmp(line + 5 + strspn(line + 5, " \t"), "\"\"", 2) == 0 ? 3 : 2;
			else if (n && line[0] == '"')
				header = 2;
		}
		if (starts && split.count == 2 && !prefixed) {
			/* The header message, before every later chunk. */
			if (header == 1)
				qb_buf_append(&prefix, chunk.ptr, chunk.len);
			prefixed = true;
		}
		if (eof || (starts && split.count - first_count > QB_PO_READ_CHUNK)) {
			po_file_t file = po_read_chunk(scratch, first ? prefix.ptr : NULL,
			                               first ? prefix.len : 0, qb_buf_cstr(&chunk),
			                               chunk.len);
			if (!file) {
				rc = 1;
				break;
			}
			char *text = qb_buf_detach(&chunk);
			said = qb_xrealloc(said, (nsaid + 1) * sizeof *said);
			qb_diag_later_begin();
			rc = po_take(r, file, text ? text : qb_xstrdup(""), first, first != 0);
			said[nsaid++] = qb_diag_later_end();
			po_free(file);
			first = ln;
			first_count = split.count - 1;
		}
		if (!eof) {
			qb_buf_append(&chunk, line, (size_t)len);
			ln++;
		}
	}
	if (ferror(in)) {
		qb_diag_fatal("cannot read '%s': %s", r->path, strerror(errno));
		rc = -1;
	}
	free(line);
	fclose(in);
	if (scratch)
		fclose(scratch);
	qb_buf_dispose(&chunk);
	qb_buf_dispose(&prefix);
	if (!rc && has_twice(r->out))
		rc = 1;
	for (size_t k = 0; k < nsaid; k++)
		rc == 1 ? qb_diag_later_free(said[k]) : qb_diag_later_report(said[k]);
	free(said);
	return rc;
}

/* The whole file read as one libgettextpo catalogue: its diagnostics at
 * their places. */
static int po_read_whole(po_reader *r)
{
	char *text = NULL;
	size_t len = 0;
	if (qb_fs_read(r->path, &text, &len) != 0) {
		qb_diag_fatal("cannot read '%s': %s", r->path, strerror(errno));
		return -1;
	}
	qb_diag_mark mk = qb_diag_mark_now();
	po_file_t file = po_file_read(r->path, &handler);
	if (!file || qb_diag_errors_since(mk)) {
		if (file)
			po_free(file);
		free(text);
		return -1;
	}
	int rc = po_take(r, file, text, 0, false);
	po_free(file);
	return rc;
}

static void po_reader_reset(po_reader *r)
{
	if (r->cd != (iconv_t)-1)
		iconv_close(r->cd);
	free(r->charset);
	free(r->header);
	qb_tu_file_dispose(r->out);
	if (r->kept)
		qb_tu_kept_dispose(r->kept);
	qb_tu_file *out = r->out;
	qb_tu_kept *kept = r->kept;
	const char *path = r->path;
	*r = (po_reader){.path = path, .out = out, .kept = kept, .cd = (iconv_t)-1};
}

/* qb_po_read(), and with kept (else NULL) qb_po_read_kept(): every text
 * in UTF-8.  A chunk at a time (po_read_chunks()), else as one. */
static int po_read(const char *path, qb_tu_file *out, qb_tu_kept *kept)
{
	memset(out, 0, sizeof *out);
	if (kept)
		memset(kept, 0, sizeof *kept);
	po_reader r = {.path = path, .out = out, .kept = kept, .cd = (iconv_t)-1};
	qb_diag_mark mk = qb_diag_mark_now();
	int rc = po_read_chunks(&r);
	if (rc == 1) {
		po_reader_reset(&r);
		rc = po_read_whole(&r);
	}
	if (r.cd != (iconv_t)-1)
		iconv_close(r.cd);
	free(r.charset);
	free(r.header);
	if (kept && kept->n)
		qsort(kept->v, kept->n, sizeof *kept->v, cmp_comment);
	return rc || qb_diag_errors_since(mk) ? -1 : 0;
}

int qb_po_read(const char *path, qb_tu_file *out)
{
	return po_read(path, out, NULL);
}

int qb_po_read_kept(const char *path, qb_tu_file *units, qb_tu_kept *kept)
{
	return po_read(path, units, kept);
}

/* The default-language line of u's text, 0 when unknown. */
static int unit_line(const qb_tu *u, const qb_bank *bank)
{
	const qb_tr *tr = qb_text_tr(u->text, qb_bank_default_lang(bank));
	return tr ? (int)tr->line : 0;
}

void qb_tu_in_place(qb_tu_file *f, const qb_tu_list *units, const qb_bank *bank,
                    const char *path)
{
	const qb_tu_in **taken = qb_xcalloc(units->n + 1, sizeof *taken);
	for (size_t i = 0; i < f->n; i++) {
		qb_tu_in *in = &f->v[i];
		if (*in->key || !in->ref_line)
			continue;
		qb_loc at = {path, in->line, in->line ? 1 : 0};
		size_t hit = units->n, nsame = 0, same = units->n;
		for (size_t k = 0; k < units->n; k++) {
			if (strcmp(units->v[k].source, in->source) != 0)
				continue;
			nsame++;
			same = k;
			if (in->ref_line > 0 && unit_line(&units->v[k], bank) == in->ref_line)
				hit = k;
		}
		if (hit == units->n && nsame == 1)
			hit = same;
		if (hit == units->n) {
			if (nsame)
				qb_diag_warning(at, "skipped a message without msgctxt: %zu texts of the bank "
				                "have its msgid, and its '#:' line names none of them", nsame);
			else
				qb_diag_warning(at, "skipped a message without msgctxt: no text of the bank "
				                "has its msgid");
			continue;
		}
		if (taken[hit]) {
			qb_diag_error(at, "a second message for '%s'; the first is on line %d",
			              units->v[hit].key, taken[hit]->line);
			continue;
		}
		taken[hit] = in;
		free(in->key);
		in->key = qb_xstrdup(units->v[hit].key);
	}
	free(taken);
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
