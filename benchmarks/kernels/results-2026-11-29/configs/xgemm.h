/* Best configuration of xgemm: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/xgemm.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/xgemm.h xgemm */
#ifndef CUTUNE_TUNED_xgemm_H
#define CUTUNE_TUNED_xgemm_H

#define MWG 128
#define NWG 128
#define KWG 32
#define MDIMC 16
#define NDIMC 16
#define MDIMA 16
#define NDIMB 16
#define KWI 2
#define VWM 4
#define VWN 4
#define STRM 0
#define STRN 0
#define SA 1
#define SB 1
#define PRECISION 32

#endif /* CUTUNE_TUNED_xgemm_H */
