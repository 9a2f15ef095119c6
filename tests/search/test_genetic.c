/* Tests of the genetic searcher: never proposes a visited or invalid
 * configuration, is deterministic per seed, finds the optimum of a bowl,
 * survives failures, rejects bad arguments with the list of keys, and under
 * imm=evidence keeps drawing uniformly on a plateau. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
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
    ctx.args = "imm=often";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "imm=often"));
    ctx.args = "pop=6,init=4,cx=0.5,mut=0.1,tour=2,adj=1,stall=5,imm=evidence";
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    cutune_searcher_free(g);
    char opts[256];
    assert_int_equal(cutune_searcher_resolve_options(cutune_searcher_genetic, "imm=evidence", 50,
                                                     opts, sizeof opts, err, sizeof err),
                     0);
    assert_non_null(strstr(opts, ",imm=evidence"));
    assert_int_equal(cutune_searcher_resolve_options(cutune_searcher_genetic, NULL, 50, opts,
                                                     sizeof opts, err, sizeof err),
                     0);
    assert_non_null(strstr(opts, ",imm=stall"));
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

/* One parameter of LINE values, every time 1.0: a plateau, where no child ever beats the
 * first evaluation. */
#define LINE 2000

static cutune_space *make_line(void)
{
    char err[256];
    cutune_value *v = calloc(LINE, sizeof *v);
    assert_non_null(v);
    for (int i = 0; i < LINE; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i};
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    assert_int_equal(cutune_space_add_param(s, "x", v, LINE, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    free(v);
    return s;
}

/* Runs the searcher on the plateau for budget evaluations (ids[] gets them) and returns the
 * proposals with no visited neighbour when proposed. With adj=1, cx=0, mut=0 a child is a
 * member's adjacent value or, when that is visited, the end of a walk through visited
 * neighbours, so it always has a visited neighbour: an isolated proposal is a uniform draw. */
static size_t run_plateau(const cutune_space *s, unsigned long seed, size_t budget,
                          const char *args, size_t *ids)
{
    char err[256];
    uint8_t *visited = calloc(LINE, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {
        .space = s, .budget = budget, .rng = rng, .visited = visited, .args = args};
    cutune_searcher *g = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_genetic, &ctx, &g, err, sizeof err), 0);
    size_t isolated = 0;
    for (size_t t = 0; t < budget; t++) {
        size_t id, got;
        assert_int_equal(cutune_searcher_propose(g, 1, &id, &got, err, sizeof err), 0);
        assert_int_equal(got, 1);
        assert_false(visited[id]);
        isolated += !(id > 0 && visited[id - 1]) && !(id + 1 < LINE && visited[id + 1]);
        visited[id] = 1;
        ids[t] = id;
        cutune_observation o = {.id = id, .status = CUTUNE_STATUS_OK, .time_ms = 1.0};
        assert_int_equal(cutune_searcher_observe(g, &o, 1, err, sizeof err), 0);
    }
    cutune_searcher_free(g);
    gsl_rng_free(rng);
    free(visited);
    return isolated;
}

/* The evidence rule on a plateau: after the init seeding draws, a child while the children
 * proposed since the best (the first evaluation) number no more than the uniform draws,
 * else a uniform draw. The count of uniform draws that follows from that rule, less the
 * few that land next to a visited value, shows up as isolated proposals; the stall rule
 * (an immigrant every stall / 2 evaluations once stuck) makes fewer. 40 evaluations keep
 * the visited runs short, so a walk rarely fails (a failed walk is a uniform draw too).
 * Deterministic for a seed. */
static void test_evidence_plateau(void **state)
{
    cutune_space *s = make_line();
    enum { B = 40, INIT = 6 };
    size_t a[B], b[B], c[B];
    const char *ev = "pop=6,init=6,adj=1,cx=0,mut=0,imm=evidence";
    size_t u = INIT, kids = 0;
    for (size_t t = INIT; t < B; t++) {
        if (kids > u)
            u++;
        else
            kids++;
    }
    size_t rule_uniform = u - INIT; /* uniform draws after the seeding */
    assert_true(rule_uniform > 0);
    for (unsigned long seed = 1; seed <= 5; seed++) {
        size_t iso_ev = run_plateau(s, seed, B, ev, a);
        size_t iso_st = run_plateau(s, seed, B, "pop=6,init=6,adj=1,cx=0,mut=0,imm=stall", b);
        /* the seeding draws are isolated too unless they land next to each other */
        assert_true(iso_ev <= INIT + rule_uniform + (B - INIT - rule_uniform) / 8);
        assert_true(iso_ev >= (INIT + rule_uniform) * 3 / 4);
        assert_true(iso_ev > iso_st);
        assert_int_equal(run_plateau(s, seed, B, ev, c), iso_ev);
        assert_memory_equal(a, c, sizeof a);
    }
    run_plateau(s, 2, B, ev, c);
    assert_true(memcmp(a, c, sizeof a) != 0);
    cutune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_visited_or_invalid), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_finds_bowl_optimum),       cmocka_unit_test(test_args),
        cmocka_unit_test(test_batch_distinct),           cmocka_unit_test(test_evidence_plateau),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
