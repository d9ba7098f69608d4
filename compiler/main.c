/* main.c - the qbc command line: a command table and per-command option
 * tables that drive both parsing and --help (libgit2's src/cli). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "read.h"
#include "template.h"
#include "validate.h"
#include "write.h"
#include "write_json.h"

typedef struct option_spec {
	int id;            /* short letter, or a value > 255 for long-only   */
	const char *name;  /* long name                                      */
	const char *arg;   /* argument name for --help, NULL for a flag      */
	const char *help;
} option_spec;

enum { OPT_WERROR = 256, OPT_JSON, OPT_FORMAT, OPT_LANG, OPT_HELP, OPT_COLOR };

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
	{OPT_HELP, "help", NULL, "show this help"},
	{0, NULL, NULL, NULL},
};

typedef struct args {
	const char *outdir;
	const char *formats;
	const char *langs;
	bool werror;
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

static const command commands[] = {
	{"check", "qbc check [--werror] BANK...", "read and check banks; write nothing",
	 check_opts, cmd_check, 1, 0},
	{"dump", "qbc dump --json [--lang LANGS] BANK", "print a bank's model as JSON", dump_opts,
	 cmd_dump, 1, 1},
	{"build", "qbc build [-o DIR] [--format LIST] [--lang LANGS] BANK...",
	 "check banks and write their packages", build_opts, cmd_build, 1, 0},
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
		printf("  %-58s %s\n", c->usage, c->desc);
	printf("  %-58s %s\n", "qbc COMMAND --help", "help on one command");
	printf("  %-58s %s\n", "qbc --version", "print the version");
	printf("\nExit status: 0 ok, 1 the bank has errors, 2 usage, 3 I/O or library failure.\n"
	       "The bank format is documented in input/README.md.\n");
}

static void command_help(const command *c)
{
	printf("Usage: %s\n\n%s.\n\nOptions:\n", c->usage, c->desc);
	print_options(c->opts);
	if (c->run == cmd_build) {
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

static int cmd_check(const args *a)
{
	int rc = QB_EXIT_OK;
	for (int i = 0; i < a->nbanks; i++) {
		bool errors = false;
		qb_bank *bank = load(a->banks[i], &errors);
		if (!bank)
			rc = worst(rc, QB_EXIT_IO);
		else if (errors)
			rc = worst(rc, QB_EXIT_ERRORS);
		qb_bank_free(bank);
	}
	return rc;
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

static time_t bank_epoch(const char *path)
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
	struct stat st;
	return stat(path, &st) == 0 ? st.st_mtime : 0;
}

static int cmd_build(const args *a)
{
	/* The writers to run. */
	const qb_writer *sel[32];
	size_t nsel = 0;
	if (a->formats) {
		size_t n;
		char **names = split_list(a->formats, &n);
		int rc = 0;
		for (size_t i = 0; i < n; i++) {
			const qb_writer *w = qb_writer_find(names[i]);
			if (!w)
				rc = usage_error("build", "unknown format '%s'", names[i]);
			else if (nsel < QB_NELEM(sel)) {
				bool dup = false;
				for (size_t k = 0; k < nsel; k++)
					dup |= sel[k] == w;
				if (!dup)
					sel[nsel++] = w;
			}
		}
		free_list(names);
		if (rc)
			return rc;
		if (!nsel)
			return usage_error("build", "--format: no format given");
	} else {
		for (const qb_writer *w = qb_writers; w->name && nsel < QB_NELEM(sel); w++)
			if (w->by_default)
				sel[nsel++] = w;
	}
	const char *outdir = a->outdir ? a->outdir : "output";
	char *tdir = qb_template_dir(argv0);
	int rc = QB_EXIT_OK;
	if (qb_fs_mkdirs(outdir) != 0) {
		qb_diag_fatal("cannot create output folder '%s': %s", outdir, strerror(errno));
		free(tdir);
		return QB_EXIT_IO;
	}
	for (int i = 0; i < a->nbanks; i++) {
		bool errors = false;
		qb_bank *bank = load(a->banks[i], &errors);
		if (!bank) {
			rc = worst(rc, QB_EXIT_IO);
			continue;
		}
		if (errors) {
			rc = worst(rc, QB_EXIT_ERRORS);
			qb_bank_free(bank);
			continue;
		}
		const char **langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
		qb_build_opts opts = {outdir, langs, 0, bank_epoch(a->banks[i]), tdir};
		int lrc = select_langs(bank, a->langs, langs, &opts.nlangs);
		if (lrc)
			rc = worst(rc, lrc);
		else
			for (size_t k = 0; k < nsel; k++) {
				int wrc = sel[k]->write(bank, &opts);
				if (wrc == QB_EXIT_OK) {
					char *path = qb_writer_output_path(sel[k], bank, &opts);
					printf("wrote %s\n", path);
					free(path);
				}
				rc = worst(rc, wrc);
			}
		free(langs);
		qb_bank_free(bank);
	}
	free(tdir);
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
