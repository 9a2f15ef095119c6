/**
 * @file db.h
 * @brief The tuning database (SQLite): every evaluation of every run, kept across runs.
 *
 * A measurement is keyed by the kernel (its name and the hash of its spec and source,
 * without the sizes), the configuration (a JSON object in parameter order), the problem
 * sizes (a JSON object in the spec's order), the compile options, and the GPU
 * fingerprint (name, SM count, memory, driver and CUDA versions; the clocks are kept
 * beside it, not in it). Under replay the fingerprint is the recording's device name.
 *
 * The file is in WAL mode with a busy timeout; every evaluation is one transaction, so a
 * process killed mid-run loses at most the evaluation it was writing, and several
 * processes may write one database at once. The schema's version is PRAGMA
 * user_version (CUTUNE_DB_SCHEMA_VERSION); an older database is migrated on open, a
 * newer one refused. docs/database.md describes the tables.
 */
#ifndef CUTUNE_DB_H
#define CUTUNE_DB_H

#include "cutune/common.h"
#include "cutune/evaluator.h"

/** The schema this build writes: 1 the first; 2 adds evaluations.reused_from (answers
 *  reused from earlier runs are stored too, marked) and runs.clocks. */
#define CUTUNE_DB_SCHEMA_VERSION 2
/** PRAGMA application_id of a cutune database ("cuTn"). */
#define CUTUNE_DB_APPLICATION_ID 0x6375546e
/** Seconds a process waits for another one's write lock (busy timeout) by default;
 *  $CUTUNE_DB_TIMEOUT overrides it. */
#define CUTUNE_DB_TIMEOUT_DEFAULT 10.0

typedef struct cutune_db cutune_db;

/** cutune_db_open flags. */
enum cutune_db_open_flags {
    CUTUNE_DB_READONLY = 1u, /**< read only: never created, migrated or written */
    CUTUNE_DB_EXISTING = 2u, /**< written, but never created: CUTUNE_ENOTFOUND if absent */
};

/** Where the GPU that measures is, in the terms the database keys it by. */
typedef struct cutune_db_gpu {
    char fingerprint[512]; /**< the key: "NAME|N SMs|M MiB|driver D|CUDA C", or under
                                replay "NAME|recording HASH" (cutune_db_gpu_from_recording) */
    char name[160];        /**< device name */
    int sm_count;          /**< 0: unknown */
    long long memory_mib;  /**< 0: unknown */
    char driver[48];       /**< driver version ("580.159.04"), "" unknown */
    char cuda[16];         /**< CUDA version the driver provides ("13.0"), "" unknown */
    char clocks[96];       /**< "sm 1980 MHz, memory 3201 MHz": recorded beside, not a key */
} cutune_db_gpu;

/** What an evaluation measured: the key of every row (strings owned by the key). */
typedef struct cutune_db_key {
    char kernel[256];     /**< the spec's name, or the recording's kernel name */
    char kernel_hash[17]; /**< hex: the spec's JSON and source (not its sizes), or a
                             recording's parameters and values */
    char sizes[2048];     /**< JSON object of the problem sizes ("{}" for none) */
    char options[2048];   /**< JSON array: the spec's compiler options, then the
                             evaluator's arguments that change what is compiled */
    cutune_db_gpu gpu;    /**< where */
} cutune_db_key;

/**
 * The default database file: $CUTUNE_DB when set (the word "none": no database, *path
 * set to ""), else $XDG_DATA_HOME/cutune/tuning.db, else ~/.local/share/cutune/tuning.db.
 * The folder is not created here (cutune_db_open does).
 */
int cutune_db_default_path(char *path, size_t len, char *err, size_t errlen);

/**
 * Open (and create, its folder too) the database at path; migrate an older schema, refuse
 * a newer one. Refused, with the file named and the database left as it was: a path that
 * is a directory or a symbolic link, a file that is not a SQLite database or another
 * program's (CUTUNE_EINVAL), a newer schema (CUTUNE_EUNSUPPORTED), a read-only file or
 * folder (CUTUNE_EIO), a lock another process held past the busy timeout (CUTUNE_EBUSY).
 * @param out receives the handle, closed with cutune_db_close.
 */
int cutune_db_open(const char *path, unsigned flags, cutune_db **out, char *err, size_t errlen);
void cutune_db_close(cutune_db *db);
/** The file the handle is on. */
const char *cutune_db_path(const cutune_db *db);
/** Schema version of the open database (after any migration). */
int cutune_db_schema_version(const cutune_db *db);

/**
 * The fingerprint of CUDA device ordinal (driver API and NVML, dlopened: no context is
 * created). CUTUNE_ENODEV when there is no driver or no such device.
 */
int cutune_db_gpu_probe(int ordinal, cutune_db_gpu *g, char *err, size_t errlen);
/** A fingerprint that is a recorded device name (a journal's GPU on import). */
void cutune_db_gpu_from_name(const char *device_name, cutune_db_gpu *g);
struct cutune_recording;
/** The fingerprint of a recording's measurements (replay; imports of recordings):
 *  "DEVICE|recording HASH", HASH over its records (configuration, status, time), so two
 *  recordings that share a device name (Kernel Tuner writes "x86_64" for some) are two
 *  GPUs to the database, and a replay answers only from rows of its own recording. */
void cutune_db_gpu_from_recording(const struct cutune_recording *rec, cutune_db_gpu *g);

struct cutune_spec;
struct cutune_space;

/**
 * The key of a spec's evaluations: its name, hash without sizes, sizes (after overrides),
 * and options (the spec's compiler options, then evaluator_args minus "devices=", which
 * says where, not what). gpu is copied in. CUTUNE_EINVAL when a field would not fit.
 */
int cutune_db_key_spec(const struct cutune_spec *spec, const char *evaluator_args,
                       const cutune_db_gpu *gpu, cutune_db_key *key, char *err, size_t errlen);
/** The key of a recording tuned as its own space: its kernel name (else the file's stem), a
 *  hash of its parameters and values, its recorded sizes, no options. */
int cutune_db_key_recording(const struct cutune_recording *rec, const cutune_db_gpu *gpu,
                            cutune_db_key *key, char *err, size_t errlen);
/** Configuration id of s as the database writes it (JSON, parameter order; malloc'd). */
char *cutune_db_config_text(const struct cutune_space *s, size_t id);
/** The id in s of a configuration text, or -1 (another parameter set, or not valid). */
long long cutune_db_config_id(const struct cutune_space *s, const char *config);

/* ---- One run's evaluations ---- */

typedef struct cutune_db_run cutune_db_run;

/** What the run was (stored with it; all optional). */
typedef struct cutune_db_run_info {
    const char *searcher;  /**< "bo:ARGS" */
    const char *evaluator; /**< "cuda:ARGS", "replay:FILE" */
    unsigned long seed;
    const char *journal; /**< absolute path of the run's journal; a run already stored
                              with it is continued (--resume), or NULL */
    const char *source;  /**< "tune", or "import:FILE" */
} cutune_db_run_info;

/** Start (or, by journal, continue) a run of key in the database. */
int cutune_db_run_begin(cutune_db *db, const cutune_db_key *key, const cutune_db_run_info *info,
                        cutune_db_run **out, char *err, size_t errlen);
/**
 * The latest measurement of config in this run's key, by an earlier run or this one:
 * 1 with *r filled (zeroed by the caller; then owned by it: cutune_eval_result_clear) and
 * *source the row it came from, 0 when there is none. Rows that are themselves reused
 * answers are never returned.
 */
int cutune_db_run_lookup(cutune_db_run *run, const char *config, cutune_eval_result *r,
                         long long *source, char *err, size_t errlen);
/**
 * Store evaluation seq of the run (one transaction). reused_from: the row a reused answer
 * came from, or 0 for a measurement. A seq already stored for this run is left as it is
 * (a resumed run hands its journal's evaluations again).
 */
int cutune_db_run_record(cutune_db_run *run, size_t seq, const char *config,
                         const cutune_eval_result *r, long long reused_from, char *err,
                         size_t errlen);
/**
 * Evaluation seq of the run, from its resumed journal: 1 when the run holds it already
 * (nothing to store), else 0 with *reused_from the latest measurement of config by
 * another run of the key with exactly r's status, time and repetitions (a reused answer
 * whose row a kill took), or 0 when there is none (a measurement).
 */
int cutune_db_run_journaled(cutune_db_run *run, size_t seq, const char *config,
                            const cutune_eval_result *r, long long *reused_from, char *err,
                            size_t errlen);
/**
 * 1 when the database already holds r as a measurement of config in key (kernel, hash,
 * GPU, sizes and options): a row with r's status, time and repetitions, as an export of
 * it imports again; 0 when not. kt: r comes from a Kernel Tuner cache, whose
 * RuntimeFailedConfig stands for a runtime error, a timeout and a wrong result alike.
 */
int cutune_db_holds(cutune_db *db, const cutune_db_key *key, const char *config,
                    const cutune_eval_result *r, int kt, char *err, size_t errlen);
/** The run's row id. */
long long cutune_db_run_id(const cutune_db_run *run);
void cutune_db_run_end(cutune_db_run *run);

/* ---- The tuner loop's store (cutune_tuner_options.store) ---- */

struct cutune_tuner_store;
typedef struct cutune_db_store cutune_db_store;

/**
 * A store for the tuner loop over run: lookup answers a configuration of space from the
 * database when reuse is set (else every configuration is measured: --remeasure), record
 * stores every evaluation (a reused one pointing at the row it came from). run and space
 * must outlive the store.
 */
int cutune_db_store_alloc(cutune_db_run *run, const struct cutune_space *space, int reuse,
                          cutune_db_store **out, char *err, size_t errlen);
/** The hooks to put in cutune_tuner_options.store (a view into st). */
const struct cutune_tuner_store *cutune_db_store_hooks(cutune_db_store *st);
void cutune_db_store_free(cutune_db_store *st);

/* ---- Queries ---- */

/** One stored evaluation (strings malloc'd; freed with the rows). */
typedef struct cutune_db_row {
    long long id, run;
    char *config; /**< JSON object */
    cutune_status status;
    double time_ms; /**< NAN unless OK */
    size_t ntimes;  /**< repetitions stored with it */
    char *gpu;      /**< fingerprint */
    char *sizes;    /**< JSON object */
    char *options;  /**< JSON array */
    char *recorded; /**< ISO 8601 UTC, when it was stored */
} cutune_db_row;

typedef struct cutune_db_rows {
    size_t n;
    cutune_db_row *row;
} cutune_db_rows;

void cutune_db_rows_free(cutune_db_rows *rows);

/**
 * The fastest OK measurement of key (kernel, hash, sizes, options and GPU all equal):
 * 1 and *best filled (its strings freed with cutune_db_row_clear), 0 when the database
 * holds none. *measured (may be NULL) gets how many measurements (any status) the key has.
 */
int cutune_db_best(cutune_db *db, const cutune_db_key *key, cutune_db_row *best, size_t *measured,
                   char *err, size_t errlen);
void cutune_db_row_clear(cutune_db_row *row);

/**
 * The latest measurement of each configuration of key with its whole result (times,
 * costs, metrics, log), newest first: fn(ctx, config, r) per configuration, r owned by
 * the call (fn may move its contents out and zero it). fn returning <0 stops with it.
 */
int cutune_db_each_latest(cutune_db *db, const cutune_db_key *key,
                          int (*fn)(void *ctx, const char *config, cutune_eval_result *r, char *err,
                                    size_t errlen),
                          void *ctx, char *err, size_t errlen);

/** Every measurement of key (not the reused answers), in the order stored. */
int cutune_db_rows_key(cutune_db *db, const cutune_db_key *key, cutune_db_rows **out, char *err,
                       size_t errlen);

/**
 * For warm starts: every measurement (configuration, status, time) of the same kernel
 * (name and hash as in key) on another GPU or at other sizes or options than key's, in
 * the order stored; each row says its GPU, sizes and options. Reused answers are left
 * out. A row's configuration maps onto a space with cutune_db_config_id (-1 where that
 * space lacks it).
 */
int cutune_db_rows_transfer(cutune_db *db, const cutune_db_key *key, cutune_db_rows **out,
                            char *err, size_t errlen);

/** One kernel, GPU, sizes and options the database holds measurements of. */
typedef struct cutune_db_group {
    char *kernel, *kernel_hash, *gpu, *sizes, *options;
    size_t evaluations; /**< measurements (reused answers not counted) */
    size_t ok;          /**< of which OK */
    size_t reused;      /**< answers reused from them */
    double best_ms;     /**< NAN when none is OK */
    char *last;         /**< ISO 8601 UTC of the latest */
} cutune_db_group;

typedef struct cutune_db_groups {
    size_t n;
    cutune_db_group *g;
} cutune_db_groups;

/** Every group, optionally only those of kernel (NULL: all) and whose GPU fingerprint
 *  contains gpu (NULL: all), by kernel, GPU, sizes. */
int cutune_db_groups_list(cutune_db *db, const char *kernel, const char *gpu,
                          cutune_db_groups **out, char *err, size_t errlen);
void cutune_db_groups_free(cutune_db_groups *g);

/** What cutune_db_prune removes (every set field must match; at least one set). */
typedef struct cutune_db_prune_filter {
    const char *kernel; /**< kernel name, or NULL */
    const char *gpu;    /**< substring of the fingerprint, or NULL */
    const char *before; /**< ISO 8601 UTC (a final Z optional): stored before it, or NULL */
    int failed;         /**< only evaluations that are not OK */
    int all;            /**< no filter: everything */
} cutune_db_prune_filter;

/**
 * Delete the evaluations f selects (with the reused answers that came from them), then
 * runs, kernels and GPUs left without any; one transaction. *removed gets how many
 * evaluations went.
 */
int cutune_db_prune(cutune_db *db, const cutune_db_prune_filter *f, size_t *removed, char *err,
                    size_t errlen);

#endif
