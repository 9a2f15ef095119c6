// An int64 output past 2^53 off by OFF in its low bits: verification must see it (as
// doubles, 2^60 + 1 and 2^60 are one number).
#ifndef OFF
#define OFF 0
#endif
extern "C" __global__ void put_int64(long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = (1ll << 60) + (i == 0 ? OFF : 0);
}

extern "C" __global__ void put_int64_ref(long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = 1ll << 60;
}
