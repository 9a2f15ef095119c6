/* The CUDA evaluator's arguments (--evaluator=cuda:key=value,...): each key read into the
 * evaluator's state with its default, checked and bounded; an unknown key, a value out of
 * range, an empty worker= or a key given twice is refused with a message listing the keys.
 * devices= alone may repeat, the last one winning: --devices and an MPI rank's own GPU are
 * appended to the user's arguments and take precedence over a devices= among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune_config.h"
#include "cuda_parent.h"

static const char *const arg_keys =
    "flush_l2, pipeline, threads, cache, cache_dir, timeout, max_time, max_reps, min_reps, "
    "ci, warmup, worker, arch, compiler, devices, energy_window, energy_batch";

static int parse_num(const char *key, const char *v, double lo, double hi, double *out, char *err,
                     size_t errlen)
{
    char *end;
    double d = strtod(v, &end);
    if (!cutune_is_decimal(v) || end == v || *end || !(d >= lo && d <= hi)) /* not 0x10, " 1" */
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--evaluator=cuda: %s=%s is not a number in [%g, %g]", key, v, lo, hi);
    *out = d;
    return 0;
}

/* Whether key is among the first n keys of the list seen before (a repeat would silently
 * override the first value). */
static int seen_before(char *const *seen, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(seen[i], key))
            return 1;
    return 0;
}

int cuda_parse_args(cuda_state *st, const char *arg, char *err, size_t errlen)
{
    st->flush_l2 = 0;
    st->pipeline = 1;
    st->use_cache = 1;
    st->threads = 0;
    st->timeout_s = 1.0;
    st->max_time_s = 1.0;
    st->max_reps = 100;
    st->min_reps = 10;
    st->ci = 0.01;
    st->warmup = 3;
    st->energy_window_s = -1; /* unset: from the metrics the run needs (alloc) */
    st->energy_batch = 1;
    if (!arg || !*arg)
        return 0;
    char *copy = strdup(arg);
    if (!copy)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0;
    char *save = NULL;
    int in_devices = 0; /* devices=0,2: the list goes on over commas */
    char *seen[32];     /* the distinct keys read so far (into copy) */
    size_t nseen = 0;
    for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *v = strchr(kv, '=');
        if (!v && in_devices && kv[strspn(kv, "0123456789")] == '\0' && *kv) {
            size_t l = strlen(st->devices);
            snprintf(st->devices + l, sizeof st->devices - l, ",%s", kv);
            continue;
        }
        in_devices = 0;
        if (!v) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--evaluator=cuda: '%s' is not key=value (keys: %s)", kv, arg_keys);
            break;
        }
        *v++ = '\0';
        if (!seen_before(seen, nseen, kv)) {
            seen[nseen++] = kv; /* every key is known (else refused): at most 17 */
        } else if (strcmp(kv, "devices") != 0) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL, "--evaluator=cuda: %s= given twice", kv);
            break;
        }
        double d = 0;
        if (!strcmp(kv, "worker")) {
            /* empty, it would mean cutune itself */
            if (!*v) {
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "--evaluator=cuda: worker= needs the path of an executable");
                break;
            }
            snprintf(st->worker, sizeof st->worker, "%s", v);
        } else if (!strcmp(kv, "devices")) {
            if (!*v) {
                rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                                "--evaluator=cuda: devices= needs all, ordinals or a GPU name");
                break;
            }
            snprintf(st->devices, sizeof st->devices, "%s", v);
            in_devices = 1;
        } else if (!strcmp(kv, "cache_dir")) {
            snprintf(st->cache_dir, sizeof st->cache_dir, "%s", v);
        } else if (!strcmp(kv, "flush_l2") || !strcmp(kv, "pipeline") || !strcmp(kv, "cache")) {
            if ((rc = parse_num(kv, v, 0, 1, &d, err, errlen)) < 0)
                break;
            *(kv[0] == 'f'   ? &st->flush_l2
              : kv[0] == 'p' ? &st->pipeline
                             : &st->use_cache) = (int)d;
        } else if (!strcmp(kv, "threads")) {
            if ((rc = parse_num(kv, v, 1, 256, &d, err, errlen)) < 0)
                break;
            st->threads = (long)d;
        } else if (!strcmp(kv, "timeout")) {
            if ((rc = parse_num(kv, v, 0.001, 3600, &st->timeout_s, err, errlen)) < 0)
                break;
        } else if (!strcmp(kv, "max_time")) {
            if ((rc = parse_num(kv, v, 0, 3600, &st->max_time_s, err, errlen)) < 0)
                break;
        } else if (!strcmp(kv, "energy_window")) {
            if ((rc = parse_num(kv, v, 0, 60, &st->energy_window_s, err, errlen)) < 0)
                break;
        } else if (!strcmp(kv, "energy_batch")) {
            if ((rc = parse_num(kv, v, 0, 1, &d, err, errlen)) < 0)
                break;
            st->energy_batch = (int)d;
        } else if (!strcmp(kv, "ci")) {
            if ((rc = parse_num(kv, v, 0, 1, &st->ci, err, errlen)) < 0)
                break;
        } else if (!strcmp(kv, "max_reps") || !strcmp(kv, "min_reps") || !strcmp(kv, "warmup")) {
            if ((rc = parse_num(kv, v, kv[0] == 'w' ? 0 : 1, 100000, &d, err, errlen)) < 0)
                break;
            *(kv[1] == 'a' ? &st->max_reps : kv[1] == 'i' ? &st->min_reps : &st->warmup) = (int)d;
        } else if (!strcmp(kv, "compiler")) {
            /* nvrtc (default), nvcc (on PATH) or the path of an nvcc */
            if (!strcmp(v, "nvrtc")) {
                st->nvcc[0] = '\0';
            } else if (cutune_cuda_find_exe(v, st->nvcc, sizeof st->nvcc) < 0) {
                rc = cutune_err(err, errlen, CUTUNE_EINVAL, "--evaluator=cuda: compiler=%s: %s", v,
                                strchr(v, '/') ? "not an executable file"
                                               : "not found on PATH (nvrtc, nvcc or a path)");
                break;
            }
        } else if (!strcmp(kv, "arch")) {
            if ((rc = parse_num(kv, v, 10, 999, &d, err, errlen)) < 0)
                break;
            st->arch = (int)d;
        } else {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--evaluator=cuda: unknown key '%s' (keys: %s)", kv, arg_keys);
            break;
        }
    }
    free(copy);
    if (rc == 0 && st->min_reps > st->max_reps)
        st->min_reps = st->max_reps;
    return rc;
}
