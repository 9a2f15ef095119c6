/*
 * gemm_h.cu - tunable Hopper GEMM for cutune: wgmma tensor cores fed by the Tensor Memory
 * Accelerator (TMA), BF16 or FP16 operands (FP16=1), or FP32 operands multiplied in TF32
 * (TF32=1: the tensor cores read the float bits, ignoring the low 13 mantissa bits), FP32
 * accumulation (sm_90a).
 *
 *   C = alpha * A * B^T + beta * C   (all row-major: A is M x K, B is N x K, C is M x N;
 *   C has the operands' type; in cuBLAS's column-major terms this is C^T = op_T(B) op_N(A),
 *   "TN", the layout of a linear layer's weight).
 *
 * Design (docs/kernels.md, gemm_h):
 * - Warp specialisation: warp group 0 is the producer (one thread issues TMA copies),
 *   warp groups 1..NC are consumers; each consumer owns BM/NC rows of the block tile and
 *   issues wgmma m64nBNk16 (k8 in TF32) from shared memory (A and B both K-major, 128-byte swizzle).
 * - A STAGES-deep ring of shared-memory stages (A tile BM x BK, B tile BN x BK, stored as
 *   BK / GH_BOXK boxes of one 128-byte swizzle row each), guarded by two mbarriers per
 *   stage: "full" (TMA transaction count) and "empty" (one arrive per consumer warp group,
 *   times the cluster size when B is multicast).
 * - PINGPONG = 1: each consumer computes whole BM x BN tiles, the two taking turns, so one's
 *   epilogue overlaps the other's main loop (the ring hands out stages in tile order; a
 *   hand-off barrier lets a consumer start a tile only after the previous one's stages
 *   have all arrived).
 * - Consumers keep one wgmma group in flight: a stage is released once the group that
 *   follows it has been issued and the one reading it has completed.
 * - CLUSTER_M = 2: the two blocks of a cluster compute vertically adjacent tiles with the
 *   same B tile; each loads half of B and multicasts it to both (half the B traffic).
 * - PERSISTENT = 1: min(work units, SMS) blocks loop over the work units (the producer runs
 *   ahead into the next unit while the consumers store); 0: one unit per block.
 * - SPLITK = S > 1: a work unit is (tile, split s); split s takes k tiles
 *   [s * kt / S, (s + 1) * kt / S) of the kt = ceil(K / BK), the S splits of a tile being
 *   consecutive units (they run at the same time). Each consumer warp group reduces its own
 *   rows of the tile through one counter (counters[(tile * NC + c)]): after its main loop it
 *   takes a ticket (+1); the split holding the last ticket is the reducer, the others write
 *   their FP32 partial rows to work[s] (an S x M x N slice each) and signal (+65536: a
 *   warp-group barrier, then one red.release.gpu; the reducer's thread 0 spins on
 *   ld.acquire.gpu, then a barrier; no fence.sc, i.e. no __threadfence()).
 *   The reducer waits only for splits that have finished their main loops (no wait on
 *   unscheduled work: no deadlock with any grid), resets the counter to 0 for the next
 *   launch, and sums the S partials in the fixed order s = 0 .. S-1 (its own from registers),
 *   so the result does not depend on which split arrives last; then alpha/beta as below.
 *   C is written once, by the reducer; SPLITK = 1 compiles none of this.
 * - Tile order: groups of GROUP_M tile rows, column by column inside a group (L2 reuse).
 * - Epilogue, alpha/beta in FP32, rounded once to the output type; beta == 0 does not read C.
 *   EPI_SMEM = 1: each warp passes its 16 x 32 FP32 sub-tiles through 2 KiB of shared memory
 *   (16-byte chunks XOR-swizzled by row: no bank conflicts) so that its stores cover 4 rows
 *   x 64 contiguous bytes; 0: pairs straight from the registers (8 rows x 16 bytes).
 * A and B are read only through their tensor maps; their pointers are parameters so that the
 * tuner allocates and fills them (kernels/gemm_h.json).
 * Tensor maps (CUtensorMap, 128 bytes) arrive by value as __grid_constant__ parameters:
 *   tmA: dims {K, M}, box {128 bytes of K, BM}; tmB: dims {K, N}, box {128 bytes, BN / CLUSTER_M};
 *   both 128-byte swizzle, out-of-bounds elements read as zero (any M, N, K tail).
 * Requirements: K * element bytes % 16 == 0 (a TMA row stride), N % 2 == 0
 * (pairs of outputs are stored as one 32-bit word).
 */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 64
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef NC
#define NC 2
#endif
#ifndef CLUSTER_M
#define CLUSTER_M 1
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef PERSISTENT
#define PERSISTENT 1
#endif
#ifndef PINGPONG
#define PINGPONG 0
#endif
#ifndef EPI_SMEM
#define EPI_SMEM 1
#endif
#ifndef FP16
#define FP16 0
#endif

#ifndef TF32
#define TF32 0
#endif
#ifndef SPLITK
#define SPLITK 1
#endif

#if TF32
#define GH_AB "tf32"
#define GH_KSH "k8"
typedef float gh_elem;
#elif FP16
#define GH_AB "f16"
#define GH_KSH "k16"
#define GH_CVT "cvt.rn.f16x2.f32"
typedef unsigned short gh_elem;
#else
#define GH_AB "bf16"
#define GH_KSH "k16"
#define GH_CVT "cvt.rn.bf16x2.f32"
typedef unsigned short gh_elem;
#endif
#define GH_ES ((int)sizeof(gh_elem)) /* element bytes */
/* wgmma's transpose immediates (0: K-major) exist for 16-bit types only */
#if TF32
#define GH_TRANS ""
#else
#define GH_TRANS ", 0, 0"
#endif
#define GH_BOXK (128 / (TF32 ? 4 : 2)) /* elements of one 128-byte swizzle row */

#define GH_NT ((NC + 1) * 128)
#if PINGPONG
#define GH_WGM BM /* each consumer owns whole tiles, alternately */
#else
#define GH_WGM (BM / NC) /* rows per consumer warp group */
#endif
#define GH_CONSUMERS_PER_STAGE (PINGPONG ? 1 : NC)
#define GH_MI (GH_WGM / 64) /* m64 wgmma per k16 step and consumer */
#define GH_KSUB (BK / GH_BOXK) /* 128-byte boxes per stage (4 wgmma k-steps of 32 bytes each) */
#define GH_A_BYTES (BM * BK * GH_ES)
#define GH_B_BYTES (BN * BK * GH_ES)
#define GH_STAGE_BYTES (GH_A_BYTES + GH_B_BYTES)
#define GH_NACC (BN / 2)
#define GH_EPI_BYTES (EPI_SMEM ? NC * 4 * 2048 : 0) /* after the ring */

#if (GH_WGM % 64) || (BK % GH_BOXK) || (BN % 64) || BN > 256 || (NC != 1 && NC != 2)
#error "gemm_h: BM % (64 * NC) (PINGPONG: BM % 64), BK % (128 / element bytes), BN % 64 must be 0; BN <= 256; NC is 1 or 2"
#endif
#if CLUSTER_M != 1 && CLUSTER_M != 2
#error "gemm_h: CLUSTER_M is 1 or 2"
#endif
#if SPLITK < 1 || SPLITK > 16
#error "gemm_h: SPLITK is 1..16"
#endif

typedef unsigned int u32;
typedef unsigned long long u64;

/* The driver's CUtensorMap: 128 opaque bytes, 64-byte aligned. */
struct __align__(64) gh_tmap {
    u64 opaque[16];
};

#define GH_F4(i) "+f"(d[(i)]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3])
#define GH_F16(i) GH_F4(i), GH_F4((i) + 4), GH_F4((i) + 8), GH_F4((i) + 12)
#define GH_F32(i) GH_F16(i), GH_F16((i) + 16)
#define GH_F64(i) GH_F32(i), GH_F32((i) + 32)
#define GH_F96(i) GH_F64(i), GH_F32((i) + 64)
#define GH_F128(i) GH_F64(i), GH_F64((i) + 64)

/* m64n64k16 (k8 for tf32): D[32] (+)= A(desc) * B(desc); scale_d 0 overwrites D. */
__device__ __forceinline__ void wgmma_n64(float (&d)[32], unsigned long long da, unsigned long long db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64" GH_KSH ".f32." GH_AB "." GH_AB " "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1" GH_TRANS ";\n}\n"
                 : GH_F32(0)
                 : "l"(da), "l"(db), "r"(scale_d));
}

/* m64n128k16 (k8 for tf32): D[64] (+)= A(desc) * B(desc); scale_d 0 overwrites D. */
__device__ __forceinline__ void wgmma_n128(float (&d)[64], unsigned long long da, unsigned long long db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128" GH_KSH ".f32." GH_AB "." GH_AB " "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1" GH_TRANS ";\n}\n"
                 : GH_F64(0)
                 : "l"(da), "l"(db), "r"(scale_d));
}

/* m64n192k16 (k8 for tf32): D[96] (+)= A(desc) * B(desc); scale_d 0 overwrites D. */
__device__ __forceinline__ void wgmma_n192(float (&d)[96], unsigned long long da, unsigned long long db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n192" GH_KSH ".f32." GH_AB "." GH_AB " "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95}, "
                 "%96, %97, p, 1, 1" GH_TRANS ";\n}\n"
                 : GH_F96(0)
                 : "l"(da), "l"(db), "r"(scale_d));
}

/* m64n256k16 (k8 for tf32): D[128] (+)= A(desc) * B(desc); scale_d 0 overwrites D. */
__device__ __forceinline__ void wgmma_n256(float (&d)[128], unsigned long long da, unsigned long long db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256" GH_KSH ".f32." GH_AB "." GH_AB " "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "%128, %129, p, 1, 1" GH_TRANS ";\n}\n"
                 : GH_F128(0)
                 : "l"(da), "l"(db), "r"(scale_d));
}

#if BN == 64
#define GH_WGMMA wgmma_n64
#elif BN == 128
#define GH_WGMMA wgmma_n128
#elif BN == 192
#define GH_WGMMA wgmma_n192
#else
#define GH_WGMMA wgmma_n256
#endif

__device__ __forceinline__ u32 gh_smem(const void *p)
{
    return (u32)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void gh_mbar_init(u32 bar, u32 count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}

__device__ __forceinline__ void gh_mbar_wait(u32 bar, u32 parity)
{
    u32 done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

__device__ __forceinline__ void gh_mbar_expect(u32 bar, u32 bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}

/* Arrive on the barrier at the same offset in block `rank` of the cluster (self included). */
__device__ __forceinline__ void gh_mbar_arrive_cluster(u32 bar, u32 rank)
{
    asm volatile("{\n.reg .b32 r;\nmapa.shared::cluster.u32 r, %0, %1;\n"
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r];\n}\n" ::"r"(bar),
                 "r"(rank)
                 : "memory");
}

__device__ __forceinline__ void gh_mbar_arrive(u32 bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void gh_tma_load(u32 dst, const gh_tmap *map, int c0, int c1, u32 bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                 "l"((u64)map), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}

__device__ __forceinline__ void gh_tma_load_mc(u32 dst, const gh_tmap *map, int c0, int c1, u32 bar,
                                               unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
                 "l"((u64)map), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
                 : "memory");
}

/* Shared-memory matrix descriptor: K-major, 128-byte swizzle, 8-row groups 1024 bytes apart. */
__device__ __forceinline__ u64 gh_desc(u32 addr)
{
    return (u64)((addr & 0x3FFFF) >> 4) | ((u64)1 << 16) | ((u64)(1024 >> 4) << 32) | ((u64)1 << 62);
}

__device__ __forceinline__ u32 gh_cluster_rank(void)
{
#if CLUSTER_M > 1
    u32 r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
#else
    return 0;
#endif
}

__device__ __forceinline__ void gh_cluster_sync(void)
{
#if CLUSTER_M > 1
    /* not .aligned: the producer warp arrives here diverged (only its lane 0 issued copies) */
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
#else
    __syncthreads();
#endif
}

#if !TF32
__device__ __forceinline__ float gh_to_f(unsigned short h)
{
#if FP16
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    return __uint_as_float((u32)h << 16);
#endif
}

#endif

/* Tile t of the grouped raster -> (tile row, tile column); tile rows come in cluster pairs. */
__device__ __forceinline__ void gh_tile(int t, int tiles_m, int tiles_n, int *tm, int *tn)
{
    int per_group = GROUP_M * tiles_n;
    int group = t / per_group, first = group * GROUP_M;
    int rows = tiles_m - first < GROUP_M ? tiles_m - first : GROUP_M;
    int in = t - group * per_group;
    *tm = first + in % rows;
    *tn = in / rows;
}

/* K tiles [*kt0, *kt1) of split s (balanced: sizes differ by at most one). */
__device__ __forceinline__ void gh_krange(int s, int ktiles, int *kt0, int *kt1)
{
    *kt0 = s * ktiles / SPLITK;
    *kt1 = (s + 1) * ktiles / SPLITK;
}

#if SPLITK > 1
/* Barrier of one consumer warp group (128 threads; ids 1, 2; 0 is __syncthreads). */
__device__ __forceinline__ void gh_bar_wg(int c)
{
    asm volatile("barrier.sync %0, 128;" ::"r"(1 + c) : "memory");
}

/* Release increment: after gh_bar_wg, it publishes the partial stores of the whole warp
 * group (the barrier orders them before it; release is cumulative): one release by one
 * thread instead of a __threadfence() (fence.sc.gpu) in every thread. */
__device__ __forceinline__ void gh_red_release(int *p, int v)
{
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ int gh_ld_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* Sum of the S partials of two outputs at w (slice 0; slices mn apart), in the order
 * s = 0 .. S-1, this split's own (a, b) taken from registers. */
__device__ __forceinline__ float2 gh_fold2(const float *w, size_t mn, int split, float a, float b)
{
    float2 r = split == 0 ? make_float2(a, b) : __ldcg((const float2 *)w);
#pragma unroll
    for (int q = 1; q < SPLITK; q++) {
        const float2 x = q == split ? make_float2(a, b) : __ldcg((const float2 *)(w + q * mn));
        r.x += x.x;
        r.y += x.y;
    }
    return r;
}

/* Four partial outputs at w (16-byte aligned when n % 4 == 0; else pairs, the second
 * only inside the row). */
__device__ __forceinline__ float4 gh_ld_part4(const float *w, int n, int gcol)
{
    if ((n % 4) == 0)
        return __ldcg((const float4 *)w);
    const float2 lo = __ldcg((const float2 *)w);
    const float2 hi = gcol + 2 < n ? __ldcg((const float2 *)(w + 2)) : make_float2(0.0f, 0.0f);
    return make_float4(lo.x, lo.y, hi.x, hi.y);
}
#endif

#if !TF32
__device__ __forceinline__ float gh_load_c(const unsigned short *p)
{
    return gh_to_f(*p);
}

__device__ __forceinline__ u32 gh_pack(float lo, float hi)
{
    u32 r;
    asm(GH_CVT " %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

/* Two outputs at p (4-byte aligned), with beta * the old ones unless beta == 0. */
__device__ __forceinline__ void gh_store2(unsigned short *p, float v0, float v1, float beta)
{
    if (beta != 0.0f) {
        v0 += beta * gh_load_c(p);
        v1 += beta * gh_load_c(p + 1);
    }
    *(u32 *)p = gh_pack(v0, v1);
}

/* Four outputs at p (8-byte aligned). */
__device__ __forceinline__ void gh_store4(unsigned short *p, const float *o, float beta)
{
    float v[4] = {o[0], o[1], o[2], o[3]};
    if (beta != 0.0f) {
        const uint2 old = *(const uint2 *)p;
        v[0] += beta * gh_to_f((unsigned short)(old.x & 0xFFFF));
        v[1] += beta * gh_to_f((unsigned short)(old.x >> 16));
        v[2] += beta * gh_to_f((unsigned short)(old.y & 0xFFFF));
        v[3] += beta * gh_to_f((unsigned short)(old.y >> 16));
    }
    *(uint2 *)p = make_uint2(gh_pack(v[0], v[1]), gh_pack(v[2], v[3]));
}
#else
__device__ __forceinline__ void gh_store2(float *p, float v0, float v1, float beta)
{
    if (beta != 0.0f) {
        const float2 old = *(const float2 *)p;
        v0 += beta * old.x;
        v1 += beta * old.y;
    }
    *(float2 *)p = make_float2(v0, v1);
}

/* Four outputs at p (16-byte aligned). */
__device__ __forceinline__ void gh_store4(float *p, const float *o, float beta)
{
    float4 v = make_float4(o[0], o[1], o[2], o[3]);
    if (beta != 0.0f) {
        const float4 old = *(const float4 *)p;
        v.x += beta * old.x;
        v.y += beta * old.y;
        v.z += beta * old.z;
        v.w += beta * old.w;
    }
    *(float4 *)p = v;
}
#endif

extern "C" __global__ void __launch_bounds__(GH_NT, 1)
#if CLUSTER_M > 1
    __cluster_dims__(CLUSTER_M, 1, 1)
#endif
        gemm_h(const __grid_constant__ gh_tmap tmA, const __grid_constant__ gh_tmap tmB,
               gh_elem *__restrict__ C, const gh_elem *A, const gh_elem *B,
               int m, int n, int k, float alpha, float beta, float *work,
               int *counters)
{
    extern __shared__ unsigned char gh_dyn[];
    __shared__ __align__(8) u64 full[STAGES], empty[STAGES], handoff;
#if SPLITK > 1
    __shared__ int gh_last[NC]; /* per consumer: this split reduces its tile */
#endif
    /* 1024-byte alignment for the 128-byte swizzle (the launch asks for 1 KiB extra). */
    const u32 base = (gh_smem(gh_dyn) + 1023) & ~1023u;
    const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
    const u32 rank = gh_cluster_rank();
    /* Cluster pairs: a "unit" is CLUSTER_M vertically adjacent tiles sharing one B tile. */
    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    const int units_m = (tiles_m + CLUSTER_M - 1) / CLUSTER_M;
    const int units = units_m * tiles_n, ktiles = (k + BK - 1) / BK;
    /* work units: (unit, split), the splits of a unit consecutive */
    const int works = units * SPLITK;
    const int unit0 = blockIdx.x / CLUSTER_M, ustride = PERSISTENT ? gridDim.x / CLUSTER_M : works;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            gh_mbar_init(gh_smem(&full[s]), 1);
            gh_mbar_init(gh_smem(&empty[s]), GH_CONSUMERS_PER_STAGE * CLUSTER_M);
        }
        gh_mbar_init(gh_smem(&handoff), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    gh_cluster_sync();

    if (wg == 0) {
        /* ---- producer ---- */
#if NC > 1
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
#endif
        if (tid == 0) {
            int it = 0;
            for (int w = unit0; w < works; w += ustride) {
                int um, tn, kt0, kt1;
                gh_tile(w / SPLITK, units_m, tiles_n, &um, &tn);
                gh_krange(w % SPLITK, ktiles, &kt0, &kt1);
                const int row_a = (um * CLUSTER_M + (int)rank) * BM;
                const int row_b = tn * BN + (int)rank * (BN / CLUSTER_M);
                for (int kt = kt0; kt < kt1; kt++, it++) {
                    const int s = it % STAGES;
                    const u32 ph = (u32)(it / STAGES) & 1;
                    gh_mbar_wait(gh_smem(&empty[s]), ph ^ 1);
                    const u32 fb = gh_smem(&full[s]);
                    gh_mbar_expect(fb, GH_STAGE_BYTES);
                    const u32 sa = base + s * GH_STAGE_BYTES, sb = sa + GH_A_BYTES;
#pragma unroll
                    for (int j = 0; j < GH_KSUB; j++) {
                        const int kc = kt * BK + j * GH_BOXK;
                        gh_tma_load(sa + j * BM * 128, &tmA, kc, row_a, fb);
#if CLUSTER_M > 1
                        gh_tma_load_mc(sb + j * BN * 128 + rank * (BN / CLUSTER_M) * 128, &tmB, kc,
                                       row_b, fb, (unsigned short)((1u << CLUSTER_M) - 1));
#else
                        gh_tma_load(sb + j * BN * 128, &tmB, kc, row_b, fb);
#endif
                    }
                }
            }
        }
    } else {
        /* ---- consumers ---- */
#if NC > 1
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
        const int c = wg - 1;
        float acc[GH_MI][GH_NACC];
        int it = 0, turn = 0;
        for (int w = unit0; w < works; w += ustride, turn++) {
            int um, tn, kt0, kt1;
            gh_krange(w % SPLITK, ktiles, &kt0, &kt1);
            if (PINGPONG && turn % NC != c) {
                it += kt1 - kt0; /* the other consumer's unit */
                continue;
            }
            gh_tile(w / SPLITK, units_m, tiles_n, &um, &tn);
#if PINGPONG
            /* Start only once the previous tile's consumer has received all its stages:
             * then each full barrier is at most one phase behind and its parity is exact. */
            if (turn > 0)
                gh_mbar_wait(gh_smem(&handoff), (u32)(turn - 1) & 1);
#endif
            for (int kt = kt0; kt < kt1; kt++, it++) {
                const int s = it % STAGES;
                gh_mbar_wait(gh_smem(&full[s]), (u32)(it / STAGES) & 1);
#if PINGPONG
                if (kt == kt1 - 1 && tid == 0)
                    gh_mbar_arrive(gh_smem(&handoff));
#endif
                const u32 sa = base + s * GH_STAGE_BYTES + (PINGPONG ? 0 : c * GH_WGM * 128), sb = base + s * GH_STAGE_BYTES + GH_A_BYTES;
                asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
                for (int kk = 0; kk < GH_KSUB * 4; kk++) {
                    const u32 koff = (kk % 4) * 32;
                    const u64 db = gh_desc(sb + (kk / 4) * BN * 128 + koff);
#pragma unroll
                    for (int mi = 0; mi < GH_MI; mi++) {
                        const u64 da = gh_desc(sa + (kk / 4) * BM * 128 + mi * 64 * 128 + koff);
                        GH_WGMMA(acc[mi], da, db, (kt > kt0 || kk > 0) ? 1 : 0);
                    }
                }
                asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
                asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
                /* The group of the previous k tile is complete: release its stage. */
                if (kt > kt0 && tid < CLUSTER_M) {
                    const int ps = (it - 1) % STAGES;
#if CLUSTER_M > 1
                    gh_mbar_arrive_cluster(gh_smem(&empty[ps]), (u32)tid);
#else
                    gh_mbar_arrive(gh_smem(&empty[ps]));
#endif
                }
            }
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            /* Tie every accumulator to the wait, so no read of one moves above it. */
#pragma unroll
            for (int mi = 0; mi < GH_MI; mi++)
#pragma unroll
                for (int i = 0; i < GH_NACC; i++)
                    asm volatile("" : "+f"(acc[mi][i])::"memory");
            if (tid < CLUSTER_M) {
                const int ps = (it - 1) % STAGES;
#if CLUSTER_M > 1
                gh_mbar_arrive_cluster(gh_smem(&empty[ps]), (u32)tid);
#else
                gh_mbar_arrive(gh_smem(&empty[ps]));
#endif
            }
            /* ---- epilogue: accumulator layout of m64nNk16 (per warp 16 rows) ---- */
            const int tm = um * CLUSTER_M + (int)rank;
            const int warp = tid / 32, lane = tid % 32;
#if SPLITK > 1
            /* split-K: ticket; the last split of this tile's rows reduces, once the others
             * (all past their main loops) have written their partials */
            const int split = w % SPLITK;
            const size_t mn = (size_t)m * n;
            int *const ctr = counters + (size_t)(tm * tiles_n + tn) * NC + (PINGPONG ? 0 : c);
            gh_bar_wg(c); /* every thread has read gh_last[c] of the previous unit */
            if (tid == 0) {
                const int last = (atomicAdd(ctr, 1) & 0xFFFF) == SPLITK - 1;
                if (last) {
                    while ((gh_ld_acquire(ctr) >> 16) < SPLITK - 1)
                        ;
                    *ctr = 0; /* all S tickets and S - 1 signals are in: clean for the next launch */
                }
                gh_last[c] = last;
            }
            gh_bar_wg(c);
            const int last = gh_last[c];
            float *const wsplit = work + (size_t)split * mn;
#endif
#if EPI_SMEM
            float *stage = (float *)(gh_dyn + (base - gh_smem(gh_dyn)) + STAGES * GH_STAGE_BYTES +
                                     (c * 4 + warp) * 2048);
            const int wrow0 = tm * BM + (PINGPONG ? 0 : c * GH_WGM) + warp * 16;
#pragma unroll
            for (int mi = 0; mi < GH_MI; mi++) {
#pragma unroll
                for (int q = 0; q < BN / 32; q++) {
#if SPLITK > 1
                    /* reducer: the other splits' partials of this sub-tile's 4 steps, loaded
                     * before the stores so that their L2 latencies overlap */
                    float4 part[4][SPLITK - 1];
                    if (last) {
#pragma unroll
                        for (int p = 0; p < 4; p++) {
                            const int grow = wrow0 + mi * 64 + p * 4 + lane / 8;
                            const int gcol = tn * BN + q * 32 + (lane % 8) * 4;
#pragma unroll
                            for (int j = 0; j < SPLITK - 1; j++) /* slice j, or j + 1 past own */
                                part[p][j] = grow < m && gcol < n
                                                 ? gh_ld_part4(work + (size_t)(j < split ? j : j + 1) * mn +
                                                                   (size_t)grow * n + gcol,
                                                               n, gcol)
                                                 : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                        }
                    }
#endif
                    /* registers -> shared: rows lane/4 (+8), float pairs; chunk ^= row % 8 */
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const int row = lane / 4 + h * 8;
#pragma unroll
                        for (int il = 0; il < 4; il++) {
                            const int colw = il * 8 + (lane % 4) * 2;
                            const int chunk = (colw / 4) ^ (row % 8);
                            float2 v = make_float2(acc[mi][(q * 4 + il) * 4 + h * 2],
                                                   acc[mi][(q * 4 + il) * 4 + h * 2 + 1]);
                            *(float2 *)(stage + row * 32 + chunk * 4 + colw % 4) = v;
                        }
                    }
                    __syncwarp();
                    /* shared -> global: 4 rows of 8 lanes x 4 outputs per step */
#pragma unroll
                    for (int p = 0; p < 4; p++) {
                        const int row = p * 4 + lane / 8, ch = lane % 8;
                        const float4 v = *(const float4 *)(stage + row * 32 + ((ch ^ (row % 8)) * 4));
                        const int grow = wrow0 + mi * 64 + row;
                        const int gcol = tn * BN + q * 32 + ch * 4;
                        if (grow >= m || gcol >= n)
                            continue;
                        gh_elem *cp = C + (size_t)grow * n + gcol;
#if SPLITK > 1
                        const size_t wo = (size_t)grow * n + gcol;
                        if (!last) { /* this split's partial, FP32, kept in L2 */
                            if ((n % 4) == 0) {
                                __stcg((float4 *)(wsplit + wo), v);
                            } else {
                                __stcg((float2 *)(wsplit + wo), make_float2(v.x, v.y));
                                if (gcol + 2 < n)
                                    __stcg((float2 *)(wsplit + wo + 2), make_float2(v.z, v.w));
                            }
                            continue;
                        }
                        /* fixed order s = 0 .. S-1 (slice s is part[s], or part[s - 1] past own) */
                        float4 sum = split == 0 ? v : part[p][0];
#pragma unroll
                        for (int q2 = 1; q2 < SPLITK; q2++) {
                            const float4 x = q2 == split ? v
                                             : q2 < split ? part[p][q2 < SPLITK - 1 ? q2 : 0]
                                                          : part[p][q2 - 1];
                            sum.x += x.x;
                            sum.y += x.y;
                            sum.z += x.z;
                            sum.w += x.w;
                        }
                        const float o[4] = {alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w};
#else
                        const float o[4] = {alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w};
#endif
                        if ((n % 4) == 0) {
                            gh_store4(cp, o, beta);
                        } else {
#pragma unroll
                            for (int j = 0; j < 4; j += 2)
                                if (gcol + j < n)
                                    gh_store2(cp + j, o[j], o[j + 1], beta);
                        }
                    }
                    __syncwarp();
                }
            }
#else
            const int r0 = tm * BM + (PINGPONG ? 0 : c * GH_WGM) + warp * 16 + lane / 4;
            const int c0 = tn * BN + (lane % 4) * 2;
#pragma unroll
            for (int mi = 0; mi < GH_MI; mi++) {
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int row = r0 + mi * 64 + h * 8;
                    if (row >= m)
                        continue;
                    gh_elem *crow = C + (size_t)row * n;
#pragma unroll
                    for (int i = 0; i < BN / 8; i++) {
                        const int col = c0 + i * 8;
                        if (col >= n)
                            continue;
#if SPLITK > 1
                        const size_t wo = (size_t)row * n + col;
                        if (!last) {
                            __stcg((float2 *)(wsplit + wo),
                                   make_float2(acc[mi][i * 4 + h * 2], acc[mi][i * 4 + h * 2 + 1]));
                            continue;
                        }
                        const float2 sum = gh_fold2(work + wo, mn, split, acc[mi][i * 4 + h * 2],
                                                    acc[mi][i * 4 + h * 2 + 1]);
                        gh_store2(crow + col, alpha * sum.x, alpha * sum.y, beta);
#else
                        gh_store2(crow + col, alpha * acc[mi][i * 4 + h * 2],
                                  alpha * acc[mi][i * 4 + h * 2 + 1], beta);
#endif
                    }
                }
            }
#endif
#if SPLITK > 1
            if (!last) {
                /* partials written: the warp group's barrier, then one release increment */
                gh_bar_wg(c);
                if (tid == 0)
                    gh_red_release(ctr, 0x10000);
            }
#endif
        }
    }
    /* No block leaves while its cluster peer may still write into its shared memory. */
#if CLUSTER_M > 1
    gh_cluster_sync();
#endif
}
