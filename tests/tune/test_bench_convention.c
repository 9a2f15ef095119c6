/* Tests of cutune bench's known spaces and what is judged on them (src/tune/bench_run.c,
 * bench_restrict.c, bench_vs_random.c, bench_split.c), on hand-made recordings whose
 * answers are known: the constraint-aware convention charges the configurations the
 * restrictions allow but the recording lacks, the recorded convention does not,
 * restrictions that exclude a recorded configuration are refused, random search's exact
 * expected fraction of optimum, the cells not above random search, and the
 * leave-one-GPU-out choice. */
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

static char tmpdir[256];

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cutune_test_bench_conv_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    return nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
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
    return buf;
}

/* 3 x 2 product: 4 valid, (3,1) failed to compile, (3,2) absent (it failed, and the file
 * left it out, as the published recordings do). */
static const char sparse_json[] =
    "{\"device_name\": \"TestGPU\", \"kernel_name\": \"toy2\", \"tune_params_keys\": [\"a\", "
    "\"b\"], \"tune_params\": {\"a\": [1, 2, 3], \"b\": [1, 2]}, \"objective\": \"time\", "
    "\"cache\": {"
    "\"1,1\": {\"a\": 1, \"b\": 1, \"time\": 5.0},"
    "\"1,2\": {\"a\": 1, \"b\": 2, \"time\": 2.5},"
    "\"2,1\": {\"a\": 2, \"b\": 1, \"time\": 7.0},"
    "\"2,2\": {\"a\": 2, \"b\": 2, \"time\": 6.0},"
    "\"3,1\": {\"a\": 3, \"b\": 1, \"time\": \"CompilationFailedConfig\"}}}\n";

/* 2 x 2, every point valid; the times in id order are T0..T3. */
static void write_square(const char *path, double t0, double t1, double t2, double t3)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"device_name\": \"TestGPU\", \"kernel_name\": \"toy\", \"tune_params_keys\": "
             "[\"a\", \"b\"], \"tune_params\": {\"a\": [1, 2], \"b\": [1, 2]}, \"objective\": "
             "\"time\", \"cache\": {"
             "\"1,1\": {\"a\": 1, \"b\": 1, \"time\": %g},"
             "\"1,2\": {\"a\": 1, \"b\": 2, \"time\": %g},"
             "\"2,1\": {\"a\": 2, \"b\": 1, \"time\": %g},"
             "\"2,2\": {\"a\": 2, \"b\": 2, \"time\": %g}}}\n",
             t0, t1, t2, t3);
    write_file(path, text);
}

/* A searcher that proposes the ids in order from start (0: ascending from id 0; 1: the
 * last id first, then ascending). */
typedef struct {
    const cutune_searcher_ctx *ctx;
    size_t n, next;
    int last_first;
} order_state;

static int order_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    (void)k, (void)err, (void)errlen;
    order_state *s = st;
    *n = 0;
    if (s->last_first) {
        s->last_first = 0;
        if (!s->ctx->visited[s->n - 1]) {
            out[(*n)++] = s->n - 1;
            return 0;
        }
    }
    while (s->next < s->n && s->ctx->visited[s->next])
        s->next++;
    if (s->next < s->n)
        out[(*n)++] = s->next++;
    return 0;
}

static int ascending_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    order_state *s = st;
    s->ctx = ctx;
    s->n = cutune_space_size(ctx->space);
    return 0;
}

static int last_first_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    ascending_alloc(st, ctx, err, errlen);
    ((order_state *)st)->last_first = 1;
    return 0;
}

static const cutune_searcher_type ascending_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "ascending",
    .help = "test: ids in order",
    .size = sizeof(order_state),
    .alloc = ascending_alloc,
    .propose = order_propose,
};

static const cutune_searcher_type last_first_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "lastfirst",
    .help = "test: the last id, then ids in order",
    .size = sizeof(order_state),
    .alloc = last_first_alloc,
    .propose = order_propose,
};

static int run(const char *const *recs, size_t nrec, const cutune_bench_space_def *defs,
               const cutune_searcher_type *const *types, size_t ns, const size_t *budgets,
               size_t nb, unsigned conv, int split, cutune_bench_result **r, char *err,
               size_t errlen)
{
    cutune_bench_options o = {.searchers = types,
                              .nsearchers = ns,
                              .recordings = recs,
                              .nrecordings = nrec,
                              .budgets = budgets,
                              .nbudgets = nb,
                              .nseeds = 3,
                              .conventions = conv,
                              .jobs = 2,
                              .spaces = defs,
                              .split = split};
    return cutune_bench_run(&o, r, err, errlen);
}

/* constraint-aware with known restrictions: the restricted product, the absent point a
 * failure that is charged; recorded: only what the file holds; unknown restrictions: the
 * recorded configurations stand in. */
static void test_absent_charged(void **state)
{
    (void)state;
    char sp[512], err[1024];
    snprintf(sp, sizeof sp, "%s/sparse.json", tmpdir);
    write_file(sp, sparse_json);
    const char *recs[] = {sp};
    const char *const all[] = {"b >= 1"};
    cutune_bench_space_def def = {.known = 1, .restrictions = all, .n = 1, .source = "test:1"};
    const cutune_searcher_type *types[] = {cutune_searcher_grid};
    size_t budgets[] = {6};
    cutune_bench_result *r = NULL;
    assert_int_equal(run(recs, 1, &def, types, 1, budgets, 1,
                         CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_RECORDED, 0, &r, err,
                         sizeof err),
                     0);
    assert_int_equal(r->nconv, 2);
    assert_int_equal(r->conv[0], CUTUNE_BENCH_CONSTRAINT_AWARE);
    assert_int_equal(r->conv[1], CUTUNE_BENCH_RECORDED);
    /* constraint-aware: 6 configurations, (3,2) absent, every one charged */
    assert_int_equal(r->space[0].size, 6);
    assert_int_equal(r->space[0].absent, 1);
    assert_true(r->space[0].restricted);
    assert_string_equal(r->space[0].source, "test:1");
    assert_true(cutune_bench_result_cell(r, 0, 0, 0, 0)->evals == 6.0);
    /* recorded: the 5 the file holds */
    assert_int_equal(r->space[1].size, 5);
    assert_int_equal(r->space[1].absent, 0);
    assert_false(r->space[1].restricted);
    assert_true(cutune_bench_result_cell(r, 1, 0, 0, 0)->evals == 5.0);
    cutune_bench_result_free(r);

    /* unknown restrictions: constraint-aware searches the recorded configurations */
    cutune_bench_space_def unknown = {0};
    assert_int_equal(run(recs, 1, &unknown, types, 1, budgets, 1, CUTUNE_BENCH_CONSTRAINT_AWARE, 0,
                         &r, err, sizeof err),
                     0);
    assert_int_equal(r->space[0].size, 5);
    assert_false(r->space[0].restricted);
    cutune_bench_result_free(r);

    /* restrictions that exclude a recorded configuration, (3,1), are not this recording's */
    const char *const bad[] = {"a < 3"};
    cutune_bench_space_def wrong = {
        .known = 1, .restrictions = bad, .n = 1, .source = "restrictions:7"};
    r = NULL;
    int rc = run(recs, 1, &wrong, types, 1, budgets, 1, CUTUNE_BENCH_CONSTRAINT_AWARE, 0, &r, err,
                 sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_null(r);
    assert_non_null(strstr(err, "sparse.json"));
    assert_non_null(strstr(err, "restrictions:7"));
    assert_non_null(strstr(err, "1 of its 5 recorded configurations"));

    /* a restriction naming no parameter: the error names its source */
    const char *const unk[] = {"c > 1"};
    cutune_bench_space_def badname = {
        .known = 1, .restrictions = unk, .n = 1, .source = "restrictions:9"};
    rc = run(recs, 1, &badname, types, 1, budgets, 1, CUTUNE_BENCH_CONSTRAINT_AWARE, 0, &r, err,
             sizeof err);
    assert_true(rc < 0);
    assert_non_null(strstr(err, "restrictions:9"));
    /* ... and, where each expression's line is known, that line (not its section's) and
     * the recording's parameters */
    const char *const at[] = {"restrictions:10"};
    badname.sources = at;
    rc = run(recs, 1, &badname, types, 1, budgets, 1, CUTUNE_BENCH_CONSTRAINT_AWARE, 0, &r, err,
             sizeof err);
    assert_true(rc < 0);
    assert_non_null(strstr(err, "restrictions:10: unknown parameter 'c'"));
    assert_non_null(strstr(err, "has the parameters a, b"));
}

/* random search's expected fraction of optimum is exact: after one evaluation of a
 * 4-point space the mean of t_opt / t; a failure counts 0. */
static void test_random_fraction(void **state)
{
    (void)state;
    char sq[512], sp[512], err[1024];
    snprintf(sq, sizeof sq, "%s/sq_A.json", tmpdir);
    snprintf(sp, sizeof sp, "%s/sparse.json", tmpdir);
    write_square(sq, 4, 3, 2, 1);
    write_file(sp, sparse_json);
    const char *recs[] = {sq, sp};
    const cutune_searcher_type *types[] = {&ascending_type};
    size_t budgets[] = {1, 2, 4};
    cutune_bench_result *r = NULL;
    assert_int_equal(
        run(recs, 2, NULL, types, 1, budgets, 3, CUTUNE_BENCH_CARTESIAN, 0, &r, err, sizeof err),
        0);
    /* recordings sorted: sparse, sq_A */
    const cutune_bench_space_info *sq_info = &r->space[1];
    double f1 = (1.0 / 4 + 1.0 / 3 + 1.0 / 2 + 1.0) / 4;
    assert_true(fabs(sq_info->rand_frac[0] - f1) < 1e-12);
    /* two draws of four: min over C(4,2) = 6 pairs; the optimum is in 3 of them */
    double f2 = (3 * 1.0 + 2 * 0.5 + 1 * (1.0 / 3)) / 6;
    assert_true(fabs(sq_info->rand_frac[1] - f2) < 1e-12);
    assert_true(fabs(sq_info->rand_frac[3] - 1.0) < 1e-12);
    /* sparse, cartesian: 2 of 6 fail; one draw: (2.5/5 + 1 + 2.5/7 + 2.5/6 + 0 + 0) / 6 */
    double g1 = (2.5 / 5 + 1 + 2.5 / 7 + 2.5 / 6) / 6;
    assert_true(fabs(r->space[0].rand_frac[0] - g1) < 1e-12);
    cutune_bench_result_free(r);
}

/* the cells not above random search: ascending proposes the slowest first (listed);
 * lastfirst finds the optimum at once (every run succeeds: not listed). The noise of a
 * deterministic searcher is 0. */
static void test_vs_random(void **state)
{
    (void)state;
    char sq[512], out[512], err[1024];
    snprintf(sq, sizeof sq, "%s/sq_A.json", tmpdir);
    snprintf(out, sizeof out, "%s/vs", tmpdir);
    write_square(sq, 4, 3, 2, 1);
    const char *recs[] = {sq};
    const cutune_searcher_type *types[] = {&ascending_type, &last_first_type};
    size_t budgets[] = {1, 2};
    cutune_bench_result *r = NULL;
    assert_int_equal(
        run(recs, 1, NULL, types, 2, budgets, 2, CUTUNE_BENCH_CARTESIAN, 0, &r, err, sizeof err),
        0);
    assert_int_equal(cutune_bench_write(r, out, NULL, err, sizeof err), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/vs-random.csv", out);
    char *csv = read_file(path);
    assert_non_null(strstr(csv, "cartesian,sq_A,ascending,1,0.2500,0.5208,-0.2708,0.0000\n"));
    assert_non_null(strstr(csv, "cartesian,sq_A,ascending,2,0.3333,"));
    assert_non_null(strstr(csv, "cartesian,sq_A,ascending,p_evals,"));
    assert_null(strstr(csv, "lastfirst"));
    free(csv);
    snprintf(path, sizeof path, "%s/results.md", out);
    char *md = read_file(path);
    assert_non_null(strstr(md, "- ascending: 3 of 3 cells"));
    assert_non_null(strstr(md, "- lastfirst: 0 of 3 cells"));
    assert_non_null(strstr(md, "Budgets charge: every point of the Cartesian product"));
    free(md);
    /* no --split: no split.csv */
    snprintf(path, sizeof path, "%s/split.csv", out);
    assert_int_equal(access(path, F_OK), -1);
    cutune_bench_result_free(r);
}

/* leave-one-GPU-out: on toy_A the last id is the optimum, on toy_B the first. Each
 * candidate averages 0.625 at budget 1, but the choice made on the other GPU is the one
 * that is wrong for the GPU left out: 0.25 on both. */
static void test_split(void **state)
{
    (void)state;
    char a[512], b[512], out[512], err[1024];
    snprintf(a, sizeof a, "%s/toy_A.json", tmpdir);
    snprintf(b, sizeof b, "%s/toy_B.json", tmpdir);
    snprintf(out, sizeof out, "%s/split", tmpdir);
    write_square(a, 4, 3, 2, 1);
    write_square(b, 1, 2, 3, 4);
    const char *recs[] = {a, b};
    const cutune_searcher_type *types[] = {&ascending_type, &last_first_type};
    size_t budgets[] = {1};
    cutune_bench_result *r = NULL;
    assert_int_equal(
        run(recs, 2, NULL, types, 2, budgets, 1, CUTUNE_BENCH_CARTESIAN, 1, &r, err, sizeof err),
        0);
    assert_int_equal(cutune_bench_write(r, out, NULL, err, sizeof err), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/split.csv", out);
    char *csv = read_file(path);
    assert_non_null(strstr(csv, "cartesian,toy_A,toy,A,1,lastfirst,1.0000,ascending,0.2500\n"));
    assert_non_null(strstr(csv, "cartesian,toy_B,toy,B,1,ascending,1.0000,lastfirst,0.2500\n"));
    free(csv);
    snprintf(path, sizeof path, "%s/results.md", out);
    char *md = read_file(path);
    assert_non_null(strstr(md, "| toy: **chosen without the GPU** | 0.250 |"));
    assert_non_null(strstr(md, "| toy: ascending | 0.625 |"));
    assert_non_null(strstr(md, "| toy: **best per recording** | 1.000 |"));
    free(md);
    cutune_bench_result_free(r);
}

/* restrictions files: sections by pattern, first match wins, errors name file and line */
static void test_restrictions_file(void **state)
{
    (void)state;
    char p[512], err[1024];
    snprintf(p, sizeof p, "%s/restrictions", tmpdir);
    write_file(p, "# comment\n\n[GEMM_* gemm_*]\nKWG % KWI == 0\n  MWG > 1  \n"
                  "[pnpoly_*]\n[GEMM_P100]\nx == 1\n");
    cutune_bench_restrictions *rs = NULL;
    assert_int_equal(cutune_bench_restrictions_load(p, &rs, err, sizeof err), 0);
    cutune_bench_space_def d;
    assert_int_equal(cutune_bench_restrictions_lookup(rs, "GEMM_P100", &d), 1);
    assert_true(d.known);
    assert_int_equal(d.n, 2);
    assert_string_equal(d.restrictions[0], "KWG % KWI == 0");
    assert_string_equal(d.restrictions[1], "MWG > 1");
    assert_non_null(strstr(d.source, "restrictions:3"));
    assert_int_equal(cutune_bench_restrictions_lookup(rs, "gemm_AMD_Vega", &d), 1);
    assert_int_equal(cutune_bench_restrictions_lookup(rs, "pnpoly_P100", &d), 1);
    assert_true(d.known);
    assert_int_equal(d.n, 0);
    assert_int_equal(cutune_bench_restrictions_lookup(rs, "convolution_P100", &d), 0);
    assert_false(d.known);
    cutune_bench_restrictions_free(rs);

    static const char *const bad[][2] = {
        {"x == 1\n", ":1: a restriction before the first"},
        {"# c\n[GEMM_*\n", ":2: a section header is"},
        {"[GEMM_*] x\n", ":1: a section header is"},
        {"[ ]\n", ":1: a section names no recording"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(p, bad[i][0]);
        rs = NULL;
        assert_int_equal(cutune_bench_restrictions_load(p, &rs, err, sizeof err), CUTUNE_EINVAL);
        assert_null(rs);
        if (!strstr(err, bad[i][1]))
            fail_msg("'%s': got '%s'", bad[i][0], err);
    }
    snprintf(p, sizeof p, "%s/none", tmpdir);
    assert_true(cutune_bench_restrictions_load(p, &rs, err, sizeof err) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_absent_charged),    cmocka_unit_test(test_random_fraction),
        cmocka_unit_test(test_vs_random),         cmocka_unit_test(test_split),
        cmocka_unit_test(test_restrictions_file),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
