/* Throughput of the CUDA evaluator: one 60-evaluation run (random distinct
 * configurations, the next 4 prefetched as a tuner would) in three variants:
 *   serial     pipeline=0, empty compile cache: compile, then measure
 *   pipelined  pipeline=1, empty compile cache: NVRTC threads compile ahead
 *   warm       pipeline=1, the cache the pipelined run filled
 * For each: evaluations per minute, GPU-side busy fraction (worker time:
 * load + verify + timing, over wall time), kernel-busy fraction (timed
 * repetitions only), compile time. Prints a table; writes OUT/bench_cuda.json
 * and OUT/bench_cuda.csv.
 *
 * usage: bench_cuda KERNEL OUTDIR [EVALS] [NAME=VALUE size overrides...]
 * Exit 77 when there is no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cutune/cutune.h"
#include "src/eval/cuda/cuda_internal.h"

#define PREFETCH 4

typedef struct variant {
    const char *name;
    const char *arg_fmt; /* %s: cache dir */
    const char *cache;   /* subdirectory */
    int fresh;           /* empty the cache first */
    double wall_s, alloc_s, worker_s, kernel_s, compile_s, evals_per_min;
    size_t counts[CUTUNE_STATUS_COUNT], cache_hits, n;
} variant;

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int run_variant(cutune_spec *sp, variant *v, const char *out, const size_t *ids, size_t n)
{
    char dir[2048], arg[2300], err[1024];
    snprintf(dir, sizeof dir, "%s/%s", out, v->cache);
    if (v->fresh) {
        char cmd[2100];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return -1;
    }
    snprintf(arg, sizeof arg, v->arg_fmt, dir);
    cutune_evaluator_ctx ctx = {.space = sp->space, .spec = sp, .arg = arg, .seed = 1};
    cutune_evaluator *ev = NULL;
    double t0 = cutune_now();
    int rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", v->name, err);
        return rc;
    }
    double t1 = cutune_now();
    v->alloc_s = t1 - t0;
    for (size_t i = 0; i < n; i++) {
        size_t k = n - i - 1 < PREFETCH ? n - i - 1 : PREFETCH;
        if (k)
            cutune_evaluator_prefetch(ev, ids + i + 1, k);
        cutune_eval_result r = {0};
        if ((rc = cutune_evaluator_evaluate(ev, ids + i, 1, &r, err, sizeof err)) < 0) {
            fprintf(stderr, "%s: %s\n", v->name, err);
            break;
        }
        v->counts[r.status]++;
        v->worker_s += r.bench_ms > 0 ? r.bench_ms / 1e3 : 0;
        v->compile_s += r.compile_ms > 0 ? r.compile_ms / 1e3 : 0;
        for (size_t j = 0; j < r.ntimes; j++)
            v->kernel_s += r.times_ms[j] / 1e3;
        for (size_t j = 0; j < r.nmetrics; j++)
            if (!strcmp(r.metrics[j].name, "compile_cached"))
                v->cache_hits += r.metrics[j].value > 0;
        v->n++;
        cutune_eval_result_clear(&r);
    }
    v->wall_s = cutune_now() - t1;
    v->evals_per_min = v->wall_s > 0 ? 60.0 * (double)v->n / v->wall_s : 0;
    cutune_evaluator_free(ev);
    return rc < 0 ? rc : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "worker"))
        return cutune_cuda_worker_main(atoi(argv[3]), NULL);
    if (argc < 3) {
        fprintf(stderr, "usage: bench_cuda KERNEL OUTDIR [EVALS] [NAME=VALUE ...]\n");
        return 2;
    }
    const char *kernel = argv[1], *out = argv[2];
    size_t n = argc > 3 ? (size_t)atol(argv[3]) : 60;
    char path[2048], err[1024];
    cutune_size_override ov[8];
    size_t nov = 0;
    for (int i = 4; i < argc && nov < 8; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            continue;
        *eq = '\0';
        ov[nov].name = argv[i];
        ov[nov].value.type = CUTUNE_VALUE_INT;
        ov[nov].value.i = atoll(eq + 1);
        nov++;
    }
    if (cutune_spec_resolve(kernel, path, sizeof path, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    cutune_spec *sp = NULL;
    if (cutune_spec_load(path, ov, nov, &sp, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    mkdir(out, 0755);
    size_t size = cutune_space_size(sp->space);
    if (n > size)
        n = size;
    size_t *ids = malloc(n * sizeof *ids), *perm = malloc(size * sizeof *perm);
    uint64_t s = 12345;
    for (size_t i = 0; i < size; i++)
        perm[i] = i;
    for (size_t i = 0; i < n; i++) { /* partial Fisher-Yates: n distinct ids */
        size_t j = i + (size_t)(rng_next(&s) % (size - i));
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        ids[i] = perm[i];
    }
    free(perm);
    variant vs[3] = {
        {.name = "serial",
         .arg_fmt = "pipeline=0,cache_dir=%s",
         .cache = "cache-serial",
         .fresh = 1},
        {.name = "pipelined",
         .arg_fmt = "pipeline=1,cache_dir=%s",
         .cache = "cache-pipe",
         .fresh = 1},
        {.name = "pipelined+warm", .arg_fmt = "pipeline=1,cache_dir=%s", .cache = "cache-pipe"},
    };
    int rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++) {
        fprintf(stderr, "running %s (%zu evaluations of %s)...\n", vs[i].name, n, sp->name);
        rc = run_variant(sp, &vs[i], out, ids, n);
    }
    if (rc == CUTUNE_ENODEV) {
        fprintf(stderr, "skipped: no GPU\n");
        return 77;
    }
    char jp[2100], cp[2100];
    snprintf(jp, sizeof jp, "%s/bench_cuda.json", out);
    snprintf(cp, sizeof cp, "%s/bench_cuda.csv", out);
    FILE *jf = fopen(jp, "w"), *cf = fopen(cp, "w");
    if (cf)
        fprintf(cf, "variant,kernel,evaluations,wall_s,alloc_s,evals_per_min,gpu_busy,"
                    "kernel_busy,compile_s,cache_hits,ok,compile_error,launch_error,"
                    "runtime_error,timeout,wrong_result\n");
    if (jf)
        fprintf(jf, "{\"kernel\": \"%s\", \"evaluations\": %zu, \"variants\": [", sp->name, n);
    printf("\n%-16s %6s %9s %11s %9s %11s %10s %10s %6s\n", "variant", "evals", "wall_s",
           "evals/min", "gpu_busy", "kernel_busy", "compile_s", "cache_hits", "ok");
    for (int i = 0; i < 3; i++) {
        variant *v = &vs[i];
        double busy = v->wall_s > 0 ? v->worker_s / v->wall_s : 0;
        double kbusy = v->wall_s > 0 ? v->kernel_s / v->wall_s : 0;
        printf("%-16s %6zu %9.2f %11.1f %8.1f%% %10.1f%% %10.2f %10zu %6zu\n", v->name, v->n,
               v->wall_s, v->evals_per_min, 100 * busy, 100 * kbusy, v->compile_s, v->cache_hits,
               v->counts[CUTUNE_STATUS_OK]);
        if (cf)
            fprintf(cf, "%s,%s,%zu,%.4f,%.4f,%.2f,%.4f,%.4f,%.4f,%zu,%zu,%zu,%zu,%zu,%zu,%zu\n",
                    v->name, sp->name, v->n, v->wall_s, v->alloc_s, v->evals_per_min, busy, kbusy,
                    v->compile_s, v->cache_hits, v->counts[0], v->counts[1], v->counts[2],
                    v->counts[3], v->counts[4], v->counts[5]);
        if (jf) {
            fprintf(jf,
                    "%s\n  {\"variant\": \"%s\", \"evaluations\": %zu, \"wall_s\": %.4f, "
                    "\"alloc_s\": %.4f, \"evals_per_min\": %.2f, \"gpu_busy\": %.4f, "
                    "\"kernel_busy\": %.4f, \"compile_s\": %.4f, \"cache_hits\": %zu, "
                    "\"counts\": {",
                    i ? "," : "", v->name, v->n, v->wall_s, v->alloc_s, v->evals_per_min, busy,
                    kbusy, v->compile_s, v->cache_hits);
            for (int st = 0; st < CUTUNE_STATUS_COUNT; st++)
                fprintf(jf, "%s\"%s\": %zu", st ? ", " : "", cutune_status_name(st), v->counts[st]);
            fprintf(jf, "}}");
        }
    }
    if (jf) {
        fprintf(jf, "\n]}\n");
        fclose(jf);
    }
    if (cf)
        fclose(cf);
    printf("gpu_busy: worker time (load, verify, timing) / wall; kernel_busy: timed "
           "repetitions / wall\nwrote %s and %s\n",
           jp, cp);
    free(ids);
    cutune_spec_free(sp);
    return rc < 0 ? 1 : 0;
}
