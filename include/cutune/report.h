/**
 * @file report.h
 * @brief Reports: journals in, a self-contained HTML page (or terminal text) out.
 *
 * A run is one journal read whole (plain or gzip). The report pools the evaluations of
 * every run that has the first run's parameters (names and values) for its per-parameter
 * plots, heat map, importance and tables; every run appears in the convergence plots.
 * Metrics are kept generically: every numeric member of an evaluation's "metrics" (and
 * its compile_ms / bench_ms) becomes a column, so metrics added later need no code.
 */
#ifndef CUTUNE_REPORT_H
#define CUTUNE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "cutune/common.h"

struct cutune_space;
struct cutune_history;

/** An index that names no value of a parameter (the journal's value was not listed). */
#define CUTUNE_REPORT_NOVALUE UINT16_MAX

/** One evaluation line of a journal. */
typedef struct cutune_report_eval {
    size_t n;         /**< the journal's "n" (completion order) */
    size_t n_line;    /**< the journal line that gave n; 0: it had none (n is its place) */
    int status;       /**< cutune_status */
    double time_ms;   /**< median time; NAN unless status is ok */
    double elapsed_s; /**< seconds since the run started; NAN when the line lacks it */
    uint16_t *idx;    /**< per parameter, the index of its value in the run's lists */
    double *metrics;  /**< per metric of the run (nmetrics), NAN where absent */
} cutune_report_eval;

/** One journal. */
typedef struct cutune_report_run {
    char *path;                /**< the file read */
    char *label;               /**< "NAME, SEARCHER, seed S" (legends) */
    char *name;                /**< the kernel: the spec's name, or a recording's stem */
    char *spec, *searcher;     /**< header "spec", "searcher" */
    char *evaluator, *device;  /**< header "evaluator", "device" (NULL when absent) */
    char *evaluator_arg;       /**< header "evaluator_arg", or NULL */
    char *target;              /**< header "target", or NULL */
    unsigned long seed;        /**< header "seed" */
    size_t nparams;            /**< tunable parameters */
    char **param_names;        /**< their names, in the header's order */
    size_t *nvalues;           /**< values per parameter */
    char ***value_text;        /**< each value as printed ("128", "1.5", "fast") */
    double **value_num;        /**< each value as a number, NAN for text */
    size_t nsizes;             /**< header "sizes" */
    char **size_names;         /**< their names */
    double *size_values;       /**< their values */
    size_t nmetrics;           /**< metric columns */
    char **metric_names;       /**< in first-seen order */
    size_t nevals, capevals;   /**< evaluations read */
    cutune_report_eval *evals; /**< in file order */
    int dropped_tail;          /**< a last line cut off mid-write was left out */
    char *objective;           /**< header "objective" (what the run ranked by, when not
                                    time; NULL: time); the report ranks by time */
} cutune_report_run;

/**
 * Read a journal (plain or gzip). Errors: "FILE:LINE: FIELD: reason" (CUTUNE_EPARSE),
 * or what cutune_read_file says. A final line cut short (a crash mid-write) is ignored.
 * @param out receives the run (cutune_report_run_free).
 */
int cutune_report_run_load(const char *path, cutune_report_run **out, char *err, size_t errlen);
/** Same from memory (not compressed; fuzzing); name is used in messages. */
int cutune_report_run_load_buffer(const char *name, const char *data, size_t len,
                                  cutune_report_run **out, char *err, size_t errlen);
void cutune_report_run_free(cutune_report_run *r);
/** e's configuration as "NAME=VALUE, ..." in run's parameter order (truncated to len). */
void cutune_report_eval_config_text(const cutune_report_run *run, const cutune_report_eval *e,
                                    char *buf, size_t len);

/** Parameter importance: a functional ANOVA of a random forest (importance.c). */
typedef struct cutune_report_importance {
    size_t nparams;  /**< parameters */
    size_t nsamples; /**< ok evaluations the forest was fitted to */
    size_t ntrees;   /**< trees that were not a single leaf */
    double *main;    /**< per parameter: fraction of the variance of log(time) explained
                          by its main effect, 0..1 */
    double *pair;    /**< nparams x nparams (row-major, i < j filled, mirrored): fraction
                          explained by the interaction of i and j alone */
    size_t *rank;    /**< parameters by decreasing main effect */
} cutune_report_importance;

/** Forest size and leaf size (defaults when 0). */
typedef struct cutune_report_importance_opts {
    size_t ntrees;      /**< default 64 */
    size_t min_leaf;    /**< default 2 */
    unsigned long seed; /**< bootstrap generator (default 1: the report is reproducible) */
} cutune_report_importance_opts;

/**
 * Fit a random forest (bootstrap regression trees on the value indices, splits "index
 * <= t") to y = log(time_ms) of the n samples (idx: n x nparams, row-major; nvalues: the
 * values per parameter), and decompose each tree's prediction over the uniform
 * distribution on the Cartesian grid of values (Hutter, Hoos, Leyton-Brown, "An efficient
 * approach for assessing hyperparameter importance", ICML 2014): the variance of the
 * marginal in parameter i is its main effect; that of the marginal in (i, j) less both
 * main effects is their interaction; each is divided by the tree's total variance and the
 * fractions are averaged over trees. With fewer than 2 samples, or no variance, every
 * fraction is 0 and ntrees is 0.
 * @param out receives the result (cutune_report_importance_free).
 */
int cutune_report_importance_compute(size_t nparams, const size_t *nvalues, size_t n,
                                     const uint16_t *idx, const double *time_ms,
                                     const cutune_report_importance_opts *opts,
                                     cutune_report_importance **out, char *err, size_t errlen);
void cutune_report_importance_free(cutune_report_importance *imp);

/** Profiler results of one configuration (profile.json, written by `cutune profile`). */
typedef struct cutune_report_profile_entry {
    char *role;     /**< "best 1", "worst 1", ... */
    size_t n;       /**< the journal's evaluation number */
    char *config;   /**< "BM=128, BN=64, ..." */
    size_t nvalues; /**< metrics */
    char **names;   /**< ncu metric names */
    char **units;   /**< their units ("%", "cycle", "" ...) */
    double *values; /**< their values */
} cutune_report_profile_entry;

typedef struct cutune_report_profile {
    char *path;   /**< the profile.json read */
    char *status; /**< "ok", or the one line ncu's refusal gave */
    size_t nentries;
    cutune_report_profile_entry *entries;
} cutune_report_profile;

/** Where `cutune profile` keeps a journal's profiles: JOURNAL without .jsonl[.gz] +
 *  ".profile" (a folder). */
int cutune_report_profile_dir(const char *journal, char *buf, size_t len);
/** Read DIR/profile.json; CUTUNE_ENOTFOUND (no message) when there is none. */
int cutune_report_profile_load(const char *dir, cutune_report_profile **out, char *err,
                               size_t errlen);
void cutune_report_profile_free(cutune_report_profile *p);
/** Write DIR/profile.json (through cutune_outfile: never a partial file). */
int cutune_report_profile_save(const char *dir, const cutune_report_profile *p, char *err,
                               size_t errlen);

/**
 * Parse Nsight Compute CSV (`ncu --csv`, either `--page raw`: a header row, a units row,
 * one row per kernel; or `--page details`: one row per metric with "Metric Name",
 * "Metric Unit", "Metric Value"). Lines before the header (==PROF== ...) are skipped;
 * numbers may hold thousands separators. Only the first kernel (ID) is taken.
 * Metric columns (those whose name holds "__") are returned.
 * @param name for messages; entry receives names, units and values (role, config unset).
 */
int cutune_report_ncu_parse(const char *name, const char *csv, size_t len,
                            cutune_report_profile_entry *entry, char *err, size_t errlen);
/**
 * Whether an ncu metric is a warp-stall reason: 1 for WarpStateStats'
 * smsp__average_warps_issue_stalled_REASON_per_issue_active.ratio (warps stalled per issued
 * instruction), 2 for the sampling counter smsp__pcsamp_warps_issue_stalled_REASON; 0
 * otherwise. buf receives REASON ("long_scoreboard").
 */
int cutune_report_ncu_stall_reason(const char *metric, char *buf, size_t len);
/** Free what an entry holds (not the entry itself). */
void cutune_report_profile_entry_clear(cutune_report_profile_entry *e);

/** What goes into a page. */
typedef struct cutune_report_page_opts {
    const char *title; /**< NULL: from the first run */
} cutune_report_page_opts;

/**
 * Write the HTML page for runs (nruns >= 1) to f: inline SVG and a small inline script,
 * no external resource. profiles[r] (may be NULL) are shown with run r.
 */
int cutune_report_html_write(FILE *f, cutune_report_run *const *runs, size_t nruns,
                             cutune_report_profile *const *profiles,
                             const cutune_report_page_opts *opts, char *err, size_t errlen);

/** Parameter importance as text (the pooled runs, as the page computes it). */
int cutune_report_text_write(FILE *f, cutune_report_run *const *runs, size_t nruns, char *err,
                             size_t errlen);

/**
 * After a tuning run: the best k configurations as a table and a one-line sparkline of
 * best-so-far against evaluations (Unicode block characters when utf8 is 1, ASCII when 0,
 * from the locale's variables when -1).
 */
void cutune_report_terminal_summary(FILE *f, const struct cutune_space *s,
                                    const struct cutune_history *h, size_t k, int utf8);

/** Pool the evaluations of runs whose parameters match runs[0]'s (report_pool.c). */
typedef struct cutune_report_pool {
    const cutune_report_run *base; /**< runs[0]: names and values */
    size_t n;                      /**< pooled evaluations */
    const cutune_report_eval **e;  /**< views into the runs */
    size_t *run;                   /**< which run each came from */
    size_t nmetrics;               /**< the union of metric names */
    char **metric_names;           /**< views into the runs */
    size_t **metric_map;           /**< per run, per union metric: the run's column, or SIZE_MAX */
    size_t nruns;                  /**< runs pooled (those matching) */
    int *pooled;                   /**< per run given: 1 when it matched */
} cutune_report_pool;

int cutune_report_pool_make(cutune_report_run *const *runs, size_t nruns, cutune_report_pool *p,
                            char *err, size_t errlen);
/** 1 when a and b were run at the same problem sizes (header "sizes": names and values in
 * order); runs at other sizes are not pooled. */
int cutune_report_same_sizes(const cutune_report_run *a, const cutune_report_run *b);
/** A pooled evaluation's metric m (union index), NAN when its run lacks it. */
double cutune_report_pool_metric(const cutune_report_pool *p, size_t i, size_t m);
void cutune_report_pool_clear(cutune_report_pool *p);

/** Importance over a pool's ok evaluations (default options). */
int cutune_report_pool_importance(const cutune_report_pool *p, cutune_report_importance **out,
                                  char *err, size_t errlen);

#endif
