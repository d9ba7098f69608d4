/* write_scorm.h - the SCORM player's parts that other writers ship in
 * their own way (write_html.c: one self-contained file).  The player is
 * templates/scorm/; its data and rules are write_scorm.c's. */
#ifndef QB_WRITE_SCORM_H
#define QB_WRITE_SCORM_H

#include <stdio.h>

#include "buf.h"
#include "render.h"

/* Writes the player's data.js text (window.QB_DATA = {...};, escaped for
 * a <script>) to out from where it stands, for bank, with the pictures and sounds named by name, and
 * each question's "fp" a hash of everything the player gets of it (its
 * texts in every written language, answers, pictures): a saved answer is
 * kept exactly as long as its question is unchanged; labels (NULL or
 * NULL-terminated) are label keys to write besides the player's.  *math
 * tells whether a text shows math.  The text is several times the
 * bank's size: out is a file, not memory.  Returns 0, or -1 after
 * reporting. */
int qb_scorm_player_data(const qb_render_ctx *r, const qb_bank *bank, qb_media_name_fn name,
                         const char *const *labels, FILE *out, bool *math);

/* Appends the player's page, templates/scorm/index.html, in the main
 * language, naming player.css, data.js, player.js and (with math) KaTeX's
 * files as a package holds them.  Returns 0, or -1 after reporting. */
int qb_scorm_index_html(qb_buf *out, const qb_render_ctx *r, const qb_bank *bank, bool math);

/* The player's rules for the questions (option ids a..z, typed answer
 * lengths), without a limit on the saved state. */
void qb_scorm_check_player(const qb_render_ctx *r, const qb_bank *bank);

/* KaTeX's files (Debian's libjs-katex, $QBC_KATEX): katex.min.js,
 * katex.min.css, then the WOFF2 fonts its style sheet names; members are
 * the names a package gives them ("katex/fonts/KaTeX_Main-Regular.woff2"). */
typedef struct qb_katex_set {
	char **paths;   /* on disk                                            */
	char **members; /* in the package: katex/...                          */
	size_t n;
} qb_katex_set;
/* Returns 0, or -1 after reporting that KaTeX is missing. */
int qb_scorm_katex(qb_katex_set *k);
void qb_scorm_katex_dispose(qb_katex_set *k);

#endif
