/* main.c - the qbc command line: a command table and per-command option
 * tables that drive both parsing and --help (libgit2's src/cli). */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "i18n.h"
#include "write.h"

typedef struct option_spec {
	int id;            /* short letter, or a value > 255 for long-only   */
	const char *name;  /* long name                                      */
	const char *arg;   /* argument name for --help, NULL for a flag      */
	const char *help;
} option_spec;

enum {
	OPT_WERROR = 256, OPT_JSON, OPT_FORMAT, OPT_LANG, OPT_HELP, OPT_DRY_RUN, OPT_QUESTION,
	OPT_QUIET, OPT_MAX_ERRORS, OPT_PORT, OPT_HOST, OPT_FROM, OPT_BANK, OPT_SPLIT,
	OPT_REVIEWED, OPT_SEED
};

#define MAX_ERRORS_HELP N_("show at most N errors (default 50; 0: all)")

static const option_spec check_opts[] = {
	{OPT_FORMAT, "format", "LIST", N_("apply the rules of these formats (as for build)")},
	{OPT_WERROR, "werror", NULL, N_("treat warnings as errors")},
	{OPT_MAX_ERRORS, "max-errors", "N", MAX_ERRORS_HELP},
	{'q', "quiet", NULL, N_("print no line per bank checked")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec dump_opts[] = {
	{OPT_JSON, "json", NULL, N_("print the model as JSON (the only format, and the default)")},
	{OPT_LANG, "lang", "LANGS", N_("only these languages, e.g. en,sw")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec build_opts[] = {
	{'o', "output", "DIR", N_("write the packages into DIR (default: output)")},
	{OPT_FORMAT, "format", "LIST", N_("formats to write, e.g. anki,scorm12 (see below)")},
	{OPT_LANG, "lang", "LANGS", N_("only these languages, e.g. en,sw (default: all)")},
	{OPT_WERROR, "werror", NULL, N_("treat warnings as errors")},
	{OPT_MAX_ERRORS, "max-errors", "N", MAX_ERRORS_HELP},
	{OPT_DRY_RUN, "dry-run", NULL, N_("print the change report; write nothing")},
	{OPT_SEED, "seed", "N", N_("html: the printed version it opens with (0, the default: the bank's order)")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec review_opts[] = {
	{OPT_QUESTION, "question", "ID", N_("only this question (may be repeated)")},
	{OPT_LANG, "lang", "LANG", N_("only the texts in this language")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec watch_opts[] = {
	{'o', "output", "DIR", N_("write the packages into DIR (default: output)")},
	{OPT_FORMAT, "format", "LIST", N_("formats to write (as for build)")},
	{OPT_LANG, "lang", "LANGS", N_("only these languages")},
	{OPT_WERROR, "werror", NULL, N_("treat warnings as errors")},
	{OPT_MAX_ERRORS, "max-errors", "N", MAX_ERRORS_HELP},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec preview_opts[] = {
	{OPT_PORT, "port", "N", N_("serve on port N (default: 8000 or the next free one; 0: any)")},
	{OPT_HOST, "host", "H", N_("serve on address H (default: 127.0.0.1, this computer only)")},
	{OPT_LANG, "lang", "LANGS", N_("only these languages")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec import_opts[] = {
	{'o', "output", "OUT.qb", N_("write the new bank here (default: each FILE's name with .qb)")},
	{OPT_FROM, "from", "FORMAT", N_("moodlexml, gift, aiken or csv (default: from the content)")},
	{OPT_LANG, "lang", "LANG", N_("the language of text with no language of its own (default en)")},
	{OPT_BANK, "bank", "ID", N_("the new bank's id (default: from OUT.qb's name)")},
	{OPT_SPLIT, "split", NULL, N_("a bank per category (OUT-<category>.qb), not a tag")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

static const option_spec translate_opts[] = {
	{OPT_LANG, "lang", "LANG", N_("export: the language to translate into (import: from the file)")},
	{OPT_FORMAT, "format", "FORMAT", N_("po or xliff (default: po, or from FILE's .xlf name)")},
	{'o', "output", "FILE", N_("export: write here (default: BANK's name with .LANG.po or .xlf)")},
	{OPT_REVIEWED, "reviewed", NULL, N_("import: mark the translations reviewed, as 'qbc review'")},
	{OPT_HELP, "help", NULL, N_("show this help")},
	{0, NULL, NULL, NULL},
};

typedef struct args {
	const char *outdir;
	const char *formats;
	const char *langs;
	const char *from, *bank_id;
	bool werror;
	bool dry_run;
	const char *host;          /* --host, for preview */
	int port;                  /* --port, for preview; -1: none */
	bool quiet;
	long max_errors; /* -1: the default */
	bool split;
	bool reviewed;
	long seed;                 /* --seed, for build: a printed version */
	const char *questions[64]; /* --question, for review */
	size_t nquestions;
	char **banks;
	int nbanks;
} args;

typedef qb_drv_status (*cmd_fn)(const qb_drv_opts *o);

typedef struct command {
	const char *name;
	const char *usage;
	const char *desc;
	const option_spec *opts;
	cmd_fn run;
	int min_banks, max_banks; /* max 0: no limit */
} command;

static const command commands[] = {
	{"check", "qbc check [--werror] [--format LIST] [--quiet] BANK...",
	 N_("read and check banks, with the rules of the formats they are built in; write nothing"),
	 check_opts, qb_drv_check, 1, 0},
	{"dump", "qbc dump --json [--lang LANGS] BANK", N_("print a bank's model as JSON"), dump_opts,
	 qb_drv_dump, 1, 1},
	{"build", "qbc build [-o DIR] [--format LIST] [--lang LANGS] [--dry-run] BANK...",
	 N_("check banks, write their packages and update their revision records"), build_opts,
	 qb_drv_build, 1, 0},
	{"review", "qbc review [--question ID]... [--lang LANG] BANK...",
	 N_("mark translations as reviewed, which clears 'may be stale' warnings"), review_opts,
	 qb_drv_review, 1, 0},
	{"watch", "qbc watch [-o DIR] [--format LIST] [--lang LANGS] BANK...",
	 N_("build, then rebuild each bank whenever it or a picture it shows is saved"), watch_opts,
	 qb_drv_watch, 1, 0},
	{"preview", "qbc preview [--port N] [--host H] [--lang LANGS] BANK...",
	 N_("serve a live page of every card and player screen, updated whenever a bank is saved"),
	 preview_opts, qb_drv_preview, 1, 0},
	{"import", "qbc import [-o OUT.qb] [--from FORMAT] [--lang LANG] [--bank ID] [--split] FILE...",
	 N_("bring a Moodle XML, GIFT, Aiken or CSV file in as a new bank (and its media/); report what "
	    "was not carried"), import_opts, qb_drv_import, 1, 0},
	{"translate", "qbc translate export --lang LANG [--format po|xliff] [-o FILE] BANK\n"
	 "  qbc translate import [--reviewed] FILE BANK",
	 N_("hand a bank's texts to translators as a PO or XLIFF file, and write their translations "
	    "back into the bank in place"), translate_opts, qb_drv_translate, 2, 3},
	{NULL, NULL, NULL, NULL, NULL, 0, 0},
};

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
		printf("  %-24s %s\n", qb_buf_cstr(&b), gettext(o->help));
		qb_buf_dispose(&b);
	}
}

static void main_help(void)
{
	printf(_("qbc %s - the question bank compiler\n\n"), QB_VERSION);
	printf(_("Compiles bilingual question banks (input/*.qb) into Anki deck packages and\n"
	         "SCORM packages for Moodle.\n\nUsage:\n"));
	for (const command *c = commands; c->name; c++)
		printf("  %s\n      %s\n", c->usage, gettext(c->desc));
	printf("  qbc COMMAND --help\n      %s\n", _("help on one command"));
	printf("  qbc --version\n      %s\n", _("print the version"));
	printf(_("\nExit status: 0 ok, 1 the bank has errors, 2 usage, 3 I/O or library failure.\n"
	         "The bank format is documented in input/README.md.\n"));
}

static void command_help(const command *c)
{
	printf(_("Usage: %s\n\n%s.\n\nOptions:\n"), c->usage, gettext(c->desc));
	print_options(c->opts);
	if (c->run == qb_drv_build || c->run == qb_drv_watch || c->run == qb_drv_check) {
		if (c->run == qb_drv_check)
			printf(_("\nFormats whose rules are checked, as 'qbc build --format' writes them\n"
			         "(default: the ones marked m, which 'make' builds; build writes the ones\n"
			         "marked * by default):\n"));
		else
			printf(_("\nFormats (default: the ones marked *; 'make' builds the ones marked m):\n"));
		for (const qb_writer *w = qb_writers; w->name; w++)
			printf(_("  %c%c %-11s %s, written as DIR/<bank-id>%s%s\n"), w->by_default ? '*' : ' ',
			       w->make ? 'm' : ' ', w->name, gettext(w->desc), w->per_lang ? ".<lang>" : "",
			       w->ext);
		printf(_("     %-11s every format above\n"
		         "     %-11s the formats marked m (what 'make' builds for input/)\n"),
		       "all", "make");
	}
}

/* The process exit code of a driver status: exit codes live only here. */
static int exit_code(qb_drv_status s)
{
	switch (s) {
	case QB_DRV_OK: return QB_EXIT_OK;
	case QB_DRV_BANK_ERRORS: return QB_EXIT_ERRORS;
	case QB_DRV_USAGE: return QB_EXIT_USAGE;
	case QB_DRV_IO: return QB_EXIT_IO;
	}
	return QB_EXIT_IO;
}

static int usage_error(const char *cmd, const char *fmt, ...) QB_PRINTF(2, 3);
static int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	qb_drv_vusage(cmd, fmt, ap);
	va_end(ap);
	return QB_EXIT_USAGE;
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
		case OPT_FROM: a->from = optarg; break;
		case OPT_BANK: a->bank_id = optarg; break;
		case OPT_SPLIT: a->split = true; break;
		case OPT_REVIEWED: a->reviewed = true; break;
		case OPT_WERROR: a->werror = true; break;
		case OPT_DRY_RUN: a->dry_run = true; break;
		case 'q': a->quiet = true; break;
		case OPT_MAX_ERRORS: {
			char *end;
			errno = 0;
			a->max_errors = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || a->max_errors < 0)
				return usage_error(c->name, "--max-errors: '%s' is not a number of errors "
				                   "(0: no limit)", optarg);
			break;
		}
		case OPT_QUESTION:
			if (a->nquestions == QB_NELEM(a->questions))
				return usage_error(c->name, "too many --question options");
			a->questions[a->nquestions++] = optarg;
			break;
		case OPT_HOST: a->host = optarg; break;
		case OPT_SEED: {
			char *end = NULL;
			errno = 0;
			a->seed = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || a->seed < 0 || a->seed > QB_SEED_MAX)
				return usage_error(c->name, _("--seed: '%s' is not a version number (0 to %d)"),
				                   optarg, QB_SEED_MAX);
			break;
		}
		case OPT_PORT: {
			char *end = NULL;
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || v < 0 || v > 65535)
				return usage_error(c->name, "--port: '%s' is not a port number (0 to 65535)",
				                   optarg);
			a->port = (int)v;
			break;
		}
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
#ifdef M_MMAP_THRESHOLD
	/* Blocks from 128 KiB up get their own mapping, given back when
	 * freed.  glibc would otherwise raise the threshold to the largest
	 * block freed (the bank's text, once checked), and the big buffers
	 * freed after reading would stay in the heap for the whole build. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	qb_i18n_init(argv[0]);
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
	args a = {.max_errors = -1, .port = -1};
	int rc = parse(c, argc - 1, argv + 1, &a);
	if (rc < 0)
		return fclose(stdout) == 0 ? QB_EXIT_OK : QB_EXIT_IO;
	if (rc)
		return rc;
	qb_diag_set_werror(a.werror);
	if (a.max_errors >= 0)
		qb_diag_set_max_errors((unsigned long)a.max_errors);
	qb_drv_opts o = {a.outdir, a.formats, a.langs, a.dry_run, a.questions, a.nquestions,
	                 (const char *const *)a.banks, (size_t)a.nbanks, argv[0], c->name,
	                 a.host, a.port, a.quiet, a.from, a.bank_id, a.split, a.reviewed, a.seed};
	rc = exit_code(c->run(&o));
	qb_diag_summary();
	qb_diag_dispose();
	if (fclose(stdout) != 0) {
		qb_diag_fatal("cannot write to standard output: %s", strerror(errno));
		rc = QB_EXIT_IO;
	}
	return rc;
}
