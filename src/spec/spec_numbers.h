/*
 * Number literals of a spec's JSON text paired with their cJSON nodes (spec_parse.c):
 * cJSON keeps only doubles, but 1 and 1.0 differ, and an integer above 2^53 loses digits
 * in a double. Shared by the spec loader and the T1 reader; not part of the public API.
 */
#ifndef CUTUNE_SPEC_NUMBERS_H
#define CUTUNE_SPEC_NUMBERS_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* A number token of the JSON text, paired with its cJSON node. */
typedef struct numtok {
    const cJSON *node; /* the cJSON_Number node */
    const char *text;  /* the literal in the JSON text (not NUL-terminated) */
    size_t len;        /* its length */
} numtok;

/* The literal of node in nums (n entries, sorted by node as spec_index_numbers sorts
 * them), or NULL when nums is NULL or holds no such node. */
const numtok *spec_find_number(const numtok *nums, size_t n, const cJSON *node);

#endif
