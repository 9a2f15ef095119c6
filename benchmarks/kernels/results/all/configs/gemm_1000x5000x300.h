/* Best configuration of gemm found by cutune 0.1.0: 0.08656000345945358 ms (spec hash 6ae66dc1dcc88866).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_H
#define CUTUNE_TUNED_GEMM_H

#define BM 64
#define BN 64
#define BK 8
#define WM 32
#define WN 32
#define TM 8
#define TN 4
#define VEC 4
#define PAD 4
#define STAGES 1
#define SPLITK 1

#endif /* CUTUNE_TUNED_GEMM_H */
