/* import_aiken.c - Moodle's Aiken format: a question on one line, its
 * options on the following lines as 'A. text' or 'A) text', then
 * 'ANSWER: A'; questions are separated by blank lines.  Every question
 * is a single-choice question in --lang.  A malformed question is a
 * located error (and nothing is written). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "i18n.h"
#include "import.h"
#include "utf8.h"

typedef struct aiken_q {
	qb_loc loc;
	char *prompt;
	char *opts[26];
	qb_loc optloc[26];
	size_t nopts;
	bool open;
} aiken_q;

static void aq_reset(aiken_q *a)
{
	free(a->prompt);
	for (size_t i = 0; i < a->nopts; i++)
		free(a->opts[i]);
	memset(a, 0, sizeof *a);
}

/* 'A. ' or 'A) ': the option letter, else 0. */
static char option_letter(const char *s, size_t n)
{
	if (n >= 3 && s[0] >= 'A' && s[0] <= 'Z' && (s[1] == '.' || s[1] == ')') &&
	    (s[2] == ' ' || s[2] == '\t'))
		return s[0];
	return 0;
}

static void add_question(qb_imp *im, aiken_q *a, char answer, qb_loc aloc)
{
	size_t right = (size_t)(answer - 'A');
	if (a->nopts < 2) {
		qb_diag_error(a->loc,
		              ngettext("this question has %zu option; an Aiken question needs at "
		                       "least two, as lines 'A. text'",
		                       "this question has %zu options; an Aiken question needs at "
		                       "least two, as lines 'A. text'", a->nopts),
		              a->nopts);
		return;
	}
	if (right >= a->nopts) {
		qb_diag_error(aloc, "'ANSWER: %c' names no option: this question's options are A to "
		              "%c", answer, 'A' + (int)a->nopts - 1);
		return;
	}
	qb_question *q = qb_imp_question(im, QB_QTYPE_SINGLE, a->loc);
	qb_imp_plain(im, &q->prompt, a->loc, a->prompt);
	for (size_t i = 0; i < a->nopts; i++) {
		qb_choice *c = qb_imp_choice(im, a->optloc[i]);
		c->correct = i == right;
		qb_imp_plain(im, &c->text, a->optloc[i], a->opts[i]);
	}
	qb_imp_id(im, NULL, a->prompt);
}

int qb_import_aiken(qb_imp *im, const char *data, size_t len)
{
	aiken_q a = {0};
	qb_diag_mark m = qb_diag_mark_now();
	int lineno = 0;
	for (size_t i = 0; i < len;) {
		const char *s = data + i;
		const char *nl = memchr(s, '\n', len - i);
		size_t n = nl ? (size_t)(nl - s) : len - i;
		i += n + (nl != NULL);
		lineno++;
		if (n && s[n - 1] == '\r')
			n--;
		size_t ind = 0;
		while (ind < n && (s[ind] == ' ' || s[ind] == '\t'))
			ind++;
		s += ind;
		n -= ind;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		qb_loc loc = {im->file, lineno, 1 + (int)ind};
		if (!n) {
			if (a.open && a.nopts)
				qb_diag_error(a.loc, "this question has no 'ANSWER:' line after its options");
			else if (a.open)
				qb_diag_error(a.loc, "this question has no options ('A. text') and no "
				              "'ANSWER:' line");
			aq_reset(&a);
			continue;
		}
		if (n >= 7 && strncmp(s, "ANSWER", 6) == 0 && (s[6] == ':' || s[6] == ' ')) {
			const char *v = memchr(s, ':', n);
			size_t k = v ? (size_t)(v - s) + 1 : n;
			while (k < n && s[k] == ' ')
				k++;
			qb_loc vloc = {im->file, lineno, 1 + (int)(ind + k)};
			if (!a.open)
				qb_diag_error(loc, "'ANSWER:' without a question above it");
			else if (!v || k + 1 != n || s[k] < 'A' || s[k] > 'Z')
				qb_diag_error(vloc, "an Aiken answer is one capital letter, as in "
				              "'ANSWER: B'");
			else
				add_question(im, &a, s[k], vloc);
			aq_reset(&a);
			continue;
		}
		char letter = option_letter(s, n);
		if (letter && a.open) {
			if ((size_t)(letter - 'A') != a.nopts)
				qb_diag_error(loc, "option '%c' is out of order: expected '%c'", letter,
				              'A' + (int)a.nopts);
			else {
				a.opts[a.nopts] = qb_xstrndup(s + 3, n - 3);
				a.optloc[a.nopts++] = (qb_loc){im->file, lineno, 1 + (int)ind};
			}
			continue;
		}
		if (a.open && a.nopts) {
			qb_diag_error(loc, "this line is neither an option ('A. text') nor the "
			              "'ANSWER:' line of the question on line %d", a.loc.line);
			continue;
		}
		if (a.open) { /* a prompt on several lines: Moodle wants one line */
			char *p = qb_xasprintf("%s %.*s", a.prompt, (int)n, s);
			free(a.prompt);
			a.prompt = p;
			continue;
		}
		a.open = true;
		a.loc = loc;
		a.prompt = qb_xstrndup(s, n);
	}
	if (a.open)
		qb_diag_error(a.loc, "the file ends before this question's 'ANSWER:' line");
	aq_reset(&a);
	if (!im->nqs && !qb_diag_errors_since(m))
		qb_diag_error(QB_LOC(im->file, 0, 0), "no Aiken question found");
	return qb_diag_errors_since(m) ? -1 : 0;
}
