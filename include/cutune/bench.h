/**
 * @file bench.h
 * @brief Searcher comparison on recorded spaces (`cutune bench`).
 *
 * For every (convention, recording, searcher, seed, budget) one run replays the
 * recording in-process: propose(k=1) -> look the configuration up -> observe,
 * charging one evaluation per configuration not seen before (a re-proposed
 * configuration is answered again without charge). Every budget is a run of its
 * own with ctx.budget = that budget, as `cutune --budget=B` makes it: a searcher
 * may plan by its budget (bo's design size does), so a smaller budget is not read
 * off a longer run, unless the searcher's plan (cutune_searcher_type.plan) is the same
 * for both: then the run of the largest budget of that plan serves them all. The
 * best-so-far curves and P come from the runs of the largest budget.
 *
 * Conventions (which points a budget charges):
 *  - constraint-aware: a tuner that knows the restrictions. Where the recording's
 *    restrictions are known (cutune_bench_options.spaces), the space is the Cartesian
 *    product filtered by them, and a configuration that satisfies them but is absent
 *    from the recording is a failed evaluation (status missing) and is charged: the
 *    published recordings store only the configurations that ran, so searching only
 *    those would never propose, nor pay for, the ones that failed. Where they are not
 *    known, the recorded configurations (cutune_bench_space_info.restricted = 0);
 *  - recorded: the space is the set of recorded configurations; only they can be
 *    proposed and charged (easier than a real run where failures are not recorded);
 *  - cartesian: the space is the whole Cartesian product; a point absent from
 *    the recording or recorded as a failure is a failed evaluation (status
 *    missing / failure) and is charged.
 *
 * Measures per (convention, recording, searcher, budget): fraction of optimum
 * t_opt / t_best (0 when nothing valid was found) - mean, median, 5th and 95th
 * percentile over seeds -, success rate (t_best == t_opt) and the mean number
 * of evaluations charged. Per (convention, recording, searcher): the
 * methodology score P (Willemsen et al., FGCS 2024) over evaluations and, where
 * the recording holds compile and benchmark times, over simulated time, against
 * the exact expectation of random search without replacement.
 */
#ifndef CUTUNE_BENCH_H
#define CUTUNE_BENCH_H

#include "cutune/common.h"
#include "cutune/searcher.h"

struct cutune_recording;

/** Conventions (bit mask). */
enum cutune_bench_convention {
    CUTUNE_BENCH_CONSTRAINT_AWARE = 1u,
    CUTUNE_BENCH_CARTESIAN = 2u,
    CUTUNE_BENCH_RECORDED = 4u,
};

/** Most conventions a bench runs at once. */
#define CUTUNE_BENCH_NCONV 3

/** The space of one recording, where it is known: the restrictions that define it. */
typedef struct cutune_bench_space_def {
    int known;                       /**< 0: unknown (the recorded configurations stand in) */
    const char *const *restrictions; /**< n expressions (none: the whole Cartesian product) */
    size_t n;
    const char *source;         /**< where they come from, for messages and results.md ("FILE:LINE",
                                     "--restrict"); may be NULL */
    const char *const *sources; /**< appended: [n] where each expression is ("FILE:LINE"), so
                                     that its error names its own line; NULL: source */
} cutune_bench_space_def;

/** Consecutive already-visited proposals after which a run gives up. */
#define CUTUNE_BENCH_MAX_DUPLICATES 10000

/** Points on the time axis of P over simulated time. */
#define CUTUNE_BENCH_TIME_POINTS 100

/** What to run (views; valid during cutune_bench_run). */
typedef struct cutune_bench_options {
    const cutune_searcher_type *const *searchers; /**< nsearchers types */
    const char *const *searcher_args;             /**< per searcher ctx.args, or NULL (none) */
    const char *const *searcher_labels;           /**< names in the output, or NULL (type names) */
    size_t nsearchers;
    const char *const *recordings; /**< recording files (Kernel Tuner cache or journal) */
    size_t nrecordings;
    const size_t *budgets; /**< evaluation budgets, any order, each > 0 */
    size_t nbudgets;
    size_t nseeds;        /**< runs per cell; seeds are 1..nseeds */
    unsigned conventions; /**< CUTUNE_BENCH_CONSTRAINT_AWARE | _CARTESIAN | _RECORDED */
    const cutune_bench_space_def *spaces; /**< [nrecordings] known spaces, or NULL (none) */
    int split;                            /**< also the leave-one-GPU-out tables (bench_split.c) */
    unsigned jobs;                        /**< worker threads (0 = online cores) */
    size_t parallel; /**< evaluations in flight per run (0 or 1: one at a time). With N
                          > 1 each run is the tuner loop itself (cutune_tune) on a virtual
                          clock with N workers: the recorded cost of each evaluation
                          (the model of docs/parallel.md where the recording has none),
                          results observed in completion order; every budget is then a
                          run of its own, and P over time reads that clock */
    /** Called (serialised, from any thread) as runs finish; may be NULL. */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
    /** Appended: called once when every recording is loaded (recs[i] in the results'
     *  order), before the first run; may be NULL. The CLI says there what a recording
     *  left out (a journal's cut-off last line), as every other command does. */
    void (*loaded)(void *ctx, const struct cutune_recording *const *recs, size_t n);
    void *loaded_ctx;
} cutune_bench_options;

/** Statistics of one (convention, recording, searcher, budget) cell. */
typedef struct cutune_bench_cell {
    double mean, median, p05, p95; /**< fraction of optimum over seeds */
    double success;                /**< fraction of runs that found the optimum */
    double evals;                  /**< mean evaluations charged (<= budget) */
} cutune_bench_cell;

/** One recording in one convention. */
typedef struct cutune_bench_space_info {
    size_t size;         /**< configurations a run may propose */
    size_t nok;          /**< of them with a valid recorded time */
    double t_opt;        /**< best recorded time in the space (ms) */
    double t_median;     /**< median valid time (ms) */
    size_t cutoff;       /**< evaluations for random search to reach 95% from median to
                              optimum (may exceed the largest budget) */
    size_t p_points;     /**< evaluations P averages over: min(cutoff, largest budget) */
    double mean_cost_ms; /**< mean simulated cost of one evaluation (0 without costs) */
    double *baseline;    /**< [maxb] expected best of random search after t+1 evaluations */
    double *rand_frac;   /**< [maxb] expected fraction of optimum of random search after t+1
                              evaluations (exact, order statistics) */
    int restricted;      /**< the space is the restricted Cartesian product (constraint-aware
                              with known restrictions, or cartesian) */
    size_t absent;       /**< configurations of the space the recording does not hold */
    char *source;        /**< where the restrictions came from (constraint-aware), or NULL */
} cutune_bench_space_info;

typedef struct cutune_bench_recording_info {
    char *path; /**< as given */
    char *name; /**< file name without .json / .json.gz */
    char *device, *kernel;
    int has_costs; /**< compile + benchmark times recorded */
} cutune_bench_recording_info;

/** Everything a bench run measured. Index order: [conv][rec][searcher][...]. */
typedef struct cutune_bench_result {
    size_t nconv;
    unsigned conv[CUTUNE_BENCH_NCONV]; /**< conventions in output order */
    int split;                         /**< write the leave-one-GPU-out tables */
    size_t nrec, nsearchers, nbudgets, nseeds, maxb;
    cutune_bench_recording_info *rec; /**< [nrec] */
    char **searchers;                 /**< labels [nsearchers] */
    char **searcher_args;             /**< [nsearchers], NULL when none */
    size_t *budgets;                  /**< sorted ascending, unique [nbudgets] */
    cutune_bench_space_info *space;   /**< [nconv * nrec] */
    cutune_bench_cell *cells;         /**< [nconv][nrec][nsearchers][nbudgets] */
    double *p_evals;                  /**< [nconv][nrec][nsearchers] mean P over evaluations */
    double *p_time;                   /**< same over simulated time (NAN without costs) */
    double *p_runs;                   /**< [nconv][nrec][nsearchers][nseeds][2] P of each run
                                           over evaluations and over time */
    double *best;                     /**< [nconv][nrec][nsearchers][nseeds][maxb] best-so-far
                                           time of the largest budget's run (INFINITY while
                                           nothing valid) */
    double *at;                       /**< [nconv][nrec][nsearchers][nseeds][nbudgets] best
                                           time of the run of each budget */
    double *curve;                    /**< [nconv][nrec][nsearchers][3][maxb]: median, p05, p95
                                           of the fraction of optimum after t+1 evaluations */
    char *manifest;                   /**< the manifest (cutune_manifest_build, JSON) the
                                           outputs carry, or NULL; freed with the result */
    char identity[24];                /**< its short identity, "" when none */
} cutune_bench_result;

/** Name of a convention ("constraint-aware", "cartesian", "recorded"). */
const char *cutune_bench_convention_name(unsigned conv);

/** A recording's label: its file name without .json, .json.gz, .jsonl, .jsonl.gz (malloc'd;
 *  NULL on OOM). Restrictions files match it; results name recordings by it. */
char *cutune_bench_recording_label(const char *path);

/**
 * A restrictions file: the known spaces of a folder of recordings. Lines:
 *   # comment            (and blank lines)
 *   [PATTERN ...]        a section for the recordings whose label matches one of the shell
 *                        patterns (fnmatch); the first section that matches wins
 *   EXPRESSION           one restriction of the section (docs/expressions.md); a section
 *                        without any: the whole Cartesian product
 * Errors name the file and the line.
 */
typedef struct cutune_bench_restrictions cutune_bench_restrictions;
int cutune_bench_restrictions_load(const char *path, cutune_bench_restrictions **out, char *err,
                                   size_t errlen);
/** Fill *def (views into r) for the recording label; 1 when a section matches, 0 when none
 *  does (def->known = 0). */
int cutune_bench_restrictions_lookup(const cutune_bench_restrictions *r, const char *label,
                                     cutune_bench_space_def *def);
/** The sections of r that match none of the n labels: their count, and in buf (len > 0)
 *  "[PATTERN ...] (FILE:LINE)" of each, joined by ", " (cut short where buf is). */
size_t cutune_bench_restrictions_unmatched(const cutune_bench_restrictions *r,
                                           const char *const *labels, size_t n, char *buf,
                                           size_t len);
void cutune_bench_restrictions_free(cutune_bench_restrictions *r);

/**
 * Expected minimum of b values drawn without replacement from sorted[0..n)
 * (ascending; +inf = failure): sum_i v_(i) C(n-i, b-1) / C(n, b), the
 * probabilities in log space (lgamma). A failure contributes fail_value (a
 * finite stand-in such as the worst valid time) so that the expectation stays
 * finite when every draw may fail. Returns NAN when b is 0 or exceeds n.
 */
double cutune_bench_expected_min(const double *sorted, size_t n, size_t b, double fail_value);

/**
 * Check opt without reading a recording: every list given, and the result tables of the
 * runs within this machine's memory (CUTUNE_EINVAL, saying how much they would take). What
 * cutune_bench_run checks first; a caller can ask before it makes anything.
 */
int cutune_bench_check(const cutune_bench_options *opt, char *err, size_t errlen);

/**
 * Run the benchmark. *out (free with cutune_bench_result_free) is set on
 * success. Errors name the recording or searcher.
 */
int cutune_bench_run(const cutune_bench_options *opt, cutune_bench_result **out, char *err,
                     size_t errlen);

void cutune_bench_result_free(cutune_bench_result *r);

/** The cell of (convention index, recording, searcher, budget index), or NULL. */
const cutune_bench_cell *cutune_bench_result_cell(const cutune_bench_result *r, size_t conv,
                                                  size_t rec, size_t searcher, size_t budget);

/**
 * Write results.md, results.csv, results.json and the plot data
 * (plots/CONV_RECORDING.dat + plots.gp) into dir (created if missing). The
 * tables carry no timestamps and are sorted, so equal inputs give identical
 * files. command (may be NULL) is quoted in results.md.
 */
int cutune_bench_write(const cutune_bench_result *r, const char *dir, const char *command,
                       char *err, size_t errlen);

/**
 * Write DIR/results.tex: the table of results.md as a LaTeX tabular (booktabs rules), one
 * row per (convention, recording, searcher), one column per budget (mean fraction of the
 * optimum) and P, with the manifest's identity in a comment and in the caption.
 * cutune_bench_write calls it.
 */
int cutune_bench_write_latex(const cutune_bench_result *r, const char *dir, char *err,
                             size_t errlen);

/**
 * Write DIR/runs.csv: one row per (convention, recording, searcher, seed, budget) with the
 * best time found within that budget and its fraction of the optimum (0 and an empty
 * time when nothing valid was found): the per-seed values behind results.csv's means and
 * percentiles, for paired tests between searchers (seed s of every searcher is the same
 * cutune --seed=s run).
 */
int cutune_bench_write_runs(const cutune_bench_result *r, const char *dir, char *err,
                            size_t errlen);

/**
 * Create dir (and its parents) if missing and check that files can be written in it:
 * called before a benchmark runs, so that a bad --out does not cost the whole run.
 */
int cutune_bench_prepare_dir(const char *dir, char *err, size_t errlen);

/**
 * Draw the convergence plots (PNG, SVG and PDF) from what cutune_bench_write left
 * in dir by running gnuplot. CUTUNE_ENOTFOUND when gnuplot is not installed
 * (the data files are still there).
 */
int cutune_bench_plot(const char *dir, char *err, size_t errlen);

#endif
