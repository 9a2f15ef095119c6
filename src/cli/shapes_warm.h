/* The each mode's warm starts (--shape-warm): shapes_warm.c chooses and builds them,
 * shapes_model.c holds the model over configuration and size. */
#ifndef CUTUNE_CLI_SHAPES_WARM_H
#define CUTUNE_CLI_SHAPES_WARM_H

#include "shapes_run.h"

/**
 * A warm start for shape order[k] from the shapes tuned before it (order[0..k)): "nearest"
 * the tuned shape nearest by the dispatch rule, its times as they are; "all" every tuned
 * shape, each time replaced by its rank fraction within its shape (times of two shapes
 * share no scale); "model" the prediction of a model over configuration and size fitted on
 * every tuned shape (shapes_model_prior; seed: the run's). *from gets the nearest shape.
 * *prior NULL: none tuned yet, or "none".
 */
int shapes_warm_prior(const char *how, shape_run *R, const size_t *order, size_t k,
                      unsigned long seed, cutune_warm_prior **prior, long *from, char *err,
                      size_t errlen);

/**
 * The prior of shape order[k] from the histories of shapes order[0..k) (R indexed by
 * order): the model's prediction at its sizes for each configuration of its space,
 * standardised. *out NULL (and 0) where the shapes before hold fewer than two correct
 * evaluations to model. seed: the run's (the fit's random starts).
 */
int shapes_model_prior(shape_run *R, const size_t *order, size_t k, unsigned long seed,
                       cutune_warm_prior **out, char *err, size_t errlen);

#endif
