/* cutune bench --reproduce=RESULTS: rerun an experiment from the manifest its
 * results.json carries, and compare the new results with the old cell by cell.
 *
 * The manifest alone decides the rerun: its recordings (found at the path given then, or
 * the absolute path, and refused unless their SHA-256 matches), searchers (by their labels,
 * which are the NAME:ARGS given), budgets, seed count, convention, parallel, the extra
 * tables (--split, --per-seed) and every recording's restrictions
 * (cmd_bench_reproduce_restrict.c). A missing or changed recording or restrictions file is
 * refused with one line before anything runs (exit 2); otherwise the exit status says
 * whether every cell came out identical (0) or not (1). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "cutune/common.h"
#include "cutune/sha256.h"

#define REPRO_MAX_ARGS 600

static cJSON *load_json(const char *path)
{
    char *text = NULL, err[512];
    size_t len = 0;
    if (cutune_read_file(path, &text, &len, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s\n", err);
        return NULL;
    }
    cJSON *doc = cJSON_ParseWithLength(text, len);
    free(text);
    if (!doc)
        fprintf(stderr, "cutune bench: --reproduce: %s: not valid JSON\n", path);
    return doc;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The recording of manifest entry r: its path if that exists, else its absolute path;
 * checked against its SHA-256. 0 with *found set, or -1 after one line on stderr. */
static int locate(const char *results, const cJSON *r, const char **found)
{
    const char *path = str_of(r, "path"), *abs = str_of(r, "abs_path"), *want = str_of(r, "sha256");
    if (!path || !want) {
        fprintf(stderr,
                "cutune bench: --reproduce: %s: manifest.experiment.recordings: an entry "
                "lacks path or sha256\n",
                results);
        return -1;
    }
    struct stat st;
    const char *p = stat(path, &st) == 0 ? path : abs && stat(abs, &st) == 0 ? abs : NULL;
    if (!p) {
        fprintf(stderr,
                "cutune bench: --reproduce: recording %s (SHA-256 %.16s...) is missing: neither "
                "%s nor %s exists\n",
                path, want, path, abs ? abs : "an absolute path");
        return -1;
    }
    char hex[65], err[512];
    if (cutune_sha256_file(p, hex, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s\n", err);
        return -1;
    }
    if (strcmp(hex, want) != 0) {
        fprintf(stderr,
                "cutune bench: --reproduce: recording %s has SHA-256 %.16s..., the manifest's is "
                "%.16s...: not the recording of %s\n",
                p, hex, want, results);
        return -1;
    }
    *found = p;
    return 0;
}

/* one numeric field of two cells; counts and prints a difference */
static int compare_num(const char *where, const char *field, const cJSON *a, const cJSON *b,
                       double *maxdiff)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, field),
                *y = cJSON_GetObjectItemCaseSensitive(b, field);
    if (cJSON_IsNull(x) && cJSON_IsNull(y))
        return 0;
    if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y)) {
        printf("  %s %s: %s -> %s\n", where, field, cJSON_IsNumber(x) ? "number" : "none",
               cJSON_IsNumber(y) ? "number" : "none");
        return 1;
    }
    if (x->valuedouble == y->valuedouble)
        return 0;
    double d = y->valuedouble - x->valuedouble;
    printf("  %s %s: %.6g -> %.6g (%+.3g)\n", where, field, x->valuedouble, y->valuedouble, d);
    if (fabs(d) > *maxdiff)
        *maxdiff = fabs(d);
    return 1;
}

static const cJSON *find_named(const cJSON *arr, const char *key, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        const char *n = str_of(e, key);
        if (n && name && strcmp(n, name) == 0)
            return e;
    }
    return NULL;
}

/* Walk old's cells and find each in new: counts cells and those that differ. */
/* Every cell of old against new. With values 0, only whether each cell of old is in new
 * (the other way round: a results.json cut short, or lacking a searcher, must not read as
 * identical), each one missing said with missing_text. */
static void compare_results(const cJSON *old, const cJSON *new, int values,
                            const char *missing_text, size_t *ncells, size_t *ndiff,
                            double *maxdiff)
{
    static const char *const cell_fields[] = {"mean",         "p05",        "median", "p95",
                                              "success_rate", "evals_mean", NULL};
    const cJSON *conv;
    cJSON_ArrayForEach(conv, cJSON_GetObjectItemCaseSensitive(old, "conventions"))
    {
        const char *cname = str_of(conv, "convention");
        const cJSON *nconv =
            find_named(cJSON_GetObjectItemCaseSensitive(new, "conventions"), "convention", cname);
        const cJSON *rec;
        cJSON_ArrayForEach(rec, cJSON_GetObjectItemCaseSensitive(conv, "recordings"))
        {
            const char *rname = str_of(rec, "name");
            const cJSON *nrec =
                nconv ? find_named(cJSON_GetObjectItemCaseSensitive(nconv, "recordings"), "name",
                                   rname)
                      : NULL;
            const cJSON *s;
            cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(rec, "searchers"))
            {
                const char *sname = str_of(s, "searcher");
                const cJSON *ns =
                    nrec ? find_named(cJSON_GetObjectItemCaseSensitive(nrec, "searchers"),
                                      "searcher", sname)
                         : NULL;
                char where[1024];
                snprintf(where, sizeof where, "%s %s %s", cname ? cname : "?", rname ? rname : "?",
                         sname ? sname : "?");
                if (!ns) {
                    (*ncells)++;
                    (*ndiff)++;
                    printf("  %s: %s\n", where, missing_text);
                    continue;
                }
                int d = values ? compare_num(where, "p_evals", s, ns, maxdiff) |
                                     compare_num(where, "p_time", s, ns, maxdiff)
                               : 0;
                const cJSON *nb = cJSON_GetObjectItemCaseSensitive(ns, "budgets"), *b;
                cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(s, "budgets"))
                {
                    const cJSON *bv = cJSON_GetObjectItemCaseSensitive(b, "budget"), *match = NULL,
                                *e;
                    cJSON_ArrayForEach(e, nb)
                    {
                        const cJSON *ev = cJSON_GetObjectItemCaseSensitive(e, "budget");
                        if (cJSON_IsNumber(bv) && cJSON_IsNumber(ev) &&
                            ev->valuedouble == bv->valuedouble)
                            match = e;
                    }
                    char wb[1100];
                    snprintf(wb, sizeof wb, "%s budget %g", where,
                             cJSON_IsNumber(bv) ? bv->valuedouble : NAN);
                    if (!values && match)
                        continue; /* counted by the comparison the other way */
                    (*ncells)++;
                    int cd = d;
                    d = 0; /* P belongs to the searcher's first cell only */
                    if (!match) {
                        printf("  %s: %s\n", wb, missing_text);
                        cd = 1;
                    } else {
                        for (int k = 0; cell_fields[k]; k++)
                            cd |= compare_num(wb, cell_fields[k], b, match, maxdiff);
                    }
                    *ndiff += cd != 0;
                }
            }
        }
    }
}

/* the machine and build the two manifests were made on, where they differ */
static void compare_env(const cJSON *a, const cJSON *b)
{
    static const char *const paths[][2] = {
        {"cutune", "commit"},   {"cutune", "buildtype"},
        {"cutune", "compiler"}, {"linear_algebra", "cblas_provider"},
        {"platform", "cpu"},    {"platform", "os"},
        {"platform", "libc"}};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        const char *x = str_of(cJSON_GetObjectItemCaseSensitive(a, paths[i][0]), paths[i][1]);
        const char *y = str_of(cJSON_GetObjectItemCaseSensitive(b, paths[i][0]), paths[i][1]);
        if (x && y && strcmp(x, y) != 0)
            fprintf(stderr, "cutune bench: --reproduce: %s.%s was %s, is %s\n", paths[i][0],
                    paths[i][1], x, y);
    }
}

int cutune_cli_bench_reproduce(const char *results, const char *out_dir, unsigned long jobs,
                               int plots, int quiet)
{
    int status = 2, nargs = 0;
    char *args[REPRO_MAX_ARGS];
    char *owned[REPRO_MAX_ARGS];
    int nowned = 0;
    char out_default[PATH_MAX + 16], newres[PATH_MAX + 32];
    cJSON *old = load_json(results), *fresh = NULL;
    if (!old)
        return 2;
    const cJSON *man = cJSON_GetObjectItemCaseSensitive(old, "manifest");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(man, "experiment");
    const cJSON *recs = cJSON_GetObjectItemCaseSensitive(exp, "recordings");
    const cJSON *srch = cJSON_GetObjectItemCaseSensitive(exp, "searchers");
    const cJSON *budgets = cJSON_GetObjectItemCaseSensitive(exp, "budgets");
    const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(exp, "seeds");
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(seeds, "first");
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(seeds, "count");
    const cJSON *par = cJSON_GetObjectItemCaseSensitive(exp, "parallel");
    const char *conv = str_of(exp, "convention"), *kind = str_of(man, "kind");
    if (!cJSON_IsObject(man) || !kind || strcmp(kind, "bench") != 0) {
        fprintf(stderr, "cutune bench: --reproduce: %s: no bench manifest (field \"manifest\")\n",
                results);
        goto out;
    }
    if (!cJSON_IsArray(recs) || !cJSON_IsArray(srch) || !cJSON_IsArray(budgets) ||
        !cJSON_IsNumber(first) || first->valuedouble != 1.0 || !cJSON_IsNumber(count) ||
        count->valuedouble < 1 || !conv || cJSON_GetArraySize(recs) == 0 ||
        cJSON_GetArraySize(srch) == 0 ||
        cJSON_GetArraySize(recs) + cJSON_GetArraySize(srch) + 16 > REPRO_MAX_ARGS) {
        fprintf(stderr,
                "cutune bench: --reproduce: %s: manifest.experiment lacks recordings, "
                "searchers, budgets, seeds (first 1) or convention\n",
                results);
        goto out;
    }
    if (!out_dir) {
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s", results);
        snprintf(out_default, sizeof out_default, "%s/reproduced", dirname(tmp));
        out_dir = out_default;
    }
    snprintf(newres, sizeof newres, "%s/results.json", out_dir);
    char r1[PATH_MAX], r2[PATH_MAX];
    if (realpath(results, r1) && realpath(newres, r2) && strcmp(r1, r2) == 0) {
        fprintf(stderr, "cutune bench: --reproduce: --out=%s would overwrite %s\n", out_dir,
                results);
        goto out;
    }

    /* every recording present and unchanged before anything runs */
    const char *found[REPRO_MAX_ARGS];
    int nfound = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, recs)
    {
        if (locate(results, r, &found[nfound]) < 0)
            goto out;
        nfound++;
    }

#define OWN(...)                                                                                   \
    do {                                                                                           \
        char buf_[4200];                                                                           \
        snprintf(buf_, sizeof buf_, __VA_ARGS__);                                                  \
        owned[nowned] = strdup(buf_);                                                              \
        args[nargs++] = owned[nowned++];                                                           \
    } while (0)
    args[nargs++] = "cutune bench";
    /* the restrictions each recording was benchmarked under, exactly (a restrictions file
     * beside their folder is not found again for files given one by one) */
    int nropts = 0;
    status = cutune_cli_bench_reproduce_restrictions(
        results, recs, out_dir, &owned[nowned],
        REPRO_MAX_ARGS - 16 - cJSON_GetArraySize(recs) - cJSON_GetArraySize(srch), &nropts);
    if (status != 0)
        goto out;
    status = 2;
    int ropt0 = nowned; /* the restrictions options: owned[ropt0 .. ropt0 + nropts) */
    for (int i = 0; i < nropts; i++)
        args[nargs++] = owned[nowned++];
    const cJSON *s;
    cJSON_ArrayForEach(s, srch)
    {
        const char *label = str_of(s, "label"), *name = str_of(s, "name"),
                   *sargs = str_of(s, "args");
        if (label && strchr(label, ':'))
            OWN("--searcher=%s", label);
        else if (name)
            OWN("--searcher=%s%s%s", name, sargs ? ":" : "", sargs ? sargs : "");
    }
    char blist[4096] = "";
    const cJSON *b;
    cJSON_ArrayForEach(b, budgets)
    {
        if (cJSON_IsNumber(b))
            snprintf(blist + strlen(blist), sizeof blist - strlen(blist), "%s%.0f",
                     blist[0] ? "," : "", b->valuedouble);
    }
    OWN("--budgets=%s", blist);
    OWN("--seeds=%.0f", count->valuedouble);
    OWN("--convention=%s", conv);
    OWN("--parallel=%.0f", cJSON_IsNumber(par) ? par->valuedouble : 1.0);
    /* the extra tables it wrote (a manifest older than these fields: none) */
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(exp, "split")))
        args[nargs++] = "--split";
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(exp, "per_seed")))
        args[nargs++] = "--per-seed";
    OWN("--out=%s", out_dir);
    if (jobs)
        OWN("--jobs=%lu", jobs);
    if (!plots)
        args[nargs++] = "--no-plots";
    if (quiet)
        args[nargs++] = "--quiet";
    for (int i = 0; i < nfound; i++)
        args[nargs++] = (char *)found[i];
    args[nargs] = NULL;
#undef OWN
    for (int i = 0; i < nowned; i++)
        if (!owned[i]) {
            status = 1;
            goto out;
        }
    fprintf(stderr, "cutune bench: --reproduce: rerunning manifest %s into %s\n",
            str_of(man, "identity") ? str_of(man, "identity") : "?", out_dir);
    status = cutune_cmd_bench(nargs, args);
    if (status != 0) {
        /* a rerun that failed leaves nothing: the restrictions file written for it, and the
         * folder when that is then empty */
        for (int i = 0; i < nropts; i++) {
            const char *ro = owned[ropt0 + i];
            if (strncmp(ro, "--restrictions=", 15) == 0)
                unlink(ro + 15);
        }
        rmdir(out_dir);
        goto out;
    }
    status = 2;
    if (!(fresh = load_json(newres)))
        goto out;
    compare_env(man, cJSON_GetObjectItemCaseSensitive(fresh, "manifest"));
    size_t ncells = 0, ndiff = 0;
    double maxdiff = 0.0;
    compare_results(old, fresh, 1, "missing from the reproduction", &ncells, &ndiff, &maxdiff);
    compare_results(fresh, old, 0, "not in the results reproduced", &ncells, &ndiff, &maxdiff);
    if (ndiff == 0) {
        printf("reproduced %s: identical (%zu cells)\n", results, ncells);
        status = 0;
    } else {
        printf("reproduced %s: %zu of %zu cells differ, by at most %.3g\n", results, ndiff, ncells,
               maxdiff);
        status = 1;
    }
out:
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    cJSON_Delete(fresh);
    cJSON_Delete(old);
    return status;
}
