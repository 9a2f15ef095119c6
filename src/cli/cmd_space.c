/* `cutune space KERNEL|SPEC|RECORDING`: the size of a space and its values. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cutune space [--size NAME=VALUE]... [--restrict EXPR]... [--cartesian] "
               "KERNEL|SPEC|RECORDING\n"
               "\n"
               "Print the Cartesian size, the number of valid configurations, each parameter's\n"
               "values, the sizes and the restrictions. Nothing is tuned or written.\n"
               "\n"
               "  --size NAME=VALUE  override a problem size of a kernel spec (repeatable;\n"
               "                     VALUE decimal: 16, 1e6, 0.5); not for a recording\n"
               "  --restrict EXPR    a restriction on a recording's space (repeatable): the\n"
               "                     space is then its Cartesian product filtered by them;\n"
               "                     not for a kernel spec (put restrictions in the spec)\n"
               "  --cartesian        a recording's space is its whole Cartesian product\n"
               "                     (default: the configurations it records); not for a spec\n"
               "  -h, --help         this text\n");
}

int cutune_cmd_space(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 's'},
        {"restrict", required_argument, NULL, 'r'},
        {"cartesian", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    char err[1024];
    cli_space_opts so = {0};
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        switch (c) {
        case 's':
            if (so.nsizes >= CLI_MAX_LIST ||
                cli_parse_size(optarg, &so.sizes[so.nsizes++], err, sizeof err) < 0) {
                fprintf(stderr, "cutune space: %s\n", err);
                return 2;
            }
            break;
        case 'r':
            if (so.nrestrict >= CLI_MAX_LIST) {
                fprintf(stderr, "cutune space: too many --restrict options\n");
                return 2;
            }
            so.restrict_exprs[so.nrestrict++] = optarg;
            break;
        case 'c': so.cartesian = 1; break;
        case 'h': usage(stdout); return 0;
        default: return 2; /* said in one line by cli_getopt */
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "cutune space: expected one KERNEL, SPEC or RECORDING (try --help)\n");
        return 2;
    }
    cli_target t;
    double t0 = cutune_now();
    if (cli_target_load(argv[optind], &so, &t, err, sizeof err) < 0) {
        fprintf(stderr, "cutune space: %s\n", err);
        return 2;
    }
    double dt = cutune_now() - t0;
    if (so.cartesian && !t.rec) { /* a spec's space is its restrictions': nothing to widen */
        fprintf(stderr,
                "cutune space: --cartesian applies to recordings (their recorded set or the "
                "whole product); %s is a spec\n",
                t.path);
        cli_target_free(&t);
        return 2;
    }
    const cutune_space *s = t.space;
    printf("%s\n", t.path);
    if (t.rec)
        printf("recording: %s, kernel %s, %zu records; space: %s\n",
               t.rec->device_name ? t.rec->device_name : "?",
               t.rec->kernel_name ? t.rec->kernel_name : "?", t.rec->nrecords,
               so.nrestrict   ? "Cartesian product filtered by --restrict"
               : so.cartesian ? "full Cartesian product"
                              : "the recorded configurations");
    printf("cartesian size: %.0f\n", cutune_space_cartesian_size(s));
    printf("valid configurations: %zu\n", cutune_space_size(s));
    printf("loaded and enumerated in %.3f s\n", dt);
    printf("parameters (%zu):\n", cutune_space_nparams(s));
    for (size_t p = 0; p < cutune_space_nparams(s); p++) {
        const cutune_param *pr = cutune_space_param(s, p);
        printf("  %-24s [", pr->name);
        for (size_t v = 0; v < pr->nvalues; v++)
            printf("%s%s", v ? ", " : "", pr->texts[v]);
        printf("]\n");
    }
    if (cutune_space_nconstants(s)) {
        printf("sizes:\n");
        for (size_t i = 0; i < cutune_space_nconstants(s); i++) {
            cutune_value v = cutune_space_constant_value(s, i);
            char buf[64];
            cutune_value_format(&v, buf, sizeof buf);
            printf("  %s = %s\n", cutune_space_constant_name(s, i), buf);
        }
    }
    if (cutune_space_nrestrictions(s)) {
        printf("restrictions:\n");
        for (size_t r = 0; r < cutune_space_nrestrictions(s); r++)
            printf("  %s\n", cutune_space_restriction_text(s, r));
    }
    cli_target_free(&t);
    return 0;
}
