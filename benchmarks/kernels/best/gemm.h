/* Best configuration of gemm found by cutune 0.1.0: 3.145087957382202 ms (spec hash 92c1d1d04561163d).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_H
#define CUTUNE_TUNED_GEMM_H

#define BM 128
#define BN 256
#define BK 16
#define WM 32
#define WN 64
#define TM 8
#define TN 8
#define VEC 2
#define PAD 4
#define STAGES 3
#define SPLITK 1

#endif /* CUTUNE_TUNED_GEMM_H */
