/*
 * The parts of cutune bench shared by its files; not part of the public API. bench.c
 * sets a bench up and runs its phases on a task pool; bench_run.c holds the tasks of
 * phase 1 (a recording's spaces and tables) and phase 2 (the runs), bench_stats.c the
 * statistics (the random baseline, P, the fraction of optimum), bench_output.c what is
 * written (results.md, .csv, .json, runs.csv, plots).
 */
#ifndef CUTUNE_TUNE_BENCH_INTERNAL_H
#define CUTUNE_TUNE_BENCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cutune/bench.h"
#include "cutune/common.h"
#include "cutune/recording.h"
#include "cutune/space.h"

/* A recording's space under one convention, as a lookup table by configuration id. */
typedef struct {
    cutune_space *space;
    uint8_t *status; /* cutune_status per id */
    double *time;    /* ms; INFINITY when not ok */
    double *cost;    /* simulated ms charged for evaluating id */
    double worst;    /* worst valid time: stands in for a failure where a value is needed */
} bench_table;

/* One bench: its options, its result, and what the phases share. Every task writes only
 * its own slots. */
typedef struct {
    const cutune_bench_options *opt;
    cutune_bench_result *res;
    const size_t *rec_src;   /* result recording index -> opt->recordings index */
    bench_table *tab;        /* [nconv * nrec] */
    cutune_recording **recs; /* [nrec]; kept: a recorded-only space's filter reads it */
    size_t *charged;         /* [run][budget] evaluations charged by the run of that budget */
    size_t *lead;            /* [conv][rec][searcher][budget]: the budget whose run serves it */
    double *pe, *pt;         /* [run] P of the largest budget's run over evaluations / time */
} bench_ctx;

/* bench.c: a malloc'd copy of s; NULL for NULL (and on OOM). */
char *bench_strdup(const char *s);

/* bench_run.c, phase 1: load recording ri and build its table under every convention
 * (a task of the pool: ctx is the bench_ctx). */
int bench_load_task(void *ctx, size_t ri, char *err, size_t errlen);
/* bench_run.c: runs per (convention, recording, searcher, seed). */
size_t bench_job_count(const cutune_bench_result *r);
/* bench_run.c: which run serves each budget (b->lead). */
int bench_plan_groups(bench_ctx *b, char *err, size_t errlen);
/* bench_run.c, phase 2: one run (a task of the pool: ctx is the bench_ctx). */
int bench_run_task(void *ctx, size_t job, char *err, size_t errlen);

/* bench_stats.c: the expected minimum of a size-b sample without replacement of
 * sorted[0..n); lf: lgamma(k + 1) for k = 0..n, or NULL. */
double bench_expected_min(const double *sorted, size_t n, size_t b, double fail_value,
                          const double *lf);
/* bench_stats.c: P of one run over evaluations, and over simulated time. */
double bench_run_p_evals(const cutune_bench_space_info *info, const double *best, double worst);
double bench_run_p_time(const cutune_bench_space_info *info, const double *best, const double *cum,
                        size_t charged, double worst);
/* bench_stats.c: t_opt / best, 0 when nothing valid was found (best infinite). */
double bench_fraction_of_optimum(double t_opt, double best);
/* bench_stats.c, phase 3: the cells, curves and P of b->res from the runs; frac: scratch
 * of nseeds doubles. */
void bench_compute_stats(bench_ctx *b, double *frac);

/* bench_vs_random.c: the cells not above random search (results.md section, vs-random.csv). */
void bench_write_md_vs_random(FILE *f, const cutune_bench_result *r);
void bench_write_csv_vs_random(FILE *f, const cutune_bench_result *r);
/* bench_split.c: leave-one-GPU-out (results.md section, split.csv); order: scratch of nrec. */
void bench_write_md_split(FILE *f, const cutune_bench_result *r, size_t *order);
void bench_write_csv_split(FILE *f, const cutune_bench_result *r);
/* bench_output.c: finish a file of cutune_bench_write's set (committed with the others
 * once all are whole; at once outside a cutune_bench_write). Frees o on failure. */
int bench_close_out(cutune_outfile *o, char *err, size_t errlen);

#endif
