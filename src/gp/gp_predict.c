/* Batched GP prediction at arbitrary points: posterior mean and variance by blocks of
 * CUTUNE_GP_BLOCK candidates (cblas_dgemm for the squared distances' cross terms,
 * cblas_dgemv for the mean, cblas_dtrsm for the variance). A fixed candidate set that is
 * predicted again after each new observation is gp_cache.c's job.
 *
 * Reference: C. E. Rasmussen & C. K. I. Williams, "Gaussian Processes for Machine
 * Learning", MIT Press 2006: Algorithm 2.1.
 *
 * This file includes OpenBLAS's cblas.h and must never include GSL's gsl_cblas.h. */
#include <stdlib.h>

#include <cblas.h>

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
    double *Xt = malloc(n * d * sizeof *Xt);
    double *xn = malloc(n * sizeof *xn);
    double *Zs = malloc(B * d * sizeof *Zs);
    double *zn = malloc(B * sizeof *zn);
    double *C = malloc(n * B * sizeof *C);
    int rc = 0;
    if (!Xt || !xn || !Zs || !zn || !C) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory predicting %zu points", m);
        goto out_free;
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0.0;
        for (size_t j = 0; j < d; j++) {
            double v = gp->X[i * d + j] / gp->ell[j];
            Xt[i * d + j] = v;
            s += v * v;
        }
        xn[i] = s;
    }
    for (size_t b0 = 0; b0 < m; b0 += B) {
        size_t nb = m - b0 < B ? m - b0 : B;
        if (gp->add > 0.0) { /* the additive term needs each parameter's distance: direct */
            for (size_t b = 0; b < nb; b++)
                for (size_t i = 0; i < n; i++)
                    C[i + b * n] = gp->sf2 * cutune_gp_kernel_between(gp, Xs + (b0 + b) * d,
                                                                      gp->X + i * d, NULL);
        } else {
            for (size_t b = 0; b < nb; b++) {
                double s = 0.0;
                for (size_t j = 0; j < d; j++) {
                    double v = Xs[(b0 + b) * d + j] / gp->ell[j];
                    Zs[b * d + j] = v;
                    s += v * v;
                }
                zn[b] = s;
            }
            /* C (n x nb, column-major) = Xt Zs^T: the cross terms of the squared distances. */
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)nb, (int)d, 1.0, Xt,
                        (int)d, Zs, (int)d, 0.0, C, (int)n);
            for (size_t b = 0; b < nb; b++) {
                double *c = C + b * n;
                for (size_t i = 0; i < n; i++)
                    c[i] = xn[i] + zn[b] - 2.0 * c[i];
                cutune_gp_kfun_r2(gp->kernel, gp->sf2, c, n);
                if (gp->lin > 0.0)
                    for (size_t i = 0; i < n; i++)
                        c[i] += gp->sf2 * gp->lin *
                                cutune_gp_centred_dot(d, Xs + (b0 + b) * d, gp->X + i * d);
            }
        }
        cblas_dgemv(CblasColMajor, CblasTrans, (int)n, (int)nb, 1.0, C, (int)n, gp->alpha, 1, 0.0,
                    mean + b0, 1);
        for (size_t b = 0; b < nb; b++)
            mean[b0 + b] += gp->mean;
        if (var) {
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)n,
                        (int)nb, 1.0, gp->L, (int)gp->cap, C, (int)n);
            for (size_t b = 0; b < nb; b++) {
                const double *v = C + b * n;
                double v2 = cblas_ddot((int)n, v, 1, v, 1);
                double s = gp->sf2 * cutune_gp_kernel_self(gp, Xs + (b0 + b) * d) - v2;
                var[b0 + b] = s > 1e-12 * gp->sf2 ? s : 1e-12 * gp->sf2;
            }
        }
    }
out_free:
    free(C);
    free(zn);
    free(Zs);
    free(xn);
    free(Xt);
    return rc;
}
