/* Best configuration of vector_add: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/vector_add.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/vector_add.h vector_add */
#ifndef CUTUNE_TUNED_vector_add_H
#define CUTUNE_TUNED_vector_add_H

#define block_size_x 256
#define items_per_thread 2
#define vector_width 4

#endif /* CUTUNE_TUNED_vector_add_H */
