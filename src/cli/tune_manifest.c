/* The manifest of one tuning run, added to its summary JSON (--output): the same record
 * as a bench result's (include/cutune/manifest.h), for one searcher, budget and seed. The
 * files hashed are the target (spec or recording), the replayed recording and the warm-start
 * files (at most 16: cli_warm_start's CLI_WARM_MAX). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cutune/manifest.h"

int cli_tune_attach_manifest(const char *summary, const char *target, const char *replayed,
                             const char *const *restrictions, size_t nrestrictions, int cartesian,
                             const struct cutune_searcher_type *st, const char *sargs,
                             size_t budget, unsigned long seed, size_t parallel,
                             const cli_tune_manifest_extra *x, char *err, size_t errlen)
{
    const char *files[2 + 16];
    size_t nfiles = 0;
    if (target)
        files[nfiles++] = target;
    if (replayed && (!target || strcmp(replayed, target) != 0))
        files[nfiles++] = replayed;
    for (size_t i = 0; x && i < x->nwarm_files && i < 16; i++) { /* read by the run: hashed */
        int seen = 0; /* a warm start of the target itself is listed once */
        for (size_t j = 0; j < nfiles && !seen; j++)
            seen = cutune_path_same(files[j], x->warm_files[i]);
        if (!seen)
            files[nfiles++] = x->warm_files[i];
    }
    const cutune_searcher_type *types[1] = {st};
    const char *args[1] = {sargs};
    char *json = NULL, identity[24];
    cutune_manifest_input in = {
        .kind = "tune",
        .argc = cli_argv ? cli_argc : 0,
        .argv = cli_argv,
        .recordings = files,
        .nrecordings = nfiles,
        .convention = cartesian ? "cartesian" : "constraint-aware",
        .restrictions = restrictions,
        .nrestrictions = nrestrictions,
        .types = types,
        .args = args,
        .nsearchers = 1,
        .budgets = &budget,
        .nbudgets = 1,
        .seed_first = seed,
        .nseeds = 1,
        .parallel = parallel,
        .objective = x ? x->objective : NULL,
        .subject_to = x ? x->subject_to : NULL,
        .nsubject_to = x ? x->nsubject_to : 0,
        .batch = x ? x->batch : 0,
        .time_limit_s = x ? x->time_limit_s : 0,
        .warm_start_prior = x ? x->warm_prior : NULL,
    };
    int rc = cutune_manifest_build(&in, &json, identity, err, errlen);
    if (rc == 0)
        rc = cutune_manifest_attach(summary, json, err, errlen);
    free(json);
    return rc;
}
