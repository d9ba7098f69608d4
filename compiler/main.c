/* main.c - the qbc command line: a command table and per-command option
 * tables that drive both parsing and --help (libgit2's src/cli). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "read.h"
#include "revision.h"
#include "template.h"
#include "validate.h"
#include "render.h"
#include "write.h"
#include "write_json.h"

typedef struct option_spec {
	int id;            /* short letter, or a value > 255 for long-only   */
	const char *name;  /* long name                                      */
	const char *arg;   /* argument name for --help, NULL for a flag      */
	const char *help;
} option_spec;

enum { OPT_WERROR = 256, OPT_JSON, OPT_FORMAT, OPT_LANG, OPT_HELP, OPT_DRY_RUN, OPT_QUESTION };

static const option_spec check_opts[] = {
	{OPT_WERROR, "werror", NULL, "treat warnings as errors"},
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

static const option_spec dump_opts[] = {
	{OPT_JSON, "json", NULL, "print the model as JSON (the only format, and the default)"},
	{OPT_LANG, "lang", "LANGS", "only these languages, e.g. en,sw"},
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

static const option_spec build_opts[] = {
	{'o', "output", "DIR", "write the packages into DIR (default: output)"},
	{OPT_FORMAT, "format", "LIST", "formats to write, e.g. anki,scorm12 (see below)"},
	{OPT_LANG, "lang", "LANGS", "only these languages, e.g. en,sw (default: all)"},
	{OPT_WERROR, "werror", NULL, "treat warnings as errors"},
	{OPT_DRY_RUN, "dry-run", NULL, "print the change report; write nothing"},
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

static const option_spec review_opts[] = {
	{OPT_QUESTION, "question", "ID", "only this question (may be repeated)"},
	{OPT_LANG, "lang", "LANG", "only the texts in this language"},
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

static const option_spec watch_opts[] = {
	{'o', "output", "DIR", "write the packages into DIR (default: output)"},
	{OPT_FORMAT, "format", "LIST", "formats to write (as for build)"},
	{OPT_LANG, "lang", "LANGS", "only these languages"},
	{OPT_WERROR, "werror", NULL, "treat warnings as errors"},
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

typedef struct args {
	const char *outdir;
	const char *formats;
	const char *langs;
	bool werror;
	bool dry_run;
	const char *questions[64]; /* --question, for review */
	size_t nquestions;
	char **banks;
	int nbanks;
} args;

typedef int (*cmd_fn)(const args *a);

typedef struct command {
	const char *name;
	const char *usage;
	const char *desc;
	const option_spec *opts;
	cmd_fn run;
	int min_banks, max_banks; /* max 0: no limit */
} command;

static int cmd_check(const args *a);
static int cmd_dump(const args *a);
static int cmd_build(const args *a);
static int cmd_review(const args *a);
static int cmd_watch(const args *a);

static const command commands[] = {
	{"check", "qbc check [--werror] BANK...", "read and check banks; write nothing",
	 check_opts, cmd_check, 1, 0},
	{"dump", "qbc dump --json [--lang LANGS] BANK", "print a bank's model as JSON", dump_opts,
	 cmd_dump, 1, 1},
	{"build", "qbc build [-o DIR] [--format LIST] [--lang LANGS] [--dry-run] BANK...",
	 "check banks, write their packages and update their revision records", build_opts,
	 cmd_build, 1, 0},
	{"review", "qbc review [--question ID]... [--lang LANG] BANK...",
	 "mark translations as reviewed, which clears 'may be stale' warnings", review_opts,
	 cmd_review, 1, 0},
	{"watch", "qbc watch [-o DIR] [--format LIST] [--lang LANGS] BANK...",
	 "build, then rebuild each bank whenever it is saved", watch_opts, cmd_watch, 1, 0},
	{NULL, NULL, NULL, NULL, NULL, 0, 0},
};

static const char *argv0 = "qbc";

/* ---- help and usage ---- */

static void print_options(const option_spec *o)
{
	for (; o->name; o++) {
		qb_buf b = QB_BUF_INIT;
		if (o->id < 256)
			qb_buf_appendf(&b, "-%c, ", o->id);
		else
			qb_buf_puts(&b, "    ");
		qb_buf_appendf(&b, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		printf("  %-24s %s\n", qb_buf_cstr(&b), o->help);
		qb_buf_dispose(&b);
	}
}

static void main_help(void)
{
	printf("qbc %s - the question bank compiler\n\n", QB_VERSION);
	printf("Compiles bilingual question banks (input/*.qb) into Anki deck packages and\n"
	       "SCORM packages for Moodle.\n\nUsage:\n");
	for (const command *c = commands; c->name; c++)
		printf("  %s\n      %s\n", c->usage, c->desc);
	printf("  qbc COMMAND --help\n      help on one command\n");
	printf("  qbc --version\n      print the version\n");
	printf("\nExit status: 0 ok, 1 the bank has errors, 2 usage, 3 I/O or library failure.\n"
	       "The bank format is documented in input/README.md.\n");
}

static void command_help(const command *c)
{
	printf("Usage: %s\n\n%s.\n\nOptions:\n", c->usage, c->desc);
	print_options(c->opts);
	if (c->run == cmd_build || c->run == cmd_watch) {
		printf("\nFormats (default: the ones marked *):\n");
		for (const qb_writer *w = qb_writers; w->name; w++)
			printf("  %c %-12s %s, written as DIR/<bank-id>%s\n", w->by_default ? '*' : ' ',
			       w->name, w->desc, w->ext);
	}
}

static int usage_error(const char *cmd, const char *fmt, ...) QB_PRINTF(2, 3);
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("qbc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "qbc: try 'qbc %s --help'\n", cmd);
	else
		fputs("qbc: try 'qbc --help'\n", stderr);
	return QB_EXIT_USAGE;
}

/* ---- loading ---- */

/* Reads and checks one bank.  Returns NULL on I/O failure; *errors is set
 * when the bank has errors (it is returned all the same). */
static qb_bank *load(const char *path, bool *errors)
{
	unsigned before = qb_diag_errors();
	qb_bank *bank = qb_read(path);
	if (!bank)
		return NULL;
	qb_validate(bank);
	*errors = qb_diag_errors() > before;
	return bank;
}

static int worst(int a, int b)
{
	return a > b ? a : b;
}

/* Splits a comma list into a NULL-terminated heap array of heap strings. */
static char **split_list(const char *s, size_t *n)
{
	char **v = qb_xcalloc(strlen(s) + 2, sizeof *v);
	size_t k = 0;
	const char *p = s;
	while (*p) {
		size_t len = strcspn(p, ", ");
		if (len)
			v[k++] = qb_xstrndup(p, len);
		p += len;
		p += strspn(p, ", ");
	}
	*n = k;
	return v;
}

static void free_list(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

/* Fills opts->langs: the bank's languages, or those of --lang (checked
 * against the bank).  Returns 0, or QB_EXIT_USAGE after a message. */
static int select_langs(const qb_bank *bank, const char *list, const char **out, size_t *n)
{
	if (!list) {
		for (size_t i = 0; i < bank->nlangs; i++)
			out[i] = bank->langs[i].code;
		*n = bank->nlangs;
		return 0;
	}
	size_t nreq;
	char **req = split_list(list, &nreq);
	int rc = 0;
	for (size_t i = 0; i < nreq; i++)
		if (!qb_bank_has_lang(bank, req[i])) {
			usage_error(NULL, "--lang: bank '%s' has no language '%s'", bank->id, req[i]);
			rc = QB_EXIT_USAGE;
		}
	*n = 0;
	/* Keep the bank's order, whatever the order on the command line. */
	for (size_t i = 0; i < bank->nlangs && !rc; i++)
		for (size_t k = 0; k < nreq; k++)
			if (strcmp(req[k], bank->langs[i].code) == 0) {
				out[(*n)++] = bank->langs[i].code;
				break;
			}
	if (!rc && !*n)
		rc = usage_error(NULL, "--lang: no language given");
	free_list(req);
	return rc;
}

/* ---- commands ---- */

/* Reads the bank's revision record (an empty one when there is none).
 * Returns NULL after a diagnostic; *rc says why. */
static qb_revisions *load_record(const qb_bank *bank, char **path, int *rc)
{
	bool io;
	*path = qb_rev_path(bank->path);
	qb_revisions *rev = qb_rev_load(*path, &io);
	if (!rev)
		*rc = worst(*rc, io ? QB_EXIT_IO : QB_EXIT_ERRORS);
	return rev;
}

/* What check and review do with one error-free bank and its record;
 * returns an exit code. */
typedef int (*bank_fn)(const args *a, const qb_bank *bank, qb_revisions *rev, const char *rpath);

/* Reads and checks each bank, reads its record, and calls fn on the
 * banks without errors.  Returns the worst exit code. */
static int each_bank(const args *a, bank_fn fn)
{
	int rc = QB_EXIT_OK;
	for (int i = 0; i < a->nbanks; i++) {
		bool errors = false;
		qb_bank *bank = load(a->banks[i], &errors);
		if (!bank) {
			rc = worst(rc, QB_EXIT_IO);
			continue;
		}
		char *rpath = NULL;
		qb_revisions *rev = NULL;
		if (errors)
			rc = worst(rc, QB_EXIT_ERRORS);
		else if ((rev = load_record(bank, &rpath, &rc)) != NULL)
			rc = worst(rc, fn(a, bank, rev, rpath));
		qb_rev_free(rev);
		free(rpath);
		qb_bank_free(bank);
	}
	return rc;
}

/* check only reads the record: stale translations. */
static int check_bank(const args *a, const qb_bank *bank, qb_revisions *rev, const char *rpath)
{
	QB_UNUSED(a);
	QB_UNUSED(rpath);
	unsigned before = qb_diag_errors();
	qb_rev_check_stale(rev, bank);
	return qb_diag_errors() > before ? QB_EXIT_ERRORS : QB_EXIT_OK; /* --werror */
}

static int cmd_check(const args *a)
{
	return each_bank(a, check_bank);
}

static int cmd_dump(const args *a)
{
	bool errors = false;
	qb_bank *bank = load(a->banks[0], &errors);
	if (!bank)
		return QB_EXIT_IO;
	if (errors) {
		qb_bank_free(bank);
		return QB_EXIT_ERRORS;
	}
	const char **langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
	qb_build_opts opts = {0};
	int rc = select_langs(bank, a->langs, langs, &opts.nlangs);
	if (!rc) {
		opts.langs = langs;
		char *s = qb_json_dump(bank, &opts);
		puts(s);
		free(s);
	}
	free(langs);
	qb_bank_free(bank);
	return rc;
}

/* The time given to new revisions: SOURCE_DATE_EPOCH, else the clock. */
static time_t revision_now(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		errno = 0;
		long long v = strtoll(sde, &end, 10);
		if (!*end && !errno && v >= 0)
			return (time_t)v;
		qb_diag_warning((qb_loc){0}, "SOURCE_DATE_EPOCH='%s' is not a number of seconds; "
		                             "ignored", sde);
	}
	return time(NULL);
}

/* The writers selected by --format (or the default ones). */
static int select_writers(const args *a, const qb_writer **sel, size_t max, size_t *nsel)
{
	*nsel = 0;
	if (!a->formats) {
		for (const qb_writer *w = qb_writers; w->name && *nsel < max; w++)
			if (w->by_default)
				sel[(*nsel)++] = w;
		return 0;
	}
	size_t n;
	char **names = split_list(a->formats, &n);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		const qb_writer *w = qb_writer_find(names[i]);
		if (!w)
			rc = usage_error("build", "unknown format '%s'", names[i]);
		else if (*nsel < max) {
			bool dup = false;
			for (size_t k = 0; k < *nsel; k++)
				dup |= sel[k] == w;
			if (!dup)
				sel[(*nsel)++] = w;
		}
	}
	free_list(names);
	if (!rc && !*nsel)
		rc = usage_error("build", "--format: no format given");
	return rc;
}

/* Builds one bank: check, lock, update the revision record in memory,
 * report, write every output, then save the record. */
static int build_bank(const args *a, const char *path, const qb_writer *const *sel, size_t nsel,
                      const char *outdir, const char *tdir)
{
	bool errors = false;
	qb_bank *bank = load(path, &errors);
	if (!bank)
		return QB_EXIT_IO;
	if (errors) {
		qb_bank_free(bank);
		return QB_EXIT_ERRORS;
	}
	int rc = QB_EXIT_OK;
	/* Builds of the same bank take turns: the record is read, updated
	 * and written under an exclusive lock on the bank file. */
	int lockfd = open(path, O_RDONLY | O_CLOEXEC);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) != 0) {
		qb_diag_fatal("cannot lock '%s': %s", path, strerror(errno));
		if (lockfd >= 0)
			close(lockfd);
		qb_bank_free(bank);
		return QB_EXIT_IO;
	}
	char *rpath = NULL;
	const char **langs = NULL;
	qb_rev_report report = {0};
	unsigned before = qb_diag_errors();
	qb_revisions *rev = load_record(bank, &rpath, &rc);
	if (!rev)
		goto done;
	qb_rev_check_stale(rev, bank);
	qb_render_check_labels(bank, tdir); /* once per bank, not per writer */
	if (qb_diag_errors() > before) { /* stale translations under --werror */
		rc = QB_EXIT_ERRORS;
		goto done;
	}
	bool changed = qb_rev_update(rev, bank, tdir, revision_now(), &report);
	qb_rev_report_print(&report, bank->id, a->dry_run);
	if (a->dry_run)
		goto done;
	langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
	qb_build_opts opts = {outdir, langs, 0, qb_rev_latest(rev), tdir, rev};
	rc = select_langs(bank, a->langs, langs, &opts.nlangs);
	/* Every format is attempted, so one run reports every problem; a
	 * format that fails leaves its earlier output in place. */
	for (size_t k = 0; k < nsel && rc != QB_EXIT_USAGE; k++) {
		int ws = qb_render_write(sel[k], bank, &opts);
		int wrc = ws == QB_WRITE_OK ? QB_EXIT_OK
		          : ws == QB_WRITE_EBANK ? QB_EXIT_ERRORS : QB_EXIT_IO;
		if (wrc == QB_EXIT_OK) {
			char *out = qb_writer_output_path(sel[k], bank, &opts);
			printf("  wrote %s\n", out);
			free(out);
		}
		rc = worst(rc, wrc);
	}
	/* The record is saved only after every output was written, so a
	 * failed build leaves both as they were. */
	if (!rc && changed && qb_rev_save(rev, rpath, bank->path) != 0)
		rc = QB_EXIT_IO;
done:
	qb_rev_report_dispose(&report);
	qb_rev_free(rev);
	free(rpath);
	free(langs);
	close(lockfd); /* releases the lock */
	qb_bank_free(bank);
	return rc;
}

static int cmd_build(const args *a)
{
	const qb_writer *sel[32];
	size_t nsel;
	int rc = select_writers(a, sel, QB_NELEM(sel), &nsel);
	if (rc)
		return rc;
	const char *outdir = a->outdir ? a->outdir : "output";
	if (!a->dry_run && qb_fs_mkdirs(outdir) != 0) {
		qb_diag_fatal("cannot create output folder '%s': %s", outdir, strerror(errno));
		return QB_EXIT_IO;
	}
	char *tdir = qb_template_dir(argv0);
	for (int i = 0; i < a->nbanks; i++)
		rc = worst(rc, build_bank(a, a->banks[i], sel, nsel, outdir, tdir));
	free(tdir);
	return rc;
}

static int review_bank(const args *a, const qb_bank *bank, qb_revisions *rev, const char *rpath)
{
	if (qb_rev_number(rev) == 0) {
		qb_diag_fatal("%s has no revision record yet; run 'qbc build' first", bank->path);
		return QB_EXIT_ERRORS;
	}
	size_t n = qb_rev_review(rev, bank, a->questions, a->nquestions, a->langs);
	printf("%s: %zu translation%s marked as reviewed\n", bank->id, n, n == 1 ? "" : "s");
	return n && qb_rev_save(rev, rpath, bank->path) != 0 ? QB_EXIT_IO : QB_EXIT_OK;
}

static int cmd_review(const args *a)
{
	return each_bank(a, review_bank);
}

/* Marks the banks named by the inotify events in ev[0..n). */
static void mark_dirty(const args *a, const int *wd, const char *ev, ssize_t n, bool *dirty)
{
	for (const char *p = ev; p < ev + n;) {
		const struct inotify_event *e = (const struct inotify_event *)(const void *)p;
		for (int i = 0; i < a->nbanks; i++) {
			const char *base = strrchr(a->banks[i], '/');
			base = base ? base + 1 : a->banks[i];
			if (e->wd == wd[i] && e->len && strcmp(e->name, base) == 0)
				dirty[i] = true;
		}
		p += sizeof *e + e->len;
	}
}

/* Rebuilds each bank when it is saved.  Editors save in place (close
 * after write) or by renaming a new file over the old one, so the
 * folders are watched, not the files. */
static int cmd_watch(const args *a)
{
	const qb_writer *sel[32];
	size_t nsel;
	int rc = select_writers(a, sel, QB_NELEM(sel), &nsel);
	if (rc)
		return rc;
	const char *outdir = a->outdir ? a->outdir : "output";
	if (qb_fs_mkdirs(outdir) != 0) {
		qb_diag_fatal("cannot create output folder '%s': %s", outdir, strerror(errno));
		return QB_EXIT_IO;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	int fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0) {
		qb_diag_fatal("cannot watch files: %s", strerror(errno));
		return QB_EXIT_IO;
	}
	int *wd = qb_xcalloc((size_t)a->nbanks, sizeof *wd);
	char *tdir = qb_template_dir(argv0);
	for (int i = 0; i < a->nbanks; i++) {
		char *dir = qb_xstrdup(a->banks[i]);
		char *slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		wd[i] = inotify_add_watch(fd, slash ? dir : ".",
		                          IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE);
		if (wd[i] < 0) {
			qb_diag_fatal("cannot watch '%s': %s", a->banks[i], strerror(errno));
			rc = QB_EXIT_IO;
		}
		free(dir);
	}
	for (int i = 0; i < a->nbanks && !rc; i++)
		build_bank(a, a->banks[i], sel, nsel, outdir, tdir);
	qb_diag_summary();
	if (!rc)
		printf("watching %d bank%s; press Ctrl-C to stop\n", a->nbanks,
		       a->nbanks == 1 ? "" : "s");
	_Alignas(struct inotify_event) char ev[sizeof(struct inotify_event) + 4096];
	while (!rc) {
		ssize_t n = read(fd, ev, sizeof ev);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			rc = QB_EXIT_IO;
			break;
		}
		bool *dirty = qb_xcalloc((size_t)a->nbanks, sizeof *dirty);
		mark_dirty(a, wd, ev, n, dirty);
		/* Let an editor finish writing (several events per save). */
		struct pollfd pfd = {fd, POLLIN, 0};
		while (poll(&pfd, 1, 150) > 0 && (n = read(fd, ev, sizeof ev)) > 0)
			mark_dirty(a, wd, ev, n, dirty);
		for (int i = 0; i < a->nbanks; i++)
			if (dirty[i]) {
				qb_diag_reset_counts();
				build_bank(a, a->banks[i], sel, nsel, outdir, tdir);
				qb_diag_summary();
			}
		free(dirty);
	}
	free(tdir);
	free(wd);
	close(fd);
	return rc;
}

/* ---- argument parsing ---- */

static int parse(const command *c, int argc, char **argv, args *a)
{
	struct option lopts[16];
	char shorts[64] = ":";
	size_t n = 0, sl = 1;
	for (const option_spec *o = c->opts; o->name && n < QB_NELEM(lopts) - 1; o++, n++) {
		lopts[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
		                           o->id};
		if (o->id < 256 && sl + 3 < sizeof shorts) {
			shorts[sl++] = (char)o->id;
			if (o->arg)
				shorts[sl++] = ':';
		}
	}
	lopts[n] = (struct option){NULL, 0, NULL, 0};
	shorts[sl] = '\0';
	opterr = 0;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		switch (ch) {
		case 'o': a->outdir = optarg; break;
		case OPT_FORMAT: a->formats = optarg; break;
		case OPT_LANG: a->langs = optarg; break;
		case OPT_WERROR: a->werror = true; break;
		case OPT_DRY_RUN: a->dry_run = true; break;
		case OPT_QUESTION:
			if (a->nquestions == QB_NELEM(a->questions))
				return usage_error(c->name, "too many --question options");
			a->questions[a->nquestions++] = optarg;
			break;
		case OPT_JSON: break;
		case OPT_HELP: command_help(c); return -1;
		case ':':
			return usage_error(c->name, "option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return usage_error(c->name, "unknown option '-%c'", optopt);
			if (optopt)
				return usage_error(c->name, "option '%s' needs an argument",
				                   argv[optind - 1]);
			return usage_error(c->name, "unknown option '%s'", argv[optind - 1]);
		}
	}
	a->banks = argv + optind;
	a->nbanks = argc - optind;
	if (a->nbanks < c->min_banks)
		return usage_error(c->name, "no bank given");
	if (c->max_banks && a->nbanks > c->max_banks)
		return usage_error(c->name, "'%s' takes one bank", c->name);
	return 0;
}

int main(int argc, char **argv)
{
	argv0 = argv[0];
	if (argc < 2)
		return usage_error(NULL, "no command given");
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
		main_help();
		return fclose(stdout) == 0 ? QB_EXIT_OK : QB_EXIT_IO;
	}
	if (strcmp(name, "--version") == 0) {
		printf("qbc %s\n", QB_VERSION);
		return fclose(stdout) == 0 ? QB_EXIT_OK : QB_EXIT_IO;
	}
	const command *c = commands;
	while (c->name && strcmp(c->name, name) != 0)
		c++;
	if (!c->name) {
		if (name[0] == '-')
			return usage_error(NULL, "unknown option '%s'", name);
		return usage_error(NULL, "unknown command '%s'", name);
	}
	args a = {0};
	int rc = parse(c, argc - 1, argv + 1, &a);
	if (rc < 0)
		return fclose(stdout) == 0 ? QB_EXIT_OK : QB_EXIT_IO;
	if (rc)
		return rc;
	qb_diag_set_werror(a.werror);
	rc = c->run(&a);
	qb_diag_summary();
	qb_diag_dispose();
	if (fclose(stdout) != 0) {
		fprintf(stderr, "qbc: error: cannot write to standard output: %s\n", strerror(errno));
		rc = worst(rc, QB_EXIT_IO);
	}
	return rc;
}
