/* The worker's state (worker.c: the message loop and one evaluation), shared by the files
 * that act on it: worker_buffers.c (device buffers, their inputs and the reference
 * outputs, cached per size), worker_verify.c (outputs against the reference) and
 * worker_timing.c (warm-up and timed repetitions). The parent never includes it. */
#ifndef CUTUNE_EVAL_CUDA_WORKER_INTERNAL_H
#define CUTUNE_EVAL_CUDA_WORKER_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuda_internal.h"

#include <pthread.h>

#define WORKER_BATCH 10               /* timed launches per synchronisation */
#define WORKER_POWER_PERIOD_S 0.005   /* power sampling period when NVML has no energy counter */
#define WORKER_COUNTER_PERIOD_S 0.001 /* energy counter polling period inside the window */
/* NVML clock event reasons: software power cap (0x4), hardware slowdown (0x8), software
 * and hardware thermal slowdown (0x20, 0x40), hardware power brake (0x80) */
#define WORKER_THROTTLE_FLAG 0xECull
/* ... of which these make the worker measure again, once: a thermal or hardware slowdown
 * is an accident of the moment; a power cap is how a power-bound kernel always runs */
#define WORKER_THROTTLE_REPEAT 0xE8ull

/** One energy measurement window (worker_energy.c). */
typedef struct worker_energy {
    int open;                    /**< between begin and end */
    int watch;                   /**< throttle reasons collected outside the window too (from
                                      worker_energy_watch to the window's end) */
    int source;                  /**< cutune_cuda_energy_source of this window */
    double t0;                   /**< wall time when the window opened */
    double before[3];            /**< SM clock, memory clock (MHz), temperature (C); NaN unread */
    unsigned long long mj0;      /**< counter when the window opened */
    unsigned long long last_mj;  /**< counter at the last poll */
    uint64_t readings;           /**< distinct counter values seen after mj0 */
    unsigned long long step_mj;  /**< the counter's largest change between two polls */
    double first_t, last_t_mj;   /**< when the polls first and last saw the counter change */
    unsigned long long first_mj; /**< the counter at its first change in the window */
    unsigned long long reasons;  /**< clock event reasons OR'd over the polls */
    pthread_mutex_t mu;          /**< guards every field the poller thread writes */
    pthread_t tid;
    int thread;    /**< the poller thread runs (counter polls or power samples) */
    int stop;      /**< asks the sampler to stop */
    double joules; /**< sampled: trapezoidal integral so far */
    double last_t, last_p;
    uint64_t nsamples;
} worker_energy;

typedef struct wbuf {
    cu_deviceptr d; /**< device allocation, or 0 */
    size_t count;   /**< elements */
    size_t bytes;
    int in;          /**< holds inputs at this launch (not an output, or C read with beta != 0) */
    int zeros;       /**< the inputs are all zeros: restored by a device memset, no host copy */
    void *host_in;   /**< generated inputs, uploaded before each run (non-zero inputs), or NULL */
    void *host_ref;  /**< reference output (outputs only) */
    void *host_out;  /**< downloaded output (outputs only) */
    int in_pinned;   /**< host_in is page-locked (cuMemAllocHost) */
    int out_pinned;  /**< host_out is page-locked */
    double ref_den;  /**< sum of the finite reference elements' squares (outputs) */
    size_t ref_nans; /**< NaN elements of the reference (outputs) */
} wbuf;

typedef struct worker {
    cutune_cuda_drv drv;
    int fd;
    cu_device dev;
    cu_context ctx;
    int max_threads, max_block[3], max_grid[3], smem_block, smem_optin, threads_sm, l2;
    void *nvml_dev;
    uint8_t *setup_bytes; /**< owns the SETUP payload */
    void *ref_image;      /**< aligned copy of the reference CUBIN */
    cutune_cuda_setup setup;
    int have_setup;
    wbuf bufs[CUTUNE_CUDA_MAX_ARGS];
    /** TENSORMAP arguments: the encoded CUtensorMap of each (worker_tensormap.c) */
    struct worker_tmap {
        _Alignas(64) uint64_t bytes[16];
    } tmaps[CUTUNE_CUDA_MAX_ARGS];
    size_t pinned_bytes; /**< page-locked host bytes held by bufs */
    int ref_valid;       /**< host_ref matches the key ref_count/ref_bits */
    uint64_t ref_count[CUTUNE_CUDA_MAX_ARGS], ref_bits[CUTUNE_CUDA_MAX_ARGS];
    cu_module ref_mod; /**< the sizes-only module: reference and generator kernels */
    cu_function ref_fn;
    cu_function gen_fn[CUTUNE_CUDA_MAX_ARGS]; /**< init KERNEL generators, looked up once */
    void *blas;
    cu_deviceptr flush;
    size_t flush_bytes;
    cu_event ev[2 * WORKER_BATCH];
    int nev;
    int cold;             /**< this launch allocated or generated buffers or ran the reference */
    worker_energy energy; /**< the energy window of the current measurement */
} worker;

/* ---- worker.c: the reply ---- */

/** Append a line to the reply's log (dropped when out of memory). */
void worker_log(cutune_cuda_reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Add metric name = v to the reply (dropped past CUTUNE_MAX_METRICS). */
void worker_metric(cutune_cuda_reply *r, const char *name, double v);
/** The driver's name and text of rc, in buf. */
const char *worker_strerror(const worker *w, cu_result rc, char *buf, size_t len);
/** A CUDA error after the kernel was launched: runtime_error, and the worker exits. */
void worker_runtime_fail(worker *w, cutune_cuda_reply *r, const char *what, cu_result rc);

/* ---- worker_tensormap.c: TMA descriptors of the buffers ---- */

/** Encode every tensormap argument of l over its buffer's current allocation (w->tmaps).
 * 0, or -1 with r's status (launch_error) and log set. */
int worker_tensormaps_encode(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r);

/** The built-in reference cublas_gemm_abt (worker_gemm_ref.c). 0, or -1 with r set. */
int worker_reference_gemm_abt(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r);

/* ---- worker_buffers.c: buffers, inputs and the reference, cached ---- */

/** Allocate the buffers of l's sizes and generate their inputs, where not cached. 0, or -1
 * with r's status and log set. */
int worker_buffers_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r);
/** Inputs uploaded again, outputs poisoned, then a synchronisation. */
cu_result worker_buffers_restore(worker *w);
/** Outputs copied to the host: into the reference (into_ref) or host_out. */
cu_result worker_buffers_download(worker *w, int into_ref);
/** Free every buffer (and so the reference). */
void worker_buffers_free(worker *w);
/** The kernel parameters of l: buffers' device pointers, scalars' bits. */
void worker_params_fill(worker *w, const cutune_cuda_launch *l, void **params);
/** Reference outputs for l's sizes and scalars, computed once. 0, or -1 with r set. */
int worker_reference_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r);

/* ---- worker_verify.c, worker_timing.c ---- */

/** 1 when every output matches the reference (rtol, atol, no NaN), else 0 with r's log
 * saying why; adds the rel_err and max_abs_err metrics. */
int worker_verify(worker *w, cutune_cuda_reply *r);
/** Warm up, then time repetitions until the median is known (r->times, r->time_ms);
 * verify_s: the verification launch's time. 0, or -1 with r set. */
int worker_time_kernel(worker *w, cu_function f, const cutune_cuda_launch *l, void **params,
                       double verify_s, cutune_cuda_reply *r);

/* ---- worker_energy.c: energy, power, clocks and throttling through NVML ---- */

/** How this worker can measure energy (cutune_cuda_energy_source). */
int worker_energy_source(const worker *w);
/** Open the energy window: clocks and temperature, the counter or the power sampler. */
void worker_energy_begin(worker *w);
/** Collect throttle reasons from now on (the timed repetitions before a back-to-back
 * window), so that the window's reasons cover the whole measurement. */
void worker_energy_watch(worker *w);
/** Inside the window (after each synchronisation): throttle reasons, counter updates;
 * outside it, under worker_energy_watch, throttle reasons alone. */
void worker_energy_poll(worker *w);
/** Close the window over launches kernel launches of kernel_ms each (the timed median) and
 * add its metrics to r; batched: the window was filled back to back (energy_batch). */
void worker_energy_end(worker *w, uint64_t launches, double kernel_ms, int batched,
                       cutune_cuda_reply *r);
/** 1 when the last window saw a slowdown worth measuring again (WORKER_THROTTLE_REPEAT). */
int worker_energy_throttled(const worker *w);

/* ---- inline: element reads (verification's loops), launches (timing's) ---- */

/* IEEE half -> double (exact). */
static inline double worker_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    int m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* bfloat16 -> double (exact: the top half of a float). */
static inline double worker_bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Element i of an array of cutune_elem_type type, as a double. */
static inline double worker_elem_get(const void *p, int type, size_t i)
{
    switch (type) {
    case CUTUNE_ELEM_FLOAT: return ((const float *)p)[i];
    case CUTUNE_ELEM_DOUBLE: return ((const double *)p)[i];
    case CUTUNE_ELEM_HALF: return worker_half_to_double(((const uint16_t *)p)[i]);
    case CUTUNE_ELEM_BF16: return worker_bf16_to_double(((const uint16_t *)p)[i]);
    case CUTUNE_ELEM_INT32: return ((const int32_t *)p)[i];
    case CUTUNE_ELEM_UINT32: return ((const uint32_t *)p)[i];
    case CUTUNE_ELEM_INT64: return (double)((const int64_t *)p)[i];
    default: return ((const uint8_t *)p)[i];
    }
}

/* Launch f with grid g, block bl, smem dynamic shared bytes, on the default stream. */
static inline cu_result worker_launch(worker *w, cu_function f, const int64_t *g, const int64_t *bl,
                                      int64_t smem, void **params)
{
    return w->drv.launch_kernel(f, (unsigned)g[0], (unsigned)g[1], (unsigned)g[2], (unsigned)bl[0],
                                (unsigned)bl[1], (unsigned)bl[2], (unsigned)smem, NULL, params,
                                NULL);
}

#endif
