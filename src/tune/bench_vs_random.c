/* cutune bench: the cells where a searcher is not above random search beyond the noise,
 * for results.md and vs-random.csv. Random search's expected fraction of optimum and its
 * P are exact (order statistics: cutune_bench_space_info.rand_frac; P = 0 by its
 * definition), so the noise of a difference is the searcher's alone: the standard error
 * of its mean over the seeds. A cell is listed when the difference is not above two
 * standard errors; a cell where every run found the optimum is not (nothing is above it).
 * random itself and grid (deterministic, one run whatever the seed) are not judged. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cutune/bench.h"
#include "bench_internal.h"

/* The searcher's type name: its label up to the ':' of its arguments. */
static int judged(const char *label)
{
    size_t n = strcspn(label, ":");
    return !((n == 6 && strncmp(label, "random", 6) == 0) ||
             (n == 4 && strncmp(label, "grid", 4) == 0));
}

/* Mean and standard error over the seeds of the fraction of optimum of one cell. */
static void cell_mean_se(const cutune_bench_result *r, size_t ci, size_t ri, size_t si, size_t bi,
                         double *mean, double *se)
{
    double t_opt = r->space[ci * r->nrec + ri].t_opt, s = 0, s2 = 0;
    size_t ns = r->nseeds;
    for (size_t k = 0; k < ns; k++) {
        double v = bench_fraction_of_optimum(
            t_opt, r->at[(((ci * r->nrec + ri) * r->nsearchers + si) * ns + k) * r->nbudgets + bi]);
        s += v;
        s2 += v * v;
    }
    *mean = s / (double)ns;
    double var = ns > 1 ? (s2 - s * s / (double)ns) / (double)(ns - 1) : 0.0;
    /* one run has no noise estimate: unknown, never zero (no cell is above random then) */
    *se = ns < 2 ? INFINITY : var > 0 ? sqrt(var / (double)ns) : 0.0;
}

/* Mean and standard error of P (which = 0 over evaluations, 1 over time); NAN when undefined. */
static void p_mean_se(const cutune_bench_result *r, size_t ci, size_t ri, size_t si, int which,
                      double *mean, double *se)
{
    double s = 0, s2 = 0;
    size_t ns = r->nseeds, cnt = 0;
    for (size_t k = 0; k < ns; k++) {
        double v = r->p_runs[2 * (((ci * r->nrec + ri) * r->nsearchers + si) * ns + k) + which];
        if (isnan(v))
            continue;
        s += v;
        s2 += v * v;
        cnt++;
    }
    *mean = cnt ? s / (double)cnt : NAN;
    double var = cnt > 1 ? (s2 - s * s / (double)cnt) / (double)(cnt - 1) : 0.0;
    *se = cnt < 2 ? INFINITY : var > 0 ? sqrt(var / (double)cnt) : 0.0;
}

/* Visit every listed cell: fn(ctx, ci, ri, si, what, mean, random, se) with what = a budget
 * index, or nbudgets for P over evaluations, nbudgets + 1 for P over time. Returns the
 * number listed; *judged_out gets the number judged. */
typedef void (*cell_fn)(void *ctx, const cutune_bench_result *r, size_t ci, size_t ri, size_t si,
                        size_t what, double mean, double rnd, double se);

static size_t visit(const cutune_bench_result *r, size_t ci, size_t si, cell_fn fn, void *ctx,
                    size_t *judged_out)
{
    size_t listed = 0, nj = 0;
    for (size_t ri = 0; ri < r->nrec; ri++) {
        const cutune_bench_space_info *info = &r->space[ci * r->nrec + ri];
        for (size_t bi = 0; bi < r->nbudgets + 2; bi++) {
            double m, se, rnd = 0.0;
            if (bi < r->nbudgets) {
                const cutune_bench_cell *c = cutune_bench_result_cell(r, ci, ri, si, bi);
                if (c->success >= 1.0) {
                    nj++;
                    continue;
                }
                cell_mean_se(r, ci, ri, si, bi, &m, &se);
                rnd = info->rand_frac[r->budgets[bi] - 1];
            } else {
                p_mean_se(r, ci, ri, si, (int)(bi - r->nbudgets), &m, &se);
                if (isnan(m))
                    continue;
            }
            nj++;
            if (m - rnd > 2.0 * se)
                continue;
            listed++;
            if (fn)
                fn(ctx, r, ci, ri, si, bi, m, rnd, se);
        }
    }
    if (judged_out)
        *judged_out = nj;
    return listed;
}

static void what_name(const cutune_bench_result *r, size_t what, char *buf, size_t len)
{
    if (what < r->nbudgets)
        snprintf(buf, len, "B=%zu", r->budgets[what]);
    else
        snprintf(buf, len, "%s", what == r->nbudgets ? "P (evals)" : "P (time)");
}

static void md_row(void *ctx, const cutune_bench_result *r, size_t ci, size_t ri, size_t si,
                   size_t what, double mean, double rnd, double se)
{
    (void)ci;
    char w[32];
    what_name(r, what, w, sizeof w);
    fprintf((FILE *)ctx, "| %s | %s | %s | %.3f | %.3f | %+.4f | %.4f |\n", r->searchers[si],
            r->rec[ri].name, w, mean, rnd, mean - rnd, 2.0 * se);
}

static void csv_row(void *ctx, const cutune_bench_result *r, size_t ci, size_t ri, size_t si,
                    size_t what, double mean, double rnd, double se)
{
    FILE *f = ctx;
    char w[32];
    if (what < r->nbudgets)
        snprintf(w, sizeof w, "%zu", r->budgets[what]);
    else
        snprintf(w, sizeof w, "%s", what == r->nbudgets ? "p_evals" : "p_time");
    fprintf(f, "%s,", cutune_bench_convention_name(r->conv[ci]));
    cutune_csv_text(f, r->rec[ri].name, 0);
    fputc(',', f);
    cutune_csv_text(f, r->searchers[si], 0);
    fprintf(f, ",%s,%.4f,%.4f,%.4f,%.4f\n", w, mean, rnd, mean - rnd, se);
}

void bench_write_md_vs_random(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "## Cells not above random search\n\n");
    fprintf(f,
            "A (recording, budget) cell is listed when the searcher's mean fraction of optimum "
            "minus random search's exact expectation (order statistics, no noise of its own) is "
            "not above two standard errors of the searcher's mean over the %zu seed(s); a cell "
            "where every run found the optimum is not listed. P rows: mean P against random "
            "search's 0, by the same test. random and grid are not judged.%s\n\n",
            r->nseeds,
            r->nseeds < 2 ? " One seed gives no standard error: every judged cell is listed "
                            "(2 SE `inf`); run two seeds or more for a verdict."
                          : "");
    for (size_t ci = 0; ci < r->nconv; ci++) {
        fprintf(f, "### Not above random (%s)\n\n", cutune_bench_convention_name(r->conv[ci]));
        size_t any = 0;
        for (size_t si = 0; si < r->nsearchers; si++) {
            if (!judged(r->searchers[si]))
                continue;
            size_t nj = 0, nl = visit(r, ci, si, NULL, NULL, &nj);
            fprintf(f, "- %s: %zu of %zu cells\n", r->searchers[si], nl, nj);
            any += nl;
        }
        if (any) {
            fprintf(f, "\n| searcher | recording | cell | mean | random | difference | 2 SE |\n"
                       "|---|---|---|---:|---:|---:|---:|\n");
            for (size_t si = 0; si < r->nsearchers; si++)
                if (judged(r->searchers[si]))
                    visit(r, ci, si, md_row, f, NULL);
        }
        fprintf(f, "\n");
    }
}

void bench_write_csv_vs_random(FILE *f, const cutune_bench_result *r)
{
    fprintf(f, "convention,recording,searcher,budget,mean,random,difference,se\n");
    for (size_t ci = 0; ci < r->nconv; ci++)
        for (size_t si = 0; si < r->nsearchers; si++)
            if (judged(r->searchers[si]))
                visit(r, ci, si, csv_row, f, NULL);
}
