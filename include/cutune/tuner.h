/**
 * @file tuner.h
 * @brief The tuner loop: propose -> evaluate -> observe, with budget, journal,
 *        de-duplication, resume and progress.
 */
#ifndef CUTUNE_TUNER_H
#define CUTUNE_TUNER_H

#include <signal.h>
#include "cutune/common.h"
#include "cutune/evaluator.h"
#include "cutune/searcher.h"
#include "cutune/space.h"

struct cutune_spec;
struct cutune_recording;

/** One evaluation of the run, in order. */
typedef struct cutune_history_entry {
    size_t id;            /**< dense id in the space */
    cutune_eval_result r; /**< owned */
    double *spec_metrics; /**< spec->nmetrics derived metrics (NAN when not OK), or NULL */
    double wall_s;        /**< seconds since the run started when it finished (the virtual
                               clock's under a simulated evaluator with recorded times) */
    int worker;           /**< the worker (slot or GPU) that ran it; -1 when unknown */
    size_t proposed;      /**< 0-based order in which it was submitted */
    char timestamp[32];   /**< ISO 8601 UTC, or "" under deterministic_clock */
    int reused;           /**< answered by the store (an earlier run's measurement) */
    double score;         /**< what the searcher was told (cutune_objective_score): time_ms
                               under the time objective; NAN when infeasible */
} cutune_history_entry;

typedef struct cutune_history {
    size_t n, cap;
    cutune_history_entry *e;
    long best;      /**< index into e of the best OK entry, or -1 */
    size_t resumed; /**< entries answered from the resumed journal (not measured again) */
    size_t counts[CUTUNE_STATUS_COUNT];
    size_t reused; /**< entries answered by the store (not measured again) */
    const struct cutune_objective *objective;    /**< view: what best is best by (NULL: time) */
    const struct cutune_confirm_result *confirm; /**< view: the confirmation after the run
                                                      (cutune_confirm_run), or NULL */
} cutune_history;

void cutune_history_free(cutune_history *h);

typedef enum cutune_stop_reason {
    CUTUNE_STOP_BUDGET = 0, /**< budget spent */
    CUTUNE_STOP_EXHAUSTED,  /**< searcher had nothing left / space exhausted */
    CUTUNE_STOP_TIME,       /**< --time-limit reached */
    CUTUNE_STOP_SIGNAL,     /**< SIGINT / SIGTERM */
} cutune_stop_reason;

/**
 * Results kept across runs (the tuning database, db.h): the loop asks the store before it
 * evaluates a configuration, and hands it every evaluation of the run. Both hooks optional.
 */
typedef struct cutune_tuner_store {
    void *ctx;
    /** An earlier measurement of configuration id: 1 with *r filled (zeroed by the loop,
     *  then owned by it), 0 when there is none (it is evaluated), <0 an error (the run
     *  stops with it). */
    int (*lookup)(void *ctx, size_t id, cutune_eval_result *r, char *err, size_t errlen);
    /** History entry e, index n, once journaled: measured now, answered by lookup
     *  (e->reused), or resumed from the journal (handed again on every resume, so the
     *  store keeps one per n). <0 stops the run with that error. */
    int (*record)(void *ctx, size_t n, const cutune_history_entry *e, char *err, size_t errlen);
} cutune_tuner_store;

typedef struct cutune_tuner_options {
    size_t budget;            /**< unique evaluations (> 0) */
    double time_limit_s;      /**< 0 = none; wall or simulated time */
    int charge_recorded_time; /**< under a simulated evaluator (replay), charge the virtual
                                   clock of recorded compile + bench times against
                                   time_limit and in wall_s; other evaluators: wall time */
    size_t batch;             /**< proposals per round (>= 1): the loop asks the searcher
                                   again once this many slots are free */
    size_t parallel;          /**< evaluations in flight (0: the evaluator's default; at
                                   least batch) */
    const char *journal_path; /**< NULL = no journal */
    const struct cutune_recording *resume; /**< journal being resumed, or NULL */
    int progress;                          /**< print a progress line to stderr (terminals only) */
    int deterministic_clock;               /**< leave wall-clock timestamps out (replay: same
                                                seed => byte-identical journal) */
    volatile sig_atomic_t *stop;           /**< set non-zero to stop cleanly (2 or more: at
                                                once, without replaying the rest of a resumed
                                                journal; the proposals of a searcher call
                                                during which it reached 2 are dropped), or
                                                NULL */
    /* header fields for the journal */
    const char *searcher_name, *searcher_args, *evaluator_name, *evaluator_arg;
    const char *target; /**< the kernel spec or recording the run was started on (path) */
    const char *spec_name, *spec_hash; /**< the journal header's spec when the run has no
                                            spec of its own (one over several shapes: the
                                            kernel's); NULL: the evaluator's argument */
    unsigned long seed;
    int cartesian; /**< the space is a recording's Cartesian product (--cartesian) */
    const cutune_tuner_store *store; /**< results across runs, or NULL */
    /** What is optimised, with its constraints (NULL: time, minimised); the best entry is
     *  the one of least score. */
    const struct cutune_objective *objective;
    const char *warm_start;      /**< the warm start's source for the header, or NULL */
    const char *warm_start_hash; /**< hash of its prior (cutune_warm_prior_hash), or NULL */
    /** Answer from the resumed journal with its recorded metrics under the time objective
     *  too (a multi-shape common run's per-shape times, t_LABEL; other objectives always
     *  have them). */
    int resume_metrics;
    /** The GPU fingerprint for the journal header's "gpu" (cutune_journal_header.gpu), or
     *  NULL: none written */
    const char *gpu;
} cutune_tuner_options;

/**
 * Run the loop until the budget, the time limit, a stop request or the
 * searcher runs out. Up to opt->parallel evaluations are in flight; results are
 * observed in completion order (under a simulated evaluator, the order of a virtual
 * clock that plays each evaluation's recorded compile + benchmark time). A stop
 * request or the time limit stops proposing; evaluations in flight are finished and
 * journaled (under a simulated evaluator: dropped, unjournaled; a resumed run still
 * replays its journal up to the first proposal it lacks). The history (caller-owned,
 * zero-initialised) gets every evaluation, resumed ones included; *reason why it stopped. visited
 * (cutune_space_size bytes, zeroed) is the array given to the searcher in
 * its ctx: the loop marks each evaluated id.
 */
int cutune_tune(const cutune_space *space, const struct cutune_spec *spec,
                cutune_searcher *searcher, uint8_t *visited, cutune_evaluator *ev,
                const cutune_tuner_options *opt, cutune_history *hist, cutune_stop_reason *reason,
                char *err, size_t errlen);

#endif
