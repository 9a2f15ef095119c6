/**
 * @file recording.h
 * @brief Recorded measurements: Kernel Tuner cache JSON (plain or gzip) and
 *        cutune journals, loaded into one in-memory form.
 */
#ifndef CUTUNE_RECORDING_H
#define CUTUNE_RECORDING_H

#include "cutune/common.h"
#include "cutune/space.h"

/** A recorded metric of one configuration (a journal's "metrics", a Kernel Tuner cache
 *  entry's other numbers: "GFLOP/s", energy_j ...). */
typedef struct cutune_record_metric {
    char name[32];
    double value;
} cutune_record_metric;

/** One recorded configuration. */
typedef struct cutune_record {
    uint16_t *idx; /**< nparams indices into the recording's value lists */
    cutune_status status;
    double time_ms;   /**< objective when OK */
    double *times_ms; /**< repetitions (may be NULL) */
    size_t ntimes;
    double compile_ms;             /**< <0 when unknown */
    double bench_ms;               /**< verification + benchmark; <0 when unknown */
    size_t nmetrics;               /**< recorded numeric metrics (names of at most 31 bytes) */
    cutune_record_metric *metrics; /**< malloc'd, or NULL */
} cutune_record;

typedef struct cutune_recording {
    char *path;
    char *format; /**< "kernel_tuner" or "cutune_journal" */
    char *device_name;
    char *kernel_name;
    size_t nparams;
    char **param_names;
    size_t *nvalues;
    cutune_value **values; /**< per parameter; STRING values point into texts */
    char ***texts;         /**< values as Python prints them */
    unsigned char *bools;  /**< per parameter: 1 where its list holds only true and false
                                (Python's bools, held as 1 and 0), else 0 */
    size_t nrecords;
    cutune_record *records;
    int has_costs; /**< some record has compile/bench costs */
    /* Journal header fields (format "cutune_journal" only; NULL / 0 otherwise). */
    char *spec_name;     /**< header "spec" */
    char *spec_hash;     /**< header "spec_hash" */
    char *space_hash;    /**< header "space_hash" (hex) */
    char *searcher;      /**< header "searcher" */
    char *evaluator;     /**< header "evaluator" */
    char *searcher_args; /**< header "searcher_args" (NULL when none) */
    char *evaluator_arg; /**< header "evaluator_arg" (NULL when none) */
    char *target;        /**< header "target" (NULL in journals written before it) */
    unsigned long seed;  /**< header "seed" */
    size_t budget;       /**< header "budget" */
    size_t batch;        /**< header "batch" (0: a journal written before it was recorded) */
    size_t parallel;     /**< header "parallel" (0: not recorded; such a run had 1 in flight
                              unless its batch was larger) */
    int cartesian;       /**< header "cartesian": 1, 0, or -1 when a journal lacks it */
    size_t valid;        /**< header "valid": configurations of its space (0: not recorded) */
    int truncated_tail;  /**< a final partial line was ignored (crash mid-write); a Kernel
                              Tuner cache: it was unterminated, and closed as Kernel Tuner
                              closes it */
    size_t nsizes;       /**< header "sizes": the problem sizes it was measured at */
    char **size_names;
    double *size_values;
    char *objective;       /**< what it was tuned for when not time: a Kernel Tuner cache's
                                "objective", a journal header's "objective"; NULL: time */
    int objective_max;     /**< that objective is maximised (a journal's text says so itself) */
    char *subject_to;      /**< a journal header's "subject_to", one constraint a line, or NULL */
    char *warm_start;      /**< header "warm_start": the run's warm-start source (NULL: cold) */
    char *warm_start_hash; /**< header "warm_start_hash": hash of its prior (hex) */
    char *problem_size;    /**< a Kernel Tuner cache's "problem_size" as JSON text (Kernel
                                Tuner refuses to continue a cache of another), or NULL */
    char *gpu; /**< a journal header's "gpu": the GPU fingerprint the tuning database keys a
                    live run's measurements by, or NULL where the header has none */
} cutune_recording;

/**
 * Load a Kernel Tuner cache (.json or .json.gz) or a cutune journal (.jsonl,
 * detected by content). Errors name the file and the JSON path.
 */
int cutune_recording_load(const char *path, cutune_recording **out, char *err, size_t errlen);
/** Same from memory (fuzzing); name is used in messages. */
int cutune_recording_load_buffer(const char *name, const char *data, size_t len,
                                 cutune_recording **out, char *err, size_t errlen);
void cutune_recording_free(cutune_recording *r);

/**
 * Build a space from the recording's parameters. With restrictions (n > 0)
 * the space is the Cartesian product filtered by them; with none and
 * recorded_only set, it is the set of recorded configurations (failed ones
 * included); with none and recorded_only clear, the full Cartesian product.
 * The space is enumerated on return. In recorded_only mode the space's filter
 * reads the recording: the recording must outlive the space.
 */
int cutune_recording_space(const cutune_recording *r, const char *const *restrictions, size_t n,
                           int recorded_only, cutune_space **out, char *err, size_t errlen);

/**
 * Map records onto an enumerated space by parameter name and value text:
 * out[id] = index of the record for id, or -1 when absent. The space's
 * parameters must all exist in the recording (else CUTUNE_EMISMATCH naming
 * the parameter); recording parameters absent from the space must be
 * single-valued.
 */
int cutune_recording_map(const cutune_recording *r, const cutune_space *s, long *out, char *err,
                         size_t errlen);

/**
 * Recorded objective of every configuration of s (for benchmarks):
 * time_ms_out[id] (cutune_space_size(s) entries) is the recorded time, or NAN
 * when the configuration failed or is absent. Errors as cutune_recording_map.
 */
int cutune_recording_table(const cutune_recording *r, const cutune_space *s, double *time_ms_out,
                           char *err, size_t errlen);

#endif
