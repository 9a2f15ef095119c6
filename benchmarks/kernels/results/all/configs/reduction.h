/* Best configuration of reduction found by cutune 0.1.0: 0.12083199992775917 ms (spec hash ed8bdbd080fc9c2f).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_REDUCTION_H
#define CUTUNE_TUNED_REDUCTION_H

#define BLOCK 512
#define ITEMS 1
#define VEC 4
#define SHUFFLE 1
#define GRID 264

#endif /* CUTUNE_TUNED_REDUCTION_H */
