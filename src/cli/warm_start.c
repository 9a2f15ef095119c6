/* --warm-start=FILE|none of `cutune [tune]`: the source read and mapped onto the run's space
 * (cutune/warm.h), and what --resume checks of it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_internal.h"

int cli_warm_start_load(const char *arg, const cutune_space *sp, cli_warm_start *w, char *err,
                        size_t errlen)
{
    memset(w, 0, sizeof *w);
    if (!arg || strcmp(arg, "none") == 0)
        return 0;
    if (strcmp(arg, "auto") == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--warm-start=auto: this build has no tuning database to draw on; "
                          "give a FILE (a Kernel Tuner cache or a cutune journal) or none");
    if (!realpath(arg, w->path))
        snprintf(w->path, sizeof w->path, "%s", arg);
    cutune_warm_source *src = NULL;
    int rc = cutune_warm_source_load(arg, &src, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_warm_prior_build(src, sp, &w->prior, err, errlen);
    cutune_warm_source_free(src);
    if (rc < 0)
        return rc;
    snprintf(w->hash, sizeof w->hash, "%016llx",
             (unsigned long long)cutune_warm_prior_hash(w->prior));
    return 0;
}

int cli_warm_start_check_resume(const cli_tune_options *o, const cli_tune_resume *r,
                                const cli_warm_start *w, char *err, size_t errlen)
{
    const cutune_recording *j = r->journal;
    if (!j)
        return 0;
    if (!j->warm_start && w->prior)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started cold: --warm-start=%s is not "
                          "allowed (a resumed run continues as it was started)",
                          o->resume, o->warm_start);
    if (j->warm_start && j->warm_start_hash && w->prior && strcmp(j->warm_start_hash, w->hash))
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the warm start %s maps onto the space differently from "
                          "when the run was started (prior hash %s, now %s): it has changed",
                          o->resume, w->path, j->warm_start_hash, w->hash);
    return 0;
}

void cli_warm_start_free(cli_warm_start *w)
{
    cutune_warm_prior_free(w->prior);
    w->prior = NULL;
}
