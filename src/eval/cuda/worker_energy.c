/* The worker's energy measurement through NVML, around the timed repetitions
 * (worker_timing.c opens the window after the warm-up and closes it after the last
 * synchronisation).
 *
 * Energy, by the first source the device offers:
 *  - counter: nvmlDeviceGetTotalEnergyConsumption (mJ since the driver loaded) read when
 *    the window opens and when it closes; the energy is the difference.
 *  - sampled: nvmlDeviceGetPowerUsage (mW) read by a thread every WORKER_POWER_PERIOD_S,
 *    plus once when the window opens and once when it closes, integrated by the
 *    trapezoidal rule over the window.
 * Metrics: energy_j (the window's energy divided by the launches in it: one launch's
 * share, with its L2 flush under flush_l2=1), power_w (the window's energy over its wall
 * time), energy_window_ms, energy_launches, energy_source (1 counter, 2 sampled),
 * energy_readings (distinct counter values seen by the polls, or power samples: how finely
 * the window was resolved); sm_clock_mhz_before, mem_clock_mhz_before, temp_c_before when
 * the window opens and sm_clock_mhz, mem_clock_mhz, temp_c when it closes;
 * throttle_reasons (the clock event reasons seen at any poll, OR'd, GPU-idle left out) and
 * throttled (1 when a power cap, thermal or hardware slowdown was among them). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker_internal.h"

#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0
#define REASON_GPU_IDLE 0x1ull

static double power_w(const worker *w)
{
    unsigned mw = 0;
    return w->drv.nvml_power_usage(w->nvml_dev, &mw) == 0 ? mw * 1e-3 : NAN;
}

/* One trapezoid from the last sample to (t, p); a failed reading (NaN) is skipped. */
static void power_add(worker_energy *e, double t, double p)
{
    if (!isfinite(p))
        return;
    if (e->nsamples > 0)
        e->joules += 0.5 * (e->last_p + p) * (t - e->last_t);
    e->last_t = t;
    e->last_p = p;
    e->nsamples++;
}

static void *sampler(void *arg)
{
    worker *w = arg;
    worker_energy *e = &w->energy;
    struct timespec ts = {0, (long)(WORKER_POWER_PERIOD_S * 1e9)};
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        pthread_mutex_unlock(&e->mu);
        nanosleep(&ts, NULL);
        double p = power_w(w);
        pthread_mutex_lock(&e->mu);
        if (!e->stop)
            power_add(e, cutune_now(), p);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

int worker_energy_source(const worker *w)
{
    if (!w->nvml_dev)
        return CUTUNE_CUDA_ENERGY_NONE;
    unsigned long long mj;
    if (w->drv.nvml_total_energy && w->drv.nvml_total_energy(w->nvml_dev, &mj) == 0)
        return CUTUNE_CUDA_ENERGY_COUNTER;
    unsigned mw;
    if (w->drv.nvml_power_usage && w->drv.nvml_power_usage(w->nvml_dev, &mw) == 0)
        return CUTUNE_CUDA_ENERGY_SAMPLED;
    return CUTUNE_CUDA_ENERGY_NONE;
}

static void clocks_read(const worker *w, double out[3])
{
    unsigned v = 0;
    out[0] = w->drv.nvml_clock_info(w->nvml_dev, NVML_CLOCK_SM, &v) == 0 ? v : NAN;
    out[1] = w->drv.nvml_clock_info(w->nvml_dev, NVML_CLOCK_MEM, &v) == 0 ? v : NAN;
    out[2] = w->drv.nvml_temperature(w->nvml_dev, NVML_TEMPERATURE_GPU, &v) == 0 ? v : NAN;
}

void worker_energy_poll(worker *w)
{
    worker_energy *e = &w->energy;
    if (!e->open)
        return;
    unsigned long long reasons = 0, mj = 0;
    if (w->drv.nvml_clock_reasons && w->drv.nvml_clock_reasons(w->nvml_dev, &reasons) == 0)
        e->reasons |= reasons & ~REASON_GPU_IDLE;
    if (e->source == CUTUNE_CUDA_ENERGY_COUNTER &&
        w->drv.nvml_total_energy(w->nvml_dev, &mj) == 0 && mj != e->last_mj) {
        e->last_mj = mj;
        e->readings++;
    }
}

void worker_energy_begin(worker *w)
{
    worker_energy *e = &w->energy;
    e->open = 0;
    if (!w->nvml_dev)
        return;
    clocks_read(w, e->before);
    e->source = worker_energy_source(w);
    e->reasons = 0;
    e->readings = 0;
    e->joules = 0;
    e->nsamples = 0;
    e->stop = 0;
    e->thread = 0;
    e->t0 = cutune_now();
    if (e->source == CUTUNE_CUDA_ENERGY_COUNTER &&
        w->drv.nvml_total_energy(w->nvml_dev, &e->mj0) != 0)
        e->source = CUTUNE_CUDA_ENERGY_NONE;
    e->last_mj = e->mj0;
    if (e->source == CUTUNE_CUDA_ENERGY_SAMPLED) {
        power_add(e, e->t0, power_w(w));
        pthread_mutex_init(&e->mu, NULL);
        e->thread = pthread_create(&e->tid, NULL, sampler, w) == 0;
        if (!e->thread) {
            pthread_mutex_destroy(&e->mu);
            e->source = CUTUNE_CUDA_ENERGY_NONE;
        }
    }
    e->open = 1;
    worker_energy_poll(w);
}

void worker_energy_end(worker *w, uint64_t launches, cutune_cuda_reply *r)
{
    worker_energy *e = &w->energy;
    if (!e->open)
        return;
    worker_energy_poll(w);
    double t1 = cutune_now(), joules = NAN;
    unsigned long long mj1 = 0;
    uint64_t readings = 0;
    if (e->source == CUTUNE_CUDA_ENERGY_COUNTER) {
        /* a counter that never moved did not resolve the window: no energy (not 0 J) */
        if (w->drv.nvml_total_energy(w->nvml_dev, &mj1) == 0 && mj1 > e->mj0)
            joules = (double)(mj1 - e->mj0) * 1e-3;
        readings = e->readings;
    } else if (e->source == CUTUNE_CUDA_ENERGY_SAMPLED) {
        pthread_mutex_lock(&e->mu);
        e->stop = 1;
        pthread_mutex_unlock(&e->mu);
        pthread_join(e->tid, NULL);
        pthread_mutex_destroy(&e->mu);
        e->thread = 0;
        power_add(e, t1, power_w(w));
        if (e->nsamples >= 2)
            joules = e->joules;
        readings = e->nsamples;
    }
    e->open = 0;
    double after[3];
    clocks_read(w, after);
    static const char *const before_names[3] = {"sm_clock_mhz_before", "mem_clock_mhz_before",
                                                "temp_c_before"};
    static const char *const after_names[3] = {"sm_clock_mhz", "mem_clock_mhz", "temp_c"};
    for (int i = 0; i < 3; i++)
        if (isfinite(e->before[i]))
            worker_metric(r, before_names[i], e->before[i]);
    if (e->source != CUTUNE_CUDA_ENERGY_NONE)
        worker_metric(r, "energy_readings", (double)readings);
    if (isfinite(joules) && launches > 0 && t1 > e->t0) {
        worker_metric(r, "energy_j", joules / (double)launches);
        worker_metric(r, "power_w", joules / (t1 - e->t0));
        worker_metric(r, "energy_window_ms", (t1 - e->t0) * 1e3);
        worker_metric(r, "energy_launches", (double)launches);
        worker_metric(r, "energy_source", e->source);
    }
    if (w->drv.nvml_clock_reasons) {
        worker_metric(r, "throttle_reasons", (double)e->reasons);
        worker_metric(r, "throttled", (e->reasons & WORKER_THROTTLE_FLAG) != 0);
    }
    for (int i = 0; i < 3; i++)
        if (isfinite(after[i]))
            worker_metric(r, after_names[i], after[i]);
}

int worker_energy_throttled(const worker *w)
{
    return (w->energy.reasons & WORKER_THROTTLE_REPEAT) != 0;
}
