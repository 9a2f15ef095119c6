/* A journal's profiles: JOURNAL.profile/profile.json, which `cutune profile` writes and
 * the report reads:
 *   {"status":"ok"|LINE,"journal":PATH,"entries":[{"role":"best 1","n":N,"config":TEXT,
 *    "csv":FILE,"metrics":[{"name":NCU_METRIC,"unit":UNIT,"value":X|null}, ...]}, ...]} */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/report.h"
#include "src/io/io_internal.h"

int cutune_report_profile_dir(const char *journal, char *buf, size_t len)
{
    size_t n = strlen(journal);
    static const char *const suffixes[] = {".jsonl.gz", ".jsonl", ".gz"};
    for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++) {
        size_t k = strlen(suffixes[s]);
        if (n > k && strcmp(journal + n - k, suffixes[s]) == 0) {
            n -= k;
            break;
        }
    }
    int w = snprintf(buf, len, "%.*s.profile", (int)n, journal);
    return w < 0 || (size_t)w >= len ? CUTUNE_EINVAL : 0;
}

void cutune_report_profile_free(cutune_report_profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nentries; i++)
        cutune_report_profile_entry_clear(&p->entries[i]);
    free(p->entries);
    free(p->path);
    free(p->status);
    free(p);
}

static int load_entry(const cJSON *j, cutune_report_profile_entry *e, const char *file, size_t k,
                      char *err, size_t errlen)
{
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(j, "role");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "n");
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(j, "config");
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(j, "metrics");
    if (!cJSON_IsString(role) || !cJSON_IsNumber(n) || !cJSON_IsString(config) ||
        !cJSON_IsArray(metrics))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: entries[%zu]: needs role, n, config and metrics", file, k);
    e->role = strdup(role->valuestring);
    e->config = strdup(config->valuestring);
    e->n = n->valuedouble >= 0 && n->valuedouble < 1e18 ? (size_t)n->valuedouble : 0;
    size_t nm = (size_t)cJSON_GetArraySize(metrics);
    e->names = calloc(nm ? nm : 1, sizeof *e->names);
    e->units = calloc(nm ? nm : 1, sizeof *e->units);
    e->values = calloc(nm ? nm : 1, sizeof *e->values);
    if (!e->role || !e->config || !e->names || !e->units || !e->values)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    const cJSON *m;
    cJSON_ArrayForEach(m, metrics)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name");
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(m, "unit");
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(m, "value");
        if (!cJSON_IsString(name))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s: entries[%zu].metrics[%zu].name: missing", file, k, e->nvalues);
        size_t i = e->nvalues;
        e->names[i] = strdup(name->valuestring);
        e->units[i] = strdup(cJSON_IsString(unit) ? unit->valuestring : "");
        e->values[i] = cJSON_IsNumber(value) ? value->valuedouble : NAN;
        e->nvalues++;
        if (!e->names[i] || !e->units[i])
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    return 0;
}

int cutune_report_profile_load(const char *dir, cutune_report_profile **out, char *err,
                               size_t errlen)
{
    *out = NULL;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/profile.json", dir) >= (int)sizeof path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", dir);
    FILE *probe = fopen(path, "r");
    if (!probe)
        return CUTUNE_ENOTFOUND;
    fclose(probe);
    char *text = NULL;
    size_t len = 0;
    int rc = cutune_read_file(path, &text, &len, err, errlen);
    if (rc < 0)
        return rc;
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!j)
        return cutune_err(err, errlen, CUTUNE_EPARSE, "%s: not JSON", path);
    cutune_report_profile *p = calloc(1, sizeof *p);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(j, "entries");
    if (!p) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    if (!cJSON_IsString(status) || !cJSON_IsArray(entries)) {
        rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s: needs \"status\" and \"entries\"", path);
        goto out;
    }
    p->path = strdup(path);
    p->status = strdup(status->valuestring);
    size_t ne = (size_t)cJSON_GetArraySize(entries);
    p->entries = calloc(ne ? ne : 1, sizeof *p->entries);
    if (!p->path || !p->status || !p->entries) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        rc = load_entry(e, &p->entries[p->nentries], path, p->nentries, err, errlen);
        p->nentries++;
        if (rc < 0)
            goto out;
    }
    *out = p;
    p = NULL;
out:
    cutune_report_profile_free(p);
    cJSON_Delete(j);
    return rc;
}

int cutune_report_profile_save(const char *dir, const cutune_report_profile *p, char *err,
                               size_t errlen)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/profile.json", dir) >= (int)sizeof path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: path too long", dir);
    cJSON *j = cJSON_CreateObject();
    cJSON *entries = cJSON_CreateArray();
    int rc = CUTUNE_ENOMEM;
    if (!j || !entries || !cJSON_AddStringToObject(j, "status", p->status)) {
        cJSON_Delete(entries);
        goto out;
    }
    cJSON_AddItemToObject(j, "entries", entries);
    for (size_t i = 0; i < p->nentries; i++) {
        const cutune_report_profile_entry *e = &p->entries[i];
        cJSON *o = cJSON_CreateObject(), *ms = cJSON_CreateArray();
        if (!o || !ms) {
            cJSON_Delete(o);
            cJSON_Delete(ms);
            goto out;
        }
        cJSON_AddItemToArray(entries, o);
        cJSON_AddItemToObject(o, "metrics", ms);
        if (!cJSON_AddStringToObject(o, "role", e->role) ||
            !cJSON_AddNumberToObject(o, "n", (double)e->n) ||
            !cJSON_AddStringToObject(o, "config", e->config))
            goto out;
        for (size_t k = 0; k < e->nvalues; k++) {
            cJSON *m = cJSON_CreateObject();
            if (!m)
                goto out;
            cJSON_AddItemToArray(ms, m);
            if (!cJSON_AddStringToObject(m, "name", e->names[k]) ||
                !cJSON_AddStringToObject(m, "unit", e->units[k]) ||
                !(isfinite(e->values[k]) ? cJSON_AddNumberToObject(m, "value", e->values[k])
                                         : cJSON_AddNullToObject(m, "value")))
                goto out;
        }
    }
    char *text = cJSON_Print(j);
    if (!text)
        goto out;
    size_t len = strlen(text);
    char *nl = realloc(text, len + 2);
    if (!nl) {
        free(text);
        goto out;
    }
    nl[len] = '\n';
    nl[len + 1] = '\0';
    rc = cutune_io_write_atomic(path, nl, len + 1, err, errlen);
    free(nl);
    cJSON_Delete(j);
    return rc;
out:
    cJSON_Delete(j);
    return cutune_err(err, errlen, rc, "out of memory");
}
