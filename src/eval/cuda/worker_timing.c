/* The worker's timing: warm-up (at least WARMUP_S, so that an idle GPU's clocks have
 * ramped up), then repetitions timed with events in batches until the median's 95% CI is
 * within ci_rel, max_reps are taken or max_time_s has passed; then the energy window.
 *
 * The energy window (worker_energy.c), where energy_window_s > 0 and energy_batch = 1, is
 * its own, after the timing: launches issued back to back, energy_window_s of them at the
 * timed median each (cutune_cuda_energy_batch), one synchronisation, more where the window
 * fell short; the counter is read at its edges, after a synchronisation. With no host
 * synchronisation between launches the GPU runs the kernel for the whole window instead of
 * idling between synchronised batches. Inout buffers restored by a device memset (zeros)
 * keep their restore before every launch, enqueued with it; a kernel with inout buffers
 * restored from host memory (a synchronous copy) cannot be launched back to back, and gets
 * the window around the timed repetitions instead, as energy_batch = 0 gives every kernel:
 * opened after the warm-up, closed after the last repetition, lengthened to
 * energy_window_s with synchronised batches of untimed launches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "worker_internal.h"

#define WARMUP_S 0.05 /* least warm-up time before timing */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Buffers marked inout (the kernel updates them in place: an accumulator, a histogram)
 * get their initial contents back before every launch, outside the timed events, so that
 * every repetition computes from the same inputs. *any says whether there are some. The
 * upload is synchronous: the previous launch finishes first. */
static cu_result restore_inout(worker *w, int *any)
{
    const cutune_cuda_setup *su = &w->setup;
    cu_result rc = CU_SUCCESS;
    *any = 0;
    for (uint32_t i = 0; i < su->nargs && rc == CU_SUCCESS; i++) {
        wbuf *b = &w->bufs[i];
        if (su->args[i].kind != CUTUNE_ARG_BUFFER || su->args[i].output != 2 || !b->bytes)
            continue;
        *any = 1;
        rc = b->zeros || !b->host_in ? w->drv.memset_d8_async(b->d, 0, b->bytes, NULL)
                                     : w->drv.memcpy_htod(b->d, b->host_in, b->bytes);
    }
    return rc;
}

/* 1 when every inout buffer is restored by a device memset (asynchronous), so that
 * launches with their restores go back to back. */
static int inout_async(const worker *w)
{
    const cutune_cuda_setup *su = &w->setup;
    for (uint32_t i = 0; i < su->nargs; i++) {
        const wbuf *b = &w->bufs[i];
        if (su->args[i].kind == CUTUNE_ARG_BUFFER && su->args[i].output == 2 && b->bytes &&
            !(b->zeros || !b->host_in))
            return 0;
    }
    return 1;
}

/* The back-to-back energy window (energy_batch=1): opened after a synchronisation, filled
 * with launches (each after its L2 flush and inout restore, all enqueued without waiting)
 * until it lasts energy_window_s, closed after the last synchronisation. A batch is sized
 * from the timed median, the next (where the window fell short: launch gaps, flushes) from
 * the window's wall time per launch so far. */
static cu_result energy_window(worker *w, cu_function f, const cutune_cuda_launch *l, void **params,
                               cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    cu_result rc = w->drv.ctx_synchronize();
    if (rc != CU_SUCCESS)
        return rc;
    worker_energy_begin(w);
    if (!w->energy.open)
        return CU_SUCCESS; /* no NVML: nothing to measure */
    if (w->energy.source == CUTUNE_CUDA_ENERGY_NONE) {
        worker_energy_end(w, 0, r->time_ms, 1, r); /* clocks only: no window to fill */
        return CU_SUCCESS;
    }
    double t0 = cutune_now(), per = r->time_ms * 1e-3;
    uint64_t launches = 0;
    for (;;) {
        double el = cutune_now() - t0;
        if (launches > 0)
            per = el / (double)launches;
        uint64_t m = cutune_cuda_energy_batch(su->energy_window_s - el, per);
        if (m == 0)
            break;
        for (uint64_t j = 0; j < m && rc == CU_SUCCESS; j++) {
            int any;
            if (su->flush_l2 && w->flush)
                rc = w->drv.memset_d8_async(w->flush, (unsigned char)j, w->flush_bytes, NULL);
            if (rc == CU_SUCCESS)
                rc = restore_inout(w, &any);
            if (rc == CU_SUCCESS)
                rc = worker_launch(w, f, l->grid, l->block, l->smem, params);
            launches += rc == CU_SUCCESS;
        }
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
        if (rc != CU_SUCCESS)
            return rc;
        worker_energy_poll(w);
    }
    worker_energy_end(w, launches, r->time_ms, 1, r);
    return CU_SUCCESS;
}

/* One untimed launch, inout buffers restored first. */
static cu_result launch_restored(worker *w, cu_function f, const cutune_cuda_launch *l,
                                 void **params)
{
    int any;
    cu_result rc = restore_inout(w, &any);
    return rc == CU_SUCCESS ? worker_launch(w, f, l->grid, l->block, l->smem, params) : rc;
}

/* Warm up, then timed repetitions in batches until the median's CI is tight
 * enough, max_reps are taken or max_time_s has passed. */
int worker_time_kernel(worker *w, cu_function f, const cutune_cuda_launch *l, void **params,
                       double verify_s, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    cu_result rc = CU_SUCCESS;
    int max_reps = su->max_reps > 0 ? su->max_reps : 100;
    int min_reps = su->min_reps > 0 ? su->min_reps : 10;
    double t0 = cutune_now();
    double *sorted = NULL;
    int batched = 0; /* the energy window is its own, back to back, after the timing */
    r->times = calloc((size_t)max_reps, sizeof *r->times);
    sorted = calloc((size_t)max_reps, sizeof *sorted);
    if (!r->times || !sorted) {
        free(sorted);
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "out of host memory for the timings");
        return -1;
    }
    for (; w->nev < 2 * WORKER_BATCH; w->nev++) {
        if ((rc = w->drv.event_create(&w->ev[w->nev], 0)) != CU_SUCCESS) {
            worker_runtime_fail(w, r, "cuEventCreate", rc);
            goto out_fail;
        }
    }
    for (int i = 0; i < su->warmup; i++) {
        if ((rc = launch_restored(w, f, l, params)) != CU_SUCCESS)
            break;
    }
    if (rc == CU_SUCCESS || su->warmup <= 0)
        rc = w->drv.ctx_synchronize();
    /* Short kernels also get WARMUP_S of launches: an idle GPU's clocks
     * ramp up over tens of milliseconds, and the first repetitions would
     * otherwise time a slower chip. A batch holds no more launches than the
     * time left needs (at the first launch's time each), so that a long kernel
     * does not run ten more when one would reach WARMUP_S. */
    for (int i = 0; rc == CU_SUCCESS && su->warmup > 0 && i < 100 && cutune_now() - t0 < WARMUP_S;
         i++) {
        double left = WARMUP_S - (cutune_now() - t0);
        int m = verify_s > 0 && left / verify_s < WORKER_BATCH ? (int)ceil(left / verify_s)
                                                               : WORKER_BATCH;
        for (int j = 0; j < (m < 1 ? 1 : m) && rc == CU_SUCCESS; j++)
            rc = launch_restored(w, f, l, params);
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
    }
    if (rc != CU_SUCCESS) {
        worker_runtime_fail(w, r, "warm-up launch", rc);
        goto out_fail;
    }
    worker_metric(r, "worker_warmup_ms", (cutune_now() - t0) * 1e3);
    batched = su->energy_batch && su->energy_window_s > 0 && inout_async(w);
    if (!batched)
        worker_energy_begin(w);
    else
        worker_energy_watch(w);
    t0 = cutune_now();
    /* Long kernels get small batches so the time bound holds. */
    int batch = verify_s > 0 ? (int)(0.05 / verify_s) : WORKER_BATCH;
    batch = batch < 1 ? 1 : batch > WORKER_BATCH ? WORKER_BATCH : batch;
    uint32_t n = 0;
    while (n < (uint32_t)max_reps) {
        int m = (int)((uint32_t)max_reps - n < (uint32_t)batch ? (uint32_t)max_reps - n
                                                               : (uint32_t)batch);
        for (int j = 0; j < m; j++) {
            if (su->flush_l2 && w->flush &&
                (rc = w->drv.memset_d8_async(w->flush, (unsigned char)j, w->flush_bytes, NULL)) !=
                    CU_SUCCESS)
                break;
            int any;
            if ((rc = restore_inout(w, &any)) != CU_SUCCESS)
                break;
            if ((rc = w->drv.event_record(w->ev[2 * j], NULL)) != CU_SUCCESS ||
                (rc = worker_launch(w, f, l->grid, l->block, l->smem, params)) != CU_SUCCESS ||
                (rc = w->drv.event_record(w->ev[2 * j + 1], NULL)) != CU_SUCCESS)
                break;
        }
        if (rc == CU_SUCCESS)
            rc = w->drv.event_synchronize(w->ev[2 * m - 1]);
        if (rc != CU_SUCCESS) {
            worker_runtime_fail(w, r, "timed launch", rc);
            goto out_fail;
        }
        worker_energy_poll(w);
        for (int j = 0; j < m; j++) {
            float ms = 0;
            if ((rc = w->drv.event_elapsed_time(&ms, w->ev[2 * j], w->ev[2 * j + 1])) !=
                CU_SUCCESS) {
                worker_runtime_fail(w, r, "cuEventElapsedTime", rc);
                goto out_fail;
            }
            r->times[n++] = ms;
        }
        memcpy(sorted, r->times, n * sizeof *sorted);
        qsort(sorted, n, sizeof *sorted, cmp_double);
        double med = median_sorted(sorted, n);
        size_t lo, hi;
        cutune_cuda_median_ci(n, &lo, &hi);
        r->ntimes = n;
        r->time_ms = med;
        if (n >= (uint32_t)min_reps && sorted[hi] - sorted[lo] <= 2.0 * su->ci_rel * med)
            break;
        if (cutune_now() - t0 >= su->max_time_s)
            break;
    }
    worker_metric(r, "worker_timing_ms", (cutune_now() - t0) * 1e3);
    /* A window shorter than energy_window_s is lengthened with more launches of the same
     * kernel (untimed), so that the energy counter or the power samples resolve it. */
    uint64_t launches = n;
    while (!batched && w->energy.open && cutune_now() - t0 < su->energy_window_s &&
           rc == CU_SUCCESS) {
        for (int j = 0; j < batch && rc == CU_SUCCESS; j++) {
            if (su->flush_l2 && w->flush)
                rc = w->drv.memset_d8_async(w->flush, (unsigned char)j, w->flush_bytes, NULL);
            if (rc == CU_SUCCESS)
                rc = launch_restored(w, f, l, params);
            launches += rc == CU_SUCCESS;
        }
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
        if (rc != CU_SUCCESS) {
            worker_runtime_fail(w, r, "energy window launch", rc);
            goto out_fail;
        }
        worker_energy_poll(w);
    }
    if (!batched)
        worker_energy_end(w, launches, r->time_ms, 0, r);
    else if (r->time_ms > 0.0 && (rc = energy_window(w, f, l, params, r)) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "energy window launch", rc);
        goto out_fail;
    }
    if (!(r->time_ms > 0.0)) { /* below the event timer's resolution: not a measurement (a
                                  zero time would also be refused by every recording loader) */
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "timed median %g ms over %u runs: below the event timer's resolution",
                   r->time_ms, (unsigned)n);
        r->ntimes = 0;
        free(sorted);
        return -1;
    }
    worker_metric(r, "repetitions", n);
    free(sorted);
    return 0;
out_fail:
    if (w->energy.open)
        worker_energy_end(w, 0, 0, batched, r); /* stops the poller; no energy without launches */
    w->energy.watch = 0;
    free(sorted);
    return -1;
}
