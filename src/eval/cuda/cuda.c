/* The CUDA evaluator (--evaluator=cuda[:key=value,...]): a configuration is
 * compiled by NVRTC in this process (on a thread pool, ahead of time when the
 * tuner prefetches), then verified and timed by a worker process that owns
 * the GPU (worker.c), so that a faulting or hanging kernel costs one
 * evaluation and a worker restart, never the run. This file: plans, the entries of
 * configurations on their way, alloc and free; cuda_args.c reads the arguments;
 * cuda_devices.c starts one worker per GPU; cuda_async.c measures (submit / wait_any). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "cutune_config.h"
#include "cuda_parent.h"

/* ---- spec -> setup / plan ---- */

static int find_arg(const cutune_spec *sp, const char *name)
{
    for (size_t i = 0; i < sp->nargs; i++)
        if (!strcmp(sp->args[i].name, name))
            return (int)i;
    return -1;
}

static int find_size(const cutune_space *sp, const char *name, int64_t *out)
{
    for (size_t c = 0; c < cutune_space_nconstants(sp); c++) {
        if (strcmp(cutune_space_constant_name(sp, c), name))
            continue;
        cutune_value v = cutune_space_constant_value(sp, c);
        *out = (int64_t)llround(cutune_value_as_double(&v));
        return 0;
    }
    return -1;
}

static int check_spec(const cutune_spec *sp, char *err, size_t errlen)
{
    if (sp->nargs > CUTUNE_CUDA_MAX_ARGS)
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "%s: %zu args (at most %d)", sp->path,
                          sp->nargs, CUTUNE_CUDA_MAX_ARGS);
    if (!sp->source || !sp->kernel_name)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: no source or kernel", sp->path);
    for (size_t i = 0; i < sp->nargs; i++) {
        const cutune_spec_arg *a = &sp->args[i];
        if (a->kind == CUTUNE_ARG_SCALAR &&
            (a->type == CUTUNE_ELEM_HALF || a->type == CUTUNE_ELEM_BF16 || !a->value))
            return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "%s: args[%zu] ('%s'): %s",
                              sp->path, i, a->name,
                              a->value ? "half and bfloat16 scalars are not supported by the "
                                         "cuda evaluator"
                                       : "scalar without a value");
        if (a->kind == CUTUNE_ARG_BUFFER && !a->size)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: args[%zu].size missing", sp->path,
                              i);
        if (a->kind == CUTUNE_ARG_BUFFER && a->init == CUTUNE_INIT_KERNEL) {
            size_t cap = sizeof((cutune_cuda_argdesc *)0)->init_name;
            if (!a->init_name || !a->init_name[0] || strlen(a->init_name) >= cap)
                return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                                  "%s: args[%zu].init: generator kernel name missing or longer "
                                  "than %zu characters",
                                  sp->path, i, cap - 1);
            if (a->output)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: args[%zu].init: a generator kernel fills inputs only "
                                  "(outputs are poisoned before each verification)",
                                  sp->path, i);
        }
    }
    return 0;
}

/* The sizes-only module (the source with only the sizes defined) holds the
 * reference kernel and the generator kernels of "init": "kernel:NAME". */
static int needs_sizes_module(const cutune_spec *sp)
{
    if (sp->ref_kind == CUTUNE_REF_KERNEL)
        return 1;
    for (size_t i = 0; i < sp->nargs; i++)
        if (sp->args[i].kind == CUTUNE_ARG_BUFFER && sp->args[i].init == CUTUNE_INIT_KERNEL)
            return 1;
    return 0;
}

static int build_setup(cuda_state *st, cutune_cuda_setup *su, unsigned long seed, char *err,
                       size_t errlen)
{
    const cutune_spec *sp = st->spec;
    memset(su, 0, sizeof *su);
    su->seed = seed;
    su->flush_l2 = st->flush_l2;
    su->warmup = st->warmup;
    su->min_reps = st->min_reps;
    su->max_reps = st->max_reps;
    su->max_time_s = st->max_time_s;
    su->ci_rel = st->ci;
    su->energy_window_s = st->energy_window_s;
    su->energy_batch = st->energy_batch;
    su->nargs = (uint32_t)sp->nargs;
    for (size_t i = 0; i < sp->nargs; i++) {
        const cutune_spec_arg *a = &sp->args[i];
        cutune_cuda_argdesc *d = &su->args[i];
        snprintf(d->name, sizeof d->name, "%s", a->name);
        d->kind = (uint8_t)a->kind;
        d->type = (uint8_t)a->type;
        d->init = (uint8_t)a->init;
        /* 1: an output (poisoned, verified); 2: inout (restored before every launch) */
        d->output = (uint8_t)(a->kind == CUTUNE_ARG_BUFFER && a->output ? 1 + (a->inout != 0) : 0);
        d->lo = a->init_lo;
        d->hi = a->init_hi;
        if (a->kind == CUTUNE_ARG_BUFFER && a->init == CUTUNE_INIT_KERNEL && a->init_name)
            snprintf(d->init_name, sizeof d->init_name, "%s", a->init_name);
        d->tensor = a->kind == CUTUNE_ARG_TENSORMAP ? (int32_t)a->tensor : -1;
        d->trank = (uint8_t)(a->kind == CUTUNE_ARG_TENSORMAP ? a->trank : 0);
        d->swizzle = (uint8_t)a->swizzle;
    }
    su->ref_kind = sp->ref_kind;
    snprintf(su->ref_name, sizeof su->ref_name, "%s", sp->ref_name ? sp->ref_name : "");
    su->rtol = sp->rtol;
    su->atol = sp->atol;
    su->gemm_a = su->gemm_b = su->gemm_c = su->gemm_alpha = su->gemm_beta = -1;
    if (needs_sizes_module(sp)) {
        su->ref_cubin = st->ref.cubin;
        su->ref_cubin_size = st->ref.cubin_size;
    }
    if (sp->ref_kind == CUTUNE_REF_BUILTIN) {
        int abt = sp->ref_name && !strcmp(sp->ref_name, "cublas_gemm_abt");
        if (!sp->ref_name || (strcmp(sp->ref_name, "cublas_sgemm") && !abt))
            return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                              "%s: reference.builtin '%s' is unknown (known: cublas_sgemm, "
                              "cublas_gemm_abt)",
                              sp->path, sp->ref_name ? sp->ref_name : "");
        su->gemm_a = find_arg(sp, "A");
        su->gemm_b = find_arg(sp, "B");
        su->gemm_c = find_arg(sp, "C");
        su->gemm_alpha = find_arg(sp, "alpha");
        su->gemm_beta = find_arg(sp, "beta");
        int bad = su->gemm_a < 0 || su->gemm_b < 0 || su->gemm_c < 0;
        for (int i = 0; !bad && i < 3; i++) {
            const cutune_spec_arg *a = &sp->args[(&su->gemm_a)[i]];
            cutune_elem_type t0 = sp->args[su->gemm_a].type;
            bad = a->kind != CUTUNE_ARG_BUFFER ||
                  (abt ? a->type != t0 || (t0 != CUTUNE_ELEM_FLOAT && t0 != CUTUNE_ELEM_HALF &&
                                           t0 != CUTUNE_ELEM_BF16)
                       : a->type != CUTUNE_ELEM_FLOAT);
        }
        if (abt && (bad || find_size(st->space, "M", &su->gemm_m) < 0 ||
                    find_size(st->space, "N", &su->gemm_n) < 0 ||
                    find_size(st->space, "K", &su->gemm_k) < 0))
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: reference cublas_gemm_abt needs buffers A, B, C of one type "
                              "(float, half or bfloat16) and sizes M, N, K (row-major C = "
                              "alpha*A*B^T + beta*C, B is N x K)",
                              sp->path);
        if (bad || find_size(st->space, "M", &su->gemm_m) < 0 ||
            find_size(st->space, "N", &su->gemm_n) < 0 ||
            find_size(st->space, "K", &su->gemm_k) < 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: reference cublas_sgemm needs float buffers A, B, C and sizes "
                              "M, N, K (row-major C = alpha*A*B + beta*C)",
                              sp->path);
        if (!sp->args[su->gemm_c].output)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: cublas_sgemm: C must be an output",
                              sp->path);
    }
    return 0;
}

static int eval_int(const cutune_expr *e, const cutune_value *vars, int64_t dflt, int64_t *out,
                    const char *what, char *err, size_t errlen)
{
    if (!e) {
        *out = dflt;
        return 0;
    }
    double d;
    char eb[200];
    int rc = cutune_expr_eval_double(e, vars, &d, eb, sizeof eb);
    if (rc < 0)
        return cutune_err(err, errlen, rc, "%s '%s': %s", what, cutune_expr_text(e), eb);
    if (!isfinite(d) || fabs(d) > 9.2e18)
        return cutune_err(err, errlen, CUTUNE_EMATH, "%s '%s' = %g", what, cutune_expr_text(e), d);
    *out = (int64_t)llround(d);
    return 0;
}

/* A scalar argument's bytes; an integer type takes an integer value as it is (an int64
 * past 2^53 would lose digits through a double), a real one rounded (the spec's load
 * checks refuse a non-integer value for an integer type). */
static uint64_t scalar_bits(int type, const cutune_value *val)
{
    uint64_t bits = 0;
    double v = cutune_value_as_double(val);
    long long n = val->type == CUTUNE_VALUE_INT ? val->i : llround(v);
    switch (type) {
    case CUTUNE_ELEM_FLOAT: {
        float f = (float)v;
        memcpy(&bits, &f, 4);
        break;
    }
    case CUTUNE_ELEM_DOUBLE: memcpy(&bits, &v, 8); break;
    case CUTUNE_ELEM_INT32: {
        int32_t x = (int32_t)n;
        memcpy(&bits, &x, 4);
        break;
    }
    case CUTUNE_ELEM_UINT32: {
        uint32_t x = (uint32_t)n;
        memcpy(&bits, &x, 4);
        break;
    }
    case CUTUNE_ELEM_INT64: {
        int64_t x = (int64_t)n;
        memcpy(&bits, &x, 8);
        break;
    }
    default: {
        uint8_t x = (uint8_t)n;
        memcpy(&bits, &x, 1);
        break;
    }
    }
    return bits;
}

static int add_opt(char ***opts, size_t *n, const char *fmt, const char *a, const char *b)
{
    char **o = realloc(*opts, (*n + 1) * sizeof *o);
    if (!o)
        return CUTUNE_ENOMEM;
    *opts = o;
    size_t len = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
    o[*n] = malloc(len);
    if (!o[*n])
        return CUTUNE_ENOMEM;
    snprintf(o[*n], len, fmt, a, b);
    (*n)++;
    return 0;
}

static void free_opts(char **o, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(o[i]);
    free(o);
}

/* Compile options and launch of configuration id. Expression failures are
 * the configuration's (plan_rc), reported as its launch_error. */
static int plan(cuda_state *st, job_entry *e, char *err, size_t errlen)
{
    const cutune_spec *sp = st->spec;
    const cutune_space *space = st->space;
    size_t np = cutune_space_nparams(space);
    cutune_cuda_launch *l = &e->launch;
    cutune_space_values(space, e->id, st->vars);
    char val[256];
    int rc;
    for (size_t p = 0; p < np; p++) {
        cutune_value_format(&st->vars[p], val, sizeof val);
        if ((rc = add_opt(&e->job.opts, &e->job.nopts, "-D%s=%s",
                          cutune_space_param(space, p)->name, val)) < 0)
            goto out_oom;
    }
    for (size_t i = 0; i < st->nsize_defs; i++)
        if ((rc = add_opt(&e->job.opts, &e->job.nopts, "%s%s", st->size_defs[i], "")) < 0)
            goto out_oom;
    char **so = NULL;
    size_t nso = 0;
    rc = cutune_spec_options(sp, e->id, &so, &nso, e->plan_err, sizeof e->plan_err);
    if (rc == CUTUNE_ENOMEM)
        goto out_oom;
    if (rc < 0) {
        e->plan_rc = rc;
        return 0;
    }
    for (size_t i = 0; i < nso && rc == 0; i++)
        rc = add_opt(&e->job.opts, &e->job.nopts, "%s%s", so[i], "");
    free_opts(so, nso);
    /* a spec that names its target (sm_90a for wgmma) keeps it; otherwise the device's */
    int own_arch = 0;
    for (size_t i = 0; i < e->job.nopts; i++)
        own_arch |= !strncmp(e->job.opts[i], "--gpu-architecture=", 19) ||
                    !strncmp(e->job.opts[i], "-arch=", 6) || !strncmp(e->job.opts[i], "-arch", 6);
    if (rc < 0 ||
        (!own_arch && (rc = add_opt(&e->job.opts, &e->job.nopts, "%s%s", st->arch_opt, "")) < 0))
        goto out_oom;
    e->job.source = sp->source;
    e->job.name = st->source_name;
    e->job.cache_dir = st->use_cache && st->cache_dir[0] ? st->cache_dir : NULL;
    e->job.nvcc = st->nvcc[0] ? st->nvcc : NULL;

    l->id = e->id;
    l->kernel = sp->kernel_name;
    l->nargs = (uint32_t)sp->nargs;
    char *pe = e->plan_err;
    size_t pl = sizeof e->plan_err;
    static const char *const gn[3] = {"launch.grid[0]", "launch.grid[1]", "launch.grid[2]"};
    static const char *const bn[3] = {"launch.block[0]", "launch.block[1]", "launch.block[2]"};
    for (int i = 0; i < 3 && e->plan_rc == 0; i++) {
        if ((e->plan_rc = eval_int(sp->grid[i], st->vars, 1, &l->grid[i], gn[i], pe, pl)) < 0 ||
            (e->plan_rc = eval_int(sp->block[i], st->vars, 1, &l->block[i], bn[i], pe, pl)) < 0 ||
            (e->plan_rc = eval_int(sp->ref_grid[i], st->vars, 1, &l->ref_grid[i], "reference.grid",
                                   pe, pl)) < 0 ||
            (e->plan_rc = eval_int(sp->ref_block[i], st->vars, 1, &l->ref_block[i],
                                   "reference.block", pe, pl)) < 0)
            break;
    }
    if (e->plan_rc == 0)
        e->plan_rc = eval_int(sp->shared_mem, st->vars, 0, &l->smem, "launch.shared_mem", pe, pl);
    if (e->plan_rc == 0)
        e->plan_rc =
            eval_int(sp->ref_shared_mem, st->vars, 0, &l->ref_smem, "reference.shared_mem", pe, pl);
    for (size_t i = 0; i < sp->nargs && e->plan_rc == 0; i++) {
        const cutune_spec_arg *a = &sp->args[i];
        if (a->kind == CUTUNE_ARG_BUFFER) {
            int64_t c = 0;
            e->plan_rc = eval_int(a->size, st->vars, 0, &c, a->name, pe, pl);
            if (e->plan_rc == 0 && c < 0)
                e->plan_rc = cutune_err(pe, pl, CUTUNE_EMATH, "args '%s': size %lld < 0", a->name,
                                        (long long)c);
            l->count[i] = (uint64_t)c;
        } else if (a->kind == CUTUNE_ARG_TENSORMAP) {
            for (size_t d = 0; d < a->trank && e->plan_rc == 0; d++) {
                int64_t v = 0, bx = 0;
                e->plan_rc = eval_int(a->tdims[d], st->vars, 1, &v, a->name, pe, pl);
                if (e->plan_rc == 0)
                    e->plan_rc = eval_int(a->tbox[d], st->vars, 1, &bx, a->name, pe, pl);
                if (e->plan_rc == 0 && (v < 1 || bx < 1 || bx > 256))
                    e->plan_rc = cutune_err(pe, pl, CUTUNE_EMATH,
                                            "args '%s': dims[%zu] = %lld, box[%zu] = %lld (dims "
                                            ">= 1, box 1..256)",
                                            a->name, d, (long long)v, d, (long long)bx);
                l->tdim[i][d] = (uint64_t)v;
                l->tbox[i][d] = (uint32_t)bx;
            }
        } else {
            cutune_value v = {0};
            char eb[200];
            e->plan_rc = cutune_expr_eval(a->value, st->vars, &v, eb, sizeof eb);
            if (e->plan_rc == 0 && v.type == CUTUNE_VALUE_STRING)
                e->plan_rc = cutune_err(eb, sizeof eb, CUTUNE_EINVAL, "a string, not a number");
            if (e->plan_rc < 0)
                cutune_err(pe, pl, e->plan_rc, "args '%s': %s", a->name, eb);
            l->bits[i] = scalar_bits(a->type, &v);
        }
    }
    /* a tensor map never reaches past its buffer */
    for (size_t i = 0; i < sp->nargs && e->plan_rc == 0; i++) {
        const cutune_spec_arg *a = &sp->args[i];
        if (a->kind != CUTUNE_ARG_TENSORMAP)
            continue;
        double elems = 1;
        for (size_t d = 0; d < a->trank; d++)
            elems *= (double)l->tdim[i][d];
        if (elems > (double)l->count[a->tensor])
            e->plan_rc = cutune_err(pe, pl, CUTUNE_EINVAL,
                                    "args '%s': dims cover %.0f elements, buffer '%s' holds %llu",
                                    a->name, elems, sp->args[a->tensor].name,
                                    (unsigned long long)l->count[a->tensor]);
    }
    return 0;
out_oom:
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
}

static void entry_free(job_entry *e)
{
    if (!e)
        return;
    cutune_cuda_compiled_clear(&e->job.out);
    free_opts(e->job.opts, e->job.nopts);
    free(e);
}

/* The entry of id, planned and (when pipelining) queued for compilation. */
int cuda_entry_get(cuda_state *st, size_t id, job_entry **out, char *err, size_t errlen)
{
    for (job_entry *e = st->jobs; e; e = e->next)
        if (e->id == id) {
            *out = e;
            return 0;
        }
    job_entry *e = calloc(1, sizeof *e);
    if (!e)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    e->id = id;
    int rc = plan(st, e, err, errlen);
    if (rc < 0) {
        entry_free(e);
        return rc;
    }
    if (st->pool && e->plan_rc == 0) {
        cutune_cuda_pool_submit(st->pool, &e->job);
        e->submitted = 1;
    }
    e->next = st->jobs;
    st->jobs = e;
    *out = e;
    return 0;
}

void cuda_entry_remove(cuda_state *st, job_entry *e)
{
    if (st->sync_ready)
        pthread_mutex_lock(&st->mu);
    for (job_entry **pp = &st->jobs; *pp; pp = &(*pp)->next)
        if (*pp == e) {
            *pp = e->next;
            break;
        }
    if (st->sync_ready)
        pthread_mutex_unlock(&st->mu);
    entry_free(e);
}

/* ---- the type ---- */

static void cuda_free(void *state);
static int cuda_alloc(void *state, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    cuda_state *st = state;
    cutune_cuda_setup su;
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->work, NULL);
    pthread_cond_init(&st->done_cv, NULL);
    st->sync_ready = 1;
    int rc = cuda_parse_args(st, ctx->arg, err, errlen);
    if (rc < 0)
        return rc;
    if (!ctx->spec || !ctx->space)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "evaluator 'cuda' needs a kernel spec (not a recording)");
    if (!cutune_cuda_have_nvrtc() && !st->nvcc[0])
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                          "evaluator 'cuda': cutune was built without NVRTC (no CUDA toolkit; "
                          "compiler=nvcc compiles with nvcc instead)");
    st->spec = ctx->spec;
    st->space = ctx->space;
    if ((rc = check_spec(st->spec, err, errlen)) < 0)
        return rc;
    const char *base = strrchr(st->spec->source_path ? st->spec->source_path : "", '/');
    snprintf(st->source_name, sizeof st->source_name, "%s",
             base                    ? base + 1
             : st->spec->source_path ? st->spec->source_path
                                     : "kernel.cu");
    if (st->use_cache && !st->cache_dir[0] &&
        cutune_cuda_cache_dir(st->cache_dir, sizeof st->cache_dir) < 0)
        st->cache_dir[0] = '\0';
    st->nvars = cutune_space_nparams(st->space) + cutune_space_nconstants(st->space);
    st->vars = calloc(st->nvars ? st->nvars : 1, sizeof *st->vars);
    if (!st->vars) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_fail;
    }
    for (size_t c = 0; c < st->spec->nsizes; c++) {
        char val[128];
        cutune_value v = cutune_space_constant_value(st->space, c);
        cutune_value_format(&v, val, sizeof val);
        if ((rc = add_opt(&st->size_defs, &st->nsize_defs, "-D%s=%s",
                          cutune_space_constant_name(st->space, c), val)) < 0) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_fail;
        }
    }

    if (st->energy_window_s < 0)
        st->energy_window_s = cutune_cuda_energy_window_default(ctx->need_metrics, ctx->nneed);
    /* The workers first: without a device there is nothing to do. */
    if ((rc = cuda_start_workers(st, ctx->verbose, err, errlen)) < 0)
        goto out_fail;
    const cutune_cuda_hello *h = &st->sess[0].hello;
    for (size_t n = 0; n < ctx->nneed; n++) {
        static const char *const energy[] = {
            "energy_j",          "power_w",         "energy_window_ms", "energy_launches",
            "energy_readings",   "energy_source",   "energy_busy",      "energy_step_mj",
            "energy_resolution", "energy_update_ms"};
        for (size_t k = 0; k < sizeof energy / sizeof energy[0]; k++)
            if (!strcmp(ctx->need_metrics[n], energy[k]) &&
                h->energy_source == CUTUNE_CUDA_ENERGY_NONE) {
                rc = cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                                "evaluator 'cuda': the objective reads %s, but NVML measures no "
                                "energy on %s (libnvidia-ml.so.1 missing, or the GPU has neither "
                                "an energy counter nor a power reading)",
                                energy[k], h->name);
                goto out_fail;
            }
    }
    if (!st->arch)
        st->arch = h->cc_major * 10 + h->cc_minor;
    snprintf(st->arch_opt, sizeof st->arch_opt, "--gpu-architecture=sm_%d", st->arch);
    char many[32] = "";
    if (st->nsess > 1)
        snprintf(many, sizeof many, " x %zu", st->nsess);
    snprintf(st->device_line, sizeof st->device_line, "%s%s (sm_%d%d, %d SMs, CUDA driver %d.%d)",
             h->name, many, h->cc_major, h->cc_minor, h->sm_count, h->driver_version / 1000,
             (h->driver_version % 1000) / 10);

    if (needs_sizes_module(st->spec)) {
        /* Same source, only the sizes defined: the reference is the
         * configuration-free truth the tuned variants are compared with, and
         * the generator kernels fill the same inputs for every configuration. */
        size_t n = st->nsize_defs;
        const char **o = calloc(n + 1, sizeof *o);
        if (!o) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_fail;
        }
        for (size_t i = 0; i < n; i++)
            o[i] = st->size_defs[i];
        o[n] = st->arch_opt;
        rc = cutune_cuda_compile_with(
            st->nvcc[0] ? st->nvcc : NULL, st->spec->source, st->source_name, o, n + 1,
            st->use_cache && st->cache_dir[0] ? st->cache_dir : NULL, &st->ref, err, errlen);
        free(o);
        if (rc < 0)
            goto out_fail;
        if (st->ref.status != CUTUNE_STATUS_OK) {
            const cutune_spec *sp = st->spec;
            const char *log = st->ref.log ? st->ref.log : "(no log)";
            if (sp->ref_kind == CUTUNE_REF_KERNEL)
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "%s: the reference kernel '%s' does not compile with only the "
                                "sizes defined: %.300s",
                                sp->path, sp->ref_name, log);
            else
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "%s: the init generator kernels (\"kernel:NAME\") do not "
                                "compile with only the sizes defined: %.300s",
                                sp->path, log);
            goto out_fail;
        }
    }
    if ((rc = build_setup(st, &su, ctx->seed, err, errlen)) < 0)
        goto out_fail;
    for (size_t k = 0; k < st->nsess; k++)
        if ((rc = cutune_cuda_encode_setup(&st->sess[k].setup, &su)) < 0 ||
            (rc = cutune_cuda_send(st->sess[k].fd, &st->sess[k].setup)) < 0) {
            rc = cutune_err(err, errlen, rc, "sending the setup to the CUDA worker failed");
            goto out_fail;
        }
    if (st->pipeline) {
        long n = st->threads;
        if (n <= 0) {
            /* one core for the tuner and the worker; NVRTC scales to about 16 */
            n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
            n = n < 1 ? 1 : n > 16 ? 16 : n;
        }
        if ((rc = cutune_cuda_pool_alloc((size_t)n, &st->pool, err, errlen)) < 0)
            goto out_fail;
        st->nthreads = (size_t)n;
    }
    /* several GPUs: each measured by a thread of its own, all at once */
    for (size_t k = 0; st->nsess > 1 && k < st->nsess; k++) {
        st->margs[k] = (measurer){st, (int)k};
        if (pthread_create(&st->measurers[k], NULL, cuda_measure_main, &st->margs[k]) != 0) {
            rc = cutune_err(err, errlen, CUTUNE_EIO, "cannot start a measuring thread");
            goto out_fail;
        }
        st->nmeasurers++;
    }
    return 0;
out_fail:
    cuda_free(st);
    return rc;
}

static int cuda_evaluate(void *state, const size_t *ids, size_t k, cutune_eval_result *results,
                         char *err, size_t errlen)
{
    cuda_state *st = state;
    job_entry *e;
    int rc;
    /* Queue the whole batch first so that its members compile in parallel. */
    for (size_t i = 0; i < k; i++)
        if ((rc = cuda_entry_get(st, ids[i], &e, err, errlen)) < 0)
            return rc;
    for (size_t i = 0; i < k; i++) {
        if ((rc = cuda_entry_get(st, ids[i], &e, err, errlen)) < 0 ||
            (rc = cuda_measure(st, &st->sess[0], e, &results[i], err, errlen)) < 0)
            return rc;
    }
    return 0;
}

static void cuda_prefetch(void *state, const size_t *ids, size_t k)
{
    cuda_state *st = state;
    job_entry *e;
    if (!st->pool)
        return;
    pthread_mutex_lock(&st->mu);
    for (size_t i = 0; i < k; i++)
        if (cuda_entry_get(st, ids[i], &e, NULL, 0) < 0)
            break;
    pthread_mutex_unlock(&st->mu);
}

static const char *cuda_device(void *state)
{
    cuda_state *st = state;
    return st->device_line[0] ? st->device_line : "cuda";
}

static void cuda_free(void *state)
{
    cuda_state *st = state;
    /* Threads first: a running measurement or compile may still use an entry. */
    if (st->sync_ready) {
        pthread_mutex_lock(&st->mu);
        st->stop = 1;
        pthread_cond_broadcast(&st->work);
        pthread_mutex_unlock(&st->mu);
    }
    for (size_t k = 0; k < st->nmeasurers; k++)
        pthread_join(st->measurers[k], NULL);
    st->nmeasurers = 0;
    cutune_cuda_pool_free(st->pool);
    st->pool = NULL;
    while (st->done) {
        done_entry *d = st->done;
        st->done = d->next;
        cutune_eval_result_clear(&d->res);
        free(d);
    }
    while (st->jobs)
        cuda_entry_remove(st, st->jobs);
    for (size_t k = 0; k < st->sess_started; k++)
        cutune_cuda_session_free(&st->sess[k]);
    st->sess_started = st->nsess = 0;
    free_opts(st->size_defs, st->nsize_defs);
    st->size_defs = NULL;
    st->nsize_defs = 0;
    free(st->vars);
    st->vars = NULL;
    cutune_cuda_compiled_clear(&st->ref);
    free(st->fly);
    st->fly = NULL;
    st->nfly = st->capfly = 0;
    if (st->sync_ready) {
        pthread_mutex_destroy(&st->mu);
        pthread_cond_destroy(&st->work);
        pthread_cond_destroy(&st->done_cv);
        st->sync_ready = 0;
    }
}

static const cutune_evaluator_type cuda_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "cuda",
    .help = "compile with NVRTC (or nvcc), verify and time on the GPU in a worker process "
            "(args: flush_l2=0|1, pipeline=0|1, threads=N, cache=0|1, cache_dir=DIR, "
            "timeout=S, max_time=S, max_reps=N, min_reps=N, ci=REL, warmup=N, arch=XY, "
            "energy_window=S (default 0.25 where energy is read, else 0), energy_batch=0|1, "
            "compiler=nvrtc|nvcc|PATH, devices=all|I,J,..|NAME (as --devices); worker=PATH: the "
            "worker executable, default cutune itself)",
    .size = sizeof(cuda_state),
    .flags = CUTUNE_EVALUATOR_NEEDS_GPU,
    .alloc = cuda_alloc,
    .evaluate = cuda_evaluate,
    .free = cuda_free,
    .device = cuda_device,
    .prefetch = cuda_prefetch,
    .submit = cuda_submit,
    .wait_any = cuda_wait_any,
    .slots = cuda_slots,
    .worker_name = cuda_worker_name,
};

const cutune_evaluator_type *const cutune_evaluator_cuda = &cuda_type;
