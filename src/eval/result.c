/* Evaluation results: ownership helpers shared by every evaluator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/evaluator.h"

void cutune_eval_result_clear(cutune_eval_result *r)
{
    if (!r)
        return;
    free(r->times_ms);
    free(r->log);
    memset(r, 0, sizeof *r);
}

int cutune_eval_result_add_metric(cutune_eval_result *r, const char *name, double value)
{
    if (r->nmetrics >= CUTUNE_MAX_METRICS)
        return CUTUNE_ENOMEM;
    if (!name || strlen(name) >= sizeof r->metrics[0].name) /* held whole, or not at all */
        return CUTUNE_EINVAL;
    snprintf(r->metrics[r->nmetrics].name, sizeof r->metrics[0].name, "%s", name);
    r->metrics[r->nmetrics].value = value;
    r->nmetrics++;
    return 0;
}
