/* What a tuning run prints when it ends (cmd_tune.c): the best configuration with its
 * metrics and confirmation, the counts by status, why it stopped, the best-5 table and the
 * sparkline; under several objectives the Pareto front and its exports. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cutune/report.h"
#include "tune_internal.h"

const char *cli_tune_stop_reason_name(cutune_stop_reason r)
{
    switch (r) {
    case CUTUNE_STOP_BUDGET: return "budget";
    case CUTUNE_STOP_EXHAUSTED: return "exhausted";
    case CUTUNE_STOP_TIME: return "time_limit";
    case CUTUNE_STOP_SIGNAL: return "signal";
    }
    return "unknown";
}

/* Which key of the tie rule chose the winner over the other tied configurations: the
 * latest one any of them needed. */
static const char *confirm_decided_by(const cutune_confirm_result *c)
{
    const cutune_confirm_entry *w = &c->e[c->winner];
    int key = -1; /* -1 no tie, 0 registers, 1 energy, 2 configuration id */
    for (size_t i = 0; i < c->n; i++) {
        const cutune_confirm_entry *e = &c->e[i];
        if (!e->tied || (long)i == c->winner)
            continue;
        int k = 2;
        if (!(isnan(w->registers) && isnan(e->registers)) && w->registers != e->registers)
            k = 0;
        else if (!(isnan(w->energy_j) && isnan(e->energy_j)) && w->energy_j != e->energy_j)
            k = 1;
        key = k > key ? k : key;
    }
    return key < 0    ? "none tied with it"
           : key == 0 ? "decided by fewer registers"
           : key == 1
               ? "decided by fewer registers, then lower energy"
               : "decided by fewer registers, then lower energy, then lower configuration id";
}

static void print_confirmed(const cli_target *t, const cutune_objective *obj,
                            const cutune_history *h)
{
    const cutune_confirm_result *c = h->confirm;
    const cutune_confirm_entry *w = &c->e[c->winner];
    size_t tied = 0;
    for (size_t i = 0; i < c->n; i++)
        tied += c->e[i].tied;
    printf("confirmed: ");
    cli_print_config(stdout, t->space, w->id);
    if (cutune_objective_is_time(obj))
        printf("  time: %.6g ms, 95%% CI [%.6g, %.6g]", w->mean, w->lo, w->hi);
    else
        printf("  %s: %.6g, 95%% CI [%.6g, %.6g]", cutune_objective_text(obj), w->mean, w->lo,
               w->hi);
    /* tied counts the winner itself: tied - 1 others overlap its interval */
    if (tied > 1)
        printf(" (mean of %zu rounds over the best %zu%s; %zu tied with it, %s)\n", w->n, c->n,
               c->simulated ? ", drawn from the recorded repetitions" : "", tied - 1,
               confirm_decided_by(c));
    else
        printf(" (mean of %zu rounds over the best %zu%s; no other within its interval)\n", w->n,
               c->n, c->simulated ? ", drawn from the recorded repetitions" : "");
}

/* Several objectives: the Pareto front, its hypervolume and reference point on stdout,
 * and its exports with --front. */
int cli_tune_report_front(const cli_target *t, const cutune_objective *obj, const cutune_history *h,
                          const char *prefix, int quiet, char *err, size_t errlen)
{
    cutune_front f;
    int rc = cutune_front_compute(obj, h, &f, err, errlen);
    if (rc < 0)
        return rc;
    if (!quiet) {
        printf("front: %zu of %zu feasible configurations are Pareto-optimal in (", f.nfront, f.n);
        for (size_t j = 0; j < f.k; j++)
            printf("%s%s", j ? ", " : "", cutune_objective_text(cutune_objective_part(obj, j)));
        printf(")\n");
        if (f.k == 2 && f.n) {
            double r0 = f.ref[0], r1 = f.ref[1];
            if (cutune_objective_maximize(cutune_objective_part(obj, 0)))
                r0 = -r0;
            if (cutune_objective_maximize(cutune_objective_part(obj, 1)))
                r1 = -r1;
            printf("hypervolume: %.6g (reference point (%.6g, %.6g): each objective's worst "
                   "feasible value plus 10%% of its range)\n",
                   f.hv, r0, r1);
        }
        for (size_t i = 0; i < f.n; i++) {
            if (f.rank[i] != 0)
                continue;
            printf("  ");
            for (size_t j = 0; j < f.k; j++)
                printf("%s%s %.6g", j ? ", " : "",
                       cutune_objective_text(cutune_objective_part(obj, j)), f.v[i * f.k + j]);
            printf(": ");
            cli_print_config(stdout, t->space, h->e[f.hist[i]].id);
        }
    }
    int plotted = 0;
    if (prefix &&
        (rc = cutune_front_write(prefix, t->space, obj, &f, h, &plotted, err, errlen)) < 0) {
        cutune_front_free(&f);
        return rc;
    }
    if (prefix && !quiet)
        printf("front: %s.json, %s.csv%s%s%s%s\n", prefix, prefix, f.k == 2 && f.n ? ", " : "",
               f.k == 2 && f.n ? prefix : "", f.k == 2 && f.n ? ".gp" : "",
               f.k == 2 && f.n ? (plotted ? ", the plot drawn into the .svg"
                                          : " (no .svg: gnuplot is not installed, or failed)")
                               : "");
    cutune_front_free(&f);
    return 0;
}

void cli_tune_print_summary(const cli_target *t, int kt, const cutune_objective *obj,
                            const cutune_history *h, const char *why, const char *journal,
                            int quiet)
{
    if (h->best < 0 && h->counts[CUTUNE_STATUS_OK] && !cutune_objective_is_time(obj)) {
        /* they ran correctly, but the objective or a constraint ruled every one out */
        fprintf(quiet ? stderr : stdout,
                "no feasible configuration found in %zu evaluations: %zu ran correctly, but on "
                "none was the objective a positive number%s\n",
                h->n, h->counts[CUTUNE_STATUS_OK],
                cutune_objective_nconstraints(obj) ? " with its constraints true" : "");
    } else if (h->best < 0) { /* -q: stdout stays empty (it is the best configuration alone) */
        fprintf(quiet ? stderr : stdout, "no correct configuration found in %zu evaluations\n",
                h->n);
    } else {
        const cutune_history_entry *b = &h->e[h->best];
        if (quiet) { /* the configuration to use: the confirmed winner where there is one */
            cli_print_config(stdout, t->space,
                             h->confirm ? h->confirm->e[h->confirm->winner].id : b->id);
            return;
        }
        printf("best: ");
        cli_print_config(stdout, t->space, b->id);
        /* kt: replayed from a Kernel Tuner cache, whose "time" is its own statistic (the
         * mean of "times"), not a median */
        printf("time: %.6g ms (", b->r.time_ms);
        if (kt && b->r.ntimes)
            printf("as recorded, %zu runs; ", b->r.ntimes);
        else if (kt)
            printf("as recorded; ");
        else if (b->r.ntimes)
            printf("median of %zu, ", b->r.ntimes);
        printf("evaluation %ld of %zu)\n", h->best + 1, h->n);
        if (!cutune_objective_is_time(obj)) {
            double v;
            int feasible;
            cutune_objective_eval(obj, b, &v, &feasible);
            if (cutune_objective_count(obj) > 1)
                printf("objective: %s: geometric mean of the scores %.6g (minimised",
                       cutune_objective_text(obj), v);
            else
                printf("objective: %s = %.6g (%s", cutune_objective_text(obj), v,
                       cutune_objective_maximize(obj) ? "maximised" : "minimised");
            for (size_t c = 0; c < cutune_objective_nconstraints(obj); c++)
                printf("%s%s", c ? ", " : ", subject to ", cutune_objective_constraint(obj, c));
            printf(")\n");
        }
        if (t->spec)
            for (size_t m = 0; m < t->spec->nmetrics; m++)
                if (b->spec_metrics && isfinite(b->spec_metrics[m]))
                    printf("%s: %.6g\n", t->spec->metrics[m].name, b->spec_metrics[m]);
        if (h->confirm)
            print_confirmed(t, obj, h);
    }
    if (quiet)
        return;
    printf("evaluations: %zu", h->n);
    int first = 1;
    for (int s = 0; s < CUTUNE_STATUS_COUNT; s++)
        if (h->counts[s]) {
            printf("%s%s %zu", first ? " (" : ", ", cutune_status_name(s), h->counts[s]);
            first = 0;
        }
    if (!first)
        printf(")");
    if (h->resumed)
        printf(", %zu of them from the journal", h->resumed);
    if (h->reused)
        printf(", %zu from the database", h->reused);
    printf("\nstopped: %s\n", why);
    if (journal)
        printf("journal: %s\n", journal);
    cutune_report_terminal_summary(stdout, t->space, h, 5, -1); /* best 5, sparkline */
}
