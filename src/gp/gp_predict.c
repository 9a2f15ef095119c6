/* Batched GP prediction at arbitrary points: posterior mean and variance by blocks of
 * CUTUNE_GP_BLOCK candidates, computed as the prediction cache computes them
 * (gp_cache.c): V = K(Xs, X) L^-T column by column (the kernel column minus
 * V[:, i] L[k, i] for i < k, one subtraction at a time, times 1 / L[k, k]), the mean the
 * constant mean plus V[:, i] z[i] in ascending i (z = L^-1 (y - mean)), the variance the
 * prior one minus V[:, i]^2 likewise. So a prediction and the cache give the same bits,
 * on every machine (tests/gp/test_gp_dense.c). A fixed candidate set that is predicted
 * again after each new observation is gp_cache.c's job.
 *
 * Reference: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: Algorithm 2.1. */
#include <stdlib.h>

#include "gp_internal.h"

int cutune_gp_predict(const cutune_gp *gp, const double *Xs, size_t m, double *mean, double *var,
                      char *err, size_t errlen)
{
    size_t n = gp->n, d = gp->dim;
    if (!gp->factored)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "gp: predict before factorisation");
    if (n == 0) {
        for (size_t i = 0; i < m; i++) {
            mean[i] = gp->mean;
            if (var)
                var[i] = gp->sf2 * cutune_gp_kernel_self(gp, Xs + i * d);
        }
        return 0;
    }
    size_t B = CUTUNE_GP_BLOCK;
    double *V = malloc(B * n * sizeof *V), *z = malloc(n * sizeof *z),
           *row = malloc(n * sizeof *row);
    double *s2 = malloc(B * sizeof *s2), *ie = malloc(d * sizeof *ie);
    int rc = 0;
    if (!V || !z || !row || !s2 || !ie) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory predicting %zu points", m);
        goto out_free;
    }
    for (size_t i = 0; i < n; i++)
        z[i] = gp->y[i] - gp->mean;
    cutune_gp_dense_solve_lower(gp->L, n, gp->cap, z);
    for (size_t j = 0; j < d; j++)
        ie[j] = 1.0 / gp->ell[j];
    for (size_t b0 = 0; b0 < m; b0 += B) {
        size_t nb = m - b0 < B ? m - b0 : B;
        const double *xb = Xs + b0 * d;
        for (size_t b = 0; b < nb; b++) {
            mean[b0 + b] = gp->mean;
            s2[b] = 0.0;
        }
        for (size_t k = 0; k < n; k++) {
            double *col = V + k * nb;
            cutune_gp_kernel_column(gp, xb, nb, gp->X + k * d, ie, col);
            for (size_t i = 0; i < k; i++)
                row[i] = gp->L[k + i * gp->cap];
            cutune_gp_dense_reduce(col, nb, V, nb, row, k);
            double inv = 1.0 / gp->L[k + k * gp->cap], zk = z[k];
            for (size_t b = 0; b < nb; b++) {
                double v = col[b] * inv;
                col[b] = v;
                mean[b0 + b] += v * zk;
                s2[b] += v * v;
            }
        }
        if (var)
            for (size_t b = 0; b < nb; b++) {
                double s = gp->sf2 * cutune_gp_kernel_self(gp, xb + b * d) - s2[b];
                var[b0 + b] = s > 1e-12 * gp->sf2 ? s : 1e-12 * gp->sf2;
            }
    }
out_free:
    free(ie);
    free(s2);
    free(row);
    free(z);
    free(V);
    return rc;
}
