/* Tests of the recording loader (Kernel Tuner caches, plain and gzip; cutune
 * journals), spaces built from recordings and maps onto spaces. */
#include <math.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "io_test_util.h"

static const char KT_SAMPLE[] =
    "{\"device_name\": \"Test GPU\", \"kernel_name\": \"k\",\n"
    " \"tune_params_keys\": [\"bx\", \"mode\", \"f\"],\n"
    " \"tune_params\": {\"bx\": [16, 32, 64], \"mode\": [\"a\", \"b\"], \"f\": [0.5, 1.0]},\n"
    " \"objective\": \"time\",\n"
    " \"cache\": {\n"
    "  \"16,a,0.5\": {\"bx\": 16, \"mode\": \"a\", \"f\": 0.5, \"time\": 1.5, \"times\": [1.4, "
    "1.5, "
    "1.6], \"compile_time\": 100.0, \"verification_time\": 2.0, \"benchmark_time\": 10.0},\n"
    "  \"16,a,1.0\": {\"bx\": 16, \"mode\": \"a\", \"f\": 1.0, \"time\": "
    "\"CompilationFailedConfig\"},\n"
    "  \"16,b,0.5\": {\"bx\": 16, \"mode\": \"b\", \"f\": 0.5, \"time\": "
    "\"RuntimeFailedConfig\"},\n"
    "  \"16,b,1.0\": {\"bx\": 16, \"mode\": \"b\", \"f\": 1.0, \"time\": \"InvalidConfig\"},\n"
    "  \"32,a,0.5\": {\"bx\": 32, \"mode\": \"a\", \"f\": 0.5, \"time\": 1e20},\n"
    "  \"32,a,1.0\": {\"time\": 2.0},\n"
    "  \"64,b,1.0\": {\"bx\": 64, \"mode\": \"b\", \"f\": 1.0, \"time\": 0.75, \"times\": []}\n"
    " }}\n";

static const char JOURNAL_SAMPLE[] =
    "{\"kind\":\"header\",\"format\":1,\"cutune\":\"0.1.0\",\"spec\":\"gemm\",\"spec_hash\":"
    "\"abc\","
    "\"space_hash\":\"0123\",\"searcher\":\"random\",\"seed\":42,\"evaluator\":\"replay\","
    "\"device\":\"GPU "
    "X\",\"budget\":10,\"params\":{\"x\":[1,2,4],\"s\":[\"p\",\"q\"],\"r\":[1.0,2.5]},"
    "\"restrictions\":[],\"sizes\":{}}\n"
    "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1,\"s\":\"p\",\"r\":1.0},\"status\":\"ok\","
    "\"time_ms\":3.5,\"times_ms\":[3.4,3.5],\"compile_ms\":12.0,\"bench_ms\":4.0}\n"
    "{\"kind\":\"eval\",\"n\":1,\"config\":{\"x\":2,\"s\":\"q\",\"r\":2.5},\"status\":\"compile_"
    "error\","
    "\"time_ms\":null,\"times_ms\":[],\"compile_ms\":null,\"bench_ms\":null,\"log\":\"error: x\"}\n"
    "{\"kind\":\"note\",\"text\":\"newer writers may add kinds\"}\n"
    "\n"
    "{\"kind\":\"eval\",\"n\":2,\"config\":{\"x\":4,\"s\":\"q\",\"r\":1},\"status\":\"ok\",\"time_"
    "ms\":1.25}\n"
    "{\"kind\":\"eval\",\"n\":3,\"config\":{\"x\":4,\"s\":\"p\",\"r\":2";

typedef struct fixture {
    char *dir;
    char path[4096];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || !(f->dir = make_tmpdir())) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rm_tree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static void count_statuses(const cutune_recording *r, size_t *c)
{
    memset(c, 0, CUTUNE_STATUS_COUNT * sizeof *c);
    for (size_t i = 0; i < r->nrecords; i++)
        c[r->records[i].status]++;
}

/* Find the record whose value texts are t0,t1,t2 (3 parameters). */
static const cutune_record *find3(const cutune_recording *r, const char *t0, const char *t1,
                                  const char *t2)
{
    const char *t[3] = {t0, t1, t2};
    for (size_t i = 0; i < r->nrecords; i++) {
        size_t p = 0;
        while (p < 3 && strcmp(r->texts[p][r->records[i].idx[p]], t[p]) == 0)
            p++;
        if (p == 3)
            return &r->records[i];
    }
    return NULL;
}

static void check_kt_sample(const cutune_recording *r)
{
    size_t c[CUTUNE_STATUS_COUNT];
    assert_string_equal(r->format, "kernel_tuner");
    assert_string_equal(r->device_name, "Test GPU");
    assert_string_equal(r->kernel_name, "k");
    assert_int_equal(r->nparams, 3);
    assert_string_equal(r->param_names[0], "bx");
    assert_string_equal(r->param_names[2], "f");
    assert_int_equal(r->nvalues[0], 3);
    assert_int_equal(r->values[0][2].type, CUTUNE_VALUE_INT);
    assert_int_equal(r->values[0][2].i, 64);
    assert_int_equal(r->values[1][1].type, CUTUNE_VALUE_STRING);
    assert_string_equal(r->values[1][1].s, "b");
    assert_ptr_equal(r->values[1][1].s, r->texts[1][1]);
    /* 1.0 stays a float, as Python would print it in a key */
    assert_int_equal(r->values[2][1].type, CUTUNE_VALUE_REAL);
    assert_string_equal(r->texts[2][0], "0.5");
    assert_string_equal(r->texts[2][1], "1.0");
    assert_int_equal(r->nrecords, 7);
    count_statuses(r, c);
    assert_int_equal(c[CUTUNE_STATUS_OK], 3);
    assert_int_equal(c[CUTUNE_STATUS_COMPILE_ERROR], 1);
    assert_int_equal(c[CUTUNE_STATUS_RUNTIME_ERROR], 2);
    assert_int_equal(c[CUTUNE_STATUS_LAUNCH_ERROR], 1);
    assert_true(r->has_costs);
    const cutune_record *a = find3(r, "16", "a", "0.5");
    assert_non_null(a);
    assert_int_equal(a->status, CUTUNE_STATUS_OK);
    assert_true(a->time_ms == 1.5);
    assert_int_equal(a->ntimes, 3);
    assert_true(a->times_ms[2] == 1.6);
    assert_true(a->compile_ms == 100.0);
    assert_true(a->bench_ms == 12.0);
    const cutune_record *b = find3(r, "16", "a", "1.0");
    assert_non_null(b);
    assert_int_equal(b->status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_true(isnan(b->time_ms));
    assert_true(b->compile_ms < 0 && b->bench_ms < 0);
    assert_int_equal(find3(r, "32", "a", "0.5")->status, CUTUNE_STATUS_RUNTIME_ERROR);
    assert_int_equal(find3(r, "16", "b", "1.0")->status, CUTUNE_STATUS_LAUNCH_ERROR);
    /* values only in the key */
    const cutune_record *k = find3(r, "32", "a", "1.0");
    assert_non_null(k);
    assert_true(k->time_ms == 2.0);
    const cutune_record *e = find3(r, "64", "b", "1.0");
    assert_int_equal(e->ntimes, 0);
    assert_null(e->times_ms);
}

static void test_kt_plain(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(write_text(path_in(f->path, sizeof f->path, f->dir, "k.json"), KT_SAMPLE), 0);
    int rc = cutune_recording_load(f->path, &r, err, sizeof err);
    assert_int_equal(rc, 0);
    check_kt_sample(r);
    assert_string_equal(r->path, f->path);
    cutune_recording_free(r);
    cutune_recording_free(NULL);
}

static void test_kt_gzip(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(write_gz(path_in(f->path, sizeof f->path, f->dir, "k.json.gz"), KT_SAMPLE), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    check_kt_sample(r);
    cutune_recording_free(r);
}

static void test_kt_gzip_members(void **state)
{
    /* `cat a.gz b.gz` is one valid gzip file: every member is read */
    fixture *f = *state;
    char err[512] = "", a[4096], b[4096], half[sizeof KT_SAMPLE];
    size_t na = 0, nb = 0, h = sizeof KT_SAMPLE / 2;
    memcpy(half, KT_SAMPLE, h);
    half[h] = '\0';
    assert_int_equal(write_gz(path_in(a, sizeof a, f->dir, "a.gz"), half), 0);
    assert_int_equal(write_gz(path_in(b, sizeof b, f->dir, "b.gz"), KT_SAMPLE + h), 0);
    char *da = read_text(a, &na), *db = read_text(b, &nb);
    char *cat = malloc(na + nb);
    memcpy(cat, da, na);
    memcpy(cat + na, db, nb);
    cutune_recording *r = NULL;
    assert_int_equal(cutune_recording_load_buffer("cat.gz", cat, na + nb, &r, err, sizeof err), 0);
    check_kt_sample(r);
    cutune_recording_free(r);
    /* garbage after the last member is an error, not ignored */
    char *junk = malloc(na + 3);
    memcpy(junk, da, na);
    memcpy(junk + na, "xyz", 3);
    assert_int_equal(cutune_recording_load_buffer("junk.gz", junk, na + 3, &r, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_null(r);
    assert_non_null(strstr(err, "junk.gz: 3 bytes of garbage after the gzip stream"));
    free(junk);
    free(cat);
    free(da);
    free(db);
}

static void test_kt_gzip_truncated(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    size_t n = 0;
    assert_int_equal(write_gz(path_in(f->path, sizeof f->path, f->dir, "k.json.gz"), KT_SAMPLE), 0);
    char *gz = read_text(f->path, &n);
    cutune_recording *r = (cutune_recording *)1;
    /* every cut loses data: never a silent partial load */
    for (size_t cut = 2; cut < n; cut += 7) {
        int rc = cutune_recording_load_buffer("t.json.gz", gz, cut, &r, err, sizeof err);
        assert_int_equal(rc, CUTUNE_EPARSE);
        assert_null(r);
        assert_non_null(strstr(err, "t.json.gz: "));
        assert_non_null(strstr(err, "gzip"));
    }
    assert_int_equal(write_bytes(f->path, gz, n - 5), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EPARSE);
    assert_non_null(strstr(err, "truncated gzip stream"));
    /* a corrupt body */
    for (size_t i = 12; i < 40 && i < n; i++)
        gz[i] = (char)0xff;
    assert_int_equal(cutune_recording_load_buffer("c.gz", gz, n, &r, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_non_null(strstr(err, "c.gz: "));
    free(gz);
}

static void test_kt_bool_and_key_fallback(void **state)
{
    (void)state;
    static const char text[] = "{\"tune_params_keys\": [\"u\", \"n\"], \"tune_params\": {\"u\": "
                               "[false, true], \"n\": [1, 2]},"
                               " \"cache\": {\"False,1\": {\"time\": 3}, \"True,2\": {\"u\": true, "
                               "\"n\": 2, \"time\": 4}}}";
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(
        cutune_recording_load_buffer("b.json", text, strlen(text), &r, err, sizeof err), 0);
    assert_int_equal(r->values[0][1].type, CUTUNE_VALUE_INT);
    assert_int_equal(r->values[0][1].i, 1);
    assert_int_equal(r->nrecords, 2);
    assert_int_equal(r->records[0].idx[0], 0);
    assert_int_equal(r->records[0].idx[1], 0);
    assert_int_equal(r->records[1].idx[0], 1);
    assert_int_equal(r->records[1].idx[1], 1);
    assert_false(r->has_costs);
    cutune_recording_free(r);
}

/* A real of 2^53 or more written with an exponent (1e+20) is a real in tune_params and a
 * journal's params; in a cache entry and a journal config, where the lexeme is not kept, it
 * is found among those reals, never refused as an integer cutune cannot hold. */
static void test_large_reals(void **state)
{
    (void)state;
    static const char kt[] = "{\"tune_params_keys\": [\"r\"], \"tune_params\": {\"r\": "
                             "[1e+20, 2.5]}, \"cache\": {\"1e+20\": {\"r\": 1e+20, \"time\": 3},"
                             " \"2.5\": {\"r\": 2.5, \"time\": 4}}}";
    static const char journal[] =
        "{\"kind\":\"header\",\"params\":{\"r\":[1e+20,2.5]}}\n"
        "{\"kind\":\"eval\",\"n\":0,\"config\":{\"r\":1e+20},\"status\":\"ok\",\"time_ms\":3}\n";
    const char *texts[] = {kt, journal};
    for (size_t t = 0; t < 2; t++) {
        char err[512] = "";
        cutune_recording *r = NULL;
        assert_int_equal(cutune_recording_load_buffer(t ? "j.jsonl" : "b.json", texts[t],
                                                      strlen(texts[t]), &r, err, sizeof err),
                         0);
        assert_int_equal(r->values[0][0].type, CUTUNE_VALUE_REAL);
        assert_true(r->values[0][0].r == 1e20);
        assert_int_equal(r->nrecords, t ? 1 : 2);
        assert_int_equal(r->records[0].idx[0], 0);
        assert_true(r->records[0].time_ms == 3);
        cutune_recording_free(r);
    }
}

typedef struct bad_case {
    const char *json;
    int code;
    const char *msg;
} bad_case;

#define KT_HEAD "{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2]},\"cache\":"

/* Loading text as file is refused with code, the message holding msg, and no recording
 * (what and i name the case). */
static void expect_refused(const char *file, const char *text, int code, const char *msg,
                           const char *what, size_t i)
{
    char err[512] = "";
    cutune_recording *r = (cutune_recording *)1;
    int rc = cutune_recording_load_buffer(file, text, strlen(text), &r, err, sizeof err);
    if (rc != code || !strstr(err, msg))
        fail_msg("%s %zu: rc %d, message '%s', expected %d '%s'", what, i, rc, err, code, msg);
    assert_null(r);
}

static void test_kt_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":\"bogus\"}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].time: expected a number or a failure marker"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":[1]}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].time: expected a number or a failure marker"},
        {KT_HEAD "{\"1\":{\"x\":1}}}", CUTUNE_EPARSE, "t.json: cache[\"1\"]: missing \"time\""},
        {KT_HEAD "{\"3\":{\"x\":3,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"3\"].x: value 3 is not in tune_params[\"x\"]"},
        {KT_HEAD "{\"3\":{\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"3\"]: key value 3 of \"x\" is not in tune_params"},
        {KT_HEAD "{\"1,2\":{\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1,2\"]: no \"x\" and the key does not hold 1 values"},
        {KT_HEAD "{\"1\":{\"x\":null,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].x: expected a number, string or boolean"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"times\":[1,\"a\"]}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].times[1]: expected a number"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"times\":3}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].times: expected a list of numbers"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"compile_time\":\"x\"}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].compile_time: expected a number"},
        {KT_HEAD "{\"1\":[1]}}", CUTUNE_EPARSE, "t.json: cache[\"1\"]: expected an object"},
        {KT_HEAD "[]}", CUTUNE_EPARSE, "t.json: cache: expected an object"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2]}}", CUTUNE_EPARSE,
         "t.json: cache: missing"},
        {"{\"tune_params\":{\"x\":[1,2]},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params_keys: missing"},
        {"{\"tune_params_keys\":[],\"tune_params\":{},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params_keys: expected a non-empty list of names"},
        {"{\"tune_params_keys\":[3],\"tune_params\":{},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params_keys[0]: expected a name"},
        {"{\"tune_params_keys\":[\"x\"],\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params: missing"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params[\"x\"]: missing"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[]},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params[\"x\"]: expected 1 to 65535 values, got 0"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":5},\"cache\":{}}", CUTUNE_EPARSE,
         "t.json: tune_params[\"x\"]: expected a list of values"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,{}]},\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: tune_params[\"x\"][1]: expected a number, string or boolean"},
        /* a parameter the keys leave out: its entries' values were read as a metric */
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2],\"c\":[5]},\"cache\":{"
         "\"1\":{\"x\":1,\"c\":5,\"time\":1}}}",
         CUTUNE_EPARSE,
         "t.json: tune_params[\"c\"]: not in tune_params_keys (the parameters a key's values "
         "are of)"},
        {"{\"tune_params_keys\":[\"x\",\"x\"],\"tune_params\":{\"x\":[1]},\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: tune_params: parameter 'x' given twice"},
        {"{\"tune_params_keys\": [\n\"x\"", CUTUNE_EPARSE, "t.json: malformed JSON at line 2"},
        {KT_HEAD "{}} trailing", CUTUNE_EPARSE, "t.json: malformed JSON at line 1, column"},
        {"[1, 2]", CUTUNE_EPARSE, "t.json: expected a JSON object"},
        {"", CUTUNE_EPARSE, "t.json: malformed JSON"},
        /* journals */
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1},"
         "\"status\":\"ok\",\"time_ms\":1}\n{oops}\n{\"kind\":\"eval\"}\n",
         CUTUNE_EPARSE, "t.json:3: malformed JSON at column"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1},"
         "\"status\":\"fine\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: status: unknown status"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{},"
         "\"status\":\"ok\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: config.x: missing"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":7},"
         "\"status\":\"ok\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: config.x: value 7 is not in the header's params"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1},"
         "\"status\":\"ok\"}\n",
         CUTUNE_EPARSE, "t.json:2: time_ms: an ok evaluation needs a number"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1},"
         "\"status\":\"ok\",\"time_ms\":\"1\"}\n",
         CUTUNE_EPARSE, "t.json:2: eval.time_ms: expected a number"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1},"
         "\"status\":\"ok\",\"time_ms\":1,\"times_ms\":[null]}\n",
         CUTUNE_EPARSE, "t.json:2: eval.times_ms[0]: expected a number"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n[1]\n", CUTUNE_EPARSE,
         "t.json:2: expected an object with \"kind\""},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"header\"}\n", CUTUNE_EPARSE,
         "t.json:2: a second header"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"eval\",\"config\":{\"x\":1,"
         "\"y\":2},\"status\":\"ok\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: config.y: not a parameter of the header's params"},
        {"{\"kind\":\"header\",\"params\":[1]}\n", CUTUNE_EPARSE,
         "t.json:1: params: expected an object of value lists"},
        {"{\"kind\":\"header\"}\n", CUTUNE_EPARSE, "t.json:1: params: missing"},
        {"{\"kind\":\"header\",\"format\":2,\"params\":{\"x\":[1]}}\n", CUTUNE_EUNSUPPORTED,
         "t.json:1: format: only journal format 1 is known"},
        {"{\"kind\":\"header\",\"seed\":\"x\",\"params\":{\"x\":[1]}}\n", CUTUNE_EPARSE,
         "t.json:1: header.seed: expected a number"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,[2]]}}\n", CUTUNE_EPARSE,
         "t.json:1: params[\"x\"][1]: expected a number, string or boolean"},
        /* two runs' lines in one journal: evaluation numbers repeat (the first repeat named) */
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n"
         "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":1}\n"
         "{\"kind\":\"eval\",\"n\":1,\"config\":{\"x\":2},\"status\":\"ok\",\"time_ms\":2}\n"
         "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":2},\"status\":\"ok\",\"time_ms\":3}\n"
         "{\"kind\":\"eval\",\"n\":1,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":4}\n",
         CUTUNE_EPARSE, "t.json:4: n: evaluation 0 is also on line 2"},
        /* a configuration evaluated twice: a run evaluates each once */
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n"
         "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":1}\n"
         "{\"kind\":\"eval\",\"n\":1,\"config\":{\"x\":2},\"status\":\"ok\",\"time_ms\":2}\n"
         "{\"kind\":\"eval\",\"n\":2,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":3}\n",
         CUTUNE_EPARSE, "t.json: evaluations 1 and 3 are one configuration (x=1)"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n"
         "{\"kind\":\"eval\",\"n\":-1,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: n: expected an evaluation number"},
        {"{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n"
         "{\"kind\":\"eval\",\"n\":0.5,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":1}\n",
         CUTUNE_EPARSE, "t.json:2: n: expected an evaluation number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused("t.json", cases[i].json, cases[i].code, cases[i].msg, "case", i);
}

/* Misreadings a JSON reader lets through, each refused with the file and the field:
 * duplicate values (two configurations of one), keys given twice (a lookup sees the
 * first, another tool the last), a key that disagrees with its entry's values, two keys of
 * one configuration, NUL characters (cJSON cuts the string there). */
static void test_kt_misreadings(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2,1.0]},\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: tune_params[\"x\"][2]: duplicate value 1.0 (same as [0])"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[\"a\",\"a\"]},\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: tune_params[\"x\"][1]: duplicate value a (same as [0])"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1},\"1\":{\"x\":1,\"time\":2}}}", CUTUNE_EPARSE,
         "t.json: cache: key \"1\" given twice"},
        {KT_HEAD "{\"1\":{\"x\":1,\"x\":2,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"]: key \"x\" given twice"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2]},\"tune_params\":{\"x\":[3]},"
         "\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: key \"tune_params\" given twice at the top level"},
        {KT_HEAD "{\"2\":{\"x\":1,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"2\"]: the key says x=2, the entry's \"x\" is 1"},
        {KT_HEAD "{\"1,9\":{\"x\":1,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1,9\"]: the key does not hold one value per parameter"},
        /* a key is each value's Python text (str) joined with ',': "1.0" is not the key of
         * the integer 1, so no second key of one configuration gets that far */
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1},\"1.0\":{\"x\":1,\"time\":2}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1.0\"]: the key's \"1.0\" is not Kernel Tuner's text of x=1 (\"1\")"},
        {KT_HEAD "{\"01\":{\"x\":1,\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"01\"]: the key's \"01\" is not Kernel Tuner's text of x=1 (\"1\")"},
        {KT_HEAD "{\"1e0\":{\"time\":1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1e0\"]: the key's \"1e0\" is not Kernel Tuner's text of x=1 (\"1\")"},
        {"{\"tune_params_keys\":[\"f\"],\"tune_params\":{\"f\":[1.0,0.5]},\"cache\":{\"1\":"
         "{\"f\":1.0,\"time\":1}}}",
         CUTUNE_EPARSE,
         "t.json: cache[\"1\"]: the key's \"1\" is not Kernel Tuner's text of f=1.0 (\"1.0\")"},
        {"{\"tune_params_keys\":[\"u\"],\"tune_params\":{\"u\":[false,true]},\"cache\":{"
         "\"true\":{\"u\":true,\"time\":1}}}",
         CUTUNE_EPARSE, "t.json: cache[\"true\"]: the key says u=true, the entry's \"u\" is True"},
        {"{\"tune_params_keys\":[\"u\",\"n\"],\"tune_params\":{\"u\":[false,true,2],\"n\":[1,"
         "2]},\"cache\":{\"1,2\":{\"u\":true,\"n\":2,\"time\":1}}}",
         CUTUNE_EPARSE,
         "t.json: cache[\"1,2\"]: the key's \"1\" is not Kernel Tuner's text of u=True "
         "(\"True\")"},
        {"{\"tune_params_keys\":[\"a\",\"b\"],\"tune_params\":{\"a\":[1],\"b\":[2]},"
         "\"cache\":{\"1, 2\":{\"a\":1,\"b\":2,\"time\":1}}}",
         CUTUNE_EPARSE,
         "t.json: cache[\"1, 2\"]: the key's \" 2\" is not Kernel Tuner's text of b=2 (\"2\")"},
        {"{\"tune_params_keys\":[\"x\",\"y\"],\"tune_params\":{\"x\":[\"a,b\"],\"y\":[1]},"
         "\"cache\":{\"a,b,01\":{\"x\":\"a,b\",\"y\":1,\"time\":1}}}",
         CUTUNE_EPARSE,
         "t.json: cache[\"a,b,01\"]: the key is not the entry's values as Kernel Tuner writes "
         "them (\"a,b,1\" expected"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[\"a\",\"a\\u0000b\"]},"
         "\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: tune_params.x[1]: NUL character"},
        {"{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\\u0000\":[1]},\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: a key of tune_params: NUL character"},
        /* a number beyond a double's range, which strtod reads as infinity */
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"compile_time\":1e400}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].compile_time: a number beyond the range of a double"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"GFLOP/s\":-1e999}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].GFLOP/s: a number beyond the range of a double"},
        /* a time of 1e400 is no failure marker (1e20 is): it is a number no double holds */
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1e400}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].time: a number beyond the range of a double"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":-1e400}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].time: a number beyond the range of a double"},
        /* optional strings of another type */
        {"{\"device_name\":7,\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1]},"
         "\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: device_name: expected a string"},
        {"{\"kernel_name\":{\"a\":1},\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1]},"
         "\"cache\":{}}",
         CUTUNE_EPARSE, "t.json: kernel_name: expected a string"},
        /* a negative cost, which is neither a time spent nor "not recorded" (null) */
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"compile_time\":-5}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].compile_time: -5 is not a cost"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"verification_time\":-1}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].verification_time: -1 is not a cost"},
        {KT_HEAD "{\"1\":{\"x\":1,\"time\":1,\"benchmark_time\":-0.25}}}", CUTUNE_EPARSE,
         "t.json: cache[\"1\"].benchmark_time: -0.25 is not a cost"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_refused("t.json", cases[i].json, cases[i].code, cases[i].msg, "case", i);
    /* ... and in a journal's costs and metrics */
    static const char *const jinf[][2] = {
        {"\"compile_ms\":1e400",
         "j.jsonl:2: eval.compile_ms: a number beyond the range of a double"},
        {"\"bench_ms\":-1e400", "j.jsonl:2: eval.bench_ms: a number beyond the range of a double"},
        {"\"metrics\":{\"GB/s\":1e999}",
         "j.jsonl:2: eval.metrics.GB/s: a number beyond the range of a double"},
        /* optional fields of another type than theirs */
        {"\"elapsed_s\":\"x\"", "j.jsonl:2: eval.elapsed_s: expected a number"},
        {"\"worker\":\"0\"", "j.jsonl:2: eval.worker: expected a count (0, 1, 2, ...)"},
        {"\"submitted\":\"a\"", "j.jsonl:2: eval.submitted: expected a count (0, 1, 2, ...)"},
        {"\"submitted\":-1", "j.jsonl:2: eval.submitted: expected a count (0, 1, 2, ...)"},
        {"\"log\":[\"error\"]", "j.jsonl:2: eval.log: expected a string"},
        {"\"timestamp\":1764800000", "j.jsonl:2: eval.timestamp: expected a string"},
        {"\"compile_ms\":-5", "j.jsonl:2: eval.compile_ms: -5 is not a cost"},
        {"\"bench_ms\":-1e-3", "j.jsonl:2: eval.bench_ms: -0.001 is not a cost"},
        /* metrics are an object of numbers: another type was skipped, a metric that was
         * no number dropped */
        {"\"metrics\":[1,2]", "j.jsonl:2: eval.metrics: expected an object of numbers"},
        {"\"metrics\":\"GB/s=3\"", "j.jsonl:2: eval.metrics: expected an object of numbers"},
        {"\"metrics\":{\"GB/s\":\"830\"}", "j.jsonl:2: eval.metrics.GB/s: expected a number"},
        {"\"metrics\":{\"a\":1,\"ok\":true}", "j.jsonl:2: eval.metrics.ok: expected a number"},
        {"\"metrics\":{\"a\":null}", "j.jsonl:2: eval.metrics.a: expected a number"},
        {"\"metrics\":{\"a\":{\"b\":1}}", "j.jsonl:2: eval.metrics.a: expected a number"},
        /* every timed repetition is in times_ms: a list of another length than the
         * evaluator's count is a line cut or merged by hand */
        {"\"times_ms\":[3,3.5],\"metrics\":{\"repetitions\":3}",
         "j.jsonl:2: eval.times_ms: 2 repetitions, where metrics.repetitions says 3"},
        {"\"metrics\":{\"repetitions\":1},\"times_ms\":[3,3.5]",
         "j.jsonl:2: eval.times_ms: 2 repetitions, where metrics.repetitions says 1"},
        {"\"times_ms\":[3,3.5],\"metrics\":{\"repetitions\":2.5}",
         "j.jsonl:2: eval.times_ms: 2 repetitions, where metrics.repetitions says 2.5"},
    };
    for (size_t i = 0; i < sizeof jinf / sizeof jinf[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n"
                 "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1},\"status\":\"ok\","
                 "\"time_ms\":3,%s}\n",
                 jinf[i][0]);
        expect_refused("j.jsonl", text, CUTUNE_EPARSE, jinf[i][1], "journal case", i);
    }
    /* absent and null are fine; present with another type is an error */
    static const char *const jnull =
        "{\"kind\":\"header\",\"params\":{\"x\":[1,2]},\"searcher\":null,\"spec\":null}\n"
        "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1},\"status\":\"ok\",\"time_ms\":3,"
        "\"elapsed_s\":null,\"compile_ms\":null,\"times_ms\":[3,3],\"metrics\":{"
        "\"repetitions\":2.0}}\n"
        "{\"kind\":\"eval\",\"n\":1,\"config\":{\"x\":2},\"status\":\"ok\",\"time_ms\":3,"
        "\"times_ms\":[],\"metrics\":{\"repetitions\":5}}\n";
    cutune_recording *ok = NULL;
    char okerr[512] = "";
    assert_int_equal(
        cutune_recording_load_buffer("j.jsonl", jnull, strlen(jnull), &ok, okerr, sizeof okerr), 0);
    assert_null(ok->searcher);
    cutune_recording_free(ok);
    static const char *const jhead[][2] = {
        {"\"searcher\":1", "j.jsonl:1: header.searcher: expected a string"},
        {"\"evaluator\":[\"replay\"]", "j.jsonl:1: header.evaluator: expected a string"},
        {"\"spec\":{}", "j.jsonl:1: header.spec: expected a string"},
        {"\"device\":true", "j.jsonl:1: header.device: expected a string"},
        {"\"started\":1764800000", "j.jsonl:1: header.started: expected a string"},
        {"\"cutune\":0.1", "j.jsonl:1: header.cutune: expected a string"},
        /* subject_to a list of strings, sizes an object of numbers: another type was
         * skipped (a constraint of the run lost on resume) or read in part */
        {"\"subject_to\":\"power_w <= 300\"", "j.jsonl:1: header.subject_to: expected a list of "
                                              "strings"},
        {"\"subject_to\":{\"a\":1}", "j.jsonl:1: header.subject_to: expected a list of strings"},
        {"\"subject_to\":[\"a < 1\",2]", "j.jsonl:1: header.subject_to[1]: expected a string"},
        {"\"sizes\":[1,2]", "j.jsonl:1: header.sizes: expected an object of numbers"},
        {"\"sizes\":\"N=4\"", "j.jsonl:1: header.sizes: expected an object of numbers"},
        {"\"sizes\":{\"N\":\"4\"}", "j.jsonl:1: header.sizes.N: expected a number"},
        {"\"sizes\":{\"N\":1e400}", "j.jsonl:1: header.sizes.N: a number beyond the range of a "
                                    "double"},
    };
    for (size_t i = 0; i < sizeof jhead / sizeof jhead[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"kind\":\"header\",\"params\":{\"x\":[1,2]},%s}\n"
                 "{\"kind\":\"eval\",\"n\":0,\"config\":{\"x\":1},\"status\":\"ok\","
                 "\"time_ms\":3}\n",
                 jhead[i][0]);
        expect_refused("j.jsonl", text, CUTUNE_EPARSE, jhead[i][1], "journal header case", i);
    }
    /* a raw NUL byte, also between tokens (where cJSON takes it for a space) */
    static const char raw[] = KT_HEAD "{\"1\":{\"x\":1,\0\"time\":1}}}";
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(
        cutune_recording_load_buffer("t.json", raw, sizeof raw - 1, &r, err, sizeof err),
        CUTUNE_EPARSE);
    assert_non_null(strstr(err, "t.json: byte 72: NUL character"));
    /* a key with a comma-holding value is not split against the parameters */
    static const char comma[] = "{\"tune_params_keys\":[\"x\",\"y\"],\"tune_params\":{\"x\":"
                                "[\"a,b\"],\"y\":[1]},\"cache\":{\"a,b,1\":{\"x\":\"a,b\",\"y\":1,"
                                "\"time\":1}}}";
    assert_int_equal(
        cutune_recording_load_buffer("t.json", comma, sizeof comma - 1, &r, err, sizeof err), 0);
    cutune_recording_free(r);
}

/* Bounded memory on any input: a gzip bomb stops at the input limit; a device or a FIFO
 * is refused at open, without reading or waiting. */
static void test_input_limits(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    /* 64 MiB of zeros in about 64 KB, against a limit of 1 MiB */
    char *zeros = calloc(1, 1u << 20);
    assert_non_null(zeros);
    path_in(f->path, sizeof f->path, f->dir, "bomb.json.gz");
    gzFile g = gzopen(f->path, "wb9");
    assert_non_null(g);
    for (int i = 0; i < 64; i++)
        assert_int_equal(gzwrite(g, zeros, 1u << 20), 1 << 20);
    assert_int_equal(gzclose(g), Z_OK);
    free(zeros);
    setenv("CUTUNE_MAX_INPUT_BYTES", "1M", 1);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(
        strstr(err, "bomb.json.gz: inflates to more than the input limit of 1048576 bytes"));
    setenv("CUTUNE_MAX_INPUT_BYTES", "8", 1);
    path_in(f->path, sizeof f->path, f->dir, "plain.json");
    assert_int_equal(write_text(f->path, "{\"tune_params_keys\": []}"), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "plain.json: larger than the input limit of 8 bytes"));
    setenv("CUTUNE_MAX_INPUT_BYTES", "0", 1);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "CUTUNE_MAX_INPUT_BYTES=0: not a byte count"));
    unsetenv("CUTUNE_MAX_INPUT_BYTES");
    assert_int_equal(cutune_recording_load("/dev/zero", &r, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "/dev/zero: is a character device"));
    path_in(f->path, sizeof f->path, f->dir, "fifo.json");
    assert_int_equal(mkfifo(f->path, 0600), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "fifo.json: is a FIFO"));
    assert_null(r);
}

static void test_missing_file(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    path_in(f->path, sizeof f->path, f->dir, "absent.json");
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), CUTUNE_EIO);
    assert_non_null(strstr(err, "absent.json: cannot open"));
    assert_int_equal(cutune_recording_load(NULL, &r, err, sizeof err), CUTUNE_EINVAL);
}

static void test_journal(void **state)
{
    fixture *f = *state;
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(
        write_text(path_in(f->path, sizeof f->path, f->dir, "j.jsonl"), JOURNAL_SAMPLE), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_string_equal(r->format, "cutune_journal");
    assert_string_equal(r->spec_name, "gemm");
    assert_string_equal(r->spec_hash, "abc");
    assert_string_equal(r->space_hash, "0123");
    assert_string_equal(r->searcher, "random");
    assert_string_equal(r->evaluator, "replay");
    assert_string_equal(r->device_name, "GPU X");
    assert_int_equal(r->seed, 42);
    assert_int_equal(r->budget, 10);
    assert_true(r->truncated_tail);
    assert_int_equal(r->nparams, 3);
    assert_string_equal(r->param_names[1], "s");
    assert_string_equal(r->texts[2][0], "1.0");
    assert_int_equal(r->values[2][0].type, CUTUNE_VALUE_REAL);
    assert_int_equal(r->nrecords, 3);
    assert_int_equal(r->records[0].status, CUTUNE_STATUS_OK);
    assert_true(r->records[0].time_ms == 3.5);
    assert_int_equal(r->records[0].ntimes, 2);
    assert_true(r->records[0].compile_ms == 12.0);
    assert_true(r->records[0].bench_ms == 4.0);
    assert_true(r->has_costs);
    assert_int_equal(r->records[1].status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_true(isnan(r->records[1].time_ms));
    assert_true(r->records[1].compile_ms < 0);
    assert_int_equal(r->records[1].idx[0], 1);
    assert_int_equal(r->records[1].idx[1], 1);
    assert_int_equal(r->records[1].idx[2], 1);
    /* "r": 1 in a config matches the value 1.0 */
    assert_int_equal(r->records[2].idx[2], 0);
    cutune_recording_free(r);

    /* the same journal, complete: no truncated tail */
    char *whole = strdup(JOURNAL_SAMPLE);
    *strrchr(whole, '\n') = '\0';
    strcat(whole, "\n");
    assert_int_equal(cutune_recording_load_buffer("j", whole, strlen(whole), &r, err, sizeof err),
                     0);
    assert_false(r->truncated_tail);
    assert_int_equal(r->nrecords, 3);
    cutune_recording_free(r);
    /* a last line that parses but lacks its newline was cut mid-write (every
     * line is written whole with its newline): dropped, as resume drops it */
    whole[strlen(whole) - 1] = '\0';
    assert_int_equal(cutune_recording_load_buffer("j", whole, strlen(whole), &r, err, sizeof err),
                     0);
    assert_true(r->truncated_tail);
    assert_int_equal(r->nrecords, 2);
    cutune_recording_free(r);
    free(whole);
    /* a gzip'd journal */
    assert_int_equal(
        write_gz(path_in(f->path, sizeof f->path, f->dir, "j.jsonl.gz"), JOURNAL_SAMPLE), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 3);
    cutune_recording_free(r);
}

static void test_journal_header_only(void **state)
{
    (void)state;
    static const char text[] = "{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n";
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(cutune_recording_load_buffer("h", text, strlen(text), &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 0);
    assert_false(r->truncated_tail);
    cutune_recording_free(r);
    /* a journal whose only eval line was cut mid-write */
    static const char cut[] = "{\"kind\":\"header\",\"params\":{\"x\":[1,2]}}\n{\"kind\":\"ev";
    assert_int_equal(cutune_recording_load_buffer("h", cut, strlen(cut), &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 0);
    assert_true(r->truncated_tail);
    cutune_recording_free(r);
}

/* ------------------------------------------------ spaces and maps */

static cutune_recording *load_sample(void)
{
    char err[512] = "";
    cutune_recording *r = NULL;
    int rc =
        cutune_recording_load_buffer("k.json", KT_SAMPLE, strlen(KT_SAMPLE), &r, err, sizeof err);
    if (rc < 0)
        fail_msg("%s", err);
    return r;
}

static void test_space_modes(void **state)
{
    (void)state;
    char err[512] = "";
    cutune_recording *r = load_sample();
    cutune_space *s = NULL;

    assert_int_equal(cutune_recording_space(r, NULL, 0, 1, &s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 7);
    long map[12];
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), 0);
    for (size_t id = 0; id < 7; id++)
        assert_true(map[id] >= 0);
    cutune_space_free(s);

    assert_int_equal(cutune_recording_space(r, NULL, 0, 0, &s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 12);
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), 0);
    size_t present = 0;
    for (size_t id = 0; id < 12; id++) {
        if (map[id] < 0)
            continue;
        present++;
        /* the record holds the same values as the configuration */
        const uint16_t *cfg = cutune_space_config(s, id);
        assert_memory_equal(cfg, r->records[map[id]].idx, 3 * sizeof *cfg);
    }
    assert_int_equal(present, 7);
    double table[12];
    assert_int_equal(cutune_recording_table(r, s, table, err, sizeof err), 0);
    size_t finite = 0;
    for (size_t id = 0; id < 12; id++)
        finite += !isnan(table[id]);
    assert_int_equal(finite, 3);
    cutune_space_free(s);

    const char *restr[] = {"bx <= 32"};
    assert_int_equal(cutune_recording_space(r, restr, 1, 1, &s, err, sizeof err), 0);
    assert_int_equal(cutune_space_size(s), 8);
    cutune_space_free(s);

    const char *bad[] = {"nosuch > 1"};
    assert_true(cutune_recording_space(r, bad, 1, 0, &s, err, sizeof err) < 0);
    assert_null(s);
    cutune_recording_free(r);
}

static void test_map_by_name(void **state)
{
    (void)state;
    char err[512] = "";
    cutune_recording *r = load_sample();
    cutune_space *s = cutune_space_alloc();
    /* other order, other value order, a value the recording lacks */
    cutune_value f[] = {{.type = CUTUNE_VALUE_REAL, .r = 1.0},
                        {.type = CUTUNE_VALUE_REAL, .r = 0.5}};
    cutune_value mode[] = {{.type = CUTUNE_VALUE_STRING, .s = "b"},
                           {.type = CUTUNE_VALUE_STRING, .s = "a"}};
    cutune_value bx[] = {{.type = CUTUNE_VALUE_INT, .i = 64},
                         {.type = CUTUNE_VALUE_INT, .i = 128},
                         {.type = CUTUNE_VALUE_INT, .i = 16}};
    assert_int_equal(cutune_space_add_param(s, "f", f, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "mode", mode, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "bx", bx, 3, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    long map[12];
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), 0);
    size_t present = 0;
    for (size_t id = 0; id < cutune_space_size(s); id++) {
        if (map[id] < 0)
            continue;
        present++;
        const uint16_t *cfg = cutune_space_config(s, id);
        const cutune_record *rec = &r->records[map[id]];
        assert_string_equal(cutune_space_param(s, 0)->texts[cfg[0]], r->texts[2][rec->idx[2]]);
        assert_string_equal(cutune_space_param(s, 1)->texts[cfg[1]], r->texts[1][rec->idx[1]]);
        assert_string_equal(cutune_space_param(s, 2)->texts[cfg[2]], r->texts[0][rec->idx[0]]);
    }
    assert_int_equal(present, 5); /* bx=32 is not in this space */
    cutune_space_free(s);

    /* a recording parameter with several values missing from the space */
    s = cutune_space_alloc();
    assert_int_equal(cutune_space_add_param(s, "f", f, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "bx", bx, 3, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), CUTUNE_EMISMATCH);
    assert_non_null(strstr(err, "'mode' has 2 values but is not in the space"));
    cutune_space_free(s);

    /* a space parameter the recording lacks */
    s = cutune_space_alloc();
    assert_int_equal(cutune_space_add_param(s, "f", f, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "mode", mode, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "bx", bx, 3, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "extra", bx, 1, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), CUTUNE_EMISMATCH);
    assert_non_null(strstr(err, "k.json: the space's parameter 'extra' is not in the recording"));
    cutune_space_free(s);
    cutune_recording_free(r);
}

static void test_map_single_valued_extra(void **state)
{
    (void)state;
    static const char text[] =
        "{\"tune_params_keys\": [\"n\", \"k\"], \"tune_params\": {\"n\": [1, 2, 3], \"k\": [7]},"
        " \"cache\": {\"1,7\": {\"n\": 1, \"k\": 7, \"time\": 3}, \"3,7\": {\"n\": 3, \"k\": 7, "
        "\"time\": 1}}}";
    char err[512] = "";
    cutune_recording *r = NULL;
    assert_int_equal(
        cutune_recording_load_buffer("s.json", text, strlen(text), &r, err, sizeof err), 0);
    cutune_space *s = cutune_space_alloc();
    cutune_value n[] = {{.type = CUTUNE_VALUE_INT, .i = 3}, {.type = CUTUNE_VALUE_INT, .i = 2}};
    assert_int_equal(cutune_space_add_param(s, "n", n, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    long map[2];
    assert_int_equal(cutune_recording_map(r, s, map, err, sizeof err), 0);
    assert_int_equal(map[0], 1);
    assert_int_equal(map[1], -1);
    cutune_space_free(s);
    cutune_recording_free(r);
}

/* A cache as Kernel Tuner writes it while it tunes: its header, then one entry per line,
 * each followed by a comma; the closing "}\n}" comes at the end of the run. */
#define KT_OPEN                                                                                    \
    "{\n\"device_name\": \"GPU\",\n\"kernel_name\": \"k\",\n\"problem_size\": [\n4096\n],\n"       \
    "\"tune_params_keys\": [\n\"x\"\n],\n\"tune_params\": {\n\"x\": [\n1,\n2\n]\n},\n"             \
    "\"objective\": \"time\",\n\"cache\": {"
#define KT_ENTRIES                                                                                 \
    "\n\"1\": {\"x\": 1, \"time\": 1.5, \"times\": [1.5]},"                                        \
    "\n\"2\": {\"x\": 2, \"time\": \"RuntimeFailedConfig\"},"

/* An unterminated cache (a run that stopped) reads as Kernel Tuner reads it: closed after
 * its last whole entry. */
static void test_kt_unterminated(void **state)
{
    fixture *f = *state;
    static const struct {
        const char *text;
        size_t records;
        int open;
    } cases[] = {
        {KT_OPEN KT_ENTRIES, 2, 1},                           /* the comma after the last entry */
        {KT_OPEN KT_ENTRIES "\n\n  \t", 2, 1},                /* and white space */
        {KT_OPEN "\n\"1\": {\"x\": 1, \"time\": 1.5}", 1, 1}, /* no comma */
        {KT_OPEN, 0, 1},                                      /* the header alone */
        {KT_OPEN KT_ENTRIES "\n\"3\": {}}\n}\n", 0, 0},       /* closed: not changed (bad entry) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        cutune_recording *r = NULL;
        int rc = cutune_recording_load_buffer("t.json", cases[i].text, strlen(cases[i].text), &r,
                                              err, sizeof err);
        if (!cases[i].open) { /* a closed cache is read as it is: its error stands */
            assert_int_equal(rc, CUTUNE_EPARSE);
            assert_non_null(strstr(err, "cache[\"3\"]"));
            continue;
        }
        if (rc)
            fail_msg("case %zu: %s", i, err);
        assert_int_equal(r->nrecords, cases[i].records);
        assert_true(r->truncated_tail);
        assert_string_equal(r->device_name, "GPU");
        if (cases[i].records == 2) {
            assert_int_equal(r->records[0].status, CUTUNE_STATUS_OK);
            assert_true(r->records[0].time_ms == 1.5);
            assert_int_equal(r->records[1].status, CUTUNE_STATUS_RUNTIME_ERROR);
        }
        cutune_recording_free(r);
    }
    /* the same, gzip-compressed, from a file */
    cutune_recording *r = NULL;
    char err[512] = "";
    assert_int_equal(
        write_gz(path_in(f->path, sizeof f->path, f->dir, "open.json.gz"), KT_OPEN KT_ENTRIES), 0);
    assert_int_equal(cutune_recording_load(f->path, &r, err, sizeof err), 0);
    assert_int_equal(r->nrecords, 2);
    cutune_recording_free(r);
    /* a whole cache is not marked */
    const char *whole = KT_OPEN "\n\"1\": {\"x\": 1, \"time\": 1.5}}\n}\n";
    assert_int_equal(
        cutune_recording_load_buffer("t.json", whole, strlen(whole), &r, err, sizeof err), 0);
    assert_false(r->truncated_tail);
    cutune_recording_free(r);
    /* cut inside an entry: closing it does not make JSON, and the message says so */
    const char *cut = KT_OPEN KT_ENTRIES "\n\"3\": {\"x\": 3, \"ti";
    r = (cutune_recording *)1;
    assert_int_equal(cutune_recording_load_buffer("t.json", cut, strlen(cut), &r, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_null(r);
    assert_non_null(strstr(err, "t.json: malformed JSON at line 20"));
    assert_non_null(strstr(err, "ends unclosed"));
}

/* A cache tuned for another objective than time names it and its direction; an entry's
 * other numbers are its metrics. */
static void test_kt_objective(void **state)
{
    (void)state;
    static const struct {
        const char *objective;
        int code;
        const char *msg, *name;
        int max;
    } cases[] = {
        {"\"GFLOP/s\"", 0, "", "GFLOP/s", 1},
        {"\"GFLOP/s\", \"objective_higher_is_better\": false", 0, "", "GFLOP/s", 0},
        {"\"energy\"", 0, "", "energy", 0},
        {"\"energy\", \"objective_higher_is_better\": true", 0, "", "energy", 1},
        {"\"GFLOP/s\", \"objective_higher_is_better\": 1", CUTUNE_EPARSE,
         "t.json: objective_higher_is_better: expected true or false", NULL, 0},
        {"3", CUTUNE_EPARSE, "t.json: objective: expected a string", NULL, 0},
        {"\"time\"", 0, "", NULL, 0},
        {"null", 0, "", NULL, 0},
        /* the direction has its type whatever the objective, null saying nothing; time is
         * minimised, so a cache that says otherwise is refused, not replayed the other way */
        {"\"GFLOP/s\", \"objective_higher_is_better\": null", 0, "", "GFLOP/s", 1},
        {"\"time\", \"objective_higher_is_better\": false", 0, "", NULL, 0},
        {"\"time\", \"objective_higher_is_better\": 1", CUTUNE_EPARSE,
         "t.json: objective_higher_is_better: expected true or false", NULL, 0},
        {"null, \"objective_higher_is_better\": \"no\"", CUTUNE_EPARSE,
         "t.json: objective_higher_is_better: expected true or false", NULL, 0},
        {"\"time\", \"objective_higher_is_better\": true", CUTUNE_EPARSE,
         "t.json: objective_higher_is_better: true, but the objective is time", NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512], err[512] = "";
        cutune_recording *r = NULL;
        snprintf(text, sizeof text,
                 "{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2]},\"objective\":%s,"
                 "\"cache\":{\"1\":{\"x\":1,\"time\":1.0,\"GFLOP/s\":9.0,\"compile_time\":3,"
                 "\"note\":\"text\"}}}",
                 cases[i].objective);
        int rc = cutune_recording_load_buffer("t.json", text, strlen(text), &r, err, sizeof err);
        if (rc != cases[i].code || !strstr(err, cases[i].msg))
            fail_msg("case %zu: rc %d '%s'", i, rc, err);
        if (rc) {
            assert_null(r);
            continue;
        }
        assert_int_equal(r->nrecords, 1);
        if (cases[i].name) {
            assert_non_null(r->objective);
            assert_string_equal(r->objective, cases[i].name);
            assert_int_equal(r->objective_max, cases[i].max);
        } else {
            assert_null(r->objective);
        }
        /* the parameter, time, compile_time and the string are not metrics */
        assert_int_equal(r->records[0].nmetrics, 1);
        assert_string_equal(r->records[0].metrics[0].name, "GFLOP/s");
        assert_true(r->records[0].metrics[0].value == 9.0);
        cutune_recording_free(r);
    }
}

/* Kernel Tuner writes a failure as its marker in the objective's field of the entry
 * (result[objective] = InvalidConfig()), with or without a "time": in a cache tuned for
 * GFLOP/s that field is "GFLOP/s". */
static void test_kt_objective_markers(void **state)
{
    (void)state;
    static const char text[] =
        "{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1,2,3,4]},\"objective\":"
        "\"GFLOP/s\",\"objective_higher_is_better\":true,\"cache\":{"
        "\"1\":{\"x\":1,\"GFLOP/s\":\"InvalidConfig\"},"
        "\"2\":{\"x\":2,\"time\":1.5,\"times\":[1.5],\"GFLOP/s\":\"CompilationFailedConfig\"},"
        "\"3\":{\"x\":3,\"time\":\"RuntimeFailedConfig\",\"GFLOP/s\":\"RuntimeFailedConfig\"},"
        "\"4\":{\"x\":4,\"time\":2.0,\"GFLOP/s\":9.5}}}";
    char err[512] = "";
    cutune_recording *r = NULL;
    int rc = cutune_recording_load_buffer("t.json", text, strlen(text), &r, err, sizeof err);
    if (rc)
        fail_msg("rc %d '%s'", rc, err);
    assert_int_equal(r->nrecords, 4);
    assert_int_equal(r->records[0].status, CUTUNE_STATUS_LAUNCH_ERROR);
    assert_true(isnan(r->records[0].time_ms));
    assert_int_equal(r->records[1].status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_true(isnan(r->records[1].time_ms));
    assert_int_equal(r->records[2].status, CUTUNE_STATUS_RUNTIME_ERROR);
    assert_int_equal(r->records[3].status, CUTUNE_STATUS_OK);
    assert_true(r->records[3].time_ms == 2.0);
    assert_int_equal(r->records[3].nmetrics, 1);
    assert_true(r->records[3].metrics[0].value == 9.5);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(r->records[i].nmetrics, 0);
    cutune_recording_free(r);
    /* another string there is neither a value nor a marker; in a time cache, the field is
     * a metric like another and a marker there says nothing */
    expect_refused("t.json",
                   "{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1]},\"objective\":"
                   "\"GFLOP/s\",\"cache\":{\"1\":{\"x\":1,\"time\":1,\"GFLOP/s\":\"fast\"}}}",
                   CUTUNE_EPARSE,
                   "t.json: cache[\"1\"].GFLOP/s: expected a number or a failure marker (the "
                   "objective's field)",
                   "objective field", 0);
    expect_refused("t.json",
                   "{\"tune_params_keys\":[\"x\"],\"tune_params\":{\"x\":[1]},\"objective\":"
                   "\"GFLOP/s\",\"cache\":{\"1\":{\"x\":1,\"GFLOP/s\":7}}}",
                   CUTUNE_EPARSE, "t.json: cache[\"1\"]: missing \"time\"", "objective field", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kt_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kt_gzip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kt_gzip_members, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kt_gzip_truncated, setup, teardown),
        cmocka_unit_test(test_kt_bool_and_key_fallback),
        cmocka_unit_test(test_large_reals),
        cmocka_unit_test(test_kt_errors),
        cmocka_unit_test(test_kt_misreadings),
        cmocka_unit_test_setup_teardown(test_input_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal, setup, teardown),
        cmocka_unit_test(test_journal_header_only),
        cmocka_unit_test(test_space_modes),
        cmocka_unit_test(test_map_by_name),
        cmocka_unit_test(test_map_single_valued_extra),
        cmocka_unit_test_setup_teardown(test_kt_unterminated, setup, teardown),
        cmocka_unit_test(test_kt_objective),
        cmocka_unit_test(test_kt_objective_markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
