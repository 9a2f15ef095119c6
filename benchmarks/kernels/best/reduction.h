/* Best configuration of reduction found by cutune 0.1.0: 0.12094399705529213 ms (spec hash ed8bdbd080fc9c2f).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_REDUCTION_H
#define CUTUNE_TUNED_REDUCTION_H

#define BLOCK 1024
#define ITEMS 2
#define VEC 4
#define SHUFFLE 1
#define GRID 132

#endif /* CUTUNE_TUNED_REDUCTION_H */
