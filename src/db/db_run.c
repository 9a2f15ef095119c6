/* One run in the database: its key's rows (kernel, GPU) and its own, the lookup of an
 * earlier measurement, and one evaluation stored per transaction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_internal.h"
#include "src/io/io_internal.h"

char *cutune_db_column_text(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return t ? strdup((const char *)t) : NULL;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* INSERT OR IGNORE a row, then its id by the same unique values. */
static int upsert_id(cutune_db *db, const char *insert, const char *select, const char *a,
                     const char *b, const cutune_db_gpu *g, long long *id, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int src = sqlite3_prepare_v2(db->h, insert, -1, &st, NULL);
    if (src == SQLITE_OK) {
        bind_text(st, 1, a);
        bind_text(st, 2, b);
        if (g) {
            /* unknown (a recorded device name): NULL, not 0 or "" */
            if (g->sm_count > 0)
                sqlite3_bind_int(st, 3, g->sm_count);
            if (g->memory_mib > 0)
                sqlite3_bind_int64(st, 4, g->memory_mib);
            bind_text(st, 5, g->driver[0] ? g->driver : NULL);
            bind_text(st, 6, g->cuda[0] ? g->cuda : NULL);
        }
        src = sqlite3_step(st);
        src = src == SQLITE_DONE ? SQLITE_OK : src;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (src == SQLITE_OK)
        src = sqlite3_prepare_v2(db->h, select, -1, &st, NULL);
    if (src == SQLITE_OK) {
        bind_text(st, 1, a);
        if (!g)
            bind_text(st, 2, b);
        src = sqlite3_step(st);
        if (src == SQLITE_ROW) {
            *id = sqlite3_column_int64(st, 0);
            src = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return src == SQLITE_OK ? 0 : cutune_db_sqlite_err(db, src, err, errlen, insert);
}

static int find_or_add_run(cutune_db_run *run, const cutune_db_key *key,
                           const cutune_db_run_info *info, char *err, size_t errlen)
{
    cutune_db *db = run->db;
    sqlite3_stmt *st = NULL;
    int src = SQLITE_OK;
    run->id = 0;
    if (info->journal) { /* a resumed run goes on in its own row */
        src = sqlite3_prepare_v2(db->h,
                                 "SELECT id FROM runs WHERE journal = ?1 AND kernel_id = ?2 AND "
                                 "gpu_id = ?3 AND sizes = ?4 AND options = ?5 "
                                 "ORDER BY id DESC LIMIT 1",
                                 -1, &st, NULL);
        if (src == SQLITE_OK) {
            bind_text(st, 1, info->journal);
            sqlite3_bind_int64(st, 2, run->kernel);
            sqlite3_bind_int64(st, 3, run->gpu);
            bind_text(st, 4, key->sizes);
            bind_text(st, 5, key->options);
            src = sqlite3_step(st);
            if (src == SQLITE_ROW)
                run->id = sqlite3_column_int64(st, 0);
            src = src == SQLITE_ROW || src == SQLITE_DONE ? SQLITE_OK : src;
        }
        sqlite3_finalize(st);
        st = NULL;
        if (src != SQLITE_OK)
            return cutune_db_sqlite_err(db, src, err, errlen, "finding the resumed run");
        if (run->id)
            return 0;
    }
    char now[32];
    cutune_io_iso_now_ms(now, sizeof now);
    src = sqlite3_prepare_v2(db->h,
                             "INSERT INTO runs (kernel_id, gpu_id, sizes, options, searcher, "
                             "evaluator, seed, journal, source, started, clocks) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                             -1, &st, NULL);
    if (src == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run->kernel);
        sqlite3_bind_int64(st, 2, run->gpu);
        bind_text(st, 3, key->sizes);
        bind_text(st, 4, key->options);
        bind_text(st, 5, info->searcher);
        bind_text(st, 6, info->evaluator);
        sqlite3_bind_int64(st, 7, (long long)info->seed);
        bind_text(st, 8, info->journal);
        bind_text(st, 9, info->source ? info->source : "tune");
        bind_text(st, 10, now);
        bind_text(st, 11, key->gpu.clocks[0] ? key->gpu.clocks : NULL);
        src = sqlite3_step(st);
        src = src == SQLITE_DONE ? SQLITE_OK : src;
    }
    sqlite3_finalize(st);
    if (src != SQLITE_OK)
        return cutune_db_sqlite_err(db, src, err, errlen, "adding the run");
    run->id = sqlite3_last_insert_rowid(db->h);
    return 0;
}

int cutune_db_run_begin(cutune_db *db, const cutune_db_key *key, const cutune_db_run_info *info,
                        cutune_db_run **out, char *err, size_t errlen)
{
    static const cutune_db_run_info none = {0};
    int rc;
    *out = NULL;
    if (!info)
        info = &none;
    cutune_db_run *run = calloc(1, sizeof *run);
    if (!run || !(run->sizes = strdup(key->sizes)) || !(run->options = strdup(key->options))) {
        cutune_db_run_end(run);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    run->db = db;
    if ((rc = cutune_db_exec(db, "BEGIN IMMEDIATE", err, errlen)) < 0)
        goto out_free;
    rc = upsert_id(db, "INSERT OR IGNORE INTO kernels (name, hash) VALUES (?1, ?2)",
                   "SELECT id FROM kernels WHERE name = ?1 AND hash = ?2", key->kernel,
                   key->kernel_hash, NULL, &run->kernel, err, errlen);
    if (rc >= 0)
        rc = upsert_id(db,
                       "INSERT OR IGNORE INTO gpus (fingerprint, name, sm_count, memory_mib, "
                       "driver, cuda) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                       "SELECT id FROM gpus WHERE fingerprint = ?1", key->gpu.fingerprint,
                       key->gpu.name, &key->gpu, &run->gpu, err, errlen);
    if (rc >= 0)
        rc = find_or_add_run(run, key, info, err, errlen);
    if (rc >= 0)
        rc = cutune_db_exec(db, "COMMIT", err, errlen);
    if (rc < 0) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        goto out_free;
    }
    int src = sqlite3_prepare_v2(
        db->h,
        "SELECT e.id, e.status, e.time_ms, e.times_ms, e.compile_ms, e.bench_ms, e.metrics, e.log "
        "FROM evaluations e JOIN runs r ON r.id = e.run_id "
        "WHERE e.config = ?1 AND e.reused_from IS NULL AND e.status != 'missing' "
        "AND r.kernel_id = ?2 AND r.gpu_id = ?3 AND r.sizes = ?4 AND r.options = ?5 "
        "ORDER BY e.id DESC LIMIT 1",
        -1, &run->lookup, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_prepare_v2(
            db->h,
            "INSERT OR IGNORE INTO evaluations (run_id, seq, config, status, time_ms, times_ms, "
            "compile_ms, bench_ms, metrics, log, recorded, reused_from) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            -1, &run->insert, NULL);
    if (src != SQLITE_OK) {
        rc = cutune_db_sqlite_err(db, src, err, errlen, "preparing the run's statements");
        goto out_free;
    }
    *out = run;
    return 0;

out_free:
    cutune_db_run_end(run);
    return rc;
}

long long cutune_db_run_id(const cutune_db_run *run)
{
    return run ? run->id : 0;
}

void cutune_db_run_end(cutune_db_run *run)
{
    if (!run)
        return;
    sqlite3_finalize(run->lookup);
    sqlite3_finalize(run->insert);
    free(run->sizes);
    free(run->options);
    free(run);
}

/* times_ms and metrics as the database keeps them (JSON text). */
static char *times_text(const cutune_eval_result *r)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < r->ntimes; i++) {
        cJSON *x = cutune_io_number_json(r->times_ms[i]);
        if (!x || !cJSON_AddItemToArray(a, x)) {
            cJSON_Delete(x);
            cJSON_Delete(a);
            a = NULL;
        }
    }
    char *t = a ? cJSON_PrintUnformatted(a) : NULL;
    cJSON_Delete(a);
    return t;
}

static char *metrics_text(const cutune_eval_result *r)
{
    if (!r->nmetrics)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < r->nmetrics; i++)
        if (cutune_io_add(o, r->metrics[i].name, cutune_io_number_json(r->metrics[i].value)) < 0) {
            cJSON_Delete(o);
            o = NULL;
        }
    char *t = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return t;
}

static void bind_real(sqlite3_stmt *st, int i, double x, int known)
{
    if (known && isfinite(x))
        sqlite3_bind_double(st, i, x);
    else
        sqlite3_bind_null(st, i);
}

int cutune_db_run_record(cutune_db_run *run, size_t seq, const char *config,
                         const cutune_eval_result *r, long long reused_from, char *err,
                         size_t errlen)
{
    char now[32];
    cutune_io_iso_now_ms(now, sizeof now);
    char *times = times_text(r);
    char *metrics = metrics_text(r);
    if (!times || (r->nmetrics && !metrics)) {
        free(times);
        free(metrics);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    sqlite3_stmt *st = run->insert;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    sqlite3_bind_int64(st, 1, run->id);
    sqlite3_bind_int64(st, 2, (long long)seq);
    bind_text(st, 3, config);
    bind_text(st, 4, cutune_status_name(r->status));
    bind_real(st, 5, r->time_ms, 1);
    bind_text(st, 6, times);
    bind_real(st, 7, r->compile_ms, r->compile_ms >= 0);
    bind_real(st, 8, r->bench_ms, r->bench_ms >= 0);
    bind_text(st, 9, metrics);
    bind_text(st, 10, r->log);
    bind_text(st, 11, now);
    if (reused_from > 0)
        sqlite3_bind_int64(st, 12, reused_from);
    else
        sqlite3_bind_null(st, 12);
    int src = sqlite3_step(st); /* one statement: its own transaction */
    sqlite3_reset(st);
    free(times);
    free(metrics);
    if (src != SQLITE_DONE)
        return cutune_db_sqlite_err(run->db, src, err, errlen, "storing an evaluation");
    return 0;
}

int cutune_db_run_journaled(cutune_db_run *run, size_t seq, const char *config,
                            const cutune_eval_result *r, long long *reused_from, char *err,
                            size_t errlen)
{
    cutune_db *db = run->db;
    sqlite3_stmt *st = NULL;
    *reused_from = 0;
    int src = sqlite3_prepare_v2(db->h, "SELECT 1 FROM evaluations WHERE run_id = ?1 AND seq = ?2",
                                 -1, &st, NULL);
    if (src == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run->id);
        sqlite3_bind_int64(st, 2, (long long)seq);
        src = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (src == SQLITE_ROW)
        return 1;
    if (src != SQLITE_DONE)
        return cutune_db_sqlite_err(db, src, err, errlen, "looking up a resumed evaluation");
    char *times = times_text(r);
    if (!times)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    src = sqlite3_prepare_v2(
        db->h,
        "SELECT e.id FROM evaluations e JOIN runs r ON r.id = e.run_id "
        "WHERE e.config = ?1 AND e.reused_from IS NULL AND e.status != 'missing' "
        "AND r.kernel_id = ?2 AND r.gpu_id = ?3 AND r.sizes = ?4 AND r.options = ?5 "
        "AND r.id != ?6 AND e.status = ?7 AND e.time_ms IS ?8 AND e.times_ms IS ?9 "
        "ORDER BY e.id DESC LIMIT 1",
        -1, &st, NULL);
    if (src == SQLITE_OK) {
        bind_text(st, 1, config);
        sqlite3_bind_int64(st, 2, run->kernel);
        sqlite3_bind_int64(st, 3, run->gpu);
        bind_text(st, 4, run->sizes);
        bind_text(st, 5, run->options);
        sqlite3_bind_int64(st, 6, run->id);
        bind_text(st, 7, cutune_status_name(r->status));
        bind_real(st, 8, r->time_ms, 1);
        bind_text(st, 9, times);
        src = sqlite3_step(st);
        if (src == SQLITE_ROW)
            *reused_from = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    free(times);
    if (src != SQLITE_ROW && src != SQLITE_DONE)
        return cutune_db_sqlite_err(db, src, err, errlen, "looking up a resumed evaluation");
    return 0;
}

int cutune_db_holds(cutune_db *db, const cutune_db_key *key, const char *config,
                    const cutune_eval_result *r, int kt, char *err, size_t errlen)
{
    char *times = times_text(r);
    if (!times)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    /* Kernel Tuner's RuntimeFailedConfig stands for every failure after the launch */
    int coarse = kt && r->status == CUTUNE_STATUS_RUNTIME_ERROR;
    sqlite3_stmt *st = NULL;
    int src = sqlite3_prepare_v2(
        db->h,
        "SELECT 1 FROM evaluations e JOIN runs r ON r.id = e.run_id "
        "JOIN kernels k ON k.id = r.kernel_id JOIN gpus g ON g.id = r.gpu_id "
        "WHERE e.config = ?1 AND k.name = ?2 AND k.hash = ?3 AND g.fingerprint = ?4 AND "
        "r.sizes = ?5 AND r.options = ?6 AND e.reused_from IS NULL AND e.time_ms IS ?7 AND "
        "e.times_ms IS ?8 AND (e.status = ?9 OR (?10 AND e.status IN ('runtime_error', "
        "'timeout', 'wrong_result'))) LIMIT 1",
        -1, &st, NULL);
    if (src == SQLITE_OK) {
        bind_text(st, 1, config);
        bind_text(st, 2, key->kernel);
        bind_text(st, 3, key->kernel_hash);
        bind_text(st, 4, key->gpu.fingerprint);
        bind_text(st, 5, key->sizes);
        bind_text(st, 6, key->options);
        bind_real(st, 7, r->time_ms, 1);
        bind_text(st, 8, times);
        bind_text(st, 9, cutune_status_name(r->status));
        sqlite3_bind_int(st, 10, coarse);
        src = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    free(times);
    if (src == SQLITE_ROW)
        return 1;
    if (src == SQLITE_DONE)
        return 0;
    return cutune_db_sqlite_err(db, src, err, errlen, "looking up a stored evaluation");
}

/* Parse stored JSON back into a result's times and metrics. */
static int restore_json(const char *times, const char *metrics, cutune_eval_result *r)
{
    cJSON *a = times ? cJSON_Parse(times) : NULL;
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    if (n > 0) {
        r->times_ms = malloc((size_t)n * sizeof *r->times_ms);
        if (!r->times_ms) {
            cJSON_Delete(a);
            return CUTUNE_ENOMEM;
        }
        const cJSON *x;
        cJSON_ArrayForEach(x, a) r->times_ms[r->ntimes++] =
            cJSON_IsNumber(x) ? x->valuedouble : NAN;
    }
    cJSON_Delete(a);
    cJSON *o = metrics ? cJSON_Parse(metrics) : NULL;
    const cJSON *m;
    if (cJSON_IsObject(o))
        cJSON_ArrayForEach(m, o) if (cJSON_IsNumber(m) &&
                                     cutune_eval_result_add_metric(r, m->string, m->valuedouble) <
                                         0) break;
    cJSON_Delete(o);
    return 0;
}

int cutune_db_run_lookup(cutune_db_run *run, const char *config, cutune_eval_result *r,
                         long long *source, char *err, size_t errlen)
{
    sqlite3_stmt *st = run->lookup;
    sqlite3_reset(st);
    bind_text(st, 1, config);
    sqlite3_bind_int64(st, 2, run->kernel);
    sqlite3_bind_int64(st, 3, run->gpu);
    bind_text(st, 4, run->sizes);
    bind_text(st, 5, run->options);
    int src = sqlite3_step(st);
    if (src == SQLITE_DONE) {
        sqlite3_reset(st);
        return 0;
    }
    if (src != SQLITE_ROW) {
        int rc = cutune_db_sqlite_err(run->db, src, err, errlen, "looking up a configuration");
        sqlite3_reset(st);
        return rc;
    }
    int status = cutune_status_from_name((const char *)sqlite3_column_text(st, 1));
    *source = sqlite3_column_int64(st, 0);
    r->status = status < 0 ? CUTUNE_STATUS_RUNTIME_ERROR : (cutune_status)status;
    r->time_ms = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2);
    r->compile_ms = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 4);
    r->bench_ms = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 5);
    int rc = restore_json((const char *)sqlite3_column_text(st, 3),
                          (const char *)sqlite3_column_text(st, 6), r);
    if (rc == 0 && sqlite3_column_type(st, 7) != SQLITE_NULL &&
        !(r->log = cutune_db_column_text(st, 7)))
        rc = CUTUNE_ENOMEM;
    sqlite3_reset(st);
    if (rc < 0) {
        cutune_eval_result_clear(r);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    return 1;
}

int cutune_db_each_latest(cutune_db *db, const cutune_db_key *key,
                          int (*fn)(void *ctx, const char *config, cutune_eval_result *r, char *err,
                                    size_t errlen),
                          void *ctx, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int src = sqlite3_prepare_v2(
        db->h,
        "SELECT e.config, e.status, e.time_ms, e.times_ms, e.compile_ms, e.bench_ms, e.metrics, "
        "e.log FROM evaluations e JOIN runs r ON r.id = e.run_id "
        "JOIN kernels k ON k.id = r.kernel_id JOIN gpus g ON g.id = r.gpu_id "
        "WHERE k.name = ?1 AND k.hash = ?2 AND g.fingerprint = ?3 AND r.sizes = ?4 AND "
        "r.options = ?5 AND e.reused_from IS NULL AND e.status != 'missing' AND e.id = "
        "(SELECT max(e2.id) FROM evaluations e2 JOIN runs r2 ON r2.id = e2.run_id "
        " WHERE e2.config = e.config AND r2.kernel_id = r.kernel_id AND r2.gpu_id = r.gpu_id "
        " AND r2.sizes = r.sizes AND r2.options = r.options AND e2.reused_from IS NULL "
        " AND e2.status != 'missing') ORDER BY e.id DESC",
        -1, &st, NULL);
    if (src != SQLITE_OK)
        return cutune_db_sqlite_err(db, src, err, errlen, "reading evaluations");
    bind_text(st, 1, key->kernel);
    bind_text(st, 2, key->kernel_hash);
    bind_text(st, 3, key->gpu.fingerprint);
    bind_text(st, 4, key->sizes);
    bind_text(st, 5, key->options);
    int rc = 0;
    while (rc >= 0 && (src = sqlite3_step(st)) == SQLITE_ROW) {
        cutune_eval_result r;
        memset(&r, 0, sizeof r);
        int status = cutune_status_from_name((const char *)sqlite3_column_text(st, 1));
        r.status = status < 0 ? CUTUNE_STATUS_RUNTIME_ERROR : (cutune_status)status;
        r.time_ms = sqlite3_column_type(st, 2) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 2);
        r.compile_ms =
            sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 4);
        r.bench_ms = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 5);
        if (restore_json((const char *)sqlite3_column_text(st, 3),
                         (const char *)sqlite3_column_text(st, 6), &r) < 0 ||
            (sqlite3_column_type(st, 7) != SQLITE_NULL && !(r.log = cutune_db_column_text(st, 7))))
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        else
            rc = fn(ctx, (const char *)sqlite3_column_text(st, 0), &r, err, errlen);
        cutune_eval_result_clear(&r);
    }
    if (rc >= 0 && src != SQLITE_DONE)
        rc = cutune_db_sqlite_err(db, src, err, errlen, "reading evaluations");
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}
