/* A mock CUDA driver for the worker, included by the CPU tests of the CUDA
 * evaluator. "Device" memory is host memory, and kernels are host functions
 * chosen by name, so the worker's whole path (limits, buffers, reference,
 * verification, timing, fatal errors) runs without a GPU:
 *   add, ref_add   c = a + b                add_wrong  one element off
 *   fault          sync returns error 700   hang       sync never returns
 *   oor            launch returns 701       big        at most 128 threads
 *   abort          the worker aborts        missing    not in the module
 *   gen_*          a generator ("init": "kernel:NAME"): buf[i] = mock_gen_value(name, i),
 *                  each launch appended to $MOCK_CUDA_GEN_LOG as
 *                  "NAME gx gy gz bx by bz smem n seed"
 *   add_gen        add, but first checks that a and b hold gen_a's and gen_b's values
 *                  (else c[0] = NaN: a wrong result)
 *   add_half       writes only c[0 .. n/2)    add_late   c[n-1] one off
 *   add_clobber    add, then scribbles on a and b (its own result stays right)
 *   ref_nan, add_nan   add with c[5] = NaN
 *   slow           add, 5 ms in the launch
 *   add_tmap       add, but c[0] = NaN unless params[4] is the tensor map of a as
 *                  m_tmap_encode wrote it: float, dims {250, 4}, box {8, 2}, swizzle 0
 * cuTensorMapEncodeTiled (m_tmap_encode) writes its arguments into the map's words:
 * address, type, rank, dims[0..1], stride[0], box[0..1], swizzle; MOCK_CUDA_NOTMAP=1
 * makes it fail with CUDA_ERROR_INVALID_VALUE.
 *   acc, ref_acc   c += a in place, each launch logged to $MOCK_CUDA_LOG as "acc C0" (the
 *                  value c[0] held before it)
 * MOCK_CUDA_ELAPSED=MS sets what every timed pair of events reads (default 0.25).
 * MOCK_CUDA_LOG=FILE appends one line per allocation and transfer ("alloc BYTES", "free",
 * "hostalloc BYTES", "hostfree", "htod BYTES", "dtoh BYTES", "memset BYTES VALUE") and per
 * launch of a ref_* kernel or of slow ("launch NAME"), from every worker process;
 * MOCK_CUDA_NOPIN=1 refuses page-locked host memory (the worker falls back to malloc).
 * NVML: MOCK_NVML=none|clocks|power takes NVML away (wholly, its energy and power, its
 * energy counter); the counter advances at MOCK_NVML_POWER watts (300); MOCK_NVML_REASONS=N
 * is the clock event reasons read (for the first MOCK_NVML_REASONS_CALLS=K readings).
 * MOCK_CUDA=nodevice makes cuInit fail; MOCK_CUDA=real loads the real driver
 * (tests set CUTUNE_LIBCUDA to a missing file to get "no CUDA driver"). */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/eval/cuda/cuda_internal.h"

typedef struct mock_func {
    char name[64];
} mock_func;

static int mock_pending; /* 1: a fault is reported at the next sync; 2: hang */

static cu_result m_init(unsigned f)
{
    (void)f;
    const char *m = getenv("MOCK_CUDA");
    return m && !strcmp(m, "nodevice") ? CU_ERROR_NO_DEVICE : CU_SUCCESS;
}
static cu_result m_version(int *v)
{
    *v = 13000;
    return 0;
}
static cu_result m_count(int *n)
{
    *n = 1;
    return 0;
}
static cu_result m_get(cu_device *d, int o)
{
    *d = o;
    return 0;
}
static cu_result m_name(char *n, int len, cu_device d)
{
    (void)d;
    snprintf(n, (size_t)len, "Mock GPU");
    return 0;
}
static cu_result m_attr(int *v, int a, cu_device d)
{
    (void)d;
    switch (a) {
    case CU_DEV_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEV_MAX_BLOCK_DIM_X:
    case CU_DEV_MAX_BLOCK_DIM_Y: *v = 1024; break;
    case CU_DEV_MAX_BLOCK_DIM_Z: *v = 64; break;
    case CU_DEV_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEV_MAX_GRID_DIM_Y:
    case CU_DEV_MAX_GRID_DIM_Z: *v = 65535; break;
    case CU_DEV_MAX_SHARED_PER_BLOCK: *v = 49152; break;
    case CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN: *v = 232448; break;
    case CU_DEV_MULTIPROCESSOR_COUNT: *v = 132; break;
    case CU_DEV_MAX_THREADS_PER_SM: *v = 2048; break;
    case CU_DEV_L2_CACHE_SIZE: *v = 1 << 20; break;
    case CU_DEV_CC_MAJOR: *v = 9; break;
    case CU_DEV_CC_MINOR: *v = 0; break;
    default: *v = 0;
    }
    return 0;
}
static cu_result m_pci(char *id, int len, cu_device d)
{
    (void)d;
    snprintf(id, (size_t)len, "0000:00:01.0");
    return 0;
}
static cu_result m_retain(cu_context *c, cu_device d)
{
    (void)d;
    *c = (cu_context)1;
    return 0;
}
static cu_result m_release(cu_device d)
{
    (void)d;
    return 0;
}
static cu_result m_setcur(cu_context c)
{
    (void)c;
    return 0;
}
static cu_result m_sync(void)
{
    if (mock_pending == 2)
        for (;;)
            pause();
    return mock_pending == 1 ? CU_ERROR_ILLEGAL_ADDRESS : CU_SUCCESS;
}
static cu_result m_errstr(cu_result r, const char **s)
{
    *s = r == CU_ERROR_ILLEGAL_ADDRESS           ? "an illegal memory access was encountered"
         : r == CU_ERROR_LAUNCH_OUT_OF_RESOURCES ? "too many resources requested for launch"
                                                 : "mock error";
    return 0;
}
static cu_result m_modload(cu_module *m, const void *img)
{
    if (!strncmp(img, "BAD", 3))
        return CU_ERROR_INVALID_IMAGE;
    *m = (cu_module)2;
    return 0;
}
static cu_result m_modunload(cu_module m)
{
    (void)m;
    return 0;
}
static cu_result m_getfn(cu_function *f, cu_module m, const char *name)
{
    (void)m;
    if (!strcmp(name, "missing"))
        return CU_ERROR_NOT_FOUND;
    /* one handle per name, for the process's life (no leak for LeakSanitizer to see) */
    static mock_func funcs[64];
    size_t i = 0;
    while (i < 64 && funcs[i].name[0] && strcmp(funcs[i].name, name))
        i++;
    if (i == 64)
        return CU_ERROR_OUT_OF_MEMORY;
    snprintf(funcs[i].name, sizeof funcs[i].name, "%s", name);
    *f = (cu_function)&funcs[i];
    return 0;
}
static cu_result m_fattr(int *v, int a, cu_function f)
{
    const mock_func *mf = (const mock_func *)f;
    *v = a == CU_FUNC_MAX_THREADS_PER_BLOCK ? (!strcmp(mf->name, "big") ? 128 : 1024)
         : a == CU_FUNC_NUM_REGS            ? 32
                                            : 0;
    return 0;
}
static cu_result m_fset(cu_function f, int a, int v)
{
    (void)f;
    (void)a;
    (void)v;
    return 0;
}
static cu_result m_occ(int *n, cu_function f, int b, size_t s)
{
    (void)f;
    (void)s;
    *n = 2048 / (b > 0 ? b : 1);
    return 0;
}
static void mock_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void mock_log(const char *fmt, ...)
{
    const char *path = getenv("MOCK_CUDA_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* "Device" allocations (and page-locked host ones) stay reachable from here: a worker
 * that exits after a fault frees nothing through the driver (its context is gone), as
 * designed. */
static void *mock_allocs[256];
static void *mock_hold(size_t n)
{
    size_t i = 0;
    while (i < 256 && mock_allocs[i])
        i++;
    void *h = i < 256 ? calloc(1, n) : NULL;
    if (h)
        mock_allocs[i] = h;
    return h;
}
static void mock_release(void *p)
{
    for (size_t i = 0; i < 256; i++)
        if (mock_allocs[i] == p)
            mock_allocs[i] = NULL;
    free(p);
}
static cu_result m_alloc(cu_deviceptr *p, size_t n)
{
    void *h = mock_hold(n);
    if (!h)
        return CU_ERROR_OUT_OF_MEMORY;
    mock_log("alloc %zu", n);
    *p = (cu_deviceptr)(uintptr_t)h;
    return 0;
}
static cu_result m_free(cu_deviceptr p)
{
    mock_log("free");
    mock_release((void *)(uintptr_t)p);
    return 0;
}
static cu_result m_alloc_host(void **p, size_t n)
{
    const char *nopin = getenv("MOCK_CUDA_NOPIN");
    void *h = nopin && *nopin == '1' ? NULL : mock_hold(n);
    if (!h)
        return CU_ERROR_OUT_OF_MEMORY;
    mock_log("hostalloc %zu", n);
    *p = h;
    return 0;
}
static cu_result m_free_host(void *p)
{
    mock_log("hostfree");
    mock_release(p);
    return 0;
}
static cu_result m_htod(cu_deviceptr d, const void *s, size_t n)
{
    mock_log("htod %zu", n);
    memcpy((void *)(uintptr_t)d, s, n);
    return 0;
}
static cu_result m_dtoh(void *d, cu_deviceptr s, size_t n)
{
    mock_log("dtoh %zu", n);
    memcpy(d, (void *)(uintptr_t)s, n);
    return 0;
}
static cu_result m_memset(cu_deviceptr p, unsigned char v, size_t n)
{
    mock_log("memset %zu %u", n, (unsigned)v);
    memset((void *)(uintptr_t)p, v, n);
    return 0;
}
static cu_result m_memset_async(cu_deviceptr p, unsigned char v, size_t n, cu_stream s)
{
    (void)s;
    return m_memset(p, v, n);
}
/* What the mock generators write: a function of the name and the index only. */
static float mock_gen_value(const char *name, unsigned long long i)
{
    return !strcmp(name, "gen_a")   ? (float)(i % 251) * 0.5f
           : !strcmp(name, "gen_b") ? 1.0f - (float)(i % 127)
                                    : (float)(i % 7);
}

static cu_result mock_generate(const mock_func *mf, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz, unsigned smem, void **params)
{
    float *buf = (float *)(uintptr_t) * (cu_deviceptr *)params[0];
    unsigned long long n = *(unsigned long long *)params[1];
    unsigned seed = *(unsigned *)params[2];
    unsigned long long total = (unsigned long long)gx * gy * gz * bx * by * bz;
    for (unsigned long long i = 0; i < n && i < total; i++)
        buf[i] = mock_gen_value(mf->name, i);
    const char *log = getenv("MOCK_CUDA_GEN_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "%s %u %u %u %u %u %u %u %llu %u\n", mf->name, gx, gy, gz, bx, by, bz, smem, n,
                seed);
        fclose(f);
    }
    return 0;
}

static cu_result m_tmap_encode(void *map, int dtype, unsigned rank, void *addr,
                               const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
                               const uint32_t *es, int il, int sw, int l2, int oob)
{
    (void)es;
    (void)il;
    (void)l2;
    (void)oob;
    if (getenv("MOCK_CUDA_NOTMAP"))
        return 1;
    uint64_t *w = map;
    memset(w, 0, 128);
    w[0] = (uint64_t)(uintptr_t)addr;
    w[1] = (uint64_t)dtype;
    w[2] = rank;
    w[3] = dims[0];
    w[4] = rank > 1 ? dims[1] : 0;
    w[5] = rank > 1 ? strides[0] : 0;
    w[6] = box[0];
    w[7] = rank > 1 ? box[1] : 0;
    w[8] = (uint64_t)sw;
    return 0;
}

static cu_result m_launch(cu_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                          unsigned by, unsigned bz, unsigned smem, cu_stream s, void **params,
                          void **extra)
{
    (void)s;
    (void)extra;
    const mock_func *mf = (const mock_func *)f;
    if (!strcmp(mf->name, "oor"))
        return CU_ERROR_LAUNCH_OUT_OF_RESOURCES;
    if (!strcmp(mf->name, "fault")) {
        mock_pending = 1;
        return 0;
    }
    if (!strcmp(mf->name, "hang")) {
        mock_pending = 2;
        return 0;
    }
    if (!strcmp(mf->name, "abort"))
        abort();
    if (!strncmp(mf->name, "gen_", 4))
        return mock_generate(mf, gx, gy, gz, bx, by, bz, smem, params);
    if (!strcmp(mf->name, "acc") || !strcmp(mf->name, "ref_acc")) {
        /* an in-place kernel: c += a, logging what c[0] held when it started */
        float *c = (float *)(uintptr_t) * (cu_deviceptr *)params[0];
        const float *a = (const float *)(uintptr_t) * (cu_deviceptr *)params[1];
        int n = *(int *)params[3];
        mock_log("acc %.9g", (double)c[0]);
        for (int i = 0; i < n && (long long)i < (long long)gx * bx; i++)
            c[i] += a[i];
        return 0;
    }
    if (!strncmp(mf->name, "ref_", 4) || !strcmp(mf->name, "slow"))
        mock_log("launch %s", mf->name);
    if (!strcmp(mf->name, "slow"))
        usleep(5000);
    float *c = (float *)(uintptr_t) * (cu_deviceptr *)params[0];
    float *a = (float *)(uintptr_t) * (cu_deviceptr *)params[1];
    float *b = (float *)(uintptr_t) * (cu_deviceptr *)params[2];
    int n = *(int *)params[3];
    long long total = (long long)gx * bx;
    long long upto = !strcmp(mf->name, "add_half") ? n / 2 : n;
    for (long long i = 0; i < upto && i < total; i++)
        c[i] = a[i] + b[i];
    if (!strcmp(mf->name, "add_wrong") && n > 7)
        c[7] += 1.0f;
    if (!strcmp(mf->name, "add_late") && n > 0)
        c[n - 1] += 1.0f;
    if ((!strcmp(mf->name, "ref_nan") || !strcmp(mf->name, "add_nan")) && n > 5)
        c[5] = NAN;
    if (!strcmp(mf->name, "add_clobber"))
        for (long long i = 0; i < n && i < total; i++)
            a[i] = b[i] = 1000.0f + (float)i;
    if (!strcmp(mf->name, "add_tmap")) {
        const uint64_t *w = params[4];
        const uint64_t want[9] = {(uint64_t)(uintptr_t)a, 7, 2, 250, 4, 250 * 4, 8, 2, 0};
        if (((uintptr_t)w % 64) || memcmp(w, want, sizeof want))
            c[0] = NAN;
    }
    if (!strcmp(mf->name, "add_gen"))
        for (long long i = 0; i < n && i < total; i++)
            if (a[i] != mock_gen_value("gen_a", (unsigned long long)i) ||
                b[i] != mock_gen_value("gen_b", (unsigned long long)i)) {
                c[0] = NAN;
                break;
            }
    return 0;
}
static cu_result m_evcreate(cu_event *e, unsigned f)
{
    (void)f;
    *e = (cu_event)3;
    return 0;
}
static cu_result m_evdestroy(cu_event e)
{
    (void)e;
    return 0;
}
static cu_result m_evrecord(cu_event e, cu_stream s)
{
    (void)e;
    (void)s;
    return 0;
}
static cu_result m_evsync(cu_event e)
{
    (void)e;
    return m_sync();
}
static cu_result m_elapsed(float *ms, cu_event a, cu_event b)
{
    (void)a;
    (void)b;
    const char *v = getenv("MOCK_CUDA_ELAPSED"); /* a timer reading other than 0.25 ms */
    *ms = v ? (float)atof(v) : 0.25f;
    return 0;
}
static int n_init(void)
{
    return 0;
}
static int n_shutdown(void)
{
    return 0;
}
static int n_bypci(const char *id, void **d)
{
    (void)id;
    *d = (void *)4;
    return 0;
}
static int n_clock(void *d, int t, unsigned *v)
{
    (void)d;
    (void)t;
    *v = 1980;
    return 0;
}
static int n_temp(void *d, int t, unsigned *v)
{
    (void)d;
    (void)t;
    *v = 41;
    return 0;
}

/* NVML's energy counter: MOCK_NVML_POWER watts (default 300) since the first reading. */
static double mock_nvml_t0 = -1;
static double mock_power(void)
{
    const char *v = getenv("MOCK_NVML_POWER");
    return v ? atof(v) : 300.0;
}
static int n_energy(void *d, unsigned long long *mj)
{
    (void)d;
    double t = cutune_now();
    if (mock_nvml_t0 < 0)
        mock_nvml_t0 = t;
    *mj = 1000000ull + (unsigned long long)(mock_power() * (t - mock_nvml_t0) * 1e3);
    return 0;
}
static int n_power(void *d, unsigned *mw)
{
    (void)d;
    *mw = (unsigned)(mock_power() * 1e3);
    return 0;
}
/* Clock event reasons: MOCK_NVML_REASONS (a number, default 0), for the first
 * MOCK_NVML_REASONS_CALLS readings when that is set (then 0). */
static int n_reasons(void *d, unsigned long long *r)
{
    (void)d;
    static long calls;
    const char *v = getenv("MOCK_NVML_REASONS"), *k = getenv("MOCK_NVML_REASONS_CALLS");
    calls++;
    *r = v && (!k || calls <= atol(k)) ? strtoull(v, NULL, 0) : 0;
    return 0;
}

static const cutune_cuda_drv mock_drv = {
    .init = m_init,
    .driver_get_version = m_version,
    .device_get_count = m_count,
    .device_get = m_get,
    .device_get_name = m_name,
    .device_get_attribute = m_attr,
    .device_get_pci_bus_id = m_pci,
    .primary_ctx_retain = m_retain,
    .primary_ctx_release = m_release,
    .ctx_set_current = m_setcur,
    .ctx_synchronize = m_sync,
    .get_error_string = m_errstr,
    .module_load_data = m_modload,
    .module_unload = m_modunload,
    .module_get_function = m_getfn,
    .func_get_attribute = m_fattr,
    .func_set_attribute = m_fset,
    .occupancy_max_active_blocks = m_occ,
    .mem_alloc = m_alloc,
    .mem_free = m_free,
    .mem_alloc_host = m_alloc_host,
    .mem_free_host = m_free_host,
    .memcpy_htod = m_htod,
    .memcpy_dtoh = m_dtoh,
    .memset_d8 = m_memset,
    .memset_d8_async = m_memset_async,
    .launch_kernel = m_launch,
    .event_create = m_evcreate,
    .event_destroy = m_evdestroy,
    .event_record = m_evrecord,
    .event_synchronize = m_evsync,
    .event_elapsed_time = m_elapsed,
    .tensor_map_encode_tiled = m_tmap_encode,
    .nvml_init = n_init,
    .nvml_shutdown = n_shutdown,
    .nvml_device_by_pci = n_bypci,
    .nvml_clock_info = n_clock,
    .nvml_temperature = n_temp,
    .nvml_total_energy = n_energy,
    .nvml_power_usage = n_power,
    .nvml_clock_reasons = n_reasons,
};

/* The mock driver with the NVML that MOCK_NVML asks for: "none" (no NVML at all),
 * "clocks" (clocks and temperature, no energy or power), "power" (no energy counter: power
 * is sampled); anything else, everything. */
static cutune_cuda_drv mock_drv_nvml(void)
{
    cutune_cuda_drv d = mock_drv;
    const char *m = getenv("MOCK_NVML");
    if (m && !strcmp(m, "none")) {
        d.nvml_init = NULL;
        d.nvml_shutdown = NULL;
        d.nvml_device_by_pci = NULL;
        d.nvml_clock_info = NULL;
        d.nvml_temperature = NULL;
        d.nvml_clock_reasons = NULL;
    }
    if (m && (!strcmp(m, "none") || !strcmp(m, "clocks") || !strcmp(m, "power")))
        d.nvml_total_energy = NULL;
    if (m && (!strcmp(m, "none") || !strcmp(m, "clocks")))
        d.nvml_power_usage = NULL;
    return d;
}

/* If this process was started as the evaluator's worker, be one and exit. */
static void mock_worker_maybe(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[1], "worker") || strcmp(argv[2], "--fd"))
        return;
    const char *m = getenv("MOCK_CUDA");
    const char *proto = getenv("MOCK_WORKER_PROTO");
    if (proto) {
        /* a worker of another build: its hello says protocol N ("none": the layout from
         * before the version field; "grown": N = 99 with a field after it), with rc =
         * $MOCK_WORKER_RC; then it waits to be reaped and leaves $MOCK_WORKER_GOT behind
         * if anything was sent to it */
        const char *rcs = getenv("MOCK_WORKER_RC"), *got = getenv("MOCK_WORKER_GOT");
        cutune_cuda_hello h = {.rc = rcs ? atoi(rcs) : 0, .cc_major = 9, .sm_count = 132};
        snprintf(h.name, sizeof h.name, "mock device");
        snprintf(h.msg, sizeof h.msg, "mock message");
        int grown = !strcmp(proto, "grown");
        h.proto = grown ? 99u : strcmp(proto, "none") ? (uint32_t)atoi(proto) : 0u;
        cutune_cuda_buf b = {0};
        if (cutune_cuda_encode_hello(&b, &h) < 0)
            exit(1);
        if (grown) { /* four more bytes after the version, the frame's length to match */
            uint32_t extra = 7, len = (uint32_t)(b.len + 4 - 8);
            uint8_t *p = realloc(b.data, b.len + 4);
            if (!p)
                exit(1);
            b.data = p;
            memcpy(b.data + b.len, &extra, 4);
            b.len += 4;
            b.cap = b.len;
            memcpy(b.data + 4, &len, 4);
        }
        if (!strcmp(proto, "none")) {
            uint32_t len = (uint32_t)(b.len - 4 - 8); /* the frame without the last field */
            memcpy(b.data + 4, &len, 4);
            b.len -= 4;
        }
        int fd = atoi(argv[3]);
        if (cutune_cuda_send(fd, &b) < 0)
            exit(1);
        char c;
        while (read(fd, &c, 1) > 0)
            if (got) {
                FILE *f = fopen(got, "w");
                if (f)
                    fclose(f);
            }
        exit(0);
    }
    int real = m && !strcmp(m, "real");
    cutune_cuda_drv d = mock_drv_nvml();
    exit(cutune_cuda_worker_main(atoi(argv[3]), real ? NULL : &d));
}
