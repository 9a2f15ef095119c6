// An in-place kernel for the inout test (tests/gpu/cli_inout.sh): acc[i] += x[i], with a
// tunable block size and items per thread. Run twice without restoring acc, it would
// double the addition; cutune restores "inout" buffers before every launch.
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef items_per_thread
#define items_per_thread 1
#endif

extern "C" __global__ void accumulate(float *acc, const float *x, int n)
{
    int base = (blockIdx.x * block_size_x + threadIdx.x) * items_per_thread;
    for (int k = 0; k < items_per_thread; k++)
        if (base + k < n)
            acc[base + k] += x[base + k];
}

extern "C" __global__ void accumulate_ref(float *acc, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += x[i];
}
