/* The confirmation step (src/tune/confirm.c): the tie rule on hand-made intervals, then
 * whole confirmations on a fake evaluator with scripted measurements (the interleaved
 * order, the intervals, the winner) and on a simulated one (repetitions drawn with the
 * run's seed: the same seed, the same answer). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/cutune.h"

/* ---- the tie rule ---- */

static cutune_confirm_entry ce(size_t id, double mean, double half, double regs, double energy)
{
    return (cutune_confirm_entry){.id = id,
                                  .n = 5,
                                  .mean = mean,
                                  .lo = mean - half,
                                  .hi = mean + half,
                                  .registers = regs,
                                  .energy_j = energy};
}

static void test_fewer_registers(void **state)
{
    (void)state;
    cutune_confirm_entry e[3] = {ce(7, 1.00, 0.02, 64, 0.5), ce(9, 1.01, 0.02, 32, 0.9),
                                 ce(2, 1.10, 0.02, 16, 0.1)};
    assert_int_equal(cutune_confirm_decide(e, 3, 0), 1); /* tied with the best, fewer regs */
    assert_true(e[0].tied && e[1].tied);
    assert_false(e[2].tied); /* fewest registers, but its interval is clear of the best */
}

static void test_then_energy_then_id(void **state)
{
    (void)state;
    cutune_confirm_entry e[3] = {ce(7, 1.00, 0.02, 32, 0.5), ce(9, 1.01, 0.02, 32, 0.4),
                                 ce(3, 1.02, 0.02, 32, 0.4)};
    /* 7 and 9 overlap the best (7); 3's interval [1.00, 1.04] touches 7's upper end 1.02 */
    assert_int_equal(cutune_confirm_decide(e, 3, 0), 2); /* energy ties 9 and 3: lower id */
    e[2].energy_j = 0.45;
    assert_int_equal(cutune_confirm_decide(e, 3, 0), 1); /* lower energy */
}

static void test_missing_metrics_rank_last(void **state)
{
    (void)state;
    cutune_confirm_entry e[2] = {ce(1, 1.00, 0.05, NAN, NAN), ce(5, 1.01, 0.05, 40, NAN)};
    assert_int_equal(cutune_confirm_decide(e, 2, 0), 1);
    e[1].registers = NAN; /* neither known: energy, then the id */
    assert_int_equal(cutune_confirm_decide(e, 2, 0), 0);
}

static void test_no_overlap_best_wins(void **state)
{
    (void)state;
    cutune_confirm_entry e[2] = {ce(4, 1.00, 0.001, 128, 9), ce(2, 1.01, 0.001, 8, 1)};
    assert_int_equal(cutune_confirm_decide(e, 2, 0), 0);
    assert_false(e[1].tied);
    /* maximised: the larger mean is the reference */
    assert_int_equal(cutune_confirm_decide(e, 2, 1), 1);
    e[0].n = e[1].n = 0;
    assert_int_equal(cutune_confirm_decide(e, 2, 0), -1);
}

/* ---- a scripted evaluator ---- */

#define NCONF 4
#define NROUND 5

typedef struct {
    size_t calls[NCONF];
    size_t order[64], norder;
    size_t fly;
    int have;
} script_state;

static script_state *script;
/* time of configuration id at its r-th measurement: 0 and 1 overlap, 2 is far behind */
static const double script_ms[NCONF][NROUND] = {{1.00, 1.02, 0.99, 1.01, 1.00},
                                                {1.01, 0.99, 1.02, 1.00, 1.01},
                                                {1.50, 1.51, 1.49, 1.50, 1.52},
                                                {9, 9, 9, 9, 9}};
static const double script_regs[NCONF] = {64, 40, 16, 8};

static int script_alloc(void *st, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    (void)ctx;
    (void)err;
    (void)errlen;
    script = st;
    return 0;
}

static int script_submit(void *vs, size_t id, char *err, size_t errlen)
{
    script_state *s = vs;
    if (s->have)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "two in flight");
    s->fly = id;
    s->have = 1;
    s->order[s->norder++] = id;
    return 0;
}

static int script_wait(void *vs, size_t *id, int *worker, cutune_eval_result *res, char *err,
                       size_t errlen)
{
    (void)err;
    (void)errlen;
    script_state *s = vs;
    *id = s->fly;
    *worker = 0;
    s->have = 0;
    res->status = CUTUNE_STATUS_OK;
    res->time_ms = script_ms[*id][s->calls[*id]++ % NROUND];
    res->compile_ms = res->bench_ms = -1;
    cutune_eval_result_add_metric(res, "registers", script_regs[*id]);
    return 0;
}

static int script_evaluate(void *st, const size_t *ids, size_t k, cutune_eval_result *res,
                           char *err, size_t errlen)
{
    (void)st;
    (void)ids;
    (void)k;
    (void)res;
    return cutune_err(err, errlen, CUTUNE_EINVAL, "not used");
}

static const cutune_evaluator_type script_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "script",
    .help = "scripted measurements",
    .size = sizeof(script_state),
    .alloc = script_alloc,
    .evaluate = script_evaluate,
    .submit = script_submit,
    .wait_any = script_wait,
};

static const cutune_evaluator_type simulated_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "simulated",
    .help = "never called: confirmation draws from the recorded repetitions",
    .size = sizeof(script_state),
    .flags = CUTUNE_EVALUATOR_SIMULATED,
    .alloc = script_alloc,
    .evaluate = script_evaluate,
    .submit = script_submit,
    .wait_any = script_wait,
};

/* A history of NCONF ok entries, id i with score and time first[i], registers as scripted,
 * and recorded repetitions reps[i] (NULL: none). */
static void history(cutune_history *h, cutune_history_entry *e, const double *first,
                    double (*reps)[8])
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < NCONF; i++) {
        memset(&e[i], 0, sizeof e[i]);
        e[i].id = i;
        e[i].r.status = CUTUNE_STATUS_OK;
        e[i].r.time_ms = e[i].score = first[i];
        cutune_eval_result_add_metric(&e[i].r, "registers", script_regs[i]);
        if (reps) {
            e[i].r.times_ms = reps[i];
            e[i].r.ntimes = 8;
        }
    }
    h->n = NCONF;
    h->e = e;
    h->best = 0;
}

static void test_scripted(void **state)
{
    (void)state;
    cutune_evaluator *ev = NULL;
    cutune_evaluator_ctx ctx = {0};
    char err[256];
    assert_int_equal(cutune_evaluator_alloc(&script_type, &ctx, &ev, err, sizeof err), 0);
    cutune_history h;
    cutune_history_entry e[NCONF];
    static const double first[NCONF] = {0.98, 1.0, 1.2, 9}; /* 0 looked best in the search */
    history(&h, e, first, NULL);
    cutune_confirm_result c;
    assert_int_equal(
        cutune_confirm_run(ev, NULL, NULL, NULL, &h, 3, NROUND, 1, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.n, 3); /* the best three by score: ids 0, 1, 2 */
    assert_int_equal(c.rounds, NROUND);
    /* interleaved, rotated by one each round */
    static const size_t want[] = {0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2, 1, 2, 0};
    assert_int_equal(script->norder, 15);
    assert_memory_equal(script->order, want, sizeof want);
    /* id 0: mean 1.004, sd 0.0114, t(0.975, 4) = 2.776: half-width 0.01416 */
    assert_true(fabs(c.e[0].mean - 1.004) < 1e-12);
    assert_true(fabs(c.e[0].hi - c.e[0].mean - 2.776445 * 0.011401754 / sqrt(5)) < 1e-6);
    assert_true(c.e[0].tied && c.e[1].tied && !c.e[2].tied);
    assert_int_equal(c.winner, 1); /* tied with 0, fewer registers */
    assert_int_equal(c.e[c.winner].id, 1);
    cutune_evaluator_free(ev);
    for (size_t i = 0; i < NCONF; i++)
        cutune_eval_result_clear(&e[i].r);
}

static void test_simulated(void **state)
{
    (void)state;
    cutune_evaluator *ev = NULL;
    cutune_evaluator_ctx ctx = {0};
    char err[256];
    assert_int_equal(cutune_evaluator_alloc(&simulated_type, &ctx, &ev, err, sizeof err), 0);
    static double reps[NCONF][8] = {{1.0, 1.1, 0.9, 1.0, 1.2, 0.8, 1.0, 1.05},
                                    {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0},
                                    {3.0, 3.1, 2.9, 3.0, 3.0, 3.0, 3.0, 3.0},
                                    {9, 9, 9, 9, 9, 9, 9, 9}};
    static const double first[NCONF] = {1.0, 1.0, 3.0, 9};
    cutune_history h;
    cutune_history_entry e[NCONF];
    cutune_confirm_result a, b;
    history(&h, e, first, NULL);
    for (size_t i = 0; i < NCONF; i++) { /* views: never freed by the entries */
        e[i].r.times_ms = NULL;
        e[i].r.ntimes = 0;
    }
    double *held[NCONF];
    for (size_t i = 0; i < NCONF; i++) {
        held[i] = malloc(8 * sizeof **held);
        memcpy(held[i], reps[i], 8 * sizeof **held);
        e[i].r.times_ms = held[i];
        e[i].r.ntimes = 8;
    }
    assert_int_equal(
        cutune_confirm_run(ev, NULL, NULL, NULL, &h, 4, NROUND, 7, NULL, &a, err, sizeof err), 0);
    assert_int_equal(
        cutune_confirm_run(ev, NULL, NULL, NULL, &h, 4, NROUND, 7, NULL, &b, err, sizeof err), 0);
    assert_true(a.simulated);
    assert_int_equal(script->norder, 0);               /* the evaluator was never asked */
    assert_memory_equal(&a, &b, sizeof a);             /* the same seed: the same draws */
    assert_true(a.e[1].lo == 1.0 && a.e[1].hi == 1.0); /* constant repetitions: no spread */
    assert_true(a.e[0].hi > a.e[0].lo);                /* drawn medians vary */
    assert_true(a.e[0].mean >= 0.8 && a.e[0].mean <= 1.2);
    assert_false(a.e[2].tied);
    assert_true(a.winner == 0 || a.winner == 1);
    /* 0 and 1 overlap when 0's interval holds 1.0; then 1 wins on registers (40 < 64) */
    if (a.e[0].lo <= 1.0 && a.e[0].hi >= 1.0)
        assert_int_equal(a.winner, 1);
    cutune_evaluator_free(ev);
    for (size_t i = 0; i < NCONF; i++)
        cutune_eval_result_clear(&e[i].r);
}

/* Times near DBL_MAX: the mean and interval stay finite (a plain sum of 5 such values is
 * inf, and its variance NaN). */
static void test_huge_times_finite(void **state)
{
    (void)state;
    cutune_evaluator *ev = NULL;
    cutune_evaluator_ctx ctx = {0};
    char err[256];
    assert_int_equal(cutune_evaluator_alloc(&simulated_type, &ctx, &ev, err, sizeof err), 0);
    static const double first[NCONF] = {1.7e308, 1.6e308, 1.5e308, 1.4e308};
    cutune_history h;
    cutune_history_entry e[NCONF];
    history(&h, e, first, NULL);
    double *held[NCONF];
    for (size_t i = 0; i < NCONF; i++) {
        held[i] = malloc(8 * sizeof **held);
        for (size_t k = 0; k < 8; k++)
            held[i][k] = first[i] * (k % 2 ? 0.999 : 1.0);
        e[i].r.times_ms = held[i];
        e[i].r.ntimes = 8;
    }
    cutune_confirm_result c;
    assert_int_equal(
        cutune_confirm_run(ev, NULL, NULL, NULL, &h, 4, NROUND, 3, NULL, &c, err, sizeof err), 0);
    for (size_t i = 0; i < c.n; i++) {
        assert_true(isfinite(c.e[i].mean) && isfinite(c.e[i].lo) && isfinite(c.e[i].hi));
        assert_true(c.e[i].lo <= c.e[i].mean && c.e[i].mean <= c.e[i].hi);
        assert_true(c.e[i].mean >= 0.999 * first[c.e[i].id] && c.e[i].mean <= first[c.e[i].id]);
    }
    assert_int_equal(c.e[c.winner].id, 3); /* the fastest, 1.4e308 */
    cutune_evaluator_free(ev);
    for (size_t i = 0; i < NCONF; i++)
        cutune_eval_result_clear(&e[i].r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fewer_registers),
        cmocka_unit_test(test_then_energy_then_id),
        cmocka_unit_test(test_missing_metrics_rank_last),
        cmocka_unit_test(test_no_overlap_best_wins),
        cmocka_unit_test(test_scripted),
        cmocka_unit_test(test_simulated),
        cmocka_unit_test(test_huge_times_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
