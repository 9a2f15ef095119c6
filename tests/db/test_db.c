/* Tests of the tuning database (src/db/): the schema built by its steps, a version 1
 * database migrated with its rows, a newer one refused untouched, a result stored and
 * looked up exactly, reused answers kept apart from measurements, the warm-start query,
 * keys, and pruning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "src/db/db_internal.h"

typedef struct fixture {
    char dir[64];
    char path[128];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/cutune-test-db-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/t.db", f->dir);
    unsetenv("CUTUNE_DB_TIMEOUT");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        return -1;
    free(f);
    return 0;
}

static long long scalar(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long long v = -1;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(h);
}

static void key_of(cutune_db_key *k, const char *gpu, const char *sizes)
{
    memset(k, 0, sizeof *k);
    snprintf(k->kernel, sizeof k->kernel, "gemm");
    snprintf(k->kernel_hash, sizeof k->kernel_hash, "0123456789abcdef");
    snprintf(k->sizes, sizeof k->sizes, "%s", sizes);
    snprintf(k->options, sizeof k->options, "[]");
    cutune_db_gpu_from_name(gpu, &k->gpu);
}

static void result_of(cutune_eval_result *r, double t)
{
    memset(r, 0, sizeof *r);
    r->status = CUTUNE_STATUS_OK;
    r->time_ms = t;
    r->compile_ms = 812.25;
    r->bench_ms = -1;
    r->times_ms = malloc(3 * sizeof *r->times_ms);
    r->times_ms[0] = t * 0.9;
    r->times_ms[1] = t;
    r->times_ms[2] = 0.1 + 0.2; /* not a short decimal: must come back bit for bit */
    r->ntimes = 3;
    cutune_eval_result_add_metric(r, "registers", 96);
    r->log = strdup("ptxas info: 96 registers");
}

static void test_new_database_is_current(void **state)
{
    fixture *f = *state;
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), 0);
    assert_int_equal(cutune_db_schema_version(db), CUTUNE_DB_SCHEMA_VERSION);
    cutune_db_close(db);
    assert_int_equal(scalar(f->path, "PRAGMA user_version"), CUTUNE_DB_SCHEMA_VERSION);
    assert_int_equal(scalar(f->path, "PRAGMA application_id"), CUTUNE_DB_APPLICATION_ID);
    assert_int_equal(scalar(f->path, "SELECT count(*) FROM pragma_table_info('evaluations') "
                                     "WHERE name = 'reused_from'"),
                     1);
}

/* A database as version 1 of this schema wrote it, with a measurement in it. */
static void make_v1(const char *path)
{
    raw_exec(path, cutune_db_schema_steps[0]);
    raw_exec(path,
             "INSERT INTO kernels VALUES (1, 'gemm', '0123456789abcdef');"
             "INSERT INTO gpus VALUES (1, 'GPU A', 'GPU A', NULL, NULL, NULL, NULL);"
             "INSERT INTO runs VALUES (1, 1, 1, '{\"N\":64}', '[]', 'bo', 'cuda', 1, NULL, "
             "'tune', '2026-01-01T00:00:00.000Z');"
             "INSERT INTO evaluations VALUES (1, 1, 0, '{\"BM\":64}', 'ok', 1.5, '[1.5]', NULL, "
             "NULL, NULL, NULL, '2026-01-01T00:00:01.000Z');");
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA user_version = 1; PRAGMA application_id = %d",
             CUTUNE_DB_APPLICATION_ID);
    raw_exec(path, sql);
}

static void test_migrates_v1(void **state)
{
    fixture *f = *state;
    make_v1(f->path);
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), 0);
    assert_int_equal(cutune_db_schema_version(db), 2);
    cutune_db_key k;
    key_of(&k, "GPU A", "{\"N\":64}");
    cutune_db_row best;
    size_t measured = 0;
    assert_int_equal(cutune_db_best(db, &k, &best, &measured, err, sizeof err), 1);
    assert_string_equal(best.config, "{\"BM\":64}");
    assert_true(best.time_ms == 1.5);
    assert_int_equal(measured, 1);
    cutune_db_row_clear(&best);
    /* the migrated database takes new rows with the new column */
    cutune_db_run *run;
    cutune_db_run_info info = {.source = "tune"};
    assert_int_equal(cutune_db_run_begin(db, &k, &info, &run, err, sizeof err), 0);
    cutune_eval_result r;
    long long source = 0;
    memset(&r, 0, sizeof r);
    assert_int_equal(cutune_db_run_lookup(run, "{\"BM\":64}", &r, &source, err, sizeof err), 1);
    assert_int_equal(source, 1);
    assert_int_equal(cutune_db_run_record(run, 0, "{\"BM\":64}", &r, source, err, sizeof err), 0);
    cutune_eval_result_clear(&r);
    cutune_db_run_end(run);
    cutune_db_close(db);
    assert_int_equal(scalar(f->path, "PRAGMA user_version"), 2);
    assert_int_equal(scalar(f->path, "SELECT count(*) FROM evaluations WHERE reused_from = 1"), 1);
}

/* a read-only command (best, list) on a version 1 database migrates it first */
static void test_readonly_open_migrates_v1(void **state)
{
    fixture *f = *state;
    make_v1(f->path);
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, CUTUNE_DB_READONLY, &db, err, sizeof err), 0);
    assert_int_equal(cutune_db_schema_version(db), 2);
    cutune_db_groups *gs;
    assert_int_equal(cutune_db_groups_list(db, NULL, NULL, &gs, err, sizeof err), 0);
    assert_int_equal(gs->n, 1);
    assert_int_equal(gs->g[0].evaluations, 1);
    cutune_db_groups_free(gs);
    cutune_db_close(db);
}

static void test_refuses_newer(void **state)
{
    fixture *f = *state;
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), 0);
    cutune_db_close(db);
    raw_exec(f->path, "PRAGMA user_version = 3");
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), CUTUNE_EUNSUPPORTED);
    assert_non_null(strstr(err, "schema version 3 is newer than this cutune's (2)"));
    assert_non_null(strstr(err, f->path));
    assert_int_equal(scalar(f->path, "PRAGMA user_version"), 3);
}

static void test_refuses_not_a_database(void **state)
{
    fixture *f = *state;
    FILE *o = fopen(f->path, "w");
    fputs("{\"not\": \"sqlite\"}\n", o);
    fclose(o);
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "not a cutune database"));
    o = fopen(f->path, "r");
    char buf[64] = "";
    assert_non_null(fgets(buf, sizeof buf, o));
    fclose(o);
    assert_string_equal(buf, "{\"not\": \"sqlite\"}\n");
}

static void test_roundtrip_exact(void **state)
{
    fixture *f = *state;
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), 0);
    cutune_db_key k;
    key_of(&k, "GPU A", "{\"N\":64}");
    cutune_db_run *run;
    assert_int_equal(cutune_db_run_begin(db, &k, NULL, &run, err, sizeof err), 0);
    cutune_eval_result r, back;
    result_of(&r, 2.0 / 3.0);
    assert_int_equal(cutune_db_run_record(run, 0, "{\"BM\":128}", &r, 0, err, sizeof err), 0);
    /* the same seq again (a resumed run hands its journal back): kept once */
    assert_int_equal(cutune_db_run_record(run, 0, "{\"BM\":128}", &r, 0, err, sizeof err), 0);
    memset(&back, 0, sizeof back);
    long long source;
    assert_int_equal(cutune_db_run_lookup(run, "{\"BM\":128}", &back, &source, err, sizeof err), 1);
    assert_int_equal(back.status, CUTUNE_STATUS_OK);
    assert_memory_equal(&back.time_ms, &r.time_ms, sizeof r.time_ms);
    assert_int_equal(back.ntimes, 3);
    assert_memory_equal(back.times_ms, r.times_ms, 3 * sizeof *r.times_ms);
    assert_true(back.compile_ms == 812.25);
    assert_true(back.bench_ms < 0);
    assert_int_equal(back.nmetrics, 1);
    assert_string_equal(back.metrics[0].name, "registers");
    assert_string_equal(back.log, r.log);
    cutune_eval_result_clear(&back);
    memset(&back, 0, sizeof back);
    assert_int_equal(cutune_db_run_lookup(run, "{\"BM\":64}", &back, &source, err, sizeof err), 0);
    cutune_db_run_end(run);
    /* another GPU does not see it */
    key_of(&k, "GPU B", "{\"N\":64}");
    assert_int_equal(cutune_db_run_begin(db, &k, NULL, &run, err, sizeof err), 0);
    assert_int_equal(cutune_db_run_lookup(run, "{\"BM\":128}", &back, &source, err, sizeof err), 0);
    cutune_db_run_end(run);
    cutune_db_close(db);
    cutune_eval_result_clear(&r);
    assert_int_equal(scalar(f->path, "SELECT count(*) FROM evaluations"), 1);
}

static void record_one(cutune_db *db, const char *gpu, const char *sizes, const char *config,
                       double t)
{
    cutune_db_key k;
    key_of(&k, gpu, sizes);
    cutune_db_run *run;
    char err[512];
    assert_int_equal(cutune_db_run_begin(db, &k, NULL, &run, err, sizeof err), 0);
    cutune_eval_result r;
    result_of(&r, t);
    assert_int_equal(cutune_db_run_record(run, 0, config, &r, 0, err, sizeof err), 0);
    cutune_eval_result_clear(&r);
    cutune_db_run_end(run);
}

static void test_transfer_and_best(void **state)
{
    fixture *f = *state;
    cutune_db *db;
    char err[512];
    assert_int_equal(cutune_db_open(f->path, 0, &db, err, sizeof err), 0);
    record_one(db, "GPU A", "{\"N\":64}", "{\"BM\":64}", 3.0);
    record_one(db, "GPU A", "{\"N\":64}", "{\"BM\":128}", 2.0);
    record_one(db, "GPU B", "{\"N\":64}", "{\"BM\":64}", 1.0);
    record_one(db, "GPU A", "{\"N\":128}", "{\"BM\":64}", 5.0);
    cutune_db_key k;
    key_of(&k, "GPU A", "{\"N\":64}");
    cutune_db_row best;
    size_t measured;
    assert_int_equal(cutune_db_best(db, &k, &best, &measured, err, sizeof err), 1);
    assert_string_equal(best.config, "{\"BM\":128}");
    assert_int_equal(measured, 2);
    cutune_db_row_clear(&best);
    cutune_db_rows *rows;
    assert_int_equal(cutune_db_rows_transfer(db, &k, &rows, err, sizeof err), 0);
    assert_int_equal(rows->n, 2);
    assert_string_equal(rows->row[0].gpu, "GPU B");
    assert_true(rows->row[0].time_ms == 1.0);
    assert_string_equal(rows->row[1].sizes, "{\"N\":128}");
    cutune_db_rows_free(rows);
    cutune_db_groups *gs;
    assert_int_equal(cutune_db_groups_list(db, "gemm", "GPU A", &gs, err, sizeof err), 0);
    assert_int_equal(gs->n, 2);
    cutune_db_groups_free(gs);
    size_t removed;
    cutune_db_prune_filter pf = {.gpu = "GPU B"};
    assert_int_equal(cutune_db_prune(db, &pf, &removed, err, sizeof err), 0);
    assert_int_equal(removed, 1);
    cutune_db_close(db);
    assert_int_equal(scalar(f->path, "SELECT count(*) FROM gpus"), 1);
}

static void test_default_path(void **state)
{
    (void)state;
    char p[256], err[256];
    setenv("CUTUNE_DB", "none", 1);
    assert_int_equal(cutune_db_default_path(p, sizeof p, err, sizeof err), 0);
    assert_string_equal(p, "");
    unsetenv("CUTUNE_DB");
    setenv("XDG_DATA_HOME", "/x/data", 1);
    assert_int_equal(cutune_db_default_path(p, sizeof p, err, sizeof err), 0);
    assert_string_equal(p, "/x/data/cutune/tuning.db");
    setenv("XDG_DATA_HOME", "relative", 1); /* ignored, as the XDG spec says */
    setenv("HOME", "/home/u", 1);
    assert_int_equal(cutune_db_default_path(p, sizeof p, err, sizeof err), 0);
    assert_string_equal(p, "/home/u/.local/share/cutune/tuning.db");
}

static void test_config_text_roundtrip(void **state)
{
    (void)state;
    char err[256];
    cutune_space *s = cutune_space_alloc();
    cutune_value a[] = {{.type = CUTUNE_VALUE_INT, .i = 16}, {.type = CUTUNE_VALUE_INT, .i = 32}};
    cutune_value b[] = {{.type = CUTUNE_VALUE_REAL, .r = 0.5},
                        {.type = CUTUNE_VALUE_STRING, .s = "x\"y"}};
    assert_int_equal(cutune_space_add_param(s, "A", a, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "B", b, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    for (size_t id = 0; id < cutune_space_size(s); id++) {
        char *t = cutune_db_config_text(s, id);
        assert_non_null(t);
        assert_int_equal(cutune_db_config_id(s, t), (long long)id);
        free(t);
    }
    assert_int_equal(cutune_db_config_id(s, "{\"A\":17,\"B\":0.5}"), -1);
    assert_int_equal(cutune_db_config_id(s, "{\"A\":16}"), -1);
    cutune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_new_database_is_current, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrates_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_open_migrates_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_newer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_not_a_database, setup, teardown),
        cmocka_unit_test_setup_teardown(test_roundtrip_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transfer_and_best, setup, teardown),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_config_text_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
