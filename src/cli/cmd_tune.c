/* `cutune [tune] [OPTIONS] KERNEL|SPEC|RECORDING`: one tuning run. */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "cutune/mpi.h"
#include "commands.h"
#include "options.h"

static volatile sig_atomic_t stop_requested;

/* SIGINT, SIGTERM, SIGHUP: stop after the evaluations under way, keeping the journal whole
 * and writing the summary and exports. A hang-up takes the terminal, and often the reader
 * of a pipe on stdout with it: a write there must then fail, not kill the run (SIGPIPE). */
static void on_signal(int sig)
{
    stop_requested = 1;
    if (sig == SIGHUP) {
        struct sigaction ign = {0};
        ign.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ign, NULL); /* async-signal-safe */
    }
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: cutune [tune] [OPTIONS] KERNEL|SPEC|RECORDING\n"
        "\n"
        "Search the configurations of KERNEL (a name in kernels/, or a spec .json) or of a\n"
        "RECORDING (Kernel Tuner cache .json/.json.gz, or a cutune journal .jsonl, whose\n"
        "parameters are then the space) for the fastest correct one.\n"
        "\n"
        "  --searcher=NAME[:ARGS]   random, grid, genetic, bo (default bo); ARGS key=value,...\n"
        "  --budget=N               unique evaluations (default 60)\n"
        "  --seed=S                 seed of the run's one generator, 1..4294967295 (default 1)\n"
        "  --evaluator=NAME[:ARG]   cuda, or replay[:FILE] (default: cuda where a GPU is found,\n"
        "                           else replay of the kernel's recording, announced first)\n"
        "  --time-limit=SECONDS     stop after this much wall time (replay: recorded compile +\n"
        "                           benchmark time where the recording holds it, else wall)\n"
        "  --parallel=N             evaluations in flight, 1..1024 (default: replay 1; cuda\n"
        "                           enough to keep the GPU busy: one per compile thread + 1)\n"
        "  --devices=all|I,J,..|NAME  GPUs to measure on, one worker each (cuda; default all\n"
        "                           of GPU 0's model; NAME: those whose name contains it)\n"
        "  --rank-timeout=SECONDS   under mpirun: a rank that has not answered an evaluation\n"
        "                           within this is taken for dead (default 300)\n"
        "  --batch=K                ask the searcher for K proposals at a time, once K slots\n"
        "                           are free (default 1; --parallel is at least K)\n"
        "  --size NAME=VALUE        override a problem size of the spec (repeatable)\n"
        "  --restrict EXPR          restriction on a recording's space (repeatable; then the "
        "space\n"
        "                           is the Cartesian product filtered by them)\n"
        "  --cartesian              a recording's space is its full Cartesian product, and a\n"
        "                           replayed kernel keeps its whole space (default: the\n"
        "                           configurations the recording holds)\n"
        "  --journal=FILE           journal of every evaluation (default "
        "runs/NAME-SEED-TIME.jsonl;\n"
        "                           an existing one is never truncated: use --resume)\n"
        "  --resume=JOURNAL         continue that run (same spec); appends to JOURNAL\n"
        "  --output=FILE.json       summary: best config, time, evaluations, counts by status\n"
        "  --csv=FILE               every evaluation as CSV\n"
        "  --kt-cache=FILE          every evaluation as a Kernel Tuner cache file\n"
        "  --t4=FILE.json           every evaluation in T4, the auto-tuning community's results\n"
        "                           format (times, invalidity, correctness per configuration)\n"
        "  --header=FILE.h          the best configuration as C #defines\n"
        "  --no-progress            no progress line (there is none when stderr is not a "
        "terminal)\n"
        "  -q, --quiet              print only the best configuration\n"
        "  -h, --help               this help\n"
        "\n"
        "Exit status: 0 done, 1 failed while running or no configuration was correct,\n"
        "2 bad input (a journal in use by another run included), 130 stopped by SIGINT,\n"
        "SIGTERM or SIGHUP (the journal is intact, the summary printed, the exports written).\n");
}

/* Is a CUDA device usable here? dlopen, never link: cutune must start without a driver. */
static int gpu_present(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
    int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
    int n = 0;
    int ok = init && count && init(0) == 0 && count(&n) == 0 && n > 0;
    dlclose(h);
    return ok;
}

static int split_name(const char *text, char *name, size_t len, const char **arg)
{
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= len)
        return -1;
    memcpy(name, text, n);
    name[n] = '\0';
    *arg = colon ? colon + 1 : NULL;
    return 0;
}

static void print_config(FILE *f, const cutune_space *s, size_t id)
{
    char small[1024];
    int n = cutune_space_format_config(s, id, small, sizeof small);
    if (n >= 0 && (size_t)n < sizeof small) {
        fprintf(f, "%s\n", small);
        return;
    }
    char *big = n > 0 ? malloc((size_t)n + 1) : NULL; /* never a cut configuration */
    if (big && cutune_space_format_config(s, id, big, (size_t)n + 1) >= 0)
        fprintf(f, "%s\n", big);
    else
        fprintf(f, "(configuration %zu: out of memory)\n", id);
    free(big);
}

/* Can a file be created at path? Its folder exists and is writable, and nothing is there
 * that cutune never writes over: a directory, a symbolic link (it is neither written
 * through nor replaced), a device, pipe or socket (docs/hardening.md). */
static int check_writable(const char *opt, const char *path, char *err, size_t errlen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: is a directory", opt, path);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--%s=%s: is a symbolic link (cutune neither writes through one nor "
                          "replaces it: give the path it points to, or remove it)",
                          opt, path);
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--%s=%s: is not a regular file (a device, pipe or socket is never "
                          "replaced)",
                          opt, path);
    if (access(dir, W_OK) != 0)
        return cutune_err(err, errlen, CUTUNE_EIO, "--%s=%s: cannot write in %s: %s", opt, path,
                          dir, strerror(errno));
    return 0;
}

/* Is evaluator ename with argument eargs (its default filled in) the one a journal was
 * started with (name, then argument: equal strings, or paths to the same file)? */
static int same_evaluator(const char *ename, const char *eargs, const char *name, const char *arg)
{
    if (strcmp(ename, name) != 0)
        return 0;
    if (!eargs)
        eargs = "";
    if (!arg)
        arg = "";
    return strcmp(eargs, arg) == 0 || (*eargs && *arg && cutune_path_same(eargs, arg));
}

static const char *stop_reason_name(cutune_stop_reason r)
{
    switch (r) {
    case CUTUNE_STOP_BUDGET: return "budget";
    case CUTUNE_STOP_EXHAUSTED: return "exhausted";
    case CUTUNE_STOP_TIME: return "time_limit";
    case CUTUNE_STOP_SIGNAL: return "signal";
    }
    return "unknown";
}

static void print_summary(const cli_target *t, int kt, const cutune_history *h, const char *why,
                          const char *journal, int quiet)
{
    if (h->best < 0) { /* -q: stdout stays empty (it is the best configuration alone) */
        fprintf(quiet ? stderr : stdout, "no correct configuration found in %zu evaluations\n",
                h->n);
    } else {
        const cutune_history_entry *b = &h->e[h->best];
        if (quiet) {
            print_config(stdout, t->space, b->id);
            return;
        }
        printf("best: ");
        print_config(stdout, t->space, b->id);
        /* kt: replayed from a Kernel Tuner cache, whose "time" is its own statistic (the
         * mean of "times"), not a median */
        printf("time: %.6g ms (", b->r.time_ms);
        if (kt && b->r.ntimes)
            printf("as recorded, %zu runs; ", b->r.ntimes);
        else if (kt)
            printf("as recorded; ");
        else if (b->r.ntimes)
            printf("median of %zu, ", b->r.ntimes);
        printf("evaluation %ld of %zu)\n", h->best + 1, h->n);
        if (t->spec)
            for (size_t m = 0; m < t->spec->nmetrics; m++)
                if (b->spec_metrics && isfinite(b->spec_metrics[m]))
                    printf("%s: %.6g\n", t->spec->metrics[m].name, b->spec_metrics[m]);
    }
    if (quiet)
        return;
    printf("evaluations: %zu (", h->n);
    int first = 1;
    for (int s = 0; s < CUTUNE_STATUS_COUNT; s++)
        if (h->counts[s]) {
            printf("%s%s %zu", first ? "" : ", ", cutune_status_name(s), h->counts[s]);
            first = 0;
        }
    printf(")");
    if (h->resumed)
        printf(", %zu of them from the journal", h->resumed);
    printf("\nstopped: %s\n", why);
    if (journal)
        printf("journal: %s\n", journal);
}

/* runs/ was made by this run (removed again, if still empty, when the run is refused) */
static int made_runs_dir;

static int default_journal(const char *name, unsigned long seed, char *buf, size_t len)
{
    if (mkdir("runs", 0777) == 0)
        made_runs_dir = 1;
    else if (errno != EEXIST)
        return -1;
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    char stem[256];
    snprintf(stem, sizeof stem, "%.255s", base);
    char *dot = strchr(stem, '.');
    if (dot)
        *dot = '\0';
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, len, "runs/%s-%lu-%s.jsonl", stem, seed, ts);
    for (int i = 2; access(buf, F_OK) == 0 && i < 1000; i++) /* never overwrite a run */
        snprintf(buf, len, "runs/%s-%lu-%s-%d.jsonl", stem, seed, ts, i);
    return 0;
}

enum {
    OPT_SEARCHER = 256,
    OPT_BUDGET,
    OPT_SEED,
    OPT_EVALUATOR,
    OPT_TIME_LIMIT,
    OPT_BATCH,
    OPT_PARALLEL,
    OPT_DEVICES,
    OPT_RANK_TIMEOUT,
    OPT_SIZE,
    OPT_RESTRICT,
    OPT_CARTESIAN,
    OPT_JOURNAL,
    OPT_RESUME,
    OPT_OUTPUT,
    OPT_CSV,
    OPT_KT,
    OPT_HEADER,
    OPT_NO_PROGRESS,
    OPT_T4
};

int cutune_cmd_tune(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"searcher", required_argument, NULL, OPT_SEARCHER},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"seed", required_argument, NULL, OPT_SEED},
        {"evaluator", required_argument, NULL, OPT_EVALUATOR},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"parallel", required_argument, NULL, OPT_PARALLEL},
        {"devices", required_argument, NULL, OPT_DEVICES},
        {"rank-timeout", required_argument, NULL, OPT_RANK_TIMEOUT},
        {"size", required_argument, NULL, OPT_SIZE},
        {"restrict", required_argument, NULL, OPT_RESTRICT},
        {"cartesian", no_argument, NULL, OPT_CARTESIAN},
        {"journal", required_argument, NULL, OPT_JOURNAL},
        {"resume", required_argument, NULL, OPT_RESUME},
        {"output", required_argument, NULL, OPT_OUTPUT},
        {"csv", required_argument, NULL, OPT_CSV},
        {"kt-cache", required_argument, NULL, OPT_KT},
        {"header", required_argument, NULL, OPT_HEADER},
        {"t4", required_argument, NULL, OPT_T4},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char err[1024] = "";
    const char *searcher_opt = NULL, *evaluator_opt = NULL, *journal_opt = NULL;
    const char *devices_opt = NULL;
    const char *resume_path = NULL, *output = NULL, *csv = NULL, *kt = NULL, *header = NULL;
    const char *t4 = NULL;
    unsigned long budget = 0, seed = 1, batch = 1, parallel = 0;
    int have_budget = 0, have_seed = 0, have_batch = 0, progress = 1, quiet = 0;
    double time_limit = 0;
    cli_space_opts so = {0};
    int rc, status = 2;
    int mpi_rank = 0, mpi_size = 1;
    double rank_timeout = 300;

    cli_target t = {0};
    cutune_recording *resume = NULL;
    static char resume_evaluator[4200];
    const char *resume_journal_conflict = NULL;
    const char *user_evaluator = NULL; /* --evaluator as given with --resume */
    gsl_rng *rng = NULL;
    uint8_t *visited = NULL;
    cutune_searcher *searcher = NULL;
    cutune_evaluator *ev = NULL;
    cutune_history hist = {.best = -1};

    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
        rc = 0;
        switch (c) {
        case OPT_SEARCHER: searcher_opt = optarg; break;
        case OPT_BUDGET:
            if (optarg[0] == '-') {
                fprintf(stderr, "cutune: --budget=%s: the budget must be at least 1\n", optarg);
                return 2;
            }
            rc = cli_parse_ulong("budget", optarg, &budget, err, sizeof err);
            have_budget = 1;
            break;
        case OPT_SEED:
            rc = cli_parse_ulong("seed", optarg, &seed, err, sizeof err);
            /* GSL's mt19937 keeps the low 32 bits and turns 0 into 4357: refuse the seeds
             * that would alias another one */
            if (!rc && (seed == 0 || seed > 4294967295UL))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                                "--seed=%s: must be 1..4294967295 (the generator, GSL's "
                                "mt19937, takes 32-bit seeds and treats 0 as 4357)",
                                optarg);
            have_seed = 1;
            break;
        case OPT_EVALUATOR: evaluator_opt = optarg; break;
        case OPT_TIME_LIMIT:
            rc = cli_parse_double("time-limit", optarg, &time_limit, err, sizeof err);
            if (!rc && !(time_limit > 0))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--time-limit=%s: must be > 0",
                                optarg);
            break;
        case OPT_DEVICES: devices_opt = optarg; break;
        case OPT_RANK_TIMEOUT:
            rc = cli_parse_double("rank-timeout", optarg, &rank_timeout, err, sizeof err);
            if (!rc && !(rank_timeout > 0))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--rank-timeout=%s: must be > 0",
                                optarg);
            break;
        case OPT_PARALLEL:
            rc = cli_parse_ulong("parallel", optarg, &parallel, err, sizeof err);
            if (!rc && (parallel < 1 || parallel > 1024))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--parallel=%s: must be 1..1024",
                                optarg);
            break;
        case OPT_BATCH:
            rc = cli_parse_ulong("batch", optarg, &batch, err, sizeof err);
            have_batch = 1;
            if (!rc && (batch < 1 || batch > 1024))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--batch=%s: must be 1..1024",
                                optarg);
            break;
        case OPT_SIZE:
            if (so.nsizes >= CLI_MAX_LIST)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "too many --size options");
            else
                rc = cli_parse_size(optarg, &so.sizes[so.nsizes++], err, sizeof err);
            break;
        case OPT_RESTRICT:
            if (so.nrestrict >= CLI_MAX_LIST)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "too many --restrict options");
            else
                so.restrict_exprs[so.nrestrict++] = optarg;
            if (!rc && !optarg[strspn(optarg, " \t")])
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--restrict: empty expression");
            break;
        case OPT_CARTESIAN: so.cartesian = 1; break;
        case OPT_JOURNAL: journal_opt = optarg; break;
        case OPT_RESUME: resume_path = optarg; break;
        case OPT_OUTPUT: output = optarg; break;
        case OPT_CSV: csv = optarg; break;
        case OPT_KT: kt = optarg; break;
        case OPT_HEADER: header = optarg; break;
        case OPT_T4: t4 = optarg; break;
        case OPT_NO_PROGRESS: progress = 0; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (rc < 0) {
            fprintf(stderr, "cutune: %s\n", err);
            return 2;
        }
    }
    if (optind != argc - 1 && !(resume_path && optind == argc)) {
        fprintf(stderr, "cutune: expected one KERNEL, SPEC or RECORDING (try --help)\n");
        return 2;
    }
    if (have_budget && budget == 0) {
        fprintf(stderr, "cutune: --budget=0: the budget must be at least 1\n");
        return 2;
    }
    const char *target_arg = optind < argc ? argv[optind] : NULL; /* NULL: the journal's */
    unsigned long searcher_budget = 0; /* a resumed run extended: the budget it planned for */

    /* Under mpirun / srun: rank 0 tunes (journal, outputs, progress); every other rank
     * evaluates what it is sent (cutune_mpi_serve) and writes nothing. */
    int launched = cutune_mpi_launched();
    if (launched > 1) {
        if (!cutune_mpi_available()) {
            fprintf(stderr,
                    "cutune: started by an MPI launcher with %d processes, but this cutune was "
                    "built without MPI (install libopenmpi-dev and build again)\n",
                    launched);
            return 2;
        }
        if (cutune_mpi_init(&mpi_rank, &mpi_size, err, sizeof err) < 0)
            goto bad_input;
        if (mpi_rank > 0)
            progress = 0, quiet = 1;
    }

    if (resume_path) {
        /* one writer per journal: a run holding it refuses the resume before anything
         * (rank 0's: the other ranks only read what to evaluate with) */
        rc = mpi_rank ? 0 : cutune_journal_check_free(resume_path, err, sizeof err);
        if (rc < 0)
            goto bad_input;
        rc = cutune_recording_load(resume_path, &resume, err, sizeof err);
        if (rc < 0)
            goto bad_input;
        if (!resume->format || strcmp(resume->format, "cutune_journal") != 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL, "--resume=%s: not a cutune journal",
                       resume_path);
            goto bad_input;
        }
        if (cutune_journal_is_compressed(resume_path)) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--resume=%s: a gzip-compressed journal cannot be appended to "
                       "(gunzip it, then resume from the plain file)",
                       resume_path);
            goto bad_input;
        }
        /* the space mode: restored like the seed; the other one given is refused */
        if (resume->cartesian == 0 && so.cartesian) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "--resume=%s: the run was started without --cartesian (a resumed run "
                       "continues as it was started)",
                       resume_path);
            goto bad_input;
        }
        if (resume->cartesian == 1)
            so.cartesian = 1;
        /* A resumed run continues exactly as it was started: the same seed,
         * budget, searcher (with its arguments) and evaluator, since any of
         * them changes what the searcher proposes or what is measured, and the
         * journal's header must keep describing every line under it. */
        static char started_searcher[512];
        char given[512];
        /* "NAME:" (empty arguments, recorded as "") is NAME, on either side */
        int sa = resume->searcher_args && *resume->searcher_args;
        snprintf(started_searcher, sizeof started_searcher, "%s%s%s",
                 resume->searcher ? resume->searcher : "", sa ? ":" : "",
                 sa ? resume->searcher_args : "");
        snprintf(given, sizeof given, "%s", searcher_opt ? searcher_opt : "");
        size_t glen = strlen(given);
        if (glen && given[glen - 1] == ':') /* "bo:" is "bo" with no arguments */
            given[glen - 1] = '\0';
        if (have_seed && seed != resume->seed)
            rc = cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                            "--resume=%s: --seed=%lu differs from the journal's seed %lu "
                            "(a resumed run continues as it was started)",
                            resume_path, seed, resume->seed);
        else if (have_budget && resume->budget && budget < resume->budget)
            rc = cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                            "--resume=%s: --budget=%lu is below the journal's budget %zu (a "
                            "resumed run continues as it was started, or is extended)",
                            resume_path, budget, resume->budget);
        else if (!target_arg && !resume->target)
            rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                            "--resume=%s: the journal does not record its kernel or recording: "
                            "give it",
                            resume_path);
        else if (have_batch && resume->batch && batch != resume->batch)
            rc = cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                            "--resume=%s: --batch=%lu differs from the journal's batch %zu "
                            "(a resumed run continues as it was started)",
                            resume_path, batch, resume->batch);
        else if (parallel && resume->parallel && parallel != resume->parallel)
            rc = cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                            "--resume=%s: --parallel=%lu differs from the journal's parallel %zu "
                            "(a resumed run continues as it was started)",
                            resume_path, parallel, resume->parallel);
        else if (searcher_opt && strcmp(given, started_searcher) != 0)
            rc = cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                            "--resume=%s: --searcher=%s differs from the journal's searcher %s",
                            resume_path, given, started_searcher);
        if (rc < 0)
            goto bad_input;
        if (journal_opt && strcmp(journal_opt, resume_path) != 0)
            resume_journal_conflict = journal_opt;
        seed = resume->seed;
        if (!target_arg)
            target_arg = resume->target;
        if (resume->budget && have_budget && budget > resume->budget) {
            /* the searcher keeps the plan it was started with and goes on past it */
            searcher_budget = resume->budget;
        } else if (resume->budget) {
            budget = resume->budget;
        }
        if (resume->parallel)
            parallel = resume->parallel;
        else if (!parallel) /* a journal from before "parallel": one in flight per round */
            parallel = resume->batch ? resume->batch : batch;
        if (resume->batch)
            batch = resume->batch;
        else /* a journal from before the header had "batch" */
            fprintf(stderr,
                    "cutune: %s does not record its batch size; resuming with --batch=%lu (give "
                    "the batch it was started with, or the run will propose differently)\n",
                    resume_path, batch);
        if (!searcher_opt && resume->searcher)
            searcher_opt = started_searcher;
        user_evaluator = evaluator_opt; /* compared once its default argument is known */
        if (!evaluator_opt && resume->evaluator) {
            snprintf(resume_evaluator, sizeof resume_evaluator, "%s%s%s", resume->evaluator,
                     resume->evaluator_arg ? ":" : "",
                     resume->evaluator_arg ? resume->evaluator_arg : "");
            evaluator_opt = resume_evaluator;
        }
        journal_opt = resume_path;
    }
    if (!budget)
        budget = 60;
    if (parallel > budget) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--parallel=%lu: more evaluations in flight than the budget of %lu", parallel,
                   budget);
        goto bad_input;
    }

    rc = cli_target_load(target_arg, &so, &t, err, sizeof err);
    if (rc < 0)
        goto bad_input;

    if (resume) {
        char hash[17];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)cutune_space_hash(t.space));
        if (t.spec && resume->spec_hash && strcmp(resume->spec_hash, t.spec->hash) != 0) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "--resume=%s: the journal is from another spec (%s, hash %s; this run "
                       "%s, hash %s)",
                       resume_path, resume->spec_name ? resume->spec_name : "?", resume->spec_hash,
                       t.spec->name, t.spec->hash);
            goto bad_input;
        }
        if (resume->space_hash && strcmp(resume->space_hash, hash) != 0) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "--resume=%s: the journal's space differs from this run's (space hash "
                       "%s, this run %s): its parameters, restrictions (with every --restrict "
                       "it was started with) and sizes (--size) must be the same",
                       resume_path, resume->space_hash, hash);
            goto bad_input;
        }
        /* the recording the run was started on (another GPU's recording of the same
         * space would pass the hashes; journals from before "target" are not checked) */
        if (t.rec && resume->target && !cutune_path_same(t.path, resume->target)) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "--resume=%s: the run was started on %s, not %s (a resumed run "
                       "continues as it was started)",
                       resume_path, resume->target, t.path);
            goto bad_input;
        }
        if (resume_journal_conflict) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--resume=%s appends to that journal: --journal=%s is not allowed with it",
                       resume_path, resume_journal_conflict);
            goto bad_input;
        }
    }

    /* Searcher */
    char sname[64], ename[64];
    const char *sargs = NULL, *eargs = NULL;
    if (split_name(searcher_opt ? searcher_opt : "bo", sname, sizeof sname, &sargs) < 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--searcher: name too long");
        goto bad_input;
    }
    const cutune_searcher_type *st = cutune_searcher_find(sname, err, sizeof err);
    if (!st)
        goto bad_input;

    /* Evaluator: a recording replays itself; a kernel runs on the GPU, or
     * replays its shipped recording where there is none (said first). */
    int announced = 0;
    if (evaluator_opt) {
        if (split_name(evaluator_opt, ename, sizeof ename, &eargs) < 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL, "--evaluator: name too long");
            goto bad_input;
        }
    } else if (t.rec) {
        snprintf(ename, sizeof ename, "replay");
    } else if (gpu_present()) {
        snprintf(ename, sizeof ename, "cuda");
    } else if (t.spec->recording && access(t.spec->recording, R_OK) == 0) {
        snprintf(ename, sizeof ename, "replay");
        eargs = t.spec->recording;
        announced = 1;
    } else {
        cutune_err(err, sizeof err, CUTUNE_ENODEV,
                   "%s: no CUDA GPU found and the kernel has no recording to replay "
                   "(give --evaluator=replay:FILE)",
                   t.path);
        goto bad_input;
    }
    if (strcmp(ename, "replay") == 0 && !eargs)
        eargs = t.rec ? t.path : (t.spec ? t.spec->recording : NULL);
    /* --devices is the cuda evaluator's devices= (kept in the journal's evaluator_arg); an
     * evaluating rank of an MPI job takes one GPU of its host */
    static char eargs_dev[4400], rank_gpu[16];
    if (mpi_rank > 0 && !devices_opt && strcmp(ename, "cuda") == 0) {
        snprintf(rank_gpu, sizeof rank_gpu, "%d", cutune_mpi_local_gpu());
        devices_opt = rank_gpu;
    }
    if (devices_opt) {
        if (strcmp(ename, "cuda") != 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--devices=%s: only the cuda evaluator runs on GPUs (this run: %s)",
                       devices_opt, ename);
            goto bad_input;
        }
        snprintf(eargs_dev, sizeof eargs_dev, "%s%sdevices=%s", eargs ? eargs : "",
                 eargs && *eargs ? "," : "", devices_opt);
        eargs = eargs_dev;
    }
    /* the replayed file by its absolute path, for the no-GPU notice and the journal header
     * (so that --resume works from any directory) */
    static char eargs_abs[PATH_MAX];
    const char *eargs_shown =
        strcmp(ename, "replay") == 0 && eargs && realpath(eargs, eargs_abs) ? eargs_abs : eargs;
    if (resume && user_evaluator && resume->evaluator &&
        !same_evaluator(ename, eargs, resume->evaluator, resume->evaluator_arg)) {
        cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                   "--resume=%s: --evaluator=%s differs from the journal's evaluator %s%s%s (a "
                   "resumed run continues as it was started)",
                   resume_path, user_evaluator, resume->evaluator, resume->evaluator_arg ? ":" : "",
                   resume->evaluator_arg ? resume->evaluator_arg : "");
        goto bad_input;
    }
    const cutune_evaluator_type *et = cutune_evaluator_find(ename, err, sizeof err);
    if (!et)
        goto bad_input;
    if (strcmp(ename, "replay") == 0 && t.spec && eargs && !so.cartesian) {
        rc = cli_restrict_to_recording(&t, eargs, err, sizeof err);
        if (rc < 0)
            goto bad_input;
    }
    /* the space as the run sees it (a spec replayed from a recording: its recorded set) */
    if (resume) {
        if (resume->valid && resume->valid != cutune_space_size(t.space)) {
            cutune_err(err, sizeof err, CUTUNE_EMISMATCH,
                       "--resume=%s: the journal's space held %zu configurations, this run's "
                       "holds %zu (the same --restrict, --size and --cartesian are needed)",
                       resume_path, resume->valid, cutune_space_size(t.space));
            goto bad_input;
        }
    }

    char journal[4096] = "";
    if (mpi_rank > 0)
        ; /* an evaluating rank writes nothing */
    else if (journal_opt)
        snprintf(journal, sizeof journal, "%s", journal_opt);
    else if (default_journal(t.spec ? t.spec->name : t.path, seed, journal, sizeof journal) < 0) {
        cutune_err(err, sizeof err, CUTUNE_EIO, "runs/: %s", strerror(errno));
        status = 1;
        goto fail;
    }
    /* Every output is checked before anything runs: a bad path must not cost a
     * whole tuning run, nor overwrite what is being tuned or replayed. Two paths are one
     * file when they resolve to one (cutune_path_same: the real folder and name, or the
     * device and inode). */
    const char *outs[][2] = {{"journal", journal}, {"output", output}, {"csv", csv},
                             {"kt-cache", kt},     {"header", header}, {"t4", t4}};
    for (size_t i = 0; mpi_rank == 0 && i < sizeof outs / sizeof outs[0]; i++) {
        if (!outs[i][1])
            continue;
        if (!*outs[i][1]) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL, "--%s=: empty path", outs[i][0]);
            goto bad_input;
        }
        if (!(resume && i == 0) &&
            (cutune_path_same(outs[i][1], t.path) || cutune_path_same(outs[i][1], eargs) ||
             (t.spec && cutune_path_same(outs[i][1], t.spec->source_path)))) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--%s=%s: is the file being tuned or replayed; choose another path",
                       outs[i][0], outs[i][1]);
            goto bad_input;
        }
        for (size_t j = 0; j < i; j++) { /* two outputs to one file: the later would clobber */
            if (outs[j][1] && cutune_path_same(outs[i][1], outs[j][1])) {
                cutune_err(err, sizeof err, CUTUNE_EINVAL,
                           "--%s=%s: is also the %s file; each output needs its own path",
                           outs[i][0], outs[i][1], outs[j][0]);
                goto bad_input;
            }
        }
        if (check_writable(outs[i][0], outs[i][1], err, sizeof err) < 0)
            goto bad_input;
        /* a journal is the record of a run: never truncated nor replaced */
        struct stat js;
        if (i == 0 && !resume && lstat(outs[i][1], &js) == 0) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--journal=%s: exists; --resume=%s continues that run, or remove it",
                       outs[i][1], outs[i][1]);
            goto bad_input;
        }
    }
    /* the header's names are known now: a header that would be refused is refused first */
    if (header &&
        cutune_export_header_check(header, t.space, t.spec, t.rec ? t.rec->kernel_name : NULL, err,
                                   sizeof err) < 0)
        goto bad_input;

    rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t n = cutune_space_size(t.space);
    visited = calloc(n ? n : 1, 1);
    if (!rng || !visited) {
        cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
        status = 1;
        goto fail;
    }
    gsl_rng_set(rng, seed);

    cutune_evaluator_ctx ectx = {
        .space = t.space, .spec = t.spec, .arg = eargs_shown, .seed = seed, .recording = t.rec};
    char deadline[64];
    if (mpi_size > 1 && mpi_rank == 0) { /* the ranks evaluate; rank 0 sends them work */
        snprintf(deadline, sizeof deadline, "deadline=%.17g", rank_timeout);
        ectx.arg = deadline;
        et = cutune_evaluator_mpi;
    }
    rc = cutune_evaluator_alloc(et, &ectx, &ev, err, sizeof err);
    if (rc < 0)
        goto bad_input;
    if (mpi_rank > 0) {
        if ((rc = cutune_mpi_serve(ev, err, sizeof err)) < 0) {
            status = 1;
            goto fail;
        }
        status = 0;
        goto out;
    }
    cutune_searcher_ctx sctx = {.space = t.space,
                                .budget = searcher_budget ? searcher_budget : budget,
                                .rng = rng,
                                .visited = visited,
                                .args = sargs};
    rc = cutune_searcher_alloc(st, &sctx, &searcher, err, sizeof err);
    if (rc < 0)
        goto bad_input;
    if (announced) /* stderr: -q's stdout stays the best configuration alone */
        fprintf(stderr,
                "cutune: no GPU here: replaying the recording %s (measured on the H200); "
                "--evaluator=cuda to measure\n",
                eargs_shown);

    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    int replay = strcmp(ename, "replay") == 0;
    int kt_times = replay && eargs && cli_is_kt_cache(eargs);
    /* the target by its absolute path, for the header (resume checks it from anywhere) */
    static char target_abs[PATH_MAX];
    if (!realpath(t.path, target_abs))
        snprintf(target_abs, sizeof target_abs, "%s", t.path);
    cutune_tuner_options opt = {
        .budget = budget,
        .time_limit_s = time_limit,
        .charge_recorded_time = replay && mpi_size == 1,
        .batch = batch,
        .parallel = parallel,
        .journal_path = journal,
        .resume = resume,
        .progress = progress && !quiet,
        .deterministic_clock = replay && mpi_size == 1,
        .stop = &stop_requested,
        .searcher_name = sname,
        .searcher_args = sargs,
        .evaluator_name = ename,
        .evaluator_arg = eargs_shown,
        .target = target_abs,
        .seed = seed,
        .cartesian = so.cartesian,
    };
    if (searcher_budget)
        fprintf(stderr,
                "cutune: extending %s from a budget of %lu to %lu evaluations (give --budget=%lu "
                "again to resume it later)\n",
                resume_path, searcher_budget, budget, budget);
    cutune_stop_reason why;
    rc = cutune_tune(t.space, t.spec, searcher, visited, ev, &opt, &hist, &why, err, sizeof err);
    if (rc < 0) {
        status = rc == CUTUNE_EBUSY ? 2 : 1; /* the journal is another run's: refused */
        if (hist.n) /* what was measured before the failure is in the journal */
            print_summary(&t, kt_times, &hist, "error", journal, quiet);
        goto fail;
    }
    print_summary(&t, kt_times, &hist, stop_reason_name(why), journal, quiet);

    /* a run that found no correct configuration failed at its one job: scripts see it in
     * the exit status (the outputs, which record every failure, are still written) */
    status = why == CUTUNE_STOP_SIGNAL ? 130 : hist.best < 0 ? 1 : 0;
    if (output && (rc = cutune_export_summary(output, t.space, t.spec, &hist, stop_reason_name(why),
                                              err, sizeof err)) < 0)
        goto export_fail;
    if (csv && (rc = cutune_export_csv(csv, t.space, t.spec, &hist, err, sizeof err)) < 0)
        goto export_fail;
    if (kt && (rc = cutune_export_kt_cache(kt, t.space, t.spec, cutune_evaluator_device(ev), &hist,
                                           err, sizeof err)) < 0)
        goto export_fail;
    if (t4 && (rc = cutune_export_t4(t4, t.space, t.spec, cutune_evaluator_device(ev), &hist, err,
                                     sizeof err)) < 0)
        goto export_fail;
    if (header &&
        (rc = cutune_export_header(header, t.space, t.spec, t.rec ? t.rec->kernel_name : NULL,
                                   &hist, err, sizeof err)) < 0)
        goto export_fail;
    goto out;

export_fail:
    status = 1;
    goto fail;
bad_input:
    status = 2;
fail:
    if (mpi_size > 1)
        fprintf(stderr, "cutune: rank %d: %s\n", mpi_rank, err);
    else
        fprintf(stderr, "cutune: %s\n", err);
    if (made_runs_dir)
        rmdir("runs"); /* only if empty: a refused run leaves nothing behind */
    if (mpi_size > 1 && !(mpi_rank == 0 && ev)) /* no rank may wait for one that has left */
        cutune_mpi_abort(status);
out:
    cutune_history_free(&hist);
    cutune_searcher_free(searcher);
    cutune_evaluator_free(ev);
    free(visited);
    gsl_rng_free(rng);
    cli_target_free(&t);
    cutune_recording_free(resume);
    if (mpi_size > 1)
        cutune_mpi_finalize();
    return status;
}
