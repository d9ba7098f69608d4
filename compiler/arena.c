/* arena.c - see arena.h. */
#include "arena.h"

#include <stdalign.h>
#include <string.h>

#include <stdlib.h>

#include "alloc.h"

/* Large enough that a bank of thousands of questions needs few blocks. */
#define BLOCK_SIZE (64 * 1024)

struct qb_arena_block {
	qb_arena_block *next;
	size_t used, size;
	alignas(max_align_t) unsigned char data[];
};

/* n bytes aligned to align (a power of two) from the newest block, or
 * from a new one. */
static void *bump(qb_arena *a, size_t n, size_t align)
{
#ifdef QB_DEBUG_ARENA
	(void)align;
	qb_arena_block *b = qb_xmalloc(sizeof *b + n);
	b->used = b->size = n;
	b->next = a->head;
	a->head = b;
	return b->data;
#else
	qb_arena_block *b = a->head;
	size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
	if (!b || at > b->size || b->size - at < n) {
		size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;
		b = qb_xmalloc(sizeof *b + size);
		b->size = size;
		b->next = a->head;
		a->head = b;
		at = 0;
	}
	b->used = at + n;
	return b->data + at;
#endif
}

void *qb_arena_alloc(qb_arena *a, size_t n)
{
	return bump(a, n, alignof(max_align_t));
}

/* Strings need no alignment: packed end to end, short texts waste no
 * padding (a bank is mostly short texts). */
char *qb_arena_strndup(qb_arena *a, const char *s, size_t n)
{
	char *p = bump(a, n + 1, 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *qb_arena_strdup(qb_arena *a, const char *s)
{
	return qb_arena_strndup(a, s, strlen(s));
}

struct qb_arena_adopted {
	qb_arena_adopted *next;
	void *p;
};

void *qb_arena_adopt(qb_arena *a, void *p)
{
	qb_arena_adopted *n = qb_xmalloc(sizeof *n);
	n->next = a->adopted;
	n->p = p;
	a->adopted = n;
	return p;
}

void qb_arena_dispose(qb_arena *a)
{
	while (a->adopted) {
		qb_arena_adopted *next = a->adopted->next;
		free(a->adopted->p);
		free(a->adopted);
		a->adopted = next;
	}
	qb_arena_block *b = a->head;
	while (b) {
		qb_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}
