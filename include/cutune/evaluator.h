/**
 * @file evaluator.h
 * @brief The evaluator plugin interface: score configurations, never choose them.
 */
#ifndef CUTUNE_EVALUATOR_H
#define CUTUNE_EVALUATOR_H

#include "cutune/common.h"
#include "cutune/space.h"

#define CUTUNE_EVALUATOR_TYPE_VERSION 1
#define CUTUNE_MAX_METRICS 24

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
/** Append a metric; CUTUNE_ENOMEM once CUTUNE_MAX_METRICS are held (never truncates silently). */
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
} cutune_evaluator_type;

#define CUTUNE_EVALUATOR_NEEDS_GPU 1u

typedef struct cutune_evaluator {
    const cutune_evaluator_type *type;
    void *state;
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
void cutune_evaluator_free(cutune_evaluator *e);

#endif
