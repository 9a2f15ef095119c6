/*
 * gemm.cu - tunable single-precision GEMM for cutune (Ampere/Hopper, CUDA cores).
 *
 *   C = alpha * A * B + beta * C,   row-major: A is M x K, B is K x N, C is M x N.
 *
 * Every tunable (and every size M, N, K) arrives as a -DNAME=VALUE define; the
 * defaults below only make the file compile on its own. Design (docs/kernels.md):
 *   - block tile BM x BN, split among warps of WM x WN, each thread TM x TN
 *     outer products held in registers (TM, TN in 4, 8, 16, multiples of 4:
 *     float4 smem reads; 16 only as 16x8 or 8x16: 128 accumulators);
 *   - the thread tile is made of 4-wide chunks spaced 4*(WM/TM) rows / 4*(WN/TN)
 *     columns apart, so a warp's float4 shared-memory reads are conflict free;
 *   - A is stored transposed in shared memory (As[BK][BM+PAD]), B as is
 *     (Bs[BK][BN+PAD]); PAD (0 or 4 floats) breaks bank conflicts of the A stores;
 *   - STAGES == 1: the next tile is loaded into registers (VEC-wide global loads)
 *     while the current one is computed, then stored to the single smem buffer;
 *     STAGES 2..3: a cp.async ring of STAGES smem buffers (A copied element-wise,
 *     4-byte cp.async, so it can be transposed; B in VEC*4-byte copies);
 *   - SPLITK > 1: blockIdx.z takes a K slice; every slice writes its partial tile
 *     to `work`, then takes a ticket from `counters[tile]`; the last slice to arrive
 *     sums all partials and writes C = alpha*sum + beta*C exactly once, then resets
 *     the counter to 0 (so the next launch finds it clean). C is never
 *     accumulated into, so a NaN-poisoned C is harmless, and no second kernel
 *     is needed.
 *   - beta == 0 follows BLAS: C is not read (NaN in C does not propagate).
 * Edges: any M, N, K; loads are guarded (zero fill), stores are guarded. VEC-wide
 * loads need K % VEC == 0 and N % VEC == 0 (a restriction in gemm.json).
 */
#ifndef M
#define M 4096
#endif
#ifndef N
#define N 4096
#endif
#ifndef K
#define K 4096
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef PAD
#define PAD 4
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef SPLITK
#define SPLITK 1
#endif

#define NT ((BM / TM) * (BN / TN))      /* threads per block */
#define WARPS_N (BN / WN)
#define TMT (WM / TM)                   /* threads of a warp along m */
#define TNT (WN / TN)                   /* threads of a warp along n */
#define LDAS (BM + PAD)
#define LDBS (BN + PAD)
#define A_STAGE (BK * LDAS)
#define B_STAGE (BK * LDBS)
#define NBUF (STAGES > 1 ? STAGES : 1)
#define A_ITERS ((BM * BK) / (NT * VEC))
#define B_ITERS ((BK * BN) / (NT * VEC))
/* K range of one split-K slice, a multiple of BK */
#define KSLICE ((((K + SPLITK - 1) / SPLITK) + BK - 1) / BK * BK)

#if (TMT * TNT) != 32
#error "warp tile must hold 32 threads: (WM/TM)*(WN/TN) == 32"
#endif
#if (BM % WM) || (BN % WN) || (TM % 4) || (TN % 4)
#error "BM % WM, BN % WN, TM % 4, TN % 4 must be 0"
#endif
#if ((BM * BK) % (NT * VEC)) || ((BK * BN) % (NT * VEC)) || (BK % VEC)
#error "tile loads must divide evenly among the threads"
#endif
#if (K % VEC) || (N % VEC)
#error "VEC-wide loads need K % VEC == 0 and N % VEC == 0"
#endif

typedef unsigned int u32;

__device__ __forceinline__ u32 smem_u32(const void *p)
{
    return (u32)__cvta_generic_to_shared(p);
}

/* cp.async with zero fill: src_bytes = 0 writes zeros and reads nothing */
__device__ __forceinline__ void cp_async4(void *dst, const void *src, int valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(valid ? 4 : 0));
}
__device__ __forceinline__ void cp_async8(void *dst, const void *src, int valid)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(valid ? 8 : 0));
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src, int valid)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int n> __device__ __forceinline__ void cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(n));
}

/* Issue the cp.async copies of one K tile (k0..k0+BK) into smem buffers As/Bs. */
__device__ __forceinline__ void issue_tile(float *As, float *Bs, const float *__restrict__ A,
                                           const float *__restrict__ B, int bm0, int bn0,
                                           int k0, int kend, int tid)
{
#pragma unroll
    for (int it = 0; it < A_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BK / VEC);
        const int kc = (idx % (BK / VEC)) * VEC;
        const int gm = bm0 + row, gk = k0 + kc;
        const int ok = gm < M && gk < kend;
        const float *src = ok ? A + (size_t)gm * K + gk : A;
#pragma unroll
        for (int v = 0; v < VEC; v++)
            cp_async4(&As[(kc + v) * LDAS + row], ok ? src + v : A, ok);
    }
#pragma unroll
    for (int it = 0; it < B_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BN / VEC);
        const int nc = (idx % (BN / VEC)) * VEC;
        const int gk = k0 + row, gn = bn0 + nc;
        const int ok = gk < kend && gn < N;
        const float *src = ok ? B + (size_t)gk * N + gn : B;
        float *dst = &Bs[row * LDBS + nc];
#if VEC == 4
        cp_async16(dst, src, ok);
#elif VEC == 2
        cp_async8(dst, src, ok);
#else
        cp_async4(dst, src, ok);
#endif
    }
}

/* STAGES == 1: plain global loads of one tile into registers ... */
__device__ __forceinline__ void load_regs(float (&ra)[A_ITERS][VEC], float (&rb)[B_ITERS][VEC],
                                          const float *__restrict__ A,
                                          const float *__restrict__ B, int bm0, int bn0,
                                          int k0, int kend, int tid)
{
#pragma unroll
    for (int it = 0; it < A_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BK / VEC);
        const int kc = (idx % (BK / VEC)) * VEC;
        const int gm = bm0 + row, gk = k0 + kc;
        if (gm < M && gk < kend) {
            const float *src = A + (size_t)gm * K + gk;
#if VEC == 4
            const float4 t = __ldg((const float4 *)src);
            ra[it][0] = t.x; ra[it][1] = t.y; ra[it][2] = t.z; ra[it][3] = t.w;
#elif VEC == 2
            const float2 t = __ldg((const float2 *)src);
            ra[it][0] = t.x; ra[it][1] = t.y;
#else
            ra[it][0] = __ldg(src);
#endif
        } else {
#pragma unroll
            for (int v = 0; v < VEC; v++)
                ra[it][v] = 0.0f;
        }
    }
#pragma unroll
    for (int it = 0; it < B_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BN / VEC);
        const int nc = (idx % (BN / VEC)) * VEC;
        const int gk = k0 + row, gn = bn0 + nc;
        if (gk < kend && gn < N) {
            const float *src = B + (size_t)gk * N + gn;
#if VEC == 4
            const float4 t = __ldg((const float4 *)src);
            rb[it][0] = t.x; rb[it][1] = t.y; rb[it][2] = t.z; rb[it][3] = t.w;
#elif VEC == 2
            const float2 t = __ldg((const float2 *)src);
            rb[it][0] = t.x; rb[it][1] = t.y;
#else
            rb[it][0] = __ldg(src);
#endif
        } else {
#pragma unroll
            for (int v = 0; v < VEC; v++)
                rb[it][v] = 0.0f;
        }
    }
}

/* ... then stored to shared memory (A transposed). */
__device__ __forceinline__ void store_regs(float *As, float *Bs, const float (&ra)[A_ITERS][VEC],
                                           const float (&rb)[B_ITERS][VEC], int tid)
{
#pragma unroll
    for (int it = 0; it < A_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BK / VEC);
        const int kc = (idx % (BK / VEC)) * VEC;
#pragma unroll
        for (int v = 0; v < VEC; v++)
            As[(kc + v) * LDAS + row] = ra[it][v];
    }
#pragma unroll
    for (int it = 0; it < B_ITERS; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BN / VEC);
        const int nc = (idx % (BN / VEC)) * VEC;
        float *dst = &Bs[row * LDBS + nc];
#if VEC == 4
        *(float4 *)dst = make_float4(rb[it][0], rb[it][1], rb[it][2], rb[it][3]);
#elif VEC == 2
        *(float2 *)dst = make_float2(rb[it][0], rb[it][1]);
#else
        dst[0] = rb[it][0];
#endif
    }
}

/* The outer products of one K tile. am/bn: this thread's first row/column in the tile. */
__device__ __forceinline__ void compute_tile(const float *As, const float *Bs, int am, int bn,
                                             float (&acc)[TM][TN])
{
#pragma unroll
    for (int k = 0; k < BK; k++) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM / 4; i++) {
            const float4 t = *(const float4 *)&As[k * LDAS + am + i * 4 * TMT];
            a[4 * i + 0] = t.x; a[4 * i + 1] = t.y; a[4 * i + 2] = t.z; a[4 * i + 3] = t.w;
        }
#pragma unroll
        for (int j = 0; j < TN / 4; j++) {
            const float4 t = *(const float4 *)&Bs[k * LDBS + bn + j * 4 * TNT];
            b[4 * j + 0] = t.x; b[4 * j + 1] = t.y; b[4 * j + 2] = t.z; b[4 * j + 3] = t.w;
        }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

/* row/column of accumulator element i / j inside the block tile */
#define ROW_OF(i) (wm0 + ((i) / 4) * 4 * TMT + 4 * tm + ((i) % 4))
#define COL_OF(j) (wn0 + ((j) / 4) * 4 * TNT + 4 * tn + ((j) % 4))

extern "C" __global__ void __launch_bounds__(NT)
gemm(const float *__restrict__ A, const float *__restrict__ B, float *C, float alpha,
     float beta, float *work, int *counters)
{
    extern __shared__ __align__(16) float smem[];
    float *As0 = smem;                 /* NBUF buffers of A_STAGE floats */
    float *Bs0 = smem + NBUF * A_STAGE; /* NBUF buffers of B_STAGE floats */

    const int tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int tn = lane % TNT, tm = lane / TNT;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    const int bm0 = blockIdx.y * BM, bn0 = blockIdx.x * BN;
    const int am = wm0 + 4 * tm, bnn = wn0 + 4 * tn;

#if SPLITK > 1
    const int kbeg = blockIdx.z * KSLICE;
    const int kend = min(K, kbeg + KSLICE);
#else
    const int kbeg = 0, kend = K;
#endif
    const int ntiles = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

#if STAGES == 1
    {
        float ra[A_ITERS][VEC], rb[B_ITERS][VEC];
        if (ntiles > 0) {
            load_regs(ra, rb, A, B, bm0, bn0, kbeg, kend, tid);
            store_regs(As0, Bs0, ra, rb, tid);
        }
        __syncthreads();
        for (int t = 0; t < ntiles; t++) {
            const int more = t + 1 < ntiles;
            if (more) /* global loads in flight during the compute */
                load_regs(ra, rb, A, B, bm0, bn0, kbeg + (t + 1) * BK, kend, tid);
            compute_tile(As0, Bs0, am, bnn, acc);
            __syncthreads();
            if (more) {
                store_regs(As0, Bs0, ra, rb, tid);
                __syncthreads();
            }
        }
    }
#else
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ntiles)
            issue_tile(As0 + s * A_STAGE, Bs0 + s * B_STAGE, A, B, bm0, bn0, kbeg + s * BK,
                       kend, tid);
        cp_async_commit();
    }
    for (int t = 0; t < ntiles; t++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads(); /* tile t visible to all; slot of tile t-1 free */
        const int nt = t + STAGES - 1;
        if (nt < ntiles) {
            const int slot = nt % STAGES;
            issue_tile(As0 + slot * A_STAGE, Bs0 + slot * B_STAGE, A, B, bm0, bn0,
                       kbeg + nt * BK, kend, tid);
        }
        cp_async_commit();
        const int slot = t % STAGES;
        compute_tile(As0 + slot * A_STAGE, Bs0 + slot * B_STAGE, am, bnn, acc);
    }
    cp_async_wait<0>();
#endif

#if SPLITK > 1
    /* 1. every slice writes its raw partial tile to work[slice] */
    {
        float *W = work + (size_t)blockIdx.z * M * N;
#pragma unroll
        for (int i = 0; i < TM; i++) {
            const int gm = bm0 + ROW_OF(i);
            if (gm >= M)
                continue;
#pragma unroll
            for (int j = 0; j < TN; j++) {
                const int gn = bn0 + COL_OF(j);
                if (gn < N)
                    W[(size_t)gm * N + gn] = acc[i][j];
            }
        }
    }
    __threadfence();
    __syncthreads();
    __shared__ int s_last;
    const int tile = blockIdx.y * gridDim.x + blockIdx.x;
    if (tid == 0)
        s_last = atomicAdd(&counters[tile], 1) == SPLITK - 1;
    __syncthreads();
    if (!s_last)
        return;
    /* 2. the last slice to arrive adds the others' partials (read through L2) */
    __threadfence();
    for (int s = 0; s < SPLITK; s++) {
        if (s == (int)blockIdx.z)
            continue;
        const float *W = work + (size_t)s * M * N;
#pragma unroll
        for (int i = 0; i < TM; i++) {
            const int gm = bm0 + ROW_OF(i);
            if (gm >= M)
                continue;
#pragma unroll
            for (int j = 0; j < TN; j++) {
                const int gn = bn0 + COL_OF(j);
                if (gn < N)
                    acc[i][j] += __ldcg(&W[(size_t)gm * N + gn]);
            }
        }
    }
    if (tid == 0)
        counters[tile] = 0; /* self-cleaning for the next launch */
#endif

    /* epilogue: C = alpha*acc + beta*C, C not read when beta == 0 */
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int gm = bm0 + ROW_OF(i);
        if (gm >= M)
            continue;
        float *crow = C + (size_t)gm * N;
#pragma unroll
        for (int j4 = 0; j4 < TN / 4; j4++) {
            const int gn = bn0 + COL_OF(4 * j4);
#if (N % 4) == 0
            if (gn < N) { /* N % 4 == 0: the whole float4 is inside */
                float4 r = make_float4(alpha * acc[i][4 * j4 + 0], alpha * acc[i][4 * j4 + 1],
                                       alpha * acc[i][4 * j4 + 2], alpha * acc[i][4 * j4 + 3]);
                if (beta != 0.0f) {
                    const float4 c = *(const float4 *)&crow[gn];
                    r.x += beta * c.x; r.y += beta * c.y; r.z += beta * c.z; r.w += beta * c.w;
                }
                *(float4 *)&crow[gn] = r;
            }
#else
#pragma unroll
            for (int j = 0; j < 4; j++) {
                if (gn + j < N) {
                    float r = alpha * acc[i][4 * j4 + j];
                    if (beta != 0.0f)
                        r += beta * crow[gn + j];
                    crow[gn + j] = r;
                }
            }
#endif
        }
    }
}
