/* harness.h - a minimal unit-test harness: checks count, failures print
 * their place, and main() ends with the "N passed, N failed" line that
 * tests/run.sh adds up. */
#ifndef QB_HARNESS_H
#define QB_HARNESS_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static int h_pass, h_fail;

#define OK(cond)                                                                     \
	do {                                                                         \
		if (cond)                                                            \
			h_pass++;                                                    \
		else {                                                               \
			h_fail++;                                                    \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
		}                                                                    \
	} while (0)

#define INT_EQ(a, b)                                                                 \
	do {                                                                         \
		long long h_a = (long long)(a), h_b = (long long)(b);                \
		if (h_a == h_b)                                                      \
			h_pass++;                                                    \
		else {                                                               \
			h_fail++;                                                    \
			printf("FAIL %s:%d: %s == %lld, expected %lld\n", __FILE__,  \
			       __LINE__, #a, h_a, h_b);                              \
		}                                                                    \
	} while (0)

#define STR_EQ(a, b)                                                                 \
	do {                                                                         \
		const char *h_a = (a), *h_b = (b);                                   \
		if (h_a && h_b && strcmp(h_a, h_b) == 0)                             \
			h_pass++;                                                    \
		else {                                                               \
			h_fail++;                                                    \
			printf("FAIL %s:%d: %s == \"%s\", expected \"%s\"\n",         \
			       __FILE__, __LINE__, #a, h_a ? h_a : "(null)",          \
			       h_b ? h_b : "(null)");                                 \
		}                                                                    \
	} while (0)

/* The entries of dir, but "." and "..": what a test left behind there. */
static inline int h_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d)) != NULL;)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

static int h_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, h_pass, h_fail);
	return h_fail ? 1 : 0;
}

#endif
