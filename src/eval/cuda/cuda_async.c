/* The CUDA evaluator, asynchronous (cuda_parent.h): a submitted configuration compiles
 * on the pool at once; with one GPU, wait_any measures whichever compile finished first
 * while the pool goes on compiling the others; with several, a thread per GPU takes the
 * oldest submitted configuration, waits for its compile and measures it, all GPUs at
 * once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <unistd.h>

#include "cuda_parent.h"

static void config_text(const cuda_state *st, size_t id, char *buf, size_t len)
{
    if (cutune_space_format_config(st->space, id, buf, len) < 0)
        snprintf(buf, len, "#%zu", id);
}

/* Compile (or wait for the pool's compile of) entry e, then verify and time it on the
 * GPU; e is removed either way. */
int cuda_measure(cuda_state *st, cutune_cuda_session *sess, job_entry *e, cutune_eval_result *res,
                 char *err, size_t errlen)
{
    int rc;
    char cfg[1024];
    config_text(st, e->id, cfg, sizeof cfg);
    res->compile_ms = -1;
    res->bench_ms = -1;
    if (e->plan_rc < 0) {
        res->status = CUTUNE_STATUS_LAUNCH_ERROR;
        size_t n = strlen(cfg) + strlen(e->plan_err) + 16;
        if ((res->log = malloc(n)))
            snprintf(res->log, n, "config %s: %s", cfg, e->plan_err);
        cuda_entry_remove(st, e);
        return 0;
    }
    if (e->submitted)
        cutune_cuda_pool_wait(st->pool, &e->job);
    else
        cutune_cuda_job_run(&e->job);
    if (e->job.rc < 0) {
        rc = cutune_err(err, errlen, e->job.rc, "compiling %s: %s", cfg, e->job.err);
        cuda_entry_remove(st, e);
        return rc;
    }
    cutune_cuda_compiled *c = &e->job.out;
    res->compile_ms = c->ms;
    if (c->status != CUTUNE_STATUS_OK) {
        res->status = CUTUNE_STATUS_COMPILE_ERROR;
        const char *log = c->log ? c->log : "(no log)";
        size_t n = strlen(cfg) + strlen(log) + 32;
        if ((res->log = malloc(n)))
            snprintf(res->log, n, "config %s: compile error\n%s", cfg, log);
    } else {
        e->launch.cubin = c->cubin;
        e->launch.cubin_size = c->cubin_size;
        rc = cutune_cuda_session_eval(sess, &e->launch, cfg, res, err, errlen);
        if (rc < 0) {
            cuda_entry_remove(st, e);
            return rc;
        }
    }
    cutune_eval_result_add_metric(res, "compile_cached", c->cache_hit);
    cuda_entry_remove(st, e);
    return 0;
}

/* Asynchronous evaluation: a submitted configuration starts compiling on the pool at
 * once; wait_any measures, one at a time on the GPU, whichever compile finished first,
 * while the pool goes on compiling the others. */
int cuda_submit(void *state, size_t id, char *err, size_t errlen)
{
    cuda_state *st = state;
    job_entry *e;
    int rc = 0;
    pthread_mutex_lock(&st->mu);
    if (st->nfly == st->capfly) {
        size_t nc = st->capfly ? 2 * st->capfly : 16;
        job_entry **f = realloc(st->fly, nc * sizeof *f);
        if (!f) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out;
        }
        st->fly = f;
        st->capfly = nc;
    }
    if ((rc = cuda_entry_get(st, id, &e, err, errlen)) < 0)
        goto out;
    st->fly[st->nfly++] = e;
    pthread_cond_signal(&st->work);
out:
    pthread_mutex_unlock(&st->mu);
    return rc;
}

/* A measuring thread (several GPUs): takes the oldest submitted configuration, waits
 * for its compile, measures it on its own GPU and queues the result for wait_any. */
void *cuda_measure_main(void *arg)
{
    const measurer *m = arg;
    cuda_state *st = m->st;
    int worker = m->worker;
    cutune_cuda_session *sess = &st->sess[worker];
    pthread_mutex_lock(&st->mu);
    for (;;) {
        while (!st->stop && !st->nfly)
            pthread_cond_wait(&st->work, &st->mu);
        if (st->stop)
            break;
        done_entry *d = calloc(1, sizeof *d);
        if (!d) { /* the configuration stays queued; another try after a pause */
            pthread_mutex_unlock(&st->mu);
            usleep(10000);
            pthread_mutex_lock(&st->mu);
            continue;
        }
        job_entry *e = st->fly[0];
        memmove(st->fly, st->fly + 1, (st->nfly - 1) * sizeof *st->fly);
        st->nfly--;
        pthread_mutex_unlock(&st->mu);
        d->id = e->id;
        d->worker = worker;
        d->rc = cuda_measure(st, sess, e, &d->res, d->err, sizeof d->err);
        pthread_mutex_lock(&st->mu);
        done_entry **pp = &st->done;
        while (*pp)
            pp = &(*pp)->next;
        *pp = d;
        pthread_cond_broadcast(&st->done_cv);
    }
    pthread_mutex_unlock(&st->mu);
    return NULL;
}

int cuda_wait_any(void *state, size_t *id, int *worker, cutune_eval_result *res, char *err,
                  size_t errlen)
{
    cuda_state *st = state;
    if (st->nmeasurers) {
        pthread_mutex_lock(&st->mu);
        while (!st->done)
            pthread_cond_wait(&st->done_cv, &st->mu);
        done_entry *d = st->done;
        st->done = d->next;
        pthread_mutex_unlock(&st->mu);
        *id = d->id;
        *worker = d->worker;
        *res = d->res;
        int rc = d->rc < 0 ? cutune_err(err, errlen, d->rc, "%s", d->err) : 0;
        free(d);
        return rc;
    }
    if (!st->nfly)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cuda: nothing in flight");
    size_t pick = 0;
    int ready = 0; /* an entry that needs no pool: planning failed, or no pool */
    for (size_t i = 0; i < st->nfly && !ready; i++)
        if (!st->fly[i]->submitted) {
            pick = i;
            ready = 1;
        }
    if (!ready) {
        cutune_cuda_job *jobs[st->nfly];
        for (size_t i = 0; i < st->nfly; i++)
            jobs[i] = &st->fly[i]->job;
        pick = cutune_cuda_pool_wait_any(st->pool, jobs, st->nfly);
    }
    job_entry *e = st->fly[pick];
    memmove(st->fly + pick, st->fly + pick + 1, (st->nfly - pick - 1) * sizeof *st->fly);
    st->nfly--;
    *id = e->id;
    *worker = 0;
    return cuda_measure(st, &st->sess[0], e, res, err, errlen);
}

/* Keep every compile thread busy and one compiled configuration waiting for each GPU. */
size_t cuda_slots(void *state)
{
    cuda_state *st = state;
    return (st->pool ? st->nthreads : 0) + st->nsess;
}

const char *cuda_worker_name(void *state, int w)
{
    cuda_state *st = state;
    return w >= 0 && (size_t)w < st->nsess ? st->worker_line[w] : NULL;
}
