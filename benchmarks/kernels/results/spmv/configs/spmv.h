/* Best configuration of spmv_new found by cutune 0.1.0: 0.07684800028800964 ms (spec hash 6f3ab3c9466c5afb).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_NEW_H
#define CUTUNE_TUNED_SPMV_NEW_H

#define FORMAT 5
#define TPR 4
#define BLOCK 1024
#define RPB 256
#define XLDG 1
#define UNR 4
#define BPS 2
#define STAGES 4

#endif /* CUTUNE_TUNED_SPMV_NEW_H */
