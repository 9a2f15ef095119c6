/* Reading the database: the best of a key, a key's rows, the rows of the same kernel
 * elsewhere (warm starts), the groups `cutune db list` prints; and pruning. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/journal.h"
#include "db_internal.h"

#define ROW_COLUMNS                                                                                \
    "e.id, e.run_id, e.config, e.status, e.time_ms, json_array_length(e.times_ms), "               \
    "g.fingerprint, r.sizes, r.options, e.recorded "
#define ROW_FROM                                                                                   \
    "FROM evaluations e JOIN runs r ON r.id = e.run_id JOIN kernels k ON k.id = r.kernel_id "      \
    "JOIN gpus g ON g.id = r.gpu_id "
#define KEY_WHERE                                                                                  \
    "k.name = ?1 AND k.hash = ?2 AND g.fingerprint = ?3 AND r.sizes = ?4 AND r.options = ?5 "

void cutune_db_row_clear(cutune_db_row *row)
{
    if (!row)
        return;
    free(row->config);
    free(row->gpu);
    free(row->sizes);
    free(row->options);
    free(row->recorded);
    memset(row, 0, sizeof *row);
}

void cutune_db_rows_free(cutune_db_rows *rows)
{
    if (!rows)
        return;
    for (size_t i = 0; i < rows->n; i++)
        cutune_db_row_clear(&rows->row[i]);
    free(rows->row);
    free(rows);
}

static int row_read(sqlite3_stmt *st, cutune_db_row *row)
{
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(st, 0);
    row->run = sqlite3_column_int64(st, 1);
    int s = cutune_status_from_name((const char *)sqlite3_column_text(st, 3));
    row->status = s < 0 ? CUTUNE_STATUS_RUNTIME_ERROR : (cutune_status)s;
    row->time_ms = sqlite3_column_type(st, 4) == SQLITE_NULL || row->status != CUTUNE_STATUS_OK
                       ? NAN
                       : sqlite3_column_double(st, 4);
    row->ntimes = (size_t)sqlite3_column_int64(st, 5);
    row->config = cutune_db_column_text(st, 2);
    row->gpu = cutune_db_column_text(st, 6);
    row->sizes = cutune_db_column_text(st, 7);
    row->options = cutune_db_column_text(st, 8);
    row->recorded = cutune_db_column_text(st, 9);
    if (!row->config || !row->gpu || !row->sizes || !row->options || !row->recorded) {
        cutune_db_row_clear(row);
        return CUTUNE_ENOMEM;
    }
    return 0;
}

static void bind_key(sqlite3_stmt *st, const cutune_db_key *key)
{
    sqlite3_bind_text(st, 1, key->kernel, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, key->kernel_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, key->gpu.fingerprint, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, key->sizes, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, key->options, -1, SQLITE_TRANSIENT);
}

/* Every row sql returns (bound with key) into *out. */
static int rows_query(cutune_db *db, const char *sql, const cutune_db_key *key,
                      cutune_db_rows **out, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    cutune_db_rows *rows = calloc(1, sizeof *rows);
    size_t cap = 0;
    int rc = 0, src;
    *out = NULL;
    if (!rows)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    src = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (src == SQLITE_OK) {
        bind_key(st, key);
        while ((src = sqlite3_step(st)) == SQLITE_ROW) {
            if (rows->n == cap) {
                size_t ncap = cap ? cap * 2 : 64;
                cutune_db_row *nr = realloc(rows->row, ncap * sizeof *nr);
                if (!nr) {
                    rc = CUTUNE_ENOMEM;
                    break;
                }
                rows->row = nr;
                cap = ncap;
            }
            if ((rc = row_read(st, &rows->row[rows->n])) < 0)
                break;
            rows->n++;
        }
    }
    if (rc == 0 && src != SQLITE_DONE)
        rc = cutune_db_sqlite_err(db, src, err, errlen, "reading evaluations");
    else if (rc < 0)
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    sqlite3_finalize(st);
    if (rc < 0) {
        cutune_db_rows_free(rows);
        return rc;
    }
    *out = rows;
    return 0;
}

int cutune_db_best(cutune_db *db, const cutune_db_key *key, cutune_db_row *best, size_t *measured,
                   char *err, size_t errlen)
{
    cutune_db_rows *rows;
    memset(best, 0, sizeof *best);
    int rc = rows_query(db,
                        "SELECT " ROW_COLUMNS ROW_FROM "WHERE " KEY_WHERE
                        "AND e.reused_from IS NULL AND e.status = 'ok' AND e.time_ms IS NOT NULL "
                        "ORDER BY e.time_ms, e.id LIMIT 1",
                        key, &rows, err, errlen);
    if (rc < 0)
        return rc;
    int found = rows->n > 0;
    if (found) {
        *best = rows->row[0];
        rows->n = 0;
    }
    cutune_db_rows_free(rows);
    if (measured) {
        sqlite3_stmt *st = NULL;
        int src = sqlite3_prepare_v2(db->h,
                                     "SELECT count(*) " ROW_FROM "WHERE " KEY_WHERE
                                     "AND e.reused_from IS NULL AND e.status != 'missing'",
                                     -1, &st, NULL);
        if (src == SQLITE_OK) {
            bind_key(st, key);
            src = sqlite3_step(st);
            if (src == SQLITE_ROW)
                *measured = (size_t)sqlite3_column_int64(st, 0);
        }
        sqlite3_finalize(st);
        if (src != SQLITE_ROW) {
            cutune_db_row_clear(best);
            return cutune_db_sqlite_err(db, src, err, errlen, "counting evaluations");
        }
    }
    return found;
}

int cutune_db_rows_key(cutune_db *db, const cutune_db_key *key, cutune_db_rows **out, char *err,
                       size_t errlen)
{
    return rows_query(db,
                      "SELECT " ROW_COLUMNS ROW_FROM "WHERE " KEY_WHERE
                      "AND e.reused_from IS NULL ORDER BY e.id",
                      key, out, err, errlen);
}

int cutune_db_rows_transfer(cutune_db *db, const cutune_db_key *key, cutune_db_rows **out,
                            char *err, size_t errlen)
{
    return rows_query(db,
                      "SELECT " ROW_COLUMNS ROW_FROM
                      "WHERE k.name = ?1 AND k.hash = ?2 AND NOT (g.fingerprint = ?3 AND "
                      "r.sizes = ?4 AND r.options = ?5) AND e.reused_from IS NULL AND "
                      "e.status != 'missing' ORDER BY e.id",
                      key, out, err, errlen);
}

void cutune_db_groups_free(cutune_db_groups *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        cutune_db_group *x = &g->g[i];
        free(x->kernel);
        free(x->kernel_hash);
        free(x->gpu);
        free(x->sizes);
        free(x->options);
        free(x->last);
    }
    free(g->g);
    free(g);
}

int cutune_db_groups_list(cutune_db *db, const char *kernel, const char *gpu,
                          cutune_db_groups **out, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    cutune_db_groups *gs = calloc(1, sizeof *gs);
    size_t cap = 0;
    int rc = 0;
    *out = NULL;
    if (!gs)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int src = sqlite3_prepare_v2(
        db->h,
        "SELECT k.name, k.hash, g.fingerprint, r.sizes, r.options, "
        "sum(e.reused_from IS NULL AND e.status != 'missing'), "
        "sum(e.reused_from IS NULL AND e.status = 'ok'), "
        "sum(e.reused_from IS NOT NULL), "
        "min(CASE WHEN e.reused_from IS NULL AND e.status = 'ok' THEN e.time_ms END), "
        "max(e.recorded) " ROW_FROM
        "WHERE (?1 IS NULL OR k.name = ?1) AND (?2 IS NULL OR instr(g.fingerprint, ?2) > 0) "
        "GROUP BY k.name, k.hash, g.fingerprint, r.sizes, r.options ORDER BY 1, 3, 4, 5, 2",
        -1, &st, NULL);
    if (src == SQLITE_OK) {
        if (kernel)
            sqlite3_bind_text(st, 1, kernel, -1, SQLITE_TRANSIENT);
        if (gpu)
            sqlite3_bind_text(st, 2, gpu, -1, SQLITE_TRANSIENT);
        while ((src = sqlite3_step(st)) == SQLITE_ROW) {
            if (gs->n == cap) {
                size_t ncap = cap ? cap * 2 : 16;
                cutune_db_group *ng = realloc(gs->g, ncap * sizeof *ng);
                if (!ng) {
                    rc = CUTUNE_ENOMEM;
                    break;
                }
                gs->g = ng;
                cap = ncap;
            }
            cutune_db_group *x = &gs->g[gs->n++];
            memset(x, 0, sizeof *x);
            x->kernel = cutune_db_column_text(st, 0);
            x->kernel_hash = cutune_db_column_text(st, 1);
            x->gpu = cutune_db_column_text(st, 2);
            x->sizes = cutune_db_column_text(st, 3);
            x->options = cutune_db_column_text(st, 4);
            x->evaluations = (size_t)sqlite3_column_int64(st, 5);
            x->ok = (size_t)sqlite3_column_int64(st, 6);
            x->reused = (size_t)sqlite3_column_int64(st, 7);
            x->best_ms =
                sqlite3_column_type(st, 8) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 8);
            x->last = cutune_db_column_text(st, 9);
            if (!x->kernel || !x->kernel_hash || !x->gpu || !x->sizes || !x->options || !x->last) {
                rc = CUTUNE_ENOMEM;
                break;
            }
        }
    }
    if (rc == 0 && src != SQLITE_DONE)
        rc = cutune_db_sqlite_err(db, src, err, errlen, "listing");
    else if (rc < 0)
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    sqlite3_finalize(st);
    if (rc < 0) {
        cutune_db_groups_free(gs);
        return rc;
    }
    *out = gs;
    return 0;
}

/* A run this prune emptied whose journal another cutune still holds (its lock) is in
 * progress: its row stays, or its next evaluation would name a run that is gone (the
 * foreign key would fail, and the run with it). Its evaluations go as asked. */
static int spare_live_runs(cutune_db *db)
{
    sqlite3_stmt *st = NULL, *up = NULL;
    int src = sqlite3_prepare_v2(db->h,
                                 "SELECT id, journal FROM runs WHERE id IN (SELECT run_id FROM "
                                 "doomed) AND id NOT IN (SELECT run_id FROM evaluations) AND "
                                 "journal IS NOT NULL",
                                 -1, &st, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_prepare_v2(db->h, "UPDATE doomed SET run_id = NULL WHERE run_id = ?1", -1,
                                 &up, NULL);
    while (src == SQLITE_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
        const char *journal = (const char *)sqlite3_column_text(st, 1);
        src = SQLITE_OK;
        if (journal && cutune_journal_check_free(journal, NULL, 0) == CUTUNE_EBUSY) {
            sqlite3_bind_int64(up, 1, sqlite3_column_int64(st, 0));
            src = sqlite3_step(up);
            src = src == SQLITE_DONE ? SQLITE_OK : src;
            sqlite3_reset(up);
        }
    }
    src = src == SQLITE_DONE ? SQLITE_OK : src;
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return src;
}

int cutune_db_prune(cutune_db *db, const cutune_db_prune_filter *f, size_t *removed, char *err,
                    size_t errlen)
{
    *removed = 0;
    /* an empty kernel or GPU text would match every row: it is a filter of nothing */
    if ((f->kernel && !*f->kernel) || (f->gpu && !*f->gpu))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "prune: an empty --kernel or --gpu would match everything");
    if (!f->all && !f->kernel && !f->gpu && !f->before && !f->failed)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "prune: no filter given (--kernel, --gpu, --before, --failed; --all "
                          "removes everything)");
    int rc = cutune_db_exec(db, "BEGIN IMMEDIATE", err, errlen);
    if (rc < 0)
        return rc;
    sqlite3_stmt *st = NULL;
    int src = sqlite3_exec(db->h,
                           "CREATE TEMP TABLE IF NOT EXISTS doomed (id INTEGER PRIMARY KEY, "
                           "run_id INTEGER); DELETE FROM doomed",
                           NULL, NULL, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_prepare_v2(db->h,
                                 "INSERT INTO doomed SELECT e.id, e.run_id " ROW_FROM
                                 "WHERE (?1 IS NULL OR k.name = ?1) AND "
                                 "(?2 IS NULL OR instr(g.fingerprint, ?2) > 0) AND "
                                 "(?3 IS NULL OR e.recorded < ?3) AND (?4 = 0 OR e.status != 'ok')",
                                 -1, &st, NULL);
    if (src == SQLITE_OK) {
        if (f->kernel)
            sqlite3_bind_text(st, 1, f->kernel, -1, SQLITE_TRANSIENT);
        if (f->gpu)
            sqlite3_bind_text(st, 2, f->gpu, -1, SQLITE_TRANSIENT);
        /* stored times read 2026-12-02T21:00:02.895Z: compared as text, a bound's 'Z'
         * would sort after the fraction of its own second, so it is left out */
        if (f->before)
            sqlite3_bind_text(st, 3, f->before, (int)strcspn(f->before, "Z"), SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 4, f->failed != 0);
        src = sqlite3_step(st);
        src = src == SQLITE_DONE ? SQLITE_OK : src;
    }
    sqlite3_finalize(st);
    /* answers reused from a doomed measurement go with it (they are copies of it) */
    if (src == SQLITE_OK)
        src = sqlite3_exec(db->h,
                           "INSERT OR IGNORE INTO doomed SELECT id, run_id FROM evaluations "
                           "WHERE reused_from IN (SELECT id FROM doomed)",
                           NULL, NULL, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_exec(db->h, "DELETE FROM evaluations WHERE id IN (SELECT id FROM doomed)",
                           NULL, NULL, NULL);
    if (src == SQLITE_OK)
        *removed = (size_t)sqlite3_changes(db->h);
    /* only runs this prune emptied and that are not in progress (a run just begun
     * elsewhere has no evaluations yet; one under way holds its journal) */
    if (src == SQLITE_OK)
        src = spare_live_runs(db);
    if (src == SQLITE_OK)
        src = sqlite3_exec(db->h,
                           "DELETE FROM runs WHERE id IN (SELECT run_id FROM doomed) AND id NOT "
                           "IN (SELECT run_id FROM evaluations);"
                           "DELETE FROM kernels WHERE id NOT IN (SELECT kernel_id FROM runs);"
                           "DELETE FROM gpus WHERE id NOT IN (SELECT gpu_id FROM runs);"
                           "DELETE FROM doomed",
                           NULL, NULL, NULL);
    if (src == SQLITE_OK)
        return cutune_db_exec(db, "COMMIT", err, errlen);
    rc = cutune_db_sqlite_err(db, src, err, errlen, "prune");
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    *removed = 0;
    return rc;
}
