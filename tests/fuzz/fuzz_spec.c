/*
 * Fuzz target for the kernel spec loader: the input is a spec's JSON, loaded with
 * cutune_spec_load_buffer against a private directory holding a tiny k.cu (kernels
 * k and k_ref), so seeds say "source": "k.cu". A loaded spec has its metrics and
 * options computed for the first and last configuration; a failed load must leave
 * *out NULL and a message naming the file ("fuzz.json: " or "fuzz.json:LINE: ").
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Smaller limits than a run's (docs/hardening.md), so that no input spends seconds inside
 * them: the limits are what is under test. The standalone runner calls this too. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("CUTUNE_MAX_CONFIGS", "20000", 0);
    setenv("CUTUNE_MAX_INPUT_BYTES", "16M", 0);
    return 0;
}

static char dir[64];
static char cu_path[96];

static void remove_dir(void)
{
    unlink(cu_path);
    rmdir(dir);
}

static const char *source_dir(void)
{
    static const char src[] = "extern \"C\" __global__ void k(float *c, int n) { }\n"
                              "extern \"C\" __global__ void k_ref(float *c, int n) { }\n";
    if (dir[0])
        return dir;
    snprintf(dir, sizeof dir, "/tmp/cutune_fuzz_spec.XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(cu_path, sizeof cu_path, "%s/k.cu", dir);
    FILE *f = fopen(cu_path, "w");
    if (!f || fwrite(src, 1, sizeof src - 1, f) != sizeof src - 1)
        abort();
    fclose(f);
    atexit(remove_dir);
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024] = "";
    cutune_spec *s = (cutune_spec *)1;
    if (size > 1 << 20)
        return 0;
    int rc = cutune_spec_load_buffer("fuzz.json", (const char *)data, size, source_dir(), NULL, 0,
                                     &s, err, sizeof err);
    if (rc) {
        /* the message names the file, and the line where it knows the field's */
        const char *p = err + 9;
        if (strncmp(err, "fuzz.json:", 10) == 0 && p[1] >= '1' && p[1] <= '9')
            for (p++; *p >= '0' && *p <= '9'; p++)
                ;
        if (rc > 0 || s || strncmp(err, "fuzz.json", 9) != 0 || strncmp(p, ": ", 2) != 0)
            abort();
        return 0;
    }
    if (!s || strlen(s->hash) != 16 || !s->space || cutune_space_size(s->space) == 0)
        abort();
    size_t last = cutune_space_size(s->space) - 1;
    for (size_t k = 0; k < 2; k++) {
        size_t id = k ? last : 0;
        double *m = calloc(s->nmetrics + 1, sizeof *m);
        char **opts = NULL;
        size_t n = 0;
        if (!m)
            abort();
        (void)cutune_spec_metrics(s, id, 1.5, m, err, sizeof err);
        free(m);
        if (cutune_spec_options(s, id, &opts, &n, err, sizeof err) == 0) {
            for (size_t i = 0; i < n; i++) {
                if (!opts[i])
                    abort();
                free(opts[i]);
            }
            free(opts);
        }
    }
    cutune_spec_free(s);
    return 0;
}
