/* Fuzz target: Kernel Tuner caches and cutune journals (and gzip of either)
 * through cutune_recording_load_buffer. Any input must give a recording or an
 * error message, never a crash, a leak or a read past the buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/recording.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    cutune_recording *r = NULL;
    /* A private copy without a terminating NUL: the loader must respect size. */
    char *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    if (cutune_recording_load_buffer("fuzz", copy, size, &r, err, sizeof err) == 0) {
        /* touch what a replay reads */
        for (size_t i = 0; i < r->nrecords; i++)
            for (size_t p = 0; p < r->nparams; p++)
                if (r->records[i].idx[p] >= r->nvalues[p])
                    abort();
        cutune_recording_free(r);
    } else if (r || !err[0]) {
        abort(); /* failure must leave *out NULL and say why */
    }
    free(copy);
    return 0;
}
