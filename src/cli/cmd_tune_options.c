/* The command line of `cutune [tune]`: its help text, its options and their checks, each
 * value range refused with the option named, before anything is loaded. What --resume
 * then fills in is cmd_tune_resume.c's. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "tune_internal.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: cutune [tune] [OPTIONS] KERNEL|SPEC|RECORDING\n"
        "       cutune [tune] --resume=JOURNAL [OPTIONS] [KERNEL|SPEC|RECORDING]\n"
        "\n"
        "Search the configurations of KERNEL (a name in kernels/, or a spec .json) or of a\n"
        "RECORDING (Kernel Tuner cache .json/.json.gz, or a cutune journal .jsonl, whose\n"
        "parameters are then the space) for the fastest correct one (or the best by\n"
        "--objective).\n"
        "\n"
        "  --searcher=NAME[:ARGS]   random, grid, genetic, bo (default bo); ARGS key=value,...\n"
        "  --budget=N               unique evaluations (default 60)\n"
        "  --seed=S                 seed of the run's one generator, 1..4294967295 (default 1)\n"
        "  --evaluator=NAME[:ARG]   cuda[:KEY=VALUE,...] (the keys: cutune list), or\n"
        "                           replay[:FILE] (default: cuda where a GPU is found, else\n"
        "                           replay of the kernel's recording, announced first)\n"
        "  --time-limit=SECONDS     stop after this much wall time (replay: recorded compile +\n"
        "                           benchmark time where the recording holds it, else wall;\n"
        "                           with --sizes: per shape)\n"
        "  --parallel=N             evaluations in flight, 1..1024, at most the budget (default:\n"
        "                           replay 1; cuda one per compile thread + one per GPU)\n"
        "  --devices=all|I,J,..|NAME  GPUs to measure on, one worker each (cuda; default all\n"
        "                           of GPU 0's model; NAME: those whose name contains it)\n"
        "  --rank-timeout=SECONDS   under mpirun: a rank that has not answered an evaluation\n"
        "                           within this is taken for dead (default 300; refused in a\n"
        "                           run of one process)\n"
        "  --batch=K                ask the searcher only once K slots are free, for as many\n"
        "                           as are free, 1..1024 (default 1; --parallel is at least\n"
        "                           K; at most the budget)\n"
        "  --objective=OBJ[:min|:max]  what to optimise: time, energy (energy_j), edp\n"
        "                           (energy_j * time_s), or an expression over metrics,\n"
        "                           parameters and sizes (default :min); default the spec's\n"
        "                           \"objective\", else what a recording given as the target\n"
        "                           was tuned for, else time (docs/objectives.md)\n"
        "  --subject-to EXPR        a constraint, e.g. \"power_w <= 300\" (repeatable): a\n"
        "                           configuration that breaks it is infeasible\n"
        "  --objectives=A,B[,...]   several objectives: the run's result is their Pareto\n"
        "                           front and its hypervolume (docs/objectives.md)\n"
        "  --front=PREFIX           the front as PREFIX.json, PREFIX.csv, PREFIX.gp (+ .svg)\n"
        "  --confirm=K              measure the best K again in interleaved rounds and name\n"
        "                           the confirmed winner among ties, 0..64 (default 5, 0\n"
        "                           skips; a --sizes run has none)\n"
        "  --confirm-rounds=R       rounds of that, 1..100 (default 5)\n"
        "  --size NAME=VALUE        override a problem size of the spec (repeatable)\n"
        "  --restrict EXPR          restriction on a recording's space (repeatable; then the "
        "space\n"
        "                           is the Cartesian product filtered by them)\n"
        "  --cartesian              a recording's space is its full Cartesian product, and a\n"
        "                           replayed kernel keeps its whole space (default: the\n"
        "                           configurations the recording holds); refused for a\n"
        "                           kernel on the GPU (cuda), measured over its whole space\n"
        "  --journal=FILE           journal of every evaluation (default "
        "runs/NAME-SEED-TIME.jsonl;\n"
        "                           an existing one is never truncated: use --resume)\n"
        "  --resume=JOURNAL         continue that run (same spec); appends to JOURNAL; with\n"
        "                           --sizes: --resume=PREFIX, the run's --journal=PREFIX\n"
        "  --warm-start=FILE[,FILE...]|auto|none\n"
        "                           start from results of the same kernel elsewhere (another\n"
        "                           GPU or size): FILE a Kernel Tuner cache or a cutune\n"
        "                           journal (several: their priors' median), auto the\n"
        "                           tuning database's, matched by parameter name and value;\n"
        "                           bo and genetic use it (docs/transfer.md); default none\n"
        "  --output=FILE.json       summary: best config, time, evaluations, counts by status\n"
        "  --csv=FILE               every evaluation as CSV\n"
        "  --kt-cache=FILE          every evaluation as a Kernel Tuner cache file\n"
        "  --t4=FILE.json           every evaluation in T4, the auto-tuning community's results\n"
        "                           format (times, invalidity, correctness per configuration)\n"
        "  --header=FILE.h          the best configuration as C #defines\n"
        "  --sizes=LIST             tune at several problem shapes: 'M=N=K=1024;M=1000,N=5000,\n"
        "                           K=296' or @FILE, one shape a line (docs/shapes.md); not with\n"
        "                           --size, --restrict, --warm-start, --header, --csv,\n"
        "                           --kt-cache, --t4 or an objective other than time\n"
        "  --shape-mode=each|common one configuration per shape (default each), or one for\n"
        "                           all (the geometric mean of the shapes' times)\n"
        "  --shape-warm=nearest|all|model|none  each mode: warm-start a shape from the\n"
        "                           nearest shape tuned before (default), from all of them\n"
        "                           pooled, from a model over configuration and size fitted\n"
        "                           on all of them, or not at all\n"
        "  --validate-sizes=LIST    after tuning, time the chosen configuration(s) at these\n"
        "                           shapes and tune them directly: the loss per shape\n"
        "  --db=FILE                the tuning database (default $CUTUNE_DB, else\n"
        "                           $XDG_DATA_HOME/cutune/tuning.db or ~/.local/share/...):\n"
        "                           every evaluation is stored; configurations it holds for\n"
        "                           this kernel, GPU, sizes and options are answered without\n"
        "                           measuring\n"
        "  --no-db                  no database: measure everything, store nothing\n"
        "  --remeasure              measure what the database already holds (still stored)\n"
        "  --no-progress            no progress line (there is none when stderr is not a "
        "terminal)\n"
        "  -q, --quiet              print only the best configuration\n"
        "  -h, --help               this help\n"
        "\n"
        "Exit status: 0 done, 1 failed while running or no configuration was correct,\n"
        "2 bad input (a journal in use by another run, or a database refused or locked,\n"
        "included), 130 stopped by SIGINT,\n"
        "SIGTERM or SIGHUP (the journal is intact, the summary printed, the exports written).\n");
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
    OPT_T4,
    OPT_DB,
    OPT_NO_DB,
    OPT_REMEASURE,
    OPT_OBJECTIVE,
    OPT_SUBJECT_TO,
    OPT_CONFIRM,
    OPT_CONFIRM_ROUNDS,
    OPT_OBJECTIVES,
    OPT_FRONT,
    OPT_WARM_START,
    OPT_SIZES,
    OPT_SHAPE_MODE,
    OPT_SHAPE_WARM,
    OPT_VALIDATE_SIZES
};

int cli_tune_parse_options(int argc, char **argv, cli_tune_options *o)
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
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"subject-to", required_argument, NULL, OPT_SUBJECT_TO},
        {"confirm", required_argument, NULL, OPT_CONFIRM},
        {"objectives", required_argument, NULL, OPT_OBJECTIVES},
        {"front", required_argument, NULL, OPT_FRONT},
        {"confirm-rounds", required_argument, NULL, OPT_CONFIRM_ROUNDS},
        {"warm-start", required_argument, NULL, OPT_WARM_START},
        {"sizes", required_argument, NULL, OPT_SIZES},
        {"shape-mode", required_argument, NULL, OPT_SHAPE_MODE},
        {"shape-warm", required_argument, NULL, OPT_SHAPE_WARM},
        {"validate-sizes", required_argument, NULL, OPT_VALIDATE_SIZES},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"db", required_argument, NULL, OPT_DB},
        {"no-db", no_argument, NULL, OPT_NO_DB},
        {"remeasure", no_argument, NULL, OPT_REMEASURE},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char err[1024] = "";
    int rc;

    *o = (cli_tune_options){.seed = 1,
                            .batch = 1,
                            .progress = 1,
                            .rank_timeout = 300,
                            .confirm = 5,
                            .confirm_rounds = 5};
    optind = 1;
    int c;
    while ((c = cli_getopt(argc, argv, "qh", longopts)) != -1) {
        rc = 0;
        switch (c) {
        case OPT_SEARCHER: o->searcher = optarg; break;
        case OPT_BUDGET:
            if (optarg[0] == '-') {
                fprintf(stderr, "%s: --budget=%s: the budget must be at least 1\n", cli_progname,
                        optarg);
                return 2;
            }
            rc = cli_parse_ulong("budget", optarg, &o->budget, err, sizeof err);
            o->have_budget = 1;
            break;
        case OPT_SEED:
            rc = cli_parse_ulong("seed", optarg, &o->seed, err, sizeof err);
            /* GSL's mt19937 keeps the low 32 bits and turns 0 into 4357: refuse the seeds
             * that would alias another one */
            if (!rc && (o->seed == 0 || o->seed > 4294967295UL))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                                "--seed=%s: must be 1..4294967295 (the generator, GSL's "
                                "mt19937, takes 32-bit seeds and treats 0 as 4357)",
                                optarg);
            o->have_seed = 1;
            break;
        case OPT_EVALUATOR: o->evaluator = optarg; break;
        case OPT_TIME_LIMIT:
            rc = cli_parse_double("time-limit", optarg, &o->time_limit, err, sizeof err);
            if (!rc && !(o->time_limit > 0))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--time-limit=%s: must be > 0",
                                optarg);
            break;
        case OPT_DEVICES: o->devices = optarg; break;
        case OPT_RANK_TIMEOUT:
            rc = cli_parse_double("rank-timeout", optarg, &o->rank_timeout, err, sizeof err);
            if (!rc && !(o->rank_timeout > 0))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--rank-timeout=%s: must be > 0",
                                optarg);
            o->rank_timeout_arg = optarg;
            break;
        case OPT_PARALLEL:
            rc = cli_parse_ulong("parallel", optarg, &o->parallel, err, sizeof err);
            if (!rc && (o->parallel < 1 || o->parallel > 1024))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--parallel=%s: must be 1..1024",
                                optarg);
            break;
        case OPT_BATCH:
            rc = cli_parse_ulong("batch", optarg, &o->batch, err, sizeof err);
            o->have_batch = 1;
            if (!rc && (o->batch < 1 || o->batch > 1024))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--batch=%s: must be 1..1024",
                                optarg);
            break;
        case OPT_SIZE:
            if (o->so.nsizes >= CLI_MAX_LIST)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "too many --size options");
            else
                rc = cli_parse_size(optarg, &o->so.sizes[o->so.nsizes++], err, sizeof err);
            break;
        case OPT_RESTRICT:
            if (o->so.nrestrict >= CLI_MAX_LIST)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "too many --restrict options");
            else
                o->so.restrict_exprs[o->so.nrestrict++] = optarg;
            if (!rc && !optarg[strspn(optarg, " \t")])
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--restrict: empty expression");
            break;
        case OPT_CARTESIAN: o->so.cartesian = o->cartesian_arg = 1; break;
        case OPT_OBJECTIVE:
            o->objective = optarg;
            if (!optarg[strspn(optarg, " \t")])
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--objective: empty");
            break;
        case OPT_OBJECTIVES: o->objectives = optarg; break;
        case OPT_FRONT:
            o->front = optarg;
            if (!*optarg)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--front=: empty path");
            break;
        case OPT_CONFIRM:
            rc = cli_parse_ulong("confirm", optarg, &o->confirm, err, sizeof err);
            if (!rc && o->confirm > CUTUNE_CONFIRM_MAX)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--confirm=%s: must be 0..%d",
                                optarg, CUTUNE_CONFIRM_MAX);
            o->confirm_arg = optarg;
            break;
        case OPT_CONFIRM_ROUNDS:
            rc = cli_parse_ulong("confirm-rounds", optarg, &o->confirm_rounds, err, sizeof err);
            if (!rc && (o->confirm_rounds < 1 || o->confirm_rounds > 100))
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                                "--confirm-rounds=%s: must be 1..100", optarg);
            o->rounds_arg = optarg;
            break;
        case OPT_SUBJECT_TO:
            if (o->nsubject_to >= CLI_MAX_LIST)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "too many --subject-to options");
            else
                o->subject_to[o->nsubject_to++] = optarg;
            if (!rc && !optarg[strspn(optarg, " \t")])
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--subject-to: empty expression");
            break;
        case OPT_JOURNAL: o->journal = optarg; break;
        case OPT_RESUME: o->resume = optarg; break;
        case OPT_OUTPUT: o->output = optarg; break;
        case OPT_CSV: o->csv = optarg; break;
        case OPT_KT: o->kt = optarg; break;
        case OPT_HEADER: o->header = optarg; break;
        case OPT_T4: o->t4 = optarg; break;
        case OPT_WARM_START:
            o->warm_start = optarg;
            if (!*optarg)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                                "--warm-start=: give FILE[,FILE...], none or auto");
            break;
        case OPT_NO_PROGRESS: o->progress = 0; break;
        case OPT_DB:
            o->db = optarg;
            if (!*optarg)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL, "--db=: empty path");
            break;
        case OPT_NO_DB: o->no_db = 1; break;
        case OPT_REMEASURE: o->remeasure = 1; break;
        case OPT_SIZES: o->sizes = optarg; break;
        case OPT_SHAPE_MODE: o->shape_mode = optarg; break;
        case OPT_SHAPE_WARM: o->shape_warm = optarg; break;
        case OPT_VALIDATE_SIZES: o->validate_sizes = optarg; break;
        case 'q': o->quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
        if (rc < 0) {
            fprintf(stderr, "%s: %s\n", cli_progname, err);
            return 2;
        }
    }
    if (optind != argc - 1 && !(o->resume && optind == argc)) {
        fprintf(stderr, "%s: expected one KERNEL, SPEC or RECORDING (try --help)\n", cli_progname);
        return 2;
    }
    if (o->objective && o->objectives) {
        fprintf(stderr, "%s: --objective and --objectives: give one of them\n", cli_progname);
        return 2;
    }
    if (o->front && !o->objectives) {
        fprintf(stderr, "%s: --front=%s: a front needs --objectives\n", cli_progname, o->front);
        return 2;
    }
    if (o->rounds_arg && o->confirm == 0) { /* the rounds of a step that never runs */
        fprintf(stderr,
                "%s: --confirm-rounds=%s: --confirm=0 skips the confirmation these rounds "
                "would measure\n",
                cli_progname, o->rounds_arg);
        return 2;
    }
    if (o->have_budget && o->budget == 0) {
        fprintf(stderr, "%s: --budget=0: the budget must be at least 1\n", cli_progname);
        return 2;
    }
    if (o->no_db && (o->db || o->remeasure)) {
        fprintf(stderr, "%s: --no-db: %s needs a database\n", cli_progname,
                o->db ? "--db" : "--remeasure");
        return 2;
    }
    if (o->remeasure && !o->db) {
        /* without a database nothing is answered from one, so --remeasure overrides nothing:
         * said, not a run that silently measures as it would have anyway */
        char path[4096], why[256];
        if (cutune_db_default_path(path, sizeof path, why, sizeof why) == 0 && !path[0]) {
            fprintf(stderr,
                    "%s: --remeasure: $CUTUNE_DB=none: there is no database whose "
                    "answers it could override (give --db=FILE)\n",
                    cli_progname);
            return 2;
        }
    }
    if (!o->sizes && (o->shape_mode || o->shape_warm || o->validate_sizes)) {
        fprintf(stderr, "%s: --%s needs --sizes=LIST (docs/shapes.md)\n", cli_progname,
                o->shape_mode   ? "shape-mode"
                : o->shape_warm ? "shape-warm"
                                : "validate-sizes");
        return 2;
    }
    o->target = optind < argc ? argv[optind] : NULL; /* NULL: the journal's */
    return -1;
}
