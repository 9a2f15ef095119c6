/* The worker's per-size caches: device buffers, their inputs and the reference outputs.
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
 * builds all of it again. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker_internal.h"

#define PINNED_MAX ((size_t)8 << 30) /* page-locked host bytes at most; beyond: malloc */

/* IEEE float -> half, round to nearest even (back: worker_half_to_double). */
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

/* float -> bfloat16, round to nearest even (NaN stays a quiet NaN). */
static uint16_t float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static void elem_set(void *p, int type, size_t i, double v)
{
    switch (type) {
    case CUTUNE_ELEM_FLOAT: ((float *)p)[i] = (float)v; break;
    case CUTUNE_ELEM_DOUBLE: ((double *)p)[i] = v; break;
    case CUTUNE_ELEM_HALF: ((uint16_t *)p)[i] = float_to_half((float)v); break;
    case CUTUNE_ELEM_BF16: ((uint16_t *)p)[i] = float_to_bf16((float)v); break;
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

void worker_buffers_free(worker *w)
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
        worker_log(r, "%s: no sizes-only module was sent to the worker", what);
        return -1;
    }
    free(w->ref_image);
    w->ref_image = malloc(su->ref_cubin_size);
    if (!w->ref_image) {
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "out of host memory for the sizes-only CUBIN");
        return -1;
    }
    memcpy(w->ref_image, su->ref_cubin, su->ref_cubin_size);
    cu_result rc = w->drv.module_load_data(&w->ref_mod, w->ref_image);
    if (rc != CU_SUCCESS) {
        w->ref_mod = NULL;
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        worker_log(r, "%s: loading the sizes-only module: %s", what,
                   worker_strerror(w, rc, eb, sizeof eb));
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
            worker_log(r,
                       "%s not found in the sizes-only module (declared extern \"C\" "
                       "__global__, and compiled with only the sizes defined?): %s",
                       what, worker_strerror(w, rc, eb, sizeof eb));
            return -1;
        }
    }
    if (!b->count)
        return 0;
    unsigned long long n = b->count;
    unsigned long long blocks = (n + CUTUNE_CUDA_INIT_BLOCK - 1) / CUTUNE_CUDA_INIT_BLOCK;
    if (blocks > (w->max_grid[0] > 0 ? (unsigned long long)w->max_grid[0] : 2147483647ull)) {
        r->status = CUTUNE_STATUS_LAUNCH_ERROR;
        worker_log(r, "%s: %llu elements need %llu blocks, over the grid limit", what, n, blocks);
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
        worker_runtime_fail(w, r, what, rc);
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
int worker_buffers_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
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
                worker_log(r, "buffer '%s' (%zu bytes): %s", a->name, b->bytes,
                           worker_strerror(w, rc, eb, sizeof eb));
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
        b->in = !a->output || a->output == 2 || gemm_c_is_input(w, l, i);
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
    return worker_tensormaps_encode(w, l, r);
oom:
    buffer_drop(w, i);
    r->status = CUTUNE_STATUS_LAUNCH_ERROR;
    worker_log(r, "out of host memory for the buffers");
    return -1;
}

/* Before each run (the reference's or a configuration's): inputs uploaded again from
 * their host copies (zeros: a memset), outputs poisoned with 0xFF bytes (NaN in float,
 * double and half, an unlikely value in integers, so unwritten elements show); then a
 * synchronisation, so that the first launch's time is the kernel's alone. The pristine
 * copies stay on the host rather than in device memory, where a kernel writing past its
 * buffers' ends could change them without a fault for every later configuration; from
 * page-locked memory the upload runs at the link's DMA speed. */
cu_result worker_buffers_restore(worker *w)
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

cu_result worker_buffers_download(worker *w, int into_ref)
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

void worker_params_fill(worker *w, const cutune_cuda_launch *l, void **params)
{
    for (uint32_t i = 0; i < w->setup.nargs; i++)
        params[i] = w->setup.args[i].kind == CUTUNE_ARG_BUFFER      ? (void *)&w->bufs[i].d
                    : w->setup.args[i].kind == CUTUNE_ARG_TENSORMAP ? (void *)w->tmaps[i].bytes
                                                                    : (void *)&l->bits[i];
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
 * reference: worker_verify's norm denominator, and whether its bytewise shortcut holds. */
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
            double v = worker_elem_get(b->host_ref, su->args[i].type, k);
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
int worker_reference_ensure(worker *w, const cutune_cuda_launch *l, cutune_cuda_reply *r)
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
    if ((rc = worker_buffers_restore(w)) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "reference: preparing buffers", rc);
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
                worker_log(r, "reference kernel '%s': %s", su->ref_name,
                           worker_strerror(w, rc, eb, sizeof eb));
                return -1;
            }
        }
        void *params[CUTUNE_CUDA_MAX_ARGS];
        worker_params_fill(w, l, params);
        /* as the tuned kernel's: the opt-in counts the static shared memory too, and a
         * refused one is the reference's own error (non-sticky: the context lives on) */
        int ref_ssmem = 0;
        w->drv.func_get_attribute(&ref_ssmem, CU_FUNC_SHARED_SIZE_BYTES, w->ref_fn);
        if (l->ref_smem + ref_ssmem > w->smem_block) {
            rc = w->drv.func_set_attribute(w->ref_fn, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                           (int)l->ref_smem);
            if (rc != CU_SUCCESS) {
                r->status = CUTUNE_STATUS_RUNTIME_ERROR;
                worker_log(r,
                           "reference kernel '%s': opting in to %lld bytes of dynamic shared "
                           "memory (%d static): %s",
                           su->ref_name, (long long)l->ref_smem, ref_ssmem,
                           worker_strerror(w, rc, eb, sizeof eb));
                return -1;
            }
        }
        rc = worker_launch(w, w->ref_fn, l->ref_grid, l->ref_block, l->ref_smem, params);
        if (rc == CU_SUCCESS)
            rc = w->drv.ctx_synchronize();
        if (rc != CU_SUCCESS) {
            worker_runtime_fail(w, r, "reference kernel failed", rc);
            return -1;
        }
    } else if (strcmp(su->ref_name, "cublas_gemm_abt") == 0) {
        if (worker_reference_gemm_abt(w, l, r) < 0)
            return -1;
    } else {
        /* cublas_sgemm: row-major C = alpha A B + beta C is, read column-major,
         * C^T = alpha B^T A^T + beta C^T: swap the operands, no transposes. */
        char berr[256];
        if (cutune_cuda_drv_load_cublas(&w->drv, berr, sizeof berr) < 0) {
            r->status = CUTUNE_STATUS_RUNTIME_ERROR;
            r->fatal = 1;
            worker_log(r, "%s", berr);
            return -1;
        }
        if (!w->blas && w->drv.cublas_create(&w->blas) != 0) {
            w->blas = NULL;
            r->status = CUTUNE_STATUS_RUNTIME_ERROR;
            r->fatal = 1;
            worker_log(r, "reference 'cublas_sgemm': cublasCreate failed");
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
            worker_runtime_fail(w, r, "reference 'cublas_sgemm' failed", rc);
            return -1;
        }
    }
    if ((rc = worker_buffers_download(w, 1)) != CU_SUCCESS) {
        worker_runtime_fail(w, r, "reference: reading outputs", rc);
        return -1;
    }
    reference_stats(w);
out_valid:
    memcpy(w->ref_count, kc, sizeof kc);
    memcpy(w->ref_bits, kb, sizeof kb);
    w->ref_valid = 1;
    return 0;
}
