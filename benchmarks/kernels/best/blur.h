/* Best configuration of blur found by cutune 0.1.0: 0.2513759881258011 ms (spec hash 811271836476878f).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_BLUR_H
#define CUTUNE_TUNED_BLUR_H

#define TX 128
#define TY 4
#define PPT 8
#define FUSED 1
#define SEPARABLE 1

#endif /* CUTUNE_TUNED_BLUR_H */
