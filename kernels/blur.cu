/*
 * blur.cu - tunable fused grayscale + Gaussian blur for cutune.
 *
 *   gray(p) = 0.299 R + 0.587 G + 0.114 B     (RGB uint8, interleaved, W x H)
 *   out(x, y) = sum_{i,j in [-RADIUS, RADIUS]} w(i) w(j) gray(clamp(x+i), clamp(y+j))
 *
 * w is the binomial approximation of a Gaussian, w(i) = C(2R, R+i) / 4^R
 * (RADIUS 2: 5x5, [1 4 6 4 1]/16; RADIUS 3: 7x7, [1 6 15 20 15 6 1]/64); borders
 * clamp to the edge; out is float, W x H.
 *
 * A block of TX x TY threads produces a TX x (TY*PPT) output tile (each thread PPT
 * pixels, TY rows apart). It first makes the gray tile with its halo,
 * (TX + 2R) x (TY*PPT + 2R):
 *   FUSED 1: gray is computed from the RGB bytes straight into shared memory
 *            (one pass over the input; the intermediate never leaves the chip);
 *   FUSED 0: the two-pass layout inside one launch: the block writes its gray
 *            tile (with halo) to a global scratch area of its own, then reads it
 *            back from global memory (L2) for the blur, as a separate gray
 *            kernel + blur kernel would (at a cheaper, L2-resident cost).
 * Then the blur:
 *   SEPARABLE 1: a horizontal pass into a second shared tile, then a vertical
 *                pass ((2R+1) + (2R+1) taps per pixel);
 *   SEPARABLE 0: the direct (2R+1)^2-tap 2D filter.
 * ALGO 1 replaces both with a warp-strip sliding window (TX must be 32, FUSED
 * and SEPARABLE 1): every warp owns a strip 128 pixels wide and 8*PPT output
 * rows tall (a block stacks TY warps vertically) and walks down its rows. Per
 * input row a lane loads its 4 pixels as three aligned 32-bit words (12 bytes,
 * instead of 12 byte loads; lanes 0 and 1 also load the 4-pixel halo groups left
 * and right of the strip), converts them to gray, and shares them through a
 * 136-float row buffer of its warp (one float4 store, three float4 loads: no
 * __syncthreads, only __syncwarp) for the horizontal taps; the vertical taps
 * accumulate in registers, so a pixel's gray value is made once per strip and
 * read from shared memory 3 times instead of ~17. The words of the next PF rows
 * are loaded before the current row is worked on (software pipelining: PF rows
 * of loads in flight per lane), and the
 * output goes out as float4 stores. Groups that straddle the image edge, and any
 * W not a multiple of 4, fall back to clamped byte loads.
 * Every output pixel is written once. Any W, H.
 */
#ifndef W
#define W 8192
#endif
#ifndef H
#define H 8192
#endif
#ifndef RADIUS
#define RADIUS 3
#endif
#ifndef TX
#define TX 32
#endif
#ifndef TY
#define TY 8
#endif
#ifndef PPT
#define PPT 2
#endif
#ifndef FUSED
#define FUSED 1
#endif
#ifndef SEPARABLE
#define SEPARABLE 1
#endif
#ifndef ALGO
#define ALGO 0
#endif
#ifndef PF
#define PF 1
#endif

#if RADIUS < 1 || RADIUS > 3
#error "RADIUS must be 1, 2 or 3"
#endif

#define OTY (TY * PPT)          /* output rows of a tile */
#define GW (TX + 2 * RADIUS)    /* gray tile width  */
#define GH (OTY + 2 * RADIUS)   /* gray tile height */
#define NTHR (TX * TY)
#define TILES_X ((W + TX - 1) / TX)

__device__ __forceinline__ float wgt(int i) /* i in [-RADIUS, RADIUS] */
{
#if RADIUS == 1
    const float w[3] = {1.0f / 4, 2.0f / 4, 1.0f / 4};
#elif RADIUS == 2
    const float w[5] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};
#else
    const float w[7] = {1.0f / 64, 6.0f / 64, 15.0f / 64, 20.0f / 64, 15.0f / 64, 6.0f / 64, 1.0f / 64};
#endif
    return w[i + RADIUS];
}

__device__ __forceinline__ float gray_f(float r, float g, float b)
{
    return 0.299f * r + 0.587f * g + 0.114f * b;
}

__device__ __forceinline__ float gray_at(const unsigned char *__restrict__ rgb, int x, int y)
{
    x = min(max(x, 0), W - 1);
    y = min(max(y, 0), H - 1);
    const unsigned char *p = rgb + 3 * ((size_t)y * W + x);
    return gray_f((float)p[0], (float)p[1], (float)p[2]);
}

#if ALGO == 1
#if TX != 32 || !FUSED || !SEPARABLE
#error "ALGO 1 needs TX == 32, FUSED == 1, SEPARABLE == 1"
#endif
#define SR (8 * PPT)              /* output rows of a warp strip */
#define NIN (SR + 2 * RADIUS)     /* input rows a strip reads */
#define WORDS_OK ((W % 4) == 0)   /* 4-pixel groups start on 4-byte boundaries */
typedef unsigned int u32;

/* byte k of w as a float, exactly: the byte becomes the low mantissa bits of 2^23
 * (one PRMT and one FADD; the int-to-float conversion runs at a quarter of the
 * rate and was three per pixel) */
template <int k> __device__ __forceinline__ float b2f(u32 w)
{
    return __int_as_float(__byte_perm(w, 0x4B000000u, 0x7650 | k)) - 8388608.0f;
}
/* the 3 words of the 4-pixel group at (gx, y) when it lies inside the row */
__device__ __forceinline__ bool group_fast(int gx)
{
    return WORDS_OK && gx >= 0 && gx + 3 < W;
}
__device__ __forceinline__ void load_words(const unsigned char *__restrict__ rgb, int y, int gx,
                                           u32 (&wd)[3])
{
    if (group_fast(gx)) {
        const u32 *p = (const u32 *)(rgb + 3 * ((size_t)y * W + gx));
        wd[0] = __ldg(p);
        wd[1] = __ldg(p + 1);
        wd[2] = __ldg(p + 2);
    }
}
/* gray of the 4 pixels gx..gx+3 of row y (already clamped) */
__device__ __forceinline__ float4 gray4(const unsigned char *__restrict__ rgb, int y, int gx,
                                        const u32 (&wd)[3])
{
    if (group_fast(gx)) {
        /* bytes R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3, little endian */
        return make_float4(gray_f(b2f<0>(wd[0]), b2f<1>(wd[0]), b2f<2>(wd[0])),
                           gray_f(b2f<3>(wd[0]), b2f<0>(wd[1]), b2f<1>(wd[1])),
                           gray_f(b2f<2>(wd[1]), b2f<3>(wd[1]), b2f<0>(wd[2])),
                           gray_f(b2f<1>(wd[2]), b2f<2>(wd[2]), b2f<3>(wd[2])));
    }
    return make_float4(gray_at(rgb, gx, y), gray_at(rgb, gx + 1, y), gray_at(rgb, gx + 2, y),
                       gray_at(rgb, gx + 3, y));
}

extern "C" __global__ void __launch_bounds__(32 * TY)
blur(float *__restrict__ out, const unsigned char *__restrict__ rgb, float *scratch)
{
    __shared__ __align__(16) float rowbuf[TY][136]; /* halo 4 | 128 pixels | halo 4 */
    const int lane = threadIdx.x;
    const int xs = blockIdx.x * 128;                       /* strip's first column */
    const int ys = (blockIdx.y * TY + threadIdx.y) * SR;   /* strip's first output row */
    if (ys >= H)
        return; /* a whole warp: only __syncwarp below */
    float *rb = rowbuf[threadIdx.y];
    const int gx = xs + 4 * lane;                             /* own group */
    const int hx = lane == 0 ? xs - 4 : xs + 128;             /* halo group (lanes 0, 1) */
    const bool halo = lane < 2;

    float acc[SR][4]; /* acc[o] is live only while input rows o..o+2R pass */

    /* words of input rows i .. i+PF-1 in flight: wd[i] is loaded PF rows ahead
     * (the loops are fully unrolled, so only PF rows of registers are live) */
    u32 wd[NIN][3], hd[NIN][3];
#pragma unroll
    for (int i = 0; i < NIN; i++)
        wd[i][0] = wd[i][1] = wd[i][2] = hd[i][0] = hd[i][1] = hd[i][2] = 0;
#pragma unroll
    for (int i = 0; i < PF && i < NIN; i++) {
        const int y = min(max(ys - RADIUS + i, 0), H - 1);
        load_words(rgb, y, gx, wd[i]);
        if (halo)
            load_words(rgb, y, hx, hd[i]);
    }
#pragma unroll
    for (int i = 0; i < NIN; i++) {
        const int y = min(max(ys - RADIUS + i, 0), H - 1);
        if (i + PF < NIN) { /* prefetch row i+PF before working on row i */
            const int y1 = min(max(ys - RADIUS + i + PF, 0), H - 1);
            load_words(rgb, y1, gx, wd[i + PF]);
            if (halo)
                load_words(rgb, y1, hx, hd[i + PF]);
        }
        const float4 c = gray4(rgb, y, gx, wd[i]);
        *(float4 *)&rb[4 + 4 * lane] = c;
        if (halo)
            *(float4 *)&rb[lane == 0 ? 0 : 132] = gray4(rgb, y, hx, hd[i]);
        __syncwarp();
        const float4 l = *(const float4 *)&rb[4 * lane];
        const float4 r = *(const float4 *)&rb[4 * lane + 8];
        __syncwarp(); /* everyone has read before the next row is stored */
        const float v[12] = {l.x, l.y, l.z, l.w, c.x, c.y, c.z, c.w, r.x, r.y, r.z, r.w};
        float h[4];
#pragma unroll
        for (int p = 0; p < 4; p++) {
            float s = 0.0f;
#pragma unroll
            for (int t = -RADIUS; t <= RADIUS; t++)
                s += wgt(t) * v[4 + p + t];
            h[p] = s;
        }
        /* input row i feeds output rows o = i - j, weight w(j - RADIUS) */
#pragma unroll
        for (int j = 0; j <= 2 * RADIUS; j++) {
            const int o = i - j;
            if (o >= 0 && o < SR) {
#pragma unroll
                for (int p = 0; p < 4; p++)
                    acc[o][p] = j == 0 ? wgt(-RADIUS) * h[p] : acc[o][p] + wgt(j - RADIUS) * h[p];
            }
        }
        const int o = i - 2 * RADIUS; /* complete now */
        if (o >= 0 && ys + o < H) {
            float *dst = out + (size_t)(ys + o) * W + gx;
#if WORDS_OK
            if (gx < W)
                *(float4 *)dst = make_float4(acc[o][0], acc[o][1], acc[o][2], acc[o][3]);
#else
#pragma unroll
            for (int p = 0; p < 4; p++)
                if (gx + p < W)
                    dst[p] = acc[o][p];
#endif
        }
    }
}
#else
extern "C" __global__ void __launch_bounds__(NTHR)
blur(float *__restrict__ out, const unsigned char *__restrict__ rgb, float *scratch)
{
    __shared__ float g[GH][GW];
#if SEPARABLE
    __shared__ float hrow[GH][TX];
#endif
    const int tid = threadIdx.y * TX + threadIdx.x;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * OTY;

#if FUSED
    for (int i = tid; i < GH * GW; i += NTHR) {
        const int gy = i / GW, gx = i % GW;
        g[gy][gx] = gray_at(rgb, x0 + gx - RADIUS, y0 + gy - RADIUS);
    }
#else
    float *mine = scratch + ((size_t)blockIdx.y * TILES_X + blockIdx.x) * (GH * GW);
    for (int i = tid; i < GH * GW; i += NTHR) {
        const int gy = i / GW, gx = i % GW;
        mine[i] = gray_at(rgb, x0 + gx - RADIUS, y0 + gy - RADIUS);
    }
    __syncthreads(); /* orders the block's global writes before its reads */
    for (int i = tid; i < GH * GW; i += NTHR)
        g[i / GW][i % GW] = __ldcg(&mine[i]);
#endif
    __syncthreads();

    const int tx = threadIdx.x;
#if SEPARABLE
    for (int gy = threadIdx.y; gy < GH; gy += TY) {
        float s = 0.0f;
#pragma unroll
        for (int i = -RADIUS; i <= RADIUS; i++)
            s += wgt(i) * g[gy][tx + RADIUS + i];
        hrow[gy][tx] = s;
    }
    __syncthreads();
#endif
#pragma unroll
    for (int p = 0; p < PPT; p++) {
        const int ty = threadIdx.y + p * TY; /* output row inside the tile */
        const int x = x0 + tx, y = y0 + ty;
        float s = 0.0f;
#if SEPARABLE
#pragma unroll
        for (int j = -RADIUS; j <= RADIUS; j++)
            s += wgt(j) * hrow[ty + RADIUS + j][tx];
#else
#pragma unroll
        for (int j = -RADIUS; j <= RADIUS; j++) {
            float r = 0.0f;
#pragma unroll
            for (int i = -RADIUS; i <= RADIUS; i++)
                r += wgt(i) * g[ty + RADIUS + j][tx + RADIUS + i];
            s += wgt(j) * r;
        }
#endif
        if (x < W && y < H)
            out[(size_t)y * W + x] = s;
    }
}
#endif /* ALGO */

/* Reference: a thread per output pixel, gray recomputed for every tap. */
extern "C" __global__ void blur_ref(float *out, const unsigned char *rgb, float *scratch)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float s = 0.0f;
    for (int j = -RADIUS; j <= RADIUS; j++) {
        float r = 0.0f;
        for (int i = -RADIUS; i <= RADIUS; i++)
            r += wgt(i) * gray_at(rgb, x + i, y + j);
        s += wgt(j) * r;
    }
    out[(size_t)y * W + x] = s;
}
