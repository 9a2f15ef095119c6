/* NVRTC (no GPU needed): every kernel in $CUTUNE_KERNELS compiles for a
 * sample of its configurations with exactly the options the evaluator
 * builds; compile errors are statuses with a log; the disk cache hits,
 * survives corruption and writes atomically; the evaluator without a
 * driver says so (ENODEV). Exit 77 (skipped) when NVRTC was not built. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The evaluator itself, for its static plan(): the options it compiles with. */
#include "src/eval/cuda/cuda.c"

static char cache_dir[512];

static const char *good_src =
    "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = VALUE; }\n";

/* The compile contract, for NVRTC (nvcc NULL) or nvcc: a CUBIN; a compile error is a
 * status with the compiler's log, not a failure; -O3 (an nvcc option) gives o3_status. */
static void check_compile(const char *nvcc, int o3_status)
{
    cutune_cuda_compiled c;
    char err[256];
    const char *opts[] = {"-DVALUE=2.0f", "--gpu-architecture=sm_90"};
    assert_int_equal(
        cutune_cuda_compile_with(nvcc, good_src, "k.cu", opts, 2, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.status, CUTUNE_STATUS_OK);
    assert_true(c.cubin_size > 4);
    assert_memory_equal(c.cubin,
                        "\x7f"
                        "ELF",
                        4);
    assert_int_equal(c.cache_hit, 0);
    cutune_cuda_compiled_clear(&c);

    /* undefined VALUE: a compile error with the log, not a failure */
    assert_int_equal(
        cutune_cuda_compile_with(nvcc, good_src, "k.cu", opts + 1, 1, NULL, &c, err, sizeof err),
        0);
    assert_int_equal(c.status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_non_null(c.log);
    assert_non_null(strstr(c.log, "VALUE"));
    assert_null(c.cubin);
    cutune_cuda_compiled_clear(&c);

    /* an nvcc-only flag: NVRTC rejects it (a compile error too), nvcc takes it */
    const char *o3[] = {"-DVALUE=1.0f", "-O3", "--gpu-architecture=sm_90"};
    assert_int_equal(
        cutune_cuda_compile_with(nvcc, good_src, "k.cu", o3, 3, NULL, &c, err, sizeof err), 0);
    assert_int_equal(c.status, o3_status);
    cutune_cuda_compiled_clear(&c);
}

static void test_compile_ok_and_error(void **state)
{
    (void)state;
    check_compile(NULL, CUTUNE_STATUS_COMPILE_ERROR);
}

static size_t count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name), s = strlen(suffix);
        if (l >= s && !strcmp(e->d_name + l - s, suffix))
            n++;
    }
    closedir(d);
    return n;
}

static void test_cache(void **state)
{
    (void)state;
    cutune_cuda_compiled c;
    char err[256], dir[600];
    snprintf(dir, sizeof dir, "%s/cachetest-%d/deeper", cache_dir, (int)getpid());
    const char *opts[] = {"-DVALUE=3.0f", "--gpu-architecture=sm_90"};
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    size_t size = c.cubin_size;
    void *first = malloc(size);
    memcpy(first, c.cubin, size);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(count_files(dir, ".cubin"), 1);
    assert_int_equal(count_files(dir, ".tmp"), 0);

    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 1);
    assert_int_equal(c.status, CUTUNE_STATUS_OK);
    assert_int_equal(c.cubin_size, size);
    assert_memory_equal(c.cubin, first, size);
    cutune_cuda_compiled_clear(&c);

    /* other options: another entry */
    const char *opts2[] = {"-DVALUE=4.0f", "--gpu-architecture=sm_90"};
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts2, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(count_files(dir, ".cubin"), 2);

    /* compile errors are cached with their log */
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts + 1, 1, dir, &c, err, sizeof err),
                     0);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts + 1, 1, dir, &c, err, sizeof err),
                     0);
    assert_int_equal(c.cache_hit, 1);
    assert_int_equal(c.status, CUTUNE_STATUS_COMPILE_ERROR);
    assert_non_null(c.log);
    cutune_cuda_compiled_clear(&c);

    /* a truncated entry is a miss (and is rewritten), never a wrong binary */
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".cubin"))
            continue;
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        assert_int_equal(truncate(p, 20), 0);
    }
    closedir(d);
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    assert_memory_equal(c.cubin, first, size);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 1);
    cutune_cuda_compiled_clear(&c);

    /* the cache holds code the GPU runs: cutune makes its folder private, and a folder
     * others can write (where anyone could plant an entry) is neither read nor written */
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    assert_int_equal(c.status, CUTUNE_STATUS_OK);
    cutune_cuda_compiled_clear(&c);
    const char *opts3[] = {"-DVALUE=5.0f", "--gpu-architecture=sm_90"};
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts3, 2, dir, &c, err, sizeof err), 0);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(count_files(dir, ".cubin"), 3); /* nothing added */
    assert_int_equal(chmod(dir, 0700), 0);
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 1);
    cutune_cuda_compiled_clear(&c);
    free(first);
}

/* The path of the only .cubin entry in dir (asserts there is exactly one). */
static void only_entry(const char *dir, char *buf, size_t len)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".cubin") && n++ == 0)
            snprintf(buf, len, "%s/%s", dir, e->d_name);
    closedir(d);
    assert_int_equal(n, 1);
}

static void *slurp(const char *path, size_t *len)
{
    char *data;
    assert_int_equal(cutune_read_file(path, &data, len, NULL, 0), 0);
    return data;
}

static void spit(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* One compile into its own folder dir: returns whether it was a hit; the CUBIN must be
 * expect (when given) whatever the cache held. */
static int compile_hit(const char *dir, const char *value, const void *expect, size_t size)
{
    cutune_cuda_compiled c;
    char err[256], def[64];
    snprintf(def, sizeof def, "-DVALUE=%s", value);
    const char *opts[] = {def, "--gpu-architecture=sm_90"};
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.status, CUTUNE_STATUS_OK);
    if (expect) {
        assert_int_equal(c.cubin_size, size);
        assert_memory_equal(c.cubin, expect, size);
    }
    int hit = c.cache_hit;
    cutune_cuda_compiled_clear(&c);
    return hit;
}

/* The attack: the cache is trusted with code the GPU runs, so an entry that is not whole
 * and intact (a flipped bit, a truncation, a byte appended, another entry's content under
 * this key's name, an entry of the older format) is a miss: recompiled, rewritten, and the
 * run goes on; the next compile hits the rewritten entry. */
static void test_cache_corrupt(void **state)
{
    (void)state;
    char a[600], b[600], pa[1200], pb[1200];
    snprintf(a, sizeof a, "%s/corrupt-%d/a", cache_dir, (int)getpid());
    snprintf(b, sizeof b, "%s/corrupt-%d/b", cache_dir, (int)getpid());
    assert_int_equal(compile_hit(a, "6.0f", NULL, 0), 0);
    assert_int_equal(compile_hit(b, "7.0f", NULL, 0), 0);
    only_entry(a, pa, sizeof pa);
    only_entry(b, pb, sizeof pb);
    size_t na, nb;
    unsigned char *ea = slurp(pa, &na), *eb = slurp(pb, &nb);
    /* the CUBIN a correct compile of a gives (the entry's tail) */
    size_t cubin_size = 0;
    {
        cutune_cuda_compiled c;
        char err[256];
        const char *opts[] = {"-DVALUE=6.0f", "--gpu-architecture=sm_90"};
        assert_int_equal(cutune_cuda_compile(good_src, "k.cu", opts, 2, a, &c, err, sizeof err), 0);
        assert_int_equal(c.cache_hit, 1);
        cubin_size = c.cubin_size;
        cutune_cuda_compiled_clear(&c);
    }
    const unsigned char *cubin = ea + na - cubin_size;

    /* a flipped byte anywhere: in the header, the key, the lengths, the CUBIN */
    size_t at[] = {0, 17, 30, 45, na - cubin_size + 40, na - 1};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        unsigned char *bad = malloc(na);
        memcpy(bad, ea, na);
        bad[at[i]] ^= 0x01;
        spit(pa, bad, na);
        free(bad);
        assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
        assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 1); /* rewritten */
    }
    /* truncated to each part, and a byte appended */
    size_t cuts[] = {0, 10, 63, 64, na - cubin_size, na - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        spit(pa, ea, cuts[i]);
        assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
        assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 1);
    }
    unsigned char *longer = malloc(na + 1);
    memcpy(longer, ea, na);
    longer[na] = 0;
    spit(pa, longer, na + 1);
    free(longer);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
    /* b's whole, intact entry put under a's name: another key, a miss */
    spit(pa, eb, nb);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 1);
    /* the format before checksums (magic, status, lengths, payloads): a miss */
    {
        FILE *f = fopen(pa, "wb");
        uint32_t st = 0;
        uint64_t zero = 0, n = cubin_size;
        assert_non_null(f);
        fwrite("CUTUNE-CUBIN-1\n", 1, 15, f);
        fwrite(&st, 4, 1, f);
        fwrite(&zero, 8, 1, f);
        fwrite(&n, 8, 1, f);
        fwrite(cubin, 1, cubin_size, f);
        fclose(f);
    }
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 1);
    /* a link or a FIFO in the entry's place is never read (and the run goes on) */
    unlink(pa);
    assert_int_equal(symlink(pb, pa), 0);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
    unlink(pa);
    assert_int_equal(mkfifo(pa, 0600), 0);
    assert_int_equal(compile_hit(a, "6.0f", cubin, cubin_size), 0);
    unlink(pa);
    free(ea);
    free(eb);
}

static void test_pool(void **state)
{
    (void)state;
    cutune_cuda_pool *p;
    char err[256];
    enum { NJ = 6 };
    cutune_cuda_job jobs[NJ];
    assert_int_equal(cutune_cuda_pool_alloc(3, &p, err, sizeof err), 0);
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < NJ; i++) {
        jobs[i].source = good_src;
        jobs[i].name = "k.cu";
        jobs[i].opts = calloc(2, sizeof(char *));
        jobs[i].opts[0] = malloc(32);
        snprintf(jobs[i].opts[0], 32, "-DVALUE=%d.0f", i);
        jobs[i].opts[1] = strdup(i == 3 ? "--bogus-option" : "--gpu-architecture=sm_90");
        jobs[i].nopts = 2;
        cutune_cuda_pool_submit(p, &jobs[i]);
    }
    for (int i = NJ - 1; i >= 0; i--) { /* waiting in reverse takes queued jobs inline */
        cutune_cuda_pool_wait(p, &jobs[i]);
        assert_int_equal(jobs[i].state, 3);
        assert_int_equal(jobs[i].rc, 0);
        assert_int_equal(jobs[i].out.status,
                         i == 3 ? CUTUNE_STATUS_COMPILE_ERROR : CUTUNE_STATUS_OK);
    }
    cutune_cuda_pool_free(p);
    for (int i = 0; i < NJ; i++) {
        cutune_cuda_compiled_clear(&jobs[i].out);
        free(jobs[i].opts[0]);
        free(jobs[i].opts[1]);
        free(jobs[i].opts);
    }
}

/* Expected compile status of configuration id of a kernel: test_faults's
 * mode 5 is its compile error; everything else must compile. */
static int expect_compile_error(const cutune_spec *sp, size_t id)
{
    if (strcmp(sp->name, "test_faults"))
        return 0;
    cutune_value vars[16];
    cutune_space_values(sp->space, id, vars);
    return vars[cutune_space_param_index(sp->space, "MODE")].i == 5;
}

/* Returns 0, or -1 when the spec does not load (reported, the others go on). */
static int compile_kernel(const char *path)
{
    cutune_spec *sp = NULL;
    char err[512];
    int rc = cutune_spec_load(path, NULL, 0, &sp, err, sizeof err);
    if (rc < 0) {
        print_error("%s\n", err);
        return -1;
    }
    cuda_state st;
    memset(&st, 0, sizeof st);
    st.spec = sp;
    st.space = sp->space;
    st.arch = 90;
    snprintf(st.arch_opt, sizeof st.arch_opt, "--gpu-architecture=sm_90");
    snprintf(st.source_name, sizeof st.source_name, "%s.cu", sp->name);
    snprintf(st.cache_dir, sizeof st.cache_dir, "%s", cache_dir);
    st.use_cache = 1;
    st.nvars = cutune_space_nparams(st.space) + cutune_space_nconstants(st.space);
    st.vars = calloc(st.nvars, sizeof *st.vars);
    for (size_t c = 0; c < sp->nsizes; c++) {
        char val[64];
        cutune_value v = cutune_space_constant_value(st.space, c);
        cutune_value_format(&v, val, sizeof val);
        assert_int_equal(add_opt(&st.size_defs, &st.nsize_defs, "-D%s=%s",
                                 cutune_space_constant_name(st.space, c), val),
                         0);
    }
    assert_int_equal(check_spec(sp, err, sizeof err), 0);
    /* A sample: first, last and up to 6 spread between (all when few). */
    size_t size = cutune_space_size(sp->space);
    size_t nsample = size < 8 ? size : 8;
    size_t ncompiled = 0, ngen = 0;
    for (size_t s = 0; s < nsample; s++) {
        size_t id = nsample == 1 ? 0 : s * (size - 1) / (nsample - 1);
        job_entry *e = calloc(1, sizeof *e);
        e->id = id;
        assert_int_equal(plan(&st, e, err, sizeof err), 0);
        if (e->plan_rc < 0)
            fail_msg("%s: config %zu: %s", path, id, e->plan_err);
        cutune_cuda_job_run(&e->job);
        if (e->job.rc < 0)
            fail_msg("%s: config %zu: %s", path, id, e->job.err);
        int want_err = expect_compile_error(sp, id);
        if ((e->job.out.status == CUTUNE_STATUS_COMPILE_ERROR) != want_err) {
            char cfg[512];
            cutune_space_format_config(sp->space, id, cfg, sizeof cfg);
            fail_msg("%s: config %s: %s\n%s", path, cfg,
                     want_err ? "compiled, expected an error" : "compile error",
                     e->job.out.log ? e->job.out.log : "");
        }
        /* the grid and block of a valid configuration are positive */
        if (!want_err)
            for (int i = 0; i < 3; i++)
                assert_true(e->launch.grid[i] >= 1 && e->launch.block[i] >= 1);
        ncompiled++;
        entry_free(e);
    }
    /* the sizes-only module, as alloc compiles it (only the sizes defined): the
     * reference kernel and the generator kernels of "init": "kernel:NAME" */
    if (needs_sizes_module(sp)) {
        const char **o = calloc(st.nsize_defs + 1, sizeof *o);
        for (size_t i = 0; i < st.nsize_defs; i++)
            o[i] = st.size_defs[i];
        o[st.nsize_defs] = st.arch_opt;
        cutune_cuda_compiled c;
        assert_int_equal(cutune_cuda_compile(sp->source, st.source_name, o, st.nsize_defs + 1, NULL,
                                             &c, err, sizeof err),
                         0);
        if (c.status != CUTUNE_STATUS_OK)
            fail_msg("%s: the sizes-only module (reference, generators) does not compile:\n%s",
                     path, c.log ? c.log : "");
        /* every generator (and the reference kernel) is in the CUBIN: its code section
         * ".text.NAME" is named after the unmangled (extern "C") symbol */
        for (size_t i = 0; i <= sp->nargs; i++) {
            const char *name =
                i < sp->nargs
                    ? sp->args[i].init == CUTUNE_INIT_KERNEL ? sp->args[i].init_name : NULL
                : sp->ref_kind == CUTUNE_REF_KERNEL ? sp->ref_name
                                                    : NULL;
            if (!name)
                continue;
            char sec[256];
            int n = snprintf(sec, sizeof sec, ".text.%s", name);
            if (!memmem(c.cubin, c.cubin_size, sec, (size_t)n + 1))
                fail_msg("%s: kernel '%s' is not in the sizes-only CUBIN (extern \"C\"?)", path,
                         name);
            ngen += i < sp->nargs;
        }
        cutune_cuda_compiled_clear(&c);
        free(o);
    }
    cutune_cuda_setup su;
    assert_int_equal(build_setup(&st, &su, 1, err, sizeof err), 0);
    for (size_t i = 0; i < sp->nargs; i++)
        if (sp->args[i].init == CUTUNE_INIT_KERNEL)
            assert_string_equal(su.args[i].init_name, sp->args[i].init_name);
    if (ngen)
        print_message("%-28s %zu of %zu configurations compiled, %zu generator kernels\n", sp->name,
                      ncompiled, size, ngen);
    else
        print_message("%-28s %zu of %zu configurations compiled\n", sp->name, ncompiled, size);
    free_opts(st.size_defs, st.nsize_defs);
    free(st.vars);
    cutune_spec_free(sp);
    return 0;
}

/* Compiles a sample of every spec (*.json) in dir; counts them in *n, failures in *bad. */
static void compile_folder(const char *dir, size_t *n, size_t *bad)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json"))
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        *bad += compile_kernel(p) < 0;
        (*n)++;
    }
    closedir(d);
}

static void test_every_kernel(void **state)
{
    (void)state;
    const char *dir = getenv("CUTUNE_KERNELS");
    if (!dir)
        skip();
    size_t n = 0, bad = 0;
    compile_folder(dir, &n, &bad);
    assert_true(n >= 1);
    /* the README's examples (examples/NAME/NAME.json) compile too */
    const char *root = getenv("CUTUNE_SOURCE_ROOT");
    char ex[1024];
    snprintf(ex, sizeof ex, "%s/examples", root ? root : ".");
    DIR *d = root ? opendir(ex) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[2048];
        snprintf(sub, sizeof sub, "%s/%s", ex, e->d_name);
        struct stat st;
        if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            compile_folder(sub, &n, &bad);
    }
    if (d)
        closedir(d);
    assert_int_equal(bad, 0);
}

/* compiler=nvcc: the same contract as NVRTC (CUBIN, compile errors as statuses with
 * the log, the disk cache), its own cache entries, and nvcc's own options accepted. */
static void test_nvcc(void **state)
{
    (void)state;
    char nvcc[4096], err[256], dir[600];
    if (cutune_cuda_find_exe("nvcc", nvcc, sizeof nvcc) < 0 &&
        cutune_cuda_find_exe("/usr/local/cuda/bin/nvcc", nvcc, sizeof nvcc) < 0)
        skip();
    check_compile(nvcc, CUTUNE_STATUS_OK);
    cutune_cuda_compiled c;
    const char *opts[] = {"-DVALUE=2.0f", "--gpu-architecture=sm_90"};

    /* the cache keeps the two compilers apart */
    snprintf(dir, sizeof dir, "%s/nvcctest-%d", cache_dir, (int)getpid());
    const char *o5[] = {"-DVALUE=5.0f", "--gpu-architecture=sm_90"};
    assert_int_equal(cutune_cuda_compile(good_src, "k.cu", o5, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(
        cutune_cuda_compile_with(nvcc, good_src, "k.cu", o5, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 0);
    assert_int_equal(c.status, CUTUNE_STATUS_OK);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(
        cutune_cuda_compile_with(nvcc, good_src, "k.cu", o5, 2, dir, &c, err, sizeof err), 0);
    assert_int_equal(c.cache_hit, 1);
    cutune_cuda_compiled_clear(&c);
    assert_int_equal(count_files(dir, ".cubin"), 2);

    /* a compiler that cannot be run is a failure of the call, not a compile error */
    assert_true(cutune_cuda_compile_with("/nonexistent/nvcc", good_src, "k.cu", opts, 2, NULL, &c,
                                         err, sizeof err) < 0);
    assert_non_null(strstr(err, "/nonexistent/nvcc"));
}

static void test_alloc_without_driver(void **state)
{
    (void)state;
    const char *dir = getenv("CUTUNE_KERNELS");
    if (!dir)
        skip();
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/test_faults.json", dir);
    cutune_spec *sp = NULL;
    assert_int_equal(cutune_spec_load(path, NULL, 0, &sp, err, sizeof err), 0);
    setenv("CUTUNE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    cutune_evaluator_ctx ctx = {.space = sp->space, .spec = sp, .seed = 1};
    cutune_evaluator *ev = NULL;
    int rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_ENODEV);
    assert_non_null(strstr(err, "no CUDA driver"));
    assert_null(ev);
    unsetenv("CUTUNE_LIBCUDA");

    /* bad evaluator arguments are refused before anything starts */
    ctx.arg = "flush_l2=1,bogus=3";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "unknown key 'bogus'"));
    ctx.arg = "flush_l2=2";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    ctx.arg = "flush_l2=1,worker=";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "worker= needs the path of an executable"));
    ctx.arg = "worker=/bin/true,worker=/bin/false";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "worker= given twice"));
    ctx.arg = "flush_l2=1,timeout=2,flush_l2=0"; /* any key but devices= */
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "flush_l2= given twice"));
    ctx.arg = "compiler=/nonexistent/nvcc";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "compiler=/nonexistent/nvcc: not an executable file"));
    ctx.arg = "compiler=no-such-nvcc-here";
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    assert_non_null(strstr(err, "not found on PATH"));
    ctx.arg = NULL;
    ctx.spec = NULL;
    rc = cutune_evaluator_alloc(cutune_evaluator_cuda, &ctx, &ev, err, sizeof err);
    assert_int_equal(rc, CUTUNE_EINVAL);
    cutune_spec_free(sp);
    assert_true(cutune_evaluator_cuda->flags & CUTUNE_EVALUATOR_NEEDS_GPU);
    assert_string_equal(cutune_evaluator_cuda->name, "cuda");
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "worker")) /* the evaluator's worker, real driver */
        return cutune_cuda_worker_main(atoi(argv[3]), NULL);
    if (!cutune_cuda_have_nvrtc()) {
        fprintf(stderr, "NVRTC not built: skipped\n");
        return 77;
    }
    const char *cd = getenv("CUTUNE_CACHE_DIR");
    snprintf(cache_dir, sizeof cache_dir, "%s", cd && *cd ? cd : "/tmp/cutune-test-cache");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_ok_and_error), cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_corrupt),        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_every_kernel),         cmocka_unit_test(test_nvcc),
        cmocka_unit_test(test_alloc_without_driver),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
