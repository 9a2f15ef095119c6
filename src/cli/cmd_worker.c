/* placeholder: owned by the CUDA evaluator engineer */
#include "commands.h"
#include <stdio.h>
int cutune_cmd_worker(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "cutune worker: not built yet\n"); return 2; }
