/**
 * @file gp.h
 * @brief Gaussian-process regression surrogate for the Bayesian-optimisation searcher.
 *
 * A stationary GP with a constant mean, one length-scale per input
 * dimension (ARD), a signal variance and a noise variance:
 *
 *     y = m + f(x) + e,  f ~ GP(0, sf2 * k(r)),  e ~ N(0, sn2),
 *     r^2 = sum_j ((x_j - x'_j) / ell_j)^2.
 *
 * Kernels: Matern 5/2, Matern 3/2 and squared exponential (Rasmussen & Williams,
 * "Gaussian Processes for Machine Learning", 2006, eq. 4.9, 4.17). The factor of
 * K + sn2 I is a lower Cholesky factor (src/gp/gp_dense.c: a fixed order of
 * operations); an observation added between refits extends the factor by one row in
 * O(n^2) instead of refactorising; removing the last points (fantasies of a batch) is O(1).
 *
 * Hyper-parameters are fitted by maximising the log marginal likelihood (R&W eq. 2.30)
 * with its analytic gradient (R&W eq. 5.9) using GSL's BFGS2 from several starts, in log
 * space, each bounded through a logistic transform. A weak log-normal prior on the
 * length-scales may be added (maximum a posteriori).
 *
 * Inputs are expected in [0,1]^dim (cutune_space_encode); targets are whatever the
 * caller gives (the BO searcher passes standardised log-times).
 *
 * All functions return 0 or a negative CUTUNE_E* code with a message in err.
 * The GP never aborts: GSL's error handler is switched off by cutune_gp_fit.
 */
#ifndef CUTUNE_GP_H
#define CUTUNE_GP_H

#include <signal.h>

#include <gsl/gsl_rng.h>
#include "cutune/common.h"

/** Covariance function family. */
typedef enum cutune_gp_kernel {
    CUTUNE_GP_MATERN52 = 0, /**< Matern nu = 5/2 (default) */
    CUTUNE_GP_MATERN32,     /**< Matern nu = 3/2 */
    CUTUNE_GP_SE,           /**< squared exponential */
} cutune_gp_kernel;

/** "matern52", "matern32", "se"; NULL for an unknown value. */
const char *cutune_gp_kernel_name(cutune_gp_kernel k);
/** Inverse of cutune_gp_kernel_name (also accepts "rbf"); -1 when unknown. */
int cutune_gp_kernel_from_name(const char *name);

typedef struct cutune_gp cutune_gp;

/** Hyper-parameters in natural units (ell has dim entries, owned by the caller). */
typedef struct cutune_gp_hyper {
    const double *ell; /**< length-scales, one per dimension (> 0) */
    double sf2;        /**< signal variance (> 0) */
    double sn2;        /**< noise variance (> 0) */
    double mean;       /**< constant prior mean */
    double add;        /**< weight of the second-order additive term, in [0, 1); 0: the plain
                            stationary kernel (see cutune_gp_lml) */
    double lin;        /**< weight of the linear term (>= 0; 0: none, see cutune_gp_lml) */
} cutune_gp_hyper;

/** Search box and prior of the hyper-parameter fit (natural units). */
typedef struct cutune_gp_fit_options {
    double ell_min, ell_max;   /**< length-scale bounds */
    double sf2_min, sf2_max;   /**< signal variance bounds */
    double sn2_min, sn2_max;   /**< noise variance bounds */
    double mean_min, mean_max; /**< constant mean bounds (mean_min == mean_max fixes it) */
    double add_min, add_max;   /**< bounds of the additive weight (equal: fixed; default 0) */
    double lin_min, lin_max;   /**< bounds of the linear weight (lin_max 0, the default: no
                                    linear term; otherwise 0 < lin_min <= lin_max, fitted in
                                    log space, fixed when equal) */
    double ell_prior_mu;       /**< log-normal prior on ell: mean of log ell */
    double ell_prior_sd;       /**< its standard deviation; <= 0 disables the prior */
    size_t nstarts;            /**< random starts besides the current hyper-parameters */
    size_t max_iter;           /**< BFGS iterations per start */
    double min_gain;           /**< keep the current hyper-parameters, factor and row stamps
                                    untouched unless the fit improves the objective by more
                                    than this (nats); 0 (default) always takes the best */
    /** Appended: NULL (default), or a run's stop flag: at 2 or more (a stop that must not
     *  wait) the fit ends before its next start or iteration with the best it has, so a
     *  fit over thousands of points does not hold a stop for tens of seconds. */
    const volatile sig_atomic_t *stop;
} cutune_gp_fit_options;

/** Defaults for inputs in [0,1]^d and standardised targets. */
void cutune_gp_fit_options_default(cutune_gp_fit_options *o);

/**
 * Allocate an empty GP over dim inputs with default hyper-parameters
 * (ell = 0.5, sf2 = 1, sn2 = 1e-3, mean = 0). Returns NULL when out of memory.
 */
cutune_gp *cutune_gp_alloc(size_t dim, cutune_gp_kernel kernel);
/** Free; NULL is a no-op. */
void cutune_gp_free(cutune_gp *gp);

size_t cutune_gp_dim(const cutune_gp *gp);
/** Number of observations held (including fantasies). */
size_t cutune_gp_n(const cutune_gp *gp);
/** Jitter added to the diagonal by the last factorisation (0 when none was needed). */
double cutune_gp_jitter(const cutune_gp *gp);

/** Counter bumped by every full factorisation (new data or hyper-parameters); unchanged
 *  by appends, truncations and a fit that keeps the current model (min_gain). */
unsigned long cutune_gp_generation(const cutune_gp *gp);

/** Read the current hyper-parameters; ell points into the GP (valid until the next call). */
void cutune_gp_get_hyper(const cutune_gp *gp, cutune_gp_hyper *h);
/** Set hyper-parameters and refactorise the held data. */
int cutune_gp_set_hyper(cutune_gp *gp, const cutune_gp_hyper *h, char *err, size_t errlen);

/**
 * Replace the data by n points (X row-major n x dim, y n) and factorise.
 * Points are copied.
 */
int cutune_gp_set_data(cutune_gp *gp, const double *X, const double *y, size_t n, char *err,
                       size_t errlen);

/**
 * Replace the targets of the first n held points by y (n at most the points held; the
 * points beyond are dropped), keeping the inputs, the hyper-parameters and the Cholesky
 * factor, which does not depend on the targets: O(n^2) for alpha, no refactorisation
 * (cutune_gp_set_data with the same inputs refactorises in O(n^3)). The generation and the
 * row stamps stay, so a prediction cache keeps its O(m n) matrix and refreshes only its
 * mean (O(m n)) at the next sync. bo re-warps its targets at every refit this way.
 */
int cutune_gp_set_targets(cutune_gp *gp, const double *y, size_t n, char *err, size_t errlen);

/**
 * Append one observation, extending the Cholesky factor by one row in O(n^2)
 * (L_new = [L 0; l' d], l = L \ k, d = sqrt(k(x,x) + sn2 - l'l)), then refresh
 * alpha = K^-1 (y - m) in O(n^2). A non-positive pivot gets jitter, never a failure.
 */
int cutune_gp_add(cutune_gp *gp, const double *x, double y, char *err, size_t errlen);

/** Drop observations beyond the first n (O(n^2) to refresh alpha). */
int cutune_gp_truncate(cutune_gp *gp, size_t n, char *err, size_t errlen);

/**
 * Full refactorisation of the held data with the current hyper-parameters
 * (escalating jitter when K is not positive definite).
 */
int cutune_gp_factorize(cutune_gp *gp, char *err, size_t errlen);

/**
 * Posterior mean and variance of the latent f (plus the constant mean, without
 * noise) at m points Xs (row-major m x dim). var may be NULL. One candidate at a
 * time in a fixed order of operations (src/gp/gp_dense.c; R&W Algorithm 2.1), so the
 * same bits on every machine.
 */
int cutune_gp_predict(const cutune_gp *gp, const double *Xs, size_t m, double *mean, double *var,
                      char *err, size_t errlen);

/**
 * Log marginal likelihood (R&W eq. 2.30) at the current hyper-parameters; when
 * grad is not NULL it receives the derivatives with respect to
 * (log ell_1 .. log ell_dim, log sf2, log sn2, mean, add, log lin), dim + 5 entries (R&W eq. 5.9);
 * the add entry is computed only while add > 0 (0 otherwise: the default kernel's
 * gradient costs no extra exp per pair; a fit with a free weight stays inside (0, 1)).
 *
 * The covariance is sf2 [(1 - add) k(r) + add e2(x, x') / C(dim, 2)]: k the stationary ARD
 * kernel of the scaled distance r, e2 = sum over pairs i < j of k_i k_j with k_j =
 * exp(-t_j^2 / 2), t_j = (x_j - x'_j) / ell_j: the second-order additive kernel of
 * Duvenaud, Nickisch & Rasmussen (NIPS 2011) on the same length-scales. It models effects
 * of pairs of parameters that hold wherever the other parameters are (the stationary
 * kernel only generalises to configurations near in every dimension). With dim < 2 the
 * additive term is the first-order one (e1 = k_1).
 * With lin > 0 the covariance gains sf2 lin (x - c).(x' - c), c the centre of the unit box:
 * a linear trend with coefficients ~ N(0, sf2 lin) (Bayesian linear regression, R&W
 * section 2.7, as a kernel). The stationary part then models what the trend leaves, so
 * its length-scales can be short where the data are local, while the trend still
 * extrapolates toward the ends of the ranges. The log lin entry is computed only while
 * lin > 0. Returns -INFINITY when nothing is held.
 */
double cutune_gp_lml(cutune_gp *gp, double *grad);

/**
 * Fit hyper-parameters by maximising the log marginal likelihood (plus the
 * optional length-scale prior) with GSL BFGS2 from the current values and
 * o->nstarts random starts drawn from rng. Keeps the best (or, with o->min_gain > 0,
 * the current model unless the best beats it by more than min_gain, so that a
 * prediction cache need not be rebuilt for an insignificant change); leaves the GP
 * factorised. A start that fails numerically is skipped; with no usable start the
 * previous hyper-parameters are kept (and 0 is returned). CUTUNE_EINVAL unless
 * 0 <= add_min <= add_max < 1.
 */
int cutune_gp_fit(cutune_gp *gp, const cutune_gp_fit_options *o, gsl_rng *rng, char *err,
                  size_t errlen);

/* ---- prediction cache over a fixed candidate set ---- */

/**
 * Posterior mean and variance over a fixed set of m candidates, kept up to date as the
 * GP grows: with V = K(Xc, X) L^-T (m x n) and z = L^-1 (y - mean), the mean is
 * mean + V z and the variance sf2 - rowsum(V.^2). An observation appended to the GP
 * (cutune_gp_add) adds one column of V in O(n m), instead of O(n^2 m) for a fresh
 * prediction. A refactorisation (new data or hyper-parameters) rebuilds it (dgemm,
 * dtrsm over candidate blocks).
 */
typedef struct cutune_gp_cache cutune_gp_cache;

/**
 * Cache over Xc (m x dim, row-major; a view that must outlive the cache). Returns
 * NULL when out of memory. Nothing is computed until cutune_gp_cache_sync.
 */
cutune_gp_cache *cutune_gp_cache_alloc(const double *Xc, size_t m, size_t dim);
void cutune_gp_cache_free(cutune_gp_cache *c);
/**
 * Bring the cache up to date with gp: append columns for points added since the last
 * sync, return to the snapshot when gp was truncated back to it, rebuild otherwise.
 */
int cutune_gp_cache_sync(cutune_gp_cache *c, const cutune_gp *gp, char *err, size_t errlen);
/** Remember the current state so that a later truncation back to it is O(m). */
int cutune_gp_cache_snapshot(cutune_gp_cache *c, char *err, size_t errlen);
/** Posterior mean (m entries) after the last sync. */
const double *cutune_gp_cache_mean(const cutune_gp_cache *c);
/** Posterior variance (m entries) after the last sync. */
const double *cutune_gp_cache_var(const cutune_gp_cache *c);
/** Bytes a cache over m candidates holds once it has grown to n observations (its
 *  capacity grows by doubling; for memory budgets). */
double cutune_gp_cache_bytes(size_t m, size_t n);

/* ---- acquisition functions (minimisation) ---- */

/**
 * Expected improvement below best: E[max(best - xi - f, 0)] for f ~ N(mu, sigma^2)
 * (Jones, Schonlau & Welch 1998, eq. 15). sigma <= 0 gives max(best - xi - mu, 0).
 */
double cutune_gp_ei(double mu, double sigma, double best, double xi);
/** log of cutune_gp_ei, accurate far in the tail (where ei underflows). */
double cutune_gp_log_ei(double mu, double sigma, double best, double xi);
/** Probability of improvement P(f < best - xi) (Kushner 1964). */
double cutune_gp_pi(double mu, double sigma, double best, double xi);
/** Lower confidence bound mu - beta * sigma (smaller is better). */
double cutune_gp_lcb(double mu, double sigma, double beta);

/* ---- output warping (targets before the GP) ---- */

/** Monotone transform of the observed values v (the BO searcher: log times) into GP
 *  targets; always followed by standardisation to mean 0, sd 1 over the fitted data. */
typedef enum cutune_gp_warp_kind {
    CUTUNE_GP_WARP_NONE = 0, /**< y = standardised v */
    CUTUNE_GP_WARP_BOXCOX,   /**< Box-Cox power transform of exp(v) (lambda by maximum
                                  likelihood), i.e. expm1(lambda (v - c)) / lambda */
    CUTUNE_GP_WARP_COPULA,   /**< Gaussian copula: Phi^-1 of the mid-rank, interpolated */
} cutune_gp_warp_kind;

/** A fitted warp: fixed between fits, so that values observed later map consistently. */
typedef struct cutune_gp_warp {
    cutune_gp_warp_kind kind;
    double c;        /**< centre of v at the fit (mean) */
    double lambda;   /**< Box-Cox exponent (0: log, i.e. plain standardisation) */
    double zm, zs;   /**< standardisation of the warped values */
    double *kv, *kz; /**< copula knots: sorted distinct v and their normal scores */
    size_t nk, capk; /**< knots held, capacity */
    double slope;    /**< copula: slope beyond the outer knots */
} cutune_gp_warp;

/** Box-Cox exponent bounds of cutune_gp_warp_fit. */
#define CUTUNE_GP_BOXCOX_MIN (-2.0)
#define CUTUNE_GP_BOXCOX_MAX 2.0

/** Fit a warp of the given kind to v[0..n). w must be zeroed or previously fitted. */
int cutune_gp_warp_fit(cutune_gp_warp *w, cutune_gp_warp_kind kind, const double *v, size_t n);
/** Warped, standardised value of v (monotone increasing in v). */
double cutune_gp_warp_apply(const cutune_gp_warp *w, double v);
/** d apply / d v. */
double cutune_gp_warp_deriv(const cutune_gp_warp *w, double v);
/** Inverse of cutune_gp_warp_apply (NAN outside its range). */
double cutune_gp_warp_inverse(const cutune_gp_warp *w, double y);
/** Release the knots; w is left unfitted (kind NONE, identity). */
void cutune_gp_warp_free(cutune_gp_warp *w);
/** "none", "boxcox", "copula"; -1 for an unknown name. */
int cutune_gp_warp_from_name(const char *name);

#endif
