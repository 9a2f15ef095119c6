/* Best configuration of spmv found by cutune 0.1.0: 0.0822560004889965 ms (spec hash 67a9ada3fe057df8).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_SPMV_H
#define CUTUNE_TUNED_SPMV_H

#define FORMAT 5
#define TPR 4
#define BLOCK 512
#define RPB 256
#define XLDG 1
#define UNR 4
#define BPS 4
#define STAGES 3

#endif /* CUTUNE_TUNED_SPMV_H */
