/* `cutune worker --fd N`: the CUDA evaluation worker. Started by the cuda
 * evaluator (fork + exec of this program) on one end of a socketpair; not
 * meant to be run by hand. */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "src/eval/cuda/cuda_internal.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cutune worker --fd N\n"
               "  the CUDA evaluator's GPU process, started by 'cutune --evaluator=cuda';\n"
               "  N is the socket it talks on.\n");
}

int cutune_cmd_worker(int argc, char **argv)
{
    int fd = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--fd") && i + 1 < argc)
            v = argv[++i];
        else if (!strncmp(argv[i], "--fd=", 5))
            v = argv[i] + 5;
        else if (!strcmp(argv[i], "--fd")) {
            fprintf(stderr, "cutune worker: option '--fd' needs a value (try --help)\n");
            return 2;
        } else { /* one line, as every command's parser says it (docs/cli.md) */
            fprintf(stderr, "cutune worker: %s '%s' (try --help)\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return 2;
        }
        char *end;
        long n = strtol(v, &end, 10);
        if (!isdigit((unsigned char)*v) || *end || n > 1 << 20) { /* digits: not " 3", "" */
            fprintf(stderr, "cutune worker: --fd=%s: not a file descriptor (0..%d)\n", v, 1 << 20);
            return 2;
        }
        fd = (int)n;
    }
    if (fd < 0) {
        fprintf(stderr, "cutune worker: --fd N is required (try --help)\n");
        return 2;
    }
    if (fcntl(fd, F_GETFD) < 0) {
        fprintf(stderr, "cutune worker: fd %d is not open\n", fd);
        return 2;
    }
    return cutune_cuda_worker_main(fd, NULL);
}
