/* NSGA-II's building blocks (src/search/nsga2.c) against hand-computed cases:
 * non-dominated sorting, crowding distance and the two-objective hypervolume. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cutune/pareto.h"

/* Six points of two objectives:
 *   0 (1,5)  1 (2,3)  2 (4,1)     front 0: none of them dominates another
 *   3 (3,4)  dominated by 1 only  front 1 (with 4)
 *   4 (5,2)  dominated by 2 only  front 1
 *   5 (6,6)  dominated by all     front 2 */
static const double six[] = {1, 5, 2, 3, 4, 1, 3, 4, 5, 2, 6, 6};

static void test_sort(void **state)
{
    (void)state;
    size_t rank[6];
    assert_int_equal(cutune_pareto_sort(six, 6, 2, rank), 3);
    static const size_t want[6] = {0, 0, 0, 1, 1, 2};
    assert_memory_equal(rank, want, sizeof want);
}

static void test_sort_ties_nan_three(void **state)
{
    (void)state;
    /* equal points share a front; a NaN takes part in none; 3 objectives */
    const double f[] = {1, 1, 1, 1, 1, 1, NAN, 0, 0, 2, 1, 1, 1, 2, 0};
    size_t rank[5];
    assert_int_equal(cutune_pareto_sort(f, 5, 3, rank), 2);
    assert_int_equal(rank[0], 0);
    assert_int_equal(rank[1], 0);
    assert_int_equal(rank[2], CUTUNE_PARETO_NONE);
    assert_int_equal(rank[3], 1); /* (2,1,1) is dominated by (1,1,1) */
    assert_int_equal(rank[4], 0); /* (1,2,0): better in the third */
    assert_int_equal(cutune_pareto_sort(f, 0, 3, rank), 0);
}

static void test_crowding(void **state)
{
    (void)state;
    /* front 0 of six: sorted by f1 the order is 0,1,2 (ranges 3 and 4); point 1's
     * neighbours are 0 and 2: (4 - 1) / 3 + (5 - 1) / 4 = 2 */
    size_t idx[3] = {2, 0, 1};
    double d[3];
    assert_int_equal(cutune_pareto_crowding(six, 2, idx, 3, d), 0);
    assert_true(isinf(d[0]) && isinf(d[1]));
    assert_true(fabs(d[2] - 2.0) < 1e-12);
    /* four points on a line: the inner two get (2/3 + 2/3) each */
    const double line[] = {0, 3, 1, 2, 2, 1, 3, 0};
    size_t all[4] = {0, 1, 2, 3};
    double e[4];
    assert_int_equal(cutune_pareto_crowding(line, 2, all, 4, e), 0);
    assert_true(isinf(e[0]) && isinf(e[3]));
    assert_true(fabs(e[1] - 4.0 / 3.0) < 1e-12 && fabs(e[2] - 4.0 / 3.0) < 1e-12);
    /* a zero range adds nothing */
    const double flat[] = {0, 1, 1, 1, 2, 1};
    size_t f3[3] = {0, 1, 2};
    double g[3];
    assert_int_equal(cutune_pareto_crowding(flat, 2, f3, 3, g), 0);
    assert_true(fabs(g[1] - 1.0) < 1e-12); /* (2 - 0) / 2 from the first objective only */
}

static void test_hv2(void **state)
{
    (void)state;
    /* front 0 of six against (7,7), as strips in order of the first objective:
     * (7-1)(7-5) + (7-2)(5-3) + (7-4)(3-1) = 12 + 10 + 6 = 28 */
    const double ref[2] = {7, 7};
    assert_true(fabs(cutune_pareto_hv2(six, 6, ref) - 28.0) < 1e-12);
    /* dominated points add nothing: the front alone gives the same */
    assert_true(fabs(cutune_pareto_hv2(six, 3, ref) - 28.0) < 1e-12);
    /* one point: its box; a point beyond the reference: nothing */
    const double one[] = {1, 2, 8, 0};
    assert_true(fabs(cutune_pareto_hv2(one, 1, ref) - 30.0) < 1e-12);
    assert_true(fabs(cutune_pareto_hv2(one, 2, ref) - 30.0) < 1e-12);
    assert_true(cutune_pareto_hv2(one, 0, ref) == 0.0);
}

/* The crowded comparison and NSGA-II's replacement choice. */
static void test_selection(void **state)
{
    (void)state;
    size_t rank[6];
    double crowd[6];
    assert_int_equal(cutune_pareto_rank_crowd(six, 6, 2, rank, crowd), 0);
    assert_true(isinf(crowd[0]) && isinf(crowd[2]) && fabs(crowd[1] - 2.0) < 1e-12);
    assert_true(isinf(crowd[5]));                         /* alone in its front */
    assert_true(cutune_pareto_better(rank, crowd, 1, 3)); /* lower rank */
    assert_true(cutune_pareto_better(rank, crowd, 0, 1)); /* same rank, more crowding */
    assert_false(cutune_pareto_better(rank, crowd, 1, 0));
    assert_int_equal(cutune_pareto_worst(six, 6, 2), 5); /* the last front */
    /* one front: the least crowded goes, the later of two equal ones */
    const double line[] = {0, 3, 1, 2, 2, 1, 3, 0};
    assert_int_equal(cutune_pareto_worst(line, 4, 2), 2);
    /* a failure (NaN) goes before any feasible point */
    const double failed[] = {1, 1, NAN, NAN, 2, 2};
    assert_int_equal(cutune_pareto_worst(failed, 3, 2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort),      cmocka_unit_test(test_sort_ties_nan_three),
        cmocka_unit_test(test_crowding),  cmocka_unit_test(test_hv2),
        cmocka_unit_test(test_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
