/*
 * Kernel Tuner cache files as Kernel Tuner reads them (its util.py: correct_open_cache,
 * read_cache), for the loader in kt_load.c: a cache Kernel Tuner left unterminated, and
 * a cache tuned for an objective that is not time.
 */
#include <stdlib.h>
#include <string.h>

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

int cutune_io_kt_objective(const cJSON *root, const char *file, char *err, size_t errlen)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "objective");
    if (!o || cJSON_IsNull(o)) /* older caches: time */
        return 0;
    if (!cJSON_IsString(o))
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s: objective: expected a string (what the cache was tuned for)", file);
    if (strcmp(o->valuestring, "time") == 0)
        return 0;
    return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED,
                      "%s: objective: the cache was tuned for '%.64s', not time: cutune replays "
                      "its entries' \"time\", minimised (its one objective), which is not what "
                      "this cache ranks by; not read",
                      file, o->valuestring);
}
