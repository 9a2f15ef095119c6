/* The multi-shape evaluator (shapes_eval.h): a configuration of the common space evaluated
 * at every shape, each by that shape's own evaluator, each answer stored in (or reused
 * from) the tuning database under that shape's sizes. With one shape it is that shape's
 * evaluator with the database's hooks in front: the each mode and the validation runs use
 * it so, and every evaluation of a multi-shape run reaches the database by one path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shapes_eval.h"

typedef struct {
    const cutune_space *common;
    shapes_eval_shape *sh;
    size_t n;
    unsigned flags;
    char device[2048]; /* the shapes' devices: one, or each where they differ (replay) */
} state;

static int se_alloc(void *st, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    (void)st, (void)ctx, (void)err, (void)errlen;
    return 0; /* filled by shapes_eval_alloc */
}

static void move_result(cutune_eval_result *dst, cutune_eval_result *src)
{
    *dst = *src;
    memset(src, 0, sizeof *src);
}

/* Configuration cid of the common space at shape s: its id there (the same parameter
 * values; the spaces are one spec's at other sizes). */
static long long shape_id(const shapes_eval_shape *sh, const cutune_space *common, size_t cid)
{
    return cutune_space_find(sh->space, cutune_space_config(common, cid));
}

/* Evaluate ids[0..k) at shape sh: answers the database holds first, the rest measured in
 * one call (the cuda evaluator compiles them side by side); every answer recorded. */
static int eval_shape(shapes_eval_shape *sh, const long long *sids, size_t k,
                      cutune_eval_result *res, char *err, size_t errlen)
{
    size_t *todo = malloc((k ? k : 1) * sizeof *todo);
    size_t *where = malloc((k ? k : 1) * sizeof *where);
    int *reused = calloc(k ? k : 1, sizeof *reused);
    cutune_eval_result *got = calloc(k ? k : 1, sizeof *got);
    int rc = 0;
    size_t m = 0;
    if (!todo || !where || !reused || !got) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < k && rc == 0; i++) {
        memset(&res[i], 0, sizeof res[i]);
        if (sh->store && sh->store->lookup) {
            rc = sh->store->lookup(sh->store->ctx, (size_t)sids[i], &res[i], err, errlen);
            if (rc == 1) {
                reused[i] = 1;
                rc = 0;
                continue;
            }
        }
        if (rc == 0)
            todo[m] = (size_t)sids[i], where[m++] = i;
    }
    if (rc == 0 && m)
        rc = cutune_evaluator_evaluate(sh->ev, todo, m, got, err, errlen);
    for (size_t j = 0; rc == 0 && j < m; j++)
        move_result(&res[where[j]], &got[j]);
    for (size_t i = 0; rc == 0 && i < k; i++) {
        sh->nevals++;
        sh->nreused += (size_t)reused[i];
        if (!sh->store || !sh->store->record)
            continue;
        cutune_history_entry e = {.id = (size_t)sids[i], .worker = -1, .reused = reused[i]};
        e.r = res[i];
        e.score = res[i].time_ms;
        rc = sh->store->record(sh->store->ctx, sh->seq++, &e, err, errlen);
    }
out:
    for (size_t j = 0; got && j < m; j++)
        cutune_eval_result_clear(&got[j]);
    free(got);
    free(reused);
    free(where);
    free(todo);
    return rc;
}

static int se_evaluate(void *st, const size_t *ids, size_t k, cutune_eval_result *results,
                       char *err, size_t errlen)
{
    state *s = st;
    long long *sids = malloc((k ? k : 1) * sizeof *sids);
    cutune_eval_result *per = calloc(k ? k : 1, sizeof *per);
    int rc = 0;
    if (!sids || !per) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < k; i++) {
        memset(&results[i], 0, sizeof results[i]);
        results[i].status = CUTUNE_STATUS_OK;
        results[i].compile_ms = results[i].bench_ms = 0;
        results[i].time_ms = 0; /* the sum of the logs until the end */
    }
    /* every shape's evaluator starts compiling the batch now (the cuda evaluator's compile
     * pool; the kernel is compiled with the sizes defined, so once per shape), while the
     * shapes before it measure */
    for (size_t j = 1; j < s->n; j++) {
        size_t *pre = malloc((k ? k : 1) * sizeof *pre);
        size_t m = 0;
        for (size_t i = 0; pre && i < k; i++) {
            long long sid = shape_id(&s->sh[j], s->common, ids[i]);
            if (sid >= 0)
                pre[m++] = (size_t)sid;
        }
        if (pre && m)
            cutune_evaluator_prefetch(s->sh[j].ev, pre, m);
        free(pre);
    }
    for (size_t j = 0; j < s->n && rc == 0; j++) {
        shapes_eval_shape *sh = &s->sh[j];
        for (size_t i = 0; i < k; i++) {
            sids[i] = shape_id(sh, s->common, ids[i]);
            if (sids[i] < 0) /* the common space is the intersection: never */
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "shape %s: configuration %zu of the common space is not in "
                                "its space",
                                sh->label, ids[i]);
        }
        if (rc < 0)
            break;
        if ((rc = eval_shape(sh, sids, k, per, err, errlen)) < 0)
            break;
        for (size_t i = 0; i < k; i++) {
            cutune_eval_result *r = &results[i];
            char name[sizeof(((cutune_metric *)0)->name)]; /* the label fits: checked at start */
            int fits = snprintf(name, sizeof name, "t_%s", sh->label) < (int)sizeof name;
            if (s->n == 1) { /* one shape: its answer as it is, its time also as t_LABEL */
                move_result(r, &per[i]);
                if (r->status == CUTUNE_STATUS_OK && fits &&
                    cutune_eval_result_add_metric(r, name, r->time_ms) < 0)
                    rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "too many metrics");
                continue;
            }
            /* a failure at any shape is the configuration's failure (the first one's) */
            if (r->status == CUTUNE_STATUS_OK && per[i].status != CUTUNE_STATUS_OK) {
                r->status = per[i].status;
                if (per[i].log) {
                    size_t n = strlen(per[i].log) + strlen(sh->label) + 16;
                    free(r->log);
                    if ((r->log = malloc(n)))
                        snprintf(r->log, n, "shape %s: %s", sh->label, per[i].log);
                }
            }
            if (per[i].status == CUTUNE_STATUS_OK)
                r->time_ms += log(per[i].time_ms);
            if (per[i].compile_ms > 0)
                r->compile_ms += per[i].compile_ms;
            if (per[i].bench_ms > 0)
                r->bench_ms += per[i].bench_ms;
            if (per[i].status == CUTUNE_STATUS_OK && fits &&
                cutune_eval_result_add_metric(r, name, per[i].time_ms) < 0)
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "too many shapes for the metrics");
            cutune_eval_result_clear(&per[i]);
        }
    }
    for (size_t i = 0; s->n > 1 && i < k; i++) /* the geometric mean over the shapes */
        results[i].time_ms =
            results[i].status == CUTUNE_STATUS_OK ? exp(results[i].time_ms / (double)s->n) : NAN;
out:
    free(per);
    free(sids);
    return rc;
}

static const char *se_device(void *st)
{
    state *s = st;
    return s->device;
}

static void se_free(void *st)
{
    (void)st; /* the shapes' evaluators and stores are the caller's */
}

static cutune_evaluator_type shapes_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "shapes",
    .help = "every configuration at every shape of --sizes",
    .size = sizeof(state),
    .alloc = se_alloc,
    .evaluate = se_evaluate,
    .free = se_free,
    .device = se_device,
};

int shapes_eval_alloc(const cutune_space *common, shapes_eval_shape *sh, size_t n,
                      cutune_evaluator **out, char *err, size_t errlen)
{
    unsigned flags = CUTUNE_EVALUATOR_SIMULATED | CUTUNE_EVALUATOR_RECORDS;
    for (size_t j = 0; j < n; j++)
        if (!(sh[j].ev->type->flags & CUTUNE_EVALUATOR_SIMULATED))
            flags = 0; /* one shape measured on a GPU: the run's clock is the wall's */
    shapes_type.flags = flags;
    cutune_evaluator_ctx ctx = {0};
    int rc = cutune_evaluator_alloc(&shapes_type, &ctx, out, err, errlen);
    if (rc < 0)
        return rc;
    state *s = (*out)->state;
    s->common = common;
    s->sh = sh;
    s->n = n;
    const char *d0 = cutune_evaluator_device(sh[0].ev);
    int same = 1;
    for (size_t j = 1; j < n; j++)
        same = same && strcmp(cutune_evaluator_device(sh[j].ev), d0) == 0;
    size_t used = (size_t)snprintf(s->device, sizeof s->device, "%s", same ? d0 : "");
    for (size_t j = 0; !same && j < n && used < sizeof s->device; j++)
        used += (size_t)snprintf(s->device + used, sizeof s->device - used, "%s%s: %s",
                                 j ? "; " : "", sh[j].label, cutune_evaluator_device(sh[j].ev));
    s->flags = flags;
    return 0;
}
