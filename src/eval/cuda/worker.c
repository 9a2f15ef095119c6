/* The worker: the only process of a run that touches the GPU. A kernel that
 * faults poisons its CUDA context and one that hangs never returns, so they
 * run here, where the parent can kill and replace the whole process.
 *
 * One LAUNCH = load the CUBIN, check the launch against the device's limits
 * (over a limit: launch_error, never launched), verify once against the
 * reference on restored inputs with poisoned outputs, then time with events
 * until the median is known to ci_rel.
 *
 * What no configuration changes is kept for the worker's life: the device
 * buffers (per element count), their generated inputs (per allocation: on the
 * host, random, range, ..., or on the device by a generator kernel of the
 * sizes-only module, "init": "kernel:NAME", read back once) and the reference
 * outputs (per the sizes and scalars the reference sees). The inputs are kept
 * in host memory (page-locked where the driver gives it, so that uploads run at
 * DMA speed), where no kernel can reach them: before every run they are
 * uploaded again (zeros: a device memset) and outputs are poisoned, so every
 * configuration sees the same contents even after a kernel that scribbled on
 * its buffers or past their ends. A new worker (after a fault) starts empty and
 * builds all of it again. Each LAUNCH's reply carries the time of each phase
 * (worker_*_ms metrics). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_internal.h"

#define BATCH 10                     /* timed launches per synchronisation */
#define WARMUP_S 0.05                /* least warm-up time before timing */
#define CHUNK 4096                   /* elements compared bytewise before any arithmetic */
#define PINNED_MAX ((size_t)8 << 30) /* page-locked host bytes at most; beyond: malloc */

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
    size_t pinned_bytes; /**< page-locked host bytes held by bufs */
    int ref_valid;       /**< host_ref matches the key ref_count/ref_bits */
    uint64_t ref_count[CUTUNE_CUDA_MAX_ARGS], ref_bits[CUTUNE_CUDA_MAX_ARGS];
    cu_module ref_mod; /**< the sizes-only module: reference and generator kernels */
    cu_function ref_fn;
    cu_function gen_fn[CUTUNE_CUDA_MAX_ARGS]; /**< init KERNEL generators, looked up once */
    void *blas;
    cu_deviceptr flush;
    size_t flush_bytes;
    cu_event ev[2 * BATCH];
    int nev;
    int cold; /**< this launch allocated or generated buffers or ran the reference */
} worker;

/* ---- small helpers ---- */

static void log_append(cutune_cuda_reply *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void log_append(cutune_cuda_reply *r, const char *fmt, ...)
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

static void metric(cutune_cuda_reply *r, const char *name, double v)
{
    if (r->nmetrics >= CUTUNE_MAX_METRICS)
        return;
    snprintf(r->metrics[r->nmetrics].name, sizeof r->metrics[0].name, "%s", name);
    r->metrics[r->nmetrics].value = v;
    r->nmetrics++;
}

static const char *cuerr(const worker *w, cu_result rc, char *buf, size_t len)
{
    return cutune_cuda_drv_strerror(&w->drv, rc, buf, len);
}

/* A CUDA error after the kernel was launched: runtime_error; the context is
 * gone after a sticky error, so the worker says so and exits. */
static void runtime_fail(worker *w, cutune_cuda_reply *r, const char *what, cu_result rc)
{
    char eb[256];
    r->status = CUTUNE_STATUS_RUNTIME_ERROR;
    r->fatal = 1; /* even a non-sticky error here leaves state we cannot trust */
    log_append(r, "%s: %s", what, cuerr(w, rc, eb, sizeof eb));
}

/* IEEE half <-> float, round to nearest even. */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = m >> shift;
        uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (m >> 13);
    uint32_t rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static double half_to_double(uint16_t h)
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

static double elem_get(const void *p, int type, size_t i)
{
    switch (type) {
    case CUTUNE_ELEM_FLOAT: return ((const float *)p)[i];
    case CUTUNE_ELEM_DOUBLE: return ((const double *)p)[i];
    case CUTUNE_ELEM_HALF: return half_to_double(((const uint16_t *)p)[i]);
    case CUTUNE_ELEM_INT32: return ((const int32_t *)p)[i];
    case CUTUNE_ELEM_UINT32: return ((const uint32_t *)p)[i];
    case CUTUNE_ELEM_INT64: return (double)((const int64_t *)p)[i];
    default: return ((const uint8_t *)p)[i];
    }
}

static void elem_set(void *p, int type, size_t i, double v)
{
    switch (type) {
    case CUTUNE_ELEM_FLOAT: ((float *)p)[i] = (float)v; break;
    case CUTUNE_ELEM_DOUBLE: ((double *)p)[i] = v; break;
    case CUTUNE_ELEM_HALF: ((uint16_t *)p)[i] = float_to_half((float)v); break;
    case CUTUNE_ELEM_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
    case CUTUNE_ELEM_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case CUTUNE_ELEM_INT64: ((int64_t *)p)[i] = (int64_t)v; break;
    default: ((uint8_t *)p)[i] = (uint8_t)v; break;
    }
}

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): one stream per argument, from the run's seed. */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *s)
{
    return (double)(splitmix(s) >> 11) * 0x1p-53;
}

/* The state of argument idx's stream (host fill) and its generator kernel's seed. */
static uint64_t arg_stream(uint64_t seed, uint32_t idx)
{
    return seed ^ (0xd1b54a32d192ed03ull * (idx + 1));
}

uint32_t cutune_cuda_init_seed(uint64_t run_seed, uint32_t idx)
{
    uint64_t s = arg_stream(run_seed, idx) ^ 0x6b65726e656c2121ull; /* "kernel!!" */
    return (uint32_t)(splitmix(&s) >> 32);
}

/* Fill an argument's inputs. Random values are uniform in [lo, hi): floats, or the
 * integers ceil(lo) .. ceil(hi) - 1 (so [0, 256] fills a uint8 with 0..255, never 256;
 * the spec's default for integers is [0, 100)). An empty or inverted range falls back to
 * [-1, 1) (integers: 0..99), so random data is not all zeros by accident. */
static void generate(const cutune_cuda_setup *su, uint32_t idx, void *p, size_t count)
{
    const cutune_cuda_argdesc *a = &su->args[idx];
    uint64_t s = arg_stream(su->seed, idx);
    int flt = cutune_elem_is_float((cutune_elem_type)a->type);
    double lo = a->lo, hi = a->hi;
    switch (a->init) {
    case CUTUNE_INIT_ZEROS: memset(p, 0, count * cutune_cuda_elem_size(a->type)); return;
    case CUTUNE_INIT_ONES:
        for (size_t i = 0; i < count; i++)
            elem_set(p, a->type, i, 1.0);
        return;
    case CUTUNE_INIT_RANGE:
        for (size_t i = 0; i < count; i++)
            elem_set(p, a->type, i, hi > 0 ? fmod((double)i, floor(hi)) : (double)i);
        return;
    default: break;
    }
    if (!(lo < hi) || (!flt && ceil(hi) - ceil(lo) < 1)) {
        lo = flt ? -1.0 : 0.0;
        hi = flt ? 1.0 : 100.0;
    }
    for (size_t i = 0; i < count; i++) {
        double u = uniform01(&s); /* in [0, 1) */
        double v = flt ? lo + u * (hi - lo) : ceil(lo) + floor(u * (ceil(hi) - ceil(lo)));
        elem_set(p, a->type, i, v);
    }
}

/* A buffer the reference cannot depend on: an input of zeros (scratch space), which
 * reads the same at any element count, so its count is no part of the reference's key. */
static int is_scratch(const cutune_cuda_setup *su, uint32_t i)
{
    return !su->args[i].output && su->args[i].init == CUTUNE_INIT_ZEROS;
}

/* Page-locked host memory where the driver gives it (within PINNED_MAX), else malloc. */
static void *host_alloc(worker *w, size_t bytes, int *pinned)
{
    void *p = NULL;
    *pinned = 0;
    if (w->drv.mem_alloc_host && w->drv.mem_free_host && w->pinned_bytes + bytes <= PINNED_MAX &&
        w->drv.mem_alloc_host(&p, bytes) == CU_SUCCESS && p) {
        *pinned = 1;
        w->pinned_bytes += bytes;
        return p;
    }
    return malloc(bytes);
}

static void host_free(worker *w, void *p, int pinned, size_t bytes)
{
    if (!p)
        return;
    if (!pinned) {
        free(p);
        return;
    }
    w->drv.mem_free_host(p);
    w->pinned_bytes -= bytes;
}

/* Free buffer i: it is allocated and generated again at the next launch. */
static void buffer_drop(worker *w, uint32_t i)
{
    wbuf *b = &w->bufs[i];
    size_t alloc = b->bytes ? b->bytes : 1;
    if (b->d)
        w->drv.mem_free(b->d);
    host_free(w, b->host_in, b->in_pinned, alloc);
    host_free(w, b->host_out, b->out_pinned, alloc);
    free(b->host_ref);
    if (b->d && (i >= w->setup.nargs || !is_scratch(&w->setup, i)))
        w->ref_valid = 0;
    memset(b, 0, sizeof *b);
}

static void buffers_free(worker *w)
{
    for (uint32_t i = 0; i < CUTUNE_CUDA_MAX_ARGS; i++)
        buffer_drop(w, i);
    w->ref_valid = 0;
}

/* Load the sizes-only module (reference and generator kernels) once per setup. */
static int sizes_module_ensure(worker *w, const char *what, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    char eb[256];
    if (w->ref_mod)
        return 0;
    if (!su->ref_cubin || !su->ref_cubin_size) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        log_append(r, "%s: no sizes-only module was sent to the worker", what);
        return -1;
    }
    free(w->ref_image);
    w->ref_image = malloc(su->ref_cubin_size);
    if (!w->ref_image) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        log_append(r, "out of host memory for the sizes-only CUBIN");
        return -1;
    }
    memcpy(w->ref_image, su->ref_cubin, su->ref_cubin_size);
    cu_result rc = w->drv.module_load_data(&w->ref_mod, w->ref_image);
    if (rc != CU_SUCCESS) {
        w->ref_mod = NULL;
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        log_append(r, "%s: loading the sizes-only module: %s", what, cuerr(w, rc, eb, sizeof eb));
        return -1;
    }
    return 0;
}

/* "init": "kernel:NAME": fill buffer i on the device (grid ceil(n / 256), block
 * 256), then keep a host copy that is uploaded like generated inputs. */
static int generate_on_device(worker *w, uint32_t i, wbuf *b, cutune_cuda_reply *r)
{
    const cutune_cuda_argdesc *a = &w->setup.args[i];
    char what[256], eb[256];
    cu_result rc;
    snprintf(what, sizeof what, "args[%u].init (buffer '%s'): generator kernel '%s'", i, a->name,
             a->init_name);
    if (sizes_module_ensure(w, what, r) < 0)
        return -1;
    if (!w->gen_fn[i]) {
        rc = w->drv.module_get_function(&w->gen_fn[i], w->ref_mod, a->init_name);
        if (rc != CU_SUCCESS) {
            w->gen_fn[i] = NULL;
            r->status = CUTUNE_STATUS_RUNTIME_ERROR;
            log_append(r,
                       "%s not found in the sizes-only module (declared extern \"C\" "
                       "__global__, and compiled with only the sizes defined?): %s",
                       what, cuerr(w, rc, eb, sizeof eb));
            return -1;
        }
    }
    if (!b->count)
        return 0;
    unsigned long long n = b->count;
    unsigned long long blocks = (n + CUTUNE_CUDA_INIT_BLOCK - 1) / CUTUNE_CUDA_INIT_BLOCK;
    if (blocks > (w->max_grid[0] > 0 ? (unsigned long long)w->max_grid[0] : 2147483647ull)) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        log_append(r, "%s: %llu elements need %llu blocks, over the grid limit", what, n, blocks);
        return -1;
    }
    unsigned int seed = cutune_cuda_init_seed(w->setup.seed, i);
    void *params[3] = {&b->d, &n, &seed};
    rc = w->drv.launch_kernel(w->gen_fn[i], (unsigned)blocks, 1, 1, CUTUNE_CUDA_INIT_BLOCK, 1, 1, 0,
                              NULL, params, NULL);
    if (rc == CU_SUCCESS)
        rc = w->drv.ctx_synchronize();
    if (rc == CU_SUCCESS)
        rc = w->drv.memcpy_dtoh(b->host_in, b->d, b->bytes);
    if (rc != CU_SUCCESS) {
        runtime_fail(w, r, what, rc);
        return -1;
    }
    return 0;
}

static int gemm_c_is_input(const worker *w, const cutune_cuda_launch *l, uint32_t i)
{
    const cutune_cuda_setup *su = &w->setup;
    if (su->ref_kind != CUTUNE_REF_BUILTIN || (int32_t)i != su->gemm_c || su->gemm_beta < 0)
        return 0;
    int bt = su->args[su->gemm_beta].type;
    double beta;
    if (bt == CUTUNE_ELEM_DOUBLE)
        memcpy(&beta, &l->bits[su->gemm_beta], 8);
    else {
        float f;
        memcpy(&f, &l->bits[su->gemm_beta], 4);
        beta = f;
    }
    return beta != 0.0;
}

/* (Re)allocate buffers whose element count changed and generate their inputs, once per
 * allocation. */
static int buffers_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    uint32_t i;
    for (i = 0; i < su->nargs; i++) {
        const cutune_cuda_argdesc *a = &su->args[i];
        wbuf *b = &w->bufs[i];
        if (a->kind != CUTUNE_ARG_BUFFER)
            continue;
        size_t alloc = l->count[i] * cutune_cuda_elem_size(a->type);
        alloc = alloc ? alloc : 1;
        if (!b->d || b->count != l->count[i]) {
            buffer_drop(w, i);
            w->cold = 1;
            b->count = l->count[i];
            b->bytes = b->count * cutune_cuda_elem_size(a->type);
            b->zeros = a->init == CUTUNE_INIT_ZEROS;
            cu_result rc = w->drv.mem_alloc(&b->d, alloc);
            if (rc != CU_SUCCESS) {
                char eb[256];
                b->d = 0;
                r->status = CUTUNE_STATUS_LAUNCH_ERROR;
                log_append(r, "buffer '%s' (%zu bytes): %s", a->name, b->bytes,
                           cuerr(w, rc, eb, sizeof eb));
                buffer_drop(w, i);
                return -1;
            }
            if (a->output) {
                b->host_ref = malloc(alloc);
                b->host_out = host_alloc(w, alloc, &b->out_pinned);
                if (!b->host_ref || !b->host_out)
                    goto oom;
            }
        }
        b->in = !a->output || gemm_c_is_input(w, l, i);
        if (b->in && !b->zeros && !b->host_in) {
            w->cold = 1;
            b->host_in = host_alloc(w, alloc, &b->in_pinned);
            if (!b->host_in)
                goto oom;
            if (a->init == CUTUNE_INIT_KERNEL && !a->output) {
                if (generate_on_device(w, i, b, r) < 0) {
                    if (!r->fatal) /* generated again at the next launch */
                        buffer_drop(w, i);
                    return -1;
                }
            } else {
                generate(su, i, b->host_in, b->count);
            }
        }
    }
    return 0;
oom:
    buffer_drop(w, i);
    r->status = CUTUNE_STATUS_LAUNCH_ERROR;
    log_append(r, "out of host memory for the buffers");
    return -1;
}

/* Before each run (the reference's or a configuration's): inputs uploaded again from
 * their host copies (zeros: a memset), outputs poisoned with 0xFF bytes (NaN in float,
 * double and half, an unlikely value in integers, so unwritten elements show); then a
 * synchronisation, so that the first launch's time is the kernel's alone. The pristine
 * copies stay on the host rather than in device memory, where a kernel writing past its
 * buffers' ends could change them without a fault for every later configuration; from
 * page-locked memory the upload runs at the link's DMA speed. */
static cu_result buffers_restore(worker *w)
{
    const cutune_cuda_setup *su = &w->setup;
    cu_result rc = CU_SUCCESS;
    for (uint32_t i = 0; i < su->nargs && rc == CU_SUCCESS; i++) {
        wbuf *b = &w->bufs[i];
        if (su->args[i].kind != CUTUNE_ARG_BUFFER || !b->bytes)
            continue;
        if (b->in && !b->zeros)
            rc = w->drv.memcpy_htod(b->d, b->host_in, b->bytes);
        else
            rc = w->drv.memset_d8_async(b->d, b->in ? 0x00 : 0xFF, b->bytes, NULL);
    }
    if (rc == CU_SUCCESS)
        rc = w->drv.ctx_synchronize();
    return rc;
}

static cu_result buffers_download(worker *w, int into_ref)
{
    const cutune_cuda_setup *su = &w->setup;
    for (uint32_t i = 0; i < su->nargs; i++) {
        wbuf *b = &w->bufs[i];
        if (su->args[i].kind != CUTUNE_ARG_BUFFER || !su->args[i].output || !b->bytes)
            continue;
        cu_result rc = w->drv.memcpy_dtoh(into_ref ? b->host_ref : b->host_out, b->d, b->bytes);
        if (rc != CU_SUCCESS)
            return rc;
    }
    return CU_SUCCESS;
}

static void params_fill(worker *w, const cutune_cuda_launch *l, void **params)
{
    for (uint32_t i = 0; i < w->setup.nargs; i++)
        params[i] = w->setup.args[i].kind == CUTUNE_ARG_BUFFER ? (void *)&w->bufs[i].d
                                                               : (void *)&l->bits[i];
}

static cu_result launch(worker *w, cu_function f, const int64_t *g, const int64_t *bl, int64_t smem,
                        void **params)
{
    return w->drv.launch_kernel(f, (unsigned)g[0], (unsigned)g[1], (unsigned)g[2], (unsigned)bl[0],
                                (unsigned)bl[1], (unsigned)bl[2], (unsigned)smem, NULL, params,
                                NULL);
}

static double scalar_double(const cutune_cuda_setup *su, const cutune_cuda_launch *l, int32_t i)
{
    if (su->args[i].type == CUTUNE_ELEM_DOUBLE) {
        double d;
        memcpy(&d, &l->bits[i], 8);
        return d;
    }
    float f;
    memcpy(&f, &l->bits[i], 4);
    return f;
}

/* What the reference's outputs depend on: every buffer's element count but the
 * scratch buffers' (is_scratch), and every scalar. */
static void reference_key(const worker *w, const cutune_cuda_launch *l, uint64_t *count,
                          uint64_t *bits)
{
    const cutune_cuda_setup *su = &w->setup;
    memset(count, 0, CUTUNE_CUDA_MAX_ARGS * sizeof *count);
    memset(bits, 0, CUTUNE_CUDA_MAX_ARGS * sizeof *bits);
    for (uint32_t i = 0; i < su->nargs; i++) {
        if (su->args[i].kind != CUTUNE_ARG_BUFFER)
            bits[i] = l->bits[i];
        else if (!is_scratch(su, i))
            count[i] = l->count[i];
    }
}

/* The reference's NaN elements and the sum of its finite elements' squares, once per
 * reference: verify's norm denominator, and whether its bytewise shortcut holds. */
static void reference_stats(worker *w)
{
    const cutune_cuda_setup *su = &w->setup;
    for (uint32_t i = 0; i < su->nargs; i++) {
        wbuf *b = &w->bufs[i];
        if (su->args[i].kind != CUTUNE_ARG_BUFFER || !su->args[i].output)
            continue;
        double den = 0;
        size_t nans = 0;
        for (size_t k = 0; k < b->count; k++) {
            double v = elem_get(b->host_ref, su->args[i].type, k);
            if (isnan(v))
                nans++;
            else if (!isinf(v))
                den += v * v;
        }
        b->ref_den = den;
        b->ref_nans = nans;
    }
}

/* Reference outputs for this launch's sizes and scalars (reference_key), computed once. */
static int reference_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
{
    cutune_cuda_setup *su = &w->setup;
    uint64_t kc[CUTUNE_CUDA_MAX_ARGS], kb[CUTUNE_CUDA_MAX_ARGS];
    reference_key(w, l, kc, kb);
    if (w->ref_valid && memcmp(w->ref_count, kc, sizeof kc) == 0 &&
        memcmp(w->ref_bits, kb, sizeof kb) == 0)
        return 0;
    char eb[256];
    cu_result rc;
    if (su->ref_kind == CUTUNE_REF_NONE)
        goto out_valid;
    w->cold = 1;
    if ((rc = buffers_restore(w)) != CU_SUCCESS) {
        runtime_fail(w, r, "reference: preparing buffers", rc);
        return -1;
    }
    if (su->ref_kind == CUTUNE_REF_KERNEL) {
        if (!w->ref_fn) {
            char what[200];
            snprintf(what, sizeof what, "reference kernel '%s'", su->ref_name);
            if (sizes_module_ensure(w, what, r) < 0)
                return -1;
            if ((rc = w->drv.module_get_function(&w->ref_fn, w->ref_mod, su->ref_name)) !=
                CU_SUCCESS) {
                w->ref_fn = NULL;
                r->status = CUTUNE_STATUS_RUNTIME_ERROR;
                log_append(r, "reference kernel '%s': %s", su->ref_name,
                           cuerr(w, rc, eb, sizeof eb));
                return -1;
            }
        }
        void *params[CUTUNE_CUDA_MAX_ARGS];
        params_fill(w, l, params);
        if (l->ref_smem > w->smem_block)
            w->drv.func_set_attribute(w->ref_fn, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      (int)l->ref_smem);
        rc = launch(w, w->ref_fn, l->ref_grid, l->ref_block, l->ref_smem, params);
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
        if (rc != CU_SUCCESS) {
            runtime_fail(w, r, "reference kernel failed", rc);
            return -1;
        }
    } else {
        /* cublas_sgemm: row-major C = alpha A B + beta C is, read column-major,
         * C^T = alpha B^T A^T + beta C^T: swap the operands, no transposes. */
        char berr[256];
        if (cutune_cuda_drv_load_cublas(&w->drv, berr, sizeof berr) < 0) {
            r->status = CUTUNE_STATUS_RUNTIME_ERROR;
            r->fatal = 1;
            log_append(r, "%s", berr);
            return -1;
        }
        if (!w->blas && w->drv.cublas_create(&w->blas) != 0) {
            w->blas = NULL;
            r->status = CUTUNE_STATUS_RUNTIME_ERROR;
            r->fatal = 1;
            log_append(r, "reference 'cublas_sgemm': cublasCreate failed");
            return -1;
        }
        float alpha = su->gemm_alpha >= 0 ? (float)scalar_double(su, l, su->gemm_alpha) : 1.0f;
        float beta = su->gemm_beta >= 0 ? (float)scalar_double(su, l, su->gemm_beta) : 0.0f;
        int st = w->drv.cublas_sgemm(
            w->blas, 0, 0, (int)su->gemm_n, (int)su->gemm_m, (int)su->gemm_k, &alpha,
            (const float *)(uintptr_t)w->bufs[su->gemm_b].d, (int)su->gemm_n,
            (const float *)(uintptr_t)w->bufs[su->gemm_a].d, (int)su->gemm_k, &beta,
            (float *)(uintptr_t)w->bufs[su->gemm_c].d, (int)su->gemm_n);
        rc = w->drv.ctx_synchronize();
        if (st != 0 || rc != CU_SUCCESS) {
            if (rc == CU_SUCCESS)
                rc = CU_ERROR_LAUNCH_FAILED;
            runtime_fail(w, r, "reference 'cublas_sgemm' failed", rc);
            return -1;
        }
    }
    if ((rc = buffers_download(w, 1)) != CU_SUCCESS) {
        runtime_fail(w, r, "reference: reading outputs", rc);
        return -1;
    }
    reference_stats(w);
out_valid:
    memcpy(w->ref_count, kc, sizeof kc);
    memcpy(w->ref_bits, kb, sizeof kb);
    w->ref_valid = 1;
    return 0;
}

/* Running sums of one output's comparison with its reference. */
typedef struct cmp_acc {
    double num;         /**< sum of squared differences */
    double maxabs;      /**< largest absolute difference */
    double skipped_den; /**< squares of the finite reference elements left out (NaN, inf) */
    size_t nans;        /**< NaN or unwritten elements, infinities where none belong */
    size_t first_bad;   /**< index of the first bad element, or (size_t)-1 */
} cmp_acc;

static inline void cmp_one(cmp_acc *c, double o, double ref, size_t k, double atol)
{
    if (isnan(o) || isnan(ref) || isinf(o) != isinf(ref)) {
        if (!c->nans++)
            c->first_bad = k;
        if (!isnan(ref) && !isinf(ref))
            c->skipped_den += ref * ref;
        return;
    }
    double d = isinf(o) && o == ref ? 0.0 : o - ref;
    if (fabs(d) > c->maxabs) {
        c->maxabs = fabs(d);
        if (atol >= 0 && c->maxabs > atol && c->first_bad == (size_t)-1)
            c->first_bad = k;
    }
    c->num += d * d;
}

/* Elements [lo, hi) of out against ref (ref NULL: only NaN counts), one loop per type. */
static void cmp_range(cmp_acc *acc, const void *out, const void *ref, int type, size_t lo,
                      size_t hi, double atol)
{
    cmp_acc c = *acc;
    if (!ref) {
        for (size_t k = lo; k < hi; k++)
            if (isnan(elem_get(out, type, k)) && !c.nans++)
                c.first_bad = k;
    } else if (type == CUTUNE_ELEM_FLOAT) {
        const float *o = out, *e = ref;
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, o[k], e[k], k, atol);
    } else if (type == CUTUNE_ELEM_DOUBLE) {
        const double *o = out, *e = ref;
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, o[k], e[k], k, atol);
    } else {
        for (size_t k = lo; k < hi; k++)
            cmp_one(&c, elem_get(out, type, k), elem_get(ref, type, k), k, atol);
    }
    *acc = c;
}

/* Compare outputs with the reference: relative L2 error norm within rtol and
 * max abs error within atol; any NaN fails. Without a reference only the
 * poison check (no NaN left in float outputs) applies. Chunks whose bytes equal
 * the reference's add nothing to any sum (a difference of 0, no NaN when the
 * reference has none), so only the others are compared element by element; the
 * norm's denominator is the reference's own (reference_stats), less the elements
 * left out. */
static int verify(worker *w, cutune_cuda_reply *r)
{
    const cutune_cuda_setup *su = &w->setup;
    int ok = 1;
    double worst_rel = 0, worst_abs = 0;
    for (uint32_t i = 0; i < su->nargs; i++) {
        const cutune_cuda_argdesc *a = &su->args[i];
        wbuf *b = &w->bufs[i];
        if (a->kind != CUTUNE_ARG_BUFFER || !a->output)
            continue;
        int has_ref = su->ref_kind != CUTUNE_REF_NONE;
        size_t es = cutune_cuda_elem_size(a->type);
        int bytewise = has_ref && b->ref_nans == 0;
        cmp_acc c = {.first_bad = (size_t)-1};
        for (size_t lo = 0; lo < b->count; lo += CHUNK) {
            size_t hi = b->count - lo < CHUNK ? b->count : lo + CHUNK;
            if (bytewise && memcmp((const char *)b->host_out + lo * es,
                                   (const char *)b->host_ref + lo * es, (hi - lo) * es) == 0)
                continue;
            cmp_range(&c, b->host_out, has_ref ? b->host_ref : NULL, a->type, lo, hi, su->atol);
        }
        size_t nans = c.nans, first_bad = c.first_bad;
        double num = c.num, maxabs = c.maxabs;
        double den = has_ref ? b->ref_den - c.skipped_den : 0;
        den = den > 0 ? den : 0;
        double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (rel > worst_rel)
            worst_rel = rel;
        if (maxabs > worst_abs)
            worst_abs = maxabs;
        int bad =
            nans > 0 || (su->rtol >= 0 && rel > su->rtol) || (su->atol >= 0 && maxabs > su->atol);
        if (bad) {
            ok = 0;
            if (first_bad != (size_t)-1 && has_ref)
                log_append(r,
                           "output '%s': rel L2 error %.3g (rtol %g), max abs error %.3g "
                           "(atol %g), %zu NaN/unwritten; first bad element %zu: %.9g, "
                           "expected %.9g",
                           a->name, rel, su->rtol, maxabs, su->atol, nans, first_bad,
                           elem_get(b->host_out, a->type, first_bad),
                           elem_get(b->host_ref, a->type, first_bad));
            else
                log_append(r,
                           "output '%s': rel L2 error %.3g (rtol %g), max abs error %.3g "
                           "(atol %g), %zu NaN/unwritten elements%s",
                           a->name, rel, su->rtol, maxabs, su->atol, nans,
                           first_bad != (size_t)-1 ? " (first at " : "");
            if (first_bad != (size_t)-1 && !has_ref)
                log_append(r, "element %zu)", first_bad);
        }
    }
    if (su->ref_kind != CUTUNE_REF_NONE) {
        metric(r, "rel_err", worst_rel);
        metric(r, "max_abs_err", worst_abs);
    }
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Warm up, then timed repetitions in batches until the median's CI is tight
 * enough, max_reps are taken or max_time_s has passed. */
static int time_kernel(worker *w, cu_function f, const cutune_cuda_launch *l, void **params,
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
        log_append(r, "out of host memory for the timings");
        return -1;
    }
    for (; w->nev < 2 * BATCH; w->nev++) {
        if ((rc = w->drv.event_create(&w->ev[w->nev], 0)) != CU_SUCCESS) {
            runtime_fail(w, r, "cuEventCreate", rc);
            goto out_fail;
        }
    }
    for (int i = 0; i < su->warmup; i++) {
        if ((rc = launch(w, f, l->grid, l->block, l->smem, params)) != CU_SUCCESS)
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
        int m = verify_s > 0 && left / verify_s < BATCH ? (int)ceil(left / verify_s) : BATCH;
        for (int j = 0; j < (m < 1 ? 1 : m) && rc == CU_SUCCESS; j++)
            rc = launch(w, f, l->grid, l->block, l->smem, params);
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
    }
    if (rc != CU_SUCCESS) {
        runtime_fail(w, r, "warm-up launch", rc);
        goto out_fail;
    }
    metric(r, "worker_warmup_ms", (cutune_now() - t0) * 1e3);
    t0 = cutune_now();
    /* Long kernels get small batches so the time bound holds. */
    int batch = verify_s > 0 ? (int)(0.05 / verify_s) : BATCH;
    batch = batch < 1 ? 1 : batch > BATCH ? BATCH : batch;
    uint32_t n = 0;
    while (n < (uint32_t)max_reps) {
        int m = (int)((uint32_t)max_reps - n < (uint32_t)batch ? (uint32_t)max_reps - n
                                                               : (uint32_t)batch);
        for (int j = 0; j < m; j++) {
            if (su->flush_l2 && w->flush &&
                (rc = w->drv.memset_d8_async(w->flush, (unsigned char)j, w->flush_bytes, NULL)) !=
                    CU_SUCCESS)
                break;
            if ((rc = w->drv.event_record(w->ev[2 * j], NULL)) != CU_SUCCESS ||
                (rc = launch(w, f, l->grid, l->block, l->smem, params)) != CU_SUCCESS ||
                (rc = w->drv.event_record(w->ev[2 * j + 1], NULL)) != CU_SUCCESS)
                break;
        }
        if (rc == CU_SUCCESS)
            rc = w->drv.event_synchronize(w->ev[2 * m - 1]);
        if (rc != CU_SUCCESS) {
            runtime_fail(w, r, "timed launch", rc);
            goto out_fail;
        }
        for (int j = 0; j < m; j++) {
            float ms = 0;
            if ((rc = w->drv.event_elapsed_time(&ms, w->ev[2 * j], w->ev[2 * j + 1])) !=
                CU_SUCCESS) {
                runtime_fail(w, r, "cuEventElapsedTime", rc);
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
    metric(r, "worker_timing_ms", (cutune_now() - t0) * 1e3);
    if (!(r->time_ms > 0.0)) { /* below the event timer's resolution: not a measurement (a
                                  zero time would also be refused by every recording loader) */
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        log_append(r, "timed median %g ms over %u runs: below the event timer's resolution",
                   r->time_ms, (unsigned)n);
        r->ntimes = 0;
        free(sorted);
        return -1;
    }
    metric(r, "repetitions", n);
    free(sorted);
    return 0;
out_fail:
    free(sorted);
    return -1;
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
        log_append(r, "worker: launch before setup or with %u args (setup has %u)", l->nargs,
                   su->nargs);
        return;
    }
    /* The CUBIN sits at an arbitrary offset in the message; the ELF loader
     * gets it at malloc alignment. */
    image = malloc(l->cubin_size ? l->cubin_size : 1);
    if (!image) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        log_append(r, "out of host memory for the CUBIN");
        goto out;
    }
    memcpy(image, l->cubin, l->cubin_size);
    if ((rc = w->drv.module_load_data(&mod, image)) != CU_SUCCESS) {
        mod = NULL;
        r->status = CUTUNE_STATUS_COMPILE_ERROR;
        log_append(r, "loading the CUBIN: %s", cuerr(w, rc, eb, sizeof eb));
        goto out;
    }
    if ((rc = w->drv.module_get_function(&f, mod, l->kernel)) != CU_SUCCESS) {
        r->status = CUTUNE_STATUS_COMPILE_ERROR;
        log_append(r, "kernel '%s' not found in the module (extern \"C\"?): %s", l->kernel,
                   cuerr(w, rc, eb, sizeof eb));
        goto out;
    }
    int regs = 0, local = 0, ssmem = 0, fmax = 0;
    w->drv.func_get_attribute(&regs, CU_FUNC_NUM_REGS, f);
    w->drv.func_get_attribute(&local, CU_FUNC_LOCAL_SIZE_BYTES, f);
    w->drv.func_get_attribute(&ssmem, CU_FUNC_SHARED_SIZE_BYTES, f);
    w->drv.func_get_attribute(&fmax, CU_FUNC_MAX_THREADS_PER_BLOCK, f);
    metric(r, "registers", regs);
    metric(r, "local_bytes", local);
    metric(r, "static_smem", ssmem);
    metric(r, "dynamic_smem", (double)l->smem);
    metric(r, "max_threads_per_block", fmax);

    /* Limits first: a launch over them is a launch_error and never launched. */
    int64_t threads = l->block[0] * l->block[1] * l->block[2];
    static const char *const axis = "xyz";
    for (int i = 0; i < 3; i++) {
        if (l->block[i] < 1 || l->block[i] > w->max_block[i]) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            log_append(r, "block.%c = %lld is outside 1..%d", axis[i], (long long)l->block[i],
                       w->max_block[i]);
        }
        if (l->grid[i] < 1 || l->grid[i] > w->max_grid[i]) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            log_append(r, "grid.%c = %lld is outside 1..%d", axis[i], (long long)l->grid[i],
                       w->max_grid[i]);
        }
    }
    if (r->status == CUTUNE_STATUS_OK && threads > fmax) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        log_append(r, "%lld threads per block exceed the kernel's limit of %d (%d registers)",
                   (long long)threads, fmax, regs);
    }
    if (l->smem < 0 || l->smem + ssmem > w->smem_optin) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        log_append(r, "shared memory %lld dynamic + %d static bytes exceeds the limit of %d",
                   (long long)l->smem, ssmem, w->smem_optin);
    }
    if (r->status != CUTUNE_STATUS_OK)
        goto out;
    if (l->smem + ssmem > w->smem_block) {
        rc = w->drv.func_set_attribute(f, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)l->smem);
        if (rc != CU_SUCCESS) {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            log_append(r, "opting in to %lld bytes of dynamic shared memory: %s",
                       (long long)l->smem, cuerr(w, rc, eb, sizeof eb));
            goto out;
        }
    }
    int nb = 0;
    if (w->drv.occupancy_max_active_blocks(&nb, f, (int)threads, (size_t)l->smem) == CU_SUCCESS &&
        w->threads_sm > 0)
        metric(r, "occupancy", (double)nb * (double)threads / w->threads_sm);

    metric(r, "worker_load_ms", (cutune_now() - t) * 1e3);

    /* Buffers, inputs and the reference: cached, so all but free after the first launch. */
    t = cutune_now();
    int setup_rc = buffers_ensure(w, l, r);
    if (setup_rc == 0)
        setup_rc = reference_ensure(w, l, r);
    metric(r, "worker_setup_ms", (cutune_now() - t) * 1e3);
    metric(r, "worker_cached", !w->cold);
    if (setup_rc < 0)
        goto out;

    /* Verification: restored inputs, poisoned outputs, one launch. */
    t = cutune_now();
    if ((rc = buffers_restore(w)) != CU_SUCCESS) {
        runtime_fail(w, r, "preparing buffers", rc);
        goto out;
    }
    metric(r, "worker_restore_ms", (cutune_now() - t) * 1e3);
    void *params[CUTUNE_CUDA_MAX_ARGS];
    params_fill(w, l, params);
    if (cutune_cuda_encode_progress(&pb, CUTUNE_CUDA_PHASE_VERIFY) < 0 ||
        cutune_cuda_send(w->fd, &pb) < 0) {
        r->fatal = 1;
        goto out;
    }
    double tv = cutune_now();
    rc = launch(w, f, l->grid, l->block, l->smem, params);
    if (rc != CU_SUCCESS) {
        if (cutune_cuda_error_is_sticky(rc)) {
            runtime_fail(w, r, "launch", rc);
        } else {
            r->status = CUTUNE_STATUS_LAUNCH_ERROR;
            log_append(r, "launch: %s", cuerr(w, rc, eb, sizeof eb));
        }
        goto out;
    }
    if ((rc = w->drv.ctx_synchronize()) != CU_SUCCESS) {
        runtime_fail(w, r, "kernel execution", rc);
        goto out;
    }
    tv = cutune_now() - tv;
    metric(r, "worker_launch_ms", tv * 1e3);
    /* The kernel is done; copying large outputs back and comparing them on the host
     * can take longer than a kernel is allowed, so say so (setup time limit again). */
    pb.len = 0;
    if (cutune_cuda_encode_progress(&pb, CUTUNE_CUDA_PHASE_CHECK) < 0 ||
        cutune_cuda_send(w->fd, &pb) < 0) {
        r->fatal = 1;
        goto out;
    }
    t = cutune_now();
    if ((rc = buffers_download(w, 0)) != CU_SUCCESS) {
        runtime_fail(w, r, "reading outputs", rc);
        goto out;
    }
    int verified = verify(w, r);
    metric(r, "worker_verify_ms", (cutune_now() - t) * 1e3);
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
    if (time_kernel(w, f, l, params, tv, r) < 0)
        goto out;
    if (w->nvml_dev) {
        unsigned v = 0;
        if (w->drv.nvml_clock_info(w->nvml_dev, 1 /* NVML_CLOCK_SM */, &v) == 0)
            metric(r, "sm_clock_mhz", v);
        if (w->drv.nvml_temperature(w->nvml_dev, 0 /* NVML_TEMPERATURE_GPU */, &v) == 0)
            metric(r, "temp_c", v);
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
    metric(r, "worker_total_ms", (cutune_now() - t_all) * 1e3);
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
        snprintf(h->msg, sizeof h->msg, "no CUDA device (cuInit: %s)", cuerr(w, rc, eb, sizeof eb));
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
                 cuerr(w, rc, eb, sizeof eb));
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
    buffers_free(w);
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
    worker *w = calloc(1, sizeof *w);
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
            log_append(&r, "worker: bad LAUNCH message");
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
        buffers_free(w);
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
