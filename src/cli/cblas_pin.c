/* The five level-1 CBLAS routines GSL's BFGS (gsl_multimin_fdfminimizer_vector_bfgs2, the
 * GP's hyper-parameter fit) calls, in the cutune executable itself: cblas_ddot, dnrm2,
 * daxpy, dscal and dcopy, as the reference CBLAS computes them (GSL's libgslcblas: one
 * loop in index order; dnrm2 by the scaled sum of squares of the reference BLAS).
 *
 * Why here: libgsl leaves cblas_* to the dynamic linker, which binds them to the first
 * library that defines them. An optimised BLAS linked before GSL, or preloaded, would
 * take them over, and its sums depend on the CPU it finds (OpenBLAS's SSE3, Haswell,
 * SkylakeX kernels) and fuse multiply-adds: the fit, and so bo's proposals, would differ
 * between machines. The executable's own definitions come first in that lookup, before
 * LD_PRELOAD, so every cutune run fits with these (docs/reproducibility.md). Compiled with
 * -ffp-contract=off (src/cli/meson.build). A program linking libcutune itself gets GSL's
 * binding: it should link -lgslcblas, not an optimised BLAS, before GSL (docs/library.md). */
#include <math.h>

#include <gsl/gsl_cblas.h>

/* first element of a vector of n with stride inc (CBLAS: negative strides run backwards) */
static int first(int n, int inc)
{
    return inc > 0 ? 0 : (n - 1) * -inc;
}

double cblas_ddot(const int N, const double *X, const int incX, const double *Y, const int incY)
{
    double r = 0.0;
    int ix = first(N, incX), iy = first(N, incY);
    for (int i = 0; i < N; i++, ix += incX, iy += incY)
        r += X[ix] * Y[iy];
    return r;
}

double cblas_dnrm2(const int N, const double *X, const int incX)
{
    if (N <= 0 || incX <= 0)
        return 0.0;
    if (N == 1)
        return fabs(X[0]);
    double scale = 0.0, ssq = 1.0;
    for (int i = 0, ix = 0; i < N; i++, ix += incX) {
        double x = X[ix];
        if (x != 0.0) {
            double ax = fabs(x);
            if (scale < ax) {
                ssq = 1.0 + ssq * (scale / ax) * (scale / ax);
                scale = ax;
            } else {
                ssq += (ax / scale) * (ax / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

void cblas_daxpy(const int N, const double alpha, const double *X, const int incX, double *Y,
                 const int incY)
{
    if (alpha == 0.0)
        return;
    int ix = first(N, incX), iy = first(N, incY);
    for (int i = 0; i < N; i++, ix += incX, iy += incY)
        Y[iy] += alpha * X[ix];
}

void cblas_dscal(const int N, const double alpha, double *X, const int incX)
{
    if (incX <= 0)
        return;
    for (int i = 0, ix = 0; i < N; i++, ix += incX)
        X[ix] *= alpha;
}

void cblas_dcopy(const int N, const double *X, const int incX, double *Y, const int incY)
{
    int ix = first(N, incX), iy = first(N, incY);
    for (int i = 0; i < N; i++, ix += incX, iy += incY)
        Y[iy] = X[ix];
}
