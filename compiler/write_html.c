/* write_html.c - the quiz player as one offline HTML file.
 *
 * <bank-id>.html is the SCORM packages' player (templates/scorm/: its page,
 * style and script, and the data write_scorm.c writes as data.js) with
 * everything inlined, so that it works opened from a phone's file manager
 * or a message attachment, with no network and no LMS:
 *
 *   - each <link rel="stylesheet" href=X> and <script src=X> of the page
 *     becomes the file itself in a <style> or <script> element;
 *   - pictures and sounds are data: URLs (the media naming callback gives
 *     the URL as the name), KaTeX and its WOFF2 fonts too, only when the
 *     bank shows math;
 *   - templates/html/lms.js, before the player, is a small SCORM 1.2 API
 *     that keeps the player's saved state and the learner's language in
 *     localStorage, keyed by bank id and revision; a new revision starts
 *     from the previous one's state, and the player keeps exactly the
 *     answers whose question is unchanged (write_scorm.h: each question's
 *     fingerprint hashes its whole content);
 *   - templates/html/print.js and print.css, after the player, add the
 *     paper versions: a worksheet and an answer key, in one language or
 *     two side by side, in the bank's order or a shuffled numbered version;
 *   - the page's Content-Security-Policy allows no network at all: scripts
 *     by their SHA-256 only, pictures, sounds and fonts as data: URLs.
 *
 * Text from the bank is escaped where it goes, as in the SCORM package:
 * the data is JSON escaped for a <script> (escape.h); the player and print
 * scripts insert it as md4c's escaped HTML or as text. */
#include "write.h"

#include <errno.h>
#include <nettle/base64.h>
#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "hash.h"
#include "render.h"
#include "template.h"
#include "write_scorm.h"

/* The MIME type of a picture or sound from its extension. */
static const char *mime_of(const char *src)
{
	static const char *const types[][2] = {
		{"png", "image/png"},   {"jpg", "image/jpeg"},     {"jpeg", "image/jpeg"},
		{"gif", "image/gif"},   {"svg", "image/svg+xml"},  {"webp", "image/webp"},
		{"avif", "image/avif"}, {"mp3", "audio/mpeg"},     {"ogg", "audio/ogg"},
		{"oga", "audio/ogg"},   {"opus", "audio/ogg"},     {"wav", "audio/wav"},
		{"m4a", "audio/mp4"},   {"aac", "audio/aac"},      {"webm", "audio/webm"},
		{"flac", "audio/flac"}, {"woff2", "font/woff2"},
	};
	const char *dot = strrchr(src, '.');
	if (dot && !strchr(dot, '/'))
		for (size_t i = 0; i < QB_NELEM(types); i++)
			if (strcasecmp(dot + 1, types[i][0]) == 0)
				return types[i][1];
	return "application/octet-stream";
}

static void put_base64(qb_buf *out, const unsigned char *data, size_t len)
{
	size_t n = BASE64_ENCODE_RAW_LENGTH(len);
	qb_buf_reserve(out, n + 1);
	base64_encode_raw(out->ptr + out->len, len, data);
	out->len += n;
	out->ptr[out->len] = '\0';
}

/* render.h naming callback: the file itself, as a data: URL. */
static char *data_url(const char *src, const unsigned char *data, size_t len)
{
	qb_buf url = QB_BUF_INIT;
	qb_buf_appendf(&url, "data:%s;base64,", mime_of(src));
	put_base64(&url, data, len);
	return qb_buf_detach(&url);
}

/* The labels print.js reads besides the player's. */
static const char *const print_labels[] = {
	"print", "printTitle", "printWhat", "worksheet", "answerKey", "bothLanguages",
	"printVersion", "printVersionNone", "printVersionChanges", "printChangeQuestions",
	"printChangeDraw", "printChangeOptions", "printChangeMatching",
	"printChangeNumbers", "printNow", "backToQuiz",
	"nameLine", NULL,
};

/* ---- inlining ---- */

typedef struct page {
	const qb_render_ctx *r;
	FILE *data;           /* window.QB_DATA = ..., in a scratch file     */
	const char *bank_id;  /* for messages                                */
	qb_katex_set katex;   /* with math                                   */
	qb_buf csp;           /* script hashes for the policy                */
} page;

/* Where the bank's data goes in the page: it is most of the file (several
 * times the bank's size), so it waits in a scratch file, p->data, and is
 * copied into the page where this mark is, never held in memory. */
static const char data_mark[] = "\x01qbc-data\x01";
/* How much of it is read at a time. */
#define SCRIPT_PIECE ((size_t)1 << 20)

static void put_buf(void *payload, const char *s, size_t n)
{
	qb_buf_append(payload, s, n);
}

static void put_hash(void *payload, const char *s, size_t n)
{
	sha256_update(payload, n, (const uint8_t *)s);
}

static void put_file(void *payload, const char *s, size_t n)
{
	fwrite(s, 1, n, payload);
}

/* Adds the hash of a script's text to the policy. */
static void policy_hash(page *p, struct sha256_ctx *sha)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_digest(sha, sizeof digest, digest);
	qb_buf_puts(&p->csp, " 'sha256-");
	put_base64(&p->csp, digest, sizeof digest);
	qb_buf_putc(&p->csp, '\'');
}

/* Appends a <script> element holding js, and its hash to the policy. */
static void put_script(page *p, qb_buf *out, const char *js, size_t len)
{
	struct sha256_ctx sha;
	sha256_init(&sha);
	qb_escape_script_text(js, len, put_hash, &sha);
	policy_hash(p, &sha);
	qb_buf_puts(out, "<script>");
	qb_escape_script_text(js, len, put_buf, out);
	qb_buf_puts(out, "</script>");
}

/* The bank's data script: hashed now, its text left to write_part(). */
static int put_data_script(page *p, qb_buf *out)
{
	struct sha256_ctx sha;
	sha256_init(&sha);
	if (qb_escape_script_file(p->data, SCRIPT_PIECE, put_hash, &sha) != 0) {
		qb_diag_fatal("cannot read a scratch file for bank '%s': %s", p->bank_id,
		              strerror(errno));
		return -1;
	}
	policy_hash(p, &sha);
	qb_buf_puts(out, "<script>");
	qb_buf_puts(out, data_mark);
	qb_buf_puts(out, "</script>");
	return 0;
}

/* Writes part of the page to f, the bank's data where its mark is.
 * Returns 0, or -1 after reporting that the data could not be read. */
static int write_part(FILE *f, const qb_buf *part, const page *p)
{
	const char *s = qb_buf_cstr(part);
	const char *mark = strstr(s, data_mark);
	if (!mark) {
		fwrite(s, 1, part->len, f);
		return 0;
	}
	fwrite(s, 1, (size_t)(mark - s), f);
	if (qb_escape_script_file(p->data, SCRIPT_PIECE, put_file, f) != 0) {
		qb_diag_fatal("cannot read a scratch file for bank '%s': %s", p->bank_id,
		              strerror(errno));
		return -1;
	}
	fputs(mark + strlen(data_mark), f);
	return 0;
}

/* Appends css in a <style> element ("</style" cannot end it early: "\/"
 * is "/" in CSS). */
static void put_style(qb_buf *out, const char *css)
{
	qb_buf_puts(out, "<style>");
	for (const char *s = css; *s; s++) {
		qb_buf_putc(out, *s);
		if (*s == '<' && strncasecmp(s, "</style", 7) == 0)
			qb_buf_putc(out, '\\');
	}
	qb_buf_puts(out, "</style>\n");
}

/* A template file as a heap string, or NULL after reporting. */
static char *load(const page *p, const char *rel, size_t *len)
{
	return qb_template_load(p->r->templates_dir, rel, len);
}

/* Reads the i-th KaTeX file into *a.  Returns 0, or -1 after reporting. */
static int read_katex(const page *p, size_t i, char **a, size_t *len)
{
	if (qb_fs_read(p->katex.paths[i], a, len) == 0)
		return 0;
	qb_diag_fatal("cannot read %s: %s", p->katex.paths[i], strerror(errno));
	return -1;
}

/* KaTeX's style sheet with each font's WOFF2 as a data: URL and the
 * WOFF and TrueType alternatives dropped (every browser that runs the
 * player reads WOFF2).  Returns 0, or -1 after reporting. */
static int katex_css(page *p, qb_buf *out, const char *css)
{
	for (const char *s = css;;) {
		const char *u = strstr(s, "url(");
		if (!u) {
			qb_buf_puts(out, s);
			return 0;
		}
		const char *end = strchr(u, ')');
		if (!end) {
			qb_buf_puts(out, s);
			return 0;
		}
		qb_buf_append(out, s, (size_t)(u - s));
		const char *n0 = u + 4, *n1 = end;
		if (n1 - n0 >= 2 && (*n0 == '"' || *n0 == '\'') && n1[-1] == *n0)
			n0++, n1--; /* url("...") */
		char *name = qb_xstrndup(n0, (size_t)(n1 - n0));
		size_t nl = strlen(name);
		s = end + 1;
		if (nl > 6 && strcmp(name + nl - 6, ".woff2") == 0) {
			char *member = qb_xasprintf("katex/%s", name), *font = NULL;
			size_t flen = 0;
			int rc = -1;
			for (size_t i = 0; i < p->katex.n; i++)
				if (strcmp(p->katex.members[i], member) == 0) {
					rc = read_katex(p, i, &font, &flen);
					break;
				}
			if (rc == 0) {
				qb_buf_puts(out, "url(data:font/woff2;base64,");
				put_base64(out, (const unsigned char *)font, flen);
				qb_buf_putc(out, ')');
			} else if (!font) {
				qb_diag_fatal("KaTeX's style sheet names %s, which is not among its fonts",
				              name);
			}
			free(font);
			free(member);
			free(name);
			if (rc != 0)
				return -1;
		} else {
			/* another format: drop it, its "format(...)" and the comma before */
			free(name);
			if (out->len && out->ptr[out->len - 1] == ',')
				out->ptr[--out->len] = '\0';
			while (*s == ' ')
				s++;
			if (strncmp(s, "format(", 7) == 0 && strchr(s, ')'))
				s = strchr(s, ')') + 1;
		}
	}
}

/* Appends what the page names as name (an href or src), inline.  Returns
 * 0, or -1 after reporting. */
static int inline_file(page *p, qb_buf *out, const char *name)
{
	int rc = -1;
	size_t len = 0;
	char *a = NULL, *b = NULL;
	if (strcmp(name, "player.css") == 0) {
		if (!(a = load(p, "scorm/player.css", NULL)) || !(b = load(p, "html/print.css", NULL)))
			goto done;
		put_style(out, a);
		put_style(out, b);
	} else if (strcmp(name, "data.js") == 0) {
		if (put_data_script(p, out) != 0)
			goto done;
		char *cfg = qb_xasprintf("window.QB_LOCAL = {\"revision\": %u, \"version\": %lu};\n",
		                         p->r->revision, p->r->seed);
		put_script(p, out, cfg, strlen(cfg));
		free(cfg);
		if (!(a = load(p, "html/lms.js", &len)))
			goto done;
		put_script(p, out, a, len);
	} else if (strcmp(name, "player.js") == 0) {
		if (!(a = load(p, "scorm/player.js", &len)))
			goto done;
		put_script(p, out, a, len);
		free(a);
		if (!(a = load(p, "html/print.js", &len)))
			goto done;
		put_script(p, out, a, len);
	} else if (strcmp(name, "katex/katex.min.js") == 0 && p->katex.n) {
		if (read_katex(p, 0, &a, &len) != 0)
			goto done;
		put_script(p, out, a, len);
	} else if (strcmp(name, "katex/katex.min.css") == 0 && p->katex.n > 1) {
		if (read_katex(p, 1, &a, &len) != 0)
			goto done;
		qb_buf css = QB_BUF_INIT;
		int cr = katex_css(p, &css, a);
		if (cr == 0)
			put_style(out, qb_buf_cstr(&css));
		qb_buf_dispose(&css);
		if (cr != 0)
			goto done;
	} else {
		qb_diag_fatal("templates/scorm/index.html names '%s', which the HTML file cannot inline",
		              name);
		goto done;
	}
	rc = 0;
done:
	free(a);
	free(b);
	return rc;
}

/* Appends html with every <link rel="stylesheet" href="X"> and <script
 * src="X"></script> replaced by X inline.  Returns 0, or -1 after
 * reporting. */
static int inline_page(page *p, qb_buf *out, const char *html)
{
	static const struct {
		const char *open, *close;
	} refs[] = {
		{"<link rel=\"stylesheet\" href=\"", "\">"},
		{"<script src=\"", "\"></script>"},
	};
	for (const char *s = html;;) {
		const char *at = NULL;
		size_t k = 0;
		for (size_t i = 0; i < QB_NELEM(refs); i++) {
			const char *f = strstr(s, refs[i].open);
			if (f && (!at || f < at))
				at = f, k = i;
		}
		if (!at) {
			qb_buf_puts(out, s);
			return 0;
		}
		qb_buf_append(out, s, (size_t)(at - s));
		const char *name = at + strlen(refs[k].open);
		const char *end = strstr(name, refs[k].close);
		if (!end) {
			qb_diag_fatal("templates/scorm/index.html: an unclosed '%s'", refs[k].open);
			return -1;
		}
		char *n = qb_xstrndup(name, (size_t)(end - name));
		int rc = inline_file(p, out, n);
		free(n);
		if (rc != 0)
			return -1;
		s = end + strlen(refs[k].close);
	}
}

/* An unlinked scratch file on the output's file system (fsutil.h), or
 * NULL with errno set. */
static FILE *scratch_next_to(const char *path)
{
	int fd = qb_fs_scratch(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

int qb_write_html(const qb_render_ctx *r, const qb_bank *bank)
{
	static const char csp_at[] = "http-equiv=\"Content-Security-Policy\" content=\"";
	int rc = -1;
	bool math = false;
	page p = {r, scratch_next_to(r->path), bank->id, {0}, QB_BUF_INIT};
	qb_buf tmpl = QB_BUF_INIT, head = QB_BUF_INIT, tail = QB_BUF_INIT;
	qb_fs_atomic out = {NULL, NULL, NULL};
	if (!p.data) {
		qb_diag_fatal("cannot write a scratch file for bank '%s': %s", bank->id, strerror(errno));
		goto done;
	}
	if (qb_scorm_player_data(r, bank, data_url, print_labels, p.data, &math) != 0 ||
	    (math && qb_scorm_katex(&p.katex) != 0) ||
	    qb_scorm_index_html(&tmpl, r, bank, math) != 0)
		goto done;
	/* The policy goes where the page's is, and lists the hashes of the
	 * scripts that come after it. */
	const char *page_text = qb_buf_cstr(&tmpl);
	const char *csp = strstr(page_text, csp_at);
	const char *csp_end = csp ? strchr(csp + strlen(csp_at), '"') : NULL;
	if (!csp_end) {
		qb_diag_fatal("templates/scorm/index.html has no Content-Security-Policy to replace");
		goto done;
	}
	char *before = qb_xstrndup(page_text, (size_t)(csp - page_text) + strlen(csp_at));
	int ir = inline_page(&p, &head, before);
	free(before);
	if (ir != 0 || inline_page(&p, &tail, csp_end) != 0)
		goto done;
	qb_buf_dispose(&tmpl);
	/* Written in its three pieces, not joined in memory first. */
	if (qb_fs_atomic_open(&out, r->path) != 0) {
		qb_diag_fatal("cannot write %s: %s", r->path, strerror(errno));
		goto done;
	}
	if (write_part(out.f, &head, &p) != 0)
		goto done;
	fputs("default-src 'none'; script-src", out.f);
	fwrite(qb_buf_cstr(&p.csp), 1, p.csp.len, out.f);
	fputs("; style-src 'unsafe-inline'; img-src data:; media-src data:; "
	      "font-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'",
	      out.f);
	if (write_part(out.f, &tail, &p) != 0)
		goto done;
	rc = qb_fs_atomic_commit(&out);
	if (rc != 0)
		qb_diag_fatal("cannot write %s: %s", r->path, strerror(errno));
done:
	qb_fs_atomic_discard(&out);
	if (math)
		qb_scorm_katex_dispose(&p.katex);
	if (p.data)
		fclose(p.data);
	qb_buf_dispose(&p.csp);
	qb_buf_dispose(&tmpl);
	qb_buf_dispose(&head);
	qb_buf_dispose(&tail);
	return rc;
}

void qb_check_html(const qb_render_ctx *r, const qb_bank *bank)
{
	qb_scorm_check_player(r, bank);
}
