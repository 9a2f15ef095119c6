/* Best configuration of spmv found by cutune 0.1.0: 0.09748799726366997 ms (spec hash 6759c131e936f37f).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_H
#define CUTUNE_TUNED_SPMV_H

#define FORMAT 4
#define TPR 2
#define BLOCK 512
#define RPB 256
#define XLDG 1
#define UNR 4

#endif /* CUTUNE_TUNED_SPMV_H */
