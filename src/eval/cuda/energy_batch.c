/* The rule of the back-to-back energy window (worker_timing.c runs it), kept apart from the
 * driver so that it is tested without a GPU.
 *
 * NVML's total-energy counter changes only at its own update times, so a window read at
 * both ends is uncertain by about one update step's energy at each end: the relative
 * error is bounded by step / window energy, which a longer, gap-free window makes small.
 * The window is therefore filled with launches issued back to back (no host
 * synchronisation between them, so the GPU does not idle), as many as the time left
 * needs at the measured time per launch, and only then synchronised. The energy of one
 * launch is, where the window holds two or more of the counter's updates (the H200's
 * comes every ~100 ms), the power between the first and the last of them times the
 * window's time per launch: the GPU runs the same launches throughout, and the updates'
 * times are known to the poll period (1 ms), where each edge reading is off by up to one
 * update's energy. Otherwise it is the counter's difference over the launches. */
#include <math.h>
#include <string.h>

#include "cuda_internal.h"

uint64_t cutune_cuda_energy_batch(double left_s, double per_launch_s)
{
    if (!(left_s > 0))
        return 0;
    /* an unknown or zero launch time: one launch, and the next batch is sized from the
     * wall time it took */
    if (!(per_launch_s > 0) || !isfinite(per_launch_s))
        return 1;
    double n = ceil(left_s / per_launch_s);
    return n >= (double)CUTUNE_CUDA_ENERGY_MAX_BATCH ? CUTUNE_CUDA_ENERGY_MAX_BATCH
           : n < 1                                   ? 1
                                                     : (uint64_t)n;
}

double cutune_cuda_energy_per_launch(unsigned long long mj0, unsigned long long mj1,
                                     uint64_t launches)
{
    /* a counter that did not move did not resolve the window: no energy, never 0 J */
    if (mj1 <= mj0 || launches == 0)
        return NAN;
    return (double)(mj1 - mj0) * 1e-3 / (double)launches;
}

double cutune_cuda_energy_window_default(const char *const *need, size_t nneed)
{
    /* 0.25 s holds two or three of the H200's ~100 ms counter updates, so the energy is
     * the power between updates (benchmarks/energy: a CV of 3-6% against 31-51% for the
     * timed repetitions' window) */
    for (size_t i = 0; i < nneed; i++)
        if (need[i] && (!strncmp(need[i], "energy_", 7) || !strcmp(need[i], "power_w")))
            return CUTUNE_CUDA_ENERGY_WINDOW_S;
    return 0;
}

double cutune_cuda_energy_between(unsigned long long mj_a, double t_a, unsigned long long mj_b,
                                  double t_b, double window_s, uint64_t launches)
{
    if (mj_b <= mj_a || !(t_b > t_a) || !(window_s > 0) || launches == 0)
        return NAN;
    return (double)(mj_b - mj_a) * 1e-3 / (t_b - t_a) * window_s / (double)launches;
}

double cutune_cuda_energy_resolution(unsigned long long step_mj, unsigned long long mj0,
                                     unsigned long long mj1)
{
    if (mj1 <= mj0 || step_mj == 0)
        return NAN;
    double r = (double)step_mj / (double)(mj1 - mj0);
    return r > 1 ? 1 : r;
}
