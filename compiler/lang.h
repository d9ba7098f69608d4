/* lang.h - language tags: syntax, canonical case and display names. */
#ifndef QB_LANG_H
#define QB_LANG_H

#include "buf.h"
#include "qb.h"

/* True when s[0..n) has the shape of a BCP 47 tag as used in banks:
 * a 2-3 letter language, then "-" subtags of 1-8 letters or digits. */
bool qb_lang_valid(const char *s, size_t n);
/* Appends the canonical case of a valid tag: language lower case, a
 * 4-letter script in title case, a 2-letter region in upper case. */
void qb_lang_canonical(qb_buf *out, const char *s, size_t n);
/* The English name of the tag's language ("Kiswahili"), or NULL. */
const char *qb_lang_english_name(const char *tag);
/* The language's name in itself ("Kiswahili", "Français"), or NULL. */
const char *qb_lang_native_name(const char *tag);
/* Appends "Kiswahili ('sw')", or "'xx'" for an unknown language. */
void qb_lang_describe(qb_buf *out, const char *tag);

#endif
