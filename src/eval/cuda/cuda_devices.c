/* The CUDA evaluator's workers: one process per GPU of devices= (cuda_parent.h). Times
 * measured on different GPU models are not comparable, so one run measures on one
 * model only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <unistd.h>

#include "cuda_parent.h"

/* Start one worker (session k) on GPU ordinal dev. */
static int start_one(cuda_state *st, size_t k, int dev, int verbose, char *err, size_t errlen)
{
    cutune_cuda_session *s = &st->sess[k];
    cutune_cuda_session_init(s, st->worker[0] ? st->worker : NULL);
    s->device = dev;
    s->kernel_timeout_s = st->timeout_s;
    s->max_time_s = st->max_time_s;
    s->warmup = st->warmup;
    s->energy_window_s = st->energy_window_s;
    s->verbose = verbose;
    st->sess_started = k + 1;
    return cutune_cuda_session_start(s, err, errlen);
}

static int name_has(const char *name, const char *want)
{
    size_t n = strlen(want);
    for (const char *p = name; *p; p++)
        if (strncasecmp(p, want, n) == 0)
            return 1;
    return 0;
}

/* The workers, one per GPU of devices= (default: every visible GPU of device 0's model).
 * Configurations measured on different models are not comparable: an explicit list of
 * several models is refused; a name picks the GPUs whose name contains it. */
int cuda_start_workers(cuda_state *st, int verbose, char *err, size_t errlen)
{
    const char *d = st->devices;
    int list = *d && d[strspn(d, "0123456789,")] == '\0';
    int by_name = *d && !list && strcmp(d, "all") != 0;
    int want[CUDA_MAX_DEVICES];
    size_t nwant = 0;
    if (list) {
        for (const char *p = d; *p;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v > 4096)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "--evaluator=cuda: devices=%s: not a list of GPU ordinals", d);
            if (nwant == CUDA_MAX_DEVICES)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "--evaluator=cuda: devices=%s: at most %d workers", d,
                                  CUDA_MAX_DEVICES);
            want[nwant++] = (int)v;
            p = *end == ',' ? end + 1 : end;
        }
    }
    int rc = start_one(st, 0, list ? want[0] : 0, verbose, err, errlen);
    if (rc < 0)
        return rc;
    int count = st->sess[0].hello.device_count;
    if (list) {
        for (size_t i = 0; i < nwant; i++)
            if (want[i] >= count)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "--evaluator=cuda: devices=%s: there is no CUDA device %d (%d "
                                  "found: 0..%d)",
                                  d, want[i], count, count - 1);
    } else {
        for (int i = 0; i < count && nwant < CUDA_MAX_DEVICES; i++)
            want[nwant++] = i;
    }
    for (size_t i = 1; i < nwant; i++)
        if ((rc = start_one(st, i, want[i], verbose, err, errlen)) < 0)
            return rc;
    /* keep the workers whose GPU is of the chosen model */
    char model[sizeof st->sess[0].hello.name];
    snprintf(model, sizeof model, "%s", st->sess[0].hello.name);
    size_t keep = 0;
    for (size_t i = 0; i < nwant; i++) {
        const char *name = st->sess[i].hello.name;
        int ok = by_name ? name_has(name, d) : strcmp(name, model) == 0;
        if (!ok && list)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--evaluator=cuda: devices=%s: GPU %d is a %s and GPU %d a %s; "
                              "times measured on different models are not comparable (list one "
                              "model's GPUs, or give devices=NAME)",
                              d, want[0], model, want[i], name);
        if (!ok) {
            cutune_cuda_session_free(&st->sess[i]);
            continue;
        }
        if (keep != i) {
            st->sess[keep] = st->sess[i];
            cutune_cuda_session_init(&st->sess[i], NULL); /* moved: nothing left to free */
        }
        const cutune_cuda_hello h = st->sess[keep].hello; /* a copy: gcc sees no overlap */
        snprintf(st->worker_line[keep], sizeof st->worker_line[keep], "%d %s%s%s", h.ordinal,
                 h.name, h.uuid[0] ? " " : "", h.uuid);
        keep++;
    }
    if (!keep)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--evaluator=cuda: devices=%s: no GPU's name contains '%s' (GPU 0 is a "
                          "%s)",
                          d, d, model);
    st->nsess = keep;
    return 0;
}
