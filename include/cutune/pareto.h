/**
 * @file pareto.h
 * @brief Pareto fronts of several objectives (all minimised): non-dominated sorting and
 *        crowding distance (NSGA-II, Deb et al., IEEE TEC 6(2), 2002, sections III-A and
 *        III-B) and the hypervolume of a two-objective front.
 */
#ifndef CUTUNE_PARETO_H
#define CUTUNE_PARETO_H

#include <stddef.h>

#define CUTUNE_PARETO_NONE ((size_t)-1) /**< rank of a point with a NaN objective */

/**
 * Fast non-dominated sort. f holds n points of m objectives, row-major (point i's
 * objective j at f[i * m + j]), all minimised. rank[i] gets point i's front: 0 for the
 * non-dominated points, 1 for those dominated only by front 0, ...; CUTUNE_PARETO_NONE for a
 * point with a NaN objective (it takes part in no front). a dominates b when a is no worse
 * in every objective and better in one; equal points share a front.
 * @return the number of fronts, or 0 when n is 0 or memory runs out (rank untouched then).
 */
size_t cutune_pareto_sort(const double *f, size_t n, size_t m, size_t *rank);

/**
 * Crowding distance of the k points idx[0..k) of one front (Deb et al. eq. in III-B): per
 * objective, the points sorted by it, the two extremes get infinity and every other point
 * the gap between its neighbours over the objective's range; summed over objectives. An
 * objective of zero range adds nothing. dist[i] is idx[i]'s distance.
 * @return 0, or -1 when memory runs out.
 */
int cutune_pareto_crowding(const double *f, size_t m, const size_t *idx, size_t k, double *dist);

/**
 * Hypervolume of n points of two minimised objectives with respect to the reference point
 * ref: the area dominated by the points and bounded by ref. Points that do not strictly
 * dominate ref (and NaN points) add nothing.
 * @return the area, or -1 when memory runs out.
 */
double cutune_pareto_hv2(const double *f, size_t n, const double ref[2]);

/**
 * Rank (cutune_pareto_sort) and crowding distance (within each rank) of n points: the
 * order NSGA-II selects by. rank, crowd: n entries each. 0, or -1 when memory runs out.
 */
int cutune_pareto_rank_crowd(const double *f, size_t n, size_t m, size_t *rank, double *crowd);

/**
 * NSGA-II's crowded comparison: 1 when point a is preferred to b (a lower rank, or the same
 * rank and a larger crowding distance), else 0.
 */
int cutune_pareto_better(const size_t *rank, const double *crowd, size_t a, size_t b);

/**
 * The point NSGA-II drops first from n: the last by the crowded comparison (the highest
 * rank, the least crowding distance, then the highest index). n > 0. (size_t)-1 when
 * memory runs out.
 */
size_t cutune_pareto_worst(const double *f, size_t n, size_t m);

/**
 * ParEGO's augmented Chebyshev scalarisation (Knowles, IEEE TEVC 10(1), 2006, eq. 2) of one
 * point's m minimised scores f under the weights w (non-negative, summing to 1), each score
 * normalised to [0, 1] by lo and hi (the least and greatest observed): max_j w_j f'_j + rho
 * sum_j w_j f'_j with f'_j = (f_j - lo_j) / (hi_j - lo_j); an objective whose range is zero
 * counts as 0. bo's mo=parego (src/search/bo_parego.c) uses rho = 0.05.
 */
double cutune_pareto_chebyshev(const double *f, const double *w, const double *lo, const double *hi,
                               size_t m, double rho);

/**
 * The front of n points of two minimised objectives that strictly dominate ref, sorted by
 * the first objective (so the second decreases), into out (2 n doubles); dominated points
 * and duplicates dropped. Returns its size k.
 */
size_t cutune_pareto_front2(const double *f, size_t n, const double ref[2], double *out);

/**
 * Expected hypervolume improvement over the front (k points as cutune_pareto_front2 makes
 * them) bounded by ref, of a point whose two objectives are independent normals of means
 * mu and standard deviations sd (0: the point itself, its plain improvement): the exact
 * closed form over the stripes of the non-dominated region (Emmerich, Deutz & Klinkenberg,
 * CEC 2011), O(k). bo's mo=ehvi (src/search/bo_ehvi.c).
 */
double cutune_pareto_ehvi2(const double *front, size_t k, const double ref[2], const double mu[2],
                           const double sd[2]);

#endif
