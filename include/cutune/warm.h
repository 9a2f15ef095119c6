/**
 * @file warm.h
 * @brief Warm starts: results of the same kernel on another GPU or at other sizes, as a
 *        prior over a target space (docs/transfer.md).
 *
 * A source is a list of observations (parameter values as text, status, time), from a
 * Kernel Tuner cache, a cutune journal or a recording (cutune_warm_source_from_recording)
 * or from any other store row by row (cutune_warm_source_add). cutune_warm_prior_build
 * maps it onto an enumerated target space by parameter name and value:
 *
 * - Parameters both have ("shared") carry the transfer; at least one must be shared.
 * - A source parameter the target lacks is pooled over: the observations at each of its
 *   values all speak for the target configuration they project to.
 * - A target parameter the source lacks does not move the prior: every value of it gets
 *   the same prior.
 * - A source observation whose value of a shared parameter the target lacks is dropped
 *   (counted in ndropped); values match by their text as Python prints them, or as equal
 *   numbers.
 * - The source's times become normal scores of their ranks (Phi^-1((r + 1/2) / n), the
 *   fastest lowest): GPUs differ in scale, rarely in order. A failed observation scores as
 *   the slowest. Each target configuration gets the mean score of the source observations
 *   with its shared values; one that no observation has gets the mean of the
 *   CUTUNE_WARM_KNN nearest projections (squared distance in the target's [0,1] encoding
 *   of the shared parameters, ties to the earlier projection). The prior is then
 *   standardised over the target space (mean 0, sd 1; lower means faster).
 */
#ifndef CUTUNE_WARM_H
#define CUTUNE_WARM_H

#include <gsl/gsl_rng.h>

#include "cutune/common.h"
#include "cutune/recording.h"
#include "cutune/space.h"

/** Nearest source projections averaged for a target configuration no observation has. */
#define CUTUNE_WARM_KNN 4

/** Observations of one kernel elsewhere (owned copies). */
typedef struct cutune_warm_source cutune_warm_source;

/**
 * An empty source over nparams parameters named names[0..nparams) (copied); label names
 * it in messages (a path, "database"). NULL when out of memory.
 */
cutune_warm_source *cutune_warm_source_alloc(const char *label, size_t nparams,
                                             const char *const *names);
/** Free; NULL is a no-op. */
void cutune_warm_source_free(cutune_warm_source *src);
/**
 * Append one observation: values[0..nparams) as text (copied), in the order of the names
 * given at alloc; time_ms is read when status is CUTUNE_STATUS_OK. 0 or CUTUNE_ENOMEM.
 */
int cutune_warm_source_add(cutune_warm_source *src, const char *const *values, cutune_status status,
                           double time_ms);
/** Observations held. */
size_t cutune_warm_source_size(const cutune_warm_source *src);
/** Every record of a loaded recording (a Kernel Tuner cache, a journal). */
int cutune_warm_source_from_recording(const cutune_recording *r, cutune_warm_source **out,
                                      char *err, size_t errlen);
/** Load FILE (a Kernel Tuner cache, plain or gzip, or a cutune journal) as a source. */
int cutune_warm_source_load(const char *path, cutune_warm_source **out, char *err, size_t errlen);

/** A source mapped onto an enumerated target space (the interface searchers read). */
typedef struct cutune_warm_prior {
    size_t size;     /**< configurations of the target space */
    double *score;   /**< size entries: standardised prior, lower = expected faster */
    size_t *order;   /**< size ids, lowest score first (ties to the lower id) */
    size_t nshared;  /**< parameters source and target share */
    size_t nused;    /**< source observations mapped */
    size_t ndropped; /**< observations dropped: a shared value the target lacks */
    size_t nexact;   /**< target configurations some source observation projects to */
} cutune_warm_prior;

/**
 * Map src onto the enumerated space sp (rules above). CUTUNE_EMISMATCH with a one-line
 * message naming the source when no parameter is shared ("another kernel") or no
 * observation maps; CUTUNE_EEMPTY when the space is empty.
 */
int cutune_warm_prior_build(const cutune_warm_source *src, const cutune_space *sp,
                            cutune_warm_prior **out, char *err, size_t errlen);
void cutune_warm_prior_free(cutune_warm_prior *p);
/** Whether p orders anything: 0 when it scores every configuration alike (no correct
 *  observation, one, one time for all, or sources that cancel), and a searcher would take
 *  its "best" configurations at random. */
int cutune_warm_prior_informative(const cutune_warm_prior *p);
/**
 * Several sources as one prior: for each configuration the median of their standardised
 * priors (each built by cutune_warm_prior_build over the same space; with an even count,
 * the mean of the middle two), standardised again. A configuration most sources rank fast
 * stays first; one that a single source ranks far from the others does not move: the
 * GPUs' consensus, robust to one GPU that disagrees. nshared and nexact are the largest of
 * the priors', nused and ndropped their sums. CUTUNE_EINVAL when n is 0 or the sizes
 * differ.
 */
int cutune_warm_prior_median(const cutune_warm_prior *const *priors, size_t n,
                             cutune_warm_prior **out, char *err, size_t errlen);
/** FNV-1a hash of the prior's scores (the journal header's "warm_start_hash": a resumed run
 *  checks that its warm start is the one it was started with). */
uint64_t cutune_warm_prior_hash(const cutune_warm_prior *p);

/**
 * The ranking-based design: up to k ids in prior order, each differing from every id
 * chosen before it in at least two parameters (a neighbour of a chosen point is left to
 * the searcher's local steps), skipping ids with skip[id] != 0 (skip may be NULL). Ids of
 * equal prior (a target parameter the source lacks gives every one of its values the same
 * prior) are taken in an order drawn from rng, or by id when rng is NULL: ties by id would
 * send the design to the first value of every such parameter. Returns the count written
 * to out, or 0 when out of memory.
 */
size_t cutune_warm_prior_design(const cutune_warm_prior *p, const cutune_space *sp, size_t k,
                                const uint8_t *skip, gsl_rng *rng, size_t *out);

/**
 * Weight of the prior given n target observations: the Spearman rank correlation rho of
 * prior[i] and y[i] (mid-ranks for ties), less its standard error 1 / sqrt(n - 1) under
 * no correlation, clamped to [0, 1]: the source earns weight only where it ranks the
 * target's own observations better than chance. 0 for n < 3.
 */
double cutune_warm_prior_weight(const double *prior, const double *y, size_t n);
/** Spearman's rank correlation of prior[i] and y[i] (mid-ranks for ties); 0 for n < 2 or
 *  when either is constant. */
double cutune_warm_rank_correlation(const double *prior, const double *y, size_t n);

#endif
