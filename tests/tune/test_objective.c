/* Objectives and constraints (src/tune/objective.c): the built-in names, directions,
 * expressions over parameters and metrics, names written between backquotes, constraints,
 * and what the searcher is told (the score). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/cutune.h"

typedef struct fixture {
    cutune_recording *rec;
    cutune_space *space;
} fixture;

static int setup(void **state)
{
    static const char text[] = "{\"tune_params_keys\":[\"BS\",\"V\"],\"tune_params\":{\"BS\":[64,"
                               "128],\"V\":[1,2]},\"cache\":{\"64,1\":{\"BS\":64,\"V\":1,"
                               "\"time\":1.0}}}";
    fixture *f = calloc(1, sizeof *f);
    char err[256];
    assert_int_equal(
        cutune_recording_load_buffer("t.json", text, strlen(text), &f->rec, err, sizeof err), 0);
    assert_int_equal(cutune_recording_space(f->rec, NULL, 0, 0, &f->space, err, sizeof err), 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cutune_space_free(f->space);
    cutune_recording_free(f->rec);
    free(f);
    return 0;
}

/* An ok entry of configuration id at time_ms with metrics name=value (NULL-terminated). */
static cutune_history_entry entry(size_t id, double time_ms, ...)
{
    cutune_history_entry e = {.id = id};
    e.r.status = CUTUNE_STATUS_OK;
    e.r.time_ms = time_ms;
    va_list ap;
    va_start(ap, time_ms);
    for (const char *n = va_arg(ap, const char *); n; n = va_arg(ap, const char *))
        assert_int_equal(cutune_eval_result_add_metric(&e.r, n, va_arg(ap, double)), 0);
    va_end(ap);
    return e;
}

static cutune_objective *make(fixture *f, const char *text, const char *const *cons, size_t n)
{
    cutune_objective *o = NULL;
    char err[256] = "";
    if (cutune_objective_alloc(text, cons, n, f->space, NULL, &o, err, sizeof err) < 0)
        fail_msg("'%s': %s", text ? text : "(none)", err);
    return o;
}

static void test_time_default(void **state)
{
    fixture *f = *state;
    cutune_objective *o = make(f, NULL, NULL, 0);
    cutune_history_entry e = entry(1, 0.3, "energy_j", 2.0, NULL);
    assert_true(cutune_objective_is_time(o));
    assert_string_equal(cutune_objective_text(o), "time");
    assert_int_equal(cutune_objective_nneeds(o), 0);
    assert_true(cutune_objective_score(o, &e) == 0.3); /* the time itself, exactly */
    assert_true(cutune_objective_score(NULL, &e) == 0.3);
    cutune_objective_free(o);
    o = make(f, "time:min", NULL, 0);
    assert_true(cutune_objective_is_time(o));
    cutune_objective_free(o);
    o = make(f, "time:max", NULL, 0); /* a direction of its own: no longer the default */
    assert_false(cutune_objective_is_time(o));
    assert_true(fabs(cutune_objective_score(o, &e) - 1 / 0.3) < 1e-12);
    cutune_objective_free(o);
    cutune_eval_result_clear(&e.r);
}

static void test_builtins(void **state)
{
    fixture *f = *state;
    cutune_history_entry e = entry(0, 2.0, "energy_j", 0.5, "power_w", 250.0, NULL);
    double v;
    int ok;
    cutune_objective *o = make(f, "energy", NULL, 0);
    assert_string_equal(cutune_objective_expr(o), "energy_j");
    assert_int_equal(cutune_objective_nneeds(o), 1);
    assert_string_equal(cutune_objective_need(o, 0), "energy_j");
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && v == 0.5);
    cutune_objective_free(o);
    o = make(f, "edp", NULL, 0); /* J * s: 0.5 J at 2 ms */
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && fabs(v - 0.5 * 2e-3) < 1e-15);
    assert_true(fabs(cutune_objective_score(o, &e) - 1e-3) < 1e-15);
    cutune_objective_free(o);
    cutune_eval_result_clear(&e.r);
}

/* Parameters, time_s and metrics in one expression; a name between backquotes. */
static void test_expression(void **state)
{
    fixture *f = *state;
    /* configuration 3 is BS=128, V=2 */
    cutune_history_entry e = entry(3, 4.0, "GFLOP/s", 80.0, "power_w", 200.0, NULL);
    double v;
    int ok;
    cutune_objective *o = make(f, "`GFLOP/s` / power_w * V:max", NULL, 0);
    assert_true(cutune_objective_maximize(o));
    assert_int_equal(cutune_objective_nneeds(o), 2);
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && fabs(v - 0.8) < 1e-12);
    assert_true(fabs(cutune_objective_score(o, &e) - 1 / 0.8) < 1e-12);
    cutune_objective_free(o);
    o = make(f, "GFLOP/s:max", NULL, 0); /* one name with a '/', as Kernel Tuner spells it */
    assert_int_equal(cutune_objective_nneeds(o), 1);
    assert_string_equal(cutune_objective_need(o, 0), "GFLOP/s");
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && v == 80.0);
    cutune_objective_free(o);
    /* a '/' after a name the objective reads, or a number, divides */
    o = make(f, "BS/4", NULL, 0);
    assert_int_equal(cutune_objective_nneeds(o), 0);
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && v == 32.0);
    cutune_objective_free(o);
    o = make(f, "time_ms/2", NULL, 0);
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && v == 2.0);
    cutune_objective_free(o);
    o = make(f, "2", NULL, 0); /* a positive constant is allowed: every configuration ties */
    cutune_objective_free(o);
    o = make(f, "BS * time_s + 1e-3", NULL, 0); /* a number's exponent is no name */
    assert_int_equal(cutune_objective_nneeds(o), 0);
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && fabs(v - (128 * 4e-3 + 1e-3)) < 1e-12);
    cutune_objective_free(o);
    cutune_eval_result_clear(&e.r);
}

/* A missing metric, a failed evaluation, a non-positive value: infeasible (NAN score). */
static void test_infeasible(void **state)
{
    fixture *f = *state;
    cutune_history_entry e = entry(0, 1.0, "power_w", 100.0, NULL);
    double v;
    int ok;
    cutune_objective *o = make(f, "energy", NULL, 0);
    cutune_objective_eval(o, &e, &v, &ok);
    assert_false(ok);
    assert_true(isnan(v));
    assert_true(isnan(cutune_objective_score(o, &e)));
    cutune_objective_free(o);
    o = make(f, "power_w - 100", NULL, 0); /* 0: not a positive number to minimise */
    cutune_objective_eval(o, &e, &v, &ok);
    assert_true(ok && v == 0);
    assert_true(isnan(cutune_objective_score(o, &e)));
    cutune_objective_free(o);
    o = make(f, "power_w", NULL, 0);
    e.r.status = CUTUNE_STATUS_WRONG_RESULT;
    cutune_objective_eval(o, &e, &v, &ok);
    assert_false(ok);
    cutune_objective_free(o);
    cutune_eval_result_clear(&e.r);
}

static void test_constraints(void **state)
{
    fixture *f = *state;
    static const char *const cons[] = {"power_w <= 300", "BS >= 128"};
    cutune_history_entry hot = entry(3, 1.0, "power_w", 350.0, NULL);
    cutune_history_entry cool = entry(3, 2.0, "power_w", 250.0, NULL);
    cutune_history_entry small = entry(0, 0.5, "power_w", 100.0, NULL); /* BS=64 */
    cutune_history_entry blind = entry(3, 0.5, NULL);                   /* no power_w */
    cutune_objective *o = make(f, "time", cons, 2);
    assert_false(cutune_objective_is_time(o)); /* constrained: not the plain default */
    assert_int_equal(cutune_objective_nconstraints(o), 2);
    assert_string_equal(cutune_objective_constraint(o, 1), "BS >= 128");
    assert_true(isnan(cutune_objective_score(o, &hot)));
    assert_true(cutune_objective_score(o, &cool) == 2.0);
    assert_true(isnan(cutune_objective_score(o, &small)));
    assert_true(isnan(cutune_objective_score(o, &blind)));
    cutune_objective_free(o);
    cutune_eval_result_clear(&hot.r);
    cutune_eval_result_clear(&cool.r);
    cutune_eval_result_clear(&small.r);
    cutune_eval_result_clear(&blind.r);
}

static void test_bad(void **state)
{
    fixture *f = *state;
    static const struct {
        const char *text, *cons, *msg;
    } cases[] = {
        {"energy_j +", NULL, "--objective 'energy_j +': syntax error"},
        {"`GFLOP/s", NULL, "unterminated `name`"},
        {"``", NULL, "a `name` holds 1 to 31 bytes"},
        {"time", "power_w <=", "--subject-to 'power_w <=': syntax error"},
        {"a_metric_name_longer_than_thirty_one", NULL, "longer than a metric name"},
        /* constants that rule out every configuration, refused before a run spends on them */
        {"1/0", NULL, "--objective '1/0' reads no name and cannot be computed (division by zero"},
        {"log2(0)", NULL, "cannot be computed (log2() of a value <= 0"},
        {"0", NULL, "--objective '0' is 0 whatever the configuration, not a positive number"},
        {"-1:max", NULL, "is -1 whatever the configuration"},
        {"time", "1 > 2", "--subject-to '1 > 2' is false (0) whatever the configuration"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cutune_objective *o = NULL;
        char err[256] = "";
        const char *cons[1] = {cases[i].cons};
        int rc = cutune_objective_alloc(cases[i].text, cons, cases[i].cons ? 1 : 0, f->space, NULL,
                                        &o, err, sizeof err);
        if (rc >= 0 || !strstr(err, cases[i].msg))
            fail_msg("case %zu: rc %d '%s'", i, rc, err);
        assert_null(o);
    }
}

/* Several objectives: the parts, their metrics once each, the geometric-mean score. */
static void test_multi(void **state)
{
    fixture *f = *state;
    cutune_objective *o = NULL;
    char err[256] = "";
    assert_int_equal(cutune_objective_multi_alloc("time, energy, max(energy_j, power_w):max", NULL,
                                                  0, f->space, NULL, &o, err, sizeof err),
                     0);
    assert_int_equal(cutune_objective_count(o), 3);
    assert_string_equal(cutune_objective_text(cutune_objective_part(o, 2)),
                        "max(energy_j, power_w):max");
    assert_int_equal(cutune_objective_nneeds(o), 2); /* energy_j once, power_w */
    assert_string_equal(cutune_objective_need(o, 0), "energy_j");
    assert_string_equal(cutune_objective_need(o, 1), "power_w");
    cutune_history_entry e = entry(0, 2.0, "energy_j", 0.5, "power_w", 4.0, NULL);
    /* scores 2, 0.5 and 1/4: geometric mean (2 * 0.5 * 0.25)^(1/3) */
    assert_true(fabs(cutune_objective_score(o, &e) - cbrt(0.25)) < 1e-12);
    cutune_objective_free(o);
    o = NULL;
    assert_true(cutune_objective_multi_alloc("time", NULL, 0, f->space, NULL, &o, err, sizeof err) <
                0);
    assert_non_null(strstr(err, "two or more"));
    assert_true(cutune_objective_multi_alloc("time,,energy", NULL, 0, f->space, NULL, &o, err,
                                             sizeof err) < 0);
    assert_non_null(strstr(err, "objective 2 is empty"));
    assert_null(o);
    cutune_eval_result_clear(&e.r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_time_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expression, setup, teardown),
        cmocka_unit_test_setup_teardown(test_infeasible, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constraints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multi, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
