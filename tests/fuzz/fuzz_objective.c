/* Fuzz target for objectives and constraints (src/tune/objective.c): the input is split at
 * its first newline into an objective (or, when it starts with '*', an --objectives list)
 * and a constraint; both are parsed against a small recorded space and evaluated at an
 * entry with a few metrics (one missing, one a name with '/'), so that the rewriting of
 * names, backquotes, directions and infeasibility all run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/cutune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("CUTUNE_MAX_CONFIGS", "20000", 0);
    return 0;
}

static cutune_recording *rec;
static cutune_space *space;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!space) {
        static const char text[] = "{\"tune_params_keys\":[\"BS\",\"V\"],\"tune_params\":{\"BS\":"
                                   "[64,128],\"V\":[1,2]},\"cache\":{\"64,1\":{\"BS\":64,\"V\":"
                                   "1,\"time\":1.0}}}";
        if (cutune_recording_load_buffer("f.json", text, strlen(text), &rec, NULL, 0) < 0 ||
            cutune_recording_space(rec, NULL, 0, 0, &space, NULL, 0) < 0)
            abort();
    }
    if (size > 4096)
        size = 4096;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *cons = strchr(buf, '\n');
    if (cons)
        *cons++ = '\0';
    const char *c[1] = {cons};
    cutune_objective *o = NULL;
    char err[512];
    int rc = buf[0] == '*'
                 ? cutune_objective_multi_alloc(buf + 1, c, cons ? 1 : 0, space, NULL, &o, err,
                                                sizeof err)
                 : cutune_objective_alloc(buf, c, cons ? 1 : 0, space, NULL, &o, err, sizeof err);
    if (rc == 0) {
        cutune_history_entry e = {.id = 3};
        e.r.status = CUTUNE_STATUS_OK;
        e.r.time_ms = 2.0;
        cutune_eval_result_add_metric(&e.r, "energy_j", 0.5);
        cutune_eval_result_add_metric(&e.r, "power_w", 250);
        cutune_eval_result_add_metric(&e.r, "GFLOP/s", 40);
        double v;
        int feasible;
        cutune_objective_eval(o, &e, &v, &feasible);
        (void)cutune_objective_score(o, &e);
        for (size_t i = 0; i < cutune_objective_nneeds(o); i++)
            if (!cutune_objective_need(o, i))
                abort();
        cutune_eval_result_clear(&e.r);
        cutune_objective_free(o);
    } else if (o) {
        abort(); /* a failure returns no objective */
    }
    free(buf);
    return 0;
}
