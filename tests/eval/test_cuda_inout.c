/* Buffers marked inout (spec "inout": true; argdesc output 2) with the driver mocked
 * (test_cuda_mockdrv.c): an accumulating kernel (c += a) starts from the same contents at
 * every launch, the reference's, the verification's, the warm-up's and each timed
 * repetition's, so it verifies and every launch logs the same c[0]; a plain output is
 * poisoned, never uploaded. This binary is its own worker. */
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
    char log[256]; /**< MOCK_CUDA_LOG */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cutune_cuda_setup su = {0};
    unsetenv("MOCK_CUDA");
    unsetenv("CUTUNE_WORKER");
    cutune_cuda_session_init(&f->s, NULL);
    snprintf(f->log, sizeof f->log, "%s/cutune-test-inout-%d.log",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    unlink(f->log);
    setenv("MOCK_CUDA_LOG", f->log, 1);
    f->s.kernel_timeout_s = 1;
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
    su.args[0].output = 2; /* c: inout, random initial contents */
    su.args[0].init = CUTUNE_INIT_RANDOM;
    su.ref_kind = CUTUNE_REF_KERNEL;
    snprintf(su.ref_name, sizeof su.ref_name, "ref_acc");
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
    unlink(f->log);
    free(f);
    unsetenv("MOCK_CUDA_LOG");
    unsetenv("MOCK_NVML");
    unsetenv("MOCK_NVML_POWER");
    unsetenv("MOCK_NVML_REASONS");
    unsetenv("MOCK_NVML_REASONS_CALLS");
    return 0;
}

/* The log's lines that start with word: their count, and whether the rest of each is
 * the same text (into first). */
static size_t log_lines(const fixture *f, const char *word, int *all_same, char *first, size_t len)
{
    FILE *fp = fopen(f->log, "r");
    char line[256];
    size_t n = 0, wl = strlen(word);
    *all_same = 1;
    first[0] = '\0';
    if (!fp)
        return 0;
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, word, wl) || line[wl] != ' ')
            continue;
        if (n++ == 0)
            snprintf(first, len, "%s", line + wl + 1);
        else if (strcmp(first, line + wl + 1))
            *all_same = 0;
    }
    fclose(fp);
    return n;
}

static cutune_status run(fixture *f, const char *kernel, cutune_eval_result *r)
{
    char err[256] = "";
    memset(r, 0, sizeof *r);
    f->l.kernel = kernel;
    if (cutune_cuda_session_eval(&f->s, &f->l, kernel, r, err, sizeof err) < 0)
        fail_msg("session_eval: %s", err);
    return r->status;
}

static void test_inout_restored(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    assert_int_equal(run(f, "acc", &r), CUTUNE_STATUS_OK);
    int same;
    char c0[64];
    /* the reference, the verification, 2 warm-ups and the timed repetitions at least */
    size_t n = log_lines(f, "acc", &same, c0, sizeof c0);
    assert_true(n >= 1 + 1 + 2 + r.ntimes);
    assert_true(same); /* every launch started from the same c[0] */
    assert_true(strtod(c0, NULL) != 0.0 && !isnan(strtod(c0, NULL)));
    /* c (N floats, as a and b) uploaded before each of them: one htod per launch at least */
    size_t htod = log_lines(f, "htod", &same, c0, sizeof c0);
    assert_true(htod >= n);
    cutune_eval_result_clear(&r);
}

/* Without inout, c is an output: poisoned (NaN) before the reference and the
 * verification, never restored from its contents, so an in-place kernel reads the poison
 * and the evaluation is not ok. */
static void test_plain_output(void **state)
{
    fixture *f = *state;
    f->su.args[0].output = 1;
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &f->su), 0);
    cutune_eval_result r;
    cutune_status st = run(f, "acc", &r);
    cutune_eval_result_clear(&r);
    assert_int_not_equal(st, CUTUNE_STATUS_OK);
    int same;
    char c0[64];
    assert_true(log_lines(f, "acc", &same, c0, sizeof c0) >= 1);
    assert_true(isnan(strtod(c0, NULL)));
}

/* The value of metric name, or NAN when the result has none. */
static double metric_of(const cutune_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name))
            return r->metrics[i].value;
    return NAN;
}

static void energy_setup(fixture *f, int init)
{
    f->su.args[0].init = (uint8_t)init;
    f->su.energy_window_s = 0.005;
    f->su.energy_batch = 1;
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &f->su), 0);
}

/* An inout buffer restored from host memory (a synchronous copy before every launch)
 * cannot be launched back to back: its energy window is the one around the timed
 * repetitions, and every launch in it still starts from the same contents. */
static void test_inout_host_window(void **state)
{
    fixture *f = *state;
    energy_setup(f, CUTUNE_INIT_RANDOM);
    cutune_eval_result r;
    assert_int_equal(run(f, "acc", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "energy_batched") == 0);
    int same;
    char c0[64];
    size_t n = log_lines(f, "acc", &same, c0, sizeof c0);
    assert_true(n >= 1 + 1 + 2 + metric_of(&r, "energy_launches"));
    assert_true(same);
    cutune_eval_result_clear(&r);
}

/* Restored by a device memset (zeros): the restore is enqueued with each launch, the
 * window is back to back, and every launch in it starts from zeros. */
static void test_inout_zeros_batched(void **state)
{
    fixture *f = *state;
    energy_setup(f, CUTUNE_INIT_ZEROS);
    cutune_eval_result r;
    assert_int_equal(run(f, "acc", &r), CUTUNE_STATUS_OK);
    assert_true(metric_of(&r, "energy_batched") == 1);
    int same;
    char c0[64];
    size_t n = log_lines(f, "acc", &same, c0, sizeof c0);
    /* the reference, the verification, 2 warm-ups, the repetitions and the window */
    assert_true(n >= 1 + 1 + 2 + r.ntimes + metric_of(&r, "energy_launches"));
    assert_true(same);
    assert_true(strtod(c0, NULL) == 0.0);
    cutune_eval_result_clear(&r);
}

int main(int argc, char **argv)
{
    mock_worker_maybe(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inout_restored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plain_output, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inout_host_window, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inout_zeros_batched, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
