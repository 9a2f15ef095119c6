/**
 * @file cuda_internal.h
 * @brief Internals of the CUDA evaluator shared by its files (not public API).
 *
 * The evaluator is split in three layers:
 *  - the parent (cuda.c): spec -> plan, NVRTC compiles on a thread pool
 *    (compile.c), the worker session (session.c);
 *  - the wire (proto.c): length-prefixed binary messages over a socketpair;
 *  - the worker (worker.c and worker_*.c, `cutune worker`): the only process
 *    that touches the GPU, through a driver table (driver.c) that tests
 *    replace by a mock.
 * The driver ABI below is declared here, not taken from cuda.h, so the
 * project builds and the tests run where no CUDA toolkit is installed.
 */
#ifndef CUTUNE_EVAL_CUDA_INTERNAL_H
#define CUTUNE_EVAL_CUDA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cutune/common.h"
#include "cutune/evaluator.h"
#include "cutune/spec.h"

/* ---- driver ABI (values as in cuda.h of CUDA 12/13) ---------------------- */

typedef int cu_result;
typedef int cu_device;
typedef struct cu_ctx_st *cu_context;
typedef struct cu_mod_st *cu_module;
typedef struct cu_func_st *cu_function;
typedef struct cu_event_st *cu_event;
typedef struct cu_stream_st *cu_stream;
typedef unsigned long long cu_deviceptr;

enum {
    CU_SUCCESS = 0,
    CU_ERROR_INVALID_VALUE = 1,
    CU_ERROR_OUT_OF_MEMORY = 2,
    CU_ERROR_NO_DEVICE = 100,
    CU_ERROR_INVALID_IMAGE = 200,
    CU_ERROR_NO_BINARY_FOR_GPU = 209,
    CU_ERROR_INVALID_PTX = 218,
    CU_ERROR_NOT_FOUND = 500,
    CU_ERROR_ILLEGAL_ADDRESS = 700,
    CU_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CU_ERROR_LAUNCH_TIMEOUT = 702,
    CU_ERROR_CONTEXT_IS_DESTROYED = 709,
    CU_ERROR_ASSERT = 710,
    CU_ERROR_HARDWARE_STACK_ERROR = 714,
    CU_ERROR_ILLEGAL_INSTRUCTION = 715,
    CU_ERROR_MISALIGNED_ADDRESS = 716,
    CU_ERROR_INVALID_ADDRESS_SPACE = 717,
    CU_ERROR_INVALID_PC = 718,
    CU_ERROR_LAUNCH_FAILED = 719,
};

enum {
    CU_DEV_MAX_THREADS_PER_BLOCK = 1,
    CU_DEV_MAX_BLOCK_DIM_X = 2,
    CU_DEV_MAX_BLOCK_DIM_Y = 3,
    CU_DEV_MAX_BLOCK_DIM_Z = 4,
    CU_DEV_MAX_GRID_DIM_X = 5,
    CU_DEV_MAX_GRID_DIM_Y = 6,
    CU_DEV_MAX_GRID_DIM_Z = 7,
    CU_DEV_MAX_SHARED_PER_BLOCK = 8,
    CU_DEV_MULTIPROCESSOR_COUNT = 16,
    CU_DEV_L2_CACHE_SIZE = 38,
    CU_DEV_MAX_THREADS_PER_SM = 39,
    CU_DEV_CC_MAJOR = 75,
    CU_DEV_CC_MINOR = 76,
    CU_DEV_MAX_SHARED_PER_BLOCK_OPTIN = 97,
};

enum {
    CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_SHARED_SIZE_BYTES = 1,
    CU_FUNC_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_NUM_REGS = 4,
    CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/** Errors after which the context is unusable: the worker must exit. */
int cutune_cuda_error_is_sticky(cu_result r);

/**
 * The driver entry points the worker uses (plus optional NVML and cuBLAS).
 * Loaded from libcuda.so.1 by cutune_cuda_drv_load; tests substitute a mock.
 */
typedef struct cutune_cuda_drv {
    void *lib;      /**< dlopen handle of libcuda (NULL for a mock) */
    void *nvml_lib; /**< dlopen handle of NVML, or NULL */
    void *blas_lib; /**< dlopen handle of cuBLAS, or NULL */
    cu_result (*init)(unsigned flags);
    cu_result (*driver_get_version)(int *v);
    cu_result (*device_get_count)(int *n);
    cu_result (*device_get)(cu_device *d, int ordinal);
    cu_result (*device_get_name)(char *name, int len, cu_device d);
    cu_result (*device_get_attribute)(int *v, int attr, cu_device d);
    cu_result (*device_get_pci_bus_id)(char *id, int len, cu_device d);
    cu_result (*device_get_uuid)(unsigned char uuid[16], cu_device d); /**< optional */
    cu_result (*primary_ctx_retain)(cu_context *c, cu_device d);
    cu_result (*primary_ctx_release)(cu_device d);
    cu_result (*ctx_set_current)(cu_context c);
    cu_result (*ctx_synchronize)(void);
    cu_result (*get_error_string)(cu_result r, const char **s);
    cu_result (*module_load_data)(cu_module *m, const void *image);
    cu_result (*module_unload)(cu_module m);
    cu_result (*module_get_function)(cu_function *f, cu_module m, const char *name);
    cu_result (*func_get_attribute)(int *v, int attr, cu_function f);
    cu_result (*func_set_attribute)(cu_function f, int attr, int value);
    cu_result (*occupancy_max_active_blocks)(int *n, cu_function f, int block, size_t dsmem);
    cu_result (*mem_alloc)(cu_deviceptr *p, size_t bytes);
    cu_result (*mem_free)(cu_deviceptr p);
    cu_result (*mem_alloc_host)(void **p, size_t bytes); /**< page-locked; NULL: malloc only */
    cu_result (*mem_free_host)(void *p);
    cu_result (*memcpy_htod)(cu_deviceptr dst, const void *src, size_t bytes);
    cu_result (*memcpy_dtoh)(void *dst, cu_deviceptr src, size_t bytes);
    cu_result (*memset_d8)(cu_deviceptr p, unsigned char v, size_t n);
    cu_result (*memset_d8_async)(cu_deviceptr p, unsigned char v, size_t n, cu_stream s);
    cu_result (*launch_kernel)(cu_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned smem, cu_stream s, void **params,
                               void **extra);
    cu_result (*event_create)(cu_event *e, unsigned flags);
    cu_result (*event_destroy)(cu_event e);
    cu_result (*event_record)(cu_event e, cu_stream s);
    cu_result (*event_synchronize)(cu_event e);
    cu_result (*event_elapsed_time)(float *ms, cu_event start, cu_event end);
    /* NVML (optional: NULL when libnvidia-ml.so.1 is absent) */
    int (*nvml_init)(void);
    int (*nvml_shutdown)(void);
    int (*nvml_device_by_pci)(const char *bus_id, void **dev);
    int (*nvml_clock_info)(void *dev, int type, unsigned *mhz);
    int (*nvml_temperature)(void *dev, int sensor, unsigned *c);
    /** optional: energy since the driver loaded, mJ (nvmlDeviceGetTotalEnergyConsumption) */
    int (*nvml_total_energy)(void *dev, unsigned long long *mj);
    /** optional: power draw, mW (nvmlDeviceGetPowerUsage) */
    int (*nvml_power_usage)(void *dev, unsigned *mw);
    /** optional: clock event (throttle) reasons, a bit mask (nvmlDeviceGetCurrentClocks-
     *  EventReasons, or the older ...ClocksThrottleReasons) */
    int (*nvml_clock_reasons)(void *dev, unsigned long long *reasons);
    /* cuBLAS (optional: loaded on first use by cutune_cuda_drv_load_cublas) */
    int (*cublas_create)(void **handle);
    int (*cublas_destroy)(void *handle);
    int (*cublas_sgemm)(void *handle, int ta, int tb, int m, int n, int k, const float *alpha,
                        const float *a, int lda, const float *b, int ldb, const float *beta,
                        float *c, int ldc);
    /* cublasGemmEx (optional: the reduced-precision references, cublas_gemm_abt) */
    int (*cublas_gemm_ex)(void *handle, int ta, int tb, int m, int n, int k, const void *alpha,
                          const void *a, int atype, int lda, const void *b, int btype, int ldb,
                          const void *beta, void *c, int ctype, int ldc, int compute, int algo);
    /* cuTensorMapEncodeTiled (optional: drivers before CUDA 12 lack it; tensormap args) */
    cu_result (*tensor_map_encode_tiled)(void *map, int dtype, unsigned rank, void *addr,
                                         const uint64_t *dims, const uint64_t *strides,
                                         const uint32_t *box, const uint32_t *elem_strides,
                                         int interleave, int swizzle, int l2promo, int oobfill);
} cutune_cuda_drv;

/**
 * Load libcuda.so.1 (or $CUTUNE_LIBCUDA) and NVML. CUTUNE_ENODEV with "no CUDA
 * driver (libcuda.so.1 not found)" when the library is missing.
 */
int cutune_cuda_drv_load(cutune_cuda_drv *d, char *err, size_t errlen);
/** Load cuBLAS into d (libcublas.so.13/.12/.so). */
int cutune_cuda_drv_load_cublas(cutune_cuda_drv *d, char *err, size_t errlen);
/** dlclose what drv_load opened. */
void cutune_cuda_drv_unload(cutune_cuda_drv *d);
/** "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access ..." into buf. */
const char *cutune_cuda_drv_strerror(const cutune_cuda_drv *d, cu_result r, char *buf, size_t len);

/* ---- wire protocol -------------------------------------------------------- */

#define CUTUNE_CUDA_MAX_ARGS 64
/* The wire protocol's version, sent last in HELLO. Raise it whenever a message's layout or
 * an enumeration it carries changes: a worker from another build (--evaluator=cuda:worker=)
 * is then refused by name instead of misreading the messages. Workers from before the
 * field send no version (decoded as 0). HELLO itself may only grow after the version, so
 * that any build can read another's. */
/* 3: HELLO carries the device count, ordinal, PCI bus id and UUID
 * 4: SETUP and LAUNCH carry tensormap arguments; bfloat16 elements
 * 5: HELLO carries the energy source; SETUP the energy window
 * 6: SETUP carries the energy window's mode (energy_batch) */
#define CUTUNE_CUDA_PROTO_VERSION 6u
#define CUTUNE_CUDA_MAX_MSG (512u << 20) /* a CUBIN is a few MB at most */

enum cutune_cuda_msg_type {
    CUTUNE_CUDA_MSG_HELLO = 0x48454c4fu,    /**< worker -> parent, once at start */
    CUTUNE_CUDA_MSG_SETUP = 0x53455450u,    /**< parent -> worker: run-wide description */
    CUTUNE_CUDA_MSG_LAUNCH = 0x4c4e4348u,   /**< parent -> worker: evaluate one config */
    CUTUNE_CUDA_MSG_PROGRESS = 0x50524f47u, /**< worker -> parent: entering a phase */
    CUTUNE_CUDA_MSG_REPLY = 0x52504c59u,    /**< worker -> parent: the result */
    CUTUNE_CUDA_MSG_QUIT = 0x51554954u,     /**< parent -> worker: exit cleanly */
};

/** Phases announced by PROGRESS; each arms its own timeout in the parent. */
enum cutune_cuda_phase {
    CUTUNE_CUDA_PHASE_VERIFY = 1, /**< first launch of the tuned kernel */
    CUTUNE_CUDA_PHASE_TIME = 2,   /**< warm-up and timed repetitions */
    CUTUNE_CUDA_PHASE_CHECK = 3,  /**< first launch done: outputs copied back and compared */
};

typedef struct cutune_cuda_hello {
    int32_t rc;     /**< 0, or CUTUNE_ENODEV ... */
    char msg[256];  /**< error text when rc < 0 */
    char name[128]; /**< device name */
    int32_t cc_major, cc_minor;
    int32_t sm_count;
    int32_t driver_version; /**< e.g. 13000 */
    uint32_t proto;         /**< CUTUNE_CUDA_PROTO_VERSION of the worker's build; 0: none sent */
    int32_t device_count;   /**< CUDA devices the worker sees */
    int32_t ordinal;        /**< the one it runs on ($CUTUNE_CUDA_DEVICE, default 0) */
    char pci_bus_id[32];    /**< "0000:19:00.0", or "" */
    char uuid[48];          /**< "GPU-xxxxxxxx-...", or "" where the driver cannot say */
    int32_t energy_source;  /**< cutune_cuda_energy_source: how the worker measures energy */
} cutune_cuda_hello;

/** How a worker measures energy (worker_energy.c). */
enum cutune_cuda_energy_source {
    CUTUNE_CUDA_ENERGY_NONE = 0,    /**< no NVML, or NVML without energy or power readings */
    CUTUNE_CUDA_ENERGY_COUNTER = 1, /**< NVML's total-energy counter, read at both ends */
    CUTUNE_CUDA_ENERGY_SAMPLED = 2, /**< NVML's power reading, sampled by a thread */
};

typedef struct cutune_cuda_argdesc {
    char name[64];
    uint8_t kind;        /**< cutune_arg_kind */
    uint8_t type;        /**< cutune_elem_type */
    uint8_t init;        /**< cutune_init_kind */
    uint8_t output;      /**< 1: poisoned, then compared with the reference; 2 (inout):
                              restored from its initial contents before every launch, then
                              compared */
    double lo, hi;       /**< RANDOM range, RANGE modulus (hi) */
    char init_name[128]; /**< KERNEL: generator kernel in the sizes-only module */
    int32_t tensor;      /**< TENSORMAP: the buffer argument it describes */
    uint8_t trank;       /**< TENSORMAP: dimensions (1..CUTUNE_TMAP_MAX_RANK) */
    uint8_t swizzle;     /**< TENSORMAP: 0, 32, 64 or 128 bytes */
} cutune_cuda_argdesc;

/** Run-wide description, sent once per worker (again after a restart). */
typedef struct cutune_cuda_setup {
    uint64_t seed;
    int32_t flush_l2;
    int32_t warmup; /**< untimed launches before timing */
    int32_t min_reps, max_reps;
    double max_time_s; /**< bound on the timing loop's wall time */
    double ci_rel;     /**< stop when the median's 95% CI half-width <= ci_rel*median */
    uint32_t nargs;
    cutune_cuda_argdesc args[CUTUNE_CUDA_MAX_ARGS];
    int32_t ref_kind;   /**< cutune_ref_kind */
    char ref_name[128]; /**< reference kernel or built-in */
    /** The sizes-only module (reference kernel and generator kernels): sent when the
     * reference is a kernel or an argument has init KERNEL; view (into the message
     * on decode) */
    const void *ref_cubin;
    uint64_t ref_cubin_size;
    double rtol, atol;
    int64_t gemm_m, gemm_n, gemm_k; /**< cublas_sgemm sizes */
    int32_t gemm_a, gemm_b, gemm_c; /**< arg indices of A, B, C */
    int32_t gemm_alpha, gemm_beta;  /**< arg indices of alpha, beta */
    double energy_window_s;         /**< least duration of the energy measurement (0: the timed
                                         repetitions only; longer: more launches, untimed) */
    int32_t energy_batch; /**< 1: the energy window is its own, after the timing, filled with
                               launches back to back (energy_batch.c); 0: it spans the timed
                               repetitions, lengthened with synchronised launches */
} cutune_cuda_setup;

/** Most launches one back-to-back energy batch enqueues before it synchronises. */
#define CUTUNE_CUDA_ENERGY_MAX_BATCH 100000u

/** Launches of one back-to-back energy batch: ceil(left_s / per_launch_s), at least 1
 * (1 where the time per launch is unknown or 0), at most CUTUNE_CUDA_ENERGY_MAX_BATCH; 0
 * when no time is left. */
uint64_t cutune_cuda_energy_batch(double left_s, double per_launch_s);
/** One launch's energy (J) from the counter's readings (mJ) at the window's edges over its
 * launches; NaN where the counter did not move or there were no launches. */
double cutune_cuda_energy_per_launch(unsigned long long mj0, unsigned long long mj1,
                                     uint64_t launches);
/** The energy window a run gets without energy_window=S: CUTUNE_CUDA_ENERGY_WINDOW_S where
 * its objective or constraints read an energy metric (energy_*, power_w), else 0 (the
 * timed repetitions alone: no time spent on a window nobody reads). */
#define CUTUNE_CUDA_ENERGY_WINDOW_S 0.25
double cutune_cuda_energy_window_default(const char *const *need, size_t nneed);
/** One launch's energy (J) from two of the counter's updates inside a busy window: the
 * power between them, (mj_b - mj_a) / (t_b - t_a), times the window's time per launch,
 * window_s / launches; NaN where the two do not differ or there were no launches. */
double cutune_cuda_energy_between(unsigned long long mj_a, double t_a, unsigned long long mj_b,
                                  double t_b, double window_s, uint64_t launches);
/** The bound on the window energy's relative error that the counter's granularity sets:
 * its largest update step over the window's energy (at most 1); NaN where unknown. */
double cutune_cuda_energy_resolution(unsigned long long step_mj, unsigned long long mj0,
                                     unsigned long long mj1);

/** One evaluation request: a compiled kernel and its launch. */
typedef struct cutune_cuda_launch {
    uint64_t id;        /**< configuration id (for logs) */
    const char *kernel; /**< view */
    const void *cubin;  /**< view */
    uint64_t cubin_size;
    int64_t grid[3], block[3];
    int64_t smem; /**< dynamic shared memory bytes */
    int64_t ref_grid[3], ref_block[3];
    int64_t ref_smem; /**< reference kernel's dynamic shared memory bytes */
    uint32_t nargs;
    uint64_t count[CUTUNE_CUDA_MAX_ARGS]; /**< BUFFER: element count */
    uint64_t bits[CUTUNE_CUDA_MAX_ARGS];  /**< SCALAR: value, little-endian in its type */
    /** TENSORMAP: the tensor's dimensions and the box, innermost first */
    uint64_t tdim[CUTUNE_CUDA_MAX_ARGS][CUTUNE_TMAP_MAX_RANK];
    uint32_t tbox[CUTUNE_CUDA_MAX_ARGS][CUTUNE_TMAP_MAX_RANK];
} cutune_cuda_launch;

/** The worker's answer. times and log are malloc'd (owned by the reply). */
typedef struct cutune_cuda_reply {
    int32_t status; /**< cutune_status */
    int32_t fatal;  /**< the worker exits after sending (context poisoned) */
    double time_ms;
    uint32_t ntimes;
    double *times;
    uint32_t nmetrics;
    cutune_metric metrics[CUTUNE_MAX_METRICS];
    char *log;
} cutune_cuda_reply;

void cutune_cuda_reply_clear(cutune_cuda_reply *r);

/** A growable byte buffer (messages are built in one and sent whole). */
typedef struct cutune_cuda_buf {
    uint8_t *data;
    size_t len, cap;
    int oom; /**< an append failed: the message is unusable */
} cutune_cuda_buf;

void cutune_cuda_buf_free(cutune_cuda_buf *b);

/* Encoders append a whole framed message (type, length, payload) to b. */
int cutune_cuda_encode_hello(cutune_cuda_buf *b, const cutune_cuda_hello *h);
int cutune_cuda_encode_setup(cutune_cuda_buf *b, const cutune_cuda_setup *s);
int cutune_cuda_encode_launch(cutune_cuda_buf *b, const cutune_cuda_launch *l);
int cutune_cuda_encode_progress(cutune_cuda_buf *b, uint32_t phase);
int cutune_cuda_encode_reply(cutune_cuda_buf *b, const cutune_cuda_reply *r);
int cutune_cuda_encode_quit(cutune_cuda_buf *b);

/*
 * Decoders read one payload (without its frame). Views in setup/launch point
 * into p, which must outlive them. CUTUNE_EPARSE on truncation, trailing
 * bytes or out-of-range counts.
 */
int cutune_cuda_decode_hello(const uint8_t *p, size_t n, cutune_cuda_hello *h);
int cutune_cuda_decode_setup(const uint8_t *p, size_t n, cutune_cuda_setup *s);
int cutune_cuda_decode_launch(const uint8_t *p, size_t n, cutune_cuda_launch *l);
int cutune_cuda_decode_progress(const uint8_t *p, size_t n, uint32_t *phase);
int cutune_cuda_decode_reply(const uint8_t *p, size_t n, cutune_cuda_reply *r);

/** Send all of b on fd (MSG_NOSIGNAL: a dead peer is an error, not SIGPIPE). */
int cutune_cuda_send(int fd, const cutune_cuda_buf *b);
/**
 * Receive one message. timeout_s < 0 waits forever. Returns 0 with *type and
 * the payload in b (replacing its contents), CUTUNE_EIO on EOF or error
 * (message "worker closed the connection"), CUTUNE_EINTR on timeout,
 * CUTUNE_EPARSE on a bad frame.
 */
int cutune_cuda_recv(int fd, double timeout_s, uint32_t *type, cutune_cuda_buf *b, char *err,
                     size_t errlen);

/* ---- worker ---------------------------------------------------------------- */

/**
 * The worker loop on socket fd: say hello, then answer SETUP / LAUNCH until
 * QUIT or EOF. drv NULL loads the real driver; tests pass a mock. Returns the
 * process exit status (0 clean, 3 after a fatal CUDA error).
 */
int cutune_cuda_worker_main(int fd, const cutune_cuda_drv *drv);

/* ---- session: the parent's side of one worker ------------------------------ */

typedef struct cutune_cuda_session {
    char exe[4096];          /**< program run as "EXE worker --fd 3" */
    int device;              /**< the worker's device ordinal (-1: $CUTUNE_CUDA_DEVICE or 0) */
    int pid;                 /**< worker pid, or 0 */
    int fd;                  /**< socket to the worker, or -1 */
    cutune_cuda_hello hello; /**< from the last start */
    cutune_cuda_buf setup;   /**< encoded SETUP message, resent after a restart */
    double setup_timeout_s;  /**< start + setup + first reference */
    double kernel_timeout_s; /**< floor of the per-launch timeout */
    double max_time_s;       /**< the worker's timing budget */
    int warmup;              /**< the worker's untimed launches before timing (warmup=N) */
    double energy_window_s;  /**< the worker's energy window (energy_window=S): timing's
                                  deadline allows for it */
    double best_ms;          /**< best OK time so far (timeout = max(floor, 50x)) */
    unsigned restarts;       /**< workers restarted after a failure */
    int verbose;
} cutune_cuda_session;

/** Initialise (no process yet). exe NULL: $CUTUNE_WORKER, else /proc/self/exe. */
void cutune_cuda_session_init(cutune_cuda_session *s, const char *exe);
/** Start the worker and read its hello (s->hello). CUTUNE_ENODEV when it has no GPU. */
int cutune_cuda_session_start(cutune_cuda_session *s, char *err, size_t errlen);
/**
 * Evaluate one launch, restarting a dead worker first. Fills res (status,
 * times, metrics, log; bench_ms). A fault, abort or hang is a status, not an
 * error: the worker is killed and restarted at the next call. Returns <0 only
 * when no worker can be started.
 */
int cutune_cuda_session_eval(cutune_cuda_session *s, const cutune_cuda_launch *l,
                             const char *config_text, cutune_eval_result *res, char *err,
                             size_t errlen);
/** Ask the worker to quit, then reap it (killed when it does not go). */
void cutune_cuda_session_stop(cutune_cuda_session *s);
/** Kill the worker now (SIGKILL) and reap it. */
void cutune_cuda_session_kill(cutune_cuda_session *s);
/** Free the session's buffers (stops the worker). */
void cutune_cuda_session_free(cutune_cuda_session *s);

/* ---- compiling -------------------------------------------------------------- */

typedef struct cutune_cuda_compiled {
    int status;  /**< CUTUNE_STATUS_OK or CUTUNE_STATUS_COMPILE_ERROR */
    void *cubin; /**< malloc'd (OK only) */
    size_t cubin_size;
    char *log; /**< malloc'd NVRTC log or NULL */
    double ms; /**< wall time of compile (or cache read) */
    int cache_hit;
} cutune_cuda_compiled;

void cutune_cuda_compiled_clear(cutune_cuda_compiled *c);

/** Whether NVRTC was built in; its version (0.0 without). */
int cutune_cuda_have_nvrtc(void);
void cutune_cuda_nvrtc_version(int *major, int *minor);

/**
 * Compile source (named name, for messages) with opts (already including
 * -D defines and --gpu-architecture) to a CUBIN, through the disk cache in
 * cache_dir (NULL: no cache). A compile error is out->status, not a return
 * code; returns <0 on a system failure (no NVRTC, out of memory).
 */
int cutune_cuda_compile(const char *source, const char *name, const char *const *opts, size_t nopts,
                        const char *cache_dir, cutune_cuda_compiled *out, char *err, size_t errlen);

/**
 * The same with the compiler chosen: nvcc NULL or "" is NVRTC; otherwise the nvcc
 * executable to run (a path, or a name looked up on PATH): the source is written to a
 * private temporary directory under its own name and compiled with
 * `nvcc -cubin -o OUT opts... SOURCE`, its output the log. The cache key names the
 * compiler (NVRTC's version, or nvcc's path, size and mtime), so the two never share a
 * CUBIN. Returns <0 when nvcc cannot be started.
 */
int cutune_cuda_compile_with(const char *nvcc, const char *source, const char *name,
                             const char *const *opts, size_t nopts, const char *cache_dir,
                             cutune_cuda_compiled *out, char *err, size_t errlen);

/** Find an executable: a name containing '/' as is, else on PATH. 0 and its path in buf. */
int cutune_cuda_find_exe(const char *name, char *buf, size_t len);

/** The default cache directory: $CUTUNE_CACHE_DIR, $XDG_CACHE_HOME/cutune, ~/.cache/cutune. */
int cutune_cuda_cache_dir(char *buf, size_t len);

/** A compile request queued on the pool; owned by the caller. */
typedef struct cutune_cuda_job {
    const char *source, *name; /**< views */
    char **opts;               /**< owned */
    size_t nopts;
    const char *cache_dir;    /**< view or NULL */
    const char *nvcc;         /**< view: the nvcc to compile with, NULL: NVRTC */
    cutune_cuda_compiled out; /**< valid once done */
    int rc;                   /**< cutune_cuda_compile's return */
    char err[256];
    int state;                     /**< 0 new, 1 queued, 2 running, 3 done */
    struct cutune_cuda_job *qnext; /**< pool queue link */
} cutune_cuda_job;

typedef struct cutune_cuda_pool cutune_cuda_pool;

/** A pool of nthreads compile threads. */
int cutune_cuda_pool_alloc(size_t nthreads, cutune_cuda_pool **out, char *err, size_t errlen);
/** Queue a job (state must be 0). */
void cutune_cuda_pool_submit(cutune_cuda_pool *p, cutune_cuda_job *j);
/** Wait for a job; a job still queued is taken off the queue and run by the caller. */
void cutune_cuda_pool_wait(cutune_cuda_pool *p, cutune_cuda_job *j);
/** Wait until one of jobs[0..n) is done (each queued, running or done) and return the
 *  index of the first done one in array order. */
size_t cutune_cuda_pool_wait_any(cutune_cuda_pool *p, cutune_cuda_job *const *jobs, size_t n);
/** Run a job in the calling thread (no pool). */
void cutune_cuda_job_run(cutune_cuda_job *j);
/** Join the threads; queued jobs are left undone. */
void cutune_cuda_pool_free(cutune_cuda_pool *p);

/* ---- small helpers shared by parent and worker ------------------------------ */

/** Bytes of one element / scalar of type t. */
size_t cutune_cuda_elem_size(int t);
/**
 * The seed passed to the generator kernel of argument idx ("init": "kernel:NAME"):
 * a function of the run's seed and the index only, so every configuration and the
 * reference see the same contents.
 */
uint32_t cutune_cuda_init_seed(uint64_t run_seed, uint32_t idx);
/** Threads per block of a generator kernel launch (grid: ceil(n / this)). */
#define CUTUNE_CUDA_INIT_BLOCK 256
/** Order-statistic 95% CI of the median of sorted x[0..n): [x[*lo], x[*hi]]. */
void cutune_cuda_median_ci(size_t n, size_t *lo, size_t *hi);

#endif
