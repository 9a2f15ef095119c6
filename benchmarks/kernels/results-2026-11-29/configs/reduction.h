/* Best configuration of reduction: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/reduction.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/reduction.h reduction */
#ifndef CUTUNE_TUNED_reduction_H
#define CUTUNE_TUNED_reduction_H

#define BLOCK 256
#define ITEMS 4
#define VEC 4
#define SHUFFLE 1
#define GRID 1056

#endif /* CUTUNE_TUNED_reduction_H */
