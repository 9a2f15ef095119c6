/*
 * Kernel spec loader: kernels/NAME.json (+ NAME.cu) -> cutune_spec, whole or not at all.
 *
 * The JSON format is documented in docs/spec-format.md. Every error message has the
 * shape "FILE: JSON.PATH: reason" so a user can go straight to the offending member.
 * Loading builds the space in the order the symbol slots require (parameters, then
 * sizes as constants, then restrictions), enumerates it, and only then parses the
 * other expressions against the finished symbol table.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cutune/spec.h"
#include "json_path.h"
#include "t1.h"
#include "src/common/json_check.h"

#define MSG_LEN 1024
#define PATH_LEN 256

static const double default_rtol = 1e-5;

/* Names the metrics see after the space's own symbols (slots nparams+nsizes, +1). */
static const char *const time_names[2] = {"time_ms", "time_s"};

/* The public struct plus what only this file needs; pub first so the pointers coincide. */
typedef struct spec_impl {
    cutune_spec pub;           /* what callers see */
    const char **metric_names; /* symbol table of metric expressions (views) */
    size_t nmetric_names;      /* space symbols + 2 */
} spec_impl;

/* A number token of the JSON text, paired with its cJSON node. */
typedef struct numtok {
    const cJSON *node; /* the cJSON_Number node */
    const char *text;  /* the literal in the JSON text (not NUL-terminated) */
    size_t len;        /* its length */
} numtok;

/* State of one load. */
typedef struct loader {
    const char *file; /* the JSON file as named in messages */
    const char *dir;  /* directory of the JSON file: relative paths start here */
    char *err;        /* caller's message buffer */
    size_t errlen;    /* its size */
    const char *text; /* the JSON text, once it parsed (messages name the line), or NULL */
    size_t textlen;   /* its length */
    numtok *nums;     /* number literals sorted by node address, or NULL */
    size_t nnums;     /* entries in nums */
    spec_impl *impl;  /* the spec being built */
} loader;

/* ------------------------------------------------------------------ messages */

static void path_member(char *buf, size_t len, const char *parent, const char *key);

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

/* fail() about member key of the object at path: the message names path, the line is the
 * member's (an unknown or repeated field) */
static int fail_member(loader *L, int code, const char *path, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail(loader *L, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(loader *L, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, code, path, 1, fmt, ap);
    va_end(ap);
    return rc;
}

static int fail_member(loader *L, int code, const char *path, const char *key, const char *fmt, ...)
{
    char at[MSG_LEN];
    path_member(at, sizeof at, path, key);
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail_at(L, code, path, at, 1, fmt, ap);
    va_end(ap);
    return rc;
}

/* fail() about a value given on the command line (--size): no line of the file */
static int fail_cmdline(loader *L, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_cmdline(loader *L, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(L, code, path, 0, fmt, ap);
    va_end(ap);
    return rc;
}

static const char *json_type_name(const cJSON *j)
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

static int is_ident(const char *s)
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
static void path_member(char *buf, size_t len, const char *parent, const char *key)
{
    const char *dot = (parent && *parent) ? "." : "";
    int w;
    if (is_ident(key))
        w = snprintf(buf, len, "%s%s%s", parent ? parent : "", dot, key);
    else
        w = snprintf(buf, len, "%s[\"%s\"]", parent ? parent : "", key);
    mark_truncated(buf, len, w);
}

static void path_index(char *buf, size_t len, const char *parent, size_t i)
{
    mark_truncated(buf, len, snprintf(buf, len, "%s[%zu]", parent, i));
}

/* "a, b, c" of a NULL-terminated list, truncated to fit. */
static void join_names(char *buf, size_t len, const char *const *names, size_t n)
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

/* ------------------------------------------------------------------ files and paths */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static char *dup_mem(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *join_path(const char *dir, const char *rel)
{
    if (rel[0] == '/' || !dir || !*dir || strcmp(dir, ".") == 0)
        return dup_str(rel);
    size_t a = strlen(dir), b = strlen(rel);
    int slash = dir[a - 1] != '/';
    char *p = malloc(a + (size_t)slash + b + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, a);
    if (slash)
        p[a] = '/';
    memcpy(p + a + (size_t)slash, rel, b + 1);
    return p;
}

/* Directory part of path: "." when there is none, "/" for a file at the root. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return dup_str(".");
    if (slash == path)
        return dup_str("/");
    return dup_mem(path, (size_t)(slash - path));
}

/* File name without directory and without a trailing ".json". */
static char *stem_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    return dup_mem(base, n);
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
static int index_numbers(loader *L, const char *text, size_t len, const cJSON *root)
{
    size_t ntok = count_number_tokens(text, len, NULL);
    size_t nnode = collect_number_nodes(root, NULL, 0);
    if (ntok != nnode || ntok == 0)
        return 0;
    L->nums = calloc(ntok, sizeof *L->nums);
    if (!L->nums)
        return fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    count_number_tokens(text, len, L->nums);
    collect_number_nodes(root, L->nums, 0);
    L->nnums = ntok;
    qsort(L->nums, ntok, sizeof *L->nums, numtok_cmp);
    return 0;
}

static const numtok *number_literal(const loader *L, const cJSON *node)
{
    if (!L->nums)
        return NULL;
    numtok key = {.node = node};
    return bsearch(&key, L->nums, L->nnums, sizeof *L->nums, numtok_cmp);
}

/*
 * A JSON number as a value. prefer_int: integral values become INT whatever the
 * literal (sizes: "1e6" means the integer); otherwise the literal decides as in
 * Python (1 is INT, 1.0 and 1e3 are REAL).
 */
static int number_value(loader *L, const cJSON *j, const char *path, int prefer_int,
                        cutune_value *out)
{
    const numtok *t = number_literal(L, j);
    double d = j->valuedouble;
    memset(out, 0, sizeof *out);
    if (!isfinite(d))
        return fail(L, CUTUNE_EINVAL, path, "number out of range");
    int int_literal = t ? !memchr(t->text, '.', t->len) && !memchr(t->text, 'e', t->len) &&
                              !memchr(t->text, 'E', t->len)
                        : d == floor(d);
    if (int_literal && t) {
        char buf[32];
        if (t->len >= sizeof buf)
            return fail(L, CUTUNE_EINVAL, path, "integer out of range");
        memcpy(buf, t->text, t->len);
        buf[t->len] = '\0';
        errno = 0;
        char *end;
        long long v = strtoll(buf, &end, 10);
        if (errno == ERANGE || *end)
            return fail(L, CUTUNE_EINVAL, path, "integer out of range");
        out->type = CUTUNE_VALUE_INT;
        out->i = v;
        return 0;
    }
    /* sizes: an integral value is an integer, so one beyond 64 bits is an error, not a
     * real that an int argument would then wrap */
    if (prefer_int && d == floor(d) && fabs(d) >= 9.2e18)
        return fail(L, CUTUNE_EINVAL, path, "integer %g out of range (64 bits)", d);
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
static int check_members(loader *L, const cJSON *obj, const char *path, const char *const *allowed,
                         size_t nallowed)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        size_t k;
        for (k = 0; k < nallowed; k++)
            if (strcmp(c->string, allowed[k]) == 0)
                break;
        if (k == nallowed) {
            char list[MSG_LEN / 2];
            join_names(list, sizeof list, allowed, nallowed);
            return fail_member(L, CUTUNE_EINVAL, path, c->string,
                               "unknown field '%s' (valid fields: %s)", c->string, list);
        }
        /* every earlier sibling is a distinct allowed name: at most nallowed compares */
        for (const cJSON *p = obj->child; p != c; p = p->next)
            if (strcmp(p->string, c->string) == 0)
                return fail_member(L, CUTUNE_EINVAL, path, c->string, "field '%s' given twice",
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
static int check_unique_keys(loader *L, const cJSON *obj, const char *path)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        n++;
    if (n < 2)
        return 0;
    const char **keys = malloc(n * sizeof *keys);
    if (!keys)
        return fail(L, CUTUNE_ENOMEM, path, "out of memory");
    n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        keys[n++] = c->string;
    qsort(keys, n, sizeof *keys, cmp_key);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0)
            rc = fail(L, CUTUNE_EINVAL, path, "'%s' given twice", keys[i]);
    free(keys);
    return rc;
}

static const cJSON *member(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

static int want_type(loader *L, const cJSON *j, const char *path, int ok, const char *what)
{
    if (ok)
        return 0;
    return fail(L, CUTUNE_EINVAL, path, "expected %s, got %s", what, json_type_name(j));
}

/* A required or optional non-empty string member; *out stays NULL when absent. */
static int string_member(loader *L, const cJSON *obj, const char *parent, const char *name,
                         int required, const char **out)
{
    char path[PATH_LEN];
    path_member(path, sizeof path, parent, name);
    const cJSON *j = member(obj, name);
    *out = NULL;
    if (!j) {
        if (required)
            return fail(L, CUTUNE_EINVAL, path, "missing (required)");
        return 0;
    }
    int rc = want_type(L, j, path, cJSON_IsString(j), "a string");
    if (rc)
        return rc;
    if (!j->valuestring[0])
        return fail(L, CUTUNE_EINVAL, path, "empty string");
    *out = j->valuestring;
    return 0;
}

/* Is name a whole word of the source text? Catches a misspelt kernel before NVRTC. */
static int source_has_word(const char *src, const char *name)
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

static int parse_expr(loader *L, const cJSON *j, const char *path, const cutune_symtab *syms,
                      cutune_expr **out)
{
    char text[64];
    const char *src;
    char msg[MSG_LEN];
    int rc;
    if (cJSON_IsString(j)) {
        src = j->valuestring;
        if (strspn(src, " \t\r\n") == strlen(src))
            return fail(L, CUTUNE_EINVAL, path, "empty expression");
    } else if (cJSON_IsNumber(j)) {
        cutune_value v;
        rc = number_value(L, j, path, 0, &v);
        if (rc)
            return rc;
        value_expr_text(&v, text, sizeof text);
        src = text;
    } else {
        return fail(L, CUTUNE_EINVAL, path, "expected a number or an expression string, got %s",
                    json_type_name(j));
    }
    msg[0] = '\0';
    rc = cutune_expr_parse(src, syms, out, msg, sizeof msg);
    if (rc) {
        *out = NULL;
        return fail(L, rc < 0 ? rc : CUTUNE_EPARSE, path, "%s", msg[0] ? msg : "bad expression");
    }
    return 0;
}

/* Parse "1" for a missing geometry entry: callers never see a NULL dimension. */
static int parse_one(loader *L, const char *path, const cutune_symtab *syms, cutune_expr **out)
{
    char msg[MSG_LEN] = "";
    int rc = cutune_expr_parse("1", syms, out, msg, sizeof msg);
    if (rc)
        return fail(L, rc, path, "%s", msg);
    return 0;
}

/* grid / block: an array of 1-3 expressions; missing dimensions are 1. */
static int parse_dims(loader *L, const cJSON *obj, const char *parent, const char *name,
                      const cutune_symtab *syms, cutune_expr **dims)
{
    char path[PATH_LEN], ipath[PATH_LEN];
    path_member(path, sizeof path, parent, name);
    const cJSON *j = member(obj, name);
    if (!j)
        return fail(L, CUTUNE_EINVAL, path, "missing (required)");
    int rc = want_type(L, j, path, cJSON_IsArray(j), "an array of 1-3 expressions");
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(j);
    if (n < 1 || n > 3)
        return fail(L, CUTUNE_EINVAL, path, "expected 1-3 entries (x, y, z), got %d", n);
    const cJSON *e = j->child;
    for (size_t d = 0; d < 3; d++) {
        path_index(ipath, sizeof ipath, path, d);
        if (e) {
            rc = parse_expr(L, e, ipath, syms, &dims[d]);
            e = e->next;
        } else {
            rc = parse_one(L, ipath, syms, &dims[d]);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ parameters and sizes */

typedef struct sort_item {
    double d;      /* numeric value */
    const char *s; /* string value */
    size_t i;      /* index in the JSON array */
} sort_item;

static int cmp_num_item(const void *a, const void *b)
{
    double x = ((const sort_item *)a)->d, y = ((const sort_item *)b)->d;
    return (x > y) - (x < y);
}

static int cmp_str_item(const void *a, const void *b)
{
    return strcmp(((const sort_item *)a)->s, ((const sort_item *)b)->s);
}

/* Duplicate values would enumerate the same configuration twice. Sorted: O(n log n). */
static int check_distinct(loader *L, const char *path, const cutune_value *v, size_t n)
{
    sort_item *it = malloc(n * sizeof *it);
    char ipath[PATH_LEN];
    int rc = 0;
    if (!it)
        return fail(L, CUTUNE_ENOMEM, path, "out of memory");
    for (size_t i = 0; i < n; i++) {
        it[i].d = cutune_value_as_double(&v[i]);
        it[i].s = v[i].s;
        it[i].i = i;
    }
    int strings = v[0].type == CUTUNE_VALUE_STRING;
    qsort(it, n, sizeof *it, strings ? cmp_str_item : cmp_num_item);
    for (size_t i = 1; i < n; i++) {
        int same = strings ? strcmp(it[i - 1].s, it[i].s) == 0 : it[i - 1].d == it[i].d;
        if (same) {
            size_t later = it[i].i > it[i - 1].i ? it[i].i : it[i - 1].i;
            size_t earlier = it[i].i > it[i - 1].i ? it[i - 1].i : it[i].i;
            path_index(ipath, sizeof ipath, path, later);
            rc = fail(L, CUTUNE_EINVAL, ipath, "duplicate value (same as [%zu])", earlier);
            break;
        }
    }
    free(it);
    return rc;
}

static int check_symbol_name(loader *L, const char *path, const char *name, const char *what)
{
    if (!is_ident(name))
        return fail(L, CUTUNE_EINVAL, path,
                    "%s name '%s' is not an identifier (letters, digits, '_')", what, name);
    if (cutune_expr_is_keyword(name))
        return fail(L, CUTUNE_EINVAL, path, "%s name '%s' is a keyword", what, name);
    for (size_t k = 0; k < 2; k++)
        if (strcmp(name, time_names[k]) == 0)
            return fail(L, CUTUNE_EINVAL, path, "%s name '%s' is reserved for metrics", what, name);
    return 0;
}

static int load_param(loader *L, const cJSON *j, const char *path)
{
    char ipath[PATH_LEN], msg[MSG_LEN];
    cutune_value *vals = NULL;
    int rc = check_symbol_name(L, path, j->string, "parameter");
    if (rc)
        return rc;
    rc = want_type(L, j, path, cJSON_IsArray(j), "an array of values");
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(j);
    if (n == 0)
        return fail(L, CUTUNE_EINVAL, path, "empty value list");
    if ((size_t)n > CUTUNE_SPACE_MAX_VALUES)
        return fail(L, CUTUNE_EINVAL, path, "%d values (at most %d)", n, CUTUNE_SPACE_MAX_VALUES);
    vals = calloc((size_t)n, sizeof *vals);
    if (!vals)
        return fail(L, CUTUNE_ENOMEM, path, "out of memory");
    int nstr = 0, nnum = 0;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        path_index(ipath, sizeof ipath, path, i);
        if (cJSON_IsString(e)) {
            vals[i].type = CUTUNE_VALUE_STRING;
            vals[i].s = e->valuestring;
            nstr++;
        } else if (cJSON_IsNumber(e)) {
            rc = number_value(L, e, ipath, 0, &vals[i]);
            if (rc)
                goto out_free_vals;
            nnum++;
        } else {
            rc = fail(L, CUTUNE_EINVAL, ipath,
                      "expected a number or a string, got %s (values are scalars)",
                      json_type_name(e));
            goto out_free_vals;
        }
        if (nstr && nnum) {
            rc = fail(L, CUTUNE_EINVAL, ipath,
                      "mixes strings and numbers (only integers and reals may mix)");
            goto out_free_vals;
        }
    }
    rc = check_distinct(L, path, vals, (size_t)n);
    if (rc)
        goto out_free_vals;
    msg[0] = '\0';
    rc = cutune_space_add_param(L->impl->pub.space, j->string, vals, (size_t)n, msg, sizeof msg);
    if (rc)
        rc = fail(L, rc, path, "%s", msg);
out_free_vals:
    free(vals);
    return rc;
}

static int load_params(loader *L, const cJSON *root)
{
    const cJSON *j = member(root, "parameters");
    char path[PATH_LEN];
    if (!j)
        return fail(L, CUTUNE_EINVAL, "parameters", "missing (required)");
    int rc = want_type(L, j, "parameters", cJSON_IsObject(j), "an object (name -> values)");
    if (rc)
        return rc;
    if (!j->child)
        return fail(L, CUTUNE_EINVAL, "parameters", "no parameters: nothing to tune");
    rc = check_unique_keys(L, j, "parameters");
    if (rc)
        return rc;
    for (const cJSON *p = j->child; p; p = p->next) {
        path_member(path, sizeof path, "parameters", p->string);
        rc = load_param(L, p, path);
        if (rc)
            return rc;
    }
    return 0;
}

static int apply_override(loader *L, const cutune_size_override *o, cutune_value *v)
{
    char path[PATH_LEN];
    path_member(path, sizeof path, "sizes", o->name);
    if (o->value.type == CUTUNE_VALUE_STRING)
        return fail_cmdline(L, CUTUNE_EINVAL, path, "override value '%s' is not a number",
                            o->value.s ? o->value.s : "");
    double d = cutune_value_as_double(&o->value);
    if (!isfinite(d))
        return fail_cmdline(L, CUTUNE_EINVAL, path, "override value is not finite");
    /* sizes are integers unless the spec made them real: --size N=1e6 means 1000000 */
    if (v->type == CUTUNE_VALUE_INT && o->value.type == CUTUNE_VALUE_REAL) {
        if (d != floor(d) || fabs(d) >= 9.2e18)
            return fail_cmdline(L, CUTUNE_EINVAL, path, "override %g is not an integer", d);
        v->i = (long long)d;
        return 0;
    }
    /* ... and a real size stays real: --size S=1 on "S": 1.5 means 1.0, not the integer 1
     * (integer division in an expression would change its meaning) */
    if (v->type == CUTUNE_VALUE_REAL) {
        v->r = d;
        return 0;
    }
    *v = o->value;
    return 0;
}

static int load_sizes(loader *L, const cJSON *root, const cutune_size_override *ov, size_t nov)
{
    const cJSON *j = member(root, "sizes");
    char path[PATH_LEN], msg[MSG_LEN];
    cutune_space *sp = L->impl->pub.space;
    int rc;
    if (j) {
        rc = want_type(L, j, "sizes", cJSON_IsObject(j), "an object (name -> number)");
        if (rc)
            return rc;
        rc = check_unique_keys(L, j, "sizes");
        if (rc)
            return rc;
    }
    /* every override must name a size: a misspelt --size must not be ignored */
    for (size_t k = 0; k < nov; k++) {
        if (!ov[k].name || !(j && member(j, ov[k].name))) {
            const char **names = NULL;
            size_t n = 0;
            char list[MSG_LEN / 2] = "none";
            if (j) {
                names = calloc((size_t)cJSON_GetArraySize(j) + 1, sizeof *names);
                if (!names)
                    return fail(L, CUTUNE_ENOMEM, "sizes", "out of memory");
                for (const cJSON *c = j->child; c; c = c->next)
                    names[n++] = c->string;
                if (n)
                    join_names(list, sizeof list, names, n);
                free(names);
            }
            return fail_cmdline(L, CUTUNE_ENOTFOUND, "sizes",
                                "size override '%s' names no size (valid sizes: %s)",
                                ov[k].name ? ov[k].name : "(null)", list);
        }
    }
    if (!j)
        return 0;
    for (const cJSON *c = j->child; c; c = c->next) {
        cutune_value v;
        path_member(path, sizeof path, "sizes", c->string);
        rc = check_symbol_name(L, path, c->string, "size");
        if (rc)
            return rc;
        if (cutune_space_param_index(sp, c->string) >= 0)
            return fail(L, CUTUNE_EINVAL, path, "'%s' is also a parameter", c->string);
        rc = want_type(L, c, path, cJSON_IsNumber(c), "a number");
        if (rc)
            return rc;
        rc = number_value(L, c, path, 1, &v);
        if (rc)
            return rc;
        for (size_t k = 0; k < nov; k++) /* the last override of a name wins */
            if (strcmp(ov[k].name, c->string) == 0 && (rc = apply_override(L, &ov[k], &v)))
                return rc;
        msg[0] = '\0';
        rc = cutune_space_add_constant(sp, c->string, v, msg, sizeof msg);
        if (rc)
            return fail(L, rc, path, "%s", msg);
        L->impl->pub.nsizes++;
    }
    return 0;
}

static int load_restrictions(loader *L, const cJSON *root)
{
    const cJSON *j = member(root, "restrictions");
    char path[PATH_LEN], msg[MSG_LEN];
    if (!j)
        return 0;
    int rc = want_type(L, j, "restrictions", cJSON_IsArray(j), "an array of expressions");
    if (rc)
        return rc;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        path_index(path, sizeof path, "restrictions", i);
        rc = want_type(L, e, path, cJSON_IsString(e), "an expression string");
        if (rc)
            return rc;
        if (strspn(e->valuestring, " \t\r\n") == strlen(e->valuestring))
            return fail(L, CUTUNE_EINVAL, path, "empty expression");
        msg[0] = '\0';
        rc = cutune_space_add_restriction(L->impl->pub.space, e->valuestring, msg, sizeof msg);
        if (rc)
            return fail(L, rc, path, "%s", msg[0] ? msg : "bad restriction");
    }
    return 0;
}

static int enumerate(loader *L)
{
    char msg[MSG_LEN] = "";
    cutune_space *sp = L->impl->pub.space;
    int rc = cutune_space_enumerate(sp, msg, sizeof msg);
    if (rc == CUTUNE_EEMPTY || (rc == 0 && cutune_space_size(sp) == 0))
        return fail(L, CUTUNE_EEMPTY, "restrictions",
                    "no valid configuration (%.0f Cartesian points)",
                    cutune_space_cartesian_size(sp));
    if (rc)
        return fail(L, rc, "restrictions", "%s", msg);
    return 0;
}

/* ------------------------------------------------------------------ launch, options, args */

static int load_launch(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    static const char *const fields[] = {"grid", "block", "shared_mem"};
    const cJSON *j = member(root, "launch");
    cutune_spec *s = &L->impl->pub;
    if (!j)
        return fail(L, CUTUNE_EINVAL, "launch", "missing (required)");
    int rc = want_type(L, j, "launch", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = check_members(L, j, "launch", fields, 3);
    if (!rc)
        rc = parse_dims(L, j, "launch", "grid", syms, s->grid);
    if (!rc)
        rc = parse_dims(L, j, "launch", "block", syms, s->block);
    const cJSON *sm = member(j, "shared_mem");
    if (!rc && sm)
        rc = parse_expr(L, sm, "launch.shared_mem", syms, &s->shared_mem);
    return rc;
}

/* Check every {NAME} of an option names a parameter or size. */
static int check_placeholders(loader *L, const char *path, const char *text,
                              const cutune_symtab *syms)
{
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
        const char *close = strchr(p, '}');
        if (!close)
            return fail(L, CUTUNE_EPARSE, path, "unterminated placeholder at column %d",
                        (int)(p - text) + 1);
        size_t n = (size_t)(close - p - 1);
        size_t k;
        for (k = 0; k < syms->n; k++)
            if (strlen(syms->names[k]) == n && strncmp(syms->names[k], p + 1, n) == 0)
                break;
        if (k == syms->n) {
            char list[MSG_LEN / 2];
            join_names(list, sizeof list, syms->names, syms->n);
            return fail(L, CUTUNE_ENOTFOUND, path,
                        "unknown parameter or size '%.*s' in placeholder at column %d (known: %s)",
                        (int)n, p + 1, (int)(p - text) + 1, list);
        }
        p = close;
    }
    return 0;
}

static int load_options(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    const cJSON *j = member(root, "compiler_options");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    if (!j)
        return 0;
    int rc = want_type(L, j, "compiler_options", cJSON_IsArray(j), "an array of strings");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    s->options = calloc(n, sizeof *s->options);
    if (!s->options)
        return fail(L, CUTUNE_ENOMEM, "compiler_options", "out of memory");
    s->noptions = n;
    size_t i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
        path_index(path, sizeof path, "compiler_options", i);
        rc = want_type(L, e, path, cJSON_IsString(e), "a string");
        if (rc)
            return rc;
        if (!e->valuestring[0])
            return fail(L, CUTUNE_EINVAL, path, "empty option");
        rc = check_placeholders(L, path, e->valuestring, syms);
        if (rc)
            return rc;
        s->options[i].text = dup_str(e->valuestring);
        if (!s->options[i].text)
            return fail(L, CUTUNE_ENOMEM, path, "out of memory");
    }
    return 0;
}

static const struct {
    const char *name;
    cutune_elem_type type;
} elem_types[] = {
    {"float", CUTUNE_ELEM_FLOAT},     {"float32", CUTUNE_ELEM_FLOAT},
    {"double", CUTUNE_ELEM_DOUBLE},   {"float64", CUTUNE_ELEM_DOUBLE},
    {"half", CUTUNE_ELEM_HALF},       {"float16", CUTUNE_ELEM_HALF},
    {"int", CUTUNE_ELEM_INT32},       {"int32", CUTUNE_ELEM_INT32},
    {"int32_t", CUTUNE_ELEM_INT32},   {"uint32", CUTUNE_ELEM_UINT32},
    {"uint32_t", CUTUNE_ELEM_UINT32}, {"unsigned", CUTUNE_ELEM_UINT32},
    {"int64", CUTUNE_ELEM_INT64},     {"int64_t", CUTUNE_ELEM_INT64},
    {"uint8", CUTUNE_ELEM_UINT8},     {"uint8_t", CUTUNE_ELEM_UINT8},
};

static int parse_elem_type(loader *L, const char *path, const char *name, cutune_elem_type *out)
{
    const size_t n = sizeof elem_types / sizeof elem_types[0];
    const char *names[sizeof elem_types / sizeof elem_types[0]];
    for (size_t k = 0; k < n; k++) {
        if (strcmp(name, elem_types[k].name) == 0) {
            *out = elem_types[k].type;
            return 0;
        }
        names[k] = elem_types[k].name;
    }
    char list[MSG_LEN / 2];
    join_names(list, sizeof list, names, n);
    return fail(L, CUTUNE_EINVAL, path, "unknown type '%s' (valid types: %s)", name, list);
}

static int load_buffer_init(loader *L, const cJSON *a, const char *parent, cutune_spec_arg *arg)
{
    char path[PATH_LEN], ipath[PATH_LEN];
    const char *init;
    int rc = string_member(L, a, parent, "init", 0, &init);
    if (rc)
        return rc;
    /* outputs start from zeros (in-place kernels read them); inputs from [0, 1), integer
     * ones from 0..99 ([0, 1) would make them all zero) */
    double random_hi = cutune_elem_is_float(arg->type) ? 1.0 : 100.0;
    arg->init = arg->output ? CUTUNE_INIT_ZEROS : CUTUNE_INIT_RANDOM;
    arg->init_lo = 0.0;
    arg->init_hi = arg->init == CUTUNE_INIT_RANDOM ? random_hi : 0.0;
    if (init) {
        path_member(path, sizeof path, parent, "init");
        if (strcmp(init, "random") == 0) {
            arg->init = CUTUNE_INIT_RANDOM;
            arg->init_hi = random_hi;
        } else if (strcmp(init, "zeros") == 0) {
            arg->init = CUTUNE_INIT_ZEROS;
        } else if (strcmp(init, "ones") == 0) {
            arg->init = CUTUNE_INIT_ONES;
        } else if (strcmp(init, "range") == 0) {
            arg->init = CUTUNE_INIT_RANGE;
        } else if (strncmp(init, "kernel:", 7) == 0) {
            /* A generator kernel of the source, compiled with the reference
             * (sizes only): extern "C" __global__ void NAME(T *, unsigned long long n,
             * unsigned int seed). */
            const char *kname = init + 7;
            if (!is_ident(kname))
                return fail(L, CUTUNE_EINVAL, path,
                            "'%s': generator kernel name '%s' is not a "
                            "C identifier",
                            init, kname);
            if (arg->output)
                return fail(L, CUTUNE_EINVAL, path,
                            "'%s': an output is poisoned before each "
                            "verification; a generator kernel fills inputs only",
                            init);
            const cutune_spec *s = &L->impl->pub;
            if (!source_has_word(s->source, kname))
                return fail(L, CUTUNE_ENOTFOUND, path, "generator kernel '%s' not found in %s",
                            kname, s->source_path);
            arg->init = CUTUNE_INIT_KERNEL;
            arg->init_name = dup_str(kname);
            if (!arg->init_name)
                return fail(L, CUTUNE_ENOMEM, path, "out of memory");
        } else {
            /* no built-in generators: data of a structure (CSR indices, ...) come from a
             * generator kernel of the source, kernel:NAME */
            return fail(L, CUTUNE_EINVAL, path,
                        "'%s' is not random, zeros, ones, range or kernel:NAME (a generator "
                        "kernel of the source)",
                        init);
        }
    }
    const cJSON *r = member(a, "range");
    if (!r)
        return 0;
    path_member(path, sizeof path, parent, "range");
    if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != 2)
        return fail(L, CUTUNE_EINVAL, path, "expected [lo, hi], got %s", json_type_name(r));
    if (arg->init != CUTUNE_INIT_RANDOM && arg->init != CUTUNE_INIT_RANGE)
        return fail(L, CUTUNE_EINVAL, path, "only init random or range takes a range");
    double lohi[2];
    size_t i = 0;
    for (const cJSON *e = r->child; e; e = e->next, i++) {
        path_index(ipath, sizeof ipath, path, i);
        rc = want_type(L, e, ipath, cJSON_IsNumber(e) && isfinite(e->valuedouble),
                       "a finite number");
        if (rc)
            return rc;
        lohi[i] = e->valuedouble;
    }
    if (arg->init == CUTUNE_INIT_RANDOM && !(lohi[0] < lohi[1]))
        return fail(L, CUTUNE_EINVAL, path, "lo (%g) must be below hi (%g)", lohi[0], lohi[1]);
    arg->init_lo = lohi[0];
    arg->init_hi = lohi[1];
    return 0;
}

static int load_arg(loader *L, const cJSON *a, const char *path, const cutune_symtab *syms,
                    cutune_spec_arg *arg)
{
    static const char *const fields[] = {"name", "type",  "value", "size",
                                         "init", "range", "output"};
    char fpath[PATH_LEN];
    const char *name, *type;
    int rc = want_type(L, a, path, cJSON_IsObject(a), "an object");
    if (!rc)
        rc = check_members(L, a, path, fields, sizeof fields / sizeof fields[0]);
    if (!rc)
        rc = string_member(L, a, path, "name", 1, &name);
    if (!rc)
        rc = string_member(L, a, path, "type", 1, &type);
    if (rc)
        return rc;
    arg->name = dup_str(name);
    if (!arg->name)
        return fail(L, CUTUNE_ENOMEM, path, "out of memory");
    path_member(fpath, sizeof fpath, path, "type");
    rc = parse_elem_type(L, fpath, type, &arg->type);
    if (rc)
        return rc;
    const cJSON *value = member(a, "value"), *size = member(a, "size");
    if (!!value == !!size)
        return fail(L, CUTUNE_EINVAL, path,
                    "give either 'value' (a scalar) or 'size' (a buffer), not %s",
                    value ? "both" : "neither");
    if (value) {
        arg->kind = CUTUNE_ARG_SCALAR;
        static const char *const buffer_only[] = {"init", "range", "output"};
        for (size_t k = 0; k < 3; k++)
            if (member(a, buffer_only[k])) {
                path_member(fpath, sizeof fpath, path, buffer_only[k]);
                return fail(L, CUTUNE_EINVAL, fpath, "only buffers (with 'size') take '%s'",
                            buffer_only[k]);
            }
        path_member(fpath, sizeof fpath, path, "value");
        return parse_expr(L, value, fpath, syms, &arg->value);
    }
    arg->kind = CUTUNE_ARG_BUFFER;
    path_member(fpath, sizeof fpath, path, "size");
    rc = parse_expr(L, size, fpath, syms, &arg->size);
    if (rc)
        return rc;
    const cJSON *out = member(a, "output");
    if (out) {
        path_member(fpath, sizeof fpath, path, "output");
        rc = want_type(L, out, fpath, cJSON_IsBool(out), "true or false");
        if (rc)
            return rc;
        arg->output = cJSON_IsTrue(out);
    }
    return load_buffer_init(L, a, path, arg);
}

static int load_args(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    const cJSON *j = member(root, "args");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    if (!j)
        return fail(L, CUTUNE_EINVAL, "args", "missing (required; [] for none)");
    int rc = want_type(L, j, "args", cJSON_IsArray(j), "an array of objects");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    s->args = calloc(n, sizeof *s->args);
    if (!s->args)
        return fail(L, CUTUNE_ENOMEM, "args", "out of memory");
    s->nargs = n;
    size_t i = 0;
    for (const cJSON *a = j->child; a; a = a->next, i++) {
        path_index(path, sizeof path, "args", i);
        rc = load_arg(L, a, path, syms, &s->args[i]);
        if (rc)
            return rc;
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->args[k].name, s->args[i].name) == 0)
                return fail(L, CUTUNE_EINVAL, path, "argument name '%s' also used by args[%zu]",
                            s->args[i].name, k);
    }
    return 0;
}

/* ------------------------------------------------------------------ reference, tolerance */

/* The reference is compiled with the sizes only: its geometry cannot read parameters. */
static int check_sizes_only(loader *L, const char *path, const cutune_expr *e)
{
    const cutune_space *sp = L->impl->pub.space;
    for (size_t p = 0; p < cutune_space_nparams(sp); p++)
        if (cutune_expr_uses(e, p))
            return fail(L, CUTUNE_EINVAL, path,
                        "reads tunable parameter '%s'; the reference sees sizes only",
                        cutune_space_param(sp, p)->name);
    return 0;
}

static int load_reference(loader *L, const cJSON *root, const cutune_symtab *syms)
{
    static const char *const fields[] = {"kernel", "builtin", "grid", "block", "shared_mem"};
    const cJSON *j = member(root, "reference");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    const char *kernel, *builtin;
    if (!j)
        return 0;
    int rc = want_type(L, j, "reference", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = check_members(L, j, "reference", fields, sizeof fields / sizeof fields[0]);
    if (!rc)
        rc = string_member(L, j, "reference", "kernel", 0, &kernel);
    if (!rc)
        rc = string_member(L, j, "reference", "builtin", 0, &builtin);
    if (rc)
        return rc;
    if (!!kernel == !!builtin)
        return fail(L, CUTUNE_EINVAL, "reference", "give either 'kernel' or 'builtin', not %s",
                    kernel ? "both" : "neither");
    if (builtin) {
        for (size_t k = 2; k < 5; k++)
            if (member(j, fields[k])) {
                path_member(path, sizeof path, "reference", fields[k]);
                return fail(L, CUTUNE_EINVAL, path, "a builtin reference takes no '%s'", fields[k]);
            }
        s->ref_kind = CUTUNE_REF_BUILTIN;
        s->ref_name = dup_str(builtin);
        return s->ref_name ? 0 : fail(L, CUTUNE_ENOMEM, "reference", "out of memory");
    }
    s->ref_kind = CUTUNE_REF_KERNEL;
    s->ref_name = dup_str(kernel);
    if (!s->ref_name)
        return fail(L, CUTUNE_ENOMEM, "reference", "out of memory");
    if (!is_ident(kernel) || !source_has_word(s->source, kernel))
        return fail(L, CUTUNE_ENOTFOUND, "reference.kernel", "kernel '%s' not found in %s", kernel,
                    s->source_path);
    rc = parse_dims(L, j, "reference", "grid", syms, s->ref_grid);
    if (!rc)
        rc = parse_dims(L, j, "reference", "block", syms, s->ref_block);
    for (size_t d = 0; d < 3 && !rc; d++) {
        path_index(path, sizeof path, "reference.grid", d);
        rc = check_sizes_only(L, path, s->ref_grid[d]);
        path_index(path, sizeof path, "reference.block", d);
        if (!rc)
            rc = check_sizes_only(L, path, s->ref_block[d]);
    }
    const cJSON *sm = member(j, "shared_mem");
    if (!rc && sm) {
        rc = parse_expr(L, sm, "reference.shared_mem", syms, &s->ref_shared_mem);
        if (!rc)
            rc = check_sizes_only(L, "reference.shared_mem", s->ref_shared_mem);
    }
    return rc;
}

static int load_tolerance(loader *L, const cJSON *root)
{
    static const char *const fields[] = {"rtol", "atol"};
    const cJSON *j = member(root, "tolerance");
    cutune_spec *s = &L->impl->pub;
    char path[PATH_LEN];
    s->rtol = default_rtol;
    s->atol = INFINITY;
    if (!j)
        return 0;
    int rc = want_type(L, j, "tolerance", cJSON_IsObject(j), "an object");
    if (!rc)
        rc = check_members(L, j, "tolerance", fields, 2);
    for (size_t k = 0; k < 2 && !rc; k++) {
        const cJSON *t = member(j, fields[k]);
        if (!t)
            continue;
        path_member(path, sizeof path, "tolerance", fields[k]);
        rc = want_type(L, t, path, cJSON_IsNumber(t), "a number");
        if (!rc && !(isfinite(t->valuedouble) && t->valuedouble >= 0))
            rc = fail(L, CUTUNE_EINVAL, path, "must be a finite number >= 0");
        if (!rc)
            *(k == 0 ? &s->rtol : &s->atol) = t->valuedouble;
    }
    return rc;
}

static int load_metrics(loader *L, const cJSON *root)
{
    const cJSON *j = member(root, "metrics");
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    char path[PATH_LEN];
    if (!j)
        return 0;
    int rc = want_type(L, j, "metrics", cJSON_IsObject(j), "an object (name -> expression)");
    if (!rc)
        rc = check_unique_keys(L, j, "metrics");
    if (rc)
        return rc;
    size_t n = (size_t)cJSON_GetArraySize(j);
    if (!n)
        return 0;
    cutune_symtab st = {.names = impl->metric_names, .n = impl->nmetric_names};
    s->metrics = calloc(n, sizeof *s->metrics);
    if (!s->metrics)
        return fail(L, CUTUNE_ENOMEM, "metrics", "out of memory");
    s->nmetrics = n;
    size_t i = 0;
    for (const cJSON *m = j->child; m; m = m->next, i++) {
        path_member(path, sizeof path, "metrics", m->string);
        if (!m->string[0])
            return fail(L, CUTUNE_EINVAL, path, "empty metric name");
        s->metrics[i].name = dup_str(m->string);
        if (!s->metrics[i].name)
            return fail(L, CUTUNE_ENOMEM, path, "out of memory");
        rc = parse_expr(L, m, path, &st, &s->metrics[i].expr);
        if (rc)
            return rc;
    }
    return 0;
}

/* Metric expressions see the space's symbols then time_ms and time_s. */
static int build_metric_symtab(loader *L, const cutune_symtab *syms)
{
    spec_impl *impl = L->impl;
    impl->metric_names = calloc(syms->n + 2, sizeof *impl->metric_names);
    if (!impl->metric_names)
        return fail(L, CUTUNE_ENOMEM, "metrics", "out of memory");
    for (size_t k = 0; k < syms->n; k++)
        impl->metric_names[k] = syms->names[k];
    impl->metric_names[syms->n] = time_names[0];
    impl->metric_names[syms->n + 1] = time_names[1];
    impl->nmetric_names = syms->n + 2;
    return 0;
}

/*
 * Evaluate every expression once, at the first valid configuration (time 1 ms for
 * metrics): a string used in arithmetic or a division by zero shows up at load with
 * its JSON path instead of as a mysterious failure of every evaluation.
 */
static int smoke_eval_min(loader *L, const cutune_expr *e, const char *path,
                          const cutune_value *vars, double min)
{
    char msg[MSG_LEN] = "", cfg[MSG_LEN / 2] = "";
    double d;
    if (!e)
        return 0;
    int rc = cutune_expr_eval_double(e, vars, &d, msg, sizeof msg);
    if (!rc && !(d < min)) /* NaN is left to the evaluation, as before */
        return 0;
    cutune_space_format_config(L->impl->pub.space, 0, cfg, sizeof cfg);
    if (!rc)
        return fail(L, CUTUNE_EMATH, path, "evaluates to %.17g, below %g (at %s)", d, min, cfg);
    return fail(L, rc, path, "%s (at %s)", msg, cfg);
}

static int smoke_eval(loader *L, const cutune_expr *e, const char *path, const cutune_value *vars)
{
    return smoke_eval_min(L, e, path, vars, -HUGE_VAL);
}

/* The value range of a scalar argument of type t: integers within [lo, hi] (hi exclusive
 * when hi_open: 2^63 is not an int64), reals finite and within [-hi, hi]. */
static const struct {
    const char *name;
    double lo, hi;
    int integer, hi_open;
} arg_ranges[] = {
    [CUTUNE_ELEM_FLOAT] = {"float", -FLT_MAX, FLT_MAX, 0, 0},
    [CUTUNE_ELEM_DOUBLE] = {"double", -DBL_MAX, DBL_MAX, 0, 0},
    [CUTUNE_ELEM_HALF] = {"half", -65504.0, 65504.0, 0, 0},
    [CUTUNE_ELEM_INT32] = {"int32", -2147483648.0, 2147483647.0, 1, 0},
    [CUTUNE_ELEM_UINT32] = {"uint32", 0.0, 4294967295.0, 1, 0},
    [CUTUNE_ELEM_INT64] = {"int64", -9223372036854775808.0, 9223372036854775808.0, 1, 1},
    [CUTUNE_ELEM_UINT8] = {"uint8", 0.0, 255.0, 1, 0},
};

static size_t elem_bytes(cutune_elem_type t)
{
    return t == CUTUNE_ELEM_DOUBLE || t == CUTUNE_ELEM_INT64 ? 8
           : t == CUTUNE_ELEM_HALF                           ? 2
           : t == CUTUNE_ELEM_UINT8                          ? 1
                                                             : 4;
}

/* Argument i's value (a scalar's value, a buffer's element count) at configuration id is
 * what its C type holds: no silent wrap (3000000000 as an int32 was -1294967296), no
 * rounding (2.5 as an int), no infinite float; a buffer a whole number of elements whose
 * bytes fit in 63 bits. NaN and expression errors are left to smoke_eval's messages. */
static int check_arg_value(loader *L, size_t i, size_t id, cutune_value *vars)
{
    const cutune_spec *s = &L->impl->pub;
    const cutune_spec_arg *a = &s->args[i];
    const cutune_expr *e = a->value ? a->value : a->size;
    char apath[PATH_LEN], path[PATH_LEN], cfg[MSG_LEN / 2] = "", msg[MSG_LEN];
    double d;
    if (!e)
        return 0;
    cutune_space_values(s->space, id, vars);
    if (cutune_expr_eval_double(e, vars, &d, msg, sizeof msg) < 0 || isnan(d))
        return 0;
    path_index(apath, sizeof apath, "args", i);
    path_member(path, sizeof path, apath, a->value ? "value" : "size");
    const char *why = NULL;
    char range[160];
    if (a->value) {
        int t = a->type;
        if (arg_ranges[t].integer && d != floor(d))
            why = "is not an integer";
        else if (!(d >= arg_ranges[t].lo &&
                   (arg_ranges[t].hi_open ? d < arg_ranges[t].hi : d <= arg_ranges[t].hi)))
            why = "is outside";
        if (why && arg_ranges[t].integer)
            snprintf(range, sizeof range, "%s (%.0f..%.0f%s)", arg_ranges[t].name, arg_ranges[t].lo,
                     arg_ranges[t].hi - arg_ranges[t].hi_open,
                     arg_ranges[t].hi_open ? ", i.e. 2^63 - 1" : "");
        else if (why)
            snprintf(range, sizeof range, "%s (finite, at most %g in magnitude)",
                     arg_ranges[t].name, arg_ranges[t].hi);
    } else if (d != floor(d)) {
        why = "is not a whole number of elements";
        range[0] = '\0';
    } else if (d * (double)elem_bytes(a->type) >= 9223372036854775808.0) {
        why = "elements: their bytes do not fit in 63 bits";
        range[0] = '\0';
    }
    if (!why)
        return 0;
    cutune_space_format_config(s->space, id, cfg, sizeof cfg);
    char num[64]; /* integers as integers, others in the shortest text that reads back */
    if (d == floor(d) && fabs(d) < 1e17)
        snprintf(num, sizeof num, "%.0f", d);
    else
        cutune_value_format(&(cutune_value){.type = CUTUNE_VALUE_REAL, .r = d}, num, sizeof num);
    if (a->value && strcmp(why, "is not an integer") == 0)
        return fail(L, CUTUNE_EINVAL, path, "%s is not an integer, and the argument is %s (at %s)",
                    num, arg_ranges[a->type].name, cfg);
    if (a->value)
        return fail(L, CUTUNE_EINVAL, path, "%s is outside the range of %s (at %s)", num, range,
                    cfg);
    return fail(L, CUTUNE_EINVAL, path, "%s %s (at %s)", num, why, cfg);
}

/* Every argument at every valid configuration where its expression reads a parameter, at
 * one where it reads only sizes. */
static int check_arg_ranges(loader *L)
{
    const cutune_spec *s = &L->impl->pub;
    const cutune_space *sp = s->space;
    size_t np = cutune_space_nparams(sp), size = cutune_space_size(sp);
    cutune_value *vars = calloc(np + cutune_space_nconstants(sp) + 1, sizeof *vars);
    int rc = 0;
    if (!vars)
        return fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    for (size_t i = 0; i < s->nargs && !rc; i++) {
        const cutune_expr *e = s->args[i].value ? s->args[i].value : s->args[i].size;
        int reads_params = 0;
        for (size_t p = 0; e && p < np && !reads_params; p++)
            reads_params = cutune_expr_uses(e, p);
        for (size_t id = 0; id < (reads_params ? size : 1) && !rc; id++)
            rc = check_arg_value(L, i, id, vars);
    }
    free(vars);
    return rc;
}

static int smoke_test(loader *L)
{
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    char path[PATH_LEN];
    int rc = 0;
    cutune_value *vars = calloc(impl->nmetric_names, sizeof *vars);
    if (!vars)
        return fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    cutune_space_values(s->space, 0, vars);
    vars[impl->nmetric_names - 2].type = CUTUNE_VALUE_REAL;
    vars[impl->nmetric_names - 2].r = 1.0;
    vars[impl->nmetric_names - 1].type = CUTUNE_VALUE_REAL;
    vars[impl->nmetric_names - 1].r = 1e-3;
    for (size_t d = 0; d < 3 && !rc; d++) {
        path_index(path, sizeof path, "launch.grid", d);
        rc = smoke_eval(L, s->grid[d], path, vars);
        path_index(path, sizeof path, "launch.block", d);
        if (!rc)
            rc = smoke_eval(L, s->block[d], path, vars);
        path_index(path, sizeof path, "reference.grid", d);
        if (!rc)
            rc = smoke_eval(L, s->ref_grid[d], path, vars);
        path_index(path, sizeof path, "reference.block", d);
        if (!rc)
            rc = smoke_eval(L, s->ref_block[d], path, vars);
    }
    if (!rc)
        rc = smoke_eval(L, s->shared_mem, "launch.shared_mem", vars);
    if (!rc)
        rc = smoke_eval(L, s->ref_shared_mem, "reference.shared_mem", vars);
    for (size_t i = 0; i < s->nargs && !rc; i++) {
        char apath[PATH_LEN];
        path_index(apath, sizeof apath, "args", i);
        path_member(path, sizeof path, apath, s->args[i].value ? "value" : "size");
        /* a buffer of fewer than 0 elements is never meaningful: a negative --size would
         * otherwise fail every evaluation of the run one by one */
        rc = s->args[i].value ? smoke_eval(L, s->args[i].value, path, vars)
                              : smoke_eval_min(L, s->args[i].size, path, vars, 0.0);
    }
    for (size_t i = 0; i < s->nmetrics && !rc; i++) {
        path_member(path, sizeof path, "metrics", s->metrics[i].name);
        rc = smoke_eval(L, s->metrics[i].expr, path, vars);
    }
    free(vars);
    if (!rc)
        rc = check_arg_ranges(L);
    return rc;
}

/* ------------------------------------------------------------------ hash */

/* FNV-1a 64 over JSON text, source text and the sizes after overrides, so a journal
 * from another spec, source or problem size is told apart. NUL bytes separate parts. */
static void compute_hash(cutune_spec *s, const char *json, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const unsigned char zero = 0;
    h = cutune_fnv1a(h, json, len);
    h = cutune_fnv1a(h, &zero, 1);
    h = cutune_fnv1a(h, s->source, strlen(s->source));
    for (size_t c = 0; c < s->nsizes; c++) {
        char buf[128];
        cutune_value v = cutune_space_constant_value(s->space, c);
        int n = snprintf(buf, sizeof buf, "%c%s=", 0, cutune_space_constant_name(s->space, c));
        if (n > 0 && (size_t)n < sizeof buf)
            cutune_value_format(&v, buf + n, sizeof buf - (size_t)n);
        h = cutune_fnv1a(h, buf, (size_t)n + strlen(buf + n));
    }
    snprintf(s->hash, sizeof s->hash, "%016llx", (unsigned long long)h);
}

/* ------------------------------------------------------------------ top level */

static const char *const top_fields[] = {
    "name",         "description", "source",    "kernel",           "parameters",
    "restrictions", "sizes",       "launch",    "compiler_options", "args",
    "reference",    "tolerance",   "objective", "metrics",          "recording",
};

static int parse_json(loader *L, const char *json, size_t len, cJSON **root)
{
    const char *nul = memchr(json, '\0', len);
    if (nul)
        return fail(L, CUTUNE_EPARSE, NULL, "malformed JSON: NUL byte at byte %zu",
                    (size_t)(nul - json));
    char *text = dup_mem(json, len);
    if (!text)
        return fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    const char *end = NULL;
    /* len + 1: cJSON checks for the terminator inside the length it is given */
    *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (*root) {
        free(text);
        return 0;
    }
    size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off; i++, col++)
        if (text[i] == '\n') {
            line++;
            col = 0;
        }
    int rc;
    if (off >= len) {
        rc = fail(L, CUTUNE_EPARSE, NULL,
                  "malformed JSON: unexpected end of input at line %zu, column %zu (byte %zu; "
                  "truncated?)",
                  line, col, off);
    } else {
        char near[24];
        size_t k;
        for (k = 0; k + 1 < sizeof near && off + k < len && text[off + k] != '\n'; k++) {
            unsigned char c = (unsigned char)text[off + k];
            near[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        near[k] = '\0';
        rc = fail(L, CUTUNE_EPARSE, NULL,
                  "malformed JSON at line %zu, column %zu (byte %zu), near '%s'", line, col, off,
                  near);
    }
    free(text);
    return rc;
}

static int load_source(loader *L, const cJSON *root)
{
    cutune_spec *s = &L->impl->pub;
    const char *src, *kernel;
    char *fallback = NULL;
    size_t len;
    int rc = string_member(L, root, NULL, "source", 0, &src);
    if (rc)
        return rc;
    if (!src) { /* default: NAME.cu beside the JSON, NAME the file stem */
        char *stem = stem_of(L->file);
        size_t n = stem ? strlen(stem) : 0;
        fallback = stem ? realloc(stem, n + 4) : NULL;
        if (!fallback) {
            free(stem);
            return fail(L, CUTUNE_ENOMEM, "source", "out of memory");
        }
        memcpy(fallback + n, ".cu", 4);
        src = fallback;
    }
    s->source_path = join_path(L->dir, src);
    free(fallback);
    if (!s->source_path)
        return fail(L, CUTUNE_ENOMEM, "source", "out of memory");
    char why[MSG_LEN];
    int e = cutune_read_file(s->source_path, &s->source, &len, why, sizeof why);
    if (e < 0)
        return fail(L, e, "source", "%s", why);
    const char *nul = memchr(s->source, '\0', len);
    if (nul)
        return fail(L, CUTUNE_EINVAL, "source",
                    "%s: NUL byte at byte %zu (a C source holds none: the compiler would see "
                    "only what comes before it)",
                    s->source_path, (size_t)(nul - s->source));
    rc = string_member(L, root, NULL, "kernel", 0, &kernel);
    if (rc)
        return rc;
    s->kernel_name = dup_str(kernel ? kernel : s->name);
    if (!s->kernel_name)
        return fail(L, CUTUNE_ENOMEM, "kernel", "out of memory");
    if (!is_ident(s->kernel_name))
        return fail(L, CUTUNE_EINVAL, "kernel", "'%s' is not a C identifier", s->kernel_name);
    if (!source_has_word(s->source, s->kernel_name))
        return fail(L, CUTUNE_ENOTFOUND, "kernel", "kernel '%s' not found in %s", s->kernel_name,
                    s->source_path);
    return 0;
}

static int load_tail(loader *L, const cJSON *root)
{
    cutune_spec *s = &L->impl->pub;
    const char *objective, *recording, *description;
    int rc = string_member(L, root, NULL, "description", 0, &description);
    if (!rc)
        rc = string_member(L, root, NULL, "objective", 0, &objective);
    if (rc)
        return rc;
    if (objective && strcmp(objective, "time") != 0)
        return fail(L, CUTUNE_EUNSUPPORTED, "objective",
                    "unsupported objective '%s' (valid objectives: time)", objective);
    s->objective = dup_str("time");
    if (!s->objective)
        return fail(L, CUTUNE_ENOMEM, "objective", "out of memory");
    rc = string_member(L, root, NULL, "recording", 0, &recording);
    if (rc || !recording)
        return rc;
    /* kept as a path: the recording may be measured later */
    s->recording = join_path(L->dir, recording);
    return s->recording ? 0 : fail(L, CUTUNE_ENOMEM, "recording", "out of memory");
}

static int load_root(loader *L, const cJSON *root, const char *json, size_t len,
                     const cutune_size_override *ov, size_t nov)
{
    spec_impl *impl = L->impl;
    cutune_spec *s = &impl->pub;
    const char *name;
    int rc = want_type(L, root, NULL, cJSON_IsObject(root), "a JSON object at the top level");
    if (!rc)
        rc = check_members(L, root, NULL, top_fields, sizeof top_fields / sizeof top_fields[0]);
    if (!rc)
        rc = string_member(L, root, NULL, "name", 0, &name);
    if (rc)
        return rc;
    s->path = dup_str(L->file);
    s->name = name ? dup_str(name) : stem_of(L->file);
    s->space = cutune_space_alloc();
    if (!s->path || !s->name || !s->space)
        return fail(L, CUTUNE_ENOMEM, NULL, "out of memory");
    rc = load_source(L, root);
    if (!rc)
        rc = load_params(L, root);
    if (!rc)
        rc = load_sizes(L, root, ov, nov);
    if (!rc)
        rc = load_restrictions(L, root);
    if (!rc)
        rc = enumerate(L);
    if (rc)
        return rc;
    cutune_symtab syms = cutune_space_symtab(s->space);
    rc = build_metric_symtab(L, &syms);
    if (!rc)
        rc = load_launch(L, root, &syms);
    if (!rc)
        rc = load_options(L, root, &syms);
    if (!rc)
        rc = load_args(L, root, &syms);
    if (!rc)
        rc = load_reference(L, root, &syms);
    if (!rc)
        rc = load_tolerance(L, root);
    if (!rc)
        rc = load_metrics(L, root);
    if (!rc)
        rc = load_tail(L, root);
    if (!rc)
        rc = smoke_test(L);
    if (!rc)
        compute_hash(s, json, len);
    return rc;
}

int cutune_spec_load_buffer(const char *name, const char *json, size_t len, const char *source_dir,
                            const cutune_size_override *ov, size_t nov, cutune_spec **out,
                            char *err, size_t errlen)
{
    loader L = {.file = name ? name : "(buffer)", .dir = source_dir, .err = err, .errlen = errlen};
    cJSON *root = NULL;
    int rc;
    if (out)
        *out = NULL;
    if (!json || !out || (nov && !ov))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: bad arguments to cutune_spec_load",
                          L.file);
    rc = parse_json(&L, json, len, &root);
    if (rc)
        return rc;
    if (cutune_spec_t1_detect(root)) { /* a T1 file (t1.c): mapped onto a spec, loaded here */
        rc = cutune_spec_t1_load(L.file, json, len, root, source_dir, ov, nov, out, err, errlen);
        cJSON_Delete(root);
        return rc;
    }
    L.text = json;
    L.textlen = len;
    /* cJSON cuts a string at a \u0000 ("k.cu\u0000x" would read as "k.cu") */
    char where[PATH_LEN];
    int is_key;
    if ((rc = cutune_json_check_nul(json, len, root, where, sizeof where, &is_key)) < 0) {
        rc = fail(&L, rc, where, "%s a NUL character (\\u0000): spec strings hold none",
                  is_key ? "a key holds" : "holds");
        goto out_free_root;
    }
    rc = index_numbers(&L, json, len, root);
    if (rc)
        goto out_free_root;
    L.impl = calloc(1, sizeof *L.impl);
    if (!L.impl) {
        rc = fail(&L, CUTUNE_ENOMEM, NULL, "out of memory");
        goto out_free_root;
    }
    rc = load_root(&L, root, json, len, ov, nov);
    if (rc) {
        cutune_spec_free(&L.impl->pub);
        goto out_free_root;
    }
    *out = &L.impl->pub;
out_free_root:
    free(L.nums);
    cJSON_Delete(root);
    return rc;
}

int cutune_spec_load(const char *path, const cutune_size_override *ov, size_t nov,
                     cutune_spec **out, char *err, size_t errlen)
{
    char *json = NULL, *dir = NULL;
    size_t len = 0;
    if (out)
        *out = NULL;
    if (!path || !out)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_spec_load: no path");
    int e = cutune_read_file(path, &json, &len, err, errlen);
    if (e < 0)
        return e;
    dir = dir_of(path);
    int rc = dir ? cutune_spec_load_buffer(path, json, len, dir, ov, nov, out, err, errlen)
                 : cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    free(dir);
    free(json);
    return rc;
}

void cutune_spec_free(cutune_spec *s)
{
    if (!s)
        return;
    spec_impl *impl = (spec_impl *)s; /* every spec is allocated as a spec_impl */
    free(s->name);
    free(s->path);
    free(s->source_path);
    free(s->source);
    free(s->kernel_name);
    cutune_space_free(s->space);
    for (size_t d = 0; d < 3; d++) {
        cutune_expr_free(s->grid[d]);
        cutune_expr_free(s->block[d]);
        cutune_expr_free(s->ref_grid[d]);
        cutune_expr_free(s->ref_block[d]);
    }
    cutune_expr_free(s->shared_mem);
    cutune_expr_free(s->ref_shared_mem);
    for (size_t i = 0; i < s->noptions; i++)
        free(s->options[i].text);
    free(s->options);
    for (size_t i = 0; i < s->nargs; i++) {
        free(s->args[i].name);
        cutune_expr_free(s->args[i].value);
        cutune_expr_free(s->args[i].size);
        free(s->args[i].init_name);
    }
    free(s->args);
    free(s->ref_name);
    free(s->objective);
    for (size_t i = 0; i < s->nmetrics; i++) {
        free(s->metrics[i].name);
        cutune_expr_free(s->metrics[i].expr);
    }
    free(s->metrics);
    free(s->recording);
    free(s->warnings);
    free(impl->metric_names);
    free(impl);
}

/* ------------------------------------------------------------------ per configuration */

static int check_id(const cutune_spec *s, size_t id, char *err, size_t errlen)
{
    if (!s || !s->space)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "no spec");
    if (id >= cutune_space_size(s->space))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: configuration id %zu out of range (%zu valid)", s->path, id,
                          cutune_space_size(s->space));
    return 0;
}

int cutune_spec_metrics(const cutune_spec *s, size_t id, double time_ms, double *out, char *err,
                        size_t errlen)
{
    int rc = check_id(s, id, err, errlen);
    if (rc)
        return rc;
    const spec_impl *impl = (const spec_impl *)s;
    size_t nv = impl->nmetric_names;
    cutune_value *vars = calloc(nv, sizeof *vars);
    if (!vars)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", s->path);
    cutune_space_values(s->space, id, vars);
    vars[nv - 2].type = CUTUNE_VALUE_REAL;
    vars[nv - 2].r = time_ms;
    vars[nv - 1].type = CUTUNE_VALUE_REAL;
    vars[nv - 1].r = time_ms * 1e-3;
    for (size_t i = 0; i < s->nmetrics; i++) {
        char msg[MSG_LEN] = "", path[PATH_LEN];
        int r = cutune_expr_eval_double(s->metrics[i].expr, vars, &out[i], msg, sizeof msg);
        if (r) {
            out[i] = NAN;
            if (!rc) { /* report the first failure, still compute the others */
                path_member(path, sizeof path, "metrics", s->metrics[i].name);
                rc = cutune_err(err, errlen, r, "%s: %s: %s", s->path, path, msg);
            }
        }
    }
    free(vars);
    return rc;
}

static int is_dropped_option(const char *opt)
{
    /* 0 means "no limit" in a parameter list, but NVRTC reads it as a limit of 0 */
    return strcmp(opt, "-maxrregcount=0") == 0 || strcmp(opt, "--maxrregcount=0") == 0;
}

/* One option with its {NAME}s replaced by the values in vars; NULL on OOM. */
static char *substitute(const char *text, const cutune_symtab *st, const cutune_value *vars)
{
    size_t cap = strlen(text) + 64, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (const char *p = text; *p;) {
        char piece[128];
        const char *add = p;
        size_t addlen = 1;
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close) {
            size_t k, len = (size_t)(close - p - 1);
            for (k = 0; k < st->n; k++)
                if (strlen(st->names[k]) == len && strncmp(st->names[k], p + 1, len) == 0)
                    break;
            if (k < st->n) { /* checked at load: always found */
                int w = cutune_value_format(&vars[k], piece, sizeof piece);
                add = piece;
                addlen = w < 0 ? 0 : (size_t)w < sizeof piece ? (size_t)w : sizeof piece - 1;
                p = close + 1;
            } else {
                p++;
            }
        } else {
            p++;
        }
        if (n + addlen + 1 > cap) {
            cap = 2 * (n + addlen + 1);
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        memcpy(buf + n, add, addlen);
        n += addlen;
    }
    buf[n] = '\0';
    return buf;
}

int cutune_spec_options(const cutune_spec *s, size_t id, char ***out, size_t *n, char *err,
                        size_t errlen)
{
    char **opts = NULL;
    cutune_value *vars = NULL;
    size_t k = 0;
    if (out)
        *out = NULL;
    if (n)
        *n = 0;
    int rc = check_id(s, id, err, errlen);
    if (rc)
        return rc;
    if (!out || !n)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "cutune_spec_options: no output");
    cutune_symtab st = cutune_space_symtab(s->space);
    opts = calloc(s->noptions + 1, sizeof *opts); /* NULL-terminated as well */
    vars = calloc(st.n + 1, sizeof *vars);
    if (!opts || !vars)
        goto out_nomem;
    cutune_space_values(s->space, id, vars);
    for (size_t i = 0; i < s->noptions; i++) {
        char *o = substitute(s->options[i].text, &st, vars);
        if (!o)
            goto out_nomem;
        if (is_dropped_option(o)) {
            free(o);
            continue;
        }
        opts[k++] = o;
    }
    free(vars);
    *out = opts;
    *n = k;
    return 0;
out_nomem:
    for (size_t i = 0; opts && i < k; i++)
        free(opts[i]);
    free(opts);
    free(vars);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", s->path);
}
