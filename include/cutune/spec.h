/**
 * @file spec.h
 * @brief Kernel specs: kernels/NAME.json beside NAME.cu, loaded whole or not at all.
 *
 * Expression symbol slots (launch geometry, shared memory, buffer sizes,
 * scalar arguments, compiler options): the space's slots (parameters, then
 * sizes as constants). Metrics additionally see `time_ms` and `time_s` at
 * slots nparams+nsizes and nparams+nsizes+1.
 */
#ifndef CUTUNE_SPEC_H
#define CUTUNE_SPEC_H

#include "cutune/common.h"
#include "cutune/expr.h"
#include "cutune/space.h"

/** SCALAR: passed by value; BUFFER: a device allocation, passed as its pointer; TENSORMAP: a
 * TMA descriptor (CUtensorMap, 128 bytes) of a buffer, encoded at run time and passed by
 * value (the kernel declares it `const __grid_constant__`). */
typedef enum cutune_arg_kind {
    CUTUNE_ARG_SCALAR = 0,
    CUTUNE_ARG_BUFFER,
    CUTUNE_ARG_TENSORMAP
} cutune_arg_kind;

/** Most dimensions of a tensor map (the driver's limit). */
#define CUTUNE_TMAP_MAX_RANK 5

/** Element / scalar types a kernel argument may have. */
typedef enum cutune_elem_type {
    CUTUNE_ELEM_FLOAT = 0,
    CUTUNE_ELEM_DOUBLE,
    CUTUNE_ELEM_HALF,
    CUTUNE_ELEM_INT32,
    CUTUNE_ELEM_UINT32,
    CUTUNE_ELEM_INT64,
    CUTUNE_ELEM_UINT8,
    CUTUNE_ELEM_BF16 /**< bfloat16: float32's exponent, 8-bit significand */
} cutune_elem_type;

/** 1 for the floating-point element types (float, double, half, bfloat16), 0 for the
 * integers. */
static inline int cutune_elem_is_float(cutune_elem_type t)
{
    return t == CUTUNE_ELEM_FLOAT || t == CUTUNE_ELEM_DOUBLE || t == CUTUNE_ELEM_HALF ||
           t == CUTUNE_ELEM_BF16;
}

/** How a buffer is initialised before each verification. */
typedef enum cutune_init_kind {
    CUTUNE_INIT_RANDOM = 0, /**< uniform in [lo, hi) from the run's generator */
    CUTUNE_INIT_ZEROS,
    CUTUNE_INIT_ONES,
    CUTUNE_INIT_RANGE, /**< 0, 1, 2, ... (mod hi when hi > 0) */
    CUTUNE_INIT_KERNEL /**< "kernel:NAME": filled on the device by the generator kernel
                            NAME of the source (init_name), compiled with the sizes only */
} cutune_init_kind;

typedef struct cutune_spec_arg {
    char *name;
    cutune_arg_kind kind;
    cutune_elem_type type;
    cutune_expr *value; /**< SCALAR: its value */
    cutune_expr *size;  /**< BUFFER: element count */
    cutune_init_kind init;
    double init_lo, init_hi;
    char *init_name; /**< KERNEL: the generator kernel's name */
    int output;      /**< BUFFER written by the kernel: verified */
    /* TENSORMAP only: the row-major tensor `tensor` (a buffer's index; its type is the map's
     * element type) seen as trank dimensions, innermost first, copied in boxes of tbox
     * elements; swizzle is 0, 32, 64 or 128 (bytes). */
    size_t tensor;
    size_t trank;
    cutune_expr *tdims[CUTUNE_TMAP_MAX_RANK];
    cutune_expr *tbox[CUTUNE_TMAP_MAX_RANK];
    int swizzle;
    int inout; /**< BUFFER the kernel reads and updates in place ("inout": true): an
                    output restored from its pristine contents before every launch */
} cutune_spec_arg;

typedef enum cutune_ref_kind {
    CUTUNE_REF_NONE = 0,
    CUTUNE_REF_KERNEL, /**< another kernel in the same source */
    CUTUNE_REF_BUILTIN /**< e.g. "cublas_sgemm" */
} cutune_ref_kind;

typedef struct cutune_spec_metric {
    char *name;        /**< e.g. "TFLOP/s" */
    cutune_expr *expr; /**< sees time_ms and time_s */
} cutune_spec_metric;

typedef struct cutune_spec_option {
    char *text; /**< compiler option; "{NAME}" is replaced by a parameter/size value */
} cutune_spec_option;

typedef struct cutune_spec {
    char *name;              /**< kernel spec name (file stem) */
    char *path;              /**< the JSON file */
    char *source_path;       /**< the .cu file (resolved relative to the JSON) */
    char *source;            /**< its text */
    char *kernel_name;       /**< __global__ function to tune */
    cutune_space *space;     /**< enumerated: params, restrictions, sizes as constants */
    size_t nsizes;           /**< sizes are the space's constants 0..nsizes-1 */
    cutune_expr *grid[3];    /**< blocks per grid, x y z (never NULL: missing ones are "1") */
    cutune_expr *block[3];   /**< threads per block (never NULL) */
    cutune_expr *shared_mem; /**< dynamic shared memory bytes, or NULL */
    size_t noptions;
    cutune_spec_option *options;
    size_t nargs;
    cutune_spec_arg *args;
    cutune_ref_kind ref_kind;
    char *ref_name;                          /**< kernel or built-in name */
    cutune_expr *ref_grid[3], *ref_block[3]; /**< reference kernel geometry (KERNEL only) */
    double rtol;                             /**< relative error norm bound */
    double atol;     /**< max absolute error bound (INFINITY: not checked) */
    char *objective; /**< the run's default objective: "time" (minimised) unless the spec
                          names another ("energy", "edp", "EXPR:max": objective.h) */
    size_t nmetrics;
    cutune_spec_metric *metrics;
    char *recording; /**< default recording for no-GPU replay (resolved path) or NULL */
    char hash[17];   /**< hex of a 64-bit hash of the JSON text, source text and sizes */
    cutune_expr
        *ref_shared_mem; /**< reference dynamic shared memory bytes, or NULL (KERNEL only) */
    char *warnings;      /**< what the file says that cutune ignores (a T1 file's run control
                              and metadata): "FILE:LINE: FIELD: reason" lines, each ending in
                              '\n', or NULL */

    /** hex of the same hash before the sizes: the kernel across problem sizes (the tuning
     *  database's key) */
    char kernel_hash[17];
    /** "recordings": more recordings for no-GPU replay (resolved paths), each at other
     *  sizes than "recording"; replay takes the one measured at the run's sizes */
    char **recordings;
    size_t nrecordings;
    /** Where the file names recording, for messages about it: "FILE:LINE: FIELD" (FIELD
     *  "recording"; a T1 file's "KernelSpecification.SimulationInput"), or NULL */
    char *recording_at;
    char **recordings_at; /**< the same for recordings[i] ("FILE:LINE: recordings[i]") */
} cutune_spec;

/** A command-line size override, NAME=VALUE. */
typedef struct cutune_size_override {
    const char *name;
    cutune_value value;
} cutune_size_override;

/**
 * Load and enumerate a spec. Every error names the file, the JSON path
 * (e.g. "args[2].size") and the reason; nothing is returned on failure.
 * A T1 file (the auto-tuning community's input format: a top-level "ConfigurationSpace"
 * or "KernelSpecification", docs/formats.md) is read as the spec it describes; its
 * errors name the T1 field, and what it says that cutune ignores is in s->warnings.
 */
int cutune_spec_load(const char *path, const cutune_size_override *ov, size_t nov,
                     cutune_spec **out, char *err, size_t errlen);
/** Same from a JSON buffer (fuzzing); source_dir resolves the .cu file. */
int cutune_spec_load_buffer(const char *name, const char *json, size_t len, const char *source_dir,
                            const cutune_size_override *ov, size_t nov, cutune_spec **out,
                            char *err, size_t errlen);
void cutune_spec_free(cutune_spec *s);

/**
 * Find a kernel by name: "gemm" -> the first of $CUTUNE_KERNELS/gemm.json,
 * CUTUNE_SOURCE_ROOT/kernels/gemm.json (source tree), CUTUNE_DATADIR/kernels/gemm.json
 * that exists. Anything containing '/' or ending in .json is a path, returned as is.
 * Writes the resolved path; CUTUNE_ENOTFOUND lists the known kernels.
 */
int cutune_spec_resolve(const char *name_or_path, char *path, size_t len, char *err, size_t errlen);
/**
 * Known kernels: *.json of the first existing kernels dir (same order as resolve),
 * names without .json, sorted, NULL-terminated; free each and the array with free().
 * NULL only when out of memory.
 */
char **cutune_spec_list_kernels(void);

/**
 * Evaluate the derived metrics of configuration id at time_ms into out (nmetrics).
 * A metric that fails (e.g. division by zero at time 0) is NAN; the first failure's
 * code and message are returned after all are computed.
 */
int cutune_spec_metrics(const cutune_spec *s, size_t id, double time_ms, double *out, char *err,
                        size_t errlen);

/**
 * Compiler options of configuration id with {NAME} substituted (values printed as
 * cutune_value_format does); "-maxrregcount=0" is dropped. *out has *n entries plus a
 * NULL terminator; caller frees each and the array.
 */
int cutune_spec_options(const cutune_spec *s, size_t id, char ***out, size_t *n, char *err,
                        size_t errlen);

#endif
