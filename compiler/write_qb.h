/* write_qb.h - the model written back as a .qb source (input/README.md),
 * for `qbc import`: every type, every language, the texts' Markdown as it
 * is, so that reading the file gives the model again. */
#ifndef QB_WRITE_QB_H
#define QB_WRITE_QB_H

#include "buf.h"
#include "model.h"

/* Appends the .qb source of bank to out. */
void qb_qb_source(qb_buf *out, const qb_bank *bank);
/* Appends text (one translation) as .qb source from its first line on,
 * each line ending in '\n', the following lines indented by indent
 * spaces (qb_edit.c writes translations with it too). */
void qb_qb_put_text(qb_buf *out, const char *text, int indent);
/* The length of the code fence ('```' or '~~~', 3 or more) that
 * s[0..n) starts with, or 0. */
size_t qb_qb_fence_len(const char *s, size_t n);
/* Appends v as the reader takes a number: digits and '.', never an
 * exponent (the CSV writer's answers too). */
void qb_qb_put_num(qb_buf *out, double v);
/* Writes it to path atomically; 0, or -1 with errno set. */
int qb_write_qb(const qb_bank *bank, const char *path);

#endif
