/*
 * spmv.cu - tunable sparse matrix-vector product y = A x (float), for cutune.
 *
 * The matrix (R x R, R % 64 == 0) is generated deterministically on the device by
 * the generator kernels at the end of this file (spec: "init": "kernel:NAME"),
 * so nothing depends on the host or the seed except x:
 *   - row r has len(r) = 1 + ((r % 64) * 37) % 64 entries (1..64, a permutation
 *     within every 64 rows; 2080 entries per 64 rows, NNZ = R / 64 * 2080);
 *   - entry j of row r has column (r + off(r, j)) mod R, off a hash in
 *     [-BAND/2, BAND/2) (a band: x mostly stays in L2), and value val(r, j) a
 *     hash in [-1, 1), the same function for the CSR and the ELL copies;
 *   - CSR: row_ptr (R+1), col and val (NNZ each);
 *   - ELL: ell_col and ell_val (64 x R, column-major: entry j of row r at j*R + r),
 *     padding col -1 / value 0.
 * Tunables:
 *   FORMAT 0 CSR scalar (a thread per row), 1 CSR vector (TPR threads per row,
 *          a shuffle reduction inside each group of TPR lanes), 2 ELL (a thread
 *          per row, the 64 slots walked coalesced across rows), 3 banded CSR
 *          vector: a block takes RPB consecutive rows and first stages the slice
 *          of x their band can touch, x[r0 - BAND/2, r0 + RPB + BAND/2) (mod R),
 *          in shared memory; the gathers of x then hit shared memory instead of
 *          L1 (a warp's 32 scattered gathers cost ~32 L1 wavefronts but ~3-4
 *          shared-memory ones: the gathers, not DRAM, bound FORMAT 0-2). Columns
 *          outside the window are read from global memory, so the result is right
 *          for any matrix; BAND only decides what is fast;
 *          4 CSR stream (after Greathouse & Daga, SC'14): the window of FORMAT 3,
 *          then the block's entries, row_ptr[r0] .. row_ptr[r0 + RPB), are
 *          streamed by all lanes at once (coalesced, UNR loads in flight per lane,
 *          no lane idling on short rows: FORMAT 1/3 lanes wait for the longest
 *          row of their warp) into a shared buffer of products, and then TPR
 *          lanes per row add up its products. A block whose rows hold more than
 *          33 * RPB entries adds them from global memory instead (right for any
 *          matrix; dynamic shared memory (RPB + BAND + 33 RPB) * 4 bytes);
 *   TPR    threads per row (FORMAT 1, 3 and 4; 1 for the others);
 *   BLOCK  threads per block;
 *   RPB    rows per block (FORMAT 3 and 4: the window is RPB + BAND floats);
 *   UNR    FORMAT 1, 3 and 4: a lane loads UNR of its row's entries (col and val)
 *          before it uses any, so UNR independent loads are in flight instead of
 *          one dependent chain per entry (1: the plain loop);
 *   XLDG   1: read x through the read-only data cache (__ldg); 0: plain loads
 *          (FORMAT 3, 4 read x only to stage the window: the spec fixes XLDG 1).
 * Every y[r] is written exactly once (no accumulation into y).
 */
#ifndef R
#define R 1048576
#endif
#ifndef BAND
#define BAND 4096
#endif
#ifndef FORMAT
#define FORMAT 1
#endif
#ifndef TPR
#define TPR 8
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef XLDG
#define XLDG 1
#endif
#ifndef RPB
#define RPB 1024
#endif

#define MAXNZ 64
#define PERIOD_NNZ 2080 /* sum of len over one period of 64 rows */
#define NNZ ((long long)(R / 64) * PERIOD_NNZ)

#if R % 64
#error "R must be a multiple of 64"
#endif

__device__ __forceinline__ int row_len(int r)
{
    return 1 + ((r & 63) * 37) % 64;
}
__device__ __forceinline__ unsigned hash2(unsigned a, unsigned b)
{
    unsigned h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
    return h;
}
__device__ __forceinline__ int col_of(int r, int j)
{
    const int off = (int)(hash2((unsigned)r, (unsigned)j) % BAND) - BAND / 2;
    return (int)(((long long)r + off + R) % R);
}
__device__ __forceinline__ float val_of(int r, int j)
{
    return (float)(hash2((unsigned)j, (unsigned)r ^ 0xA5A5A5A5u) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
/* first entry of row r */
__device__ __forceinline__ long long row_start(int r)
{
    long long s = (long long)(r / 64) * PERIOD_NNZ;
    for (int i = r & ~63; i < r; i++)
        s += row_len(i);
    return s;
}
/* row and slot of CSR entry e */
__device__ __forceinline__ void entry_of(long long e, int *r, int *j)
{
    int row = (int)(e / PERIOD_NNZ) * 64;
    int o = (int)(e % PERIOD_NNZ);
    while (o >= row_len(row)) {
        o -= row_len(row);
        row++;
    }
    *r = row;
    *j = o;
}

__device__ __forceinline__ float ldx(const float *x, int c)
{
#if XLDG
    return __ldg(x + c);
#else
    return x[c];
#endif
}

#ifndef UNR
#define UNR 1
#endif
/* x[c] straight from global memory (FORMAT 0-2) */
struct XGlobal {
    const float *__restrict__ x;
    __device__ __forceinline__ float operator()(int c) const { return ldx(x, c); }
};

#if FORMAT >= 3
#define WIN (RPB + BAND) /* the staged slice of x */
/* x[c] from the staged window xs (x index ws + i at xs[i], mod R), else global */
struct XWindow {
    const float *xs;
    const float *__restrict__ x;
    int ws;
    __device__ __forceinline__ float operator()(int c) const
    {
        int d = c - ws;
        d = d < 0 ? d + R : (d >= R ? d - R : d);
        return (unsigned)d < (unsigned)WIN ? xs[d] : ldx(x, c);
    }
};
/* xs[i] = x[ws + i] (mod R) for the WIN entries of the window; the caller syncs */
__device__ __forceinline__ void stage_window(float *xs, const float *__restrict__ x, int ws)
{
    for (int i = threadIdx.x; i < WIN; i += BLOCK) {
        int g = ws + i;
        g = g < 0 ? g + R : (g >= R ? g - R : g);
        xs[i] = ldx(x, g);
    }
}
#endif

/* sum of val[e] * xf(col[e]) over e = e, e + STRIDE, ... < e1. With UNR > 1 a lane
 * loads UNR entries (col and val) before it uses any: UNR independent loads in
 * flight instead of one dependent chain per entry. */
template <int STRIDE, typename XF>
__device__ __forceinline__ float strided_dot(const int *__restrict__ col,
                                             const float *__restrict__ val, int e, int e1,
                                             const XF &xf)
{
    float s = 0.0f;
#if UNR > 1
    for (; e + (UNR - 1) * STRIDE < e1; e += UNR * STRIDE) {
        int c[UNR];
        float v[UNR];
#pragma unroll
        for (int u = 0; u < UNR; u++) {
            c[u] = col[e + u * STRIDE];
            v[u] = val[e + u * STRIDE];
        }
#pragma unroll
        for (int u = 0; u < UNR; u++)
            s += v[u] * xf(c[u]);
    }
#endif
    for (; e < e1; e += STRIDE)
        s += val[e] * xf(col[e]);
    return s;
}

/* sum over each aligned group of TPR lanes, in the group's first lane (groups are
 * aligned inside the warp: BLOCK % 32 == 0 and TPR divides 32) */
__device__ __forceinline__ float group_sum(float s)
{
#pragma unroll
    for (int o = TPR / 2; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o, TPR);
    return s;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
spmv(float *__restrict__ y, const float *__restrict__ x, const int *__restrict__ row_ptr,
     const int *__restrict__ col, const float *__restrict__ val,
     const int *__restrict__ ell_col, const float *__restrict__ ell_val)
{
#if FORMAT == 0
    const int r = blockIdx.x * BLOCK + threadIdx.x;
    if (r >= R)
        return;
    float s = 0.0f;
    const int e1 = row_ptr[r + 1];
    for (int e = row_ptr[r]; e < e1; e++)
        s += val[e] * ldx(x, col[e]);
    y[r] = s;
#elif FORMAT == 1
    const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    const int r = (int)(t / TPR), lane = (int)(t % TPR);
    float s = 0.0f;
    if (r < R)
        s = strided_dot<TPR>(col, val, row_ptr[r] + lane, row_ptr[r + 1], XGlobal{x});
    s = group_sum(s);
    if (r < R && lane == 0)
        y[r] = s;
#elif FORMAT == 3
#define GROUPS (BLOCK / TPR) /* rows in flight per pass */
#if (BLOCK % TPR) || (RPB % GROUPS)
#error "FORMAT 3 needs BLOCK % TPR == 0 and RPB % (BLOCK / TPR) == 0"
#endif
    __shared__ float xs[WIN];
    const int r0 = blockIdx.x * RPB;
    const int ws = r0 - BAND / 2; /* x index of xs[0], before the wrap */
    stage_window(xs, x, ws);
    __syncthreads();
    const XWindow xf{xs, x, ws};
    const int lane = threadIdx.x % TPR;
    /* row bounds of the next pass are loaded before this pass works (pipelining) */
    int rn = r0 + threadIdx.x / TPR;
    int b0n = rn < R ? row_ptr[rn] : 0, b1n = rn < R ? row_ptr[rn + 1] : 0;
#pragma unroll 1
    for (int p = 0; p < RPB / GROUPS; p++) {
        const int r = rn, b0 = b0n, e1 = b1n;
        rn = r + GROUPS;
        if (p + 1 < RPB / GROUPS && rn < R) {
            b0n = row_ptr[rn];
            b1n = row_ptr[rn + 1];
        }
        const float s = group_sum(strided_dot<TPR>(col, val, b0 + lane, e1, xf));
        if (r < R && lane == 0)
            y[r] = s;
    }
#elif FORMAT == 4
#define CAP (33 * RPB) /* products a block can hold: rows of <= 33 entries on average */
#define GROUPS (BLOCK / TPR)
#if (BLOCK % TPR) || (RPB % GROUPS)
#error "FORMAT 4 needs BLOCK % TPR == 0 and RPB % (BLOCK / TPR) == 0"
#endif
    extern __shared__ float sm[];
    float *xs = sm, *prod = sm + WIN; /* x window, then the block's products */
    const int r0 = blockIdx.x * RPB;
    const int ws = r0 - BAND / 2;
    stage_window(xs, x, ws);
    const XWindow xf{xs, x, ws};
    const int rend = min(r0 + RPB, R);
    const int e0 = row_ptr[r0], e1 = row_ptr[rend];
    const bool fits = e1 - e0 <= CAP;
    __syncthreads();
    if (fits) {
        /* 1. stream the block's entries with every lane busy: UNR coalesced loads
         *    of col and val per lane in flight, products into shared memory */
        int e = e0 + threadIdx.x;
        for (; e + (UNR - 1) * BLOCK < e1; e += UNR * BLOCK) {
            int c[UNR];
            float v[UNR];
#pragma unroll
            for (int u = 0; u < UNR; u++) {
                c[u] = col[e + u * BLOCK];
                v[u] = val[e + u * BLOCK];
            }
#pragma unroll
            for (int u = 0; u < UNR; u++)
                prod[e + u * BLOCK - e0] = v[u] * xf(c[u]);
        }
        for (; e < e1; e += BLOCK)
            prod[e - e0] = val[e] * xf(col[e]);
        __syncthreads();
    }
    /* 2. TPR lanes per row add its products (or, for a block too dense for the
     *    buffer, its entries straight from global memory) */
    const int lane = threadIdx.x % TPR;
#pragma unroll 1
    for (int p = 0; p < RPB / GROUPS; p++) {
        const int r = r0 + p * GROUPS + threadIdx.x / TPR;
        float s = 0.0f;
        if (r < R) {
            const int b0 = row_ptr[r], b1 = row_ptr[r + 1];
            if (fits) {
                for (int e = b0 + lane; e < b1; e += TPR)
                    s += prod[e - e0];
            } else {
                s = strided_dot<TPR>(col, val, b0 + lane, b1, xf);
            }
        }
        s = group_sum(s);
        if (r < R && lane == 0)
            y[r] = s;
    }
#else
    const int r = blockIdx.x * BLOCK + threadIdx.x;
    if (r >= R)
        return;
    float s = 0.0f;
#pragma unroll 4
    for (int j = 0; j < MAXNZ; j++) {
        const int c = ell_col[(size_t)j * R + r];
        if (c >= 0)
            s += ell_val[(size_t)j * R + r] * ldx(x, c);
    }
    y[r] = s;
#endif
}

/* Reference: CSR, a thread per row, obviously correct. */
extern "C" __global__ void spmv_ref(float *y, const float *x, const int *row_ptr, const int *col,
                                    const float *val, const int *ell_col, const float *ell_val)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < R) {
        float s = 0.0f;
        for (int e = row_ptr[r]; e < row_ptr[r + 1]; e++)
            s += val[e] * x[col[e]];
        y[r] = s;
    }
}

/* ---- generators: "init": "kernel:NAME", launched once over n elements ---- */
extern "C" __global__ void gen_row_ptr(int *buf, unsigned long long n, unsigned int seed)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = (int)row_start((int)i); /* i == R gives NNZ */
}
extern "C" __global__ void gen_col(int *buf, unsigned long long n, unsigned int seed)
{
    const unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < n) {
        int r, j;
        entry_of((long long)e, &r, &j);
        buf[e] = col_of(r, j);
    }
}
extern "C" __global__ void gen_val(float *buf, unsigned long long n, unsigned int seed)
{
    const unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e < n) {
        int r, j;
        entry_of((long long)e, &r, &j);
        buf[e] = val_of(r, j);
    }
}
extern "C" __global__ void gen_ell_col(int *buf, unsigned long long n, unsigned int seed)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int j = (int)(i / R), r = (int)(i % R);
        buf[i] = j < row_len(r) ? col_of(r, j) : -1;
    }
}
extern "C" __global__ void gen_ell_val(float *buf, unsigned long long n, unsigned int seed)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int j = (int)(i / R), r = (int)(i % R);
        buf[i] = j < row_len(r) ? val_of(r, j) : 0.0f;
    }
}
