/* escape.h - escaping text from a bank for the places it goes into.
 * XML is written with libxml2's writer, SQL with bound parameters and JSON
 * with jansson; these helpers cover HTML and JSON inside <script>. */
#ifndef QB_ESCAPE_H
#define QB_ESCAPE_H

#include "buf.h"

/* Appends s with & < > " ' escaped: safe in HTML text and quoted
 * attribute values. */
void qb_escape_html(qb_buf *out, const char *s);

/* Appends s made safe inside an HTML <script> element: every '<', '>',
 * '&', U+2028 and U+2029 becomes a \uXXXX escape.  s must be JSON (for
 * example from jansson's json_dumps), whose strings stay equivalent. */
void qb_escape_script_json(qb_buf *out, const char *s);

/* Appends s with "{{" and "}}" broken up by an HTML entity, so that Anki's
 * template engine never sees field syntax coming from a bank.  s is HTML. */
void qb_escape_mustache(qb_buf *out, const char *s);

#endif
