/* utf8.c - see utf8.h. */
#include "utf8.h"

#include <stdint.h>
#include <string.h>
#include <utf8proc.h>

size_t qb_utf8_next(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if ((unsigned char)s[0] < 0x80)
		return 1;
	utf8proc_int32_t cp;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
	return k > 0 ? (size_t)k : 1;
}

size_t qb_utf8_ascii_run(const char *s, size_t n)
{
	size_t i = 0;
	for (uint64_t w; i + 8 <= n; i += 8) { /* eight bytes at a time */
		memcpy(&w, s + i, 8);
		if (w & UINT64_C(0x8080808080808080))
			break;
	}
	while (i < n && (unsigned char)s[i] < 0x80)
		i++;
	return i;
}

size_t qb_utf8_count(const char *s, size_t n)
{
	size_t c = 0;
	size_t i = 0;
	while (i < n) {
		if ((unsigned char)s[i] < 0x80) { /* ASCII runs, the common case */
			size_t run = qb_utf8_ascii_run(s + i, n - i);
			i += run;
			c += run;
			continue;
		}
		i += qb_utf8_next(s + i, n - i);
		c++;
	}
	return c;
}

/* A code point that NFC leaves alone wherever it stands: utf8proc gives
 * it no canonical decomposition, combining class 0 and no part in any
 * composition (comb_index is how utf8proc's composition finds pairs);
 * Hangul syllables and jamo compose by rule, not by table, so they go to
 * the full normalisation. */
static bool nfc_inert(utf8proc_int32_t cp)
{
	if ((cp >= 0x1100 && cp < 0x1200) || (cp >= 0xAC00 && cp <= 0xD7A3))
		return false;
	const utf8proc_property_t *p = utf8proc_get_property(cp);
	return p->combining_class == 0 && p->decomp_seqindex == UINT16_MAX &&
	       p->comb_index == UINT16_MAX;
}

bool qb_utf8_is_nfc(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		if ((unsigned char)s[i] < 0x80) {
			i += qb_utf8_ascii_run(s + i, n - i);
			continue;
		}
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
		                                      (utf8proc_ssize_t)(n - i), &cp);
		if (k <= 0 || !nfc_inert(cp))
			return false;
		i += (size_t)k;
	}
	return true;
}
