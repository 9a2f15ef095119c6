/* Best configuration of blur_a2 found by cutune 0.1.0: 0.12987200170755386 ms (spec hash 2f3c91b1fcf4bacf).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_BLUR_A2_H
#define CUTUNE_TUNED_BLUR_A2_H

#define TX 32
#define TY 2
#define PPT 4
#define FUSED 1
#define SEPARABLE 1
#define ALGO 2
#define PF 1
#define PPL 8
#define SPLIT 0
#define GRAY 1

#endif /* CUTUNE_TUNED_BLUR_A2_H */
