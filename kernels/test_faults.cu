/*
 * test_faults: cutune's own test kernel (tests/gpu). c = a + b, except that each
 * value of `MODE` misbehaves in one way, so one tuning run meets every status:
 *   0 ok                        4 over-resourced: 2048 threads per block (json)
 *   1 illegal address (fault)   5 compile error
 *   2 hangs                     6 over-resourced: 1 MiB dynamic shared memory (json)
 *   3 wrong result              7 __trap() (unspecified launch failure)
 * The reference is compiled with only N defined: MODE defaults to 0 there.
 * MODE is upper case: a macro "mode" would clash with NVRTC's built-in headers.
 */
#ifndef MODE
#define MODE 0
#endif
#ifndef block_size_x
#define block_size_x 256
#endif

extern "C" __global__ void test_faults(float *c, const float *a, const float *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
#if MODE == 1
    /* Far outside any allocation: the context is poisoned (CUDA error 700). */
    ((volatile float *)0x10)[i] = 1.0f;
#elif MODE == 2
    if (i == 0)
        for (;;)
            __nanosleep(1000000);
#elif MODE == 5
    this is not CUDA;
#elif MODE == 7
    if (i == 0)
        __trap();
#endif
    if (i < n)
        c[i] = a[i] + b[i] + (MODE == 3 && i % 1000 == 7 ? 1.0f : 0.0f);
}

extern "C" __global__ void test_faults_ref(float *c, const float *a, const float *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
