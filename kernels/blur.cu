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

__device__ __forceinline__ float gray_at(const unsigned char *__restrict__ rgb, int x, int y)
{
    x = min(max(x, 0), W - 1);
    y = min(max(y, 0), H - 1);
    const unsigned char *p = rgb + 3 * ((size_t)y * W + x);
    return 0.299f * (float)p[0] + 0.587f * (float)p[1] + 0.114f * (float)p[2];
}

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
