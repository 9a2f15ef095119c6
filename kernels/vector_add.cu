/*
 * vector_add: c = a + b over N floats, the smallest tunable kernel (a bandwidth test).
 *
 * Tunable (passed as -DNAME=VALUE by cutune, see vector_add.json):
 *   block_size_x      threads per block
 *   items_per_thread  vectors each thread handles, strided by the block so that
 *                     every load of a warp stays coalesced
 *   vector_width      floats per load/store: 1 (float), 2 (float2), 4 (float4)
 * Any n is correct: the whole vectors are done vectorised and the n % vector_width
 * leftover elements by the first threads of block 0. cudaMalloc'd buffers are 256-byte
 * aligned, so float4 accesses at multiples of 4 elements are aligned.
 *
 * NVRTC-compatible: no host headers; float2/float4 are NVRTC built-ins.
 */

#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif
#ifndef vector_width
#define vector_width 1
#endif

#if vector_width == 4
typedef float4 vec_t;
static __device__ __forceinline__ vec_t vadd(vec_t x, vec_t y)
{
    return make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}
#elif vector_width == 2
typedef float2 vec_t;
static __device__ __forceinline__ vec_t vadd(vec_t x, vec_t y)
{
    return make_float2(x.x + y.x, x.y + y.y);
}
#elif vector_width == 1
typedef float vec_t;
static __device__ __forceinline__ vec_t vadd(vec_t x, vec_t y)
{
    return x + y;
}
#else
#error "vector_width must be 1, 2 or 4"
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
vector_add(float *__restrict__ c, const float *__restrict__ a, const float *__restrict__ b, int n)
{
    const long long nvec = n / vector_width;
    const long long first = (long long)blockIdx.x * (block_size_x * items_per_thread) + threadIdx.x;
    const vec_t *av = reinterpret_cast<const vec_t *>(a);
    const vec_t *bv = reinterpret_cast<const vec_t *>(b);
    vec_t *cv = reinterpret_cast<vec_t *>(c);

#pragma unroll
    for (int k = 0; k < items_per_thread; k++) {
        const long long v = first + (long long)k * block_size_x;
        if (v < nvec)
            cv[v] = vadd(av[v], bv[v]);
    }

    if (vector_width > 1 && blockIdx.x == 0) {
        const long long i = nvec * vector_width + threadIdx.x;
        if (i < n)
            c[i] = a[i] + b[i];
    }
}

/* The reference: one element per thread, no tunables (only the sizes are defined). */
extern "C" __global__ void vector_add_ref(float *c, const float *a, const float *b, int n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
