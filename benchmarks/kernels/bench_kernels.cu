/*
 * bench_kernels.cu - side-by-side benchmark of cutune's tuned kernels against their
 * ceilings (cuBLAS SGEMM / TF32 for the GEMMs, device-to-device copy bandwidth for the
 * memory-bound kernels). One translation unit per (kernel, size):
 *
 *   nvcc -arch=sm_90 -O3 -std=c++17 -I gen -I ../../kernels \
 *        -include best/gemm.h -DM=4096 -DN=4096 -DK=4096 -DKERNEL_GEMM \
 *        bench_kernels.cu -o bench_gemm_4096 -lcublas
 *   nvcc -arch=sm_90 -O3 -std=c++17 -DKERNEL_COPY bench_kernels.cu -o bench_copy -lcublas
 *
 * (bench.py, run by run.sh, does this for every row, with -DBENCH_DEFS="defs/ID.h", a
 * file holding the size #defines and an #include of the best header, in place of
 * -include/-D, so that the macros stay out of the system headers.)
 * The best header (cutune --header=FILE.h) defines every tunable parameter; -D gives
 * the sizes; gen/NAME_sizes.h supplies the spec's default for the sizes not given;
 * gen/NAME_launch.h (gen_specs.py, from kernels/NAME.json) holds the spec as C++: the
 * arguments, their element counts and initialisation, the launch geometry and dynamic
 * shared memory, the reference, tolerances and metrics, all evaluated here at run time.
 *
 * One run of a binary: fill inputs on the device (splitmix64 counter streams, as
 * cutune's host generator; generator kernels for "init": "kernel:NAME"), run the
 * reference, poison the outputs (0xFF bytes = NaN), run the tuned kernel once and
 * compare (relative L2 error and max abs error against the spec's rtol / atol; any NaN
 * fails), then time with CUDA events (warm-up >= 50 ms, then event pairs around every
 * launch, batches of 10, >= 25 repetitions and >= 0.15 s, median). GEMMs also time
 * cublasSgemm in the default math mode and in CUBLAS_TF32_TENSOR_OP_MATH at the same
 * shape. The last stdout line is `RESULT {json}`; progress goes to stderr.
 *
 * Options: --id NAME (label in the JSON), --min-reps N, --max-reps N, --target-s S,
 *          --dry-run (evaluate and print the geometry and arguments; no GPU needed).
 */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#define CX_XSTR(x) #x
#define CX_STR(x) CX_XSTR(x)

/* ------------------------------------------------------------------------------
 * Expression helpers: cutune's expression semantics on the host (INT op INT stays a
 * 64-bit INT, any REAL makes it REAL, division/remainder by zero is an error).
 * ---------------------------------------------------------------------------- */
int cx_math_error = 0; /* set by a division by zero in a spec expression */

template <class CxT>
using cx_t = typename std::conditional<std::is_integral<CxT>::value, long long, double>::type;

template <class CxT> inline cx_t<CxT> cx_num(CxT v) { return (cx_t<CxT>)v; }
template <class CxT> inline bool cx_truth(CxT v) { return v != 0; }

template <class CxA, class CxB>
inline typename std::common_type<CxA, CxB>::type cx_div(CxA a, CxB b)
{
    typedef typename std::common_type<CxA, CxB>::type CxT;
    if (b == 0) {
        cx_math_error = 1;
        return (CxT)0;
    }
    return (CxT)a / (CxT)b;
}
template <class CxA, class CxB>
inline typename std::common_type<CxA, CxB>::type cx_mod(CxA a, CxB b)
{
    typedef typename std::common_type<CxA, CxB>::type CxT;
    if (b == 0) {
        cx_math_error = 1;
        return (CxT)0;
    }
    if (std::is_integral<CxT>::value)
        return (CxT)((long long)a % (long long)b);
    return (CxT)std::fmod((double)a, (double)b);
}
template <class CxA> inline CxA cx_min(CxA a) { return a; }
template <class CxA, class CxB, class... CxR>
inline typename std::common_type<CxA, CxB, CxR...>::type cx_min(CxA a, CxB b, CxR... r)
{
    typedef typename std::common_type<CxA, CxB>::type CxT;
    return cx_min((CxT)a < (CxT)b ? (CxT)a : (CxT)b, r...);
}
template <class CxA> inline CxA cx_max(CxA a) { return a; }
template <class CxA, class CxB, class... CxR>
inline typename std::common_type<CxA, CxB, CxR...>::type cx_max(CxA a, CxB b, CxR... r)
{
    typedef typename std::common_type<CxA, CxB>::type CxT;
    return cx_max((CxT)a > (CxT)b ? (CxT)a : (CxT)b, r...);
}
template <class CxX, class... CxR> inline long long cx_in(CxX x, CxR... r)
{
    return ((x == r) || ...) ? 1 : 0;
}
template <class CxA> inline long long cx_ceil(CxA a)
{
    return std::is_integral<CxA>::value ? (long long)a : (long long)std::ceil((double)a);
}
template <class CxA> inline long long cx_floor(CxA a)
{
    return std::is_integral<CxA>::value ? (long long)a : (long long)std::floor((double)a);
}
template <class CxA> inline double cx_log2(CxA a) { return std::log2((double)a); }
template <class CxA> inline CxA cx_abs(CxA a) { return a < 0 ? -a : a; }
inline long long cx_pow(long long b, long long e)
{
    if (e < 0) {
        cx_math_error = 1;
        return 0;
    }
    long long r = 1;
    while (e--)
        r *= b;
    return r;
}
inline double cx_pow(double b, double e) { return std::pow(b, e); }
inline double cx_pow(long long b, double e) { return std::pow((double)b, e); }
inline double cx_pow(double b, long long e) { return std::pow(b, (double)e); }

/* ------------------------------------------------------------------------------
 * Argument descriptions (filled by gen/NAME_launch.h).
 * ---------------------------------------------------------------------------- */
enum ElemType { T_FLOAT, T_DOUBLE, T_HALF, T_INT32, T_UINT32, T_INT64, T_UINT8 };
enum InitKind { INIT_NONE, INIT_RANDOM, INIT_ZEROS, INIT_ONES, INIT_RANGE, INIT_KERNEL, INIT_UNSUPPORTED };
/* macros, not an enum: tested with #if */
#define REF_NONE 0
#define REF_KERNEL 1
#define REF_CUBLAS_SGEMM 2

struct ArgDesc {
    const char *name;
    ElemType type;
    int is_buffer;
    int output;
    InitKind init;
    double lo, hi;
    const char *init_text;
};

inline size_t elem_size(ElemType t)
{
    switch (t) {
    case T_DOUBLE: case T_INT64: return 8;
    case T_HALF: return 2;
    case T_UINT8: return 1;
    default: return 4;
    }
}
inline bool is_float_type(ElemType t) { return t == T_FLOAT || t == T_DOUBLE || t == T_HALF; }

inline double elem_get(const void *p, ElemType t, size_t i)
{
    switch (t) {
    case T_FLOAT: return ((const float *)p)[i];
    case T_DOUBLE: return ((const double *)p)[i];
    case T_HALF: return (double)__half2float(((const __half *)p)[i]);
    case T_INT32: return ((const int *)p)[i];
    case T_UINT32: return ((const unsigned *)p)[i];
    case T_INT64: return (double)((const long long *)p)[i];
    case T_UINT8: return ((const unsigned char *)p)[i];
    }
    return 0;
}

/* ------------------------------------------------------------------------------
 * Device-side input generation: element i of argument idx's stream is splitmix64's
 * output i+1 from state seed ^ (0xd1b54a32d192ed03 * (idx + 1)), the host stream of
 * cutune's worker; floats are uniform in [lo, hi), integers in ceil(lo)..ceil(hi) - 1.
 * ---------------------------------------------------------------------------- */
__device__ __forceinline__ unsigned long long bench_mix(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <class CxT> __device__ __forceinline__ void bench_store(CxT *p, size_t i, double v)
{
    if (std::is_same<CxT, float>::value || std::is_same<CxT, double>::value) {
        p[i] = (CxT)v;
    } else {
        /* integers: clamp into the type's range (e.g. uint8 [0, 256] -> 255) */
        const double lo = std::is_same<CxT, unsigned char>::value ? 0.0
                          : std::is_same<CxT, unsigned int>::value ? 0.0
                          : std::is_same<CxT, int>::value         ? -2147483648.0
                                                                : -9.2e18;
        const double hi = std::is_same<CxT, unsigned char>::value  ? 255.0
                          : std::is_same<CxT, unsigned int>::value ? 4294967295.0
                          : std::is_same<CxT, int>::value          ? 2147483647.0
                                                                 : 9.2e18;
        p[i] = (CxT)fmin(fmax(v, lo), hi);
    }
}
template <> __device__ __forceinline__ void bench_store<__half>(__half *p, size_t i, double v)
{
    p[i] = __float2half((float)v);
}

/* kind 0 random, 1 constant lo, 2 range (i mod hi) */
template <class CxT>
__global__ void bench_fill(CxT *p, size_t n, unsigned long long s0, double lo, double hi, int flt,
                           int kind)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        double v;
        if (kind == 1) {
            v = lo;
        } else if (kind == 2) {
            v = hi > 0 ? fmod((double)i, floor(hi)) : (double)i;
        } else {
            const unsigned long long z = bench_mix(s0 + (i + 1) * 0x9e3779b97f4a7c15ull);
            const double u = (double)(z >> 11) * 0x1p-53;
            v = flt ? lo + u * (hi - lo) : ceil(lo) + floor(u * (ceil(hi) - ceil(lo)));
        }
        bench_store(p, i, v);
    }
}

static cudaError_t fill_buffer(void *d, ElemType t, size_t n, unsigned long long s0, double lo,
                               double hi, int kind, cudaStream_t s)
{
    if (!n)
        return cudaSuccess;
    const int flt = is_float_type(t);
    if (kind == 0 && (!(lo < hi) || (!flt && std::ceil(hi) - std::ceil(lo) < 1))) {
        lo = flt ? -1.0 : 0.0; /* as cutune's worker for an empty range */
        hi = flt ? 1.0 : 100.0;
    }
    const unsigned blocks = (unsigned)std::min<size_t>((n + 255) / 256, 132 * 64);
    switch (t) {
    case T_FLOAT: bench_fill<<<blocks, 256, 0, s>>>((float *)d, n, s0, lo, hi, flt, kind); break;
    case T_DOUBLE: bench_fill<<<blocks, 256, 0, s>>>((double *)d, n, s0, lo, hi, flt, kind); break;
    case T_HALF: bench_fill<<<blocks, 256, 0, s>>>((__half *)d, n, s0, lo, hi, flt, kind); break;
    case T_INT32: bench_fill<<<blocks, 256, 0, s>>>((int *)d, n, s0, lo, hi, flt, kind); break;
    case T_UINT32: bench_fill<<<blocks, 256, 0, s>>>((unsigned *)d, n, s0, lo, hi, flt, kind); break;
    case T_INT64: bench_fill<<<blocks, 256, 0, s>>>((long long *)d, n, s0, lo, hi, flt, kind); break;
    case T_UINT8: bench_fill<<<blocks, 256, 0, s>>>((unsigned char *)d, n, s0, lo, hi, flt, kind); break;
    }
    return cudaGetLastError();
}

/* ------------------------------------------------------------------------------
 * Result (printed as one JSON line) and small helpers.
 * ---------------------------------------------------------------------------- */
static std::string jstr(const std::string &s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if ((unsigned char)c < 0x20) {
            char b[8];
            snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else {
            o += c;
        }
    }
    return o + "\"";
}
static std::string jnum(double v)
{
    if (!std::isfinite(v))
        return "null";
    char b[64];
    snprintf(b, sizeof b, "%.9g", v);
    return b;
}

struct Result {
    std::string id, kernel, device, error;
    std::vector<std::pair<std::string, std::string>> fields; /* key -> raw JSON value */
    void set(const std::string &k, const std::string &raw)
    {
        for (auto &f : fields)
            if (f.first == k) {
                f.second = raw;
                return;
            }
        fields.push_back({k, raw});
    }
};
static Result g_res;
static const char *g_stage = "start";

[[noreturn]] static void finish(int rc)
{
    std::string o = "{\"id\": " + jstr(g_res.id) + ", \"kernel\": " + jstr(g_res.kernel) +
                    ", \"device\": " + jstr(g_res.device) + ", \"ok\": " +
                    (g_res.error.empty() ? "true" : "false") + ", \"error\": " +
                    (g_res.error.empty() ? "null" : jstr(g_res.error));
    for (auto &f : g_res.fields)
        o += ", " + jstr(f.first) + ": " + f.second;
    o += "}";
    fflush(stderr);
    printf("RESULT %s\n", o.c_str());
    fflush(stdout);
    exit(rc);
}

[[noreturn]] static void fail(const std::string &msg)
{
    fprintf(stderr, "[%s] ERROR during %s: %s\n", g_res.id.c_str(), g_stage, msg.c_str());
    g_res.error = std::string(g_stage) + ": " + msg;
    finish(2);
}

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess)                                                                \
            fail(std::string(#call) + ": " + cudaGetErrorName(e_) + " (" +                    \
                 cudaGetErrorString(e_) + ")");                                               \
    } while (0)
#define CKB(call)                                                                             \
    do {                                                                                      \
        cublasStatus_t s_ = (call);                                                           \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                      \
            fail(std::string(#call) + ": cublas status " + std::to_string((int)s_));          \
    } while (0)

static double now_s(void)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* ------------------------------------------------------------------------------
 * Timing: warm-up (>= 3 launches and >= 50 ms), then event pairs around every launch
 * in batches of up to 10 (one synchronisation per batch), until >= min_reps and
 * >= target_s, or max_reps. Median of the per-launch times.
 * ---------------------------------------------------------------------------- */
struct Timing {
    double median_ms = NAN, min_ms = NAN, max_ms = NAN;
    int reps = 0;
};
static int g_min_reps = 25, g_max_reps = 2000;
static double g_target_s = 0.15;

template <class CxF> static Timing time_it(const char *what, CxF launch, cudaStream_t s)
{
    const int BATCH = 10;
    static cudaEvent_t ev[2 * 10];
    static bool have_ev = false;
    const char *old = g_stage;
    g_stage = what;
    if (!have_ev) {
        for (int i = 0; i < 2 * BATCH; i++)
            CK(cudaEventCreate(&ev[i]));
        have_ev = true;
    }
    double t0 = now_s();
    int nwarm = 0;
    do {
        launch(s);
        CK(cudaGetLastError());
        if (++nwarm % 5 == 0 || nwarm <= 3)
            CK(cudaStreamSynchronize(s));
    } while (nwarm < 3 || (now_s() - t0 < 0.05 && nwarm < 2000));
    CK(cudaStreamSynchronize(s));
    std::vector<double> t;
    t0 = now_s();
    while ((int)t.size() < g_max_reps) {
        const int m = std::min(BATCH, g_max_reps - (int)t.size());
        for (int j = 0; j < m; j++) {
            CK(cudaEventRecord(ev[2 * j], s));
            launch(s);
            CK(cudaEventRecord(ev[2 * j + 1], s));
        }
        CK(cudaGetLastError());
        CK(cudaEventSynchronize(ev[2 * m - 1]));
        for (int j = 0; j < m; j++) {
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, ev[2 * j], ev[2 * j + 1]));
            t.push_back(ms);
        }
        if ((int)t.size() >= g_min_reps && now_s() - t0 >= g_target_s)
            break;
    }
    std::sort(t.begin(), t.end());
    Timing r;
    const size_t n = t.size();
    r.median_ms = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    r.min_ms = t.front();
    r.max_ms = t.back();
    r.reps = (int)n;
    g_stage = old;
    return r;
}

static std::string timing_json(const Timing &t)
{
    return "{\"median_ms\": " + jnum(t.median_ms) + ", \"min_ms\": " + jnum(t.min_ms) +
           ", \"max_ms\": " + jnum(t.max_ms) + ", \"reps\": " + std::to_string(t.reps) + "}";
}

static void device_info(bool dry)
{
    if (dry) {
        g_res.device = "(dry run)";
        return;
    }
    int dev = 0, count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        fail(std::string("no CUDA device: ") + (e != cudaSuccess ? cudaGetErrorString(e) : "0 devices"));
    CK(cudaSetDevice(dev));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, dev));
    g_res.device = p.name;
    int clk = 0, memclk = 0, bus = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);
    cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, dev);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev);
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    g_res.set("device_info",
              "{\"sm\": \"" + std::to_string(p.major) + std::to_string(p.minor) +
                  "\", \"sms\": " + std::to_string(p.multiProcessorCount) +
                  ", \"sm_clock_mhz\": " + std::to_string(clk / 1000) +
                  ", \"mem_clock_mhz\": " + std::to_string(memclk / 1000) +
                  ", \"bus_bits\": " + std::to_string(bus) +
                  ", \"mem_gib\": " + jnum(p.totalGlobalMem / 1073741824.0) +
                  ", \"runtime\": " + std::to_string(rt) + ", \"driver\": " + std::to_string(drv) +
                  "}");
}

/* ------------------------------------------------------------------------------
 * The kernel under test: the sizes and the best header (BENCH_DEFS, a file that bench.py
 * writes: "#define M 1000 ... #include best/NAME.h"; or -D / -include on the command
 * line), the spec's size defaults, the kernel source, the spec. Included after every
 * system header and every generic helper, so the tunable macros (BLOCK, GRID, PAD, M,
 * ...) cannot collide with names in the CUDA or C++ headers.
 * ---------------------------------------------------------------------------- */
#ifdef BENCH_DEFS
#include BENCH_DEFS
#endif
#if defined(KERNEL_COPY)
#define BENCH_COPY 1
#elif defined(KERNEL_GEMM)
#include "gemm_sizes.h"
#include "gemm.cu"
#include "gemm_launch.h"
#elif defined(KERNEL_GEMM_TF32)
#include "gemm_tf32_sizes.h"
#include "gemm_tf32.cu"
#include "gemm_tf32_launch.h"
#elif defined(KERNEL_XGEMM)
#include "xgemm_sizes.h"
#include "xgemm.cu"
#include "xgemm_launch.h"
#elif defined(KERNEL_TRANSPOSE)
#include "transpose_sizes.h"
#include "transpose.cu"
#include "transpose_launch.h"
#elif defined(KERNEL_REDUCTION)
#include "reduction_sizes.h"
#include "reduction.cu"
#include "reduction_launch.h"
#elif defined(KERNEL_SPMV)
#include "spmv_sizes.h"
#include "spmv.cu"
#include "spmv_launch.h"
#elif defined(KERNEL_VECTOR_ADD)
#include "vector_add_sizes.h"
#include "vector_add.cu"
#include "vector_add_launch.h"
#elif defined(KERNEL_BLUR)
#include "blur_sizes.h"
#include "blur.cu"
#include "blur_launch.h"
#else
#error "define one of KERNEL_COPY, KERNEL_GEMM, KERNEL_GEMM_TF32, KERNEL_XGEMM, KERNEL_TRANSPOSE, KERNEL_REDUCTION, KERNEL_SPMV, KERNEL_VECTOR_ADD, KERNEL_BLUR"
#endif

#ifndef BENCH_COPY
#define BENCH_COPY 0
#endif
#ifndef COPY_BYTES
#define COPY_BYTES 2147483648ull /* 2 GiB */
#endif

/* ==============================================================================
 * Copy ceiling: cudaMemcpyAsync device to device, (bytes read + written) / time.
 * ============================================================================ */
#if BENCH_COPY
static int run(bool dry)
{
    g_res.kernel = "copy";
    const size_t bytes = (size_t)(COPY_BYTES);
    g_res.set("bytes", std::to_string(bytes));
    device_info(dry);
    if (dry) {
        fprintf(stderr, "copy: %zu bytes device to device\n", bytes);
        finish(0);
    }
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    void *src = nullptr, *dst = nullptr;
    g_stage = "allocation";
    CK(cudaMalloc(&src, bytes));
    CK(cudaMalloc(&dst, bytes));
    g_stage = "fill";
    CK(fill_buffer(src, T_FLOAT, bytes / 4, 0x5eedull, -1.0, 1.0, 0, s));
    CK(cudaMemsetAsync(dst, 0xFF, bytes, s));
    CK(cudaStreamSynchronize(s));
    cudaError_t cerr = cudaSuccess;
    Timing t = time_it("timing cudaMemcpyAsync D2D", [&](cudaStream_t st) {
        cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st);
        if (e != cudaSuccess)
            cerr = e;
    }, s);
    CK(cerr);
    /* check a few 1 MiB windows */
    g_stage = "check";
    const size_t win = std::min<size_t>(bytes, 1 << 20);
    std::vector<unsigned char> a(win), b(win);
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        const size_t off = (bytes - win) / 3 * k;
        CK(cudaMemcpy(a.data(), (char *)src + off, win, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), (char *)dst + off, win, cudaMemcpyDeviceToHost));
        bad |= memcmp(a.data(), b.data(), win) != 0;
    }
    const double gbs = 2.0 * bytes / (t.median_ms * 1e-3) / 1e9;
    fprintf(stderr, "[%s] D2D copy %.2f GiB: %.3f ms, %.1f GB/s (read + write)%s\n", g_res.id.c_str(),
            bytes / 1073741824.0, t.median_ms, gbs, bad ? "  COPY MISMATCH" : "");
    g_res.set("timing", timing_json(t));
    g_res.set("time_ms", jnum(t.median_ms));
    g_res.set("metrics", "{\"GB/s\": " + jnum(gbs) + "}");
    g_res.set("verify", std::string("{\"status\": \"") + (bad ? "FAIL" : "PASS") + "\"}");
    cudaFree(src);
    cudaFree(dst);
    finish(0);
}

/* ==============================================================================
 * A spec kernel.
 * ============================================================================ */
#else

#if SPEC_REF_KIND == REF_CUBLAS_SGEMM
/* row-major C = alpha A B + beta C is column-major C^T = alpha B^T A^T + beta C^T */
static cublasStatus_t sgemm_rowmajor(cublasHandle_t h, void *const *d, float alpha, float beta)
{
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)(N), (int)(M), (int)(K), &alpha,
                       (const float *)d[SPEC_GEMM_B], (int)(N), (const float *)d[SPEC_GEMM_A],
                       (int)(K), &beta, (float *)d[SPEC_GEMM_C], (int)(N));
}
#endif

struct VerifyOut {
    double rel = 0, maxabs = 0;
    size_t nans = 0, first_bad = (size_t)-1;
    double first_out = 0, first_ref = 0;
};

static int run(bool dry)
{
    g_res.kernel = SPEC_NAME;
    device_info(dry);
    const int nargs = spec_nargs;

    /* ---- configuration, restrictions, geometry, argument sizes ---- */
    std::string cfg = "{", sz = "{";
    std::string cfgtxt, sztxt;
    for (int i = 0; i < spec_nparams; i++) {
        cfg += std::string(i ? ", " : "") + jstr(spec_param_names[i]) + ": " + jstr(spec_param_values[i]);
        cfgtxt += std::string(i ? " " : "") + spec_param_names[i] + "=" + spec_param_values[i];
    }
    for (int i = 0; i < spec_nsizes; i++) {
        sz += std::string(i ? ", " : "") + jstr(spec_size_names[i]) + ": " + jstr(spec_size_values[i]);
        sztxt += std::string(i ? " " : "") + spec_size_names[i] + "=" + spec_size_values[i];
    }
    g_res.set("sizes", sz + "}");
    g_res.set("params", cfg + "}");
    fprintf(stderr, "[%s] %s  sizes: %s\n[%s] config: %s\n", g_res.id.c_str(), SPEC_NAME,
            sztxt.c_str(), g_res.id.c_str(), cfgtxt.c_str());

    cx_math_error = 0;
    std::string viol = "[";
    int nviol = 0;
    for (int i = 0; i < spec_nrestrictions; i++) {
        if (!spec_restriction_ok(i)) {
            viol += std::string(nviol++ ? ", " : "") + jstr(spec_restriction_text[i]);
            fprintf(stderr, "[%s] WARNING: restriction violated: %s\n", g_res.id.c_str(),
                    spec_restriction_text[i]);
        }
    }
    g_res.set("restrictions_violated", viol + "]");
    long long grid[3], block[3];
    for (int d = 0; d < 3; d++) {
        grid[d] = spec_grid(d);
        block[d] = spec_block(d);
    }
    const long long smem = spec_smem();
    std::vector<size_t> count(nargs, 0), bytes(nargs, 0);
    std::string argj = "[";
    for (int i = 0; i < nargs; i++) {
        const ArgDesc &a = spec_args[i];
        if (a.is_buffer) {
            const long long c = spec_arg_count(i);
            if (c < 0)
                fail(std::string("argument ") + a.name + ": negative element count");
            count[i] = (size_t)c;
            bytes[i] = count[i] * elem_size(a.type);
            argj += std::string(i ? ", " : "") + "{\"name\": " + jstr(a.name) + ", \"count\": " +
                    std::to_string(count[i]) + ", \"init\": " + jstr(a.init_text) + "}";
        } else {
            argj += std::string(i ? ", " : "") + "{\"name\": " + jstr(a.name) + ", \"value\": " +
                    jnum(spec_arg_value(i)) + "}";
        }
    }
    g_res.set("args", argj + "]");
    g_res.set("grid", "[" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " +
                          std::to_string(grid[2]) + "]");
    g_res.set("block", "[" + std::to_string(block[0]) + ", " + std::to_string(block[1]) + ", " +
                           std::to_string(block[2]) + "]");
    g_res.set("shared_mem", std::to_string(smem));
    {
        double mb = 0;
        for (int i = 0; i < nargs; i++)
            mb += bytes[i] / 1048576.0;
        fprintf(stderr, "[%s] grid (%lld, %lld, %lld) block (%lld, %lld, %lld) dynamic smem %lld B; buffers %.1f MiB\n",
                g_res.id.c_str(), grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, mb);
    }
    if (cx_math_error)
        fail("division by zero in a spec expression (restrictions, geometry or argument sizes)");
    if (dry) {
        for (int i = 0; i < nargs; i++) {
            if (spec_args[i].is_buffer)
                fprintf(stderr, "  arg %d %-10s buffer %zu elements (%s%s)\n", i, spec_args[i].name,
                        count[i], spec_args[i].init_text, spec_args[i].output ? ", output" : "");
            else
                fprintf(stderr, "  arg %d %-10s value %.9g\n", i, spec_args[i].name, spec_arg_value(i));
        }
        for (int i = 0; i < spec_nmetrics; i++)
            fprintf(stderr, "  metric %s at 1 ms: %.6g\n", spec_metric_names[i], spec_metric(i, 1.0, 1e-3));
        finish(0);
    }

    /* ---- launch limits (as cutune: over a limit, never launched) ---- */
    g_stage = "launch check";
    {
        int dev = 0, maxt = 0, optin = 0, gx = 0, gy = 0, gz = 0;
        CK(cudaDeviceGetAttribute(&maxt, cudaDevAttrMaxThreadsPerBlock, dev));
        CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        CK(cudaDeviceGetAttribute(&gx, cudaDevAttrMaxGridDimX, dev));
        CK(cudaDeviceGetAttribute(&gy, cudaDevAttrMaxGridDimY, dev));
        CK(cudaDeviceGetAttribute(&gz, cudaDevAttrMaxGridDimZ, dev));
        const long long threads = block[0] * block[1] * block[2];
        if (threads < 1 || threads > maxt || smem < 0 || smem > optin || grid[0] < 1 || grid[1] < 1 ||
            grid[2] < 1 || grid[0] > gx || grid[1] > gy || grid[2] > gz)
            fail("launch out of the device's limits (threads " + std::to_string(threads) +
                 ", dynamic smem " + std::to_string(smem) + " of " + std::to_string(optin) + ")");
        CK(spec_prepare());
    }

    /* ---- buffers ---- */
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    std::vector<void *> d(nargs, nullptr);
    g_stage = "allocation";
    for (int i = 0; i < nargs; i++)
        if (spec_args[i].is_buffer)
            CK(cudaMalloc(&d[i], std::max<size_t>(bytes[i], 256)));
    const unsigned long long seed = 1;
    auto prepare = [&](bool poison_outputs) {
        for (int i = 0; i < nargs; i++) {
            const ArgDesc &a = spec_args[i];
            if (!a.is_buffer)
                continue;
            const unsigned long long s0 = seed ^ (0xd1b54a32d192ed03ull * (unsigned long long)(i + 1));
            if (a.output) {
                if (poison_outputs)
                    CK(cudaMemsetAsync(d[i], 0xFF, bytes[i], s));
                continue;
            }
            switch (a.init) {
            case INIT_RANDOM: CK(fill_buffer(d[i], a.type, count[i], s0, a.lo, a.hi, 0, s)); break;
            case INIT_ONES: CK(fill_buffer(d[i], a.type, count[i], s0, 1.0, 1.0, 1, s)); break;
            case INIT_RANGE: CK(fill_buffer(d[i], a.type, count[i], s0, a.lo, a.hi, 2, s)); break;
            case INIT_KERNEL:
                if (count[i] && !spec_gen_launch(i, d[i], count[i], (unsigned)(s0 >> 32), s))
                    fail(std::string("no generator kernel for argument ") + a.name);
                CK(cudaGetLastError());
                break;
            case INIT_ZEROS: CK(cudaMemsetAsync(d[i], 0, bytes[i], s)); break;
            default: fail(std::string("argument ") + a.name + ": init '" + a.init_text + "' not supported");
            }
        }
    };
    g_stage = "input generation";
    prepare(true);
    CK(cudaStreamSynchronize(s));

    /* ---- reference ---- */
    std::vector<std::vector<unsigned char>> ref(nargs), out(nargs);
    const bool have_ref = SPEC_REF_KIND != REF_NONE;
    double t_ref = now_s();
#if SPEC_REF_KIND == REF_CUBLAS_SGEMM
    cublasHandle_t blas;
    g_stage = "cuBLAS reference";
    CKB(cublasCreate(&blas));
    CKB(cublasSetStream(blas, s));
    CKB(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
    const float alpha = SPEC_GEMM_ALPHA >= 0 ? (float)spec_arg_value(SPEC_GEMM_ALPHA) : 1.0f;
    const float beta = SPEC_GEMM_BETA >= 0 ? (float)spec_arg_value(SPEC_GEMM_BETA) : 0.0f;
    CKB(sgemm_rowmajor(blas, d.data(), alpha, beta));
    CK(cudaStreamSynchronize(s));
#elif SPEC_REF_KIND == REF_KERNEL
    g_stage = "reference kernel";
    spec_ref_launch(d.data(), s);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
#endif
    t_ref = now_s() - t_ref;
    g_stage = "reading the reference";
    for (int i = 0; i < nargs; i++)
        if (spec_args[i].is_buffer && spec_args[i].output) {
            ref[i].resize(bytes[i]);
            out[i].resize(bytes[i]);
            if (have_ref)
                CK(cudaMemcpy(ref[i].data(), d[i], bytes[i], cudaMemcpyDeviceToHost));
        }

    /* ---- verification: fresh inputs, poisoned outputs, one launch ---- */
    g_stage = "verification launch";
    prepare(true);
    spec_launch(d.data(), s);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    g_stage = "verification";
    bool pass = true;
    double worst_rel = 0, worst_abs = 0;
    std::string vj = "[";
    int nout = 0;
    for (int i = 0; i < nargs; i++) {
        const ArgDesc &a = spec_args[i];
        if (!a.is_buffer || !a.output)
            continue;
        CK(cudaMemcpy(out[i].data(), d[i], bytes[i], cudaMemcpyDeviceToHost));
        VerifyOut v;
        double num = 0, den = 0;
        for (size_t k = 0; k < count[i]; k++) {
            const double o = elem_get(out[i].data(), a.type, k);
            if (!have_ref) {
                if (std::isnan(o) && !v.nans++)
                    v.first_bad = k;
                continue;
            }
            const double r = elem_get(ref[i].data(), a.type, k);
            if (std::isnan(o) || std::isnan(r) || std::isinf(o) != std::isinf(r)) {
                if (!v.nans++)
                    v.first_bad = k;
                continue;
            }
            const double df = std::isinf(o) && o == r ? 0.0 : o - r;
            if (std::fabs(df) > v.maxabs) {
                v.maxabs = std::fabs(df);
                if (spec_atol >= 0 && v.maxabs > spec_atol && v.first_bad == (size_t)-1)
                    v.first_bad = k;
            }
            num += df * df;
            den += std::isinf(r) ? 0.0 : r * r;
        }
        v.rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
        const bool bad = v.nans > 0 || (have_ref && spec_rtol >= 0 && v.rel > spec_rtol) ||
                         (have_ref && spec_atol >= 0 && v.maxabs > spec_atol);
        if (bad)
            pass = false;
        worst_rel = std::max(worst_rel, v.rel);
        worst_abs = std::max(worst_abs, v.maxabs);
        std::string fb = "null";
        if (v.first_bad != (size_t)-1) {
            fb = "{\"index\": " + std::to_string(v.first_bad) + ", \"out\": " +
                 jnum(elem_get(out[i].data(), a.type, v.first_bad)) + ", \"ref\": " +
                 (have_ref ? jnum(elem_get(ref[i].data(), a.type, v.first_bad)) : "null") + "}";
        }
        vj += std::string(nout++ ? ", " : "") + "{\"name\": " + jstr(a.name) + ", \"rel_err\": " +
              jnum(v.rel) + ", \"max_abs_err\": " + jnum(v.maxabs) + ", \"nans\": " +
              std::to_string(v.nans) + ", \"first_bad\": " + fb + "}";
        fprintf(stderr, "[%s] verify %s: rel L2 err %.3e (rtol %g), max abs err %.3e (atol %g), %zu NaN/unwritten -> %s\n",
                g_res.id.c_str(), a.name, v.rel, spec_rtol, v.maxabs, spec_atol, v.nans,
                bad ? "FAIL" : "ok");
        if (bad && v.first_bad != (size_t)-1)
            fprintf(stderr, "[%s]   first bad element %zu: %.9g, expected %.9g\n", g_res.id.c_str(),
                    v.first_bad, elem_get(out[i].data(), a.type, v.first_bad),
                    have_ref ? elem_get(ref[i].data(), a.type, v.first_bad) : NAN);
    }
    const char *status = !have_ref ? (pass ? "NOREF" : "FAIL") : pass ? "PASS" : "FAIL";
    g_res.set("verify", std::string("{\"status\": \"") + status + "\", \"rel_err\": " + jnum(worst_rel) +
                            ", \"max_abs_err\": " + jnum(worst_abs) + ", \"rtol\": " + jnum(spec_rtol) +
                            ", \"atol\": " + (spec_atol >= 0 ? jnum(spec_atol) : "null") +
                            ", \"reference_s\": " + jnum(t_ref) + ", \"outputs\": " + vj + "]}");
    for (auto &r : ref)
        std::vector<unsigned char>().swap(r);
    for (auto &o : out)
        std::vector<unsigned char>().swap(o);

    /* ---- timing ---- */
    Timing tk = time_it("timing the kernel", [&](cudaStream_t st) { spec_launch(d.data(), st); }, s);
    g_res.set("timing", timing_json(tk));
    g_res.set("time_ms", jnum(tk.median_ms));
    std::string mj = "{";
    for (int i = 0; i < spec_nmetrics; i++) {
        const double v = spec_metric(i, tk.median_ms, tk.median_ms * 1e-3);
        mj += std::string(i ? ", " : "") + jstr(spec_metric_names[i]) + ": " + jnum(v);
        fprintf(stderr, "[%s] %s: %.4f ms median of %d (min %.4f), %s %.3f\n", g_res.id.c_str(),
                SPEC_NAME, tk.median_ms, tk.reps, tk.min_ms, spec_metric_names[i], v);
    }
    g_res.set("metrics", mj + "}");

#if SPEC_REF_KIND == REF_CUBLAS_SGEMM
    /* ---- ceilings: cuBLAS at the same shape, same buffers ---- */
    {
        const double flop = 2.0 * (double)(M) * (double)(N) * (double)(K);
        std::string cj = "{";
        const struct { const char *key; cublasMath_t mode; } modes[] = {
            {"cublas_sgemm", CUBLAS_DEFAULT_MATH}, {"cublas_tf32", CUBLAS_TF32_TENSOR_OP_MATH}};
        for (int m = 0; m < 2; m++) {
            g_stage = modes[m].key;
            CKB(cublasSetMathMode(blas, modes[m].mode));
            cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
            Timing tc = time_it(modes[m].key, [&](cudaStream_t) {
                cublasStatus_t x = sgemm_rowmajor(blas, d.data(), alpha, beta);
                if (x != CUBLAS_STATUS_SUCCESS)
                    st = x;
            }, s);
            if (st != CUBLAS_STATUS_SUCCESS)
                fail("cublasSgemm failed with status " + std::to_string((int)st));
            const double tf = flop / (tc.median_ms * 1e-3) / 1e12;
            fprintf(stderr, "[%s] %s: %.4f ms median of %d, %.2f TFLOP/s\n", g_res.id.c_str(),
                    modes[m].key, tc.median_ms, tc.reps, tf);
            cj += std::string(m ? ", " : "") + jstr(modes[m].key) + ": {\"time_ms\": " + jnum(tc.median_ms) +
                  ", \"TFLOP/s\": " + jnum(tf) + ", \"timing\": " + timing_json(tc) + "}";
        }
        g_res.set("ceilings", cj + "}");
        if (getenv("NVIDIA_TF32_OVERRIDE"))
            g_res.set("note", jstr(std::string("NVIDIA_TF32_OVERRIDE=") + getenv("NVIDIA_TF32_OVERRIDE")));
        cublasDestroy(blas);
    }
#endif
    g_stage = "cleanup";
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < nargs; i++)
        if (d[i])
            cudaFree(d[i]);
    finish(0);
}
#endif

int main(int argc, char **argv)
{
    bool dry = false;
    g_res.id = "?";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--dry-run"))
            dry = true;
        else if (!strcmp(a, "--id") && i + 1 < argc)
            g_res.id = argv[++i];
        else if (!strcmp(a, "--min-reps") && i + 1 < argc)
            g_min_reps = std::max(1, atoi(argv[++i]));
        else if (!strcmp(a, "--max-reps") && i + 1 < argc)
            g_max_reps = std::max(1, atoi(argv[++i]));
        else if (!strcmp(a, "--target-s") && i + 1 < argc)
            g_target_s = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--id NAME] [--min-reps N] [--max-reps N] [--target-s S] [--dry-run]\n", argv[0]);
            return 64;
        }
    }
    g_max_reps = std::max(g_max_reps, g_min_reps);
    return run(dry);
}
