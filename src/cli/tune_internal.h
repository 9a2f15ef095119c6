/* The parts of `cutune [tune]` (cmd_tune.c, the run) kept in files of their own: its
 * command line (cmd_tune_options.c) and what --resume restores and checks
 * (cmd_tune_resume.c). */
#ifndef CUTUNE_CLI_TUNE_INTERNAL_H
#define CUTUNE_CLI_TUNE_INTERNAL_H

#include <stddef.h>

#include "options.h"

/** What `cutune tune` was given on its command line; --resume fills in the rest. */
typedef struct cli_tune_options {
    const char *searcher;   /**< --searcher=NAME[:ARGS], or NULL (bo) */
    const char *evaluator;  /**< --evaluator=NAME[:ARG], or NULL (chosen by the target) */
    const char *journal;    /**< --journal=FILE, or NULL; with --resume, the journal resumed */
    const char *devices;    /**< --devices, or NULL */
    const char *resume;     /**< --resume=JOURNAL, or NULL */
    const char *output;     /**< --output=FILE.json, or NULL */
    const char *csv;        /**< --csv=FILE, or NULL */
    const char *kt;         /**< --kt-cache=FILE, or NULL */
    const char *header;     /**< --header=FILE.h, or NULL */
    const char *t4;         /**< --t4=FILE.json, or NULL */
    const char *warm_start; /**< --warm-start=FILE|none|auto, or NULL (none) */
    const char *target;     /**< KERNEL|SPEC|RECORDING; NULL: the resumed journal's */
    unsigned long budget;   /**< --budget; 0 until given or restored (then 60) */
    unsigned long seed;     /**< --seed (default 1) */
    unsigned long batch;    /**< --batch (default 1) */
    unsigned long parallel; /**< --parallel; 0: the evaluator's default */
    int have_budget;        /**< --budget was given */
    int have_seed;          /**< --seed was given */
    int have_batch;         /**< --batch was given */
    int progress;           /**< a progress line (not --no-progress) */
    int quiet;              /**< -q: print only the best configuration */
    double time_limit;      /**< --time-limit in seconds; 0: none */
    double rank_timeout;    /**< --rank-timeout in seconds (default 300) */
    cli_space_opts so;      /**< --size, --restrict, --cartesian */
    const char *db;         /**< --db=FILE, or NULL (the default database) */
    int no_db;              /**< --no-db */
    int remeasure;          /**< --remeasure: measure what the database already holds */
    const char *objective;  /**< --objective, or NULL (the spec's, a cache's, else time) */
    const char *subject_to[CLI_MAX_LIST]; /**< --subject-to constraints */
    size_t nsubject_to;
    const char *objectives;       /**< --objectives=A,B,...: several, a Pareto front; or NULL */
    const char *front;            /**< --front=PREFIX: the front's exports; or NULL */
    unsigned long confirm;        /**< --confirm=K: the best K measured again (default 5) */
    unsigned long confirm_rounds; /**< --confirm-rounds=R (default 5) */
    const char *sizes;            /**< --sizes=LIST: several shapes (docs/shapes.md), or NULL */
    const char *shape_mode;       /**< --shape-mode=each|common, or NULL (each) */
    const char *shape_warm;       /**< --shape-warm=nearest|all|none, or NULL (nearest) */
    const char *validate_sizes;   /**< --validate-sizes=LIST, or NULL */
    const char *rank_timeout_arg; /**< --rank-timeout as given, or NULL */
    const char *confirm_arg;      /**< --confirm as given, or NULL */
    const char *rounds_arg;       /**< --confirm-rounds as given, or NULL */
    int cartesian_arg;            /**< --cartesian was given (not restored by --resume) */
} cli_tune_options;

/** What --resume read and decided before the target is loaded. */
typedef struct cli_tune_resume {
    cutune_recording *journal;     /**< the journal resumed (the caller frees it), or NULL */
    const char *journal_conflict;  /**< a --journal given beside --resume: refused later */
    const char *user_evaluator;    /**< --evaluator as given with --resume, or NULL */
    unsigned long searcher_budget; /**< a run extended: the budget it planned for; 0 */
} cli_tune_resume;

/**
 * Parse `cutune [tune]`'s argv into *o (defaults first).
 * @return -1 to go on, else the exit status: 0 after --help, 2 on bad usage (the message
 *         printed on stderr).
 */
int cli_tune_parse_options(int argc, char **argv, cli_tune_options *o);

/** A resumed journal whose last line was cut off mid-write: said in one line on stderr as
 *  the run starts (the line is dropped, what it held evaluated again). */
void cli_tune_say_dropped_tail(const struct cutune_recording *resume);

/** Can a file be created at path (its folder exists and is writable; nothing is there that
 *  cutune never writes over)? Else one line naming --OPT=path. */
int cli_check_writable(const char *opt, const char *path, char *err, size_t errlen);

/**
 * With --resume: read the journal into r->journal (also on a later failure: the caller
 * frees it), refuse what the command line gives that differs from how the run was started,
 * and fill in o from the journal's header. mpi_rank 0 checks that no other run holds the
 * journal. 0 (also without --resume) or a negative code and a message in err.
 */
int cli_tune_resume_restore(cli_tune_options *o, int mpi_rank, cli_tune_resume *r, char *err,
                            size_t errlen);

/** Once the target is loaded: its spec, space and file are the resumed journal's, and no
 *  --journal was given beside --resume. 0 without --resume. */
int cli_tune_resume_check_target(const cli_tune_options *o, const cli_tune_resume *r,
                                 const cli_target *t, char *err, size_t errlen);

/** An --evaluator given with --resume (ename, eargs: its default argument filled in) is
 *  the journal's. 0 without --resume. */
int cli_tune_resume_check_evaluator(const cli_tune_options *o, const cli_tune_resume *r,
                                    const char *ename, const char *eargs, char *err, size_t errlen);

/** The space as the run sees it holds as many configurations as the journal's did. 0
 *  without --resume. */
int cli_tune_resume_check_space(const cli_tune_options *o, const cli_tune_resume *r,
                                const cli_target *t, char *err, size_t errlen);

/** A tune run's place in the tuning database (cmd_tune_db.c). */
typedef struct cli_tune_db {
    cutune_db *db;          /**< NULL: no database (--no-db, CUTUNE_DB=none) */
    cutune_db_run *run;     /**< the run's rows */
    cutune_db_store *store; /**< the tuner loop's hooks */
    cutune_db_key key;      /**< what the run's evaluations are stored as (a warm start
                                 asks cutune_db_rows_transfer for the same kernel elsewhere) */
} cli_tune_db;

/**
 * Open the run's database and begin its run (continued by journal under --resume): the
 * key from the target and the evaluator (ename, eargs as the run uses them; ev for its
 * device), the GPU fingerprint of the device or, under replay, the recording's device
 * name. 0 with d->db NULL when the run has no database. cli_tune_db_open is the first
 * half (the database opened and the key made, nothing stored: a warm start reads it), and
 * cli_tune_db_start the second (the run's rows), once nothing can refuse the input.
 */
int cli_tune_db_open(const cli_tune_options *o, const cli_target *t, const char *ename,
                     const char *eargs, cutune_evaluator *ev, cli_tune_db *d, char *err,
                     size_t errlen);
int cli_tune_db_start(const cli_tune_options *o, const cli_target *t, const char *ename,
                      const char *eargs, const char *journal, cli_tune_db *d, char *err,
                      size_t errlen);
int cli_tune_db_begin(const cli_tune_options *o, const cli_target *t, const char *ename,
                      const char *eargs, cutune_evaluator *ev, const char *journal, cli_tune_db *d,
                      char *err, size_t errlen);
/** The database of a run or command: --no-db (NULL path), --db, else the default. 0 and
 *  path "" when there is none. */
int cli_db_path(const char *given, int no_db, char *path, size_t len, char *err, size_t errlen);
/** Whether path is the tuning database o would open, whose path db[len] gets (no when it
 *  opens none, or its path cannot be resolved here: the database's own open reports that). */
int cli_is_tuning_db(const cli_tune_options *o, const char *path, char *db, size_t len);
/** The GPU fingerprint a command would measure on: the CUDA device (ename "cuda"), the
 *  recording's device name (ename "replay", recording the file), else ev's device. */
int cli_db_fingerprint(const char *ename, const char *recording, const cli_target *t,
                       cutune_evaluator *ev, const char *devices, cutune_db_gpu *g, char *err,
                       size_t errlen);
void cli_tune_db_end(cli_tune_db *d);
/** "FILE:LINE: FIELD" of the spec's field that names the recording path (one of its
 *  recording and recordings; else the spec's recording field, else its path), for a
 *  message about that file (tune_spec_recording.c). */
const char *cli_recording_at(const cutune_spec *spec, const char *path);
/** Where the recording a replay reads (eargs) is the spec's own (shipped), put err (a
 *  message about it, rc) after the field that names it: "FILE:LINE: recording: ...". */
void cli_spec_recording_said(const cutune_spec *spec, const char *shipped, const char *eargs,
                             int rc, char *err, size_t errlen);
/** Open the spec's recording path once: one that cannot be read is refused naming the
 *  spec's line and field. */
int cli_check_spec_recording(const cutune_spec *spec, const char *path, char *err, size_t errlen);
/** The GPU fingerprint a cuda run's journal header records ("gpu"): the key its
 *  measurements are stored under (d's, where the run has a database), else the one the
 *  database would use (cli_db_fingerprint), so that `db import` of the journal files it
 *  with the run's own rows. "" for another evaluator (a replay run's header has none). */
void cli_journal_gpu(const char *ename, cutune_evaluator *ev, const char *devices,
                     const cli_tune_db *d, char *out, size_t len);
/** Whether the GPU a resumed journal was measured on (its header's "gpu") is this run's:
 *  the fingerprints' hardware part (NAME|N SMs|M MiB) must agree, else CUTUNE_EINVAL with
 *  both named (a journal holds one GPU's times); a driver or CUDA update is the same GPU.
 *  0 where either is unknown (no "gpu" in the header, another evaluator). */
int cli_resume_check_gpu(const char *journal, const char *gpu, const char *ename,
                         cutune_evaluator *ev, const char *devices, const cli_tune_db *d, char *err,
                         size_t errlen);
/** The key a run on t measures as, without running it: evaluator as --evaluator gives it
 *  (NULL: cuda where a GPU is, else the recording t is or the spec names, as tune
 *  chooses), devices as --devices. */
int cli_db_target_key(const cli_target *t, const char *evaluator, const char *devices,
                      cutune_db_key *key, char *err, size_t errlen);
/** A resumed journal's objective and constraints (its header's "objective" and
 *  "subject_to"; none: time) are obj's: they are not restored (give them again, as
 *  --restrict and --size), and a run is never continued under another one. Compared as
 *  parsed over the run's space and spec, in canonical form (cutune_objective_canonical):
 *  two spellings of one constraint are one, in any order. */
int cli_tune_check_objective(const cutune_recording *journal, const cutune_objective *obj,
                             const cutune_space *space, const cutune_spec *spec, char *err,
                             size_t errlen);
/* tune_summary.c: what a run prints when it ends */
/** "budget", "exhausted", "time", "signal", ...: the journal's and the summary's name. */
const char *cli_tune_stop_reason_name(cutune_stop_reason r);
/** The summary on stdout (quiet: the best configuration alone); why is the stop's name. */
void cli_tune_print_summary(const cli_target *t, int kt, const cutune_objective *obj,
                            const cutune_history *h, const char *why, const char *journal,
                            int quiet);
/** Several objectives: the Pareto front, its hypervolume and reference point on stdout, and
 *  its exports with --front=prefix (NULL: none); 0 or a negative code with a message. */
int cli_tune_report_front(const cli_target *t, const cutune_objective *obj, const cutune_history *h,
                          const char *prefix, int quiet, char *err, size_t errlen);

/** The refusal of --cartesian where the cuda evaluator tunes a spec (%s: the spec). */
#define CLI_CARTESIAN_CUDA                                                                         \
    "--cartesian applies to recordings and to a kernel replayed from one (its recorded set "       \
    "or the spec's whole space); %s is a spec tuned by the cuda evaluator, which measures its "    \
    "whole space"

#define CLI_WARM_MAX 16    /**< files in one --warm-start list */
#define CLI_WARM_PATH 4096 /**< a path's length, and the list's */

/** A run's warm start (--warm-start), mapped onto its space. */
typedef struct cli_warm_start {
    cutune_warm_prior *prior;                /**< NULL: a cold run */
    char path[CLI_WARM_PATH];                /**< the sources by their absolute paths, comma-
                                              *   separated (the journal header's), or the
                                              *   database group of auto */
    char files[CLI_WARM_MAX][CLI_WARM_PATH]; /**< the source files one by one (not auto) */
    size_t nfiles;                           /**< files[] in use */
    size_t nsources;                         /**< sources combined: files, or GPUs of auto */
    char hash[17];                           /**< cutune_warm_prior_hash in hex */
    int cold;          /**< why a warm start given is a cold run (prior NULL): CLI_WARM_COLD_* */
    size_t cold_nused; /**< CLI_WARM_COLD_ALIKE: the observations mapped */
} cli_warm_start;

enum {
    CLI_WARM_COLD_NOTHING = 1, /**< auto: the database holds no correct measurement elsewhere */
    CLI_WARM_COLD_ALIKE = 2,   /**< the prior scores every configuration alike */
};

/** The files of --warm-start=arg into files[0..max): arg itself when it names an existing
 *  file, else its comma-separated parts; 0 when a part is empty or too long, or there are
 *  more than max. */
size_t cli_warm_start_split(const char *arg, char (*files)[CLI_WARM_PATH], size_t max);
/** Whether the --warm-start list arg names path (an output must not overwrite a source). */
int cli_warm_start_mentions(const char *arg, const char *path);
/** Whether two --warm-start lists name the same files in the same order. */
int cli_warm_start_same(const char *a, const char *b);

/** Read --warm-start=arg (NULL or "none": cold; FILE[,FILE...]: each mapped, then their median;
 *  "auto": db's rows of key's kernel on another GPU or at other sizes: every other GPU with two or
 *  more correct ones at key's sizes and options when there are two or more (their median), else the
 * group with the most correct ones, or cold where there are none) and map it onto sp; 0 or a
 * negative code with a one-line message (another kernel: no shared parameter). */
int cli_warm_start_load(const char *arg, cutune_db *db, const cutune_db_key *key,
                        const cutune_space *sp, cli_warm_start *w, char *err, size_t errlen);
/** With --resume: the warm start is the one the journal's run was started with. */
int cli_warm_start_check_resume(const cli_tune_options *o, const cli_tune_resume *r,
                                const cli_warm_start *w, char *err, size_t errlen);
/** Say in one line why a warm start given is a cold run (nothing when it is not). Called
 *  once --resume's checks have passed, so that a refused resume prints one line. */
void cli_warm_start_say_cold(const char *arg, const cli_warm_start *w);
void cli_warm_start_free(cli_warm_start *w);

#endif
