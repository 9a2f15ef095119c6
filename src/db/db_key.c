/* The database's keys: what a spec's or a recording's evaluations are stored as, and
 * configurations as text (JSON objects in parameter order, the journal's "config"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/recording.h"
#include "cutune/space.h"
#include "cutune/spec.h"
#include "db_internal.h"
#include "src/io/io_internal.h"

void cutune_db_gpu_from_name(const char *device_name, cutune_db_gpu *g)
{
    memset(g, 0, sizeof *g);
    const char *n = device_name && *device_name ? device_name : "unknown";
    snprintf(g->fingerprint, sizeof g->fingerprint, "%s", n);
    snprintf(g->name, sizeof g->name, "%s", n);
}

void cutune_db_gpu_from_recording(const cutune_recording *rec, cutune_db_gpu *g)
{
    cutune_db_gpu_from_name(rec->device_name, g);
    /* A recorded device name does not tell recordings apart (Kernel Tuner writes the host's
     * architecture, "x86_64", for some): the measurements themselves do, so that replaying
     * one recording never answers from another's rows. */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t r = 0; r < rec->nrecords; r++) {
        const cutune_record *x = &rec->records[r];
        for (size_t p = 0; p < rec->nparams; p++) {
            const char *t = rec->texts[p][x->idx[p]];
            h = cutune_fnv1a(h, t, strlen(t) + 1);
        }
        char m[40];
        int n = snprintf(m, sizeof m, "%d %.17g\n", (int)x->status,
                         x->status == CUTUNE_STATUS_OK ? x->time_ms : 0.0);
        h = cutune_fnv1a(h, m, (size_t)n);
    }
    char n[sizeof g->name];
    snprintf(n, sizeof n, "%s", g->name);
    snprintf(g->fingerprint, sizeof g->fingerprint, "%s|recording %016llx", n,
             (unsigned long long)h);
}

/* Print a cJSON tree into buf (len bytes); CUTUNE_EINVAL when it does not fit. */
static int print_into(cJSON *o, char *buf, size_t len, const char *what, char *err, size_t errlen)
{
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!text)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0;
    if (strlen(text) >= len)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "the %s of this run take %zu bytes; the database keeps at most %zu", what,
                        strlen(text), len - 1);
    else
        memcpy(buf, text, strlen(text) + 1);
    free(text);
    return rc;
}

/* Is the evaluator argument about where it runs, not about what is compiled? */
static int where_not_what(const char *kv, size_t n)
{
    return (n >= 8 && strncmp(kv, "devices=", 8) == 0) ||
           (n >= 7 && strncmp(kv, "device=", 7) == 0);
}

int cutune_db_key_spec(const cutune_spec *spec, const char *evaluator_args,
                       const cutune_db_gpu *gpu, cutune_db_key *key, char *err, size_t errlen)
{
    memset(key, 0, sizeof *key);
    if (snprintf(key->kernel, sizeof key->kernel, "%s", spec->name) >= (int)sizeof key->kernel)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: kernel name too long for the database",
                          spec->path);
    snprintf(key->kernel_hash, sizeof key->kernel_hash, "%s", spec->kernel_hash);
    key->gpu = *gpu;
    cJSON *sizes = cJSON_CreateObject();
    for (size_t c = 0; sizes && c < spec->nsizes; c++) {
        cutune_value v = cutune_space_constant_value(spec->space, c);
        if (cutune_io_add(sizes, cutune_space_constant_name(spec->space, c),
                          cutune_io_value_json(&v)) < 0) {
            cJSON_Delete(sizes);
            sizes = NULL;
        }
    }
    int rc = print_into(sizes, key->sizes, sizeof key->sizes, "sizes", err, errlen);
    if (rc < 0)
        return rc;
    cJSON *opts = cJSON_CreateArray();
    for (size_t i = 0; opts && i < spec->noptions; i++)
        if (!cJSON_AddItemToArray(opts, cJSON_CreateString(spec->options[i].text))) {
            cJSON_Delete(opts);
            opts = NULL;
        }
    for (const char *a = evaluator_args; opts && a && *a;) {
        size_t n = strcspn(a, ",");
        if (n && !where_not_what(a, n)) {
            char kv[1024];
            snprintf(kv, sizeof kv, "%.*s", (int)(n < sizeof kv ? n : sizeof kv - 1), a);
            if (!cJSON_AddItemToArray(opts, cJSON_CreateString(kv))) {
                cJSON_Delete(opts);
                opts = NULL;
            }
        }
        a += n + (a[n] == ',');
    }
    return print_into(opts, key->options, sizeof key->options, "compile options", err, errlen);
}

int cutune_db_key_recording(const cutune_recording *rec, const cutune_db_gpu *gpu,
                            cutune_db_key *key, char *err, size_t errlen)
{
    memset(key, 0, sizeof *key);
    const char *name = rec->kernel_name && *rec->kernel_name ? rec->kernel_name : NULL;
    char stem[256] = "";
    if (!name) {
        const char *base = strrchr(rec->path ? rec->path : "recording", '/');
        snprintf(stem, sizeof stem, "%s", base ? base + 1 : rec->path ? rec->path : "recording");
        stem[strcspn(stem, ".")] = '\0';
        name = stem;
    }
    snprintf(key->kernel, sizeof key->kernel, "%s", name);
    /* the parameters and their values, as the recording writes them */
    uint64_t h = 0xcbf29ce484222325ULL;
    const unsigned char sep = 0;
    for (size_t p = 0; p < rec->nparams; p++) {
        h = cutune_fnv1a(h, rec->param_names[p], strlen(rec->param_names[p]));
        for (size_t v = 0; v < rec->nvalues[p]; v++) {
            h = cutune_fnv1a(h, &sep, 1);
            h = cutune_fnv1a(h, rec->texts[p][v], strlen(rec->texts[p][v]));
        }
        h = cutune_fnv1a(h, "\n", 1);
    }
    snprintf(key->kernel_hash, sizeof key->kernel_hash, "%016llx", (unsigned long long)h);
    key->gpu = *gpu;
    cJSON *sizes = cJSON_CreateObject();
    for (size_t c = 0; sizes && c < rec->nsizes; c++)
        if (cutune_io_add(sizes, rec->size_names[c], cutune_io_number_json(rec->size_values[c])) <
            0) {
            cJSON_Delete(sizes);
            sizes = NULL;
        }
    int rc = print_into(sizes, key->sizes, sizeof key->sizes, "sizes", err, errlen);
    if (rc < 0)
        return rc;
    snprintf(key->options, sizeof key->options, "[]");
    return 0;
}

char *cutune_db_config_text(const cutune_space *s, size_t id)
{
    cJSON *o = cutune_io_config_json(s, id);
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    return text;
}

static int value_matches(const cutune_value *v, const cJSON *item)
{
    switch (v->type) {
    case CUTUNE_VALUE_STRING: return cJSON_IsString(item) && strcmp(item->valuestring, v->s) == 0;
    case CUTUNE_VALUE_INT: return cJSON_IsNumber(item) && item->valuedouble == (double)v->i;
    case CUTUNE_VALUE_REAL:
        if (!isfinite(v->r)) { /* written as its text in a string */
            char text[64];
            cutune_value_format(v, text, sizeof text);
            return cJSON_IsString(item) && strcmp(item->valuestring, text) == 0;
        }
        return cJSON_IsNumber(item) && item->valuedouble == v->r;
    }
    return 0;
}

long long cutune_db_config_id(const cutune_space *s, const char *config)
{
    cJSON *o = cJSON_Parse(config);
    size_t np = cutune_space_nparams(s);
    uint16_t *idx = calloc(np ? np : 1, sizeof *idx);
    long long id = -1;
    if (!o || !idx || !cJSON_IsObject(o) || (size_t)cJSON_GetArraySize(o) != np)
        goto out;
    for (size_t p = 0; p < np; p++) {
        const cutune_param *par = cutune_space_param(s, p);
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, par->name);
        size_t v = 0;
        while (item && v < par->nvalues && !value_matches(&par->values[v], item))
            v++;
        if (!item || v == par->nvalues)
            goto out;
        idx[p] = (uint16_t)v;
    }
    id = cutune_space_find(s, idx);
out:
    cJSON_Delete(o);
    free(idx);
    return id;
}
