/* Tests of the journal writer: line format, escaping, fsync'd lines read back
 * by the recording loader, and resume after a crash mid-write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "cutune/cutune.h"
#include "io_test_space.h"
#include "io_test_util.h"

typedef struct fixture {
    char *dir;
    char path[4096];
    cutune_space *space;
    cutune_spec spec;
    cutune_history hist;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->dir = make_tmpdir()) || !(f->space = make_space())) {
        if (f)
            free(f->dir);
        free(f);
        return -1;
    }
    make_spec(&f->spec);
    make_history(&f->hist);
    path_in(f->path, sizeof f->path, f->dir, "run.jsonl");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    drop_history(&f->hist);
    cutune_space_free(f->space);
    rm_tree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static const cutune_journal_header HEADER = {
    .spec_name = "tiny-gemm",
    .spec_hash = "0123456789abcdef",
    .searcher = "random",
    .searcher_args = NULL,
    .seed = 18446744073709551615UL,
    .evaluator = "replay",
    .evaluator_arg = "rec \"quoted\".json",
    .device = "GPU \\ X",
    .budget = 5,
};

static void write_journal(fixture *f, size_t n)
{
    char err[512] = "";
    cutune_journal *j = NULL;
    assert_int_equal(cutune_journal_create(f->path, &HEADER, f->space, &j, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(
            cutune_journal_write_eval(j, f->space, &f->spec, i, &f->hist.e[i], err, sizeof err), 0);
    cutune_journal_close(j);
}

/* Line k (0-based) of text, parsed. */
static cJSON *parse_line(const char *text, size_t k)
{
    const char *p = text;
    for (size_t i = 0; i < k; i++)
        p = strchr(p, '\n') + 1;
    const char *e = strchr(p, '\n');
    return cJSON_ParseWithLength(p, (size_t)(e - p));
}

static void test_lines(void **state)
{
    fixture *f = *state;
    write_journal(f, 5);
    size_t len = 0;
    char *text = read_text(f->path, &len);
    assert_non_null(text);
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    assert_int_equal(lines, 6);
    assert_int_equal(text[len - 1], '\n');
    /* reals keep their Python text; the seed stays exact past 2^53 */
    assert_non_null(strstr(text, "\"r\":[1.0,2.5]"));
    assert_non_null(strstr(text, "\"seed\":18446744073709551615"));

    cJSON *h = parse_line(text, 0);
    assert_non_null(h);
    assert_string_equal(cJSON_GetObjectItem(h, "kind")->valuestring, "header");
    assert_int_equal(cJSON_GetObjectItem(h, "format")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItem(h, "cutune")->valuestring, CUTUNE_VERSION);
    assert_string_equal(cJSON_GetObjectItem(h, "spec")->valuestring, "tiny-gemm");
    assert_string_equal(cJSON_GetObjectItem(h, "evaluator_arg")->valuestring,
                        "rec \"quoted\".json");
    assert_string_equal(cJSON_GetObjectItem(h, "device")->valuestring, "GPU \\ X");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(h, "searcher_args")));
    assert_int_equal(strlen(cJSON_GetObjectItem(h, "space_hash")->valuestring), 16);
    assert_int_equal(cJSON_GetObjectItem(h, "budget")->valueint, 5);
    assert_true(cJSON_IsString(cJSON_GetObjectItem(h, "started")));
    assert_null(cJSON_GetObjectItem(h, "gpu")); /* none given: none written */
    cJSON *params = cJSON_GetObjectItem(h, "params");
    assert_string_equal(params->child->string, "x");
    assert_string_equal(params->child->next->string, "r");
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(params, "s"), 1)->valuestring, "q");
    assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "restrictions"), 0)->valuestring,
                        "x * N > 0");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(h, "sizes"), "N")->valueint, 1024);
    cJSON_Delete(h);

    cJSON *e0 = parse_line(text, 1);
    assert_string_equal(cJSON_GetObjectItem(e0, "kind")->valuestring, "eval");
    assert_int_equal(cJSON_GetObjectItem(e0, "n")->valueint, 0);
    cJSON *cfg = cJSON_GetObjectItem(e0, "config");
    assert_int_equal(cJSON_GetObjectItem(cfg, "x")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItem(cfg, "s")->valuestring, "p");
    assert_string_equal(cJSON_GetObjectItem(e0, "status")->valuestring, "ok");
    assert_true(cJSON_GetObjectItem(e0, "time_ms")->valuedouble == 2.0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e0, "times_ms")), 3);
    cJSON *m = cJSON_GetObjectItem(e0, "metrics");
    assert_true(cJSON_GetObjectItem(m, "registers")->valuedouble == 32);
    assert_true(cJSON_GetObjectItem(m, "GFLOP/s")->valuedouble == 500);
    assert_null(cJSON_GetObjectItem(m, "nan_metric"));
    assert_true(cJSON_GetObjectItem(e0, "compile_ms")->valuedouble == 10);
    assert_true(cJSON_GetObjectItem(e0, "bench_ms")->valuedouble == 3);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(e0, "log")));
    assert_string_equal(cJSON_GetObjectItem(e0, "timestamp")->valuestring, "2024-01-02T03:04:05Z");
    assert_true(cJSON_GetObjectItem(e0, "elapsed_s")->valuedouble == 0);
    cJSON_Delete(e0);

    cJSON *e1 = parse_line(text, 2);
    assert_string_equal(cJSON_GetObjectItem(e1, "status")->valuestring, "compile_error");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(e1, "time_ms")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(e1, "bench_ms")));
    assert_string_equal(cJSON_GetObjectItem(e1, "log")->valuestring,
                        "error: \"bad\" token\n\tline 2");
    assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(e1, "metrics"), "GFLOP/s"));
    cJSON_Delete(e1);
    free(text);
}

static void test_read_back(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    write_journal(f, 5);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_string_equal(r->format, "cutune_journal");
    assert_string_equal(r->spec_name, "tiny-gemm");
    assert_string_equal(r->spec_hash, "0123456789abcdef");
    assert_string_equal(r->searcher, "random");
    assert_int_equal(r->budget, 5);
    assert_true(r->seed == HEADER.seed);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)cutune_space_hash(f->space));
    assert_string_equal(r->space_hash, hex);
    assert_false(r->truncated_tail);
    assert_int_equal(r->nrecords, 5);
    assert_int_equal(r->values[1][0].type, CUTUNE_VALUE_REAL);
    assert_string_equal(r->texts[1][0], "1.0");
    long map[12];
    assert_int_equal(cutune_recording_map(r, f->space, map, err, sizeof err), 0);
    for (size_t i = 0; i < 5; i++) {
        const cutune_history_entry *e = &f->hist.e[i];
        const cutune_record *rec = &r->records[map[e->id]];
        assert_int_equal(map[e->id], (long)i);
        assert_int_equal(rec->status, e->r.status);
        assert_int_equal(rec->ntimes, e->r.ntimes);
        if (e->r.status == CUTUNE_STATUS_OK) {
            assert_true(rec->time_ms == e->r.time_ms);
            assert_true(rec->bench_ms == 3.0);
        }
        assert_true(rec->compile_ms == e->r.compile_ms);
    }
    cutune_recording_free(r);
}

/* A live cuda run's header carries the database's GPU fingerprint ("gpu", after "device"),
 * read back as the recording's gpu; a header without one reads as NULL. */
static void test_gpu(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_journal_header h = HEADER;
    h.evaluator = "cuda";
    h.evaluator_arg = NULL;
    h.device = "NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0)";
    h.gpu = "NVIDIA H200|132 SMs|143771 MiB|driver 580.95.05|CUDA 13.0";
    cutune_journal *j = NULL;
    assert_int_equal(cutune_journal_create(f->path, &h, f->space, &j, err, sizeof err), 0);
    assert_int_equal(
        cutune_journal_write_eval(j, f->space, &f->spec, 0, &f->hist.e[0], err, sizeof err), 0);
    cutune_journal_close(j);
    size_t len = 0;
    char *text = read_text(f->path, &len);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"device\":\"NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0)\","
                                 "\"gpu\":\"NVIDIA H200|132 SMs|143771 MiB|driver 580.95.05|CUDA "
                                 "13.0\","));
    free(text);
    cutune_recording *r = NULL;
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_string_equal(r->gpu, h.gpu);
    assert_string_equal(r->device_name, h.device);
    cutune_recording_free(r);
    unlink(f->path);
    write_journal(f, 1);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_null(r->gpu);
    cutune_recording_free(r);
}

static void test_append_after_crash(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    cutune_journal *j = NULL;
    write_journal(f, 3);
    /* a crash mid-write leaves half a line */
    FILE *fp = fopen(f->path, "ab");
    fputs("{\"kind\":\"eval\",\"n\":3,\"config\":{\"x\":4", fp);
    fclose(fp);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_true(r->truncated_tail);
    assert_int_equal(r->nrecords, 3);
    cutune_recording_free(r);

    assert_int_equal(cutune_journal_append(f->path, &j, err, sizeof err), 0);
    assert_int_equal(
        cutune_journal_write_eval(j, f->space, &f->spec, 3, &f->hist.e[3], err, sizeof err), 0);
    assert_int_equal(
        cutune_journal_write_eval(j, f->space, NULL, 4, &f->hist.e[4], err, sizeof err), 0);
    cutune_journal_close(j);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_false(r->truncated_tail);
    assert_int_equal(r->nrecords, 5);
    assert_int_equal(r->records[3].status, CUTUNE_STATUS_LAUNCH_ERROR);
    assert_int_equal(r->records[4].status, CUTUNE_STATUS_RUNTIME_ERROR);
    cutune_recording_free(r);
    char *text = read_text(f->path, NULL);
    assert_null(strstr(text, "\"config\":{\"x\":4{"));
    free(text);

    /* appending to a whole journal keeps every line */
    assert_int_equal(cutune_journal_append(f->path, &j, err, sizeof err), 0);
    cutune_journal_close(j);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 5);
    cutune_recording_free(r);
}

static void test_errors(void **state)
{
    fixture *f = *state;
    char err[512] = "", path[4096];
    cutune_journal *j = (cutune_journal *)1;
    path_in(path, sizeof path, f->dir, "no/such/dir.jsonl");
    assert_int_equal(cutune_journal_create(path, &HEADER, f->space, &j, err, sizeof err),
                     CUTUNE_EIO);
    assert_null(j);
    assert_non_null(strstr(err, "dir.jsonl: cannot create"));
    path_in(path, sizeof path, f->dir, "absent.jsonl");
    assert_int_equal(cutune_journal_append(path, &j, err, sizeof err), CUTUNE_EIO);
    path_in(path, sizeof path, f->dir, "notjournal.json");
    write_text(path, "{\"tune_params_keys\":[]}\n");
    assert_int_equal(cutune_journal_append(path, &j, err, sizeof err), CUTUNE_EPARSE);
    assert_non_null(strstr(err, "notjournal.json:1: not a cutune journal header"));
    write_text(path, "");
    assert_int_equal(cutune_journal_append(path, &j, err, sizeof err), CUTUNE_EPARSE);
    /* a gzip-compressed journal: named as such, never appended to */
    path_in(path, sizeof path, f->dir, "zipped.jsonl.gz");
    write_text(path, "\x1f\x8b\x08 rest of a gzip stream\n");
    assert_true(cutune_journal_is_compressed(path));
    assert_false(cutune_journal_is_compressed(f->path));
    assert_int_equal(cutune_journal_append(path, &j, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "zipped.jsonl.gz: a gzip-compressed journal cannot be appended"));

    assert_int_equal(cutune_journal_create(f->path, &HEADER, f->space, &j, err, sizeof err), 0);
    cutune_history_entry bad = f->hist.e[0];
    bad.id = 12;
    assert_int_equal(cutune_journal_write_eval(j, f->space, NULL, 0, &bad, err, sizeof err),
                     CUTUNE_EINVAL);
    cutune_journal_close(j);
    cutune_journal_close(NULL);

    /* an existing journal is never truncated by a new one */
    path_in(path, sizeof path, f->dir, "kept.jsonl");
    write_text(path, "{\"kind\":\"header\"}\n");
    j = (cutune_journal *)1;
    assert_int_equal(cutune_journal_create(path, &HEADER, f->space, &j, err, sizeof err),
                     CUTUNE_EBUSY);
    assert_null(j);
    assert_non_null(strstr(err, "kept.jsonl: a journal exists there"));
    FILE *kf = fopen(path, "r");
    char line[64] = "";
    assert_non_null(kf);
    assert_non_null(fgets(line, sizeof line, kf));
    fclose(kf);
    assert_string_equal(line, "{\"kind\":\"header\"}\n");
}

/* Two runs on one journal: while one holds it (created or resumed), another's resume is
 * refused, naming the file, and nothing is written; once it is closed, it is free. */
static void test_one_writer(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_journal *first = NULL, *second = (cutune_journal *)1;
    assert_int_equal(cutune_journal_create(f->path, &HEADER, f->space, &first, err, sizeof err), 0);
    assert_int_equal(
        cutune_journal_write_eval(first, f->space, &f->spec, 0, &f->hist.e[0], err, sizeof err), 0);
    char *before = read_text(f->path, NULL);
    assert_int_equal(cutune_journal_check_free(f->path, err, sizeof err), CUTUNE_EBUSY);
    assert_int_equal(cutune_journal_append(f->path, &second, err, sizeof err), CUTUNE_EBUSY);
    assert_null(second);
    assert_non_null(strstr(err, "run.jsonl: in use: another cutune run is writing this journal"));
    assert_int_equal(cutune_journal_create(f->path, &HEADER, f->space, &second, err, sizeof err),
                     CUTUNE_EBUSY);
    char *after = read_text(f->path, NULL);
    assert_string_equal(before, after);
    free(after);
    /* the first writer goes on undisturbed */
    assert_int_equal(
        cutune_journal_write_eval(first, f->space, &f->spec, 1, &f->hist.e[1], err, sizeof err), 0);
    cutune_journal_close(first);
    assert_int_equal(cutune_journal_check_free(f->path, err, sizeof err), 0);
    /* a resumed journal is held the same way */
    assert_int_equal(cutune_journal_append(f->path, &first, err, sizeof err), 0);
    assert_int_equal(cutune_journal_append(f->path, &second, err, sizeof err), CUTUNE_EBUSY);
    cutune_journal_close(first);
    assert_int_equal(cutune_journal_append(f->path, &second, err, sizeof err), 0);
    cutune_journal_close(second);
    cutune_recording *r = NULL;
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 2);
    cutune_recording_free(r);
    free(before);
}

/* A link planted at the journal's path: neither a new run nor a resume writes through it. */
static void test_link_at_journal(void **state)
{
    fixture *f = *state;
    char err[512] = "", victim[4096];
    cutune_journal *j = NULL;
    path_in(victim, sizeof victim, f->dir, "victim.jsonl");
    write_journal(f, 1); /* a real journal as the victim: a resume would append to it */
    assert_int_equal(rename(f->path, victim), 0);
    char *before = read_text(victim, NULL);
    assert_int_equal(symlink(victim, f->path), 0);
    assert_int_equal(cutune_journal_create(f->path, &HEADER, f->space, &j, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "run.jsonl: is a symbolic link"));
    assert_int_equal(cutune_journal_append(f->path, &j, err, sizeof err), CUTUNE_EIO);
    assert_non_null(strstr(err, "run.jsonl: cannot open: is a symbolic link"));
    assert_null(j);
    char *after = read_text(victim, NULL);
    assert_string_equal(before, after);
    free(before);
    free(after);
    assert_int_equal(count_hidden(f->dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_append_after_crash, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_writer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_at_journal, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
