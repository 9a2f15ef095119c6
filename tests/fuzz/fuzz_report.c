/* Fuzz target for the report's parsers: the input is read as a journal (then the page and
 * the importance text are written, to /dev/null) and as Nsight Compute CSV. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cutune/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    char err[512];
    cutune_report_run *run = NULL;
    if (cutune_report_run_load_buffer("fuzz.jsonl", (const char *)data, size, &run, err,
                                      sizeof err) == 0) {
        FILE *sink = fopen("/dev/null", "w");
        if (sink) {
            cutune_report_run *const runs[1] = {run};
            cutune_report_html_write(sink, runs, 1, NULL, NULL, err, sizeof err);
            cutune_report_text_write(sink, runs, 1, err, sizeof err);
            fclose(sink);
        }
        cutune_report_run_free(run);
    }
    cutune_report_profile_entry e;
    if (cutune_report_ncu_parse("fuzz.csv", (const char *)data, size, &e, err, sizeof err) == 0)
        cutune_report_profile_entry_clear(&e);
    return 0;
}
