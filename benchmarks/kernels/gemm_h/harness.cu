/*
 * harness.cu - standalone check and timing of kernels/gemm_h.cu against cuBLAS (one
 * configuration per binary: the tunable macros come in as -D options; run.sh builds each).
 *
 *   harness M N K [reps]   -> one CSV line:
 *   cfg,M,N,K,err_vs_cublas,err_vs_cublas_ab,err_vs_fp64,unwritten,gemm_h_ms,cublas_ms,
 *   gemm_h_tflops,cublas_tflops,ratio,rerun_diff,counters_left
 *
 * Inputs: uniform in [-1, 1), rounded to the operand type, fresh per run (seeded by the
 * shape). C starts as a NaN pattern; beta = 0, alpha = 1 for timing; a second check runs
 * alpha = 1.5, beta = -0.5 on a random C.
 * TF32 (-DTF32=1): float in and out, cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32.
 * SPLITK > 1: an FP32 workspace of SPLITK x M x N and one zeroed counter per tile and
 * consumer (the kernel leaves them zero), as kernels/gemm_h.json's `work` and `counters`.
 * Errors: ||out - ref|| / ||ref|| over all of C against cuBLAS (same inputs, same output
 * type, FP32 compute), and over 512 sampled elements against an FP64 dot product of the
 * same rounded inputs.
 * Timing: CUDA events around each launch, the L2 flushed (a 256 MiB memset) before every
 * launch, gemm_h and cuBLAS alternating, median of reps.
 * rerun_diff: elements of the last timed launch's C (alpha 1, beta 0) that differ in any bit
 * from the first check's (the result must not depend on the order blocks finish in);
 * counters_left: split-K counters not back to zero after all launches.
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include "../../../kernels/gemm_h.cu"

#define GH_STR2(x) #x
#define GH_STR(x) GH_STR2(x)
#ifdef CFG_NAME
#define CFG GH_STR(CFG_NAME)
#else
#define CFG "default"
#endif

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)
#define CB(x)                                                                   \
    do {                                                                        \
        cublasStatus_t s_ = (x);                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                      \
            fprintf(stderr, "%s:%d: %s: cublas %d\n", __FILE__, __LINE__, #x, (int)s_); \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define ES ((size_t)sizeof(gh_elem))
#if TF32
static float h2f(float h)
{
    return h;
}
#else
static float h2f(unsigned short h)
{
#if FP16
    unsigned s = (h >> 15) & 1, e = (h >> 10) & 31, f = h & 1023;
    float v;
    if (e == 0)
        v = ldexpf((float)f, -24);
    else if (e == 31)
        v = f ? NAN : INFINITY;
    else
        v = ldexpf((float)(f | 1024), (int)e - 25);
    return s ? -v : v;
#else
    unsigned u = (unsigned)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
#endif
}
#endif

__global__ void fill(gh_elem *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 16;
        x *= 0x7feb352d;
        x ^= x >> 15;
        x *= 0x846ca68b;
        x ^= x >> 16;
        float v = (x >> 8) * (2.0f / 16777216.0f) - 1.0f;
#if TF32
        p[i] = v;
#else
        u32 r;
#if FP16
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(0.0f), "f"(v));
#else
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(0.0f), "f"(v));
#endif
        p[i] = (unsigned short)(r & 0xFFFF);
#endif
    }
}

static void make_map(CUtensorMap *map, void *ptr, int rows, int cols, int box_rows)
{
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)cols * ES};
    cuuint32_t box[2] = {(cuuint32_t)GH_BOXK, (cuuint32_t)box_rows};
    cuuint32_t es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(map, TF32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : FP16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr,
                                        dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", (int)r);
        exit(1);
    }
}

static double rel_err(const std::vector<gh_elem> &a, const std::vector<gh_elem> &b, long *nan)
{
    double num = 0, den = 0;
    *nan = 0;
    for (size_t i = 0; i < a.size(); i++) {
        double x = h2f(a[i]), y = h2f(b[i]);
        if (std::isnan(x)) {
            (*nan)++;
            continue;
        }
        num += (x - y) * (x - y);
        den += y * y;
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s M N K [reps]\n", argv[0]);
        return 2;
    }
    const int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]);
    const int reps = argc > 4 ? atoi(argv[4]) : 30;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    gh_elem *A, *B, *C, *R, *C0;
    void *flush;
    const size_t flush_bytes = 256u << 20;
    CK(cudaMalloc(&A, (size_t)M * K * ES));
    CK(cudaMalloc(&B, (size_t)N * K * ES));
    CK(cudaMalloc(&C, (size_t)M * N * ES));
    CK(cudaMalloc(&R, (size_t)M * N * ES));
    CK(cudaMalloc(&C0, (size_t)M * N * ES));
    CK(cudaMalloc(&flush, flush_bytes));
    float *work;
    int *counters;
    const size_t ncounters = (size_t)((M + BM - 1) / BM + CLUSTER_M - 1) / CLUSTER_M * CLUSTER_M *
                             ((N + BN - 1) / BN) * NC;
    CK(cudaMalloc(&work, (SPLITK > 1 ? (size_t)SPLITK * M * N : 1) * sizeof(float)));
    CK(cudaMalloc(&counters, ncounters * sizeof(int)));
    CK(cudaMemset(counters, 0, ncounters * sizeof(int)));
    unsigned seed = (unsigned)(M * 131 + N * 7 + K) ^ 0x9e3779b9u;
    fill<<<1024, 256>>>(A, (size_t)M * K, seed);
    fill<<<1024, 256>>>(B, (size_t)N * K, seed * 3 + 1);
    fill<<<1024, 256>>>(C0, (size_t)M * N, seed * 5 + 2);
    CK(cudaGetLastError());

    CUtensorMap ta, tb;
    make_map(&ta, A, M, K, BM);
    make_map(&tb, B, N, K, BN / CLUSTER_M);
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const int units = (tiles_m + CLUSTER_M - 1) / CLUSTER_M * tiles_n * SPLITK; /* work units */
    int grid_units = units;
#if PERSISTENT
    {
        int per = prop.multiProcessorCount / CLUSTER_M;
#if CLUSTER_M > 1
        cudaLaunchConfig_t lc = {};
        cudaLaunchAttribute at;
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = CLUSTER_M;
        at.val.clusterDim.y = 1;
        at.val.clusterDim.z = 1;
        lc.gridDim = dim3(per * CLUSTER_M);
        lc.blockDim = dim3(GH_NT);
        lc.dynamicSmemBytes = STAGES * GH_STAGE_BYTES + 1024 + GH_EPI_BYTES;
        lc.attrs = &at;
        lc.numAttrs = 0; /* compile-time __cluster_dims__ */
        int ncl = 0;
        CK(cudaFuncSetAttribute(gemm_h, cudaFuncAttributeMaxDynamicSharedMemorySize, STAGES * GH_STAGE_BYTES + 1024 + GH_EPI_BYTES));
        CK(cudaOccupancyMaxActiveClusters(&ncl, gemm_h, &lc));
        if (ncl > 0 && ncl < per)
            per = ncl;
#endif
        grid_units = std::min(units, per);
    }
#endif
    const int smem = STAGES * GH_STAGE_BYTES + 1024 + GH_EPI_BYTES;
    CK(cudaFuncSetAttribute(gemm_h, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    dim3 grid(grid_units * CLUSTER_M), block(GH_NT);

    cublasHandle_t h;
    CB(cublasCreate(&h));
    const cudaDataType dt = TF32 ? CUDA_R_32F : FP16 ? CUDA_R_16F : CUDA_R_16BF;
    /* TF32: cuBLAS's TF32 tensor-core path, the matching precision */
    const cublasComputeType_t ct = TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    auto run_ref = [&](float alpha, float beta, gh_elem *out) {
        CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, dt, K, A, dt, K, &beta, out, dt, N,
                        ct, CUBLAS_GEMM_DEFAULT));
    };
    auto run_mine = [&](float alpha, float beta, gh_elem *out) {
        gemm_h<<<grid, block, smem>>>(*(const gh_tmap *)&ta, *(const gh_tmap *)&tb, out, A, B, M, N, K, alpha, beta,
                                      work, counters);
    };

    /* correctness: beta = 0 on a NaN-poisoned C; then alpha 1.5, beta -0.5 on random C */
    std::vector<gh_elem> hc((size_t)M * N), hr((size_t)M * N);
    long nan_cnt = 0;
    double e1, e2, e64 = 0;
    CK(cudaMemset(C, 0xFF, (size_t)M * N * ES));
    run_mine(1.0f, 0.0f, C);
    CK(cudaGetLastError());
    run_ref(1.0f, 0.0f, R);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hc.data(), C, hc.size() * ES, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr.data(), R, hr.size() * ES, cudaMemcpyDeviceToHost));
    e1 = rel_err(hc, hr, &nan_cnt);
    const std::vector<gh_elem> hc1 = hc;
    {
        std::vector<gh_elem> ha((size_t)M * K), hb((size_t)N * K);
        CK(cudaMemcpy(ha.data(), A, ha.size() * ES, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hb.data(), B, hb.size() * ES, cudaMemcpyDeviceToHost));
        double num = 0, den = 0;
        unsigned s = 12345;
        for (int t = 0; t < 512; t++) {
            s = s * 1664525u + 1013904223u;
            int i = (int)((s >> 8) % (unsigned)M);
            s = s * 1664525u + 1013904223u;
            int j = (int)((s >> 8) % (unsigned)N);
            if (t == 0) { i = M - 1; j = N - 1; }
            if (t == 1) { i = 0; j = 0; }
            double ref = 0;
            for (int q = 0; q < K; q++)
                ref += (double)h2f(ha[(size_t)i * K + q]) * h2f(hb[(size_t)j * K + q]);
            double got = h2f(hc[(size_t)i * N + j]);
            num += (got - ref) * (got - ref);
            den += ref * ref;
        }
        e64 = sqrt(num / den);
    }
    CK(cudaMemcpy(C, C0, (size_t)M * N * ES, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(R, C0, (size_t)M * N * ES, cudaMemcpyDeviceToDevice));
    run_mine(1.5f, -0.5f, C);
    CK(cudaGetLastError());
    run_ref(1.5f, -0.5f, R);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hc.data(), C, hc.size() * ES, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr.data(), R, hr.size() * ES, cudaMemcpyDeviceToHost));
    long nan2 = 0;
    e2 = rel_err(hc, hr, &nan2);

    /* timing */
    cudaEvent_t e0, ev1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&ev1));
    std::vector<float> tm, tc;
    for (int r = 0; r < reps + 3; r++) {
        float ms;
        CK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));
        CK(cudaEventRecord(e0));
        run_mine(1.0f, 0.0f, C);
        CK(cudaEventRecord(ev1));
        CK(cudaEventSynchronize(ev1));
        CK(cudaEventElapsedTime(&ms, e0, ev1));
        if (r >= 3)
            tm.push_back(ms);
        CK(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));
        CK(cudaEventRecord(e0));
        run_ref(1.0f, 0.0f, R);
        CK(cudaEventRecord(ev1));
        CK(cudaEventSynchronize(ev1));
        CK(cudaEventElapsedTime(&ms, e0, ev1));
        if (r >= 3)
            tc.push_back(ms);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hc.data(), C, hc.size() * ES, cudaMemcpyDeviceToHost));
    long rerun_diff = 0, counters_left = 0;
    for (size_t i = 0; i < hc.size(); i++)
        rerun_diff += memcmp(&hc[i], &hc1[i], ES) != 0;
    {
        std::vector<int> hcnt(ncounters);
        CK(cudaMemcpy(hcnt.data(), counters, ncounters * sizeof(int), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < ncounters; i++)
            counters_left += hcnt[i] != 0;
    }
    std::sort(tm.begin(), tm.end());
    std::sort(tc.begin(), tc.end());
    double mm = tm[tm.size() / 2], mc = tc[tc.size() / 2];
    double fl = 2.0 * M * N * K;
    printf("%s,%d,%d,%d,%.3e,%.3e,%.3e,%ld,%.4f,%.4f,%.1f,%.1f,%.3f,%ld,%ld\n", CFG, M, N, K, e1, e2, e64,
           nan_cnt + nan2, mm, mc, fl / mm / 1e9, fl / mc / 1e9, mc / mm, rerun_diff, counters_left);
    return 0;
}
