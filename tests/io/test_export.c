/* Tests of the exports: summary JSON, CSV, Kernel Tuner cache (read back by
 * the loader) and the C header; failures leave no file behind. */
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

static void test_summary(void **state)
{
    fixture *f = *state;
    char err[512] = "", tmp[4200];
    path_in(f->path, sizeof f->path, f->dir, "summary.json");
    assert_int_equal(
        cutune_export_summary(f->path, f->space, &f->spec, &f->hist, "budget", err, sizeof err), 0);
    snprintf(tmp, sizeof tmp, "%s.tmp", f->path);
    assert_false(file_exists(tmp));
    assert_int_equal(count_hidden(f->dir), 0); /* the temporary is gone */
    char *text = read_text(f->path, NULL);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    cJSON *best = cJSON_GetObjectItem(doc, "best");
    assert_true(cJSON_GetObjectItem(best, "time_ms")->valuedouble == 0.5);
    cJSON *cfg = cJSON_GetObjectItem(best, "config");
    assert_int_equal(cJSON_GetObjectItem(cfg, "x")->valueint, 2);
    assert_true(cJSON_GetObjectItem(cfg, "r")->valuedouble == 2.5);
    assert_string_equal(cJSON_GetObjectItem(cfg, "s")->valuestring, "q");
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(best, "metrics"), "GFLOP/s")->valuedouble ==
                2000);
    assert_int_equal(cJSON_GetObjectItem(doc, "evaluations")->valueint, 5);
    cJSON *counts = cJSON_GetObjectItem(doc, "counts");
    assert_int_equal(cJSON_GetObjectItem(counts, "ok")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(counts, "compile_error")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(counts, "missing")->valueint, 0);
    assert_string_equal(cJSON_GetObjectItem(doc, "stop_reason")->valuestring, "budget");
    cJSON_Delete(doc);
    free(text);

    /* no OK evaluation: best is null */
    f->hist.best = -1;
    assert_int_equal(
        cutune_export_summary(f->path, f->space, NULL, &f->hist, NULL, err, sizeof err), 0);
    text = read_text(f->path, NULL);
    doc = cJSON_Parse(text);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "best")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "stop_reason")));
    cJSON_Delete(doc);
    free(text);
}

static void test_csv(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    path_in(f->path, sizeof f->path, f->dir, "run.csv");
    assert_int_equal(cutune_export_csv(f->path, f->space, &f->spec, &f->hist, err, sizeof err), 0);
    char *text = read_text(f->path, NULL);
    const char *expect = "n,x,r,s,status,time_ms,registers,GFLOP/s,nan_metric\n"
                         "0,1,1.0,p,ok,2.0,32.0,500.0,\n"
                         "1,1,2.5,q,compile_error,,35.0,,\n"
                         "2,2,2.5,q,ok,0.5,39.0,2000.0,\n"
                         "3,4,1.0,q,launch_error,,41.0,,\n"
                         "4,4,2.5,q,runtime_error,,43.0,,\n";
    assert_string_equal(text, expect);
    free(text);
    /* fields with separators are quoted */
    snprintf(f->hist.e[0].r.metrics[0].name, sizeof f->hist.e[0].r.metrics[0].name, "a,\"b\"");
    assert_int_equal(cutune_export_csv(f->path, f->space, NULL, &f->hist, err, sizeof err), 0);
    text = read_text(f->path, NULL);
    assert_non_null(strstr(text, "time_ms,\"a,\"\"b\"\"\",registers\n"));
    free(text);
}

static void test_kt_cache_round_trip(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    path_in(f->path, sizeof f->path, f->dir, "cache.json");
    assert_int_equal(
        cutune_export_kt_cache(f->path, f->space, &f->spec, "Test GPU", &f->hist, err, sizeof err),
        0);
    char *text = read_text(f->path, NULL);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "kernel_name")->valuestring, "tiny_kernel");
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "problem_size"), 0)->valueint,
                     1024);
    cJSON *cache = cJSON_GetObjectItem(doc, "cache");
    assert_int_equal(cJSON_GetArraySize(cache), 5);
    cJSON *e = cJSON_GetObjectItem(cache, "1,2.5,q");
    assert_non_null(e);
    assert_string_equal(cJSON_GetObjectItem(e, "time")->valuestring, "CompilationFailedConfig");
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cache, "4,1.0,q"), "time")->valuestring,
        "InvalidConfig");
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cache, "4,2.5,q"), "time")->valuestring,
        "RuntimeFailedConfig");
    e = cJSON_GetObjectItem(cache, "1,1.0,p");
    assert_true(cJSON_GetObjectItem(e, "GFLOP/s")->valuedouble == 500);
    assert_true(cJSON_GetObjectItem(e, "benchmark_time")->valuedouble == 3);
    /* every field Kernel Tuner's simulation mode and T4 writer read, in every entry: 0
     * where cutune did not measure it (a failed evaluation's benchmark time) */
    for (cJSON *x = cache->child; x; x = x->next) {
        static const char *const timings[] = {"compile_time", "verification_time", "benchmark_time",
                                              "strategy_time", "framework_time"};
        for (size_t k = 0; k < 5; k++)
            assert_true(cJSON_IsNumber(cJSON_GetObjectItem(x, timings[k])));
        assert_string_equal(cJSON_GetObjectItem(x, "timestamp")->valuestring,
                            "2024-01-02T03:04:05Z");
        assert_non_null(cJSON_GetObjectItem(x, "time"));
    }
    e = cJSON_GetObjectItem(cache, "1,2.5,q");
    assert_true(cJSON_GetObjectItem(e, "compile_time")->valuedouble == 13);
    assert_true(cJSON_GetObjectItem(e, "benchmark_time")->valuedouble == 0);
    assert_null(cJSON_GetObjectItem(e, "times"));
    cJSON_Delete(doc);
    /* Kernel Tuner reopens a cache for appending by cutting the closing
     * "}\n}" and adding ",": what it then writes must still parse. */
    size_t tl = strlen(text);
    while (tl && text[tl - 1] == '\n')
        tl--;
    assert_true(tl > 3 && memcmp(text + tl - 3, "}\n}", 3) == 0);
    char *kt = malloc(tl + 64);
    memcpy(kt, text, tl - 3);
    strcpy(kt + tl - 3, ",\n\"9,9,9\": {\"time\": 1.0}}\n}");
    doc = cJSON_Parse(kt);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "cache")), 6);
    cJSON_Delete(doc);
    free(kt);
    free(text);

    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_string_equal(r->device_name, "Test GPU");
    assert_int_equal(r->nrecords, 5);
    assert_string_equal(r->texts[1][0], "1.0");
    long map[12];
    assert_int_equal(cutune_recording_map(r, f->space, map, err, sizeof err), 0);
    for (size_t i = 0; i < f->hist.n; i++) {
        const cutune_history_entry *h = &f->hist.e[i];
        assert_true(map[h->id] >= 0);
        const cutune_record *rec = &r->records[map[h->id]];
        assert_int_equal(rec->status, h->r.status);
        if (h->r.status == CUTUNE_STATUS_OK) {
            assert_true(rec->time_ms == h->r.time_ms);
            assert_int_equal(rec->ntimes, h->r.ntimes);
            assert_memory_equal(rec->times_ms, h->r.times_ms, rec->ntimes * sizeof(double));
            assert_true(rec->bench_ms == 3.0);
        }
        assert_true(rec->compile_ms == h->r.compile_ms);
    }
    cutune_recording_free(r);

    /* a configuration evaluated twice is written once, with its last result */
    cutune_history two = f->hist;
    cutune_history_entry e2[2] = {f->hist.e[0], f->hist.e[2]};
    e2[1].id = e2[0].id;
    two.e = e2;
    two.n = 2;
    two.best = 1;
    assert_int_equal(cutune_export_kt_cache(f->path, f->space, NULL, NULL, &two, err, sizeof err),
                     0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 1);
    assert_true(r->records[0].time_ms == 0.5);
    assert_string_equal(r->device_name, "unknown");
    cutune_recording_free(r);
}

/* A replay keeps its journal free of clocks: the export's own time stands in. */
static void test_kt_cache_timestamps(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    for (size_t i = 0; i < f->hist.n; i++)
        f->hist.e[i].timestamp[0] = '\0';
    f->hist.e[0].r.compile_ms = -1; /* unknown */
    path_in(f->path, sizeof f->path, f->dir, "cache.json");
    assert_int_equal(
        cutune_export_kt_cache(f->path, f->space, NULL, "Test GPU", &f->hist, err, sizeof err), 0);
    char *text = read_text(f->path, NULL);
    cJSON *doc = cJSON_Parse(text);
    cJSON *cache = cJSON_GetObjectItem(doc, "cache");
    for (cJSON *x = cache->child; x; x = x->next) {
        const char *ts = cJSON_GetObjectItem(x, "timestamp")->valuestring;
        assert_int_equal(strlen(ts), 20); /* YYYY-MM-DDTHH:MM:SSZ */
        assert_true(ts[4] == '-' && ts[10] == 'T' && ts[19] == 'Z');
    }
    assert_true(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cache, "1,1.0,p"), "compile_time")->valuedouble ==
        0);
    assert_null(cJSON_GetObjectItem(doc, "problem_size")); /* no spec: no problem size */
    cJSON_Delete(doc);
    free(text);
}

/* T4: one result per evaluation (a missing one was never tested), statuses mapped onto
 * invalidity and correctness, times and measurements. */
static void test_t4(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    path_in(f->path, sizeof f->path, f->dir, "run.t4.json");
    f->hist.e[4].r.status = CUTUNE_STATUS_WRONG_RESULT;
    cutune_history h = f->hist;
    cutune_history_entry e6[6];
    memcpy(e6, f->hist.e, 5 * sizeof *e6);
    e6[5] = f->hist.e[4];
    e6[5].r.status = CUTUNE_STATUS_MISSING;
    e6[5].timestamp[0] = '\0';
    h.e = e6;
    h.n = 6;
    assert_int_equal(cutune_export_t4(f->path, f->space, &f->spec, "Test GPU", &h, err, sizeof err),
                     0);
    assert_int_equal(count_hidden(f->dir), 0);
    char *text = read_text(f->path, NULL);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "schema_version")->valuestring, "1.0.0");
    cJSON *meta = cJSON_GetObjectItem(doc, "metadata");
    assert_string_equal(cJSON_GetObjectItem(meta, "device")->valuestring, "Test GPU");
    assert_string_equal(cJSON_GetObjectItem(meta, "timeunit")->valuestring, "milliseconds");
    cJSON *res = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(res), 5);
    static const char *const inv[] = {"correct", "compile", "correct", "constraints",
                                      "correctness"};
    for (int i = 0; i < 5; i++) {
        cJSON *r = cJSON_GetArrayItem(res, i);
        assert_string_equal(cJSON_GetObjectItem(r, "invalidity")->valuestring, inv[i]);
        assert_int_equal(cJSON_GetObjectItem(r, "correctness")->valueint, i == 4 ? 0 : 1);
        assert_string_equal(cJSON_GetObjectItem(r, "timestamp")->valuestring,
                            "2024-01-02T03:04:05Z");
        assert_string_equal(
            cJSON_GetArrayItem(cJSON_GetObjectItem(r, "objectives"), 0)->valuestring, "time");
        cJSON *t = cJSON_GetObjectItem(r, "times");
        assert_true(cJSON_GetObjectItem(t, "compilation_time")->valuedouble ==
                    f->hist.e[i].r.compile_ms);
        assert_true(cJSON_GetObjectItem(t, "benchmark")->valuedouble ==
                    (f->hist.e[i].r.bench_ms < 0 ? 0 : f->hist.e[i].r.bench_ms));
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(t, "runtimes")),
                         f->hist.e[i].r.ntimes);
        for (const char *const *k =
                 (const char *const[]){"framework", "search_algorithm", "validation", NULL};
             *k; k++)
            assert_true(cJSON_GetObjectItem(t, *k)->valuedouble == 0);
        cJSON *cfg = cJSON_GetObjectItem(r, "configuration");
        assert_int_equal(cJSON_GetArraySize(cfg), 3);
    }
    /* the best: its time, the evaluator's metric and the spec's, each with a unit */
    cJSON *ms = cJSON_GetObjectItem(cJSON_GetArrayItem(res, 2), "measurements");
    assert_int_equal(cJSON_GetArraySize(ms), 3);
    cJSON *m0 = cJSON_GetArrayItem(ms, 0);
    assert_string_equal(cJSON_GetObjectItem(m0, "name")->valuestring, "time");
    assert_true(cJSON_GetObjectItem(m0, "value")->valuedouble == 0.5);
    assert_string_equal(cJSON_GetObjectItem(m0, "unit")->valuestring, "ms");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ms, 1), "name")->valuestring,
                        "registers");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ms, 2), "name")->valuestring,
                        "GFLOP/s");
    /* a failure has no time */
    ms = cJSON_GetObjectItem(cJSON_GetArrayItem(res, 1), "measurements");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(ms, 0), "name")->valuestring,
                        "registers");
    cJSON_Delete(doc);
    free(text);
    /* a failure to write leaves nothing */
    path_in(f->path, sizeof f->path, f->dir, "no-dir/run.t4.json");
    assert_int_equal(cutune_export_t4(f->path, f->space, NULL, NULL, &f->hist, err, sizeof err),
                     CUTUNE_EIO);
}

static void test_header(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    path_in(f->path, sizeof f->path, f->dir, "tuned.h");
    assert_int_equal(
        cutune_export_header(f->path, f->space, &f->spec, "ignored", &f->hist, err, sizeof err), 0);
    char *text = read_text(f->path, NULL);
    assert_non_null(
        strstr(text, "#ifndef CUTUNE_TUNED_TINY_GEMM_H\n#define CUTUNE_TUNED_TINY_GEMM_H\n"));
    assert_non_null(strstr(text, "#define x 2\n#define r 2.5\n#define s q\n"));
    assert_non_null(strstr(text, "tiny-gemm"));
    assert_non_null(strstr(text, "0.5 ms"));
    assert_non_null(strstr(text, "#endif"));
    free(text);

    /* no spec: named after the given name (a recording's kernel_name) */
    path_in(f->path, sizeof f->path, f->dir, "named.h");
    assert_int_equal(
        cutune_export_header(f->path, f->space, NULL, "Xgemm", &f->hist, err, sizeof err), 0);
    text = read_text(f->path, NULL);
    assert_non_null(strstr(text, "#ifndef CUTUNE_TUNED_XGEMM_H\n"));
    assert_non_null(strstr(text, "Best configuration of Xgemm"));
    free(text);

    /* nothing succeeded: an error, and no file */
    path_in(f->path, sizeof f->path, f->dir, "none.h");
    f->hist.best = -1;
    assert_int_equal(
        cutune_export_header(f->path, f->space, &f->spec, "ignored", &f->hist, err, sizeof err),
        CUTUNE_EEMPTY);
    assert_false(file_exists(f->path));
}

/* A space of one parameter named pname whose values are vals, and a history whose best is
 * value k. */
static cutune_space *one_param_space(const char *pname, const char *const *vals, size_t n, size_t k,
                                     cutune_history *h)
{
    char err[256];
    cutune_value v[8];
    cutune_space *s = cutune_space_alloc();
    for (size_t i = 0; i < n; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_STRING, .s = vals[i]};
    if (!s || cutune_space_add_param(s, pname, v, n, err, sizeof err) < 0 ||
        cutune_space_enumerate(s, err, sizeof err) < 0) {
        cutune_space_free(s);
        return NULL;
    }
    memset(h, 0, sizeof *h);
    h->e = calloc(1, sizeof *h->e);
    h->n = h->cap = 1;
    set_entry(&h->e[0], k, CUTUNE_STATUS_OK, 1.0, 0, NULL);
    h->best = 0;
    h->counts[CUTUNE_STATUS_OK] = 1;
    return s;
}

/* A hostile recording's string values and names would put code in the header a build
 * includes: a quote and a newline starting an #include, a comment closed early. Each is
 * refused, naming the parameter or name, and no header is written; plain tokens pass. */
static void test_header_refuses_injection(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_history h;
    static const char *const hostile[] = {
        "float", "\"\n#include \"/etc/passwd\"\n", "1 */ int evil; /* 2", "a\\\nb", "x // y", "",
    };
    path_in(f->path, sizeof f->path, f->dir, "tuned.h");
    for (size_t k = 1; k < sizeof hostile / sizeof hostile[0]; k++) {
        cutune_space *s = one_param_space("T", hostile, sizeof hostile / sizeof hostile[0], k, &h);
        assert_non_null(s);
        int rc = cutune_export_header(f->path, s, NULL, "k", &h, err, sizeof err);
        if (rc != CUTUNE_EINVAL || !strstr(err, "tuned.h: T = \"") ||
            !strstr(err, "is not a C identifier or number") || strchr(err, '\n'))
            fail_msg("value %zu: rc %d, '%s'", k, rc, err);
        assert_false(file_exists(f->path));
        drop_history(&h);
        cutune_space_free(s);
    }
    assert_int_equal(count_hidden(f->dir), 0);

    /* names: a parameter's (the space takes identifiers only, so "defined", which no
     * #define may name), and the one the header is named after */
    static const char *const plain[] = {"float"};
    cutune_space *s = one_param_space("defined", plain, 1, 0, &h);
    assert_non_null(s);
    assert_int_equal(cutune_export_header(f->path, s, NULL, "k", &h, err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(
        strstr(err, "parameter name \"defined\" is not a C identifier a #define can take"));
    assert_int_equal(cutune_export_header_check(f->path, s, NULL, "k", err, sizeof err),
                     CUTUNE_EINVAL);
    drop_history(&h);
    cutune_space_free(s);
    /* identifiers that no header may #define: a C or C++ keyword (every later "int" would be
     * the value), a reserved name (__LINE__ redefined is an error); names near them pass */
    static const char *const reserved[] = {"int", "class", "restrict", "new", "__LINE__", "_Bool"};
    for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++) {
        s = one_param_space(reserved[k], plain, 1, 0, &h);
        assert_non_null(s);
        assert_int_equal(cutune_export_header(f->path, s, NULL, "k", &h, err, sizeof err),
                         CUTUNE_EINVAL);
        char want[64];
        snprintf(want, sizeof want, "parameter name \"%s\" is ", reserved[k]);
        if (!strstr(err, want) || !strstr(err, k < 4 ? "keyword" : "reserved"))
            fail_msg("%s: '%s'", reserved[k], err);
        assert_false(file_exists(f->path));
        drop_history(&h);
        cutune_space_free(s);
    }
    static const char *const near[] = {"integer", "inline_", "new_", "_x", "x__", "classes"};
    for (size_t k = 0; k < sizeof near / sizeof near[0]; k++) {
        s = one_param_space(near[k], plain, 1, 0, &h);
        assert_non_null(s);
        if (cutune_export_header_check(f->path, s, NULL, "k", err, sizeof err) != 0)
            fail_msg("%s refused: '%s'", near[k], err);
        drop_history(&h);
        cutune_space_free(s);
    }
    s = one_param_space("T", plain, 1, 0, &h);
    assert_int_equal(
        cutune_export_header(f->path, s, NULL, "k */\n#include <x>", &h, err, sizeof err),
        CUTUNE_EINVAL);
    assert_non_null(strstr(err, "the header's name \"k */\\n#include <x>\" is not a C identifier"));
    assert_false(file_exists(f->path));
    assert_int_equal(cutune_export_header_check(f->path, s, NULL, "my-kernel.v2", err, sizeof err),
                     0);
    drop_history(&h);
    cutune_space_free(s);

    /* what is provably tokens is written bare, as Kernel Tuner passes it */
    static const char *const tokens[] = {"unsigned int", "1.5f", "-2", "1e-05", "half2"};
    for (size_t k = 0; k < sizeof tokens / sizeof tokens[0]; k++) {
        char want[64];
        s = one_param_space("T", tokens, sizeof tokens / sizeof tokens[0], k, &h);
        assert_int_equal(cutune_export_header(f->path, s, NULL, "k", &h, err, sizeof err), 0);
        char *text = read_text(f->path, NULL);
        snprintf(want, sizeof want, "#define T %s\n", tokens[k]);
        assert_non_null(strstr(text, want));
        free(text);
        unlink(f->path);
        drop_history(&h);
        cutune_space_free(s);
    }
}

/* CSV fields that hold the separator, quotes or line breaks stay one field each. */
static void test_csv_quotes_hostile_values(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_history h;
    static const char *const vals[] = {"a,b", "say \"hi\"", "two\nlines", "=1+2"};
    path_in(f->path, sizeof f->path, f->dir, "out.csv");
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
        cutune_space *s = one_param_space("T", vals, sizeof vals / sizeof vals[0], k, &h);
        assert_int_equal(cutune_export_csv(f->path, s, NULL, &h, err, sizeof err), 0);
        char *text = read_text(f->path, NULL);
        static const char *const want[] = {"0,\"a,b\",ok,", "0,\"say \"\"hi\"\"\",ok,",
                                           "0,\"two\nlines\",ok,", "0,=1+2,ok,"};
        assert_non_null(strstr(text, want[k]));
        free(text);
        drop_history(&h);
        cutune_space_free(s);
    }
}

static void test_errors_leave_no_file(void **state)
{
    fixture *f = *state;
    char err[512] = "", tmp[4200];
    path_in(f->path, sizeof f->path, f->dir, "missing-dir/out.json");
    assert_int_equal(cutune_export_summary(f->path, f->space, NULL, &f->hist, "x", err, sizeof err),
                     CUTUNE_EIO);
    assert_non_null(strstr(err, "out.json: cannot create a temporary in"));
    assert_int_equal(cutune_export_csv(f->path, f->space, NULL, &f->hist, err, sizeof err),
                     CUTUNE_EIO);
    assert_int_equal(
        cutune_export_kt_cache(f->path, f->space, NULL, "d", &f->hist, err, sizeof err),
        CUTUNE_EIO);
    assert_int_equal(cutune_export_header(f->path, f->space, NULL, NULL, &f->hist, err, sizeof err),
                     CUTUNE_EIO);
    /* a directory in the way: refused, the directory stays, no temporary is left */
    path_in(f->path, sizeof f->path, f->dir, "adir");
    assert_int_equal(mkdir(f->path, 0755), 0);
    snprintf(tmp, sizeof tmp, "%s/inside", f->path);
    write_text(tmp, "x");
    assert_int_equal(cutune_export_summary(f->path, f->space, NULL, &f->hist, "x", err, sizeof err),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(err, "adir: is a directory"));
    assert_int_equal(count_hidden(f->dir), 0);
    assert_true(file_exists(tmp));
    snprintf(tmp, sizeof tmp, "%s/inside", f->path);
    unlink(tmp);
    rmdir(f->path);
    /* an entry outside the space */
    path_in(f->path, sizeof f->path, f->dir, "bad.json");
    f->hist.e[4].id = 99;
    assert_int_equal(cutune_export_summary(f->path, f->space, NULL, &f->hist, "x", err, sizeof err),
                     CUTUNE_EINVAL);
    f->hist.e[4].id = 11;
    assert_false(file_exists(f->path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_summary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kt_cache_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kt_cache_timestamps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_t4, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_leave_no_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_header_refuses_injection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv_quotes_hostile_values, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
