/* Best configuration of gemm found by cutune 0.1.0: 3.197840094566345 ms (spec hash 92c1d1d04561163d).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_H
#define CUTUNE_TUNED_GEMM_H

#define BM 128
#define BN 128
#define BK 16
#define WM 64
#define WN 32
#define TM 8
#define TN 8
#define VEC 4
#define PAD 4
#define STAGES 3
#define SPLITK 1

#endif /* CUTUNE_TUNED_GEMM_H */
