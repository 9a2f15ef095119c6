/* Best configuration of gemm_tf32 found by cutune 0.1.0: 0.7698880136013031 ms (spec hash 2fd60bf9a18fee11).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_GEMM_TF32_H
#define CUTUNE_TUNED_GEMM_TF32_H

#define BM 128
#define BN 128
#define BK 32
#define WM 32
#define WN 128
#define STAGES 2

#endif /* CUTUNE_TUNED_GEMM_TF32_H */
