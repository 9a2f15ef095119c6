/* cutune bench: compare searchers offline on recorded spaces.
 *
 * Three phases, each spread over worker threads that take tasks from a shared
 * counter: (1) load every recording and build, per convention, its space and a
 * lookup table id -> (status, time, cost) plus the analytic random baseline;
 * (2) one task per (convention, recording, searcher, seed) replays a run into
 * its own slice of the result arrays; (3) statistics. Every task writes only
 * its own slots, so the results do not depend on the number of threads or on
 * scheduling: same options, same bytes.
 *
 * This file sets a bench up (options, budgets, searchers, recordings sorted by label),
 * runs the phases on its task pool and frees the result. The phases' tasks are in
 * bench_run.c, the statistics in bench_stats.c, the written results in bench_output.c
 * (bench_internal.h lists what they share).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cutune/bench.h"
#include "cutune/recording.h"
#include "cutune/space.h"
#include "bench_internal.h"

/* Where a program links OpenBLAS beside cutune: a bench already runs one run per core,
 * so nested BLAS threads would only oversubscribe. Weak: absent (cutune's own build) is
 * fine. */
extern void openblas_set_num_threads(int) __attribute__((weak));

const char *cutune_bench_convention_name(unsigned conv)
{
    return conv == CUTUNE_BENCH_CARTESIAN  ? "cartesian"
           : conv == CUTUNE_BENCH_RECORDED ? "recorded"
                                           : "constraint-aware";
}

/* ---- a tiny task pool ---- */

typedef int (*task_fn)(void *ctx, size_t task, char *err, size_t errlen);

typedef struct {
    pthread_mutex_t mu;
    size_t next, ntasks, done;
    const size_t *order; /* task order (NULL = 0..ntasks-1) */
    task_fn fn;
    void *ctx;
    int rc;
    char err[1024];
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    char err[1024];
    for (;;) {
        pthread_mutex_lock(&p->mu);
        if (p->rc < 0 || p->next >= p->ntasks) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        size_t task = p->order ? p->order[i] : i;
        err[0] = '\0';
        int rc = p->fn(p->ctx, task, err, sizeof err);
        pthread_mutex_lock(&p->mu);
        if (rc < 0 && p->rc == 0) {
            p->rc = rc;
            snprintf(p->err, sizeof p->err, "%s", err);
        }
        p->done++;
        if (p->progress && rc == 0)
            p->progress(p->progress_ctx, p->done, p->ntasks);
        pthread_mutex_unlock(&p->mu);
    }
}

static int pool_run(unsigned nthreads, size_t ntasks, const size_t *order, task_fn fn, void *ctx,
                    void (*progress)(void *, size_t, size_t), void *progress_ctx, char *err,
                    size_t errlen)
{
    pool p = {.ntasks = ntasks,
              .order = order,
              .fn = fn,
              .ctx = ctx,
              .progress = progress,
              .progress_ctx = progress_ctx};
    pthread_mutex_init(&p.mu, NULL);
    if (nthreads > ntasks)
        nthreads = ntasks ? (unsigned)ntasks : 1;
    pthread_t *th = calloc(nthreads, sizeof *th);
    if (!th) {
        pthread_mutex_destroy(&p.mu);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    unsigned started = 0;
    for (; started < nthreads; started++)
        if (pthread_create(&th[started], NULL, pool_worker, &p) != 0)
            break;
    if (started == 0)
        pool_worker(&p); /* no thread could start: work here */
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    pthread_mutex_destroy(&p.mu);
    if (p.rc < 0)
        return cutune_err(err, errlen, p.rc, "%s", p.err);
    return 0;
}

/* ---- recordings and their labels ---- */

char *bench_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *cutune_bench_recording_label(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = bench_strdup(b);
    if (!s)
        return NULL;
    static const char *const ext[] = {".json.gz", ".jsonl.gz", ".json", ".jsonl", ".gz"};
    size_t n = strlen(s);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t e = strlen(ext[i]);
        if (n > e && strcmp(s + n - e, ext[i]) == 0) {
            s[n - e] = '\0';
            break;
        }
    }
    return s;
}

/* ---- set-up and the whole run ---- */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

typedef struct {
    const char *name;
    size_t src;
} named_index;

static int cmp_named(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return (x->src > y->src) - (x->src < y->src);
}

/* Bigger spaces first (their runs are the slow ones), so that no long run is
 * left alone at the end; ties in job order. */
typedef struct {
    size_t key, job;
} job_key;

static int cmp_job(const void *a, const void *b)
{
    const job_key *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    return (x->job > y->job) - (x->job < y->job);
}

void cutune_bench_result_free(cutune_bench_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->rec && i < r->nrec; i++) {
        free(r->rec[i].path);
        free(r->rec[i].name);
        free(r->rec[i].device);
        free(r->rec[i].kernel);
    }
    free(r->rec);
    free(r->manifest);
    for (size_t i = 0; r->searchers && i < r->nsearchers; i++)
        free(r->searchers[i]);
    for (size_t i = 0; r->searcher_args && i < r->nsearchers; i++)
        free(r->searcher_args[i]);
    free(r->searchers);
    free(r->searcher_args);
    for (size_t i = 0; r->space && i < r->nconv * r->nrec; i++) {
        free(r->space[i].baseline);
        free(r->space[i].rand_frac);
        free(r->space[i].source);
    }
    free(r->p_runs);
    free(r->space);
    free(r->budgets);
    free(r->cells);
    free(r->p_evals);
    free(r->p_time);
    free(r->best);
    free(r->at);
    free(r->curve);
    free(r);
}

const cutune_bench_cell *cutune_bench_result_cell(const cutune_bench_result *r, size_t conv,
                                                  size_t rec, size_t searcher, size_t budget)
{
    if (!r || conv >= r->nconv || rec >= r->nrec || searcher >= r->nsearchers ||
        budget >= r->nbudgets)
        return NULL;
    return &r->cells[((conv * r->nrec + rec) * r->nsearchers + searcher) * r->nbudgets + budget];
}

static int check_options(const cutune_bench_options *o, char *err, size_t errlen)
{
    if (!o || o->nsearchers == 0 || !o->searchers)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no searcher given");
    for (size_t i = 0; i < o->nsearchers; i++)
        if (!o->searchers[i])
            return cutune_err(err, errlen, CUTUNE_EINVAL, "searcher %zu is NULL", i);
    if (o->nrecordings == 0 || !o->recordings)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording given");
    if (o->nbudgets == 0 || !o->budgets)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no budget given");
    for (size_t i = 0; i < o->nbudgets; i++)
        if (o->budgets[i] == 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "budgets must be > 0");
    if (o->nseeds == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "seeds must be > 0");
    if (!(o->conventions &
          (CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN | CUTUNE_BENCH_RECORDED)))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no convention selected");
    /* The per-run tables (best-so-far over the largest budget, each budget's result, its
     * charge and place in the queue) are allocated before the first run: counted here in a
     * double, which cannot wrap as njobs * maxb in a size_t can, and refused above the
     * machine's memory instead of failing (or, wrapped, overflowing) in calloc. */
    unsigned nconv = !!(o->conventions & CUTUNE_BENCH_CONSTRAINT_AWARE) +
                     !!(o->conventions & CUTUNE_BENCH_CARTESIAN) +
                     !!(o->conventions & CUTUNE_BENCH_RECORDED);
    size_t maxb = 0;
    for (size_t i = 0; i < o->nbudgets; i++)
        maxb = o->budgets[i] > maxb ? o->budgets[i] : maxb;
    double runs =
        (double)nconv * (double)o->nrecordings * (double)o->nsearchers * (double)o->nseeds;
    double per_run =
        (double)maxb * sizeof(double) +
        (double)o->nbudgets * (2 * sizeof(double) + 2 * sizeof(size_t) + sizeof(job_key)) +
        4 * sizeof(double);
    double bytes = runs * per_run + (double)o->nseeds * sizeof(double);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double mem = pages > 0 && page > 0 ? (double)pages * (double)page : 1099511627776.0;
    if (bytes > mem)
        return cutune_err(
            err, errlen, CUTUNE_EINVAL,
            "the result tables of %.0f runs (%zu seeds x %zu searchers x %zu recordings x "
            "%u conventions, up to %zu evaluations each) would take %.3g GiB, more "
            "than the %.3g GiB of memory here (give fewer seeds, budgets or "
            "recordings)",
            runs, o->nseeds, o->nsearchers, o->nrecordings, nconv, maxb, bytes / 1073741824.0,
            mem / 1073741824.0);
    return 0;
}

int cutune_bench_check(const cutune_bench_options *opt, char *err, size_t errlen)
{
    return check_options(opt, err, errlen);
}

int cutune_bench_run(const cutune_bench_options *opt, cutune_bench_result **out, char *err,
                     size_t errlen)
{
    cutune_bench_result *res = NULL;
    bench_ctx b = {.opt = opt};
    size_t *rec_src = NULL;
    named_index *names = NULL;
    job_key *keys = NULL;
    size_t *order = NULL;
    double *frac = NULL;
    size_t ntab = 0, nrecs = 0;
    int rc;

    *out = NULL;
    rc = check_options(opt, err, errlen);
    if (rc < 0)
        return rc;
    gsl_set_error_handler_off();
    if (openblas_set_num_threads)
        openblas_set_num_threads(1);
    unsigned jobs = opt->jobs;
    if (jobs == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = c > 0 ? (unsigned)c : 1;
    }

    res = calloc(1, sizeof *res);
    if (!res)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    if (opt->conventions & CUTUNE_BENCH_CONSTRAINT_AWARE)
        res->conv[res->nconv++] = CUTUNE_BENCH_CONSTRAINT_AWARE;
    if (opt->conventions & CUTUNE_BENCH_CARTESIAN)
        res->conv[res->nconv++] = CUTUNE_BENCH_CARTESIAN;
    if (opt->conventions & CUTUNE_BENCH_RECORDED)
        res->conv[res->nconv++] = CUTUNE_BENCH_RECORDED;
    res->split = opt->split;
    res->nrec = opt->nrecordings;
    res->nsearchers = opt->nsearchers;
    res->nseeds = opt->nseeds;

    /* budgets: sorted, unique */
    res->budgets = malloc(opt->nbudgets * sizeof *res->budgets);
    if (!res->budgets)
        goto out_nomem;
    memcpy(res->budgets, opt->budgets, opt->nbudgets * sizeof *res->budgets);
    qsort(res->budgets, opt->nbudgets, sizeof *res->budgets, cmp_size);
    for (size_t i = 0; i < opt->nbudgets; i++)
        if (res->nbudgets == 0 || res->budgets[res->nbudgets - 1] != res->budgets[i])
            res->budgets[res->nbudgets++] = res->budgets[i];
    res->maxb = res->budgets[res->nbudgets - 1];

    res->searchers = calloc(res->nsearchers, sizeof *res->searchers);
    res->searcher_args = calloc(res->nsearchers, sizeof *res->searcher_args);
    if (!res->searchers || !res->searcher_args)
        goto out_nomem;
    for (size_t i = 0; i < res->nsearchers; i++) {
        const char *label = opt->searcher_labels && opt->searcher_labels[i]
                                ? opt->searcher_labels[i]
                                : opt->searchers[i]->name;
        res->searchers[i] = bench_strdup(label);
        if (!res->searchers[i])
            goto out_nomem;
        if (opt->searcher_args && opt->searcher_args[i] && *opt->searcher_args[i]) {
            res->searcher_args[i] = bench_strdup(opt->searcher_args[i]);
            if (!res->searcher_args[i])
                goto out_nomem;
        }
    }

    /* recordings sorted by label: the output order does not depend on the
     * order of the command line or of readdir */
    res->rec = calloc(res->nrec, sizeof *res->rec);
    names = calloc(res->nrec, sizeof *names);
    rec_src = calloc(res->nrec, sizeof *rec_src);
    if (!res->rec || !names || !rec_src)
        goto out_nomem;
    for (size_t i = 0; i < res->nrec; i++) {
        res->rec[i].path = bench_strdup(opt->recordings[i]);
        res->rec[i].name = cutune_bench_recording_label(opt->recordings[i]);
        if (!res->rec[i].path || !res->rec[i].name)
            goto out_nomem;
    }
    for (size_t i = 0; i < res->nrec; i++)
        names[i] = (named_index){res->rec[i].name, i};
    qsort(names, res->nrec, sizeof *names, cmp_named);
    /* a recording is named by its file name in every table, plot and --reproduce: two of
     * one name would be taken for each other */
    for (size_t i = 1; i < res->nrec; i++)
        if (strcmp(names[i].name, names[i - 1].name) == 0) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "%s and %s are both named %s in the results: give each "
                            "recording its own file name",
                            opt->recordings[names[i - 1].src], opt->recordings[names[i].src],
                            names[i].name);
            goto out_free;
        }
    {
        cutune_bench_recording_info *sorted = calloc(res->nrec, sizeof *sorted);
        if (!sorted)
            goto out_nomem;
        for (size_t i = 0; i < res->nrec; i++) {
            rec_src[i] = names[i].src;
            sorted[i] = res->rec[names[i].src];
        }
        free(res->rec);
        res->rec = sorted;
    }

    size_t nspaces = res->nconv * res->nrec;
    size_t njobs = bench_job_count(res);
    size_t ncells = nspaces * res->nsearchers;
    res->space = calloc(nspaces, sizeof *res->space);
    res->cells = calloc(ncells * res->nbudgets, sizeof *res->cells);
    res->p_evals = calloc(ncells, sizeof *res->p_evals);
    res->p_time = calloc(ncells, sizeof *res->p_time);
    res->best = calloc(njobs * res->maxb, sizeof *res->best);
    res->at = calloc(njobs * res->nbudgets, sizeof *res->at);
    res->curve = calloc(ncells * 3 * res->maxb, sizeof *res->curve);
    res->p_runs = calloc(njobs * 2, sizeof *res->p_runs);
    b.tab = calloc(nspaces, sizeof *b.tab);
    ntab = b.tab ? nspaces : 0;
    b.recs = calloc(res->nrec, sizeof *b.recs);
    nrecs = b.recs ? res->nrec : 0;
    b.charged = calloc(njobs * res->nbudgets, sizeof *b.charged);
    b.lead = calloc(ncells * res->nbudgets, sizeof *b.lead);
    b.pe = calloc(njobs, sizeof *b.pe);
    b.pt = calloc(njobs, sizeof *b.pt);
    keys = calloc(njobs * res->nbudgets, sizeof *keys);
    order = calloc(njobs * res->nbudgets, sizeof *order);
    frac = calloc(res->nseeds, sizeof *frac);
    if (!res->space || !res->cells || !res->p_evals || !res->p_time || !res->best || !res->at ||
        !res->curve || !res->p_runs || !b.tab || !b.recs || !b.charged || !b.lead || !b.pe ||
        !b.pt || !keys || !order || !frac)
        goto out_nomem;
    b.res = res;
    b.rec_src = rec_src;

    rc = pool_run(jobs, res->nrec, NULL, bench_load_task, &b, NULL, NULL, err, errlen);
    if (rc < 0)
        goto out_free;
    if (opt->loaded)
        opt->loaded(opt->loaded_ctx, (const cutune_recording *const *)b.recs, res->nrec);

    if ((rc = bench_plan_groups(&b, err, errlen)) < 0)
        goto out_free;
    /* the runs to make: a budget that leads its plan, for every (convention, recording,
     * searcher, seed); bigger spaces, then larger budgets first, so the long runs start
     * early */
    size_t nall = 0;
    for (size_t j = 0; j < njobs * res->nbudgets; j++) {
        size_t run = j % njobs, bi = j / njobs;
        if (b.lead[run / res->nseeds * res->nbudgets + bi] != bi)
            continue;
        size_t sp = run / (res->nseeds * res->nsearchers);
        keys[nall++] = (job_key){res->space[sp].size * res->nbudgets + bi, j};
    }
    qsort(keys, nall, sizeof *keys, cmp_job);
    for (size_t j = 0; j < nall; j++)
        order[j] = keys[j].job;
    rc = pool_run(jobs, nall, order, bench_run_task, &b, opt->progress, opt->progress_ctx, err,
                  errlen);
    if (rc < 0)
        goto out_free;
    bench_compute_stats(&b, frac);
    *out = res;
    res = NULL;
    rc = 0;
    goto out_free;
out_nomem:
    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
out_free:
    if (b.tab) {
        for (size_t i = 0; i < ntab; i++) {
            cutune_space_free(b.tab[i].space);
            free(b.tab[i].status);
            free(b.tab[i].time);
            free(b.tab[i].cost);
        }
        free(b.tab);
    }
    for (size_t i = 0; i < nrecs; i++)
        cutune_recording_free(b.recs[i]);
    free(b.recs);
    free(b.charged);
    free(b.lead);
    free(b.pe);
    free(b.pt);
    free(keys);
    free(order);
    free(frac);
    free(names);
    free(rec_src);
    cutune_bench_result_free(res);
    return rc;
}
