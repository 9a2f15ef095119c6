/* The report's plots, as inline SVG: convergence (against evaluations and wall time), time
 * against each parameter, the heat map of two parameters, importance bars and the failure
 * map. Every plot has an id (the tests check them), a title, axis labels with units and a
 * legend. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_plots.h"

#define STATUSES CUTUNE_STATUS_COUNT

/* The range of ok times over every run given (NAN when there is none). */
static void time_range(const cutune_report_eval *const *e, size_t n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (size_t i = 0; i < n; i++)
        if (e[i]->status == CUTUNE_STATUS_OK) {
            double t = e[i]->time_ms;
            *lo = isnan(*lo) || t < *lo ? t : *lo;
            *hi = isnan(*hi) || t > *hi ? t : *hi;
        }
}

static void no_data(FILE *f, const char *id, const char *title, const char *why)
{
    rep_frame fr = rep_frame_make(720, 60, 10, 10, 10, 10);
    rep_svg_begin(f, id, &fr, title);
    fprintf(f, "<text x=\"20\" y=\"35\" font-size=\"13\">");
    rep_html(f, why);
    fputs("</text>\n", f);
    rep_svg_end(f);
}

void rep_plot_convergence(FILE *f, cutune_report_run *const *runs, size_t nruns, int wall)
{
    const char *id = wall ? "plot-convergence-time" : "plot-convergence-evals";
    const char *title = wall ? "Best time found so far against wall time"
                             : "Best time found so far against evaluations";
    double tlo = NAN, thi = NAN, xmax = 0;
    int any = 0;
    for (size_t r = 0; r < nruns; r++) {
        const cutune_report_run *run = runs[r];
        double best = NAN;
        for (size_t i = 0; i < run->nevals; i++) {
            const cutune_report_eval *e = &run->evals[i];
            double x = wall ? e->elapsed_s : (double)(i + 1);
            if (wall && !isfinite(x))
                continue;
            xmax = x > xmax ? x : xmax;
            if (e->status != CUTUNE_STATUS_OK)
                continue;
            if (isnan(best) || e->time_ms < best)
                best = e->time_ms;
            if (isnan(tlo) || best < tlo)
                tlo = best;
            if (isnan(thi) || best > thi)
                thi = best;
            any = 1;
        }
    }
    if (!any) {
        no_data(f, id, title,
                wall ? "No correct evaluation with a wall-clock time (elapsed_s) in these "
                       "journals."
                     : "No correct evaluation in these journals: nothing converged.");
        return;
    }
    rep_frame fr = rep_frame_make(760, 380, 70, 20, 20, 45);
    rep_axis xa = {.p0 = fr.left, .p1 = fr.right}, ya = {.p0 = fr.bottom, .p1 = fr.top};
    rep_axis_fit(&xa, 0, xmax > 0 ? xmax : 1, 0);
    rep_axis_fit(&ya, tlo, thi, 1);
    rep_svg_begin(f, id, &fr, title);
    rep_axes(f, &fr, &xa, &ya,
             wall ? "wall time since the run started (s)" : "evaluations (in completion order)",
             "best time so far (ms, log scale)");
    const char *colours[10], *labels[10];
    char names[10][600];
    size_t nleg = 0;
    for (size_t r = 0; r < nruns; r++) {
        const cutune_report_run *run = runs[r];
        double best = NAN, lastx = NAN;
        int drawn = 0;
        fprintf(
            f, "<polyline class=\"run\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
            rep_run_colour(r));
        for (size_t i = 0; i < run->nevals; i++) {
            const cutune_report_eval *e = &run->evals[i];
            double x = wall ? e->elapsed_s : (double)(i + 1);
            if (wall && !isfinite(x))
                continue;
            if (e->status == CUTUNE_STATUS_OK && (isnan(best) || e->time_ms < best)) {
                if (!isnan(best)) /* a step: the old best until this point */
                    fprintf(f, "%.1f,%.1f ", rep_axis_px(&xa, x), rep_axis_px(&ya, best));
                best = e->time_ms;
                fprintf(f, "%.1f,%.1f ", rep_axis_px(&xa, x), rep_axis_px(&ya, best));
                drawn = 1;
            }
            lastx = x;
        }
        if (drawn && isfinite(lastx))
            fprintf(f, "%.1f,%.1f", rep_axis_px(&xa, lastx), rep_axis_px(&ya, best));
        fputs("\"/>\n", f);
        if (nleg < 10) { /* numbered as in the table of journals above */
            snprintf(names[nleg], sizeof names[0], "%zu: %s", r + 1, run->label);
            colours[nleg] = rep_run_colour(r);
            labels[nleg] = names[nleg];
            nleg++;
        }
    }
    rep_legend(f, &fr, nleg, colours, labels);
    rep_svg_end(f);
}

/* A failure's marker: a cross in the status's colour. */
static void cross(FILE *f, double x, double y, int status, const char *tip)
{
    fprintf(f,
            "<path class=\"fail\" d=\"M%.1f %.1fl6 6m0 -6l-6 6\" stroke=\"%s\" "
            "stroke-width=\"1.6\"><title>",
            x - 3, y - 3, rep_status_colour(status));
    rep_html(f, tip);
    fputs("</title></path>\n", f);
}

/* A deterministic jitter in [-0.5, 0.5) from an evaluation's position. */
static double jitter(size_t i)
{
    uint64_t h = cutune_fnv1a(0xcbf29ce484222325ULL, &i, sizeof i);
    return (double)(h % 1000) / 1000.0 - 0.5;
}

void rep_plot_param(FILE *f, const cutune_report_pool *pool, size_t p)
{
    const cutune_report_run *b = pool->base;
    char id[64], title[512];
    snprintf(id, sizeof id, "plot-param-%zu", p);
    snprintf(title, sizeof title, "Time against %s", b->param_names[p]);
    double lo, hi;
    time_range(pool->e, pool->n, &lo, &hi);
    size_t nv = b->nvalues[p];
    double w = 315 + 60.0 * (double)nv;
    w = w < 545 ? 545 : w > 1000 ? 1000 : w;
    rep_frame fr = rep_frame_make(w, 320, 70, 175, 44, 45); /* the legend right of the plot */
    rep_axis ya = {.p0 = fr.bottom, .p1 = fr.top};
    rep_axis_fit(&ya, lo, hi, 1);
    rep_svg_begin(f, id, &fr, title);
    char xlabel[300];
    snprintf(xlabel, sizeof xlabel, "%s (value)", b->param_names[p]);
    rep_axes(f, &fr, NULL, &ya, xlabel, "time (ms, log scale)");
    double step = (fr.right - fr.left) / (double)nv;
    for (size_t v = 0; v < nv; v++) {
        double x = fr.left + step * ((double)v + 0.5);
        fprintf(f, "<text x=\"%.1f\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">", x,
                fr.bottom + 15);
        rep_html(f, b->value_text[p][v]);
        fputs("</text>\n", f);
    }
    /* the failure band above the data area */
    fprintf(f,
            "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"16\" fill=\"#f6f6f6\" "
            "stroke=\"#ccc\"/><text x=\"%g\" y=\"%g\" font-size=\"10\" "
            "text-anchor=\"end\">failed</text>\n",
            fr.left, fr.top - 22, fr.right - fr.left, fr.left - 4, fr.top - 10);
    int seen[STATUSES] = {0};
    for (size_t i = 0; i < pool->n; i++) {
        const cutune_report_eval *e = pool->e[i];
        double x = fr.left + step * ((double)e->idx[p] + 0.5 + 0.6 * jitter(i));
        seen[e->status] = 1;
        if (e->status == CUTUNE_STATUS_OK) {
            char tip[128];
            /* counted from 1 as the terminal and the convergence plot count; n is the
             * journal's field */
            snprintf(tip, sizeof tip, "evaluation %zu (n %zu): %.4g ms", e->n + 1, e->n,
                     e->time_ms);
            fprintf(f,
                    "<circle class=\"ok\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\" "
                    "fill-opacity=\"0.55\"><title>%s</title></circle>\n",
                    x, rep_axis_px(&ya, e->time_ms), rep_status_colour(0), tip);
        } else {
            char tip[128];
            snprintf(tip, sizeof tip, "evaluation %zu (n %zu): %s", e->n + 1, e->n,
                     cutune_status_name(e->status));
            cross(f, x, fr.top - 14 + 6 * jitter(i * 7 + 3), e->status, tip);
        }
    }
    const char *colours[STATUSES], *labels[STATUSES];
    size_t nleg = 0;
    for (int s = 0; s < STATUSES; s++)
        if (seen[s]) {
            colours[nleg] = rep_status_colour(s);
            labels[nleg++] = s == 0 ? "ok (correct, timed)" : cutune_status_name(s);
        }
    rep_legend_at(f, fr.right + 8, fr.top, nleg, colours, labels);
    rep_svg_end(f);
}

void rep_plot_heatmap(FILE *f, const cutune_report_pool *pool, size_t px, size_t py)
{
    const cutune_report_run *b = pool->base;
    size_t nx = b->nvalues[px], ny = b->nvalues[py];
    if (nx * ny > 10000) { /* a cell would be smaller than a pixel */
        no_data(f, "plot-heatmap", "Heat map",
                "The two most important parameters have too many values for a heat map.");
        return;
    }
    double *best = malloc(nx * ny * sizeof *best);
    int *fails = calloc(nx * ny, sizeof *fails);
    if (!best || !fails) {
        free(best);
        free(fails);
        no_data(f, "plot-heatmap", "Heat map", "out of memory");
        return;
    }
    for (size_t i = 0; i < nx * ny; i++)
        best[i] = NAN;
    double lo = NAN, hi = NAN;
    for (size_t i = 0; i < pool->n; i++) {
        const cutune_report_eval *e = pool->e[i];
        size_t c = e->idx[py] * nx + e->idx[px];
        if (e->status == CUTUNE_STATUS_MISSING)
            continue; /* not in a replayed recording: not measured, not a failure */
        if (e->status != CUTUNE_STATUS_OK) {
            fails[c]++;
            continue;
        }
        if (isnan(best[c]) || e->time_ms < best[c])
            best[c] = e->time_ms;
    }
    for (size_t c = 0; c < nx * ny; c++)
        if (!isnan(best[c])) {
            lo = isnan(lo) || best[c] < lo ? best[c] : lo;
            hi = isnan(hi) || best[c] > hi ? best[c] : hi;
        }
    char title[512];
    snprintf(title, sizeof title, "Best time for each pair of values of %s and %s",
             b->param_names[px], b->param_names[py]);
    double cw = nx > 16 ? 36 : 60, ch = ny > 16 ? 22 : 34;
    rep_frame fr =
        rep_frame_make(90 + cw * (double)nx + 130, 40 + ch * (double)ny + 50, 90, 130, 20, 50);
    rep_svg_begin(f, "plot-heatmap", &fr, title);
    for (size_t y = 0; y < ny; y++)
        for (size_t x = 0; x < nx; x++) {
            size_t c = y * nx + x;
            double X = fr.left + cw * (double)x, Y = fr.bottom - ch * (double)(y + 1);
            char colour[16] = "#ffffff", tip[160], label[32] = "";
            if (!isnan(best[c])) {
                double t = hi > lo ? log(best[c] / lo) / log(hi / lo) : 0;
                rep_colour_map(t, colour, sizeof colour);
                snprintf(tip, sizeof tip, "%s=%s, %s=%s: best %.4g ms%s", b->param_names[px],
                         b->value_text[px][x], b->param_names[py], b->value_text[py][y], best[c],
                         fails[c] ? " (some failed)" : "");
                snprintf(label, sizeof label, "%.3g", best[c]);
            } else if (fails[c]) {
                snprintf(colour, sizeof colour, "#bbbbbb");
                snprintf(tip, sizeof tip, "%s=%s, %s=%s: every evaluation failed",
                         b->param_names[px], b->value_text[px][x], b->param_names[py],
                         b->value_text[py][y]);
                snprintf(label, sizeof label, "failed");
            } else {
                snprintf(tip, sizeof tip, "%s=%s, %s=%s: not measured", b->param_names[px],
                         b->value_text[px][x], b->param_names[py], b->value_text[py][y]);
            }
            fprintf(f,
                    "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%g\" height=\"%g\" "
                    "fill=\"%s\" stroke=\"#eee\"><title>",
                    X, Y, cw, ch, colour);
            rep_html(f, tip);
            fputs("</title></rect>\n", f);
            if (*label && cw >= 60) {
                double t = !isnan(best[c]) && hi > lo ? log(best[c] / lo) / log(hi / lo) : 0;
                fprintf(f,
                        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" "
                        "fill=\"%s\">%s</text>\n",
                        X + cw / 2, Y + ch / 2 + 4, !isnan(best[c]) && t < 0.6 ? "#fff" : "#000",
                        label);
            }
        }
    for (size_t x = 0; x < nx; x++) {
        fprintf(f, "<text x=\"%.1f\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">",
                fr.left + cw * ((double)x + 0.5), fr.bottom + 15);
        rep_html(f, b->value_text[px][x]);
        fputs("</text>\n", f);
    }
    for (size_t y = 0; y < ny; y++) {
        fprintf(f, "<text x=\"%g\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">", fr.left - 6,
                fr.bottom - ch * ((double)y + 0.5) + 4);
        rep_html(f, b->value_text[py][y]);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"12\" text-anchor=\"middle\">",
            (fr.left + fr.right) / 2, fr.h - 14);
    rep_html(f, b->param_names[px]);
    fprintf(f,
            "</text><text transform=\"translate(16 %g) rotate(-90)\" font-size=\"12\" "
            "text-anchor=\"middle\">",
            (fr.top + fr.bottom) / 2);
    rep_html(f, b->param_names[py]);
    fputs("</text>\n", f);
    /* the colour bar: fast (dark) at the bottom, slow (yellow) at the top */
    double bx = fr.right + 20, bh = fr.bottom - fr.top;
    fprintf(f, "<g class=\"legend\">");
    for (int k = 0; k < 20; k++) {
        char colour[16];
        rep_colour_map((k + 0.5) / 20.0, colour, sizeof colour);
        fprintf(f, "<rect x=\"%g\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"%s\"/>", bx,
                fr.bottom - bh * (k + 1) / 20.0, bh / 20.0 + 0.5, colour);
    }
    char lo_t[32], hi_t[32];
    rep_num(lo_t, sizeof lo_t, lo);
    rep_num(hi_t, sizeof hi_t, hi);
    fprintf(f,
            "\n<text x=\"%g\" y=\"%g\" font-size=\"10\">%s ms</text><text x=\"%g\" y=\"%g\" "
            "font-size=\"10\">%s ms</text><text x=\"%g\" y=\"%g\" font-size=\"10\">best time "
            "(log)</text><rect x=\"%g\" y=\"%g\" width=\"14\" height=\"10\" fill=\"#bbbbbb\"/>"
            "<text x=\"%g\" y=\"%g\" font-size=\"10\">all failed</text><rect x=\"%g\" y=\"%g\" "
            "width=\"14\" height=\"10\" fill=\"#fff\" stroke=\"#999\"/><text x=\"%g\" y=\"%g\" "
            "font-size=\"10\">not measured</text></g>\n",
            bx + 18, fr.bottom, lo_t, bx + 18, fr.top + 8, hi_t, bx - 4, fr.top - 6, bx,
            fr.bottom + 10, bx + 18, fr.bottom + 19, bx, fr.bottom + 26, bx + 18, fr.bottom + 35);
    rep_svg_end(f);
    free(best);
    free(fails);
}

void rep_plot_importance(FILE *f, const cutune_report_pool *pool,
                         const cutune_report_importance *imp)
{
    const cutune_report_run *b = pool->base;
    if (!imp || !imp->ntrees) {
        no_data(f, "plot-importance", "Parameter importance",
                "Not enough data: importance needs at least 2 correct evaluations whose times "
                "differ.");
        return;
    }
    size_t np = imp->nparams;
    rep_frame fr = rep_frame_make(760, 50 + 22.0 * (double)np + 40, 150, 60, 20, 45);
    rep_axis xa = {.p0 = fr.left, .p1 = fr.right};
    rep_axis_fit(&xa, 0, 100, 0);
    rep_svg_begin(f, "plot-importance", &fr, "Share of the variance of log(time) per parameter");
    rep_axes(f, &fr, &xa, NULL,
             "share of the variance of log(time) explained by the "
             "parameter alone (%)",
             "");
    for (size_t k = 0; k < np; k++) {
        size_t p = imp->rank[k];
        double y = fr.top + 10 + 22.0 * (double)k, pct = 100 * imp->main[p];
        fprintf(f,
                "<rect class=\"bar\" x=\"%g\" y=\"%.1f\" width=\"%.1f\" height=\"16\" "
                "fill=\"#1f77b4\"><title>%.1f%%</title></rect><text x=\"%g\" y=\"%.1f\" "
                "font-size=\"11\" text-anchor=\"end\">",
                fr.left, y, rep_axis_px(&xa, pct) - fr.left, pct, fr.left - 6, y + 12);
        rep_html(f, b->param_names[p]);
        fprintf(f, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%.1f%%</text>\n",
                rep_axis_px(&xa, pct) + 4, y + 12, pct);
    }
    rep_svg_end(f);
}

void rep_plot_failures(FILE *f, const cutune_report_pool *pool)
{
    const cutune_report_run *b = pool->base;
    size_t rows = 0;
    for (size_t p = 0; p < b->nparams; p++)
        rows += b->nvalues[p] + 1;
    size_t *count = calloc(STATUSES, sizeof *count);
    if (!count)
        return;
    rep_frame fr = rep_frame_make(760, 40 + 15.0 * (double)rows + 50, 150, 170, 20, 45);
    rep_axis xa = {.p0 = fr.left, .p1 = fr.right};
    rep_axis_fit(&xa, 0, 100, 0);
    rep_svg_begin(f, "plot-failures", &fr, "Outcome of the evaluations for each parameter value");
    rep_axes(f, &fr, &xa, NULL, "share of the evaluations with this value (%), by outcome", "");
    double y = fr.top + 4;
    int seen[STATUSES] = {0};
    for (size_t p = 0; p < b->nparams; p++) {
        fprintf(f,
                "<text x=\"%g\" y=\"%.1f\" font-size=\"11\" font-weight=\"bold\" "
                "text-anchor=\"end\">",
                fr.left - 6, y + 11);
        rep_html(f, b->param_names[p]);
        fputs("</text>\n", f);
        y += 15;
        for (size_t v = 0; v < b->nvalues[p]; v++, y += 15) {
            memset(count, 0, STATUSES * sizeof *count);
            size_t total = 0;
            for (size_t i = 0; i < pool->n; i++)
                if (pool->e[i]->idx[p] == v) {
                    count[pool->e[i]->status]++;
                    total++;
                }
            fprintf(f, "<text x=\"%g\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">",
                    fr.left - 6, y + 10);
            rep_html(f, b->value_text[p][v]);
            fprintf(f, " (%zu)</text>\n", total);
            double x = fr.left;
            for (int s = 0; s < STATUSES && total; s++) {
                if (!count[s])
                    continue;
                seen[s] = 1;
                double w = (fr.right - fr.left) * (double)count[s] / (double)total;
                char tip[600];
                snprintf(tip, sizeof tip, "%s=%s: %zu %s of %zu", b->param_names[p],
                         b->value_text[p][v], count[s], cutune_status_name(s), total);
                fprintf(f,
                        "<rect class=\"outcome\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                        "height=\"12\" fill=\"%s\"><title>",
                        x, y, w, rep_status_colour(s));
                rep_html(f, tip);
                fputs("</title></rect>\n", f);
                x += w;
            }
        }
    }
    /* legend beside the bars (they fill the data area) */
    double lx = fr.right + 12, ly = fr.top + 10;
    fputs("<g class=\"legend\">", f);
    for (int s = 0; s < STATUSES; s++)
        if (seen[s]) {
            fprintf(f,
                    "<rect x=\"%g\" y=\"%g\" width=\"10\" height=\"10\" fill=\"%s\"/><text "
                    "x=\"%g\" y=\"%g\" font-size=\"11\">%s</text>",
                    lx, ly, rep_status_colour(s), lx + 14, ly + 9, cutune_status_name(s));
            ly += 16;
        }
    fputs("</g>\n", f);
    rep_svg_end(f);
    free(count);
}
