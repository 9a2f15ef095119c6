/* The worker's energy, power, clock and throttle metrics (worker_energy.c) with NVML
 * mocked (test_cuda_mockdrv.c): the energy counter, power sampled by a thread, no NVML at
 * all, and the repeated measurement after a slowdown. This binary is its own worker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cuda_mockdrv.c"

#define N 1000

typedef struct fixture {
    cutune_cuda_session s;
    cutune_cuda_launch l;
    cutune_cuda_setup su;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cutune_cuda_setup su = {0};
    unsetenv("MOCK_CUDA");
    unsetenv("CUTUNE_WORKER");
    cutune_cuda_session_init(&f->s, NULL);
    f->s.kernel_timeout_s = 1;
    f->s.setup_timeout_s = 10;
    su.seed = 42;
    su.warmup = 2;
    su.min_reps = 10;
    su.max_reps = 50;
    su.max_time_s = 1;
    su.ci_rel = 0.01;
    su.energy_window_s = 0.05;
    su.nargs = 4;
    const char *names[4] = {"c", "a", "b", "n"};
    for (int i = 0; i < 4; i++) {
        snprintf(su.args[i].name, sizeof su.args[i].name, "%s", names[i]);
        su.args[i].kind = i < 3 ? CUTUNE_ARG_BUFFER : CUTUNE_ARG_SCALAR;
        su.args[i].type = i < 3 ? CUTUNE_ELEM_FLOAT : CUTUNE_ELEM_INT32;
        su.args[i].output = i == 0;
        su.args[i].lo = -1;
        su.args[i].hi = 1;
    }
    su.ref_kind = CUTUNE_REF_KERNEL;
    snprintf(su.ref_name, sizeof su.ref_name, "ref_add");
    su.ref_cubin = "MOCK";
    su.ref_cubin_size = 5;
    su.rtol = 1e-6;
    su.atol = 1e-5;
    f->su = su;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &su), 0);
    cutune_cuda_launch *l = &f->l;
    l->cubin = "MOCK";
    l->cubin_size = 5;
    l->grid[0] = l->ref_grid[0] = 4;
    l->block[0] = l->ref_block[0] = 256;
    for (int i = 1; i < 3; i++)
        l->grid[i] = l->block[i] = l->ref_grid[i] = l->ref_block[i] = 1;
    l->nargs = 4;
    l->count[0] = l->count[1] = l->count[2] = N;
    int32_t n = N;
    memcpy(&l->bits[3], &n, 4);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cutune_cuda_session_free(&f->s);
    free(f);
    unsetenv("MOCK_NVML");
    unsetenv("MOCK_NVML_POWER");
    unsetenv("MOCK_NVML_REASONS");
    unsetenv("MOCK_NVML_REASONS_CALLS");
    return 0;
}

/* The value of metric name, or NAN when the result has none. */
static double metric_of(const cutune_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name))
            return r->metrics[i].value;
    return NAN;
}

static cutune_status run(fixture *f, cutune_eval_result *r)
{
    char err[256] = "";
    memset(r, 0, sizeof *r);
    f->l.kernel = "add";
    if (cutune_cuda_session_eval(&f->s, &f->l, "add", r, err, sizeof err) < 0)
        fail_msg("session_eval: %s", err);
    return r->status;
}

/* The window's energy over its launches and its wall time: a 250 W counter reads 250 W. */
static void check_energy(const cutune_eval_result *r, double watts, int source)
{
    double p = metric_of(r, "power_w"), e = metric_of(r, "energy_j");
    double win = metric_of(r, "energy_window_ms"), n = metric_of(r, "energy_launches");
    assert_true(metric_of(r, "energy_source") == source);
    assert_true(win >= 50.0);                     /* lengthened to energy_window_s */
    assert_true(n > metric_of(r, "repetitions")); /* with untimed launches */
    assert_true(fabs(p - watts) <= 0.02 * watts); /* the counter's mJ steps and the clock */
    assert_true(fabs(e * n - p * win * 1e-3) <= 1e-9 * (e * n)); /* both from one window */
    assert_true(metric_of(r, "energy_readings") >= 2);
}

static void test_counter(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML_POWER", "250", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_int_equal(f->s.hello.energy_source, CUTUNE_CUDA_ENERGY_COUNTER);
    check_energy(&r, 250.0, CUTUNE_CUDA_ENERGY_COUNTER);
    assert_true(metric_of(&r, "sm_clock_mhz_before") == 1980);
    assert_true(metric_of(&r, "mem_clock_mhz_before") == 1980);
    assert_true(metric_of(&r, "temp_c_before") == 41);
    assert_true(metric_of(&r, "sm_clock_mhz") == 1980);
    assert_true(metric_of(&r, "mem_clock_mhz") == 1980);
    assert_true(metric_of(&r, "temp_c") == 41);
    assert_true(metric_of(&r, "throttled") == 0);
    assert_true(metric_of(&r, "throttle_reasons") == 0);
    assert_true(isnan(metric_of(&r, "remeasured")));
    cutune_eval_result_clear(&r);
}

static void test_sampled(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML", "power", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_int_equal(f->s.hello.energy_source, CUTUNE_CUDA_ENERGY_SAMPLED);
    check_energy(&r, 300.0, CUTUNE_CUDA_ENERGY_SAMPLED);
    /* 50 ms at one sample per 5 ms, plus both ends */
    assert_true(metric_of(&r, "energy_readings") >= 5);
    cutune_eval_result_clear(&r);
}

/* No window to lengthen: the energy of the timed repetitions alone. */
static void test_unlengthened(void **state)
{
    fixture *f = *state;
    f->su.energy_window_s = 0;
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &f->su), 0);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "energy_launches") == metric_of(&r, "repetitions"));
    cutune_eval_result_clear(&r);
}

/* The back-to-back window: after the timing, its own launches (none of them timed), at
 * least energy_window_s long, the kernel busy for the whole of it (launches x the timed
 * median over the window: the mock's launches take no time, so its 0.25 ms median
 * overstates it), the counter's step and the bound it sets. */
static void test_batched(void **state)
{
    fixture *f = *state;
    f->su.energy_batch = 1;
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &f->su), 0);
    setenv("MOCK_NVML_POWER", "250", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    double win = metric_of(&r, "energy_window_ms"), n = metric_of(&r, "energy_launches");
    double e = metric_of(&r, "energy_j"), p = metric_of(&r, "power_w");
    assert_true(metric_of(&r, "energy_batched") == 1);
    assert_true(win >= 50.0);
    /* the first batch alone: ceil(0.05 s / 0.25 ms) launches */
    assert_true(n >= (double)cutune_cuda_energy_batch(0.05, 0.25e-3));
    assert_true(fabs(p - 250.0) <= 0.02 * 250.0);
    assert_true(fabs(e * n - p * win * 1e-3) <= 1e-9 * (e * n));
    assert_true(fabs(metric_of(&r, "energy_busy") - n * 0.25 / win) <= 1e-9 * n * 0.25 / win);
    double step = metric_of(&r, "energy_step_mj"), res = metric_of(&r, "energy_resolution");
    assert_true(step >= 1);
    double readings = metric_of(&r, "energy_readings"), upd = metric_of(&r, "energy_update_ms");
    assert_true(readings >= 2);
    assert_true(upd > 0);
    /* two updates or more in a busy window: the power between them (the mock's 250 W, above),
     * its bound the poll period over the time between the first and the last update */
    assert_true(metric_of(&r, "energy_interior") == 1);
    assert_true(fabs(res - 1.0 / (upd * (readings - 1))) <= 1e-6 * res);
    cutune_eval_result_clear(&r);
}

/* The window's rule, without a GPU. */
static void test_batch_rule(void **state)
{
    (void)state;
    /* enough launches at the timed median to fill the time left, rounded up */
    assert_int_equal(cutune_cuda_energy_batch(0.25, 0.003), 84); /* 83.3 -> 84 */
    assert_int_equal(cutune_cuda_energy_batch(0.25, 0.25), 1);
    assert_int_equal(cutune_cuda_energy_batch(0.25, 1.0), 1); /* a long kernel: one launch */
    assert_int_equal(cutune_cuda_energy_batch(0.1, 0.12e-3), 834);
    assert_int_equal(cutune_cuda_energy_batch(0.5, 1e-9), CUTUNE_CUDA_ENERGY_MAX_BATCH);
    assert_int_equal(cutune_cuda_energy_batch(0.1, 0), 1); /* unknown time: one, then measured */
    assert_int_equal(cutune_cuda_energy_batch(0.1, NAN), 1);
    assert_int_equal(cutune_cuda_energy_batch(0, 0.001), 0); /* the window is full */
    assert_int_equal(cutune_cuda_energy_batch(-0.01, 0.001), 0);
    /* the counter's difference over the launches: 2000 mJ over 4 launches is 0.5 J each */
    assert_true(cutune_cuda_energy_per_launch(1000, 3000, 4) == 0.5);
    assert_true(isnan(cutune_cuda_energy_per_launch(1000, 1000, 4))); /* did not move */
    assert_true(isnan(cutune_cuda_energy_per_launch(1000, 3000, 0)));
    /* the window a run gets unless it names one: 0.25 s where energy is read */
    const char *time_only[] = {"registers"}, *energy[] = {"registers", "energy_j"},
               *power[] = {"power_w"};
    assert_true(cutune_cuda_energy_window_default(NULL, 0) == 0);
    assert_true(cutune_cuda_energy_window_default(time_only, 1) == 0);
    assert_true(cutune_cuda_energy_window_default(energy, 2) == CUTUNE_CUDA_ENERGY_WINDOW_S);
    assert_true(cutune_cuda_energy_window_default(power, 1) == CUTUNE_CUDA_ENERGY_WINDOW_S);
    /* between updates: 20 J in 0.1 s is 200 W; a 0.25 s window of 1000 launches is 0.25 ms
     * each, 50 mJ */
    assert_true(fabs(cutune_cuda_energy_between(5000, 1.0, 25000, 1.1, 0.25, 1000) - 0.05) < 1e-12);
    assert_true(isnan(cutune_cuda_energy_between(5000, 1.0, 5000, 1.1, 0.25, 1000)));
    assert_true(isnan(cutune_cuda_energy_between(5000, 1.1, 25000, 1.1, 0.25, 1000)));
    assert_true(isnan(cutune_cuda_energy_between(5000, 1.0, 25000, 1.1, 0.25, 0)));
    /* a 30 mJ step in a 600 mJ window bounds one end's reading at 5% */
    assert_true(fabs(cutune_cuda_energy_resolution(30, 1000, 1600) - 0.05) < 1e-15);
    assert_true(cutune_cuda_energy_resolution(700, 1000, 1600) == 1.0);
    assert_true(isnan(cutune_cuda_energy_resolution(0, 1000, 1600)));
    assert_true(isnan(cutune_cuda_energy_resolution(30, 1000, 1000)));
}

static void test_no_nvml(void **state)
{
    fixture *f = *state;
    static const char *const gone[] = {"energy_j",  "power_w",      "energy_window_ms",
                                       "throttled", "sm_clock_mhz", "temp_c_before"};
    setenv("MOCK_NVML", "none", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_int_equal(f->s.hello.energy_source, CUTUNE_CUDA_ENERGY_NONE);
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        assert_true(isnan(metric_of(&r, gone[i])));
    assert_true(r.time_ms == 0.25);
    cutune_eval_result_clear(&r);
}

static void test_clocks_only(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML", "clocks", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_int_equal(f->s.hello.energy_source, CUTUNE_CUDA_ENERGY_NONE);
    assert_true(isnan(metric_of(&r, "energy_j")));
    assert_true(isnan(metric_of(&r, "power_w")));
    assert_true(metric_of(&r, "sm_clock_mhz") == 1980);
    assert_true(metric_of(&r, "throttled") == 0);
    cutune_eval_result_clear(&r);
}

/* A thermal slowdown at the first reading only: measured again, clean the second time. */
static void test_throttle_once(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML_REASONS", "0x40", 1);
    setenv("MOCK_NVML_REASONS_CALLS", "1", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "remeasured") == 1);
    assert_true(metric_of(&r, "throttled") == 0);
    assert_true(metric_of(&r, "throttle_reasons") == 0);
    size_t nenergy = 0; /* the first window's metrics are gone */
    for (size_t i = 0; i < r.nmetrics; i++)
        nenergy += !strcmp(r.metrics[i].name, "energy_j");
    assert_int_equal(nenergy, 1);
    cutune_eval_result_clear(&r);
}

/* Slowed down both times: flagged. */
static void test_throttle_always(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML_REASONS", "0x41", 1); /* GPU idle (0x1) is not a slowdown */
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "remeasured") == 1);
    assert_true(metric_of(&r, "throttled") == 1);
    assert_true(metric_of(&r, "throttle_reasons") == 0x40);
    cutune_eval_result_clear(&r);
}

/* A power cap is flagged, not measured again: it is how a power-bound kernel runs. */
static void test_power_cap(void **state)
{
    fixture *f = *state;
    setenv("MOCK_NVML_REASONS", "0x4", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, &r), CUTUNE_STATUS_OK);
    assert_true(isnan(metric_of(&r, "remeasured")));
    assert_true(metric_of(&r, "throttled") == 1);
    assert_true(metric_of(&r, "throttle_reasons") == 4);
    cutune_eval_result_clear(&r);
}

int main(int argc, char **argv)
{
    mock_worker_maybe(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_counter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sampled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unlengthened, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batched, setup, teardown),
        cmocka_unit_test(test_batch_rule),
        cmocka_unit_test_setup_teardown(test_no_nvml, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clocks_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_throttle_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_throttle_always, setup, teardown),
        cmocka_unit_test_setup_teardown(test_power_cap, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
