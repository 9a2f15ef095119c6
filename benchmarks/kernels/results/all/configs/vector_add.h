/* Best configuration of vector_add found by cutune 0.1.0: 0.049295999109745026 ms (spec hash 2a2f4b9cd82ad966).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_VECTOR_ADD_H
#define CUTUNE_TUNED_VECTOR_ADD_H

#define block_size_x 128
#define items_per_thread 1
#define vector_width 2

#endif /* CUTUNE_TUNED_VECTOR_ADD_H */
