/* cutune bench's option lists (cmd_bench_args.c), for cmd_bench.c. */
#ifndef CUTUNE_CLI_BENCH_ARGS_H
#define CUTUNE_CLI_BENCH_ARGS_H

#include <stddef.h>

#include "cutune/bench.h"

#define BENCH_MAX 256
#define BENCH_MAX_BUDGET 10000000 /* evaluations per run: far above any recording's size */

struct cutune_searcher_type;

/** Add path, or every *.json / *.json.gz of the folder path (sorted), to out[*n]. */
int bench_add_recordings(const char *path, char **out, size_t *n);
/** --budgets=LIST: positive integers, sorted and de-duplicated into out[*n]. */
int bench_parse_budgets(const char *text, size_t *out, size_t *n);
/** A non-negative integer option's value. */
int bench_parse_count(const char *opt, const char *text, unsigned long *out);
/** One searcher spec "NAME" or "NAME:ARGS" into types, args and labels at *n. */
int bench_add_searcher(const char *spec, const struct cutune_searcher_type **types,
                       const char **args, char **labels, size_t *n);
/** The restrictions file of a folder of recordings, loaded into rfiles: its index, -1
 *  when there is none (or path is a file), -2 after an error (printed). */
long bench_folder_restrictions(const char *path, cutune_bench_restrictions **rfiles,
                               char **rfile_path, size_t *nrfiles);
/** The command line as results.md quotes it (malloc'd; NULL: out of memory). */
char *bench_quoted_command(int argc, char **argv);

#endif
