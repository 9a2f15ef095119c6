/* The kernel at one shape of a --sizes list (shapes.h): the spec loaded at the shape's
 * sizes and, when the run replays it, its space restricted to what the recording at those
 * sizes holds, as a single-size replay does (cli_restrict_to_recording). */
#include <stdio.h>
#include <string.h>

#include "shapes.h"

int cli_shape_target(const char *kernel, const cli_shape *s, const cli_space_opts *base,
                     const char *ename, const char *erecording, cli_target *t, char *recording,
                     size_t reclen, char *err, size_t errlen)
{
    char shown[512] = ""; /* the shape as NAME=VALUE,... in messages */
    for (size_t i = 0, u = 0; i < s->n && u < sizeof shown; i++) {
        int w = snprintf(shown + u, sizeof shown - u, "%s%s=%s", i ? "," : "", s->names[i],
                         s->texts[i]);
        u += w > 0 ? (size_t)w : 0;
    }
    static cli_space_opts so; /* large: not on the stack */
    so = *base;
    so.nsizes = cli_shape_overrides(s, so.sizes, CLI_MAX_LIST);
    char why[1024];
    int rc = cli_target_load(kernel, &so, t, why, sizeof why);
    if (rc < 0)
        return cutune_err(err, errlen, rc, "shape %s: %s", shown, why);
    if (recording && reclen)
        recording[0] = '\0';
    if (!t->spec)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--sizes: %s is a recording, which has no sizes (give a kernel or spec)",
                          t->path);
    if (strcmp(ename, "replay") != 0)
        return 0;
    const char *rec = erecording;
    if (!rec && (rc = cli_spec_recording(t->spec, &rec, why, sizeof why)) < 0)
        return cutune_err(err, errlen, rc, "shape %s: %s", shown, why);
    if (!rec)
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                          "shape %s: %s has no recording to replay (give --evaluator=replay:FILE)",
                          shown, t->path);
    if (recording)
        snprintf(recording, reclen, "%s", rec);
    if (!base->cartesian && (rc = cli_restrict_to_recording(t, rec, why, sizeof why)) < 0)
        return cutune_err(err, errlen, rc, "shape %s: %s", shown, why);
    return 0;
}
