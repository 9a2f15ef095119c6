/* Best configuration of transpose: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/transpose.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/transpose.h transpose */
#ifndef CUTUNE_TUNED_transpose_H
#define CUTUNE_TUNED_transpose_H

#define TILE 32
#define BLOCK_ROWS 8
#define PAD 1
#define VEC 1

#endif /* CUTUNE_TUNED_transpose_H */
