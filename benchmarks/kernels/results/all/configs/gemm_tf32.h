/* Best configuration of gemm_tf32 found by cutune 0.1.0: 0.790800005197525 ms (spec hash 2fd60bf9a18fee11).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_TF32_H
#define CUTUNE_TUNED_GEMM_TF32_H

#define BM 64
#define BN 256
#define BK 16
#define WM 64
#define WN 64
#define STAGES 4

#endif /* CUTUNE_TUNED_GEMM_TF32_H */
