/* Private layout of cutune_gp, shared by gp_linalg.c (OpenBLAS cblas.h + lapacke.h)
 * and gp_hyper.c (GSL multimin). Keep BLAS/GSL headers out of this file: GSL's
 * gsl_cblas.h and OpenBLAS's cblas.h must never meet in one translation unit. */
#ifndef CUTUNE_GP_INTERNAL_H
#define CUTUNE_GP_INTERNAL_H

#include <stddef.h>
#include "cutune/gp.h"

struct cutune_gp {
    size_t dim;              /**< input dimension */
    cutune_gp_kernel kernel; /**< covariance family */
    size_t n;                /**< observations held */
    size_t cap;              /**< capacity (rows of X, leading dimension of L) */
    double *ell;             /**< dim length-scales */
    double sf2;              /**< signal variance */
    double sn2;              /**< noise variance */
    double mean;             /**< constant mean */
    double jitter;           /**< extra diagonal of the current factor */
    double *X;               /**< cap x dim inputs, row-major */
    double *y;               /**< cap targets */
    double *L;               /**< cap x cap lower Cholesky factor, column-major, ld = cap */
    double *alpha;           /**< K^-1 (y - mean), n entries */
    double *work;            /**< cap x cap scratch (K^-1 for the gradient) */
    double *Kf; /**< cap x cap noise-free kernel / sf2 (lower, ld cap) of the last factorisation */
    double *R;  /**< cap x cap scaled distances (lower, ld cap) of the last factorisation */
    double *work2;            /**< cap scratch vector */
    int factored;             /**< L and alpha match X, y and the hyper-parameters */
    unsigned long generation; /**< bumped by every full factorisation */
    unsigned long serial;     /**< last row stamp handed out */
    unsigned long *row_id;    /**< cap stamps: a row's stamp changes when its factor row does */
    unsigned long ystamp;     /**< bumped when held targets are replaced (cutune_gp_set_targets) */
    double add;               /**< weight of the second-order additive term (cutune_gp_lml) */
    double lin;               /**< weight of the linear term (cutune_gp_lml); 0: none */
};

/** Kernel value divided by sf2 at scaled distance r (r >= 0). */
double cutune_gp_kfun(cutune_gp_kernel k, double r);

#endif
