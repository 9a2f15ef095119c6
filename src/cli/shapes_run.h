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
    long from;      /* the tuned shape whose configuration it was given (-1 common) */
    long chosen_id; /* that configuration's id here (-1: not in its space) */
    cutune_status chosen_status;
    double chosen_ms;
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
} run_ctx;

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
