/* cutune: the command table, global options and dispatch (kmod tools/kmod.c
 * style). A first argument that names no command runs `tune`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "stop_signal.h"
#include <gsl/gsl_errno.h>

#include "cutune/common.h"

#define CMD_NEEDS_GPU 1u /* the command measures on a GPU (tune may fall back to replay) */

static int cmd_help(int argc, char **argv);

static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
    unsigned flags;
} commands[] = {
    {"tune", cutune_cmd_tune, "tune a kernel or replay a recording (the default command)", 0},
    {"list", cutune_cmd_list, "list searchers, evaluators and kernels", 0},
    {"space", cutune_cmd_space, "print a space: Cartesian size, valid count, values", 0},
    {"bench", cutune_cmd_bench, "compare searchers on recorded spaces", 0},
    {"best", cutune_cmd_best, "print the best configuration the tuning database knows", 0},
    {"header", cutune_cmd_header, "write a tuned C header, tuning only what the database lacks", 0},
    {"db", cutune_cmd_db, "the tuning database: list, show, export, import, prune", 0},
    {"report", cutune_cmd_report, "explain runs: an HTML page (or --text) from journals", 0},
    {"profile", cutune_cmd_profile, "Nsight Compute counters of a run's best and worst",
     CMD_NEEDS_GPU},
    {"worker", cutune_cmd_worker, "CUDA evaluation worker (started by cutune itself)",
     CMD_NEEDS_GPU},
    {"help", cmd_help, "show this help", 0},
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cutune [-h|--help] [-V|--version] [COMMAND] [OPTIONS] KERNEL|SPEC|RECORDING\n"
            "\n"
            "cutune finds the fastest correct configuration of a tunable CUDA kernel.\n"
            "\n"
            "  cutune --searcher=bo --budget=60 gemm\n"
            "  cutune --evaluator=replay data/xgemm.jsonl.gz\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s%s\n", commands[i].name, commands[i].help,
                commands[i].flags & CMD_NEEDS_GPU ? " [GPU]" : "");
    fprintf(f, "\n'cutune COMMAND --help' describes each command's options.\n");
}

static int cmd_help(int argc, char **argv)
{
    if (argc > 2) { /* 'help tune extra': the extra words were dropped unsaid */
        fprintf(stderr, "cutune help: unexpected argument '%s' (usage: cutune help [COMMAND])\n",
                argv[2]);
        return 2;
    }
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: cutune help [COMMAND]\n"
               "\n"
               "Without COMMAND: the commands and what each does. With one: its options, as\n"
               "'cutune COMMAND --help' prints them.\n");
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "help") != 0) { /* 'help help' is this usage */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[1], commands[i].name) == 0) {
                char *hargv[] = {argv[1], "--help", NULL};
                return commands[i].fn(2, hargv);
            }
        fprintf(stderr, "cutune help: no command '%s'\n\n", argv[1]);
        usage(stderr);
        return 2;
    }
    usage(stdout);
    return 0;
}

int cli_argc;
char **cli_argv;

/* What was printed reached standard output, or one line says it did not (coreutils'
 * close_stdout): a full disk or a closed pipe under `cutune ... > FILE` is an I/O failure
 * (exit 1, or the command's own non-zero status), never a cut-off output and exit 0. A
 * stdout closed by the caller (`>&-`) with nothing written to it is no failure. */
const char *cli_progname = "cutune"; /* "cutune bench" once a command is named */

static int close_stdout(int rc)
{
    int failed = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0)
        failed = 1;
    int e = errno;
    if (!failed && fclose(stdout) != 0 && errno != EBADF) {
        failed = 1;
        e = errno;
    }
    if (!failed)
        return rc;
    if (e)
        fprintf(stderr, "%s: standard output: write error: %s\n", cli_progname, strerror(e));
    else
        fprintf(stderr, "%s: standard output: write error\n", cli_progname);
    return rc ? rc : 1;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    return close_stdout(run(argc, argv));
}

static int run(int argc, char **argv)
{
    /* the command line as given, before any getopt permutes argv (a run's manifest) */
    cli_argc = argc;
    cli_argv = calloc((size_t)argc + 1, sizeof *cli_argv);
    if (cli_argv)
        memcpy(cli_argv, argv, (size_t)argc * sizeof *argv);
    /* GSL's default handler aborts; every GSL status is checked instead. */
    gsl_set_error_handler_off();
    cli_remove_temporaries_on_signal();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        if (argc > 2) { /* '-V gemm' ran nothing and said only the version */
            fprintf(stderr, "cutune: %s: unexpected argument '%s' (it takes none)\n", argv[1],
                    argv[2]);
            return 2;
        }
        printf("cutune %s\n", CUTUNE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            static char prog[64]; /* getopt's messages name it: "cutune bench: ..." */
            snprintf(prog, sizeof prog, "cutune %s", commands[i].name);
            argv[1] = prog;
            cli_progname = prog;
            return commands[i].fn(argc - 1, argv + 1);
        }
    /* No command named: `cutune [opts] KERNEL` is `cutune tune [opts] KERNEL`. */
    argv[0] = "cutune"; /* getopt's messages name the program */
    return cutune_cmd_tune(argc, argv);
}
