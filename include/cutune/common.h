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
    CUTUNE_EBUSY = -12, /**< a journal belongs to another run: locked, or already there */
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

/** Whether text is a plain decimal number, as JSON writes one: [-+]digits[.digits]
 *  [e[-+]digits], a digit before the exponent. Not hexadecimal (0x10), inf, nan, nor
 *  leading or trailing blanks, all of which strtod (and strtol) take. */
int cutune_is_decimal(const char *text);

/** Print into err (may be NULL) like snprintf; returns code, for `return cutune_err(...)`. */
int cutune_err(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Monotonic clock in seconds. */
double cutune_now(void);

/** FNV-1a, 64-bit (Fowler, Noll, Vo): h = the running hash (0xcbf29ce484222325 to start). */
uint64_t cutune_fnv1a(uint64_t h, const void *data, size_t n);

/** Default limit on the bytes of any file cutune reads, and on what a gzip file inflates
 *  to (256 MiB; the largest Kernel Tuner cache met inflates to 12 MB). */
#define CUTUNE_MAX_INPUT_DEFAULT ((size_t)256 << 20)

/**
 * The input limit in bytes: $CUTUNE_MAX_INPUT_BYTES (decimal digits, optionally followed by
 * K, M or G for 2^10, 2^20, 2^30), else CUTUNE_MAX_INPUT_DEFAULT. Returns 0, or
 * CUTUNE_EINVAL (naming the variable) when it is set to something else or to 0.
 */
int cutune_input_limit(size_t *limit, char *err, size_t errlen);

/** "PATH: larger than the input limit of N bytes (...)" into err; returns CUTUNE_EINVAL. */
int cutune_input_too_large(const char *path, size_t limit, char *err, size_t errlen);

/**
 * Open path for reading when it is a regular file. A FIFO, a device (/dev/zero), a socket
 * or a directory is refused (CUTUNE_EINVAL, "PATH: is a FIFO (pipe): ...") without
 * waiting: the type is checked with stat before the open (O_NONBLOCK, O_NOCTTY) and with
 * fstat after it. Other failures: CUTUNE_EIO, "PATH: cannot open: REASON".
 * @param fd receives the descriptor (blocking, close-on-exec); the caller closes it.
 */
int cutune_open_input(const char *path, int *fd, char *err, size_t errlen);

/**
 * Read a whole regular file (cutune_open_input) into *out (NUL-terminated, free()d by the
 * caller), its length in *len. Returns 0, or a negative code with the message in err:
 * "PATH: cannot open: ...", "PATH: is a FIFO ...", "PATH: larger than the input limit
 * of N bytes" (cutune_input_limit; CUTUNE_EINVAL), "read error", "out of memory"; errno
 * is left as the failure set it.
 */
int cutune_read_file(const char *path, char **out, size_t *len, char *err, size_t errlen);

/**
 * Write text (NULL: empty) as one CSV field (RFC 4180): in quotes, quotes doubled, when
 * always is set or the text holds a comma, a quote or a line break; as it is otherwise.
 */
void cutune_csv_text(FILE *f, const char *text, int always);

/**
 * A file being written without destroying anything (outfile.c, docs/hardening.md): the
 * bytes go to a temporary created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) under an
 * unpredictable name ".NAME.XXXXXXXXXX" in the final path's folder, which
 * cutune_outfile_commit fsyncs and renames onto the path. Every file cutune writes goes
 * through it: a failure leaves the old file (or none), and no link planted at the
 * temporary or the final path is ever written through.
 */
typedef struct cutune_outfile cutune_outfile;

/** cutune_outfile_open flags. */
enum cutune_outfile_flags {
    CUTUNE_OUTFILE_NOREPLACE = 1u, /**< commit fails (CUTUNE_EBUSY) where path exists */
};

/**
 * Start writing path: creates the temporary (mode, less the umask; an existing regular
 * file's permissions are kept when it is replaced). Refused, naming path: a path that is
 * a directory, a symbolic link, or anything but a regular file (CUTUNE_EINVAL); one that
 * exists under CUTUNE_OUTFILE_NOREPLACE (CUTUNE_EBUSY); a folder the temporary cannot be
 * made in (CUTUNE_EIO).
 * @param out receives the handle, freed by cutune_outfile_commit or _abort.
 */
int cutune_outfile_open(const char *path, unsigned flags, int mode, cutune_outfile **out, char *err,
                        size_t errlen);
/** A stdio stream on the temporary (made on first call; owned by o). NULL: out of memory. */
FILE *cutune_outfile_stream(cutune_outfile *o);
/** The temporary's descriptor, for write(2) (do not mix with the stream). */
int cutune_outfile_fd(const cutune_outfile *o);
/** The temporary's path (for tests and messages). */
const char *cutune_outfile_tmp_path(const cutune_outfile *o);

/**
 * Flush and fsync the temporary, then put it at its path: rename(2) (replacing the
 * regular file there, never writing through a link), or under CUTUNE_OUTFILE_NOREPLACE a
 * rename that fails where anything exists. The path is checked again first (a directory,
 * link or special file that appeared since _open is refused). Frees o whatever happens;
 * on failure the temporary is removed and the path left as it was.
 * @param keep_fd NULL, or receives the descriptor, left open (the caller closes it; only
 *        when no stream was made): a journal keeps writing, and keeps its lock.
 */
int cutune_outfile_commit(cutune_outfile *o, int *keep_fd, char *err, size_t errlen);
/**
 * Flush and fsync the temporary, nothing put at the path yet: a write that failed (a full
 * disk) is found here, so that files published together (cutune bench's) are committed
 * only once every one of them is whole. On failure o is freed and its temporary removed,
 * as by _commit; on success o stays open for cutune_outfile_commit or _abort.
 */
int cutune_outfile_sync(cutune_outfile *o, char *err, size_t errlen);
/** Remove the temporary and free o (NULL: a no-op); the path is left as it was. */
void cutune_outfile_abort(cutune_outfile *o);
/**
 * Remove every temporary this process has open (not yet committed or aborted), leaving
 * their paths as they were. Async-signal-safe: for a handler of a signal that then ends
 * the process, so that it leaves no temporary behind.
 */
void cutune_outfile_remove_temporaries(void);

/**
 * Whether paths a and b name one file: the same real folder and name, or (where both
 * exist) the same device and inode. Spellings ("./x", "d/../x", a linked folder) and
 * links to a file count as the file itself.
 */
int cutune_path_same(const char *a, const char *b);

#endif
