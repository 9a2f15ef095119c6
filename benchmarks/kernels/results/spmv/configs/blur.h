/* Best configuration of blur_new found by cutune 0.1.0: 0.12984000146389008 ms (spec hash 7270569cc01561b3).
 * Generated file: re-run the tuner rather than edit it. */
#ifndef CUTUNE_TUNED_BLUR_NEW_H
#define CUTUNE_TUNED_BLUR_NEW_H

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
#define STAGE 0

#endif /* CUTUNE_TUNED_BLUR_NEW_H */
