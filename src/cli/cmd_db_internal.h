/* The parts of `cutune db` (cmd_db.c: the command line, list, show, prune) kept in a file
 * of their own: export and import (cmd_db_io.c). */
#ifndef CUTUNE_CLI_CMD_DB_INTERNAL_H
#define CUTUNE_CLI_CMD_DB_INTERNAL_H

#include "tune_internal.h"

/** What `cutune db COMMAND` was given. */
typedef struct db_opts {
    const char *db, *kernel, *gpu, *before; /**< --db, --kernel, --gpu, --before */
    const char *kt, *journal;               /**< export: --kt-cache, --journal */
    int failed, all;                        /**< prune: --failed, --all */
    unsigned long top;                      /**< show: --top */
    cli_space_opts so;                      /**< --size */
} db_opts;

/** Open the database the options name (flags as cutune_db_open's); *path gets its file. */
int cli_db_open(const db_opts *o, unsigned flags, cutune_db **db, char *path, size_t len, char *err,
                size_t errlen);
/** `cutune db export [OPTIONS] KERNEL` and `cutune db import [OPTIONS] FILE...`. */
int cli_db_export(const db_opts *o, const char *target, char *err, size_t errlen);
int cli_db_import(const db_opts *o, int nfiles, char **files, char *err, size_t errlen);

#endif
