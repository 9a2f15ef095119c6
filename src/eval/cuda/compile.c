/* NVRTC (or nvcc) compilation to CUBIN, the on-disk compile cache and the
 * compile thread pool. Neither needs a GPU, so everything here runs in the
 * parent and in CI; compiles of upcoming configurations overlap the GPU's
 * measurements. nvcc is there so that what is tuned is the code a project
 * builds: the two compilers emit different code for the same source (README). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cutune_config.h"
#include "cuda_internal.h"

#if CUTUNE_HAVE_NVRTC
#include <nvrtc.h>
#endif

void cutune_cuda_compiled_clear(cutune_cuda_compiled *c)
{
    if (!c)
        return;
    free(c->cubin);
    free(c->log);
    memset(c, 0, sizeof *c);
}

int cutune_cuda_have_nvrtc(void)
{
    return CUTUNE_HAVE_NVRTC;
}

void cutune_cuda_nvrtc_version(int *major, int *minor)
{
    *major = *minor = 0;
#if CUTUNE_HAVE_NVRTC
    nvrtcVersion(major, minor);
#endif
}

int cutune_cuda_cache_dir(char *buf, size_t len)
{
    const char *d = getenv("CUTUNE_CACHE_DIR");
    int n;
    if (d && *d)
        n = snprintf(buf, len, "%s", d);
    else if ((d = getenv("XDG_CACHE_HOME")) && *d)
        n = snprintf(buf, len, "%s/cutune", d);
    else if ((d = getenv("HOME")) && *d)
        n = snprintf(buf, len, "%s/.cache/cutune", d);
    else
        return CUTUNE_ENOTFOUND;
    return n < 0 || (size_t)n >= len ? CUTUNE_EINVAL : 0;
}

/* ---- cache ---- */

/* Two independent 64-bit FNV-1a streams (different offset bases) make a
 * 128-bit key: collisions between distinct compiles must not happen in
 * practice, and a 64-bit hash over many cached variants is close enough. */
typedef struct hash2 {
    uint64_t a, b;
} hash2;

static void hash_bytes(hash2 *h, const void *p, size_t n)
{
    const uint8_t *s = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ s[i]) * 0x100000001b3ull;
        h->b = (h->b ^ s[i]) * 0x100000001b3ull;
        h->b ^= h->b >> 29;
    }
}

static void hash_str(hash2 *h, const char *s)
{
    hash_bytes(h, s, strlen(s) + 1); /* the NUL separates fields */
}

static int mkdir_p(const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
        return -1;
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0700) < 0 && errno != EEXIST ? -1 : 0; /* the cache itself: private */
}

#define CACHE_MAGIC "CUTUNE-CUBIN-1\n"

/* Entry: magic, u32 status, u64 log length, log, u64 cubin length, cubin. */
static int cache_read(const char *path, cutune_cuda_compiled *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char magic[sizeof CACHE_MAGIC - 1];
    uint32_t status;
    uint64_t loglen, cubinlen;
    int rc = -1;
    if (fread(magic, 1, sizeof magic, f) != sizeof magic ||
        memcmp(magic, CACHE_MAGIC, sizeof magic) != 0 || fread(&status, 4, 1, f) != 1 ||
        fread(&loglen, 8, 1, f) != 1 || loglen > (64u << 20))
        goto out;
    if (loglen) {
        out->log = malloc(loglen + 1);
        if (!out->log || fread(out->log, 1, loglen, f) != loglen)
            goto out;
        out->log[loglen] = '\0';
    }
    if (fread(&cubinlen, 8, 1, f) != 1 || cubinlen > CUTUNE_CUDA_MAX_MSG)
        goto out;
    if (cubinlen) {
        out->cubin = malloc(cubinlen);
        if (!out->cubin || fread(out->cubin, 1, cubinlen, f) != cubinlen)
            goto out;
    }
    /* A truncated or foreign file is a miss, never a wrong binary. */
    if (fgetc(f) != EOF || (status == CUTUNE_STATUS_OK && !cubinlen))
        goto out;
    out->cubin_size = cubinlen;
    out->status = (int)status;
    rc = 0;
out:
    fclose(f);
    if (rc < 0) {
        free(out->log);
        free(out->cubin);
        out->log = NULL;
        out->cubin = NULL;
    }
    return rc;
}

/* Write through a cutune_outfile (an exclusive, unpredictable temporary, then rename):
 * readers (other runs, other threads) see a whole entry or none, and nothing planted in
 * the folder is written through. Failures only cost a recompile. */
static void cache_write(const char *dir, const char *path, const cutune_cuda_compiled *c)
{
    cutune_outfile *o = NULL;
    if (mkdir_p(dir) < 0 || cutune_outfile_open(path, 0, 0600, &o, NULL, 0) < 0)
        return;
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        return;
    }
    uint32_t status = (uint32_t)c->status;
    uint64_t loglen = c->log ? strlen(c->log) : 0, cubinlen = c->cubin_size;
    int ok = fwrite(CACHE_MAGIC, 1, sizeof CACHE_MAGIC - 1, f) == sizeof CACHE_MAGIC - 1 &&
             fwrite(&status, 4, 1, f) == 1 && fwrite(&loglen, 8, 1, f) == 1 &&
             (!loglen || fwrite(c->log, 1, loglen, f) == loglen) &&
             fwrite(&cubinlen, 8, 1, f) == 1 &&
             (!cubinlen || fwrite(c->cubin, 1, cubinlen, f) == cubinlen);
    if (ok)
        (void)cutune_outfile_commit(o, NULL, NULL, 0);
    else
        cutune_outfile_abort(o);
}

/* The cache holds code the GPU runs: only a folder that is this user's and that no one
 * else can write is trusted with it (read or written); another is passed over, said once. */
static int cache_dir_trusted(const char *dir)
{
    static int warned;
    struct stat st;
    if (stat(dir, &st) != 0)
        return 1; /* not there yet: mkdir_p makes it, private */
    if (S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)))
        return 1;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        fprintf(stderr,
                "cutune: warning: compile cache %s is not a folder of yours that only you can "
                "write: not used (compiles are not cached)\n",
                dir);
    return 0;
}

/* ---- NVRTC ---- */

#if CUTUNE_HAVE_NVRTC
static int nvrtc_compile(const char *source, const char *name, const char *const *opts,
                         size_t nopts, cutune_cuda_compiled *out, char *err, size_t errlen)
{
    nvrtcProgram prog = NULL;
    nvrtcResult nr = nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL);
    if (nr != NVRTC_SUCCESS)
        return cutune_err(err, errlen, nr == NVRTC_ERROR_OUT_OF_MEMORY ? CUTUNE_ENOMEM : CUTUNE_EIO,
                          "nvrtcCreateProgram: %s", nvrtcGetErrorString(nr));
    int rc = 0;
    nvrtcResult cr = nvrtcCompileProgram(prog, (int)nopts, opts);
    size_t loglen = 0;
    if (nvrtcGetProgramLogSize(prog, &loglen) == NVRTC_SUCCESS && loglen > 1) {
        out->log = malloc(loglen);
        if (out->log && nvrtcGetProgramLog(prog, out->log) != NVRTC_SUCCESS) {
            free(out->log);
            out->log = NULL;
        }
    }
    if (cr != NVRTC_SUCCESS) {
        /* Bad options are compile errors too: they may come from a tunable
         * parameter (-maxrregcount={maxreg}) and spoil one configuration. */
        out->status = CUTUNE_STATUS_COMPILE_ERROR;
        if (!out->log) {
            char line[256];
            snprintf(line, sizeof line, "nvrtc: %s", nvrtcGetErrorString(cr));
            out->log = strdup(line);
        }
        goto out_destroy;
    }
    size_t n = 0;
    if ((nr = nvrtcGetCUBINSize(prog, &n)) != NVRTC_SUCCESS || n == 0) {
        out->status = CUTUNE_STATUS_COMPILE_ERROR;
        free(out->log);
        out->log = strdup("nvrtc produced no CUBIN (is --gpu-architecture a real sm_XY?)");
        goto out_destroy;
    }
    out->cubin = malloc(n);
    if (!out->cubin) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_destroy;
    }
    if ((nr = nvrtcGetCUBIN(prog, out->cubin)) != NVRTC_SUCCESS) {
        rc = cutune_err(err, errlen, CUTUNE_EIO, "nvrtcGetCUBIN: %s", nvrtcGetErrorString(nr));
        goto out_destroy;
    }
    out->cubin_size = n;
    out->status = CUTUNE_STATUS_OK;
out_destroy:
    nvrtcDestroyProgram(&prog);
    return rc;
}
#endif

/* ---- nvcc ---- */

extern char **environ;

int cutune_cuda_find_exe(const char *name, char *buf, size_t len)
{
    if (!name || !*name)
        return CUTUNE_ENOTFOUND;
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return CUTUNE_ENOTFOUND;
        return snprintf(buf, len, "%s", name) < (int)len ? 0 : CUTUNE_EINVAL;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && snprintf(buf, len, "%.*s/%s", (int)n, path, name) < (int)len &&
            access(buf, X_OK) == 0)
            return 0;
        path += n + (colon ? 1 : 0);
    }
    return CUTUNE_ENOTFOUND;
}

static int nvcc_compile(const char *nvcc, const char *source, const char *name,
                        const char *const *opts, size_t nopts, cutune_cuda_compiled *out, char *err,
                        size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096], src[4200], cubin[4200], logp[4200];
    snprintf(dir, sizeof dir, "%s/cutune-nvcc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return cutune_err(err, errlen, CUTUNE_EIO, "nvcc: temporary directory %s: %s", dir,
                          strerror(errno));
    const char *base = strrchr(name, '/');
    snprintf(src, sizeof src, "%s/%s", dir, base ? base + 1 : name);
    snprintf(cubin, sizeof cubin, "%s/out.cubin", dir);
    snprintf(logp, sizeof logp, "%s/log.txt", dir);
    int rc = 0;
    char **argv = NULL;
    FILE *f = fopen(src, "wb");
    if (!f || fputs(source, f) < 0 || fclose(f) != 0) {
        if (f)
            fclose(f);
        rc = cutune_err(err, errlen, CUTUNE_EIO, "nvcc: writing %s: %s", src, strerror(errno));
        goto out;
    }
    argv = calloc(nopts + 6, sizeof *argv);
    if (!argv) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    size_t a = 0;
    argv[a++] = (char *)nvcc;
    argv[a++] = "-cubin";
    argv[a++] = "-o";
    argv[a++] = cubin;
    for (size_t i = 0; i < nopts; i++)
        argv[a++] = (char *)opts[i];
    argv[a++] = src;
    argv[a] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, logp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int se = posix_spawnp(&pid, nvcc, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (se != 0) {
        rc = cutune_err(err, errlen, CUTUNE_ENOTFOUND, "nvcc: cannot run %s: %s", nvcc,
                        strerror(se));
        goto out;
    }
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    size_t loglen = 0;
    (void)cutune_read_file(logp, &out->log, &loglen, NULL, 0); /* NULL when unreadable */
    if (out->log && loglen == 0) {
        free(out->log);
        out->log = NULL;
    }
    if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* like NVRTC: a bad option is a compile error of this configuration */
        out->status = CUTUNE_STATUS_COMPILE_ERROR;
        if (!out->log) {
            char line[128];
            snprintf(line, sizeof line, "nvcc: %s %d",
                     w >= 0 && WIFEXITED(status) ? "exit status" : "killed by signal",
                     w >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
            out->log = strdup(line);
        }
        goto out;
    }
    size_t n = 0;
    char *bin;
    (void)cutune_read_file(cubin, &bin, &n, NULL, 0); /* NULL when unreadable */
    out->cubin = bin;
    if (!out->cubin || n == 0) {
        free(out->cubin);
        out->cubin = NULL;
        out->status = CUTUNE_STATUS_COMPILE_ERROR;
        free(out->log);
        out->log = strdup("nvcc produced no CUBIN");
        goto out;
    }
    out->cubin_size = n;
    out->status = CUTUNE_STATUS_OK;
out:
    free(argv);
    unlink(src);
    unlink(cubin);
    unlink(logp);
    rmdir(dir);
    return rc;
}

int cutune_cuda_compile(const char *source, const char *name, const char *const *opts, size_t nopts,
                        const char *cache_dir, cutune_cuda_compiled *out, char *err, size_t errlen)
{
    return cutune_cuda_compile_with(NULL, source, name, opts, nopts, cache_dir, out, err, errlen);
}

/* What the cache key says about the compiler: NVRTC's version, or which nvcc
 * (path, size and mtime, so an upgraded toolkit does not reuse old CUBINs). */
static int compiler_id(const char *nvcc, char *buf, size_t len)
{
    if (nvcc) {
        char exe[4096];
        struct stat stt;
        if (cutune_cuda_find_exe(nvcc, exe, sizeof exe) < 0 || stat(exe, &stt) != 0)
            return CUTUNE_ENOTFOUND;
        snprintf(buf, len, "nvcc %s %lld %lld", exe, (long long)stt.st_size,
                 (long long)stt.st_mtime);
        return 0;
    }
#if CUTUNE_HAVE_NVRTC
    int maj, min;
    nvrtcVersion(&maj, &min);
    snprintf(buf, len, "nvrtc %d.%d", maj, min);
    return 0;
#else
    (void)buf;
    (void)len;
    return CUTUNE_EUNSUPPORTED;
#endif
}

int cutune_cuda_compile_with(const char *nvcc, const char *source, const char *name,
                             const char *const *opts, size_t nopts, const char *cache_dir,
                             cutune_cuda_compiled *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (nvcc && !*nvcc)
        nvcc = NULL;
#if !CUTUNE_HAVE_NVRTC
    if (!nvcc)
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                          "cutune was built without NVRTC (--evaluator=cuda:compiler=nvcc "
                          "compiles with nvcc instead)");
#endif
    double t0 = cutune_now();
    char path[4096] = "";
    if (cache_dir && *cache_dir && cache_dir_trusted(cache_dir)) {
        hash2 h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
        char ver[4200];
        if (compiler_id(nvcc, ver, sizeof ver) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOTFOUND, "nvcc: %s not found", nvcc);
        hash_str(&h, ver);
        hash_str(&h, name);
        hash_str(&h, source);
        for (size_t i = 0; i < nopts; i++)
            hash_str(&h, opts[i]);
        snprintf(path, sizeof path, "%s/%016llx%016llx.cubin", cache_dir, (unsigned long long)h.a,
                 (unsigned long long)h.b);
        if (cache_read(path, out) == 0) {
            out->cache_hit = 1;
            out->ms = (cutune_now() - t0) * 1000.0;
            return 0;
        }
    }
    int rc;
    if (nvcc)
        rc = nvcc_compile(nvcc, source, name, opts, nopts, out, err, errlen);
    else
#if CUTUNE_HAVE_NVRTC
        rc = nvrtc_compile(source, name, opts, nopts, out, err, errlen);
#else
        rc = CUTUNE_EUNSUPPORTED; /* not reached: refused above */
#endif
    if (rc < 0) {
        cutune_cuda_compiled_clear(out);
        return rc;
    }
    out->ms = (cutune_now() - t0) * 1000.0;
    if (path[0])
        cache_write(cache_dir, path, out);
    return 0;
}

/* ---- pool ---- */

struct cutune_cuda_pool {
    pthread_mutex_t mu;
    pthread_cond_t work; /* a job was queued, or stop */
    pthread_cond_t done; /* a job finished */
    cutune_cuda_job *head, *tail;
    int stop;
    size_t nthreads;
    pthread_t *threads;
};

void cutune_cuda_job_run(cutune_cuda_job *j)
{
    j->rc = cutune_cuda_compile_with(j->nvcc, j->source, j->name, (const char *const *)j->opts,
                                     j->nopts, j->cache_dir, &j->out, j->err, sizeof j->err);
}

static void *pool_main(void *arg)
{
    cutune_cuda_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && !p->head)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        cutune_cuda_job *j = p->head;
        p->head = j->qnext;
        if (!p->head)
            p->tail = NULL;
        j->state = 2;
        pthread_mutex_unlock(&p->mu);
        cutune_cuda_job_run(j);
        pthread_mutex_lock(&p->mu);
        j->state = 3;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int cutune_cuda_pool_alloc(size_t nthreads, cutune_cuda_pool **out, char *err, size_t errlen)
{
    *out = NULL;
    cutune_cuda_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->threads = calloc(nthreads ? nthreads : 1, sizeof *p->threads))) {
        free(p);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (size_t i = 0; i < nthreads; i++) {
        if (pthread_create(&p->threads[i], NULL, pool_main, p) != 0)
            break;
        p->nthreads++;
    }
    if (!p->nthreads) {
        cutune_cuda_pool_free(p);
        return cutune_err(err, errlen, CUTUNE_EIO, "cannot start compile threads");
    }
    *out = p;
    return 0;
}

void cutune_cuda_pool_submit(cutune_cuda_pool *p, cutune_cuda_job *j)
{
    pthread_mutex_lock(&p->mu);
    j->state = 1;
    j->qnext = NULL;
    if (p->tail)
        p->tail->qnext = j;
    else
        p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

void cutune_cuda_pool_wait(cutune_cuda_pool *p, cutune_cuda_job *j)
{
    pthread_mutex_lock(&p->mu);
    if (j->state == 1) {
        /* Needed now: take it off the queue rather than wait behind prefetches. */
        cutune_cuda_job **pp = &p->head, *prev = NULL;
        while (*pp && *pp != j) {
            prev = *pp;
            pp = &(*pp)->qnext;
        }
        if (*pp) {
            *pp = j->qnext;
            if (p->tail == j)
                p->tail = prev;
        }
        j->state = 2;
        pthread_mutex_unlock(&p->mu);
        cutune_cuda_job_run(j);
        pthread_mutex_lock(&p->mu);
        j->state = 3;
    }
    while (j->state != 3 && j->state != 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

size_t cutune_cuda_pool_wait_any(cutune_cuda_pool *p, cutune_cuda_job *const *jobs, size_t n)
{
    pthread_mutex_lock(&p->mu);
    for (;;) {
        for (size_t i = 0; i < n; i++)
            if (jobs[i]->state == 3) {
                pthread_mutex_unlock(&p->mu);
                return i;
            }
        pthread_cond_wait(&p->done, &p->mu);
    }
}

void cutune_cuda_pool_free(cutune_cuda_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (size_t i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p->threads);
    free(p);
}
