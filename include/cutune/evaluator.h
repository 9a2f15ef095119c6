/**
 * @file evaluator.h
 * @brief The evaluator plugin interface: score configurations, never choose them.
 */
#ifndef CUTUNE_EVALUATOR_H
#define CUTUNE_EVALUATOR_H

#include "cutune/common.h"
#include "cutune/space.h"

/* 2: asynchronous evaluation (submit / wait_any / slots / worker_name) */
#define CUTUNE_EVALUATOR_TYPE_VERSION 2
#define CUTUNE_MAX_METRICS 48

struct cutune_spec;
struct cutune_recording;

typedef struct cutune_metric {
    char name[32];
    double value;
} cutune_metric;

/** Outcome of one evaluation. Owns times_ms and log (free with _clear). */
typedef struct cutune_eval_result {
    cutune_status status;
    double time_ms;   /**< median of times_ms (objective) when OK */
    double *times_ms; /**< every timed repetition (malloc'd) */
    size_t ntimes;
    double compile_ms; /**< compile cost (measured, or recorded for replay); <0 unknown */
    double bench_ms;   /**< verification + timing cost; <0 unknown */
    char *log;         /**< compile log / error text (malloc'd) or NULL */
    size_t nmetrics;
    cutune_metric metrics[CUTUNE_MAX_METRICS]; /**< evaluator metrics (registers, sm clock ...) */
} cutune_eval_result;

void cutune_eval_result_clear(cutune_eval_result *r);
/** Append a metric; CUTUNE_ENOMEM once CUTUNE_MAX_METRICS are held, CUTUNE_EINVAL for a
 *  name of 32 bytes or more (never truncates silently). */
int cutune_eval_result_add_metric(cutune_eval_result *r, const char *name, double value);

/** What an evaluator is given at alloc (views valid for its life). */
typedef struct cutune_evaluator_ctx {
    const cutune_space *space;      /**< enumerated */
    const struct cutune_spec *spec; /**< kernel spec, or NULL (recording as space) */
    const char *arg;                /**< text after "NAME:" in --evaluator, or NULL */
    unsigned long seed;             /**< the run's seed (inputs for verification) */
    int verbose;
    /** Appended in version 1: a recording already loaded by the caller (replay uses
     *  it instead of loading ctx->arg again when the paths match), or NULL. */
    const struct cutune_recording *recording;
    /** Appended: the evaluator metrics the run's objective and constraints read (names),
     *  or none. An evaluator that can never measure one refuses at alloc, naming it; replay
     *  answers with the recorded metrics only when some are needed (so that the journals
     *  of time-objective runs stay as they were). */
    const char *const *need_metrics;
    size_t nneed;
} cutune_evaluator_ctx;

typedef struct cutune_evaluator_type {
    unsigned version; /**< CUTUNE_EVALUATOR_TYPE_VERSION */
    const char *name;
    const char *help;
    size_t size;    /**< bytes of private state (zeroed before alloc) */
    unsigned flags; /**< CUTUNE_EVALUATOR_NEEDS_GPU ... */
    int (*alloc)(void *state, const cutune_evaluator_ctx *ctx, char *err, size_t errlen);
    /** Evaluate k configurations; results[i] (zeroed by caller) for ids[i]. */
    int (*evaluate)(void *state, const size_t *ids, size_t k, cutune_eval_result *results,
                    char *err, size_t errlen);
    void (*free)(void *state);
    /** One line naming what is measured (GPU, driver / recording file). Optional. */
    const char *(*device)(void *state);
    /** Optional hint: these ids come next (start compiling them). */
    void (*prefetch)(void *state, const size_t *ids, size_t k);
    /* ---- Appended in version 2: asynchronous evaluation (all optional). ---- */
    /** Start evaluating id and return at once. Never given an id already in flight. */
    int (*submit)(void *state, size_t id, char *err, size_t errlen);
    /** Block until one submitted evaluation finishes (any order): *id gets which, *worker
     *  the worker (GPU) that ran it, res (zeroed by the caller) its outcome. Called only
     *  while at least one evaluation is in flight. */
    int (*wait_any)(void *state, size_t *id, int *worker, cutune_eval_result *res, char *err,
                    size_t errlen);
    /** Evaluations worth keeping in flight by default (--parallel): 1 when NULL. */
    size_t (*slots)(void *state);
    /** What worker w is (a GPU's index, name and UUID), or NULL. */
    const char *(*worker_name)(void *state, int w);
} cutune_evaluator_type;

#define CUTUNE_EVALUATOR_NEEDS_GPU 1u
/** Answers at once from recorded measurements: the tuner loop plays each evaluation's
 *  recorded compile + benchmark time on a virtual clock with N simulated workers, so a
 *  parallel run's schedule is reproducible (same seed and N: the same journal). */
#define CUTUNE_EVALUATOR_SIMULATED 2u
/** Stores each answer elsewhere as it makes it (the tuning database of a multi-shape
 *  run): a stopping run finishes and journals what is in flight even when simulated, so
 *  that the journal and that store agree. */
#define CUTUNE_EVALUATOR_RECORDS 4u

typedef struct cutune_evaluator {
    const cutune_evaluator_type *type;
    void *state;
    /* For a type without submit / wait_any: submitted ids, evaluated one at a time in
     * submission order when waited for. */
    size_t *queue;
    size_t qhead, qlen, qcap;
} cutune_evaluator;

/** NULL-terminated table of built-in evaluators. */
const cutune_evaluator_type *const *cutune_evaluator_types(void);
extern const cutune_evaluator_type *const cutune_evaluator_replay;
extern const cutune_evaluator_type *const cutune_evaluator_cuda;

const cutune_evaluator_type *cutune_evaluator_find(const char *name, char *err, size_t errlen);
int cutune_evaluator_alloc(const cutune_evaluator_type *t, const cutune_evaluator_ctx *ctx,
                           cutune_evaluator **out, char *err, size_t errlen);
int cutune_evaluator_evaluate(cutune_evaluator *e, const size_t *ids, size_t k,
                              cutune_eval_result *results, char *err, size_t errlen);
const char *cutune_evaluator_device(cutune_evaluator *e);
void cutune_evaluator_prefetch(cutune_evaluator *e, const size_t *ids, size_t k);
/** Submit one evaluation (an evaluator without submit queues it and evaluates it, in
 *  submission order, when waited for). */
int cutune_evaluator_submit(cutune_evaluator *e, size_t id, char *err, size_t errlen);
/** Wait for one submitted evaluation to finish (see the type's wait_any). */
int cutune_evaluator_wait_any(cutune_evaluator *e, size_t *id, int *worker, cutune_eval_result *res,
                              char *err, size_t errlen);
/** The evaluator's default number of evaluations in flight (>= 1). */
size_t cutune_evaluator_slots(cutune_evaluator *e);
/** Worker w's description, or NULL. */
const char *cutune_evaluator_worker_name(cutune_evaluator *e, int w);
void cutune_evaluator_free(cutune_evaluator *e);

#endif
