/* `cutune list`: searchers, evaluators and kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"

int cutune_cmd_list(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: cutune list\n\nPrint the searchers, evaluators and kernels cutune knows.\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "cutune list: unexpected argument '%s'\n", argv[1]);
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
