/* Best configuration of gemm found by cutune 0.1.0: 2.985935926437378 ms (spec hash 3019f485fcc5aa9e).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_H
#define CUTUNE_TUNED_GEMM_H

#define BM 128
#define BN 256
#define BK 32
#define WM 32
#define WN 128
#define TM 16
#define TN 8
#define VEC 4
#define PAD 4
#define STAGES 3
#define SPLITK 1

#endif /* CUTUNE_TUNED_GEMM_H */
