/* The run journal: one JSON object per line, each written with one write()
 * and fsync'd, so a crash loses at most the line being written. The run that
 * writes a journal holds an advisory lock (flock) on it until it closes it. */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cutune/journal.h"
#include "cutune/spec.h"
#include "io_internal.h"

struct cutune_journal {
    int fd;                  /* open for appending, holding the journal's lock */
    char *path;              /* for messages */
    cutune_outfile *pending; /* a journal not yet at its path (cutune_journal_create_pending):
                              * fd is this temporary's until cutune_journal_publish */
};

/* A string node, or null for NULL. */
static cJSON *str_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* An unsigned integer kept exact (cJSON's doubles lose digits past 2^53). */
static cJSON *ulong_json(unsigned long long x)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", x);
    return cJSON_CreateRaw(text);
}

/* Print obj as one line and write it with a single write(), then fsync. */
static int write_line(cutune_journal *j, const cJSON *obj, char *err, size_t errlen)
{
    int rc = 0;
    char *text = cJSON_PrintUnformatted(obj);
    if (!text)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", j->path);
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (!line) {
        free(text);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", j->path);
    }
    line[len++] = '\n';
    line[len] = '\0';
    size_t done = 0;
    while (done < len) {
        /* Normally one call; a short write (signal, full disk) resumes where it stopped. */
        ssize_t w = write(j->fd, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: write error: %s", j->path,
                            w < 0 ? strerror(errno) : "no progress");
            goto out_free;
        }
        done += (size_t)w;
    }
    /* a journal not yet at its path is fsync'd once, whole, as it is put there */
    if (!j->pending && fsync(j->fd) != 0 && errno != EINVAL && errno != EROFS) {
        rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: fsync: %s", j->path, strerror(errno));
        goto out_free;
    }
out_free:
    free(line);
    return rc;
}

static cutune_journal *journal_new(const char *path, int fd)
{
    cutune_journal *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->path = strdup(path);
    if (!j->path) {
        free(j);
        return NULL;
    }
    j->fd = fd;
    return j;
}

static cJSON *header_json(const cutune_journal_header *h, const cutune_space *s)
{
    char hex[17], now[32];
    cJSON *o = cJSON_CreateObject(), *params = NULL, *restr = NULL, *sizes = NULL;
    int bad = !o;

    snprintf(hex, sizeof hex, "%016" PRIx64, cutune_space_hash(s));
    cutune_io_iso_now(now, sizeof now);
    bad = bad || cutune_io_add(o, "kind", cJSON_CreateString("header")) < 0;
    bad = bad || cutune_io_add(o, "format", cJSON_CreateNumber(1)) < 0;
    bad = bad || cutune_io_add(o, "cutune", cJSON_CreateString(CUTUNE_VERSION)) < 0;
    bad = bad || cutune_io_add(o, "spec", str_or_null(h->spec_name)) < 0;
    bad = bad || cutune_io_add(o, "spec_hash", str_or_null(h->spec_hash)) < 0;
    bad = bad || cutune_io_add(o, "space_hash", cJSON_CreateString(hex)) < 0;
    bad = bad || cutune_io_add(o, "searcher", str_or_null(h->searcher)) < 0;
    bad = bad || cutune_io_add(o, "searcher_args", str_or_null(h->searcher_args)) < 0;
    bad = bad || cutune_io_add(o, "seed", ulong_json(h->seed)) < 0;
    bad = bad || cutune_io_add(o, "evaluator", str_or_null(h->evaluator)) < 0;
    bad = bad || cutune_io_add(o, "evaluator_arg", str_or_null(h->evaluator_arg)) < 0;
    bad = bad || cutune_io_add(o, "target", str_or_null(h->target)) < 0;
    bad = bad || cutune_io_add(o, "device", str_or_null(h->device)) < 0;
    /* a live cuda run's: the database's key for its GPU (a replay run's header has none) */
    if (h->gpu)
        bad = bad || cutune_io_add(o, "gpu", cJSON_CreateString(h->gpu)) < 0;
    /* only a warm run has them: a cold run's header is what it always was */
    if (h->warm_start)
        bad = bad || cutune_io_add(o, "warm_start", cJSON_CreateString(h->warm_start)) < 0;
    if (h->warm_start_hash)
        bad =
            bad || cutune_io_add(o, "warm_start_hash", cJSON_CreateString(h->warm_start_hash)) < 0;
    if (h->nworkers) {
        cJSON *w = cJSON_CreateArray();
        bad = bad || cutune_io_add(o, "workers", w) < 0;
        for (size_t i = 0; !bad && i < h->nworkers; i++) {
            cJSON *x = cJSON_CreateString(h->workers[i]);
            bad = !x || !cJSON_AddItemToArray(w, x);
        }
    }
    bad = bad || cutune_io_add(o, "budget", ulong_json(h->budget)) < 0;
    bad = bad || cutune_io_add(o, "batch", ulong_json(h->batch ? h->batch : 1)) < 0;
    bad = bad || cutune_io_add(o, "parallel", ulong_json(h->parallel ? h->parallel : 1)) < 0;
    /* what the space was built from beyond its definition (resume restores and checks it) */
    bad = bad || cutune_io_add(o, "cartesian", cJSON_CreateBool(h->cartesian != 0)) < 0;
    bad = bad || cutune_io_add(o, "valid", ulong_json(cutune_space_size(s))) < 0;
    if (h->objective) {
        cJSON *c = NULL;
        bad = bad || cutune_io_add(o, "objective", cJSON_CreateString(h->objective)) < 0;
        bad = bad || cutune_io_add(o, "subject_to", c = cJSON_CreateArray()) < 0;
        for (size_t i = 0; !bad && i < h->nsubject_to; i++) {
            cJSON *x = cJSON_CreateString(h->subject_to[i]);
            bad = !x || !cJSON_AddItemToArray(c, x);
            if (bad)
                cJSON_Delete(x);
        }
    }
    /* Replay journals carry no wall clock: same seed => byte-identical file. */
    if (!h->deterministic)
        bad = bad || cutune_io_add(o, "started", cJSON_CreateString(now)) < 0;
    bad = bad || cutune_io_add(o, "params", params = cJSON_CreateObject()) < 0;
    bad = bad || cutune_io_add(o, "restrictions", restr = cJSON_CreateArray()) < 0;
    bad = bad || cutune_io_add(o, "sizes", sizes = cJSON_CreateObject()) < 0;
    for (size_t p = 0; !bad && p < cutune_space_nparams(s); p++) {
        const cutune_param *par = cutune_space_param(s, p);
        cJSON *list = cJSON_CreateArray();
        bad = cutune_io_add(params, par->name, list) < 0;
        for (size_t v = 0; !bad && v < par->nvalues; v++) {
            cJSON *x = cutune_io_value_json(&par->values[v]);
            bad = !x || !cJSON_AddItemToArray(list, x);
            if (bad)
                cJSON_Delete(x);
        }
    }
    for (size_t r = 0; !bad && r < cutune_space_nrestrictions(s); r++) {
        cJSON *x = cJSON_CreateString(cutune_space_restriction_text(s, r));
        bad = !x || !cJSON_AddItemToArray(restr, x);
        if (bad)
            cJSON_Delete(x);
    }
    for (size_t c = 0; !bad && c < cutune_space_nconstants(s); c++) {
        cutune_value v = cutune_space_constant_value(s, c);
        bad = cutune_io_add(sizes, cutune_space_constant_name(s, c), cutune_io_value_json(&v)) < 0;
    }
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Take the journal's lock (fd's open file description holds it until closed): one
 * writer per journal. A file system without locks is written unlocked. */
static int lock_journal(int fd, const char *path, char *err, size_t errlen)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    if (errno == EWOULDBLOCK)
        return cutune_err(err, errlen, CUTUNE_EBUSY,
                          "%s: in use: another cutune run is writing this journal", path);
    if (errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOSYS)
        return 0;
    return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot lock: %s", path, strerror(errno));
}

int cutune_journal_check_free(const char *path, char *err, size_t errlen)
{
    /* O_NONBLOCK: a FIFO there must not hold the run up (the reader refuses it) */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0; /* nothing to hold: opening it for writing says what is wrong */
    int rc = lock_journal(fd, path, err, errlen);
    close(fd); /* and the lock with it */
    return rc == CUTUNE_EBUSY ? rc : 0;
}

int cutune_journal_create_pending(const char *path, const cutune_journal_header *h,
                                  const cutune_space *s, cutune_journal **out, char *err,
                                  size_t errlen)
{
    int rc = 0;
    cutune_outfile *o = NULL;
    cutune_journal *j = NULL;
    cJSON *hdr = NULL;

    *out = NULL;
    if (!path || !h || !s)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "journal: no path, header or space");
    /* Written under an exclusive temporary, locked before it appears at path, and put
     * there only if nothing is (cutune_journal_publish): an existing journal (or anything
     * else) is never truncated nor replaced, atomically (the CLI checks earlier, for its
     * message). */
    rc = cutune_outfile_open(path, CUTUNE_OUTFILE_NOREPLACE, 0644, &o, err, errlen);
    if (rc == CUTUNE_EBUSY)
        return cutune_err(err, errlen, rc, "%s: a journal exists there; resume it or remove it",
                          path);
    if (rc < 0)
        return rc;
    if ((rc = lock_journal(cutune_outfile_fd(o), path, err, errlen)) < 0)
        goto out_abort;
    j = journal_new(path, cutune_outfile_fd(o)); /* fd lent until the publish */
    if (j) {
        j->pending = o; /* closing j aborts it */
        o = NULL;
    }
    hdr = j ? header_json(h, s) : NULL;
    if (!hdr) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_abort;
    }
    if ((rc = write_line(j, hdr, err, errlen)) < 0)
        goto out_abort;
    *out = j;
    j = NULL;
out_abort:
    cutune_outfile_abort(o);
    cJSON_Delete(hdr);
    cutune_journal_close(j);
    return rc;
}

int cutune_journal_publish(cutune_journal *j, char *err, size_t errlen)
{
    if (!j || !j->pending)
        return 0;
    int fd = -1;
    int rc = cutune_outfile_commit(j->pending, &fd, err, errlen); /* fsync, then the rename */
    j->pending = NULL;
    j->fd = fd; /* -1 when the commit failed: the temporary is gone, closed by it */
    if (rc == CUTUNE_EBUSY)
        cutune_err(err, errlen, rc, "%s: a journal exists there; resume it or remove it", j->path);
    if (rc < 0)
        return rc;
    (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
    return 0;
}

int cutune_journal_create(const char *path, const cutune_journal_header *h, const cutune_space *s,
                          cutune_journal **out, char *err, size_t errlen)
{
    cutune_journal *j = NULL;
    int rc = cutune_journal_create_pending(path, h, s, &j, err, errlen);
    if (rc >= 0 && (rc = cutune_journal_publish(j, err, errlen)) < 0) {
        cutune_journal_close(j);
        j = NULL;
    }
    *out = j;
    return rc;
}

int cutune_journal_is_compressed(const char *path)
{
    char m[2];
    int fd;
    if (cutune_open_input(path, &fd, NULL, 0) < 0) /* never waits on a FIFO */
        return 0;
    ssize_t n = read(fd, m, sizeof m);
    close(fd);
    return n > 0 && cutune_io_is_gzip(m, (size_t)n);
}

/* The whole file behind fd, read from its start, NUL-terminated. */
static int read_fd(int fd, const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    size_t cap = 65536, n = 0, limit;
    char *buf = NULL;
    struct stat st;

    int rc = cutune_input_limit(&limit, err, errlen);
    if (rc < 0)
        return rc;
    st.st_size = 0;
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > (uint64_t)limit)
        return cutune_input_too_large(path, limit, err, errlen);
    if (st.st_size > 0)
        cap = (size_t)st.st_size + 1;
    for (;;) {
        if (!buf || n + 1 >= cap) {
            size_t ncap = buf ? cap * 2 : cap;
            if (ncap > limit + 2)
                ncap = limit + 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
            }
            cap = ncap;
            buf = nb;
        }
        ssize_t got = pread(fd, buf + n, cap - 1 - n, (off_t)n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            return cutune_err(err, errlen, CUTUNE_EIO, "%s: read error: %s", path, strerror(errno));
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > limit) {
            free(buf);
            return cutune_input_too_large(path, limit, err, errlen);
        }
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

int cutune_journal_append(const char *path, cutune_journal **out, char *err, size_t errlen)
{
    int rc = 0, fd = -1;
    char *data = NULL;
    size_t len = 0;
    cJSON *first = NULL;
    struct stat st;

    *out = NULL;
    if (!path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "journal: no path");
    /* the file itself, never through a link; locked before it is read, so that what is
     * checked is what no other run is writing */
    fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot open: %s", path,
                          errno == ELOOP ? "is a symbolic link (cutune never writes through "
                                           "one: give the path it points to)"
                                         : strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = cutune_err(err, errlen, CUTUNE_EINVAL, "%s: not a regular file", path);
        goto out_free;
    }
    if ((rc = lock_journal(fd, path, err, errlen)) < 0)
        goto out_free;
    if ((rc = read_fd(fd, path, &data, &len, err, errlen)) < 0)
        goto out_free;
    if (cutune_io_is_gzip(data, len)) {
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "%s: a gzip-compressed journal cannot be appended to (gunzip it first)",
                        path);
        goto out_free;
    }
    const char *nl = memchr(data, '\n', len);
    first = nl ? cJSON_ParseWithLength(data, (size_t)(nl - data)) : NULL;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(first, "kind");
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "header") != 0) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s:1: not a cutune journal header", path);
        goto out_free;
    }
    /* A crash mid-write leaves a line without its newline: cut it off so the
     * next line starts clean (the loader ignores it just the same). */
    if (data[len - 1] != '\n') {
        size_t keep = len;
        while (keep > 0 && data[keep - 1] != '\n')
            keep--;
        if (ftruncate(fd, (off_t)keep) != 0) {
            rc = cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot drop the partial last line: %s",
                            path, strerror(errno));
            goto out_free;
        }
    }
    cutune_journal *j = journal_new(path, fd);
    if (!j) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        goto out_free;
    }
    fd = -1;
    *out = j;
out_free:
    if (fd >= 0)
        close(fd);
    cJSON_Delete(first);
    free(data);
    return rc;
}

int cutune_journal_write_eval(cutune_journal *j, const cutune_space *s,
                              const struct cutune_spec *spec, size_t n,
                              const cutune_history_entry *e, char *err, size_t errlen)
{
    int rc = 0, bad;
    cJSON *o;

    if (!j || !s || !e)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "journal: no journal, space or entry");
    if (e->id >= cutune_space_size(s))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: configuration id %zu out of range",
                          j->path, e->id);
    const cutune_eval_result *r = &e->r;
    int ok = r->status == CUTUNE_STATUS_OK;
    o = cJSON_CreateObject();
    bad = !o;
    bad = bad || cutune_io_add(o, "kind", cJSON_CreateString("eval")) < 0;
    bad = bad || cutune_io_add(o, "n", ulong_json(n)) < 0;
    bad = bad || cutune_io_add(o, "config", cutune_io_config_json(s, e->id)) < 0;
    bad = bad || cutune_io_add(o, "status", cJSON_CreateString(cutune_status_name(r->status))) < 0;
    bad = bad || cutune_io_add(o, "time_ms",
                               ok ? cutune_io_number_json(r->time_ms) : cJSON_CreateNull()) < 0;
    bad = bad || cutune_io_add(o, "times_ms", cJSON_CreateArray()) < 0;
    for (size_t i = 0; !bad && i < r->ntimes; i++) {
        cJSON *x = cutune_io_number_json(r->times_ms[i]);
        bad = !x || !cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(o, "times_ms"), x);
        if (bad)
            cJSON_Delete(x);
    }
    bad = bad || cutune_io_add(o, "metrics", cutune_io_metrics_json(spec, e)) < 0;
    bad = bad || cutune_io_add(o, "compile_ms",
                               r->compile_ms >= 0 ? cutune_io_number_json(r->compile_ms)
                                                  : cJSON_CreateNull()) < 0;
    bad = bad || cutune_io_add(o, "bench_ms",
                               r->bench_ms >= 0 ? cutune_io_number_json(r->bench_ms)
                                                : cJSON_CreateNull()) < 0;
    bad = bad || cutune_io_add(o, "log", str_or_null(r->log)) < 0;
    if (e->timestamp[0])
        bad = bad || cutune_io_add(o, "timestamp", cJSON_CreateString(e->timestamp)) < 0;
    bad = bad || cutune_io_add(o, "elapsed_s", cutune_io_number_json(e->wall_s)) < 0;
    if (e->worker >= 0)
        bad = bad || cutune_io_add(o, "worker", ulong_json((size_t)e->worker)) < 0;
    bad = bad || cutune_io_add(o, "submitted", ulong_json(e->proposed)) < 0;
    if (bad)
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", j->path);
    else
        rc = write_line(j, o, err, errlen);
    cJSON_Delete(o);
    return rc;
}

void cutune_journal_close(cutune_journal *j)
{
    if (!j)
        return;
    if (j->pending) { /* never published: the temporary goes, nothing is at the path */
        j->fd = -1;   /* the outfile's, closed by it */
        cutune_outfile_abort(j->pending);
    } else if (j->fd >= 0) {
        fsync(j->fd);
        close(j->fd); /* and the lock with it */
    }
    free(j->path);
    free(j);
}
