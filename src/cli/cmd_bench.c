/* placeholder: owned by the bench engineer */
#include "commands.h"
#include <stdio.h>
int cutune_cmd_bench(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "cutune bench: not built yet\n"); return 2; }
