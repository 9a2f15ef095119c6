/* Enumeration benchmark: wall time and peak memory of cutune_space_enumerate.
 *
 *   bench_enum [OUTDIR]        run every case, print a table, write
 *                              OUTDIR/results.json and OUTDIR/results.csv
 *   bench_enum --case NAME     run one case and print one result line
 *
 * Each case runs in a fresh process (this program re-executed), so the peak
 * resident size reported by wait4() belongs to that case alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cutune/space.h"

#define REPEATS 5

static int add_ints(cutune_space *s, const char *name, const long long *v, size_t n)
{
    cutune_value vals[64];
    char err[256];
    for (size_t i = 0; i < n; i++)
        vals[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = v[i]};
    int rc = cutune_space_add_param(s, name, vals, n, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    return rc;
}

static int add_restrictions(cutune_space *s, const char *const *r)
{
    char err[256];
    for (; *r; r++) {
        int rc = cutune_space_add_restriction(s, *r, err, sizeof err);
        if (rc) {
            fprintf(stderr, "%s\n", err);
            return rc;
        }
    }
    return 0;
}

/* CLBlast Xgemm as in ../shared/data/README.md: 82,944 points, 17,956 valid. */
static cutune_space *build_xgemm(void)
{
    static const long long wg[] = {16, 32, 64, 128}, kwg[] = {32}, dim[] = {8, 16, 32}, kwi[] = {2},
                           vw[] = {1, 2, 4, 8}, zero[] = {0}, bin[] = {0, 1}, prec[] = {32};
    static const char *const r[] = {"KWG % KWI == 0",
                                    "MWG % (MDIMC*VWM) == 0",
                                    "NWG % (NDIMC*VWN) == 0",
                                    "MWG % (MDIMA*VWM) == 0",
                                    "NWG % (NDIMB*VWN) == 0",
                                    "KWG % ((MDIMC*NDIMC)/MDIMA) == 0",
                                    "KWG % ((MDIMC*NDIMC)/NDIMB) == 0",
                                    NULL};
    cutune_space *s = cutune_space_alloc();
    if (!s || add_ints(s, "MWG", wg, 4) || add_ints(s, "NWG", wg, 4) ||
        add_ints(s, "KWG", kwg, 1) || add_ints(s, "MDIMC", dim, 3) ||
        add_ints(s, "NDIMC", dim, 3) || add_ints(s, "MDIMA", dim, 3) ||
        add_ints(s, "NDIMB", dim, 3) || add_ints(s, "KWI", kwi, 1) || add_ints(s, "VWM", vw, 4) ||
        add_ints(s, "VWN", vw, 4) || add_ints(s, "STRM", zero, 1) || add_ints(s, "STRN", zero, 1) ||
        add_ints(s, "SA", bin, 2) || add_ints(s, "SB", bin, 2) ||
        add_ints(s, "PRECISION", prec, 1) || add_restrictions(s, r)) {
        cutune_space_free(s);
        return NULL;
    }
    return s;
}

/* A synthetic 2-D tiled kernel: 11*11*32*32*4*2*2*3*8 = 47,579,136 points,
 * restrictions at several depths, including a constant. */
static cutune_space *build_synthetic(void)
{
    long long p2[11], t[32], vw[] = {1, 2, 4, 8}, bin[] = {0, 1}, prec[] = {16, 32, 64},
                             stages[] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 11; i++)
        p2[i] = 1LL << i;
    for (int i = 0; i < 32; i++)
        t[i] = i + 1;
    static const char *const r[] = {
        "block_x * block_y >= 32 && block_x * block_y <= MAX_THREADS",
        "tile_x * tile_y <= 64",
        "(block_x * tile_x) % vector == 0",
        "precision != 64 || vector <= 4",
        "stages * tile_x * tile_y * vector * precision / 8 <= SMEM_BYTES / 16",
        NULL};
    char err[256];
    cutune_space *s = cutune_space_alloc();
    if (!s || add_ints(s, "block_x", p2, 11) || add_ints(s, "block_y", p2, 11) ||
        add_ints(s, "tile_x", t, 32) || add_ints(s, "tile_y", t, 32) ||
        add_ints(s, "vector", vw, 4) || add_ints(s, "unroll", bin, 2) ||
        add_ints(s, "use_shared", bin, 2) || add_ints(s, "precision", prec, 3) ||
        add_ints(s, "stages", stages, 8))
        goto fail;
    if (cutune_space_add_constant(s, "MAX_THREADS",
                                  (cutune_value){.type = CUTUNE_VALUE_INT, .i = 1024}, err,
                                  sizeof err) ||
        cutune_space_add_constant(s, "SMEM_BYTES",
                                  (cutune_value){.type = CUTUNE_VALUE_INT, .i = 49152}, err,
                                  sizeof err)) {
        fprintf(stderr, "%s\n", err);
        goto fail;
    }
    if (add_restrictions(s, r))
        goto fail;
    return s;
fail:
    cutune_space_free(s);
    return NULL;
}

static const struct bench_case {
    const char *name;
    cutune_space *(*build)(void);
} cases[] = {
    {"xgemm", build_xgemm},
    {"synthetic_48M", build_synthetic},
};
#define NCASES (sizeof cases / sizeof cases[0])

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Child side: build once, enumerate REPEATS times, print
 * "cartesian valid best_s median_s". */
static int run_case(const char *name)
{
    const struct bench_case *c = NULL;
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].name, name) == 0)
            c = &cases[i];
    if (!c) {
        fprintf(stderr, "unknown case '%s'\n", name);
        return 2;
    }
    cutune_space *s = c->build();
    if (!s)
        return 1;
    double t[REPEATS];
    char err[512];
    for (int k = 0; k < REPEATS; k++) {
        double t0 = cutune_now();
        int rc = cutune_space_enumerate(s, err, sizeof err);
        t[k] = cutune_now() - t0;
        if (rc) {
            fprintf(stderr, "%s: %s\n", name, err);
            cutune_space_free(s);
            return 1;
        }
    }
    qsort(t, REPEATS, sizeof t[0], cmp_double);
    printf("%.0f %zu %.6f %.6f\n", cutune_space_cartesian_size(s), cutune_space_size(s), t[0],
           t[REPEATS / 2]);
    cutune_space_free(s);
    return 0;
}

struct result {
    double cartesian;
    size_t valid;
    double best_s, median_s;
    long maxrss_kb;
};

/* Parent side: re-execute this program for one case and collect its line and rusage. */
static int spawn_case(const char *self, const char *name, struct result *r)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execl(self, self, "--case", name, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char line[256] = {0};
    size_t n = 0;
    ssize_t got;
    while (n + 1 < sizeof line && (got = read(fd[0], line + n, sizeof line - 1 - n)) > 0)
        n += (size_t)got;
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        return -1;
    r->maxrss_kb = ru.ru_maxrss; /* kilobytes on Linux */
    if (sscanf(line, "%lf %zu %lf %lf", &r->cartesian, &r->valid, &r->best_s, &r->median_s) != 4)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--case") == 0)
        return run_case(argv[2]);
    const char *outdir = argc > 1 ? argv[1] : ".";
    struct result res[NCASES];
    char path[4096];

    printf("%-14s %12s %10s %10s %10s %12s %10s\n", "case", "cartesian", "valid", "best_s",
           "median_s", "Mpoints/s", "peak_MiB");
    for (size_t i = 0; i < NCASES; i++) {
        if (spawn_case("/proc/self/exe", cases[i].name, &res[i])) {
            fprintf(stderr, "case %s failed\n", cases[i].name);
            return 1;
        }
        printf("%-14s %12.0f %10zu %10.4f %10.4f %12.1f %10.1f\n", cases[i].name, res[i].cartesian,
               res[i].valid, res[i].best_s, res[i].median_s, res[i].cartesian / res[i].best_s / 1e6,
               res[i].maxrss_kb / 1024.0);
    }

    snprintf(path, sizeof path, "%s/results.csv", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "case,cartesian,valid,best_s,median_s,repeats,peak_rss_kib\n");
    for (size_t i = 0; i < NCASES; i++)
        fprintf(f, "%s,%.0f,%zu,%.6f,%.6f,%d,%ld\n", cases[i].name, res[i].cartesian, res[i].valid,
                res[i].best_s, res[i].median_s, REPEATS, res[i].maxrss_kb);
    fclose(f);

    snprintf(path, sizeof path, "%s/results.json", outdir);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "{\n  \"benchmark\": \"enumeration\",\n  \"repeats\": %d,\n  \"cases\": [\n",
            REPEATS);
    for (size_t i = 0; i < NCASES; i++)
        fprintf(f,
                "    {\"case\": \"%s\", \"cartesian\": %.0f, \"valid\": %zu, \"best_s\": %.6f, "
                "\"median_s\": %.6f, \"peak_rss_kib\": %ld}%s\n",
                cases[i].name, res[i].cartesian, res[i].valid, res[i].best_s, res[i].median_s,
                res[i].maxrss_kb, i + 1 < NCASES ? "," : "");
    fprintf(f, "  ]\n}\n");
    fclose(f);
    return 0;
}
