/* Tests of the Bayesian-optimisation searcher (src/search/bo.c) on synthetic spaces
 * built with the space API. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/cutune.h"

/* A grid space: np integer parameters 0..nv-1. */
static cutune_space *grid_space(size_t np, size_t nv)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    cutune_value v[256];
    for (size_t i = 0; i < nv; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i};
    for (size_t p = 0; p < np; p++) {
        char name[8] = {(char)('a' + p), 0};
        assert_int_equal(cutune_space_add_param(s, name, v, nv, err, sizeof err), 0);
    }
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    return s;
}

typedef double (*objective_fn)(const cutune_space *s, size_t id);

/* Quadratic bowl with its minimum off-centre (at 3, 11, 7 on a 0..14 grid). */
static double bowl(const cutune_space *s, size_t id)
{
    static const double c[3] = {3, 11, 7};
    const uint16_t *x = cutune_space_config(s, id);
    double f = 1.0;
    for (size_t p = 0; p < cutune_space_nparams(s); p++)
        f += (x[p] - c[p % 3]) * (x[p] - c[p % 3]) * (1.0 + 0.5 * p);
    return f;
}

/* Branin on [-5,10] x [0,15] discretised to the grid, shifted positive; NAN = failure
 * (used by the failure tests). */
static double branin(const cutune_space *s, size_t id)
{
    const uint16_t *x = cutune_space_config(s, id);
    size_t nv = cutune_space_param(s, 0)->nvalues;
    double x1 = -5.0 + 15.0 * x[0] / (nv - 1), x2 = 15.0 * x[1] / (nv - 1);
    double b = 5.1 / (4 * M_PI * M_PI), c = 5 / M_PI, t = 1 / (8 * M_PI);
    double f = pow(x2 - b * x1 * x1 + c * x1 - 6, 2) + 10 * (1 - t) * cos(x1) + 10;
    return f + 1.0;
}

/* Most of the bowl's space fails: every configuration but those with the first two
 * parameters in 3..8 (on a 10-value grid 36 of 100 pairs succeed). */
static double bowl_mostly_failing(const cutune_space *s, size_t id)
{
    const uint16_t *x = cutune_space_config(s, id);
    return x[0] >= 3 && x[0] <= 8 && x[1] >= 3 && x[1] <= 8 ? bowl(s, id) : NAN;
}

/* Failures in a band of the bowl's space: the first parameter above 10. */
static double bowl_with_failures(const cutune_space *s, size_t id)
{
    const uint16_t *x = cutune_space_config(s, id);
    return x[0] > 10 ? NAN : bowl(s, id);
}

typedef struct run_result {
    double best;         /* best time found */
    size_t evals_to_opt; /* unique evaluations until the optimum (0 = not reached) */
    size_t failures;     /* failed evaluations */
    size_t seq[64];      /* first proposals (determinism) */
} run_result;

/* Evaluations after which run() stops short of its budget (0: run the whole budget). */
static size_t run_limit;
/* When set: every unique proposal of run(), in order (room for the space's size). */
static size_t *run_all;

/* The tuner loop in miniature: propose k, answer re-visits from the history, observe. */
static void run(const cutune_space *s, objective_fn f, size_t budget, size_t k, unsigned long seed,
                const char *args, run_result *res)
{
    char err[256];
    size_t N = cutune_space_size(s);
    double opt = INFINITY;
    for (size_t i = 0; i < N; i++)
        if (f(s, i) < opt)
            opt = f(s, i);
    uint8_t *visited = calloc(N, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {
        .space = s, .budget = budget, .rng = rng, .visited = visited, .args = args};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
    memset(res, 0, sizeof *res);
    res->best = INFINITY;
    size_t used = 0, rounds = 0;
    while (used < budget && used < N && (!run_limit || used < run_limit)) {
        size_t ids[16], n = 0;
        assert_int_equal(cutune_searcher_propose(sr, k, ids, &n, err, sizeof err), 0);
        assert_true(n > 0 && n <= k);
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < i; j++)
                assert_true(ids[i] != ids[j]); /* distinct */
        cutune_observation obs[16];
        for (size_t i = 0; i < n; i++) {
            assert_true(ids[i] < N);
            double t = f(s, ids[i]);
            obs[i] = (cutune_observation){.id = ids[i],
                                          .status = isnan(t) ? CUTUNE_STATUS_RUNTIME_ERROR
                                                             : CUTUNE_STATUS_OK,
                                          .time_ms = t};
            if (!visited[ids[i]]) {
                visited[ids[i]] = 1;
                if (used < 64)
                    res->seq[used] = ids[i];
                if (run_all)
                    run_all[used] = ids[i];
                used++;
                if (isnan(t))
                    res->failures++;
                else if (t < res->best) {
                    res->best = t;
                    if (t <= opt && !res->evals_to_opt)
                        res->evals_to_opt = used;
                }
            }
        }
        assert_int_equal(cutune_searcher_observe(sr, obs, n, err, sizeof err), 0);
        assert_true(++rounds < 10 * budget); /* never stuck on visited ids */
    }
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    free(visited);
}

/* bo finds the bowl's minimum (3375 configurations) within 40 evaluations for >= 8 of
 * 10 seeds (random search: 40/3375 = 1.2% per run). */
static void test_bowl(void **state)
{
    cutune_space *s = grid_space(3, 15);
    int hits = 0;
    for (unsigned long seed = 1; seed <= 10; seed++) {
        run_result r;
        run(s, bowl, 40, 1, seed, NULL, &r);
        hits += r.evals_to_opt > 0;
    }
    print_message("bowl: optimum within 40 evaluations for %d/10 seeds\n", hits);
    assert_true(hits >= 8);
    cutune_space_free(s);
}

/* Discretised Branin (40 x 40 grid, three global minima): optimum within 50. */
static void test_branin(void **state)
{
    cutune_space *s = grid_space(2, 40);
    int hits = 0;
    for (unsigned long seed = 1; seed <= 10; seed++) {
        run_result r;
        run(s, branin, 50, 1, seed, "kernel=matern52", &r);
        hits += r.evals_to_opt > 0;
    }
    print_message("branin: optimum within 50 evaluations for %d/10 seeds\n", hits);
    assert_true(hits >= 8);
    cutune_space_free(s);
}

/* pairs: the local steps also consider the adjacent pair moves of the best configuration.
 * The default is the safe phase's pairs=0 at every budget (no phase by the budget); the
 * option changes the run; the bowl's optimum is found either way.
 * (What it is for, a ridge that only a move of two parameters at once can climb, is
 * measured in docs/searchers.md.) */
static void test_pairs(void **state)
{
    (void)state;
    cutune_space *s = grid_space(3, 15);
    for (size_t budget = 59; budget <= 60; budget++) { /* early=auto's two phases' budgets */
        run_result d, on, off;
        run(s, bowl, budget, 1, 3, NULL, &d);
        run(s, bowl, budget, 1, 3, "pairs=1", &on);
        run(s, bowl, budget, 1, 3, "pairs=0", &off);
        assert_memory_equal(d.seq, off.seq, sizeof d.seq);
        assert_memory_not_equal(on.seq, off.seq, 40 * sizeof on.seq[0]);
        assert_true(on.evals_to_opt > 0 && off.evals_to_opt > 0);
    }
    cutune_space_free(s);
}

/* Same seed, same proposals; batches of k are distinct; every acquisition and output warp
 * runs. */
static void test_determinism_and_batches(void **state)
{
    cutune_space *s = grid_space(3, 15);
    run_result a, b;
    run(s, bowl, 30, 1, 42, NULL, &a);
    run(s, bowl, 30, 1, 42, NULL, &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, bowl, 30, 4, 42, "acq=ei,xi=0.05", &a);
    /* a batch that ends the 5-point design (evaluations 5..8): its last three picks are the
     * model's, not the lowest ids (with an empty model every candidate tied at an infinite
     * EI and ids 0, 1, 2 won) */
    for (unsigned long seed = 1; seed <= 3; seed++) {
        run(s, bowl, 60, 4, seed, NULL, &b);
        for (size_t i = 5; i < 8; i++)
            assert_true(b.seq[i] > 2);
    }
    run(s, bowl, 30, 4, 42, "acq=pi", &a);
    run(s, bowl, 30, 3, 42, "acq=lcb,beta=1.5,kernel=se", &a);
    run(s, bowl, 30, 5, 42, "kernel=matern32,init=3,starts=1", &a);
    assert_true(a.best < 20.0);
    /* every output warp and length-scale prior, deterministic and effective */
    const char *warps[] = {"warp=none,lprior=weak",
                           "warp=copula",
                           "warp=boxcox,lprior=weak",
                           "lprior=dim",
                           "lprior=auto",
                           "design=lhs",
                           "add=fit",
                           "add=0.6",
                           "lin=fit",
                           "lin=0.1"};
    for (size_t i = 0; i < sizeof warps / sizeof warps[0]; i++) {
        run(s, bowl, 40, 1, 42, warps[i], &a);
        run(s, bowl, 40, 1, 42, warps[i], &b);
        assert_memory_equal(a.seq, b.seq, sizeof a.seq);
        assert_true(a.best < 10.0);
    }
    cutune_space_free(s);
}

/* lprior=auto (the default) is the weak prior while the successful points are fewer
 * than the model's inputs: in 8 dimensions, the design (5 points) and the proposals made
 * from 5..7 points are exactly those of lprior=weak; later ones come from the
 * dimension-scaled prior, and the run is deterministic. */
static void test_lprior_auto(void **state)
{
    (void)state;
    cutune_space *s = grid_space(8, 4);
    run_result a, w, b;
    run(s, bowl, 30, 1, 7, "lprior=auto", &a);
    run(s, bowl, 30, 1, 7, "lprior=weak", &w);
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(a.seq[i], w.seq[i]);
    run(s, bowl, 30, 1, 7, "lprior=dim", &b); /* the prior matters there */
    assert_memory_not_equal(b.seq, w.seq, 8 * sizeof b.seq[0]);
    run(s, bowl, 30, 1, 7, NULL, &b); /* the default is auto */
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    cutune_space_free(s);
}

/* lweak (default 20): while at most that many points are held and the dimension-scaled
 * prior is in force, the local steps are scored by a second model under the weak prior.
 * It changes the run (the default differs from lweak=0 within the first 20 evaluations);
 * lweak=1 never applies and is lweak=0 exactly; under lprior=weak the main model already
 * has that prior, so lweak does nothing; and the optimum is still found. */
static void test_lweak(void **state)
{
    (void)state;
    cutune_space *s = grid_space(3, 10);
    run_result d, off, one, w0, w1;
    run(s, bowl, 30, 1, 5, NULL, &d);
    run(s, bowl, 30, 1, 5, "lweak=0", &off);
    run(s, bowl, 30, 1, 5, "lweak=1", &one);
    assert_memory_not_equal(d.seq, off.seq, 20 * sizeof d.seq[0]);
    assert_memory_equal(one.seq, off.seq, sizeof one.seq);
    run(s, bowl, 30, 1, 5, "lprior=weak", &w0);
    run(s, bowl, 30, 1, 5, "lprior=weak,lweak=0", &w1);
    assert_memory_equal(w0.seq, w1.seq, sizeof w0.seq);
    assert_true(d.evals_to_opt > 0);
    run(s, bowl, 30, 1, 5, NULL, &off); /* deterministic */
    assert_memory_equal(d.seq, off.seq, sizeof d.seq);
    cutune_space_free(s);
}

/* The default is the safe phase at every budget. early=auto takes the safe phase below a
 * budget of 60 and the edge phase (lin=0.1, lprior=dim, lweak=0) from 60 on; early=edge
 * forces it; options given explicitly win over the phase's. The two phases differ within
 * the first 20 evaluations. */
/* bo's plan (what cutune bench groups budgets by): the design size, the phase, and
 * whether the space is scored whole. */
static uint64_t plan_of(const cutune_space *s, size_t budget, const char *args)
{
    char err[256];
    uint8_t *visited = calloc(cutune_space_size(s), 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {
        .space = s, .budget = budget, .rng = rng, .visited = visited, .args = args};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
    assert_non_null(cutune_searcher_bo->plan);
    uint64_t p = cutune_searcher_bo->plan(sr->state);
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    free(visited);
    return p;
}

static cutune_space *mixed_space(void); /* below, with the pool's tests */

static void test_early_phase(void **state)
{
    (void)state;
    {
        cutune_space *g = grid_space(3, 10);
        assert_true(plan_of(g, 59, NULL) == plan_of(g, 60, NULL)); /* no phase by the budget */
        assert_true(plan_of(g, 59, "early=auto") != plan_of(g, 60, "early=auto")); /* safe/edge */
        assert_true(plan_of(g, 60, NULL) == plan_of(g, 200, NULL));  /* 5-point design */
        assert_true(plan_of(g, 200, NULL) != plan_of(g, 240, NULL)); /* 6-point design */
        assert_true(plan_of(g, 20, NULL) == plan_of(g, 40, NULL));
        assert_true(plan_of(g, 20, "early=edge") == plan_of(g, 60, "early=auto"));
        assert_true(plan_of(g, 60, "init=7") != plan_of(g, 60, NULL));
        cutune_space_free(g);
        /* 13,824 configurations: scored whole up to a budget of 4096, pooled above (the
         * prediction cache's 512 MiB), with the same design size and phase */
        cutune_space *m = mixed_space();
        assert_true(plan_of(m, 3000, NULL) == plan_of(m, 4000, NULL));
        assert_true(plan_of(m, 4000, NULL) != plan_of(m, 5000, NULL));
        /* the pool's size is the cache's share at the budget: 8000 at 5000 evaluations,
         * ~4094 at 9000 (same design, phase, pooling: the plan must still differ) */
        assert_true(plan_of(m, 5000, "pool=8000") != plan_of(m, 9000, "pool=8000"));
        assert_true(plan_of(m, 3000, "pool=8000") == plan_of(m, 4000, "pool=8000"));
        cutune_space_free(m);
    }
    cutune_space *s = grid_space(3, 10);
    run_result a, b;
    run(s, bowl, 60, 1, 5, "early=auto", &a);
    run(s, bowl, 60, 1, 5, "early=edge", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, bowl, 60, 1, 5, "lin=0.1,lprior=dim,lweak=0,refit=always,pairs=1,early=safe", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, bowl, 60, 1, 5, "early=safe", &b);
    assert_memory_not_equal(a.seq, b.seq, 20 * sizeof a.seq[0]);
    assert_true(a.evals_to_opt > 0 && b.evals_to_opt > 0);
    run(s, bowl, 60, 1, 5, NULL, &a);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq); /* the default is the safe phase */
    run(s, bowl, 59, 1, 5, "early=auto", &a);
    run(s, bowl, 59, 1, 5, "early=safe", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    /* where most evaluations fail, early=auto leaves the edge phase (early=edge does
     * not), and the run still finds good configurations */
    run(s, bowl_mostly_failing, 60, 1, 5, "early=auto", &a);
    run(s, bowl_mostly_failing, 60, 1, 5, "early=edge", &b);
    assert_memory_not_equal(a.seq, b.seq, sizeof a.seq);
    print_message("mostly failing: %zu failures (early=edge %zu), best %g / %g\n", a.failures,
                  b.failures, a.best, b.best);
    assert_true(a.failures < b.failures);
    assert_true(a.best == 14.5); /* the feasible optimum: (3, 8, 7) */
    /* an explicit option is kept in the edge phase: lweak=20 there differs from it */
    run(s, bowl, 60, 1, 5, "early=edge,lweak=20", &b);
    run(s, bowl, 60, 1, 5, "early=edge", &a);
    assert_memory_not_equal(a.seq, b.seq, 20 * sizeof a.seq[0]);
    cutune_space_free(s);
}

/* preset=plain is the reference searcher: the same run as its options spelt out; an option
 * given with it wins wherever it stands; it models no failure, so on a space with a failing
 * band it pays for more failures than the default does. */
static void test_plain(void **state)
{
    (void)state;
    cutune_space *s = grid_space(3, 15);
    run_result a, b;
    run(s, bowl, 40, 1, 3, "preset=plain", &a);
    run(s, bowl, 40, 1, 3,
        "init=10,design=random,early=safe,lprior=dim,lweak=0,lin=0,pairs=0,refit=always,"
        "local=0,feas=0,warp=none,xi=0",
        &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, bowl, 40, 1, 3, NULL, &b);
    assert_memory_not_equal(a.seq, b.seq, 20 * sizeof a.seq[0]);
    run(s, bowl, 40, 1, 3, "init=4,preset=plain", &a);
    run(s, bowl, 40, 1, 3, "preset=plain,init=4", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, bowl, 40, 1, 3, "preset=plain", &b);
    assert_memory_not_equal(a.seq, b.seq, 20 * sizeof a.seq[0]);
    size_t fp = 0, fd = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        run(s, bowl_with_failures, 60, 1, seed, "preset=plain", &a);
        run(s, bowl_with_failures, 60, 1, seed, NULL, &b);
        fp += a.failures;
        fd += b.failures;
        assert_true(isfinite(a.best) && isfinite(b.best));
    }
    print_message("failures in 5 runs of 60: plain %zu, default %zu\n", fp, fd);
    assert_true(fp > fd);
    char err[256];
    assert_true(cutune_searcher_validate(cutune_searcher_bo, "preset=fancy", err, sizeof err) < 0);
    assert_non_null(strstr(err, "preset=fancy unknown"));
    assert_true(cutune_searcher_validate(cutune_searcher_bo, "feas=2", err, sizeof err) < 0);
    cutune_space_free(s);
}

/* Failures are learned: fewer proposals land in the failing band than at random (4/15
 * of the space fails: ~8 of 30 evaluations), and the optimum is still found. */
static void test_failures(void **state)
{
    cutune_space *s = grid_space(3, 15);
    size_t fails = 0, hits = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        run_result r;
        run(s, bowl_with_failures, 30, 1, seed, NULL, &r);
        fails += r.failures;
        hits += r.evals_to_opt > 0;
    }
    print_message("failures: %zu of 150 evaluations failed (random: ~40), optimum %zu/5\n", fails,
                  hits);
    assert_true(fails < 30);
    assert_true(hits >= 4);
    cutune_space_free(s);
}

/* Proposals (after the first 10) one parameter away from an earlier successful one, of a
 * run of budget on f (run_all holds them). */
static size_t near_success(const cutune_space *s, objective_fn f, const size_t *all, size_t n)
{
    size_t near = 0, np = cutune_space_nparams(s);
    for (size_t i = 10; i < n; i++) {
        const uint16_t *x = cutune_space_config(s, all[i]);
        int hit = 0;
        for (size_t j = 0; j < i && !hit; j++) {
            if (isnan(f(s, all[j])))
                continue;
            const uint16_t *y = cutune_space_config(s, all[j]);
            size_t diff = 0;
            for (size_t p = 0; p < np; p++)
                diff += x[p] != y[p];
            hit = diff == 1;
        }
        near += (size_t)hit;
    }
    return near;
}

/* local=auto (the default): the share of local steps is the larger of 1/3 and the failed
 * share of the global model-based picks. Without failures that is 1/3: a fixed local=1/3's
 * proposals. Where most of the space fails it takes more local steps: more proposals one
 * parameter from a configuration that ran. */
static void test_local_auto(void **state)
{
    (void)state;
    cutune_space *s = grid_space(3, 10);
    const char *third = "local=0.3333333333333333";
    run_result d, a;
    run(s, bowl, 64, 1, 3, third, &d);
    run(s, bowl, 64, 1, 3, NULL, &a);
    assert_memory_equal(d.seq, a.seq, sizeof d.seq);
    run(s, bowl, 64, 1, 3, "local=auto", &d);
    assert_memory_equal(d.seq, a.seq, sizeof d.seq);
    run(s, bowl, 64, 4, 3, third, &d); /* batches: proposals made before any is observed */
    run(s, bowl, 64, 4, 3, NULL, &a);
    assert_memory_equal(d.seq, a.seq, sizeof d.seq);
    size_t all[60], near_d = 0, near_a = 0, fail_d = 0, fail_a = 0;
    run_all = all;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        run(s, bowl_mostly_failing, 60, 1, seed, third, &d);
        near_d += near_success(s, bowl_mostly_failing, all, 60);
        fail_d += d.failures;
        run(s, bowl_mostly_failing, 60, 1, seed, NULL, &a);
        near_a += near_success(s, bowl_mostly_failing, all, 60);
        fail_a += a.failures;
    }
    run_all = NULL;
    print_message("local=auto: %zu of 250 proposals next to a success (local=1/3: %zu); "
                  "failures %zu (local=1/3: %zu)\n",
                  near_a, near_d, fail_a, fail_d);
    assert_true(near_a > near_d);
    char err[256], buf[512];
    uint8_t visited[1000] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {
        .space = s, .budget = 20, .rng = rng, .visited = visited, .args = NULL};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
    assert_true(cutune_searcher_bo->options(sr->state, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, ",local=auto,"));
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    cutune_space_free(s);
}

static double all_fail(const cutune_space *s, size_t id)
{
    return NAN;
}
static double constant(const cutune_space *s, size_t id)
{
    return 2.5;
}
static double outlier(const cutune_space *s, size_t id)
{
    return id % 17 == 0 ? 1e9 : bowl(s, id);
}

/* Degenerate histories: all failed, constant times, huge outliers, a one-point space,
 * a space smaller than the budget. Proposals stay valid and distinct. */
static void test_degenerate(void **state)
{
    cutune_space *s = grid_space(3, 6);
    run_result r;
    run(s, all_fail, 40, 2, 1, NULL, &r);
    assert_int_equal(r.failures, 40);
    run(s, constant, 40, 3, 2, NULL, &r);
    assert_true(r.best == 2.5);
    run(s, outlier, 60, 1, 3, NULL, &r);
    assert_true(r.evals_to_opt > 0);
    run(s, bowl, 500, 4, 4, NULL, &r); /* exhausts the 216 configurations */
    cutune_space_free(s);
    cutune_space *one = grid_space(1, 1);
    run(one, bowl, 5, 1, 5, NULL, &r);
    cutune_space_free(one);
}

/* The loop re-asks a visited id: bo must not count it twice nor get stuck. */
static void test_duplicates(void **state)
{
    char err[256];
    cutune_space *s = grid_space(2, 10);
    uint8_t visited[100] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {.space = s, .budget = 30, .rng = rng, .visited = visited};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
    for (int i = 0; i < 30; i++) {
        size_t id, n;
        assert_int_equal(cutune_searcher_propose(sr, 1, &id, &n, err, sizeof err), 0);
        assert_int_equal(n, 1);
        assert_false(visited[id]);
        visited[id] = 1;
        cutune_observation o = {.id = id, .status = CUTUNE_STATUS_OK, .time_ms = 1.0 + id};
        assert_int_equal(cutune_searcher_observe(sr, &o, 1, err, sizeof err), 0);
        assert_int_equal(cutune_searcher_observe(sr, &o, 1, err, sizeof err), 0); /* again */
        o.time_ms = 5.0; /* a different answer for a known id is ignored */
        assert_int_equal(cutune_searcher_observe(sr, &o, 1, err, sizeof err), 0);
    }
    cutune_observation bad = {.id = 1000, .status = CUTUNE_STATUS_OK, .time_ms = 1.0};
    assert_true(cutune_searcher_observe(sr, &bad, 1, err, sizeof err) < 0);
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    cutune_space_free(s);
}

/* Options: unknown keys and bad values fail with a message listing the valid ones. */
static void test_options(void **state)
{
    char err[256];
    cutune_space *s = grid_space(2, 5);
    uint8_t visited[25] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {.space = s, .budget = 10, .rng = rng, .visited = visited};
    cutune_searcher *sr = NULL;
    const char *bad[] = {
        "foo=1",      "acq=xx",  "kernel=cubic", "xi=-1",     "xi=abc",   "init",
        "init=-3",    "warp=yj", "warp=",        "lprior=no", "add=1",    "add=-0.1",
        "add=fits",   "lin=-1",  "lin=11",       "lin=x",     "lweak=-1", "lweak=x",
        "early=late", "early=",  "pairs=2",      "pairs="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ctx.args = bad[i];
        assert_true(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err) < 0);
        assert_null(sr);
    }
    ctx.args = "foo=1";
    cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err);
    assert_non_null(
        strstr(err, "acq, xi, beta, kernel, init, starts, local, pool, pow2, pairs, warp, lprior"));
    const char *good[] = {"acq=ei,xi=0.01,kernel=matern52",
                          "warp=none,lprior=weak",
                          "warp=copula,lprior=dim",
                          "warp=boxcox",
                          "lprior=auto",
                          "design=lhs,init=7",
                          "pairs=0",
                          "add=fit",
                          "add=0.5",
                          "lin=fit",
                          "lin=0",
                          "lin=0.1",
                          "lweak=0",
                          "lweak=40"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ctx.args = good[i];
        assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
        cutune_searcher_free(sr);
    }
    assert_ptr_equal(cutune_searcher_find("bo", err, sizeof err), cutune_searcher_bo);
    gsl_rng_free(rng);
    cutune_space_free(s);
}

/* Spaces above pool=: the acquisition runs over a pool redrawn from ctx->rng
 * (deterministic per seed) and still finds the optimum; power-of-two indicators are
 * added for a parameter mixing powers of two with other integers. */
static cutune_space *mixed_space(void)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    cutune_value v[24];
    for (size_t i = 0; i < 24; i++) /* 1..24: powers 1, 2, 4, 8, 16 among others */
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i + 1};
    const char *names[] = {"a", "b", "c"};
    for (size_t p = 0; p < 3; p++)
        assert_int_equal(cutune_space_add_param(s, names[p], v, 24, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    return s;
}

static double mixed_bowl(const cutune_space *s, size_t id)
{
    const uint16_t *x = cutune_space_config(s, id);
    double f = 1.0;
    static const double c[3] = {16, 7, 12};
    for (size_t p = 0; p < 3; p++)
        f += 0.05 * (x[p] - c[p]) * (x[p] - c[p]);
    return f;
}

static void test_pool(void **state)
{
    cutune_space *s = mixed_space(); /* 13824 configurations */
    run_result a, b;
    run(s, mixed_bowl, 40, 1, 7, "pool=1024", &a);
    run(s, mixed_bowl, 40, 1, 7, "pool=1024", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    assert_true(a.best < 1.5); /* random: 40 of 13824 */
    run(s, mixed_bowl, 30, 3, 7, "pool=512,pow2=0", &a);
    assert_true(a.best < 3.0);
    /* By default every unvisited configuration is scored up to 32768 of them: the same run
     * as an explicit pool above the size, not the pooled one (whose draws move the rng) */
    run(s, mixed_bowl, 30, 1, 7, NULL, &a);
    run(s, mixed_bowl, 30, 1, 7, "pool=16384", &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, mixed_bowl, 30, 1, 7, "pool=1024", &b);
    assert_memory_not_equal(a.seq, b.seq, sizeof a.seq);
    cutune_space_free(s);
}

/* ... while the prediction cache at the budget fits 512 MiB (13824 x 4096 doubles do,
 * 13824 x 8192 do not): runs of 3000 and 4000 evaluations (same design size and phase)
 * make the same first proposals, one of 5000 scores a pool. */
static void test_pool_budget(void **state)
{
    (void)state;
    cutune_space *s = mixed_space();
    run_result a, b;
    run_limit = 25;
    run(s, mixed_bowl, 3000, 1, 7, NULL, &a);
    run(s, mixed_bowl, 4000, 1, 7, NULL, &b);
    assert_memory_equal(a.seq, b.seq, sizeof a.seq);
    run(s, mixed_bowl, 5000, 1, 7, NULL, &b);
    assert_memory_not_equal(a.seq, b.seq, sizeof a.seq);
    cutune_space_free(s);
}

/* Above 32,768 configurations the global steps score a pool of 4096 uniform draws plus
 * the neighbours of the best: the first global step (the 6th proposal of a 30-evaluation
 * run) must be able to reach beyond the neighbours of the design and beyond the first 4096
 * ids in enumeration order (a biased first draw would be exactly those ids). */
static void test_pool_uniform(void **state)
{
    (void)state;
    cutune_space *s = grid_space(4, 16); /* 65,536 configurations */
    size_t far = 0;
    run_limit = 6;
    for (unsigned long seed = 1; seed <= 8; seed++) {
        run_result r;
        run(s, bowl, 30, 1, seed, NULL, &r);
        const uint16_t *x = cutune_space_config(s, r.seq[5]);
        size_t near = 0;
        for (size_t i = 0; i < 5; i++) {
            const uint16_t *y = cutune_space_config(s, r.seq[i]);
            size_t ham = 0;
            for (size_t p = 0; p < 4; p++)
                ham += x[p] != y[p];
            near |= ham <= 1;
        }
        far += r.seq[5] >= 4096 && !near;
    }
    assert_true(far >= 2); /* 3 of 8 now (EI also likes the x0 = 0 edge); 0 with the old draw */
    cutune_space_free(s);
}

/* A 20 x 10 x 10 space (2000 configurations). */
static cutune_space *space_2000(void)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value v[20];
    for (size_t i = 0; i < 20; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i};
    assert_int_equal(cutune_space_add_param(s, "a", v, 20, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "b", v, 10, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "c", v, 10, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 2000);
    return s;
}

/* The attack: a budget at or near the size of the space made bo fit and score a GP of up
 * to 2000 points, one proposal at a time (15 s of CPU in a release build on this space, a
 * minute and more under the sanitizers). With the exhaustive tail (bo.c) it ranks the
 * unvisited configurations once after BO_TAIL_AFTER observations and proposes them in
 * that order: the whole space is visited, the optimum found, in bounded time. */
static void test_tail(void **state)
{
    (void)state;
    cutune_space *s = space_2000();
    size_t *all2000 = calloc(2000, sizeof *all2000), *all1100 = calloc(2000, sizeof *all1100);
    run_result a, b;
    run_all = all2000;
    double t0 = cutune_now();
    run(s, bowl_with_failures, 2000, 1, 3, NULL, &a);
    double secs = cutune_now() - t0;
    print_message("bo, budget 2000 on 2000 configurations: %.2f s\n", secs);
    assert_true(secs < 30.0);
    assert_true(a.evals_to_opt > 0); /* every configuration visited: the optimum too */
    /* the tail is the same for every budget that allows it: 1100 is a prefix of 2000 */
    run_all = all1100;
    run(s, bowl_with_failures, 1100, 1, 3, NULL, &b);
    assert_memory_equal(all1100, all2000, 1100 * sizeof *all1100);
    run_all = NULL;
    size_t budgets[] = {1000, 1100, 2000}, lead[3];
    char err[256];
    assert_int_equal(
        cutune_searcher_plan_leads(cutune_searcher_bo, s, NULL, budgets, 3, lead, err, sizeof err),
        0);
    assert_int_equal(lead[0], 0); /* 1000: no tail (1800 left after 200 > 2 x 800) */
    assert_int_equal(lead[1], 2);
    assert_int_equal(lead[2], 2);
    /* batches of 4: still the whole space, still bounded */
    t0 = cutune_now();
    run(s, bowl_with_failures, 2000, 4, 3, NULL, &a);
    assert_true(cutune_now() - t0 < 30.0);
    assert_true(a.evals_to_opt > 0);
    free(all2000);
    free(all1100);
    cutune_space_free(s);
}

static int reset_run_limit(void **state)
{
    (void)state;
    run_limit = 0; /* also after a failed assertion left it set */
    run_all = NULL;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_determinism_and_batches),
        cmocka_unit_test(test_lprior_auto),
        cmocka_unit_test(test_lweak),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_early_phase),
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_local_auto),
        cmocka_unit_test(test_bowl),
        cmocka_unit_test(test_branin),
        cmocka_unit_test(test_pool),
        cmocka_unit_test_teardown(test_pool_budget, reset_run_limit),
        cmocka_unit_test_teardown(test_pool_uniform, reset_run_limit),
        cmocka_unit_test_teardown(test_tail, reset_run_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
