/* arena.h - a bump allocator that owns all memory of one model (libgit2's
 * git_pool).  Everything allocated from an arena is freed by one call to
 * qb_arena_dispose().  Built with -DQB_DEBUG_ARENA, every allocation is a
 * separate malloc so that ASan and valgrind see each object. */
#ifndef QB_ARENA_H
#define QB_ARENA_H

#include "qb.h"

typedef struct qb_arena_block qb_arena_block;

typedef struct qb_arena_adopted qb_arena_adopted;

typedef struct qb_arena {
	qb_arena_block *head;      /* newest block first                  */
	qb_arena_adopted *adopted; /* qb_arena_adopt()'s, newest first    */
} qb_arena;

#define QB_ARENA_INIT {NULL, NULL}

/* Memory aligned for any type; never NULL (aborts on out-of-memory). */
void *qb_arena_alloc(qb_arena *a, size_t n);
/* Strings are packed end to end (no alignment). */
char *qb_arena_strndup(qb_arena *a, const char *s, size_t n);
char *qb_arena_strdup(qb_arena *a, const char *s);
/* Makes p (from qb_xmalloc() or qb_xrealloc()) the arena's: freed by
 * qb_arena_dispose().  For a big array built elsewhere, which the arena
 * then needs no copy of.  Returns p. */
void *qb_arena_adopt(qb_arena *a, void *p);
/* Frees every allocation of the arena; the arena can be used again. */
void qb_arena_dispose(qb_arena *a);

#endif
