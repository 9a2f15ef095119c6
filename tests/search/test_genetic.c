/* Tests of the genetic searcher: never proposes a visited or invalid
 * configuration, is deterministic per seed, finds the optimum of a bowl,
 * survives failures, rejects bad arguments with the list of keys, moves to a
 * nearest configuration where no one-parameter neighbour exists, and repairs a
 * crossover child to the valid configuration nearest to it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/cutune.h"

#define SIDE 12

/* x, y in 0..SIDE-1 with a restriction that removes a diagonal band, so that
 * crossover children are often invalid and must be repaired. */
static cutune_space *make_space(void)
{
    char err[256];
    cutune_value v[SIDE];
    for (int i = 0; i < SIDE; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i};
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    assert_int_equal(cutune_space_add_param(s, "x", v, SIDE, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "y", v, SIDE, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_restriction(s, "(x + y) % 5 != 0", err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    return s;
}

/* A bowl with its minimum at (8, 4); odd x fail (status != ok). */
static void bowl(const cutune_space *s, size_t id, cutune_observation *o)
{
    const uint16_t *idx = cutune_space_config(s, id);
    double x = idx[0], y = idx[1];
    o->id = id;
    if (((int)x % 2) == 1 && x != 9) {
        o->status = CUTUNE_STATUS_COMPILE_ERROR;
        o->time_ms = NAN;
        return;
    }
    o->status = CUTUNE_STATUS_OK;
    o->time_ms = 1.0 + (x - 8) * (x - 8) + 0.5 * (y - 4) * (y - 4);
}

/* Run like the tuner loop; ids[] gets the proposals (charged ones), returns
 * the number charged. Asserts no visited / invalid proposal. */
static size_t run(const cutune_space *s, unsigned long seed, size_t budget, const char *args,
                  size_t *ids, double *best)
{
    char err[256];
    size_t n = cutune_space_size(s);
    uint8_t *visited = calloc(n, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {
        .space = s, .budget = budget, .rng = rng, .visited = visited, .args = args};
    cutune_searcher *g = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    size_t charged = 0;
    *best = INFINITY;
    while (charged < budget) {
        size_t id, got;
        assert_int_equal(cutune_searcher_propose(g, 1, &id, &got, err, sizeof err), 0);
        if (got == 0)
            break;
        assert_true(id < n);
        assert_false(visited[id]);
        assert_int_equal(cutune_space_check(s, cutune_space_config(s, id), err, sizeof err), 1);
        visited[id] = 1;
        cutune_observation o;
        bowl(s, id, &o);
        if (o.status == CUTUNE_STATUS_OK && o.time_ms < *best)
            *best = o.time_ms;
        ids[charged++] = id;
        assert_int_equal(cutune_searcher_observe(g, &o, 1, err, sizeof err), 0);
    }
    cutune_searcher_free(g);
    gsl_rng_free(rng);
    free(visited);
    return charged;
}

static void test_never_visited_or_invalid(void **state)
{
    cutune_space *s = make_space();
    size_t n = cutune_space_size(s);
    size_t *ids = calloc(n + 1, sizeof *ids);
    double best;
    /* the whole space: every id exactly once, then nothing */
    size_t got = run(s, 7, n + 10, NULL, ids, &best);
    assert_int_equal(got, n);
    uint8_t *seen = calloc(n, 1);
    for (size_t i = 0; i < got; i++) {
        assert_false(seen[ids[i]]);
        seen[ids[i]] = 1;
    }
    free(seen);
    free(ids);
    cutune_space_free(s);
}

static void test_deterministic(void **state)
{
    cutune_space *s = make_space();
    size_t a[60], b[60], c[60];
    double ba, bb, bc;
    size_t na = run(s, 42, 60, "pop=8,mut=0.2", a, &ba);
    size_t nb = run(s, 42, 60, "pop=8,mut=0.2", b, &bb);
    size_t nc = run(s, 43, 60, "pop=8,mut=0.2", c, &bc);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
    assert_true(nc != na || memcmp(a, c, na * sizeof *a) != 0);
    cutune_space_free(s);
}

static void test_finds_bowl_optimum(void **state)
{
    cutune_space *s = make_space();
    size_t ids[50];
    int hits = 0;
    /* 50 of ~115 points: random search finds the optimum in ~43% of runs */
    for (unsigned long seed = 1; seed <= 20; seed++) {
        double best;
        run(s, seed, 50, NULL, ids, &best);
        hits += best == 1.0;
    }
    assert_true(hits >= 17);
    cutune_space_free(s);
}

static void test_args(void **state)
{
    cutune_space *s = make_space();
    char err[256];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {.space = s, .budget = 50, .rng = rng};
    cutune_searcher *g = NULL;
    ctx.args = "pop=10,bogus=1";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "bogus"));
    assert_non_null(strstr(err, "pop, init, cx, mut, tour, adj, stall"));
    ctx.args = "mut=2";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                     CUTUNE_EINVAL);
    ctx.args = "pop=3.5";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                     CUTUNE_EINVAL);
    ctx.args = "pop";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                     CUTUNE_EINVAL);
    ctx.args = "pop=6,init=4,cx=0.5,mut=0.1,tour=2,adj=1,stall=5";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    cutune_searcher_free(g);
    cutune_searcher_free(NULL);
    gsl_rng_free(rng);
    cutune_space_free(s);
}

/* Batches: k > 1 proposals are distinct and unvisited too. */
static void test_batch_distinct(void **state)
{
    cutune_space *s = make_space();
    char err[256];
    size_t n = cutune_space_size(s);
    uint8_t *visited = calloc(n, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx ctx = {.space = s, .budget = 40, .rng = rng, .visited = visited};
    cutune_searcher *g = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    for (int round = 0; round < 6; round++) {
        size_t ids[8], got;
        assert_int_equal(cutune_searcher_propose(g, 8, ids, &got, err, sizeof err), 0);
        assert_int_equal(got, 8);
        cutune_observation o[8];
        for (size_t i = 0; i < got; i++) {
            assert_false(visited[ids[i]]);
            for (size_t j = 0; j < i; j++)
                assert_true(ids[i] != ids[j]);
            bowl(s, ids[i], &o[i]);
        }
        for (size_t i = 0; i < got; i++)
            visited[ids[i]] = 1;
        assert_int_equal(cutune_searcher_observe(g, o, got, err, sizeof err), 0);
    }
    cutune_searcher_free(g);
    gsl_rng_free(rng);
    free(visited);
    cutune_space_free(s);
}

/* PARITY binary parameters, only the configurations with an even number of ones: no
 * configuration has a valid one-parameter neighbour (one change flips the parity), the
 * nearest ones differ in two parameters. */
#define PARITY 10

static cutune_space *make_parity(void)
{
    char err[256];
    cutune_value v[2] = {{.type = CUTUNE_VALUE_INT, .i = 0}, {.type = CUTUNE_VALUE_INT, .i = 1}};
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    char name[8], expr[128] = "(p0";
    for (int i = 0; i < PARITY; i++) {
        snprintf(name, sizeof name, "p%d", i);
        assert_int_equal(cutune_space_add_param(s, name, v, 2, err, sizeof err), 0);
        if (i > 0)
            snprintf(expr + strlen(expr), sizeof expr - strlen(expr), " + p%d", i);
    }
    strcat(expr, ") % 2 == 0");
    assert_int_equal(cutune_space_add_restriction(s, expr, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 1u << (PARITY - 1));
    return s;
}

static size_t hamming(const cutune_space *s, size_t a, size_t b)
{
    const uint16_t *x = cutune_space_config(s, a), *y = cutune_space_config(s, b);
    size_t d = 0;
    for (size_t i = 0; i < PARITY; i++)
        d += x[i] != y[i];
    return d;
}

/* Without one-parameter neighbours a mutation moves to a nearest valid configuration:
 * on a plateau (every time 1.0, so the population stays the init seeding draws) with
 * mutation only (cx=0, mut=0: one move per child), every child differs from a visited
 * configuration in exactly two parameters, where a uniform redraw would land at 2 in
 * under half of the cases (45 of the 511 others per visited one). ids[] gets the B
 * proposals, all distinct. */
enum { PB = 24, PINIT = 4 };

static void run_parity(const cutune_space *s, unsigned long seed, size_t *ids)
{
    char err[256];
    size_t n = cutune_space_size(s);
    uint8_t *visited = calloc(n, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {.space = s,
                               .budget = PB,
                               .rng = rng,
                               .visited = visited,
                               .args = "pop=4,init=4,cx=0,mut=0,stall=1000"};
    cutune_searcher *g = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    for (size_t t = 0; t < PB; t++) {
        size_t id, got;
        assert_int_equal(cutune_searcher_propose(g, 1, &id, &got, err, sizeof err), 0);
        assert_int_equal(got, 1);
        assert_false(visited[id]);
        if (t >= PINIT) { /* a child: no immigrant before 1000 evaluations without a new best */
            size_t dmin = PARITY;
            for (size_t j = 0; j < t; j++)
                if (hamming(s, id, ids[j]) < dmin)
                    dmin = hamming(s, id, ids[j]);
            assert_int_equal(dmin, 2);
        }
        visited[id] = 1;
        ids[t] = id;
        cutune_observation o = {.id = id, .status = CUTUNE_STATUS_OK, .time_ms = 1.0};
        assert_int_equal(cutune_searcher_observe(g, &o, 1, err, sizeof err), 0);
    }
    cutune_searcher_free(g);
    gsl_rng_free(rng);
    free(visited);
}

/* The smallest squared distance (in grid units) between two of ids[0..n). */
static double min_gap(const cutune_space *s, const size_t *ids, size_t n)
{
    double m = INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            const uint16_t *a = cutune_space_config(s, ids[i]), *b = cutune_space_config(s, ids[j]);
            double dx = (double)a[0] - b[0], dy = (double)a[1] - b[1], d = dx * dx + dy * dy;
            m = d < m ? d : m;
        }
    return m;
}

/* spread=1 (the default): the seeding places are maximin draws, farther apart than
 * uniform draws (spread=0) on every seed's average: the closest pair of the first init =
 * 10 places (budget 100). */
static void test_spread_seeding(void **state)
{
    (void)state;
    cutune_space *s = make_space();
    size_t ids[100];
    double best, gap_spread = 0, gap_uniform = 0;
    int wider = 0;
    for (unsigned long seed = 1; seed <= 10; seed++) {
        run(s, seed, 100, NULL, ids, &best);
        double a = min_gap(s, ids, 10);
        run(s, seed, 100, "spread=0", ids, &best);
        double b = min_gap(s, ids, 10);
        gap_spread += a;
        gap_uniform += b;
        wider += a > b;
    }
    print_message("closest pair of the 10 seeding places: spread %.1f, uniform %.1f (mean "
                  "squared grid distance); spread wider on %d of 10 seeds\n",
                  gap_spread / 10, gap_uniform / 10, wider);
    assert_true(gap_spread > 2 * gap_uniform);
    assert_true(wider >= 8);
    cutune_space_free(s);
}

/* The diagonal x == y of a DIAG x DIAG grid: a sparse sample where every mixed crossover
 * child is invalid. Its repair is the valid configuration nearest to it, a midpoint of
 * the parents on the diagonal; a child equal to a parent makes a neighbour move instead,
 * to a diagonal point next to it. So the first child of two seeding places i and j lies
 * within one step of i, of j or of (i + j) / 2. Reverting the child's genes to p1's ends
 * at p1, whose move then lands anywhere on the diagonal (every other point differs in
 * both parameters): the check would hold on fewer than half of the seeds. */
enum { DIAG = 16 };

static void test_crossover_repair_nearest(void **state)
{
    (void)state;
    char err[256];
    cutune_value v[DIAG];
    for (int i = 0; i < DIAG; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i};
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    assert_int_equal(cutune_space_add_param(s, "x", v, DIAG, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "y", v, DIAG, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_restriction(s, "x == y", err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), DIAG);
    int mixed = 0;
    for (unsigned long seed = 1; seed <= 20; seed++) {
        uint8_t visited[DIAG] = {0};
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(rng, seed);
        cutune_searcher_ctx ctx = {.space = s,
                                   .budget = 10,
                                   .rng = rng,
                                   .visited = visited,
                                   .args = "pop=2,init=2,cx=1,mut=0,tour=1,stall=1000"};
        cutune_searcher *g = NULL;
        assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                         0);
        double at[3];
        for (int t = 0; t < 3; t++) {
            size_t id, got;
            assert_int_equal(cutune_searcher_propose(g, 1, &id, &got, err, sizeof err), 0);
            assert_int_equal(got, 1);
            visited[id] = 1;
            at[t] = cutune_space_config(s, id)[0];
            cutune_observation o = {.id = id, .status = CUTUNE_STATUS_OK, .time_ms = 1.0 + at[t]};
            assert_int_equal(cutune_searcher_observe(g, &o, 1, err, sizeof err), 0);
        }
        double mid = (at[0] + at[1]) / 2;
        int near_parent = fabs(at[2] - at[0]) <= 1 || fabs(at[2] - at[1]) <= 1;
        int near_mid = fabs(at[2] - mid) <= 1;
        assert_true(near_parent || near_mid);
        mixed += near_mid && !near_parent;
        cutune_searcher_free(g);
        gsl_rng_free(rng);
    }
    print_message("first child at the parents' midpoint, away from both, on %d of 20 seeds\n",
                  mixed);
    assert_true(mixed >= 3); /* the mixed children (half of them) do reach the midpoint */
    cutune_space_free(s);
}

static void test_nearest_without_neighbours(void **state)
{
    cutune_space *s = make_parity();
    size_t a[PB], b[PB];
    run_parity(s, 1, a);
    run_parity(s, 1, b);
    assert_memory_equal(a, b, sizeof a); /* deterministic for a seed */
    for (unsigned long seed = 2; seed <= 5; seed++) {
        run_parity(s, seed, b);
        assert_true(memcmp(a, b, sizeof a) != 0);
    }
    cutune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_visited_or_invalid),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_finds_bowl_optimum),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_batch_distinct),
        cmocka_unit_test(test_nearest_without_neighbours),
        cmocka_unit_test(test_crossover_repair_nearest),
        cmocka_unit_test(test_spread_seeding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
