/* The replay evaluator: answers from a recording (Kernel Tuner cache or cutune
 * journal) instead of a GPU. It never invents a value: a configuration that is
 * not recorded comes back as CUTUNE_STATUS_MISSING. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cutune/evaluator.h"
#include "cutune/recording.h"
#include "cutune/spec.h"

typedef struct replay_state {
    cutune_recording *rec;   /* the recording (loaded here, or the caller's) */
    int borrowed;            /* rec is ctx->recording: not ours to free */
    long *map;               /* per space id: record index, or -1 */
    size_t size;             /* configurations in the space */
    char *device;            /* "replay of FILE (device)" */
    double sleep;            /* $CUTUNE_REPLAY_SLEEP: wall seconds per recorded second */
    int metrics;             /* answer with the recorded metrics (an objective reads them) */
    const cutune_spec *spec; /* its metrics are computed from the time, never replayed */
} replay_state;

static void replay_sleep(double ms)
{
    struct timespec t = {(time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&t, &t) != 0)
        ;
}

static void replay_free(void *vstate)
{
    replay_state *st = vstate;
    if (!st->borrowed)
        cutune_recording_free(st->rec);
    free(st->map);
    free(st->device);
    memset(st, 0, sizeof *st);
}

static int replay_alloc(void *vstate, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    replay_state *st = vstate;
    int rc;

    if (!ctx || !ctx->space)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "replay: no space given");
    const char *path = ctx->arg && ctx->arg[0] ? ctx->arg : NULL;
    if (!path && ctx->spec)
        path = ctx->spec->recording;
    if (!path)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "replay: no recording: use --evaluator=replay:FILE%s",
                          ctx->spec ? " (the spec names none)" : "");
    /* A recording the caller already loaded (the space came from it) is not
     * parsed twice: for a 17,956-entry cache that is most of a run's time. */
    if (ctx->recording && ctx->recording->path && strcmp(ctx->recording->path, path) == 0) {
        st->rec = (cutune_recording *)ctx->recording;
        st->borrowed = 1;
    } else if ((rc = cutune_recording_load(path, &st->rec, err, errlen)) < 0) {
        goto out_fail;
    }
    /* A recording answers only for the problem sizes it was measured at. */
    for (size_t i = 0; ctx->spec && i < ctx->spec->nsizes; i++) {
        const char *name = cutune_space_constant_name(ctx->space, i);
        cutune_value v = cutune_space_constant_value(ctx->space, i);
        for (size_t j = 0; j < st->rec->nsizes; j++)
            if (strcmp(st->rec->size_names[j], name) == 0 &&
                st->rec->size_values[j] != cutune_value_as_double(&v)) {
                char have[64];
                cutune_value_format(&v, have, sizeof have);
                rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                                "replay: %s was measured at %s=%.17g, this run has %s=%s; a "
                                "recording answers only for its sizes",
                                path, name, st->rec->size_values[j], name, have);
                goto out_fail;
            }
    }
    /* Each evaluation sleeps its recorded compile + benchmark time (times this scale), so
     * that a schedule across processes (MPI ranks) runs in real wall time. */
    const char *sl = getenv("CUTUNE_REPLAY_SLEEP");
    st->sleep = sl && *sl ? atof(sl) : 0;
    st->size = cutune_space_size(ctx->space);
    st->map = malloc((st->size ? st->size : 1) * sizeof *st->map);
    if (!st->map) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "replay: out of memory");
        goto out_fail;
    }
    if ((rc = cutune_recording_map(st->rec, ctx->space, st->map, err, errlen)) < 0)
        goto out_fail;
    /* a metric the objective reads that no ok record holds: the run could never rank */
    for (size_t n = 0; n < ctx->nneed; n++) {
        int found = 0;
        for (size_t i = 0; i < st->rec->nrecords && !found; i++)
            for (size_t m = 0; m < st->rec->records[i].nmetrics && !found; m++)
                found = st->rec->records[i].status == CUTUNE_STATUS_OK &&
                        !strcmp(st->rec->records[i].metrics[m].name, ctx->need_metrics[n]);
        if (!found) {
            rc = cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                            "replay: %s records no metric '%s' (which the objective reads)", path,
                            ctx->need_metrics[n]);
            goto out_fail;
        }
    }
    st->metrics = ctx->nneed > 0;
    st->spec = ctx->spec;
    const char *dev = st->rec->device_name;
    size_t dlen = strlen(path) + (dev ? strlen(dev) : 0) + 16;
    st->device = malloc(dlen);
    if (!st->device) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "replay: out of memory");
        goto out_fail;
    }
    if (dev)
        snprintf(st->device, dlen, "replay of %s (%s)", path, dev);
    else
        snprintf(st->device, dlen, "replay of %s", path);
    return 0;
out_fail:
    replay_free(st);
    return rc;
}

static int replay_evaluate(void *vstate, const size_t *ids, size_t k, cutune_eval_result *results,
                           char *err, size_t errlen)
{
    replay_state *st = vstate;

    for (size_t i = 0; i < k; i++) {
        if (ids[i] >= st->size)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "replay: configuration %zu outside the space (%zu)", ids[i],
                              st->size);
    }
    for (size_t i = 0; i < k; i++) {
        cutune_eval_result *res = &results[i];
        long r = st->map[ids[i]];
        res->time_ms = NAN;
        res->compile_ms = -1;
        res->bench_ms = -1;
        if (r < 0) {
            const char *fmt = "not in recording %s";
            size_t len = strlen(fmt) + strlen(st->rec->path) + 1;
            res->status = CUTUNE_STATUS_MISSING;
            res->log = malloc(len);
            if (!res->log)
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "replay: out of memory");
            snprintf(res->log, len, fmt, st->rec->path);
            continue;
        }
        const cutune_record *rec = &st->rec->records[r];
        if (st->sleep > 0) /* play the recorded time in wall time (MPI tests) */
            replay_sleep(st->sleep * ((rec->compile_ms > 0 ? rec->compile_ms : 0) +
                                      (rec->bench_ms > 0 ? rec->bench_ms : 0)));
        res->status = rec->status;
        res->time_ms = rec->time_ms;
        res->compile_ms = rec->compile_ms;
        res->bench_ms = rec->bench_ms;
        if (rec->ntimes) {
            res->times_ms = malloc(rec->ntimes * sizeof *res->times_ms);
            if (!res->times_ms)
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "replay: out of memory");
            memcpy(res->times_ms, rec->times_ms, rec->ntimes * sizeof *res->times_ms);
            res->ntimes = rec->ntimes;
        }
        for (size_t m = 0; st->metrics && m < rec->nmetrics; m++) {
            int derived = 0;
            for (size_t d = 0; st->spec && d < st->spec->nmetrics && !derived; d++)
                derived = !strcmp(st->spec->metrics[d].name, rec->metrics[m].name);
            if (!derived &&
                cutune_eval_result_add_metric(res, rec->metrics[m].name, rec->metrics[m].value) < 0)
                return cutune_err(err, errlen, CUTUNE_ENOMEM,
                                  "replay: %s: a record holds more than %d metrics", st->rec->path,
                                  CUTUNE_MAX_METRICS);
        }
    }
    return 0;
}

static const char *replay_device(void *vstate)
{
    const replay_state *st = vstate;
    return st->device ? st->device : "replay";
}

static const cutune_evaluator_type replay_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "replay",
    .help = "answer from a recording (Kernel Tuner cache .json/.json.gz or cutune journal): "
            "replay:FILE",
    .size = sizeof(replay_state),
    .flags = CUTUNE_EVALUATOR_SIMULATED,
    .alloc = replay_alloc,
    .evaluate = replay_evaluate,
    .free = replay_free,
    .device = replay_device,
};

const cutune_evaluator_type *const cutune_evaluator_replay = &replay_type;
