/* Warm against cold starts on recorded spaces: fraction of the optimum t_opt / t_best after
 * B unique evaluations of one target recording, cold and warm-started from each source.
 *
 *   bench_transfer [--seeds N] [--seed0 S] [--budgets 10,20,40,60] [--searcher NAME[:ARGS]]
 *                  [--mode search|order] --out FILE.csv TARGET SOURCE...
 *   SOURCE: FILE | inverse | NAME=FILE,FILE,...
 *
 * The target space is the target's recorded configurations; its failed records are
 * observed as runtime_error; re-proposals are answered again without charging the budget.
 * A SOURCE is a recording (Kernel Tuner cache or journal) mapped onto the target by
 * cutune_warm_prior_build, or the word "inverse": the target's own recording with every
 * time t replaced by 1/t (a source that ranks the target exactly backwards, the worst a
 * misleading source can be), or NAME=FILE,FILE,...: those files (or "inverse") pooled
 * as one source by cutune_warm_prior_median, as --warm-start=FILE,FILE,... pools them, and
 * labelled NAME in the output. Every budget is a run of its own, except budgets with the
 * same plan (cutune_searcher_type.plan), read off the run of the largest of them.
 * Writes FILE.csv: target,source,method,seed,budget,fraction (method cold or warm; a cold
 * row's source is "-").
 * --mode order runs no searcher: for each source it evaluates the target's configurations
 * in the prior's order (cutune_warm_prior.order, the source's best first) and writes the
 * fraction after the first B of them (method "order", seed 0): what the source's ranking
 * alone is worth, the ceiling of a warm start that only proposes the source's best. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"

#define MAXB 16

static int run_one(const cutune_space *sp, const double *table, double topt,
                   const cutune_searcher_type *t, const char *args, const cutune_warm_prior *warm,
                   unsigned long seed, const size_t *budgets, size_t nb, double *frac, char *err,
                   size_t errlen)
{
    size_t N = cutune_space_size(sp), B = budgets[nb - 1];
    uint8_t *visited = calloc(N, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {
        .space = sp, .budget = B, .rng = rng, .visited = visited, .args = args, .warm = warm};
    cutune_searcher *s = NULL;
    int rc = cutune_searcher_alloc(t, &ctx, &s, err, errlen);
    double best = INFINITY;
    size_t used = 0, bi = 0, dup_run = 0;
    while (rc >= 0 && used < B && used < N) {
        size_t id, n = 0;
        if ((rc = cutune_searcher_propose(s, 1, &id, &n, err, errlen)) < 0 || n == 0)
            break;
        cutune_observation o = {.id = id};
        double tm = table[id];
        o.status = isfinite(tm) ? CUTUNE_STATUS_OK : CUTUNE_STATUS_RUNTIME_ERROR;
        o.time_ms = isfinite(tm) ? tm : NAN;
        if (visited[id]) {
            if (++dup_run > 10000) {
                rc = cutune_err(err, errlen, CUTUNE_EINVAL, "searcher stuck on visited ids");
                break;
            }
        } else {
            dup_run = 0;
            visited[id] = 1;
            used++;
            if (isfinite(tm) && tm < best)
                best = tm;
            while (bi < nb && used == budgets[bi])
                frac[bi++] = isfinite(best) ? topt / best : 0.0;
        }
        rc = cutune_searcher_observe(s, &o, 1, err, errlen);
    }
    while (bi < nb)
        frac[bi++] = isfinite(best) ? topt / best : 0.0;
    cutune_searcher_free(s);
    gsl_rng_free(rng);
    free(visited);
    return rc < 0 ? rc : 0;
}

/* The fraction of the optimum after evaluating the prior's first budgets[b] configurations. */
static void source_order(const cutune_warm_prior *w, const double *table, double topt,
                         const size_t *budgets, size_t nb, double *frac)
{
    double best = INFINITY;
    for (size_t i = 0, b = 0; b < nb; i++) {
        while (b < nb && (i == budgets[b] || i == w->size))
            frac[b++] = isfinite(best) ? topt / best : 0.0;
        if (i < w->size && isfinite(table[w->order[i]]) && table[w->order[i]] < best)
            best = table[w->order[i]];
    }
}

static const char *short_name(const char *p, char *buf, size_t len)
{
    const char *s = strrchr(p, '/');
    snprintf(buf, len, "%s", s ? s + 1 : p);
    char *dot = strstr(buf, ".json");
    if (dot)
        *dot = '\0';
    return buf;
}

/* The target's own records with inverted times. */
static int inverse_source(const cutune_recording *r, cutune_warm_source **out)
{
    *out = cutune_warm_source_alloc("inverse", r->nparams, (const char *const *)r->param_names);
    const char **v = malloc(r->nparams * sizeof *v);
    if (!*out || !v) {
        free(v);
        return CUTUNE_ENOMEM;
    }
    for (size_t i = 0; i < r->nrecords; i++) {
        const cutune_record *rec = &r->records[i];
        for (size_t p = 0; p < r->nparams; p++)
            v[p] = r->texts[p][rec->idx[p]];
        int ok = rec->status == CUTUNE_STATUS_OK && isfinite(rec->time_ms) && rec->time_ms > 0;
        if (ok && cutune_warm_source_add(*out, v, CUTUNE_STATUS_OK, 1.0 / rec->time_ms) < 0) {
            free(v);
            return CUTUNE_ENOMEM;
        }
    }
    free(v);
    return 0;
}

/* The prior of one SOURCE argument: a file or "inverse". */
static int one_prior(const char *arg, const cutune_recording *r, const cutune_space *sp,
                     cutune_warm_prior **prior, char *err, size_t errlen)
{
    cutune_warm_source *src = NULL;
    int rc = strcmp(arg, "inverse") == 0 ? inverse_source(r, &src)
                                         : cutune_warm_source_load(arg, &src, err, errlen);
    if (rc >= 0)
        rc = cutune_warm_prior_build(src, sp, prior, err, errlen);
    cutune_warm_source_free(src);
    return rc;
}

/* The FILE,FILE,... of a NAME=FILE,FILE,... source: several sources as one prior, the mean of
 * their priors (cutune_warm_prior_median, as --warm-start=FILE,FILE,... builds it). */
static int pooled_prior(const char *arg, const cutune_recording *r, const cutune_space *sp,
                        cutune_warm_prior **prior, char *err, size_t errlen)
{
    char buf[4096];
    cutune_warm_prior *parts[MAXB] = {NULL};
    size_t n = 0;
    int rc = 0;
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *tok = strtok(buf, ","); tok && rc >= 0; tok = strtok(NULL, ",")) {
        if (n == MAXB) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL, "more than %d pooled sources", MAXB);
            break;
        }
        rc = one_prior(tok, r, sp, &parts[n], err, errlen);
        n += rc >= 0;
    }
    if (rc >= 0)
        rc = cutune_warm_prior_median((const cutune_warm_prior *const *)parts, n, prior, err,
                                      errlen);
    for (size_t i = 0; i < n; i++)
        cutune_warm_prior_free(parts[i]);
    return rc;
}

int main(int argc, char **argv)
{
    size_t seeds = 10, nb = 4, budgets[MAXB] = {10, 20, 40, 60};
    unsigned long seed0 = 1000;
    const char *searcher = "bo", *outp = NULL, *mode = "search";
    int a = 1;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++) {
        if (a + 1 >= argc) {
            fprintf(stderr, "%s: needs a value\n", argv[a]);
            return 2;
        }
        if (strcmp(argv[a], "--seeds") == 0)
            seeds = strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--seed0") == 0)
            seed0 = strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--searcher") == 0)
            searcher = argv[++a];
        else if (strcmp(argv[a], "--mode") == 0)
            mode = argv[++a];
        else if (strcmp(argv[a], "--out") == 0)
            outp = argv[++a];
        else if (strcmp(argv[a], "--budgets") == 0) {
            nb = 0;
            for (char *tok = strtok(argv[++a], ","); tok && nb < MAXB; tok = strtok(NULL, ","))
                budgets[nb++] = strtoul(tok, NULL, 10);
        } else {
            fprintf(stderr, "unknown option %s\n", argv[a]);
            return 2;
        }
    }
    int order_only = strcmp(mode, "order") == 0;
    if (!order_only && strcmp(mode, "search") != 0) {
        fprintf(stderr, "--mode %s: not search or order\n", mode);
        return 2;
    }
    for (size_t b = 1; b < nb; b++)
        if (budgets[b] <= budgets[b - 1]) {
            fprintf(stderr, "--budgets: not increasing\n");
            return 2;
        }
    if (!outp || a + 2 > argc || nb == 0 || seeds == 0) {
        fprintf(stderr, "usage: bench_transfer [--seeds N] [--seed0 S] [--budgets B,...] "
                        "[--searcher NAME[:ARGS]] [--mode search|order] --out FILE.csv TARGET "
                        "SOURCE...\n");
        return 2;
    }
    char err[1024], sname[64], tname[256], srcname[256];
    snprintf(sname, sizeof sname, "%s", searcher);
    char *colon = strchr(sname, ':');
    const char *sargs = colon ? searcher + (colon - sname) + 1 : NULL;
    if (colon)
        *colon = '\0';
    const cutune_searcher_type *t = cutune_searcher_find(sname, err, sizeof err);
    cutune_recording *r = NULL;
    cutune_space *sp = NULL;
    if (!t || cutune_recording_load(argv[a], &r, err, sizeof err) < 0 ||
        cutune_recording_space(r, NULL, 0, 1, &sp, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", argv[a], err);
        return 1;
    }
    size_t N = cutune_space_size(sp);
    double *table = malloc(N * sizeof *table), topt = INFINITY;
    if (!table || cutune_recording_table(r, sp, table, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", argv[a], err);
        return 1;
    }
    for (size_t i = 0; i < N; i++)
        if (isfinite(table[i]) && table[i] < topt)
            topt = table[i];
    size_t lead[MAXB];
    if (cutune_searcher_plan_leads(t, sp, sargs, budgets, nb, lead, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    FILE *f = fopen(outp, "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", outp);
        return 1;
    }
    short_name(argv[a], tname, sizeof tname);
    for (int k = a + order_only; k < argc; k++) { /* k == a: the cold runs */
        cutune_warm_prior *prior = NULL;
        if (k > a) {
            const char *eq = strchr(argv[k], '=');
            int rc = eq ? pooled_prior(eq + 1, r, sp, &prior, err, sizeof err)
                        : one_prior(argv[k], r, sp, &prior, err, sizeof err);
            if (rc < 0) {
                fprintf(stderr, "%s -> %s: %s (skipped)\n", argv[k], tname, err);
                continue;
            }
            fprintf(stderr, "%s -> %s: %zu shared, %zu mapped, %zu dropped, %zu/%zu exact\n",
                    argv[k], tname, prior->nshared, prior->nused, prior->ndropped, prior->nexact,
                    N);
        }
        const char *src_label = "-";
        if (k > a && strchr(argv[k], '=')) { /* NAME=FILE,FILE,...: labelled NAME */
            snprintf(srcname, sizeof srcname, "%.*s", (int)(strchr(argv[k], '=') - argv[k]),
                     argv[k]);
            src_label = srcname;
        } else if (k > a)
            src_label = short_name(argv[k], srcname, sizeof srcname);
        if (order_only) {
            double fr[MAXB];
            source_order(prior, table, topt, budgets, nb, fr);
            for (size_t b = 0; b < nb; b++)
                fprintf(f, "%s,%s,order,0,%zu,%.6f\n", tname, src_label, budgets[b], fr[b]);
            cutune_warm_prior_free(prior);
            continue;
        }
        for (size_t sd = 0; sd < seeds; sd++) {
            double fr[MAXB];
            for (size_t b = 0; b < nb; b++) {
                if (lead[b] != b)
                    continue;
                size_t grp[MAXB], ng = 0;
                double got[MAXB];
                for (size_t c = 0; c < nb; c++)
                    if (lead[c] == b)
                        grp[ng++] = budgets[c];
                if (run_one(sp, table, topt, t, sargs, prior, seed0 + sd, grp, ng, got, err,
                            sizeof err) < 0) {
                    fprintf(stderr, "%s: %s\n", tname, err);
                    return 1;
                }
                for (size_t c = 0, q = 0; c < nb; c++)
                    if (lead[c] == b)
                        fr[c] = got[q++];
            }
            for (size_t b = 0; b < nb; b++)
                fprintf(f, "%s,%s,%s,%lu,%zu,%.6f\n", tname, src_label, k > a ? "warm" : "cold",
                        seed0 + sd, budgets[b], fr[b]);
        }
        fflush(f);
        cutune_warm_prior_free(prior);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", outp);
        return 1;
    }
    free(table);
    cutune_space_free(sp);
    cutune_recording_free(r);
    return 0;
}
