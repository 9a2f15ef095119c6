/* "init": "kernel:NAME" in the CUDA evaluator's worker, with the driver mocked
 * (test_cuda_mockdrv.c): the generator kernel of the sizes-only module is
 * launched once per allocation of its buffer (grid ceil(n / 256), block 256)
 * with (buffer, n, seed of the run and the argument), before the reference and
 * the tuned kernel, and every configuration sees the generated contents; a
 * generator missing from the module is a clear error naming args[i].init.
 * This binary is its own worker: the session execs /proc/self/exe worker --fd 3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_cuda_mockdrv.c"

#define SEED 42

typedef struct fixture {
    cutune_cuda_session s;
    cutune_cuda_launch l;
    char log[256]; /* MOCK_CUDA_GEN_LOG */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    unsetenv("MOCK_CUDA");
    unsetenv("CUTUNE_WORKER");
    cutune_cuda_session_init(&f->s, NULL);
    f->s.kernel_timeout_s = 0.3;
    f->s.setup_timeout_s = 10;
    snprintf(f->log, sizeof f->log, "%s/cutune-test-init-%d.log",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    unlink(f->log);
    setenv("MOCK_CUDA_GEN_LOG", f->log, 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cutune_cuda_session_free(&f->s);
    unlink(f->log);
    unsetenv("MOCK_CUDA_GEN_LOG");
    free(f);
    return 0;
}

/* c = a + b over n elements; a and b filled by generators gen_a and gen_b (or
 * gen_b_name), the sizes-only module sent when cubin is not NULL. */
static void make_setup(fixture *f, int ref_kind, const char *cubin, const char *gen_b_name,
                       uint64_t n)
{
    cutune_cuda_setup su = {0};
    su.seed = SEED;
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
        su.args[i].init = i == 0 ? CUTUNE_INIT_ZEROS : CUTUNE_INIT_KERNEL;
    }
    snprintf(su.args[1].init_name, sizeof su.args[1].init_name, "gen_a");
    snprintf(su.args[2].init_name, sizeof su.args[2].init_name, "%s", gen_b_name);
    su.ref_kind = ref_kind;
    if (ref_kind == CUTUNE_REF_KERNEL)
        snprintf(su.ref_name, sizeof su.ref_name, "ref_add");
    su.ref_cubin = cubin;
    su.ref_cubin_size = cubin ? strlen(cubin) + 1 : 0;
    su.rtol = 1e-6;
    su.atol = 1e-5;
    f->s.setup.len = 0;
    assert_int_equal(cutune_cuda_encode_setup(&f->s.setup, &su), 0);

    cutune_cuda_launch *l = &f->l;
    memset(l, 0, sizeof *l);
    l->cubin = "MOCK";
    l->cubin_size = 5;
    l->block[0] = l->ref_block[0] = 256;
    for (int i = 1; i < 3; i++)
        l->grid[i] = l->block[i] = l->ref_grid[i] = l->ref_block[i] = 1;
    l->nargs = 4;
    l->count[0] = l->count[1] = l->count[2] = n;
    l->grid[0] = l->ref_grid[0] = (int64_t)((n + 255) / 256);
    int32_t n32 = (int32_t)n;
    memcpy(&l->bits[3], &n32, 4);
}

static void set_size(fixture *f, uint64_t n)
{
    f->l.count[0] = f->l.count[1] = f->l.count[2] = n;
    f->l.grid[0] = f->l.ref_grid[0] = (int64_t)((n + 255) / 256);
    int32_t n32 = (int32_t)n;
    memcpy(&f->l.bits[3], &n32, 4);
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

static cutune_status run_clear(fixture *f, const char *kernel)
{
    cutune_eval_result r;
    cutune_status st = run(f, kernel, &r);
    if (st != CUTUNE_STATUS_OK)
        print_message("%s: status %d: %s\n", kernel, (int)st, r.log ? r.log : "");
    cutune_eval_result_clear(&r);
    return st;
}

typedef struct gen_launch {
    char name[64];
    unsigned grid[3], block[3], smem;
    unsigned long long n;
    unsigned seed;
} gen_launch;

/* The generator launches logged by the mock so far (at most max). */
static size_t read_log(const fixture *f, gen_launch *out, size_t max)
{
    FILE *fp = fopen(f->log, "r");
    size_t k = 0;
    if (!fp)
        return 0;
    gen_launch g;
    while (k < max &&
           fscanf(fp, "%63s %u %u %u %u %u %u %u %llu %u", g.name, &g.grid[0], &g.grid[1],
                  &g.grid[2], &g.block[0], &g.block[1], &g.block[2], &g.smem, &g.n, &g.seed) == 10)
        out[k++] = g;
    fclose(fp);
    return k;
}

static void check_launch(const gen_launch *g, const char *name, unsigned long long n, uint32_t idx)
{
    assert_string_equal(g->name, name);
    assert_int_equal(g->grid[0], (n + 255) / 256);
    assert_int_equal(g->grid[1], 1);
    assert_int_equal(g->grid[2], 1);
    assert_int_equal(g->block[0], 256);
    assert_int_equal(g->block[1], 1);
    assert_int_equal(g->block[2], 1);
    assert_int_equal(g->smem, 0);
    assert_int_equal(g->n, n);
    assert_int_equal(g->seed, cutune_cuda_init_seed(SEED, idx));
}

static void test_seed(void **state)
{
    (void)state;
    /* a function of the run's seed and the argument index only */
    assert_int_equal(cutune_cuda_init_seed(SEED, 1), cutune_cuda_init_seed(SEED, 1));
    assert_int_not_equal(cutune_cuda_init_seed(SEED, 1), cutune_cuda_init_seed(SEED, 2));
    assert_int_not_equal(cutune_cuda_init_seed(SEED, 1), cutune_cuda_init_seed(SEED + 1, 1));
    assert_int_not_equal(cutune_cuda_init_seed(0, 0), cutune_cuda_init_seed(0, 1));
}

static void test_launched_once_per_buffer(void **state)
{
    fixture *f = *state;
    gen_launch g[16];
    make_setup(f, CUTUNE_REF_KERNEL, "MOCK", "gen_b", 1000);
    /* add_gen checks that a and b hold the generated values (the reference
     * ran on them too: an OK status means both agree) */
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(read_log(f, g, 16), 2);
    check_launch(&g[0], "gen_a", 1000, 1);
    check_launch(&g[1], "gen_b", 1000, 2);
    int pid = f->s.pid;

    /* more configurations, same sizes: the buffers stay, nothing is regenerated,
     * and every configuration sees the generated contents */
    assert_int_equal(run_clear(f, "add"), CUTUNE_STATUS_OK);
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(run_clear(f, "add_wrong"), CUTUNE_STATUS_WRONG_RESULT);
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(f->s.pid, pid);
    assert_int_equal(read_log(f, g, 16), 2);

    /* a new element count reallocates: generated again, over the new n */
    set_size(f, 1500);
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(read_log(f, g, 16), 4);
    check_launch(&g[2], "gen_a", 1500, 1);
    check_launch(&g[3], "gen_b", 1500, 2);

    /* a fault restarts the worker: its buffers are new, generated again, same seeds */
    assert_int_equal(run_clear(f, "fault"), CUTUNE_STATUS_RUNTIME_ERROR);
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(read_log(f, g, 16), 6);
    check_launch(&g[4], "gen_a", 1500, 1);
    check_launch(&g[5], "gen_b", 1500, 2);
}

static void test_without_reference(void **state)
{
    fixture *f = *state;
    gen_launch g[4];
    /* no reference kernel: the sizes-only module is sent for the generators alone */
    make_setup(f, CUTUNE_REF_NONE, "MOCK", "gen_b", 300);
    assert_int_equal(run_clear(f, "add_gen"), CUTUNE_STATUS_OK);
    assert_int_equal(read_log(f, g, 4), 2);
    check_launch(&g[0], "gen_a", 300, 1);
    check_launch(&g[1], "gen_b", 300, 2);
}

static void test_missing_generator(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    gen_launch g[4];
    make_setup(f, CUTUNE_REF_KERNEL, "MOCK", "missing", 1000);
    int pid = 0;
    for (int k = 0; k < 2; k++) { /* not fatal, and not forgotten: the same error again */
        assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_RUNTIME_ERROR);
        assert_non_null(r.log);
        assert_non_null(strstr(r.log, "args[2].init"));
        assert_non_null(strstr(r.log, "generator kernel 'missing'"));
        assert_non_null(strstr(r.log, "not found in the sizes-only module"));
        assert_int_equal(r.ntimes, 0);
        cutune_eval_result_clear(&r);
        assert_true(f->s.pid > 0);
        if (k)
            assert_int_equal(f->s.pid, pid); /* the same worker */
        pid = f->s.pid;
    }
    /* gen_a ran once (its buffer stays); b is never used ungenerated */
    assert_int_equal(read_log(f, g, 4), 1);
    check_launch(&g[0], "gen_a", 1000, 1);
}

static void test_no_sizes_module(void **state)
{
    fixture *f = *state;
    cutune_eval_result r;
    make_setup(f, CUTUNE_REF_NONE, NULL, "gen_b", 1000);
    assert_int_equal(run(f, "add", &r), CUTUNE_STATUS_RUNTIME_ERROR);
    assert_non_null(strstr(r.log, "args[1].init"));
    assert_non_null(strstr(r.log, "no sizes-only module"));
    cutune_eval_result_clear(&r);
}

int main(int argc, char **argv)
{
    mock_worker_maybe(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed),
        cmocka_unit_test_setup_teardown(test_launched_once_per_buffer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_without_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_generator, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_sizes_module, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
