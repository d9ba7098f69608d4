/* write_json.h - the model as JSON (see write_json.c). */
#ifndef QB_WRITE_JSON_H
#define QB_WRITE_JSON_H

#include <jansson.h>

#include "write.h"

/* The bank as a new JSON object (the caller json_decref()s it), with the
 * texts of opts->langs only. */
json_t *qb_json_bank(const qb_bank *bank, const qb_build_opts *opts);
/* The same, serialised with two-space indentation; free() the result. */
char *qb_json_dump(const qb_bank *bank, const qb_build_opts *opts);
/* Question i of the bank as the bank's JSON has it (its "questions"
 * array's item i), a new object: a caller that compares two banks holds
 * one question of each at a time. */
json_t *qb_json_question(const qb_bank *bank, size_t i, const qb_build_opts *opts);
/* The bank's passages as the array qb_json_bank() holds under "passages". */
json_t *qb_json_passages(const qb_bank *bank, const qb_build_opts *opts);

#endif
