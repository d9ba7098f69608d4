/* utf8.c - see utf8.h. */
#include "utf8.h"

#include <utf8proc.h>

size_t qb_utf8_next(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	utf8proc_int32_t cp;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
	return k > 0 ? (size_t)k : 1;
}

size_t qb_utf8_count(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i += qb_utf8_next(s + i, n - i))
		c++;
	return c;
}
