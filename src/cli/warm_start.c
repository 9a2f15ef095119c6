/* --warm-start=FILE[,FILE...]|auto|none of `cutune [tune]`: the sources read and mapped onto
 * the run's space (cutune/warm.h), and what --resume checks of them. Several files are
 * recordings of the kernel on several GPUs: each is mapped alone and the prior is their mean
 * (cutune_warm_prior_mean), the GPUs' consensus (docs/transfer.md has the measurements). */
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tune_internal.h"

/* The rows of one group (GPU, sizes, options) as a source: the group with the most correct
 * measurements, the first stored on a tie. One group only, since a source's times are
 * ranked against each other and two GPUs' times do not share a scale. */
static int source_from_db(cutune_db *db, const cutune_db_key *key, const cutune_space *sp,
                          cutune_warm_source **out, char *group, size_t glen, char *err,
                          size_t errlen)
{
    cutune_db_rows *rows = NULL;
    int rc = cutune_db_rows_transfer(db, key, &rows, err, errlen);
    if (rc < 0)
        return rc;
    size_t np = cutune_space_nparams(sp), best = 0, best_ok = 0;
    for (size_t i = 0; i < rows->n; i++) {
        const cutune_db_row *a = &rows->row[i];
        size_t ok = 0;
        int seen = 0;
        for (size_t j = 0; j < rows->n && !seen; j++) {
            const cutune_db_row *b = &rows->row[j];
            int same = !strcmp(a->gpu, b->gpu) && !strcmp(a->sizes, b->sizes) &&
                       !strcmp(a->options, b->options);
            if (same && j < i)
                seen = 1; /* counted with its first row */
            else if (same && b->status == CUTUNE_STATUS_OK)
                ok++;
        }
        if (!seen && ok > best_ok) {
            best_ok = ok;
            best = i;
        }
    }
    *out = NULL;
    if (best_ok == 0) {
        cutune_db_rows_free(rows);
        return 0;
    }
    const cutune_db_row *g = &rows->row[best];
    snprintf(group, glen, "database: %s, sizes %s", g->gpu, g->sizes);
    const char **names = malloc((np ? np : 1) * sizeof *names);
    const char **vals = malloc((np ? np : 1) * sizeof *vals);
    char(*texts)[64] = malloc((np ? np : 1) * sizeof *texts);
    cutune_warm_source *src = NULL;
    rc = CUTUNE_ENOMEM;
    if (names && vals && texts) {
        for (size_t p = 0; p < np; p++)
            names[p] = cutune_space_param(sp, p)->name;
        src = cutune_warm_source_alloc(group, np, names);
    }
    for (size_t i = 0; src && i < rows->n; i++) {
        const cutune_db_row *r = &rows->row[i];
        if (strcmp(r->gpu, g->gpu) || strcmp(r->sizes, g->sizes) || strcmp(r->options, g->options))
            continue;
        cJSON *c = cJSON_Parse(r->config);
        int full = c != NULL;
        for (size_t p = 0; full && p < np; p++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, names[p]);
            if (cJSON_IsNumber(v))
                snprintf(texts[p], sizeof texts[p], "%.17g", v->valuedouble);
            else if (cJSON_IsString(v))
                snprintf(texts[p], sizeof texts[p], "%s", v->valuestring);
            else
                full = 0; /* a parameter this row lacks: the row does not map */
            vals[p] = texts[p];
        }
        cJSON_Delete(c);
        if (full && cutune_warm_source_add(src, vals, r->status, r->time_ms) < 0) {
            cutune_warm_source_free(src);
            src = NULL;
        }
    }
    if (src)
        rc = 0;
    free(names);
    free(vals);
    free(texts);
    cutune_db_rows_free(rows);
    *out = src;
    return rc < 0 ? cutune_err(err, errlen, rc, "--warm-start=auto: out of memory") : 0;
}

size_t cli_warm_start_split(const char *arg, char (*files)[CLI_WARM_PATH], size_t max)
{
    if (access(arg, F_OK) == 0) { /* an existing file is one source, commas or not */
        snprintf(files[0], CLI_WARM_PATH, "%s", arg);
        return 1;
    }
    size_t n = 0;
    for (const char *a = arg;; n++) {
        const char *c = strchr(a, ',');
        size_t len = c ? (size_t)(c - a) : strlen(a);
        if (n == max || len == 0 || len >= CLI_WARM_PATH)
            return 0;
        memcpy(files[n], a, len);
        files[n][len] = '\0';
        if (!c)
            return n + 1;
        a = c + 1;
    }
}

int cli_warm_start_mentions(const char *arg, const char *path)
{
    static char files[CLI_WARM_MAX][CLI_WARM_PATH];
    if (!arg || strcmp(arg, "auto") == 0 || strcmp(arg, "none") == 0)
        return 0;
    size_t n = cli_warm_start_split(arg, files, CLI_WARM_MAX);
    for (size_t i = 0; i < n; i++)
        if (cutune_path_same(files[i], path))
            return 1;
    return 0;
}

int cli_warm_start_same(const char *a, const char *b)
{
    static char fa[CLI_WARM_MAX][CLI_WARM_PATH], fb[CLI_WARM_MAX][CLI_WARM_PATH];
    size_t na = cli_warm_start_split(a, fa, CLI_WARM_MAX);
    size_t nb = cli_warm_start_split(b, fb, CLI_WARM_MAX);
    if (na == 0 || na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (!cutune_path_same(fa[i], fb[i]))
            return 0;
    return 1;
}

/* The files of --warm-start=FILE[,FILE...]: each loaded and mapped alone (a file of another
 * kernel is refused by its name), then their mean; w->path lists their absolute paths,
 * comma-separated, and w->files[] holds them one by one. */
static int load_files(const char *arg, const cutune_space *sp, cli_warm_start *w, char *err,
                      size_t errlen)
{
    static char given[CLI_WARM_MAX][CLI_WARM_PATH];
    size_t n = cli_warm_start_split(arg, given, CLI_WARM_MAX);
    if (n == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--warm-start=%s: not a file, nor a list of at most %d files "
                          "separated by commas (an empty name, or one too long)",
                          arg, CLI_WARM_MAX);
    cutune_warm_prior *parts[CLI_WARM_MAX] = {NULL};
    size_t used = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc >= 0; i++) {
        for (size_t j = 0; j < i && rc >= 0; j++)
            if (cutune_path_same(given[i], given[j]))
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "--warm-start: %s is given twice (a source counts once)", given[i]);
        if (rc < 0)
            break;
        if (!realpath(given[i], w->files[i]))
            memcpy(w->files[i], given[i], sizeof w->files[i]); /* same size, terminated */
        size_t at = strlen(w->path), len = strlen(w->files[i]);
        if (at + len + 2 > sizeof w->path) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--warm-start: the list of sources is longer than %zu characters",
                            sizeof w->path - 1);
            break;
        }
        snprintf(w->path + at, sizeof w->path - at, "%s%s", at ? "," : "", w->files[i]);
        cutune_warm_source *src = NULL;
        if ((rc = cutune_warm_source_load(given[i], &src, err, errlen)) >= 0)
            rc = cutune_warm_prior_build(src, sp, &parts[used], err, errlen);
        used += rc >= 0;
        cutune_warm_source_free(src);
    }
    w->nfiles = used;
    if (rc >= 0 && used == 1) {
        w->prior = parts[0];
        parts[0] = NULL;
    } else if (rc >= 0)
        rc = cutune_warm_prior_mean((const cutune_warm_prior *const *)parts, used, &w->prior, err,
                                    errlen);
    for (size_t i = 0; i < used; i++)
        cutune_warm_prior_free(parts[i]);
    return rc;
}

int cli_warm_start_load(const char *arg, cutune_db *db, const cutune_db_key *key,
                        const cutune_space *sp, cli_warm_start *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    if (!arg || strcmp(arg, "none") == 0)
        return 0;
    cutune_warm_source *src = NULL;
    int rc;
    if (strcmp(arg, "auto") == 0) {
        if (!db)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--warm-start=auto: the run has no tuning database (--no-db or "
                              "CUTUNE_DB=none): give a FILE or none");
        if ((rc = source_from_db(db, key, sp, &src, w->path, sizeof w->path, err, errlen)) < 0)
            return rc;
        if (!src) {
            fprintf(stderr, "cutune: --warm-start=auto: the database holds no correct "
                            "measurement of this kernel on another GPU or at other sizes: cold\n");
            return 0;
        }
        rc = cutune_warm_prior_build(src, sp, &w->prior, err, errlen);
        cutune_warm_source_free(src);
    } else
        rc = load_files(arg, sp, w, err, errlen);
    if (rc < 0)
        return rc;
    /* a prior that scores every configuration alike (no correct observation, one, or one
     * time for all) orders nothing: its "picks" would be draws that take the places of the
     * searcher's own design. The run is cold, and says so. */
    int informative = 0;
    for (size_t i = 1; i < w->prior->size && !informative; i++)
        informative = w->prior->score[i] != w->prior->score[0];
    if (!informative) {
        fprintf(stderr,
                "cutune: --warm-start=%s: its %zu observations mapped score every configuration "
                "alike (fewer than two correct ones, or one time for all): cold\n",
                strcmp(arg, "auto") == 0 ? w->path : arg, w->prior->nused);
        cutune_warm_prior_free(w->prior);
        w->prior = NULL;
        return 0;
    }
    snprintf(w->hash, sizeof w->hash, "%016llx",
             (unsigned long long)cutune_warm_prior_hash(w->prior));
    return 0;
}

int cli_warm_start_check_resume(const cli_tune_options *o, const cli_tune_resume *r,
                                const cli_warm_start *w, char *err, size_t errlen)
{
    const cutune_recording *j = r->journal;
    if (!j)
        return 0;
    if (!j->warm_start && w->prior)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started cold: --warm-start=%s is not "
                          "allowed (a resumed run continues as it was started)",
                          o->resume, o->warm_start);
    if (j->warm_start && j->warm_start_hash && w->prior && strcmp(j->warm_start_hash, w->hash))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the warm start %s maps onto the space differently from "
                          "when the run was started (prior hash %s, now %s): it has changed",
                          o->resume, w->path, j->warm_start_hash, w->hash);
    return 0;
}

void cli_warm_start_free(cli_warm_start *w)
{
    cutune_warm_prior_free(w->prior);
    w->prior = NULL;
}
