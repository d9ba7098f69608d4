/* template.c - see template.h. */
#include "template.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"
#include "fsutil.h"

char *qb_template_load(const char *templates_dir, const char *rel, size_t *len)
{
	char *path = qb_fs_join(templates_dir, rel);
	char *data = NULL;
	size_t n = 0;
	if (qb_fs_read(path, &data, &n) != 0) {
		qb_diag_fatal("cannot read template '%s': %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	free(path);
	if (len)
		*len = n;
	return data;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       c == '.';
}

int qb_template_expand(qb_buf *out, const char *what, const char *tmpl,
                       qb_template_lookup lookup, void *payload)
{
	const char *p = tmpl;
	for (;;) {
		const char *open = strstr(p, "%%");
		if (!open)
			break;
		const char *n = open + 2, *e = n;
		while (name_char(*e))
			e++;
		if (e == n || strncmp(e, "%%", 2) != 0) {
			/* Not a placeholder: keep the "%%" and go on after it. */
			qb_buf_append(out, p, (size_t)(n - p));
			p = n;
			continue;
		}
		qb_buf_append(out, p, (size_t)(open - p));
		char *name = qb_xstrndup(n, (size_t)(e - n));
		const char *val = lookup(payload, name);
		if (!val) {
			qb_diag_fatal("template '%s' uses unknown placeholder '%%%%%s%%%%'", what, name);
			free(name);
			return -1;
		}
		qb_buf_puts(out, val);
		free(name);
		p = e + 2;
	}
	qb_buf_puts(out, p);
	return 0;
}

char *qb_template_dir(const char *argv0)
{
	const char *env = getenv("QBC_TEMPLATES");
	if (env && *env)
		return qb_xstrdup(env);
	static const char *const rel[] = {"/../templates", "/../../templates", "/../share/qbc"};
	return qb_fs_beside_exe(argv0, rel, QB_NELEM(rel));
}
