/* Kernel values of many squared distances at once: the inner loop of the prediction
 * cache's rebuild and of cutune_gp_predict, which take one exp per candidate and GP point
 * (17,956 x 45 per refit on the GEMM recordings, where bo refits after every evaluation up
 * to 45). Built with -fno-math-errno -fno-trapping-math -fopenmp-simd (so that sqrt and the
 * clamps stay inline and the `omp simd` loops vectorise, which GCC 12 does not do for them
 * without the pragma; none of the three changes a value) and, on x86-64 with glibc, in
 * an AVX2 and a baseline version chosen at load time (target_clones). Every lane computes
 * the same IEEE operations in the same order as the scalar cutune_gp_kfun (no FMA: the
 * "avx2" target does not enable it), so both versions give the same bits. */
#include <math.h>

#include "gp_internal.h"

#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define KVEC_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef KVEC_CLONES
#define KVEC_CLONES
#endif

KVEC_CLONES void cutune_gp_kfun_r2(cutune_gp_kernel k, double scale, double *buf, size_t n)
{
    switch (k) {
    case CUTUNE_GP_MATERN32:
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            double q = buf[i] > 0.0 ? buf[i] : 0.0;
            buf[i] = scale * cutune_gp_kfun_inline(CUTUNE_GP_MATERN32, sqrt(q));
        }
        break;
    case CUTUNE_GP_SE:
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            double q = buf[i] > 0.0 ? buf[i] : 0.0;
            buf[i] = scale * cutune_gp_kfun_inline(CUTUNE_GP_SE, sqrt(q));
        }
        break;
    case CUTUNE_GP_MATERN52:
    default:
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            double q = buf[i] > 0.0 ? buf[i] : 0.0;
            buf[i] = scale * cutune_gp_kfun_inline(CUTUNE_GP_MATERN52, sqrt(q));
        }
        break;
    }
}

/* Scalar (rows are d apart: GCC 12 does not vectorise across them), but with products by
 * 1 / ell where kval divides: d divisions fewer per candidate. */
void cutune_gp_sqdist(const double *X, size_t m, size_t d, const double *x, const double *inv_ell,
                      double *out)
{
    for (size_t b = 0; b < m; b++) {
        const double *xb = X + b * d;
        double s = 0.0;
        for (size_t j = 0; j < d; j++) {
            double t = (xb[j] - x[j]) * inv_ell[j];
            s += t * t;
        }
        out[b] = s;
    }
}
