/* qbc's own messages through GNU gettext (libintl, part of glibc).
 * _() marks and translates a message; N_() only marks one whose
 * translation happens later (tables of strings).  With no catalogue
 * bound, gettext() returns the English text unchanged. */
#ifndef QB_I18N_H
#define QB_I18N_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)

#endif
