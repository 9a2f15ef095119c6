/* The schema and its migrations. A new database is built by the same steps an old one is
 * migrated by, so every step runs on every database at least once.
 *
 * Version 1: kernels (name, hash), gpus (fingerprint and its parts), runs (a kernel on a
 * GPU at sizes with options: what the evaluations were measured as, plus how the run was
 * made), evaluations (one per evaluation of a run, by its sequence number).
 * Version 2: evaluations.reused_from (an answer a run took from an earlier measurement is
 * stored too, pointing at it; statistics count measurements only) and runs.clocks (the
 * GPU's clocks when the run started, kept beside the fingerprint). */
#include <stdio.h>

#include "db_internal.h"

const char *const cutune_db_schema_steps[CUTUNE_DB_SCHEMA_VERSION] = {
    /* 0 -> 1 */
    "CREATE TABLE kernels ("
    " id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " hash TEXT NOT NULL,"
    " UNIQUE (name, hash));"
    "CREATE TABLE gpus ("
    " id INTEGER PRIMARY KEY,"
    " fingerprint TEXT NOT NULL UNIQUE,"
    " name TEXT NOT NULL,"
    " sm_count INTEGER,"
    " memory_mib INTEGER,"
    " driver TEXT,"
    " cuda TEXT);"
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY,"
    " kernel_id INTEGER NOT NULL REFERENCES kernels (id),"
    " gpu_id INTEGER NOT NULL REFERENCES gpus (id),"
    " sizes TEXT NOT NULL,"
    " options TEXT NOT NULL,"
    " searcher TEXT,"
    " evaluator TEXT,"
    " seed INTEGER,"
    " journal TEXT,"
    " source TEXT,"
    " started TEXT NOT NULL);"
    "CREATE INDEX runs_by_key ON runs (kernel_id, gpu_id, sizes, options);"
    "CREATE INDEX runs_by_journal ON runs (journal);"
    "CREATE TABLE evaluations ("
    " id INTEGER PRIMARY KEY,"
    " run_id INTEGER NOT NULL REFERENCES runs (id),"
    " seq INTEGER NOT NULL,"
    " config TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " time_ms REAL,"
    " times_ms TEXT,"
    " compile_ms REAL,"
    " bench_ms REAL,"
    " metrics TEXT,"
    " log TEXT,"
    " recorded TEXT NOT NULL,"
    " UNIQUE (run_id, seq));"
    "CREATE INDEX evaluations_by_config ON evaluations (config);",
    /* 1 -> 2 */
    "ALTER TABLE evaluations ADD COLUMN reused_from INTEGER REFERENCES evaluations (id);"
    "ALTER TABLE runs ADD COLUMN clocks TEXT;",
};

int cutune_db_schema_upgrade(cutune_db *db, int target, char *err, size_t errlen)
{
    int rc;
    if ((rc = cutune_db_exec(db, "BEGIN IMMEDIATE", err, errlen)) < 0)
        return rc;
    sqlite3_stmt *st = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version < 0) {
        rc = cutune_db_sqlite_err(db, sqlite3_errcode(db->h), err, errlen, "PRAGMA user_version");
        goto out_rollback;
    }
    if (version > CUTUNE_DB_SCHEMA_VERSION) { /* written by a newer cutune since the check */
        rc = cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                        "%s: schema version %d is newer than this cutune's (%d)", db->path, version,
                        CUTUNE_DB_SCHEMA_VERSION);
        goto out_rollback;
    }
    for (int v = version; v < target; v++)
        if ((rc = cutune_db_exec(db, cutune_db_schema_steps[v], err, errlen)) < 0)
            goto out_rollback;
    if (version < target) {
        char sql[128];
        snprintf(sql, sizeof sql, "PRAGMA user_version=%d; PRAGMA application_id=%d", target,
                 CUTUNE_DB_APPLICATION_ID);
        if ((rc = cutune_db_exec(db, sql, err, errlen)) < 0)
            goto out_rollback;
    }
    if ((rc = cutune_db_exec(db, "COMMIT", err, errlen)) < 0)
        goto out_rollback;
    db->version = version < target ? target : version;
    return 0;

out_rollback:
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
