/*
 * What the parts of the T1 reader share (t1.c, t1_space.c, t1_kernel.c): the state of one
 * mapping, the field map and the parameters known while rewriting, and the helpers each
 * part calls in another. Private to src/spec; the public entry points are in t1.h.
 */
#ifndef CUTUNE_SPEC_T1_INTERNAL_H
#define CUTUNE_SPEC_T1_INTERNAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cutune/common.h"
#include "t1.h"

#define MSG_LEN 1024
#define PATH_LEN 256

/* A field of the cutune document and the T1 field it was made from. */
typedef struct t1_map {
    char *native;    /* e.g. "args[2].size" */
    char *t1;        /* e.g. "KernelSpecification.Arguments[2].Size" */
    int keep_suffix; /* a deeper native path keeps its tail ("[3]") */
} t1_map;

/* What is known of a tuning parameter when Sizes are rewritten (max(P), min(P), len(P)). */
typedef struct t1_param {
    char *name;
    size_t nvalues;
    int numeric;           /* every value a number */
    char min[64], max[64]; /* as expression literals (numeric only) */
} t1_param;

/* State of one mapping. */
typedef struct t1 {
    const char *file; /* the T1 file as named in messages */
    const char *dir;  /* its folder: relative paths start here */
    const char *text; /* the T1 text (lines of messages) */
    size_t len;       /* its length */
    char *err;        /* caller's message buffer */
    size_t errlen;    /* its size */
    int oom;          /* an allocation failed while building */
    t1_map *maps;     /* native -> T1 fields */
    size_t nmaps, capmaps;
    char *warnings;   /* lines, each ending in '\n', or NULL */
    size_t wlen;      /* its length */
    t1_param *params; /* the tuning parameters, in order */
    size_t nparams;
    const numtok *nums; /* the number literals of text (exact integers), or NULL */
    size_t nnums;
    int problem_kind; /* ProblemSize: 0 none, 1 a number ("ProblemSize"), 2 an array */
    size_t nproblem;  /* entries of the array */
} t1;

/* ------------------------------------------------------------------ t1.c */

/* Messages: the error (returns code) and a warning line, each naming the T1 field's line. */
int t1_fail(t1 *T, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int t1_oom(t1 *T);
void t1_warn(t1 *T, const char *line_path, const char *shown, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Building: identifiers, strings, the field map, nodes of the cutune document. */
int t1_is_ident_char(char c, int first);
char *t1_dup_str(const char *s);
void t1_map_field(t1 *T, const char *native, const char *t1path, int keep_suffix);
cJSON *t1_add(t1 *T, cJSON *obj, const char *key, cJSON *item);
cJSON *t1_number_node(const cutune_value *v);
cutune_value t1_json_number(const t1 *T, const cJSON *j);
const cJSON *t1_member(const cJSON *obj, const char *name);
void t1_path_member(char *buf, size_t len, const char *parent, const char *key);

/* ------------------------------------------------------------------ t1_space.c */

/* What a T1 expression is, for its rewriting (t1_expr_node): launch geometry, shared memory
 * and scalar values as they are; a buffer Size or FillValue, where a parameter's name is
 * its list of values; a Condition, Python's boolean, where '/' is true division and '%' Python's
 * remainder. */
enum t1_expr_kind { T1_EXPR_PLAIN, T1_EXPR_SIZE, T1_EXPR_CONDITION };
int t1_expr_node(t1 *T, const cJSON *j, const char *path, enum t1_expr_kind kind, cJSON **out);
int t1_load_parameters(t1 *T, const cJSON *cs, cJSON *doc);
int t1_load_conditions(t1 *T, const cJSON *cs, cJSON *doc);

/* ------------------------------------------------------------------ t1_kernel.c */

int t1_load_source(t1 *T, const cJSON *ks, cJSON *doc);
int t1_load_problem_size(t1 *T, const cJSON *ks, cJSON *doc);
int t1_load_launch(t1 *T, const cJSON *ks, cJSON *doc);
int t1_load_args(t1 *T, const cJSON *ks, cJSON *doc);

#endif
