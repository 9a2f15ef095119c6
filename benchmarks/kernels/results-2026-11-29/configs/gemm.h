/* Best configuration of gemm: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/gemm.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/gemm.h gemm */
#ifndef CUTUNE_TUNED_gemm_H
#define CUTUNE_TUNED_gemm_H

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

#endif /* CUTUNE_TUNED_gemm_H */
