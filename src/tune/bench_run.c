/* The tasks of cutune bench's phases 1 and 2. Phase 1: a recording loaded and, per
 * convention, its space and the lookup table id -> (status, time, cost), with the
 * space's optimum, median, cutoff and random baseline. Phase 2: one run of a searcher
 * on a table, replayed without the GPU (the tuner loop only where evaluations are
 * parallel), into its own slice of the result arrays. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "cutune/bench.h"
#include "cutune/recording.h"
#include "cutune/space.h"
#include "cutune/tuner.h"
#include "bench_internal.h"

/* ---- phase 1: recordings, spaces, tables ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The first of def's expressions that does not parse against r's parameters (a syntax
 * error, a name r lacks), its message in msg; -1 when each parses alone (the set failed
 * as a whole: it excludes every configuration, say). */
static long failing_restriction(const cutune_recording *r, const cutune_bench_space_def *def,
                                char *msg, size_t msglen)
{
    long bad = -1;
    cutune_space *s = cutune_space_alloc();
    if (!s)
        return -1;
    for (size_t p = 0; p < r->nparams; p++)
        if (cutune_space_add_param(s, r->param_names[p], r->values[p], r->nvalues[p], msg, msglen) <
            0)
            goto out_free_space;
    for (size_t i = 0; i < def->n && bad < 0; i++)
        if (cutune_space_add_restriction(s, def->restrictions[i], msg, msglen) < 0)
            bad = (long)i;
out_free_space:
    cutune_space_free(s);
    return bad;
}

/* Why r's known space could not be built (rc, msg): an expression that does not parse is
 * named by its own line, not its section's, and a name r lacks by r's parameters, since a
 * section may match recordings of other parameters. */
static int restrictions_error(const cutune_recording *r, const cutune_bench_space_def *def, int rc,
                              const char *msg, char *err, size_t errlen)
{
    char why[512];
    long i = failing_restriction(r, def, why, sizeof why);
    const char *where = def->source ? def->source : "the space";
    if (i < 0)
        return cutune_err(err, errlen, rc, "%s: the restrictions of the section at %s: %s", r->path,
                          where, msg);
    if (def->sources && def->sources[i])
        where = def->sources[i];
    if (rc != CUTUNE_ENOTFOUND)
        return cutune_err(err, errlen, rc, "%s: %s (restricting %s)", where, why, r->path);
    char names[256] = "";
    size_t len = 0;
    for (size_t p = 0; p < r->nparams && len < sizeof names; p++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", p ? ", " : "",
                                r->param_names[p]);
    return cutune_err(err, errlen, rc, "%s: %s (%s has the parameters %s)", where, why, r->path,
                      names);
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
    /* constraint-aware: the restricted Cartesian product where the restrictions are
     * known, else the recorded configurations (bench.h) */
    const cutune_bench_space_def *def = b->opt->spaces && conv == CUTUNE_BENCH_CONSTRAINT_AWARE
                                            ? &b->opt->spaces[b->rec_src[ri]]
                                            : NULL;
    int restricted = conv == CUTUNE_BENCH_CARTESIAN || (def && def->known);
    char msg[512];
    int rc =
        def && def->known
            ? cutune_recording_space(r, def->restrictions, def->n, 0, &t->space, msg, sizeof msg)
            : cutune_recording_space(r, NULL, 0, !restricted, &t->space, msg, sizeof msg);
    if (rc < 0) {
        if (def && def->known)
            return restrictions_error(r, def, rc, msg, err, errlen);
        return cutune_err(err, errlen, rc, "%s: %s", r->path, msg);
    }
    info->restricted = restricted;
    if (def && def->known && def->source && !(info->source = bench_strdup(def->source)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    size_t n = cutune_space_size(t->space);
    map = malloc(n * sizeof *map);
    t->status = malloc(n);
    t->time = malloc(n * sizeof *t->time);
    t->cost = malloc(n * sizeof *t->cost);
    sorted = malloc(n * sizeof *sorted);
    lf = malloc((n + 1) * sizeof *lf);
    info->baseline = calloc(res->maxb, sizeof *info->baseline);
    info->rand_frac = calloc(res->maxb, sizeof *info->rand_frac);
    if (!map || !t->status || !t->time || !t->cost || !sorted || !lf || !info->baseline ||
        !info->rand_frac) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_free;
    }
    rc = cutune_recording_map(r, t->space, map, err, errlen);
    if (rc < 0)
        goto out_free;
    /* Restrictions that exclude recorded configurations are not this recording's: its
     * measurements would be dropped without a word. */
    size_t mapped = 0;
    for (size_t id = 0; id < n; id++)
        mapped += map[id] >= 0;
    info->absent = n - mapped;
    if (def && def->known && mapped < r->nrecords) {
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "%s: %zu of its %zu recorded configurations violate the restrictions of "
                        "%s: they are not this recording's",
                        r->path, r->nrecords - mapped, r->nrecords,
                        def->source ? def->source : "the space");
        goto out_free;
    }

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
        info->baseline[k - 1] = k <= n ? bench_expected_min(sorted, n, k, worst, lf) : sorted[0];
    /* Cutoff (Willemsen et al.): random search is expected to be 95% of the way
     * from the median to the optimum. Past the largest budget it is searched
     * by bisection on the monotone expectation. */
    double target = info->t_opt + 0.05 * (info->t_median - info->t_opt);
    size_t lo = 1, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        double e = mid <= res->maxb ? info->baseline[mid - 1]
                                    : bench_expected_min(sorted, n, mid, worst, lf);
        if (e <= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    info->cutoff = lo;
    info->p_points = lo < res->maxb ? lo : res->maxb;
    if (info->p_points > n)
        info->p_points = n;
    /* random search's expected fraction of optimum: the same order statistics over
     * t_opt / t in time order (a failure is 0), so that a searcher's mean is compared with
     * an exact expectation, not with another noisy mean */
    for (size_t id = 0; id < n; id++)
        sorted[id] = isfinite(sorted[id]) ? info->t_opt / sorted[id] : INFINITY;
    for (size_t k = 1; k <= res->maxb; k++)
        info->rand_frac[k - 1] = k <= n ? bench_expected_min(sorted, n, k, 0.0, lf) : 1.0;
    rc = 0;
out_free:
    free(lf);
    free(sorted);
    free(map);
    return rc;
}

int bench_load_task(void *ctx, size_t ri, char *err, size_t errlen)
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
    ri_->device = bench_strdup(r->device_name ? r->device_name : "");
    ri_->kernel = bench_strdup(r->kernel_name ? r->kernel_name : "");
    ri_->has_costs = r->has_costs;
    if (!ri_->device || !ri_->kernel)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t ci = 0; ci < res->nconv; ci++) {
        rc = build_table(b, r, ci, ri, err, errlen);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---- phase 2: runs ---- */

size_t bench_job_count(const cutune_bench_result *r)
{
    return r->nconv * r->nrec * r->nsearchers * r->nseeds;
}

/* Which run serves each budget: the run of the largest budget with the same plan
 * (cutune_searcher_type.plan; without one every budget is its own), so that a searcher
 * whose proposals do not depend on the budget is not run again for every budget. */
int bench_plan_groups(bench_ctx *b, char *err, size_t errlen)
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
 * (bench_plan_groups): the results are those of a run of each budget either way. The largest
 * budget's run also gives the best-so-far curve and P. */
int bench_run_task(void *ctx, size_t job, char *err, size_t errlen)
{
    bench_ctx *b = ctx;
    cutune_bench_result *res = b->res;
    size_t nruns = bench_job_count(res), run = job % nruns, bi = job / nruns;
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
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
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
        b->pe[run] = bench_run_p_evals(info, best, worst);
        b->pt[run] =
            res->rec[ri].has_costs ? bench_run_p_time(info, best, cum, charged, worst) : NAN;
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
