/* i18n.c - see i18n.h. */
#include "i18n.h"

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fsutil.h"

#define MEMO 256 /* entries; a message's slot is its address's */

typedef struct memo_entry {
	const char *msgid;
	char *text;
} memo_entry;

static _Thread_local memo_entry memo[MEMO];

char *qb_gettext(const char *msgid)
{
	memo_entry *m = &memo[((uintptr_t)msgid >> 3) % MEMO];
	if (m->msgid != msgid) {
		m->text = gettext(msgid);
		m->msgid = msgid;
	}
	return m->text;
}

static bool is_c(const char *name)
{
	return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

/* The value of the first of the variables that is set and not empty. */
static const char *first_env(const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(names[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

/* The folder of the compiled catalogues: $QBC_LOCALEDIR, else found from
 * the executable as its templates are: build/locale for build/qbc and
 * build/asan/qbc, <prefix>/share/locale when installed. */
static char *locale_dir(const char *argv0)
{
	const char *env = getenv("QBC_LOCALEDIR");
	if (env && *env)
		return qb_xstrdup(env);
	static const char *const rel[] = {"/locale", "/../locale", "/../share/locale"};
	return qb_fs_beside_exe(argv0, rel, QB_NELEM(rel));
}

char *qb_i18n_language(void)
{
	/* The header is the translation of the empty message. */
	const char *none = "";
	const char *h = gettext(none);
	const char *l = h && *h ? strstr(h, "\nLanguage: ") : NULL;
	if (!l && h && strncmp(h, "Language: ", 10) == 0)
		l = h - 1;
	if (!l)
		return qb_xstrdup("en");
	l += strlen("\nLanguage: ");
	size_t n = strcspn(l, " \n");
	return n ? qb_xstrndup(l, n) : qb_xstrdup("en");
}

void qb_i18n_init(const char *argv0)
{
	static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
	memset(memo, 0, sizeof memo); /* a message asked for earlier, in English */
	const char *want = first_env(vars, QB_NELEM(vars));
	const char *language = getenv("LANGUAGE");
	const char *got = setlocale(LC_MESSAGES, "");
	/* glibc reads LANGUAGE only when the messages' locale is not C, and
	 * setlocale() fails for a locale that is not installed.  Then the
	 * language is given by name through LANGUAGE, under C.UTF-8, which
	 * glibc always has, so that `LANG=fr_FR.UTF-8` and `LANGUAGE=fr`
	 * work on a machine that has no French locale.  An explicit
	 * LC_ALL=C or LC_MESSAGES=C keeps English (POSIX's C messages). */
	const char *forced = first_env(vars, 2);
	if (!(forced && is_c(forced))) {
		bool named = language && *language;
		if (!got && want && !is_c(want) && !named) {
			setenv("LANGUAGE", want, 1);
			named = true;
		}
		if (named && (!got || is_c(got)))
			setlocale(LC_MESSAGES, "C.UTF-8");
	}
	char *dir = locale_dir(argv0);
	if (dir)
		bindtextdomain("qbc", dir);
	free(dir);
	/* qbc writes UTF-8, and so must the libraries whose messages it
	 * passes on: libgettextpo's (its parser's through bison's) would
	 * otherwise follow LC_CTYPE, which stays C, and come out with every
	 * letter outside ASCII a '?' ("cha?ne"). */
	static const char *const domains[] = {"qbc", "gettext-tools", "bison-runtime"};
	for (size_t i = 0; i < QB_NELEM(domains); i++)
		bind_textdomain_codeset(domains[i], "UTF-8");
	textdomain("qbc");
}
