/* Batched GP prediction at arbitrary points: posterior mean and variance, one candidate
 * at a time in a fixed order of operations (gp_dense.c): the kernel column k* from the
 * squared scaled distances (cutune_gp_sqdist, as the factorisation computes them), the
 * mean k*' alpha (sum in ascending point order), the variance k** - |L^-1 k*|^2. A fixed
 * candidate set that is predicted again after each new observation is gp_cache.c's job.
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
    double *c = malloc(n * sizeof *c);
    if (!c)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "gp: out of memory predicting %zu points", m);
    double inv_ell[d];
    for (size_t j = 0; j < d; j++)
        inv_ell[j] = 1.0 / gp->ell[j];
    for (size_t b = 0; b < m; b++) {
        const double *x = Xs + b * d;
        if (gp->add > 0.0) { /* the additive term needs each parameter's distance: direct */
            for (size_t i = 0; i < n; i++)
                c[i] = gp->sf2 * cutune_gp_kernel_between(gp, x, gp->X + i * d, NULL);
        } else {
            cutune_gp_sqdist(gp->X, n, d, x, inv_ell, c);
            cutune_gp_kfun_r2(gp->kernel, gp->sf2, c, n);
            if (gp->lin > 0.0)
                for (size_t i = 0; i < n; i++)
                    c[i] += gp->sf2 * gp->lin * cutune_gp_centred_dot(d, x, gp->X + i * d);
        }
        mean[b] = cutune_gp_dense_dot(c, gp->alpha, n) + gp->mean;
        if (var) {
            cutune_gp_dense_solve_lower(gp->L, n, gp->cap, c);
            double s = gp->sf2 * cutune_gp_kernel_self(gp, x) - cutune_gp_dense_dot(c, c, n);
            var[b] = s > 1e-12 * gp->sf2 ? s : 1e-12 * gp->sf2;
        }
    }
    free(c);
    return 0;
}
