/* cutune bench: compare searchers on recorded spaces (see include/cutune/bench.h
 * for what is measured and how). This file parses options, draws the progress bar and
 * writes the outputs; bench_args.c reads the lists the options give. */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_args.h"
#include "bench_mo.h"
#include "commands.h"
#include "options.h"
#include "cutune/bench.h"
#include "cutune/manifest.h"
#include "cutune/searcher.h"
#include "cutune_config.h"

static const char *const default_searchers = "random,grid,genetic,bo";
static const char *const default_budgets = "20,40,60,100,200";

static void bench_usage(FILE *f)
{
    fprintf(f,
            "usage: cutune bench [OPTIONS] [RECORDING|FOLDER ...]\n"
            "\n"
            "Compare searchers offline on recorded tuning spaces (Kernel Tuner caches, .json or\n"
            ".json.gz, and cutune journals, .jsonl or .jsonl.gz; a folder means every such file\n"
            "in it). Without recordings it reads $CUTUNE_SHARED_DATA/kt-caches, else\n"
            "../shared/data/kt-caches beside the source where that exists (Kernel Tuner caches,\n"
            "not in the repository), else the source tree's data/ (cutune's H200 recordings).\n"
            "\n"
            "  --searchers=LIST     comma-separated names (default %s)\n"
            "  --searcher=NAME:ARGS add one searcher with arguments (repeatable; after the\n"
            "                       --searchers list where that is given, else in place of the\n"
            "                       default list), e.g. --searcher=genetic:pop=20,mut=0.2\n"
            "  --budgets=LIST       evaluation budgets (default %s); each is a run of its own,\n"
            "                       as cutune --budget=B makes it (searchers plan by it)\n"
            "  --seeds=N            runs per searcher and recording, 1..4294967295 (default 50;\n"
            "                       seeds 1..N)\n"
            "  --convention=C       constraint-aware | cartesian | recorded | both | all\n"
            "                       (default both = constraint-aware and cartesian).\n"
            "                       constraint-aware: the space is the Cartesian product\n"
            "                       filtered by the recording's restrictions, and a\n"
            "                       configuration they allow that the recording lacks is a\n"
            "                       failed evaluation and is charged; where the restrictions\n"
            "                       are not known, the recorded configurations. recorded:\n"
            "                       only the recorded configurations (failures the recording\n"
            "                       left out are never proposed nor charged)\n"
            "  --restrict=EXPR      a restriction of every recording's space (repeatable;\n"
            "                       in place of a restrictions file: not with --restrictions)\n"
            "  --restrictions=FILE  the known spaces of the recordings: sections '[PATTERN ...]'\n"
            "                       matching recording names, one restriction per line\n"
            "                       (default: FOLDER/restrictions for a folder given, and for\n"
            "                       ../shared/data/kt-caches the source tree's\n"
            "                       benchmarks/searchers/restrictions)\n"
            "  --split              also the leave-one-GPU-out tables: the searchers are the\n"
            "                       candidates of one choice, made for each GPU on the others\n"
            "  --jobs=N             worker threads, 1..1024 (default: all cores)\n"
            "  --parallel=N         evaluations in flight per run, 1..1024 (default 1): each\n"
            "                       run is the tuner loop on a virtual clock with N workers\n"
            "                       playing the recorded compile + benchmark times\n"
            "                       (docs/parallel.md)\n"
            "  --out=DIR            results folder (default benchmarks/searchers/results)\n"
            "  --no-plots           write the plot data but do not run gnuplot\n"
            "  --per-seed           also write DIR/runs.csv: the best of every run (seed, budget)\n"
            "  --objectives=A,B     compare by the hypervolume of the (A, B) Pareto fronts\n"
            "                       instead (recordings holding both; DIR/objectives.csv;\n"
            "                       not with --restrict, --restrictions, --convention,\n"
            "                       --parallel, --split, --per-seed; nor --jobs, --no-plots:\n"
            "                       its runs are sequential and it draws no plots)\n"
            "  --reproduce=RESULTS  rerun the experiment of a results.json from its manifest\n"
            "                       alone (into --out, default RESULTS' folder/reproduced), each\n"
            "                       recording with the restrictions it was benchmarked with, and\n"
            "                       compare cell by cell: exit 0 identical, 1 different, 2 when a\n"
            "                       recording or restrictions file is missing or its SHA-256\n"
            "                       differs (only --out, --jobs, --no-plots, --quiet with it)\n"
            "  --quiet              no progress bar\n"
            "  -h, --help           this text\n"
            "\n"
            "Writes DIR/results.md, results.csv, results.json, results.tex, vs-random.csv\n"
            "(the cells not above random search), plots.gp and plots/*.{dat,png,svg,pdf}\n"
            "(and runs.csv with --per-seed, split.csv with --split); results.md, .csv, .tex\n"
            "and plots.gp name the manifest (results.json: commit, build, libraries, machine,\n"
            "recordings' SHA-256, resolved options; docs/reproducibility.md). A signal while\n"
            "they are written ends bench once the last is in place: never a mixed set.\n",
            default_searchers, default_budgets);
}

typedef struct {
    size_t last;
    int tty;
} progress_state;

static void progress_bar(void *ctx, size_t done, size_t total)
{
    progress_state *p = ctx;
    size_t width = 40, fill = total ? done * width / total : width;
    size_t pct = total ? done * 100 / total : 100;
    if (pct == p->last && done != total)
        return;
    p->last = pct;
    char bar[64];
    for (size_t i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\rbench [%s] %3zu%% %zu/%zu runs", bar, pct, done, total);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

/* What bench says it runs, once every recording is loaded and its spaces are built: a
 * recording or a restriction refused is then the only line, not the third. */
typedef struct {
    size_t nsearchers, nrec, nknown, maxb;
    unsigned long seeds;
    unsigned conv;
    const char *conv_text, *restrictions; /* --convention; where the known spaces come from */
} bench_plan;

/* Once bench has read the recordings (cutune_bench_options.loaded): the plan, and what any
 * recording left out, as tune and space say it. */
static void say_loaded(void *ctx, const cutune_recording *const *recs, size_t n)
{
    const bench_plan *p = ctx;
    fprintf(stderr,
            "cutune bench: %zu searcher(s) x %zu recording(s) x %lu seeds, %s, up to %zu "
            "evaluations per run\n",
            p->nsearchers, p->nrec, p->seeds, p->conv_text, p->maxb);
    if (p->conv & CUTUNE_BENCH_CONSTRAINT_AWARE)
        fprintf(stderr,
                "cutune bench: constraint-aware: restrictions known for %zu of %zu recordings "
                "(%s); absent configurations they allow are charged as failures, the others "
                "search their recorded configurations\n",
                p->nknown, p->nrec, p->restrictions);
    for (size_t i = 0; i < n; i++)
        cli_say_truncated_tail(recs[i]);
}

int cutune_cmd_bench(int argc, char **argv)
{
    enum {
        OPT_SEARCHERS = 1,
        OPT_SEARCHER,
        OPT_BUDGETS,
        OPT_SEEDS,
        OPT_CONV,
        OPT_JOBS,
        OPT_PARALLEL,
        OPT_OUT,
        OPT_NOPLOTS,
        OPT_QUIET,
        OPT_PER_SEED,
        OPT_OBJECTIVES,
        OPT_REPRODUCE,
        OPT_RESTRICT,
        OPT_RESTRICTIONS,
        OPT_SPLIT,
        OPT_HELP
    };
    static const struct option longopts[] = {
        {"searchers", required_argument, NULL, OPT_SEARCHERS},
        {"searcher", required_argument, NULL, OPT_SEARCHER},
        {"budgets", required_argument, NULL, OPT_BUDGETS},
        {"seeds", required_argument, NULL, OPT_SEEDS},
        {"convention", required_argument, NULL, OPT_CONV},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"parallel", required_argument, NULL, OPT_PARALLEL},
        {"out", required_argument, NULL, OPT_OUT},
        {"no-plots", no_argument, NULL, OPT_NOPLOTS},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"per-seed", no_argument, NULL, OPT_PER_SEED},
        {"objectives", required_argument, NULL, OPT_OBJECTIVES},
        {"reproduce", required_argument, NULL, OPT_REPRODUCE},
        {"restrict", required_argument, NULL, OPT_RESTRICT},
        {"restrictions", required_argument, NULL, OPT_RESTRICTIONS},
        {"split", no_argument, NULL, OPT_SPLIT},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *searchers_list = default_searchers, *budgets_text = default_budgets;
    const char *extra[BENCH_MAX];
    size_t nextra = 0;
    const char *out_dir = "benchmarks/searchers/results";
    const char *conv_text = "both", *reproduce = NULL;
    unsigned long seeds = 50, jobs = 0, parallel = 1;
    int plots = 1, quiet = 0, per_seed = 0, split = 0;
    const char *objectives = NULL; /* --objectives: compared by hypervolume instead */
    const char *restrict_expr[BENCH_MAX];
    size_t nrestrict = 0;
    const char *restrictions_file = NULL;
    /* per recording: the restrictions file that knows its space (index into rfiles), or -1 */
    long rec_file[BENCH_MAX];
    cutune_bench_restrictions *rfiles[BENCH_MAX];
    char *rfile_path[BENCH_MAX];
    size_t nrfiles = 0;
    cutune_bench_space_def defs[BENCH_MAX];
    cutune_manifest_space spaces[BENCH_MAX]; /* the same, with the file, for the manifest */
    int status = 2, made_out = 0;

    const cutune_searcher_type *types[BENCH_MAX];
    const char *sargs[BENCH_MAX];
    char *labels[BENCH_MAX];
    size_t ns = 0;
    char *recs[BENCH_MAX];
    size_t nrec = 0;
    size_t budgets[BENCH_MAX], nb = 0;
    char *list = NULL, *command = NULL;
    cutune_bench_result *res = NULL;
    char err[1024];
    /* the command line as given, before getopt permutes it (the manifest's "command") */
    char **cmdline = calloc((size_t)argc + 2, sizeof *cmdline);
    if (!cmdline)
        return 1;
    cmdline[0] = "cutune";
    cmdline[1] = "bench";
    for (int i = 1; i < argc; i++)
        cmdline[i + 1] = argv[i];

    optind = 1;
    int c, given[64] = {0}, ngiven = 0; /* the options given, for the modes' refusals */
    while ((c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        if (ngiven < 64)
            given[ngiven++] = c;
        switch (c) {
        case OPT_SEARCHERS: searchers_list = optarg; break;
        case OPT_SEARCHER:
            if (nextra >= BENCH_MAX) { /* never dropped unsaid */
                fprintf(stderr, "cutune bench: more than %d --searcher\n", BENCH_MAX);
                goto out;
            }
            extra[nextra++] = optarg;
            break;
        case OPT_BUDGETS: budgets_text = optarg; break;
        case OPT_SEEDS:
            if (bench_parse_count("--seeds", optarg, &seeds) < 0)
                goto out;
            break;
        case OPT_CONV: conv_text = optarg; break;
        case OPT_JOBS:
            if (bench_parse_count("--jobs", optarg, &jobs) < 0)
                goto out;
            /* the library takes an unsigned, where 0 is every core: 4294967296 would have
             * wrapped to that, 4294967297 to one thread */
            if (jobs < 1 || jobs > 1024) {
                fprintf(stderr, "cutune bench: --jobs=%s: must be 1..1024\n", optarg);
                goto out;
            }
            break;
        case OPT_PARALLEL:
            if (bench_parse_count("--parallel", optarg, &parallel) < 0)
                goto out;
            if (parallel < 1 || parallel > 1024) {
                fprintf(stderr, "cutune bench: --parallel=%s: must be 1..1024\n", optarg);
                goto out;
            }
            break;
        case OPT_OUT: out_dir = optarg; break;
        case OPT_NOPLOTS: plots = 0; break;
        case OPT_QUIET: quiet = 1; break;
        case OPT_PER_SEED: per_seed = 1; break;
        case OPT_OBJECTIVES: objectives = optarg; break;
        case OPT_REPRODUCE: reproduce = optarg; break;
        case OPT_RESTRICT:
            if (nrestrict >= BENCH_MAX) {
                fprintf(stderr, "cutune bench: more than %d --restrict\n", BENCH_MAX);
                goto out;
            }
            restrict_expr[nrestrict++] = optarg;
            break;
        case OPT_RESTRICTIONS: restrictions_file = optarg; break;
        case OPT_SPLIT: split = 1; break;
        case 'h':
        case OPT_HELP:
            bench_usage(stdout);
            free(cmdline);
            return 0;
        default: /* said in one line by cli_getopt */ free(cmdline); return 2;
        }
    }

    /* a mode that does not read an option refuses it, never drops it: --reproduce reruns
     * RESULTS' own experiment, --objectives compares fronts over every configuration */
    {
        static const int rerun_reads[] = {OPT_REPRODUCE, OPT_OUT, OPT_JOBS, OPT_NOPLOTS, OPT_QUIET};
        static const int mo_ignores[] = {OPT_RESTRICT, OPT_RESTRICTIONS, OPT_CONV, OPT_PARALLEL,
                                         OPT_SPLIT,    OPT_PER_SEED,     OPT_JOBS, OPT_NOPLOTS};
        for (int g = 0; g < ngiven; g++) {
            int bad = 0;
            if (reproduce) {
                bad = 1;
                for (size_t k = 0; k < sizeof rerun_reads / sizeof rerun_reads[0]; k++)
                    bad &= given[g] != rerun_reads[k];
            } else if (objectives) {
                for (size_t k = 0; k < sizeof mo_ignores / sizeof mo_ignores[0]; k++)
                    bad |= given[g] == mo_ignores[k];
            }
            if (!bad)
                continue;
            size_t i = 0;
            while (longopts[i].name && longopts[i].val != given[g])
                i++;
            fprintf(stderr, "cutune bench: --%s does not apply with --%s (%s)\n",
                    longopts[i].name ? longopts[i].name : "?",
                    reproduce ? "reproduce" : "objectives",
                    reproduce ? "it reruns the results' own experiment; --out, --jobs, "
                                "--no-plots and --quiet apply"
                    : given[g] == OPT_JOBS ? "its runs are made one after another, in one thread"
                    : given[g] == OPT_NOPLOTS
                        ? "it draws no plots: its table and objectives.csv are its output"
                        : "the fronts are over every recorded configuration");
            goto out;
        }
        if (reproduce && optind < argc) {
            fprintf(stderr,
                    "cutune bench: --reproduce: %s: the recordings are the results' own "
                    "(their manifest names them)\n",
                    argv[optind]);
            goto out;
        }
    }
    if (reproduce) {
        int out_given = 0;
        for (int i = 1; i < argc; i++)
            out_given |= strncmp(cmdline[i + 1], "--out", 5) == 0;
        status =
            cutune_cli_bench_reproduce(reproduce, out_given ? out_dir : NULL, jobs, plots, quiet);
        goto out;
    }
    unsigned conv;
    if (strcmp(conv_text, "constraint-aware") == 0)
        conv = CUTUNE_BENCH_CONSTRAINT_AWARE;
    else if (strcmp(conv_text, "cartesian") == 0)
        conv = CUTUNE_BENCH_CARTESIAN;
    else if (strcmp(conv_text, "recorded") == 0)
        conv = CUTUNE_BENCH_RECORDED;
    else if (strcmp(conv_text, "both") == 0)
        conv = CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN;
    else if (strcmp(conv_text, "all") == 0)
        conv = CUTUNE_BENCH_CONSTRAINT_AWARE | CUTUNE_BENCH_CARTESIAN | CUTUNE_BENCH_RECORDED;
    else {
        fprintf(stderr,
                "cutune bench: --convention: '%s' (valid: constraint-aware, cartesian, "
                "recorded, both, all)\n",
                conv_text);
        goto out;
    }
    if (seeds == 0) {
        fprintf(stderr, "cutune bench: --seeds must be at least 1\n");
        goto out;
    }
    /* seed s is `cutune --seed=s`, which takes 1..4294967295: GSL's mt19937 keeps 32 bits,
     * so seed 4294967296 would repeat the run of 4357 (0's) */
    if (seeds > 4294967295UL) {
        fprintf(stderr,
                "cutune bench: --seeds=%lu: must be 1..4294967295 (the seeds are 1..N, "
                "32-bit as --seed's)\n",
                seeds);
        goto out;
    }
    if (bench_parse_budgets(budgets_text, budgets, &nb) < 0)
        goto out;

    /* --searchers, given or (without --searcher) the default list, then each --searcher */
    if (searchers_list != default_searchers || nextra == 0) {
        list = strdup(searchers_list);
        if (!list)
            goto out;
        for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save))
            if (bench_add_searcher(tok, types, sargs, labels, &ns) < 0)
                goto out;
        if (ns == 0 && nextra == 0) {
            fprintf(stderr, "cutune bench: --searchers is empty\n");
            goto out;
        }
    }
    for (size_t i = 0; i < nextra; i++)
        if (bench_add_searcher(extra[i], types, sargs, labels, &ns) < 0)
            goto out;

    if ((nrestrict || restrictions_file) && !(conv & CUTUNE_BENCH_CONSTRAINT_AWARE)) {
        fprintf(stderr,
                "cutune bench: --%s: read only by the constraint-aware convention, which "
                "--convention=%s leaves out\n",
                nrestrict ? "restrict" : "restrictions", conv_text);
        goto out;
    }
    if (nrestrict && restrictions_file) {
        /* --restrict gives every recording's space: the file would be read and never used */
        fprintf(stderr,
                "cutune bench: --restrictions=%s: not with --restrict (--restrict gives every "
                "recording's space, so the file would not be used)\n",
                restrictions_file);
        goto out;
    }
    if (restrictions_file) {
        if (cutune_bench_restrictions_load(restrictions_file, &rfiles[0], err, sizeof err) < 0) {
            fprintf(stderr, "cutune bench: --restrictions: %s\n", err);
            goto out;
        }
        rfile_path[nrfiles++] = strdup(restrictions_file);
    }
    if (optind < argc) {
        for (int i = optind; i < argc; i++) {
            size_t first = nrec;
            if (bench_add_recordings(argv[i], recs, &nrec) < 0)
                goto out;
            long fi = restrictions_file
                          ? 0
                          : bench_folder_restrictions(argv[i], rfiles, rfile_path, &nrfiles);
            if (fi == -2)
                goto out;
            for (size_t k = first; k < nrec; k++)
                rec_file[k] = fi;
        }
    } else {
        char dir[4096];
        struct stat st;
        const char *shared = getenv("CUTUNE_SHARED_DATA");
        if (shared && *shared)
            snprintf(dir, sizeof dir, "%s/kt-caches", shared);
        else
            snprintf(dir, sizeof dir, "%s/../shared/data/kt-caches", CUTUNE_SOURCE_ROOT);
        if (!(shared && *shared) && stat(dir, &st) < 0) {
            /* the external data set is optional: fall back to the shipped recordings */
            snprintf(dir, sizeof dir, "%s/data", CUTUNE_SOURCE_ROOT);
            fprintf(stderr,
                    "cutune bench: no ../shared/data/kt-caches: benchmarking the "
                    "recordings in %s\n",
                    dir);
        }
        if (bench_add_recordings(dir, recs, &nrec) < 0)
            goto out;
        long fi =
            restrictions_file ? 0 : bench_folder_restrictions(dir, rfiles, rfile_path, &nrfiles);
        if (fi == -2)
            goto out;
        for (size_t k = 0; k < nrec; k++)
            rec_file[k] = fi;
    }
    /* the known spaces: --restrict for every recording, else the restrictions file */
    size_t nknown = 0;
    for (size_t k = 0; k < nrec; k++) {
        memset(&defs[k], 0, sizeof defs[k]);
        if (nrestrict) {
            defs[k] = (cutune_bench_space_def){
                .known = 1, .restrictions = restrict_expr, .n = nrestrict, .source = "--restrict"};
        } else if (rec_file[k] >= 0) {
            char *label = cutune_bench_recording_label(recs[k]);
            if (!label)
                goto out;
            cutune_bench_restrictions_lookup(rfiles[rec_file[k]], label, &defs[k]);
            free(label);
        }
        nknown += defs[k].known != 0;
        spaces[k] =
            (cutune_manifest_space){defs[k].known, defs[k].restrictions, defs[k].n,
                                    !nrestrict && rec_file[k] >= 0 ? rfile_path[rec_file[k]] : NULL,
                                    nrestrict ? NULL : defs[k].source};
    }
    /* a section no recording given matches is read for nothing: a misspelt name would
     * leave its recording to the recorded-configurations convention unsaid */
    for (size_t f = 0; !nrestrict && f < nrfiles; f++) {
        char *rlabels[BENCH_MAX];
        size_t nl = 0;
        int oom = 0;
        for (size_t k = 0; k < nrec; k++)
            if (rec_file[k] == (long)f && !oom)
                oom = !(rlabels[nl++] = cutune_bench_recording_label(recs[k]));
        char which[2048];
        size_t nun = oom ? 0
                         : cutune_bench_restrictions_unmatched(
                               rfiles[f], (const char *const *)rlabels, nl, which, sizeof which);
        for (size_t k = 0; k < nl; k++)
            free(rlabels[k]);
        if (oom)
            goto out;
        if (nun)
            fprintf(stderr,
                    "cutune bench: warning: %s: %zu section(s) match no recording given: %s\n",
                    rfile_path[f], nun, which);
    }
    /* the runs' tables fit in memory: --seeds=2147483648 was taken, and calloc failed (or
     * ASan aborted) once the recordings were read and the output folder made */
    if (!objectives) {
        cutune_bench_options sized = {.searchers = types,
                                      .nsearchers = ns,
                                      .recordings = (const char *const *)recs,
                                      .nrecordings = nrec,
                                      .budgets = budgets,
                                      .nbudgets = nb,
                                      .nseeds = seeds,
                                      .conventions = conv};
        if (cutune_bench_check(&sized, err, sizeof err) < 0) {
            fprintf(stderr, "cutune bench: --seeds=%lu: %s\n", seeds, err);
            goto out;
        }
    }
    /* the output folder is checked (and made) before the benchmark runs, not after, and
     * only once every other argument is known to be good */
    struct stat out_st;
    made_out = stat(out_dir, &out_st) != 0; /* a failed run removes it again (if empty) */
    if (cutune_bench_prepare_dir(out_dir, err, sizeof err) < 0) {
        fprintf(stderr, "cutune bench: --out=%s: %s\n", out_dir, err);
        goto out;
    }

    if (objectives) {
        cli_bench_mo mo = {.objectives = objectives,
                           .types = types,
                           .sargs = sargs,
                           .labels = labels,
                           .nsearchers = ns,
                           .recs = recs,
                           .nrec = nrec,
                           .budgets = budgets,
                           .nbudgets = nb,
                           .nseeds = seeds,
                           .out_dir = out_dir,
                           .quiet = quiet};
        int mrc = cli_bench_objectives(&mo, err, sizeof err);
        if (mrc < 0) {
            fprintf(stderr, "cutune bench: %s\n", err);
            status = mrc == CUTUNE_ENOMEM || mrc == CUTUNE_EIO ? 1 : 2; /* else: bad input */
        } else {
            status = 0;
        }
        goto out;
    }
    /* the command as results.md quotes it */
    if (!(command = bench_quoted_command(argc, argv)))
        goto out;

    size_t maxb = 0;
    for (size_t i = 0; i < nb; i++)
        maxb = budgets[i] > maxb ? budgets[i] : maxb;
    progress_state ps = {.last = (size_t)-1};
    bench_plan plan = {.nsearchers = ns,
                       .nrec = nrec,
                       .nknown = nknown,
                       .maxb = maxb,
                       .seeds = seeds,
                       .conv = conv,
                       .conv_text = conv_text,
                       .restrictions = nrestrict ? "--restrict"
                                       : nrfiles ? rfile_path[0]
                                                 : "no restrictions file"};
    cutune_bench_options o = {
        .searchers = types,
        .searcher_args = sargs,
        .searcher_labels = (const char *const *)labels,
        .nsearchers = ns,
        .recordings = (const char *const *)recs,
        .nrecordings = nrec,
        .budgets = budgets,
        .nbudgets = nb,
        .nseeds = seeds,
        .conventions = conv,
        .jobs = (unsigned)jobs,
        .parallel = parallel,
        .spaces = defs,
        .split = split,
        .progress = !quiet && isatty(2) ? progress_bar : NULL,
        .progress_ctx = &ps,
        .loaded = say_loaded,
        .loaded_ctx = &plan,
    };
    /* the manifest first: the recordings are hashed as they are before the run reads them */
    char *manifest = NULL, identity[24] = "";
    cutune_manifest_input mi = {
        .kind = "bench",
        .argc = argc + 1,
        .argv = cmdline,
        .recordings = (const char *const *)recs,
        .nrecordings = nrec,
        .convention = conv_text,
        .restrictions = nrestrict ? restrict_expr : NULL,
        .nrestrictions = nrestrict,
        .spaces = spaces,
        .types = types,
        .args = sargs,
        .labels = (const char *const *)labels,
        .nsearchers = ns,
        .budgets = budgets,
        .nbudgets = nb,
        .seed_first = 1,
        .nseeds = seeds,
        .parallel = parallel,
        .split = split,
        .per_seed = per_seed,
    };
    int rc = cutune_manifest_build(&mi, &manifest, identity, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "cutune bench: %s\n", err);
        status = rc == CUTUNE_ENOMEM ? 1 : 2;
        goto out;
    }
    rc = cutune_bench_run(&o, &res, err, sizeof err);
    if (rc < 0) {
        free(manifest);
        fprintf(stderr, "cutune bench: %s\n", err);
        status = rc == CUTUNE_ENOMEM || rc == CUTUNE_EIO ? 1 : 2;
        goto out;
    }
    res->manifest = manifest;
    snprintf(res->identity, sizeof res->identity, "%s", identity);
    /* The tables are one set, each naming the manifest: a signal between two files would
     * leave this run's beside an earlier run's in DIR. It waits until the last is in place
     * (a few seconds at most), then ends bench as it would have (before the plots). */
    sigset_t stops, old_mask;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stops, &old_mask);
    rc = cutune_bench_write(res, out_dir, command, err, sizeof err);
    if (rc == 0 && per_seed) {
        rc = cutune_bench_write_runs(res, out_dir, err, sizeof err);
        if (rc < 0) { /* an earlier run's would be taken for this one's */
            char stale[4200];
            snprintf(stale, sizeof stale, "%s/runs.csv", out_dir);
            unlink(stale);
        }
    } else if (rc == 0) { /* an earlier --per-seed run's runs.csv would not match these */
        char stale[4200];
        snprintf(stale, sizeof stale, "%s/runs.csv", out_dir);
        unlink(stale);
    }
    if (rc == 0 && !split) { /* nor an earlier --split run's split.csv */
        char stale[4200];
        snprintf(stale, sizeof stale, "%s/split.csv", out_dir);
        unlink(stale);
    }
    /* A signal held until now ends bench before the plots. Else the plots are drawn with
     * signals held as well: gnuplot draws in a folder of its own, and a gnuplot stopped
     * (Ctrl-C reaches it too) or failed leaves no image in plots/; its folder is removed
     * before the signal ends bench. */
    sigset_t pending;
    int stop_pending = 0;
    if (sigpending(&pending) == 0)
        stop_pending = sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
                       sigismember(&pending, SIGHUP) == 1;
    if (rc < 0 || stop_pending || !plots)
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (rc < 0) {
        fprintf(stderr, "cutune bench: %s\n", err);
        status = 1;
        goto out;
    }
    if (plots && !stop_pending) {
        rc = cutune_bench_plot(out_dir, err, sizeof err);
        if (rc < 0)
            fprintf(stderr, "cutune bench: %s\n", err); /* the tables stand without plots */
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    }
    fprintf(stderr, "cutune bench: results in %s/results.md (manifest %s)\n", out_dir,
            res->identity);
    status = 0;
out:
    if (status != 0 && made_out)
        rmdir(out_dir); /* only if empty: what a failure wrote stays */
    free(cmdline);
    cutune_bench_result_free(res);
    free(command);
    free(list);
    for (size_t i = 0; i < ns; i++)
        free(labels[i]);
    for (size_t i = 0; i < nrec; i++)
        free(recs[i]);
    for (size_t i = 0; i < nrfiles; i++) {
        cutune_bench_restrictions_free(rfiles[i]);
        free(rfile_path[i]);
    }
    return status;
}
