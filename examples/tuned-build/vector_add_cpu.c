/* The build-integration example's CPU stand-in (no GPU, or no CUDA compiler): vector_add
 * run on the CPU in the order the tuned kernel runs it. The tuned header is compiled in:
 * each simulated block covers block_size_x * items_per_thread vectors of vector_width
 * floats, thread t of it doing vectors t, t + block_size_x, ... (kernels/vector_add.cu). */
#include <stdio.h>
#include <stdlib.h>

#include "vector_add_tuned.h"

#define N (1 << 20)

int main(void)
{
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (long i = 0; i < N; i++) {
        a[i] = (float)(i % 1000) * 0.5f;
        b[i] = (float)(i % 7) - 3.0f;
        c[i] = -1.0f;
    }
    const long nvec = N / vector_width;
    const long per_block = (long)block_size_x * items_per_thread;
    const long blocks = (nvec + per_block - 1) / per_block;
    for (long blk = 0; blk < blocks; blk++)
        for (long t = 0; t < block_size_x; t++)
            for (long k = 0; k < items_per_thread; k++) {
                long v = blk * per_block + t + k * block_size_x;
                for (long w = 0; v < nvec && w < vector_width; w++)
                    c[v * vector_width + w] = a[v * vector_width + w] + b[v * vector_width + w];
            }
    for (long i = nvec * vector_width; i < N; i++)
        c[i] = a[i] + b[i];
    long wrong = 0;
    for (long i = 0; i < N; i++)
        wrong += c[i] != a[i] + b[i];
    printf("vector_add on the CPU (a stand-in: no GPU here), tuned block_size_x=%d "
           "items_per_thread=%d vector_width=%d: %ld blocks, %s\n",
           block_size_x, items_per_thread, vector_width, blocks,
           wrong ? "WRONG" : "all elements correct");
    free(a);
    free(b);
    free(c);
    return wrong != 0;
}
