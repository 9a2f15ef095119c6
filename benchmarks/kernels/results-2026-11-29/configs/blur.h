/* Best configuration of blur found by cutune 0.1.0: 0.18009600043296814 ms (spec hash 9dd0d63defae79a1).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_BLUR_H
#define CUTUNE_TUNED_BLUR_H

#define TX 32
#define TY 4
#define PPT 2
#define FUSED 1
#define SEPARABLE 1
#define ALGO 1
#define PF 2

#endif /* CUTUNE_TUNED_BLUR_H */
