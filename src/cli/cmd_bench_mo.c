/* `cutune bench --objectives=A,B`: searchers compared by the hypervolume of the Pareto
 * front each run reaches on recordings that hold both objectives (docs/objectives.md).
 * Every run is `cutune --objectives=A,B --searcher=S --seed=s --budget=B RECORDING`
 * (replay, no confirmation); its hypervolume is taken against one reference point per
 * recording, that of the recording's whole front (each objective's worst feasible value
 * plus 10% of its range), so that runs and searchers compare. Sequential: replay runs
 * take milliseconds to seconds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "bench_mo.h"
#include "options.h"

/* Hypervolume of the feasible entries of hist (two objectives) against ref. */
static double run_hv(const cutune_objective *o, const cutune_history *h, const double *ref,
                     char *err, size_t errlen)
{
    cutune_front f;
    if (cutune_front_compute(o, h, &f, err, errlen) < 0)
        return -1;
    double hv = f.n ? cutune_pareto_hv2(f.f, f.n, ref) : 0.0;
    cutune_front_free(&f);
    return hv;
}

/* The metrics objective o reads, into needs (64 at most): what the replay must record. */
static size_t objective_needs(const cutune_objective *o, const char **needs)
{
    size_t nn = 0;
    while (nn < 64 && nn < cutune_objective_nneeds(o)) {
        needs[nn] = cutune_objective_need(o, nn);
        nn++;
    }
    return nn;
}

/* One run of searcher t (args a) on recording r: its history. */
static int one_run(const cutune_recording *r, cutune_space *space, const cutune_objective *o,
                   const cutune_searcher_type *t, const char *a, size_t budget, unsigned long seed,
                   cutune_history *hist, char *err, size_t errlen)
{
    size_t n = cutune_space_size(space);
    const char *needs[64];
    size_t nn = objective_needs(o, needs);
    cutune_evaluator_ctx ectx = {.space = space,
                                 .arg = r->path,
                                 .seed = seed,
                                 .recording = r,
                                 .need_metrics = needs,
                                 .nneed = nn};
    cutune_evaluator *ev = NULL;
    cutune_searcher *s = NULL;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    uint8_t *visited = calloc(n ? n : 1, 1);
    /* at function scope: a searcher may keep a view of its ctx for its life */
    cutune_searcher_ctx sctx = {.space = space,
                                .budget = budget,
                                .rng = rng,
                                .visited = visited,
                                .args = a,
                                .nobjectives = cutune_objective_count(o)};
    int rc = !rng || !visited ? cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory") : 0;
    if (rc == 0)
        rc = cutune_evaluator_alloc(cutune_evaluator_replay, &ectx, &ev, err, errlen);
    if (rc == 0) {
        gsl_rng_set(rng, seed);
        rc = cutune_searcher_alloc(t, &sctx, &s, err, errlen);
    }
    if (rc == 0) {
        cutune_tuner_options opt = {.budget = budget < n ? budget : n,
                                    .batch = 1,
                                    .parallel = 1,
                                    .charge_recorded_time = 1,
                                    .deterministic_clock = 1,
                                    .objective = o};
        cutune_stop_reason why;
        rc = cutune_tune(space, NULL, s, visited, ev, &opt, hist, &why, err, errlen);
    }
    cutune_searcher_free(s);
    cutune_evaluator_free(ev);
    free(visited);
    gsl_rng_free(rng);
    return rc;
}

/* One recording of the benchmark, loaded with its space and objectives. */
typedef struct {
    cutune_recording *r;
    cutune_space *space;
    cutune_objective *o;
} mo_input;

static void inputs_free(mo_input *in, size_t n)
{
    for (size_t i = 0; in && i < n; i++) {
        cutune_objective_free(in[i].o);
        cutune_space_free(in[i].space);
        cutune_recording_free(in[i].r);
    }
    free(in);
}

/* Every recording loaded, its objectives parsed and its replay made, before a line is
 * printed or a file opened: a list that a later recording refuses (a metric only the
 * first records) is the only line, not the end of a table begun. */
static int load_inputs(const cli_bench_mo *m, mo_input **out, char *err, size_t errlen)
{
    mo_input *in = calloc(m->nrec ? m->nrec : 1, sizeof *in);
    if (!in)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0;
    for (size_t ri = 0; ri < m->nrec && rc == 0; ri++) {
        mo_input *x = &in[ri];
        if ((rc = cutune_recording_load(m->recs[ri], &x->r, err, errlen)) < 0)
            break;
        cli_say_truncated_tail(x->r);
        if ((rc = cutune_recording_space(x->r, NULL, 0, 1, &x->space, err, errlen)) < 0 ||
            (rc = cutune_objective_multi_alloc(m->objectives, NULL, 0, x->space, NULL, &x->o, err,
                                               errlen)) < 0)
            break;
        /* the replay refuses a recording without the metrics they read */
        const char *needs[64];
        cutune_evaluator_ctx ectx = {.space = x->space,
                                     .arg = x->r->path,
                                     .seed = 1,
                                     .recording = x->r,
                                     .need_metrics = needs,
                                     .nneed = objective_needs(x->o, needs)};
        cutune_evaluator *ev = NULL;
        rc = cutune_evaluator_alloc(cutune_evaluator_replay, &ectx, &ev, err, errlen);
        cutune_evaluator_free(ev);
    }
    if (rc < 0) {
        inputs_free(in, m->nrec);
        return rc;
    }
    *out = in;
    return 0;
}

int cli_bench_objectives(const cli_bench_mo *m, char *err, size_t errlen)
{
    /* two objectives, before anything is written (a comma inside brackets is an
     * objective's own) */
    size_t parts = 1;
    long depth = 0;
    for (const char *p = m->objectives; *p; p++) {
        depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
        parts += *p == ',' && depth == 0;
    }
    if (parts != 2)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--objectives=%s: two objectives, A,B (the hypervolume is computed for "
                          "two; without --objectives bench compares by time)",
                          m->objectives);
    mo_input *in = NULL;
    int rc = load_inputs(m, &in, err, errlen);
    if (rc < 0)
        return rc;
    char path[4200];
    snprintf(path, sizeof path, "%s/objectives.csv", m->out_dir);
    cutune_outfile *of = NULL;
    FILE *csv = NULL;
    if ((rc = cutune_outfile_open(path, 0, 0644, &of, err, errlen)) < 0) {
        inputs_free(in, m->nrec);
        return rc;
    }
    if (!(csv = cutune_outfile_stream(of))) {
        cutune_outfile_abort(of);
        inputs_free(in, m->nrec);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    fprintf(csv, "recording,searcher,budget,seed,hypervolume,fraction,ref1,ref2\n");
    if (!m->quiet)
        printf("hypervolume of the (%s) front against each recording's reference point "
               "(its worst feasible values + 10%% of their ranges); mean over seeds 1..%lu\n",
               m->objectives, m->nseeds);
    for (size_t ri = 0; ri < m->nrec && rc == 0; ri++) {
        const cutune_recording *r = in[ri].r;
        cutune_space *space = in[ri].space;
        const cutune_objective *o = in[ri].o;
        cutune_history all = {.best = -1};
        /* the recording's whole front: every configuration, by grid */
        if ((rc = one_run(r, space, o, cutune_searcher_grid, NULL, cutune_space_size(space), 1,
                          &all, err, errlen)) < 0)
            goto next;
        cutune_front whole;
        if ((rc = cutune_front_compute(o, &all, &whole, err, errlen)) < 0)
            goto next;
        double ref[2] = {whole.ref[0], whole.ref[1]}, hv_all = whole.hv;
        size_t nfront = whole.nfront;
        cutune_front_free(&whole);
        if (!m->quiet)
            printf("\n%s: %zu configurations, %zu on the front, hypervolume %.6g\n"
                   "  %-10s %6s %5s %12s %8s\n",
                   r->path, cutune_space_size(space), nfront, hv_all, "searcher", "budget", "runs",
                   "mean HV", "of all");
        for (size_t si = 0; si < m->nsearchers && rc == 0; si++)
            for (size_t bi = 0; bi < m->nbudgets && rc == 0; bi++) {
                double sum = 0;
                for (unsigned long seed = 1; seed <= m->nseeds && rc == 0; seed++) {
                    cutune_history h = {.best = -1};
                    rc = one_run(r, space, o, m->types[si], m->sargs[si], m->budgets[bi], seed, &h,
                                 err, errlen);
                    double hv = rc == 0 ? run_hv(o, &h, ref, err, errlen) : -1;
                    cutune_history_free(&h);
                    if (rc == 0 && hv < 0)
                        rc = CUTUNE_ENOMEM;
                    if (rc < 0)
                        break;
                    sum += hv;
                    fprintf(csv, "%s,%s,%zu,%lu,%.17g,%.17g,%.17g,%.17g\n", r->path, m->labels[si],
                            m->budgets[bi], seed, hv, hv_all > 0 ? hv / hv_all : NAN, ref[0],
                            ref[1]);
                }
                if (rc == 0 && !m->quiet)
                    printf("  %-10s %6zu %5lu %12.6g %7.1f%%\n", m->labels[si], m->budgets[bi],
                           m->nseeds, sum / (double)m->nseeds,
                           hv_all > 0 ? 100.0 * sum / (double)m->nseeds / hv_all : NAN);
            }
    next:
        cutune_history_free(&all);
    }
    inputs_free(in, m->nrec);
    if (rc < 0) {
        cutune_outfile_abort(of);
        return rc;
    }
    if ((rc = cutune_outfile_commit(of, NULL, err, errlen)) < 0)
        return rc;
    if (!m->quiet)
        printf("\nevery run: %s\n", path);
    return 0;
}
