/* The evaluator registry and the generic wrapper around an evaluator type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/evaluator.h"

const cutune_evaluator_type *const *cutune_evaluator_types(void)
{
    static const cutune_evaluator_type *table[3];
    if (!table[0]) {
        table[1] = cutune_evaluator_cuda;
        table[2] = NULL;
        table[0] = cutune_evaluator_replay;
    }
    return table;
}

const cutune_evaluator_type *cutune_evaluator_find(const char *name, char *err, size_t errlen)
{
    const cutune_evaluator_type *const *t = cutune_evaluator_types();
    char names[256] = "";
    for (size_t i = 0; t[i]; i++) {
        if (name && strcmp(t[i]->name, name) == 0)
            return t[i];
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 t[i]->name);
    }
    cutune_err(err, errlen, CUTUNE_ENOTFOUND, "unknown evaluator '%s' (valid: %s)",
               name ? name : "", names);
    return NULL;
}

int cutune_evaluator_alloc(const cutune_evaluator_type *t, const cutune_evaluator_ctx *ctx,
                           cutune_evaluator **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!t || t->version < 1 || !t->alloc || !t->evaluate)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "evaluator type is incomplete");
    cutune_evaluator *e = calloc(1, sizeof *e);
    if (!e)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    e->type = t;
    e->state = calloc(1, t->size ? t->size : 1);
    if (!e->state) {
        free(e);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    int rc = t->alloc(e->state, ctx, err, errlen);
    if (rc < 0) {
        free(e->state);
        free(e);
        return rc;
    }
    *out = e;
    return 0;
}

int cutune_evaluator_evaluate(cutune_evaluator *e, const size_t *ids, size_t k,
                              cutune_eval_result *results, char *err, size_t errlen)
{
    return e->type->evaluate(e->state, ids, k, results, err, errlen);
}

const char *cutune_evaluator_device(cutune_evaluator *e)
{
    if (e->type->device)
        return e->type->device(e->state);
    return e->type->name;
}

void cutune_evaluator_prefetch(cutune_evaluator *e, const size_t *ids, size_t k)
{
    if (e->type->version >= 1 && e->type->prefetch)
        e->type->prefetch(e->state, ids, k);
}

static int has_async(const cutune_evaluator *e)
{
    return e->type->version >= 2 && e->type->submit && e->type->wait_any;
}

int cutune_evaluator_submit(cutune_evaluator *e, size_t id, char *err, size_t errlen)
{
    if (has_async(e))
        return e->type->submit(e->state, id, err, errlen);
    if (e->qhead + e->qlen == e->qcap) {
        if (e->qhead) { /* slide the live part to the front before growing */
            memmove(e->queue, e->queue + e->qhead, e->qlen * sizeof *e->queue);
            e->qhead = 0;
        }
        if (e->qlen == e->qcap) {
            size_t nc = e->qcap ? 2 * e->qcap : 16;
            size_t *q = realloc(e->queue, nc * sizeof *q);
            if (!q)
                return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            e->queue = q;
            e->qcap = nc;
        }
    }
    e->queue[e->qhead + e->qlen++] = id;
    return 0;
}

int cutune_evaluator_wait_any(cutune_evaluator *e, size_t *id, int *worker, cutune_eval_result *res,
                              char *err, size_t errlen)
{
    *worker = 0;
    if (has_async(e))
        return e->type->wait_any(e->state, id, worker, res, err, errlen);
    if (!e->qlen)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "wait_any: nothing in flight");
    *id = e->queue[e->qhead++];
    e->qlen--;
    return e->type->evaluate(e->state, id, 1, res, err, errlen);
}

size_t cutune_evaluator_slots(cutune_evaluator *e)
{
    size_t n = e->type->version >= 2 && e->type->slots ? e->type->slots(e->state) : 1;
    return n ? n : 1;
}

const char *cutune_evaluator_worker_name(cutune_evaluator *e, int w)
{
    return e->type->version >= 2 && e->type->worker_name ? e->type->worker_name(e->state, w) : NULL;
}

void cutune_evaluator_free(cutune_evaluator *e)
{
    if (!e)
        return;
    free(e->queue);
    if (e->type->free)
        e->type->free(e->state);
    free(e->state);
    free(e);
}
