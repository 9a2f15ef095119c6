/* Best configuration of spmv found by cutune 0.1.0: 0.11006399989128113 ms (spec hash edee8b21b96948e8).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_H
#define CUTUNE_TUNED_SPMV_H

#define FORMAT 3
#define TPR 4
#define BLOCK 1024
#define RPB 2048
#define XLDG 1
#define UNR 4

#endif /* CUTUNE_TUNED_SPMV_H */
