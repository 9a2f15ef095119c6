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
 * ALGO 2 is a leaner warp strip (TX 32, FUSED and SEPARABLE 1, TY 2 or 4 warps a
 * block): a warp owns 32*PPL columns and 8*PPT output rows and walks its 8*PPT + 2R
 * input rows in a rolled loop (2 or PF rows an iteration: a small loop body, where
 * ALGO 1 unrolled ~3,400 instructions). Per input row and lane (PPL = 8):
 *  - loads: the PPL pixels' bytes as three 64-bit words (PPL 8, W % 8 == 0), or
 *    (PPL 4, or SPLIT 1: two 4-pixel groups 128 columns apart, so that every 12-byte
 *    load and 16-byte store of the warp covers one contiguous span) three 32-bit words
 *    a group; PF rows ahead, in a ring of PF register slots;
 *  - gray: GRAY 0 with gray_f's roundings in 8 instructions a pixel (3 PRMT make
 *    2^23 + byte, 2 FADD remove 2^23 from G and B, and R's is folded into the first
 *    FFMA: 0.299f * (2^23 + r) - 0.299f * 2^23 is exact before its one rounding);
 *    GRAY 1 in 3: two IDP2A (16-bit x 8-bit dot products) give N = 299 R + 587 G +
 *    114 B exactly, accumulated onto 0x4B000000 (the float 2^23 + N), and one FFMA
 *    gives round(0.001f * N) (it differs from gray_f by at most ~4e-5);
 *  - halo: the 2R gray pixels left and right of the strip are made by lanes 0..2R-1,
 *    one pixel each (3 byte loads, clamped), in the same instructions, instead of one
 *    or two lanes making a whole 4-pixel group in instructions of their own;
 *  - horizontal taps: through a double-buffered row buffer of the warp (one
 *    __syncwarp a row; two float4 stores and two float4 loads for PPL 8 in a planar
 *    layout, all conflict-free), gray's taps in blur_ref's order with the weights
 *    over 4^R (an exact scaling: blur_ref's row sum times 4^-R);
 *  - vertical taps: the binomial weights are [1 1]^2R, so 2R stages of pairwise sums,
 *    one FADD each (6 for R 3), carried from row to row (the loop is unrolled by 2 so
 *    the stages need no moves); this sums in another order than blur_ref (a tree of
 *    positive terms: relative error ~1e-7, within the tolerance);
 *  - odd strips walk up (the cascade is symmetric): two neighbouring strips read the
 *    2R input rows they share at about the same time, both at their start or both at
 *    their end, so those rows come from L2 rather than twice from DRAM;
 *  - PD > 0: the lanes covering the strip's row PD rows ahead prefetch it into L2 (one
 *    line a lane, no destination register: deeper in-flight memory than the PF ring,
 *    which costs registers and warps).
 * About 181-230 warp instructions a row of 256 pixels; 0.78-1.04 a pixel for PPL 8
 * with PPT 4/8 against ~1.64 for ALGO 1's best (TY 4, PPT 2, PF 2). Strips that
 * cross the right edge (or W not a multiple of 8, 4) take clamped byte loads.
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
#ifndef PPL
#define PPL 8
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#ifndef GRAY
#define GRAY 0
#endif
#ifndef PD
#define PD 0
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

typedef unsigned int u32;

/* byte k of w as 2^23 + byte, a float (one PRMT: the byte becomes the low mantissa
 * bits of 2^23) */
template <int k> __device__ __forceinline__ float b2m(u32 w)
{
    return __int_as_float(__byte_perm(w, 0x4B000000u, 0x7650 | k));
}
/* byte k of w as a float, exactly (one PRMT and one FADD; the int-to-float
 * conversion runs at a quarter of the rate and was three per pixel) */
template <int k> __device__ __forceinline__ float b2f(u32 w)
{
    return b2m<k>(w) - 8388608.0f;
}

#if ALGO == 1
#if TX != 32 || !FUSED || !SEPARABLE
#error "ALGO 1 needs TX == 32, FUSED == 1, SEPARABLE == 1"
#endif
#define SR (8 * PPT)              /* output rows of a warp strip */
#define NIN (SR + 2 * RADIUS)     /* input rows a strip reads */
#define WORDS_OK ((W % 4) == 0)   /* 4-pixel groups start on 4-byte boundaries */
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
#elif ALGO == 2
#if TX != 32 || !FUSED || !SEPARABLE
#error "ALGO 2 needs TX == 32, FUSED == 1, SEPARABLE == 1"
#endif
#if (PPL != 4 && PPL != 8) || (SPLIT && PPL != 8) || (PF != 1 && PF != 2 && PF != 4) || \
    (GRAY != 0 && GRAY != 1) || (TY != 2 && TY != 4)
#error "ALGO 2 needs PPL 4 or 8, SPLIT only with PPL 8, PF 1, 2 or 4, GRAY 0 or 1, TY 2 or 4"
#endif
#define NG (PPL / 4)                  /* 4-pixel groups of a lane */
#define SW (32 * PPL)                 /* strip width */
#define SR (8 * PPT)                  /* output rows of a strip */
#define NIN (SR + 2 * RADIUS)         /* input rows a strip reads */
#define NST (2 * RADIUS)              /* stages of the vertical binomial cascade */
#define UNR (PF > 2 ? PF : 2)         /* rows per loop iteration: a multiple of PF and of 2 */
#define PLANAR (PPL == 8 && !SPLIT)   /* 8 adjacent pixels a lane, three 64-bit words */
#define WORDS_OK (PLANAR ? W % 8 == 0 : W % 4 == 0) /* groups' words aligned */
#define ALL_FAST (WORDS_OK && W % SW == 0)           /* no strip crosses the right edge */
/* the row buffer of a warp, in float4 slots of 4 pixels. PLANAR: slots 0..31 hold the
 * lanes' first groups and 32 the right halo, 33 the left halo and 34..65 the lanes'
 * second groups (every store and load is 32 consecutive float4: no bank conflict);
 * else slots in pixel order: 0 the left halo, 1 + 32 q + lane group q, then the right
 * halo */
#define NSLOT (PLANAR ? 66 : 32 * NG + 2)
#define LH (PLANAR ? 33 : 0)
#define RH (PLANAR ? 32 : 32 * NG + 1)

/* first column of group q of a lane: adjacent groups, or (SPLIT) 128 pixels apart so
 * that each 12-byte load and 16-byte store of the warp covers one contiguous span */
__device__ __forceinline__ int a2_gx(int xs, int lane, int q)
{
    return SPLIT ? xs + 128 * q + 4 * lane : xs + PPL * lane + 4 * q;
}
__device__ __forceinline__ int a2_slot(int lane, int q)
{
    return PLANAR ? (q == 0 ? lane : 34 + lane) : 1 + 32 * q + lane;
}

#if GRAY
/* gray of the 4 pixels of three words (bytes R0 G0 B0 R1 | G1 B1 R2 G2 | B2 R3 G3 B3):
 * N = 299 R + 587 G + 114 B exactly with two IDP2A (16-bit x 8-bit dot products, the
 * accumulator starting at 0x4B000000: the int is the float 2^23 + N), then one FFMA
 * 0.001f * (2^23 + N) - 0.001f * 2^23 = round(0.001f * N) (the subtrahend is exact) */
__device__ __forceinline__ void a2_gray4(const u32 *wd, float *g)
{
    const u32 m = 0x4B000000u;
    const u32 n0 = __dp2a_hi(114u, wd[0], __dp2a_lo(299u | 587u << 16, wd[0], m));
    const u32 n1 = __dp2a_lo(587u | 114u << 16, wd[1], __dp2a_hi(299u << 16, wd[0], m));
    const u32 n2 = __dp2a_lo(114u, wd[2], __dp2a_hi(299u | 587u << 16, wd[1], m));
    const u32 n3 = __dp2a_hi(587u | 114u << 16, wd[2], __dp2a_lo(299u << 16, wd[2], m));
    g[0] = fmaf(__uint_as_float(n0), 0.001f, -0.001f * 8388608.0f);
    g[1] = fmaf(__uint_as_float(n1), 0.001f, -0.001f * 8388608.0f);
    g[2] = fmaf(__uint_as_float(n2), 0.001f, -0.001f * 8388608.0f);
    g[3] = fmaf(__uint_as_float(n3), 0.001f, -0.001f * 8388608.0f);
}
#else
/* gray_f(r, g, b) from 2^23 + byte, with gray_f's roundings as nvcc contracts it (FMUL
 * R, FFMA G, FFMA B): 0.299f * (2^23 + r) - 0.299f * 2^23 is exact before its one
 * rounding, so one FFMA gives the FMUL 0.299f * r and R needs no FADD (8 instructions
 * a pixel instead of 9) */
__device__ __forceinline__ float a2_gray_m(float rm, float gm, float bm)
{
    return fmaf(0.114f, bm - 8388608.0f,
                fmaf(0.587f, gm - 8388608.0f, fmaf(0.299f, rm, -0.299f * 8388608.0f)));
}
__device__ __forceinline__ void a2_gray4(const u32 *wd, float *g)
{
    g[0] = a2_gray_m(b2m<0>(wd[0]), b2m<1>(wd[0]), b2m<2>(wd[0]));
    g[1] = a2_gray_m(b2m<3>(wd[0]), b2m<0>(wd[1]), b2m<1>(wd[1]));
    g[2] = a2_gray_m(b2m<2>(wd[1]), b2m<3>(wd[1]), b2m<0>(wd[2]));
    g[3] = a2_gray_m(b2m<1>(wd[2]), b2m<2>(wd[2]), b2m<3>(wd[2]));
}
#endif

/* the words of the lane's groups (FAST) and the halo lanes' 3 bytes of image row y */
template <bool FAST>
__device__ __forceinline__ void a2_load(const unsigned char *__restrict__ src,
                                        const unsigned char *__restrict__ hsrc, int y,
                                        u32 (&wd)[3 * NG], u32 (&hb)[3])
{
    const size_t ro = (size_t)y * (3 * W);
    if (FAST) {
#if PLANAR
        const uint2 *p = (const uint2 *)(src + ro);
        const uint2 a = __ldg(p), b = __ldg(p + 1), c = __ldg(p + 2);
        wd[0] = a.x, wd[1] = a.y, wd[2] = b.x, wd[3] = b.y, wd[4] = c.x, wd[5] = c.y;
#else
#pragma unroll
        for (int q = 0; q < NG; q++) {
            const u32 *p = (const u32 *)(src + ro + 384 * q);
            wd[3 * q] = __ldg(p);
            wd[3 * q + 1] = __ldg(p + 1);
            wd[3 * q + 2] = __ldg(p + 2);
        }
#endif
    }
    hb[0] = __ldg(hsrc + ro);
    hb[1] = __ldg(hsrc + ro + 1);
    hb[2] = __ldg(hsrc + ro + 2);
}

/* one warp's strip: input rows y0, y0 + dy, ... (NIN of them, clamped) */
template <bool FAST>
__device__ __forceinline__ void a2_strip(float *__restrict__ out,
                                         const unsigned char *__restrict__ rgb,
                                         float4 (*buf)[NSLOT], int lane, int xs, int ys, bool up)
{
    const int y0 = up ? ys + SR + RADIUS - 1 : ys - RADIUS;
    const int dy = up ? -1 : 1;
    const unsigned char *src = rgb + 3 * a2_gx(xs, lane, 0);
    float *dst0 = out + a2_gx(xs, lane, 0);
    /* halo: lane h < R makes pixel xs - R + h, lane R <= h < 2R pixel xs + SW + h - R;
     * the other lanes load lane 0's bytes too (the same sector, no predicate: a
     * predicated load kept its old value and ptxas spilled it) and store nothing */
    const bool hl = lane < 2 * RADIUS;
    const int hx = min(max(lane < RADIUS ? xs - RADIUS + lane
                           : hl          ? xs + SW + lane - RADIUS
                                         : xs - RADIUS, 0), W - 1);
    const unsigned char *hsrc = rgb + 3 * hx;
#if PD
    /* lane's line of the strip's row; clamped into the row: the last strip of a width that
     * is not a multiple of SW would otherwise reach past the end of the image's last row */
    const unsigned char *psrc = rgb + min(3 * xs + 128 * lane, 3 * W - 1);
#endif
    const int hsi = lane < RADIUS ? 4 * LH + 4 - RADIUS + lane : 4 * RH + lane - RADIUS;

    u32 wd[PF][3 * NG], hb[PF][3];
    float st[NST][PPL]; /* st[k]: stage k of the previous input row (stage 0: h) */
#pragma unroll
    for (int f = 0; f < PF; f++) {
#pragma unroll
        for (int k = 0; k < 3 * NG; k++)
            wd[f][k] = 0;
        hb[f][0] = hb[f][1] = hb[f][2] = 0;
    }
#pragma unroll
    for (int k = 0; k < NST; k++)
#pragma unroll
        for (int p = 0; p < PPL; p++)
            st[k][p] = 0.0f;
#pragma unroll
    for (int f = 0; f < PF; f++)
        a2_load<FAST>(src, hsrc, min(max(y0 + dy * f, 0), H - 1), wd[f], hb[f]);

    for (int i0 = 0; i0 < NIN; i0 += UNR) {
#pragma unroll
        for (int u = 0; u < UNR; u++) {
            const int i = i0 + u;
            if (NIN % UNR != 0 && i >= NIN)
                break;
            const int f = u % PF; /* == i % PF: the words of row i */
            float g[NG][4];
            if (FAST) {
#pragma unroll
                for (int q = 0; q < NG; q++)
                    a2_gray4(&wd[f][3 * q], g[q]);
            } else {
                const int y = min(max(y0 + dy * i, 0), H - 1);
#pragma unroll
                for (int q = 0; q < NG; q++)
#pragma unroll
                    for (int p = 0; p < 4; p++)
                        g[q][p] = gray_at(rgb, a2_gx(xs, lane, q) + p, y);
            }
            const float hg = gray_f((float)hb[f][0], (float)hb[f][1], (float)hb[f][2]);
            /* the slot is free: row i + PF goes into it (past the strip's last row, the
             * last row again: a load under a condition keeps its old value, and ptxas
             * spilled such registers) */
            a2_load<FAST>(src, hsrc, min(max(y0 + dy * min(i + PF, NIN - 1), 0), H - 1), wd[f],
                          hb[f]);
#if PD
            /* row i + PD into L2 ahead of its loads, so that they wait for L2 rather than
             * DRAM: the strip's row is 3 SW bytes, a 128-byte line a lane; a prefetch has
             * no destination register (a deeper PF ring costs 12-28 and warps) */
            if (lane < 3 * SW / 128)
                asm volatile("prefetch.global.L2 [%0];" ::"l"(
                    psrc + (size_t)min(max(y0 + dy * min(i + PD, NIN - 1), 0), H - 1) * (3 * W)));
#endif

            float4 *b = buf[u & 1]; /* two buffers: one __syncwarp a row */
#pragma unroll
            for (int q = 0; q < NG; q++)
                b[a2_slot(lane, q)] = make_float4(g[q][0], g[q][1], g[q][2], g[q][3]);
            if (hl)
                ((float *)b)[hsi] = hg;
            __syncwarp();
            float h[PPL];
#pragma unroll
            for (int q = 0; q < NG; q++) {
                const int sl = a2_slot(lane, q);
                const float4 l = PLANAR ? (q == 0 ? b[LH + lane]
                                                  : make_float4(g[0][0], g[0][1], g[0][2], g[0][3]))
                                        : b[sl - 1];
                const float4 r = PLANAR ? (q == 0 ? make_float4(g[1 % NG][0], g[1 % NG][1],
                                                                g[1 % NG][2], g[1 % NG][3])
                                                  : b[lane + 1])
                                        : b[sl + 1];
                const float v[12] = {l.x, l.y, l.z, l.w, g[q][0], g[q][1], g[q][2], g[q][3],
                                     r.x, r.y, r.z, r.w};
#pragma unroll
                for (int p = 0; p < 4; p++) {
                    /* gray's taps as in blur_ref, the weights over 4^R (exact): the
                     * vertical cascade below sums with weights C(2R, k) */
                    float s = 0.0f;
#pragma unroll
                    for (int t = -RADIUS; t <= RADIUS; t++)
                        s += (wgt(t) * (1.0f / (1 << (2 * RADIUS)))) * v[4 + p + t];
                    h[4 * q + p] = s;
                }
            }
            /* vertical: 2R stages of pairwise sums (binomial C(2R, k) = [1 1]^2R), one
             * FADD each; stage 2R of input row i is output row i - R of the window */
            float o[PPL];
#pragma unroll
            for (int p = 0; p < PPL; p++) {
                float a = h[p];
#pragma unroll
                for (int k = 0; k < NST; k++) {
                    const float n = a + st[k][p];
                    st[k][p] = a;
                    a = n;
                }
                o[p] = a;
            }
            const int oi = i - 2 * RADIUS;
            const int yo = up ? ys + SR - 1 - oi : ys + oi;
            if (oi >= 0 && yo < H) {
                float *d = dst0 + (size_t)yo * W;
#pragma unroll
                for (int q = 0; q < NG; q++) {
                    const int dq = SPLIT ? 128 * q : 4 * q;
                    const int gx = a2_gx(xs, lane, q);
                    if (FAST || (W % 4 == 0 && gx < W)) {
                        *(float4 *)(d + dq) =
                            make_float4(o[4 * q], o[4 * q + 1], o[4 * q + 2], o[4 * q + 3]);
                    } else if (W % 4 != 0) {
#pragma unroll
                        for (int p = 0; p < 4; p++)
                            if (gx + p < W)
                                d[dq + p] = o[4 * q + p];
                    }
                }
            }
        }
    }
}

/* A2_WARPS warps a multiprocessor: ptxas keeps to 65536 / (32 A2_WARPS) registers. PPL 8
 * needs ~130-175 (the cascade's 6 x 8 states, PF rows of words, 8 h and 8 outputs),
 * PPL 4 ~85-110; each budget is the tightest without spills (with a maximum block size
 * alone ptxas spilled PPL 4 at 72-80 registers; 16 warps spilled PPL 8 with PF > 1) */
#define A2_WARPS (PPL == 4 || (PF == 1 && !SPLIT) ? 16 : SPLIT && PF == 4 ? 8 : 12)
extern "C" __global__ void __launch_bounds__(32 * TY, A2_WARPS / TY)
blur(float *__restrict__ out, const unsigned char *__restrict__ rgb, float *scratch)
{
    __shared__ __align__(16) float4 rowbuf[TY][2][NSLOT];
    const int lane = threadIdx.x;
    const int xs = blockIdx.x * SW;                     /* strip's first column */
    const int sy = blockIdx.y * TY + threadIdx.y;       /* strip's row index */
    const int ys = sy * SR;                             /* strip's first output row */
    if (ys >= H)
        return; /* a whole warp: only __syncwarp below */
    /* odd strips walk up: the 2R input rows two neighbouring strips share are read
     * by both at about the same time (both at their start, or both at their end) */
    const bool up = sy & 1;
    if (ALL_FAST || (WORDS_OK && xs + SW <= W))
        a2_strip<true>(out, rgb, rowbuf[threadIdx.y], lane, xs, ys, up);
    else
        a2_strip<false>(out, rgb, rowbuf[threadIdx.y], lane, xs, ys, up);
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
