/* The report's plots (html_plots.c), each one inline <svg> with a stable id. */
#ifndef CUTUNE_REPORT_HTML_PLOTS_H
#define CUTUNE_REPORT_HTML_PLOTS_H

#include "report_internal.h"

/** Best-so-far against evaluations (wall 0: id plot-convergence-evals) or against wall
 *  time (wall 1: plot-convergence-time), one line per run. */
void rep_plot_convergence(FILE *f, cutune_report_run *const *runs, size_t nruns, int wall);
/** Time (log) against the values of parameter p, failures marked by status (plot-param-P). */
void rep_plot_param(FILE *f, const cutune_report_pool *pool, size_t p);
/** Best time per pair of values of parameters px and py (plot-heatmap). */
void rep_plot_heatmap(FILE *f, const cutune_report_pool *pool, size_t px, size_t py);
/** Main-effect bars in rank order (plot-importance). */
void rep_plot_importance(FILE *f, const cutune_report_pool *pool,
                         const cutune_report_importance *imp);
/** Outcome shares per parameter value (plot-failures). */
void rep_plot_failures(FILE *f, const cutune_report_pool *pool);

#endif
