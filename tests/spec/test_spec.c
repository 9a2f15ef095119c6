/*
 * Tests of the kernel spec loader (src/spec): the shipped vector_add spec, overrides,
 * metrics, option substitution, resolve, and every kind of bad input. Bad specs are
 * written into a temporary directory beside a tiny .cu file; each bad case checks the
 * return code and that the message names the file and the JSON path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune/spec.h"
#include "src/spec/json_path.h"

static char tmpdir[256];
static char spec_path[512];

static const char tiny_cu[] =
    "extern \"C\" __global__ void k(float *c, int n) { }\n"
    "extern \"C\" __global__ void k_ref(float *c, int n) { }\n"
    "extern \"C\" __global__ void k_gen(float *buf, unsigned long long n, unsigned int seed) { }\n";

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static int setup_dir(void **state)
{
    char cu[320];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cutune_test_spec.XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(cu, sizeof cu, "%s/k.cu", tmpdir);
    write_file(cu, tiny_cu, sizeof tiny_cu - 1);
    snprintf(spec_path, sizeof spec_path, "%s/t.json", tmpdir);
    return 0;
}

static int teardown_dir(void **state)
{
    char cu[320];
    snprintf(cu, sizeof cu, "%s/k.cu", tmpdir);
    unlink(cu);
    unlink(spec_path);
    rmdir(tmpdir);
    return 0;
}

/* ------------------------------------------------------------------ spec builder */

typedef struct field {
    const char *key;
    const char *value;
} field;

/* A valid spec: 3 x 2 x 2 = 12 points, bs * ipt <= 128 keeps 5 x 2 = 10. */
static const field base[] = {
    {"source", "\"k.cu\""},
    {"kernel", "\"k\""},
    {"parameters", "{\"bs\": [32, 64, 128], \"ipt\": [1, 2], \"reg\": [0, 64]}"},
    {"restrictions", "[\"bs * ipt <= 128\"]"},
    {"sizes", "{\"N\": 1024, \"M\": 8}"},
    {"launch",
     "{\"grid\": [\"(N + bs - 1) / bs\", 1], \"block\": [\"bs\"], \"shared_mem\": \"bs * 4\"}"},
    {"compiler_options", "[\"--use_fast_math\", \"-maxrregcount={reg}\", \"-DX={N}\"]"},
    {"args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"N\", \"output\": true},"
             " {\"name\": \"a\", \"type\": \"float\", \"size\": \"N * M\", \"init\": \"random\", "
             "\"range\": [-1, 1]},"
             " {\"name\": \"n\", \"type\": \"int\", \"value\": \"N\"}]"},
    {"reference", "{\"kernel\": \"k_ref\", \"grid\": [\"N / 64\"], \"block\": [64]}"},
    {"metrics", "{\"GB/s\": \"N * 8.0 / time_s / 1e9\", \"per_item_ms\": \"time_ms / N\"}"},
};
#define NBASE (sizeof base / sizeof base[0])

/*
 * The base spec with key's value replaced (value NULL: key dropped; key not in base:
 * added), and key2's too when key2 is not NULL.
 */
static char *spec_with2(const char *key, const char *value, const char *key2, const char *value2)
{
    size_t cap = 4096 + (value ? strlen(value) : 0) + (value2 ? strlen(value2) : 0), n = 0;
    for (size_t i = 0; i < NBASE; i++)
        cap += strlen(base[i].key) + strlen(base[i].value) + 8;
    char *buf = malloc(cap);
    int found = 0;
    assert_non_null(buf);
    n += (size_t)snprintf(buf + n, cap - n, "{");
    for (size_t i = 0; i < NBASE; i++) {
        const char *v = base[i].value;
        if (key && strcmp(key, base[i].key) == 0) {
            found = 1;
            v = value;
        }
        if (key2 && strcmp(key2, base[i].key) == 0)
            v = value2;
        if (!v)
            continue;
        n += (size_t)snprintf(buf + n, cap - n, "%s\n  \"%s\": %s", n > 1 ? "," : "", base[i].key,
                              v);
    }
    if (key && !found && value)
        n += (size_t)snprintf(buf + n, cap - n, ",\n  \"%s\": %s", key, value);
    snprintf(buf + n, cap - n, "\n}\n");
    return buf;
}

static char *spec_with(const char *key, const char *value)
{
    return spec_with2(key, value, NULL, NULL);
}

static int load_text(const char *json, const cutune_size_override *ov, size_t nov, cutune_spec **s,
                     char *err, size_t errlen)
{
    write_file(spec_path, json, strlen(json));
    return cutune_spec_load(spec_path, ov, nov, s, err, errlen);
}

static void expect_error_ov(const char *json, const cutune_size_override *ov, size_t nov, int code,
                            const char *needle1, const char *needle2)
{
    char err[1024] = "";
    cutune_spec *s = (cutune_spec *)0x1;
    int rc = load_text(json, ov, nov, &s, err, sizeof err);
    if (rc != code || !strstr(err, spec_path) || (needle1 && !strstr(err, needle1)) ||
        (needle2 && !strstr(err, needle2)))
        print_error("rc %d (want %d), message: %s\n(want '%s' and '%s')\n", rc, code, err,
                    needle1 ? needle1 : "", needle2 ? needle2 : "");
    assert_int_equal(rc, code);
    assert_null(s);
    assert_non_null(strstr(err, spec_path));
    if (needle1)
        assert_non_null(strstr(err, needle1));
    if (needle2)
        assert_non_null(strstr(err, needle2));
}

static void expect_error(const char *json, int code, const char *needle1, const char *needle2)
{
    expect_error_ov(json, NULL, 0, code, needle1, needle2);
}

/* One bad field: replace key by value and expect code with "PATH: " in the message. */
static void bad_field(const char *key, const char *value, int code, const char *path,
                      const char *reason)
{
    char *json = spec_with(key, value);
    char needle[600];
    snprintf(needle, sizeof needle, "%s: ", path);
    expect_error(json, code, needle, reason);
    free(json);
}

/* ------------------------------------------------------------------ the shipped spec */

static void test_vector_add(void **state)
{
    char path[1024], err[1024] = "";
    cutune_spec *s = NULL;
    assert_int_equal(cutune_spec_resolve("vector_add", path, sizeof path, err, sizeof err), 0);
    assert_non_null(strstr(path, "vector_add.json"));
    int rc = cutune_spec_load(path, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(s->name, "vector_add");
    assert_string_equal(s->kernel_name, "vector_add");
    assert_non_null(strstr(s->source_path, "vector_add.cu"));
    assert_non_null(strstr(s->source, "vector_add_ref"));
    assert_int_equal(cutune_space_nparams(s->space), 3);
    assert_int_equal(s->nsizes, 1);
    /* 6 block sizes x (4 x 3 - the one pair with items * width > 16) */
    assert_int_equal(cutune_space_size(s->space), 6 * 11);
    assert_int_equal(s->nargs, 4);
    assert_int_equal(s->args[0].kind, CUTUNE_ARG_BUFFER);
    assert_true(s->args[0].output);
    assert_int_equal(s->args[1].init, CUTUNE_INIT_RANDOM);
    assert_true(s->args[1].init_lo == -1.0 && s->args[1].init_hi == 1.0);
    assert_int_equal(s->args[3].kind, CUTUNE_ARG_SCALAR);
    assert_int_equal(s->args[3].type, CUTUNE_ELEM_INT32);
    assert_int_equal(s->ref_kind, CUTUNE_REF_KERNEL);
    assert_string_equal(s->ref_name, "vector_add_ref");
    for (int d = 0; d < 3; d++) {
        assert_non_null(s->grid[d]);
        assert_non_null(s->block[d]);
        assert_non_null(s->ref_grid[d]);
        assert_non_null(s->ref_block[d]);
    }
    assert_int_equal(s->nmetrics, 1);
    assert_string_equal(s->metrics[0].name, "GB/s");
    assert_string_equal(s->objective, "time");
    assert_non_null(s->recording);
    assert_non_null(strstr(s->recording, "data/vector_add.jsonl.gz"));
    /* where the file names it, for the messages about a recording that cannot be read */
    assert_non_null(s->recording_at);
    assert_non_null(strstr(s->recording_at, "vector_add.json:29: recording"));
    assert_int_equal(strlen(s->hash), 16);
    assert_int_equal(strspn(s->hash, "0123456789abcdef"), 16);

    /* GB/s at 1 ms: 3 arrays x 4 bytes x 2^24 / 1e-3 s / 1e9 */
    double gbs = 0;
    assert_int_equal(cutune_spec_metrics(s, 0, 1.0, &gbs, err, sizeof err), 0);
    assert_true(fabs(gbs - 3.0 * 4 * 16777216 / 1e-3 / 1e9) < 1e-6);

    /* grid at configuration 0 (block 32, 1 item, width 1): N / 32 */
    cutune_value vars[8];
    double g;
    cutune_space_values(s->space, 0, vars);
    assert_int_equal(cutune_expr_eval_double(s->grid[0], vars, &g, err, sizeof err), 0);
    assert_true(g == 16777216 / 32);
    cutune_spec_free(s);
}

static void test_list_and_resolve(void **state)
{
    char path[1024], err[1024] = "";
    char **names = cutune_spec_list_kernels();
    int found = 0;
    assert_non_null(names);
    for (size_t i = 0; names[i]; i++) {
        found |= strcmp(names[i], "vector_add") == 0;
        if (i)
            assert_true(strcmp(names[i - 1], names[i]) < 0);
    }
    for (size_t i = 0; names[i]; i++)
        free(names[i]);
    free(names);
    assert_true(found);

    assert_int_equal(cutune_spec_resolve("some/dir/x.json", path, sizeof path, err, sizeof err), 0);
    assert_string_equal(path, "some/dir/x.json");
    assert_int_equal(cutune_spec_resolve("x.json", path, sizeof path, err, sizeof err), 0);
    assert_string_equal(path, "x.json");
    assert_int_equal(cutune_spec_resolve("no_such_kernel", path, sizeof path, err, sizeof err),
                     CUTUNE_ENOTFOUND);
    assert_non_null(strstr(err, "no_such_kernel"));
    assert_non_null(strstr(err, "vector_add"));
    assert_int_equal(cutune_spec_resolve("", path, sizeof path, err, sizeof err), CUTUNE_EINVAL);
    cutune_spec_free(NULL);
}

/* ------------------------------------------------------------------ the base spec */

static void test_base(void **state)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(NULL, NULL);
    int rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(s->name, "t"); /* the file stem */
    assert_string_equal(s->path, spec_path);
    assert_int_equal(cutune_space_size(s->space), 10);
    assert_int_equal(s->nsizes, 2);
    assert_true(s->rtol == 1e-5);
    assert_true(isinf(s->atol));
    assert_null(s->recording);
    assert_non_null(s->shared_mem);
    assert_null(s->ref_shared_mem);
    assert_int_equal(s->args[0].init, CUTUNE_INIT_ZEROS); /* outputs default to zeros */
    assert_int_equal(s->args[1].init, CUTUNE_INIT_RANDOM);

    /* missing launch dimensions are 1 */
    cutune_value vars[8];
    double v;
    cutune_space_values(s->space, 0, vars);
    assert_int_equal(cutune_expr_eval_double(s->grid[2], vars, &v, err, sizeof err), 0);
    assert_true(v == 1);
    assert_int_equal(cutune_expr_eval_double(s->block[1], vars, &v, err, sizeof err), 0);
    assert_true(v == 1);
    assert_int_equal(cutune_expr_eval_double(s->grid[0], vars, &v, err, sizeof err), 0);
    assert_true(v == 1024 / 32);

    /* same text, same hash; loading again is deterministic */
    char hash[17];
    memcpy(hash, s->hash, sizeof hash);
    cutune_spec_free(s);
    assert_int_equal(load_text(json, NULL, 0, &s, err, sizeof err), 0);
    assert_string_equal(s->hash, hash);
    cutune_spec_free(s);

    /* load_buffer resolves the source against source_dir */
    rc = cutune_spec_load_buffer("buf.json", json, strlen(json), tmpdir, NULL, 0, &s, err,
                                 sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(s->name, "buf");
    assert_string_equal(s->hash, hash);
    cutune_spec_free(s);
    free(json);
}

static void test_overrides(void **state)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(NULL, NULL);
    char hash[17];
    assert_int_equal(load_text(json, NULL, 0, &s, err, sizeof err), 0);
    memcpy(hash, s->hash, sizeof hash);
    cutune_spec_free(s);

    cutune_size_override ov[2] = {
        {.name = "N", .value = {.type = CUTUNE_VALUE_INT, .i = 4096}},
        {.name = "M", .value = {.type = CUTUNE_VALUE_REAL, .r = 16.0}},
    };
    int rc = load_text(json, ov, 2, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(cutune_space_constant_name(s->space, 0), "N");
    cutune_value n = cutune_space_constant_value(s->space, 0);
    cutune_value m = cutune_space_constant_value(s->space, 1);
    assert_int_equal(n.type, CUTUNE_VALUE_INT);
    assert_int_equal(n.i, 4096);
    assert_int_equal(m.type, CUTUNE_VALUE_INT); /* an integral override of an int size */
    assert_int_equal(m.i, 16);
    assert_string_not_equal(s->hash, hash); /* another size: another hash */

    char **opts;
    size_t nopts;
    assert_int_equal(cutune_spec_options(s, 0, &opts, &nopts, err, sizeof err), 0);
    assert_int_equal(nopts, 2);
    assert_string_equal(opts[1], "-DX=4096");
    for (size_t i = 0; i < nopts; i++)
        free(opts[i]);
    free(opts);
    cutune_spec_free(s);

    /* unknown size: an error listing the valid sizes */
    cutune_size_override bad = {.name = "Q", .value = {.type = CUTUNE_VALUE_INT, .i = 1}};
    expect_error_ov(json, &bad, 1, CUTUNE_ENOTFOUND, "sizes: ", "valid sizes: N, M");
    /* a fractional override of an integer size */
    cutune_size_override frac = {.name = "N", .value = {.type = CUTUNE_VALUE_REAL, .r = 1.5}};
    expect_error_ov(json, &frac, 1, CUTUNE_EINVAL, "sizes.N: ", "not an integer");
    cutune_size_override str = {.name = "N", .value = {.type = CUTUNE_VALUE_STRING, .s = "x"}};
    expect_error_ov(json, &str, 1, CUTUNE_EINVAL, "sizes.N: ", "not a number");
    /* a size that makes a buffer negative is refused at load, naming the buffer's field,
     * not left to fail every evaluation of the run */
    cutune_size_override neg = {.name = "N", .value = {.type = CUTUNE_VALUE_INT, .i = -5}};
    expect_error_ov(json, &neg, 1, CUTUNE_EMATH, "args[0].size: ", "evaluates to -5, below 0");
    cutune_size_override negm = {.name = "M", .value = {.type = CUTUNE_VALUE_INT, .i = -1}};
    expect_error_ov(json, &negm, 1, CUTUNE_EMATH, "args[1].size: ", "evaluates to -1024");
    /* an empty buffer is allowed */
    cutune_size_override zero = {.name = "M", .value = {.type = CUTUNE_VALUE_INT, .i = 0}};
    rc = load_text(json, &zero, 1, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    cutune_spec_free(s);
    free(json);

    /* an integral override of a real size stays real (S / 2 must stay 0.5, not 0) */
    json = spec_with("sizes", "{\"N\": 1024, \"M\": 8, \"S\": 1.5}");
    cutune_size_override real = {.name = "S", .value = {.type = CUTUNE_VALUE_INT, .i = 1}};
    rc = load_text(json, &real, 1, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    cutune_value sv = cutune_space_constant_value(s->space, 2);
    assert_string_equal(cutune_space_constant_name(s->space, 2), "S");
    assert_int_equal(sv.type, CUTUNE_VALUE_REAL);
    assert_true(sv.r == 1.0);
    cutune_spec_free(s);
    free(json);
}

static void test_metrics(void **state)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(NULL, NULL);
    assert_int_equal(load_text(json, NULL, 0, &s, err, sizeof err), 0);
    double out[2];
    assert_int_equal(cutune_spec_metrics(s, 3, 2.0, out, err, sizeof err), 0);
    assert_true(fabs(out[0] - 1024 * 8.0 / 2e-3 / 1e9) < 1e-12);
    assert_true(fabs(out[1] - 2.0 / 1024) < 1e-15);
    /* time 0: GB/s divides by zero -> NAN and an error naming the metric; the other is fine */
    int rc = cutune_spec_metrics(s, 0, 0.0, out, err, sizeof err);
    if (rc) {
        assert_int_equal(rc, CUTUNE_EMATH);
        assert_non_null(strstr(err, "metrics[\"GB/s\"]"));
        assert_true(isnan(out[0]));
    } else {
        assert_true(isinf(out[0])); /* real division by zero may give inf */
    }
    assert_true(out[1] == 0.0);
    assert_int_equal(cutune_spec_metrics(s, 10, 1.0, out, err, sizeof err), CUTUNE_EINVAL);
    cutune_spec_free(s);
    free(json);
}

static void test_options(void **state)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(NULL, NULL);
    char **opts = NULL;
    size_t n = 0;
    assert_int_equal(load_text(json, NULL, 0, &s, err, sizeof err), 0);
    /* id 0 is bs=32, ipt=1, reg=0: -maxrregcount=0 is dropped */
    assert_int_equal(cutune_spec_options(s, 0, &opts, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(opts[0], "--use_fast_math");
    assert_string_equal(opts[1], "-DX=1024");
    assert_null(opts[2]);
    for (size_t i = 0; i < n; i++)
        free(opts[i]);
    free(opts);
    /* id 1 is reg=64 */
    assert_int_equal(cutune_spec_options(s, 1, &opts, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(opts[1], "-maxrregcount=64");
    for (size_t i = 0; i < n; i++)
        free(opts[i]);
    free(opts);
    assert_int_equal(cutune_spec_options(s, 99, &opts, &n, err, sizeof err), CUTUNE_EINVAL);
    cutune_spec_free(s);
    free(json);

    /* real and string values substitute as Python prints them */
    json = spec_with("parameters", "{\"bs\": [32], \"ipt\": [1], \"reg\": [0], \"f\": [0.5, 2.0], "
                                   "\"mode\": [\"fast\", \"slow\"]}");
    char *j2 = NULL;
    {
        /* add an option using the new parameters */
        const char *from = "\"-DX={N}\"";
        char *at = strstr(json, from);
        assert_non_null(at);
        j2 = malloc(strlen(json) + 64);
        memcpy(j2, json, (size_t)(at - json));
        sprintf(j2 + (at - json), "\"-DF={f}\", \"-DMODE_{mode}\"%s", at + strlen(from));
    }
    int rc = load_text(j2, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    const cutune_param *f = cutune_space_param(s->space, 3);
    assert_int_equal(f->values[0].type, CUTUNE_VALUE_REAL);
    assert_int_equal(f->values[1].type, CUTUNE_VALUE_REAL); /* 2.0 stays real, as in Python */
    assert_int_equal(cutune_spec_options(s, 0, &opts, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(opts[1], "-DF=0.5");
    assert_string_equal(opts[2], "-DMODE_fast");
    for (size_t i = 0; i < n; i++)
        free(opts[i]);
    free(opts);
    assert_int_equal(cutune_spec_options(s, 3, &opts, &n, err, sizeof err), 0);
    assert_string_equal(opts[1], "-DF=2.0");
    assert_string_equal(opts[2], "-DMODE_slow");
    for (size_t i = 0; i < n; i++)
        free(opts[i]);
    free(opts);
    cutune_spec_free(s);
    free(j2);
    free(json);
}

static void test_values(void **state)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    /* int + real may mix; big integers keep every digit (bs stays whole: it sets the
     * launch geometry, which must be) */
    char *json = spec_with2("parameters",
                            "{\"bs\": [32, 64], \"ipt\": [9007199254740993], "
                            "\"reg\": [-1, 1e2, 64.5]}",
                            "restrictions", "[]");
    int rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    const cutune_param *p = cutune_space_param(s->space, 0);
    assert_int_equal(p->values[0].type, CUTUNE_VALUE_INT);
    p = cutune_space_param(s->space, 1);
    assert_int_equal(p->values[0].type, CUTUNE_VALUE_INT);
    assert_true(p->values[0].i == 9007199254740993LL);
    p = cutune_space_param(s->space, 2);
    assert_int_equal(p->values[0].type, CUTUNE_VALUE_INT);
    assert_int_equal(p->values[1].type, CUTUNE_VALUE_REAL);
    assert_int_equal(p->values[2].type, CUTUNE_VALUE_REAL);
    cutune_spec_free(s);
    free(json);

    /* integers past 2^53 are told apart exactly (their doubles are one) */
    json = spec_with2("parameters",
                      "{\"bs\": [32, 64], \"ipt\": [9007199254740992, 9007199254740993], "
                      "\"reg\": [0]}",
                      "restrictions", "[]");
    rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(cutune_space_param(s->space, 1)->nvalues, 2);
    cutune_spec_free(s);
    free(json);

    /* sizes written as 1e3 are integers */
    json = spec_with("sizes", "{\"N\": 1e3, \"M\": 0.25}");
    rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(cutune_space_constant_value(s->space, 0).type, CUTUNE_VALUE_INT);
    assert_int_equal(cutune_space_constant_value(s->space, 0).i, 1000);
    assert_int_equal(cutune_space_constant_value(s->space, 1).type, CUTUNE_VALUE_REAL);
    cutune_spec_free(s);
    free(json);

    /* a builtin reference, tolerance, recording relative to the JSON */
    json = spec_with("reference", "{\"builtin\": \"cublas_sgemm\"}");
    char *j2 = malloc(strlen(json) + 128);
    strcpy(j2, json);
    strcpy(strrchr(j2, '}'), ", \"tolerance\": {\"atol\": 0.5}, \"recording\": \"../r.json\"}");
    rc = load_text(j2, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(s->ref_kind, CUTUNE_REF_BUILTIN);
    assert_string_equal(s->ref_name, "cublas_sgemm");
    assert_true(s->atol == 0.5 && s->rtol == 1e-5);
    char want[400];
    snprintf(want, sizeof want, "%s/../r.json", tmpdir);
    assert_string_equal(s->recording, want);
    cutune_spec_free(s);
    free(j2);
    free(json);
}

/* ------------------------------------------------------------------ bad input */

static void test_malformed(void **state)
{
    expect_error("{\"parameters\": {\"a\": [1, 2}}", CUTUNE_EPARSE, "malformed JSON", "byte 26");
    expect_error("{\n  \"parameters\": {\n    \"a\": [1, 2,, 3]\n  }\n}", CUTUNE_EPARSE, "line 3",
                 "byte");
    expect_error("", CUTUNE_EPARSE, "malformed JSON", "end of input");
    expect_error("{} trailing", CUTUNE_EPARSE, "malformed JSON", "byte 3");
    expect_error("[1, 2]", CUTUNE_EINVAL, "object", NULL);

    /* truncated at every 7th byte: always EPARSE naming a byte, never a crash */
    char *json = spec_with(NULL, NULL);
    size_t len = strlen(json);
    for (size_t cut = 0; cut + 3 < len; cut += 7) {
        char err[1024] = "";
        cutune_spec *s = NULL;
        int rc =
            cutune_spec_load_buffer("cut.json", json, cut, tmpdir, NULL, 0, &s, err, sizeof err);
        assert_int_equal(rc, CUTUNE_EPARSE);
        assert_null(s);
        assert_non_null(strstr(err, "cut.json: "));
        assert_non_null(strstr(err, "byte"));
    }
    free(json);

    /* a NUL byte inside the buffer */
    char err[1024] = "";
    cutune_spec *s = NULL;
    assert_int_equal(cutune_spec_load_buffer("nul.json", "{\"a\"\0: 1}", 9, tmpdir, NULL, 0, &s,
                                             err, sizeof err),
                     CUTUNE_EPARSE);
    assert_non_null(strstr(err, "nul.json: "));
    assert_non_null(strstr(err, "byte 4"));
    /* bytes that are not UTF-8 (JSON text is UTF-8): a lone continuation byte, an overlong
     * '/', a surrogate, one past U+10FFFF and a sequence cut by the end; named by line,
     * column and byte. Well-formed UTF-8 of every length loads (as far as the name). */
    static const struct {
        const char *text, *where;
    } bad8[] = {
        {"{\"name\": \"a\x80\"}", "line 1, column 12 (byte 11, 0x80)"},
        {"{\n\"name\": \"\xc0\xaf\"}", "line 2, column 10 (byte 11, 0xc0)"},
        {"{\"name\": \"\xed\xa0\x80\"}", "byte 10, 0xed"},
        {"{\"name\": \"\xf4\x90\x80\x80\"}", "byte 10, 0xf4"},
        {"{\"name\": \"\xe2\x82", "byte 10, 0xe2"},
    };
    for (size_t i = 0; i < sizeof bad8 / sizeof bad8[0]; i++) {
        assert_int_equal(cutune_spec_load_buffer("u.json", bad8[i].text, strlen(bad8[i].text),
                                                 tmpdir, NULL, 0, &s, err, sizeof err),
                         CUTUNE_EPARSE);
        assert_null(s);
        if (!strstr(err, "u.json: not UTF-8") || !strstr(err, bad8[i].where))
            fail_msg("case %zu: %s", i, err);
    }
    static const char good8[] = "{\"name\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80\"}";
    assert_int_equal(cutune_spec_load_buffer("u.json", good8, strlen(good8), tmpdir, NULL, 0, &s,
                                             err, sizeof err),
                     CUTUNE_EIO); /* past the UTF-8 check, to the missing source u.cu */
    assert_non_null(strstr(err, "u.cu"));
    /* a missing file */
    assert_int_equal(cutune_spec_load("/nonexistent/x.json", NULL, 0, &s, err, sizeof err),
                     CUTUNE_EIO);
    assert_non_null(strstr(err, "/nonexistent/x.json"));
}

/* The line of the first occurrence of needle in text (1-based). */
static size_t line_of_text(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    assert_non_null(at);
    size_t line = 1;
    for (const char *c = text; c < at; c++)
        line += *c == '\n';
    return line;
}

static void test_unknown_fields(void **state)
{
    /* at the top level the message names the unknown member's line */
    char *json = spec_with("kernal", "\"k\""), needle[700];
    snprintf(needle, sizeof needle, "%s:%zu: unknown field 'kernal'", spec_path,
             line_of_text(json, "\"kernal\""));
    expect_error(json, CUTUNE_EINVAL, needle, "valid fields: name, description, source");
    free(json);
    /* a missing top-level field: the line of the object that lacks it (the root) */
    json = spec_with("launch", NULL);
    snprintf(needle, sizeof needle, "%s:1: launch: missing", spec_path);
    expect_error(json, CUTUNE_EINVAL, needle, NULL);
    free(json);
    bad_field("launch", "{\"grid\": [1], \"blocks\": [1]}", CUTUNE_EINVAL, "launch",
              "unknown field 'blocks'");
    bad_field("launch", "{\"grid\": [1], \"block\": [1], \"grid\": [2]}", CUTUNE_EINVAL, "launch",
              "twice");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"ouptut\": true}]",
              CUTUNE_EINVAL, "args[0]", "unknown field 'ouptut'");
    bad_field("reference", "{\"kernel\": \"k_ref\", \"grid\": [1], \"block\": [1], \"smem\": 0}",
              CUTUNE_EINVAL, "reference", "unknown field 'smem'");
    bad_field("tolerance", "{\"rtoll\": 1}", CUTUNE_EINVAL, "tolerance", "unknown field 'rtoll'");
}

static void test_wrong_types(void **state)
{
    bad_field("name", "5", CUTUNE_EINVAL, "name", "expected a string");
    bad_field("name", "\"\"", CUTUNE_EINVAL, "name", "empty");
    bad_field("source", "[]", CUTUNE_EINVAL, "source", "expected a string");
    bad_field("kernel", "1", CUTUNE_EINVAL, "kernel", "expected a string");
    bad_field("kernel", "\"nope\"", CUTUNE_ENOTFOUND, "kernel", "'nope' not found");
    bad_field("parameters", "[]", CUTUNE_EINVAL, "parameters", "expected an object");
    bad_field("parameters", NULL, CUTUNE_EINVAL, "parameters", "missing");
    bad_field("parameters", "{}", CUTUNE_EINVAL, "parameters", "no parameters");
    bad_field("parameters", "{\"bs\": 5, \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs", "expected an array");
    bad_field("parameters", "{\"bs\": [], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs", "empty");
    bad_field("parameters", "{\"bs\": [32, \"x\"], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "mixes strings and numbers");
    bad_field("parameters", "{\"bs\": [32, [64]], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "got an array");
    bad_field("parameters", "{\"bs\": [32, {}], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "got an object");
    bad_field("parameters", "{\"bs\": [32, true], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "got a boolean");
    bad_field("parameters", "{\"bs\": [32, null], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "got null");
    bad_field("parameters", "{\"bs\": [32, 64, 32], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[2]", "duplicate value");
    bad_field("parameters", "{\"bs\": [\"a\", \"a\"], \"ipt\": [1], \"reg\": [0]}", CUTUNE_EINVAL,
              "parameters.bs[1]", "duplicate value");
    bad_field("parameters", "{\"bs\": [32], \"bs\": [64], \"ipt\": [1], \"reg\": [0]}",
              CUTUNE_EINVAL, "parameters", "'bs' given twice");
    bad_field("parameters", "{\"bs\": [32], \"ipt\": [1], \"reg\": [0], \"time_ms\": [1]}",
              CUTUNE_EINVAL, "parameters.time_ms", "reserved");
    bad_field("parameters", "{\"bs\": [32], \"ipt\": [1], \"reg\": [0], \"and\": [1]}",
              CUTUNE_EINVAL, "parameters.and", "keyword");
    bad_field("parameters", "{\"bs\": [32], \"ipt\": [1], \"reg\": [0], \"True\": [1]}",
              CUTUNE_EINVAL, "parameters.True", "keyword");
    bad_field("parameters", "{\"bs\": [32], \"ipt\": [1], \"reg\": [0], \"a-b\": [1]}",
              CUTUNE_EINVAL, "parameters[\"a-b\"]", "not an identifier");
    bad_field("parameters", "{\"bs\": [32], \"ipt\": [99999999999999999999], \"reg\": [0]}",
              CUTUNE_EINVAL, "parameters.ipt[0]", "out of range");
    bad_field("restrictions", "\"bs > 1\"", CUTUNE_EINVAL, "restrictions", "expected an array");
    bad_field("restrictions", "[5]", CUTUNE_EINVAL, "restrictions[0]", "expected an expression");
    bad_field("restrictions", "[\"bs > 1\", \"\"]", CUTUNE_EINVAL, "restrictions[1]", "empty");
    bad_field("restrictions", "[\"bs > 1\", \"bs >\"]", CUTUNE_EPARSE, "restrictions[1]", NULL);
    /* an error while enumerating names the restriction that raised it */
    bad_field("restrictions", "[\"bs > 1\", \"4 / (bs - 32) > 0\"]", CUTUNE_EMATH,
              "restrictions[1]", "division by zero");
    bad_field("restrictions", "[\"bs > 1 and ipt < 4\", \"1 < bs == 1\"]", CUTUNE_EPARSE,
              "restrictions[1]", "column 8");
    bad_field("sizes", "{\"N\": 1, \"M\": 8, \"not\": 3}", CUTUNE_EINVAL, "sizes.not", "keyword");
    bad_field("sizes", "[]", CUTUNE_EINVAL, "sizes", "expected an object");
    bad_field("sizes", "{\"N\": \"big\", \"M\": 8}", CUTUNE_EINVAL, "sizes.N", "expected a number");
    bad_field("sizes", "{\"N\": 1, \"M\": 8, \"bs\": 3}", CUTUNE_EINVAL, "sizes.bs",
              "also a parameter");
    bad_field("launch", "[]", CUTUNE_EINVAL, "launch", "expected an object");
    bad_field("launch", NULL, CUTUNE_EINVAL, "launch", "missing");
    bad_field("launch", "{\"grid\": 5, \"block\": [1]}", CUTUNE_EINVAL, "launch.grid",
              "expected an array");
    bad_field("launch", "{\"grid\": [1, 1, 1, 1], \"block\": [1]}", CUTUNE_EINVAL, "launch.grid",
              "1-3 entries");
    bad_field("launch", "{\"grid\": [], \"block\": [1]}", CUTUNE_EINVAL, "launch.grid",
              "1-3 entries");
    bad_field("launch", "{\"grid\": [1]}", CUTUNE_EINVAL, "launch.block", "missing");
    bad_field("launch", "{\"grid\": [1], \"block\": [1, true]}", CUTUNE_EINVAL, "launch.block[1]",
              "got a boolean");
    bad_field("launch", "{\"grid\": [1], \"block\": [\"  \"]}", CUTUNE_EINVAL, "launch.block[0]",
              "empty expression");
    bad_field("launch", "{\"grid\": [1], \"block\": [1], \"shared_mem\": {}}", CUTUNE_EINVAL,
              "launch.shared_mem", "got an object");
    bad_field("launch", "{\"grid\": [\"bz\"], \"block\": [1]}", CUTUNE_ENOTFOUND, "launch.grid[0]",
              "unknown parameter 'bz'");
    bad_field("compiler_options", "\"-O3\"", CUTUNE_EINVAL, "compiler_options",
              "expected an array");
    bad_field("compiler_options", "[\"a\", 1]", CUTUNE_EINVAL, "compiler_options[1]",
              "expected a string");
    bad_field("compiler_options", "[\"-D{nope}\"]", CUTUNE_ENOTFOUND, "compiler_options[0]",
              "'nope'");
    bad_field("compiler_options", "[\"-D{bs\"]", CUTUNE_EPARSE, "compiler_options[0]",
              "unterminated");
    bad_field("args", "{}", CUTUNE_EINVAL, "args", "expected an array");
    bad_field("args", NULL, CUTUNE_EINVAL, "args", "missing");
    bad_field("args", "[5]", CUTUNE_EINVAL, "args[0]", "expected an object");
    /* random data by default: floats [0, 1), integers 0..99 (not [0, 1): all zeros) */
    {
        char err[1024] = "";
        cutune_spec *s = NULL;
        char *json = spec_with(
            "args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 4, \"output\": true}, "
                    "{\"name\": \"f\", \"type\": \"float\", \"size\": 4}, "
                    "{\"name\": \"i\", \"type\": \"int32\", \"size\": 4, \"init\": \"random\"}, "
                    "{\"name\": \"u\", \"type\": \"uint8\", \"size\": 4}]");
        int rc = load_text(json, NULL, 0, &s, err, sizeof err);
        if (rc)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        assert_true(s->args[1].init_lo == 0.0 && s->args[1].init_hi == 1.0);
        assert_true(s->args[2].init_lo == 0.0 && s->args[2].init_hi == 100.0);
        assert_true(s->args[3].init_lo == 0.0 && s->args[3].init_hi == 100.0);
        cutune_spec_free(s);
        free(json);
    }
    /* inout: an output that is restored, so it is an output too; only buffers take it */
    {
        char err[1024] = "";
        cutune_spec *s = NULL;
        char *json = spec_with(
            "args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 4, \"inout\": true}, "
                    "{\"name\": \"d\", \"type\": \"float\", \"size\": 4, \"output\": true, "
                    "\"inout\": false}]");
        int rc = load_text(json, NULL, 0, &s, err, sizeof err);
        if (rc)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        assert_true(s->args[0].inout && s->args[0].output);
        assert_true(!s->args[1].inout && s->args[1].output);
        cutune_spec_free(s);
        free(json);
    }
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"inout\": 1}]",
              CUTUNE_EINVAL, "args[0].inout", "expected true or false");
    bad_field("args", "[{\"name\": \"n\", \"type\": \"int32\", \"value\": 1, \"inout\": true}]",
              CUTUNE_EINVAL, "args[0].inout", "only buffers");
    bad_field("args",
              "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"output\": false, "
              "\"inout\": true}]",
              CUTUNE_EINVAL, "args[0].inout", "an inout buffer is an output");
    /* no built-in generators: an unknown init name is an error at load, naming the field */
    bad_field("args",
              "[{\"name\": \"r\", \"type\": \"int32\", \"size\": 4, \"init\": \"csr_row_ptr\"}]",
              CUTUNE_EINVAL, "args[0].init", "not random, zeros, ones, range or kernel:NAME");
    bad_field("args", "[{\"type\": \"float\", \"size\": 1}]", CUTUNE_EINVAL, "args[0].name",
              "missing");
    bad_field("args",
              "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1}, {\"name\": \"n\", "
              "\"type\": \"quad\", \"value\": 1}]",
              CUTUNE_EINVAL, "args[1].type", "unknown type 'quad'");
    bad_field("args", "[{\"name\": \"c\", \"type\": 4, \"size\": 1}]", CUTUNE_EINVAL,
              "args[0].type", "expected a string");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"value\": 2}]",
              CUTUNE_EINVAL, "args[0]", "not both");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\"}]", CUTUNE_EINVAL, "args[0]",
              "not neither");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"output\": 1}]",
              CUTUNE_EINVAL, "args[0].output", "expected true or false");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"range\": [1]}]",
              CUTUNE_EINVAL, "args[0].range", "[lo, hi]");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"range\": [2, 1]}]",
              CUTUNE_EINVAL, "args[0].range", "below");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"init\": \"a b\"}]",
              CUTUNE_EINVAL, "args[0].init", "is not random");
    bad_field("args", "[{\"name\": \"n\", \"type\": \"int\", \"value\": 1, \"output\": true}]",
              CUTUNE_EINVAL, "args[0].output", "only buffers");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"MM\"}]",
              CUTUNE_ENOTFOUND, "args[0].size", "unknown parameter 'MM' at column 1");
    bad_field("args",
              "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1}, {\"name\": \"c\", "
              "\"type\": \"float\", \"size\": 1}]",
              CUTUNE_EINVAL, "args[1]", "also used");
    bad_field("reference", "\"k_ref\"", CUTUNE_EINVAL, "reference", "expected an object");
    bad_field("reference", "{\"grid\": [1], \"block\": [1]}", CUTUNE_EINVAL, "reference",
              "neither");
    bad_field("reference", "{\"kernel\": \"k_reff\", \"grid\": [1], \"block\": [1]}",
              CUTUNE_ENOTFOUND, "reference.kernel", "not found");
    bad_field("reference", "{\"kernel\": \"k_ref\", \"grid\": [\"N / bs\"], \"block\": [1]}",
              CUTUNE_EINVAL, "reference.grid[0]", "'bs'");
    bad_field("reference", "{\"kernel\": \"k_ref\", \"grid\": [1]}", CUTUNE_EINVAL,
              "reference.block", "missing");
    bad_field("reference", "{\"builtin\": \"cublas_sgemm\", \"grid\": [1]}", CUTUNE_EINVAL,
              "reference.grid", "builtin");
    bad_field("reference", "{\"builtin\": \"cublas_dgemm\"}", CUTUNE_ENOTFOUND, "reference.builtin",
              "'cublas_dgemm' is unknown");
    bad_field("tolerance", "[]", CUTUNE_EINVAL, "tolerance", "expected an object");
    bad_field("tolerance", "{\"rtol\": \"small\"}", CUTUNE_EINVAL, "tolerance.rtol",
              "expected a number");
    bad_field("tolerance", "{\"atol\": -1}", CUTUNE_EINVAL, "tolerance.atol", ">= 0");
    bad_field("objective", "\" \"", CUTUNE_EINVAL, "objective", "empty");
    bad_field("objective", "7", CUTUNE_EINVAL, "objective", "expected a string");
    bad_field("metrics", "[]", CUTUNE_EINVAL, "metrics", "expected an object");
    bad_field("metrics", "{\"GB/s\": \"N / foo\"}", CUTUNE_ENOTFOUND, "metrics[\"GB/s\"]",
              "unknown parameter 'foo'");
    bad_field("metrics", "{\"x\": true}", CUTUNE_EINVAL, "metrics.x", "got a boolean");
    bad_field("metrics", "{\"x\": \"1\", \"x\": \"2\"}", CUTUNE_EINVAL, "metrics", "twice");
    bad_field("recording", "3", CUTUNE_EINVAL, "recording", "expected a string");
    bad_field("description", "[]", CUTUNE_EINVAL, "description", "expected a string");
}

static void test_semantic(void **state)
{
    /* an unknown name in a restriction */
    bad_field("restrictions", "[\"bs * ipt <= 128\", \"bz > 1\"]", CUTUNE_ENOTFOUND,
              "restrictions[1]", "unknown parameter 'bz'");
    /* nothing survives the restrictions */
    bad_field("restrictions", "[\"bs > 4096\"]", CUTUNE_EEMPTY, "restrictions",
              "no valid configuration (12 Cartesian points)");
    /* restrictions see sizes */
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with("restrictions", "[\"bs * M <= 512\"]");
    int rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(cutune_space_size(s->space), 2 * 2 * 2);
    cutune_spec_free(s);
    free(json);
    /* the source file is missing */
    bad_field("source", "\"nope.cu\"", CUTUNE_EIO, "source", "nope.cu");
    /* an expression that fails at the first configuration is caught at load */
    bad_field("launch", "{\"grid\": [\"N / (bs - 32)\"], \"block\": [1]}", CUTUNE_EMATH,
              "launch.grid[0]", "bs=32");
    /* too many values */
    size_t cap = 8 * (CUTUNE_SPACE_MAX_VALUES + 2) + 64, n = 0;
    char *vals = malloc(cap);
    n += (size_t)snprintf(vals, cap, "{\"bs\": [");
    for (size_t i = 0; i <= CUTUNE_SPACE_MAX_VALUES; i++)
        n += (size_t)snprintf(vals + n, cap - n, "%s%zu", i ? "," : "", i);
    snprintf(vals + n, cap - n, "], \"ipt\": [1], \"reg\": [0]}");
    bad_field("parameters", vals, CUTUNE_EINVAL, "parameters.bs", "at most 65535");
    free(vals);
}

/* Arguments and sizes that their C type cannot hold are errors at load naming the field:
 * 3000000000 as an int32 used to be passed as -1294967296, 2.5 as 3, 1e20 as an int64
 * of whatever the conversion made of it. */
static void test_arg_ranges(void **state)
{
    (void)state;
    static const char *const fmt =
        "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"N\", \"output\": true},"
        " {\"name\": \"n\", \"type\": \"%s\", \"value\": \"%s\"}]";
    static const struct {
        const char *type, *value, *reason;
    } cases[] = {
        {"int", "N * 3000000",
         "3072000000 is outside the range of int32 (-2147483648..2147483647)"},
        {"int32", "-N * 3000000", "is outside the range of int32"},
        {"uint32", "N - 1025", "-1 is outside the range of uint32 (0..4294967295)"},
        {"uint32", "N * N * N * 4", "4294967296 is outside the range of uint32"},
        {"uint8", "bs * 2", "256 is outside the range of uint8 (0..255) (at bs=128"},
        {"int64", "2.0 ** 63", "is outside the range of int64"},
        {"int", "N / 3.0", "341.3333333333333 is not an integer, and the argument is int32"},
        {"float", "1e39", "1e+39 is outside the range of float (finite, at most"},
    };
    char args[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, fmt, cases[i].type, cases[i].value);
        bad_field("args", args, CUTUNE_EINVAL, "args[1].value", cases[i].reason);
    }
    /* the limits themselves are fine */
    static const char *const fine[][2] = {
        {"int", "2147483647"},
        {"int", "-2147483648"},
        {"uint32", "4294967295"},
        {"uint8", "255"},
        {"int64", "-2.0 ** 63"},
        {"double", "1e300"},
        /* an integer is compared as one: the int64 limits exactly, past 2^53 */
        {"int64", "9223372036854775807"},
        {"int64", "-9223372036854775807 - 1"},
    };
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        char err[1024] = "";
        cutune_spec *sp = NULL;
        snprintf(args, sizeof args, fmt, fine[i][0], fine[i][1]);
        char *json = spec_with("args", args);
        int rc = load_text(json, NULL, 0, &sp, err, sizeof err);
        if (rc)
            fail_msg("%s %s: %s", fine[i][0], fine[i][1], err);
        cutune_spec_free(sp);
        free(json);
    }
    /* buffers: a whole number of elements whose bytes fit in 63 bits */
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"N / 3.0\"}]",
              CUTUNE_EINVAL, "args[0].size", "is not a whole number of elements");
    bad_field("args", "[{\"name\": \"c\", \"type\": \"double\", \"size\": \"2.0 ** 61\"}]",
              CUTUNE_EINVAL, "args[0].size", "their bytes do not fit in 63 bits");
    /* half and bfloat16 are buffer types only */
    bad_field("args", "[{\"name\": \"h\", \"type\": \"half\", \"value\": \"1.5\"}]", CUTUNE_EINVAL,
              "args[0].type", "half is a buffer type only");
    bad_field("args", "[{\"name\": \"h\", \"type\": \"bfloat16\", \"value\": \"1.5\"}]",
              CUTUNE_EINVAL, "args[0].type", "bfloat16 is a buffer type only");
    /* integer outputs alone: exact by default; a float output keeps the default rtol */
    {
        char err[1024] = "";
        cutune_spec *sp = NULL;
        char *json = spec_with(
            "args", "[{\"name\": \"c\", \"type\": \"int\", \"size\": \"N\", \"output\": true},"
                    " {\"name\": \"h\", \"type\": \"int64\", \"size\": \"N\", \"output\": true}]");
        assert_int_equal(load_text(json, NULL, 0, &sp, err, sizeof err), 0);
        assert_true(sp->rtol == 0 && isinf(sp->atol));
        cutune_spec_free(sp);
        free(json);
        json = spec_with(
            "args", "[{\"name\": \"c\", \"type\": \"int\", \"size\": \"N\", \"output\": true},"
                    " {\"name\": \"f\", \"type\": \"float\", \"size\": \"N\", \"output\": true}]");
        assert_int_equal(load_text(json, NULL, 0, &sp, err, sizeof err), 0);
        assert_true(sp->rtol == 1e-5);
        cutune_spec_free(sp);
        free(json);
    }
    /* a size below 0 at any configuration, not only the first */
    bad_field("args", "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"bs > 64 ? -1 : N\"}]",
              CUTUNE_EINVAL, "args[0].size", "-1 elements: a buffer holds 0 or more (at bs=128");
    /* launch geometry: whole numbers, at least 1 (shared memory 0), at every configuration */
    bad_field("launch", "{\"grid\": [\"5 / 2.0\"], \"block\": [\"bs\"]}", CUTUNE_EINVAL,
              "launch.grid[0]", "2.5 is not a whole number from 1 to 2^31 - 1");
    bad_field("launch", "{\"grid\": [1], \"block\": [\"bs - 128\"]}", CUTUNE_EINVAL,
              "launch.block[0]", "is not a whole number from 1");
    bad_field("launch", "{\"grid\": [1], \"block\": [\"bs\"], \"shared_mem\": \"-1.5\"}",
              CUTUNE_EINVAL, "launch.shared_mem", "-1.5 is not a whole number from 0");
    /* a size beyond 64 bits: an integer out of range, not a real */
    bad_field("sizes", "{\"N\": 1e20, \"M\": 8}", CUTUNE_EINVAL, "sizes.N",
              "integer 1e+20 out of range");
}

/* A \u0000 in a string: cJSON cuts it there, "k.cu\u0000.bak" would read as "k.cu". */
static void test_nul_strings(void **state)
{
    (void)state;
    bad_field("source", "\"k.cu\\u0000.bak\"", CUTUNE_EPARSE, "source", "holds a NUL character");
    bad_field("metrics", "{\"GB/s\\u0000\": \"N * 8.0 / time_s / 1e9\"}", CUTUNE_EPARSE, "metrics",
              "a key holds a NUL character");
    bad_field("parameters",
              "{\"bs\": [32, 64, 128], \"ipt\": [1, 2], \"reg\": [0, 64], "
              "\"s\": [\"a\", \"b\\u0000\"]}",
              CUTUNE_EPARSE, "parameters.s[1]", "holds a NUL character");
    /* an escaped backslash before u0000 is no NUL */
    char err[1024] = "";
    cutune_spec *sp = NULL;
    char *json = spec_with("description", "\"C:\\\\u0000 is a path\"");
    int rc = load_text(json, NULL, 0, &sp, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    cutune_spec_free(sp);
    free(json);
}

/* "init": "kernel:NAME": a generator kernel of the source (compiled with the reference) */
static void test_init_kernel(void **state)
{
    (void)state;
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(
        "args",
        "[{\"name\": \"c\", \"type\": \"float\", \"size\": \"N\", \"output\": true},"
        " {\"name\": \"a\", \"type\": \"float\", \"size\": \"N * M\", \"init\": \"kernel:k_gen\"},"
        " {\"name\": \"n\", \"type\": \"int\", \"value\": \"N\"}]");
    int rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(s->args[1].kind, CUTUNE_ARG_BUFFER);
    assert_int_equal(s->args[1].init, CUTUNE_INIT_KERNEL);
    assert_string_equal(s->args[1].init_name, "k_gen");
    assert_int_equal(s->args[0].init, CUTUNE_INIT_ZEROS);
    assert_null(s->args[0].init_name);
    cutune_spec_free(s);
    free(json);

    /* the name must be a word of the source, like the kernels' */
    bad_field("args",
              "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"output\": true},"
              " {\"name\": \"a\", \"type\": \"float\", \"size\": 1, \"init\": \"kernel:k_gen2\"}]",
              CUTUNE_ENOTFOUND, "args[1].init", "generator kernel 'k_gen2' not found in");
    bad_field("args",
              "[{\"name\": \"a\", \"type\": \"float\", \"size\": 1, \"init\": \"kernel:k_ge\"}]",
              CUTUNE_ENOTFOUND, "args[0].init", "'k_ge' not found");
    bad_field("args",
              "[{\"name\": \"a\", \"type\": \"float\", \"size\": 1, \"init\": \"kernel:\"}]",
              CUTUNE_EINVAL, "args[0].init", "not a C identifier");
    bad_field("args",
              "[{\"name\": \"a\", \"type\": \"float\", \"size\": 1, \"init\": \"kernel:k gen\"}]",
              CUTUNE_EINVAL, "args[0].init", "not a C identifier");
    bad_field("args",
              "[{\"name\": \"a\", \"type\": \"float\", \"size\": 1, \"init\": \"kernel:k_gen\","
              " \"range\": [0, 1]}]",
              CUTUNE_EINVAL, "args[0].range", "only init random or range");
    /* outputs are poisoned before each verification: generators fill inputs only */
    bad_field("args",
              "[{\"name\": \"c\", \"type\": \"float\", \"size\": 1, \"output\": true,"
              " \"init\": \"kernel:k_gen\"}]",
              CUTUNE_EINVAL, "args[0].init", "inputs only");
    /* scalars take no init at all */
    bad_field("args",
              "[{\"name\": \"n\", \"type\": \"int\", \"value\": 1, \"init\": \"kernel:k_gen\"}]",
              CUTUNE_EINVAL, "args[0].init", "only buffers");

    /* the shipped spmv spec fills its matrix with generator kernels */
    char path[1024];
    if (cutune_spec_resolve("spmv", path, sizeof path, err, sizeof err) == 0) {
        rc = cutune_spec_load(path, NULL, 0, &s, err, sizeof err);
        if (rc)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        size_t ngen = 0;
        for (size_t i = 0; i < s->nargs; i++)
            if (s->args[i].init == CUTUNE_INIT_KERNEL) {
                assert_non_null(strstr(s->source, s->args[i].init_name));
                assert_false(s->args[i].output);
                ngen++;
            }
        assert_true(ngen >= 1);
        cutune_spec_free(s);
    }
}

/* "type": "tensormap": a TMA descriptor of a buffer (src/spec/spec_tensormap.c) */
static void test_tensormap(void **state)
{
    (void)state;
    char err[1024] = "";
    cutune_spec *s = NULL;
    char *json = spec_with(
        "args", "[{\"name\": \"tm\", \"type\": \"tensormap\", \"tensor\": \"a\","
                " \"dims\": [\"N\", \"M\"], \"box\": [64, \"bs / 32\"], \"swizzle\": 128},"
                " {\"name\": \"c\", \"type\": \"float\", \"size\": \"N\", \"output\": true},"
                " {\"name\": \"a\", \"type\": \"bfloat16\", \"size\": \"N * M\"}]");
    int rc = load_text(json, NULL, 0, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(s->args[0].kind, CUTUNE_ARG_TENSORMAP);
    assert_int_equal(s->args[0].tensor, 2);              /* resolved, also when named later */
    assert_int_equal(s->args[0].type, CUTUNE_ELEM_BF16); /* the tensor's type */
    assert_int_equal(s->args[0].trank, 2);
    assert_int_equal(s->args[0].swizzle, 128);
    assert_string_equal(cutune_expr_text(s->args[0].tdims[1]), "M");
    assert_string_equal(cutune_expr_text(s->args[0].tbox[1]), "bs / 32");
    assert_null(s->args[0].init_name);
    assert_int_equal(s->args[2].type, CUTUNE_ELEM_BF16);
    assert_true(cutune_elem_is_float(CUTUNE_ELEM_BF16));
    cutune_spec_free(s);
    free(json);

    static const char buf_a[] = "{\"name\": \"a\", \"type\": \"half\", \"size\": \"N * M\"}";
    struct {
        const char *tm;
        int code;
        const char *path, *reason;
    } bad[] = {
        {"\"tensor\": \"b\", \"dims\": [\"N\"], \"box\": [8]", CUTUNE_ENOTFOUND, "args[0].tensor",
         "'b' is not a buffer argument"},
        {"\"tensor\": \"n\", \"dims\": [\"N\"], \"box\": [8]", CUTUNE_ENOTFOUND, "args[0].tensor",
         "'n' is not a buffer"},
        {"\"dims\": [\"N\"], \"box\": [8]", CUTUNE_EINVAL, "args[0].tensor", "missing"},
        {"\"tensor\": \"a\", \"box\": [8]", CUTUNE_EINVAL, "args[0].dims", "missing"},
        {"\"tensor\": \"a\", \"dims\": [\"N\", \"M\"], \"box\": [8]", CUTUNE_EINVAL, "args[0].box",
         "1 entries, but dims has 2"},
        {"\"tensor\": \"a\", \"dims\": [1, 1, 1, 1, 1, 1], \"box\": [8]", CUTUNE_EINVAL,
         "args[0].dims", "1 to 5 expressions"},
        {"\"tensor\": \"a\", \"dims\": [\"N\"], \"box\": [8], \"swizzle\": 16", CUTUNE_EINVAL,
         "args[0].swizzle", "0, 32, 64 or 128"},
        {"\"tensor\": \"a\", \"dims\": [\"N\"], \"box\": [8], \"size\": 4", CUTUNE_EINVAL,
         "args[0]", "size"},
        {"\"tensor\": \"a\", \"dims\": [\"N\"], \"box\": [\"Q\"]", CUTUNE_ENOTFOUND,
         "args[0].box[0]", "Q"},
        {"\"tensor\": \"a\", \"dims\": [\"N\"], \"box\": [512]", CUTUNE_EMATH, "args[0].box[0]",
         "1 to 256"},
        {"\"tensor\": \"a\", \"dims\": [\"N - 1024\"], \"box\": [8]", CUTUNE_EMATH,
         "args[0].dims[0]", ">= 1"},
        /* 128 halves are 256 bytes: wider than a 128-byte swizzle row */
        {"\"tensor\": \"a\", \"dims\": [\"N\"], \"box\": [128], \"swizzle\": 128", CUTUNE_EINVAL,
         "args[0].box[0]", "swizzle span"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args,
                 "[{\"name\": \"tm\", \"type\": \"tensormap\", %s},"
                 " {\"name\": \"n\", \"type\": \"int\", \"value\": 1}, %s]",
                 bad[i].tm, buf_a);
        bad_field("args", args, bad[i].code, bad[i].path, bad[i].reason);
    }

    /* the shipped gemm_h specs load, their maps resolved to A and B */
    const char *names[] = {"gemm_h", "gemm_h_fp16", "gemm_h_tf32"};
    const cutune_elem_type types[] = {CUTUNE_ELEM_BF16, CUTUNE_ELEM_HALF, CUTUNE_ELEM_FLOAT};
    for (size_t n = 0; n < 3; n++) {
        char path[1024];
        if (cutune_spec_resolve(names[n], path, sizeof path, err, sizeof err) != 0)
            continue;
        rc = cutune_spec_load(path, NULL, 0, &s, err, sizeof err);
        if (rc)
            print_error("%s\n", err);
        assert_int_equal(rc, 0);
        assert_int_equal(s->args[0].kind, CUTUNE_ARG_TENSORMAP);
        assert_string_equal(s->args[s->args[0].tensor].name, "A");
        assert_string_equal(s->args[s->args[1].tensor].name, "B");
        assert_int_equal(s->args[0].type, types[n]);
        cutune_spec_free(s);
    }
}

/* The line of a value by its path (what a message about a field names). */
static size_t line_of(const char *t, size_t n, const char *path, size_t want_steps)
{
    size_t steps = 99;
    size_t line = cutune_json_path_line(t, n, path, &steps);
    assert_int_equal(steps, want_steps);
    return line;
}

static void test_json_path_line(void **state)
{
    (void)state;
    const char *t = "{\n"
                    "  \"a\": \"x\\\"}[,\",\n" /* a string with an escaped quote */
                    "  \"b\": {\"c\": [1,\f\n" /* a form feed: whitespace to cJSON */
                    "     [2, {\"d\": 3}],\n"
                    "     {\"e\": \"f\"}]},\n"
                    "  \"sizes\": {\"N\": \"abc\"}, \"m\": {\"x\": 1,\n"
                    "    \"GB/s\": 2}\n"
                    "}\n";
    size_t n = strlen(t);
    assert_int_equal(line_of(t, n, "", 0), 1);
    assert_int_equal(line_of(t, n, "a", 1), 2);
    assert_int_equal(line_of(t, n, "b", 1), 3);
    assert_int_equal(line_of(t, n, "b.c[0]", 3), 3);
    assert_int_equal(line_of(t, n, "b.c[1]", 3), 4);
    assert_int_equal(line_of(t, n, "b.c[1][1].d", 5), 4);
    assert_int_equal(line_of(t, n, "b.c[2].e", 4), 5);
    assert_int_equal(line_of(t, n, "sizes.N", 2), 6);
    assert_int_equal(line_of(t, n, "m[\"GB/s\"]", 2), 7); /* a member that is no identifier */
    /* missing steps: the deepest value found, and how deep that was */
    assert_int_equal(line_of(t, n, "sizes.M", 1), 6);
    assert_int_equal(line_of(t, n, "b.c[7]", 2), 3);
    assert_int_equal(line_of(t, n, "zz.y", 0), 1);
    assert_int_equal(line_of("  ", 2, "a", 0), 0);
    /* cut short: stays inside the text */
    assert_int_equal(line_of(t, 20, "b.c[1]", 0), 1);
    /* a UTF-8 byte order mark before the root, as cJSON accepts */
    const char *bom = "\xEF\xBB\xBF{\"a\": 1,\n \"b\": 2}";
    assert_int_equal(line_of(bom, strlen(bom), "b", 1), 2);
}

/* Spec messages name the line of the field (the base spec has one field per line:
 * parameters on line 4, sizes on line 6). */
static void test_error_lines(void **state)
{
    (void)state;
    char needle[600];
    char *json =
        spec_with("parameters", "{\"bs\": [32, 64,\n    64], \"ipt\": [1, 2], \"reg\": [0, 64]}");
    snprintf(needle, sizeof needle, "%s:5: parameters.bs[2]: duplicate value", spec_path);
    expect_error(json, CUTUNE_EINVAL, needle, NULL);
    free(json);
    /* a bad --size value is the command line's, not the file's: no line */
    cutune_size_override ov = {.name = "N", .value = {.type = CUTUNE_VALUE_REAL, .r = 1.5}};
    json = spec_with("sizes", "{\"N\": 1024, \"M\": 8}");
    snprintf(needle, sizeof needle, "%s: sizes.N: override 1.5 is not an integer", spec_path);
    expect_error_ov(json, &ov, 1, CUTUNE_EINVAL, needle, NULL);
    free(json);
    json = spec_with("sizes", "{\"N\": \"abc\", \"M\": 8}");
    snprintf(needle, sizeof needle, "%s:6: sizes.N: ", spec_path);
    expect_error(json, CUTUNE_EINVAL, needle, NULL);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),     cmocka_unit_test(test_list_and_resolve),
        cmocka_unit_test(test_base),           cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_metrics),        cmocka_unit_test(test_options),
        cmocka_unit_test(test_values),         cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_unknown_fields), cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_semantic),       cmocka_unit_test(test_arg_ranges),
        cmocka_unit_test(test_nul_strings),    cmocka_unit_test(test_init_kernel),
        cmocka_unit_test(test_json_path_line), cmocka_unit_test(test_error_lines),
        cmocka_unit_test(test_tensormap),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
