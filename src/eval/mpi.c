/* Several hosts through MPI (include/cutune/mpi.h). Messages, all small and eager:
 *   HELLO  rank -> 0: u32 slots, then the rank's device line (text)
 *   JOB    0 -> rank: u64 configuration id
 *   RESULT rank -> 0: u64 id, i32 worker, then the packed evaluation result
 *   STOP   0 -> rank: nothing; the rank frees its evaluator and leaves
 * A rank is taken for dead when an evaluation it holds has not come back within the
 * deadline: its evaluations are re-queued on the others and late answers from it are
 * dropped, so that no configuration is counted twice. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cutune_config.h"
#include "cutune/mpi.h"

int cutune_mpi_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                       "MPI_LOCALNRANKS", NULL};
    for (size_t i = 0; vars[i]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1)
            return atoi(v);
    }
    return 0;
}

#if !CUTUNE_HAVE_MPI

int cutune_mpi_available(void)
{
    return 0;
}

static int unsupported(char *err, size_t errlen)
{
    return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                      "this cutune was built without MPI (install Open MPI's development "
                      "files, libopenmpi-dev, and build again)");
}

int cutune_mpi_init(int *rank, int *size, char *err, size_t errlen)
{
    *rank = 0;
    *size = 1;
    return unsupported(err, errlen);
}

void cutune_mpi_finalize(void)
{
}

void cutune_mpi_abort(int code)
{
}

int cutune_mpi_local_gpu(void)
{
    return 0;
}

int cutune_mpi_serve(cutune_evaluator *ev, char *err, size_t errlen)
{
    return unsupported(err, errlen);
}

static int mpi_alloc(void *state, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    return unsupported(err, errlen);
}

static int mpi_evaluate(void *state, const size_t *ids, size_t k, cutune_eval_result *res,
                        char *err, size_t errlen)
{
    return unsupported(err, errlen);
}

static const cutune_evaluator_type mpi_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "mpi",
    .help = "evaluator ranks of an MPI job (not built)",
    .size = 1,
    .alloc = mpi_alloc,
    .evaluate = mpi_evaluate,
};

#else

#include <mpi.h>

enum { TAG_HELLO = 1, TAG_JOB, TAG_RESULT, TAG_STOP };

int cutune_mpi_available(void)
{
    return 1;
}

int cutune_mpi_init(int *rank, int *size, char *err, size_t errlen)
{
    int done = 0;
    MPI_Initialized(&done);
    if (!done && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return cutune_err(err, errlen, CUTUNE_EIO, "MPI_Init failed");
    /* a dead peer is an error code, not the end of the job */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

void cutune_mpi_finalize(void)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Finalize();
}

void cutune_mpi_abort(int code)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, code);
}

int cutune_mpi_local_gpu(void)
{
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis && !strchr(vis, ','))
        return 0;
    int world, local, has0 = 0, mine;
    MPI_Comm node;
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    mine = world == 0;
    MPI_Allreduce(&mine, &has0, 1, MPI_INT, MPI_MAX, node);
    MPI_Comm_free(&node);
    return has0 ? local - 1 : local;
}

/* ---- packing a result ---- */

typedef struct {
    uint8_t *p;
    size_t n, cap, off;
    int bad;
} buf;

static void put(buf *b, const void *x, size_t n)
{
    if (!n)
        return;
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? 2 * b->cap : 256;
        while (nc < b->n + n)
            nc *= 2;
        uint8_t *q = realloc(b->p, nc);
        if (!q) {
            b->bad = 1;
            return;
        }
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

static void get(buf *b, void *x, size_t n)
{
    if (!n)
        return;
    if (b->bad || b->off + n > b->n) {
        b->bad = 1;
        memset(x, 0, n);
        return;
    }
    memcpy(x, b->p + b->off, n);
    b->off += n;
}

static void pack_result(buf *b, uint64_t id, int32_t worker, const cutune_eval_result *r)
{
    int32_t status = (int32_t)r->status;
    uint32_t ntimes = (uint32_t)r->ntimes, nm = (uint32_t)r->nmetrics;
    uint32_t loglen = r->log ? (uint32_t)strlen(r->log) : 0;
    put(b, &id, sizeof id);
    put(b, &worker, sizeof worker);
    put(b, &status, sizeof status);
    put(b, &r->time_ms, sizeof r->time_ms);
    put(b, &r->compile_ms, sizeof r->compile_ms);
    put(b, &r->bench_ms, sizeof r->bench_ms);
    put(b, &ntimes, sizeof ntimes);
    put(b, r->times_ms, ntimes * sizeof *r->times_ms);
    put(b, &nm, sizeof nm);
    put(b, r->metrics, nm * sizeof *r->metrics);
    put(b, &loglen, sizeof loglen);
    put(b, r->log, loglen);
}

static int unpack_result(buf *b, uint64_t *id, int32_t *worker, cutune_eval_result *r)
{
    int32_t status;
    uint32_t ntimes, nm, loglen;
    memset(r, 0, sizeof *r);
    get(b, id, sizeof *id);
    get(b, worker, sizeof *worker);
    get(b, &status, sizeof status);
    get(b, &r->time_ms, sizeof r->time_ms);
    get(b, &r->compile_ms, sizeof r->compile_ms);
    get(b, &r->bench_ms, sizeof r->bench_ms);
    get(b, &ntimes, sizeof ntimes);
    if (b->bad || ntimes > (b->n - b->off) / sizeof(double))
        return CUTUNE_EPARSE;
    if (ntimes) {
        if (!(r->times_ms = malloc(ntimes * sizeof *r->times_ms)))
            return CUTUNE_ENOMEM;
        get(b, r->times_ms, ntimes * sizeof *r->times_ms);
        r->ntimes = ntimes;
    }
    get(b, &nm, sizeof nm);
    if (b->bad || nm > CUTUNE_MAX_METRICS)
        return CUTUNE_EPARSE;
    get(b, r->metrics, nm * sizeof *r->metrics);
    r->nmetrics = nm;
    for (size_t i = 0; i < nm; i++)
        r->metrics[i].name[sizeof r->metrics[i].name - 1] = '\0';
    get(b, &loglen, sizeof loglen);
    if (b->bad || loglen > b->n - b->off)
        return CUTUNE_EPARSE;
    if (loglen) {
        if (!(r->log = malloc((size_t)loglen + 1)))
            return CUTUNE_ENOMEM;
        get(b, r->log, loglen);
        r->log[loglen] = '\0';
    }
    if (status < 0 || status >= CUTUNE_STATUS_COUNT)
        return CUTUNE_EPARSE;
    r->status = (cutune_status)status;
    return b->bad ? CUTUNE_EPARSE : 0;
}

/* ---- an evaluating rank ---- */

int cutune_mpi_serve(cutune_evaluator *ev, char *err, size_t errlen)
{
    size_t slots = cutune_evaluator_slots(ev), inflight = 0;
    buf b = {0};
    uint32_t s32 = (uint32_t)slots;
    const char *dev = cutune_evaluator_device(ev);
    put(&b, &s32, sizeof s32);
    put(&b, dev, strlen(dev) + 1);
    if (b.bad || MPI_Send(b.p, (int)b.n, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD) != MPI_SUCCESS) {
        free(b.p);
        return cutune_err(err, errlen, CUTUNE_EIO, "MPI: cannot reach rank 0");
    }
    int rc = 0;
    for (;;) {
        MPI_Status st;
        int flag = 0;
        if (inflight < slots) {
            if (inflight == 0)
                flag = MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st) == MPI_SUCCESS;
            else
                MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        }
        if (flag) {
            uint64_t id = 0;
            int n = 0;
            MPI_Get_count(&st, MPI_BYTE, &n);
            if (st.MPI_TAG == TAG_STOP) {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                break;
            }
            if (st.MPI_TAG != TAG_JOB || n != (int)sizeof id) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE, "MPI: unexpected message %d",
                                st.MPI_TAG);
                break;
            }
            MPI_Recv(&id, (int)sizeof id, MPI_BYTE, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if ((rc = cutune_evaluator_submit(ev, (size_t)id, err, errlen)) < 0)
                break;
            inflight++;
            continue;
        }
        size_t id;
        int worker = 0;
        cutune_eval_result r;
        memset(&r, 0, sizeof r);
        rc = cutune_evaluator_wait_any(ev, &id, &worker, &r, err, errlen);
        if (rc < 0) {
            cutune_eval_result_clear(&r);
            break;
        }
        inflight--;
        b.n = 0;
        pack_result(&b, id, worker, &r);
        cutune_eval_result_clear(&r);
        if (b.bad) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            break;
        }
        if (MPI_Send(b.p, (int)b.n, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD) != MPI_SUCCESS) {
            rc = cutune_err(err, errlen, CUTUNE_EIO, "MPI: cannot reach rank 0");
            break;
        }
    }
    free(b.p);
    return rc;
}

/* ---- rank 0: the evaluator whose workers are the ranks ---- */

typedef struct {
    int alive;
    size_t cap, busy;
    char name[400];
} rank_info;

typedef struct {
    size_t id;
    int rank;      /* 0: queued, not sent yet */
    double sent_s; /* when it was sent */
} mpi_job;

typedef struct {
    int size;
    rank_info *ranks; /* [size]; [0] unused */
    mpi_job *jobs;    /* in flight or queued */
    size_t njobs, capjobs;
    double deadline_s;
    char device[512];
    buf rx;
} mpi_state;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Send the queued jobs to the ranks with room, least busy first. */
static int dispatch(mpi_state *s, char *err, size_t errlen)
{
    for (size_t j = 0; j < s->njobs; j++) {
        mpi_job *jb = &s->jobs[j];
        if (jb->rank)
            continue;
        int best = 0;
        for (int r = 1; r < s->size; r++) {
            rank_info *ri = &s->ranks[r];
            if (ri->alive && ri->busy < ri->cap &&
                (!best || ri->busy * s->ranks[best].cap < s->ranks[best].busy * ri->cap))
                best = r;
        }
        if (!best)
            return 0; /* every rank is full: sent when one answers */
        uint64_t id = jb->id;
        if (MPI_Send(&id, (int)sizeof id, MPI_BYTE, best, TAG_JOB, MPI_COMM_WORLD) != MPI_SUCCESS) {
            s->ranks[best].alive = 0; /* gone: try the next */
            fprintf(stderr, "cutune: MPI rank %d cannot be reached; going on without it\n", best);
            j--;
            continue;
        }
        jb->rank = best;
        jb->sent_s = now_s();
        s->ranks[best].busy++;
    }
    for (int r = 1; r < s->size; r++)
        if (s->ranks[r].alive)
            return 0;
    return cutune_err(err, errlen, CUTUNE_EIO, "MPI: every evaluating rank is gone");
}

static void mpi_free(void *state)
{
    mpi_state *s = state;
    for (int r = 1; s->ranks && r < s->size; r++) {
        if (s->ranks[r].alive) {
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
            continue;
        }
        /* taken for dead, perhaps only slow: told to stop too, without waiting on it */
        MPI_Request req;
        if (s->ranks[r].cap &&
            MPI_Isend(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD, &req) == MPI_SUCCESS) {
            int done = 0;
            for (int i = 0; i < 100 && !done; i++) {
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
                if (!done)
                    usleep(5000);
            }
            if (!done) {
                MPI_Cancel(&req);
                MPI_Request_free(&req);
            }
        }
    }
    free(s->ranks);
    free(s->jobs);
    free(s->rx.p);
    memset(s, 0, sizeof *s);
}

static int recv_any(mpi_state *s, int tag, double timeout_s, int *src, char *err, size_t errlen)
{
    double t0 = now_s();
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int n = 0;
            MPI_Get_count(&st, MPI_BYTE, &n);
            s->rx.n = s->rx.off = 0;
            s->rx.bad = 0;
            if (n > 0) {
                if (s->rx.cap < (size_t)n) {
                    uint8_t *q = realloc(s->rx.p, (size_t)n);
                    if (!q)
                        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                    s->rx.p = q;
                    s->rx.cap = (size_t)n;
                }
            }
            MPI_Recv(s->rx.p, n, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s->rx.n = (size_t)n;
            *src = st.MPI_SOURCE;
            return 1;
        }
        if (timeout_s >= 0 && now_s() - t0 >= timeout_s)
            return 0;
        usleep(200);
    }
}

static int mpi_alloc(void *state, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    mpi_state *s = state;
    int init = 0;
    MPI_Initialized(&init);
    if (!init)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "evaluator 'mpi': MPI is not initialised");
    MPI_Comm_size(MPI_COMM_WORLD, &s->size);
    if (s->size < 2)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "evaluator 'mpi': the job has no evaluating rank (start it with "
                          "mpirun -n 2 or more)");
    s->deadline_s = 300;
    if (ctx->arg && !strncmp(ctx->arg, "deadline=", 9))
        s->deadline_s = atof(ctx->arg + 9);
    if (!(s->ranks = calloc((size_t)s->size, sizeof *s->ranks)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    /* every rank says how many evaluations it takes at once, and on what */
    for (int got = 0; got < s->size - 1;) {
        int src, rc = recv_any(s, TAG_HELLO, s->deadline_s, &src, err, errlen);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return cutune_err(err, errlen, CUTUNE_EIO,
                              "MPI: %d of %d evaluating ranks did not start within %g s "
                              "(their messages are on their stderr)",
                              s->size - 1 - got, s->size - 1, s->deadline_s);
        uint32_t slots = 0;
        get(&s->rx, &slots, sizeof slots);
        rank_info *ri = &s->ranks[src];
        ri->alive = 1;
        ri->cap = slots ? slots : 1;
        size_t left = s->rx.n - s->rx.off;
        snprintf(ri->name, sizeof ri->name, "rank %d: %.*s", src, (int)(left ? left - 1 : 0),
                 (const char *)s->rx.p + s->rx.off);
        got++;
    }
    snprintf(s->device, sizeof s->device, "MPI, %d evaluating ranks (rank 1: %s)", s->size - 1,
             s->ranks[1].name + strlen("rank 1: "));
    return 0;
}

static int mpi_evaluate(void *state, const size_t *ids, size_t k, cutune_eval_result *res,
                        char *err, size_t errlen)
{
    return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                      "evaluator 'mpi': evaluations go through submit / wait_any");
}

static int mpi_submit(void *state, size_t id, char *err, size_t errlen)
{
    mpi_state *s = state;
    if (s->njobs == s->capjobs) {
        size_t nc = s->capjobs ? 2 * s->capjobs : 64;
        mpi_job *j = realloc(s->jobs, nc * sizeof *j);
        if (!j)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        s->jobs = j;
        s->capjobs = nc;
    }
    s->jobs[s->njobs++] = (mpi_job){id, 0, 0};
    return dispatch(s, err, errlen);
}

static int mpi_wait_any(void *state, size_t *id, int *worker, cutune_eval_result *res, char *err,
                        size_t errlen)
{
    mpi_state *s = state;
    for (;;) {
        int src, rc = recv_any(s, TAG_RESULT, 0.05, &src, err, errlen);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            uint64_t rid;
            int32_t w;
            cutune_eval_result r;
            if ((rc = unpack_result(&s->rx, &rid, &w, &r)) < 0) {
                cutune_eval_result_clear(&r);
                return cutune_err(err, errlen, rc, "MPI: a malformed result from rank %d", src);
            }
            size_t j = 0;
            while (j < s->njobs && !(s->jobs[j].id == rid && s->jobs[j].rank == src))
                j++;
            if (j == s->njobs || !s->ranks[src].alive) {
                cutune_eval_result_clear(&r); /* late, from a rank taken for dead */
                continue;
            }
            s->ranks[src].busy--;
            s->jobs[j] = s->jobs[--s->njobs];
            *id = (size_t)rid;
            *worker = src - 1;
            *res = r;
            return dispatch(s, err, errlen);
        }
        /* a rank that holds an evaluation past the deadline is taken for dead */
        double t = now_s();
        for (size_t j = 0; j < s->njobs; j++) {
            mpi_job *jb = &s->jobs[j];
            if (!jb->rank || t - jb->sent_s < s->deadline_s)
                continue;
            int dead = jb->rank;
            s->ranks[dead].alive = 0;
            fprintf(stderr,
                    "cutune: MPI rank %d did not answer within %g s; its evaluations go to the "
                    "other ranks\n",
                    dead, s->deadline_s);
            for (size_t k = 0; k < s->njobs; k++)
                if (s->jobs[k].rank == dead)
                    s->jobs[k].rank = 0;
        }
        if ((rc = dispatch(s, err, errlen)) < 0)
            return rc;
    }
}

static size_t mpi_slots(void *state)
{
    mpi_state *s = state;
    size_t n = 0;
    for (int r = 1; r < s->size; r++)
        n += s->ranks[r].cap;
    return n;
}

static const char *mpi_device(void *state)
{
    return ((mpi_state *)state)->device;
}

static const char *mpi_worker_name(void *state, int w)
{
    mpi_state *s = state;
    return w >= 0 && w + 1 < s->size ? s->ranks[w + 1].name : NULL;
}

static const cutune_evaluator_type mpi_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "mpi",
    .help = "the evaluating ranks of an MPI job (rank 0's side; made by the CLI under mpirun)",
    .size = sizeof(mpi_state),
    .alloc = mpi_alloc,
    .evaluate = mpi_evaluate,
    .free = mpi_free,
    .device = mpi_device,
    .submit = mpi_submit,
    .wait_any = mpi_wait_any,
    .slots = mpi_slots,
    .worker_name = mpi_worker_name,
};

#endif

const cutune_evaluator_type *const cutune_evaluator_mpi = &mpi_type;
