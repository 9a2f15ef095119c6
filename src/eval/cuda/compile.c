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

/* An entry (docs/hardening.md, "The compile cache"): a fixed header, then the log and the
 * CUBIN. The header holds the entry's own key (the 128-bit hash of the compile inputs, so an
 * entry copied or renamed onto another key's file is a miss), the lengths, and a 64-bit
 * FNV-1a checksum of the header (checksum field zero) and both payloads: a flipped bit,
 * a truncation or an appended byte is a miss, recompiled and rewritten, never a binary
 * loaded onto the GPU. Integers are little-endian. */
#define CACHE_MAGIC "CUTUNE-CUBIN\n"
#define CACHE_VERSION 2u
#define CACHE_HDR 64 /* magic[13] pad[3] version u32 status u32 key[16] loglen cubinlen sum */
#define CACHE_LOG_MAX (64u << 20)

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void cache_header(uint8_t *h, const hash2 *key, uint32_t status, uint64_t loglen,
                         uint64_t cubinlen)
{
    memset(h, 0, CACHE_HDR);
    memcpy(h, CACHE_MAGIC, sizeof CACHE_MAGIC - 1);
    put_le(h + 16, CACHE_VERSION, 4);
    put_le(h + 20, status, 4);
    put_le(h + 24, key->a, 8);
    put_le(h + 32, key->b, 8);
    put_le(h + 40, loglen, 8);
    put_le(h + 48, cubinlen, 8);
}

/* The checksum of an entry: its header with the checksum field zero, then the payloads. */
static uint64_t cache_sum(const uint8_t *hdr, const void *log, uint64_t loglen, const void *cubin,
                          uint64_t cubinlen)
{
    uint8_t h[CACHE_HDR];
    memcpy(h, hdr, CACHE_HDR);
    memset(h + 56, 0, 8);
    uint64_t sum = cutune_fnv1a(0xcbf29ce484222325ull, h, CACHE_HDR);
    sum = cutune_fnv1a(sum, log, (size_t)loglen);
    return cutune_fnv1a(sum, cubin, (size_t)cubinlen);
}

/* Entry at path for key into out: 0, or -1 (a miss) for anything but a whole, intact
 * entry of this key: no file, a link or special file, an older format, another key, a
 * wrong length or checksum. */
static int cache_read(const char *path, const hash2 *key, cutune_cuda_compiled *out)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    uint8_t *buf = NULL;
    int rc = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < CACHE_HDR ||
        (uint64_t)st.st_size > (uint64_t)CACHE_HDR + CACHE_LOG_MAX + CUTUNE_CUDA_MAX_MSG)
        goto out;
    size_t size = (size_t)st.st_size, got = 0;
    if (!(buf = malloc(size + 1)))
        goto out;
    while (got <= size) { /* one byte more than fstat said: a file that grew is a miss */
        ssize_t r = read(fd, buf + got, size + 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got != size)
        goto out;
    uint8_t want[CACHE_HDR];
    uint32_t status = (uint32_t)get_le(buf + 20, 4);
    uint64_t loglen = get_le(buf + 40, 8), cubinlen = get_le(buf + 48, 8);
    if (loglen > CACHE_LOG_MAX || cubinlen > CUTUNE_CUDA_MAX_MSG ||
        CACHE_HDR + loglen + cubinlen != size || status >= CUTUNE_STATUS_COUNT ||
        (status == CUTUNE_STATUS_OK && !cubinlen))
        goto out;
    cache_header(want, key, status, loglen, cubinlen);
    if (memcmp(buf, want, 56) != 0 ||
        get_le(buf + 56, 8) !=
            cache_sum(buf, buf + CACHE_HDR, loglen, buf + CACHE_HDR + loglen, cubinlen))
        goto out;
    if (loglen) {
        if (!(out->log = malloc(loglen + 1)))
            goto out;
        memcpy(out->log, buf + CACHE_HDR, loglen);
        out->log[loglen] = '\0';
    }
    if (cubinlen) {
        if (!(out->cubin = malloc(cubinlen))) {
            free(out->log);
            out->log = NULL;
            goto out;
        }
        memcpy(out->cubin, buf + CACHE_HDR + loglen, cubinlen);
    }
    out->cubin_size = cubinlen;
    out->status = (int)status;
    rc = 0;
out:
    free(buf);
    close(fd);
    return rc;
}

/* Write through a cutune_outfile (an exclusive, unpredictable temporary, then rename):
 * readers (other runs, other threads) see a whole entry or none, and nothing planted in
 * the folder is written through. Failures only cost a recompile. */
static void cache_write(const char *dir, const char *path, const hash2 *key,
                        const cutune_cuda_compiled *c)
{
    cutune_outfile *o = NULL;
    uint64_t loglen = c->log ? strlen(c->log) : 0, cubinlen = c->cubin_size;
    if (loglen > CACHE_LOG_MAX || cubinlen > CUTUNE_CUDA_MAX_MSG)
        return;
    if (mkdir_p(dir) < 0 || cutune_outfile_open(path, 0, 0600, &o, NULL, 0) < 0)
        return;
    FILE *f = cutune_outfile_stream(o);
    if (!f) {
        cutune_outfile_abort(o);
        return;
    }
    uint8_t h[CACHE_HDR];
    cache_header(h, key, (uint32_t)c->status, loglen, cubinlen);
    put_le(h + 56, cache_sum(h, c->log, loglen, c->cubin, cubinlen), 8);
    int ok = fwrite(h, 1, CACHE_HDR, f) == CACHE_HDR &&
             (!loglen || fwrite(c->log, 1, loglen, f) == loglen) &&
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
    hash2 h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    if (cache_dir && *cache_dir && cache_dir_trusted(cache_dir)) {
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
        if (cache_read(path, &h, out) == 0) {
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
        cache_write(cache_dir, path, &h, out);
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
