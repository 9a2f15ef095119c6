/* The build-integration example on a GPU: the shipped kernel (kernels/vector_add.cu)
 * compiled with the tuned header's #defines and launched with the geometry its spec gives
 * (kernels/vector_add.json), then checked on the host. */
#include <cstdio>
#include <vector>

#include "vector_add_tuned.h"
#include "vector_add.cu"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                          \
            return 2;                                                                              \
        }                                                                                          \
    } while (0)

int main()
{
    const int n = 1 << 24;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) * 0.5f;
        b[i] = (float)(i % 7) - 3.0f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const long long per_block = (long long)block_size_x * items_per_thread * vector_width;
    const unsigned grid = (unsigned)((n + per_block - 1) / per_block);
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    vector_add<<<grid, block_size_x>>>(dc, da, db, n); /* warm-up */
    CHECK(cudaEventRecord(t0));
    vector_add<<<grid, block_size_x>>>(dc, da, db, n);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += c[i] != a[i] + b[i];
    std::printf("vector_add on the GPU, tuned block_size_x=%d items_per_thread=%d "
                "vector_width=%d: %u blocks, %.4f ms, %s\n",
                block_size_x, items_per_thread, vector_width, grid, ms,
                wrong ? "WRONG" : "all elements correct");
    return wrong != 0;
}
