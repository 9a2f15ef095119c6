/* Helpers shared by the files of src/io; not part of the public API. */
#ifndef CUTUNE_IO_INTERNAL_H
#define CUTUNE_IO_INTERNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cutune/common.h"
#include "cutune/recording.h"

/**
 * Read a whole file into a NUL-terminated buffer (raw bytes, not decompressed).
 * @param out receives a malloc'd buffer the caller frees.
 */
/** A bump arena for a cJSON tree parsed once and dropped whole (json_arena.c). */
typedef struct cutune_json_arena {
    struct arena_block *head;
    struct cutune_json_arena *prev;
} cutune_json_arena;
/** cJSON allocations of this thread go to a until _end, which frees them all:
 *  never cJSON_Delete a tree built inside the window after it. */
void cutune_json_arena_begin(cutune_json_arena *a);
void cutune_json_arena_end(cutune_json_arena *a);

/** Whether data starts with the gzip magic bytes 1f 8b. */
int cutune_io_is_gzip(const char *data, size_t len);

/**
 * Decompress a whole gzip stream (concatenated members included). A corrupt or
 * truncated stream and trailing garbage are errors naming name; nothing is
 * returned on failure. *out is NUL-terminated and malloc'd.
 */
int cutune_io_gunzip(const char *name, const char *in, size_t inlen, char **out, size_t *outlen,
                     char *err, size_t errlen);

/**
 * Write text to path through a cutune_outfile (an exclusive temporary beside it, fsync,
 * rename), so a failure never leaves a partial file at path and no link is followed.
 */
int cutune_io_write_atomic(const char *path, const char *text, size_t len, char *err,
                           size_t errlen);

/** A cJSON document (pretty when asked, one final newline) written to path as
 *  cutune_io_write_atomic does; frees nothing. */
int cutune_io_write_json(const char *path, const cJSON *doc, int pretty, char *err, size_t errlen);

struct cutune_space;
struct cutune_history;
/* The arguments every export checks: a path, a space and a history whose ids lie in it
 * (CUTUNE_EINVAL naming path otherwise). */
int cutune_io_export_check(const char *path, const struct cutune_space *s,
                           const struct cutune_history *h, char *err, size_t errlen);
/** Close the memstream *f (set to NULL) and write its *buf, *len to path as
 *  cutune_io_write_atomic does; the caller frees *buf. */
int cutune_io_commit_memstream(FILE **f, char **buf, size_t *len, const char *path, char *err,
                               size_t errlen);

/**
 * A JSON node for a typed value: numbers as their Python text (raw, so 1.0
 * stays 1.0 and large ints stay exact), strings as strings; non-finite reals,
 * which JSON cannot hold, as their text in a string.
 */
cJSON *cutune_io_value_json(const cutune_value *v);

/**
 * A double as Python's repr prints it (shortest round-trip digits, "500.0",
 * "0.5", "1e-05"); "" for NaN and infinities. For CSV cells and comments.
 */
void cutune_io_format_real(double x, char *buf, size_t len);

/**
 * A number node printed exactly (shortest round-trip text, as Python's repr),
 * or null when x is not finite (JSON has no NaN).
 */
cJSON *cutune_io_number_json(double x);

struct cutune_space;
struct cutune_spec;
struct cutune_history_entry;

/** {name: value} of configuration id, values as cutune_io_value_json. */
cJSON *cutune_io_config_json(const struct cutune_space *s, size_t id);

/**
 * {name: value} of an evaluation's metrics: the evaluator's (e->r.metrics),
 * then the spec's derived ones (spec may be NULL); NaN and infinities skipped.
 */
cJSON *cutune_io_metrics_json(const struct cutune_spec *spec, const struct cutune_history_entry *e);

/** Add item to obj under name; frees item and returns -1 when either fails. */
int cutune_io_add(cJSON *obj, const char *name, cJSON *item);

/**
 * An unterminated Kernel Tuner cache closed as Kernel Tuner closes it (kt_cache.c): the
 * text stripped of white space, unless it ends in "}\n}" or "}}}", loses a final comma and
 * gains "}\n}" (Kernel Tuner writes a cache entry by entry; a run that stopped leaves it
 * open). 1 and *out (malloc'd, NUL-terminated, *outlen bytes) when closed so; 0 when the
 * text is closed already (or empty); CUTUNE_ENOMEM.
 */
int cutune_io_kt_close(const char *text, size_t len, char **out, size_t *outlen);

/** A Kernel Tuner cache's "objective": *objective NULL for time (or absent, as in older
 *  caches), else the metric's name (malloc'd) and *maximize its direction: the cache's
 *  "objective_higher_is_better" where it has one, else 1 for a rate ("/s", "/J", "/W" in
 *  the name) or a FLOPS count. CUTUNE_EPARSE for a field of the wrong type. */
int cutune_io_kt_objective(const cJSON *root, const char *file, char **objective, int *maximize,
                           char *err, size_t errlen);

/** Current UTC time as ISO 8601 (YYYY-MM-DDTHH:MM:SSZ). */
void cutune_io_iso_now(char *buf, size_t len);
/** The same with milliseconds: YYYY-MM-DDTHH:MM:SS.mmmZ (journal eval lines, the database). */
void cutune_io_iso_now_ms(char *buf, size_t len);

/* ---- recordings (recording.c and the readers of its two formats) ---- */

/* Open-addressing table: value -> index in one parameter's list. */
typedef struct value_hash {
    size_t mask;   /* slots - 1 (slots a power of two) */
    int32_t *slot; /* value index or -1 */
} value_hash;

/* The public recording plus what only src/io needs. */
typedef struct recording_impl {
    cutune_recording pub; /* first member: a cutune_recording * points here */
    uint16_t *idx_pool;   /* nrecords * nparams indices; records' idx point in */
    size_t idx_cap;       /* records the pool has room for */
    value_hash *vh;       /* per parameter */
    size_t set_mask;      /* record set slots - 1 */
    int32_t *set;         /* index vector -> first record with it, or -1 */
} recording_impl;

/* recording.c: the value tables. Build h over values[0..n); *dup_at: the index of the
 * first value equal to an earlier one (-1: none). CUTUNE_ENOMEM. */
int recording_value_hash_build(value_hash *h, const cutune_value *values, size_t n, long *dup_at);
/* The index of v in values (as hashed by h), or -1. */
long recording_value_hash_find(const value_hash *h, const cutune_value *values,
                               const cutune_value *v);
/* The index of v among parameter p's values, or -1 (1 and 1.0 are one value). */
long recording_find_value(const recording_impl *ri, size_t p, const cutune_value *v);

/* recording_parse.c: what both readers use. JSON text of length len parsed whole
 * (trailing non-space is an error too); NULL and *err_offset on an error. */
cJSON *recording_parse_json(const char *text, size_t len, size_t *err_offset);
/* What cJSON lets through: a NUL character in a string and a key given twice in an
 * object; at ("FILE" or "FILE:LINE") starts the message. */
int recording_check_json(const char *text, size_t len, const cJSON *root, const char *at, char *err,
                         size_t errlen);
/* Mark the numbers under root's member whose literal had a '.' or an exponent, so that
 * recording_json_value keeps 1.0 a real. */
int recording_mark_member_floats(const char *text, size_t len, cJSON *root, const char *member);
/* A malloc'd copy of string member key of o; NULL when absent, not a string, or OOM. */
char *recording_json_strdup(const cJSON *o, const char *key);
/* Optional string (NULL when absent or null) and count fields: another type is an error
 * naming loc.key. */
int recording_opt_string(const cJSON *o, const char *key, char **out, const char *loc, char *err,
                         size_t errlen);
int recording_opt_count(const cJSON *o, const char *key, const char *loc, char *err, size_t errlen);
/* Optional strings kept by no one (a journal's log, timestamp, started): checked only. */
int recording_check_strings(const cJSON *o, const char *const *keys, size_t n, const char *loc,
                            char *err, size_t errlen);
/* A journal header's "subject_to" (absent, null, or a list of strings; *out the strings
 * joined with '\n', NULL when none) and "sizes" (absent, null, or an object of finite
 * numbers; *names and *values malloc'd, freed by the caller also on an error); another type
 * is an error naming loc.subject_to, loc.sizes.NAME. Shared by the journal loader and the
 * report's reader. */
int recording_header_subject_to(const cJSON *h, char **out, const char *loc, char *err,
                                size_t errlen);
int recording_header_sizes(const cJSON *h, char ***names, double **values, size_t *n,
                           const char *loc, char *err, size_t errlen);
/* A JSON scalar as a value (strings are views into the node); CUTUNE_EUNSUPPORTED for an
 * integer of 2^53 or more (not held exactly), CUTUNE_EINVAL for anything else. */
int recording_json_value(const cJSON *it, cutune_value *v);
/* A value to find in a parameter's list (a cache entry's, a journal config's): as
 * recording_json_value, but a number from 2^53 is a real (the list's 1e+20), never refused;
 * CUTUNE_EINVAL for what is not a scalar. */
int recording_json_lookup(const cJSON *it, cutune_value *v);
/* Why recording_json_value refused it, for the caller's message. */
const char *recording_value_expected(const cJSON *it);
/* Allocate the per-parameter arrays for np parameters. */
int recording_alloc_params(recording_impl *ri, size_t np);
/* Parameter p from a JSON array of scalars; path names it in messages. */
int recording_set_param(recording_impl *ri, size_t p, const char *pname, const cJSON *list,
                        const char *file, const char *path, char *err, size_t errlen);
/* Room for cap records and their index vectors. */
int recording_alloc_records(recording_impl *ri, size_t cap, const char *file, char *err,
                            size_t errlen);
/* Optional array of numbers into rec->times_ms. */
int recording_parse_times(const cJSON *arr, cutune_record *rec, const char *loc, const char *field,
                          char *err, size_t errlen);
/** A journal eval line's "metrics" (loc names it: "FILE:L: eval.metrics"): absent, null, or
 *  an object whose every member is a finite number; another type is an error naming it.
 *  Shared by the journal loader and the report's reader. */
int recording_check_metrics(const cJSON *obj, const char *loc, char *err, size_t errlen);
/** The numeric members of obj (a journal line's "metrics", a Kernel Tuner cache entry) into
 *  rec->metrics, but those named in skip[0..nskip) or skip2[0..nskip2). A metric of a name
 *  of 32 bytes or more (a record holds at most 31) is an error naming loc and the metric. */
int recording_parse_metrics(const cJSON *obj, cutune_record *rec, const char *const *skip,
                            size_t nskip, const char *const *skip2, size_t nskip2, const char *loc,
                            char *err, size_t errlen);
/* Optional number field; *out untouched when absent or null. */
int recording_opt_number(const cJSON *o, const char *field, double *out, int *present,
                         const char *loc, char *err, size_t errlen);
/* As recording_opt_number, for a cost: a negative one is an error. */
int recording_opt_cost(const cJSON *o, const char *field, double *out, int *present,
                       const char *loc, char *err, size_t errlen);

/* kt_load.c: a Kernel Tuner cache (text[0..len), plain) into ri. */
int recording_load_kt(recording_impl *ri, const char *file, const char *text, size_t len, char *err,
                      size_t errlen);
/* journal_load.c: the "kind" of the first line of data, into buf, when it is a JSON object
 * with one (a journal's: "header" first; another kind is a journal whose header line was
 * removed); 0 when it has none (a Kernel Tuner cache). */
int recording_first_kind(const char *data, size_t len, char *buf, size_t buflen);

/* Whether the line [p, e) holds only blanks (space, tab, CR): a journal's empty line. Reads
 * nothing outside it, so a buffer need not end in a NUL. */
int recording_blank_line(const char *p, const char *e);
/* journal_load.c: a cutune journal (data[0..len), plain) into ri. */
int recording_load_journal(recording_impl *ri, const char *file, const char *data, size_t len,
                           char *err, size_t errlen);

#endif
