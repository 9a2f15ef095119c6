/* Tests of the searcher benchmark (src/tune/bench.c): the analytic random
 * baseline against simulation, the harness on hand-made recordings whose
 * answers are known, determinism of the written tables.
 *
 * `test_bench --shared` runs a small bench on the recordings in
 * $CUTUNE_SHARED_DATA/kt-caches instead, and exits 77 (skipped) where that
 * folder is absent. */
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune/bench.h"
#include "cutune/cutune.h"

/* ---- helpers ---- */

static char tmpdir[256];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int setup_tmp(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cutune_test_bench_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    return nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* 4 points, optimum at a=2, b=2; compile and benchmark times recorded. */
static const char square_json[] =
    "{\"device_name\": \"TestGPU\", \"kernel_name\": \"toy\", \"tune_params_keys\": [\"a\", "
    "\"b\"], \"tune_params\": {\"a\": [1, 2], \"b\": [1, 2]}, \"objective\": \"time\", "
    "\"cache\": {"
    "\"1,1\": {\"a\": 1, \"b\": 1, \"time\": 4.0, \"times\": [4.0], \"compile_time\": 100, "
    "\"verification_time\": 0, \"benchmark_time\": 10},"
    "\"1,2\": {\"a\": 1, \"b\": 2, \"time\": 3.0, \"times\": [3.0], \"compile_time\": 100, "
    "\"verification_time\": 0, \"benchmark_time\": 10},"
    "\"2,1\": {\"a\": 2, \"b\": 1, \"time\": 2.0, \"times\": [2.0], \"compile_time\": 100, "
    "\"verification_time\": 0, \"benchmark_time\": 10},"
    "\"2,2\": {\"a\": 2, \"b\": 2, \"time\": 1.0, \"times\": [1.0], \"compile_time\": 100, "
    "\"verification_time\": 0, \"benchmark_time\": 10}}}\n";

/* 3 x 2 product: 4 valid, (3,1) failed to compile, (3,2) absent. */
static const char sparse_json[] =
    "{\"device_name\": \"TestGPU\", \"kernel_name\": \"toy2\", \"tune_params_keys\": [\"a\", "
    "\"b\"], \"tune_params\": {\"a\": [1, 2, 3], \"b\": [1, 2]}, \"objective\": \"time\", "
    "\"cache\": {"
    "\"1,1\": {\"a\": 1, \"b\": 1, \"time\": 5.0},"
    "\"1,2\": {\"a\": 1, \"b\": 2, \"time\": 2.5},"
    "\"2,1\": {\"a\": 2, \"b\": 1, \"time\": 7.0},"
    "\"2,2\": {\"a\": 2, \"b\": 2, \"time\": 6.0},"
    "\"3,1\": {\"a\": 3, \"b\": 1, \"time\": \"CompilationFailedConfig\"}}}\n";

/* The oracle proposes the optimum of square_json (a=2, b=2) first, then the
 * rest in id order: its P must be 1. (first = 0: the id order from the start.) */
typedef struct {
    const cutune_searcher_ctx *ctx;
    size_t n, next, opt;
    int first;
} oracle_state;

static int oracle_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    oracle_state *s = st;
    s->ctx = ctx;
    s->n = cutune_space_size(ctx->space);
    uint16_t idx[2] = {1, 1};
    long long id = cutune_space_find(ctx->space, idx);
    if (id < 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "oracle: optimum not in the space");
    s->opt = (size_t)id;
    s->first = 1;
    return 0;
}

static int oracle_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    oracle_state *s = st;
    *n = 0;
    if (s->first) {
        s->first = 0;
        out[(*n)++] = s->opt;
        return 0;
    }
    while (s->next < s->n && s->ctx->visited[s->next])
        s->next++;
    if (s->next < s->n)
        out[(*n)++] = s->next++;
    return 0;
}

static const cutune_searcher_type oracle_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "oracle",
    .help = "test: knows the optimum",
    .size = sizeof(oracle_state),
    .alloc = oracle_alloc,
    .propose = oracle_propose,
};

/* Uniform random search without replacement, local to the test so that the
 * check "random scores P ~ 0" validates the baseline on its own. */
typedef struct {
    const cutune_searcher_ctx *ctx;
    size_t n;
} uniform_state;

static int uniform_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    uniform_state *s = st;
    s->ctx = ctx;
    s->n = cutune_space_size(ctx->space);
    return 0;
}

static int uniform_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    uniform_state *s = st;
    *n = 0;
    for (int t = 0; t < 1000000; t++) {
        size_t id = gsl_rng_uniform_int(s->ctx->rng, s->n);
        if (!s->ctx->visited[id]) {
            out[(*n)++] = id;
            break;
        }
    }
    return 0;
}

static const cutune_searcher_type uniform_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "uniform",
    .help = "test: uniform without replacement",
    .size = sizeof(uniform_state),
    .alloc = uniform_alloc,
    .propose = uniform_propose,
};

static cutune_bench_result *bench(const char *const *recs, size_t nrec,
                                  const cutune_searcher_type *const *types, size_t ns,
                                  const size_t *budgets, size_t nb, size_t seeds, unsigned conv,
                                  unsigned jobs)
{
    char err[1024];
    cutune_bench_options o = {.searchers = types,
                              .nsearchers = ns,
                              .recordings = recs,
                              .nrecordings = nrec,
                              .budgets = budgets,
                              .nbudgets = nb,
                              .nseeds = seeds,
                              .conventions = conv,
                              .jobs = jobs};
    cutune_bench_result *r = NULL;
    int rc = cutune_bench_run(&o, &r, err, sizeof err);
    if (rc < 0)
        fail_msg("cutune_bench_run: %s", err);
    return r;
}

/* ---- the analytic baseline ---- */

static void test_baseline_vs_simulation(void **state)
{
    /* ties, and one failure (+inf) that counts as the worst valid time */
    double v[12] = {5, 3, 3, 8, 1, 9, 2, 7, 4, 6, INFINITY, 10};
    double sorted[12];
    memcpy(sorted, v, sizeof v);
    for (int i = 1; i < 12; i++)
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    const double fail = 10;
    const size_t draws = 200000;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    for (size_t b = 1; b <= 12; b++) {
        double e = cutune_bench_expected_min(sorted, 12, b, fail);
        double sum = 0, sum2 = 0;
        for (size_t d = 0; d < draws; d++) {
            double w[12];
            memcpy(w, v, sizeof v);
            double m = INFINITY;
            for (size_t i = 0; i < b; i++) { /* partial Fisher-Yates: without replacement */
                size_t j = i + gsl_rng_uniform_int(rng, 12 - i);
                double t = w[i];
                w[i] = w[j];
                w[j] = t;
                if (w[i] < m)
                    m = w[i];
            }
            if (!isfinite(m))
                m = fail;
            sum += m;
            sum2 += m * m;
        }
        double mean = sum / draws;
        double var = sum2 / draws - mean * mean;
        /* tolerance: 5 standard errors of the simulated mean (+ rounding) */
        double tol = 5.0 * sqrt(var > 0 ? var / draws : 0) + 1e-9;
        if (fabs(e - mean) > tol)
            fail_msg("b=%zu: analytic %.6f, simulated %.6f (tol %.6f)", b, e, mean, tol);
    }
    /* edge cases: b = 1 is the mean; b = n is the minimum; out of range NAN */
    double mean1 = (5 + 3 + 3 + 8 + 1 + 9 + 2 + 7 + 4 + 6 + 10 + 10) / 12.0;
    assert_true(fabs(cutune_bench_expected_min(sorted, 12, 1, fail) - mean1) < 1e-12);
    assert_true(fabs(cutune_bench_expected_min(sorted, 12, 12, fail) - 1.0) < 1e-12);
    assert_true(isnan(cutune_bench_expected_min(sorted, 12, 0, fail)));
    assert_true(isnan(cutune_bench_expected_min(sorted, 12, 13, fail)));
    gsl_rng_free(rng);
}

/* ---- the harness on known answers ---- */

static void test_known_answers(void **state)
{
    char sq[512], sp[512];
    snprintf(sq, sizeof sq, "%s/square.json", tmpdir);
    snprintf(sp, sizeof sp, "%s/sparse.json", tmpdir);
    write_file(sq, square_json);
    write_file(sp, sparse_json);
    const char *recs[] = {sq, sp};
    const cutune_searcher_type *types[] = {cutune_searcher_grid, &oracle_type};
    size_t budgets[] = {6, 1, 4};
    cutune_bench_result *r = bench(recs, 2, types, 2, budgets, 3, 5,
                                   CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN, 2);
    assert_int_equal(r->nconv, 2);
    assert_int_equal(r->nbudgets, 3);
    assert_int_equal(r->budgets[0], 1);
    assert_int_equal(r->budgets[2], 6);
    /* recordings sorted by name: sparse, square */
    assert_string_equal(r->rec[0].name, "sparse");
    assert_string_equal(r->rec[1].name, "square");
    assert_false(r->rec[0].has_costs);
    assert_true(r->rec[1].has_costs);

    /* space sizes: constraint-aware = recorded (failed included), cartesian = product */
    assert_int_equal(r->space[0 * 2 + 0].size, 5);
    assert_int_equal(r->space[0 * 2 + 0].nok, 4);
    assert_int_equal(r->space[1 * 2 + 0].size, 6);
    assert_int_equal(r->space[1 * 2 + 1].size, 4);
    assert_true(r->space[0 * 2 + 1].t_opt == 1.0);
    assert_true(r->space[0 * 2 + 0].t_opt == 2.5);
    /* random baseline after 1 evaluation on square: the mean time */
    assert_true(fabs(r->space[0 * 2 + 1].baseline[0] - 2.5) < 1e-12);

    for (size_t ci = 0; ci < 2; ci++) {
        /* grid over the 4-point square finds the optimum by budget 4 */
        const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, 1, 0, 1);
        assert_true(c->mean == 1.0 && c->median == 1.0 && c->p05 == 1.0 && c->success == 1.0);
        assert_true(c->evals == 4.0);
        /* budget 6 > 4 points: the run stops at 4 evaluations */
        c = cutune_bench_result_cell(r, ci, 1, 0, 2);
        assert_true(c->evals == 4.0);
        /* the oracle: optimum at once, P = 1 over evaluations and time */
        c = cutune_bench_result_cell(r, ci, 1, 1, 0);
        assert_true(c->mean == 1.0 && c->success == 1.0);
        size_t cell = (ci * 2 + 1) * 2 + 1;
        assert_true(fabs(r->p_evals[cell] - 1.0) < 1e-12);
        assert_true(fabs(r->p_time[cell] - 1.0) < 1e-12);
        /* no costs recorded on sparse: P over time undefined */
        assert_true(isnan(r->p_time[(ci * 2 + 0) * 2 + 0]));
    }
    /* sparse: grid sees every point by budget 6 in both conventions */
    for (size_t ci = 0; ci < 2; ci++) {
        const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, 0, 0, 2);
        assert_true(c->mean == 1.0);
    }
    /* sparse, cartesian: 6 evaluations charged although only 4 are valid */
    assert_true(cutune_bench_result_cell(r, 1, 0, 0, 2)->evals == 6.0);
    assert_true(cutune_bench_result_cell(r, 0, 0, 0, 2)->evals == 5.0);
    assert_null(cutune_bench_result_cell(r, 2, 0, 0, 0));
    cutune_bench_result_free(r);
    cutune_bench_result_free(NULL);
}

/* ---- every budget a run of its own ---- */

/* A searcher that plans by its budget: the oracle when the budget is below 4, else
 * every configuration in id order (the optimum, (2, 2), last). */
static int planner_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    int rc = oracle_alloc(st, ctx, err, errlen);
    ((oracle_state *)st)->first = ctx->budget < 4;
    return rc;
}

static const cutune_searcher_type planner_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "planner",
    .help = "test: plans by its budget",
    .size = sizeof(oracle_state),
    .alloc = planner_alloc,
    .propose = oracle_propose,
};

/* The same searcher, claiming one plan for every budget (which is false for it): the
 * bench then reads the smaller budgets off the largest budget's run. */
static uint64_t one_plan(const void *state)
{
    (void)state;
    return 7;
}

static const cutune_searcher_type one_plan_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "oneplan",
    .help = "test: one plan for every budget",
    .size = sizeof(oracle_state),
    .alloc = planner_alloc,
    .propose = oracle_propose,
    .plan = one_plan,
};

static void test_budget_runs(void **state)
{
    char sq[512];
    snprintf(sq, sizeof sq, "%s/square.json", tmpdir);
    write_file(sq, square_json);
    const char *recs[] = {sq};
    const cutune_searcher_type *types[] = {&planner_type};
    size_t budgets[] = {1, 4};
    cutune_bench_result *r =
        bench(recs, 1, types, 1, budgets, 2, 3, CUTUNE_BENCH_CONSTRAINT_AWARE, 2);
    /* the budget-1 cell is a run given budget 1 (the optimum first), not the first
     * evaluation of the budget-4 run (the slowest configuration, 4 ms: 0.25) */
    const cutune_bench_cell *c = cutune_bench_result_cell(r, 0, 0, 0, 0);
    assert_true(c->mean == 1.0 && c->success == 1.0 && c->evals == 1.0);
    c = cutune_bench_result_cell(r, 0, 0, 0, 1);
    assert_true(c->mean == 1.0 && c->evals == 4.0);
    /* the curve is the largest budget's run: 0.25 after its first evaluation */
    assert_true(fabs(r->curve[0] - 0.25) < 1e-12);
    assert_true(r->at[0] == 1.0 && r->at[1] == 1.0);
    /* runs.csv holds the run of each budget */
    assert_int_equal(cutune_bench_write_runs(r, tmpdir, NULL, 0), 0);
    char path[600];
    size_t len;
    snprintf(path, sizeof path, "%s/runs.csv", tmpdir);
    char *text = read_file(path, &len);
    assert_non_null(strstr(text, ",1,1,1,1.000000\n"));
    assert_null(strstr(text, "0.250000"));
    free(text);
    cutune_bench_result_free(r);

    /* a searcher whose plan does not change with the budget is run once per seed, at the
     * largest budget, and the smaller budgets are read off that run: here the first
     * evaluation of the budget-4 run, the slowest configuration */
    const cutune_searcher_type *one[] = {&one_plan_type};
    r = bench(recs, 1, one, 1, budgets, 2, 3, CUTUNE_BENCH_CONSTRAINT_AWARE, 2);
    c = cutune_bench_result_cell(r, 0, 0, 0, 0);
    assert_true(fabs(c->mean - 0.25) < 1e-12 && c->evals == 1.0);
    assert_true(cutune_bench_result_cell(r, 0, 0, 0, 1)->mean == 1.0);
    cutune_bench_result_free(r);
}

/* ---- determinism: two runs (different thread counts), identical files ---- */

static void test_deterministic_output(void **state)
{
    char sq[512], sp[512], d1[512], d2[512], err[1024];
    snprintf(sq, sizeof sq, "%s/square.json", tmpdir);
    snprintf(sp, sizeof sp, "%s/sparse.json", tmpdir);
    write_file(sq, square_json);
    write_file(sp, sparse_json);
    snprintf(d1, sizeof d1, "%s/out1", tmpdir);
    snprintf(d2, sizeof d2, "%s/out2/nested", tmpdir);
    const char *recs[] = {sq, sp};
    const cutune_searcher_type *types[] = {&uniform_type, cutune_searcher_genetic};
    size_t budgets[] = {2, 3, 5};
    cutune_bench_result *a = bench(recs, 2, types, 2, budgets, 3, 7,
                                   CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN, 1);
    const char *rev[] = {sp, sq};
    cutune_bench_result *b = bench(rev, 2, types, 2, budgets, 3, 7,
                                   CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN, 3);
    assert_int_equal(cutune_bench_write(a, d1, "cutune bench test", err, sizeof err), 0);
    assert_int_equal(cutune_bench_write(b, d2, "cutune bench test", err, sizeof err), 0);
    static const char *const files[] = {"results.md",
                                        "results.csv",
                                        "results.json",
                                        "plots.gp",
                                        "plots/cartesian_square.dat",
                                        "plots/constraint-aware_sparse.dat"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p1[700], p2[700];
        size_t l1, l2;
        snprintf(p1, sizeof p1, "%s/%s", d1, files[i]);
        snprintf(p2, sizeof p2, "%s/%s", d2, files[i]);
        char *x = read_file(p1, &l1), *y = read_file(p2, &l2);
        assert_int_equal(l1, l2);
        assert_memory_equal(x, y, l1);
        if (i == 0) { /* the convention is stated */
            assert_non_null(strstr(x, "constraint-aware"));
            assert_non_null(strstr(x, "cartesian"));
            assert_non_null(strstr(x, "Every budget is a run of its own"));
        }
        free(x);
        free(y);
    }
    cutune_bench_result_free(a);
    cutune_bench_result_free(b);
}

static void test_bad_options(void **state)
{
    char err[1024];
    const char *recs[] = {"/nonexistent/recording.json"};
    const cutune_searcher_type *types[] = {cutune_searcher_genetic};
    size_t budgets[] = {10};
    cutune_bench_options o = {.searchers = types,
                              .nsearchers = 1,
                              .recordings = recs,
                              .nrecordings = 1,
                              .budgets = budgets,
                              .nbudgets = 1,
                              .nseeds = 2,
                              .conventions = CUTUNE_BENCH_CONSTRAINT_AWARE,
                              .jobs = 1};
    cutune_bench_result *r = NULL;
    assert_true(cutune_bench_run(&o, &r, err, sizeof err) < 0);
    assert_null(r);
    assert_non_null(strstr(err, "/nonexistent/recording.json"));
    o.nseeds = 0;
    assert_int_equal(cutune_bench_run(&o, &r, err, sizeof err), CUTUNE_EINVAL);
    o.nseeds = 2;
    o.conventions = 0;
    assert_int_equal(cutune_bench_run(&o, &r, err, sizeof err), CUTUNE_EINVAL);
}

/* ---- on the shared recordings ---- */

static char shared_rec[4096];

static void test_shared_small(void **state)
{
    const char *recs[] = {shared_rec};
    const cutune_searcher_type *types[] = {&uniform_type, cutune_searcher_genetic};
    size_t budgets[] = {20, 100};
    cutune_bench_result *r = bench(recs, 1, types, 2, budgets, 2, 20,
                                   CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN, 0);
    /* the README's numbers for this file */
    assert_int_equal(r->space[0].size, 1724);
    assert_int_equal(r->space[0].nok, 1496);
    assert_int_equal(r->space[1].size, 2560);
    for (size_t ci = 0; ci < 2; ci++) {
        /* random search scores about 0; the GA clearly better */
        double pr = r->p_evals[ci * 2 + 0], pg = r->p_evals[ci * 2 + 1];
        assert_true(fabs(pr) < 0.3);
        assert_true(pg > pr + 0.1);
        for (size_t t = 1; t < r->maxb; t++) /* the baseline only improves */
            assert_true(r->space[ci].baseline[t] <= r->space[ci].baseline[t - 1] + 1e-12);
    }
    cutune_bench_result_free(r);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--shared") == 0) {
        const char *d = getenv("CUTUNE_SHARED_DATA");
        struct stat st;
        if (!d ||
            snprintf(shared_rec, sizeof shared_rec,
                     "%s/kt-caches/convolution_GTX_TitanX_Maxwell.json.gz",
                     d) >= (int)sizeof shared_rec ||
            stat(shared_rec, &st) < 0) {
            fprintf(stderr, "skipped: no shared recordings (CUTUNE_SHARED_DATA)\n");
            return 77;
        }
        const struct CMUnitTest shared[] = {cmocka_unit_test(test_shared_small)};
        return cmocka_run_group_tests(shared, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_baseline_vs_simulation),
        cmocka_unit_test(test_known_answers),
        cmocka_unit_test(test_budget_runs),
        cmocka_unit_test(test_deterministic_output),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
