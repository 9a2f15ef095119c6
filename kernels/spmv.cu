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
 *          5, 6 strip stream: persistent blocks, one long strip of rows each. The
 *          spec launches NSM * BPS blocks (NSM = 132, the H200's multiprocessors),
 *          exactly BPS per multiprocessor, all resident at once (__launch_bounds__
 *          (BLOCK, BPS) makes the registers fit; the spec's restrictions the
 *          shared memory); block b owns rows [b S, b S + S), S = ceil(R / (NSM
 *          BPS)) (3972 rows at BPS 2), and any grid is right (a block loops over
 *          strips b, b + gridDim.x, ...). A strip starts by staging, with cp.async,
 *          its whole x window x[rb0 - BAND/2, rb0 + S + BAND/2) (mod R) and its
 *          row_ptr[rb0 .. rb1] in shared memory: each x element is staged (S +
 *          BAND) / S times over the grid (2.0 at BPS 2, against (RPB + BAND) / RPB
 *          = 17 for FORMAT 4 at RPB 256), row_ptr is read from DRAM once and never
 *          again, and no block ever restarts (FORMAT 4 runs 4096 short blocks,
 *          each staging, synchronising twice and summing with no load in flight).
 *          The strip's entries are then streamed in chunks of CH = BLOCK * UNR,
 *          from eb0 = row_ptr[rb0] rounded down to a multiple of 4 (16 bytes), so
 *          every lane moves whole 128-bit pieces of col and val (piece p of a
 *          chunk to lane p % BLOCK: coalesced); the (at most 3) entries before eb0
 *          are loaded and ignored, those past eb1 are not read (masked, or
 *          zero-filled) and never used. Each lane turns its own UNR entries into
 *          products val * x[col] (x from the window, clamped: one LDS; a column
 *          outside the window, or past a wrap around row 0 / R, is read from
 *          global memory, so the result is right for any matrix) into a
 *          chunk-sized product buffer: all lanes busy whatever the row lengths.
 *          After one __syncthreads per chunk, the rows of the chunk are summed
 *          from the buffer, TPR lanes per row (rows_of_chunk): a row open at the
 *          chunk's end hands its partial sum to the next chunk (a carry in shared
 *          memory), so rows of any length, empty ones included, are right, and
 *          shared memory no longer grows with the rows (FORMAT 4's 33 * RPB
 *          floats: one block per multiprocessor at RPB 1024). The two formats
 *          differ in how a chunk reaches the lanes:
 *          5 register prefetch: each lane loads its pieces of chunk k + 1 with
 *            LDG.E.128 (__ldcs: evict-first, read once) before it works on chunk
 *            k, so UNR * 8 bytes per lane stay in flight through the products,
 *            the barrier and the row sums (64 KB per multiprocessor at 2048
 *            lanes, UNR 4); two product buffers, so one barrier per chunk;
 *          6 cp.async pipeline: STAGES chunk buffers of col and val, filled by
 *            LDGSTS.128 (no registers held, so in flight no longer costs
 *            occupancy); phase k refills the buffer chunk k - 1 used with chunk
 *            k + STAGES - 1, turns chunk k + 1 into products in place and sums
 *            the rows of chunk k: STAGES - 2 chunks in flight, one barrier per
 *            chunk.
 *          Dynamic shared memory, both: (align4(2 S + BAND + 1) + NB * CH) * 4
 *          bytes, NB = 2 (5) or 2 * STAGES (6). Expected: the DRAM traffic is the
 *          minimum, 285 MB (col, val, row_ptr, x and y once; the windows' overlap,
 *          grid * BAND * 4 bytes = 4-9 MB, comes from L2), so the time is 285 MB
 *          at the stream's bandwidth plus a start (eb0, the staging, the first
 *          chunk: a few us) and an end (the last chunk's sums). In flight per
 *          multiprocessor: 64 KB (5 at 2048 lanes and UNR 4; 6 at BLOCK 512, BPS
 *          2, STAGES 4), twice the ~32 KB that 4.2 TB/s over 132 multiprocessors
 *          needs at ~1 us loaded latency. Issue: ~20 thread instructions per
 *          entry, ~20 us of the schedulers; shared memory: gathers at ~3.5
 *          wavefronts a warp (bank conflicts), product stores and row sums, ~25
 *          us (6 adds the LDGSTS writes and col/val reads: ~40 us); both under
 *          the ~70 us of the stream. So 5 should reach 3.6-4.0 TB/s, 85-95% of
 *          the 4247 GB/s copy (0.071-0.079 ms, against 0.0975 for FORMAT 4);
 *   TPR    threads per row (FORMAT 1, 3, 4, 5 and 6; 1 for the others);
 *   BLOCK  threads per block;
 *   RPB    rows per block (FORMAT 3 and 4: the window is RPB + BAND floats);
 *   UNR    FORMAT 1, 3 and 4: a lane loads UNR of its row's entries (col and val)
 *          before it uses any, so UNR independent loads are in flight instead of
 *          one dependent chain per entry (1: the plain loop); FORMAT 5 and 6: the
 *          entries per lane and chunk (4 or 8: one or two 128-bit pieces);
 *   BPS    FORMAT 5, 6: blocks per multiprocessor (grid NSM * BPS);
 *   STAGES FORMAT 6: chunk buffers (STAGES - 2 chunks in flight); FORMAT 5: 3 as
 *          described above (chunk k + 1 in flight while chunk k is worked on), 4
 *          two register sets that alternate (chunk k's set is reloaded with chunk
 *          k + 2 right after its products, so chunks k + 1 and k + 2 are in flight
 *          through the barrier and the row sums: about twice the bytes in flight
 *          with the same registers); 3 for FORMAT 0-4 (unused);
 *   XLDG   1: read x through the read-only data cache (__ldg); 0: plain loads
 *          (FORMAT 3-6 read x only to stage the window: the spec fixes XLDG 1).
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

#if FORMAT >= 5
/* ---- FORMAT 5 and 6: strip streaming (see the header comment) ---- */
#ifndef BPS
#define BPS 2
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef NSM
#define NSM 132 /* multiprocessors of the H200: the spec's grid is NSM * BPS blocks */
#endif
#define STRIP ((R + NSM * BPS - 1) / (NSM * BPS)) /* rows of a strip */
#define WIN5 (STRIP + BAND)                       /* the strip's x window */
#define BUF5 ((2 * STRIP + BAND + 4) & ~3) /* chunk buffers: after xs[WIN5], rps[STRIP + 1] */
#define CH (BLOCK * UNR)                   /* entries per chunk */
#define PIECES (UNR / 4) /* 16-byte pieces (4 entries) of col, and of val, per lane and chunk */
#define GROUPS (BLOCK / TPR)
#if (UNR % 4) || (BLOCK % 32) || (32 % TPR) || (FORMAT == 6 && STAGES < 3) ||                      \
    (FORMAT == 5 && STAGES != 3 && STAGES != 4)
#error "FORMAT 5, 6 need UNR % 4 == 0, BLOCK % 32 == 0, TPR | 32 (STAGES >= 3 for 6, 3 or 4 for 5)"
#endif

/* cp.async (LDGSTS): global -> shared without registers; the 16-byte form copies
 * `bytes` (0..16) and zero-fills the rest, reading nothing past them. A copy is
 * visible to its thread after cp_async_wait<N> (all but the N most recent
 * committed groups are complete), to the block after a __syncthreads() following
 * it. */
__device__ __forceinline__ void cp_async4(void *dst, const void *src)
{
    asm volatile(
        "cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
        "l"(src)
        : "memory");
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     (unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* x[c] from the strip's window xs (xs[i] = x[ws + i mod R], i < WIN5), else global */
struct XStrip {
    const float *xs;
    const float *__restrict__ x;
    int ws;
    __device__ __forceinline__ float operator()(int c) const
    {
        /* c in [0, R), ws in [-BAND/2, R): no overflow. The load is unconditional
         * (clamped into the window: a plain LDS, no divergence); only a column
         * outside the window branches, to look past a wrap around row 0 / R (the
         * first and last strips) or read x from global memory */
        const int d = c - ws;
        const float v = xs[min((unsigned)d, (unsigned)(WIN5 - 1))];
        if ((unsigned)d < (unsigned)WIN5)
            return v;
        const int d2 = d < 0 ? d + R : d - R;
        return (unsigned)d2 < (unsigned)WIN5 ? xs[d2] : __ldg(x + c);
    }
};

/* xs[i] = x[ws + i mod R] (i < WIN5) and rps[i] = row_ptr[rb0 + i] (i <= rb1 - rb0),
 * by cp.async: in flight while the caller goes on (it waits, then syncs) */
__device__ __forceinline__ void stage_strip(float *xs, int *rps, const float *__restrict__ x,
                                            const int *__restrict__ row_ptr, int rb0, int rb1,
                                            int ws)
{
    int g = ws % R; /* x index of xs[threadIdx.x], wrapped into [0, R) */
    g = (g < 0 ? g + R : g) + (int)threadIdx.x;
    for (int i = threadIdx.x; i < WIN5; i += BLOCK, g += BLOCK) {
        while (g >= R)
            g -= R;
        cp_async4(xs + i, x + g);
    }
    for (int i = threadIdx.x; i <= rb1 - rb0; i += BLOCK)
        cp_async4(rps + i, row_ptr + rb0 + i);
}

/* The rows of chunk k, whose entries [s, t) are in the shared buffer pb (entry e at
 * pb[e - c0]) as products val * x[col]. The rows handled are rlo (the row open at
 * the chunk's start: its sum so far is the carry) up to the first row still open at
 * t (its end row_ptr[r + 1] > t), inclusive: every row between them ends by t and is
 * written to y; the open one passes its partial sum and its index to chunk k + 1
 * (slot (k+1) & 1 of carry_s / rlo_s: chunk k reads slot k & 1, and a __syncthreads
 * separates the two uses of a slot). Which rows belong is decided row by row
 * (rps[r] <= t: every earlier row has ended), a warp looping until none of its rows
 * belongs, so any number of rows per chunk works (empty rows included: sum 0), and
 * a row longer than a chunk is carried through several. TPR lanes sum a row. */
__device__ __forceinline__ void rows_of_chunk(float *__restrict__ y, const int *rps, int rb0,
                                              int rb1, int s, int t, int k, const float *pb, int c0,
                                              int *rlo_s, float *carry_s)
{
    const int rlo = rlo_s[k & 1];
    const float cin = carry_s[k & 1];
    const int lane = threadIdx.x % TPR;
#pragma unroll 1
    for (int r = rlo + (int)threadIdx.x / TPR;; r += GROUPS) {
        const bool mine = r < rb1 && (r == rlo || rps[r - rb0] <= t);
        if (!__any_sync(0xffffffffu, mine))
            break;
        float sum = 0.0f;
        bool open = false;
        if (mine) {
            const int p1 = rps[r + 1 - rb0];
            const int e1 = min(p1, t);
            open = p1 > t;
#pragma unroll 4
            for (int e = max(rps[r - rb0], s) + lane; e < e1; e += TPR)
                sum += pb[e - c0];
        }
        sum = group_sum(sum);
        if (mine && lane == 0) {
            if (r == rlo)
                sum += cin;
            if (open) {
                carry_s[(k + 1) & 1] = sum;
                rlo_s[(k + 1) & 1] = r;
            } else {
                y[r] = sum;
            }
        }
    }
}

#if FORMAT == 5
/* 4 entries (col, val) at e (a multiple of 4): one 128-bit load each when all four
 * are before eb1, else the ones that are, and column dflt / value 0 for the rest */
__device__ __forceinline__ void load_piece(int4 &c, float4 &v, const int *__restrict__ col,
                                           const float *__restrict__ val, int e, int eb1, int dflt)
{
    if (e + 4 <= eb1) {
        c = __ldcs((const int4 *)(col + e));
        v = __ldcs((const float4 *)(val + e));
    } else {
        c = make_int4(dflt, dflt, dflt, dflt);
        v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (e < eb1) {
            c.x = col[e];
            v.x = val[e];
        }
        if (e + 1 < eb1) {
            c.y = col[e + 1];
            v.y = val[e + 1];
        }
        if (e + 2 < eb1) {
            c.z = col[e + 2];
            v.z = val[e + 2];
        }
    }
}
/* this lane's products of a chunk, val * x[col] for its PIECES pieces, into pb */
__device__ __forceinline__ void store_products(float *pb, const int4 (&c)[PIECES],
                                               const float4 (&v)[PIECES], const XStrip &xf)
{
#pragma unroll
    for (int q = 0; q < PIECES; q++) {
        float4 p;
        p.x = v[q].x * xf(c[q].x);
        p.y = v[q].y * xf(c[q].y);
        p.z = v[q].z * xf(c[q].z);
        p.w = v[q].w * xf(c[q].w);
        ((float4 *)pb)[threadIdx.x + q * BLOCK] = p;
    }
}
#if STAGES == 4
/* chunk k of FORMAT 5 at STAGES 4: its products from (c, v) into buf[k & 1], then
 * (c, v) reloaded with chunk k + 2 (masked past the last), a barrier, its rows */
__device__ __forceinline__ void chunk_ahead2(float *__restrict__ y, const int *rps,
                                             const int *__restrict__ col,
                                             const float *__restrict__ val, float *buf, int *rlo_s,
                                             float *carry_s, int rb0, int rb1, int eb0, int eb1,
                                             int a0, int k, int4 (&c)[PIECES], float4 (&v)[PIECES],
                                             const XStrip &xf)
{
    const int c0 = a0 + k * CH;
    float *const pb = buf + (k & 1) * CH;
    store_products(pb, c, v, xf);
#pragma unroll
    for (int q = 0; q < PIECES; q++)
        load_piece(c[q], v[q], col, val, c0 + 2 * CH + 4 * ((int)threadIdx.x + q * BLOCK), eb1,
                   rb0);
    __syncthreads();
    rows_of_chunk(y, rps, rb0, rb1, max(c0, eb0), min(c0 + CH, eb1), k, pb, c0, rlo_s, carry_s);
}
#endif
#else
/* issue the cp.async copies of chunk j (entries a0 + j CH ..) into stage j % STAGES;
 * pieces past eb1 are zero-filled, partly or wholly (nothing is read past eb1) */
__device__ __forceinline__ void issue_chunk(int *cb, float *vb, const int *__restrict__ col,
                                            const float *__restrict__ val, int a0, int j, int nch,
                                            int eb1)
{
    if (j >= nch)
        return;
    const int b = j % STAGES, c0 = a0 + j * CH;
#pragma unroll
    for (int q = 0; q < PIECES; q++) {
        const int p = threadIdx.x + q * BLOCK, e = c0 + 4 * p;
        const int bytes = 4 * max(0, min(4, eb1 - e));
        cp_async16(cb + b * CH + 4 * p, bytes ? (const void *)(col + e) : (const void *)col, bytes);
        cp_async16(vb + b * CH + 4 * p, bytes ? (const void *)(val + e) : (const void *)val, bytes);
    }
}
/* the block's products of a staged chunk, in place of its values: lane-balanced */
__device__ __forceinline__ void products_in_place(const int *cb, float *vb, const XStrip &xf)
{
#pragma unroll
    for (int q = 0; q < PIECES; q++) {
        const int p = threadIdx.x + q * BLOCK;
        const int4 c = ((const int4 *)cb)[p];
        float4 v = ((float4 *)vb)[p];
        v.x *= xf(c.x);
        v.y *= xf(c.y);
        v.z *= xf(c.z);
        v.w *= xf(c.w);
        ((float4 *)vb)[p] = v;
    }
}
#endif

/* y for the rows [rb0, rb1) of one strip (see the header comment) */
__device__ __forceinline__ void strip_stream(float *__restrict__ y, const float *__restrict__ x,
                                             const int *__restrict__ row_ptr,
                                             const int *__restrict__ col,
                                             const float *__restrict__ val, float *sm, int *rlo_s,
                                             float *carry_s, int rb0, int rb1)
{
    const int ws = rb0 - BAND / 2;
    float *const xs = sm;
    int *const rps = (int *)(sm + WIN5);
    float *const buf = sm + BUF5;
    stage_strip(xs, rps, x, row_ptr, rb0, rb1, ws); /* in flight while we go on */
    const int eb0 = __ldg(row_ptr + rb0), eb1 = __ldg(row_ptr + rb1);
    const int a0 = eb0 & ~3; /* chunks start 16-byte aligned: chunk k is [a0 + k CH, + CH) */
    const int nch = max(1, (eb1 - a0 + CH - 1) / CH);
    if (threadIdx.x == 0) {
        rlo_s[0] = rb0;
        carry_s[0] = 0.0f;
    }
    const XStrip xf{xs, x, ws};
#if FORMAT == 5 && STAGES == 4
    /* two register sets, A (even chunks) and B (odd): chunk k's set is reloaded
     * with chunk k + 2 as soon as its products are made, so chunks k + 1 and k + 2
     * are in flight through the barrier and the row sums of chunk k (STAGES 3 holds
     * one there: the same registers, about twice the bytes in flight) */
    int4 ca[PIECES], cb[PIECES];
    float4 va[PIECES], vb[PIECES];
#pragma unroll
    for (int q = 0; q < PIECES; q++) {
        const int e = a0 + 4 * ((int)threadIdx.x + q * BLOCK);
        load_piece(ca[q], va[q], col, val, e, eb1, rb0);
        load_piece(cb[q], vb[q], col, val, e + CH, eb1, rb0);
    }
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < nch; k += 2) {
        chunk_ahead2(y, rps, col, val, buf, rlo_s, carry_s, rb0, rb1, eb0, eb1, a0, k, ca, va, xf);
        if (k + 1 >= nch)
            break;
        chunk_ahead2(y, rps, col, val, buf, rlo_s, carry_s, rb0, rb1, eb0, eb1, a0, k + 1, cb, vb,
                     xf);
    }
#elif FORMAT == 5
    /* registers: chunk k (c, v) in use, chunk k + 1 (cn, vn) in flight; products
     * into buf[k & 1][CH] (two buffers: one __syncthreads per chunk) */
    int4 c[PIECES], cn[PIECES];
    float4 v[PIECES], vn[PIECES];
#pragma unroll
    for (int q = 0; q < PIECES; q++)
        load_piece(c[q], v[q], col, val, a0 + 4 * ((int)threadIdx.x + q * BLOCK), eb1, rb0);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
#pragma unroll 1
    for (int k = 0; k < nch; k++) {
        const int c0 = a0 + k * CH;
#pragma unroll
        for (int q = 0; q < PIECES; q++) /* past the last chunk: no load (all masked) */
            load_piece(cn[q], vn[q], col, val, c0 + CH + 4 * ((int)threadIdx.x + q * BLOCK), eb1,
                       rb0);
        float *const pb = buf + (k & 1) * CH;
        store_products(pb, c, v, xf);
        __syncthreads();
        rows_of_chunk(y, rps, rb0, rb1, max(c0, eb0), min(c0 + CH, eb1), k, pb, c0, rlo_s, carry_s);
#pragma unroll
        for (int q = 0; q < PIECES; q++) {
            c[q] = cn[q];
            v[q] = vn[q];
        }
    }
#else
    /* STAGES chunk buffers cb/vb[STAGES][CH], filled by cp.async. Phase k (after one
     * __syncthreads): refill the stage chunk k - 1 used with chunk k + STAGES - 1,
     * turn chunk k + 1 into products (it has landed), add up the rows of chunk k
     * (its products were made in phase k - 1). STAGES - 2 chunks stay in flight. */
    int *const cb = (int *)buf;
    float *const vb = buf + STAGES * CH;
    issue_chunk(cb, vb, col, val, a0, 0, nch, eb1);
    cp_async_commit(); /* group 0: the strip's x window and row_ptr, and chunk 0 */
#pragma unroll
    for (int j = 1; j < STAGES - 1; j++) {
        issue_chunk(cb, vb, col, val, a0, j, nch, eb1);
        cp_async_commit(); /* group j: chunk j (empty past the last chunk) */
    }
    cp_async_wait<STAGES - 2>(); /* group 0 */
    __syncthreads();
    products_in_place(cb, vb, xf);
#pragma unroll 1
    for (int k = 0; k < nch; k++) {
        /* committed: groups 0 .. STAGES - 2 + k; chunk k + 1 is group k + 1 */
        cp_async_wait<STAGES - 3>();
        __syncthreads();
        issue_chunk(cb, vb, col, val, a0, k + STAGES - 1, nch, eb1);
        cp_async_commit();
        if (k + 1 < nch) {
            const int b = (k + 1) % STAGES;
            products_in_place(cb + b * CH, vb + b * CH, xf);
        }
        const int c0 = a0 + k * CH;
        rows_of_chunk(y, rps, rb0, rb1, max(c0, eb0), min(c0 + CH, eb1), k, vb + (k % STAGES) * CH,
                      c0, rlo_s, carry_s);
    }
#endif
}
#endif /* FORMAT >= 5 */

/* FORMAT 5, 6 run exactly BPS blocks per multiprocessor (grid 132 BPS on the H200):
 * the compiler must fit the registers for that */
#if FORMAT >= 5
#define SPMV_BOUNDS __launch_bounds__(BLOCK, BPS)
#else
#define SPMV_BOUNDS __launch_bounds__(BLOCK)
#endif
extern "C" __global__ void SPMV_BOUNDS
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
#elif FORMAT >= 5
    extern __shared__ float4 sm4[];
    __shared__ int rlo_s[2];
    __shared__ float carry_s[2];
    /* one strip per block with the spec's grid (NSM * BPS blocks); any grid is right */
#pragma unroll 1
    for (int b = blockIdx.x; (long long)b * STRIP < R; b += gridDim.x) {
        if (b != (int)blockIdx.x)
            __syncthreads(); /* the previous strip is done with the shared memory */
        strip_stream(y, x, row_ptr, col, val, (float *)sm4, rlo_s, carry_s, b * STRIP,
                     min(b * STRIP + STRIP, R));
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
