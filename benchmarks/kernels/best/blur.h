/* Best configuration of blur found by cutune 0.1.0: 0.181536003947258 ms (spec hash 121acdf221e4318e).
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
