/* The CUDA evaluator's worker and its session, with the driver mocked
 * (test_cuda_mockdrv.c): every status and the restart after a fault or a
 * hang, the "no driver" and "no device" paths. This binary is its own
 * worker: the session execs /proc/self/exe worker --fd 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "test_cuda_mockdrv.c"

#define N 1000

typedef struct fixture {
    cutune_cuda_session s;
    cutune_cuda_launch l;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cutune_cuda_setup su = {0};
    unsetenv("MOCK_CUDA");
    unsetenv("CUTUNE_WORKER");
    cutune_cuda_session_init(&f->s, NULL);
    f->s.kernel_timeout_s = 0.3;
    f->s.setup_timeout_s = 10;
    su.seed = 42;
    su.warmup = 2;
    su.min_reps = 10;
    su.max_reps = 50;
    su.max_time_s = 1;
    su.ci_rel = 0.01;
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
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &su), 0);

    cutune_cuda_launch *l = &f->l;
    l->cubin = "MOCK";
    l->cubin_size = 5;
    l->grid[0] = 4;
    l->block[0] = 256;
    l->ref_grid[0] = 4;
    l->ref_block[0] = 256;
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
    unsetenv("MOCK_CUDA");
    unsetenv("MOCK_CUDA_ELAPSED");
    unsetenv("CUTUNE_LIBCUDA");
    return 0;
}

static double metric_of(const cutune_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name))
            return r->metrics[i].value;
    return -1;
}

static cutune_status run(fixture *f, const char *kernel, cutune_eval_result *r)
{
    char err[256] = "";
    memset(r, 0, sizeof *r);
    f->l.kernel = kernel;
    int rc = cutune_cuda_session_eval(&f->s, &f->l, kernel, r, err, sizeof err);
    if (rc < 0)
        fail_msg("session_eval: %s", err);
    return r->status;
}

static void test_ok(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    assert_true(r.ntimes >= 10);
    assert_true(r.time_ms == 0.25);
    assert_true(metric_of(&r, "registers") == 32);
    assert_true(metric_of(&r, "occupancy") == 1.0);
    assert_true(metric_of(&r, "sm_clock_mhz") == 1980);
    assert_true(metric_of(&r, "temp_c") == 41);
    assert_true(metric_of(&r, "rel_err") == 0);
    assert_true(metric_of(&r, "max_threads_per_block") == 1024);
    assert_true(r.bench_ms >= 0);
    assert_true(f->s.best_ms == 0.25);
    int pid = f->s.pid;
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK); /* same worker */
    assert_int_equal(f->s.pid, pid);
    cutune_eval_result_clear(&r);
}

/* A kernel faster than the event timer resolves times as 0: not a measurement, so not ok
 * (a journal with a 0 ms "ok" would not load again). */
static void test_zero_time(void **state)
{
    fixture *f = *state;
    setenv("MOCK_CUDA_ELAPSED", "0", 1);
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_RUNTIME_ERROR);
    assert_non_null(r.log);
    assert_non_null(strstr(r.log, "below the event timer's resolution"));
    assert_int_equal(r.ntimes, 0);
    cutune_eval_result_clear(&r);
}

static void test_wrong(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "add_wrong", &r), CUTUNE_STATUS_WRONG_RESULT);
    assert_non_null(r.log);
    assert_non_null(strstr(r.log, "config add_wrong"));
    assert_non_null(strstr(r.log, "first bad element 7"));
    assert_int_equal(r.ntimes, 0);
    cutune_eval_result_clear(&r);
}

static void test_launch_failure(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    int pid = f->s.pid;
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "oor", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(strstr(r.log, "too many resources"));
    assert_int_equal(f->s.pid, pid); /* not sticky: the worker stays */
    cutune_eval_result_clear(&r);
}

static void test_over_limits(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "big", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(strstr(r.log, "exceed the kernel's limit of 128"));
    cutune_eval_result_clear(&r);
    f->l.smem = 300000;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(strstr(r.log, "shared memory"));
    cutune_eval_result_clear(&r);
    f->l.smem = 100000; /* over 48 KB, under the opt-in limit: opted in, runs */
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
    f->l.smem = 0;
    f->l.block[2] = 65;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(strstr(r.log, "block.z"));
    cutune_eval_result_clear(&r);
    f->l.block[2] = 1;
    f->l.grid[1] = 0;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    cutune_eval_result_clear(&r);
}

static void test_fault_restarts(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    int pid = f->s.pid;
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "fault", &r), CUTUNE_STATUS_RUNTIME_ERROR);
    assert_non_null(strstr(r.log, "config fault"));
    assert_non_null(strstr(r.log, "illegal memory access"));
    assert_int_equal(f->s.pid, 0); /* reaped */
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK); /* the run goes on */
    assert_true(f->s.pid != pid && f->s.pid > 0);
    assert_int_equal(f->s.restarts, 1);
    cutune_eval_result_clear(&r);
}

static void test_timeout(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    double t0 = cutune_now();
    assert_int_equal(run(f, "hang", &r), CUTUNE_STATUS_TIMEOUT);
    double dt = cutune_now() - t0;
    assert_true(dt >= 0.3 && dt < 5);
    assert_non_null(strstr(r.log, "config hang"));
    assert_non_null(strstr(r.log, "first launch"));
    assert_int_equal(f->s.pid, 0);
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
}

static void test_abort(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "abort", &r), CUTUNE_STATUS_RUNTIME_ERROR);
    assert_non_null(strstr(r.log, "signal 6"));
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
}

static void test_bad_module(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "missing", &r), CUTUNE_STATUS_COMPILE_ERROR);
    assert_non_null(strstr(r.log, "not found"));
    cutune_eval_result_clear(&r);
    f->l.cubin = "BAD";
    f->l.cubin_size = 4; /* the literal's size: the encoder copies cubin_size bytes */
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_COMPILE_ERROR);
    cutune_eval_result_clear(&r);
}

static void test_no_device(void **state)
{
    fixture *f = *state;
    char err[256] = "";
    setenv("MOCK_CUDA", "nodevice", 1);
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), CUTUNE_ENODEV);
    assert_non_null(strstr(err, "no CUDA device"));
    assert_int_equal(f->s.pid, 0);
}

static void test_no_driver(void **state)
{
    fixture *f = *state;
    char err[256] = "";
    setenv("MOCK_CUDA", "real", 1);
    setenv("CUTUNE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), CUTUNE_ENODEV);
    assert_non_null(strstr(err, "no CUDA driver"));
    assert_non_null(strstr(err, "not found"));
}

static void test_no_worker(void **state)
{
    fixture *f = *state;
    char err[256] = "";
    cutune_cuda_session_free(&f->s); /* init forgets the encoded setup: free it first */
    cutune_cuda_session_init(&f->s, "/nonexistent/cutune");
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), CUTUNE_ENODEV);
    assert_non_null(strstr(err, "did not start"));
}

/* A worker from another build is refused by name, whether it sends another version,
 * none (the layout from before the field) or a HELLO that grew after the version; the
 * version is checked before the worker's own status, and nothing is sent to it. */
static void test_other_protocol(void **state)
{
    fixture *f = *state;
    char got[] = "/tmp/cutune-test-proto-XXXXXX";
    int gfd = mkstemp(got);
    assert_true(gfd >= 0);
    close(gfd);
    unlink(got);
    setenv("MOCK_WORKER_GOT", got, 1);
    const char *versions[] = {"none", "1", "99", "grown", "1"};
    const char *said[] = {"sends no protocol version", "speaks protocol 1", "speaks protocol 99",
                          "speaks protocol 99", "speaks protocol 1"};
    for (size_t i = 0; i < 5; i++) {
        char err[256] = "", want[96];
        setenv("MOCK_WORKER_PROTO", versions[i], 1);
        if (i == 4) /* an old worker reporting "no device": still the version that is named */
            setenv("MOCK_WORKER_RC", "-8", 1);
        assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), CUTUNE_EMISMATCH);
        unsetenv("MOCK_WORKER_PROTO");
        unsetenv("MOCK_WORKER_RC");
        snprintf(want, sizeof want, "%s, this cutune speaks %u", said[i],
                 CUTUNE_CUDA_PROTO_VERSION);
        assert_non_null(strstr(err, want));
        assert_non_null(strstr(err, "another build"));
        assert_int_equal(f->s.pid, 0);
    }
    unsetenv("MOCK_WORKER_GOT");
    assert_int_equal(access(got, F_OK), -1); /* no SETUP (or anything) reached them */
    /* and the session starts normally afterwards */
    char err[256] = "";
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), 0);
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
}

int main(int argc, char **argv)
{
    mock_worker_maybe(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_over_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_restarts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_abort, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_device, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_driver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_protocol, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
