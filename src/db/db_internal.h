/* The tuning database's private parts, shared by the files of src/db/. */
#ifndef CUTUNE_DB_INTERNAL_H
#define CUTUNE_DB_INTERNAL_H

#include <sqlite3.h>

#include "cutune/db.h"

struct cutune_db {
    sqlite3 *h;       /* the connection */
    char *path;       /* the file */
    double timeout_s; /* busy timeout */
    int version;      /* schema version (user_version) */
};

struct cutune_db_run {
    cutune_db *db;
    long long id;          /* runs.id */
    long long kernel, gpu; /* kernels.id, gpus.id */
    char *sizes, *options; /* the key's */
    sqlite3_stmt *lookup;  /* prepared once: the latest measurement of a configuration */
    sqlite3_stmt *insert;  /* prepared once: one evaluation */
};

/** The schema, as the steps that build it: step v-1 takes version v-1 to v (step 0 makes
 *  version 1 from an empty file). CUTUNE_DB_SCHEMA_VERSION entries. */
extern const char *const cutune_db_schema_steps[];

/** In one write transaction (BEGIN IMMEDIATE): read the version again, apply the steps up
 *  to target, set user_version and application_id. */
int cutune_db_schema_upgrade(cutune_db *db, int target, char *err, size_t errlen);

/** A SQLite failure as a cutune code and a message naming the file and what was done. */
int cutune_db_sqlite_err(cutune_db *db, int src, char *err, size_t errlen, const char *what);
/** Run sql (no rows wanted). */
int cutune_db_exec(cutune_db *db, const char *sql, char *err, size_t errlen);
/** malloc'd copy of column c of a row (NULL for SQL NULL; "" when out of memory is not
 *  told apart: callers check). */
char *cutune_db_column_text(sqlite3_stmt *st, int c);

#endif
