/**
 * @file common.h
 * @brief Error codes, evaluation statuses and small shared types of cutune.
 *
 * Every fallible function returns 0 or a negative CUTUNE_E* code and writes a
 * one-line message into a caller-owned buffer (err, errlen). Messages name the
 * file, the field (JSON path or expression) and the reason.
 */
#ifndef CUTUNE_COMMON_H
#define CUTUNE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CUTUNE_VERSION "0.1.0"

/** Error codes (negative on return). */
enum cutune_error {
    CUTUNE_OK = 0,
    CUTUNE_EINVAL = -1,    /**< bad argument or bad input value */
    CUTUNE_ENOMEM = -2,    /**< allocation failed */
    CUTUNE_EIO = -3,       /**< file could not be read or written */
    CUTUNE_EPARSE = -4,    /**< malformed JSON, expression or journal */
    CUTUNE_EEMPTY = -5,    /**< a space with no valid configuration */
    CUTUNE_ENOTFOUND = -6, /**< unknown name (parameter, searcher, kernel ...) */
    CUTUNE_EMATH = -7,     /**< division by zero, domain error in an expression */
    CUTUNE_ENODEV = -8,    /**< no GPU / driver */
    CUTUNE_EMISMATCH = -9, /**< e.g. a journal from another spec given to --resume */
    CUTUNE_EINTR = -10,    /**< interrupted by a signal */
    CUTUNE_EUNSUPPORTED = -11,
};

/** Status of one evaluation. Only OK is a candidate for best. */
typedef enum cutune_status {
    CUTUNE_STATUS_OK = 0,
    CUTUNE_STATUS_COMPILE_ERROR,
    CUTUNE_STATUS_LAUNCH_ERROR, /**< over a device limit (resources) */
    CUTUNE_STATUS_RUNTIME_ERROR,
    CUTUNE_STATUS_TIMEOUT,
    CUTUNE_STATUS_WRONG_RESULT,
    CUTUNE_STATUS_MISSING, /**< replay: not in the recording (never invented) */
    CUTUNE_STATUS_COUNT
} cutune_status;

/** "ok", "compile_error", ... ; "missing" for CUTUNE_STATUS_MISSING. */
const char *cutune_status_name(cutune_status s);
/** Inverse of cutune_status_name; returns -1 for an unknown name. */
int cutune_status_from_name(const char *name);

/** A typed scalar: parameter values, problem sizes, expression results. */
typedef enum cutune_value_type {
    CUTUNE_VALUE_INT = 0,
    CUTUNE_VALUE_REAL,
    CUTUNE_VALUE_STRING
} cutune_value_type;

typedef struct cutune_value {
    cutune_value_type type; /**< which member holds the value */
    long long i;            /**< INT */
    double r;               /**< REAL */
    const char *s;          /**< STRING (not owned by the value) */
} cutune_value;

/** Numeric view: i as double for INT, r for REAL, NAN for STRING. */
double cutune_value_as_double(const cutune_value *v);

/**
 * Print v as Python prints it (Kernel Tuner cache keys): 32, 1.0, 0.5, 1e-05,
 * strings bare. Returns the snprintf-style length.
 */
int cutune_value_format(const cutune_value *v, char *buf, size_t len);

/** Print into err (may be NULL) like snprintf; returns code, for `return cutune_err(...)`. */
int cutune_err(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Monotonic clock in seconds. */
double cutune_now(void);

/** FNV-1a, 64-bit (Fowler, Noll, Vo): h = the running hash (0xcbf29ce484222325 to start). */
uint64_t cutune_fnv1a(uint64_t h, const void *data, size_t n);

/**
 * Read a whole file into *out (NUL-terminated, free()d by the caller), its length in
 * *len. Returns 0, or CUTUNE_EIO / CUTUNE_ENOMEM with "PATH: cannot open: ..." (or
 * "read error", "out of memory") in err; errno is left as the failure set it.
 */
int cutune_read_file(const char *path, char **out, size_t *len, char *err, size_t errlen);

/**
 * Write text (NULL: empty) as one CSV field (RFC 4180): in quotes, quotes doubled, when
 * always is set or the text holds a comma, a quote or a line break; as it is otherwise.
 */
void cutune_csv_text(FILE *f, const char *text, int always);

#endif
