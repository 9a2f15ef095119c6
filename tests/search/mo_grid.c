/* A two-objective search problem for the multi-objective bo tests (test_parego.c,
 * test_ehvi.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"
#include "mo_grid.h"

/* A 15 x 15 grid; objective 1 rises and objective 2 falls with a, b adds a distance: the
 * front is b = 0 (15 configurations). */
void mo_grid_scores(const cutune_space *s, size_t id, double f[2])
{
    const uint16_t *x = cutune_space_config(s, id);
    double g = 1.0 + 0.2 * x[1];
    f[0] = g * (1.0 + x[0]);
    f[1] = g * (1.0 + (14 - x[0]) * (14 - x[0]) / 14.0);
}

/* The tuner loop in miniature under --objectives: each observation carries both scores and
 * their geometric mean. Writes the evaluated ids in order into seq (budget of them); returns
 * the front configurations (b = 0) found. */
size_t mo_grid_run(size_t budget, unsigned long seed, const char *args, size_t *seq)
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
        mo_grid_scores(s, ids[0], f);
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
