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
 *          per row, the 64 slots walked coalesced across rows);
 *   TPR    threads per row (FORMAT 1 only; 1 for the others);
 *   BLOCK  threads per block;
 *   XLDG   1: read x through the read-only data cache (__ldg); 0: plain loads.
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
    if (r < R) {
        const int e1 = row_ptr[r + 1];
        for (int e = row_ptr[r] + lane; e < e1; e += TPR)
            s += val[e] * ldx(x, col[e]);
    }
    /* groups of TPR lanes are aligned inside the warp (BLOCK % 32 == 0, TPR | 32) */
#pragma unroll
    for (int o = TPR / 2; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o, TPR);
    if (r < R && lane == 0)
        y[r] = s;
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
