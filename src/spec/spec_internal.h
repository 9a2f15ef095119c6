/*
 * The spec loader's shared parts; not part of the public API. One load is one `loader`:
 * spec.c drives it (the JSON text, the top-level fields, the hash, the public entry
 * points), spec_parse.c holds what every field's reader uses (messages that name
 * FILE:LINE: PATH, number literals, shape checks, expressions), and one file reads each
 * group of fields: spec_space.c (parameters, sizes, restrictions), spec_args.c
 * (compiler options, arguments and buffers), spec_launch.c (launch geometry, reference,
 * tolerance, metrics); spec_check.c evaluates what was read once the space is known.
 */
#ifndef CUTUNE_SPEC_INTERNAL_H
#define CUTUNE_SPEC_INTERNAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cutune/spec.h"
#include "spec_numbers.h"

#define MSG_LEN 1024
#define PATH_LEN 256

/* The public struct plus what only the loader needs; pub first so the pointers coincide. */
typedef struct spec_impl {
    cutune_spec pub;           /* what callers see */
    const char **metric_names; /* symbol table of metric expressions (views) */
    size_t nmetric_names;      /* space symbols + 2 */
} spec_impl;

/* State of one load. */
typedef struct loader {
    const char *file; /* the JSON file as named in messages */
    const char *dir;  /* directory of the JSON file: relative paths start here */
    char *err;        /* caller's message buffer */
    size_t errlen;    /* its size */
    const char *text; /* the JSON text, once it parsed (messages name the line), or NULL */
    size_t textlen;   /* its length */
    numtok *nums;     /* number literals sorted by node address, or NULL */
    size_t nnums;     /* entries in nums */
    spec_impl *impl;  /* the spec being built */
} loader;

/* Names the metrics see after the space's own symbols (slots nparams+nsizes, +1);
 * reserved: no parameter or size may take them (spec_launch.c). */
extern const char *const spec_time_names[2];

/* ---- messages (spec_parse.c) ---- */

/* The message "FILE:LINE: PATH: reason" into L->err, the line where the file holds PATH's
 * value; returns code. */
int spec_fail(loader *L, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* spec_fail() about member key of the object at path: the message names path, the line is
 * the member's (an unknown or repeated field) */
int spec_fail_member(loader *L, int code, const char *path, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* spec_fail() about a value given on the command line (--size): no line of the file */
int spec_fail_cmdline(loader *L, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "a number", "a string", ... for "expected X, got Y" messages. */
const char *spec_json_type_name(const cJSON *j);
/* Is s a C identifier (letters, digits, '_'; not starting with a digit)? */
int spec_is_ident(const char *s);
/* parent.key, or parent["key"] when key is not an identifier (metric names like "GB/s"). */
void spec_path_member(char *buf, size_t len, const char *parent, const char *key);
/* parent[i] */
void spec_path_index(char *buf, size_t len, const char *parent, size_t i);
/* "a, b, c" of the first n names, truncated to fit. */
void spec_join_names(char *buf, size_t len, const char *const *names, size_t n);
/* A malloc'd copy of s; NULL on OOM. */
char *spec_strdup(const char *s);
/* "FILE:LINE: PATH" (malloc'd), the line where the file holds PATH's value, for messages
 * made after loading (a recording that cannot be read); "FILE: PATH" where the file holds
 * none of it. NULL when out of memory. */
char *spec_where(loader *L, const char *path);

/* ---- number literals, JSON shape, expressions (spec_parse.c) ---- */

/* Pair the number literals of text with the nodes of root (L->nums), so that 1 and 1.0
 * stay apart. */
int spec_index_numbers(loader *L, const char *text, size_t len, const cJSON *root);
/* A JSON number as a value. prefer_int: integral values become INT whatever the literal
 * (sizes: "1e6" means the integer); otherwise the literal decides as in Python. */
int spec_number_value(loader *L, const cJSON *j, const char *path, int prefer_int,
                      cutune_value *out);
/* Reject unknown and repeated members: a typo must not silently fall back to a default. */
int spec_check_members(loader *L, const cJSON *obj, const char *path, const char *const *allowed,
                       size_t nallowed);
/* Free-form objects (parameters, sizes, metrics): names must be distinct. */
int spec_check_unique_keys(loader *L, const cJSON *obj, const char *path);
/* Member name of obj, or NULL. */
const cJSON *spec_member(const cJSON *obj, const char *name);
/* 0 when ok, else "expected what, got ..." about j at path. */
int spec_want_type(loader *L, const cJSON *j, const char *path, int ok, const char *what);
/* A required or optional non-empty string member; *out stays NULL when absent. */
int spec_string_member(loader *L, const cJSON *obj, const char *parent, const char *name,
                       int required, const char **out);
/* Is name a whole word of the source text? Catches a misspelt kernel before NVRTC. */
int spec_source_has_word(const char *src, const char *name);
/* An expression (a string, or a number) at path, parsed against syms. */
int spec_parse_expr(loader *L, const cJSON *j, const char *path, const cutune_symtab *syms,
                    cutune_expr **out);
/* grid / block: an array of 1-3 expressions; missing dimensions are 1. */
int spec_parse_dims(loader *L, const cJSON *obj, const char *parent, const char *name,
                    const cutune_symtab *syms, cutune_expr **dims);

/* ---- the fields, in the order spec.c reads them ---- */

/* spec_space.c: the space, built in the order its symbol slots require, then enumerated. */
int spec_load_params(loader *L, const cJSON *root);
int spec_load_sizes(loader *L, const cJSON *root, const cutune_size_override *ov, size_t nov);
int spec_load_restrictions(loader *L, const cJSON *root);
int spec_enumerate(loader *L);

/* spec_launch.c, spec_args.c: the expressions, against the finished symbol table. */
int spec_build_metric_symtab(loader *L, const cutune_symtab *syms);
int spec_load_launch(loader *L, const cJSON *root, const cutune_symtab *syms);
int spec_load_options(loader *L, const cJSON *root, const cutune_symtab *syms);
int spec_load_args(loader *L, const cJSON *root, const cutune_symtab *syms);
/* spec_tensormap.c: "type": "tensormap" arguments (a TMA descriptor of a buffer). */
int spec_load_tensormap(loader *L, const cJSON *a, const char *path, const cutune_symtab *syms,
                        cutune_spec_arg *arg);
int spec_resolve_tensormaps(loader *L);
int spec_check_tensormap(loader *L, size_t i, const cutune_value *vars, size_t elem_bytes);
int spec_load_reference(loader *L, const cJSON *root, const cutune_symtab *syms);
int spec_load_tolerance(loader *L, const cJSON *root);
int spec_load_metrics(loader *L, const cJSON *root);

/* spec_check.c: every expression evaluated once, every argument checked against its C
 * type, so that a broken spec fails at load with its JSON path. */
int spec_smoke_test(loader *L);

#endif
