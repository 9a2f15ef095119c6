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

static int usage(FILE *f)
{
    fprintf(f, "usage: cutune worker --fd N\n"
               "  the CUDA evaluator's GPU process, started by 'cutune --evaluator=cuda';\n"
               "  N is the socket it talks on.\n");
    return 2;
}

int cutune_cmd_worker(int argc, char **argv)
{
    int fd = -1;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--fd") && i + 1 < argc)
            v = argv[++i];
        else if (!strncmp(argv[i], "--fd=", 5))
            v = argv[i] + 5;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return usage(stdout) ? 0 : 0;
        else
            return usage(stderr);
        char *end;
        long n = strtol(v, &end, 10);
        if (!isdigit((unsigned char)*v) || *end || n > 1 << 20) /* digits: not " 3", "" */
            return usage(stderr);
        fd = (int)n;
    }
    if (fd < 0)
        return usage(stderr);
    if (fcntl(fd, F_GETFD) < 0) {
        fprintf(stderr, "cutune worker: fd %d is not open\n", fd);
        return 2;
    }
    return cutune_cuda_worker_main(fd, NULL);
}
