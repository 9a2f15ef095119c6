/* What the runs of `cutune --sizes` (cmd_tune_shapes.c) share with their report
 * (shapes_output.c): one shape's run and the run's choices. */
#ifndef CUTUNE_CLI_SHAPES_RUN_H
#define CUTUNE_CLI_SHAPES_RUN_H

#include "shapes.h"
#include "shapes_eval.h"

/* One shape of the run: its target, evaluator, database run and result. */
typedef struct shape_run {
    cli_shape *shape;
    cli_target t;
    char recording[4096]; /* replayed file ("" under cuda) */
    char earg[4096];      /* the shape's evaluator argument: the recording's absolute path */
    cutune_evaluator *ev;
    cli_tune_db db;
    shapes_eval_shape es;
    char journal[4200];
    cutune_history hist;
    int tuned;        /* a search ran on it (each mode, validation's direct tune) */
    long winner;      /* id of its chosen configuration in its space, -1 none */
    double winner_ms; /* its time there (NAN: not correct) */
    double best_ms;   /* the fastest seen there in this run */
    double known_ms;  /* common mode: the database's fastest there (NAN: no database) */
    /* validation */
    long from;          /* the tuned shape whose configuration it was given (-1 common) */
    long chosen_id;     /* that configuration's id here (-1: not in its space) */
    int chosen_stopped; /* the run was stopped before it was measured here */
    cutune_status chosen_status;
    double chosen_ms;
    /* --resume=PREFIX (shapes_resume.c) */
    cutune_recording *resume; /* its journal, resumed; NULL: it starts fresh */
    int finished;             /* the run had moved on from it: its journal is its history */
    int has_prior;            /* resume: its warm start, rebuilt once to check its journal */
    cutune_warm_prior *prior; /* (NULL: cold) and the shape it came from (nearest) */
    long prior_from;
} shape_run;

typedef struct run_ctx {
    const cli_tune_options *o;
    char sname[64];
    const char *sargs;
    const cutune_searcher_type *st;
    char ename[64];
    const char *eargs; /* the cuda evaluator's arguments (devices= added) */
    int replay;
    char prefix[4096]; /* journals: PREFIX-LABEL.jsonl */
    const char *sizes_text;
    char common_arg[8192]; /* the common journal's evaluator_arg: "EVAL[:ARGS] at LIST" */
    char target_abs[4096]; /* the kernel's spec by its absolute path (journal headers) */
    int resuming;          /* --resume=PREFIX */
    char gpu[512];         /* a cuda run's GPU fingerprint, for its journals' headers ("gpu") */
} run_ctx;

/* ---- --resume=PREFIX with --sizes (shapes_resume.c) */

/** The run's prefix from --resume=PREFIX (a trailing .jsonl dropped; a --journal beside it
 *  names the same prefix or is refused). */
int shapes_resume_prefix(run_ctx *c, char *err, size_t errlen);
/** The journals PREFIX-NAME.jsonl of the run: names[0..n) the ones it writes. Another
 *  PREFIX-LABEL.jsonl (LABEL a shape's: digits and x) or PREFIX-common.jsonl is refused,
 *  naming it; *found gets how many of names exist. */
int shapes_resume_scan(const run_ctx *c, const char *const *names, size_t n, size_t *found,
                       char *err, size_t errlen);
/** Read journal path (o->resume's checks and restores through cli_tune_resume_restore,
 *  against the command line in given) into *j; the first one read (*o's restored values
 *  still unset: first) fills o in, a later one must agree with it. */
int shapes_resume_restore(const cli_tune_options *given, cli_tune_options *o, int first,
                          const char *path, cutune_recording **j, char *err, size_t errlen);
/** o->evaluator, when not given, as the journal j was started with (a shape's, or the
 *  common journal's evaluator_arg "EVAL[:ARGS] at LIST"). */
int shapes_resume_evaluator(cli_tune_options *o, const cutune_recording *j, int common, char *err,
                            size_t errlen);
/** Journal j of shape r (its target loaded; earg the evaluator argument the shape runs
 *  with) is this run's: the spec, space and evaluator. */
int shapes_resume_check_shape(const run_ctx *c, const cutune_recording *j, const cli_target *t,
                              const char *earg, char *err, size_t errlen);
/** The common journal j is this run's: its shapes and evaluator (c->common_arg), space. */
int shapes_resume_check_common(const run_ctx *c, const cutune_recording *j, const cli_target *t,
                               char *err, size_t errlen);
/** In the order the run writes them (paths[0..n), there[i]: the file exists), the journals
 *  that exist come first: one after an absent one is refused, naming both. */
int shapes_resume_order(const char *resume, const char *const *paths, const int *there, size_t n,
                        char *err, size_t errlen);
/** The journals js[0..n) in the run's order (NULL: not there; those there come first):
 *  each before the last one there gets finished[i] = 1 (the run had moved on), and the
 *  last one too when it holds budget evaluations. */
void shapes_resume_finished(cutune_recording *const *js, size_t n, size_t budget, int *finished);
/** Journal j's warm start is the prior this run gives it (prior, NULL: cold; source the
 *  journal of the nearest shape for --shape-warm=nearest, NULL for all). */
int shapes_resume_check_warm(const cutune_recording *j, const char *warm,
                             const cutune_warm_prior *prior, const char *source, char *err,
                             size_t errlen);
/** --resume=PREFIX: the run's journals read, restored and checked against each other and
 *  the command line (given) before any shape is loaded; *o gets what they restore. R
 *  (common: *cres for the common journal) and V get their journals, in the order the run
 *  writes them (order: the tuned shapes' order); finished marks those it had moved on from. */
int shapes_resume_journals(run_ctx *c, const cli_tune_options *given, cli_tune_options *o,
                           int common, shape_run *R, size_t n, const size_t *order, shape_run *V,
                           size_t nv, cutune_recording **cres, int *cfinished, char *err,
                           size_t errlen);
/** --resume=PREFIX, once the shapes are loaded: the finished shapes' histories from their
 *  journals, and each journal's warm start checked against the one this run gives it
 *  (--shape-warm=warm; kept in the shape for its run, so a model is fitted once). */
int shapes_resume_histories(const char *warm, unsigned long seed, shape_run *R, size_t n,
                            const size_t *order, shape_run *V, size_t nv, char *err, size_t errlen);
/** The history of a finished journal j over space sp, in the journal's order, as the run
 *  that wrote it had it (with_metrics: its recorded metrics too: the common journal's
 *  t_LABEL). */
int shapes_history_from_journal(const cutune_recording *j, const cutune_space *sp, int with_metrics,
                                cutune_history *h, char *err, size_t errlen);

/** The fastest correct time of a history (NAN: none). */
double shapes_best_of(const cutune_history *h);
/** The metric t_LABEL of a common run's history entry (its time at that shape), or NAN. */
double shapes_shape_time(const cutune_history_entry *e, const char *label);
/** Configuration id of s on one line ("(none)" for -1). */
void shapes_print_config(const cutune_space *s, long id);

/** The summary on stdout (-q: the configuration(s) alone); 1 when some configuration was
 *  correct. */
int shapes_print_summary(int common, const char *warm, int quiet, shape_run *R, size_t n,
                         shape_run *V, size_t nv, const cutune_space *cspace,
                         const cutune_history *ch, const char *cjournal);
/** --output: the whole run as one JSON object (docs/shapes.md), written whole or not at all. */
int shapes_write_output(const char *path, const run_ctx *c, int common, shape_run *R, size_t n,
                        const cutune_space *cspace, const cutune_history *ch, const char *cjournal,
                        shape_run *V, size_t nv, const char *stop, char *err, size_t errlen);

#endif
