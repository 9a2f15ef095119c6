/* Unit tests of the GP's dense linear algebra (src/gp/gp_dense.c) and of the bit-exact
 * properties that rest on its fixed order of operations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "cutune/gp.h"
#include "src/gp/gp_internal.h"

/* A = L L^T with L = [2 0 0; 1 2 0; 1 1 2]: every step is exact in binary, so the factor,
 * the solves and the inverse must come out exactly. */
static void test_exact_small(void **state)
{
    double A[9] = {4, 2, 2, -1, 5, 3, -1, -1, 6}; /* column-major, upper part junk */
    double row[3];
    assert_int_equal(cutune_gp_dense_chol(A, 3, 3, row), 0);
    const double L[9] = {2, 1, 1, -1, 2, 1, -1, -1, 2};
    for (int i = 0; i < 9; i++)
        assert_true(A[i] == L[i]); /* the strict upper part is left alone */
    double x[3] = {2, 5, 9};       /* L [1 2 3]' */
    cutune_gp_dense_solve_lower(L, 3, 3, x);
    assert_true(x[0] == 1 && x[1] == 2 && x[2] == 3);
    double z[3] = {7, 7, 6}; /* L' [1 2 3]' */
    cutune_gp_dense_solve_lower_t(L, 3, 3, z);
    assert_true(z[0] == 1 && z[1] == 2 && z[2] == 3);
    assert_true(cutune_gp_dense_dot(x, z, 3) == 14.0);
    double M[9], W[9];
    cutune_gp_dense_inverse(L, 3, 3, M, W, 3);
    /* A^-1 = [21 -6 -4; -6 20 -8; -4 -8 16] / 64 (L^-1 is dyadic: exact) */
    const double inv[3][3] = {{21, -6, -4}, {-6, 20, -8}, {-4, -8, 16}};
    for (int c = 0; c < 3; c++)
        for (int r = c; r < 3; r++)
            assert_true(W[r + c * 3] == inv[r][c] / 64.0);
}

static void test_refuses(void **state)
{
    double row[2];
    double A[4] = {1, 2, 0, 1}; /* [1 2; 2 1]: indefinite, the second pivot is -3 */
    assert_int_equal(cutune_gp_dense_chol(A, 2, 2, row), 2);
    double B[4] = {NAN, 0, 0, 1};
    assert_int_equal(cutune_gp_dense_chol(B, 2, 2, row), 1);
    double C[4] = {1, NAN, 0, 1}; /* a NaN below the diagonal reaches the next pivot */
    assert_int_equal(cutune_gp_dense_chol(C, 2, 2, row), 2);
    double E[1] = {0};
    assert_int_equal(cutune_gp_dense_chol(E, 1, 1, row), 1);
}

/* A random SPD matrix of 40: L L' and (L L')^-1 A within rounding. */
static void test_random_spd(void **state)
{
    enum { N = 40, LD = 43 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    double *B = malloc(N * N * sizeof *B), *A = calloc(LD * N, sizeof *A);
    double *L = malloc(LD * N * sizeof *L), *M = malloc(N * N * sizeof *M);
    double *W = calloc(N * N, sizeof *W);
    assert_non_null(B);
    assert_non_null(A);
    assert_non_null(L);
    assert_non_null(M);
    assert_non_null(W);
    for (int i = 0; i < N * N; i++)
        B[i] = gsl_rng_uniform(r) - 0.5;
    for (int c = 0; c < N; c++)
        for (int rr = 0; rr < N; rr++) {
            double s = rr == c ? 1.0 : 0.0;
            for (int k = 0; k < N; k++)
                s += B[rr + k * N] * B[c + k * N];
            A[rr + c * LD] = s;
        }
    memcpy(L, A, LD * N * sizeof *L);
    double row[N];
    assert_int_equal(cutune_gp_dense_chol(L, N, LD, row), 0);
    for (int c = 0; c < N; c++)
        for (int rr = c; rr < N; rr++) {
            double s = 0.0;
            for (int k = 0; k <= c; k++)
                s += L[rr + k * LD] * L[c + k * LD];
            assert_true(fabs(s - A[rr + c * LD]) < 1e-12 * N);
        }
    cutune_gp_dense_inverse(L, N, LD, M, W, N);
    for (int c = 0; c < N; c++) /* W A = I, W symmetric from its lower part */
        for (int rr = 0; rr < N; rr++) {
            double s = 0.0;
            for (int k = 0; k < N; k++) {
                double w = rr >= k ? W[rr + k * N] : W[k + rr * N];
                double a = k >= c ? A[k + c * LD] : A[c + k * LD];
                s += w * a;
            }
            assert_true(fabs(s - (rr == c)) < 1e-9);
        }
    /* solves: L L' x = A e_0 gives e_0 */
    double x[N];
    for (int i = 0; i < N; i++)
        x[i] = A[i];
    cutune_gp_dense_solve_lower(L, N, LD, x);
    cutune_gp_dense_solve_lower_t(L, N, LD, x);
    for (int i = 0; i < N; i++)
        assert_true(fabs(x[i] - (i == 0)) < 1e-10);
    free(W);
    free(M);
    free(L);
    free(A);
    free(B);
    gsl_rng_free(r);
}

/* A cache grown by appends holds the same bits as one rebuilt from the same factor, and a
 * GP grown by appends predicts the same bits twice: the orders of operations are fixed. */
static void test_cache_rebuild_equals_appends(void **state)
{
    char err[256];
    enum { N = 37, D = 4, M = 700 }; /* M above CUTUNE_GP_BLOCK: several rebuild blocks */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    double X[N * D], y[N], *Xs = malloc(M * D * sizeof *Xs);
    assert_non_null(Xs);
    for (int i = 0; i < N * D; i++)
        X[i] = gsl_rng_uniform(r);
    for (int i = 0; i < N; i++)
        y[i] = sin(6.0 * X[i * D]) + X[i * D + 1];
    for (int i = 0; i < M * D; i++)
        Xs[i] = gsl_rng_uniform(r);
    for (int lin = 0; lin < 2; lin++) {
        cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
        double ell[D] = {0.3, 0.5, 0.7, 0.9};
        cutune_gp_hyper h = {.ell = ell, .sf2 = 1.3, .sn2 = 1e-3, .mean = 0.2, .lin = 0.1 * lin};
        assert_int_equal(cutune_gp_set_hyper(gp, &h, err, sizeof err), 0);
        cutune_gp_cache *grown = cutune_gp_cache_alloc(Xs, M, D);
        assert_non_null(grown);
        assert_int_equal(cutune_gp_add(gp, X, y[0], err, sizeof err), 0);
        assert_int_equal(cutune_gp_cache_sync(grown, gp, err, sizeof err), 0);
        for (int i = 1; i < N; i++) {
            assert_int_equal(cutune_gp_add(gp, X + i * D, y[i], err, sizeof err), 0);
            assert_int_equal(cutune_gp_cache_sync(grown, gp, err, sizeof err), 0);
        }
        cutune_gp_cache *fresh = cutune_gp_cache_alloc(Xs, M, D);
        assert_non_null(fresh);
        assert_int_equal(cutune_gp_cache_sync(fresh, gp, err, sizeof err), 0);
        assert_memory_equal(cutune_gp_cache_mean(grown), cutune_gp_cache_mean(fresh),
                            M * sizeof(double));
        assert_memory_equal(cutune_gp_cache_var(grown), cutune_gp_cache_var(fresh),
                            M * sizeof(double));
        /* a prediction computes as the cache does: the same bits, at any block offset */
        double *mu = malloc(M * sizeof *mu), *var = malloc(M * sizeof *var),
               *mu2 = malloc(M * sizeof *mu2);
        assert_non_null(mu);
        assert_non_null(var);
        assert_non_null(mu2);
        assert_int_equal(cutune_gp_predict(gp, Xs, M, mu, var, err, sizeof err), 0);
        assert_memory_equal(mu, cutune_gp_cache_mean(fresh), M * sizeof *mu);
        assert_memory_equal(var, cutune_gp_cache_var(fresh), M * sizeof *var);
        assert_int_equal(cutune_gp_predict(gp, Xs + 3 * D, M - 3, mu2, NULL, err, sizeof err), 0);
        assert_memory_equal(mu + 3, mu2, (M - 3) * sizeof *mu);
        free(mu2);
        free(var);
        free(mu);
        cutune_gp_cache_free(fresh);
        cutune_gp_cache_free(grown);
        cutune_gp_free(gp);
    }
    free(Xs);
    gsl_rng_free(r);
}

/* the reduction (AVX2 where the CPU has it) against the plain scalar sequence, bit for
 * bit, for every k around the four-column unrolling and odd row counts */
static void test_reduce_bits(void **state)
{
    enum { NB = 37, LDV = 41, K = 11 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    double V[LDV * K], l[K], col0[NB];
    for (int i = 0; i < LDV * K; i++)
        V[i] = gsl_rng_uniform(r) - 0.5;
    for (int i = 0; i < K; i++)
        l[i] = gsl_rng_uniform(r) * 3.0 - 1.0;
    for (int b = 0; b < NB; b++)
        col0[b] = gsl_rng_uniform(r);
    for (size_t k = 0; k <= K; k++)
        for (size_t nb = 1; nb <= NB; nb += 6) {
            double col[NB], want[NB];
            memcpy(col, col0, sizeof col);
            for (size_t b = 0; b < nb; b++) {
                double t = col0[b];
                for (size_t i = 0; i < k; i++)
                    t -= V[b + i * LDV] * l[i];
                want[b] = t;
            }
            cutune_gp_dense_reduce(col, nb, V, LDV, l, k);
            assert_memory_equal(col, want, nb * sizeof *col);
        }
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_small), cmocka_unit_test(test_refuses),
        cmocka_unit_test(test_random_spd),  cmocka_unit_test(test_cache_rebuild_equals_appends),
        cmocka_unit_test(test_reduce_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
