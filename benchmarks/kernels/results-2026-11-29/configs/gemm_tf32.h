/* Best configuration of gemm_tf32: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/gemm_tf32.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/gemm_tf32.h gemm_tf32 */
#ifndef CUTUNE_TUNED_gemm_tf32_H
#define CUTUNE_TUNED_gemm_tf32_H

#define BM 128
#define BN 128
#define BK 32
#define WM 64
#define WN 32
#define STAGES 3

#endif /* CUTUNE_TUNED_gemm_tf32_H */
