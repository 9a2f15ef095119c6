/* The parent <-> worker wire: frames of (u32 type, u32 length, payload), the
 * payload a flat little-endian sequence of fixed-size fields and
 * length-prefixed blobs. Binary rather than JSON because a CUBIN travels in
 * every LAUNCH; every read is bounds-checked since a dying worker can cut a
 * message anywhere. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuda_internal.h"

/* ---- writer ---- */

void cutune_cuda_buf_free(cutune_cuda_buf *b)
{
    if (!b)
        return;
    free(b->data);
    memset(b, 0, sizeof *b);
}

static void put(cutune_cuda_buf *b, const void *p, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(cutune_cuda_buf *b, uint32_t v)
{
    put(b, &v, 4);
}
static void put_u64(cutune_cuda_buf *b, uint64_t v)
{
    put(b, &v, 8);
}
static void put_i64(cutune_cuda_buf *b, int64_t v)
{
    put(b, &v, 8);
}
static void put_f64(cutune_cuda_buf *b, double v)
{
    put(b, &v, 8);
}

static void put_blob(cutune_cuda_buf *b, const void *p, uint64_t n)
{
    put_u64(b, n);
    put(b, p, (size_t)n);
}

/* Strings travel with their NUL so that decoded views are C strings. */
static void put_str(cutune_cuda_buf *b, const char *s)
{
    s = s ? s : "";
    put_blob(b, s, strlen(s) + 1);
}

static size_t frame_begin(cutune_cuda_buf *b, uint32_t type)
{
    put_u32(b, type);
    size_t at = b->len;
    put_u32(b, 0);
    return at;
}

static int frame_end(cutune_cuda_buf *b, size_t at)
{
    if (b->oom)
        return CUTUNE_ENOMEM;
    size_t n = b->len - at - 4;
    if (n > CUTUNE_CUDA_MAX_MSG)
        return CUTUNE_EINVAL;
    uint32_t len = (uint32_t)n;
    memcpy(b->data + at, &len, 4);
    return 0;
}

/* ---- reader ---- */

typedef struct reader {
    const uint8_t *p;
    size_t n, off;
    int bad;
} reader;

static int get(reader *r, void *out, size_t n)
{
    if (r->bad || r->n - r->off < n) {
        r->bad = 1;
        memset(out, 0, n);
        return -1;
    }
    memcpy(out, r->p + r->off, n);
    r->off += n;
    return 0;
}

static uint32_t get_u32(reader *r)
{
    uint32_t v;
    get(r, &v, 4);
    return v;
}
static uint64_t get_u64(reader *r)
{
    uint64_t v;
    get(r, &v, 8);
    return v;
}
static int64_t get_i64(reader *r)
{
    int64_t v;
    get(r, &v, 8);
    return v;
}
static double get_f64(reader *r)
{
    double v;
    get(r, &v, 8);
    return v;
}

static const void *get_blob(reader *r, uint64_t *n)
{
    *n = get_u64(r);
    if (r->bad || r->n - r->off < *n) {
        r->bad = 1;
        *n = 0;
        return NULL;
    }
    const void *p = r->p + r->off;
    r->off += (size_t)*n;
    return p;
}

/* A string view: must end in its NUL. */
static const char *get_str(reader *r)
{
    uint64_t n;
    const char *s = get_blob(r, &n);
    if (!s || n == 0 || s[n - 1] != '\0') {
        r->bad = 1;
        return "";
    }
    return s;
}

static void get_strcpy(reader *r, char *dst, size_t len)
{
    const char *s = get_str(r);
    size_t n = strlen(s);
    if (n >= len) {
        r->bad = 1;
        n = 0;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static int finish(const reader *r)
{
    return r->bad || r->off != r->n ? CUTUNE_EPARSE : 0;
}

/* ---- messages ---- */

int cutune_cuda_encode_hello(cutune_cuda_buf *b, const cutune_cuda_hello *h)
{
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_HELLO);
    put_u32(b, (uint32_t)h->rc);
    put_str(b, h->msg);
    put_str(b, h->name);
    put_u32(b, (uint32_t)h->cc_major);
    put_u32(b, (uint32_t)h->cc_minor);
    put_u32(b, (uint32_t)h->sm_count);
    put_u32(b, (uint32_t)h->driver_version);
    put_u32(b, h->proto);
    put_u32(b, (uint32_t)h->device_count);
    put_u32(b, (uint32_t)h->ordinal);
    put_str(b, h->pci_bus_id);
    put_str(b, h->uuid);
    put_u32(b, (uint32_t)h->energy_source);
    return frame_end(b, at);
}

int cutune_cuda_decode_hello(const uint8_t *p, size_t n, cutune_cuda_hello *h)
{
    reader r = {p, n, 0, 0};
    memset(h, 0, sizeof *h);
    h->rc = (int32_t)get_u32(&r);
    get_strcpy(&r, h->msg, sizeof h->msg);
    get_strcpy(&r, h->name, sizeof h->name);
    h->cc_major = (int32_t)get_u32(&r);
    h->cc_minor = (int32_t)get_u32(&r);
    h->sm_count = (int32_t)get_u32(&r);
    h->driver_version = (int32_t)get_u32(&r);
    /* a worker from before the version field ends here: proto 0, refused by the session */
    h->proto = r.off == r.n && !r.bad ? 0u : get_u32(&r);
    if (!r.bad && h->proto != CUTUNE_CUDA_PROTO_VERSION)
        return 0; /* another build's HELLO may have grown after the version: refused anyway */
    h->device_count = (int32_t)get_u32(&r);
    h->ordinal = (int32_t)get_u32(&r);
    get_strcpy(&r, h->pci_bus_id, sizeof h->pci_bus_id);
    get_strcpy(&r, h->uuid, sizeof h->uuid);
    h->energy_source = (int32_t)get_u32(&r);
    return finish(&r);
}

int cutune_cuda_encode_setup(cutune_cuda_buf *b, const cutune_cuda_setup *s)
{
    if (s->nargs > CUTUNE_CUDA_MAX_ARGS)
        return CUTUNE_EINVAL;
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_SETUP);
    put_u64(b, s->seed);
    put_u32(b, (uint32_t)s->flush_l2);
    put_u32(b, (uint32_t)s->warmup);
    put_u32(b, (uint32_t)s->min_reps);
    put_u32(b, (uint32_t)s->max_reps);
    put_f64(b, s->max_time_s);
    put_f64(b, s->ci_rel);
    put_u32(b, s->nargs);
    for (uint32_t i = 0; i < s->nargs; i++) {
        const cutune_cuda_argdesc *a = &s->args[i];
        put_str(b, a->name);
        uint8_t f[4] = {a->kind, a->type, a->init, a->output};
        put(b, f, 4);
        put_f64(b, a->lo);
        put_f64(b, a->hi);
        put_str(b, a->init_name);
        put_u32(b, (uint32_t)a->tensor);
        uint8_t t[2] = {a->trank, a->swizzle};
        put(b, t, 2);
    }
    put_u32(b, (uint32_t)s->ref_kind);
    put_str(b, s->ref_name);
    put_blob(b, s->ref_cubin, s->ref_cubin ? s->ref_cubin_size : 0);
    put_f64(b, s->rtol);
    put_f64(b, s->atol);
    put_i64(b, s->gemm_m);
    put_i64(b, s->gemm_n);
    put_i64(b, s->gemm_k);
    put_u32(b, (uint32_t)s->gemm_a);
    put_u32(b, (uint32_t)s->gemm_b);
    put_u32(b, (uint32_t)s->gemm_c);
    put_u32(b, (uint32_t)s->gemm_alpha);
    put_u32(b, (uint32_t)s->gemm_beta);
    put_f64(b, s->energy_window_s);
    put_u32(b, (uint32_t)s->energy_batch);
    return frame_end(b, at);
}

int cutune_cuda_decode_setup(const uint8_t *p, size_t n, cutune_cuda_setup *s)
{
    reader r = {p, n, 0, 0};
    memset(s, 0, sizeof *s);
    s->seed = get_u64(&r);
    s->flush_l2 = (int32_t)get_u32(&r);
    s->warmup = (int32_t)get_u32(&r);
    s->min_reps = (int32_t)get_u32(&r);
    s->max_reps = (int32_t)get_u32(&r);
    s->max_time_s = get_f64(&r);
    s->ci_rel = get_f64(&r);
    s->nargs = get_u32(&r);
    if (s->nargs > CUTUNE_CUDA_MAX_ARGS)
        return CUTUNE_EPARSE;
    for (uint32_t i = 0; i < s->nargs && !r.bad; i++) {
        cutune_cuda_argdesc *a = &s->args[i];
        get_strcpy(&r, a->name, sizeof a->name);
        uint8_t f[4];
        get(&r, f, 4);
        a->kind = f[0];
        a->type = f[1];
        a->init = f[2];
        a->output = f[3];
        a->lo = get_f64(&r);
        a->hi = get_f64(&r);
        get_strcpy(&r, a->init_name, sizeof a->init_name);
        a->tensor = (int32_t)get_u32(&r);
        uint8_t t[2] = {0, 0};
        get(&r, t, 2);
        a->trank = t[0] <= CUTUNE_TMAP_MAX_RANK ? t[0] : 0;
        a->swizzle = t[1];
        if (a->kind == CUTUNE_ARG_TENSORMAP &&
            (a->tensor < 0 || (uint32_t)a->tensor >= s->nargs || !a->trank))
            return CUTUNE_EPARSE;
    }
    s->ref_kind = (int32_t)get_u32(&r);
    get_strcpy(&r, s->ref_name, sizeof s->ref_name);
    s->ref_cubin = get_blob(&r, &s->ref_cubin_size);
    if (s->ref_cubin_size == 0)
        s->ref_cubin = NULL;
    s->rtol = get_f64(&r);
    s->atol = get_f64(&r);
    s->gemm_m = get_i64(&r);
    s->gemm_n = get_i64(&r);
    s->gemm_k = get_i64(&r);
    s->gemm_a = (int32_t)get_u32(&r);
    s->gemm_b = (int32_t)get_u32(&r);
    s->gemm_c = (int32_t)get_u32(&r);
    s->gemm_alpha = (int32_t)get_u32(&r);
    s->gemm_beta = (int32_t)get_u32(&r);
    s->energy_window_s = get_f64(&r);
    s->energy_batch = (int32_t)get_u32(&r);
    return finish(&r);
}

int cutune_cuda_encode_launch(cutune_cuda_buf *b, const cutune_cuda_launch *l)
{
    if (l->nargs > CUTUNE_CUDA_MAX_ARGS)
        return CUTUNE_EINVAL;
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_LAUNCH);
    put_u64(b, l->id);
    put_str(b, l->kernel);
    put_blob(b, l->cubin, l->cubin ? l->cubin_size : 0);
    for (int i = 0; i < 3; i++) {
        put_i64(b, l->grid[i]);
        put_i64(b, l->block[i]);
        put_i64(b, l->ref_grid[i]);
        put_i64(b, l->ref_block[i]);
    }
    put_i64(b, l->smem);
    put_i64(b, l->ref_smem);
    put_u32(b, l->nargs);
    for (uint32_t i = 0; i < l->nargs; i++) {
        put_u64(b, l->count[i]);
        put_u64(b, l->bits[i]);
        for (int d = 0; d < CUTUNE_TMAP_MAX_RANK; d++) {
            put_u64(b, l->tdim[i][d]);
            put_u32(b, l->tbox[i][d]);
        }
    }
    return frame_end(b, at);
}

int cutune_cuda_decode_launch(const uint8_t *p, size_t n, cutune_cuda_launch *l)
{
    reader r = {p, n, 0, 0};
    memset(l, 0, sizeof *l);
    l->id = get_u64(&r);
    l->kernel = get_str(&r);
    l->cubin = get_blob(&r, &l->cubin_size);
    for (int i = 0; i < 3; i++) {
        l->grid[i] = get_i64(&r);
        l->block[i] = get_i64(&r);
        l->ref_grid[i] = get_i64(&r);
        l->ref_block[i] = get_i64(&r);
    }
    l->smem = get_i64(&r);
    l->ref_smem = get_i64(&r);
    l->nargs = get_u32(&r);
    if (l->nargs > CUTUNE_CUDA_MAX_ARGS)
        return CUTUNE_EPARSE;
    for (uint32_t i = 0; i < l->nargs; i++) {
        l->count[i] = get_u64(&r);
        l->bits[i] = get_u64(&r);
        for (int d = 0; d < CUTUNE_TMAP_MAX_RANK; d++) {
            l->tdim[i][d] = get_u64(&r);
            l->tbox[i][d] = get_u32(&r);
        }
    }
    return finish(&r);
}

int cutune_cuda_encode_progress(cutune_cuda_buf *b, uint32_t phase)
{
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_PROGRESS);
    put_u32(b, phase);
    return frame_end(b, at);
}

int cutune_cuda_decode_progress(const uint8_t *p, size_t n, uint32_t *phase)
{
    reader r = {p, n, 0, 0};
    *phase = get_u32(&r);
    return finish(&r);
}

int cutune_cuda_encode_quit(cutune_cuda_buf *b)
{
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_QUIT);
    return frame_end(b, at);
}

void cutune_cuda_reply_clear(cutune_cuda_reply *r)
{
    if (!r)
        return;
    free(r->times);
    free(r->log);
    memset(r, 0, sizeof *r);
}

int cutune_cuda_encode_reply(cutune_cuda_buf *b, const cutune_cuda_reply *rp)
{
    if (rp->nmetrics > CUTUNE_MAX_METRICS)
        return CUTUNE_EINVAL;
    size_t at = frame_begin(b, CUTUNE_CUDA_MSG_REPLY);
    put_u32(b, (uint32_t)rp->status);
    put_u32(b, (uint32_t)rp->fatal);
    put_f64(b, rp->time_ms);
    put_u32(b, rp->ntimes);
    for (uint32_t i = 0; i < rp->ntimes; i++)
        put_f64(b, rp->times[i]);
    put_u32(b, rp->nmetrics);
    for (uint32_t i = 0; i < rp->nmetrics; i++) {
        put_str(b, rp->metrics[i].name);
        put_f64(b, rp->metrics[i].value);
    }
    put_str(b, rp->log);
    return frame_end(b, at);
}

int cutune_cuda_decode_reply(const uint8_t *p, size_t n, cutune_cuda_reply *rp)
{
    reader r = {p, n, 0, 0};
    memset(rp, 0, sizeof *rp);
    rp->status = (int32_t)get_u32(&r);
    rp->fatal = (int32_t)get_u32(&r);
    rp->time_ms = get_f64(&r);
    uint32_t nt = get_u32(&r);
    /* The count is checked against the bytes present before allocating. */
    if (r.bad || nt > (r.n - r.off) / 8 || rp->status < 0 || rp->status >= CUTUNE_STATUS_COUNT)
        return CUTUNE_EPARSE;
    if (nt) {
        rp->times = malloc(nt * sizeof *rp->times);
        if (!rp->times)
            return CUTUNE_ENOMEM;
    }
    rp->ntimes = nt;
    for (uint32_t i = 0; i < nt; i++)
        rp->times[i] = get_f64(&r);
    rp->nmetrics = get_u32(&r);
    if (rp->nmetrics > CUTUNE_MAX_METRICS) {
        rp->nmetrics = 0;
        cutune_cuda_reply_clear(rp);
        return CUTUNE_EPARSE;
    }
    for (uint32_t i = 0; i < rp->nmetrics; i++) {
        get_strcpy(&r, rp->metrics[i].name, sizeof rp->metrics[i].name);
        rp->metrics[i].value = get_f64(&r);
    }
    const char *log = get_str(&r);
    if (finish(&r) < 0) {
        cutune_cuda_reply_clear(rp);
        return CUTUNE_EPARSE;
    }
    if (*log) {
        rp->log = strdup(log);
        if (!rp->log) {
            cutune_cuda_reply_clear(rp);
            return CUTUNE_ENOMEM;
        }
    }
    return 0;
}

/* ---- transport ---- */

int cutune_cuda_send(int fd, const cutune_cuda_buf *b)
{
    if (b->oom)
        return CUTUNE_ENOMEM;
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = send(fd, b->data + off, b->len - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return CUTUNE_EIO;
        off += (size_t)w;
    }
    return 0;
}

/* Read exactly n bytes before the deadline (<0: none). */
static int read_full(int fd, void *p, size_t n, double deadline, char *err, size_t errlen)
{
    size_t off = 0;
    while (off < n) {
        if (deadline >= 0) {
            double left = deadline - cutune_now();
            if (left <= 0)
                return cutune_err(err, errlen, CUTUNE_EINTR, "timed out");
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            int ms = (int)ceil(left * 1000.0);
            int pr = poll(&pfd, 1, ms);
            if (pr < 0 && errno == EINTR)
                continue;
            if (pr < 0)
                return cutune_err(err, errlen, CUTUNE_EIO, "poll: %s", strerror(errno));
            if (pr == 0)
                continue; /* the deadline check above ends the wait */
        }
        ssize_t rd = read(fd, (uint8_t *)p + off, n - off);
        if (rd < 0 && errno == EINTR)
            continue;
        if (rd < 0)
            return cutune_err(err, errlen, CUTUNE_EIO, "read: %s", strerror(errno));
        if (rd == 0)
            return cutune_err(err, errlen, CUTUNE_EIO, "worker closed the connection");
        off += (size_t)rd;
    }
    return 0;
}

int cutune_cuda_recv(int fd, double timeout_s, uint32_t *type, cutune_cuda_buf *b, char *err,
                     size_t errlen)
{
    double deadline = timeout_s < 0 ? -1.0 : cutune_now() + timeout_s;
    uint32_t hdr[2];
    int rc = read_full(fd, hdr, sizeof hdr, deadline, err, errlen);
    if (rc < 0)
        return rc;
    if (hdr[1] > CUTUNE_CUDA_MAX_MSG)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "message of %u bytes is too long", hdr[1]);
    b->len = 0;
    b->oom = 0;
    if (hdr[1] > b->cap) {
        uint8_t *d = realloc(b->data, hdr[1]);
        if (!d)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        b->data = d;
        b->cap = hdr[1];
    }
    /* Once a frame has begun, the rest follows at pipe speed; a stalled
     * partial frame still counts against the same deadline. */
    rc = read_full(fd, b->data, hdr[1], deadline, err, errlen);
    if (rc < 0)
        return rc;
    b->len = hdr[1];
    *type = hdr[0];
    return 0;
}

void cutune_cuda_median_ci(size_t n, size_t *lo, size_t *hi)
{
    /* Distribution-free CI of the median from order statistics: ranks
     * n/2 -+ 1.96*sqrt(n)/2 (normal approximation to Binomial(n, 1/2));
     * Conover, Practical Nonparametric Statistics, 3rd ed., sec. 3.2. */
    if (n == 0) {
        *lo = *hi = 0;
        return;
    }
    double h = 0.98 * sqrt((double)n);
    long j = (long)floor((double)n / 2.0 - h);      /* 1-based rank */
    long k = (long)ceil((double)n / 2.0 + 1.0 + h); /* 1-based rank */
    if (j < 1)
        j = 1;
    if (k > (long)n)
        k = (long)n;
    *lo = (size_t)(j - 1);
    *hi = (size_t)(k - 1);
}
