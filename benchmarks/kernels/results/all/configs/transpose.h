/* Best configuration of transpose found by cutune 0.1.0: 0.13577599823474884 ms (spec hash 0652355c0c13bfcb).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_TRANSPOSE_H
#define CUTUNE_TUNED_TRANSPOSE_H

#define TILE 64
#define BLOCK_ROWS 16
#define PAD 1
#define VEC 2

#endif /* CUTUNE_TUNED_TRANSPOSE_H */
