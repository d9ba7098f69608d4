/* qbc's own messages through GNU gettext (libintl, part of glibc).
 * _() marks and translates a message; N_() only marks one whose
 * translation happens later (tables of strings).  With no catalogue
 * bound, gettext() returns the English text unchanged.
 *
 * Diagnostics need no marks: diag.c translates the format given to
 * qb_diag_error/warning/note/fatal (`make pot` extracts them).  The
 * catalogues are compiler/po/<ll>.po, compiled by make into
 * build/locale/<ll>/LC_MESSAGES/qbc.mo. */
#ifndef QB_I18N_H
#define QB_I18N_H

#include <libintl.h>

#define _(s) qb_gettext(s)
#define N_(s) (s)

/* gettext(msgid), remembered per thread by the message's address: the
 * catalogue does not change during a run, gettext() takes a lock at every
 * call, and the checks and the revision record ask for the same few
 * messages for every option of every question. */
char *qb_gettext(const char *msgid) __attribute__((__format_arg__(1)));

/* Chooses the language of qbc's messages as GNU programs do (LANGUAGE,
 * then LC_ALL, LC_MESSAGES, LANG) and binds the "qbc" catalogues.  Only
 * LC_MESSAGES follows the environment: numbers keep their '.', and the
 * readers' byte tests stay the C locale's.  A language whose locale is
 * not installed (a machine with only C.UTF-8) is still used: the messages
 * need a catalogue, not a locale.  LC_ALL=C or LC_MESSAGES=C gives
 * English whatever LANGUAGE says. */
void qb_i18n_init(const char *argv0);

/* The language qbc's messages are in: the "Language:" of the catalogue
 * in use ("fr", "pt_BR"), or "en" when none is; the caller frees it. */
char *qb_i18n_language(void);

#endif
