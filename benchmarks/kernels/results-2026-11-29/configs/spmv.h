/* Best configuration of spmv: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/spmv.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/spmv.h spmv */
#ifndef CUTUNE_TUNED_spmv_H
#define CUTUNE_TUNED_spmv_H

#define FORMAT 1
#define TPR 8
#define BLOCK 256
#define XLDG 1

#endif /* CUTUNE_TUNED_spmv_H */
