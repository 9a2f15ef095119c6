/**
 * @file manifest.h
 * @brief What regenerates a result: the manifest every `cutune bench` result and every
 *        tuning run's summary carries (docs/reproducibility.md).
 *
 * A manifest is a JSON object: the cutune version and source commit (with a flag for
 * uncommitted changes; "unknown" in a build from a tarball without git), the build type
 * and options, the BLAS/LAPACK libraries loaded and the library that provides cblas_*,
 * the CPU and the OS, every recording's SHA-256 and size, the convention and
 * restrictions, every searcher with its options resolved (defaults written out, per
 * budget), the seeds, budgets and the exact command line. Its identity, "COMMIT7-HASH8",
 * names the experiment: the commit and the first 8 hex digits of the SHA-256 of the part
 * that decides the numbers (recordings' hashes, convention, restrictions, searchers and
 * their options, budgets, seeds, parallel; a tuning run's objective, constraints, batch,
 * time limit and warm start), not of the machine it ran on.
 */
#ifndef CUTUNE_MANIFEST_H
#define CUTUNE_MANIFEST_H

#include <stddef.h>

#include "cutune/searcher.h"

/** The restrictions one recording's space was searched under (bench), where they are known. */
typedef struct cutune_manifest_space {
    int known;                       /**< 0: none known (the recorded configurations stood in) */
    const char *const *restrictions; /**< the n expressions in force (none: the whole product) */
    size_t n;                        /**< ... their count */
    const char *file;    /**< the restrictions file they were read from, or NULL: --restrict */
    const char *section; /**< that file's section ("FILE:LINE"), or NULL */
} cutune_manifest_space;

/** What an experiment was (views; valid during cutune_manifest_build). */
typedef struct cutune_manifest_input {
    const char *kind;                         /**< "bench" or "tune" */
    int argc;                                 /**< the command line, exactly as given */
    char *const *argv;                        /**< ... argv[0] first */
    const char *const *recordings;            /**< files the results are computed from */
    size_t nrecordings;                       /**< ... their count */
    const char *convention;                   /**< e.g. "constraint-aware", "both"; or NULL */
    const char *const *restrictions;          /**< restriction expressions, or NULL */
    size_t nrestrictions;                     /**< ... their count */
    const cutune_manifest_space *spaces;      /**< [nrecordings] (bench), or NULL */
    const cutune_searcher_type *const *types; /**< searcher types */
    const char *const *args;                  /**< their ARGS (NULL entries: none) */
    const char *const *labels;                /**< their labels in the output (NULL: the names) */
    size_t nsearchers;                        /**< ... their count */
    const size_t *budgets;                    /**< evaluation budgets */
    size_t nbudgets;                          /**< ... their count */
    unsigned long seed_first;                 /**< seeds seed_first .. seed_first + nseeds - 1 */
    size_t nseeds;                            /**< ... their count */
    size_t parallel;                          /**< evaluations in flight (1: one at a time) */
    /* A tuning run's choices that change its result (written, and part of the identity,
     * only where they differ from a plain run's: bench manifests are unchanged by them) */
    const char *objective;         /**< when not time (its text, :max included), or NULL */
    const char *const *subject_to; /**< its constraints */
    size_t nsubject_to;            /**< ... their count */
    size_t batch;                  /**< proposals per round, when above 1 */
    double time_limit_s;           /**< --time-limit, when above 0 */
    const char *warm_start_prior;  /**< the warm start's prior hash, or NULL (its source
                                        file is one of the recordings) */
    /* A bench's extra tables (written only when set; not part of the identity: the cells
     * are the same with and without them) */
    int split;    /**< --split: the leave-one-GPU-out tables */
    int per_seed; /**< --per-seed: runs.csv */
} cutune_manifest_input;

/**
 * Build the manifest of in: *json (caller frees with free()) gets the object as indented
 * JSON text, identity (at least 24 bytes) its short identity. Every recording is read
 * once for its hash, and so is every restrictions file of in->spaces (its SHA-256 is
 * recorded with the expressions read from it). Returns 0, or CUTUNE_EIO naming an
 * unreadable recording or restrictions file, or CUTUNE_ENOMEM.
 */
int cutune_manifest_build(const cutune_manifest_input *in, char **json, char *identity, char *err,
                          size_t errlen);

/**
 * Add "manifest": the object json to the JSON file at path (a tuning run's summary),
 * rewriting it through a cutune_outfile. Returns 0, or CUTUNE_EIO / CUTUNE_EPARSE naming
 * path.
 */
int cutune_manifest_attach(const char *path, const char *json, char *err, size_t errlen);

/** The source commit cutune was built from (40 hex digits), or "unknown". */
const char *cutune_manifest_commit(void);

/** 1 when the build had uncommitted changes, 0 when not, -1 when unknown. */
int cutune_manifest_dirty(void);

#endif
