/**
 * @file journal.h
 * @brief The run journal (JSON lines, flushed and fsync'd per line) and exports.
 *
 * Journal lines (interface others read; version "format": 1):
 *   {"kind":"header","format":1,"cutune":VERSION,"spec":NAME,"spec_hash":HEX,
 *    "space_hash":HEX,"searcher":..,"searcher_args":..,"seed":N,"evaluator":..,
 *    "evaluator_arg":..,"target":PATH,"device":..,"budget":N,"batch":K,"parallel":N,"workers":[..]
 * (GPUs, when the evaluator names them),"started":ISO (not in replay runs),
 * "params":{name:[values...]} (in order),"restrictions":[...],"sizes":{name:value}}
 *   {"kind":"eval","n":I,"config":{name:value},"status":"ok","time_ms":X,
 *    "times_ms":[...],"metrics":{name:value},"compile_ms":X,"bench_ms":X,
 *    "log":"...","timestamp":ISO (not in replay runs),"elapsed_s":X,
 *    "worker":W,"submitted":S}
 *   n is the completion order (the sequence number), submitted the order in which the
 *   evaluation was started, worker the slot or GPU that ran it (see "workers" in the
 *   header when several GPUs ran the run).
 */
#ifndef CUTUNE_JOURNAL_H
#define CUTUNE_JOURNAL_H

#include <stdio.h>
#include "cutune/common.h"
#include "cutune/space.h"
#include "cutune/tuner.h"

struct cutune_spec;
struct cutune_recording;

typedef struct cutune_journal cutune_journal;

typedef struct cutune_journal_header {
    const char *spec_name; /**< spec name or recording path */
    const char *spec_hash; /**< hex */
    const char *searcher, *searcher_args;
    unsigned long seed;
    const char *evaluator, *evaluator_arg;
    const char *target; /**< the spec or recording the run was started on (path), or NULL */
    const char *device;
    size_t budget;
    size_t batch;               /**< proposals per round (it shapes what the searcher proposes) */
    size_t parallel;            /**< evaluations in flight (it shapes them too) */
    const char *const *workers; /**< what each worker is (a GPU: "ORDINAL NAME UUID"), or NULL */
    size_t nworkers;
    int deterministic; /**< leave out "started" (replay: byte-identical journals) */
    int cartesian;     /**< a recording's whole Cartesian product (--cartesian) */
    /** the objective when it is not time ("objective"), else NULL (the line is then as it
     *  was before objectives); its constraints ("subject_to": their canonical forms,
     *  cutune_objective_constraint_canonical) */
    const char *objective;
    const char *const *subject_to;
    size_t nsubject_to;
    const char *warm_start;      /**< the warm start's source (a path), or NULL: cold */
    const char *warm_start_hash; /**< hash of its prior over the space (hex), or NULL */
    /** the GPU fingerprint the tuning database keys the run's measurements by
     *  ("NAME|N SMs|M MiB|driver D|CUDA C", a live cuda run's), or NULL: the header has no
     *  "gpu" (a replay run's, whose journal stays byte-identical) */
    const char *gpu;
} cutune_journal_header;

/**
 * Create the journal path with its header line, and lock it (flock) for this run until
 * cutune_journal_close. Never truncates nor replaces anything: CUTUNE_EBUSY where
 * anything exists at path (the header is written to an exclusive temporary, fsync'd, and
 * renamed there only if nothing is; see cutune_outfile_open for the paths refused).
 */
int cutune_journal_create(const char *path, const cutune_journal_header *h, const cutune_space *s,
                          cutune_journal **out, char *err, size_t errlen);
/**
 * As cutune_journal_create, but the journal stays a temporary beside path (locked, its
 * lines written, not fsync'd one by one) until cutune_journal_publish puts it there
 * whole: a journal written in one go (an export) is never seen cut short. Closed before
 * its publish, or ended by a signal the CLI catches, it leaves nothing at path.
 */
int cutune_journal_create_pending(const char *path, const cutune_journal_header *h,
                                  const cutune_space *s, cutune_journal **out, char *err,
                                  size_t errlen);
/** Put a journal of cutune_journal_create_pending at its path: fsync, then a rename that
 *  replaces nothing (CUTUNE_EBUSY where anything appeared there). 0 for one already
 *  there. On failure nothing is at path; cutune_journal_close still frees j. */
int cutune_journal_publish(cutune_journal *j, char *err, size_t errlen);
/** CUTUNE_EBUSY ("PATH: in use: ...") where a run holds the journal at path, else 0 (a
 *  check before a run; cutune_journal_append takes the lock itself). */
int cutune_journal_check_free(const char *path, char *err, size_t errlen);
/** Whether the file at path is gzip-compressed (a journal that cannot be appended to);
 *  0 when it cannot be read. */
int cutune_journal_is_compressed(const char *path);
/** Open an existing journal for appending (resume) and lock it until cutune_journal_close;
 *  drops a partial last line. Refuses a gzip-compressed file, a symbolic link, and a
 *  journal another run holds (CUTUNE_EBUSY, "PATH: in use: ..."). */
int cutune_journal_append(const char *path, cutune_journal **out, char *err, size_t errlen);
/** Write one eval line for history entry e (index n), flush and fsync. */
int cutune_journal_write_eval(cutune_journal *j, const cutune_space *s,
                              const struct cutune_spec *spec, size_t n,
                              const cutune_history_entry *e, char *err, size_t errlen);
void cutune_journal_close(cutune_journal *j);

/** The summary JSON ({"best":{"config","time_ms","metrics"},"evaluations",...}). */
int cutune_export_summary(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                          const cutune_history *h, const char *stop_reason, char *err,
                          size_t errlen);
/** One row per evaluation: n, each parameter, status, time_ms, metrics. */
int cutune_export_csv(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                      const cutune_history *h, char *err, size_t errlen);
/** The columns cutune_export_csv would write, checked before a run: CUTUNE_EINVAL when a
 *  parameter or spec metric is named n, status or time_ms, or a metric as another column.
 *  (An evaluator metric named as another column is written as "metric:NAME".) */
int cutune_export_csv_check(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                            char *err, size_t errlen);
/** Whether a Kernel Tuner cache can hold s, checked before a run: CUTUNE_EINVAL when a
 *  parameter has the name of an entry's field (time, times, compile_time ...), or a value
 *  holds a ',' (the cache's key joins values with ','). */
int cutune_export_kt_cache_check(const char *path, const cutune_space *s, char *err, size_t errlen);
/** Kernel Tuner cache JSON (readable by Kernel Tuner and by cutune's replay); refused
 *  (nothing written) where cutune_export_kt_cache_check refuses. */
int cutune_export_kt_cache(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                           const char *device_name, const cutune_history *h, char *err,
                           size_t errlen);
/** The same with the cache's kernel_name given (Kernel Tuner refuses a cache of another
 *  kernel name): for a space without a spec, e.g. a recording's, whose name the recording
 *  holds; NULL takes the spec's, else "unknown". */
int cutune_export_kt_cache_named(const char *path, const cutune_space *s,
                                 const struct cutune_spec *spec, const char *kernel_name,
                                 const char *device_name, const cutune_history *h, char *err,
                                 size_t errlen);
/** The same for a space built from recording rec (NULL: none), whose Kernel Tuner
 *  problem_size the cache carries on where there is no spec to say it, and whose Python
 *  bools (a parameter it listed as true and false, held as 1 and 0) it writes as Kernel
 *  Tuner does: True and False in the keys, true and false in the values. */
int cutune_export_kt_cache_recorded(const char *path, const cutune_space *s,
                                    const struct cutune_spec *spec,
                                    const struct cutune_recording *rec, const char *kernel_name,
                                    const char *device_name, const cutune_history *h, char *err,
                                    size_t errlen);
/** Every evaluation in T4, the auto-tuning community's results format (t4.c,
 *  docs/formats.md): per configuration its times, invalidity and correctness. */
int cutune_export_t4(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                     const char *device_name, const cutune_history *h, char *err, size_t errlen);
/** C header of #define NAME VALUE for the best configuration, named (comment, include
 *  guard) after the spec, else after name (e.g. a recording's kernel_name), else "kernel".
 *  Writes only proved C tokens (docs/hardening.md): a name that is not a C identifier
 *  (cutune_export_header_check), and a best value that is neither an identifier nor a
 *  number (nor such tokens separated by single spaces), are refused (CUTUNE_EINVAL, the
 *  name and the value in err), and nothing is written. */
int cutune_export_header(const char *path, const cutune_space *s, const struct cutune_spec *spec,
                         const char *name, const cutune_history *h, char *err, size_t errlen);
/** The names cutune_export_header would write (its own, every parameter's) checked before
 *  a run: 0, or CUTUNE_EINVAL naming the first that is not a C identifier, or that is a C
 *  or C++ keyword or a reserved identifier (cutune_export_header_name_reserved). */
int cutune_export_header_check(const char *path, const cutune_space *s,
                               const struct cutune_spec *spec, const char *name, char *err,
                               size_t errlen);
/** Why an identifier may not be a name in a header (a #define, a struct member): a static
 *  string saying so when it is a keyword of C11 or C++ (alternative tokens and C++20's
 *  included) or reserved to the implementation (begins with "__" or "_" and a capital);
 *  NULL when it may. */
const char *cutune_export_header_name_reserved(const char *name);

#endif
