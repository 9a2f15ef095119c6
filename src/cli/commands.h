/* The subcommands of the cutune executable. Each takes argc/argv starting at
 * its own name (argv[0] is the subcommand) and returns the process exit
 * status: 0 success, 1 failure while running, 2 bad usage or bad input. */
#ifndef CUTUNE_CLI_COMMANDS_H
#define CUTUNE_CLI_COMMANDS_H

int cutune_cmd_tune(int argc, char **argv);   /* cmd_tune.c (the default command) */
int cutune_cmd_list(int argc, char **argv);   /* cmd_list.c */
int cutune_cmd_space(int argc, char **argv);  /* cmd_space.c */
int cutune_cmd_worker(int argc, char **argv); /* cmd_worker.c: the CUDA evaluation worker */
int cutune_cmd_bench(int argc, char **argv);  /* cmd_bench.c: searcher comparison on recordings */
int cutune_cmd_best(int argc, char **argv);   /* cmd_best.c: the best the database knows */
int cutune_cmd_header(int argc, char **argv); /* cmd_best.c: a tuned header for a build */
int cutune_cmd_db(int argc, char **argv);     /* cmd_db.c: the tuning database by hand */
int cutune_cmd_report(int argc, char **argv); /* cmd_report.c: journals as an HTML page */
int cutune_cmd_profile(int argc,
                       char **argv); /* cmd_profile.c: Nsight Compute on a run's winners */
/* main.c: the process's command line as given (cli_argv NULL when out of memory) */
extern int cli_argc;
extern char **cli_argv;
/* main.c: "cutune", or "cutune COMMAND" once a command is named: what messages start with */
extern const char *cli_progname;

/* tune_manifest.c: add the run's manifest to its summary JSON (--output) */
struct cutune_searcher_type;
/** What else decides a tuning run's result (NULL / 0: as a plain run's). */
typedef struct cli_tune_manifest_extra {
    const char *objective; /**< when not time */
    const char *const *subject_to;
    size_t nsubject_to;
    size_t batch;
    double time_limit_s;
    const char *const *warm_files; /**< the --warm-start files (hashed as recordings) */
    size_t nwarm_files;
    const char *warm_prior; /**< the warm start's prior hash, or NULL */
} cli_tune_manifest_extra;
int cli_tune_attach_manifest(const char *summary, const char *target, const char *replayed,
                             const char *const *restrictions, size_t nrestrictions, int cartesian,
                             const struct cutune_searcher_type *st, const char *sargs,
                             size_t budget, unsigned long seed, size_t parallel,
                             const cli_tune_manifest_extra *x, char *err, size_t errlen);

/* cmd_bench_reproduce.c: `cutune bench --reproduce=RESULTS`: rerun from the manifest into
 * out_dir (NULL: RESULTS' folder/reproduced), compare; returns the exit status */
int cutune_cli_bench_reproduce(const char *results, const char *out_dir, unsigned long jobs,
                               int plots, int quiet);
/* cmd_bench_reproduce_restrict.c: the options (malloc'd, into opts[0..max)) that give the
 * rerun of the manifest's recordings recs exactly the restrictions they were benchmarked
 * under: --restrict=EXPR, or --restrictions=FILE written into out_dir. Refuses a missing or
 * changed restrictions file. Returns 0, or the exit status after one line on stderr. */
struct cJSON;
int cutune_cli_bench_reproduce_restrictions(const char *results, const struct cJSON *recs,
                                            const char *out_dir, char **opts, int max, int *nopts);

#endif
