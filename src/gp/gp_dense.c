/* Dense linear algebra of the GP in a fixed order of operations: the Cholesky factor,
 * triangular solves, the inverse from the factor and dot products, as plain loops.
 *
 * Why not BLAS/LAPACK: an optimised BLAS splits its sums by the vector width of the CPU
 * it finds at run time (OpenBLAS's Haswell, SkylakeX, Zen kernels) and by the thread
 * count, and fuses multiply-adds where the CPU has FMA. The GP's factor decides bo's
 * proposals, so the same seed would propose differently on two machines. Here every
 * value is the same sequence of IEEE double operations everywhere:
 *  - a sum runs in increasing index order (the transposed solve: decreasing, from the
 *    end), one rounding per product and one per addition;
 *  - a value reduced by products starts from its right-hand side and subtracts them one
 *    at a time in that order; then it is divided by its pivot.
 * The loops that run across independent elements (a column at once) vectorise without
 * changing any element's sequence; no loop reassociates a sum (no -ffast-math), and the
 * file is compiled with -ffp-contract=off (src/gp/meson.build), so no multiply-add is
 * fused on a CPU that has FMA and not on one that lacks it.
 *
 * References: G. H. Golub & C. F. Van Loan, "Matrix Computations", 4th ed., Johns Hopkins
 * 2013: Algorithm 4.2.2 (gaxpy Cholesky: column j from the columns before it), 3.1.1-3.1.2
 * (forward and back substitution, column and row oriented, the same sequence per element).
 *
 * Matrices are column-major with a leading dimension; only the lower triangle is read. */
#include <math.h>

#include "gp_internal.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define DENSE_AVX2 1
#define DENSE_INLINE static inline __attribute__((always_inline))
#else
#define DENSE_AVX2 0
#define DENSE_INLINE static inline
#endif

/* col[b] -= V[b, i] l[i] for i = 0..k-1 in that order, one subtraction at a time (four
 * columns per pass: fewer loads and stores, the same sequence per element). */
DENSE_INLINE void col_reduce_body(double *col, size_t nb, const double *V, size_t ldv,
                                  const double *l, size_t k)
{
    size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        const double *v0 = V + i * ldv, *v1 = v0 + ldv, *v2 = v1 + ldv, *v3 = v2 + ldv;
        double l0 = l[i], l1 = l[i + 1], l2 = l[i + 2], l3 = l[i + 3];
        for (size_t b = 0; b < nb; b++) {
            double t = col[b];
            t -= v0[b] * l0;
            t -= v1[b] * l1;
            t -= v2[b] * l2;
            t -= v3[b] * l3;
            col[b] = t;
        }
    }
    for (; i < k; i++) {
        const double *v = V + i * ldv;
        double li = l[i];
        for (size_t b = 0; b < nb; b++)
            col[b] -= v[b] * li;
    }
}

static void col_reduce_base(double *col, size_t nb, const double *V, size_t ldv, const double *l,
                            size_t k)
{
    col_reduce_body(col, nb, V, ldv, l, k);
}

/* The same loop for AVX2 (4 lanes instead of SSE2's 2), picked by the CPU as gp_kvec.c
 * does (cutune_gp_kfun_r2_vector): lanes compute independent elements, the "avx2" target does not
 * enable FMA and contraction is off, so both versions give the same bits
 * (tests/gp/test_gp_dense.c). */
#if DENSE_AVX2
__attribute__((target("avx2"))) static void col_reduce_avx2(double *col, size_t nb, const double *V,
                                                            size_t ldv, const double *l, size_t k)
{
    col_reduce_body(col, nb, V, ldv, l, k);
}
#endif

void cutune_gp_dense_reduce(double *col, size_t nb, const double *V, size_t ldv, const double *l,
                            size_t k)
{
#if DENSE_AVX2
    if (cutune_gp_kfun_r2_vector()) {
        col_reduce_avx2(col, nb, V, ldv, l, k);
        return;
    }
#endif
    col_reduce_base(col, nb, V, ldv, l, k);
}

double cutune_gp_dense_dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

size_t cutune_gp_dense_chol(double *A, size_t n, size_t ld, double *row)
{
    for (size_t j = 0; j < n; j++) {
        double *aj = A + j * ld;
        for (size_t k = 0; k < j; k++) /* row j of L, contiguous */
            row[k] = A[j + k * ld];
        /* column j (rows j..n-1) -= L[:, k] L[j, k], k ascending */
        cutune_gp_dense_reduce(aj + j, n - j, A + j, ld, row, j);
        double d = aj[j];
        if (!(d > 0.0) || !isfinite(d))
            return j + 1;
        d = sqrt(d);
        aj[j] = d;
        for (size_t r = j + 1; r < n; r++)
            aj[r] /= d;
    }
    return 0;
}

void cutune_gp_dense_solve_lower(const double *L, size_t n, size_t ld, double *x)
{
    /* column oriented: x[r] = ((b[r] - L[r,0] x[0]) - L[r,1] x[1]) - ..., then / L[r,r] */
    for (size_t k = 0; k < n; k++) {
        const double *lk = L + k * ld;
        double xk = x[k] / lk[k];
        x[k] = xk;
        for (size_t r = k + 1; r < n; r++)
            x[r] -= lk[r] * xk;
    }
}

void cutune_gp_dense_solve_lower_t(const double *L, size_t n, size_t ld, double *x)
{
    /* row oriented on L^T (= column j of L): x[j] = (b[j] - sum_{k>j, from n-1 down}
     * L[k,j] x[k]) / L[j,j] */
    for (size_t j = n; j-- > 0;) {
        const double *lj = L + j * ld;
        double s = x[j];
        for (size_t k = n; k-- > j + 1;)
            s -= lj[k] * x[k];
        x[j] = s / lj[j];
    }
}

void cutune_gp_dense_inverse(const double *L, size_t n, size_t ld, double *M, double *W, size_t ldw)
{
    /* M = L^-T (upper, column-major, ld n), column by column of L^-1: the forward
     * substitution of e_c, stored transposed so that the products below read rows of
     * L^-1 contiguously */
    for (size_t c = 0; c < n; c++) {
        double *x = W + c * ldw; /* column c of L^-1, scratch in W */
        for (size_t r = 0; r < n; r++)
            x[r] = r == c ? 1.0 : 0.0;
        for (size_t k = c; k < n; k++) {
            const double *lk = L + k * ld;
            double xk = x[k] / lk[k];
            x[k] = xk;
            for (size_t r = k + 1; r < n; r++)
                x[r] -= lk[r] * xk;
        }
        for (size_t k = c; k < n; k++) /* M[c, k] = L^-1[k, c] */
            M[c + k * n] = x[k];
    }
    /* W[r, c] (r >= c) = sum_{k >= r} L^-1[k, r] L^-1[k, c], k ascending:
     * W[:, c] += M[:, k] L^-1[k, c] over rows c..k of column k of M */
    for (size_t c = 0; c < n; c++) {
        double *wc = W + c * ldw;
        for (size_t r = c; r < n; r++)
            wc[r] = 0.0;
        for (size_t k = c; k < n; k++) {
            const double *mk = M + k * n;
            double lkc = mk[c];
            for (size_t r = c; r <= k; r++)
                wc[r] += mk[r] * lkc;
        }
    }
}
