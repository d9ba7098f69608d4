/* utf8.h - counting characters in UTF-8 text, on top of utf8proc.
 * Columns in diagnostics and text lengths in the checks count code
 * points; an invalid byte counts as one character, as diag.c shows it
 * as one '?'. */
#ifndef QB_UTF8_H
#define QB_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of the character at s[0..n): 1 to 4, 1 for an invalid byte, 0
 * when n is 0. */
size_t qb_utf8_next(const char *s, size_t n);

/* The length of the run of ASCII bytes that s[0..n) starts with (read
 * eight bytes at a time: the readers' checks pass every byte of a bank). */
size_t qb_utf8_ascii_run(const char *s, size_t n);

/* Characters (code points) in s[0..n). */
size_t qb_utf8_count(const char *s, size_t n);

/* True when s[0..n) is valid UTF-8 that NFC normalisation (utf8proc's
 * UTF8PROC_COMPOSE | UTF8PROC_STABLE) returns unchanged, found by a quick
 * look at each code point: ASCII, and most other text, needs no
 * normalising. False means "maybe not": normalise it. */
bool qb_utf8_is_nfc(const char *s, size_t n);

#endif
