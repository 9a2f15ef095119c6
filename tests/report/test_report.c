/* Tests of src/report: parameter importance on spaces whose answer is known, the journal
 * reader (metrics kept whatever their names; errors naming file, line and field), the
 * Nsight Compute CSV parser on stored samples of both layouts, and profile.json. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "cutune/report.h"

/* The whole grid of 5 parameters (6, 5, 4, 4, 3 values): log(time) depends on A and B
 * only, with an interaction term, plus nothing else. */
static void synthetic(size_t *n, uint16_t **idx, double **t, int interaction)
{
    static const size_t nv[5] = {6, 5, 4, 4, 3};
    size_t total = 6 * 5 * 4 * 4 * 3;
    *idx = malloc(total * 5 * sizeof **idx);
    *t = malloc(total * sizeof **t);
    assert_non_null(*idx);
    assert_non_null(*t);
    size_t k = 0;
    for (size_t a = 0; a < nv[0]; a++)
        for (size_t b = 0; b < nv[1]; b++)
            for (size_t c = 0; c < nv[2]; c++)
                for (size_t d = 0; d < nv[3]; d++)
                    for (size_t e = 0; e < nv[4]; e++, k++) {
                        uint16_t *row = *idx + k * 5;
                        row[0] = (uint16_t)a, row[1] = (uint16_t)b, row[2] = (uint16_t)c;
                        row[3] = (uint16_t)d, row[4] = (uint16_t)e;
                        double x = (double)a - 2.5, y = (double)b - 2;
                        double logt = 0.6 * x + 0.3 * y + (interaction ? 0.25 * x * y : 0);
                        (*t)[k] = exp(logt);
                    }
    *n = total;
}

static void test_importance_two_parameters_with_interaction(void **state)
{
    (void)state;
    static const size_t nv[5] = {6, 5, 4, 4, 3};
    size_t n;
    uint16_t *idx;
    double *t;
    synthetic(&n, &idx, &t, 1);
    cutune_report_importance *imp = NULL;
    char err[256];
    assert_int_equal(
        cutune_report_importance_compute(5, nv, n, idx, t, NULL, &imp, err, sizeof err), 0);
    assert_int_equal(imp->nsamples, n);
    assert_true(imp->ntrees > 0);
    print_message("main A %.3f B %.3f C %.3f D %.3f E %.3f, A x B %.3f (exact 0.658, 0.113, "
                  "0, 0, 0, 0.229)\n",
                  imp->main[0], imp->main[1], imp->main[2], imp->main[3], imp->main[4],
                  imp->pair[1]);
    /* A first (its effect is twice B's), B second, the three others far behind */
    assert_int_equal(imp->rank[0], 0);
    assert_int_equal(imp->rank[1], 1);
    for (size_t p = 2; p < 5; p++)
        assert_true(imp->main[p] < 0.02);
    assert_true(imp->main[0] > 0.4);
    assert_true(imp->main[1] > 0.06);
    /* the variance of the exact model: main A 0.36*35/12, B 0.09*2, AB 0.0625*35/12*2 */
    double va = 0.36 * 35.0 / 12, vb = 0.09 * 2, vab = 0.0625 * 35.0 / 12 * 2;
    double tot = va + vb + vab;
    assert_true(fabs(imp->main[0] - va / tot) < 0.08);
    assert_true(fabs(imp->main[1] - vb / tot) < 0.06);
    /* the interaction: A x B is the largest pair, the others near zero */
    double ab = imp->pair[0 * 5 + 1];
    assert_true(ab > 0.05);
    assert_true(fabs(ab - vab / tot) < 0.08);
    for (size_t i = 0; i < 5; i++)
        for (size_t k = i + 1; k < 5; k++)
            if (!(i == 0 && k == 1))
                assert_true(imp->pair[i * 5 + k] < 0.02);
    assert_true(imp->pair[1 * 5 + 0] == ab); /* mirrored */
    cutune_report_importance_free(imp);
    free(idx);
    free(t);
}

static void test_importance_no_interaction(void **state)
{
    (void)state;
    static const size_t nv[5] = {6, 5, 4, 4, 3};
    size_t n;
    uint16_t *idx;
    double *t;
    synthetic(&n, &idx, &t, 0);
    cutune_report_importance *imp = NULL;
    char err[256];
    assert_int_equal(
        cutune_report_importance_compute(5, nv, n, idx, t, NULL, &imp, err, sizeof err), 0);
    assert_true(imp->main[0] + imp->main[1] > 0.95); /* additive: the mains are everything */
    assert_true(imp->pair[0 * 5 + 1] < 0.03);
    cutune_report_importance_free(imp);
    free(idx);
    free(t);
}

/* A random sample of a fifth of the grid: the ranking still holds. */
static void test_importance_sampled(void **state)
{
    (void)state;
    static const size_t nv[5] = {6, 5, 4, 4, 3};
    size_t n;
    uint16_t *idx;
    double *t;
    synthetic(&n, &idx, &t, 1);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (cutune_fnv1a(0xcbf29ce484222325ULL, &k, sizeof k) % 5 == 0) {
            memmove(idx + m * 5, idx + k * 5, 5 * sizeof *idx);
            t[m++] = t[k];
        }
    cutune_report_importance *imp = NULL;
    char err[256];
    assert_int_equal(
        cutune_report_importance_compute(5, nv, m, idx, t, NULL, &imp, err, sizeof err), 0);
    assert_int_equal(imp->rank[0], 0);
    assert_int_equal(imp->rank[1], 1);
    double ab = imp->pair[0 * 5 + 1];
    for (size_t i = 0; i < 5; i++)
        for (size_t k = i + 1; k < 5; k++)
            if (!(i == 0 && k == 1))
                assert_true(imp->pair[i * 5 + k] < ab);
    cutune_report_importance_free(imp);
    free(idx);
    free(t);
}

static void test_importance_degenerate(void **state)
{
    (void)state;
    size_t nv[2] = {3, 2};
    uint16_t idx[4] = {0, 0, 1, 1};
    double same[2] = {2.0, 2.0}, bad[1] = {-1};
    cutune_report_importance *imp = NULL;
    char err[256] = "";
    /* one sample, and samples of one time: no variance to explain */
    assert_int_equal(
        cutune_report_importance_compute(2, nv, 1, idx, same, NULL, &imp, err, sizeof err), 0);
    assert_int_equal(imp->ntrees, 0);
    assert_true(imp->main[0] == 0 && imp->main[1] == 0);
    cutune_report_importance_free(imp);
    assert_int_equal(
        cutune_report_importance_compute(2, nv, 2, idx, same, NULL, &imp, err, sizeof err), 0);
    assert_int_equal(imp->ntrees, 0);
    cutune_report_importance_free(imp);
    assert_int_equal(
        cutune_report_importance_compute(2, nv, 1, idx, bad, NULL, &imp, err, sizeof err),
        CUTUNE_EINVAL);
    assert_null(imp);
    assert_non_null(strstr(err, "not positive"));
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/cutune-report-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static const char header[] =
    "{\"kind\":\"header\",\"format\":1,\"spec\":\"k\",\"searcher\":\"random\",\"seed\":3,"
    "\"evaluator\":\"replay\",\"params\":{\"A\":[1,2,4],\"MODE\":[\"fast\",\"slow\"]},"
    "\"sizes\":{\"N\":1024}}\n";

static void test_load_journal(void **state)
{
    (void)state;
    char text[4096];
    snprintf(text, sizeof text,
             "%s{\"kind\":\"eval\",\"n\":0,\"config\":{\"A\":2,\"MODE\":\"slow\"},\"status\":"
             "\"ok\",\"time_ms\":1.5,\"metrics\":{\"registers\":40,\"energy_j\":0.25},"
             "\"compile_ms\":12,\"elapsed_s\":0.5}\n"
             "{\"kind\":\"eval\",\"n\":1,\"config\":{\"A\":4,\"MODE\":\"fast\"},\"status\":"
             "\"launch_error\",\"time_ms\":null,\"metrics\":{\"power_w\":300}}\n"
             "{\"kind\":\"eval\",\"n\":2,\"config\":{\"A\":1,",
             header);
    char *path = write_tmp(text);
    cutune_report_run *r = NULL;
    char err[512] = "";
    assert_int_equal(cutune_report_run_load(path, &r, err, sizeof err), 0);
    assert_int_equal(r->nparams, 2);
    assert_int_equal(r->nevals, 2); /* the cut last line is dropped */
    assert_string_equal(r->label, "k, random, seed 3");
    assert_int_equal(r->evals[0].idx[0], 1);
    assert_int_equal(r->evals[0].idx[1], 1);
    assert_true(r->evals[0].time_ms == 1.5);
    assert_true(isnan(r->evals[1].time_ms));
    assert_int_equal(r->evals[1].status, CUTUNE_STATUS_LAUNCH_ERROR);
    /* every numeric metric, whatever its name: a new one needs no code */
    const char *want[] = {"registers", "energy_j", "compile_ms", "power_w"};
    assert_int_equal(r->nmetrics, 4);
    for (size_t m = 0; m < 4; m++)
        assert_string_equal(r->metric_names[m], want[m]);
    assert_true(r->evals[0].metrics[1] == 0.25);
    assert_true(isnan(r->evals[0].metrics[3]));
    assert_true(r->evals[1].metrics[3] == 300);
    assert_true(isnan(r->evals[1].metrics[0]));
    assert_int_equal(r->nsizes, 1);
    cutune_report_run_free(r);
    unlink(path);
    free(path);
}

/* A float parameter's values read as the journal wrote them: 2.0 keeps its point (it is
 * not the integer 2), in the header's list and in an evaluation's config. */
static void test_load_float_values(void **state)
{
    (void)state;
    const char *text =
        "{\"kind\":\"header\",\"format\":1,\"spec\":\"k\",\"searcher\":\"grid\",\"seed\":1,"
        "\"evaluator\":\"replay\",\"params\":{\"A\":[1,2],\"R\":[1.0,2.0,2.5,1e-05]},"
        "\"sizes\":{}}\n"
        "{\"kind\":\"eval\",\"n\":0,\"config\":{\"A\":2,\"R\":2.0},\"status\":\"ok\","
        "\"time_ms\":1.5}\n";
    char *path = write_tmp(text);
    cutune_report_run *r = NULL;
    char err[512] = "";
    assert_int_equal(cutune_report_run_load(path, &r, err, sizeof err), 0);
    assert_string_equal(r->value_text[0][1], "2");
    assert_string_equal(r->value_text[1][0], "1.0");
    assert_string_equal(r->value_text[1][1], "2.0");
    assert_string_equal(r->value_text[1][2], "2.5");
    assert_string_equal(r->value_text[1][3], "1e-05");
    assert_int_equal(r->evals[0].idx[1], 1);
    cutune_report_run_free(r);
    unlink(path);
    free(path);
}

static void expect_load_error_at(int line, const char *body, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", header, body);
    char *path = write_tmp(text);
    cutune_report_run *r = NULL;
    char err[512] = "";
    assert_int_equal(cutune_report_run_load(path, &r, err, sizeof err), CUTUNE_EPARSE);
    assert_null(r);
    char where[4200];
    snprintf(where, sizeof where, "%s:%d: %s", path, line, want);
    if (strncmp(err, where, strlen(where)) != 0)
        fail_msg("error '%s' does not start with '%s'", err, where);
    unlink(path);
    free(path);
}

static void expect_load_error(const char *body, const char *want)
{
    expect_load_error_at(2, body, want);
}

static void test_load_errors(void **state)
{
    (void)state;
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":3,\"MODE\":\"fast\"},\"status\":"
                      "\"ok\",\"time_ms\":1}\n",
                      "config.A: value 3 is not among the header's params");
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1},\"status\":\"ok\",\"time_ms\":1}\n",
                      "config.MODE: missing");
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                      "\"great\"}\n",
                      "status: not a status cutune knows");
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                      "\"ok\",\"time_ms\":0}\n",
                      "time_ms: an ok evaluation needs a positive time");
    /* a negative cost is refused, as the journal loader refuses it (null: not recorded) */
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                      "\"ok\",\"time_ms\":1,\"compile_ms\":-5}\n",
                      "eval.compile_ms: -5 is not a cost");
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                      "\"ok\",\"time_ms\":1,\"bench_ms\":-0.5}\n",
                      "eval.bench_ms: -0.5 is not a cost");
    /* optional fields of another type than theirs, as the journal loader refuses them */
    expect_load_error("{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                      "\"ok\",\"time_ms\":1,\"elapsed_s\":\"x\"}\n",
                      "eval.elapsed_s: expected a number");
    /* costs, metrics: the journal loader's checks (another type was skipped, 1e400 read as
     * infinity and dropped) */
    static const char *const evals[][2] = {
        {"\"compile_ms\":\"12\"", "eval.compile_ms: expected a number"},
        {"\"bench_ms\":[1]", "eval.bench_ms: expected a number"},
        {"\"compile_ms\":1e400", "eval.compile_ms: a number beyond the range of a double"},
        {"\"metrics\":[1]", "eval.metrics: expected an object of numbers"},
        {"\"log\":7", "eval.log: expected a string"},
        {"\"metrics\":{\"GB/s\":\"830\"}", "eval.metrics.GB/s: expected a number"},
        {"\"metrics\":{\"GB/s\":1e400}",
         "eval.metrics.GB/s: a number beyond the range of a double"},
    };
    for (size_t i = 0; i < sizeof evals / sizeof evals[0]; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"kind\":\"eval\",\"config\":{\"A\":1,\"MODE\":\"fast\"},\"status\":"
                 "\"ok\",\"time_ms\":1,%s}\n",
                 evals[i][0]);
        expect_load_error(body, evals[i][1]);
    }
    /* the header's subject_to and sizes, as the journal loader checks them */
    static const char *const heads[][2] = {
        {"\"subject_to\":\"power_w <= 300\"", "header.subject_to: expected a list of strings"},
        {"\"subject_to\":[\"a < 1\",2]", "header.subject_to[1]: expected a string"},
        {"\"sizes\":[4]", "header.sizes: expected an object of numbers"},
        {"\"started\":7", "header.started: expected a string"},
        {"\"sizes\":{\"N\":\"4\"}", "header.sizes.N: expected a number"},
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"kind\":\"header\",\"format\":1,%s,"
                 "\"params\":{\"A\":[1,2]}}\n",
                 heads[i][0]);
        char *path = write_tmp(text);
        cutune_report_run *r = NULL;
        char err[512] = "", want[4200];
        assert_int_equal(cutune_report_run_load(path, &r, err, sizeof err), CUTUNE_EPARSE);
        assert_null(r);
        snprintf(want, sizeof want, "%s:1: %s", path, heads[i][1]);
        if (strncmp(err, want, strlen(want)) != 0)
            fail_msg("header case %zu: error '%s' does not start with '%s'", i, err, want);
        unlink(path);
        free(path);
    }
    expect_load_error("not json\n{}\n", "not a JSON object");
    {
        /* a header's optional strings given as another type */
        char *path = write_tmp("{\"kind\":\"header\",\"format\":1,\"searcher\":1,"
                               "\"params\":{\"A\":[1,2]}}\n");
        cutune_report_run *r = NULL;
        char err[512] = "", want[4200];
        assert_int_equal(cutune_report_run_load(path, &r, err, sizeof err), CUTUNE_EPARSE);
        assert_null(r);
        snprintf(want, sizeof want, "%s:1: header.searcher: expected a string", path);
        assert_string_equal(err, want);
        unlink(path);
        free(path);
    }
    /* two runs' lines in one file, as the journal loader refuses them */
    expect_load_error(header, "a second header");
    expect_load_error_at(4,
                         "{\"kind\":\"eval\",\"n\":0,\"config\":{\"A\":1,\"MODE\":\"fast\"},"
                         "\"status\":\"ok\",\"time_ms\":1}\n"
                         "{\"kind\":\"eval\",\"n\":1,\"config\":{\"A\":2,\"MODE\":\"fast\"},"
                         "\"status\":\"ok\",\"time_ms\":1}\n"
                         "{\"kind\":\"eval\",\"n\":0,\"config\":{\"A\":4,\"MODE\":\"fast\"},"
                         "\"status\":\"ok\",\"time_ms\":1}\n",
                         "n: evaluation 0 is also on line 2");
}

static char *read_sample(const char *name, size_t *len)
{
    const char *root = getenv("CUTUNE_SOURCE_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/report/%s", root ? root : ".", name);
    char *text = NULL;
    char err[256];
    assert_int_equal(cutune_read_file(path, &text, len, err, sizeof err), 0);
    return text;
}

static double value_of(const cutune_report_profile_entry *e, const char *name)
{
    for (size_t i = 0; i < e->nvalues; i++)
        if (strcmp(e->names[i], name) == 0)
            return e->values[i];
    fail_msg("no metric %s", name);
    return NAN;
}

static void test_ncu_raw(void **state)
{
    (void)state;
    size_t len;
    char *csv = read_sample("ncu_raw_sample.csv", &len);
    cutune_report_profile_entry e;
    char err[256] = "";
    assert_int_equal(cutune_report_ncu_parse("raw", csv, len, &e, err, sizeof err), 0);
    assert_int_equal(e.nvalues, 15); /* the metric columns of the first kernel only */
    assert_true(value_of(&e, "sm__warps_active.avg.pct_of_peak_sustained_active") == 18.61);
    assert_true(value_of(&e, "dram__throughput.avg.pct_of_peak_sustained_elapsed") == 12.47);
    assert_true(value_of(&e, "gpu__time_duration.sum") == 2914.30); /* thousands separator */
    assert_true(value_of(&e, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum") == 1048576);
    for (size_t i = 0; i < e.nvalues; i++)
        if (strcmp(e.names[i], "gpu__time_duration.sum") == 0)
            assert_string_equal(e.units[i], "usecond");
    char reason[64];
    assert_int_equal(cutune_report_ncu_stall_reason(
                         "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
                         reason, sizeof reason),
                     1);
    assert_string_equal(reason, "long_scoreboard");
    assert_int_equal(cutune_report_ncu_stall_reason("smsp__pcsamp_warps_issue_stalled_barrier",
                                                    reason, sizeof reason),
                     2);
    assert_string_equal(reason, "barrier");
    assert_int_equal(cutune_report_ncu_stall_reason("smsp__pcsamp_warps_issue_stalled_wait.sum",
                                                    reason, sizeof reason),
                     2);
    assert_string_equal(reason, "wait");
    assert_int_equal(
        cutune_report_ncu_stall_reason("smsp__pcsamp_warps_issue_stalled_barrier_not_issued",
                                       reason, sizeof reason),
        0);
    assert_int_equal(
        cutune_report_ncu_stall_reason("gpu__time_duration.sum", reason, sizeof reason), 0);
    cutune_report_profile_entry_clear(&e);
    free(csv);
}

static void test_ncu_details(void **state)
{
    (void)state;
    size_t len;
    char *csv = read_sample("ncu_details_sample.csv", &len);
    cutune_report_profile_entry e;
    char err[256] = "";
    assert_int_equal(cutune_report_ncu_parse("details", csv, len, &e, err, sizeof err), 0);
    assert_int_equal(e.nvalues, 7); /* kernel ID 1's row is not taken */
    assert_true(value_of(&e, "dram__throughput.avg.pct_of_peak_sustained_elapsed") == 7.31);
    assert_true(value_of(&e, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum") == 3211);
    assert_true(isnan(value_of(&e, "Warp Cycles Per Issued Instruction"))); /* "n/a" */
    cutune_report_profile_entry_clear(&e);
    free(csv);
}

static void test_ncu_bad(void **state)
{
    (void)state;
    cutune_report_profile_entry e;
    char err[256] = "";
    const char *none = "==PROF== No kernels were profiled.\n";
    assert_int_equal(cutune_report_ncu_parse("x.csv", none, strlen(none), &e, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_non_null(strstr(err, "x.csv: no ncu CSV header"));
    const char *cut = "\"ID\",\"Kernel Name\",\"a__b\"\n\"\",\"\",\"%\"\n\"0\",\"k\"\n";
    assert_int_equal(cutune_report_ncu_parse("y.csv", cut, strlen(cut), &e, err, sizeof err),
                     CUTUNE_EPARSE);
    assert_non_null(strstr(err, "y.csv:3: 2 fields where the header (line 1) has 3"));
}

static void test_profile_roundtrip(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutune-profile-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *names[2] = {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "x__nan"};
    char *units[2] = {"%", ""};
    double values[2] = {55.25, NAN};
    cutune_report_profile_entry e = {.role = "best 1",
                                     .n = 7,
                                     .config = "A=1, B=fast",
                                     .nvalues = 2,
                                     .names = names,
                                     .units = units,
                                     .values = values};
    cutune_report_profile p = {.status = "ok", .nentries = 1, .entries = &e};
    char err[256] = "";
    assert_int_equal(cutune_report_profile_save(dir, &p, err, sizeof err), 0);
    cutune_report_profile *back = NULL;
    assert_int_equal(cutune_report_profile_load(dir, &back, err, sizeof err), 0);
    assert_string_equal(back->status, "ok");
    assert_int_equal(back->nentries, 1);
    assert_string_equal(back->entries[0].role, "best 1");
    assert_int_equal(back->entries[0].n, 7);
    assert_true(back->entries[0].values[0] == 55.25);
    assert_true(isnan(back->entries[0].values[1]));
    cutune_report_profile_free(back);
    char path[4200];
    snprintf(path, sizeof path, "%s/profile.json", dir);
    unlink(path);
    assert_int_equal(cutune_report_profile_load(dir, &back, err, sizeof err), CUTUNE_ENOTFOUND);
    rmdir(dir);
    char buf[256];
    assert_int_equal(cutune_report_profile_dir("runs/gemm-1-x.jsonl", buf, sizeof buf), 0);
    assert_string_equal(buf, "runs/gemm-1-x.profile");
    assert_int_equal(cutune_report_profile_dir("data/gemm.jsonl.gz", buf, sizeof buf), 0);
    assert_string_equal(buf, "data/gemm.profile");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_importance_two_parameters_with_interaction),
        cmocka_unit_test(test_importance_no_interaction),
        cmocka_unit_test(test_importance_sampled),
        cmocka_unit_test(test_importance_degenerate),
        cmocka_unit_test(test_load_journal),
        cmocka_unit_test(test_load_float_values),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_ncu_raw),
        cmocka_unit_test(test_ncu_details),
        cmocka_unit_test(test_ncu_bad),
        cmocka_unit_test(test_profile_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
