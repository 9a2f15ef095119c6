/* The recording a replay of a spec reads, named where the spec names it (tune_internal.h):
 * the field (recording, recordings[i], a T1 file's KernelSpecification.SimulationInput)
 * and its line, so that a message about that file points at the spec's line, as the
 * spec's own load errors do. */
#include <stdio.h>
#include <unistd.h>

#include "tune_internal.h"

/* "FILE:LINE: FIELD" of the spec's field that names the recording path (one of its
 * recording and recordings), for a message about it. */
const char *cli_recording_at(const cutune_spec *spec, const char *path)
{
    for (size_t i = 0; i < spec->nrecordings; i++)
        if (spec->recordings[i] == path && spec->recordings_at && spec->recordings_at[i])
            return spec->recordings_at[i];
    return spec->recording_at ? spec->recording_at : spec->path;
}

/* A message (err) about the recording a replay reads, when that is the spec's own
 * (shipped): put after the field that names it, at its line, as the spec's load errors
 * are ("FILE:LINE: recording: REC: reason"). */
void cli_spec_recording_said(const cutune_spec *spec, const char *shipped, const char *eargs,
                             int rc, char *err, size_t errlen)
{
    if (!spec || !shipped || eargs != shipped)
        return;
    char why[1024];
    snprintf(why, sizeof why, "%s", err);
    cutune_err(err, errlen, rc, "%s: %s", cli_recording_at(spec, shipped), why);
}

/* The spec's recording that a replay reads, opened once to check it: one that cannot be
 * read is refused naming the spec, the line and its field ("recording", "recordings[i]", a
 * T1 file's KernelSpecification.SimulationInput), as the no-GPU path names them; the
 * loader alone would name only the file. */
int cli_check_spec_recording(const cutune_spec *spec, const char *path, char *err, size_t errlen)
{
    char why[1024];
    int fd, rc = cutune_open_input(path, &fd, why, sizeof why);
    if (rc >= 0) {
        close(fd);
        return 0;
    }
    return cutune_err(err, errlen, rc, "%s: the recording it names cannot be read: %s",
                      cli_recording_at(spec, path), why);
}
