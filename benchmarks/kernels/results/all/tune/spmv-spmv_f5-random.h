/* Best configuration of spmv_f5 found by cutune 0.1.0: 0.08244800195097923 ms (spec hash 8427f91c8e8d5124).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_F5_H
#define CUTUNE_TUNED_SPMV_F5_H

#define FORMAT 5
#define TPR 4
#define BLOCK 512
#define RPB 256
#define XLDG 1
#define UNR 4
#define BPS 4
#define STAGES 3

#endif /* CUTUNE_TUNED_SPMV_F5_H */
