/* Best configuration of gemm found by cutune 0.1.0: 0.06441599875688553 ms (spec hash 6629d365ce166f7e).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_H
#define CUTUNE_TUNED_GEMM_H

#define BM 64
#define BN 128
#define BK 32
#define WM 32
#define WN 32
#define TM 8
#define TN 4
#define VEC 4
#define PAD 4
#define STAGES 1
#define SPLITK 1

#endif /* CUTUNE_TUNED_GEMM_H */
