/* Recorded measurements: Kernel Tuner caches (plain or gzip) and cutune
 * journals, loaded into one in-memory form; spaces built from them and maps
 * from a space onto them.
 *
 * This file holds the in-memory form itself: its indexes (a hash table of each
 * parameter's values, one of the recorded configurations), its lifetime, the load entry
 * points (gunzip, then a journal or a cache) and the spaces and maps built on it. The
 * readers of the two formats are kt_load.c and journal_load.c; recording_parse.c holds
 * what they share (io_internal.h lists it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/recording.h"
#include "io_internal.h"

/* ------------------------------------------------------------------ hashing */

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_value(const cutune_value *v)
{
    if (v->type == CUTUNE_VALUE_STRING) {
        uint64_t h = 1469598103934665603ULL;
        for (const unsigned char *p = (const unsigned char *)v->s; *p; p++)
            h = (h ^ *p) * 1099511628211ULL;
        return mix64(h ^ 0x5bd1e995ULL);
    }
    /* Numbers hash by their double so that 1 and 1.0 meet. */
    double d = cutune_value_as_double(v);
    if (d == 0)
        d = 0; /* -0.0 and 0.0 */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return mix64(bits);
}

static int value_equal(const cutune_value *a, const cutune_value *b)
{
    int as = a->type == CUTUNE_VALUE_STRING, bs = b->type == CUTUNE_VALUE_STRING;
    if (as || bs)
        return as && bs && strcmp(a->s, b->s) == 0;
    if (a->type == CUTUNE_VALUE_INT && b->type == CUTUNE_VALUE_INT)
        return a->i == b->i;
    return cutune_value_as_double(a) == cutune_value_as_double(b);
}

static size_t table_slots(size_t n)
{
    size_t slots = 16;
    while (slots < 2 * n + 1)
        slots *= 2;
    return slots;
}

/* dup: the index of the first value equal to an earlier one (-1: none); equal values would
 * make two configurations of one. */
int recording_value_hash_build(value_hash *h, const cutune_value *values, size_t n, long *dup_at)
{
    *dup_at = -1;
    size_t slots = table_slots(n);
    h->slot = malloc(slots * sizeof *h->slot);
    if (!h->slot)
        return CUTUNE_ENOMEM;
    memset(h->slot, 0xff, slots * sizeof *h->slot);
    h->mask = slots - 1;
    for (size_t i = 0; i < n; i++) {
        size_t s = hash_value(&values[i]) & h->mask;
        int dup = 0;
        while (h->slot[s] >= 0) {
            if (value_equal(&values[h->slot[s]], &values[i]) && !dup) {
                dup = 1; /* first of equal values wins */
                if (*dup_at < 0)
                    *dup_at = (long)i;
            }
            s = (s + 1) & h->mask;
        }
        if (!dup)
            h->slot[s] = (int32_t)i;
    }
    return 0;
}

long recording_value_hash_find(const value_hash *h, const cutune_value *values,
                               const cutune_value *v)
{
    size_t s = hash_value(v) & h->mask;
    while (h->slot[s] >= 0) {
        if (value_equal(&values[h->slot[s]], v))
            return h->slot[s];
        s = (s + 1) & h->mask;
    }
    return -1;
}

static uint64_t hash_idx(const uint16_t *idx, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t p = 0; p < n; p++)
        h = (h ^ idx[p]) * 1099511628211ULL;
    return mix64(h);
}

static long record_set_find(const recording_impl *ri, const uint16_t *idx)
{
    size_t np = ri->pub.nparams;
    if (!ri->set)
        return -1;
    size_t s = hash_idx(idx, np) & ri->set_mask;
    while (ri->set[s] >= 0) {
        if (memcmp(ri->pub.records[ri->set[s]].idx, idx, np * sizeof *idx) == 0)
            return ri->set[s];
        s = (s + 1) & ri->set_mask;
    }
    return -1;
}

static int record_set_build(recording_impl *ri)
{
    size_t np = ri->pub.nparams, slots = table_slots(ri->pub.nrecords);
    ri->set = malloc(slots * sizeof *ri->set);
    if (!ri->set)
        return CUTUNE_ENOMEM;
    memset(ri->set, 0xff, slots * sizeof *ri->set);
    ri->set_mask = slots - 1;
    for (size_t r = 0; r < ri->pub.nrecords; r++) {
        const uint16_t *idx = ri->pub.records[r].idx;
        size_t s = hash_idx(idx, np) & ri->set_mask;
        int dup = 0;
        while (ri->set[s] >= 0) {
            if (memcmp(ri->pub.records[ri->set[s]].idx, idx, np * sizeof *idx) == 0) {
                dup = 1; /* a configuration recorded twice: the first counts */
                break;
            }
            s = (s + 1) & ri->set_mask;
        }
        if (!dup)
            ri->set[s] = (int32_t)r;
    }
    return 0;
}

long recording_find_value(const recording_impl *ri, size_t p, const cutune_value *v)
{
    return recording_value_hash_find(&ri->vh[p], ri->pub.values[p], v);
}

/* ----------------------------------------------------------- lifetime */

void cutune_recording_free(cutune_recording *r)
{
    if (!r)
        return;
    recording_impl *ri = (recording_impl *)r;
    for (size_t p = 0; p < r->nparams; p++) {
        if (r->texts && r->texts[p])
            for (size_t v = 0; v < r->nvalues[p]; v++)
                free(r->texts[p][v]);
        if (r->texts)
            free(r->texts[p]);
        if (r->values)
            free(r->values[p]);
        if (r->param_names)
            free(r->param_names[p]);
        if (ri->vh)
            free(ri->vh[p].slot);
    }
    for (size_t i = 0; i < r->nrecords; i++) {
        free(r->records[i].times_ms);
        free(r->records[i].metrics);
    }
    free(r->objective);
    free(r->subject_to);
    free(r->records);
    free(ri->idx_pool);
    free(ri->vh);
    free(ri->set);
    free(r->texts);
    free(r->bools);
    free(r->values);
    free(r->nvalues);
    free(r->param_names);
    free(r->path);
    free(r->format);
    free(r->device_name);
    free(r->kernel_name);
    free(r->spec_name);
    free(r->spec_hash);
    for (size_t i = 0; i < r->nsizes; i++)
        free(r->size_names[i]);
    free(r->size_names);
    free(r->size_values);
    free(r->space_hash);
    free(r->searcher);
    free(r->evaluator);
    free(r->searcher_args);
    free(r->warm_start);
    free(r->warm_start_hash);
    free(r->gpu);
    free(r->evaluator_arg);
    free(r->target);
    free(r->problem_size);
    free(ri);
}

/* ------------------------------------------------------------ loading */

/* A recording holds each configuration once: a Kernel Tuner cache is a dict keyed by it,
 * and a run evaluates a configuration once. Two records of one configuration (keys that
 * print a value differently, "1,2" and "1.0,2"; two runs' lines in one journal) would give
 * a replay, and a resume, whichever came first. */
static int check_unique(const recording_impl *ri, const char *file, char *err, size_t errlen)
{
    const cutune_recording *r = &ri->pub;
    int kt = r->format && strcmp(r->format, "kernel_tuner") == 0;
    for (size_t i = 0; i < r->nrecords; i++) {
        long first = record_set_find(ri, r->records[i].idx);
        if (first == (long)i)
            continue;
        char cfg[256];
        size_t n = 0;
        cfg[0] = '\0';
        for (size_t p = 0; p < r->nparams && n < sizeof cfg; p++) {
            int w = snprintf(cfg + n, sizeof cfg - n, "%s%s=%s", p ? ", " : "", r->param_names[p],
                             r->texts[p][r->records[i].idx[p]]);
            n += w > 0 ? (size_t)w : 0;
        }
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: %s %ld and %zu are one configuration (%s): a configuration is "
                          "recorded once",
                          file, kt ? "cache: entries" : "evaluations", first + 1, i + 1, cfg);
    }
    return 0;
}

int cutune_recording_load_buffer(const char *name, const char *data, size_t len,
                                 cutune_recording **out, char *err, size_t errlen)
{
    int rc = 0;
    char *plain = NULL;
    recording_impl *ri = NULL;

    *out = NULL;
    if (!name)
        name = "(buffer)";
    if (!data)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: no data", name);
    if (cutune_io_is_gzip(data, len)) {
        size_t plen;
        if ((rc = cutune_io_gunzip(name, data, len, &plain, &plen, err, errlen)) < 0)
            return rc;
        data = plain;
        len = plen;
    }
    ri = calloc(1, sizeof *ri);
    if (!ri || !(ri->pub.path = strdup(name))) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
        goto out_free;
    }
    char kind[32];
    int has_kind = recording_first_kind(data, len, kind, sizeof kind);
    if (has_kind && strcmp(kind, "header") == 0)
        rc = recording_load_journal(ri, name, data, len, err, errlen);
    else if (has_kind) /* a journal without its header, not a cache: say so */
        rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                        "%s:1: a cutune journal without its header line (the first line is an "
                        "\"%s\" record; a journal starts with its {\"kind\":\"header\",...} "
                        "line)",
                        name, kind);
    else
        rc = recording_load_kt(ri, name, data, len, err, errlen);
    if (rc < 0)
        goto out_free;
    if (record_set_build(ri) < 0) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", name);
        goto out_free;
    }
    if ((rc = check_unique(ri, name, err, errlen)) < 0)
        goto out_free;
    *out = &ri->pub;
    ri = NULL;
out_free:
    cutune_recording_free(ri ? &ri->pub : NULL);
    free(plain);
    return rc;
}

int cutune_recording_load(const char *path, cutune_recording **out, char *err, size_t errlen)
{
    char *data;
    size_t len;
    *out = NULL;
    if (!path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording path given");
    int rc = cutune_read_file(path, &data, &len, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_recording_load_buffer(path, data, len, out, err, errlen);
    free(data);
    return rc;
}

/* ------------------------------------------------------ spaces and maps */

static int recorded_filter(void *ctx, const uint16_t *idx)
{
    return record_set_find(ctx, idx) >= 0;
}

int cutune_recording_space(const cutune_recording *r, const char *const *restrictions, size_t n,
                           int recorded_only, cutune_space **out, char *err, size_t errlen)
{
    int rc = 0;
    cutune_space *s = NULL;

    *out = NULL;
    if (!r)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording");
    if (recorded_only && n == 0 && r->nrecords == 0) /* not "the filter excludes all" */
        return cutune_err(err, errlen, CUTUNE_EEMPTY,
                          "the recording holds no configurations (its measurements are empty; "
                          "--cartesian gives its parameters' whole product)");
    s = cutune_space_alloc();
    if (!s)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    for (size_t p = 0; p < r->nparams; p++)
        if ((rc = cutune_space_add_param(s, r->param_names[p], r->values[p], r->nvalues[p], err,
                                         errlen)) < 0)
            goto out_free_space;
    for (size_t i = 0; i < n; i++)
        if ((rc = cutune_space_add_restriction(s, restrictions[i], err, errlen)) < 0)
            goto out_free_space;
    /* The space keeps a pointer to the recording's set: the recording must outlive it. */
    if (n == 0 && recorded_only)
        cutune_space_set_filter(s, recorded_filter, (void *)(uintptr_t)r);
    if ((rc = cutune_space_enumerate(s, err, errlen)) < 0)
        goto out_free_space;
    *out = s;
    s = NULL;
out_free_space:
    cutune_space_free(s);
    return rc;
}

/* Index in recording parameter rp of the space's value v (text first, then number). */
static long map_value(const recording_impl *ri, size_t rp, const cutune_param *sp, size_t v)
{
    const cutune_recording *r = &ri->pub;
    long k = recording_find_value(ri, rp, &sp->values[v]);
    if (k >= 0)
        return k;
    for (size_t i = 0; i < r->nvalues[rp]; i++)
        if (strcmp(r->texts[rp][i], sp->texts[v]) == 0)
            return (long)i;
    return -1;
}

int cutune_recording_map(const cutune_recording *r, const cutune_space *s, long *out, char *err,
                         size_t errlen)
{
    const recording_impl *ri = (const recording_impl *)r;
    int rc = 0;
    size_t snp, size;
    long **trans = NULL; /* per space parameter: space value -> recording index */
    long *rpar = NULL;   /* recording parameter -> space parameter, or -1 */
    uint16_t *idx = NULL;

    if (!r || !s || !out)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no recording, space or output");
    snp = cutune_space_nparams(s);
    size = cutune_space_size(s);
    trans = calloc(snp ? snp : 1, sizeof *trans);
    rpar = malloc((r->nparams ? r->nparams : 1) * sizeof *rpar);
    idx = calloc(r->nparams ? r->nparams : 1, sizeof *idx);
    if (!trans || !rpar || !idx) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out_free;
    }
    for (size_t rp = 0; rp < r->nparams; rp++)
        rpar[rp] = -1;
    for (size_t sp = 0; sp < snp; sp++) {
        const cutune_param *par = cutune_space_param(s, sp);
        size_t rp = 0;
        while (rp < r->nparams && strcmp(r->param_names[rp], par->name) != 0)
            rp++;
        if (rp == r->nparams) {
            rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                            "%s: the space's parameter '%s' is not in the recording", r->path,
                            par->name);
            goto out_free;
        }
        rpar[rp] = (long)sp;
        trans[sp] = malloc((par->nvalues ? par->nvalues : 1) * sizeof **trans);
        if (!trans[sp]) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            goto out_free;
        }
        for (size_t v = 0; v < par->nvalues; v++)
            trans[sp][v] = map_value(ri, rp, par, v);
    }
    for (size_t rp = 0; rp < r->nparams; rp++) {
        if (rpar[rp] >= 0)
            continue;
        if (r->nvalues[rp] != 1) {
            rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                            "%s: the recording's parameter '%s' has %zu values but is not in "
                            "the space",
                            r->path, r->param_names[rp], r->nvalues[rp]);
            goto out_free;
        }
        idx[rp] = 0;
    }
    for (size_t id = 0; id < size; id++) {
        const uint16_t *cfg = cutune_space_config(s, id);
        long found = 0;
        for (size_t rp = 0; rp < r->nparams && found >= 0; rp++) {
            if (rpar[rp] < 0)
                continue;
            found = trans[rpar[rp]][cfg[rpar[rp]]];
            if (found >= 0)
                idx[rp] = (uint16_t)found;
        }
        out[id] = found >= 0 ? record_set_find(ri, idx) : -1;
    }
out_free:
    if (trans)
        for (size_t sp = 0; sp < snp; sp++)
            free(trans[sp]);
    free(trans);
    free(rpar);
    free(idx);
    return rc;
}

int cutune_recording_table(const cutune_recording *r, const cutune_space *s, double *time_ms_out,
                           char *err, size_t errlen)
{
    size_t size = s ? cutune_space_size(s) : 0;
    long *map = malloc((size ? size : 1) * sizeof *map);
    if (!map)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = cutune_recording_map(r, s, map, err, errlen);
    if (rc == 0)
        for (size_t id = 0; id < size; id++)
            time_ms_out[id] = map[id] >= 0 && r->records[map[id]].status == CUTUNE_STATUS_OK
                                  ? r->records[map[id]].time_ms
                                  : NAN;
    free(map);
    return rc;
}
