/*
 * reduction.cu - tunable dot product (sum of x[i] * y[i]) of two float vectors.
 *
 *   out[0] = sum_{i < N} x[i] * y[i]
 *
 * One launch, two stages, no second kernel and no accumulation into `out`:
 *   1. GRID blocks of BLOCK threads walk the vectors grid-stride, each thread
 *      keeping ITEMS independent VEC-wide loads of x and y in flight per step and
 *      ITEMS separate float accumulators; the block reduces its threads' sums
 *      (SHUFFLE = 1: warp shuffles, then one warp over the warp sums; SHUFFLE = 0:
 *      a shared-memory tree) and thread 0 writes partials[blockIdx.x];
 *   2. thread 0 then fences and takes a ticket from counter[0] (atomicAdd); the
 *      block that draws ticket GRID-1 is the last one, so every partial is
 *      written and visible (threadfence before the ticket, L2 reads after it); it
 *      sums partials[0..GRID) in a fixed order, *writes* out[0] (plain store:
 *      a NaN-poisoned or stale out is overwritten, never read), and resets
 *      counter[0] to 0 for the next launch.
 * The result is deterministic for a given configuration (fixed summation order).
 * counter must be zero before the first launch (init zeros in reduction.json).
 * Edges: any N; the tail that does not fill a VEC-wide vector is added by block 0.
 */
#ifndef N
#define N 67108864
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef SHUFFLE
#define SHUFFLE 1
#endif
#ifndef GRID
#define GRID 528
#endif

#define NVEC ((long long)N / VEC)
#define STRIDE ((long long)GRID * BLOCK)

__device__ __forceinline__ float dotv(const float *x, const float *y, long long v)
{
#if VEC == 4
    const float4 a = __ldg((const float4 *)x + v), b = __ldg((const float4 *)y + v);
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
#elif VEC == 2
    const float2 a = __ldg((const float2 *)x + v), b = __ldg((const float2 *)y + v);
    return a.x * b.x + a.y * b.y;
#else
    return __ldg(x + v) * __ldg(y + v);
#endif
}

/* sum of v over the block; the result is valid in thread 0 */
__device__ __forceinline__ float block_sum(float v, float *sh)
{
#if SHUFFLE
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK / 32 ? sh[lane] : 0.0f;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    __syncthreads(); /* sh may be reused */
    return v;
#else
    sh[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s)
            sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    v = sh[0];
    __syncthreads();
    return v;
#endif
}

extern "C" __global__ void __launch_bounds__(BLOCK)
reduction(const float *__restrict__ x, const float *__restrict__ y, float *out,
          float *partials, int *counter)
{
    __shared__ float sh[SHUFFLE ? 32 : BLOCK];
    __shared__ int s_last;
    float acc[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
        acc[j] = 0.0f;

    long long v = (long long)blockIdx.x * BLOCK + threadIdx.x;
    for (; v + (ITEMS - 1) * STRIDE < NVEC; v += ITEMS * STRIDE) {
#pragma unroll
        for (int j = 0; j < ITEMS; j++)
            acc[j] += dotv(x, y, v + j * STRIDE);
    }
    for (; v < NVEC; v += STRIDE)
        acc[0] += dotv(x, y, v);
#if N % VEC
    if (blockIdx.x == 0 && threadIdx.x < N % VEC) {
        const long long i = NVEC * VEC + threadIdx.x;
        acc[0] += x[i] * y[i];
    }
#endif
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
        s += acc[j];
    s = block_sum(s, sh);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        __threadfence(); /* the partial is visible device-wide before the ticket */
        s_last = atomicAdd(counter, 1) == GRID - 1;
    }
    __syncthreads();
    if (!s_last)
        return;
    __threadfence();
    float t = 0.0f;
    for (int i = threadIdx.x; i < GRID; i += BLOCK)
        t += __ldcg(&partials[i]); /* L2, not a stale L1 line */
    t = block_sum(t, sh);
    if (threadIdx.x == 0) {
        out[0] = t;
        *counter = 0; /* ready for the next launch */
    }
}

/* Reference: one block, double accumulation, fixed order; obviously correct. */
extern "C" __global__ void reduction_ref(const float *x, const float *y, float *out,
                                         float *partials, int *counter)
{
    __shared__ double sh[256];
    double s = 0.0;
    for (long long i = threadIdx.x; i < (long long)N; i += 256)
        s += (double)x[i] * (double)y[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double t = 0.0;
        for (int i = 0; i < 256; i++)
            t += sh[i];
        out[0] = (float)t;
    }
}
