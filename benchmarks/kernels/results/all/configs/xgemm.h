/* Best configuration of xgemm found by cutune 0.1.0: 3.395632028579712 ms (spec hash 25e3c52030dc1b86).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_XGEMM_H
#define CUTUNE_TUNED_XGEMM_H

#define MWG 64
#define NWG 128
#define KWG 32
#define MDIMC 16
#define NDIMC 16
#define MDIMA 16
#define NDIMB 8
#define KWI 2
#define VWM 2
#define VWN 4
#define STRM 0
#define STRN 0
#define SA 1
#define SB 1
#define PRECISION 32

#endif /* CUTUNE_TUNED_XGEMM_H */
