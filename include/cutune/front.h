/**
 * @file front.h
 * @brief The Pareto front of a run with several objectives (--objectives): the feasible
 *        evaluations' objective values, non-dominated sorting, the hypervolume and the
 *        exports (JSON, CSV, a gnuplot plot). docs/objectives.md#several-objectives.
 */
#ifndef CUTUNE_FRONT_H
#define CUTUNE_FRONT_H

#include "cutune/objective.h"
#include "cutune/tuner.h"

#define CUTUNE_FRONT_MAX_OBJECTIVES 16

typedef struct cutune_front {
    size_t k;      /**< objectives */
    size_t n;      /**< feasible evaluations (every objective computed) */
    long *hist;    /**< n: their history entries, in history order */
    double *v;     /**< n x k: the values as the user reads them */
    double *f;     /**< n x k: minimised (v, or -v for a maximised objective) */
    size_t *rank;  /**< n: 0 on the front, 1 behind it ... (cutune_pareto_sort) */
    size_t nfront; /**< evaluations of rank 0 */
    double ref[CUTUNE_FRONT_MAX_OBJECTIVES]; /**< reference point, minimised form: per
                                                  objective the worst value plus 10% of the
                                                  range (plus 10% of |worst|, or 1, when all
                                                  are equal) */
    double hv; /**< hypervolume against ref (two objectives; NAN otherwise) */
} cutune_front;

/** The front of hist under o's parts. 0, or CUTUNE_ENOMEM. out is freed by _free. */
int cutune_front_compute(const cutune_objective *o, const cutune_history *hist, cutune_front *out,
                         char *err, size_t errlen);
void cutune_front_free(cutune_front *f);

/**
 * Write PREFIX.json (the objectives, the reference point, the hypervolume, the front's
 * configurations and values), PREFIX.csv (every feasible evaluation: id, parameters,
 * values, rank) and PREFIX.gp (a gnuplot script drawing PREFIX.svg: the evaluations and
 * the front, two objectives), each through cutune_outfile; then run gnuplot on the script
 * where it is installed (*plotted 1; its absence is no error).
 */
int cutune_front_write(const char *prefix, const cutune_space *s, const cutune_objective *o,
                       const cutune_front *f, const cutune_history *hist, int *plotted, char *err,
                       size_t errlen);

#endif
