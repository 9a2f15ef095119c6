/* --shape-warm=model (shapes_model.c): a shape's warm start predicted by one Gaussian
 * process over configuration and size, fitted on the shapes tuned before it. */
#ifndef CUTUNE_CLI_SHAPES_MODEL_H
#define CUTUNE_CLI_SHAPES_MODEL_H

#include "shapes_run.h"

/**
 * The prior of shape order[k] from the histories of shapes order[0..k) (R indexed by
 * order): the model's prediction at its sizes for each configuration of its space,
 * standardised. *out NULL (and 0) where the shapes before hold fewer than two correct
 * evaluations to model. seed: the run's (the fit's random starts).
 */
int shapes_model_prior(shape_run *R, const size_t *order, size_t k, unsigned long seed,
                       cutune_warm_prior **out, char *err, size_t errlen);

#endif
