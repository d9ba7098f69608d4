/* alloc.h - allocation wrappers that abort on out-of-memory, so callers
 * never check for NULL (cmark's xcalloc, redis' zmalloc). */
#ifndef QB_ALLOC_H
#define QB_ALLOC_H

#include "qb.h"

void *qb_xmalloc(size_t n);
void *qb_xcalloc(size_t count, size_t size);
/* The same, with every page written now.  For a table that is read
 * before it is written (a hash index probed, bit-fields set): calloc()'s
 * fresh pages would first map the kernel's shared zero page, and each
 * first write would then copy it and flush the TLB of every core the
 * process runs on, an interrupt for the other threads each time. */
void *qb_xcalloc_written(size_t count, size_t size);
void *qb_xrealloc(void *p, size_t n);
char *qb_xstrdup(const char *s);
char *qb_xstrndup(const char *s, size_t n);
/* printf into a fresh heap string; the caller frees it. */
char *qb_xasprintf(const char *fmt, ...) QB_PRINTF(1, 2);

/* The bytes that the build's memory goal (three bytes per byte of the
 * bank file plus 30 MiB: tests/bench/README.md) leaves above what the
 * process holds now (its resident set, Linux's /proc/self/statm); 0 when
 * there is none or either cannot be read.  Work that may run ahead
 * (hashes, rendered notes) takes a share of it, so that memory stays
 * within the goal whatever the bank's shape. */
size_t qb_mem_room(const char *bank_path);

#endif
