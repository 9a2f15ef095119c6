/* cutune bench: compare searchers offline on recorded spaces.
 *
 * Three phases, each spread over worker threads that take tasks from a shared
 * counter: (1) load every recording and build, per convention, its space and a
 * lookup table id -> (status, time, cost) plus the analytic random baseline;
 * (2) one task per (convention, recording, searcher, seed) replays a run into
 * its own slice of the result arrays; (3) statistics. Every task writes only
 * its own slots, so the results do not depend on the number of threads or on
 * scheduling: same options, same bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cutune/bench.h"
#include "cutune/recording.h"
#include "cutune/space.h"
#include "cutune/tuner.h"

extern char **environ;

/* OpenBLAS is linked for the GP; a bench already runs one run per core, so
 * nested BLAS threads would only oversubscribe. Weak: absent is fine. */
extern void openblas_set_num_threads(int) __attribute__((weak));

/* ---- the analytic random baseline ---- */

/* Expected minimum of a size-b sample without replacement (order statistics):
 * P(min is the i-th smallest, 1-based) = C(n-i, b-1) / C(n, b). lgamma keeps
 * the binomials in range for spaces of 10^5 points and more. */
/* lf: lgamma(k + 1) for k = 0..n, or NULL to call lgamma (a table turns the
 * baseline of a 10^5-point space at 200 budgets from seconds into a blink). */
static double expected_min(const double *sorted, size_t n, size_t b, double fail_value,
                           const double *lf)
{
    if (b == 0 || b > n)
        return NAN;
#define LF(k) (lf ? lf[(k)] : lgamma((double)(k) + 1))
    double lden = LF(n) - LF(b) - LF(n - b);
    double e = 0.0;
    for (size_t i = 1; i + b - 1 <= n; i++) {
        size_t m = n - i, k = b - 1;
        double lp = LF(m) - LF(k) - LF(m - k) - lden;
        if (lp < -745.0) /* exp underflows; P only decreases with i */
            break;
        double v = isfinite(sorted[i - 1]) ? sorted[i - 1] : fail_value;
        e += v * exp(lp);
    }
#undef LF
    return e;
}

double cutune_bench_expected_min(const double *sorted, size_t n, size_t b, double fail_value)
{
    return expected_min(sorted, n, b, fail_value, NULL);
}

const char *cutune_bench_convention_name(unsigned conv)
{
    return conv == CUTUNE_BENCH_CARTESIAN ? "cartesian" : "constraint-aware";
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
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
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

/* ---- phase 1: recordings, spaces, tables ---- */

typedef struct {
    cutune_space *space;
    uint8_t *status; /* cutune_status per id */
    double *time;    /* ms; INFINITY when not ok */
    double *cost;    /* simulated ms charged for evaluating id */
    double worst;    /* worst valid time: stands in for a failure where a value is needed */
} bench_table;

typedef struct {
    const cutune_bench_options *opt;
    cutune_bench_result *res;
    const size_t *rec_src;   /* result recording index -> opt->recordings index */
    bench_table *tab;        /* [nconv * nrec] */
    cutune_recording **recs; /* [nrec]; kept: a recorded-only space's filter reads it */
    size_t *charged;         /* [run][budget] evaluations charged by the run of that budget */
    size_t *lead;            /* [conv][rec][searcher][budget]: the budget whose run serves it */
    double *pe, *pt;         /* [run] P of the largest budget's run over evaluations / time */
} bench_ctx;

static char *dupstr(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static char *recording_label(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char *s = dupstr(b);
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int build_table(bench_ctx *b, const cutune_recording *r, size_t ci, size_t ri, char *err,
                       size_t errlen)
{
    cutune_bench_result *res = b->res;
    unsigned conv = res->conv[ci];
    bench_table *t = &b->tab[ci * res->nrec + ri];
    cutune_bench_space_info *info = &res->space[ci * res->nrec + ri];
    long *map = NULL;
    double *sorted = NULL, *lf = NULL;
    int rc = cutune_recording_space(r, NULL, 0, conv == CUTUNE_BENCH_CONSTRAINT_AWARE, &t->space,
                                    err, errlen);
    if (rc < 0)
        return rc;
    size_t n = cutune_space_size(t->space);
    map = malloc(n * sizeof *map);
    t->status = malloc(n);
    t->time = malloc(n * sizeof *t->time);
    t->cost = malloc(n * sizeof *t->cost);
    sorted = malloc(n * sizeof *sorted);
    lf = malloc((n + 1) * sizeof *lf);
    info->baseline = calloc(res->maxb, sizeof *info->baseline);
    if (!map || !t->status || !t->time || !t->cost || !sorted || !lf || !info->baseline) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
        goto out_free;
    }
    rc = cutune_recording_map(r, t->space, map, err, errlen);
    if (rc < 0)
        goto out_free;

    /* A point that fails without a recorded cost is charged the mean recorded
     * compile time: a tuner that does not know the restrictions compiles it
     * before the launch fails. */
    double csum = 0;
    size_t cn = 0;
    for (size_t i = 0; i < r->nrecords; i++)
        if (r->records[i].compile_ms >= 0) {
            csum += r->records[i].compile_ms;
            cn++;
        }
    double fail_cost = cn ? csum / (double)cn : 0.0;

    size_t nok = 0;
    double cost_sum = 0;
    for (size_t id = 0; id < n; id++) {
        const cutune_record *rec = map[id] >= 0 ? &r->records[map[id]] : NULL;
        if (!rec) {
            t->status[id] = CUTUNE_STATUS_MISSING;
            t->time[id] = INFINITY;
            t->cost[id] = fail_cost;
        } else {
            int ok = rec->status == CUTUNE_STATUS_OK && isfinite(rec->time_ms);
            t->status[id] =
                ok ? CUTUNE_STATUS_OK
                   : (rec->status == CUTUNE_STATUS_OK ? CUTUNE_STATUS_RUNTIME_ERROR : rec->status);
            t->time[id] = ok ? rec->time_ms : INFINITY;
            double c = 0;
            if (rec->compile_ms >= 0)
                c += rec->compile_ms;
            else if (!ok)
                c += fail_cost;
            if (rec->bench_ms >= 0)
                c += rec->bench_ms;
            t->cost[id] = c;
        }
        cost_sum += t->cost[id];
        sorted[id] = t->time[id];
        nok += t->status[id] == CUTUNE_STATUS_OK;
    }
    if (nok == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EEMPTY, "%s: no valid configuration (%s)", r->path,
                        cutune_bench_convention_name(conv));
        goto out_free;
    }
    qsort(sorted, n, sizeof *sorted, cmp_double);
    info->size = n;
    info->nok = nok;
    info->t_opt = sorted[0];
    info->t_median = gsl_stats_median_from_sorted_data(sorted, 1, nok);
    info->mean_cost_ms = res->rec[ri].has_costs ? cost_sum / (double)n : 0.0;
    double worst = sorted[nok - 1];
    t->worst = worst;
    for (size_t k = 0; k <= n; k++)
        lf[k] = lgamma((double)k + 1);
    for (size_t k = 1; k <= res->maxb; k++)
        info->baseline[k - 1] = k <= n ? expected_min(sorted, n, k, worst, lf) : sorted[0];
    /* Cutoff (Willemsen et al.): random search is expected to be 95% of the way
     * from the median to the optimum. Past the largest budget it is searched
     * by bisection on the monotone expectation. */
    double target = info->t_opt + 0.05 * (info->t_median - info->t_opt);
    size_t lo = 1, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double e =
            mid <= res->maxb ? info->baseline[mid - 1] : expected_min(sorted, n, mid, worst, lf);
        if (e <= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    info->cutoff = lo;
    info->p_points = lo < res->maxb ? lo : res->maxb;
    if (info->p_points > n)
        info->p_points = n;
    rc = 0;
out_free:
    free(lf);
    free(sorted);
    free(map);
    return rc;
}

static int load_task(void *ctx, size_t ri, char *err, size_t errlen)
{
    bench_ctx *b = ctx;
    cutune_bench_result *res = b->res;
    cutune_recording *r = NULL;
    const char *path = b->opt->recordings[b->rec_src[ri]];
    int rc = cutune_recording_load(path, &r, err, errlen);
    if (rc < 0)
        return rc;
    b->recs[ri] = r;
    cutune_bench_recording_info *ri_ = &res->rec[ri];
    ri_->device = dupstr(r->device_name ? r->device_name : "");
    ri_->kernel = dupstr(r->kernel_name ? r->kernel_name : "");
    ri_->has_costs = r->has_costs;
    if (!ri_->device || !ri_->kernel)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
    for (size_t ci = 0; ci < res->nconv; ci++) {
        rc = build_table(b, r, ci, ri, err, errlen);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---- phase 2: runs ---- */

static size_t job_count(const cutune_bench_result *r)
{
    return r->nconv * r->nrec * r->nsearchers * r->nseeds;
}

/* P of one run over evaluations 1..p_points: mean of (B - F) / (B - opt),
 * skipping points where random search is already at the optimum. */
static double run_p_evals(const cutune_bench_space_info *info, const double *best, double worst)
{
    double sum = 0;
    size_t cnt = 0;
    for (size_t t = 0; t < info->p_points; t++) {
        double bt = info->baseline[t];
        double den = bt - info->t_opt;
        if (!(den > 1e-12 * fabs(info->t_opt)))
            continue;
        double f = isfinite(best[t]) ? best[t] : worst;
        sum += (bt - f) / den;
        cnt++;
    }
    return cnt ? sum / (double)cnt : NAN;
}

/* P over simulated time: CUTUNE_BENCH_TIME_POINTS even points from the mean
 * cost of one evaluation (before it nothing can be known) to the time random
 * search needs for p_points evaluations at that mean cost; the baseline at time
 * tau is the expectation after round(tau / mean cost) evaluations (as the
 * methodology converts time to evaluations). */
static double run_p_time(const cutune_bench_space_info *info, const double *best, const double *cum,
                         size_t charged, double worst)
{
    double cbar = info->mean_cost_ms;
    if (!(cbar > 0))
        return NAN;
    double tmax = (double)info->p_points * cbar;
    double sum = 0;
    size_t cnt = 0, e = 0;
    for (int j = 0; j < CUTUNE_BENCH_TIME_POINTS; j++) {
        double tau = cbar + (tmax - cbar) * j / (CUTUNE_BENCH_TIME_POINTS - 1);
        size_t m = (size_t)llround(tau / cbar);
        if (m < 1)
            m = 1;
        if (m > info->p_points)
            m = info->p_points;
        double bt = info->baseline[m - 1];
        double den = bt - info->t_opt;
        /* a small relative slack: cumulative sums of costs round */
        while (e < charged && cum[e] <= tau * (1 + 1e-12))
            e++;
        if (!(den > 1e-12 * fabs(info->t_opt)))
            continue;
        double f = e > 0 && isfinite(best[e - 1]) ? best[e - 1] : worst;
        sum += (bt - f) / den;
        cnt++;
    }
    return cnt ? sum / (double)cnt : NAN;
}

/* Which run serves each budget: the run of the largest budget with the same plan
 * (cutune_searcher_type.plan; without one every budget is its own), so that a searcher
 * whose proposals do not depend on the budget is not run again for every budget. */
static int plan_groups(bench_ctx *b, char *err, size_t errlen)
{
    cutune_bench_result *res = b->res;
    size_t nb = res->nbudgets;
    if (b->opt->parallel > 1) {
        /* completions come in another order at another budget: no run serves two */
        size_t ncells = res->nconv * res->nrec * res->nsearchers;
        for (size_t c = 0; c < ncells; c++)
            for (size_t bi = 0; bi < nb; bi++)
                b->lead[c * nb + bi] = bi;
        return 0;
    }
    for (size_t ci = 0; ci < res->nconv; ci++)
        for (size_t ri = 0; ri < res->nrec; ri++)
            for (size_t si = 0; si < res->nsearchers; si++) {
                char msg[512];
                size_t *lead = b->lead + ((ci * res->nrec + ri) * res->nsearchers + si) * nb;
                int rc = cutune_searcher_plan_leads(
                    b->opt->searchers[si], b->tab[ci * res->nrec + ri].space,
                    res->searcher_args[si], res->budgets, nb, lead, msg, sizeof msg);
                if (rc < 0)
                    return cutune_err(err, errlen, rc, "searcher %s on %s (%s): %s",
                                      res->searchers[si], res->rec[ri].name,
                                      cutune_bench_convention_name(res->conv[ci]), msg);
            }
    return 0;
}

/* The table as an evaluator for the tuner loop (parallel runs): status and time of each
 * id, its recorded cost as the compile time, played on the loop's virtual clock. */
typedef struct {
    const bench_table *t;
    int has_costs;
} table_eval;

static int table_evaluate(void *state, const size_t *ids, size_t k, cutune_eval_result *res,
                          char *err, size_t errlen)
{
    const table_eval *te = state;
    for (size_t i = 0; i < k; i++) {
        size_t id = ids[i];
        res[i].status = (cutune_status)te->t->status[id];
        res[i].time_ms = isfinite(te->t->time[id]) ? te->t->time[id] : NAN;
        res[i].compile_ms = te->has_costs ? te->t->cost[id] : -1;
        res[i].bench_ms = te->has_costs ? 0 : -1;
    }
    return 0;
}

static const cutune_evaluator_type table_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "bench-table",
    .help = "a recording's table, in memory",
    .size = sizeof(table_eval),
    .flags = CUTUNE_EVALUATOR_SIMULATED,
    .evaluate = table_evaluate,
};

/* One run through the tuner loop with parallel evaluations: best[k] and cum[k] after the
 * k+1-th completion; *charged gets the evaluations made. */
static int run_parallel(bench_ctx *b, const bench_table *t, int has_costs, cutune_searcher *s,
                        uint8_t *visited, size_t maxb, double *best, double *cum, size_t *charged,
                        char *err, size_t errlen)
{
    table_eval te = {t, has_costs};
    cutune_evaluator ev = {.type = &table_type, .state = &te};
    cutune_tuner_options opt = {.budget = maxb,
                                .batch = 1,
                                .parallel = b->opt->parallel,
                                .charge_recorded_time = 1,
                                .deterministic_clock = 1};
    cutune_history hist = {.best = -1};
    cutune_stop_reason why;
    int rc = cutune_tune(t->space, NULL, s, visited, &ev, &opt, &hist, &why, err, errlen);
    double cur = INFINITY;
    for (size_t k = 0; rc == 0 && k < hist.n; k++) {
        if (hist.e[k].r.status == CUTUNE_STATUS_OK && hist.e[k].r.time_ms < cur)
            cur = hist.e[k].r.time_ms;
        best[k] = cur;
        cum[k] = hist.e[k].wall_s * 1000.0;
    }
    *charged = rc == 0 ? hist.n : 0;
    cutune_history_free(&hist);
    return rc;
}

/* A job is one run: (budget index, run = convention, recording, searcher, seed), the
 * budget outermost. Every budget is a run of its own, given that budget, as `cutune
 * --budget=B` makes it: a searcher may plan by its budget (bo's early phase does), so a
 * smaller budget is not read off a longer run, unless both have the same plan
 * (plan_groups): the results are those of a run of each budget either way. The largest
 * budget's run also gives the best-so-far curve and P. */
static int run_task(void *ctx, size_t job, char *err, size_t errlen)
{
    bench_ctx *b = ctx;
    cutune_bench_result *res = b->res;
    size_t nruns = job_count(res), run = job % nruns, bi = job / nruns;
    int last = bi + 1 == res->nbudgets;
    /* only budgets that lead their plan are scheduled (cutune_bench_run); this run also
     * serves the smaller budgets of its plan */
    const size_t *lead = b->lead + run / res->nseeds * res->nbudgets;
    size_t seed_i = run % res->nseeds;
    size_t si = run / res->nseeds % res->nsearchers;
    size_t ri = run / (res->nseeds * res->nsearchers) % res->nrec;
    size_t ci = run / (res->nseeds * res->nsearchers * res->nrec);
    const bench_table *t = &b->tab[ci * res->nrec + ri];
    const cutune_bench_space_info *info = &res->space[ci * res->nrec + ri];
    size_t n = info->size, maxb = res->budgets[bi];
    double *best = last ? res->best + run * res->maxb : NULL;
    gsl_rng *rng = NULL;
    uint8_t *visited = NULL;
    double *cum = NULL;
    cutune_searcher *s = NULL;
    char msg[512];
    int rc;

    rng = gsl_rng_alloc(gsl_rng_mt19937);
    visited = calloc(n, 1);
    cum = calloc(last ? maxb : 2 * maxb, sizeof *cum);
    if (cum && !last)
        best = cum + maxb; /* a shorter run's curve is scratch: only its end is kept */
    if (!rng || !visited || !cum) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
        goto out_free;
    }
    gsl_rng_set(rng, (unsigned long)(seed_i + 1));
    cutune_searcher_ctx sctx = {.space = t->space,
                                .budget = maxb,
                                .rng = rng,
                                .visited = visited,
                                .args = res->searcher_args[si]};
    rc = cutune_searcher_alloc(b->opt->searchers[si], &sctx, &s, msg, sizeof msg);
    if (rc < 0) {
        cutune_err(err, errlen, rc, "searcher %s on %s (%s): %s", res->searchers[si],
                   res->rec[ri].name, cutune_bench_convention_name(res->conv[ci]), msg);
        goto out_free;
    }
    size_t charged = 0, dups = 0;
    double cur = INFINITY, spent = 0;
    if (b->opt->parallel > 1) {
        rc = run_parallel(b, t, res->rec[ri].has_costs, s, visited, maxb, best, cum, &charged, msg,
                          sizeof msg);
        if (rc < 0)
            goto out_searcher;
        cur = charged ? best[charged - 1] : INFINITY;
    }
    while (b->opt->parallel <= 1 && charged < maxb) {
        size_t id, got = 0;
        rc = cutune_searcher_propose(s, 1, &id, &got, msg, sizeof msg);
        if (rc < 0)
            goto out_searcher;
        if (got == 0)
            break;
        if (id >= n) {
            rc = cutune_err(msg, sizeof msg, CUTUNE_EINVAL, "proposed id %zu of %zu", id, n);
            goto out_searcher;
        }
        cutune_observation o = {.id = id,
                                .status = (cutune_status)t->status[id],
                                .time_ms = isfinite(t->time[id]) ? t->time[id] : NAN};
        if (visited[id]) {
            /* answered from the history, not charged (as the tuner loop does) */
            if (++dups >= CUTUNE_BENCH_MAX_DUPLICATES)
                break;
        } else {
            dups = 0;
            visited[id] = 1;
            if (t->time[id] < cur)
                cur = t->time[id];
            spent += t->cost[id];
            best[charged] = cur;
            cum[charged] = spent;
            charged++;
        }
        rc = cutune_searcher_observe(s, &o, 1, msg, sizeof msg);
        if (rc < 0)
            goto out_searcher;
    }
    for (size_t k = charged; k < maxb; k++)
        best[k] = cur;
    for (size_t bj = 0; bj <= bi; bj++)
        if (lead[bj] == bi) {
            size_t bud = res->budgets[bj];
            b->charged[run * res->nbudgets + bj] = charged < bud ? charged : bud;
            res->at[run * res->nbudgets + bj] = best[bud - 1];
        }
    if (last) {
        double worst = t->worst;
        b->pe[run] = run_p_evals(info, best, worst);
        b->pt[run] = res->rec[ri].has_costs ? run_p_time(info, best, cum, charged, worst) : NAN;
    }
    rc = 0;
out_searcher:
    if (rc < 0)
        cutune_err(err, errlen, rc, "searcher %s on %s (%s), seed %zu: %s", res->searchers[si],
                   res->rec[ri].name, cutune_bench_convention_name(res->conv[ci]), seed_i + 1, msg);
    cutune_searcher_free(s);
out_free:
    free(cum);
    free(visited);
    gsl_rng_free(rng);
    return rc;
}

/* ---- phase 3: statistics ---- */

/* t_opt / best, 0 when nothing valid was found (best infinite) */
static double fraction_of_optimum(double t_opt, double best)
{
    return isfinite(best) ? t_opt / best : 0.0;
}

static void compute_stats(bench_ctx *b, double *frac)
{
    cutune_bench_result *res = b->res;
    size_t ns = res->nseeds, maxb = res->maxb;
    for (size_t ci = 0; ci < res->nconv; ci++)
        for (size_t ri = 0; ri < res->nrec; ri++) {
            const cutune_bench_space_info *info = &res->space[ci * res->nrec + ri];
            for (size_t si = 0; si < res->nsearchers; si++) {
                size_t cell = (ci * res->nrec + ri) * res->nsearchers + si;
                size_t job0 = cell * ns;
                double pe = 0, pt = 0;
                for (size_t k = 0; k < ns; k++) {
                    pe += b->pe[job0 + k];
                    pt += b->pt[job0 + k];
                }
                res->p_evals[cell] = pe / (double)ns;
                res->p_time[cell] = pt / (double)ns;
                for (size_t t = 0; t < maxb; t++) {
                    for (size_t k = 0; k < ns; k++)
                        frac[k] =
                            fraction_of_optimum(info->t_opt, res->best[(job0 + k) * maxb + t]);
                    gsl_sort(frac, 1, ns);
                    double *c = res->curve + cell * 3 * maxb;
                    c[t] = gsl_stats_median_from_sorted_data(frac, 1, ns);
                    c[maxb + t] = gsl_stats_quantile_from_sorted_data(frac, 1, ns, 0.05);
                    c[2 * maxb + t] = gsl_stats_quantile_from_sorted_data(frac, 1, ns, 0.95);
                }
                for (size_t bi = 0; bi < res->nbudgets; bi++) {
                    cutune_bench_cell *cl = &res->cells[cell * res->nbudgets + bi];
                    double sum = 0, hits = 0, ev = 0;
                    for (size_t k = 0; k < ns; k++) {
                        double v = res->at[(job0 + k) * res->nbudgets + bi];
                        frac[k] = fraction_of_optimum(info->t_opt, v);
                        sum += frac[k];
                        hits += v == info->t_opt;
                        /* at most the budget: the serving run clamps it (run_task) */
                        ev += (double)b->charged[(job0 + k) * res->nbudgets + bi];
                    }
                    gsl_sort(frac, 1, ns);
                    cl->mean = sum / (double)ns;
                    cl->median = gsl_stats_median_from_sorted_data(frac, 1, ns);
                    cl->p05 = gsl_stats_quantile_from_sorted_data(frac, 1, ns, 0.05);
                    cl->p95 = gsl_stats_quantile_from_sorted_data(frac, 1, ns, 0.95);
                    cl->success = hits / (double)ns;
                    cl->evals = ev / (double)ns;
                }
            }
        }
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
    for (size_t i = 0; r->searchers && i < r->nsearchers; i++)
        free(r->searchers[i]);
    for (size_t i = 0; r->searcher_args && i < r->nsearchers; i++)
        free(r->searcher_args[i]);
    free(r->searchers);
    free(r->searcher_args);
    for (size_t i = 0; r->space && i < r->nconv * r->nrec; i++)
        free(r->space[i].baseline);
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
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: no searcher given");
    for (size_t i = 0; i < o->nsearchers; i++)
        if (!o->searchers[i])
            return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: searcher %zu is NULL", i);
    if (o->nrecordings == 0 || !o->recordings)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: no recording given");
    if (o->nbudgets == 0 || !o->budgets)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: no budget given");
    for (size_t i = 0; i < o->nbudgets; i++)
        if (o->budgets[i] == 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: budgets must be > 0");
    if (o->nseeds == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: seeds must be > 0");
    if (!(o->conventions & (CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN)))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bench: no convention selected");
    return 0;
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
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
    if (opt->conventions & CUTUNE_BENCH_CONSTRAINT_AWARE)
        res->conv[res->nconv++] = CUTUNE_BENCH_CONSTRAINT_AWARE;
    if (opt->conventions & CUTUNE_BENCH_CARTESIAN)
        res->conv[res->nconv++] = CUTUNE_BENCH_CARTESIAN;
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
        res->searchers[i] = dupstr(label);
        if (!res->searchers[i])
            goto out_nomem;
        if (opt->searcher_args && opt->searcher_args[i] && *opt->searcher_args[i]) {
            res->searcher_args[i] = dupstr(opt->searcher_args[i]);
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
        res->rec[i].path = dupstr(opt->recordings[i]);
        res->rec[i].name = recording_label(opt->recordings[i]);
        if (!res->rec[i].path || !res->rec[i].name)
            goto out_nomem;
    }
    for (size_t i = 0; i < res->nrec; i++)
        names[i] = (named_index){res->rec[i].name, i};
    qsort(names, res->nrec, sizeof *names, cmp_named);
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
    size_t njobs = job_count(res);
    size_t ncells = nspaces * res->nsearchers;
    res->space = calloc(nspaces, sizeof *res->space);
    res->cells = calloc(ncells * res->nbudgets, sizeof *res->cells);
    res->p_evals = calloc(ncells, sizeof *res->p_evals);
    res->p_time = calloc(ncells, sizeof *res->p_time);
    res->best = calloc(njobs * res->maxb, sizeof *res->best);
    res->at = calloc(njobs * res->nbudgets, sizeof *res->at);
    res->curve = calloc(ncells * 3 * res->maxb, sizeof *res->curve);
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
        !res->curve || !b.tab || !b.recs || !b.charged || !b.lead || !b.pe || !b.pt || !keys ||
        !order || !frac)
        goto out_nomem;
    b.res = res;
    b.rec_src = rec_src;

    rc = pool_run(jobs, res->nrec, NULL, load_task, &b, NULL, NULL, err, errlen);
    if (rc < 0)
        goto out_free;

    if ((rc = plan_groups(&b, err, errlen)) < 0)
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
    rc = pool_run(jobs, nall, order, run_task, &b, opt->progress, opt->progress_ctx, err, errlen);
    if (rc < 0)
        goto out_free;
    compute_stats(&b, frac);
    *out = res;
    res = NULL;
    rc = 0;
    goto out_free;
out_nomem:
    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "bench: out of memory");
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

/* ---- output ---- */

static int mkdir_p(const char *dir, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) < 0 && errno != EEXIST)
                return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot create: %s", buf,
                                  strerror(errno));
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

int cutune_bench_prepare_dir(const char *dir, char *err, size_t errlen)
{
    int rc = mkdir_p(dir, err, errlen);
    if (rc < 0)
        return rc;
    if (access(dir, W_OK) != 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "%s: cannot write here: %s", dir,
                          strerror(errno));
    return 0;
}

/* dir/name, written through a cutune_outfile (a temporary renamed there by close_out);
 * *f is its stream. */
static cutune_outfile *open_out(const char *dir, const char *name, FILE **f, char *err,
                                size_t errlen)
{
    char path[4600];
    cutune_outfile *o = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *f = NULL;
    if (cutune_outfile_open(path, 0, 0644, &o, err, errlen) < 0)
        return NULL;
    if (!(*f = cutune_outfile_stream(o))) {
        cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        cutune_outfile_abort(o);
        return NULL;
    }
    return o;
}

static int close_out(cutune_outfile *o, char *err, size_t errlen)
{
    return cutune_outfile_commit(o, NULL, err, errlen);
}

static const char *conv_rule(unsigned conv)
{
    return conv == CUTUNE_BENCH_CARTESIAN
               ? "every point of the Cartesian product can be proposed and is charged; points "
                 "absent from the recording or recorded as failures are failed evaluations"
               : "only configurations present in the recording can be proposed and charged "
                 "(a tuner that knows the restrictions)";
}

/* P printed as a number, "-" when not defined */
static void fmt_p(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.3f", p);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

/* Mean over recordings (those where v is defined). */
static double mean_over_recs(const cutune_bench_result *r, const double *v, size_t ci, size_t si)
{
    double s = 0;
    size_t n = 0;
    for (size_t ri = 0; ri < r->nrec; ri++) {
        double x = v[(ci * r->nrec + ri) * r->nsearchers + si];
        if (!isnan(x)) {
            s += x;
            n++;
        }
    }
    return n ? s / (double)n : NAN;
}

static void write_md(FILE *f, const cutune_bench_result *r, const char *command)
{
    fprintf(f, "# Searcher comparison on recorded spaces\n\n");
    if (command)
        fprintf(f, "Command: `%s`\n\n", command);
    fprintf(f, "- Searchers:");
    for (size_t si = 0; si < r->nsearchers; si++)
        fprintf(f, " %s%s%s%s", r->searchers[si], r->searcher_args[si] ? " (" : "",
                r->searcher_args[si] ? r->searcher_args[si] : "", r->searcher_args[si] ? ")" : "");
    fprintf(f, "\n- Budgets (unique evaluations):");
    for (size_t bi = 0; bi < r->nbudgets; bi++)
        fprintf(f, " %zu", r->budgets[bi]);
    fprintf(f, "\n- Runs per cell: %zu (seeds 1..%zu, GSL mt19937)\n", r->nseeds, r->nseeds);
    fprintf(f,
            "- Every budget is a run of its own, given that budget (ctx.budget), as `cutune "
            "--budget=B` makes it: a searcher may plan by its budget (bo does). The curves and P "
            "come from the runs of the largest budget (%zu).\n",
            r->maxb);
    fprintf(f,
            "- Re-proposing a configuration already evaluated costs nothing (answered from the "
            "history); a run gives up after %d such proposals in a row.\n",
            CUTUNE_BENCH_MAX_DUPLICATES);
    fprintf(f, "- Fraction of optimum = t_opt / t_best_found (0 when nothing valid was found); "
               "cells read `mean (median; 5th-95th percentile; success rate)`, success = runs "
               "that found the optimum.\n");
    fprintf(f,
            "- P = methodology score (Willemsen et al., FGCS 2024): mean over evaluations "
            "1..min(cutoff, %zu) of (B(t) - F(t)) / (B(t) - t_opt), with B(t) the exact "
            "expected best of random search without replacement (order statistics); 0 = "
            "random, 1 = optimum from the start. Failures rank after every valid time and "
            "count as the worst valid time where a value is needed. P (time) charges the "
            "recorded compile + benchmark time per evaluation (%d even points from one mean "
            "evaluation cost on; baseline at round(time / mean cost) evaluations); `-` where the "
            "recording has no times.\n\n",
            r->maxb, CUTUNE_BENCH_TIME_POINTS);

    char p1[32], p2[32];
    for (size_t ci = 0; ci < r->nconv; ci++) {
        unsigned conv = r->conv[ci];
        fprintf(f, "## Convention: %s\n\n", cutune_bench_convention_name(conv));
        fprintf(f, "Budgets charge: %s.\n\n", conv_rule(conv));
        fprintf(f, "### Mean over %zu recordings (%s)\n\n", r->nrec,
                cutune_bench_convention_name(conv));
        fprintf(f, "| searcher |");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fprintf(f, " B=%zu |", r->budgets[bi]);
        fprintf(f, " P (evals) | P (time) |\n|---|");
        for (size_t bi = 0; bi < r->nbudgets + 2; bi++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (size_t si = 0; si < r->nsearchers; si++) {
            fprintf(f, "| %s |", r->searchers[si]);
            for (size_t bi = 0; bi < r->nbudgets; bi++) {
                double m = 0, sc = 0;
                for (size_t ri = 0; ri < r->nrec; ri++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    m += c->mean;
                    sc += c->success;
                }
                fprintf(f, " %.3f (%.0f%%) |", m / (double)r->nrec, 100.0 * sc / (double)r->nrec);
            }
            fmt_p(p1, sizeof p1, mean_over_recs(r, r->p_evals, ci, si));
            fmt_p(p2, sizeof p2, mean_over_recs(r, r->p_time, ci, si));
            fprintf(f, " %s | %s |\n", p1, p2);
        }
        fprintf(f, "\nCells: mean fraction of optimum (mean success rate).\n\n");

        fprintf(f, "### Per recording (%s)\n\n", cutune_bench_convention_name(conv));
        fprintf(f, "| recording | space (valid) | cutoff | searcher |");
        for (size_t bi = 0; bi < r->nbudgets; bi++)
            fprintf(f, " B=%zu |", r->budgets[bi]);
        fprintf(f, " P (evals) | P (time) |\n|---|---:|---:|---|");
        for (size_t bi = 0; bi < r->nbudgets + 2; bi++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            for (size_t si = 0; si < r->nsearchers; si++) {
                if (si == 0)
                    fprintf(f, "| %s | %zu (%zu) | %zu | %s |", r->rec[ri].name, info->size,
                            info->nok, info->cutoff, r->searchers[si]);
                else
                    fprintf(f, "| | | | %s |", r->searchers[si]);
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    fprintf(f, " %.3f (%.3f; %.3f-%.3f; %.0f%%) |", c->mean, c->median, c->p05,
                            c->p95, 100.0 * c->success);
                }
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                fmt_p(p1, sizeof p1, r->p_evals[cell]);
                fmt_p(p2, sizeof p2, r->p_time[cell]);
                fprintf(f, " %s | %s |\n", p1, p2);
            }
        }
        fprintf(f,
                "\nCutoff: evaluations random search needs (in expectation) to get 95%% of "
                "the way from the median to the optimum; P averages up to min(cutoff, %zu).\n\n",
                r->maxb);
    }
}

static void write_csv(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "convention,recording,device,kernel,space_size,valid,t_opt_ms,searcher,"
               "searcher_args,budget,runs,mean,median,p05,p95,success_rate,evals_mean,"
               "p_evals,p_time\n");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            for (size_t si = 0; si < r->nsearchers; si++) {
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    char p1[32], p2[32];
                    fmt_p(p1, sizeof p1, r->p_evals[cell]);
                    fmt_p(p2, sizeof p2, r->p_time[cell]);
                    fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
                    cutune_csv_text(f, r->rec[ri].name, 0);
                    fputc(',', f);
                    cutune_csv_text(f, r->rec[ri].device, 1);
                    fputc(',', f);
                    cutune_csv_text(f, r->rec[ri].kernel, 1);
                    fprintf(f, ",%zu,%zu,%.6g,", info->size, info->nok, info->t_opt);
                    cutune_csv_text(f, r->searchers[si], 0);
                    fputc(',', f);
                    cutune_csv_text(f, r->searcher_args[si], 1);
                    fprintf(f, ",%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%s,%s\n", r->budgets[bi],
                            r->nseeds, c->mean, c->median, c->p05, c->p95, c->success, c->evals,
                            strcmp(p1, "-") ? p1 : "", strcmp(p2, "-") ? p2 : "");
                }
            }
        }
}

int cutune_bench_write_runs(const cutune_bench_result *r, const char *dir, char *err, size_t errlen)
{
    FILE *f;
    cutune_outfile *o = open_out(dir, "runs.csv", &f, err, errlen);
    if (!o)
        return CUTUNE_EIO;
    fprintf(f, "convention,recording,searcher,searcher_args,seed,budget,best_ms,fraction\n");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            double t_opt = r->space[ci * r->nrec + ri].t_opt;
            for (size_t si = 0; si < r->nsearchers; si++)
                for (size_t k = 0; k < r->nseeds; k++) {
                    /* the best of the run of each budget */
                    const double *at =
                        r->at +
                        (((ci * r->nrec + ri) * r->nsearchers + si) * r->nseeds + k) * r->nbudgets;
                    for (size_t bi = 0; bi < r->nbudgets; bi++) {
                        double b = at[bi];
                        char bt[32] = "";
                        if (isfinite(b))
                            snprintf(bt, sizeof bt, "%.9g", b);
                        fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
                        cutune_csv_text(f, r->rec[ri].name, 0);
                        fputc(',', f);
                        cutune_csv_text(f, r->searchers[si], 0);
                        fputc(',', f);
                        cutune_csv_text(f, r->searcher_args[si], 1);
                        /* the fraction to 6 decimals: 0.99996 is not 1 (success = 1 exactly) */
                        fprintf(f, ",%zu,%zu,%s,%.6f\n", k + 1, r->budgets[bi], bt,
                                fraction_of_optimum(t_opt, b));
                    }
                }
        }
    return close_out(o, err, errlen);
}

static void write_json(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "{\n  \"seeds\": %zu,\n  \"max_budget\": %zu,\n", r->nseeds, r->maxb);
    fprintf(f, "  \"budgets\": [");
    for (size_t bi = 0; bi < r->nbudgets; bi++)
        fprintf(f, "%s%zu", bi ? ", " : "", r->budgets[bi]);
    fprintf(f, "],\n  \"searchers\": [");
    for (size_t si = 0; si < r->nsearchers; si++) {
        fprintf(f, "%s{\"name\": ", si ? ", " : "");
        json_str(f, r->searchers[si]);
        fprintf(f, ", \"args\": ");
        if (r->searcher_args[si])
            json_str(f, r->searcher_args[si]);
        else
            fprintf(f, "null");
        fprintf(f, "}");
    }
    fprintf(f, "],\n  \"conventions\": [\n");
    for (size_t ci = 0; ci < r->nconv; ci++) {
        fprintf(f, "    {\"convention\": \"%s\", \"charges\": ",
                cutune_bench_convention_name(r->conv[ci]));
        json_str(f, conv_rule(r->conv[ci]));
        fprintf(f, ",\n     \"recordings\": [\n");
        for (size_t ri = 0; ri < r->nrec; ri++) {
            const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
            fprintf(f, "      {\"name\": ");
            json_str(f, r->rec[ri].name);
            fprintf(f, ", \"device\": ");
            json_str(f, r->rec[ri].device);
            fprintf(f, ", \"kernel\": ");
            json_str(f, r->rec[ri].kernel);
            fprintf(f, ", \"space_size\": %zu, \"valid\": %zu, \"t_opt_ms\": ", info->size,
                    info->nok);
            json_num(f, info->t_opt);
            fprintf(f, ", \"t_median_ms\": ");
            json_num(f, info->t_median);
            fprintf(f, ", \"cutoff\": %zu, \"p_points\": %zu, \"has_costs\": %s,\n", info->cutoff,
                    info->p_points, r->rec[ri].has_costs ? "true" : "false");
            fprintf(f, "       \"random_baseline_ms\": {");
            for (size_t bi = 0; bi < r->nbudgets; bi++) {
                fprintf(f, "%s\"%zu\": ", bi ? ", " : "", r->budgets[bi]);
                json_num(f, info->baseline[r->budgets[bi] - 1]);
            }
            fprintf(f, "},\n       \"searchers\": [\n");
            for (size_t si = 0; si < r->nsearchers; si++) {
                size_t cell = (ci * r->nrec + ri) * r->nsearchers + si;
                fprintf(f, "        {\"searcher\": ");
                json_str(f, r->searchers[si]);
                fprintf(f, ", \"p_evals\": ");
                json_num(f, r->p_evals[cell]);
                fprintf(f, ", \"p_time\": ");
                json_num(f, r->p_time[cell]);
                fprintf(f, ", \"budgets\": [");
                for (size_t bi = 0; bi < r->nbudgets; bi++) {
                    const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                    fprintf(f,
                            "%s\n          {\"budget\": %zu, \"mean\": %.6g, \"median\": %.6g, "
                            "\"p05\": %.6g, \"p95\": %.6g, \"success_rate\": %.6g, "
                            "\"evals_mean\": %.6g}",
                            bi ? "," : "", r->budgets[bi], c->mean, c->median, c->p05, c->p95,
                            c->success, c->evals);
                }
                fprintf(f, "]}%s\n", si + 1 < r->nsearchers ? "," : "");
            }
            fprintf(f, "       ]}%s\n", ri + 1 < r->nrec ? "," : "");
        }
        fprintf(f, "     ]}%s\n", ci + 1 < r->nconv ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/* s inside a single-quoted gnuplot string (in_quotes) or a comment line: gnuplot runs
 * `commands` in double-quoted strings, and a line break ends a command, so recording
 * names, devices and kernels (from the files read) go only in single quotes, a quote
 * doubled, control characters as '?'. */
static void gp_text(FILE *f, const char *s, int in_quotes)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            fputc('?', f);
        else if (c == '\'' && in_quotes)
            fputs("''", f);
        else
            fputc(c, f);
    }
}

/* Plot data (one file per convention x recording: t, then median/p05/p95 per
 * searcher) and one gnuplot script drawing all of them. */
static int write_plots(const cutune_bench_result *r, const char *dir, char *err, size_t errlen)
{
    char pdir[4096];
    snprintf(pdir, sizeof pdir, "%s/plots", dir);
    int rc = mkdir_p(pdir, err, errlen);
    if (rc < 0)
        return rc;
    FILE *gp;
    cutune_outfile *gpo = open_out(dir, "plots.gp", &gp, err, errlen);
    if (!gpo)
        return CUTUNE_EIO;
    fprintf(gp,
            "# Convergence plots of cutune bench: best-so-far fraction of optimum against\n"
            "# evaluations, median and 5-95%% band over %zu seeds per searcher.\n"
            "# Run from the results folder: gnuplot plots.gp\n",
            r->nseeds);
    fprintf(gp,
            "set key bottom right\nset grid\nset xlabel 'evaluations'\n"
            "set ylabel 'fraction of optimum (t_{opt} / t_{best})'\n"
            "set yrange [0:1.02]\nset xrange [1:%zu]\nset style fill transparent solid 0.18 "
            "noborder\n",
            r->maxb);
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t ri = 0; ri < r->nrec; ri++) {
            char base[512];
            snprintf(base, sizeof base, "%s_%s", cutune_bench_convention_name(r->conv[ci]),
                     r->rec[ri].name);
            char dname[600];
            snprintf(dname, sizeof dname, "plots/%s.dat", base);
            FILE *f;
            cutune_outfile *o = open_out(dir, dname, &f, err, errlen);
            if (!o) {
                cutune_outfile_abort(gpo);
                return CUTUNE_EIO;
            }
            fputs("# ", f);
            gp_text(f, r->rec[ri].name, 0);
            fprintf(f, ", %s convention: t then (median p05 p95) per searcher:",
                    cutune_bench_convention_name(r->conv[ci]));
            for (size_t si = 0; si < r->nsearchers; si++) {
                fputc(' ', f);
                gp_text(f, r->searchers[si], 0);
            }
            fprintf(f, "\n");
            for (size_t t = 0; t < r->maxb; t++) {
                fprintf(f, "%zu", t + 1);
                for (size_t si = 0; si < r->nsearchers; si++) {
                    const double *c =
                        r->curve + ((ci * r->nrec + ri) * r->nsearchers + si) * 3 * r->maxb;
                    fprintf(f, " %.5f %.5f %.5f", c[t], c[r->maxb + t], c[2 * r->maxb + t]);
                }
                fprintf(f, "\n");
            }
            rc = close_out(o, err, errlen);
            if (rc < 0) {
                cutune_outfile_abort(gpo);
                return rc;
            }
            for (int fmt = 0; fmt < 2; fmt++) {
                fprintf(gp, "\n%s\nset output 'plots/",
                        fmt == 0 ? "set terminal pngcairo size 900,600 noenhanced"
                                 : "set terminal svg size 900,600 dynamic noenhanced");
                gp_text(gp, base, 1);
                fprintf(gp, ".%s'\nset title '", fmt == 0 ? "png" : "svg");
                gp_text(gp, r->rec[ri].name, 1);
                fputs(" (", gp);
                gp_text(gp, r->rec[ri].device, 1);
                fputs(", ", gp);
                gp_text(gp, r->rec[ri].kernel, 1);
                fprintf(gp, ")'.\"\\n\".'%s convention, %zu seeds, median and 5-95%% band'\n",
                        cutune_bench_convention_name(r->conv[ci]), r->nseeds);
                fprintf(gp, "plot ");
                for (size_t si = 0; si < r->nsearchers; si++) {
                    size_t col = 2 + 3 * si;
                    fprintf(gp, "%s'", si ? ", \\\n     " : "");
                    gp_text(gp, dname, 1);
                    fprintf(gp, "' using 1:%zu:%zu with filledcurves lc %zu notitle, \\\n     '",
                            col + 1, col + 2, si + 1);
                    gp_text(gp, dname, 1);
                    fprintf(gp, "' using 1:%zu with lines lw 2 lc %zu title '", col, si + 1);
                    gp_text(gp, r->searchers[si], 1);
                    fputc('\'', gp);
                }
                fprintf(gp, "\nunset output\n");
            }
        }
    return close_out(gpo, err, errlen);
}

int cutune_bench_write(const cutune_bench_result *r, const char *dir, const char *command,
                       char *err, size_t errlen)
{
    int rc = mkdir_p(dir, err, errlen);
    if (rc < 0)
        return rc;
    FILE *f;
    cutune_outfile *o = open_out(dir, "results.md", &f, err, errlen);
    if (!o)
        return CUTUNE_EIO;
    write_md(f, r, command);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    if (!(o = open_out(dir, "results.csv", &f, err, errlen)))
        return CUTUNE_EIO;
    write_csv(f, r);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    if (!(o = open_out(dir, "results.json", &f, err, errlen)))
        return CUTUNE_EIO;
    write_json(f, r);
    rc = close_out(o, err, errlen);
    if (rc < 0)
        return rc;
    return write_plots(r, dir, err, errlen);
}

int cutune_bench_plot(const char *dir, char *err, size_t errlen)
{
    if (strchr(dir, '\''))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: a quote in the folder name", dir);
    char cd[4200];
    snprintf(cd, sizeof cd, "cd '%s'", dir);
    char *argv[] = {"gnuplot", "-e", cd, "plots.gp", NULL};
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    /* gnuplot's chatter would garble a progress bar; errors still matter */
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT)
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                          "gnuplot is not installed: plot data left in %s/plots (draw with "
                          "'gnuplot plots.gp' there)",
                          dir);
    if (e != 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "cannot run gnuplot: %s", strerror(e));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return cutune_err(err, errlen, CUTUNE_EIO, "waitpid: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "gnuplot failed on %s/plots.gp", dir);
    return 0;
}
