/* Helpers shared by the files of src/io; not part of the public API. */
#ifndef CUTUNE_IO_INTERNAL_H
#define CUTUNE_IO_INTERNAL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cutune/common.h"

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

/** 0 when a Kernel Tuner cache's "objective" is time (or absent, as in older caches); else
 *  CUTUNE_EUNSUPPORTED naming file and the objective (cutune replays time, minimised). */
int cutune_io_kt_objective(const cJSON *root, const char *file, char *err, size_t errlen);

/** Current UTC time as ISO 8601 (YYYY-MM-DDTHH:MM:SSZ). */
void cutune_io_iso_now(char *buf, size_t len);

#endif
