/* The tuning database in `cutune [tune]` (and the commands that read it): which file, the
 * GPU fingerprint a run measures on, and the run's place in the database, whose store the
 * tuner loop asks before it evaluates and tells after (docs/database.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_internal.h"

int cli_db_path(const char *given, int no_db, char *path, size_t len, char *err, size_t errlen)
{
    path[0] = '\0';
    if (no_db)
        return 0;
    if (given) {
        if (!*given)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "--db=: empty path");
        if (snprintf(path, len, "%s", given) >= (int)len)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "--db=%.64s...: path too long", given);
        return 0;
    }
    return cutune_db_default_path(path, len, err, errlen);
}

int cli_is_tuning_db(const cli_tune_options *o, const char *path, char *db, size_t len)
{
    char why[256];
    if (cli_db_path(o->db, o->no_db, db, len, why, sizeof why) < 0 || !*db ||
        strcmp(db, "none") == 0)
        return 0;
    return cutune_path_same(path, db);
}

/* The device a cuda run measures on first: --devices' first number, else
 * $CUTUNE_CUDA_DEVICE, else 0 (a run on several GPUs of one model: the model is the key). */
static int first_device(const char *devices)
{
    if (devices && *devices >= '0' && *devices <= '9')
        return atoi(devices);
    const char *env = getenv("CUTUNE_CUDA_DEVICE");
    return env && *env >= '0' && *env <= '9' ? atoi(env) : 0;
}

int cli_db_fingerprint(const char *ename, const char *recording, const cli_target *t,
                       cutune_evaluator *ev, const char *devices, cutune_db_gpu *g, char *err,
                       size_t errlen)
{
    if (strcmp(ename, "cuda") == 0) {
        int rc = cutune_db_gpu_probe(first_device(devices), g, err, errlen);
        /* no GPU in this process (rank 0 of an MPI job measures on other hosts): the
         * evaluator's own description of its device is the key then */
        if (rc < 0 && ev) {
            cutune_db_gpu_from_name(cutune_evaluator_device(ev), g);
            rc = 0;
        }
        return rc;
    }
    if (strcmp(ename, "replay") == 0) {
        if (t->rec && (!recording || cutune_path_same(recording, t->path))) {
            cutune_db_gpu_from_recording(t->rec, g);
            return 0;
        }
        if (!recording)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "replay: no recording named");
        cutune_recording *rec;
        int rc = cutune_recording_load(recording, &rec, err, errlen);
        if (rc < 0)
            return rc;
        cutune_db_gpu_from_recording(rec, g);
        cutune_recording_free(rec);
        return 0;
    }
    cutune_db_gpu_from_name(ev ? cutune_evaluator_device(ev) : ename, g);
    return 0;
}

void cli_journal_gpu(const char *ename, cutune_evaluator *ev, const char *devices,
                     const cli_tune_db *d, char *out, size_t len)
{
    out[0] = '\0';
    if (strcmp(ename, "cuda") != 0)
        return;
    if (d && d->db) { /* the key the run's rows are stored under, probed once */
        snprintf(out, len, "%s", d->key.gpu.fingerprint);
        return;
    }
    cutune_db_gpu g;
    if (cli_db_fingerprint(ename, NULL, NULL, ev, devices, &g, NULL, 0) == 0)
        snprintf(out, len, "%s", g.fingerprint);
}

/* the length of a fingerprint's hardware part: up to its third '|' (NAME|N SMs|M MiB) */
static size_t gpu_hardware_len(const char *fp)
{
    size_t n = 0;
    for (int bars = 0; fp[n]; n++)
        if (fp[n] == '|' && ++bars == 3)
            break;
    return n;
}

int cli_resume_check_gpu(const char *journal, const char *gpu, const char *ename,
                         cutune_evaluator *ev, const char *devices, const cli_tune_db *d, char *err,
                         size_t errlen)
{
    char now[sizeof d->key.gpu.fingerprint];
    if (!gpu || !*gpu)
        return 0;
    cli_journal_gpu(ename, ev, devices, d, now, sizeof now);
    if (!now[0])
        return 0;
    size_t a = gpu_hardware_len(gpu), b = gpu_hardware_len(now);
    if (a == b && memcmp(gpu, now, a) == 0)
        return 0;
    return cutune_err(err, errlen, CUTUNE_EINVAL,
                      "--resume=%s: measured on %.*s, and this run's GPU is %.*s: a journal "
                      "holds one GPU's times (start a new run; --warm-start=%s carries what "
                      "it found)",
                      journal, (int)a, gpu, (int)b, now, journal);
}

/* path made absolute by its real folder (the run's journal may not exist yet) */
static void absolute(const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash)
        *slash = '\0';
    if (realpath(slash ? (dir[0] ? dir : "/") : ".", real))
        snprintf(out, len, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
    else
        snprintf(out, len, "%s", path);
}

int cli_tune_db_open(const cli_tune_options *o, const cli_target *t, const char *ename,
                     const char *eargs, cutune_evaluator *ev, cli_tune_db *d, char *err,
                     size_t errlen)
{
    char path[4096];
    memset(d, 0, sizeof *d);
    int rc = cli_db_path(o->db, o->no_db, path, sizeof path, err, errlen);
    if (rc < 0 || !path[0])
        return rc;
    cutune_db_key key;
    cutune_db_gpu gpu;
    if ((rc = cli_db_fingerprint(ename, strcmp(ename, "replay") == 0 ? eargs : NULL, t, ev,
                                 o->devices, &gpu, err, errlen)) < 0)
        return rc;
    if (t->spec)
        rc = cutune_db_key_spec(t->spec, strcmp(ename, "cuda") == 0 ? eargs : NULL, &gpu, &key, err,
                                errlen);
    else
        rc = cutune_db_key_recording(t->rec, &gpu, &key, err, errlen);
    if (rc < 0)
        return rc;
    if ((rc = cutune_db_open(path, 0, &d->db, err, errlen)) < 0)
        return rc;
    d->key = key;
    return 0;
}

int cli_tune_db_start(const cli_tune_options *o, const cli_target *t, const char *ename,
                      const char *eargs, const char *journal, cli_tune_db *d, char *err,
                      size_t errlen)
{
    if (!d->db)
        return 0;
    char searcher[512], evaluator[4400], journal_abs[PATH_MAX + 256];
    snprintf(searcher, sizeof searcher, "%s", o->searcher ? o->searcher : "bo");
    snprintf(evaluator, sizeof evaluator, "%s%s%s", ename, eargs ? ":" : "", eargs ? eargs : "");
    absolute(journal, journal_abs, sizeof journal_abs);
    cutune_db_run_info info = {.searcher = searcher,
                               .evaluator = evaluator,
                               .seed = o->seed,
                               .journal = journal_abs,
                               .source = "tune"};
    int rc;
    if ((rc = cutune_db_run_begin(d->db, &d->key, &info, &d->run, err, errlen)) < 0 ||
        (rc = cutune_db_store_alloc(d->run, t->space, !o->remeasure, &d->store, err, errlen)) < 0) {
        cli_tune_db_end(d);
        return rc;
    }
    return 0;
}

int cli_tune_db_begin(const cli_tune_options *o, const cli_target *t, const char *ename,
                      const char *eargs, cutune_evaluator *ev, const char *journal, cli_tune_db *d,
                      char *err, size_t errlen)
{
    int rc = cli_tune_db_open(o, t, ename, eargs, ev, d, err, errlen);
    return rc < 0 ? rc : cli_tune_db_start(o, t, ename, eargs, journal, d, err, errlen);
}

void cli_tune_db_end(cli_tune_db *d)
{
    cutune_db_store_free(d->store);
    cutune_db_run_end(d->run);
    cutune_db_close(d->db);
    memset(d, 0, sizeof *d);
}

/* As cmd_tune.c asks: a usable CUDA device (dlopen, never link). */
static int gpu_here(void)
{
    cutune_db_gpu g;
    return cutune_db_gpu_probe(0, &g, NULL, 0) == 0;
}

int cli_db_target_key(const cli_target *t, const char *evaluator, const char *devices,
                      cutune_db_key *key, char *err, size_t errlen)
{
    char ename[64] = "";
    const char *arg = NULL, *shipped = NULL;
    if (t->spec && !t->rec) { /* the recording at the spec's sizes (spec "recordings") */
        int rc = cli_spec_recording(t->spec, &shipped, err, errlen);
        if (rc < 0 && !evaluator && !gpu_here())
            return rc;
    }
    if (evaluator) {
        const char *colon = strchr(evaluator, ':');
        size_t n = colon ? (size_t)(colon - evaluator) : strlen(evaluator);
        if (n >= sizeof ename)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "--evaluator: name too long");
        memcpy(ename, evaluator, n);
        ename[n] = '\0';
        arg = colon ? colon + 1 : NULL;
        if (!cutune_evaluator_find(ename, err, errlen))
            return CUTUNE_EINVAL; /* an unknown name is a typo, not a kernel never measured */
    } else if (t->rec) {
        snprintf(ename, sizeof ename, "replay");
    } else if (gpu_here()) {
        snprintf(ename, sizeof ename, "cuda");
    } else if (shipped) {
        snprintf(ename, sizeof ename, "replay");
    } else {
        return cutune_err(err, errlen, CUTUNE_ENODEV,
                          "%s: no CUDA GPU found and the kernel has no recording (give "
                          "--evaluator=replay:FILE for a recording's GPU)",
                          t->path);
    }
    if (strcmp(ename, "replay") == 0 && !arg)
        arg = t->rec ? t->path : shipped;
    if (devices) { /* tune's rules: a GPU of the cuda evaluator, all, ordinals or a name */
        if (strcmp(ename, "cuda") != 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--devices=%s: only the cuda evaluator runs on GPUs (this lookup: "
                              "%s)",
                              devices, ename);
        if (!*devices)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--devices=: needs all, GPU ordinals (0,2) or a GPU name");
        if (devices[strspn(devices, "0123456789,")] == '\0')
            for (const char *p = devices;; p++) { /* as the cuda evaluator reads a list */
                size_t n = strspn(p, "0123456789");
                if (n == 0 || n > 4 || atoi(p) > 4096)
                    return cutune_err(err, errlen, CUTUNE_EINVAL,
                                      "--devices=%s: not a list of GPU ordinals (0..4096, "
                                      "comma-separated)",
                                      devices);
                p += n;
                if (!*p)
                    break;
            }
    }
    cutune_db_gpu gpu;
    int rc = cli_db_fingerprint(ename, strcmp(ename, "replay") == 0 ? arg : NULL, t, NULL, devices,
                                &gpu, err, errlen);
    if (rc < 0)
        return rc;
    if (t->spec)
        return cutune_db_key_spec(t->spec, strcmp(ename, "cuda") == 0 ? arg : NULL, &gpu, key, err,
                                  errlen);
    return cutune_db_key_recording(t->rec, &gpu, key, err, errlen);
}
