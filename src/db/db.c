/* Opening the tuning database: refusing what is not one (another file, another program's
 * database, a newer schema, a read-only place), WAL mode and the busy timeout, and the
 * schema, created and migrated in steps (db_schema.c). Nothing is written to a file
 * before it is known to be a cutune database of this schema or an older one. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db_internal.h"

int cutune_db_sqlite_err(cutune_db *db, int src, char *err, size_t errlen, const char *what)
{
    const char *msg = db && db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(src);
    const char *path = db ? db->path : "database";
    switch (src & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return cutune_err(err, errlen, CUTUNE_EBUSY,
                          "%s: locked by another process for more than %g s (%s; "
                          "$CUTUNE_DB_TIMEOUT sets the wait)",
                          path, db ? db->timeout_s : CUTUNE_DB_TIMEOUT_DEFAULT, what);
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: not a cutune database (%s: %s)", path,
                          what, msg);
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        return cutune_err(err, errlen, CUTUNE_EIO,
                          "%s: cannot write the database (%s: %s): give --db=FILE elsewhere, "
                          "or, to tune, --no-db",
                          path, what, msg);
    case SQLITE_NOMEM: return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    default: return cutune_err(err, errlen, CUTUNE_EIO, "%s: %s: %s", path, what, msg);
    }
}

int cutune_db_exec(cutune_db *db, const char *sql, char *err, size_t errlen)
{
    int src = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    if (src != SQLITE_OK)
        return cutune_db_sqlite_err(db, src, err, errlen, sql);
    return 0;
}

/* The one integer a pragma returns. */
static int pragma_int(cutune_db *db, const char *pragma, long long *out, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    int src = sqlite3_prepare_v2(db->h, pragma, -1, &st, NULL);
    if (src == SQLITE_OK) {
        src = sqlite3_step(st);
        if (src == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            src = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    if (src != SQLITE_OK)
        return cutune_db_sqlite_err(db, src, err, errlen, pragma);
    return 0;
}

static double timeout_seconds(char *err, size_t errlen, int *rc)
{
    const char *t = getenv("CUTUNE_DB_TIMEOUT");
    *rc = 0;
    if (!t || !*t)
        return CUTUNE_DB_TIMEOUT_DEFAULT;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    /* decimal, as every number cutune reads (docs/cli.md): strtod alone takes " 5" and 0x10 */
    if (errno || *end || t[0] < '0' || t[0] > '9' || t[strspn(t, "0123456789.eE+-")] || !(v >= 0) ||
        v > 86400) {
        *rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                         "$CUTUNE_DB_TIMEOUT=%s: must be decimal seconds, 0..86400", t);
        return 0;
    }
    return v;
}

int cutune_db_default_path(char *path, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("CUTUNE_DB");
    int n;
    if (env && *env) {
        if (strcmp(env, "none") == 0)
            n = snprintf(path, len, "%s", "");
        else
            n = snprintf(path, len, "%s", env);
    } else {
        const char *xdg = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        if (xdg && xdg[0] == '/') /* the XDG spec: a relative value is ignored */
            n = snprintf(path, len, "%s/cutune/tuning.db", xdg);
        else if (home && *home)
            n = snprintf(path, len, "%s/.local/share/cutune/tuning.db", home);
        else
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "no database folder: neither $XDG_DATA_HOME nor $HOME is set "
                              "(give --db=FILE or --no-db)");
    }
    if (n < 0 || (size_t)n >= len)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "database path too long");
    return 0;
}

/* mkdir -p of path's folder (0700 for those it makes: the database is the user's own). */
static int make_parent(const char *path, char *err, size_t errlen)
{
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%.64s...: path too long", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create the folder %s: %s", path,
                              dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create the folder %s: %s", path, dir,
                          strerror(errno));
    return 0;
}

/* Does a file that is not empty begin as every SQLite database does? SQLite takes a file
 * of one byte for an empty database (and would write over it), so it is asked first. */
static int sqlite_header(const char *path, char *err, size_t errlen)
{
    static const char magic[16] = "SQLite format 3";
    char head[sizeof magic];
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot read: %s", path, strerror(errno));
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    if (n != (ssize_t)sizeof head || memcmp(head, magic, sizeof magic) != 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: not a cutune database (not a SQLite file)", path);
    return 0;
}

/* The folder path is in ("." for a bare name). */
static void folder_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
}

/* May a reader open path read-write? A read-only connection to a WAL database makes its
 * -wal and -shm files and can never remove them (only the last connection to close,
 * checkpointing, does, and a read-only one cannot checkpoint), so a command that only
 * reads would leave them behind. When the file and its folder are writable the reader
 * opens read-write with PRAGMA query_only (no statement can write) and its close removes
 * them as a writer's does; otherwise it opens read-only as before. */
static int reader_may_write(const char *path)
{
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    return access(path, W_OK) == 0 && access(dir, W_OK) == 0;
}

/* What open refuses before SQLite sees the path: a directory, a link, a special file, a
 * file that is not SQLite's, and (to write) a file or folder without write permission;
 * WAL needs its -wal and -shm files beside the database. */
static int check_path(const char *path, int readonly, int must_exist, int *exists, char *err,
                      size_t errlen)
{
    struct stat st;
    *exists = lstat(path, &st) == 0;
    if (*exists && S_ISLNK(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: is a symbolic link (cutune neither writes through one nor "
                          "replaces it: give the path it points to)",
                          path);
    if (*exists && S_ISDIR(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: is a directory, not a database", path);
    if (*exists && !S_ISREG(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: is not a regular file (a device, pipe or socket is never a "
                          "database)",
                          path);
    if (!*exists && (readonly || must_exist))
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND, "%s: no such database", path);
    int rc;
    if (*exists && st.st_size > 0 && (rc = sqlite_header(path, err, errlen)) < 0)
        return rc;
    if (readonly)
        return access(path, R_OK) == 0 ? 0
                                       : cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot read: %s",
                                                    path, strerror(errno));
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    if (*exists && access(path, W_OK) != 0)
        return cutune_err(err, errlen, CUTUNE_EIO,
                          "%s: read-only (%s): cutune writes every evaluation to its database; "
                          "give --db=FILE elsewhere (or, to tune, --no-db)",
                          path, strerror(errno));
    if (access(dir, W_OK) != 0)
        return cutune_err(
            err, errlen, CUTUNE_EIO,
            "%s: its folder %s is read-only (%s): the database needs its -wal "
            "and -shm files beside it; give --db=FILE elsewhere (or, to tune, --no-db)",
            path, dir, strerror(errno));
    return 0;
}

/* Is the file one this build may use? (only reads) */
static int check_identity(cutune_db *db, char *err, size_t errlen)
{
    long long app = 0, version = 0, tables = 0;
    int rc;
    if ((rc = pragma_int(db, "PRAGMA application_id", &app, err, errlen)) < 0)
        return rc;
    if ((rc = pragma_int(db, "PRAGMA user_version", &version, err, errlen)) < 0)
        return rc;
    if ((rc = pragma_int(db, "SELECT count(*) FROM sqlite_master", &tables, err, errlen)) < 0)
        return rc;
    if (app != CUTUNE_DB_APPLICATION_ID && (tables > 0 || version != 0))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: not a cutune database (a SQLite database of another program: "
                          "application_id %#llx, %lld tables)",
                          db->path, (unsigned long long)app, tables);
    if (version > CUTUNE_DB_SCHEMA_VERSION)
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                          "%s: schema version %lld is newer than this cutune's (%d): it was "
                          "written by a newer cutune; use that one, or another --db",
                          db->path, version, CUTUNE_DB_SCHEMA_VERSION);
    db->version = (int)version;
    return 0;
}

/* WAL mode. Switching a new file to it takes an exclusive lock for which SQLite does not
 * always call the busy handler (two processes creating one database at once see BUSY at
 * once), so a busy answer is retried here until the busy timeout. */
static int set_wal(cutune_db *db, char *err, size_t errlen)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int src = sqlite3_exec(db->h, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if (src == SQLITE_OK)
            return 0;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double waited =
            (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
        if ((src & 0xff) != SQLITE_BUSY || waited >= db->timeout_s)
            return cutune_db_sqlite_err(db, src, err, errlen, "PRAGMA journal_mode=WAL");
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

int cutune_db_open(const char *path, unsigned flags, cutune_db **out, char *err, size_t errlen)
{
    int readonly = (flags & CUTUNE_DB_READONLY) != 0;
    int exists = 1, rc, src; /* exists: nothing is removed on a failure before the check */
    *out = NULL;
    if (!path || !*path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--db=: empty path");
    cutune_db *db = calloc(1, sizeof *db);
    if (!db || !(db->path = strdup(path))) {
        free(db);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    db->timeout_s = timeout_seconds(err, errlen, &rc);
    if (rc < 0)
        goto out_free;
    int must_exist = (flags & CUTUNE_DB_EXISTING) != 0;
    if (!readonly && !must_exist && (rc = make_parent(path, err, errlen)) < 0)
        goto out_free;
    if ((rc = check_path(path, readonly, must_exist, &exists, err, errlen)) < 0)
        goto out_free;
    int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (readonly)
        oflags = reader_may_write(path) ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
    src = sqlite3_open_v2(path, &db->h, oflags | SQLITE_OPEN_NOFOLLOW, NULL);
    if (src != SQLITE_OK) {
        rc = cutune_db_sqlite_err(db, src, err, errlen, "open");
        goto out_free;
    }
    sqlite3_extended_result_codes(db->h, 0);
    sqlite3_busy_timeout(db->h, (int)(db->timeout_s * 1000));
    if (readonly && (oflags & SQLITE_OPEN_READWRITE) &&
        (rc = cutune_db_exec(db, "PRAGMA query_only=ON", err, errlen)) < 0)
        goto out_free;
    if ((rc = check_identity(db, err, errlen)) < 0)
        goto out_free;
    if (readonly) {
        if (db->version == 0) {
            rc = cutune_err(err, errlen, CUTUNE_ENOTFOUND, "%s: an empty database", path);
            goto out_free;
        }
        if (db->version < CUTUNE_DB_SCHEMA_VERSION) { /* migrated first: the queries are v2's */
            cutune_db *rw;
            if ((rc = cutune_db_open(path, 0, &rw, err, errlen)) < 0)
                goto out_free;
            cutune_db_close(rw);
            cutune_db_close(db);
            return cutune_db_open(path, flags, out, err, errlen);
        }
        *out = db;
        return 0;
    }
    /* a file known to be ours (or empty): now it may be written */
    if ((rc = set_wal(db, err, errlen)) < 0 ||
        (rc = cutune_db_exec(db, "PRAGMA synchronous=NORMAL", err, errlen)) < 0 ||
        (rc = cutune_db_exec(db, "PRAGMA foreign_keys=ON", err, errlen)) < 0)
        goto out_free;
    if ((rc = cutune_db_schema_upgrade(db, CUTUNE_DB_SCHEMA_VERSION, err, errlen)) < 0)
        goto out_free;
    *out = db;
    return 0;

out_free:
    cutune_db_close(db);
    if (!readonly && !exists && rc != CUTUNE_EBUSY && path && *path) {
        /* a refused open leaves nothing it made (an empty file SQLite created); not when
         * busy: then another process is creating the same database */
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
            unlink(path);
    }
    return rc;
}

void cutune_db_close(cutune_db *db)
{
    if (!db)
        return;
    sqlite3_close_v2(db->h);
    free(db->path);
    free(db);
}

const char *cutune_db_path(const cutune_db *db)
{
    return db ? db->path : NULL;
}

int cutune_db_schema_version(const cutune_db *db)
{
    return db ? db->version : 0;
}
