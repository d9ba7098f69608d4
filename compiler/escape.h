/* escape.h - escaping text from a bank for the places it goes into.
 * XML is written with libxml2's writer, SQL with bound parameters and JSON
 * with jansson; these helpers cover HTML and JSON inside <script>. */
#ifndef QB_ESCAPE_H
#define QB_ESCAPE_H

#include <stdio.h>

#include "buf.h"

/* Appends s with & < > " ' escaped: safe in HTML text and quoted
 * attribute values. */
void qb_escape_html(qb_buf *out, const char *s);

/* Appends s made safe inside an HTML <script> element: every '<', '>',
 * '&', U+2028 and U+2029 becomes a \uXXXX escape.  s must be JSON (for
 * example from jansson's json_dumps), whose strings stay equivalent. */
void qb_escape_script_json(qb_buf *out, const char *s);

/* Passes the JavaScript js[0..len) to put in pieces, with "</script"
 * and "<!--" rewritten ("<\/", "<\!"): the HTML parser ends a <script>
 * at the first and treats the second specially, and in JavaScript's
 * strings and regular expressions, the only places they occur, they mean
 * "</" and "<!".  js[len] must be readable (a string's NUL). */
void qb_escape_script_text(const char *js, size_t len,
                           void (*put)(void *payload, const char *s, size_t n), void *payload);
/* The same for the whole of the file f, read from its start piece bytes
 * at a time (a script too big to hold).  Returns 0, or -1 when f cannot
 * be read. */
int qb_escape_script_file(FILE *f, size_t piece,
                          void (*put)(void *payload, const char *s, size_t n), void *payload);

/* Character references ("&amp;", "&#233;", "&#x1F600;"), decoded in one
 * place for every reader of HTML: md4c's entity spans, plain text and
 * Anki's field checksums.  Named references come from libxml2's HTML 4
 * table. */
enum {
	QB_ENTITY_NBSP_SPACE = 1, /* "&nbsp;" becomes a plain space                */
	QB_ENTITY_ANKI = 2        /* Anki's entsToTxt: "&#x" lower case only, no
	                             "&apos;", invalid numbers stay as written   */
};

/* Decodes the character reference at the start of s[0..n) into out.
 * Returns the bytes it used, or 0 (nothing appended) when s does not start
 * with a reference this table knows.  Without QB_ENTITY_ANKI an out-of-range
 * number gives U+FFFD, as md4c-html does. */
size_t qb_entity_decode(qb_buf *out, const char *s, size_t n, unsigned flags);

/* Appends s with "{{" and "}}" broken up by an HTML entity, so that Anki's
 * template engine never sees field syntax coming from a bank.  s is HTML. */
void qb_escape_mustache(qb_buf *out, const char *s);

#endif
