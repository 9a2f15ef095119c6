/* CPU time of the GP's linear algebra, the part of bo that the fixed order of operations
 * (src/gp/gp_dense.c) replaced BLAS/LAPACK in: the factorisation of n points, the log
 * marginal likelihood with its gradient (K^-1), a prediction cache's rebuild over m
 * candidates and a prediction of m points. Process CPU time (not wall: the benchmark
 * machine is shared), the least of REPS repetitions, in ms. Built against a build's
 * libcutune.a by benchmarks/repro/latency.sh, once with the code before and once after.
 *
 *   bench_linalg [REPS]   -> a markdown table on stdout */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    enum { D = 9, M = 4096 };
    const size_t ns[] = {50, 200, 500};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1);
    double *X = malloc(500 * D * sizeof *X), *y = malloc(500 * sizeof *y);
    double *Xc = malloc(M * D * sizeof *Xc), *mu = malloc(M * sizeof *mu),
           *var = malloc(M * sizeof *var), grad[D + 5];
    for (size_t i = 0; i < 500 * D; i++)
        X[i] = gsl_rng_uniform(r);
    for (size_t i = 0; i < 500; i++)
        y[i] = gsl_rng_uniform(r) - 0.5;
    for (size_t i = 0; i < M * D; i++)
        Xc[i] = gsl_rng_uniform(r);
    char err[256];
    printf("| n | factorise | lml + gradient | cache rebuild (m=%d) | predict (m=%d) |\n"
           "|---:|---:|---:|---:|---:|\n",
           M, M);
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
        size_t n = ns[ni];
        double best[4] = {1e30, 1e30, 1e30, 1e30};
        for (int rep = 0; rep < reps; rep++) {
            cutune_gp *gp = cutune_gp_alloc(D, CUTUNE_GP_MATERN52);
            double ell[D];
            for (int j = 0; j < D; j++)
                ell[j] = 0.4;
            cutune_gp_hyper h = {.ell = ell, .sf2 = 1.0, .sn2 = 1e-3, .mean = 0.0};
            cutune_gp_set_hyper(gp, &h, err, sizeof err);
            cutune_gp_set_data(gp, X, y, n, err, sizeof err);
            double t0 = cpu_ms();
            cutune_gp_factorize(gp, err, sizeof err);
            double t1 = cpu_ms();
            cutune_gp_lml(gp, grad);
            double t2 = cpu_ms();
            cutune_gp_cache *c = cutune_gp_cache_alloc(Xc, M, D);
            cutune_gp_cache_sync(c, gp, err, sizeof err);
            double t3 = cpu_ms();
            cutune_gp_predict(gp, Xc, M, mu, var, err, sizeof err);
            double t4 = cpu_ms();
            double t[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
            for (int k = 0; k < 4; k++)
                best[k] = t[k] < best[k] ? t[k] : best[k];
            cutune_gp_cache_free(c);
            cutune_gp_free(gp);
        }
        printf("| %zu | %.2f | %.2f | %.2f | %.2f |\n", n, best[0], best[1], best[2], best[3]);
    }
    free(X);
    free(y);
    free(Xc);
    free(mu);
    free(var);
    gsl_rng_free(r);
    return 0;
}
