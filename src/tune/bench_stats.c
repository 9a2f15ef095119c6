/* cutune bench's statistics: the analytic random baseline (the expected best of random
 * search, from order statistics), the methodology score P of a run over evaluations and
 * over simulated time (Willemsen et al., FGCS 2024), and phase 3, the per-cell summaries
 * of the fraction of optimum over the seeds. */
#include <math.h>
#include <stddef.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cutune/bench.h"
#include "bench_internal.h"

/* ---- the analytic random baseline ---- */

/* Expected minimum of a size-b sample without replacement (order statistics):
 * P(min is the i-th smallest, 1-based) = C(n-i, b-1) / C(n, b). lgamma keeps
 * the binomials in range for spaces of 10^5 points and more. */
/* lf: lgamma(k + 1) for k = 0..n, or NULL to call lgamma (a table turns the
 * baseline of a 10^5-point space at 200 budgets from seconds into a blink). */
double bench_expected_min(const double *sorted, size_t n, size_t b, double fail_value,
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
    return bench_expected_min(sorted, n, b, fail_value, NULL);
}

/* ---- P of a run ---- */

/* P of one run over evaluations 1..p_points: mean of (B - F) / (B - opt),
 * skipping points where random search is already at the optimum. */
double bench_run_p_evals(const cutune_bench_space_info *info, const double *best, double worst)
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
double bench_run_p_time(const cutune_bench_space_info *info, const double *best, const double *cum,
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

/* ---- phase 3: statistics ---- */

/* t_opt / best, 0 when nothing valid was found (best infinite) */
double bench_fraction_of_optimum(double t_opt, double best)
{
    return isfinite(best) ? t_opt / best : 0.0;
}

void bench_compute_stats(bench_ctx *b, double *frac)
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
                    res->p_runs[2 * (job0 + k)] = b->pe[job0 + k];
                    res->p_runs[2 * (job0 + k) + 1] = b->pt[job0 + k];
                }
                res->p_evals[cell] = pe / (double)ns;
                res->p_time[cell] = pt / (double)ns;
                for (size_t t = 0; t < maxb; t++) {
                    for (size_t k = 0; k < ns; k++)
                        frac[k] = bench_fraction_of_optimum(info->t_opt,
                                                            res->best[(job0 + k) * maxb + t]);
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
                        frac[k] = bench_fraction_of_optimum(info->t_opt, v);
                        sum += frac[k];
                        hits += v == info->t_opt;
                        /* at most the budget: the serving run clamps it (bench_run_task) */
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
