/* The CUDA evaluator's parent side, shared by its files: cuda.c (arguments, plans,
 * entries, the type), cuda_devices.c (one worker per GPU) and cuda_async.c (submit /
 * wait_any, measuring threads). The worker's side is worker*.c; both share
 * cuda_internal.h. */
#ifndef CUTUNE_CUDA_PARENT_H
#define CUTUNE_CUDA_PARENT_H

#include <pthread.h>

#include "cutune/cutune.h"
#include "cuda_internal.h"

struct cuda_state;

/* What a measuring thread is given: the evaluator and the worker it measures on. */
typedef struct measurer {
    struct cuda_state *st;
    int worker;
} measurer;

#define CUDA_MAX_DEVICES 16

/* A configuration on its way: planned, compiling or compiled, not yet measured. */
typedef struct job_entry {
    size_t id;
    cutune_cuda_job job;       /**< the compile (opts owned) */
    cutune_cuda_launch launch; /**< everything but the CUBIN */
    int plan_rc;               /**< <0: the configuration's expressions failed */
    char plan_err[256];
    int submitted; /**< on the pool (else compiled at evaluation) */
    struct job_entry *next;
} job_entry;

/* A result measured by a device thread, waiting for wait_any. */
typedef struct done_entry {
    size_t id;
    int worker, rc;
    char err[512];
    cutune_eval_result res;
    struct done_entry *next;
} done_entry;

typedef struct cuda_state {
    const cutune_space *space;
    const cutune_spec *spec;
    int flush_l2, pipeline, use_cache, warmup, min_reps, max_reps;
    long threads;
    double timeout_s, max_time_s, ci;
    double energy_window_s; /**< least energy-measurement window (energy_window=S; 0: the timed
                                 repetitions) */
    int energy_batch;       /**< energy_batch=0|1: the window's launches back to back (1) */
    int arch;               /**< sm_XY as XY (from the device unless arch= given) */
    char arch_opt[48];
    char worker[4096];
    char cache_dir[4096];
    char nvcc[4096]; /**< compiler=nvcc|PATH: the nvcc found; empty: NVRTC */
    char source_name[256];
    char device_line[384];
    cutune_cuda_session sess[CUDA_MAX_DEVICES]; /**< one worker per GPU */
    size_t nsess, sess_started;
    char devices[256]; /**< devices=: "" or "all", ordinals "0,2", or a model name */
    char worker_line[CUDA_MAX_DEVICES][320]; /**< "ORDINAL NAME UUID" per worker */
    /* several GPUs: a measuring thread per worker; jobs_mu guards the jobs list and fly */
    pthread_mutex_t mu;
    pthread_cond_t work, done_cv;
    pthread_t measurers[CUDA_MAX_DEVICES];
    struct measurer margs[CUDA_MAX_DEVICES];
    size_t nmeasurers;
    int stop, sync_ready;
    struct done_entry *done; /**< measured, not yet waited for (FIFO) */
    cutune_cuda_pool *pool;
    size_t nthreads; /**< compile threads of the pool */
    job_entry *jobs;
    cutune_value *vars;
    size_t nvars;
    char **size_defs; /**< -DNAME=VALUE of every size */
    size_t nsize_defs;
    cutune_cuda_compiled ref; /**< reference kernel CUBIN */
    job_entry **fly;          /**< submitted, not yet answered, in submission order */
    size_t nfly, capfly;
} cuda_state;

/* cuda_args.c: the arguments into st (the defaults for those not given); 0 or CUTUNE_EINVAL */
int cuda_parse_args(cuda_state *st, const char *arg, char *err, size_t errlen);
/* cuda.c: the entry of id, planned and (when pipelining) queued for compilation (the
 * caller holds st->mu); removing one takes st->mu itself */
int cuda_entry_get(cuda_state *st, size_t id, job_entry **out, char *err, size_t errlen);
void cuda_entry_remove(cuda_state *st, job_entry *e);
/* cuda_devices.c: start the workers of devices= (st->sess, st->nsess) */
int cuda_start_workers(cuda_state *st, int verbose, char *err, size_t errlen);
/* cuda_async.c */
int cuda_measure(cuda_state *st, cutune_cuda_session *sess, job_entry *e, cutune_eval_result *res,
                 char *err, size_t errlen);
void *cuda_measure_main(void *arg);
int cuda_submit(void *state, size_t id, char *err, size_t errlen);
int cuda_wait_any(void *state, size_t *id, int *worker, cutune_eval_result *res, char *err,
                  size_t errlen);
size_t cuda_slots(void *state);
const char *cuda_worker_name(void *state, int w);

#endif
