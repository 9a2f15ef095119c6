/* NUL characters and repeated keys in JSON (json_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/common.h"
#include "json_check.h"

/* ---- paths ---- */

static int ident_like(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* Append to the path in buf (length *n): .key, ["key"] or [i]; cut short when full. */
static void path_push(char *buf, size_t len, size_t *n, const char *key, size_t index)
{
    char step[160];
    size_t k = 0;
    if (key && ident_like(key)) {
        k = (size_t)snprintf(step, sizeof step, "%s%.120s", *n ? "." : "", key);
    } else if (key) {
        step[k++] = '[';
        step[k++] = '"';
        for (const char *p = key; *p && k + 6 < sizeof step; p++) {
            unsigned char c = (unsigned char)*p;
            if (c == '"' || c == '\\')
                step[k++] = '\\';
            step[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
        step[k++] = '"';
        step[k++] = ']';
        step[k] = '\0';
    } else {
        k = (size_t)snprintf(step, sizeof step, "[%zu]", index);
    }
    if (k >= sizeof step)
        k = sizeof step - 1;
    if (len && *n + k < len) {
        memcpy(buf + *n, step, k + 1);
        *n += k;
    }
}

/* ---- NUL ---- */

/* The 1-based number, in document order, of the first string token (keys and values)
 * holding a raw NUL or a \u0000 escape; 0 when none. *raw_off: the offset of a raw NUL
 * outside any string (when the result is 0), else (size_t)-1. */
static size_t nul_string(const char *t, size_t len, size_t *raw_off)
{
    size_t nstr = 0;
    *raw_off = (size_t)-1;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '\0') {
            *raw_off = i;
            return 0;
        }
        if (t[i] != '"')
            continue;
        nstr++;
        for (i++; i < len && t[i] != '"'; i++) {
            if (t[i] == '\0')
                return nstr;
            if (t[i] != '\\')
                continue;
            if (i + 5 < len && t[i + 1] == 'u' && memcmp(t + i + 2, "0000", 4) == 0)
                return nstr;
            i++; /* the escaped character (\" does not end the string) */
        }
    }
    return 0;
}

/* Find the k-th string (document order) under node; fills the path. 1 when found. */
static int find_string(const cJSON *node, size_t *k, char *buf, size_t len, size_t *n, int *is_key)
{
    if (cJSON_IsString(node) && --*k == 0)
        return 1;
    size_t i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        size_t saved = *n;
        int member = cJSON_IsObject(node);
        if (member && c->string && --*k == 0) {
            *is_key = 1;
            return 1;
        }
        path_push(buf, len, n, member ? (c->string ? c->string : "?") : NULL, i);
        if (find_string(c, k, buf, len, n, is_key))
            return 1;
        *n = saved;
        if (len)
            buf[saved] = '\0';
    }
    return 0;
}

int cutune_json_check_nul(const char *text, size_t len, const cJSON *root, char *path, size_t plen,
                          int *is_key)
{
    size_t raw = (size_t)-1;
    size_t k = text ? nul_string(text, len, &raw) : 0;
    *is_key = 0;
    if (plen)
        path[0] = '\0';
    if (!k && raw == (size_t)-1)
        return 0;
    size_t n = 0;
    if (!k || !root || !find_string(root, &k, path, plen, &n, is_key)) {
        *is_key = -1;
        cutune_err(path, plen, 0, "byte %zu", raw != (size_t)-1 ? raw : 0);
    }
    return CUTUNE_EPARSE;
}

/* ---- repeated keys ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int check_keys(const cJSON *node, char *buf, size_t len, size_t *n, char *msg, size_t msglen)
{
    if (cJSON_IsObject(node) && node->child && node->child->next) {
        size_t m = 0;
        for (const cJSON *c = node->child; c; c = c->next)
            m++;
        const char *dup = NULL;
        if (m <= 16) {
            for (const cJSON *c = node->child; c && !dup; c = c->next)
                for (const cJSON *d = c->next; d && !dup; d = d->next)
                    if (c->string && d->string && strcmp(c->string, d->string) == 0)
                        dup = c->string;
        } else {
            const char **keys = malloc(m * sizeof *keys);
            if (!keys)
                return cutune_err(msg, msglen, CUTUNE_ENOMEM, "out of memory");
            m = 0;
            for (const cJSON *c = node->child; c; c = c->next)
                keys[m++] = c->string ? c->string : "";
            qsort(keys, m, sizeof *keys, cmp_str);
            for (size_t i = 1; i < m && !dup; i++)
                if (strcmp(keys[i - 1], keys[i]) == 0)
                    dup = keys[i];
            free(keys);
        }
        if (dup) {
            char shown[96];
            size_t k = 0;
            for (const char *p = dup; *p && k + 1 < sizeof shown; p++)
                shown[k++] = (unsigned char)*p < 0x20 ? '?' : *p;
            shown[k] = '\0';
            if (*n)
                return cutune_err(msg, msglen, CUTUNE_EPARSE,
                                  "%s: key \"%s\" given twice (a JSON reader keeps one of the "
                                  "two)",
                                  buf, shown);
            return cutune_err(msg, msglen, CUTUNE_EPARSE,
                              "key \"%s\" given twice at the top level (a JSON reader keeps one "
                              "of the two)",
                              shown);
        }
    }
    size_t i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        if (!c->child)
            continue;
        size_t saved = *n;
        path_push(buf, len, n, cJSON_IsObject(node) ? (c->string ? c->string : "?") : NULL, i);
        int rc = check_keys(c, buf, len, n, msg, msglen);
        if (rc < 0)
            return rc;
        *n = saved;
        buf[saved] = '\0';
    }
    return 0;
}

int cutune_json_check_keys(const cJSON *root, char *msg, size_t msglen)
{
    char path[512] = "";
    size_t n = 0;
    return root ? check_keys(root, path, sizeof path, &n, msg, msglen) : 0;
}
