/* Convergence of a searcher on recorded spaces (Kernel Tuner caches): fraction of the
 * optimum t_opt / t_best_found after B unique evaluations, over many seeds, against
 * random search. Space = the recorded configurations (recorded_only); re-visits are
 * answered from the run's own history without charging the budget; failed records
 * (time NAN) are observed as runtime_error.
 *
 *   bench_convergence [--seeds N] [--seed0 S] [--jobs J] [--searcher NAME[:ARGS]] [--out DIR]
 *                     [--budgets 20,40,60,100,200] [--each] [--runs] FILE.json.gz ...
 *
 * Without --each one run per seed goes to the largest budget and the smaller ones are
 * read off it; with --each every budget is a run of its own, as `cutune --budget=B` makes
 * it (bo's early phase depends on the budget: early=auto), except that budgets with the
 * same plan (cutune_searcher_type.plan, as in `cutune bench`) are read off the run of the
 * largest of them, which makes the same proposals as far as the smaller one goes.
 *
 * --runs also writes runs.csv: recording, searcher, seed, budget and fraction of every run
 * (for paired comparisons, bootstrap intervals, or the distribution behind a mean); a
 * recording that failed has no rows there, and a run without --runs removes an older
 * runs.csv from the output directory, which would not match its results.
 *
 * One process per recording (fork, J at a time); each child writes its numbers to a
 * temporary file that the parent folds into convergence.{json,csv,md}. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "cutune/cutune.h"

#define MAXB 16
#define MAXF 64

typedef struct {
    size_t nb;
    size_t budgets[MAXB];
} budgets_t;

/* One run: fills frac[b] for each budget. Returns 0 or <0. */
static int run_one(const cutune_space *sp, const double *table, double topt,
                   const cutune_searcher_type *t, const char *args, unsigned long seed,
                   const budgets_t *bs, double *frac, double *secs, char *err, size_t errlen)
{
    size_t N = cutune_space_size(sp), B = bs->budgets[bs->nb - 1];
    uint8_t *visited = calloc(N, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    cutune_searcher_ctx ctx = {
        .space = sp, .budget = B, .rng = rng, .visited = visited, .args = args};
    cutune_searcher *s = NULL;
    double t0 = cutune_now();
    int rc = cutune_searcher_alloc(t, &ctx, &s, err, errlen);
    if (rc < 0)
        goto out;
    double best = INFINITY;
    size_t used = 0, bi = 0, dup_run = 0;
    while (used < B && used < N) {
        size_t id, n = 0;
        rc = cutune_searcher_propose(s, 1, &id, &n, err, errlen);
        if (rc < 0)
            goto out;
        if (n == 0)
            break;
        cutune_observation o = {.id = id};
        double tm = table[id];
        o.status = isfinite(tm) ? CUTUNE_STATUS_OK : CUTUNE_STATUS_RUNTIME_ERROR;
        o.time_ms = isfinite(tm) ? tm : NAN;
        if (visited[id]) {
            if (++dup_run > 10000) {
                rc = cutune_err(err, errlen, CUTUNE_EINVAL, "searcher stuck on visited ids");
                goto out;
            }
        } else {
            dup_run = 0;
            visited[id] = 1;
            used++;
            if (isfinite(tm) && tm < best)
                best = tm;
            while (bi < bs->nb && used == bs->budgets[bi])
                frac[bi++] = isfinite(best) ? topt / best : 0.0;
        }
        rc = cutune_searcher_observe(s, &o, 1, err, errlen);
        if (rc < 0)
            goto out;
    }
    while (bi < bs->nb)
        frac[bi++] = isfinite(best) ? topt / best : 0.0;
out:
    *secs = cutune_now() - t0;
    cutune_searcher_free(s);
    gsl_rng_free(rng);
    free(visited);
    return rc;
}

/* Baseline: uniform random search without replacement (a lazily drawn Fisher-Yates
 * permutation), so the comparison does not depend on another module's state. */
typedef struct {
    size_t n, next, *perm;
    gsl_rng *rng;
    const uint8_t *visited;
} urandom_state;

static int ur_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    urandom_state *u = st;
    u->n = cutune_space_size(ctx->space);
    u->perm = malloc(u->n * sizeof *u->perm);
    if (!u->perm)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t i = 0; i < u->n; i++)
        u->perm[i] = i;
    u->rng = ctx->rng;
    u->visited = ctx->visited;
    return 0;
}

static int ur_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    urandom_state *u = st;
    *n = 0;
    while (*n < k && u->next < u->n) {
        size_t j = u->next + gsl_rng_uniform_int(u->rng, u->n - u->next);
        size_t t = u->perm[j];
        u->perm[j] = u->perm[u->next];
        u->perm[u->next++] = t;
        if (!u->visited[t])
            out[(*n)++] = t;
    }
    return 0;
}

static void ur_free(void *st)
{
    free(((urandom_state *)st)->perm);
}

static const cutune_searcher_type urandom_type = {.version = CUTUNE_SEARCHER_TYPE_VERSION,
                                                  .name = "random",
                                                  .help = "uniform baseline",
                                                  .size = sizeof(urandom_state),
                                                  .alloc = ur_alloc,
                                                  .propose = ur_propose,
                                                  .free = ur_free};

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *sorted, size_t n, double p)
{
    double h = (n - 1) * p;
    size_t lo = (size_t)floor(h), hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

static unsigned long seed0 = 1000; /* first seed (--seed0) */

static int each; /* --each: one run per budget instead of checkpoints */

static int want_runs;             /* --runs: also write runs.csv (one row per run and budget) */
static const char *searcher_full; /* --searcher as given, options included */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* A recording's name: its file name without the directory and ".json[.gz]". */
static void recording_name(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", base_name(path));
    char *dot = strstr(out, ".json");
    if (dot)
        *dot = '\0';
}

/* Child: all seeds of one recording for bo and random; writes lines to outpath:
 * "searcher budget mean p5 p95 hit_rate secs_per_run se" */
static int bench_file(const char *path, const char *sname, const char *sargs, size_t seeds,
                      const budgets_t *bs, const char *outpath)
{
    char err[1024], runs_path[600] = ""; /* runs_path: set while this child's rows exist */
    FILE *f = NULL, *runs_f = NULL;      /* closed on every path out */
    cutune_recording *r = NULL;
    cutune_space *sp = NULL;
    double *table = NULL;
    int rc = cutune_recording_load(path, &r, err, sizeof err);
    if (rc < 0)
        goto fail;
    rc = cutune_recording_space(r, NULL, 0, 1, &sp, err, sizeof err);
    if (rc < 0)
        goto fail;
    size_t N = cutune_space_size(sp);
    table = malloc(N * sizeof *table);
    rc = cutune_recording_table(r, sp, table, err, sizeof err);
    if (rc < 0)
        goto fail;
    double topt = INFINITY;
    size_t nok = 0;
    for (size_t i = 0; i < N; i++)
        if (isfinite(table[i])) {
            nok++;
            if (table[i] < topt)
                topt = table[i];
        }
    if (!(f = fopen(outpath, "w"))) {
        rc = cutune_err(err, sizeof err, CUTUNE_EIO, "cannot write %s", outpath);
        goto fail;
    }
    char rec_name[256];
    recording_name(path, rec_name, sizeof rec_name);
    if (want_runs)
        snprintf(runs_path, sizeof runs_path, "%s.runs", outpath);
    if (want_runs && !(runs_f = fopen(runs_path, "w"))) {
        rc = cutune_err(err, sizeof err, CUTUNE_EIO, "cannot write %s", runs_path);
        goto fail;
    }
    fprintf(f, "# %zu %zu %zu\n", N, nok, cutune_space_nparams(sp));
    const char *names[2] = {sname, "random"};
    const char *argv2[2] = {sargs, NULL};
    for (int which = 0; which < 2; which++) {
        const cutune_searcher_type *t =
            which ? &urandom_type : cutune_searcher_find(names[which], err, sizeof err);
        if (!t) {
            rc = -1;
            goto fail;
        }
        /* lead[b]: the budget whose run serves budget b under --each (the largest with
         * the same plan; the plan does not depend on the seed, so it is asked once) */
        size_t lead[MAXB];
        if (each && (rc = cutune_searcher_plan_leads(t, sp, argv2[which], bs->budgets, bs->nb, lead,
                                                     err, sizeof err)) < 0)
            goto fail;
        double *fr = malloc(seeds * bs->nb * sizeof *fr), tot = 0;
        for (size_t sd = 0; sd < seeds; sd++) {
            double secs;
            if (each) {
                /* a run of each budget that leads its plan, as `cutune --budget=B` makes
                 * it (bo plans by its budget), read at every budget it serves; the time
                 * reported is the largest budget's run */
                for (size_t b = 0; b < bs->nb && rc >= 0; b++) {
                    if (lead[b] != b)
                        continue;
                    budgets_t grp = {0};
                    double got[MAXB];
                    for (size_t c = 0; c < bs->nb; c++)
                        if (lead[c] == b)
                            grp.budgets[grp.nb++] = bs->budgets[c];
                    rc = run_one(sp, table, topt, t, argv2[which], seed0 + sd, &grp, got, &secs,
                                 err, sizeof err);
                    for (size_t c = 0, k = 0; c < bs->nb && rc >= 0; c++)
                        if (lead[c] == b)
                            fr[sd * bs->nb + c] = got[k++];
                }
            } else
                rc = run_one(sp, table, topt, t, argv2[which], seed0 + sd, bs, fr + sd * bs->nb,
                             &secs, err, sizeof err);
            if (rc < 0) {
                free(fr);
                goto fail;
            }
            tot += secs;
        }
        if (runs_f) /* --runs: every run's fraction, for paired or bootstrap comparisons */
            for (size_t sd = 0; sd < seeds; sd++)
                for (size_t b = 0; b < bs->nb; b++) {
                    cutune_csv_text(runs_f, rec_name, 0);
                    fputc(',', runs_f);
                    cutune_csv_text(runs_f, which ? "random" : searcher_full, 0);
                    fprintf(runs_f, ",%lu,%zu,%.6f\n", seed0 + sd, bs->budgets[b],
                            fr[sd * bs->nb + b]);
                }
        for (size_t b = 0; b < bs->nb; b++) {
            double *col = malloc(seeds * sizeof *col), mean = 0, hit = 0, ss = 0;
            for (size_t sd = 0; sd < seeds; sd++) {
                col[sd] = fr[sd * bs->nb + b];
                mean += col[sd];
                hit += col[sd] >= 1.0 - 1e-12;
            }
            mean /= (double)seeds;
            for (size_t sd = 0; sd < seeds; sd++)
                ss += (col[sd] - mean) * (col[sd] - mean);
            /* standard error of the mean over seeds: what a difference must exceed */
            double se = seeds > 1 ? sqrt(ss / (double)(seeds - 1) / (double)seeds) : 0.0;
            qsort(col, seeds, sizeof *col, cmp_d);
            fprintf(f, "%s %zu %.6f %.6f %.6f %.4f %.4f %.6f\n", names[which], bs->budgets[b], mean,
                    pct(col, seeds, 0.05), pct(col, seeds, 0.95), hit / seeds, tot / seeds, se);
            free(col);
        }
        free(fr);
    }
    fclose(f);
    f = NULL;
    int runs_bad = runs_f && fclose(runs_f) != 0;
    runs_f = NULL;
    if (runs_bad) {
        rc = cutune_err(err, sizeof err, CUTUNE_EIO, "cannot write %s", runs_path);
        goto fail;
    }
    free(table);
    cutune_space_free(sp);
    cutune_recording_free(r);
    return 0;
fail:
    fprintf(stderr, "%s: %s\n", path, err);
    if (f)
        fclose(f);
    if (runs_f)
        fclose(runs_f);
    if (runs_path[0]) /* a failed recording's rows would look like a finished run's */
        remove(runs_path);
    free(table);
    cutune_space_free(sp);
    cutune_recording_free(r);
    return 1;
}

int main(int argc, char **argv)
{
    size_t seeds = 50, jobs = 2;
    const char *searcher = "bo", *outdir = ".";
    budgets_t bs = {5, {20, 40, 60, 100, 200}};
    const char *files[MAXF];
    size_t nf = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed0") && i + 1 < argc)
            seed0 = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--each"))
            each = 1;
        else if (!strcmp(argv[i], "--runs"))
            want_runs = 1;
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--searcher") && i + 1 < argc)
            searcher = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "--budgets") && i + 1 < argc) {
            bs.nb = 0;
            for (char *tok = strtok(argv[++i], ","); tok; tok = strtok(NULL, ",")) {
                char *end;
                errno = 0;
                unsigned long v = strtoul(tok, &end, 10);
                if (bs.nb == MAXB || *end || end == tok || v == 0 ||
                    !isdigit((unsigned char)tok[0]) || errno == ERANGE ||
                    (bs.nb && v <= bs.budgets[bs.nb - 1])) {
                    fprintf(stderr,
                            "bench_convergence: --budgets: '%s' is not a budget above the one "
                            "before it (at most %d, ascending)\n",
                            tok, MAXB);
                    return 2;
                }
                bs.budgets[bs.nb++] = v;
            }
        } else if (argv[i][0] == '-') { /* --help or a typo: never taken for a file */
            nf = 0;
            break;
        } else if (nf < MAXF)
            files[nf++] = argv[i];
        else {
            fprintf(stderr, "bench_convergence: more than %d files\n", MAXF);
            return 2;
        }
    }
    if (!nf || !seeds || !bs.nb) {
        fprintf(stderr,
                "usage: bench_convergence [--seeds N] [--seed0 S] [--jobs J] [--searcher S[:ARGS]] "
                "[--out DIR] [--budgets a,b,...] [--each] [--runs] FILE...\n");
        return 2;
    }
    /* the output directory must take the results: find out now, not after the run */
    {
        char probe[1024];
        if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "bench_convergence: cannot create --out %s: %s\n", outdir,
                    strerror(errno));
            return 2;
        }
        snprintf(probe, sizeof probe, "%s/convergence.csv", outdir);
        FILE *pf = fopen(probe, "a");
        if (!pf) {
            fprintf(stderr, "bench_convergence: cannot write %s: %s\n", probe, strerror(errno));
            return 2;
        }
        fclose(pf);
    }
    searcher_full = searcher;
    char sname[64], *sargs = NULL;
    snprintf(sname, sizeof sname, "%s", searcher);
    char *colon = strchr(sname, ':');
    if (colon) {
        *colon = '\0';
        sargs = strdup(strchr(searcher, ':') + 1);
    }
    char tmp[MAXF][512];
    size_t running = 0;
    int failed = 0;
    for (size_t i = 0; i < nf; i++) {
        snprintf(tmp[i], sizeof tmp[i], "%s/.conv_%d_%zu.txt", outdir, (int)getpid(), i);
        if (running == jobs) {
            int st;
            wait(&st);
            failed |= !WIFEXITED(st) || WEXITSTATUS(st);
            running--;
        }
        if (jobs == 0) { /* in-process (debugging) */
            failed |= bench_file(files[i], sname, sargs, seeds, &bs, tmp[i]);
            continue;
        }
        pid_t pid = fork();
        if (pid == 0)
            _exit(bench_file(files[i], sname, sargs, seeds, &bs, tmp[i]));
        running++;
    }
    while (jobs && running) {
        int st;
        wait(&st);
        failed |= !WIFEXITED(st) || WEXITSTATUS(st);
        running--;
    }
    char p[1024];
    snprintf(p, sizeof p, "%s/convergence.csv", outdir);
    FILE *csv = fopen(p, "w");
    snprintf(p, sizeof p, "%s/convergence.json", outdir);
    FILE *js = fopen(p, "w");
    snprintf(p, sizeof p, "%s/convergence.md", outdir);
    FILE *md = fopen(p, "w");
    if (!csv || !js || !md) {
        fprintf(stderr, "bench_convergence: cannot write the results under %s: %s\n", outdir,
                strerror(errno));
        return 1;
    }
    fprintf(csv,
            "recording,configs,valid,params,searcher,budget,mean,p5,p95,hit_rate,sec_per_run,se\n");
    fprintf(js, "{\"searcher\": \"%s\", \"seeds\": %zu, \"recordings\": [", searcher, seeds);
    fprintf(md,
            "Fraction of optimum (t_opt / t_best), mean [p5, p95] over %zu seeds (the searcher's "
            "mean +- its standard error over the seeds); "
            "`%s` vs `random`. Space = recorded configurations.\n\n| recording | N | ",
            seeds, searcher);
    for (size_t b = 0; b < bs.nb; b++)
        fprintf(md, "B=%zu %s | B=%zu random | ", bs.budgets[b], sname, bs.budgets[b]);
    fprintf(md, "s/run |\n|---|---|");
    for (size_t b = 0; b < bs.nb; b++)
        fprintf(md, "---|---|");
    fprintf(md, "---|\n");
    for (size_t i = 0; i < nf; i++) {
        FILE *f = fopen(tmp[i], "r");
        if (!f)
            continue;
        size_t N = 0, nok = 0, np = 0;
        if (fscanf(f, "# %zu %zu %zu\n", &N, &nok, &np) != 3) {
            fclose(f);
            continue;
        }
        char nm[64];
        size_t bud;
        double mean, p5, p95, hit, sec, se, vals[2][MAXB][4], secs[2] = {0, 0};
        char bname[256];
        recording_name(files[i], bname, sizeof bname);
        fprintf(js, "%s\n {\"recording\": \"%s\", \"configs\": %zu, \"valid\": %zu, \"results\": [",
                i ? "," : "", bname, N, nok);
        int first = 1;
        while (fscanf(f, "%63s %zu %lf %lf %lf %lf %lf %lf\n", nm, &bud, &mean, &p5, &p95, &hit,
                      &sec, &se) == 8) {
            int w = strcmp(nm, "random") == 0;
            for (size_t b = 0; b < bs.nb; b++)
                if (bs.budgets[b] == bud) {
                    vals[w][b][0] = mean;
                    vals[w][b][1] = p5;
                    vals[w][b][2] = p95;
                    vals[w][b][3] = se;
                }
            secs[w] = sec;
            fprintf(csv, "%s,%zu,%zu,%zu,", bname, N, nok, np);
            /* quoted when needed: options may hold commas (bo:starts=10,local=0.25) */
            cutune_csv_text(csv, w ? "random" : searcher, 0);
            fprintf(csv, ",%zu,%.4f,%.4f,%.4f,%.3f,%.3f,%.4f\n", bud, mean, p5, p95, hit, sec, se);
            fprintf(js,
                    "%s{\"searcher\": \"%s\", \"budget\": %zu, \"mean\": %.4f, \"p5\": %.4f, "
                    "\"p95\": %.4f, \"hit_rate\": %.3f, \"sec_per_run\": %.3f, \"se\": %.4f}",
                    first ? "" : ", ", w ? "random" : searcher, bud, mean, p5, p95, hit, sec, se);
            first = 0;
        }
        fprintf(js, "]}");
        fprintf(md, "| %s | %zu | ", bname, N);
        for (size_t b = 0; b < bs.nb; b++)
            fprintf(md, "%s%.3f%s +-%.3f [%.2f, %.2f] | %.3f [%.2f, %.2f] | ",
                    vals[0][b][0] > vals[1][b][0] ? "**" : "", vals[0][b][0],
                    vals[0][b][0] > vals[1][b][0] ? "**" : "", vals[0][b][3], vals[0][b][1],
                    vals[0][b][2], vals[1][b][0], vals[1][b][1], vals[1][b][2]);
        fprintf(md, "%.2f |\n", secs[0]);
        fclose(f);
        remove(tmp[i]);
    }
    fprintf(js, "\n]}\n");
    snprintf(p, sizeof p, "%s/runs.csv", outdir);
    if (want_runs) { /* the children's rows, in the order of the files */
        FILE *rf = fopen(p, "w");
        if (!rf) {
            fprintf(stderr, "bench_convergence: cannot write %s: %s\n", p, strerror(errno));
            failed = 1;
        } else
            fprintf(rf, "recording,searcher,seed,budget,fraction\n");
        for (size_t i = 0; i < nf; i++) {
            char rp[600];
            snprintf(rp, sizeof rp, "%s.runs", tmp[i]);
            FILE *f = fopen(rp, "r");
            if (!f)
                continue;
            char line[512];
            while (rf && fgets(line, sizeof line, f))
                fputs(line, rf);
            fclose(f);
            remove(rp);
        }
        if (rf && fclose(rf) != 0) {
            fprintf(stderr, "bench_convergence: cannot write %s\n", p);
            failed = 1;
        }
    } else
        remove(p); /* an earlier run's rows would not match these results */
    fclose(csv);
    fclose(js);
    fclose(md);
    snprintf(p, sizeof p, "%s/convergence.md", outdir);
    FILE *m = fopen(p, "r");
    int c;
    while ((c = fgetc(m)) != EOF)
        putchar(c);
    fclose(m);
    return failed;
}
