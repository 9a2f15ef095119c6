/* The multi-shape evaluator of `cutune --sizes` (shapes_eval.c). */
#ifndef CUTUNE_CLI_SHAPES_EVAL_H
#define CUTUNE_CLI_SHAPES_EVAL_H

#include "cutune/cutune.h"

/** One shape as the evaluator sees it (views the caller keeps alive). */
typedef struct shapes_eval_shape {
    const char *label;               /**< 1024x1024x1024: the metric t_LABEL, messages */
    const cutune_space *space;       /**< the shape's space */
    cutune_evaluator *ev;            /**< measures there */
    const cutune_tuner_store *store; /**< the database's hooks for the shape's key, or NULL */
    size_t seq;                      /**< the next evaluation's number in the shape's db run */
    size_t nevals, nreused;          /**< answers given, of them from the database */
} shapes_eval_shape;

/**
 * An evaluator over the common space (configurations valid at every shape, matched by
 * parameter values): a configuration is evaluated at every shape; its status is ok when ok
 * at all (else the first failure's, its log naming the shape), its time the geometric
 * mean of the shapes' times, its metrics t_LABEL each shape's time, its compile and bench
 * costs the sums. With n = 1 the shape's answer unchanged. Simulated (a virtual clock)
 * when every shape's evaluator is.
 */
int shapes_eval_alloc(const cutune_space *common, shapes_eval_shape *sh, size_t n,
                      cutune_evaluator **out, char *err, size_t errlen);

#endif
