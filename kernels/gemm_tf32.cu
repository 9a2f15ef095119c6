/*
 * gemm_tf32.cu - tunable TF32 tensor-core GEMM for cutune (Ampere/Hopper, mma.sync).
 *
 *   C = alpha * A * B + beta * C,   row-major: A is M x K, B is K x N, C is M x N,
 *   FP32 in and out, products on the tensor cores in TF32 (10-bit mantissa: the
 *   low 13 bits of each float operand are ignored by mma, i.e. truncated),
 *   FP32 accumulation.
 *
 * Design (docs/kernels.md): block tile BM x BN x BK, warps of WM x WN, each warp a
 * grid of (WM/16) x (WN/8) mma.sync.m16n8k8 tiles; a STAGES-deep cp.async ring
 * (16-byte copies, zero fill at the edges) of As[BM][BK+4] and Bs[BK][BN+8]: with
 * these paddings a warp's fragment loads hit 32 distinct banks. Fragments are
 * read with plain 32-bit shared loads (no ldmatrix: it moves 16-bit elements).
 * Edges: any M; K % 4 == 0 and N % 4 == 0 (16-byte copies; a restriction).
 * beta == 0: C is not read (BLAS convention; a NaN-poisoned C stays harmless).
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
#define BK 32
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef STAGES
#define STAGES 3
#endif

#define NWARPS ((BM / WM) * (BN / WN))
#define NT (NWARPS * 32)
#define WARPS_N (BN / WN)
#define MI (WM / 16)
#define NI (WN / 8)
#define LDAS (BK + 4)
#define LDBS (BN + 8)
#define A_STAGE (BM * LDAS)
#define B_STAGE (BK * LDBS)
#define A_CHUNKS (BM * BK / 4)
#define B_CHUNKS (BK * BN / 4)

#if (BM % WM) || (BN % WN) || (WM % 16) || (WN % 8) || (BK % 8)
#error "BM % WM, BN % WN, WM % 16, WN % 8, BK % 8 must be 0"
#endif
#if (A_CHUNKS % NT) || (B_CHUNKS % NT)
#error "tile copies must divide evenly among the threads"
#endif
#if (K % 4) || (N % 4)
#error "16-byte copies need K % 4 == 0 and N % 4 == 0"
#endif
#if STAGES < 2
#error "STAGES >= 2"
#endif

typedef unsigned int u32;

__device__ __forceinline__ u32 smem_u32(const void *p)
{
    return (u32)__cvta_generic_to_shared(p);
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

__device__ __forceinline__ void mma_tf32(float (&d)[4], const u32 (&a)[4], const u32 (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void issue_tile(float *As, float *Bs, const float *__restrict__ A,
                                           const float *__restrict__ B, int bm0, int bn0,
                                           int k0, int tid)
{
#pragma unroll
    for (int it = 0; it < A_CHUNKS / NT; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BK / 4), kc = (idx % (BK / 4)) * 4;
        const int gm = bm0 + row, gk = k0 + kc;
        const int ok = gm < M && gk < K;
        cp_async16(&As[row * LDAS + kc], ok ? A + (size_t)gm * K + gk : A, ok);
    }
#pragma unroll
    for (int it = 0; it < B_CHUNKS / NT; it++) {
        const int idx = tid + it * NT;
        const int row = idx / (BN / 4), nc = (idx % (BN / 4)) * 4;
        const int gk = k0 + row, gn = bn0 + nc;
        const int ok = gk < K && gn < N;
        cp_async16(&Bs[row * LDBS + nc], ok ? B + (size_t)gk * N + gn : B, ok);
    }
}

extern "C" __global__ void __launch_bounds__(NT)
gemm_tf32(const float *__restrict__ A, const float *__restrict__ B, float *C, float alpha,
          float beta)
{
    extern __shared__ __align__(16) float smem[];
    float *As0 = smem, *Bs0 = smem + STAGES * A_STAGE;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    const int bm0 = blockIdx.y * BM, bn0 = blockIdx.x * BN;
    const int ntiles = (K + BK - 1) / BK;

    float acc[MI][NI][4];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NI; j++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                acc[i][j][r] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ntiles)
            issue_tile(As0 + s * A_STAGE, Bs0 + s * B_STAGE, A, B, bm0, bn0, s * BK, tid);
        cp_async_commit();
    }
    for (int kt = 0; kt < ntiles; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        const int nxt = kt + STAGES - 1;
        if (nxt < ntiles) {
            const int slot = nxt % STAGES;
            issue_tile(As0 + slot * A_STAGE, Bs0 + slot * B_STAGE, A, B, bm0, bn0, nxt * BK,
                       tid);
        }
        cp_async_commit();
        const float *As = As0 + (kt % STAGES) * A_STAGE;
        const float *Bs = Bs0 + (kt % STAGES) * B_STAGE;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            u32 af[MI][4], bf[NI][2];
#pragma unroll
            for (int i = 0; i < MI; i++) {
                const float *p = As + (wm0 + i * 16 + g) * LDAS + kk + t;
                af[i][0] = __float_as_uint(p[0]);
                af[i][1] = __float_as_uint(p[8 * LDAS]);
                af[i][2] = __float_as_uint(p[4]);
                af[i][3] = __float_as_uint(p[8 * LDAS + 4]);
            }
#pragma unroll
            for (int j = 0; j < NI; j++) {
                const float *p = Bs + (kk + t) * LDBS + wn0 + j * 8 + g;
                bf[j][0] = __float_as_uint(p[0]);
                bf[j][1] = __float_as_uint(p[4 * LDBS]);
            }
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NI; j++)
                    mma_tf32(acc[i][j], af[i], bf[j]);
        }
    }
    cp_async_wait<0>();

    /* epilogue: acc[i][j] = {(g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)} of each 16x8 tile */
#pragma unroll
    for (int i = 0; i < MI; i++) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int gm = bm0 + wm0 + i * 16 + g + 8 * h;
            if (gm >= M)
                continue;
            float *crow = C + (size_t)gm * N;
#pragma unroll
            for (int j = 0; j < NI; j++) {
                const int gn = bn0 + wn0 + j * 8 + 2 * t; /* N % 4 == 0: gn+1 < N too */
                if (gn < N) {
                    float2 r = make_float2(alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]);
                    if (beta != 0.0f) {
                        const float2 c = *(const float2 *)&crow[gn];
                        r.x += beta * c.x;
                        r.y += beta * c.y;
                    }
                    *(float2 *)&crow[gn] = r;
                }
            }
        }
    }
}
