/*
 * transpose.cu - tunable out-of-place matrix transpose for cutune.
 *
 *   out (N x M, row-major) = in (M x N, row-major)^T, float, any M and N.
 *
 * A block of (TILE/VEC) x BLOCK_ROWS threads moves one TILE x TILE tile through
 * shared memory: it reads TILE rows of the input (each thread VEC consecutive
 * floats per row, BLOCK_ROWS rows at a time, TILE/BLOCK_ROWS rows per thread),
 * then writes TILE rows of the output the same way, reading the tile's columns
 * from shared memory. PAD floats at the end of each shared row (0 or 1) shift
 * successive rows by a bank, so the column reads do not conflict.
 * Edges: loads and stores are guarded; VEC-wide accesses need N % VEC == 0 and
 * M % VEC == 0 (a restriction). Every output element is written exactly once.
 */
#ifndef M
#define M 8192
#endif
#ifndef N
#define N 8192
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef VEC
#define VEC 1
#endif

#if (TILE % BLOCK_ROWS) || (TILE % VEC) || (N % VEC) || (M % VEC)
#error "TILE % BLOCK_ROWS, TILE % VEC, N % VEC, M % VEC must be 0"
#endif

extern "C" __global__ void __launch_bounds__((TILE / VEC) * BLOCK_ROWS)
transpose(float *__restrict__ out, const float *__restrict__ in)
{
    __shared__ __align__(16) float tile[TILE][TILE + PAD];
    const int tx = threadIdx.x * VEC, ty = threadIdx.y;
    const int bm = blockIdx.y * TILE; /* first input row    */
    const int bn = blockIdx.x * TILE; /* first input column */

    /* in rows bm..bm+TILE, columns bn..bn+TILE -> tile[row][col] */
#pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        const int gm = bm + r, gn = bn + tx;
        float v[VEC];
        if (gm < M && gn < N) { /* N % VEC == 0: the whole vector is inside */
            const float *p = in + (size_t)gm * N + gn;
#if VEC == 4
            const float4 t = __ldg((const float4 *)p);
            v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
#elif VEC == 2
            const float2 t = __ldg((const float2 *)p);
            v[0] = t.x; v[1] = t.y;
#else
            v[0] = __ldg(p);
#endif
        } else {
#pragma unroll
            for (int u = 0; u < VEC; u++)
                v[u] = 0.0f;
        }
#pragma unroll
        for (int u = 0; u < VEC; u++)
            tile[r][tx + u] = v[u];
    }
    __syncthreads();
    /* out rows bn..bn+TILE (input columns), columns bm..bm+TILE (input rows) */
#pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        const int on = bn + r, om = bm + tx;
        if (on < N && om < M) { /* M % VEC == 0: the whole vector is inside */
            float v[VEC];
#pragma unroll
            for (int u = 0; u < VEC; u++)
                v[u] = tile[tx + u][r];
            float *p = out + (size_t)on * M + om;
#if VEC == 4
            *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
#elif VEC == 2
            *(float2 *)p = make_float2(v[0], v[1]);
#else
            p[0] = v[0];
#endif
        }
    }
}

/* Reference: one thread per element, obviously correct. Grid over out (N x M). */
extern "C" __global__ void transpose_ref(float *out, const float *in)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (long long)M * N) {
        const long long on = i / M, om = i % M; /* out[on][om] = in[om][on] */
        out[i] = in[om * N + on];
    }
}
