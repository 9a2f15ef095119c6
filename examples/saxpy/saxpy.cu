/*
 * saxpy: z = a * x + y over n floats, a tunable kernel to copy and adapt.
 *
 * cutune passes every parameter of saxpy.json as -DNAME=VALUE:
 *   block_size_x      threads per block
 *   items_per_thread  elements each thread handles, strided by the block so that the
 *                     loads of a warp stay coalesced
 * The #ifndef defaults let the reference kernel compile without them (cutune compiles it
 * with the sizes only).
 */

#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
saxpy(float *__restrict__ z, const float *__restrict__ x, const float *__restrict__ y, float a,
      int n)
{
    const long long first = (long long)blockIdx.x * (block_size_x * items_per_thread) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < items_per_thread; k++) {
        const long long i = first + (long long)k * block_size_x;
        if (i < n)
            z[i] = a * x[i] + y[i];
    }
}

/* The reference the tuned kernel is checked against: one element per thread. */
extern "C" __global__ void saxpy_ref(float *z, const float *x, const float *y, float a, int n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = a * x[i] + y[i];
}
