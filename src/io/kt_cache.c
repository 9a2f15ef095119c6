/*
 * Kernel Tuner cache files as Kernel Tuner reads them (its util.py: correct_open_cache,
 * read_cache), for the loader in kt_load.c: a cache Kernel Tuner left unterminated, and
 * a cache tuned for an objective that is not time.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io_internal.h"

/* What Python's str.strip() removes from either end (ASCII: isspace and \x1c-\x1f). */
static int py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

int cutune_io_kt_close(const char *text, size_t len, char **out, size_t *outlen)
{
    size_t b = 0, e = len;
    *out = NULL;
    *outlen = 0;
    while (b < e && py_space((unsigned char)text[b]))
        b++;
    while (e > b && py_space((unsigned char)text[e - 1]))
        e--;
    if (e == b)
        return 0;
    /* closed: Kernel Tuner's "}\n}", or a compact writer's "}}}" */
    if (e - b >= 3 && (memcmp(text + e - 3, "}\n}", 3) == 0 || memcmp(text + e - 3, "}}}", 3) == 0))
        return 0;
    if (text[e - 1] == ',') /* the comma after the last entry it wrote */
        e--;
    if (e == b)
        return 0;
    size_t n = e - b;
    char *o = malloc(n + 4);
    if (!o)
        return CUTUNE_ENOMEM;
    memcpy(o, text + b, n);
    memcpy(o + n, "}\n}", 4); /* with its NUL */
    *out = o;
    *outlen = n + 3;
    return 1;
}

/* Whether a Kernel Tuner objective named name is one to maximise when the cache does not
 * say ("objective_higher_is_better"): a rate per second, joule or watt ("GFLOP/s",
 * "GB/s", "TFLOPS/J", "GFLOP/W") or a FLOPS count. */
static int kt_name_maximised(const char *name)
{
    size_t n = strlen(name);
    static const char *const rates[] = {"/s", "/J", "/W"};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (strstr(name, rates[i]))
            return 1;
    for (size_t i = 0; i + 5 <= n; i++)
        if (!strncasecmp(name + i, "flops", 5))
            return 1;
    return 0;
}

int cutune_io_kt_objective(const cJSON *root, const char *file, char **objective, int *maximize,
                           char *err, size_t errlen)
{
    *objective = NULL;
    *maximize = 0;
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "objective");
    /* the direction has its type whatever the objective; null says nothing */
    const cJSON *hb = cJSON_GetObjectItemCaseSensitive(root, "objective_higher_is_better");
    if (cJSON_IsNull(hb))
        hb = NULL;
    if (hb && !cJSON_IsBool(hb))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: objective_higher_is_better: expected true or false", file);
    if (o && !cJSON_IsNull(o) && !cJSON_IsString(o))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: objective: expected a string (what the cache was tuned for)", file);
    /* older caches (no objective) and "time": a time, minimised; a cache that says it
     * maximised its times is not replayed the other way */
    if (!o || cJSON_IsNull(o) || strcmp(o->valuestring, "time") == 0) {
        if (cJSON_IsTrue(hb))
            return cutune_err(err, errlen, CUTUNE_EPARSE,
                              "%s: objective_higher_is_better: true, but the objective is time "
                              "(cutune replays a time as the lower the better)",
                              file);
        return 0;
    }
    if (strlen(o->valuestring) >= 32)
        return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                          "%s: objective: '%.64s...' is longer than a metric name may be (31 "
                          "bytes)",
                          file, o->valuestring);
    *maximize = hb ? cJSON_IsTrue(hb) : kt_name_maximised(o->valuestring);
    *objective = strdup(o->valuestring);
    if (!*objective)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", file);
    return 0;
}
