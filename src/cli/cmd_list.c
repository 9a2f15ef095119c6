/* `cutune list`: searchers, evaluators and kernels. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"

static void list_usage(FILE *f)
{
    fprintf(f, "usage: cutune list\n\nPrint the searchers, evaluators and kernels cutune knows.\n"
               "\n  -h, --help  this text\n");
}

int cutune_cmd_list(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        switch (c) {
        case 'h': list_usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
    }
    if (optind < argc) {
        fprintf(stderr, "cutune list: unexpected argument '%s' (try --help)\n", argv[optind]);
        return 2;
    }
    printf("searchers:\n");
    const cutune_searcher_type *const *st = cutune_searcher_types();
    for (size_t i = 0; st[i]; i++)
        printf("  %-10s %s\n", st[i]->name, st[i]->help);
    printf("evaluators:\n");
    const cutune_evaluator_type *const *et = cutune_evaluator_types();
    for (size_t i = 0; et[i]; i++)
        printf("  %-10s %s%s\n", et[i]->name, et[i]->help,
               et[i]->flags & CUTUNE_EVALUATOR_NEEDS_GPU ? " [GPU]" : "");
    printf("kernels:\n");
    char **k = cutune_spec_list_kernels();
    for (size_t i = 0; k && k[i]; i++) {
        printf("  %s\n", k[i]);
        free(k[i]);
    }
    if (!k || !k[0])
        printf("  (none found)\n");
    free(k);
    return 0;
}
