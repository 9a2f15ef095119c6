/* Best configuration of blur: EXAMPLE, NOT TUNED (a valid configuration picked by hand
 * from kernels/blur.json for developing benchmarks/kernels). Replace it with the output
 * of: cutune --header=benchmarks/kernels/best/blur.h blur */
#ifndef CUTUNE_TUNED_blur_H
#define CUTUNE_TUNED_blur_H

#define TX 32
#define TY 8
#define PPT 2
#define FUSED 1
#define SEPARABLE 1

#endif /* CUTUNE_TUNED_blur_H */
