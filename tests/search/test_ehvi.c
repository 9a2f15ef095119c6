/* Tests of bo's two-objective expected hypervolume improvement (src/search/bo_ehvi.c): the
 * front, the closed form on hand-computed cases and against a Monte-Carlo estimate, and
 * mo=ehvi runs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"
#include "cutune/pareto.h"
#include "mo_grid.h"

static void test_front(void **state)
{
    (void)state;
    /* (2, 2) dominated by (1.5, 1.5); (5, 0) beyond the reference; (1, 3) twice */
    double f[] = {3, 1, 2, 2, 1, 3, 1.5, 1.5, 5, 0, 1, 3, 1, 3.5};
    double ref[2] = {4, 4}, out[14];
    size_t k = cutune_pareto_front2(f, 7, ref, out);
    assert_int_equal(k, 3);
    double want[] = {1, 3, 1.5, 1.5, 3, 1};
    for (size_t i = 0; i < 6; i++)
        assert_true(out[i] == want[i]);
}

/* A known point (sd 0): its plain hypervolume improvement, by hand. The front
 * (1, 3), (2, 2), (3, 1) under (4, 4) dominates 1 + 2 + 3 = 6. */
static void test_hand(void **state)
{
    (void)state;
    double front[] = {1, 3, 2, 2, 3, 1}, ref[2] = {4, 4}, sd0[2] = {0, 0};
    /* (1.5, 1.5) drops (2, 2): the front then dominates 0.5 + 2.5 x 1.5 + 3 = 7.25 */
    assert_float_equal(cutune_pareto_ehvi2(front, 3, ref, (double[]){1.5, 1.5}, sd0), 1.25, 1e-15);
    /* (0, 0) dominates the whole box: 16 - 6 */
    assert_float_equal(cutune_pareto_ehvi2(front, 3, ref, (double[]){0, 0}, sd0), 10, 1e-15);
    /* dominated, or beyond the reference: nothing */
    assert_true(cutune_pareto_ehvi2(front, 3, ref, (double[]){2.5, 2.5}, sd0) == 0);
    assert_true(cutune_pareto_ehvi2(front, 3, ref, (double[]){0.5, 4.5}, sd0) == 0);
    /* an empty front: E[max(0, -Y1)] E[max(0, -Y2)] for standard normals is phi(0)^2 =
     * 1 / (2 pi) */
    assert_float_equal(
        cutune_pareto_ehvi2(NULL, 0, (double[]){0, 0}, (double[]){0, 0}, (double[]){1, 1}),
        1.0 / (2.0 * M_PI), 1e-15);
    /* ... and sd = 2, 3 scales each factor: 6 / (2 pi) */
    assert_float_equal(
        cutune_pareto_ehvi2(NULL, 0, (double[]){0, 0}, (double[]){0, 0}, (double[]){2, 3}),
        6.0 / (2.0 * M_PI), 1e-14);
}

/* The closed form against a Monte-Carlo estimate: the mean hypervolume improvement
 * (cutune_pareto_hv2 of the front with and without the point) of 400000 normal draws,
 * within 4 standard errors. */
static void test_monte_carlo(void **state)
{
    (void)state;
    double front[] = {0.5, 3.0, 1.0, 2.2, 2.0, 1.5, 3.5, 0.4}, ref[2] = {4, 3.6};
    const double cases[][4] = {{1.5, 1.5, 0.5, 0.8},
                               {0.2, 3.3, 1.0, 0.3},
                               {3.0, 3.0, 1.5, 1.5},
                               {1.0, 1.0, 0.05, 2.0},
                               {1.8, 1.9, 0.05, 0.05}};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    double base = cutune_pareto_hv2(front, 4, ref);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double mu[2] = {cases[c][0], cases[c][1]}, sd[2] = {cases[c][2], cases[c][3]};
        double e = cutune_pareto_ehvi2(front, 4, ref, mu, sd);
        double pts[10], sum = 0, sum2 = 0;
        memcpy(pts, front, sizeof front);
        const size_t n = 400000;
        for (size_t i = 0; i < n; i++) {
            pts[8] = mu[0] + gsl_ran_gaussian(r, sd[0]);
            pts[9] = mu[1] + gsl_ran_gaussian(r, sd[1]);
            double hvi = cutune_pareto_hv2(pts, 5, ref) - base;
            sum += hvi;
            sum2 += hvi * hvi;
        }
        double m = sum / n, se = sqrt((sum2 / n - m * m) / n);
        assert_true(e > 0);
        if (fabs(e - m) > 4 * se)
            fail_msg("case %zu: EHVI %.6f, Monte Carlo %.6f +- %.6f", c, e, m, se);
    }
    gsl_rng_free(r);
}

/* The same seed gives the same run, EHVI is the default under two objectives, it is
 * another search than mo=parego, and it finds more of the front than the one fixed
 * scalarisation. */
static void test_bo_ehvi(void **state)
{
    (void)state;
    size_t a[30], b[30], p[30], fe = 0, fg = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        size_t f1 = mo_grid_run(30, seed, "mo=ehvi", a);
        size_t f2 = mo_grid_run(30, seed, NULL, b);
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(f1, f2);
        mo_grid_run(30, seed, "mo=parego", p);
        assert_memory_not_equal(a, p, sizeof a);
        fe += f1;
        fg += mo_grid_run(30, seed, "mo=geomean", p);
    }
    assert_true(fe > fg);
}

/* Two objectives only. */
static void test_three_objectives(void **state)
{
    (void)state;
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value v[2] = {{.type = CUTUNE_VALUE_INT, .i = 0}, {.type = CUTUNE_VALUE_INT, .i = 1}};
    assert_int_equal(cutune_space_add_param(s, "a", v, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    uint8_t visited[2] = {0};
    cutune_searcher_ctx ctx = {.space = s,
                               .budget = 2,
                               .rng = rng,
                               .visited = visited,
                               .args = "mo=ehvi",
                               .nobjectives = 3};
    cutune_searcher *sr = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_bo, &ctx, &sr, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "mo=ehvi takes two objectives, the run has 3"));
    gsl_rng_free(rng);
    cutune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_front),
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_monte_carlo),
        cmocka_unit_test(test_bo_ehvi),
        cmocka_unit_test(test_three_objectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
