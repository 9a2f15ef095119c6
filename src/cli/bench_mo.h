/* `cutune bench --objectives` (cmd_bench_mo.c), called by cmd_bench.c. */
#ifndef CUTUNE_CLI_BENCH_MO_H
#define CUTUNE_CLI_BENCH_MO_H

#include "cutune/cutune.h"

/** What the multi-objective comparison runs. */
typedef struct cli_bench_mo {
    const char *objectives;                   /**< --objectives, two of them */
    const cutune_searcher_type *const *types; /**< searchers ... */
    const char *const *sargs;                 /**< ... their arguments ... */
    char *const *labels;                      /**< ... and names in the tables */
    size_t nsearchers;
    char *const *recs; /**< recordings */
    size_t nrec;
    const size_t *budgets;
    size_t nbudgets;
    unsigned long nseeds; /**< seeds 1..nseeds */
    const char *out_dir;  /**< objectives.csv goes here (made already) */
    int quiet;
} cli_bench_mo;

/**
 * Run every searcher, budget and seed on every recording under the objectives, print the
 * mean hypervolume per (recording, searcher, budget) and write OUT/objectives.csv (every
 * run). 0, or a negative code with a message naming the file.
 */
int cli_bench_objectives(const cli_bench_mo *m, char *err, size_t errlen);

#endif
