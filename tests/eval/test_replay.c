/* Tests of the replay evaluator: answers only from the recording, MISSING for
 * what it lacks, costs and repetitions copied, errors named. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "../io/io_test_util.h"

static const char CACHE[] =
    "{\"device_name\": \"Test GPU\", \"kernel_name\": \"k\",\n"
    " \"tune_params_keys\": [\"bx\", \"mode\"],\n"
    " \"tune_params\": {\"bx\": [16, 32, 64], \"mode\": [\"a\", \"b\"]},\n"
    " \"cache\": {\n"
    "  \"16,a\": {\"bx\": 16, \"mode\": \"a\", \"time\": 1.5, \"times\": [1.4, 1.6], "
    "\"compile_time\": 100.0, \"verification_time\": 2.0, \"benchmark_time\": 10.0},\n"
    "  \"16,b\": {\"bx\": 16, \"mode\": \"b\", \"time\": \"CompilationFailedConfig\", "
    "\"compile_time\": 50.0},\n"
    "  \"32,b\": {\"bx\": 32, \"mode\": \"b\", \"time\": \"InvalidConfig\"},\n"
    "  \"64,a\": {\"bx\": 64, \"mode\": \"a\", \"time\": 0.75}\n"
    " }}\n";

typedef struct fixture {
    char *dir;
    char path[4096];
    cutune_recording *rec;
    cutune_space *space; /* the full product: 6 configurations, 4 recorded */
} fixture;

static int setup(void **state)
{
    char err[512];
    fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->dir = make_tmpdir()))
        return -1;
    path_in(f->path, sizeof f->path, f->dir, "cache.json");
    if (write_text(f->path, CACHE) < 0 ||
        cutune_recording_load(f->path, &f->rec, err, sizeof err) < 0 ||
        cutune_recording_space(f->rec, NULL, 0, 0, &f->space, err, sizeof err) < 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cutune_space_free(f->space);
    cutune_recording_free(f->rec);
    rm_tree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static void test_answers(void **state)
{
    fixture *f = *state;
    char err[512] = "", expect[4200];
    cutune_evaluator *ev = NULL;
    cutune_evaluator_ctx ctx = {.space = f->space, .arg = f->path};
    const cutune_evaluator_type *t = cutune_evaluator_find("replay", err, sizeof err);
    assert_ptr_equal(t, cutune_evaluator_replay);
    assert_false(t->flags & CUTUNE_EVALUATOR_NEEDS_GPU);
    assert_int_equal(cutune_evaluator_alloc(t, &ctx, &ev, err, sizeof err), 0);
    snprintf(expect, sizeof expect, "replay of %s (Test GPU)", f->path);
    assert_string_equal(cutune_evaluator_device(ev), expect);

    size_t ids[6] = {0, 1, 2, 3, 4, 5};
    cutune_eval_result res[6];
    memset(res, 0, sizeof res);
    assert_int_equal(cutune_evaluator_evaluate(ev, ids, 6, res, err, sizeof err), 0);
    /* ids: (16,a) (16,b) (32,a) (32,b) (64,a) (64,b) */
    assert_int_equal(res[0].status, CUTUNE_STATUS_OK);
    assert_true(res[0].time_ms == 1.5);
    assert_int_equal(res[0].ntimes, 2);
    assert_true(res[0].times_ms[1] == 1.6);
    assert_true(res[0].compile_ms == 100.0);
    assert_true(res[0].bench_ms == 12.0);
    assert_null(res[0].log);
    assert_int_equal(res[1].status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_true(isnan(res[1].time_ms));
    assert_true(res[1].compile_ms == 50.0);
    assert_true(res[1].bench_ms < 0);
    assert_int_equal(res[3].status, CUTUNE_STATUS_LAUNCH_ERROR);
    assert_int_equal(res[4].status, CUTUNE_STATUS_OK);
    assert_true(res[4].time_ms == 0.75);
    assert_int_equal(res[4].ntimes, 0);
    assert_null(res[4].times_ms);
    assert_true(res[4].compile_ms < 0);
    snprintf(expect, sizeof expect, "not in recording %s", f->path);
    for (size_t i = 2; i < 6; i += 3) {
        assert_int_equal(res[i].status, CUTUNE_STATUS_MISSING);
        assert_true(isnan(res[i].time_ms));
        assert_string_equal(res[i].log, expect);
        assert_int_equal(res[i].ntimes, 0);
    }
    /* repeated questions get the same answers; the copies are the caller's */
    cutune_eval_result again;
    memset(&again, 0, sizeof again);
    assert_int_equal(cutune_evaluator_evaluate(ev, ids, 1, &again, err, sizeof err), 0);
    assert_true(again.times_ms != res[0].times_ms);
    assert_memory_equal(again.times_ms, res[0].times_ms, 2 * sizeof(double));
    cutune_eval_result_clear(&again);
    for (size_t i = 0; i < 6; i++)
        cutune_eval_result_clear(&res[i]);

    size_t bad = 6;
    memset(res, 0, sizeof res);
    assert_int_equal(cutune_evaluator_evaluate(ev, &bad, 1, res, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "configuration 6 outside the space"));
    cutune_evaluator_free(ev);
}

static void test_recorded_only_space(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_space *s = NULL;
    cutune_evaluator *ev = NULL;
    assert_int_equal(cutune_recording_space(f->rec, NULL, 0, 1, &s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 4);
    cutune_evaluator_ctx ctx = {.space = s, .arg = f->path};
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     0);
    size_t ids[4] = {0, 1, 2, 3};
    cutune_eval_result res[4];
    memset(res, 0, sizeof res);
    assert_int_equal(cutune_evaluator_evaluate(ev, ids, 4, res, err, sizeof err), 0);
    for (size_t i = 0; i < 4; i++) {
        assert_int_not_equal(res[i].status, CUTUNE_STATUS_MISSING);
        cutune_eval_result_clear(&res[i]);
    }
    cutune_evaluator_free(ev);
    cutune_space_free(s);
}

static void test_spec_recording(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_evaluator *ev = NULL;
    cutune_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.recording = f->path;
    cutune_evaluator_ctx ctx = {.space = f->space, .spec = &spec};
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     0);
    cutune_evaluator_free(ev);

    spec.recording = NULL;
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_null(ev);
    assert_non_null(strstr(err, "replay:FILE"));
    ctx.spec = NULL;
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     CUTUNE_EINVAL);
}

static void test_errors(void **state)
{
    fixture *f = *state;
    char err[512] = "", path[4200];
    cutune_evaluator *ev = NULL;
    path_in(path, sizeof path, f->dir, "absent.json");
    cutune_evaluator_ctx ctx = {.space = f->space, .arg = path};
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     CUTUNE_EIO);
    assert_non_null(strstr(err, "absent.json"));

    path_in(path, sizeof path, f->dir, "bad.json");
    write_text(path, "{\"tune_params_keys\": [\"bx\"]}");
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_non_null(strstr(err, "bad.json: tune_params: missing"));

    /* a space whose parameter the recording lacks */
    cutune_space *s = cutune_space_alloc();
    cutune_value v[] = {{.type = CUTUNE_VALUE_INT, .i = 1}, {.type = CUTUNE_VALUE_INT, .i = 2}};
    assert_int_equal(cutune_space_add_param(s, "other", v, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    ctx.space = s;
    ctx.arg = f->path;
    assert_int_equal(cutune_evaluator_alloc(cutune_evaluator_replay, &ctx, &ev, err, sizeof err),
                     CUTUNE_EMISMATCH);
    assert_non_null(strstr(err, "'other' is not in the recording"));
    cutune_space_free(s);
}

/* A metric is held under its whole name or not at all: a name of 32 bytes or more is
 * refused, never cut to 31 (where a cut one could pass for another metric). */
static void test_metric_names(void **state)
{
    (void)state;
    cutune_eval_result r = {0};
    char name[40];
    memset(name, 'm', 31);
    name[31] = '\0';
    assert_int_equal(cutune_eval_result_add_metric(&r, name, 1.0), 0);
    assert_string_equal(r.metrics[0].name, name);
    name[31] = 'x';
    name[32] = '\0';
    assert_int_equal(cutune_eval_result_add_metric(&r, name, 2.0), CUTUNE_EINVAL);
    assert_int_equal(cutune_eval_result_add_metric(&r, NULL, 2.0), CUTUNE_EINVAL);
    assert_int_equal(r.nmetrics, 1);
    cutune_eval_result_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recorded_only_space, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spec_recording, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test(test_metric_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
