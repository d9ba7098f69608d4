/* template.h - files from templates/ and a strict placeholder expander.
 *
 * Placeholders are written %%name%% (name: a-z, 0-9, '_', '-', '.'), a
 * syntax that collides neither with Anki's {{Field}} nor with CSS or JS.
 * An unknown name is an error, never an empty string (redis'
 * sdstemplate).  The lookup returns text that is inserted verbatim: the
 * caller escapes it for where it goes. */
#ifndef QB_TEMPLATE_H
#define QB_TEMPLATE_H

#include "buf.h"
#include "qb.h"

/* Returns the value of name, or NULL when the name is unknown. */
typedef const char *(*qb_template_lookup)(void *payload, const char *name);

/* Reads templates_dir/rel into a heap string (caller frees).  Returns
 * NULL after a diagnostic when the file cannot be read.  templates_dir is
 * never NULL: qb_render_write() reports a missing templates folder. */
char *qb_template_load(const char *templates_dir, const char *rel, size_t *len);

/* Appends tmpl with every placeholder replaced.  Returns 0, or -1 after a
 * diagnostic naming the template (what) and the unknown placeholder. */
int qb_template_expand(qb_buf *out, const char *what, const char *tmpl,
                       qb_template_lookup lookup, void *payload);

/* The templates folder: $QBC_TEMPLATES, else <dir of the executable>/../templates
 * (build/qbc), ../../templates (build/asan/qbc) or ../share/qbc (installed).
 * A heap string, or NULL when none exists. */
char *qb_template_dir(const char *argv0);

#endif
