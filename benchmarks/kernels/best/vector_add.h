/* Best configuration of vector_add found by cutune 0.1.0: 0.04956800118088722 ms (spec hash 2a2f4b9cd82ad966).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_VECTOR_ADD_H
#define CUTUNE_TUNED_VECTOR_ADD_H

#define block_size_x 256
#define items_per_thread 1
#define vector_width 4

#endif /* CUTUNE_TUNED_VECTOR_ADD_H */
