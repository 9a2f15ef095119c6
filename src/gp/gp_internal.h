/* Private layout of cutune_gp and the arithmetic its files share: the dense linear
 * algebra (gp_dense.c), the kernel loops (gp_kvec.c) and the covariance between points.
 * gp_hyper.c includes GSL (multimin): keep BLAS headers out of this file. */
#ifndef CUTUNE_GP_INTERNAL_H
#define CUTUNE_GP_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
    double *work3;           /**< cap x cap scratch (L^-T for K^-1) */
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

/* ---- dense linear algebra in a fixed order of operations (gp_dense.c): the same bits
 * on every x86-64 CPU, any vector width, any thread count. Column-major, lower triangle. */

/** sum_i a[i] b[i], i ascending. */
double cutune_gp_dense_dot(const double *a, const double *b, size_t n);
/** col[b] -= sum_i V[b + i ldv] l[i] over b < nb, i = 0..k-1 ascending, one subtraction
 *  per product (SSE2 or AVX2 by the CPU: the same bits). */
void cutune_gp_dense_reduce(double *col, size_t nb, const double *V, size_t ldv, const double *l,
                            size_t k);
/** A = L L^T in place (lower triangle of A, n x n, leading dimension ld); the strict upper
 *  part is not touched; row: n doubles of scratch. Returns 0, or j + 1 when pivot j is
 *  not positive or not finite. */
size_t cutune_gp_dense_chol(double *A, size_t n, size_t ld, double *row);
/** x <- L^-1 x (forward substitution). */
void cutune_gp_dense_solve_lower(const double *L, size_t n, size_t ld, double *x);
/** x <- L^-T x (back substitution on the transpose). */
void cutune_gp_dense_solve_lower_t(const double *L, size_t n, size_t ld, double *x);
/** Lower triangle of W (leading dimension ldw) <- (L L^T)^-1; M: n x n scratch. */
void cutune_gp_dense_inverse(const double *L, size_t n, size_t ld, double *M, double *W,
                             size_t ldw);

/** Kernel value divided by sf2 at scaled distance r (r >= 0). */
double cutune_gp_kfun(cutune_gp_kernel k, double r);

/** buf[i] <- scale * k(sqrt(buf[i])) / sf2, in place, for n squared scaled distances
 * (negative ones, from rounding, count as 0). The same values as cutune_gp_kfun, bit for
 * bit, at several per instruction where the CPU has vectors for it (gp_kvec.c). */
void cutune_gp_kfun_r2(cutune_gp_kernel k, double scale, double *buf, size_t n);
/** The same, always by the baseline loops (tests compare the two). */
void cutune_gp_kfun_r2_base(cutune_gp_kernel k, double scale, double *buf, size_t n);
/** 1 when cutune_gp_kfun_r2 runs the AVX2 loops on this CPU. */
int cutune_gp_kfun_r2_vector(void);

/** out[b] = sum_j ((X[b][j] - x[j]) inv_ell[j])^2 for the m rows of X (m x d, row-major):
 * squared scaled distances from x (gp_kvec.c; scalar, by products with 1 / ell like
 * cutune_gp_kernel_between, so either path gives the same bits). */
void cutune_gp_sqdist(const double *X, size_t m, size_t d, const double *x, const double *inv_ell,
                      double *out);

/* exp(x) for x <= 0, within one ulp of the C library's; below -708 (and for NaN) exp(-708),
 * 3e-308: a kernel value that small is 0 to every sum it enters, and no select at the end
 * keeps the loops vectorisable on SSE2. The library's exp is a call that a loop
 * cannot vectorise; this one is straight-line code, so cutune_gp_kfun_r2's loops run
 * 2-4 values per instruction (about 3x faster with AVX2), and it rounds the same in
 * every lane and in scalar code, so proposals do not depend on the vector width.
 * The reduction and the rational approximation are fdlibm's e_exp.c (Sun, 1993):
 * x = k ln2 + r, |r| <= ln2 / 2 (ln2 split into a 32-bit head and a tail, so k ln2_hi is
 * exact), exp(r) = 1 + r + r c / (2 - c) with c = r - r^2 P(r^2), then 2^k by the
 * exponent bits. k comes from the 1.5 * 2^52 shifter: adding it rounds x / ln2 to an
 * integer that sits in the low bits of the sum. */
static inline double cutune_gp_exp_nonpos(double x)
{
    const double invln2 = 1.44269504088896338700e+00, ln2hi = 6.93147180369123816490e-01,
                 ln2lo = 1.90821492927058770002e-10, shifter = 0x1.8p52;
    const double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03,
                 P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
                 P5 = 4.13813679705723846039e-08;
    double xc = x > -708.0 ? x : -708.0;
    double t = xc * invln2 + shifter, k = t - shifter;
    uint64_t tb, sb;
    double scale;
    memcpy(&tb, &t, sizeof tb);
    sb = (tb - UINT64_C(0x4338000000000000) + 1023) << 52; /* 2^k, k in [-1022, 0] */
    memcpy(&scale, &sb, sizeof scale);
    double hi = xc - k * ln2hi, lo = k * ln2lo, r = hi - lo, r2 = r * r;
    double c = r - r2 * (P1 + r2 * (P2 + r2 * (P3 + r2 * (P4 + r2 * P5))));
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    return y * scale;
}

/* k(r) / sf2 of the three families, on cutune_gp_exp_nonpos. */
static inline double cutune_gp_kfun_inline(cutune_gp_kernel k, double r)
{
    switch (k) {
    case CUTUNE_GP_MATERN32: {
        double s = 1.7320508075688772 * r;
        s = s < 708.0 ? s : 708.0; /* and NaN, inf: the polynomial stays finite */
        return (1.0 + s) * cutune_gp_exp_nonpos(-s);
    }
    case CUTUNE_GP_SE: return cutune_gp_exp_nonpos(-0.5 * r * r);
    case CUTUNE_GP_MATERN52:
    default: {
        double s = 2.23606797749979 * r;
        s = s < 708.0 ? s : 708.0;
        return (1.0 + s + s * s / 3.0) * cutune_gp_exp_nonpos(-s);
    }
    }
}

/* ---- the covariance between points, shared by gp_linalg.c, gp_lml.c, gp_predict.c and
 * gp_cache.c: static inline, so that their O(n^2) and O(m n) loops keep it inlined. */

#define CUTUNE_GP_BLOCK 256 /* candidates per prediction block (gp_predict.c, gp_cache.c) */

/* Additive part between a and b: e2 / C(D, 2) (e1 for D = 1), from e1 = sum k_j and
 * q = sum k_j^2 (e2 = (e1^2 - q) / 2). */
static inline double cutune_gp_additive_term(size_t D, double e1, double q)
{
    return D >= 2 ? (e1 * e1 - q) / ((double)D * (double)(D - 1)) : e1;
}

/* (a - c).(b - c), c the centre of the unit box: the linear term's inner product */
static inline double cutune_gp_centred_dot(size_t D, const double *a, const double *b)
{
    double s = 0.0;
    for (size_t j = 0; j < D; j++)
        s += (a[j] - 0.5) * (b[j] - 0.5);
    return s;
}

/* Prior variance / sf2 at a point with |x - c|^2 = uu: 1, plus the linear term's lin uu. */
static inline double cutune_gp_kernel_self_uu(const cutune_gp *gp, double uu)
{
    return gp->lin > 0.0 ? 1.0 + gp->lin * uu : 1.0;
}

/* Prior variance / sf2 at x. */
static inline double cutune_gp_kernel_self(const cutune_gp *gp, const double *x)
{
    return gp->lin > 0.0 ? cutune_gp_kernel_self_uu(gp, cutune_gp_centred_dot(gp->dim, x, x)) : 1.0;
}

/* Kernel / sf2 between a and b (see cutune_gp_lml); *r_out = the scaled distance. */
static inline double cutune_gp_kernel_between(const cutune_gp *gp, const double *a, const double *b,
                                              double *r_out)
{
    size_t D = gp->dim;
    double r2 = 0.0, e1 = 0.0, q = 0.0;
    for (size_t j = 0; j < D; j++) {
        double t = (a[j] - b[j]) * (1.0 / gp->ell[j]); /* as cutune_gp_sqdist: same bits */
        r2 += t * t;
        if (gp->add > 0.0) {
            double k1 = exp(-0.5 * t * t);
            e1 += k1;
            q += k1 * k1;
        }
    }
    double r = sqrt(r2);
    if (r_out)
        *r_out = r;
    double ks = cutune_gp_kfun_inline(gp->kernel, r);
    if (gp->add > 0.0)
        ks = (1.0 - gp->add) * ks + gp->add * cutune_gp_additive_term(D, e1, q);
    return gp->lin > 0.0 ? ks + gp->lin * cutune_gp_centred_dot(D, a, b) : ks;
}

/* The kernel column of candidates Xc[0..nb) against GP point x, times sf2 (gp_cache.c,
 * gp_predict.c): one order of operations for both. */
static inline void cutune_gp_kernel_column(const cutune_gp *gp, const double *Xc, size_t nb,
                                           const double *x, const double *inv_ell, double *col)
{
    size_t d = gp->dim;
    if (gp->add > 0.0) { /* the additive term needs each parameter's distance */
        for (size_t b = 0; b < nb; b++)
            col[b] = gp->sf2 * cutune_gp_kernel_between(gp, Xc + b * d, x, NULL);
        return;
    }
    cutune_gp_sqdist(Xc, nb, d, x, inv_ell, col);
    cutune_gp_kfun_r2(gp->kernel, gp->sf2, col, nb);
    if (gp->lin > 0.0)
        for (size_t b = 0; b < nb; b++)
            col[b] += gp->sf2 * gp->lin * cutune_gp_centred_dot(d, Xc + b * d, x);
}

#endif
