/* --warm-start=FILE[,FILE...]|auto|none of `cutune [tune]`: the sources read and mapped onto
 * the run's space (cutune/warm.h), and what --resume checks of them. Several files are
 * recordings of the kernel on several GPUs: each is mapped alone and the prior is their median
 * (cutune_warm_prior_median), the GPUs' consensus (docs/transfer.md has the measurements). */
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "tune_internal.h"

/* The prior of n sources' priors: the one itself (taken: parts[0] becomes NULL), or their
 * median (cutune_warm_prior_median); the caller frees parts[] either way. */
static int combine(cutune_warm_prior **parts, size_t n, cutune_warm_prior **out, char *err,
                   size_t errlen)
{
    if (n == 1) {
        *out = parts[0];
        parts[0] = NULL;
        return 0;
    }
    return cutune_warm_prior_median((const cutune_warm_prior *const *)parts, n, out, err, errlen);
}

/* A group of the database's rows: one GPU, sizes and options. */
typedef struct db_group {
    size_t first; /* its first row */
    size_t ok;    /* its correct measurements */
} db_group;

static int same_group(const cutune_db_row *a, const cutune_db_row *b)
{
    return !strcmp(a->gpu, b->gpu) && !strcmp(a->sizes, b->sizes) &&
           !strcmp(a->options, b->options);
}

/* Whether group g (first row r) is one the run may pool: two or more correct measurements
 * at the run's own sizes and options. */
static int at_run_key(const db_group *g, const cutune_db_row *r, const cutune_db_key *key)
{
    return g->ok >= 2 && !strcmp(r->sizes, key->sizes) && !strcmp(r->options, key->options);
}

/* The rows of group g as a source over sp's parameters (a row lacking one does not map). */
static int group_source(const cutune_db_rows *rows, const cutune_db_row *g, const cutune_space *sp,
                        cutune_warm_source **out)
{
    size_t np = cutune_space_nparams(sp);
    const char **names = malloc((np ? np : 1) * sizeof *names);
    const char **vals = malloc((np ? np : 1) * sizeof *vals);
    char(*texts)[64] = malloc((np ? np : 1) * sizeof *texts);
    cutune_warm_source *src = NULL;
    if (names && vals && texts) {
        for (size_t p = 0; p < np; p++)
            names[p] = cutune_space_param(sp, p)->name;
        src = cutune_warm_source_alloc(g->gpu, np, names);
    }
    for (size_t i = 0; src && i < rows->n; i++) {
        const cutune_db_row *r = &rows->row[i];
        if (!same_group(r, g))
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
    free(names);
    free(vals);
    free(texts);
    *out = src;
    return src ? 0 : CUTUNE_ENOMEM;
}

/* --warm-start=auto: the database's rows of the kernel elsewhere, by group (GPU, sizes,
 * options). Where two or more other GPUs hold two or more correct measurements each at the
 * run's own sizes and options, each is a source and the prior is their median, as for a
 * list of files (the GPUs' consensus beats any one GPU: docs/transfer.md); otherwise the one
 * group with the most correct measurements (the first stored on a tie): other sizes are not
 * pooled, since pooled shapes are level with one shape's observations (docs/shapes.md,
 * --shape-warm). *prior stays NULL where the database holds no correct measurement
 * elsewhere. label gets "database: GPU[ + GPU...], sizes S", or the GPUs' count where their
 * names do not fit. */
static int prior_from_db(cutune_db *db, const cutune_db_key *key, const cutune_space *sp,
                         cutune_warm_prior **prior, size_t *nsources, char *label, size_t llen,
                         char *err, size_t errlen)
{
    *prior = NULL;
    *nsources = 0;
    cutune_db_rows *rows = NULL;
    int rc = cutune_db_rows_transfer(db, key, &rows, err, errlen);
    if (rc < 0)
        return rc;
    db_group *gr = malloc((rows->n ? rows->n : 1) * sizeof *gr);
    cutune_warm_prior *parts[CLI_WARM_MAX] = {NULL};
    size_t ng = 0, nparts = 0, best = SIZE_MAX, here = 0;
    if (!gr) {
        rc = CUTUNE_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < rows->n; i++) {
        size_t g = 0;
        while (g < ng && !same_group(&rows->row[gr[g].first], &rows->row[i]))
            g++;
        if (g == ng)
            gr[ng++] = (db_group){.first = i, .ok = 0};
        gr[g].ok += rows->row[i].status == CUTUNE_STATUS_OK;
    }
    for (size_t g = 0; g < ng; g++) {
        const cutune_db_row *r = &rows->row[gr[g].first];
        if (gr[g].ok > 0 && (best == SIZE_MAX || gr[g].ok > gr[best].ok))
            best = g;
        here += at_run_key(&gr[g], r, key);
    }
    if (best == SIZE_MAX)
        goto out;
    int pool = here >= 2;
    /* the label names every GPU used; where that does not fit, their count */
    size_t at = (size_t)snprintf(label, llen, "database: ");
    for (size_t g = 0; g < ng && rc >= 0; g++) {
        const cutune_db_row *r = &rows->row[gr[g].first];
        int take = pool ? at_run_key(&gr[g], r, key) : g == best;
        if (!take)
            continue;
        if (nparts == CLI_WARM_MAX) { /* the first CLI_WARM_MAX GPUs stored, said in the label */
            at += (size_t)snprintf(label + (at < llen ? at : llen), at < llen ? llen - at : 0,
                                   " + %zu more not used", here - nparts);
            break;
        }
        at += (size_t)snprintf(label + (at < llen ? at : llen), at < llen ? llen - at : 0, "%s%s",
                               nparts ? " + " : "", r->gpu);
        cutune_warm_source *src = NULL;
        if ((rc = group_source(rows, r, sp, &src)) >= 0)
            rc = cutune_warm_prior_build(src, sp, &parts[nparts], err, errlen);
        nparts += rc >= 0;
        cutune_warm_source_free(src);
    }
    const char *sizes = pool ? key->sizes : rows->row[gr[best].first].sizes;
    if (rc >= 0 &&
        at + (size_t)snprintf(NULL, 0, ", sizes %s", sizes) >= llen) /* too long: the count */
        snprintf(label, llen, "database: %zu GPU%s%s, sizes %s", nparts, nparts == 1 ? "" : "s",
                 pool && here > nparts ? " (more not used)" : "", sizes);
    else if (rc >= 0)
        snprintf(label + at, llen - at, ", sizes %s", sizes);
    if (rc >= 0)
        rc = combine(parts, nparts, prior, err, errlen);
    *nsources = nparts;
out:
    for (size_t i = 0; i < nparts; i++)
        cutune_warm_prior_free(parts[i]);
    free(gr);
    cutune_db_rows_free(rows);
    return rc == CUTUNE_ENOMEM ? cutune_err(err, errlen, rc, "--warm-start=auto: out of memory")
                               : rc;
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
 * kernel is refused by its name), then their median; w->path lists their absolute paths,
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
        if (n > 1 && strchr(w->files[i], ',')) { /* the header's list is split at commas */
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--warm-start: %s: a path with a comma cannot be one of a list (its "
                            "journal could not tell the files apart on --resume); give it alone",
                            w->files[i]);
            break;
        }
        size_t at = strlen(w->path), len = strlen(w->files[i]);
        if (at + len + 2 > sizeof w->path) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--warm-start: the list of sources is longer than %zu characters",
                            sizeof w->path - 1);
            break;
        }
        snprintf(w->path + at, sizeof w->path - at, "%s%s", at ? "," : "", w->files[i]);
        cutune_recording *rec = NULL;
        cutune_warm_source *src = NULL;
        if ((rc = cli_recording_load_for("--warm-start=", given[i], &rec, err, errlen)) >= 0) {
            cli_say_truncated_tail(rec);
            rc = cutune_warm_source_from_recording(rec, &src, err, errlen);
        }
        if (rc >= 0)
            rc = cutune_warm_prior_build(src, sp, &parts[used], err, errlen);
        used += rc >= 0;
        cutune_warm_source_free(src);
        cutune_recording_free(rec);
    }
    w->nfiles = w->nsources = used;
    if (rc >= 0)
        rc = combine(parts, used, &w->prior, err, errlen);
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
    int rc;
    if (strcmp(arg, "auto") == 0) {
        if (!db)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--warm-start=auto: the run has no tuning database (--no-db or "
                              "CUTUNE_DB=none): give a FILE or none");
        if ((rc = prior_from_db(db, key, sp, &w->prior, &w->nsources, w->path, sizeof w->path, err,
                                errlen)) < 0)
            return rc;
        if (!w->prior) {
            w->cold = CLI_WARM_COLD_NOTHING;
            return 0;
        }
    } else
        rc = load_files(arg, sp, w, err, errlen);
    if (rc < 0)
        return rc;
    /* a prior that scores every configuration alike (no correct observation, one, or one
     * time for all) orders nothing: its "picks" would be draws that take the places of the
     * searcher's own design. The run is cold, and says so. */
    if (!cutune_warm_prior_informative(w->prior)) {
        w->cold = CLI_WARM_COLD_ALIKE;
        w->cold_nused = w->prior->nused;
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
    /* a source that orders nothing now (files rewritten, database rows pruned) is a change:
     * resumed cold, the run would go on differently from how it started */
    if (j->warm_start && !w->prior)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was warm-started from %s, which now orders "
                          "nothing (%s): it has changed",
                          o->resume, j->warm_start,
                          w->cold == CLI_WARM_COLD_NOTHING
                              ? "the database holds no correct measurement of it"
                              : "it scores every configuration alike");
    if (j->warm_start && j->warm_start_hash && w->prior && strcmp(j->warm_start_hash, w->hash))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the warm start %s maps onto the space differently from "
                          "when the run was started (prior hash %s, now %s): it has changed",
                          o->resume, w->path, j->warm_start_hash, w->hash);
    return 0;
}

void cli_warm_start_say_cold(const char *arg, const cli_warm_start *w)
{
    if (w->cold == CLI_WARM_COLD_NOTHING)
        fprintf(stderr,
                "%s: --warm-start=auto: the database holds no correct measurement "
                "of this kernel on another GPU or at other sizes: cold\n",
                cli_progname);
    else if (w->cold == CLI_WARM_COLD_ALIKE && w->nsources > 1)
        fprintf(stderr,
                "%s: --warm-start=%s: the %zu sources' priors combined score every "
                "configuration alike (they cancel, or hold fewer than two correct observations): "
                "cold\n",
                cli_progname, strcmp(arg, "auto") == 0 ? w->path : arg, w->nsources);
    else if (w->cold == CLI_WARM_COLD_ALIKE)
        fprintf(stderr,
                "%s: --warm-start=%s: its %zu observations mapped score every configuration "
                "alike (fewer than two correct ones, or one time for all): cold\n",
                cli_progname, strcmp(arg, "auto") == 0 ? w->path : arg, w->cold_nused);
}

void cli_warm_start_free(cli_warm_start *w)
{
    cutune_warm_prior_free(w->prior);
    w->prior = NULL;
}
