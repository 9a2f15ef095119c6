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
#include "mo_grid.h"

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

/* The same seed gives the same run; mo=parego and mo=geomean are different searches, and
 * ParEGO's changing weights find more of the front than the one fixed scalarisation. */
static void test_deterministic(void **state)
{
    (void)state;
    size_t a[30], b[30], g[30], fp = 0, fg = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        size_t f1 = mo_grid_run(30, seed, "mo=parego", a);
        size_t f2 = mo_grid_run(30, seed, "mo=parego", b); /* the same seed, the same run */
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(f1, f2);
        fg += mo_grid_run(30, seed, "mo=geomean", g);
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
