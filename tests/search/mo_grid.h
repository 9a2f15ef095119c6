/* A two-objective search problem for the multi-objective bo tests (mo_grid.c). */
#ifndef CUTUNE_TESTS_MO_GRID_H
#define CUTUNE_TESTS_MO_GRID_H

#include <stddef.h>

#include "cutune/space.h"

/* A 15 x 15 grid (parameters a, b); objective 1 rises and objective 2 falls with a, b adds
 * a distance: the front is b = 0 (15 configurations). */
void mo_grid_scores(const cutune_space *s, size_t id, double f[2]);
/* The tuner loop in miniature under two objectives with bo (args its options): each
 * observation carries both scores and their geometric mean. Writes the evaluated ids in
 * order into seq (budget of them); returns the front configurations (b = 0) found. */
size_t mo_grid_run(size_t budget, unsigned long seed, const char *args, size_t *seq);

#endif
