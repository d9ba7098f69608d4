/* driver.c - see driver.h. */
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "i18n.h"
#include "preview.h"
#include "read.h"
#include "render.h"
#include "revision.h"
#include "template.h"
#include "validate.h"
#include "watch.h"
#include "write.h"
#include "write_json.h"

void qb_drv_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	qb_drv_vusage(cmd, fmt, ap);
	va_end(ap);
}

void qb_drv_vusage(const char *cmd, const char *fmt, va_list ap)
{
	fputs("qbc: ", stderr);
	vfprintf(stderr, gettext(fmt), ap);
	fputc('\n', stderr);
	if (cmd)
		fprintf(stderr, _("qbc: try 'qbc %s --help'\n"), cmd);
	else
		fputs(_("qbc: try 'qbc --help'\n"), stderr);
}

static qb_drv_status worst(qb_drv_status a, qb_drv_status b)
{
	return a > b ? a : b;
}

static const char *outdir_of(const qb_drv_opts *o)
{
	return o->outdir ? o->outdir : "output";
}

/* ---- the banks of one run ---- */

/* The bank ids seen so far in this run, with their files: two banks with
 * one id would overwrite each other's packages and share Anki GUIDs. */
typedef struct seen_ids {
	char **ids, **paths;
	size_t n;
} seen_ids;

static void seen_dispose(seen_ids *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->ids[i]);
		free(s->paths[i]);
	}
	free(s->ids);
	free(s->paths);
	memset(s, 0, sizeof *s);
}

/* Reports bank's id when an earlier bank of the run has it; else notes it. */
static void check_unique_id(seen_ids *s, const qb_bank *bank)
{
	if (!s || !bank->id)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->ids[i], bank->id) == 0) {
			qb_diag_error(bank->id_loc, "bank id '%s' is also the id of '%s': two banks "
			                            "with one id overwrite each other's packages and "
			                            "share Anki note ids; give this bank its own id",
			              bank->id, s->paths[i]);
			return;
		}
	s->ids = qb_xrealloc(s->ids, (s->n + 1) * sizeof *s->ids);
	s->paths = qb_xrealloc(s->paths, (s->n + 1) * sizeof *s->paths);
	s->ids[s->n] = qb_xstrdup(bank->id);
	s->paths[s->n++] = qb_xstrdup(bank->path);
}

/* Reads and checks one bank.  Returns NULL on I/O failure; *errors is set
 * when the bank has errors (it is returned all the same).  With hashes,
 * *hashes gets the bank's qb_rev_hashes_start() (to free before the
 * bank). */
static qb_bank *load(const char *path, seen_ids *seen, bool *errors, qb_rev_hashes **hashes)
{
	qb_diag_mark m = qb_diag_mark_now();
	qb_bank *bank = qb_read(path);
	if (!bank)
		return NULL;
	/* The texts' hashes for the record, on another core, while the bank
	 * is checked and its record read. */
	if (hashes)
		*hashes = qb_rev_hashes_start(bank);
	qb_validate(bank);
	check_unique_id(seen, bank);
	*errors = qb_diag_errors_since(m) > 0;
	/* The few diagnostics after the checks (stale translations, format
	 * limits) read the file again for their quotes: a build does not
	 * hold a copy of the bank throughout. */
	qb_diag_drop_source(bank->path);
	return bank;
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

/* Fills out with the bank's languages, or those of --lang (checked
 * against the bank), in the bank's order. */
static qb_drv_status select_langs(const qb_bank *bank, const char *list, const char **out,
                                  size_t *n)
{
	if (!list) {
		for (size_t i = 0; i < bank->nlangs; i++)
			out[i] = bank->langs[i].code;
		*n = bank->nlangs;
		return QB_DRV_OK;
	}
	size_t nreq;
	char **req = split_list(list, &nreq);
	qb_drv_status rc = QB_DRV_OK;
	for (size_t i = 0; i < nreq; i++)
		if (!qb_bank_has_lang(bank, req[i])) {
			qb_drv_usage(NULL, "--lang: bank '%s' has no language '%s'", bank->id, req[i]);
			rc = QB_DRV_USAGE;
		}
	*n = 0;
	for (size_t i = 0; i < bank->nlangs && !rc; i++)
		for (size_t k = 0; k < nreq; k++)
			if (strcmp(req[k], bank->langs[i].code) == 0) {
				out[(*n)++] = bank->langs[i].code;
				break;
			}
	if (!rc && !*n) {
		qb_drv_usage(NULL, "--lang: no language given");
		rc = QB_DRV_USAGE;
	}
	free_list(req);
	return rc;
}

/* Reads the bank's revision record (an empty one when there is none).
 * Returns NULL after a diagnostic; *rc says why. */
static qb_revisions *record_status(qb_revisions *rev, bool io, qb_drv_status *rc)
{
	if (!rev)
		*rc = worst(*rc, io ? QB_DRV_IO : QB_DRV_BANK_ERRORS);
	return rev;
}

static qb_revisions *load_record(const qb_bank *bank, char **path, qb_drv_status *rc)
{
	bool io;
	*path = qb_rev_path(bank->path);
	qb_revisions *rev = qb_rev_load(*path, &io);
	return record_status(rev, io, rc);
}

/* The revision record of a build, read on another core while the bank is
 * read and checked.  The build locks the bank file first, so the record
 * read is the one it updates.  The record's diagnostics are kept and
 * reported after the bank's, in the order a reader expects. */
typedef struct record_read {
	char *path;         /* the record's                                 */
	qb_revisions *rev;  /* NULL after a diagnostic                      */
	bool io;            /* why: an I/O failure, or a malformed record  */
	qb_diag_later *later;
	pthread_t tid;
	bool threaded;
} record_read;

static void *read_record(void *arg)
{
	record_read *r = arg;
	qb_diag_later_begin();
	r->rev = qb_rev_load(r->path, &r->io);
	r->later = qb_diag_later_end();
	return NULL;
}

static record_read *record_start(const char *bank_path)
{
	record_read *r = qb_xcalloc(1, sizeof *r);
	r->path = qb_rev_path(bank_path);
	r->threaded = pthread_create(&r->tid, NULL, read_record, r) == 0;
	return r;
}

/* The record, once read, with its diagnostics reported: load_record(). */
static qb_revisions *record_finish(record_read *r, char **path, qb_drv_status *rc)
{
	if (r->threaded)
		pthread_join(r->tid, NULL);
	else
		r->rev = qb_rev_load(r->path, &r->io);
	qb_diag_later_report(r->later);
	qb_revisions *rev = record_status(r->rev, r->io, rc);
	*path = r->path;
	free(r);
	return rev;
}

/* Drops a record that is not to be used (the bank had errors). */
static void record_drop(record_read *r)
{
	if (!r)
		return;
	if (r->threaded)
		pthread_join(r->tid, NULL);
	qb_diag_later_free(r->later);
	qb_rev_free(r->rev);
	free(r->path);
	free(r);
}

/* What check and review do with one error-free bank and its record
 * (hashes: NULL unless each_bank() was asked for them; since: a mark taken
 * before the bank was read). */
typedef qb_drv_status (*bank_fn)(const qb_drv_opts *o, const qb_bank *bank, qb_revisions *rev,
                                 const char *rpath, qb_rev_hashes *hashes, qb_diag_mark since);

/* Reads and checks each bank, reads its record, and calls fn on the
 * banks without errors; with want_hashes, the texts' hashes are worked
 * out meanwhile (qb_rev_hashes_start()).  Returns the worst status. */
static qb_drv_status each_bank(const qb_drv_opts *o, bank_fn fn, bool want_hashes)
{
	qb_drv_status rc = QB_DRV_OK;
	seen_ids seen = {0};
	for (size_t i = 0; i < o->nbanks; i++) {
		bool errors = false;
		qb_rev_hashes *hashes = NULL;
		qb_diag_mark since = qb_diag_mark_now();
		qb_bank *bank = load(o->banks[i], &seen, &errors, want_hashes ? &hashes : NULL);
		if (!bank) {
			rc = worst(rc, QB_DRV_IO);
			continue;
		}
		char *rpath = NULL;
		qb_revisions *rev = NULL;
		if (errors)
			rc = worst(rc, QB_DRV_BANK_ERRORS);
		else if ((rev = load_record(bank, &rpath, &rc)) != NULL)
			rc = worst(rc, fn(o, bank, rev, rpath, hashes, since));
		qb_rev_hashes_free(hashes);
		qb_rev_free(rev);
		free(rpath);
		qb_bank_free(bank);
	}
	seen_dispose(&seen);
	return rc;
}

/* The warnings that need the record: stale translations and renames.
 * Under --werror they are errors and stop the bank. */
static qb_drv_status record_warnings(const qb_revisions *rev, const qb_bank *bank,
                                     qb_rev_hashes *hashes, qb_preview *p)
{
	qb_diag_mark m = qb_diag_mark_now();
	qb_rev_check_stale_each(rev, bank, hashes, p ? qb_preview_stale : NULL, p);
	qb_rev_check_renames(rev, bank);
	return qb_diag_errors_since(m) ? QB_DRV_BANK_ERRORS : QB_DRV_OK;
}

/* The writers of a build, in registry order. */
typedef struct selection {
	const qb_writer *w[32];
	size_t n;
} selection;

static qb_drv_status select_writers(const qb_drv_opts *o, selection *sel, bool judge);

/* The rules of every selected format (qb_render_check()), before anything
 * is written: an error, or a warning under --werror, stops the bank.  A
 * build says which format stopped it. */
static qb_drv_status format_rules(const selection *sel, const qb_bank *bank,
                                  const qb_build_opts *opts, bool building)
{
	qb_diag_mark m = qb_diag_mark_now();
	const qb_writer *failed = NULL;
	for (size_t k = 0; k < sel->n; k++) {
		qb_diag_set_format(sel->w[k]->name); /* "warning: [moodlexml] ..." */
		if (qb_render_check(sel->w[k], bank, opts) != QB_WRITE_OK && !failed)
			failed = sel->w[k];
		qb_diag_set_format(NULL);
	}
	if (failed && building)
		qb_diag_note(QB_LOC(bank->path, 0, 0),
		             "nothing was written for bank '%s' because its %s output failed: fix "
		             "what it reports above, or leave %s out of --format",
		             bank->id, failed->name, failed->name);
	return qb_diag_errors_since(m) ? QB_DRV_BANK_ERRORS : QB_DRV_OK;
}

/* ---- check and dump ---- */

/* "optique: 10 questions in fr, ar: no problems" (or how many warnings),
 * so that a quiet success still shows what was read. */
static void check_line(const qb_bank *bank, unsigned long warnings)
{
	/* TRANSLATORS: followed by the bank's language codes, as
	 * "optique: 10 questions in fr, ar: no problems". */
	printf(ngettext("%s: %zu question in ", "%s: %zu questions in ", bank->nquestions), bank->id,
	       bank->nquestions);
	for (size_t i = 0; i < bank->nlangs; i++)
		printf("%s%s", i ? ", " : "", bank->langs[i].code);
	size_t todo = qb_validate_unexplained(bank);
	if (warnings && todo)
		/* TRANSLATORS: "(3 of them questions without an explanation yet)" */
		printf(ngettext(": %lu warning (%zu of them a question without an explanation yet)\n",
		                ": %lu warnings (%zu of them questions without an explanation yet)\n",
		                warnings), warnings, todo);
	else if (warnings)
		printf(ngettext(": %lu warning\n", ": %lu warnings\n", warnings), warnings);
	else
		printf(_(": no problems\n"));
}

/* Every rule a build applies, without building: the record's warnings,
 * the label catalogues, and the rules of the formats --format names, as
 * for build (by default the formats `make` builds, so that a bank that
 * passed `qbc check` builds with `make` without a new warning): `check`
 * and `build` with the same --format report the same problems. */
static qb_drv_status check_bank(const qb_drv_opts *o, const qb_bank *bank, qb_revisions *rev,
                                const char *rpath, qb_rev_hashes *hashes, qb_diag_mark since)
{
	QB_UNUSED(rpath);
	selection sel;
	qb_drv_status rc = select_writers(o, &sel, true);
	if (rc)
		return rc;
	qb_build_opts opts = {NULL, NULL, 0, 0, NULL, NULL, 0};
	rc = worst(record_warnings(rev, bank, hashes, NULL), format_rules(&sel, bank, &opts, false));
	char *tdir = qb_template_dir(o->argv0);
	qb_diag_mark m = qb_diag_mark_now();
	if (tdir && qb_render_check_labels(bank, tdir) == 0 && qb_diag_errors_since(m))
		rc = worst(rc, QB_DRV_BANK_ERRORS);
	free(tdir);
	if (!rc && !o->quiet)
		check_line(bank, qb_diag_warnings_since(since));
	return rc;
}

qb_drv_status qb_drv_check(const qb_drv_opts *o)
{
	return each_bank(o, check_bank, true);
}

qb_drv_status qb_drv_dump(const qb_drv_opts *o)
{
	bool errors = false;
	qb_bank *bank = load(o->banks[0], NULL, &errors, NULL);
	if (!bank)
		return QB_DRV_IO;
	if (errors) {
		qb_bank_free(bank);
		return QB_DRV_BANK_ERRORS;
	}
	const char **langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
	qb_build_opts opts = {0};
	qb_drv_status rc = select_langs(bank, o->langs, langs, &opts.nlangs);
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

/* ---- build ---- */

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

static void select_add(selection *sel, const qb_writer *w)
{
	for (size_t k = 0; k < sel->n; k++)
		if (sel->w[k] == w)
			return;
	if (sel->n < QB_NELEM(sel->w))
		sel->w[sel->n++] = w;
}

/* The writers selected by --format: names, "all" (every format) or
 * "make" (those the Makefile builds); without it, the default ones, or
 * when judge (`qbc check`) those of "make": check judges what `make`
 * writes, a superset of build's default. */
static qb_drv_status select_writers(const qb_drv_opts *o, selection *sel, bool judge)
{
	sel->n = 0;
	const char *formats = o->formats;
	if (!formats && judge)
		formats = "make";
	if (!formats) {
		for (const qb_writer *w = qb_writers; w->name; w++)
			if (w->by_default)
				select_add(sel, w);
		return QB_DRV_OK;
	}
	size_t n;
	char **names = split_list(formats, &n);
	qb_drv_status rc = QB_DRV_OK;
	for (size_t i = 0; i < n; i++) {
		bool all = strcmp(names[i], "all") == 0, make = strcmp(names[i], "make") == 0;
		const qb_writer *w = qb_writer_find(names[i]);
		if (all || make) {
			for (const qb_writer *v = qb_writers; v->name; v++)
				if (all || v->make)
					select_add(sel, v);
		} else if (w) {
			select_add(sel, w);
		} else {
			qb_drv_usage(o->command, "unknown format '%s'", names[i]);
			rc = QB_DRV_USAGE;
		}
	}
	free_list(names);
	if (!rc && !sel->n) {
		qb_drv_usage(o->command, "--format: no format given");
		rc = QB_DRV_USAGE;
	}
	return rc;
}

/* The one call into a writer. */
static qb_drv_status run_writer(qb_render_job *job, const qb_build_opts *opts)
{
	qb_write_status ws = qb_render_finish(job, opts);
	return ws == QB_WRITE_OK ? QB_DRV_OK : ws == QB_WRITE_EBANK ? QB_DRV_BANK_ERRORS : QB_DRV_IO;
}

/* A per-language writer's output of an earlier qbc, <bank-id><ext> (one
 * QTI package for every language), is removed once the packages of each
 * language are in place: it would be imported in their stead. */
static void remove_unsplit(const qb_writer *w, const qb_bank *bank, const qb_build_opts *opts)
{
	char *old = qb_writer_output_path(w, bank, opts);
	if (unlink(old) == 0)
		printf(_("  removed %s (one package for every language, from an earlier qbc)\n"), old);
	free(old);
}

/* Removes the folder dir and the files in it (a staging folder). */
static void remove_stage(const char *dir)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			char *path = qb_fs_join(dir, e->d_name);
			unlink(path);
			free(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* What a teacher does with output w after a build that changed the bank
 * (report), and what learners keep then, in one clause for its "wrote"
 * line; NULL for a format whose re-import is not known (QTI: each LMS's
 * own) or that no learner uses (JSON).  README.md, "Editing and
 * regenerating", says why each holds. */
static char *progress_hint(const qb_writer *w, const qb_rev_report *report, unsigned revision)
{
	if (strcmp(w->name, "anki") == 0)
		/* TRANSLATORS: after "  wrote out/optique.apkg: "; Anki matches
		 * notes by id and keeps the cards' schedules. */
		return qb_xasprintf(_("import it over the old deck: learners keep their reviews "
		                      "(questions updated: %zu, new: %zu)"),
		                    report->nchanged, report->nadded);
	if (strcmp(w->name, "scorm12") == 0 || strcmp(w->name, "scorm2004") == 0)
		return qb_xasprintf("%s", _("upload it as the package of the same Moodle activity: "
		                            "learners keep their attempts and grades"));
	if (strcmp(w->name, "moodlexml") == 0)
		/* TRANSLATORS: 'revision %u' is the Moodle category's name as
		 * the file writes it, in English. */
		return qb_xasprintf(_("import it once: its questions go to a new category, "
		                      "'revision %u', beside the earlier ones"),
		                    revision);
	if (strcmp(w->name, "html") == 0)
		return qb_xasprintf("%s", _("give learners the new file: their answers to unchanged "
		                            "questions are kept"));
	return NULL;
}

/* Writes every selected output into the bank's staging folder inside the
 * output folder, then, only when every format succeeded, renames them
 * into place: a build writes all its outputs or none.  The staging folder
 * is removed in both cases; one left by a killed build is removed by the
 * next (builds of one bank take turns under the bank's lock). */
static qb_drv_status write_all(const selection *sel, const qb_bank *bank, qb_build_opts *opts,
                               const char *outdir, qb_render_job **jobs,
                               const qb_rev_report *report)
{
	/* A rebuild that changed something says, for each output, what the
	 * teacher does with it and what learners keep; a first build or one
	 * that changed nothing has nothing to say. */
	bool changed = !report->created && (report->nadded || report->nchanged ||
	                                    report->nremoved || report->templates_changed);
	char *stage = qb_xasprintf("%s/.qbc-staging-%s", outdir, bank->id);
	remove_stage(stage);
	if (mkdir(stage, 0777) != 0) {
		qb_diag_fatal("cannot create folder '%s': %s", stage, strerror(errno));
		free(stage);
		return QB_DRV_IO;
	}
	opts->outdir = stage;
	qb_drv_status rc = QB_DRV_OK;
	const qb_writer *failed = NULL;
	/* Every format is attempted, so one run reports every problem.  A
	 * writer that reports an error (a warning under --werror) fails the
	 * build whatever it returns: "error:" always means nothing written. */
	for (size_t k = 0; k < sel->n; k++) {
		qb_diag_mark m = qb_diag_mark_now();
		qb_diag_set_format(sel->w[k]->name);
		qb_drv_status wrc = run_writer(jobs[k], opts);
		qb_diag_set_format(NULL);
		jobs[k] = NULL;
		if (!wrc && qb_diag_errors_since(m))
			wrc = QB_DRV_BANK_ERRORS;
		if (wrc && !failed)
			failed = sel->w[k];
		rc = worst(rc, wrc);
	}
	if (failed && rc == QB_DRV_BANK_ERRORS)
		qb_diag_note(QB_LOC(bank->path, 0, 0),
		             "nothing was written for bank '%s' because its %s output failed: fix "
		             "what it reports above, or leave %s out of --format",
		             bank->id, failed->name, failed->name);
	else if (failed)
		qb_diag_note(QB_LOC(bank->path, 0, 0),
		             "nothing was written for bank '%s' because its %s output failed",
		             bank->id, failed->name);
	for (size_t k = 0; k < sel->n; k++) {
		char **tmps = NULL, **outs = NULL;
		size_t n = 0;
		opts->outdir = stage;
		qb_writer_outputs(sel->w[k], bank, opts, &tmps, &n);
		opts->outdir = outdir;
		qb_writer_outputs(sel->w[k], bank, opts, &outs, &n);
		for (size_t f = 0; f < n; f++) {
			if (rc == QB_DRV_OK) {
				if (qb_fs_rename_durable(tmps[f], outs[f]) != 0) {
					qb_diag_fatal("cannot write '%s': %s", outs[f], strerror(errno));
					rc = QB_DRV_IO;
				} else {
					char *hint = changed ? progress_hint(sel->w[k], report,
					                                     opts->times ? opts->times->revision : 0)
					                     : NULL;
					if (hint)
						/* TRANSLATORS: the output's path, then what to do with it */
						printf(_("  wrote %s: %s\n"), outs[f], hint);
					else
						printf(_("  wrote %s\n"), outs[f]);
					free(hint);
				}
			}
			unlink(tmps[f]);
			free(tmps[f]);
			free(outs[f]);
		}
		free(tmps);
		free(outs);
		if (rc == QB_DRV_OK && sel->w[k]->per_lang)
			remove_unsplit(sel->w[k], bank, opts);
	}
	opts->outdir = outdir;
	remove_stage(stage);
	free(stage);
	return rc;
}

/* Starts every selected writer's output (qb_render_begin()). */
static void begin_all(const selection *sel, const qb_bank *bank, const qb_build_opts *opts,
                      qb_render_job **jobs)
{
	for (size_t k = 0; k < sel->n; k++)
		jobs[k] = qb_render_begin(sel->w[k], bank, opts);
}

/* Builds bank i: check, lock, update the revision record in memory,
 * report, write every output, then save the record.  Under watch, ws
 * learns the pictures the bank shows. */
static qb_drv_status build_bank(const qb_drv_opts *o, size_t i, const selection *sel,
                                const char *tdir, seen_ids *seen, qb_watch *ws)
{
	const char *path = o->banks[i];
	/* Builds of the same bank take turns: the record is read, updated
	 * and written under an exclusive lock on the bank file. */
	int lockfd = open(path, O_RDONLY | O_CLOEXEC);
	bool locked = lockfd >= 0 && flock(lockfd, LOCK_EX) == 0;
	int lock_errno = errno;
	record_read *rr = locked ? record_start(path) : NULL;
	bool errors = false;
	qb_rev_hashes *hashes = NULL;
	qb_bank *bank = load(path, seen, &errors, &hashes);
	if (!bank || errors || !locked) {
		if (bank && !errors && !locked)
			qb_diag_fatal("cannot lock '%s': %s", path, strerror(lock_errno));
		if (bank && ws)
			qb_watch_bank_media(ws, bank, i);
		record_drop(rr);
		if (lockfd >= 0)
			close(lockfd);
		qb_rev_hashes_free(hashes);
		qb_bank_free(bank);
		return !bank || !errors ? QB_DRV_IO : QB_DRV_BANK_ERRORS;
	}
	if (ws)
		qb_watch_bank_media(ws, bank, i);
	qb_drv_status rc = QB_DRV_OK;
	char *rpath = NULL;
	const char **langs = NULL;
	qb_rev_report report = {0};
	qb_render_job **jobs = NULL; /* one per selected writer */
	qb_fs_atomic saved = {0};    /* the record's save, until the outputs are written */
	qb_rev_times times = {0};
	qb_revisions *rev = record_finish(rr, &rpath, &rc);
	if (!rev)
		goto done;
	if ((rc = record_warnings(rev, bank, hashes, NULL)) != QB_DRV_OK)
		goto done;
	qb_rev_hashes_rewind(hashes); /* the update's pass, under way while the writers begin */
	qb_diag_mark m = qb_diag_mark_now();
	qb_render_check_labels(bank, tdir); /* once per bank, not per writer */
	time_t now = revision_now();        /* may warn about SOURCE_DATE_EPOCH */
	if (qb_diag_errors_since(m)) {       /* --werror */
		rc = QB_DRV_BANK_ERRORS;
		goto done;
	}
	langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
	const char *outdir = outdir_of(o);
	qb_build_opts opts = {outdir, langs, 0, 0, tdir, NULL, (unsigned long)o->seed};
	if ((rc = select_langs(bank, o->langs, langs, &opts.nlangs)) != QB_DRV_OK ||
	    (rc = format_rules(sel, bank, &opts, true)) != QB_DRV_OK)
		goto done;
	/* The writers' early work runs while the record is updated; not in a
	 * first build, whose update makes the record's tables (the memory the
	 * early work would take, qb_mem_room()). */
	jobs = qb_xcalloc(sel->n ? sel->n : 1, sizeof *jobs);
	bool early = qb_rev_number(rev) > 0 && !o->dry_run;
	if (early)
		begin_all(sel, bank, &opts, jobs);
	bool changed = qb_rev_update(rev, bank, hashes, tdir, now, &report);
	if (!early && !o->dry_run)
		begin_all(sel, bank, &opts, jobs);
	qb_rev_hashes_free(hashes);
	hashes = NULL;
	qb_rev_report_print(&report, bank->id, o->dry_run);
	if (o->dry_run)
		goto done;
	/* The record's save is written now but put in place only after every
	 * output was written, so a failed build leaves both as they were.  The
	 * writers keep only the record's times: its tables, as big as the
	 * bank's model, are freed for them. */
	if (changed && qb_rev_save_begin(rev, rpath, bank->path, &saved) != 0) {
		rc = QB_DRV_IO;
		goto done;
	}
	qb_rev_times_take(&times, rev, bank, opts.langs, opts.nlangs);
	qb_rev_free(rev);
	rev = NULL;
	opts.epoch = times.latest;
	opts.times = &times;
	rc = write_all(sel, bank, &opts, outdir, jobs, &report);
	if (changed && !rc && qb_rev_save_commit(&saved, rpath) != 0)
		rc = QB_DRV_IO;
done:
	qb_fs_atomic_discard(&saved); /* after a failure; nothing after the commit */
	qb_rev_times_dispose(&times);
	for (size_t k = 0; jobs && k < sel->n; k++)
		qb_render_discard(jobs[k]);
	free(jobs);
	qb_rev_hashes_free(hashes);
	qb_rev_report_dispose(&report);
	qb_rev_free(rev);
	free(rpath);
	free(langs);
	close(lockfd); /* releases the lock */
	qb_bank_free(bank);
	return rc;
}

/* What build and watch share: the writers, the output folder, templates. */
static qb_drv_status build_setup(const qb_drv_opts *o, selection *sel, char **tdir)
{
	qb_drv_status rc = select_writers(o, sel, false);
	if (rc)
		return rc;
	const char *outdir = outdir_of(o);
	if (!o->dry_run && qb_fs_mkdirs(outdir) != 0) {
		qb_diag_fatal("cannot create output folder '%s': %s", outdir, strerror(errno));
		return QB_DRV_IO;
	}
	*tdir = qb_template_dir(o->argv0);
	return QB_DRV_OK;
}

qb_drv_status qb_drv_build(const qb_drv_opts *o)
{
	selection sel;
	char *tdir = NULL;
	qb_drv_status rc = build_setup(o, &sel, &tdir);
	if (rc)
		return rc;
	seen_ids seen = {0};
	for (size_t i = 0; i < o->nbanks; i++)
		rc = worst(rc, build_bank(o, i, &sel, tdir, &seen, NULL));
	seen_dispose(&seen);
	free(tdir);
	return rc;
}

/* ---- review ---- */

static bool bank_has_question(const qb_bank *bank, const char *id)
{
	for (size_t i = 0; i < bank->nquestions; i++)
		if (strcmp(bank->questions[i].id, id) == 0)
			return true;
	return false;
}

static qb_drv_status review_bank(const qb_drv_opts *o, const qb_bank *bank, qb_revisions *rev,
                                 const char *rpath, qb_rev_hashes *hashes, qb_diag_mark since)
{
	QB_UNUSED(hashes);
	QB_UNUSED(since);
	qb_drv_status rc = QB_DRV_OK;
	for (size_t i = 0; i < o->nquestions; i++)
		if (!bank_has_question(bank, o->questions[i])) {
			qb_drv_usage(o->command, "--question: bank '%s' has no question '%s'", bank->id,
			             o->questions[i]);
			rc = QB_DRV_USAGE;
		}
	if (o->langs && !qb_bank_has_lang(bank, o->langs)) {
		qb_drv_usage(o->command, "--lang: bank '%s' has no language '%s'", bank->id,
		             o->langs);
		rc = QB_DRV_USAGE;
	}
	if (rc)
		return rc;
	if (qb_rev_number(rev) == 0) {
		qb_diag_fatal("%s has no revision record yet; run 'qbc build' first", bank->path);
		return QB_DRV_BANK_ERRORS;
	}
	qb_buf what = QB_BUF_INIT;
	size_t n = qb_rev_review(rev, bank, o->questions, o->nquestions, o->langs, &what);
	printf(ngettext("%s: %zu translation marked as reviewed%s\n",
	                "%s: %zu translations marked as reviewed%s\n", n),
	       bank->id, n, n ? ":" : "");
	for (const char *p = qb_buf_cstr(&what); *p;) { /* one line each, indented */
		size_t len = strcspn(p, "\n");
		printf("  %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
	qb_buf_dispose(&what);
	return n && qb_rev_save(rev, rpath, bank->path) != 0 ? QB_DRV_IO : QB_DRV_OK;
}

qb_drv_status qb_drv_review(const qb_drv_opts *o)
{
	return each_bank(o, review_bank, false); /* review hashes as it goes */
}

/* ---- watch ---- */

qb_drv_status qb_drv_watch(const qb_drv_opts *o)
{
	selection sel;
	char *tdir = NULL;
	qb_drv_status rc = build_setup(o, &sel, &tdir);
	if (rc)
		return rc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	qb_watch *w = qb_watch_new();
	if (!w) {
		qb_diag_fatal("cannot watch files: %s", strerror(errno));
		free(tdir);
		return QB_DRV_IO;
	}
	for (size_t i = 0; i < o->nbanks; i++)
		if (qb_watch_file(w, o->banks[i], i) != 0) {
			qb_diag_fatal("cannot watch '%s': %s", o->banks[i], strerror(errno));
			rc = QB_DRV_IO;
		}
	for (size_t i = 0; i < o->nbanks && !rc; i++)
		build_bank(o, i, &sel, tdir, NULL, w);
	qb_diag_summary();
	if (!rc)
		printf(ngettext("watching %zu bank; press Ctrl-C to stop\n",
		                "watching %zu banks; press Ctrl-C to stop\n", o->nbanks), o->nbanks);
	bool *dirty = qb_xcalloc(o->nbanks, sizeof *dirty);
	while (!rc) {
		if (qb_watch_wait(w, dirty, o->nbanks, -1) != 1) {
			rc = QB_DRV_IO;
			break;
		}
		for (size_t i = 0; i < o->nbanks; i++)
			if (dirty[i]) {
				build_bank(o, i, &sel, tdir, NULL, w);
				qb_diag_summary();
			}
	}
	free(dirty);
	qb_watch_free(w);
	free(tdir);
	return rc;
}

/* ---- preview ---- */

/* The formats the preview shows, written into its private folder. */
static const char *const preview_formats[] = {"anki", "scorm12"};

/* Reads and checks bank i, writes its Anki and SCORM 1.2 packages into
 * dir with its revision record read but never updated, and publishes
 * them to the page, or, when the bank has errors, only what the build
 * printed (the page keeps its last good version).  The diagnostics go to
 * stderr as usual, and to the page exactly as printed. */
static void preview_bank(const qb_drv_opts *o, size_t i, const char *tdir, const char *dir,
                         qb_watch *w, qb_preview *p, char **id)
{
	char *diags = NULL;
	size_t dlen = 0;
	FILE *mem = open_memstream(&diags, &dlen);
	if (mem)
		qb_diag_set_stream(mem);
	bool errors = false;
	qb_rev_hashes *hashes = NULL;
	qb_revisions *rev = NULL;
	char *rpath = NULL;
	const char **langs = NULL;
	qb_build_opts opts = {0};
	qb_rev_times times = {0};
	qb_bank *bank = load(o->banks[i], NULL, &errors, &hashes);
	qb_drv_status rc = !bank ? QB_DRV_IO : errors ? QB_DRV_BANK_ERRORS : QB_DRV_OK;
	bool shown = false, failed = rc != QB_DRV_OK;
	if (bank) {
		qb_watch_bank_media(w, bank, i);
		/* A labels file of its own (render.h) counts as a save too. */
		char *bdir = qb_xstrdup(bank->path), *slash = strrchr(bdir, '/');
		if (slash)
			*slash = '\0';
		char *labdir = qb_xasprintf("%s/labels", slash ? bdir : ".");
		(void)qb_watch_file(w, labdir, i); /* the folder made */
		free(labdir);
		for (size_t k = 0; k < bank->nlangs; k++) {
			char *lab = qb_xasprintf("%s/labels/%s.json", slash ? bdir : ".",
			                         bank->langs[k].code);
			(void)qb_watch_file(w, lab, i);
			free(lab);
		}
		free(bdir);
		if (!*id && bank->id)
			*id = qb_xstrdup(bank->id);
	}
	if (!rc && (rev = load_record(bank, &rpath, &rc)) != NULL) {
		rc = record_warnings(rev, bank, hashes, p);
		qb_render_check_labels(bank, tdir);
		langs = qb_xcalloc(bank->nlangs + 1, sizeof *langs);
		time_t latest = qb_rev_latest(rev);
		opts = (qb_build_opts){dir, langs, 0, latest ? latest : revision_now(), tdir, NULL, 0};
		rc = worst(rc, select_langs(bank, o->langs, langs, &opts.nlangs));
		qb_rev_times_take(&times, rev, bank, opts.langs, opts.nlangs);
		opts.times = &times;
		/* A format that cannot hold the bank (SCORM 1.2's saved state)
		 * leaves the other to show; its error shows over the page. */
		shown = rc == QB_DRV_OK;
		for (size_t k = 0; k < QB_NELEM(preview_formats) && shown; k++) {
			selection one = {{qb_writer_find(preview_formats[k])}, 1};
			failed |= format_rules(&one, bank, &opts, false) != QB_DRV_OK ||
			          run_writer(qb_render_begin(one.w[0], bank, &opts), &opts) != QB_DRV_OK;
		}
	}
	failed |= rc != QB_DRV_OK;
	qb_diag_summary();
	qb_diag_set_stream(NULL);
	if (mem && fclose(mem) == 0 && diags)
		fputs(diags, stderr);
	qb_preview_publish(p, i, shown ? bank : NULL, rev, langs, opts.nlangs, dir, mem ? diags : "",
	                   failed);
	for (size_t k = 0; bank && k < QB_NELEM(preview_formats); k++) {
		opts.outdir = dir;
		char *out = qb_writer_output_path(qb_writer_find(preview_formats[k]), bank, &opts);
		unlink(out);
		free(out);
	}
	free(diags);
	free(langs);
	qb_rev_times_dispose(&times);
	qb_rev_hashes_free(hashes);
	qb_rev_free(rev);
	free(rpath);
	qb_bank_free(bank);
}

qb_drv_status qb_drv_preview(const qb_drv_opts *o)
{
	qb_drv_status rc = QB_DRV_OK;
	char *tdir = qb_template_dir(o->argv0);
	const char *tmp = getenv("TMPDIR");
	char *dir = qb_xasprintf("%s/qbc-preview-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	qb_watch *w = qb_watch_new();
	qb_preview *p = NULL;
	bool *dirty = qb_xcalloc(o->nbanks, sizeof *dirty);
	char **ids = qb_xcalloc(o->nbanks, sizeof *ids);
	/* Ctrl-C and SIGTERM arrive through a descriptor the watch waits on;
	 * blocked before the server starts, so that none of its threads
	 * takes them. */
	sigset_t stop, old;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	signal(SIGPIPE, SIG_IGN);
	int sfd = signalfd(-1, &stop, SFD_CLOEXEC);
	if (!w || sfd < 0 || !mkdtemp(dir)) {
		qb_diag_fatal("cannot start the preview: %s", strerror(errno));
		rc = QB_DRV_IO;
		goto done;
	}
	for (size_t i = 0; i < o->nbanks; i++)
		if (qb_watch_file(w, o->banks[i], i) != 0) {
			qb_diag_fatal("cannot watch '%s': %s", o->banks[i], strerror(errno));
			rc = QB_DRV_IO;
			goto done;
		}
	qb_preview_opts po = {o->host, o->port, tdir, o->nbanks};
	if (!(p = qb_preview_start(&po))) {
		rc = QB_DRV_IO;
		goto done;
	}
	for (size_t i = 0; i < o->nbanks; i++)
		preview_bank(o, i, tdir, dir, w, p, &ids[i]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	qb_buf names = QB_BUF_INIT;
	for (size_t i = 0; i < o->nbanks; i++)
		qb_buf_appendf(&names, "%s'%s'", i ? ", " : "", ids[i] ? ids[i] : o->banks[i]);
	/* TRANSLATORS: the banks' ids, then the page's address. */
	printf(_("preview of %s at %s (Ctrl-C stops)%s\n"), qb_buf_cstr(&names), qb_preview_url(p),
	       qb_preview_public(p) ? _("; not only this computer can open it") : "");
	qb_buf_dispose(&names);
	int r;
	while ((r = qb_watch_wait(w, dirty, o->nbanks, sfd)) == 1)
		for (size_t i = 0; i < o->nbanks; i++)
			if (dirty[i])
				preview_bank(o, i, tdir, dir, w, p, &ids[i]);
	if (r < 0) {
		qb_diag_fatal("cannot watch files: %s", strerror(errno));
		rc = QB_DRV_IO;
	} else { /* taken, so that unblocking it below does not deliver it */
		struct signalfd_siginfo si;
		if (read(sfd, &si, sizeof si) < 0)
			rc = QB_DRV_IO;
	}
done:
	qb_preview_stop(p);
	rmdir(dir);
	if (sfd >= 0)
		close(sfd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	qb_watch_free(w);
	for (size_t i = 0; i < o->nbanks; i++)
		free(ids[i]);
	free(ids);
	free(dirty);
	free(dir);
	free(tdir);
	return rc;
}
