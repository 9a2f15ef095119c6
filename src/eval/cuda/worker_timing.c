/* The worker's timing: warm-up (at least WARMUP_S, so that an idle GPU's clocks have
 * ramped up), then repetitions timed with events in batches until the median's 95% CI is
 * within ci_rel, max_reps are taken or max_time_s has passed. */
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
    worker_energy_begin(w);
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
    while (w->energy.open && cutune_now() - t0 < su->energy_window_s && rc == CU_SUCCESS) {
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
    worker_energy_end(w, launches, r);
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
        worker_energy_end(w, 0, r); /* stops the sampler; no energy without launches */
    free(sorted);
    return -1;
}
