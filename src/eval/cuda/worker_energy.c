/* The worker's energy measurement through NVML over one window (worker_timing.c opens it
 * after a synchronisation and closes it after the last: its own window of launches issued
 * back to back after the timing under energy_batch=1, else around the timed repetitions).
 *
 * Energy, by the first source the device offers:
 *  - counter: nvmlDeviceGetTotalEnergyConsumption (mJ since the driver loaded) read when
 *    the window opens and when it closes; the energy is the difference. A thread polls it
 *    every WORKER_COUNTER_PERIOD_S meanwhile, to see how often and by how much it changes
 *    (its granularity, which bounds the window energy's error).
 *  - sampled: nvmlDeviceGetPowerUsage (mW) read by a thread every WORKER_POWER_PERIOD_S,
 *    plus once when the window opens and once when it closes, integrated by the
 *    trapezoidal rule over the window.
 * Metrics: energy_j (the window's energy divided by the launches in it: one launch's
 * share, with its L2 flush under flush_l2=1), power_w (the window's energy over its wall
 * time), energy_window_ms, energy_launches, energy_source (1 counter, 2 sampled),
 * energy_readings (distinct counter values seen by the polls, or power samples: how finely
 * the window was resolved); for the counter energy_step_mj (its largest change between two
 * polls), energy_update_ms (the mean time between its changes) and energy_resolution
 * (step over the window's energy: the bound on the relative error one end's reading can
 * make); energy_batched (1: back to back) and energy_busy (launches x the timed median over
 * the window: the fraction of it the kernel ran); sm_clock_mhz_before, mem_clock_mhz_before,
 * temp_c_before when the window opens and sm_clock_mhz, mem_clock_mhz, temp_c when it closes;
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

/* A counter reading mj at time t (under e->mu): a change is one more reading, and its size
 * and time tell the counter's granularity. */
static void counter_seen(worker_energy *e, unsigned long long mj, double t)
{
    if (mj == e->last_mj)
        return;
    if (mj > e->last_mj && mj - e->last_mj > e->step_mj)
        e->step_mj = mj - e->last_mj;
    if (e->readings == 0) {
        e->first_t = t;
        e->first_mj = mj;
    }
    e->last_t_mj = t;
    e->last_mj = mj;
    e->readings++;
}

/* The poller thread: power samples (sampled source) or counter polls (counter source),
 * while the main thread launches and waits. */
static void *poller(void *arg)
{
    worker *w = arg;
    worker_energy *e = &w->energy;
    int counter = e->source == CUTUNE_CUDA_ENERGY_COUNTER;
    double period = counter ? WORKER_COUNTER_PERIOD_S : WORKER_POWER_PERIOD_S;
    struct timespec ts = {0, (long)(period * 1e9)};
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        pthread_mutex_unlock(&e->mu);
        nanosleep(&ts, NULL);
        unsigned long long mj = 0;
        int got = counter && w->drv.nvml_total_energy(w->nvml_dev, &mj) == 0;
        double p = counter ? NAN : power_w(w);
        double t = cutune_now();
        pthread_mutex_lock(&e->mu);
        if (!e->stop && counter && got)
            counter_seen(e, mj, t);
        else if (!e->stop && !counter)
            power_add(e, t, p);
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

void worker_energy_watch(worker *w)
{
    w->energy.reasons = 0;
    w->energy.watch = w->nvml_dev != NULL;
}

void worker_energy_poll(worker *w)
{
    worker_energy *e = &w->energy;
    if (!e->open && !e->watch)
        return;
    unsigned long long reasons = 0, mj = 0;
    int got_reasons =
        w->drv.nvml_clock_reasons && w->drv.nvml_clock_reasons(w->nvml_dev, &reasons) == 0;
    int got_mj = e->open && e->source == CUTUNE_CUDA_ENERGY_COUNTER &&
                 w->drv.nvml_total_energy(w->nvml_dev, &mj) == 0;
    double t = cutune_now();
    if (e->thread)
        pthread_mutex_lock(&e->mu);
    if (got_reasons)
        e->reasons |= reasons & ~REASON_GPU_IDLE;
    if (got_mj)
        counter_seen(e, mj, t);
    if (e->thread)
        pthread_mutex_unlock(&e->mu);
}

void worker_energy_begin(worker *w)
{
    worker_energy *e = &w->energy;
    e->open = 0;
    if (!w->nvml_dev)
        return;
    clocks_read(w, e->before);
    e->source = worker_energy_source(w);
    if (!e->watch)
        e->reasons = 0;
    e->readings = 0;
    e->step_mj = 0;
    e->first_t = e->last_t_mj = 0;
    e->first_mj = 0;
    e->joules = 0;
    e->nsamples = 0;
    e->stop = 0;
    e->thread = 0;
    e->t0 = cutune_now();
    if (e->source == CUTUNE_CUDA_ENERGY_COUNTER &&
        w->drv.nvml_total_energy(w->nvml_dev, &e->mj0) != 0)
        e->source = CUTUNE_CUDA_ENERGY_NONE;
    e->last_mj = e->mj0;
    if (e->source != CUTUNE_CUDA_ENERGY_NONE) {
        if (e->source == CUTUNE_CUDA_ENERGY_SAMPLED)
            power_add(e, e->t0, power_w(w));
        pthread_mutex_init(&e->mu, NULL);
        e->thread = pthread_create(&e->tid, NULL, poller, w) == 0;
        if (!e->thread) {
            pthread_mutex_destroy(&e->mu);
            /* the counter is still read at both ends; power needs its samples */
            if (e->source == CUTUNE_CUDA_ENERGY_SAMPLED)
                e->source = CUTUNE_CUDA_ENERGY_NONE;
        }
    }
    e->open = 1;
    worker_energy_poll(w);
}

void worker_energy_end(worker *w, uint64_t launches, double kernel_ms, int batched,
                       cutune_cuda_reply *r)
{
    worker_energy *e = &w->energy;
    if (!e->open)
        return;
    worker_energy_poll(w);
    if (e->thread) {
        pthread_mutex_lock(&e->mu);
        e->stop = 1;
        pthread_mutex_unlock(&e->mu);
        pthread_join(e->tid, NULL);
        pthread_mutex_destroy(&e->mu);
        e->thread = 0;
    }
    double t1 = cutune_now(), joules = NAN, per_launch = NAN, resolution = NAN;
    unsigned long long mj1 = 0;
    uint64_t readings = 0;
    int interior = 0;
    if (e->source == CUTUNE_CUDA_ENERGY_COUNTER) {
        if (w->drv.nvml_total_energy(w->nvml_dev, &mj1) == 0) {
            counter_seen(e, mj1, t1);
            /* a busy window that holds two of the counter's updates: the power between them
             * over the window's time per launch, free of the edges' quantisation */
            if (batched && e->readings >= 2)
                per_launch = cutune_cuda_energy_between(e->first_mj, e->first_t, e->last_mj,
                                                        e->last_t_mj, t1 - e->t0, launches);
            interior = isfinite(per_launch);
            if (interior)
                resolution = WORKER_COUNTER_PERIOD_S / (e->last_t_mj - e->first_t);
            else {
                per_launch = cutune_cuda_energy_per_launch(e->mj0, mj1, launches);
                resolution = cutune_cuda_energy_resolution(e->step_mj, e->mj0, mj1);
            }
            joules = per_launch * (double)launches;
        }
        readings = e->readings;
    } else if (e->source == CUTUNE_CUDA_ENERGY_SAMPLED) {
        power_add(e, t1, power_w(w));
        if (e->nsamples >= 2 && launches > 0) {
            joules = e->joules;
            per_launch = joules / (double)launches;
        }
        readings = e->nsamples;
    }
    e->open = 0;
    e->watch = 0;
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
    if (isfinite(per_launch) && t1 > e->t0) {
        worker_metric(r, "energy_j", per_launch);
        worker_metric(r, "power_w", joules / (t1 - e->t0));
        worker_metric(r, "energy_window_ms", (t1 - e->t0) * 1e3);
        worker_metric(r, "energy_launches", (double)launches);
        worker_metric(r, "energy_source", e->source);
        worker_metric(r, "energy_batched", batched);
        if (e->source == CUTUNE_CUDA_ENERGY_COUNTER)
            worker_metric(r, "energy_interior", interior);
        if (kernel_ms > 0)
            worker_metric(r, "energy_busy", (double)launches * kernel_ms * 1e-3 / (t1 - e->t0));
        if (isfinite(resolution)) {
            worker_metric(r, "energy_step_mj", (double)e->step_mj);
            worker_metric(r, "energy_resolution", resolution);
        }
        if (e->source == CUTUNE_CUDA_ENERGY_COUNTER && readings >= 2)
            worker_metric(r, "energy_update_ms",
                          (e->last_t_mj - e->first_t) * 1e3 / (double)(readings - 1));
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
