/*
 * xgemm.cu - cutune's own CUDA implementation of the parameter space of CLBlast's
 * Xgemm kernel (xgemm_part1..3.opencl, by C. Nugteren), the kernel behind the
 * Kernel Tuner GEMM recordings in shared/data (17,956 configurations).
 *
 * Problem (the repository's GEMM convention, checked against cublas_sgemm):
 *   C = alpha * A * B + beta * C, row-major, A is M x K, B is K x N, C is M x N.
 *
 * Mapping to CLBlast's column-major kernel. CLBlast's kernel computes a
 * column-major C' (kSizeM x kSizeN, m' contiguous) from agm (K x kSizeM, m'
 * contiguous) and bgm (K x kSizeN, n' contiguous). A row-major C is the
 * column-major C^T = B^T A^T, so:
 *     CLBlast m'  = our column n    (kSizeM = N; MWG, MDIMC, MDIMA, VWM, SA, STRM)
 *     CLBlast n'  = our row m       (kSizeN = M; NWG, NDIMC, NDIMB, VWN, SB, STRN)
 *     CLBlast agm = our B           (K x N row-major: exactly agm's layout)
 *     CLBlast bgm = our A, read as (k, n') -> A[n' * K + k]: it is stored
 *                   transposed relative to what CLBlast's kernel expects (CLBlast's
 *                   routine would run a transpose kernel first).
 *     CLBlast cgm = our C           (C'(m', n') = C[n' * N + m'])
 * So MWG tiles the columns of C and NWG its rows. Everything else follows CLBlast:
 *   - MDIMC x NDIMC threads per block (threadIdx.x along m', .y along n'), each
 *     computing MWI x NWI = (MWG/MDIMC) x (NWG/NDIMC) results in registers;
 *   - KWG: the k tile; the k loop inside a tile steps KWI at a time, the KWI
 *     steps fully unrolled, the outer loop not unrolled (#pragma unroll 1);
 *   - SA = 1: the KWG x MWG tile of agm is staged in shared memory, loaded by the
 *     threads re-shaped as MDIMA x KDIMA (KDIMA = MDIMC*NDIMC/MDIMA), each loading
 *     MWA/VWM vectors of VWM floats x KWA rows, as CLBlast's GlobalToLocalA;
 *     SA = 0: each thread reads its A' values from global memory per k step;
 *   - SB = 1: likewise the KWG x NWG tile of bgm with threads re-shaped as
 *     NDIMB x KDIMB. Only difference from CLBlast: since our bgm has k contiguous,
 *     the k index is the fast thread index (k = lb1 + kib*KDIMB, lb1 = tid % KDIMB)
 *     so the global reads coalesce; each thread still loads NWB/VWN vectors of VWN
 *     along n' (VWN scalar reads, as the n' elements are K apart in memory), and
 *     the shared tile rows are padded by min(VWN, 4) floats against bank conflicts;
 *   - VWM / VWN: vector widths along m' / n' of the loads from agm/bgm (global
 *     or shared) and of the per-thread register vectors; C stores are VWM-wide;
 *   - STRM / STRN = 0: each thread's m' (n') vectors are contiguous; 1: strided by
 *     MDIMC (NDIMC) vectors, as CLBlast;
 *   - PRECISION = 32 only (float).
 * Sizes must be multiples of the tiles (as CLBlast's kernel, whose routine pads):
 * N % MWG == 0, M % NWG == 0, K % KWG == 0 (restrictions in xgemm.json).
 * beta == 0: C is not read (a NaN-poisoned C stays harmless).
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
#ifndef MWG
#define MWG 64
#endif
#ifndef NWG
#define NWG 64
#endif
#ifndef KWG
#define KWG 32
#endif
#ifndef MDIMC
#define MDIMC 16
#endif
#ifndef NDIMC
#define NDIMC 16
#endif
#ifndef MDIMA
#define MDIMA 16
#endif
#ifndef NDIMB
#define NDIMB 16
#endif
#ifndef KWI
#define KWI 2
#endif
#ifndef VWM
#define VWM 2
#endif
#ifndef VWN
#define VWN 2
#endif
#ifndef STRM
#define STRM 0
#endif
#ifndef STRN
#define STRN 0
#endif
#ifndef SA
#define SA 1
#endif
#ifndef SB
#define SB 1
#endif
#ifndef PRECISION
#define PRECISION 32
#endif

#if PRECISION != 32
#error "only PRECISION 32 (float) is implemented"
#endif

#define KSM N /* CLBlast kSizeM */
#define KSN M /* CLBlast kSizeN */
#define NTHREADS (MDIMC * NDIMC)
#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)
#define KDIMA (NTHREADS / MDIMA)
#define KDIMB (NTHREADS / NDIMB)
#define MWA (MWG / MDIMA)
#define KWA (KWG / KDIMA)
#define NWB (NWG / NDIMB)
#define KWB (KWG / KDIMB)
#define PADB (VWN < 4 ? VWN : 4)
#define LDBL (NWG + PADB)

#if (KWG % KWI) || (MWG % (MDIMC * VWM)) || (NWG % (NDIMC * VWN)) || (MWG % (MDIMA * VWM)) || \
    (NWG % (NDIMB * VWN)) || (KWG % KDIMA) || (KWG % KDIMB)
#error "configuration violates the Xgemm restrictions"
#endif
#if (N % MWG) || (M % NWG) || (K % KWG)
#error "sizes must be multiples of the tiles: N % MWG, M % NWG, K % KWG"
#endif

/* load / store VW consecutive floats (VW-aligned) */
template <int VW> __device__ __forceinline__ void vld(float *d, const float *s)
{
    if (VW == 8) {
        const float4 a = *(const float4 *)s, b = *(const float4 *)(s + 4);
        d[0] = a.x; d[1] = a.y; d[2] = a.z; d[3] = a.w;
        d[4] = b.x; d[5] = b.y; d[6] = b.z; d[7] = b.w;
    } else if (VW == 4) {
        const float4 a = *(const float4 *)s;
        d[0] = a.x; d[1] = a.y; d[2] = a.z; d[3] = a.w;
    } else if (VW == 2) {
        const float2 a = *(const float2 *)s;
        d[0] = a.x; d[1] = a.y;
    } else {
        d[0] = s[0];
    }
}
template <int VW> __device__ __forceinline__ void vst(float *p, const float *v)
{
    if (VW == 8) {
        *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
        *(float4 *)(p + 4) = make_float4(v[4], v[5], v[6], v[7]);
    } else if (VW == 4) {
        *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
    } else if (VW == 2) {
        *(float2 *)p = make_float2(v[0], v[1]);
    } else {
        p[0] = v[0];
    }
}

/* m' index (in VWM vectors, within the tile) of this thread's vector mi */
#if STRM == 0
#define MG(mi) ((mi) + (int)threadIdx.x * (MWI / VWM))
#else
#define MG(mi) ((int)threadIdx.x + (mi) * MDIMC)
#endif
#if STRN == 0
#define NG(ni) ((ni) + (int)threadIdx.y * (NWI / VWN))
#else
#define NG(ni) ((int)threadIdx.y + (ni) * NDIMC)
#endif

extern "C" __global__ void __launch_bounds__(NTHREADS)
xgemm(const float *__restrict__ A, const float *__restrict__ B, float *C, float alpha,
      float beta)
{
    /* CLBlast's operands: agm = B (K x KSM), bgm = A (element (k, n') at A[n' * K + k]) */
    const float *__restrict__ agm = B;
    const float *__restrict__ bgm = A;
#if SA == 1
    __shared__ __align__(16) float alm[KWG * MWG];
#endif
#if SB == 1
    __shared__ __align__(16) float blm[KWG * LDBL];
#endif
#if SA == 1 || SB == 1
    const int tid = threadIdx.x + MDIMC * threadIdx.y;
#endif
    const int m0 = blockIdx.x * MWG; /* first m' (our column) of the tile */
    const int n0 = blockIdx.y * NWG; /* first n' (our row) of the tile */

    float cpm[NWI][MWI];
#pragma unroll
    for (int ni = 0; ni < NWI; ni++)
#pragma unroll
        for (int mi = 0; mi < MWI; mi++)
            cpm[ni][mi] = 0.0f;

#pragma unroll 1
    for (int kwg = 0; kwg < K; kwg += KWG) {
#if SA == 1
        { /* GlobalToLocalA */
            const int la0 = tid % MDIMA, la1 = tid / MDIMA;
#pragma unroll
            for (int kia = 0; kia < KWA; kia++) {
#pragma unroll
                for (int mia = 0; mia < MWA / VWM; mia++) {
#if STRM == 0
                    const int mg = mia + la0 * (MWA / VWM);
#else
                    const int mg = la0 + mia * MDIMA;
#endif
                    const int kg = kia + la1 * KWA;
                    float v[VWM];
                    vld<VWM>(v, &agm[(size_t)(kwg + kg) * KSM + m0 + mg * VWM]);
                    vst<VWM>(&alm[kg * MWG + mg * VWM], v);
                }
            }
        }
#endif
#if SB == 1
        { /* GlobalToLocalB, k the fast thread index (our bgm has k contiguous) */
            const int lb1 = tid % KDIMB, lb0 = tid / KDIMB;
#pragma unroll
            for (int kib = 0; kib < KWB; kib++) {
#pragma unroll
                for (int nib = 0; nib < NWB / VWN; nib++) {
#if STRN == 0
                    const int ng = nib + lb0 * (NWB / VWN);
#else
                    const int ng = lb0 + nib * NDIMB;
#endif
                    const int kg = lb1 + kib * KDIMB;
                    float v[VWN];
#pragma unroll
                    for (int w = 0; w < VWN; w++)
                        v[w] = bgm[(size_t)(n0 + ng * VWN + w) * K + kwg + kg];
                    vst<VWN>(&blm[kg * LDBL + ng * VWN], v);
                }
            }
        }
#endif
#if SA == 1 || SB == 1
        __syncthreads();
#endif
#pragma unroll 1
        for (int pwi = 0; pwi < KWG; pwi += KWI) {
#pragma unroll
            for (int pit = 0; pit < KWI; pit++) {
                const int kg = pwi + pit;
                float apm[MWI], bpm[NWI];
#pragma unroll
                for (int mi = 0; mi < MWI / VWM; mi++) {
#if SA == 1
                    vld<VWM>(&apm[mi * VWM], &alm[kg * MWG + MG(mi) * VWM]);
#else
                    vld<VWM>(&apm[mi * VWM], &agm[(size_t)(kwg + kg) * KSM + m0 + MG(mi) * VWM]);
#endif
                }
#pragma unroll
                for (int ni = 0; ni < NWI / VWN; ni++) {
#if SB == 1
                    vld<VWN>(&bpm[ni * VWN], &blm[kg * LDBL + NG(ni) * VWN]);
#else
#pragma unroll
                    for (int w = 0; w < VWN; w++)
                        bpm[ni * VWN + w] = bgm[(size_t)(n0 + NG(ni) * VWN + w) * K + kwg + kg];
#endif
                }
#pragma unroll
                for (int ni = 0; ni < NWI; ni++)
#pragma unroll
                    for (int mi = 0; mi < MWI; mi++)
                        cpm[ni][mi] = fmaf(apm[mi], bpm[ni], cpm[ni][mi]);
            }
        }
#if SA == 1 || SB == 1
        __syncthreads();
#endif
    }

    /* StoreResults: C'(m', n') = C[n' * N + m'], VWM-wide along m' */
#pragma unroll
    for (int ni = 0; ni < NWI / VWN; ni++) {
#pragma unroll
        for (int w = 0; w < VWN; w++) {
            const int n = n0 + NG(ni) * VWN + w; /* our row */
#pragma unroll
            for (int mi = 0; mi < MWI / VWM; mi++) {
                float *p = &C[(size_t)n * KSM + m0 + MG(mi) * VWM];
                float r[VWM];
#pragma unroll
                for (int u = 0; u < VWM; u++)
                    r[u] = alpha * cpm[ni * VWN + w][mi * VWM + u];
                if (beta != 0.0f) {
                    float c[VWM];
                    vld<VWM>(c, p);
#pragma unroll
                    for (int u = 0; u < VWM; u++)
                        r[u] += beta * c[u];
                }
                vst<VWM>(p, r);
            }
        }
    }
}
