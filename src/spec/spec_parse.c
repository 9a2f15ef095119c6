/*
 * What every reader of a spec field uses (the loader's toolkit): messages of the shape
 * "FILE:LINE: JSON.PATH: reason", the paths they name, number literals taken from the
 * text (cJSON keeps only doubles, but 1 and 1.0 differ, as do large integers), checks of
 * the JSON's shape, and expressions. Kept apart from the readers of the fields (spec_*.c)
 * so that each of those reads as what it checks, not as how it says so.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_path.h"
#include "spec_internal.h"

/* ------------------------------------------------------------------ messages */

/* The line of the root value (its first non-blank character; 0 without the text). */
static size_t root_line(const loader *L)
{
    size_t line = 1;
    for (size_t i = 0; L->text && i < L->textlen; i++) {
        if (L->text[i] == '\n')
            line++;
        else if (L->text[i] != ' ' && L->text[i] != '\t' && L->text[i] != '\r')
            return line;
    }
    return L->text ? 1 : 0;
}

/* The message "FILE:LINE: PATH: reason", the line where the file holds PATH's value (or
 * the deepest part of it that it holds, below the root); without the line where the
 * reason is not in the file (locate 0: a command-line value), the path was cut short,
 * or the file holds none of it. */
static int vfail_at(loader *L, int code, const char *path, const char *at, int locate,
                    const char *fmt, va_list ap)
{
    char reason[MSG_LEN];
    vsnprintf(reason, sizeof reason, fmt, ap);
    size_t line = 0, steps = 0, n = at ? strlen(at) : 0;
    if (locate && n && L->text && !(n >= 3 && strcmp(at + n - 3, "...") == 0)) {
        line = cutune_json_path_line(L->text, L->textlen, at, &steps);
        if (steps == 0) /* a top-level member the file lacks: the line of the root object */
            line = strchr(at, '.') || strchr(at, '[') ? 0 : root_line(L);
    }
    if (line && !(path && *path))
        return cutune_err(L->err, L->errlen, code, "%s:%zu: %s", L->file, line, reason);
    if (line)
        return cutune_err(L->err, L->errlen, code, "%s:%zu: %s: %s", L->file, line, path, reason);
    if (path && *path)
        return cutune_err(L->err, L->errlen, code, "%s: %s: %s", L->file, path, reason);
    return cutune_err(L->err, L->errlen, code, "%s: %s", L->file, reason);
}

static int vfail(loader *L, int code, const char *path, int locate, const char *fmt, va_list ap)
{
    return vfail_at(L, code, path, path, locate, fmt, ap);
}

int spec_fail(loader *L, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, code, path, 1, fmt, ap);
    va_end(ap);
    return rc;
}

/* spec_fail() about member key of the object at path: the message names path, the line is the
 * member's (an unknown or repeated field) */
int spec_fail_member(loader *L, int code, const char *path, const char *key, const char *fmt, ...)
{
    char at[MSG_LEN];
    spec_path_member(at, sizeof at, path, key);
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail_at(L, code, path, at, 1, fmt, ap);
    va_end(ap);
    return rc;
}

/* spec_fail() about a value given on the command line (--size): no line of the file */
int spec_fail_cmdline(loader *L, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, code, path, 0, fmt, ap);
    va_end(ap);
    return rc;
}

const char *spec_json_type_name(const cJSON *j)
{
    if (cJSON_IsNumber(j))
        return "a number";
    if (cJSON_IsString(j))
        return "a string";
    if (cJSON_IsArray(j))
        return "an array";
    if (cJSON_IsObject(j))
        return "an object";
    if (cJSON_IsBool(j))
        return "a boolean";
    if (cJSON_IsNull(j))
        return "null";
    return "an invalid value";
}

static int is_ident_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

int spec_is_ident(const char *s)
{
    if (!s || !is_ident_char(s[0], 1))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!is_ident_char(*p, 0))
            return 0;
    return 1;
}

/* A path cut short by a huge key still names the spot; "..." says it was cut. */
static void mark_truncated(char *buf, size_t len, int w)
{
    if (w >= 0 && (size_t)w < len)
        return;
    if (len > 4)
        memcpy(buf + len - 4, "...", 4);
}

/* parent.key, or parent["key"] when key is not an identifier (metric names like "GB/s"). */
void spec_path_member(char *buf, size_t len, const char *parent, const char *key)
{
    const char *dot = (parent && *parent) ? "." : "";
    int w;
    if (spec_is_ident(key))
        w = snprintf(buf, len, "%s%s%s", parent ? parent : "", dot, key);
    else
        w = snprintf(buf, len, "%s[\"%s\"]", parent ? parent : "", key);
    mark_truncated(buf, len, w);
}

void spec_path_index(char *buf, size_t len, const char *parent, size_t i)
{
    mark_truncated(buf, len, snprintf(buf, len, "%s[%zu]", parent, i));
}

/* "a, b, c" of a NULL-terminated list, truncated to fit. */
void spec_join_names(char *buf, size_t len, const char *const *names, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

char *spec_where(loader *L, const char *path)
{
    size_t steps = 0, line = L->text ? cutune_json_path_line(L->text, L->textlen, path, &steps) : 0;
    size_t n = strlen(L->file) + strlen(path) + 32;
    char *w = malloc(n);
    if (w && line && steps)
        snprintf(w, n, "%s:%zu: %s", L->file, line, path);
    else if (w)
        snprintf(w, n, "%s: %s", L->file, path);
    return w;
}

char *spec_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------------ number literals */

/*
 * cJSON stores every number as a double, but Python (and so Kernel Tuner's cache
 * keys) tells 1 from 1.0 by the literal, and a 64-bit integer above 2^53 loses digits
 * in a double. So the number literals are taken from the text: in a document cJSON
 * accepted, the k-th number token outside strings is the k-th number node in
 * document (pre-)order.
 */
static int is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

static size_t count_number_tokens(const char *t, size_t len, numtok *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (t[i] == '"') {
            for (i++; i < len && t[i] != '"'; i++)
                if (t[i] == '\\')
                    i++;
            i++;
        } else if (t[i] == '-' || (t[i] >= '0' && t[i] <= '9')) {
            size_t start = i;
            while (i < len && is_number_char(t[i]))
                i++;
            if (out) {
                out[n].text = t + start;
                out[n].len = i - start;
            }
            n++;
        } else {
            i++;
        }
    }
    return n;
}

static size_t collect_number_nodes(const cJSON *j, numtok *out, size_t n)
{
    for (; j; j = j->next) {
        if (cJSON_IsNumber(j)) {
            if (out)
                out[n].node = j;
            n++;
        }
        if (j->child)
            n = collect_number_nodes(j->child, out, n);
    }
    return n;
}

static int numtok_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const numtok *)a)->node, y = (uintptr_t)((const numtok *)b)->node;
    return (x > y) - (x < y);
}

/* Pair literals with nodes. A count mismatch (never seen) leaves nums NULL: numbers
 * then fall back to "integral value = integer". */
int spec_index_numbers(loader *L, const char *text, size_t len, const cJSON *root)
{
    size_t ntok = count_number_tokens(text, len, NULL);
    size_t nnode = collect_number_nodes(root, NULL, 0);
    if (ntok != nnode || ntok == 0)
        return 0;
    L->nums = calloc(ntok, sizeof *L->nums);
    if (!L->nums)
        return spec_fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    count_number_tokens(text, len, L->nums);
    collect_number_nodes(root, L->nums, 0);
    L->nnums = ntok;
    qsort(L->nums, ntok, sizeof *L->nums, numtok_cmp);
    return 0;
}

const numtok *spec_find_number(const numtok *nums, size_t n, const cJSON *node)
{
    if (!nums)
        return NULL;
    numtok key = {.node = node};
    return bsearch(&key, nums, n, sizeof *nums, numtok_cmp);
}

/*
 * A JSON number as a value. prefer_int: integral values become INT whatever the
 * literal (sizes: "1e6" means the integer); otherwise the literal decides as in
 * Python (1 is INT, 1.0 and 1e3 are REAL).
 */
int spec_number_value(loader *L, const cJSON *j, const char *path, int prefer_int,
                      cutune_value *out)
{
    const numtok *t = spec_find_number(L->nums, L->nnums, j);
    double d = j->valuedouble;
    memset(out, 0, sizeof *out);
    if (!isfinite(d))
        return spec_fail(L, CUTUNE_EINVAL, path, "number out of range");
    int int_literal = t ? !memchr(t->text, '.', t->len) && !memchr(t->text, 'e', t->len) &&
                              !memchr(t->text, 'E', t->len)
                        : d == floor(d);
    if (int_literal && t) {
        char buf[32];
        if (t->len >= sizeof buf)
            return spec_fail(L, CUTUNE_EINVAL, path, "integer out of range");
        memcpy(buf, t->text, t->len);
        buf[t->len] = '\0';
        errno = 0;
        char *end;
        long long v = strtoll(buf, &end, 10);
        if (errno == ERANGE || *end)
            return spec_fail(L, CUTUNE_EINVAL, path, "integer out of range");
        out->type = CUTUNE_VALUE_INT;
        out->i = v;
        return 0;
    }
    /* sizes: an integral value is an integer, so one beyond 64 bits is an error, not a
     * real that an int argument would then wrap */
    if (prefer_int && d == floor(d) && fabs(d) >= 9.2e18)
        return spec_fail(L, CUTUNE_EINVAL, path, "integer %g out of range (64 bits)", d);
    if ((int_literal || prefer_int) && d == floor(d) && fabs(d) < 9.2e18) {
        out->type = CUTUNE_VALUE_INT;
        out->i = (long long)d;
        return 0;
    }
    out->type = CUTUNE_VALUE_REAL;
    out->r = d;
    return 0;
}

/* A value as expression-language text: no exponent sign ("1e20"), shortest round trip. */
static void value_expr_text(const cutune_value *v, char *buf, size_t len)
{
    if (v->type == CUTUNE_VALUE_INT) {
        snprintf(buf, len, "%lld", v->i);
        return;
    }
    char tmp[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v->r);
        if (strtod(tmp, NULL) == v->r)
            break;
    }
    size_t o = 0;
    for (const char *p = tmp; *p && o + 1 < len; p++)
        if (*p != '+')
            buf[o++] = *p;
    buf[o] = '\0';
    /* "1e20" and "3" would read back as INT; a real literal stays real */
    if (!strpbrk(buf, ".en") && o + 2 < len)
        memcpy(buf + o, ".0", 3);
}

/* ------------------------------------------------------------------ JSON shape checks */

/* Reject unknown and repeated members: a typo must not silently fall back to a default. */
int spec_check_members(loader *L, const cJSON *obj, const char *path, const char *const *allowed,
                       size_t nallowed)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        size_t k;
        for (k = 0; k < nallowed; k++)
            if (strcmp(c->string, allowed[k]) == 0)
                break;
        if (k == nallowed) {
            char list[MSG_LEN / 2];
            spec_join_names(list, sizeof list, allowed, nallowed);
            return spec_fail_member(L, CUTUNE_EINVAL, path, c->string,
                                    "unknown field '%s' (valid fields: %s)", c->string, list);
        }
        /* every earlier sibling is a distinct allowed name: at most nallowed compares */
        for (const cJSON *p = obj->child; p != c; p = p->next)
            if (strcmp(p->string, c->string) == 0)
                return spec_fail_member(L, CUTUNE_EINVAL, path, c->string, "field '%s' given twice",
                                        c->string);
    }
    return 0;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Free-form objects (parameters, sizes, metrics): names must be distinct. Sorted, so
 * that a hostile input with 10^5 members stays O(n log n). */
int spec_check_unique_keys(loader *L, const cJSON *obj, const char *path)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        n++;
    if (n < 2)
        return 0;
    const char **keys = malloc(n * sizeof *keys);
    if (!keys)
        return spec_fail(L, CUTUNE_ENOMEM, path, "out of memory");
    n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        keys[n++] = c->string;
    qsort(keys, n, sizeof *keys, cmp_key);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0)
            rc = spec_fail(L, CUTUNE_EINVAL, path, "'%s' given twice", keys[i]);
    free(keys);
    return rc;
}

const cJSON *spec_member(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

int spec_want_type(loader *L, const cJSON *j, const char *path, int ok, const char *what)
{
    if (ok)
        return 0;
    return spec_fail(L, CUTUNE_EINVAL, path, "expected %s, got %s", what, spec_json_type_name(j));
}

/* A required or optional non-empty string member; *out stays NULL when absent. */
int spec_string_member(loader *L, const cJSON *obj, const char *parent, const char *name,
                       int required, const char **out)
{
    char path[PATH_LEN];
    spec_path_member(path, sizeof path, parent, name);
    const cJSON *j = spec_member(obj, name);
    *out = NULL;
    if (!j) {
        if (required)
            return spec_fail(L, CUTUNE_EINVAL, path, "missing (required)");
        return 0;
    }
    int rc = spec_want_type(L, j, path, cJSON_IsString(j), "a string");
    if (rc)
        return rc;
    if (!j->valuestring[0])
        return spec_fail(L, CUTUNE_EINVAL, path, "empty string");
    *out = j->valuestring;
    return 0;
}

/* Is name a whole word of the source text? Catches a misspelt kernel before NVRTC. */
int spec_source_has_word(const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(src, name); p; p = strstr(p + 1, name)) {
        int before = p > src && is_ident_char(p[-1], 0);
        int after = is_ident_char(p[n], 0);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ expressions */

int spec_parse_expr(loader *L, const cJSON *j, const char *path, const cutune_symtab *syms,
                    cutune_expr **out)
{
    char text[64];
    const char *src;
    char msg[MSG_LEN];
    int rc;
    if (cJSON_IsString(j)) {
        src = j->valuestring;
        if (strspn(src, " \t\r\n") == strlen(src))
            return spec_fail(L, CUTUNE_EINVAL, path, "empty expression");
    } else if (cJSON_IsNumber(j)) {
        cutune_value v;
        rc = spec_number_value(L, j, path, 0, &v);
        if (rc)
            return rc;
        value_expr_text(&v, text, sizeof text);
        src = text;
    } else {
        return spec_fail(L, CUTUNE_EINVAL, path,
                         "expected a number or an expression string, got %s",
                         spec_json_type_name(j));
    }
    msg[0] = '\0';
    rc = cutune_expr_parse(src, syms, out, msg, sizeof msg);
    if (rc) {
        *out = NULL;
        return spec_fail(L, rc < 0 ? rc : CUTUNE_EPARSE, path, "%s",
                         msg[0] ? msg : "bad expression");
    }
    return 0;
}

/* Parse "1" for a missing geometry entry: callers never see a NULL dimension. */
static int parse_one(loader *L, const char *path, const cutune_symtab *syms, cutune_expr **out)
{
    char msg[MSG_LEN] = "";
    int rc = cutune_expr_parse("1", syms, out, msg, sizeof msg);
    if (rc)
        return spec_fail(L, rc, path, "%s", msg);
    return 0;
}

/* grid / block: an array of 1-3 expressions; missing dimensions are 1. */
int spec_parse_dims(loader *L, const cJSON *obj, const char *parent, const char *name,
                    const cutune_symtab *syms, cutune_expr **dims)
{
    char path[PATH_LEN], ipath[PATH_LEN];
    spec_path_member(path, sizeof path, parent, name);
    const cJSON *j = spec_member(obj, name);
    if (!j)
        return spec_fail(L, CUTUNE_EINVAL, path, "missing (required)");
    int rc = spec_want_type(L, j, path, cJSON_IsArray(j), "an array of 1-3 expressions");
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(j);
    if (n < 1 || n > 3)
        return spec_fail(L, CUTUNE_EINVAL, path, "expected 1-3 entries (x, y, z), got %d", n);
    const cJSON *e = j->child;
    for (size_t d = 0; d < 3; d++) {
        spec_path_index(ipath, sizeof ipath, path, d);
        if (e) {
            rc = spec_parse_expr(L, e, ipath, syms, &dims[d]);
            e = e->next;
        } else {
            rc = parse_one(L, ipath, syms, &dims[d]);
        }
        if (rc)
            return rc;
    }
    return 0;
}
