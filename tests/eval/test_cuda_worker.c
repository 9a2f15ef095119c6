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
#include <unistd.h>

#include "test_cuda_mockdrv.c"

#define N 1000

typedef struct fixture {
    cutune_cuda_session s;
    cutune_cuda_launch l;
    cutune_cuda_setup su; /**< as encoded into s.setup */
    char log[256];        /**< MOCK_CUDA_LOG */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cutune_cuda_setup su = {0};
    unsetenv("MOCK_CUDA");
    unsetenv("CUTUNE_WORKER");
    unsetenv("MOCK_CUDA_NOPIN");
    cutune_cuda_session_init(&f->s, NULL);
    f->s.kernel_timeout_s = 0.3;
    f->s.setup_timeout_s = 10;
    snprintf(f->log, sizeof f->log, "%s/cutune-test-worker-%d.log",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    unlink(f->log);
    setenv("MOCK_CUDA_LOG", f->log, 1);
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
    f->su = su;
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
    unlink(f->log);
    free(f);
    unsetenv("MOCK_CUDA");
    unsetenv("MOCK_CUDA_ELAPSED");
    unsetenv("MOCK_CUDA_LOG");
    unsetenv("MOCK_CUDA_NOPIN");
    unsetenv("CUTUNE_LIBCUDA");
    return 0;
}

/* f->su encoded again (before the worker starts: it is sent at the start). */
static void setup_again(fixture *f)
{
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &f->su), 0);
}

/* n elements in c, a and b (grid to match); the other counts stay. */
static void set_n(fixture *f, uint64_t n)
{
    f->l.count[0] = f->l.count[1] = f->l.count[2] = n;
    f->l.grid[0] = f->l.ref_grid[0] = (int64_t)((n + 255) / 256);
    int32_t n32 = (int32_t)n;
    memcpy(&f->l.bits[3], &n32, 4);
}

/* Lines of the mock's log that begin with the words of what (all workers so far). */
static size_t log_count(const fixture *f, const char *what)
{
    FILE *fp = fopen(f->log, "r");
    char line[256];
    size_t n = 0, len = strlen(what);
    if (!fp)
        return 0;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, what, len) && (line[len] == '\n' || line[len] == ' '))
            n++;
    fclose(fp);
    return n;
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

/* The session's device ordinal reaches the worker (CUTUNE_CUDA_DEVICE in its
 * environment, set by the session), and the hello says which device and how many. */
static void test_device_ordinal(void **state)
{
    fixture *f = *state;
    char err[256] = "";
    f->s.device = 0;
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), 0);
    assert_int_equal(f->s.hello.ordinal, 0);
    assert_true(f->s.hello.device_count >= 1);
    int count = f->s.hello.device_count;
    cutune_cuda_session_stop(&f->s);
    f->s.device = count;                  /* one past the last */
    setenv("CUTUNE_CUDA_DEVICE", "0", 1); /* the session's ordinal wins over the parent's */
    assert_int_equal(cutune_cuda_session_start(&f->s, err, sizeof err), CUTUNE_ENODEV);
    char want[64];
    snprintf(want, sizeof want, "no CUDA device %d", count);
    assert_non_null(strstr(err, want));
    unsetenv("CUTUNE_CUDA_DEVICE");
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

/* The phases' times are reported, and add up to no more than the worker's total. */
static void check_phases(const cutune_eval_result *r)
{
    static const char *const parts[] = {"worker_load_ms",   "worker_setup_ms",  "worker_restore_ms",
                                        "worker_launch_ms", "worker_verify_ms", "worker_warmup_ms",
                                        "worker_timing_ms"};
    double sum = 0, total = metric_of(r, "worker_total_ms");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        double v = metric_of(r, parts[i]);
        if (!(v >= 0))
            fail_msg("metric %s = %g", parts[i], v);
        sum += v;
    }
    assert_true(total >= 0);
    assert_true(sum <= total + 1e-6);
}

/* Buffers, inputs and the reference belong to the worker, not the configuration: two
 * evaluations of the same sizes allocate once and run the reference once; a restarted
 * worker builds them again. */
static void test_cached(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    check_phases(&r);
    assert_true(metric_of(&r, "worker_cached") == 0);
    cutune_eval_result_clear(&r);
    assert_int_equal(log_count(f, "alloc"), 3);
    assert_int_equal(log_count(f, "hostalloc"), 3); /* a's and b's inputs, c's download */
    assert_int_equal(log_count(f, "launch ref_add"), 1);
    assert_int_equal(log_count(f, "htod 4000"), 4); /* a and b, before the reference and the run */
    for (int k = 0; k < 3; k++) {
        assert_int_equal(run(f, k == 1 ? "add_wrong" : "add", &r),
                         k == 1 ? CUTUNE_STATUS_WRONG_RESULT : CUTUNE_STATUS_OK);
        assert_true(metric_of(&r, "worker_cached") == 1);
        if (k != 1)
            check_phases(&r);
        cutune_eval_result_clear(&r);
    }
    assert_int_equal(log_count(f, "alloc"), 3);
    assert_int_equal(log_count(f, "free"), 0);
    assert_int_equal(log_count(f, "hostalloc"), 3);
    assert_int_equal(log_count(f, "launch ref_add"), 1);
    assert_int_equal(log_count(f, "htod 4000"), 10);      /* inputs restored before each run */
    assert_int_equal(log_count(f, "memset 4000 255"), 5); /* and the output poisoned */
    assert_int_equal(log_count(f, "dtoh 4000"), 5);       /* the reference's, and one a run */

    /* a fault kills the worker; the next one starts empty and builds it all again */
    assert_int_equal(run(f, "fault", &r), CUTUNE_STATUS_RUNTIME_ERROR);
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "worker_cached") == 0);
    assert_int_equal(f->s.restarts, 1);
    cutune_eval_result_clear(&r);
    assert_int_equal(log_count(f, "alloc"), 6);
    assert_int_equal(log_count(f, "hostalloc"), 6);
    assert_int_equal(log_count(f, "launch ref_add"), 2);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "worker_cached") == 1);
    cutune_eval_result_clear(&r);
    assert_int_equal(log_count(f, "launch ref_add"), 2);
}

/* A scratch buffer (zeros, not an output) sized by the configuration is reallocated when
 * its size changes, and cleared by a memset rather than an upload, but the reference
 * (which reads zeros at any size) is not run again; a new problem size runs it again. */
static void test_scratch(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    cutune_cuda_argdesc *a = &f->su.args[4];
    snprintf(a->name, sizeof a->name, "scratch");
    a->kind = CUTUNE_ARG_BUFFER;
    a->type = CUTUNE_ELEM_FLOAT;
    a->init = CUTUNE_INIT_ZEROS;
    f->su.nargs = f->l.nargs = 5;
    setup_again(f);
    f->l.count[4] = 100;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
    f->l.count[4] = 200;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "worker_cached") == 0); /* scratch reallocated */
    cutune_eval_result_clear(&r);
    f->l.count[4] = 100;
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
    assert_int_equal(log_count(f, "launch ref_add"), 1);
    assert_int_equal(log_count(f, "alloc"), 6);
    assert_int_equal(log_count(f, "free"), 2);
    assert_int_equal(log_count(f, "hostalloc"), 3); /* no host copy of zeros */
    assert_int_equal(log_count(f, "htod 400"), 0);
    assert_int_equal(log_count(f, "htod 800"), 0);
    assert_int_equal(log_count(f, "memset 400 0"), 3); /* before the reference and 2 runs */
    assert_int_equal(log_count(f, "memset 800 0"), 1);

    set_n(f, 500); /* the reference's sizes changed: run again, once */
    for (int k = 0; k < 2; k++) {
        assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
        cutune_eval_result_clear(&r);
    }
    assert_int_equal(log_count(f, "launch ref_add"), 2);
}

/* Isolation between configurations: a kernel that scribbles on its inputs leaves the next
 * configuration the generated ones; one that writes half its output is caught even after a
 * configuration left a right output on the device (outputs are poisoned before each run). */
static void test_isolation(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    static const struct {
        const char *kernel;
        cutune_status want;
    } seq[] = {{"add", CUTUNE_STATUS_OK},         {"add_clobber", CUTUNE_STATUS_OK},
               {"add", CUTUNE_STATUS_OK},         {"add_half", CUTUNE_STATUS_WRONG_RESULT},
               {"add_clobber", CUTUNE_STATUS_OK}, {"add_half", CUTUNE_STATUS_WRONG_RESULT},
               {"add", CUTUNE_STATUS_OK}};
    for (int pin = 0; pin < 2; pin++) { /* page-locked host copies, then malloc'd ones */
        if (pin)
            setenv("MOCK_CUDA_NOPIN", "1", 1);
        cutune_cuda_session_stop(&f->s);
        unlink(f->log);
        for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
            cutune_status st = run(f, seq[k].kernel, &r);
            if (st != seq[k].want)
                fail_msg("%s (step %zu, %s): status %d: %s", seq[k].kernel, k,
                         pin ? "malloc" : "pinned", (int)st, r.log ? r.log : "");
            if (seq[k].want == CUTUNE_STATUS_WRONG_RESULT)
                assert_non_null(strstr(r.log, "500 NaN/unwritten"));
            else
                assert_true(metric_of(&r, "rel_err") == 0);
            cutune_eval_result_clear(&r);
        }
        assert_int_equal(log_count(f, "launch ref_add"), 1);
        assert_int_equal(log_count(f, "hostalloc"), pin ? 0 : 3);
    }
}

/* Outputs are compared bytewise by chunks, then element by element where they differ:
 * a difference anywhere is found and named, and a NaN in the reference still fails even
 * where the output has the same bytes. */
static void test_verify_chunks(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    set_n(f, 10000); /* over two chunks */
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "rel_err") == 0 && metric_of(&r, "max_abs_err") == 0);
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add_late", &r), CUTUNE_STATUS_WRONG_RESULT);
    assert_non_null(strstr(r.log, "first bad element 9999"));
    assert_true(metric_of(&r, "max_abs_err") > 0.9 && metric_of(&r, "max_abs_err") < 1.1);
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add_wrong", &r), CUTUNE_STATUS_WRONG_RESULT);
    assert_non_null(strstr(r.log, "first bad element 7"));
    cutune_eval_result_clear(&r);

    cutune_cuda_session_stop(&f->s);
    snprintf(f->su.ref_name, sizeof f->su.ref_name, "ref_nan");
    setup_again(f);
    assert_int_equal(run(f, "add_nan", &r), CUTUNE_STATUS_WRONG_RESULT);
    assert_non_null(strstr(r.log, "1 NaN/unwritten; first bad element 5"));
    cutune_eval_result_clear(&r);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_WRONG_RESULT);
    assert_non_null(strstr(r.log, "first bad element 5"));
    cutune_eval_result_clear(&r);
}

/* The warm-up gives a kernel at least WARMUP_S (50 ms) of launches, but a long kernel no
 * more than that needs: 3 launches of 5 ms and 7 more, where a batch of 10 was 13. */
/* A tensormap argument: encoded over its buffer's allocation with row-major strides and
 * passed by value, 64-byte aligned (add_tmap checks); dims past the buffer and a failing
 * encoder are launch errors naming the map. */
static void test_tensormap(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    f->su.nargs = 5;
    snprintf(f->su.args[4].name, sizeof f->su.args[4].name, "tm");
    f->su.args[4].kind = CUTUNE_ARG_TENSORMAP;
    f->su.args[4].type = CUTUNE_ELEM_FLOAT;
    f->su.args[4].tensor = 1;
    f->su.args[4].trank = 2;
    setup_again(f);
    f->l.nargs = 5;
    f->l.tdim[4][0] = 250;
    f->l.tdim[4][1] = 4;
    f->l.tbox[4][0] = 8;
    f->l.tbox[4][1] = 2;
    assert_int_equal(run(f, "add_tmap", &r), CUTUNE_STATUS_OK);
    cutune_eval_result_clear(&r);
    f->l.tbox[4][1] = 3; /* not what add_tmap expects: a wrong result, so the check bites */
    assert_int_equal(run(f, "add_tmap", &r), CUTUNE_STATUS_WRONG_RESULT);
    cutune_eval_result_clear(&r);
    f->l.tbox[4][1] = 2;
    f->l.tdim[4][1] = 5; /* 1250 elements of a 1000-element buffer */
    assert_int_equal(run(f, "add_tmap", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(r.log);
    assert_non_null(strstr(r.log, "tensormap 'tm': 1250 elements, buffer 'a' holds 1000"));
    cutune_eval_result_clear(&r);
    f->l.tdim[4][1] = 4;
    setenv("MOCK_CUDA_NOTMAP", "1", 1);
    cutune_cuda_session_free(&f->s); /* a new worker sees the variable */
    cutune_cuda_session_init(&f->s, NULL);
    f->s.kernel_timeout_s = 0.3;
    f->s.setup_timeout_s = 10;
    setup_again(f);
    assert_int_equal(run(f, "add_tmap", &r), CUTUNE_STATUS_LAUNCH_ERROR);
    assert_non_null(strstr(r.log, "cuTensorMapEncodeTiled"));
    cutune_eval_result_clear(&r);
    unsetenv("MOCK_CUDA_NOTMAP");
}

static void test_warmup_bounded(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    f->su.warmup = 3;
    setup_again(f);
    assert_int_equal(run(f, "slow", &r), CUTUNE_STATUS_OK);
    size_t reps = r.ntimes, launches = log_count(f, "launch slow");
    assert_true(metric_of(&r, "worker_warmup_ms") >= 50);
    cutune_eval_result_clear(&r);
    assert_true(reps >= 10 && reps < launches);
    size_t warm = launches - 1 - reps;
    if (warm < 4 || warm > 11)
        fail_msg("%zu warm-up launches", warm);
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
        cmocka_unit_test_setup_teardown(test_device_ordinal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_driver, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_worker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_protocol, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cached, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scratch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_isolation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify_chunks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warmup_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tensormap, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
