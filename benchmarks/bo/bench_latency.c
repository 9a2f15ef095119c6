/* Proposal latency of the bo searcher: median wall time of propose(k=1) with n
 * observations over synthetic grid spaces of ~10^3, 10^4, 10^5 valid configurations
 * (a restriction prunes a Cartesian grid) and a synthetic objective (a smooth bowl in
 * log time with a ripple). Observations are fed by the searcher's own proposals (after
 * its design) until n is reached; then REPS proposals are timed, each followed by an
 * observation so that the model state is the one a real run has at that n.
 *
 *   bench_latency [--reps R] [--out DIR] [--args OPTS]
 *       -> table on stdout, latency.json, latency.csv (OPTS: bo's options, as after
 *          --searcher=bo:, e.g. pool=4096) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"

static cutune_space *make_space(size_t np, size_t nv, const char *restr)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value v[64];
    for (size_t i = 0; i < nv; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)(1u << i)};
    for (size_t p = 0; p < np; p++) {
        char name[24]; /* "p" and any size_t: no truncation warning */
        snprintf(name, sizeof name, "p%zu", p);
        cutune_space_add_param(s, name, v, nv, err, sizeof err);
    }
    if (restr && cutune_space_add_restriction(s, restr, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    if (cutune_space_enumerate(s, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return s;
}

static double objective(const cutune_space *s, size_t id)
{
    double x[32];
    cutune_space_encode(s, id, x);
    double f = 0.0;
    for (size_t j = 0; j < cutune_space_nparams(s); j++)
        f += (1.0 + 0.3 * j) * (x[j] - 0.3) * (x[j] - 0.3) + 0.05 * sin(9.0 * x[j]);
    return exp(2.0 * f); /* ms */
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    size_t reps = 7;
    const char *outdir = ".";
    const char *args = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "--args") && i + 1 < argc) {
            args = argv[++i];
            if (strpbrk(args, "\"\\")) { /* written into latency.json as they are */
                fprintf(stderr, "bench_latency: --args must not hold '\"' or '\\'\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench_latency [--reps N] [--out DIR] [--args OPTS]\n"
                            "  median proposal time of bo over synthetic spaces; writes\n"
                            "  DIR/latency.{md,csv,json} (default DIR: .); OPTS: bo's\n"
                            "  options as after --searcher=bo: (default: none)\n");
            return strcmp(argv[i], "--help") && strcmp(argv[i], "-h") ? 2 : 0;
        }
    }
    /* values 1, 2, 4, 8; a restriction prunes the grid: 960, 13312, 131072, 2097152 valid. */
    struct {
        size_t np, nv;
        const char *restr;
    } spaces[] = {
        {5, 4, "p0 * p1 <= 32"},
        {7, 4, "p0 * p1 <= 16"},
        {9, 4, "p0 * p1 * p2 <= 16"},
        {11, 4, "p0 * p1 * p2 <= 16"},
    };
    const size_t ns[] = {20, 60, 200, 500};
    char path[1024];
    snprintf(path, sizeof path, "%s/latency.csv", outdir);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/latency.json", outdir);
    FILE *js = fopen(path, "w");
    if (!csv || !js) {
        fprintf(stderr, "bench_latency: cannot write %s/latency.{csv,json}: %s\n", outdir,
                strerror(errno));
        return 1;
    }
    fprintf(csv, "configs,params,n,median_ms,min_ms,max_ms\n");
    fprintf(js, "{\"searcher\": \"bo\", \"args\": \"%s\", \"reps\": %zu, \"results\": [",
            args ? args : "", reps);
    printf("| configs | params | n=20 | n=60 | n=200 | n=500 |   (median ms per propose(1))\n");
    printf("|---|---|---|---|---|---|\n");
    int first = 1;
    for (size_t si = 0; si < sizeof spaces / sizeof spaces[0]; si++) {
        cutune_space *sp = make_space(spaces[si].np, spaces[si].nv, spaces[si].restr);
        size_t N = cutune_space_size(sp);
        printf("| %zu | %zu |", N, spaces[si].np);
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
            size_t target = ns[ni];
            char err[512];
            uint8_t *visited = calloc(N, 1);
            gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(rng, 1);
            cutune_searcher_ctx ctx = {
                .space = sp, .budget = target + reps, .rng = rng, .visited = visited, .args = args};
            cutune_searcher *s = NULL;
            if (cutune_searcher_alloc(cutune_searcher_bo, &ctx, &s, err, sizeof err) < 0) {
                fprintf(stderr, "%s\n", err);
                return 1;
            }
            double *lat = malloc(reps * sizeof *lat);
            size_t used = 0, timed = 0;
            while (timed < reps && used < N) {
                size_t id, n;
                double t0 = cutune_now();
                if (cutune_searcher_propose(s, 1, &id, &n, err, sizeof err) < 0 || n == 0) {
                    fprintf(stderr, "propose: %s\n", err);
                    return 1;
                }
                double dt = cutune_now() - t0;
                if (used >= target)
                    lat[timed++] = dt * 1e3;
                visited[id] = 1;
                used++;
                cutune_observation o = {
                    .id = id, .status = CUTUNE_STATUS_OK, .time_ms = objective(sp, id)};
                cutune_searcher_observe(s, &o, 1, err, sizeof err);
            }
            qsort(lat, timed, sizeof *lat, cmp_d);
            double med = lat[timed / 2];
            printf(" %.2f |", med);
            fflush(stdout);
            fprintf(csv, "%zu,%zu,%zu,%.3f,%.3f,%.3f\n", N, spaces[si].np, target, med, lat[0],
                    lat[timed - 1]);
            fprintf(js,
                    "%s{\"configs\": %zu, \"params\": %zu, \"n\": %zu, \"median_ms\": %.3f, "
                    "\"min_ms\": %.3f, \"max_ms\": %.3f}",
                    first ? "" : ", ", N, spaces[si].np, target, med, lat[0], lat[timed - 1]);
            first = 0;
            free(lat);
            cutune_searcher_free(s);
            gsl_rng_free(rng);
            free(visited);
        }
        printf("\n");
        cutune_space_free(sp);
    }
    fprintf(js, "]}\n");
    fclose(js);
    fclose(csv);
    return 0;
}
