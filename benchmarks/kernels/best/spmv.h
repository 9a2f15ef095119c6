/* Best configuration of spmv found by cutune 0.1.0: 0.12832000106573105 ms (spec hash 07e4abdc231df5d7).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_H
#define CUTUNE_TUNED_SPMV_H

#define FORMAT 1
#define TPR 4
#define BLOCK 512
#define XLDG 0

#endif /* CUTUNE_TUNED_SPMV_H */
