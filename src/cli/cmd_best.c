/* `cutune best` and `cutune header`: tuned configurations out of the database. best prints
 * the fastest configuration known for a kernel on this GPU at these sizes, tuning nothing;
 * header writes it as a C header for a build, tuning first only when the database holds
 * fewer measurements than the budget (and then measuring only what it lacks). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "shapes.h"
#include "tune_internal.h"

static void best_usage(FILE *f)
{
    fprintf(
        f,
        "usage: cutune best [--size NAME=VALUE]... [--sizes=LIST] [--db=FILE]\n"
        "                   [--evaluator=cuda|replay[:FILE]] [--devices=I] [-q]\n"
        "                   KERNEL|SPEC|RECORDING\n"
        "\n"
        "Print the fastest configuration the tuning database knows for KERNEL on this GPU\n"
        "(without a GPU: the GPU of the kernel's recording) at these sizes. Nothing is tuned.\n"
        "\n"
        "  --size NAME=VALUE   a problem size of the spec (repeatable)\n"
        "  --sizes=LIST        several shapes, a line each ('M=N=K=1024;M=N=K=2048', @FILE)\n"
        "  --db=FILE           the database (default as in tune: $CUTUNE_DB, else\n"
        "                      $XDG_DATA_HOME/cutune/tuning.db)\n"
        "  --evaluator=E       whose GPU: cuda (this machine's), replay[:FILE] (a recording's)\n"
        "  --devices=all|I,J,..|NAME  GPUs as tune's --devices (cuda only): the first is\n"
        "                      the one looked up (default GPU 0)\n"
        "  -q, --quiet         print only the configuration\n"
        "  -h, --help          this help\n"
        "\n"
        "Exit status: 0 found, 1 the database holds no correct measurement of it, 2 bad input.\n");
}

/* The key and the best row; 1 found, 0 none, <0 error. */
static int lookup_best(const char *dbpath, const cli_target *t, const char *evaluator,
                       const char *devices, cutune_db_key *key, cutune_db_row *best,
                       size_t *measured, char *err, size_t errlen)
{
    int rc = cli_db_target_key(t, evaluator, devices, key, err, errlen);
    if (rc < 0)
        return rc;
    cutune_db *db;
    rc = cutune_db_open(dbpath, CUTUNE_DB_READONLY, &db, err, errlen);
    if (rc == CUTUNE_ENOTFOUND) { /* nothing tuned with it yet */
        *measured = 0;
        return 0;
    }
    if (rc < 0)
        return rc;
    rc = cutune_db_best(db, key, best, measured, err, errlen);
    cutune_db_close(db);
    return rc;
}

static void print_sizes(FILE *f, const char *sizes)
{
    fprintf(f, "%s", strcmp(sizes, "{}") == 0 ? "its sizes" : sizes);
}

/* best --sizes=LIST: a line per shape; exit 1 when some shape has no correct measurement. */
static int best_of_shapes(const char *dbpath, const char *kernel, const char *sizes,
                          const char *evaluator, const char *devices, int quiet)
{
    static cli_shapes shapes;
    static cli_target T[SHAPES_MAX];
    char err[1024];
    cli_space_opts none = {0};
    int status = 0;
    size_t loaded = 0;
    if (cli_shapes_parse("--sizes", sizes, &shapes, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", cli_progname, err);
        return 2;
    }
    /* every shape loads and has a key (bad sizes, no GPU to name: refused) before a line is
     * printed */
    for (cutune_db_key key; loaded < shapes.n; loaded++)
        if (cli_shape_target(kernel, &shapes.s[loaded], &none, "none", NULL, &T[loaded], NULL, 0,
                             err, sizeof err) < 0 ||
            cli_db_target_key(&T[loaded], evaluator, devices, &key, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", cli_progname, err);
            status = 2;
            goto out;
        }
    for (size_t i = 0; i < shapes.n; i++) {
        cli_target *t = &T[i];
        cutune_db_key key;
        cutune_db_row best = {0};
        size_t measured = 0;
        int rc =
            lookup_best(dbpath, t, evaluator, devices, &key, &best, &measured, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "%s: %s\n", cli_progname, err);
            status = 2;
            goto out;
        }
        if (rc == 0) {
            fprintf(stderr, "%s: %s: no correct measurement at shape %s (%zu measurements)\n",
                    cli_progname, dbpath, shapes.s[i].label, measured);
            status = 1;
        } else {
            long long id = cutune_db_config_id(t->space, best.config);
            char text[4096];
            int n =
                id >= 0 ? cutune_space_format_config(t->space, (size_t)id, text, sizeof text) : -1;
            printf("%s: %s", shapes.s[i].label,
                   n >= 0 && (size_t)n < sizeof text ? text : best.config);
            if (!quiet)
                printf(" (%.6g ms, fastest of %zu measurements)", best.time_ms, measured);
            printf("\n");
        }
        cutune_db_row_clear(&best);
    }
out:
    for (size_t i = 0; i < loaded && i < shapes.n; i++)
        cli_target_free(&T[i]);
    return status;
}

int cutune_cmd_best(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},
        {"evaluator", required_argument, NULL, 'e'},
        {"devices", required_argument, NULL, 'D'},
        {"quiet", no_argument, NULL, 'q'},
        {"sizes", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char err[1024] = "", dbpath[4096];
    const char *db = NULL, *evaluator = NULL, *devices = NULL, *sizes = NULL;
    int quiet = 0, c, rc, status = 2;
    cli_space_opts so = {0};
    cli_target t = {0};
    cutune_db_key key;
    cutune_db_row best = {0};
    optind = 1;
    while ((c = cli_getopt(argc, argv, "qh", longopts)) != -1) {
        switch (c) {
        case 's':
            if (so.nsizes >= CLI_MAX_LIST) {
                fprintf(stderr, "%s: too many --size options\n", cli_progname);
                return 2;
            }
            if (cli_parse_size(optarg, &so.sizes[so.nsizes++], err, sizeof err) < 0) {
                fprintf(stderr, "%s: %s\n", cli_progname, err);
                return 2;
            }
            break;
        case 'd': db = optarg; break;
        case 'e': evaluator = optarg; break;
        case 'D': devices = optarg; break;
        case 'q': quiet = 1; break;
        case 'S': sizes = optarg; break;
        case 'h': best_usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "cutune best: expected one KERNEL, SPEC or RECORDING (try --help)\n");
        return 2;
    }
    if ((rc = cli_db_path(db, 0, dbpath, sizeof dbpath, err, sizeof err)) < 0)
        goto fail;
    if (!dbpath[0]) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "$CUTUNE_DB=none: no database to read");
        goto fail;
    }
    if (sizes) {
        if (so.nsizes) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--sizes and --size: give every shape's sizes in --sizes");
            goto fail;
        }
        return best_of_shapes(dbpath, argv[optind], sizes, evaluator, devices, quiet);
    }
    if ((rc = cli_target_load(argv[optind], &so, &t, err, sizeof err)) < 0)
        goto fail;
    size_t measured = 0;
    rc = lookup_best(dbpath, &t, evaluator, devices, &key, &best, &measured, err, sizeof err);
    if (rc < 0)
        goto fail;
    if (rc == 0) {
        fprintf(stderr, "%s: %s: no correct measurement of %s at ", cli_progname, dbpath,
                key.kernel);
        print_sizes(stderr, key.sizes);
        fprintf(stderr, " on %s (%zu measurements; tune it: cutune %s)\n", key.gpu.fingerprint,
                measured, argv[optind]);
        status = 1;
        goto out;
    }
    long long id = cutune_db_config_id(t.space, best.config);
    char text[4096];
    int n = id >= 0 ? cutune_space_format_config(t.space, (size_t)id, text, sizeof text) : -1;
    const char *shown = n >= 0 && (size_t)n < sizeof text ? text : best.config;
    if (quiet) {
        printf("%s\n", shown);
    } else {
        printf("best: %s\n", shown);
        printf("time: %.6g ms (fastest of %zu measurements; database row %lld, stored %s)\n",
               best.time_ms, measured, best.id, best.recorded);
        printf("gpu: %s\n", key.gpu.fingerprint);
        printf("sizes: %s\n", key.sizes);
        printf("database: %s\n", dbpath);
    }
    status = 0;
    goto out;
fail:
    fprintf(stderr, "%s: %s\n", cli_progname, err);
out:
    cutune_db_row_clear(&best);
    cli_target_free(&t);
    return status;
}

/* ------------------------------------------------------------------ header */

static void header_usage(FILE *f)
{
    fprintf(
        f, "usage: cutune header -o FILE.h [--size NAME=VALUE]... [--budget=N] [--db=FILE]\n"
           "                     [TUNE OPTIONS] KERNEL|SPEC|RECORDING\n"
           "\n"
           "Write the tuned configuration of KERNEL on this GPU (without a GPU: replayed from\n"
           "the kernel's recording) at these sizes as a C header of #defines, for a build.\n"
           "When the database holds at least N measurements of it (default 60), or as many as\n"
           "the space has configurations, the header is its best and nothing is tuned;\n"
           "otherwise KERNEL is tuned with a budget of N, every configuration the database\n"
           "holds answered from it, and only the rest measured (without the confirmation step:\n"
           "the header is the database's best either way).\n"
           "\n"
           "  -o, --header=FILE.h  the header to write (replaced as a whole, never in part)\n"
           "  --budget=N           measurements wanted (default 60)\n"
           "  --retune             tune even when the database holds enough\n"
           "  --sizes=LIST         several shapes ('M=N=K=1024;M=1000,N=5000,K=296' or @FILE):\n"
           "                       a dispatch table and a nearest-shape lookup (docs/shapes.md;\n"
           "                       needs a database; not with --size, --journal, --shape-warm,\n"
           "                       --validate-sizes)\n"
           "  --shape-mode=each|common  with --sizes: each shape its own entry (default), or\n"
           "                       the default entry one configuration for all\n"
           "  other options        passed to `cutune tune` (--searcher, --seed, --evaluator,\n"
           "                       --journal, --db, --no-progress, ...); not --objective,\n"
           "                       --objectives, --subject-to, --front (the header is the\n"
           "                       fastest: `cutune --objective=X --header=FILE.h` writes\n"
           "                       the best by X), nor --confirm, --confirm-rounds (no\n"
           "                       confirmation step runs), nor --restrict with a database\n"
           "                       (the header is the database's best, which it does not\n"
           "                       bound; with --no-db, the run's best, which it does);\n"
           "                       where nothing is tuned, the line names those unused\n"
           "  -h, --help           this help\n"
           "\n"
           "Exit status: 0 written, 1 failed while tuning or nothing correct, 2 bad input,\n"
           "130 the tuning stopped by SIGINT, SIGTERM or SIGHUP (--resume its journal; without\n"
           "a database the header of what was tuned is written, as tune's --header, else none).\n");
}

/* Whether the database's best is a configuration of t's space. */
static int best_in_space(const cli_target *t, const cutune_db_row *best, char *err, size_t errlen)
{
    if (cutune_db_config_id(t->space, best->config) < 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "the database's best configuration %s is not in %s's space", best->config,
                          t->path);
    return 0;
}

/* The header from the database's best alone (one entry, no tuning). */
static int header_from_db(const char *path, const cli_target *t, const cutune_db_row *best,
                          char *err, size_t errlen)
{
    long long id = cutune_db_config_id(t->space, best->config);
    if (id < 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "the database's best configuration %s is not in %s's space", best->config,
                          t->path);
    cutune_history_entry e = {.id = (size_t)id, .worker = -1};
    e.r.status = CUTUNE_STATUS_OK;
    e.r.time_ms = best->time_ms;
    cutune_history h = {.n = 1, .cap = 1, .e = &e, .best = 0};
    h.counts[CUTUNE_STATUS_OK] = 1;
    int rc = cutune_export_header_check(path, t->space, t->spec,
                                        t->rec ? t->rec->kernel_name : NULL, err, errlen);
    if (rc < 0)
        return rc;
    return cutune_export_header(path, t->space, t->spec, t->rec ? t->rec->kernel_name : NULL, &h,
                                err, errlen);
}

/* The line that says which of the database's measurements a header holds. */
static void say_db_best(const char *out, size_t measured, const char *dbpath,
                        const cutune_db_row *best, const cutune_db_key *key, const char *tail)
{
    fprintf(stderr, "%s: %s: the best of %zu measurements in %s (%.6g ms on %s)%s\n", cli_progname,
            out, measured, dbpath, best->time_ms, key->gpu.fingerprint, tail);
}

int cutune_cmd_header(int argc, char **argv)
{
    return cli_header_shape(argc, argv, NULL);
}

/* shown: NULL for `cutune header`; for one shape of `header --sizes`, what its messages
 * call it ("OUT.h: shape LABEL"): the database is filled and nothing written, the table
 * being written from the database once every shape is (header_dispatch.c). */
int cli_header_shape(int argc, char **argv, const char *shown)
{
    const int shape = shown != NULL;
    /* The header is the database's fastest correct configuration (what `cutune best`
     * prints): an option that ranks by something else would be tuned by and then ignored. */
    static const char *const ranking[] = {"--objective", "--objectives", "--subject-to", "--front"};
    for (int i = 1; i < argc; i++)
        for (size_t k = 0; k < sizeof ranking / sizeof ranking[0]; k++) {
            size_t n = strlen(ranking[k]);
            if (strncmp(argv[i], ranking[k], n) == 0 && (argv[i][n] == '=' || !argv[i][n])) {
                fprintf(stderr,
                        "cutune header: %s: the header holds the fastest correct configuration "
                        "the database knows; for the best by another objective or under a "
                        "constraint, tune with it and --header=FILE.h\n",
                        ranking[k]);
                return 2;
            }
        }
    /* ... and no confirmation step runs (tune is given --confirm=0): its options would be
     * accepted and overridden (--confirm=0 says what happens anyway) */
    static const char *const confirming[] = {"--confirm", "--confirm-rounds"};
    for (int i = 1; i < argc; i++)
        for (size_t k = 0; k < sizeof confirming / sizeof confirming[0]; k++) {
            size_t n = strlen(confirming[k]);
            if (strncmp(argv[i], confirming[k], n) != 0 || (argv[i][n] != '=' && argv[i][n]))
                continue;
            const char *v = argv[i][n] == '=' ? argv[i] + n + 1 : i + 1 < argc ? argv[i + 1] : "";
            if (k > 0 || !*v || v[strspn(v, "0")]) {
                fprintf(stderr,
                        "cutune header: %s: cutune header runs no confirmation step (the "
                        "header holds the fastest correct measurement); for a confirmed "
                        "winner, tune with --confirm and --header=FILE.h\n",
                        confirming[k]);
                return 2;
            }
        }
    for (int i = 1; !shape && i < argc; i++) /* several shapes: a dispatch table */
        if (strncmp(argv[i], "--sizes=", 8) == 0 || strcmp(argv[i], "--sizes") == 0)
            return cli_header_dispatch(argc, argv);
    const char *out = NULL, *db = NULL, *evaluator = NULL, *devices = NULL, *restrict_arg = NULL;
    unsigned long budget = 60;
    int retune = 0, no_db = 0;
    char err[1024] = "", dbpath[4096], budget_arg[64];
    /* tune's options that the database's answer does not read (--searcher, --journal, ...):
     * named where nothing is tuned, so that none goes unused without a word */
    char unused[512] = "";
    cli_space_opts so = {0};
    /* tune's argv: everything but -o and --retune passes through */
    char **targv = calloc((size_t)argc + 5, sizeof *targv);
    int targc = 0, rc, status = 2;
    cli_target t = {0};
    cutune_db_key key;
    cutune_db_row best = {0};
    if (!targv) {
        fprintf(stderr, "%s: out of memory\n", cli_progname);
        return 1;
    }
    targv[targc++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        int sep = 0; /* the value is the next argument (--opt VALUE), as getopt takes it */
#define HAS(opt)                                                                                   \
    (strncmp(a, opt "=", sizeof opt) == 0  ? (v = a + sizeof opt, 1)                               \
     : strcmp(a, opt) == 0 && i + 1 < argc ? (v = argv[i + 1], sep = 1)                            \
                                           : 0)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            header_usage(stdout);
            free(targv);
            return 0;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (HAS("--header")) {
            out = v;
            i += sep;
        } else if (strcmp(a, "--retune") == 0) {
            retune = 1;
        } else if (HAS("--budget")) {
            if (cli_parse_ulong("budget", v, &budget, err, sizeof err) < 0 || budget == 0) {
                /* the parser's reason where it has one: 'abc' is not an integer, not 0 */
                if (!err[0])
                    snprintf(err, sizeof err, "--budget=%s: must be at least 1", v);
                fprintf(stderr, "%s: %s\n", cli_progname, err);
                free(targv);
                return 2;
            }
            i += sep;
        } else {
            if (HAS("--db"))
                db = v;
            else if (strcmp(a, "--no-db") == 0)
                no_db = 1;
            else if (HAS("--evaluator"))
                evaluator = v;
            else if (HAS("--devices"))
                devices = v;
            else if (HAS("--restrict"))
                restrict_arg = v;
            else if (HAS("--size")) {
                if (so.nsizes >= CLI_MAX_LIST ||
                    cli_parse_size(v, &so.sizes[so.nsizes++], err, sizeof err) < 0) {
                    fprintf(stderr, "%s: %s\n", cli_progname,
                            err[0] ? err : "too many --size options");
                    free(targv);
                    return 2;
                }
            } else if (a[0] == '-') {
                size_t used = strlen(unused), len = strcspn(a, "=");
                if (used + len + 3 < sizeof unused)
                    snprintf(unused + used, sizeof unused - used, "%s%.*s", used ? ", " : "",
                             (int)len, a);
            }
            targv[targc++] = argv[i]; /* to tune as given, with its value */
            if (sep)
                targv[targc++] = argv[++i];
        }
#undef HAS
    }
    if (!out) {
        fprintf(stderr, "cutune header: -o FILE.h (or --header=FILE.h) is required (try --help)\n");
        free(targv);
        return 2;
    }
    const char *target = targc > 1 && targv[targc - 1][0] != '-' ? targv[targc - 1] : NULL;
    if (!target) {
        fprintf(stderr,
                "cutune header: expected one KERNEL, SPEC or RECORDING last (try --help)\n");
        free(targv);
        return 2;
    }
    /* Checked before anything is tuned, as tune checks its --header: with a database the
     * run is made without it (the header is written after it), and a path no header can be
     * written at was found only once the run had been made and stored (exit 1). */
    if (!*out) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--header=: empty path");
        goto fail;
    }
    if ((rc = cli_check_writable("header", out, err, sizeof err)) < 0)
        goto fail;
    if (!shown)
        shown = out;
    /* enough measurements already: the header is the database's best (a space smaller than
     * the budget is enough once it holds as many as the space has configurations: a tune
     * would answer every one from the database and stop, exhausted) */
    if ((rc = cli_db_path(db, no_db, dbpath, sizeof dbpath, err, sizeof err)) < 0)
        goto fail;
    /* the header is the database's best of the kernel's every measurement, kept by the
     * kernel and sizes, not by the restrictions a run was given: --restrict would bound what
     * is tuned and not what the header holds (without a database tune writes the header of
     * its own run, which it bounds) */
    if (restrict_arg && dbpath[0]) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--restrict=%s: the header holds the fastest correct configuration the "
                   "database knows, which --restrict does not bound; for the best of the "
                   "restricted space, give --no-db or tune with --restrict and --header=FILE.h",
                   restrict_arg);
        goto fail;
    }
    if (shape && !dbpath[0]) { /* the dispatch table refuses this first */
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--sizes: needs a tuning database");
        goto fail;
    }
    if (dbpath[0] &&
        ((rc = cli_target_load(target, &so, &t, err, sizeof err)) < 0 ||
         (rc = cli_refuse_onto_input("--header", out, &t, dbpath, err, sizeof err)) < 0 ||
         (rc = cutune_export_header_check(out, t.space, t.spec, t.rec ? t.rec->kernel_name : NULL,
                                          err, sizeof err)) < 0))
        goto fail;
    if (!retune && dbpath[0]) {
        size_t measured = 0;
        rc = lookup_best(dbpath, &t, evaluator, devices, &key, &best, &measured, err, sizeof err);
        if (rc < 0)
            goto fail;
        if (rc == 1 && (measured >= budget || measured >= cutune_space_size(t.space))) {
            if ((rc = shape ? best_in_space(&t, &best, err, sizeof err)
                            : header_from_db(out, &t, &best, err, sizeof err)) < 0) {
                status = 1;
                goto fail;
            }
            char tail[640];
            snprintf(tail, sizeof tail, "; nothing tuned%s%s%s", unused[0] ? " (unused: " : "",
                     unused, unused[0] ? "; --retune tunes)" : "");
            say_db_best(shown, measured, dbpath, &best, &key, tail);
            status = 0;
            goto done;
        }
    }
    /* Without a database the header is the run's best (tune writes it); with one, it is
     * the database's best after the run, which may be another run's: written below. */
    static char header_arg[4200];
    snprintf(header_arg, sizeof header_arg, "--header=%s", out);
    snprintf(budget_arg, sizeof budget_arg, "--budget=%lu", budget);
    /* KERNEL stays last */
    if (!dbpath[0]) {
        targv[targc] = targv[targc - 1];
        targv[targc - 1] = header_arg;
        targv[targc + 1] = NULL;
        targc++;
    }
    targv[targc] = targv[targc - 1];
    targv[targc - 1] = budget_arg;
    targc++;
    /* The header is the database's best, tuned now or found there: the confirmation's
     * winner (a run's own choice among ties) would make the two paths disagree. */
    static char no_confirm[] = "--confirm=0";
    targv[targc] = targv[targc - 1];
    targv[targc - 1] = no_confirm;
    targc++;
    targv[targc] = NULL;
    status = cutune_cmd_tune(targc, targv);
    if (status != 0 || !dbpath[0])
        goto done;
    size_t measured = 0;
    status = 1;
    cutune_db_row_clear(&best);
    if ((rc = lookup_best(dbpath, &t, evaluator, devices, &key, &best, &measured, err,
                          sizeof err)) < 0)
        goto fail;
    if (rc == 0) {
        cutune_err(err, sizeof err, CUTUNE_ENOTFOUND,
                   "%s holds no correct measurement of it: no header written", dbpath);
        goto fail;
    }
    if ((rc = shape ? best_in_space(&t, &best, err, sizeof err)
                    : header_from_db(out, &t, &best, err, sizeof err)) < 0)
        goto fail;
    say_db_best(shown, measured, dbpath, &best, &key, "");
    status = 0;
    goto done;
fail:
    fprintf(stderr, "%s: %s\n", cli_progname, err);
done:
    cutune_db_row_clear(&best);
    cli_target_free(&t);
    free(targv);
    return status;
}
