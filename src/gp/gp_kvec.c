/* Kernel values of many squared distances at once: the inner loop of the prediction
 * cache's rebuild and of cutune_gp_predict, which take one exp per candidate and GP point
 * (17,956 x 45 per refit on the GEMM recordings, where bo refits after every evaluation up
 * to 45). Built with -fno-math-errno -fno-trapping-math -fopenmp-simd (so that sqrt and the
 * clamps stay inline and the `omp simd` loops vectorise, which GCC 12 does not do for them
 * without the pragma; none of the three changes a value) and -ffp-contract=off. On x86-64
 * the loops are compiled twice, for the baseline and for AVX2, and cutune_gp_kfun_r2 picks
 * one by the CPU (__builtin_cpu_supports; not target_clones, whose dispatch symbol clang
 * names differently, and which needs glibc's ifunc). Every lane computes the same IEEE
 * operations in the same order as the scalar cutune_gp_kfun (no FMA: the "avx2" target
 * does not enable it, and contraction is off), so both versions give the same bits. */
#include <math.h>

#include "gp_internal.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define KVEC_AVX2 1
#define KVEC_INLINE static inline __attribute__((always_inline))
#else
#define KVEC_AVX2 0
#define KVEC_INLINE static inline
#endif

/* One family's loop; inlined with k a constant, so the switch in cutune_gp_kfun_inline
 * folds away and the loop vectorises. */
KVEC_INLINE void kfun_r2_loop(cutune_gp_kernel k, double scale, double *buf, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        double q = buf[i] > 0.0 ? buf[i] : 0.0;
        buf[i] = scale * cutune_gp_kfun_inline(k, sqrt(q));
    }
}

KVEC_INLINE void kfun_r2_body(cutune_gp_kernel k, double scale, double *buf, size_t n)
{
    switch (k) {
    case CUTUNE_GP_MATERN32: kfun_r2_loop(CUTUNE_GP_MATERN32, scale, buf, n); break;
    case CUTUNE_GP_SE: kfun_r2_loop(CUTUNE_GP_SE, scale, buf, n); break;
    case CUTUNE_GP_MATERN52:
    default: kfun_r2_loop(CUTUNE_GP_MATERN52, scale, buf, n); break;
    }
}

void cutune_gp_kfun_r2_base(cutune_gp_kernel k, double scale, double *buf, size_t n)
{
    kfun_r2_body(k, scale, buf, n);
}

#if KVEC_AVX2
__attribute__((target("avx2"))) static void kfun_r2_avx2(cutune_gp_kernel k, double scale,
                                                         double *buf, size_t n)
{
    kfun_r2_body(k, scale, buf, n);
}
#endif

int cutune_gp_kfun_r2_vector(void)
{
#if KVEC_AVX2
    return __builtin_cpu_supports("avx2") != 0;
#else
    return 0;
#endif
}

void cutune_gp_kfun_r2(cutune_gp_kernel k, double scale, double *buf, size_t n)
{
#if KVEC_AVX2
    if (cutune_gp_kfun_r2_vector()) {
        kfun_r2_avx2(k, scale, buf, n);
        return;
    }
#endif
    cutune_gp_kfun_r2_base(k, scale, buf, n);
}

/* Scalar (rows are d apart: GCC 12 does not vectorise across them), with products by
 * 1 / ell as in kval, so a kernel value is the same whichever path computed it. */
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
