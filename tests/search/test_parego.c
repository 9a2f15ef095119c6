/* Tests of bo under several objectives (src/search/bo_parego.c): ParEGO's augmented
 * Chebyshev scalarisation on hand-computed cases, and multi-objective bo runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "cutune/pareto.h"

static void test_chebyshev(void **state)
{
    (void)state;
    /* f' = ((3-1)/4, (20-10)/20) = (0.5, 0.5); w f' = (0.125, 0.375):
     * 0.375 + 0.05 (0.125 + 0.375) = 0.4 */
    double f[2] = {3, 20}, w[2] = {0.25, 0.75}, lo[2] = {1, 10}, hi[2] = {5, 30};
    assert_float_equal(cutune_pareto_chebyshev(f, w, lo, hi, 2, 0.05), 0.4, 1e-15);
    /* the second objective's range is zero: it counts as 0; f' = (1, 0), w f' = (0.6, 0):
     * 0.6 + 0.05 0.6 = 0.63 */
    double g[2] = {5, 7}, v[2] = {0.6, 0.4}, lo2[2] = {1, 7}, hi2[2] = {5, 7};
    assert_float_equal(cutune_pareto_chebyshev(g, v, lo2, hi2, 2, 0.05), 0.63, 1e-15);
    /* three objectives, the sum term deciding between two points of equal max term:
     * (0.2, 0.4, 0) and (0.4, 0.4, 0.4) under w = (0.5, 0.5, 0)... both max 0.2; sums 0.3 and
     * 0.4: 0.215 and 0.22 */
    double a[3] = {0.2, 0.4, 0.0}, b[3] = {0.4, 0.4, 0.4}, w3[3] = {0.5, 0.5, 0.0};
    double lo3[3] = {0, 0, 0}, hi3[3] = {1, 1, 1};
    assert_float_equal(cutune_pareto_chebyshev(a, w3, lo3, hi3, 3, 0.05), 0.215, 1e-15);
    assert_float_equal(cutune_pareto_chebyshev(b, w3, lo3, hi3, 3, 0.05), 0.22, 1e-15);
}

/* A 15 x 15 grid; objective 1 rises and objective 2 falls with a, b adds a distance: the
 * front is b = 0 (15 configurations). */
static void scores(const cutune_space *s, size_t id, double f[2])
{
    const uint16_t *x = cutune_space_config(s, id);
    double g = 1.0 + 0.2 * x[1];
    f[0] = g * (1.0 + x[0]);
    f[1] = g * (1.0 + (14 - x[0]) * (14 - x[0]) / 14.0);
}

/* The tuner loop in miniature under --objectives: each observation carries both scores and
 * their geometric mean. Writes the evaluated ids in order into seq (budget of them); returns
 * the front configurations (b = 0) found. */
static size_t run_mo(size_t budget, unsigned long seed, const char *args, size_t *seq)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    cutune_value v[15];
    for (size_t i = 0; i < 15; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i};
    assert_int_equal(cutune_space_add_param(s, "a", v, 15, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "b", v, 15, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    size_t N = cutune_space_size(s);
    uint8_t *visited = calloc(N, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {.space = s,
                               .budget = budget,
                               .rng = rng,
                               .visited = visited,
                               .args = args,
                               .nobjectives = 2};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err), 0);
    size_t used = 0, front = 0;
    while (used < budget) {
        size_t ids[1], n = 0;
        assert_int_equal(cutune_searcher_propose(sr, 1, ids, &n, err, sizeof err), 0);
        assert_int_equal(n, 1);
        assert_false(visited[ids[0]]);
        double f[2];
        scores(s, ids[0], f);
        cutune_observation o = {.id = ids[0],
                                .status = CUTUNE_STATUS_OK,
                                .time_ms = sqrt(f[0] * f[1]),
                                .objectives = f,
                                .nobjectives = 2};
        visited[ids[0]] = 1;
        seq[used++] = ids[0];
        front += cutune_space_config(s, ids[0])[1] == 0;
        assert_int_equal(cutune_searcher_observe(sr, &o, 1, err, sizeof err), 0);
    }
    cutune_searcher_free(sr);
    gsl_rng_free(rng);
    free(visited);
    cutune_space_free(s);
    return front;
}

/* The same seed gives the same run; mo=parego and mo=geomean are different searches, and
 * ParEGO's changing weights find more of the front than the one fixed scalarisation. */
static void test_deterministic(void **state)
{
    (void)state;
    size_t a[30], b[30], g[30], fp = 0, fg = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        size_t f1 = run_mo(30, seed, "mo=parego", a);
        size_t f2 = run_mo(30, seed, "mo=parego", b); /* the same seed, the same run */
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(f1, f2);
        fg += run_mo(30, seed, "mo=geomean", g);
        assert_memory_not_equal(a, g, sizeof a);
        fp += f1;
    }
    assert_true(fp > fg);
}

static void test_option(void **state)
{
    (void)state;
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value v[2] = {{.type = CUTUNE_VALUE_INT, .i = 0}, {.type = CUTUNE_VALUE_INT, .i = 1}};
    assert_int_equal(cutune_space_add_param(s, "a", v, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    uint8_t visited[2] = {0};
    cutune_searcher_ctx ctx = {
        .space = s, .budget = 2, .rng = rng, .visited = visited, .args = "mo=hv"};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "mo=hv unknown (valid: parego, geomean, ehvi)"));
    gsl_rng_free(rng);
    cutune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chebyshev),
        cmocka_unit_test(test_option),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
