/* The worker: the only process of a run that touches the GPU. A kernel that
 * faults poisons its CUDA context and one that hangs never returns, so they
 * run here, where the parent can kill and replace the whole process.
 *
 * One LAUNCH = load the CUBIN, check the launch against the device's limits
 * (over a limit: launch_error, never launched), verify once against the
 * reference on restored inputs with poisoned outputs, then time with events
 * until the median is known to ci_rel. Each LAUNCH's reply carries the time
 * of each phase (worker_*_ms metrics).
 *
 * The parts: this file (start-up, the message loop, the phases of one evaluation and the
 * reply), worker_buffers.c (buffers, inputs and reference outputs, cached per size),
 * worker_verify.c (the comparison with the reference), worker_timing.c (warm-up and timed
 * repetitions); worker_internal.h holds the state they share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker_internal.h"

/* ---- the reply: log, metrics, errors ---- */

void worker_log(cutune_cuda_reply *r, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t old = r->log ? strlen(r->log) : 0;
    char *n = realloc(r->log, old + strlen(line) + 2);
    if (!n)
        return;
    if (old)
        n[old++] = '\n';
    strcpy(n + old, line);
    r->log = n;
}

void worker_metric(cutune_cuda_reply *r, const char *name, double v)
{
    if (r->nmetrics >= CUTUNE_MAX_METRICS)
        return;
    snprintf(r->metrics[r->nmetrics].name, sizeof r->metrics[0].name, "%s", name);
    r->metrics[r->nmetrics].value = v;
    r->nmetrics++;
}

const char *worker_strerror(const worker *w, cu_result rc, char *buf, size_t len)
{
    return cutune_cuda_drv_strerror(&w->drv, rc, buf, len);
}

/* A CUDA error after the kernel was launched: runtime_error; the context is
 * gone after a sticky error, so the worker says so and exits. */
void worker_runtime_fail(worker *w, cutune_cuda_reply *r, const char *what, cu_result rc)
{
    char eb[256];
    r->status = CUTUNE_STATUS_RUNTIME_ERROR;
    r->fatal = 1; /* even a non-sticky error here leaves state we cannot trust */
    worker_log(r, "%s: %s", what, worker_strerror(w, rc, eb, sizeof eb));
}

/* ---- one evaluation ---- */

static void evaluate(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    cu_module mod = NULL;
    cu_function f = NULL;
    cu_result rc;
    char eb[256];
    cutune_cuda_buf pb = {0};
    void *image = NULL;
    double t_all = cutune_now(), t = t_all;
    r->status = CUTUNE_STATUS_OK;
    w->cold = 0;

    if (!w->have_setup || l->nargs != su->nargs) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "worker: launch before setup or with %u args (setup has %u)", l->nargs,
                   su->nargs);
        return;
    }
    /* The CUBIN sits at an arbitrary offset in the message; the ELF loader
     * gets it at malloc alignment. */
    image = malloc(l->cubin_size ? l->cubin_size : 1);
    if (!image) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "out of host memory for the CUBIN");
        goto out;
    }
    memcpy(image, l->cubin, l->cubin_size);
    if ((rc = w->drv.module_load_data(&mod, image)) != CU_SUCCESS) {
        mod = NULL;
        r->status = CUTUNE_STATUS_COMPILE_ERROR;
        worker_log(r, "loading the CUBIN: %s", worker_strerror(w, rc, eb, sizeof eb));
        goto out;
    }
    if ((rc = w->drv.module_get_function(&f, mod, l->kernel)) != CU_SUCCESS) {
        r->status = CUTUNE_STATUS_COMPILE_ERROR;
        worker_log(r, "kernel '%s' not found in the module (extern \"C\"?): %s", l->kernel,
                   worker_strerror(w, rc, eb, sizeof eb));
        goto out;
    }
    int regs = 0, local = 0, ssmem = 0, fmax = 0;
    w->drv.func_get_attribute(&regs, CU_FUNC_NUM_REGS, f);
    w->drv.func_get_attribute(&local, CU_FUNC_LOCAL_SIZE_BYTES, f);
    w->drv.func_get_attribute(&ssmem, CU_FUNC_SHARED_SIZE_BYTES, f);
    w->drv.func_get_attribute(&fmax, CU_FUNC_MAX_THREADS_PER_BLOCK, f);
    worker_metric(r, "registers", regs);
    worker_metric(r, "local_bytes", local);
    worker_metric(r, "static_smem", ssmem);
    worker_metric(r, "dynamic_smem", (double)l->smem);
    worker_metric(r, "max_threads_per_block", fmax);

    /* Limits first: a launch over them is a launch_error and never launched. */
    int64_t threads = l->block[0] * l->block[1] * l->block[2];
    static const char *const axis = "xyz";
    for (int i = 0; i < 3; i++) {
        if (l->block[i] < 1 || l->block[i] > w->max_block[i]) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "block.%c = %lld is outside 1..%d", axis[i], (long long)l->block[i],
                       w->max_block[i]);
        }
        if (l->grid[i] < 1 || l->grid[i] > w->max_grid[i]) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "grid.%c = %lld is outside 1..%d", axis[i], (long long)l->grid[i],
                       w->max_grid[i]);
        }
    }
    if (r->status == CUTUNE_STATUS_OK && threads > fmax) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        worker_log(r, "%lld threads per block exceed the kernel's limit of %d (%d registers)",
                   (long long)threads, fmax, regs);
    }
    if (l->smem < 0 || l->smem + ssmem > w->smem_optin) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        worker_log(r, "shared memory %lld dynamic + %d static bytes exceeds the limit of %d",
                   (long long)l->smem, ssmem, w->smem_optin);
    }
    if (r->status != CUTUNE_STATUS_OK)
        goto out;
    if (l->smem + ssmem > w->smem_block) {
        rc = w->drv.func_set_attribute(f, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->smem);
        if (rc != CU_SUCCESS) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "opting in to %lld bytes of dynamic shared memory: %s",
                       (long long)l->smem, worker_strerror(w, rc, eb, sizeof eb));
            goto out;
        }
    }
    int nb = 0;
    if (w->drv.occupancy_max_active_blocks(&nb, f, (int)threads, (size_t)l->smem) == CU_SUCCESS &&
        w->threads_sm > 0)
        worker_metric(r, "occupancy", (double)nb * (double)threads / w->threads_sm);

    worker_metric(r, "worker_load_ms", (cutune_now() - t) * 1e3);

    /* Buffers, inputs and the reference: cached, so all but free after the first launch. */
    t = cutune_now();
    int setup_rc = worker_buffers_ensure(w, l, r);
    if (setup_rc == 0)
        setup_rc = worker_reference_ensure(w, l, r);
    worker_metric(r, "worker_setup_ms", (cutune_now() - t) * 1e3);
    worker_metric(r, "worker_cached", !w->cold);
    if (setup_rc < 0)
        goto out;

    /* Verification: restored inputs, poisoned outputs, one launch. */
    t = cutune_now();
    if ((rc = worker_buffers_restore(w)) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "preparing buffers", rc);
        goto out;
    }
    worker_metric(r, "worker_restore_ms", (cutune_now() - t) * 1e3);
    void *params[CUTUNE_CUDA_MAX_ARGS];
    worker_params_fill(w, l, params);
    if (cutune_cuda_encode_progress(&pb, CUTUNE_CUDA_PHASE_VERIFY) < 0 ||
        cutune_cuda_send(w->fd, &pb) < 0) {
        r->fatal = 1;
        goto out;
    }
    double tv = cutune_now();
    rc = worker_launch(w, f, l->grid, l->block, l->smem, params);
    if (rc != CU_SUCCESS) {
        if (cutune_cuda_error_is_sticky(rc)) {
            worker_runtime_fail(w, r, "launch", rc);
        } else {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            worker_log(r, "launch: %s", worker_strerror(w, rc, eb, sizeof eb));
        }
        goto out;
    }
    if ((rc = w->drv.ctx_synchronize()) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "kernel execution", rc);
        goto out;
    }
    tv = cutune_now() - tv;
    worker_metric(r, "worker_launch_ms", tv * 1e3);
    /* The kernel is done; copying large outputs back and comparing them on the host
     * can take longer than a kernel is allowed, so say so (setup time limit again). */
    pb.len = 0;
    if (cutune_cuda_encode_progress(&pb, CUTUNE_CUDA_PHASE_CHECK) < 0 ||
        cutune_cuda_send(w->fd, &pb) < 0) {
        r->fatal = 1;
        goto out;
    }
    t = cutune_now();
    if ((rc = worker_buffers_download(w, 0)) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "reading outputs", rc);
        goto out;
    }
    int verified = worker_verify(w, r);
    worker_metric(r, "worker_verify_ms", (cutune_now() - t) * 1e3);
    if (!verified) {
        r->status = CUTUNE_STATUS_WRONG_RESULT;
        goto out;
    }

    pb.len = 0;
    if (cutune_cuda_encode_progress(&pb, CUTUNE_CUDA_PHASE_TIME) < 0 ||
        cutune_cuda_send(w->fd, &pb) < 0) {
        r->fatal = 1;
        goto out;
    }
    uint32_t nmetrics = r->nmetrics;
    if (worker_time_kernel(w, f, l, params, tv, r) < 0)
        goto out;
    if (worker_energy_throttled(w)) {
        /* A thermal or hardware slowdown during the measurement: once more, and the reply
         * says so (throttled stays 1 when it happened again). */
        r->nmetrics = nmetrics;
        free(r->times);
        r->times = NULL;
        r->ntimes = 0;
        if (worker_time_kernel(w, f, l, params, tv, r) < 0)
            goto out;
        worker_metric(r, "remeasured", 1);
    }
out:
    if (r->status != CUTUNE_STATUS_OK) {
        free(r->times);
        r->times = NULL;
        r->ntimes = 0;
        r->time_ms = 0;
    }
    if (mod && !r->fatal)
        w->drv.module_unload(mod);
    free(image);
    cutune_cuda_buf_free(&pb);
    worker_metric(r, "worker_total_ms", (cutune_now() - t_all) * 1e3);
}

/* ---- start-up and the loop ---- */

static void hello_fill(worker *w, cutune_cuda_hello *h)
{
    char eb[256];
    cu_result rc;
    int n = 0, ord = 0;
    const char *ordenv = getenv("CUTUNE_CUDA_DEVICE");
    if (ordenv && *ordenv)
        ord = atoi(ordenv);
    if ((rc = w->drv.init(0)) != CU_SUCCESS) {
        h->rc = CUTUNE_ENODEV;
        snprintf(h->msg, sizeof h->msg, "no CUDA device (cuInit: %s)",
                 worker_strerror(w, rc, eb, sizeof eb));
        return;
    }
    if (w->drv.device_get_count(&n) != CU_SUCCESS || n <= ord) {
        h->rc = CUTUNE_ENODEV;
        snprintf(h->msg, sizeof h->msg, n ? "no CUDA device %d (%d found)" : "no CUDA device", ord,
                 n);
        return;
    }
    if ((rc = w->drv.device_get(&w->dev, ord)) != CU_SUCCESS ||
        (rc = w->drv.primary_ctx_retain(&w->ctx, w->dev)) != CU_SUCCESS ||
        (rc = w->drv.ctx_set_current(w->ctx)) != CU_SUCCESS) {
        h->rc = CUTUNE_ENODEV;
        snprintf(h->msg, sizeof h->msg, "CUDA device %d unusable: %s", ord,
                 worker_strerror(w, rc, eb, sizeof eb));
        w->ctx = NULL;
        return;
    }
    w->drv.device_get_name(h->name, sizeof h->name, w->dev);
    w->drv.driver_get_version(&h->driver_version);
    h->device_count = n;
    h->ordinal = ord;
    if (w->drv.device_get_pci_bus_id(h->pci_bus_id, sizeof h->pci_bus_id, w->dev) != CU_SUCCESS)
        h->pci_bus_id[0] = '\0';
    unsigned char u[16];
    if (w->drv.device_get_uuid && w->drv.device_get_uuid(u, w->dev) == CU_SUCCESS)
        snprintf(h->uuid, sizeof h->uuid,
                 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                 u[14], u[15]);
    struct {
        int *v;
        int attr;
    } attrs[] = {
        {&h->cc_major, CU_DEV_CC_MAJOR},
        {&h->cc_minor, CU_DEV_CC_MINOR},
        {&h->sm_count, CU_DEV_MULTIPROCESSOR_COUNT},
        {&w->max_threads, CU_DEV_MAX_THREADS_PER_BLOCK},
        {&w->max_block[0], CU_DEV_MAX_BLOCK_DIM_X},
        {&w->max_block[1], CU_DEV_MAX_BLOCK_DIM_Y},
        {&w->max_block[2], CU_DEV_MAX_BLOCK_DIM_Z},
        {&w->max_grid[0], CU_DEV_MAX_GRID_DIM_X},
        {&w->max_grid[1], CU_DEV_MAX_GRID_DIM_Y},
        {&w->max_grid[2], CU_DEV_MAX_GRID_DIM_Z},
        {&w->smem_block, CU_DEV_MAX_SHARED_PER_BLOCK},
        {&w->smem_optin, CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN},
        {&w->threads_sm, CU_DEV_MAX_THREADS_PER_SM},
        {&w->l2, CU_DEV_L2_CACHE_SIZE},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        if (w->drv.device_get_attribute(attrs[i].v, attrs[i].attr, w->dev) != CU_SUCCESS)
            *attrs[i].v = 0;
    if (w->smem_optin < w->smem_block)
        w->smem_optin = w->smem_block;
    if (w->drv.nvml_init && w->drv.nvml_init() == 0) {
        char bus[64] = "";
        if (w->drv.device_get_pci_bus_id(bus, sizeof bus, w->dev) != CU_SUCCESS ||
            w->drv.nvml_device_by_pci(bus, &w->nvml_dev) != 0)
            w->nvml_dev = NULL;
    }
    h->energy_source = worker_energy_source(w);
    h->rc = 0;
}

static int setup_take(worker *w, cutune_cuda_buf *msg, char *err, size_t errlen)
{
    /* The decoded setup keeps a view of the reference CUBIN: own the bytes. */
    uint8_t *copy = malloc(msg->len ? msg->len : 1);
    if (!copy)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    memcpy(copy, msg->data, msg->len);
    cutune_cuda_setup s;
    if (cutune_cuda_decode_setup(copy, msg->len, &s) < 0) {
        free(copy);
        return cutune_err(err, errlen, CUTUNE_EPARSE, "bad SETUP message");
    }
    worker_buffers_free(w);
    if (w->ref_mod)
        w->drv.module_unload(w->ref_mod);
    w->ref_mod = NULL;
    w->ref_fn = NULL;
    memset(w->gen_fn, 0, sizeof w->gen_fn);
    free(w->setup_bytes);
    w->setup_bytes = copy;
    w->setup = s;
    w->have_setup = 1;
    if (s.flush_l2 && !w->flush && w->l2 > 0) {
        /* Writing twice the L2's size evicts what the last repetition left. */
        w->flush_bytes = 2 * (size_t)w->l2;
        if (w->drv.mem_alloc(&w->flush, w->flush_bytes) != CU_SUCCESS)
            w->flush = 0;
    }
    return 0;
}

int cutune_cuda_worker_main(int fd, const cutune_cuda_drv *drv)
{
    /* aligned as its members ask: calloc gives 16 bytes, and a CUtensorMap (w->tmaps) must
     * sit on 64 (cuTensorMapEncodeTiled refuses, or a kernel reads a torn map) */
    size_t wsize = (sizeof(worker) + _Alignof(worker) - 1) / _Alignof(worker) * _Alignof(worker);
    worker *w = aligned_alloc(_Alignof(worker), wsize);
    if (w)
        memset(w, 0, wsize);
    cutune_cuda_buf msg = {0}, out = {0};
    cutune_cuda_hello h = {.proto = CUTUNE_CUDA_PROTO_VERSION};
    char err[256];
    int status = 1;
    if (!w)
        return 1;
    w->fd = fd;
    if (drv) {
        w->drv = *drv;
    } else if (cutune_cuda_drv_load(&w->drv, h.msg, sizeof h.msg) < 0) {
        h.rc = CUTUNE_ENODEV;
        goto out_hello;
    }
    hello_fill(w, &h);
out_hello:
    if (cutune_cuda_encode_hello(&out, &h) < 0 || cutune_cuda_send(fd, &out) < 0 || h.rc < 0)
        goto out_free;
    for (;;) {
        uint32_t type;
        int rc = cutune_cuda_recv(fd, -1, &type, &msg, err, sizeof err);
        if (rc < 0) {
            status = rc == CUTUNE_EIO ? 0 : 1; /* EOF: the parent went away */
            break;
        }
        if (type == CUTUNE_CUDA_MSG_QUIT) {
            status = 0;
            break;
        }
        if (type == CUTUNE_CUDA_MSG_SETUP) {
            if (setup_take(w, &msg, err, sizeof err) < 0) {
                fprintf(stderr, "cutune worker: %s\n", err);
                break;
            }
            continue;
        }
        if (type != CUTUNE_CUDA_MSG_LAUNCH) {
            fprintf(stderr, "cutune worker: unknown message %08x\n", type);
            break;
        }
        cutune_cuda_launch l;
        cutune_cuda_reply r = {0};
        if (cutune_cuda_decode_launch(msg.data, msg.len, &l) < 0) {
            r.status = CUTUNE_STATUS_RUNTIME_ERROR;
            r.fatal = 1;
            worker_log(&r, "worker: bad LAUNCH message");
        } else {
            evaluate(w, &l, &r);
        }
        out.len = 0;
        rc = cutune_cuda_encode_reply(&out, &r);
        if (rc == 0)
            rc = cutune_cuda_send(fd, &out);
        int fatal = r.fatal;
        cutune_cuda_reply_clear(&r);
        if (rc < 0 || fatal) {
            /* Poisoned context: no cleanup through the driver, just leave (page-locked
             * host buffers go with the process). */
            status = fatal ? 3 : 1;
            for (int i = 0; i < CUTUNE_CUDA_MAX_ARGS; i++) {
                if (!w->bufs[i].in_pinned)
                    free(w->bufs[i].host_in);
                if (!w->bufs[i].out_pinned)
                    free(w->bufs[i].host_out);
                free(w->bufs[i].host_ref);
            }
            h.rc = 0;
            w->ctx = NULL;
            goto out_free;
        }
    }
    if (w->ctx) {
        worker_buffers_free(w);
        if (w->flush)
            w->drv.mem_free(w->flush);
        for (int i = 0; i < w->nev; i++)
            w->drv.event_destroy(w->ev[i]);
        if (w->blas)
            w->drv.cublas_destroy(w->blas);
        if (w->ref_mod)
            w->drv.module_unload(w->ref_mod);
        w->drv.primary_ctx_release(w->dev);
    }
    if (w->nvml_dev && w->drv.nvml_shutdown)
        w->drv.nvml_shutdown();
out_free:
    if (!drv && status != 3)
        cutune_cuda_drv_unload(&w->drv);
    free(w->setup_bytes);
    free(w->ref_image);
    free(w);
    cutune_cuda_buf_free(&msg);
    cutune_cuda_buf_free(&out);
    return status;
}
