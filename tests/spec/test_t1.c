/*
 * Tests of T1 input files read as specs (src/spec/t1.c): the saxpy example in T1 form
 * loads into the space of the native saxpy spec, with the same launch, arguments and
 * options at every configuration; the Python value lists, ProblemSize and Size rewrites;
 * warnings for what cutune ignores; errors that name the T1 field and its line.
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

static char tmpdir[256];
static char t1_path[512];

static const char tiny_cu[] = "extern \"C\" __global__ void k(float *c, float *d, float a, "
                              "int n) { }\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
}

static int setup_dir(void **state)
{
    char cu[320];
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cutune_test_t1.XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(cu, sizeof cu, "%s/k.cu", tmpdir);
    write_file(cu, tiny_cu);
    snprintf(t1_path, sizeof t1_path, "%s/t.json", tmpdir);
    return 0;
}

static int teardown_dir(void **state)
{
    char cu[320];
    (void)state;
    snprintf(cu, sizeof cu, "%s/k.cu", tmpdir);
    unlink(cu);
    unlink(t1_path);
    rmdir(tmpdir);
    return 0;
}

/* ------------------------------------------------------------------ a T1 builder */

/* A valid T1 document with these members replaced or added (NULL value: left out). */
static const char *const base_cs =
    "\"ConfigurationSpace\": {\"TuningParameters\": ["
    "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32, 64, 128]\"},"
    "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"list(range(1, 3))\"}],"
    "\"Conditions\": [{\"Parameters\": [\"bs\", \"ipt\"], \"Expression\": \"bs * ipt <= 128\"}]}";

static char *t1_doc(const char *cs, const char *kernel_extra, const char *arg_extra,
                    const char *top_extra)
{
    size_t cap = 8192;
    char *buf = malloc(cap);
    assert_non_null(buf);
    snprintf(buf, cap,
             "{\n%s,\n"
             "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\",\n"
             " \"KernelFile\": \"k.cu\", \"ProblemSize\": [1024],\n"
             " \"GlobalSize\": {\"X\": \"(ProblemSize[0] + bs * ipt - 1) // (bs * ipt)\"},\n"
             " \"LocalSize\": {\"X\": \"bs\"}%s%s,\n"
             " \"Arguments\": [\n"
             "  {\"Name\": \"c\", \"Type\": \"float\", \"MemoryType\": \"Vector\", "
             "\"AccessType\": \"WriteOnly\", \"Size\": \"ProblemSize[0]\"%s},\n"
             "  {\"Name\": \"d\", \"Type\": \"float\", \"MemoryType\": \"Vector\", "
             "\"AccessType\": \"ReadOnly\", \"Size\": 1024, \"FillType\": \"Random\", "
             "\"FillValue\": 2.0},\n"
             "  {\"Name\": \"a\", \"Type\": \"float\", \"MemoryType\": \"Scalar\", "
             "\"FillValue\": 0.5},\n"
             "  {\"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": 1024}]}%s%s\n}\n",
             cs ? cs : base_cs, kernel_extra ? ",\n " : "", kernel_extra ? kernel_extra : "",
             arg_extra ? arg_extra : "", top_extra ? ",\n" : "", top_extra ? top_extra : "");
    return buf;
}

/* doc with its first old replaced by new (doc is freed). */
static char *replace(char *doc, const char *old, const char *new)
{
    char *at = strstr(doc, old);
    assert_non_null(at);
    size_t head = (size_t)(at - doc), ol = strlen(old), nl = strlen(new);
    char *out = malloc(strlen(doc) - ol + nl + 1);
    assert_non_null(out);
    memcpy(out, doc, head);
    memcpy(out + head, new, nl);
    strcpy(out + head + nl, at + ol);
    free(doc);
    return out;
}

static int load_t1(const char *doc, cutune_spec **s, char *err, size_t errlen)
{
    write_file(t1_path, doc);
    return cutune_spec_load(t1_path, NULL, 0, s, err, errlen);
}

/* The document loads; its spec is returned. */
static cutune_spec *load_ok(char *doc)
{
    char err[1024] = "";
    cutune_spec *s = NULL;
    int rc = load_t1(doc, &s, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    free(doc);
    return s;
}

/* The document fails with code; the message names the file, the line and the T1 path. */
static void load_fails(char *doc, int code, int line, const char *path, const char *reason)
{
    char err[1024] = "", needle[768];
    cutune_spec *s = (cutune_spec *)1;
    int rc = load_t1(doc, &s, err, sizeof err);
    if (rc != code || !strstr(err, path) || !strstr(err, reason))
        print_error("got %d: %s\n", rc, err);
    assert_int_equal(rc, code);
    assert_null(s);
    if (line > 0)
        snprintf(needle, sizeof needle, "%s:%d: %s: ", t1_path, line, path);
    else
        snprintf(needle, sizeof needle, "%s:", t1_path);
    if (!strstr(err, needle))
        print_error("want '%s' in: %s\n", needle, err);
    assert_non_null(strstr(err, needle));
    assert_non_null(strstr(err, reason));
    free(doc);
}

static double eval_at(const cutune_expr *e, const cutune_spec *s, size_t id)
{
    cutune_value vars[64];
    char err[256];
    double x = NAN;
    cutune_space_values(s->space, id, vars);
    assert_int_equal(cutune_expr_eval_double(e, vars, &x, err, sizeof err), 0);
    return x;
}

/* ------------------------------------------------------------------ saxpy, both ways */

static void test_saxpy_same_space(void **state)
{
    (void)state;
    const char *root = getenv("CUTUNE_SOURCE_ROOT");
    char native_path[1024], t1[1024], err[1024] = "";
    cutune_spec *a = NULL, *b = NULL;
    assert_non_null(root);
    snprintf(native_path, sizeof native_path, "%s/examples/saxpy/saxpy.json", root);
    snprintf(t1, sizeof t1, "%s/examples/saxpy/saxpy-t1.json", root);
    assert_int_equal(cutune_spec_load(native_path, NULL, 0, &a, err, sizeof err), 0);
    int rc = cutune_spec_load(t1, NULL, 0, &b, err, sizeof err);
    if (rc)
        print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_string_equal(b->name, "saxpy");
    assert_string_equal(b->kernel_name, a->kernel_name);
    assert_string_equal(b->source_path, a->source_path);
    assert_null(b->warnings); /* the example says nothing cutune ignores */

    /* the same parameters, values, and valid configurations in the same order */
    size_t np = cutune_space_nparams(a->space);
    assert_int_equal(cutune_space_nparams(b->space), np);
    for (size_t p = 0; p < np; p++) {
        const cutune_param *pa = cutune_space_param(a->space, p);
        const cutune_param *pb = cutune_space_param(b->space, p);
        assert_string_equal(pa->name, pb->name);
        assert_int_equal(pa->nvalues, pb->nvalues);
        for (size_t v = 0; v < pa->nvalues; v++)
            assert_string_equal(pa->texts[v], pb->texts[v]);
    }
    size_t n = cutune_space_size(a->space);
    assert_int_equal(cutune_space_size(b->space), n);
    assert_int_equal(n, 38);

    /* at every configuration: the same launch, buffer sizes, scalars and options */
    assert_int_equal(b->nargs, a->nargs);
    for (size_t id = 0; id < n; id++) {
        assert_memory_equal(cutune_space_config(a->space, id), cutune_space_config(b->space, id),
                            np * sizeof(uint16_t));
        for (int d = 0; d < 3; d++) {
            assert_true(eval_at(a->grid[d], a, id) == eval_at(b->grid[d], b, id));
            assert_true(eval_at(a->block[d], a, id) == eval_at(b->block[d], b, id));
        }
        for (size_t i = 0; i < a->nargs; i++) {
            const cutune_spec_arg *x = &a->args[i], *y = &b->args[i];
            assert_string_equal(x->name, y->name);
            assert_int_equal(x->kind, y->kind);
            assert_int_equal(x->type, y->type);
            assert_int_equal(x->output, y->output);
            const cutune_expr *ex = x->kind == CUTUNE_ARG_BUFFER ? x->size : x->value;
            const cutune_expr *ey = y->kind == CUTUNE_ARG_BUFFER ? y->size : y->value;
            assert_true(eval_at(ex, a, id) == eval_at(ey, b, id));
        }
        char **oa, **ob;
        size_t na, nb;
        assert_int_equal(cutune_spec_options(a, id, &oa, &na, err, sizeof err), 0);
        assert_int_equal(cutune_spec_options(b, id, &ob, &nb, err, sizeof err), 0);
        assert_int_equal(na, nb);
        for (size_t k = 0; k < na; k++) {
            assert_string_equal(oa[k], ob[k]);
            free(oa[k]);
            free(ob[k]);
        }
        free(oa);
        free(ob);
    }
    /* T1's Random draws from [0, FillValue) (as KTT does) */
    assert_int_equal(b->args[1].init, CUTUNE_INIT_RANDOM);
    assert_true(b->args[1].init_lo == 0.0 && b->args[1].init_hi == 1.0);
    assert_int_equal(b->args[0].init, CUTUNE_INIT_ZEROS);
    assert_int_equal(b->ref_kind, CUTUNE_REF_NONE);
    cutune_spec_free(a);
    cutune_spec_free(b);
}

/* ------------------------------------------------------------------ mapping */

static void test_mapping(void **state)
{
    (void)state;
    cutune_spec *s = load_ok(t1_doc(NULL, "\"SharedMemory\": \"bs * 4\"", NULL, NULL));
    assert_string_equal(s->name, "t"); /* no BenchmarkName: the file stem */
    assert_int_equal(cutune_space_nparams(s->space), 2);
    assert_int_equal(cutune_space_param(s->space, 1)->nvalues, 2); /* list(range(1, 3)) */
    assert_int_equal(cutune_space_size(s->space), 3 + 2);          /* bs * ipt <= 128 */
    assert_int_equal(s->nsizes, 1);
    assert_string_equal(cutune_space_constant_name(s->space, 0), "ProblemSize_0");
    assert_int_equal(s->nargs, 4);
    assert_true(s->args[0].output);
    assert_int_equal(s->args[0].init, CUTUNE_INIT_ZEROS);
    assert_false(s->args[1].output);
    assert_true(s->args[1].init_lo == 0.0 && s->args[1].init_hi == 2.0);
    assert_string_equal(s->args[3].name, "arg3"); /* an argument without a Name */
    assert_int_equal(s->args[3].kind, CUTUNE_ARG_SCALAR);
    assert_int_equal(s->args[3].type, CUTUNE_ELEM_INT32);
    assert_non_null(s->shared_mem);
    /* configuration 0: bs 32, ipt 1: grid (1024 + 31) // 32 */
    assert_true(eval_at(s->grid[0], s, 0) == 32);
    assert_true(eval_at(s->grid[1], s, 0) == 1);
    assert_true(eval_at(s->block[0], s, 0) == 32);
    assert_true(eval_at(s->shared_mem, s, 0) == 128);
    assert_null(s->warnings);
    cutune_spec_free(s);

    /* OpenCL's GlobalSize counts threads: blocks are ceil(global / local) */
    s = load_ok(t1_doc(NULL, "\"GlobalSizeType\": \"OpenCL\"", NULL, NULL));
    assert_true(eval_at(s->block[0], s, 0) == 32);
    assert_true(eval_at(s->grid[0], s, 0) == 1); /* ((1024 + 31) // 32 + 31) / 32 */
    cutune_spec_free(s);
}

/* SimulationInput is the spec's recording; a message about it (a file that cannot be read)
 * names the T1 field at its line, as the loader's errors do. */
static void test_simulation_input(void **state)
{
    (void)state;
    char want[700];
    cutune_spec *s = load_ok(t1_doc(NULL, "\"SimulationInput\": \"rec.json\"", NULL, NULL));
    assert_non_null(s->recording);
    assert_non_null(strstr(s->recording, "rec.json"));
    snprintf(want, sizeof want, "%s:7: KernelSpecification.SimulationInput", t1_path);
    assert_non_null(s->recording_at);
    assert_string_equal(s->recording_at, want);
    cutune_spec_free(s);
    s = load_ok(t1_doc(NULL, NULL, NULL, NULL));
    assert_null(s->recording);
    assert_null(s->recording_at);
    cutune_spec_free(s);
}

static void test_values(void **state)
{
    (void)state;
    static const struct {
        const char *type, *values;
        size_t n;
        const char *first, *last;
    } ok[] = {
        {"int", "[1, 2, 4]", 3, "1", "4"},
        {"int", "[1, 2, 4,]", 3, "1", "4"}, /* Python's trailing comma */
        {"int", "(8, 16)", 2, "8", "16"},
        {"int", "[2**5, 64 * 2]", 2, "32", "128"},
        {"int", "range(4)", 4, "0", "3"},
        {"int", "range(10, 0, -3)", 4, "10", "1"},
        {"int", "range(4,)", 4, "0", "3"}, /* Python's trailing comma */
        {"int", "range(2, 6, )", 4, "2", "5"},
        {"int", "list(range(1, 9))", 8, "1", "8"},
        /* counted and stepped exactly, though a double rounds 2**62 + 1 and 3 * 2**62
         * overflows a long long */
        {"int", "range(0, 4611686018427387905, 4611686018427387904)", 2, "0",
         "4611686018427387904"},
        {"int", "range(-9223372036854775807, 9223372036854775807, 4611686018427387904)", 4,
         "-9223372036854775807", "4611686018427387905"},
        {"uint", "[0, 7]", 2, "0", "7"},
        {"float", "[0.5, 1, 2.0]", 3, "0.5", "2.0"},
        {"bool", "[True, False]", 2, "1", "0"},
        {"string", "['fast', \\\"slow\\\"]", 2, "fast", "slow"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char cs[1024];
        snprintf(cs, sizeof cs,
                 "\"ConfigurationSpace\": {\"TuningParameters\": ["
                 "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},"
                 "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"},"
                 "{\"Name\": \"p\", \"Type\": \"%s\", \"Values\": \"%s\"}]}",
                 ok[i].type, ok[i].values);
        cutune_spec *s = load_ok(t1_doc(cs, NULL, NULL, NULL));
        const cutune_param *p = cutune_space_param(s->space, 2);
        assert_int_equal(p->nvalues, ok[i].n);
        assert_string_equal(p->texts[0], ok[i].first);
        assert_string_equal(p->texts[p->nvalues - 1], ok[i].last);
        cutune_spec_free(s);
    }
}

/* A buffer Size reads each parameter as its list of values, as Kernel Tuner does. */
static void test_size_rewrites(void **state)
{
    (void)state;
    char cs[1024];
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": ["
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32, 64]\"},"
             "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"},"
             "{\"Name\": \"fw\", \"Type\": \"int\", \"Values\": \"[3, 15, 7]\"}]}");
    cutune_spec *s =
        load_ok(replace(t1_doc(cs, NULL, NULL, NULL), "\"Size\": \"ProblemSize[0]\"",
                        "\"Size\": \"ProblemSize[0] + max(fw) - min( fw ) + len(bs)\""));
    /* 1024 + 15 - 3 + 2 at every configuration */
    for (size_t id = 0; id < cutune_space_size(s->space); id++)
        assert_true(eval_at(s->args[0].size, s, id) == 1038);
    assert_string_equal(cutune_expr_text(s->args[0].size), "ProblemSize_0 + 15 - 3 + 2");
    cutune_spec_free(s);
}

/* A Condition is Python: '/' is true division (x / y > 2 holds for 30 pairs of 1..12, 22
 * with C's truncating '/'), '//' floor division, and a '/' inside a string is text. */
static void test_condition_division(void **state)
{
    (void)state;
    static const struct {
        const char *cond;
        size_t n;
    } ok[] = {
        {"x / y > 2", 30},
        {"x/y>2 and 'a/b' != 'c'", 30},
        {"x // y > 2", 22},
        {"x / y / 2 > 1", 30}, /* ((x / y) / 2) > 1, as x / y > 2 */
        {"x / y == 2", 6},     /* x = 2y exactly; C's '/' also 2y + 1 */
        {"x % y == 0 and x / y in [2, 3]", 10},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char cs[1024];
        snprintf(cs, sizeof cs,
                 "\"ConfigurationSpace\": {\"TuningParameters\": ["
                 "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},"
                 "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"},"
                 "{\"Name\": \"x\", \"Type\": \"int\", \"Values\": \"range(1, 13)\"},"
                 "{\"Name\": \"y\", \"Type\": \"int\", \"Values\": \"range(1, 13)\"}],"
                 "\"Conditions\": [{\"Parameters\": [\"x\", \"y\"], \"Expression\": \"%s\"}]}",
                 ok[i].cond);
        cutune_spec *s = load_ok(t1_doc(cs, NULL, NULL, NULL));
        if (cutune_space_size(s->space) != ok[i].n)
            fail_msg("%s: %zu configurations, not %zu", ok[i].cond, cutune_space_size(s->space),
                     ok[i].n);
        cutune_spec_free(s);
    }
}

/* A Condition's '%' is Python's remainder, the sign of the divisor (-7 % 3 is 2, 7 % -3
 * is -2), floats too; C's, the sign of the dividend, selects other configurations. */
static void test_condition_modulo(void **state)
{
    (void)state;
    static const struct {
        const char *xs, *ys, *cond;
        size_t n; /* as Python counts them */
    } ok[] = {
        {"range(-6, 7)", "[3]", "x % y == 1", 4},                 /* C's '%': 2 */
        {"range(-6, 7)", "[3, -3, 2, -2]", "x % y == y - 1", 10}, /* C's '%': 5 */
        {"range(-6, 7)", "[3]", "x%y==1 and 'a%b' != 'c'", 4},    /* a string as it is */
        {"range(-6, 7)", "[3]", "x // y * y + x % y == x", 13},   /* the remainder of // */
        {"[-3.5, -1.5, 1.5, 3.5]", "[2]", "x % y > 0", 4},        /* fmod: 2 */
        {"[-3.5, -1.5, 1.5, 3.5]", "[-2]", "x % y < 0", 4},       /* fmod: 2 */
        {"[-3.5, -1.5, 1.5, 3.5]", "[2]", "x % y == 0.5", 2},     /* -3.5 % 2, -1.5 % 2 */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char cs[1024];
        snprintf(cs, sizeof cs,
                 "\"ConfigurationSpace\": {\"TuningParameters\": ["
                 "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},"
                 "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"},"
                 "{\"Name\": \"x\", \"Type\": \"%s\", \"Values\": \"%s\"},"
                 "{\"Name\": \"y\", \"Type\": \"%s\", \"Values\": \"%s\"}],"
                 "\"Conditions\": [{\"Parameters\": [\"x\", \"y\"], \"Expression\": \"%s\"}]}",
                 ok[i].xs[0] == '[' ? "float" : "int", ok[i].xs,
                 ok[i].xs[0] == '[' ? "float" : "int", ok[i].ys, ok[i].cond);
        cutune_spec *s = load_ok(t1_doc(cs, NULL, NULL, NULL));
        if (cutune_space_size(s->space) != ok[i].n)
            fail_msg("%s: %zu configurations, not %zu", ok[i].cond, cutune_space_size(s->space),
                     ok[i].n);
        cutune_spec_free(s);
    }
}

/* An integer literal keeps all 64 bits, as in a spec: its double would round one beyond
 * 2^53 (9007199254740993 to ...992). */
static void test_exact_integers(void **state)
{
    (void)state;
    char cs[1024];
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": ["
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},"
             "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": [1, 9007199254740993]}]}");
    cutune_spec *s =
        load_ok(replace(t1_doc(cs, NULL, NULL, NULL),
                        "\"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": 1024",
                        "\"Type\": \"int64\", \"MemoryType\": \"Scalar\", "
                        "\"FillValue\": 9007199254740993"));
    const cutune_param *p = cutune_space_param(s->space, 1);
    assert_string_equal(p->texts[1], "9007199254740993");
    cutune_value vars[8], v;
    char err[256];
    cutune_space_values(s->space, 0, vars);
    assert_int_equal(cutune_expr_eval(s->args[3].value, vars, &v, err, sizeof err), 0);
    assert_int_equal(v.type, CUTUNE_VALUE_INT);
    assert_true(v.i == 9007199254740993LL);
    cutune_spec_free(s);
}

/* ------------------------------------------------------------------ warnings */

static void test_warnings(void **state)
{
    (void)state;
    char cs[1024];
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": ["
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\", \"Default\": 32},"
             "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\", \"Default\": 1}]}");
    cutune_spec *s = load_ok(t1_doc(cs, "\"Device\": {\"Name\": \"A100\"}, \"Stream\": null",
                                    ", \"RandomSeed\": 7",
                                    "\"General\": {\"TimeUnit\": \"Microseconds\"},\n"
                                    "\"Search\": {\"Name\": \"Random\"},\n"
                                    "\"Budget\": [{\"Type\": \"ConfigurationCount\", "
                                    "\"BudgetValue\": 9}],\n\"Extra\": 1"));
    assert_non_null(s->warnings);
    static const char *const want[] = {
        "ConfigurationSpace.TuningParameters[*].Default: ignored",
        "KernelSpecification.Device: ignored",
        "KernelSpecification.Arguments[0].RandomSeed: ignored",
        "General.TimeUnit: ignored (cutune reports milliseconds)",
        "Search: ignored (the searcher is --searcher)",
        "Budget: ignored (the budget is --budget or --time-limit)",
        "Extra: ignored",
    };
    size_t lines = 0;
    for (const char *p = s->warnings; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, sizeof want / sizeof want[0]); /* Default once, Stream null none */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!strstr(s->warnings, want[i]))
            print_error("no '%s' in:\n%s", want[i], s->warnings);
        assert_non_null(strstr(s->warnings, want[i]));
    }
    /* each line names the file and a line of it */
    char head[600];
    snprintf(head, sizeof head, "%s:", t1_path);
    assert_true(strncmp(s->warnings, head, strlen(head)) == 0);
    assert_non_null(strstr(s->warnings, ":2: ConfigurationSpace.TuningParameters[*].Default"));
    cutune_spec_free(s);
}

/* ------------------------------------------------------------------ errors */

static void test_errors(void **state)
{
    (void)state;
    /* what cutune cannot do: an error naming the T1 field and its line */
    load_fails(t1_doc(NULL, NULL, ", \"FillType\": \"BinaryRaw\"", NULL), CUTUNE_EUNSUPPORTED, 8,
               "KernelSpecification.Arguments[0].FillType", "'BinaryRaw' has no cutune equivalent");
    load_fails(t1_doc(NULL,
                      "\"ReferenceArguments\": [{\"Name\": \"c\", \"TargetName\": \"c\", "
                      "\"FillType\": \"Constant\", \"FillValue\": 1}]",
                      NULL, NULL),
               CUTUNE_EUNSUPPORTED, 7, "KernelSpecification.ReferenceArguments",
               "reference data has no cutune equivalent");
    load_fails(t1_doc(NULL, "\"GlobalSizeType\": \"Vulkan\"", NULL, NULL), CUTUNE_EUNSUPPORTED, 7,
               "KernelSpecification.GlobalSizeType", "'Vulkan' is not read");
    load_fails(t1_doc(NULL, "\"CompilerOptions\": [\"-O3\", 4]", NULL, NULL), CUTUNE_EINVAL, 7,
               "KernelSpecification.CompilerOptions[1]", "expected a string");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"Language\": \"CUDA\"",
                       "\"Language\": \"OpenCL\""),
               CUTUNE_EUNSUPPORTED, 3, "KernelSpecification.Language", "cutune tunes CUDA kernels");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"FillValue\": 2.0",
                       "\"FillValue\": 2.0, "
                       "\"MemType\": \"Constant\""),
               CUTUNE_EUNSUPPORTED, 9, "KernelSpecification.Arguments[1].MemType",
               "__constant__ memory symbol");
    load_fails(
        replace(t1_doc(NULL, NULL, NULL, NULL), "\"Type\": \"int32\"", "\"Type\": \"int16\""),
        CUTUNE_EUNSUPPORTED, 11, "KernelSpecification.Arguments[3].Type",
        "'int16' has no cutune equivalent");
    /* an input of a constant other than 0 or 1 has no equivalent; an output is written by
     * the kernel, so its fill is only a warning */
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"FillType\": \"Random\"",
                       "\"FillType\": \"Constant\""),
               CUTUNE_EUNSUPPORTED, 9, "KernelSpecification.Arguments[1].FillValue",
               "a buffer of the constant 2 has no cutune equivalent");
    cutune_spec *s =
        load_ok(t1_doc(NULL, NULL, ", \"FillType\": \"Constant\", \"FillValue\": 3", NULL));
    assert_non_null(s->warnings);
    assert_non_null(strstr(s->warnings, ":8: KernelSpecification.Arguments[0].FillValue: ignored"));
    cutune_spec_free(s);
    /* a read-write buffer is an input, its result unchecked: said */
    s = load_ok(replace(t1_doc(NULL, NULL, NULL, NULL), "\"ReadOnly\"", "\"ReadWrite\""));
    assert_false(s->args[1].output);
    assert_non_null(strstr(s->warnings, "Arguments[1].AccessType: ReadWrite: read as an input"));
    cutune_spec_free(s);
    /* a flag of another type is neither true nor false: not read as either */
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"ReadOnly\"",
                       "\"ReadOnly\", \"Output\": \"yes\""),
               CUTUNE_EINVAL, 9, "KernelSpecification.Arguments[1].Output",
               "expected true or false");
    load_fails(t1_doc(NULL, "\"Profiling\": \"yes\"", NULL, NULL), CUTUNE_EINVAL, 7,
               "KernelSpecification.Profiling", "expected true or false");
    /* a buffer's fields on a scalar are ignored, and said to be */
    s = load_ok(replace(t1_doc(NULL, NULL, NULL, NULL), "\"FillValue\": 0.5",
                        "\"FillValue\": 0.5, \"Size\": 4, \"Output\": true"));
    assert_non_null(s->warnings);
    assert_non_null(strstr(s->warnings, ":10: KernelSpecification.Arguments[2].Size: ignored"));
    assert_non_null(strstr(s->warnings, ":10: KernelSpecification.Arguments[2].Output: ignored"));
    cutune_spec_free(s);
    load_fails(
        replace(t1_doc(NULL, NULL, NULL, NULL), "\"ReadOnly\"", "\"ReadWrite\", \"Output\": 1"),
        CUTUNE_EUNSUPPORTED, 9, "KernelSpecification.Arguments[1].Output", "cannot also be read");
}

/* Errors the spec loader finds in the mapped document name the T1 field. */
static void test_mapped_errors(void **state)
{
    (void)state;
    char cs[1024];
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": ["
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},\n"
             "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"}],\n"
             "\"Conditions\": [{\"Expression\": \"bs > zz\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_ENOTFOUND, 4,
               "ConfigurationSpace.Conditions[0].Expression", "unknown parameter 'zz'");
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": ["
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"},\n"
             "{\"Name\": \"ipt\", \"Type\": \"int\", \"Values\": \"[1]\"}],\n"
             "\"Conditions\": [{\"Expression\": \"bs > 100\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_EEMPTY, 4, "ConfigurationSpace.Conditions",
               "no valid configuration");
    load_fails(
        replace(t1_doc(NULL, NULL, NULL, NULL), "\"KernelName\": \"k\"", "\"KernelName\": \"q\""),
        CUTUNE_ENOTFOUND, 3, "KernelSpecification.KernelName", "kernel 'q' not found");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"LocalSize\": {\"X\": \"bs\"}",
                       "\"LocalSize\": {\"X\": \"zz\"}"),
               CUTUNE_ENOTFOUND, 6, "KernelSpecification.LocalSize.X", "unknown parameter 'zz'");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"Size\": 1024", "\"Size\": \"1024 / 0\""),
               CUTUNE_EMATH, 9, "KernelSpecification.Arguments[1].Size", "division by zero");
}

static void test_field_errors(void **state)
{
    (void)state;
    char cs[1024];
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": [\n"
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[2**i for i in range(6)]\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_EUNSUPPORTED, 3,
               "ConfigurationSpace.TuningParameters[0].Values", "a list comprehension is not read");
    /* beyond a double's range: said of the T1 field, not of the document it maps to */
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"ProblemSize\": [1024]",
                       "\"ProblemSize\": 1e400"),
               CUTUNE_EINVAL, 4, "KernelSpecification.ProblemSize", "number out of range");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"ProblemSize\": [1024]",
                       "\"ProblemSize\": [1e400]"),
               CUTUNE_EINVAL, 4, "KernelSpecification.ProblemSize[0]", "number out of range");
    /* Python refuses an unclosed string; read up to the list's end it lost the value */
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": [\n"
             "{\"Name\": \"bs\", \"Type\": \"string\", \"Values\": \"['a', 'b]\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_EINVAL, 3,
               "ConfigurationSpace.TuningParameters[0].Values", "a string is not closed");
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": [\n"
             "{\"Name\": \"bs\", \"Type\": \"uint\", \"Values\": \"[-1, 2]\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_EINVAL, 3,
               "ConfigurationSpace.TuningParameters[0].Values", "negative");
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": [\n"
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"range(0, 10**9)\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_EINVAL, 3,
               "ConfigurationSpace.TuningParameters[0].Values", "at most 65535");
    snprintf(cs, sizeof cs,
             "\"ConfigurationSpace\": {\"TuningParameters\": [\n"
             "{\"Name\": \"bs\", \"Type\": \"int\", \"Values\": \"[32]\"}],\n"
             "\"Conditions\": [{\"Parameters\": [\"bz\"], \"Expression\": \"bs > 1\"}]}");
    load_fails(t1_doc(cs, NULL, NULL, NULL), CUTUNE_ENOTFOUND, 4,
               "ConfigurationSpace.Conditions[0].Parameters[0]", "'bz' is not a tuning parameter");
}

/* cJSON cuts a string at a \u0000: in a T1 file, as in a spec, it is an error naming the
 * field, not a shorter file name, parameter name or expression. */
static void test_nul_strings(void **state)
{
    (void)state;
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"KernelFile\": \"k.cu\"",
                       "\"KernelFile\": \"k.cu\\u0000.bak\""),
               CUTUNE_EPARSE, 4, "KernelSpecification.KernelFile", "NUL character");
    load_fails(
        replace(t1_doc(NULL, NULL, NULL, NULL), "bs * ipt <= 128", "bs * ipt <= 128\\u0000 or 1"),
        CUTUNE_EPARSE, 2, "ConfigurationSpace.Conditions[0].Expression", "NUL character");
}

/* A key given twice in one object is an error at that object's line: a reader keeps one of
 * the two, so the other would be dropped silently. */
static void test_repeated_keys(void **state)
{
    (void)state;
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"KernelFile\": \"k.cu\"",
                       "\"KernelFile\": \"k.cu\", \"KernelFile\": \"other.cu\""),
               CUTUNE_EPARSE, 3, "KernelSpecification", "key \"KernelFile\" given twice");
    load_fails(replace(t1_doc(NULL, NULL, NULL, NULL), "\"FillValue\": 0.5",
                       "\"FillValue\": 0.5, \"FillValue\": 0.25"),
               CUTUNE_EPARSE, 10, "KernelSpecification.Arguments[2]",
               "key \"FillValue\" given twice");
}

/* A native spec is no T1 file, and a T1 file without its required parts says which. */
static void test_detect(void **state)
{
    (void)state;
    char err[1024] = "";
    cutune_spec *s = NULL;
    write_file(t1_path, "{\"KernelSpecification\": {}}");
    assert_int_equal(cutune_spec_load(t1_path, NULL, 0, &s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "ConfigurationSpace: missing (required)"));
    write_file(t1_path, "{\"ConfigurationSpace\": {}}");
    assert_int_equal(cutune_spec_load(t1_path, NULL, 0, &s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "KernelSpecification: missing (required)"));
    write_file(t1_path, "{\"General\": {}}"); /* neither: a spec with an unknown field */
    assert_int_equal(cutune_spec_load(t1_path, NULL, 0, &s, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "unknown field 'General'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy_same_space), cmocka_unit_test(test_mapping),
        cmocka_unit_test(test_simulation_input), cmocka_unit_test(test_values),
        cmocka_unit_test(test_size_rewrites),    cmocka_unit_test(test_condition_division),
        cmocka_unit_test(test_condition_modulo), cmocka_unit_test(test_exact_integers),
        cmocka_unit_test(test_warnings),         cmocka_unit_test(test_errors),
        cmocka_unit_test(test_mapped_errors),    cmocka_unit_test(test_field_errors),
        cmocka_unit_test(test_nul_strings),      cmocka_unit_test(test_repeated_keys),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
