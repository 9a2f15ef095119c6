/*
 * T1 input files read as kernel specs. T1 is the auto-tuning community's description of a
 * tuning problem (the AutoTuningAssociation's "Tuning format" schema, TuningSchema.json,
 * shipped by Kernel Tuner as schema/T1/1.0.0/input-schema.json and read by KTT and BAT).
 *
 * The T1 document is mapped onto a cutune spec document in memory, and that is loaded as
 * any spec is (spec.c): one set of checks for both formats. The spec loader's messages
 * name cutune's fields ("args[2].size"); each field made here is recorded with the T1
 * field it came from, so a message is rewritten to name the T1 field and its line in the
 * T1 file. What T1 says that cutune cannot do is an error when it changes what is measured
 * or what counts as correct, and a warning (spec->warnings, one line each) when it is
 * metadata or run control. docs/formats.md has the mapping table.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cutune/expr.h"
#include "cutune/space.h"
#include "json_path.h"
#include "t1.h"

#define MSG_LEN 1024
#define PATH_LEN 256

/* A field of the cutune document and the T1 field it was made from. */
typedef struct t1_map {
    char *native;    /* e.g. "args[2].size" */
    char *t1;        /* e.g. "KernelSpecification.Arguments[2].Size" */
    int keep_suffix; /* a deeper native path keeps its tail ("[3]") */
} t1_map;

/* What is known of a tuning parameter when Sizes are rewritten (max(P), min(P), len(P)). */
typedef struct t1_param {
    char *name;
    size_t nvalues;
    int numeric;           /* every value a number */
    char min[64], max[64]; /* as expression literals (numeric only) */
} t1_param;

/* State of one mapping. */
typedef struct t1 {
    const char *file; /* the T1 file as named in messages */
    const char *dir;  /* its folder: relative paths start here */
    const char *text; /* the T1 text (lines of messages) */
    size_t len;       /* its length */
    char *err;        /* caller's message buffer */
    size_t errlen;    /* its size */
    int oom;          /* an allocation failed while building */
    t1_map *maps;     /* native -> T1 fields */
    size_t nmaps, capmaps;
    char *warnings;   /* lines, each ending in '\n', or NULL */
    size_t wlen;      /* its length */
    t1_param *params; /* the tuning parameters, in order */
    size_t nparams;
    int problem_kind; /* ProblemSize: 0 none, 1 a number ("ProblemSize"), 2 an array */
    size_t nproblem;  /* entries of the array */
} t1;

/* ------------------------------------------------------------------ messages */

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

/* "FILE:LINE: PATH: reason" (the line where the T1 file holds PATH, or the deepest part of
 * it that it holds); no line when the text has none. */
static void vformat_at(const t1 *T, char *buf, size_t len, const char *path, const char *fmt,
                       va_list ap)
{
    char reason[MSG_LEN];
    size_t steps = 0, line = 0;
    vsnprintf(reason, sizeof reason, fmt, ap);
    if (T->text)
        line = cutune_json_path_line(T->text, T->len, path ? path : "", &steps);
    if (line && path && *path)
        snprintf(buf, len, "%s:%zu: %s: %s", T->file, line, path, reason);
    else if (line)
        snprintf(buf, len, "%s:%zu: %s", T->file, line, reason);
    else if (path && *path)
        snprintf(buf, len, "%s: %s: %s", T->file, path, reason);
    else
        snprintf(buf, len, "%s: %s", T->file, reason);
}

static int fail(t1 *T, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(t1 *T, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (T->err && T->errlen)
        vformat_at(T, T->err, T->errlen, path, fmt, ap);
    va_end(ap);
    return code;
}

static int oom(t1 *T)
{
    return fail(T, CUTUNE_ENOMEM, NULL, "out of memory");
}

/* One warning line about the field at line_path, shown as shown (a "[*]" path names every
 * element of an array once); a line said already is not said again. */
static void warn(t1 *T, const char *line_path, const char *shown, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void warn(t1 *T, const char *line_path, const char *shown, const char *fmt, ...)
{
    char reason[MSG_LEN], line[MSG_LEN + PATH_LEN + 64], tmp[MSG_LEN + PATH_LEN + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(tmp, sizeof tmp, "%s: %s", shown, reason);
    if (T->warnings) /* said already (without its line: the first occurrence's stays) */
        for (const char *p = T->warnings; (p = strstr(p, tmp)); p++)
            if (p[strlen(tmp)] == '\n' && p > T->warnings && p[-1] == ' ')
                return;
    size_t steps = 0, ln = cutune_json_path_line(T->text, T->len, line_path, &steps);
    int n = snprintf(line, sizeof line, "%s:%zu: %s\n", T->file, ln, tmp);
    if (n < 0)
        return;
    size_t add = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    char *w = realloc(T->warnings, T->wlen + add + 1);
    if (!w) {
        T->oom = 1;
        return;
    }
    memcpy(w + T->wlen, line, add);
    T->wlen += add;
    w[T->wlen] = '\0';
    T->warnings = w;
}

/* ------------------------------------------------------------------ building */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Record that the native field came from the T1 field. */
static void map(t1 *T, const char *native, const char *t1path, int keep_suffix)
{
    if (T->nmaps == T->capmaps) {
        size_t cap = T->capmaps ? 2 * T->capmaps : 32;
        t1_map *m = realloc(T->maps, cap * sizeof *m);
        if (!m) {
            T->oom = 1;
            return;
        }
        T->maps = m;
        T->capmaps = cap;
    }
    t1_map *m = &T->maps[T->nmaps];
    m->native = dup_str(native);
    m->t1 = dup_str(t1path);
    m->keep_suffix = keep_suffix;
    if (!m->native || !m->t1) {
        free(m->native);
        free(m->t1);
        T->oom = 1;
        return;
    }
    T->nmaps++;
}

/* Add item to obj under key (or to the array obj when key is NULL); an allocation that
 * failed is remembered, never a crash. */
static cJSON *add(t1 *T, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !obj) {
        cJSON_Delete(item);
        T->oom = 1;
        return NULL;
    }
    int ok = key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item);
    if (!ok) {
        cJSON_Delete(item);
        T->oom = 1;
        return NULL;
    }
    return item;
}

/* A number node printed as the literal text (the spec loader reads 1 and 1.0 apart). */
static cJSON *number_node(const cutune_value *v)
{
    char text[64];
    cutune_value_format(v, text, sizeof text);
    return cJSON_CreateRaw(text);
}

/* A JSON number as a value: an integer where it is integral, else a real. */
static cutune_value json_number(const cJSON *j)
{
    cutune_value v = {.type = CUTUNE_VALUE_REAL, .r = j->valuedouble};
    if (j->valuedouble == floor(j->valuedouble) && fabs(j->valuedouble) < 9007199254740992.0) {
        v.type = CUTUNE_VALUE_INT;
        v.i = (long long)j->valuedouble;
    }
    return v;
}

static const cJSON *member(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

/* parent.key (key an identifier) or parent["key"], as the spec loader spells paths. */
static void path_member(char *buf, size_t len, const char *parent, const char *key)
{
    const char *dot = parent && *parent ? "." : "";
    if (is_ident(key))
        snprintf(buf, len, "%s%s%s", parent ? parent : "", dot, key);
    else
        snprintf(buf, len, "%s[\"%s\"]", parent ? parent : "", key);
}

/* ------------------------------------------------------------------ expressions */

/* Index of the tuning parameter name[0..n), or -1. */
static long param_index(const t1 *T, const char *name, size_t n)
{
    for (size_t p = 0; p < T->nparams; p++)
        if (strlen(T->params[p].name) == n && strncmp(T->params[p].name, name, n) == 0)
            return (long)p;
    return -1;
}

static size_t skip_blanks(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return i;
}

/*
 * A T1 expression in cutune's language: "ProblemSize[k]" is the size ProblemSize_k. In a
 * buffer Size (sizes only), Kernel Tuner binds each parameter's name to its list of values,
 * the buffer being allocated once: max(P), min(P) and len(P) of a parameter P become that
 * number. Strings are copied as they are. Returns a malloc'd string, or NULL (out of
 * memory).
 */
static char *rewrite_expr(const t1 *T, const char *src, int size_expr)
{
    size_t n = strlen(src), cap = 2 * n + 64, o = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        char piece[80];
        const char *add_text = src + i;
        size_t add_len = 1, next = i + 1;
        if (src[i] == '"' || src[i] == '\'') {
            size_t j = i + 1;
            while (j < n && src[j] != src[i])
                j += src[j] == '\\' && j + 1 < n ? 2 : 1;
            next = j < n ? j + 1 : n;
            add_len = next - i;
        } else if (is_ident_char(src[i], 1) && (i == 0 || !is_ident_char(src[i - 1], 0))) {
            size_t j = i;
            while (is_ident_char(src[j], 0))
                j++;
            size_t idl = j - i, k = skip_blanks(src, j);
            add_len = idl;
            next = j;
            if (T->problem_kind == 2 && idl == 11 && strncmp(src + i, "ProblemSize", 11) == 0 &&
                src[k] == '[') {
                size_t a = skip_blanks(src, k + 1), b = a;
                while (src[b] >= '0' && src[b] <= '9')
                    b++;
                size_t c = skip_blanks(src, b);
                if (b > a && b - a < 8 && src[c] == ']') {
                    snprintf(piece, sizeof piece, "ProblemSize_%.*s", (int)(b - a), src + a);
                    add_text = piece;
                    add_len = strlen(piece);
                    next = c + 1;
                }
            } else if (size_expr && src[k] == '(' &&
                       ((idl == 3 &&
                         (strncmp(src + i, "max", 3) == 0 || strncmp(src + i, "min", 3) == 0 ||
                          strncmp(src + i, "len", 3) == 0)))) {
                size_t a = skip_blanks(src, k + 1), b = a;
                while (is_ident_char(src[b], b == a))
                    b++;
                size_t c = skip_blanks(src, b);
                long p = b > a && src[c] == ')' ? param_index(T, src + a, b - a) : -1;
                if (p >= 0 && (src[i + 1] == 'e' || T->params[p].numeric)) {
                    const t1_param *tp = &T->params[p];
                    if (src[i + 1] == 'e')
                        snprintf(piece, sizeof piece, "%zu", tp->nvalues);
                    else
                        snprintf(piece, sizeof piece, "%s", src[i + 1] == 'a' ? tp->max : tp->min);
                    add_text = piece;
                    add_len = strlen(piece);
                    next = c + 1;
                }
            }
        }
        if (o + add_len + 1 > cap) {
            cap = 2 * (o + add_len + 1);
            char *nb = realloc(out, cap);
            if (!nb) {
                free(out);
                return NULL;
            }
            out = nb;
        }
        memcpy(out + o, add_text, add_len);
        o += add_len;
        i = next;
    }
    out[o] = '\0';
    return out;
}

/* An expression node of the cutune document from a T1 string or number at path. */
static int expr_node(t1 *T, const cJSON *j, const char *path, int size_expr, cJSON **out)
{
    *out = NULL;
    if (cJSON_IsNumber(j)) {
        cutune_value v = json_number(j);
        if (!isfinite(j->valuedouble))
            return fail(T, CUTUNE_EINVAL, path, "number out of range");
        *out = number_node(&v);
    } else if (cJSON_IsString(j)) {
        char *text = rewrite_expr(T, j->valuestring, size_expr);
        *out = text ? cJSON_CreateString(text) : NULL;
        free(text);
    } else {
        return fail(T, CUTUNE_EINVAL, path, "expected an expression (a string) or a number");
    }
    return *out ? 0 : oom(T);
}

/* ------------------------------------------------------------------ tuning parameters */

/* Evaluate a constant expression (a Python literal such as 32, 2**5, 'a', True). */
static int eval_const(t1 *T, const char *path, const char *text, size_t n, cutune_value *v,
                      char *sbuf, size_t slen)
{
    char src[512], msg[MSG_LEN] = "";
    cutune_symtab none = {.names = NULL, .n = 0};
    cutune_expr *e = NULL;
    if (n >= sizeof src)
        return fail(T, CUTUNE_EINVAL, path, "value '%.40s...' too long", text);
    memcpy(src, text, n);
    src[n] = '\0';
    int rc = cutune_expr_parse(src, &none, &e, msg, sizeof msg);
    if (!rc)
        rc = cutune_expr_eval(e, NULL, v, msg, sizeof msg);
    if (!rc && v->type == CUTUNE_VALUE_STRING) {
        snprintf(sbuf, slen, "%s", v->s);
        v->s = sbuf;
    }
    cutune_expr_free(e);
    if (rc)
        return fail(T, rc, path, "value '%s': %s (values are Python literals: 32, 0.5, 'name')",
                    src, msg);
    if (v->type == CUTUNE_VALUE_REAL && !isfinite(v->r))
        return fail(T, CUTUNE_EINVAL, path, "value '%s' is not finite", src);
    return 0;
}

/* Parse range(stop), range(start, stop[, step]) from the arguments in s[0..n). */
static int parse_range(t1 *T, const char *path, const char *s, size_t n, long long r[3],
                       size_t *count)
{
    long long a[3];
    size_t na = 0, start = 0;
    int depth = 0;
    char sbuf[8];
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (s[i] == '(' || s[i] == '['))
            depth++;
        else if (i < n && (s[i] == ')' || s[i] == ']'))
            depth--;
        if (i == n || (s[i] == ',' && depth == 0)) {
            cutune_value v;
            if (na == 3)
                return fail(T, CUTUNE_EINVAL, path, "range() takes 1 to 3 arguments");
            int rc = eval_const(T, path, s + start, i - start, &v, sbuf, sizeof sbuf);
            if (rc)
                return rc;
            if (v.type != CUTUNE_VALUE_INT)
                return fail(T, CUTUNE_EINVAL, path, "range() takes integers");
            a[na++] = v.i;
            start = i + 1;
        }
    }
    r[0] = na == 1 ? 0 : a[0];
    r[1] = na == 1 ? a[0] : a[1];
    r[2] = na == 3 ? a[2] : 1;
    if (r[2] == 0)
        return fail(T, CUTUNE_EINVAL, path, "range() step must not be zero");
    double span = ((double)r[1] - (double)r[0]) / (double)r[2];
    *count = span > 0 ? (size_t)fmin(ceil(span), 1e9) : 0;
    return 0;
}

/* s[0..n) without the blanks around it. */
static void trim(const char **s, size_t *n)
{
    while (*n && strchr(" \t\r\n", (*s)[0])) {
        (*s)++;
        (*n)--;
    }
    while (*n && strchr(" \t\r\n", (*s)[*n - 1]))
        (*n)--;
}

static int starts_call(const char *s, size_t n, const char *fn)
{
    size_t k = strlen(fn);
    if (n < k + 2 || strncmp(s, fn, k) != 0 || s[n - 1] != ')')
        return 0;
    size_t i = k;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i < n && s[i] == '(';
}

/* Add one value to the parameter's list: a number (or a boolean for Type bool) or a string
 * as Type says. */
static int add_value(t1 *T, const char *path, const char *type, const cutune_value *v, cJSON *list,
                     t1_param *tp)
{
    char text[64];
    cutune_value_format(v, text, sizeof text);
    int is_str = v->type == CUTUNE_VALUE_STRING;
    if (strcmp(type, "string") == 0 && !is_str)
        return fail(T, CUTUNE_EINVAL, path, "value %s of a string parameter is not a string", text);
    if (strcmp(type, "string") != 0 && is_str)
        return fail(T, CUTUNE_EINVAL, path, "value '%s' of a%s %s parameter is not a number", v->s,
                    type[0] == 'i' || type[0] == 'u' ? "n" : "", type);
    if ((strcmp(type, "int") == 0 || strcmp(type, "uint") == 0) && v->type != CUTUNE_VALUE_INT)
        return fail(T, CUTUNE_EINVAL, path, "value %s of an %s parameter is not an integer", text,
                    type);
    if (strcmp(type, "uint") == 0 && v->i < 0)
        return fail(T, CUTUNE_EINVAL, path, "value %s of a uint parameter is negative", text);
    if (strcmp(type, "bool") == 0 && !(v->type == CUTUNE_VALUE_INT && (v->i == 0 || v->i == 1)))
        return fail(T, CUTUNE_EINVAL, path,
                    "value %s of a bool parameter is not True, False, 1 or 0", text);
    if (tp->nvalues >= CUTUNE_SPACE_MAX_VALUES)
        return fail(T, CUTUNE_EINVAL, path, "more than %d values", CUTUNE_SPACE_MAX_VALUES);
    if (!add(T, list, NULL, is_str ? cJSON_CreateString(v->s) : number_node(v)))
        return oom(T);
    if (!is_str) {
        double d = cutune_value_as_double(v);
        char *end;
        if (!tp->nvalues || d < strtod(tp->min, &end))
            snprintf(tp->min, sizeof tp->min, "%s", text);
        if (!tp->nvalues || d > strtod(tp->max, &end))
            snprintf(tp->max, sizeof tp->max, "%s", text);
    } else {
        tp->numeric = 0;
    }
    tp->nvalues++;
    return 0;
}

/* Values: a Python list or tuple of literals, range(...), or list(...) of either, as
 * Kernel Tuner evaluates them; or (leniently) a JSON array of numbers and strings. */
static int parse_values(t1 *T, const char *path, const cJSON *vals, const char *type, cJSON *list,
                        t1_param *tp)
{
    char sbuf[512];
    if (cJSON_IsArray(vals)) {
        for (const cJSON *e = vals->child; e; e = e->next) {
            cutune_value v;
            if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
                v = json_number(e);
            else if (cJSON_IsString(e))
                v = (cutune_value){.type = CUTUNE_VALUE_STRING, .s = e->valuestring};
            else if (cJSON_IsBool(e))
                v = (cutune_value){.type = CUTUNE_VALUE_INT, .i = cJSON_IsTrue(e)};
            else
                return fail(T, CUTUNE_EINVAL, path, "expected numbers or strings");
            int rc = add_value(T, path, type, &v, list, tp);
            if (rc)
                return rc;
        }
        return tp->nvalues ? 0 : fail(T, CUTUNE_EINVAL, path, "no values");
    }
    if (!cJSON_IsString(vals))
        return fail(T, CUTUNE_EINVAL, path,
                    "expected a string holding a Python list (\"[1, 2, 4]\") or range(...)");
    const char *s = vals->valuestring;
    size_t n = strlen(s);
    trim(&s, &n);
    if (starts_call(s, n, "list")) { /* list(X): X */
        const char *open = strchr(s, '(');
        n = (size_t)(s + n - 1 - (open + 1));
        s = open + 1;
        trim(&s, &n);
    }
    if (starts_call(s, n, "range")) {
        const char *open = strchr(s, '(');
        long long r[3];
        size_t count;
        int rc = parse_range(T, path, open + 1, (size_t)(s + n - 1 - (open + 1)), r, &count);
        if (rc)
            return rc;
        if (count == 0)
            return fail(T, CUTUNE_EINVAL, path, "range() holds no values");
        if (count > CUTUNE_SPACE_MAX_VALUES)
            return fail(T, CUTUNE_EINVAL, path, "range() holds %zu values (at most %d)", count,
                        CUTUNE_SPACE_MAX_VALUES);
        for (size_t k = 0; k < count; k++) {
            cutune_value v = {.type = CUTUNE_VALUE_INT, .i = r[0] + (long long)k * r[2]};
            if ((rc = add_value(T, path, type, &v, list, tp)))
                return rc;
        }
        return 0;
    }
    if (n < 2 || !((s[0] == '[' && s[n - 1] == ']') || (s[0] == '(' && s[n - 1] == ')')))
        return fail(T, CUTUNE_EINVAL, path,
                    "'%s' is not a list of values (a Python list \"[1, 2, 4]\", a tuple, "
                    "range(...) or list(range(...)))",
                    vals->valuestring);
    size_t start = 1, depth = 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < n - 1 && s[j] != c)
                j += s[j] == '\\' ? 2 : 1;
            i = j;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && i < n - 1)
            depth--;
        if ((c == ',' && depth == 0) || i == n - 1) {
            const char *item = s + start;
            size_t il = i - start;
            trim(&item, &il);
            start = i + 1;
            if (!il && i == n - 1 && tp->nvalues) /* [1, 2,]: Python's trailing comma */
                break;
            if (!il)
                return fail(T, CUTUNE_EINVAL, path, "an empty value in '%s'", vals->valuestring);
            for (size_t k = 0; k + 4 < il; k++)
                if (strncmp(item + k, " for ", 5) == 0)
                    return fail(T, CUTUNE_EUNSUPPORTED, path,
                                "'%s': a list comprehension is not read (write the values "
                                "out, or use range(...))",
                                vals->valuestring);
            cutune_value v;
            int rc = eval_const(T, path, item, il, &v, sbuf, sizeof sbuf);
            if (!rc)
                rc = add_value(T, path, type, &v, list, tp);
            if (rc)
                return rc;
        }
    }
    return tp->nvalues ? 0 : fail(T, CUTUNE_EINVAL, path, "no values");
}

static const char *const param_types[] = {"int", "uint", "float", "bool", "string"};

static int load_parameters(t1 *T, const cJSON *cs, cJSON *doc)
{
    const cJSON *tps = member(cs, "TuningParameters");
    char path[PATH_LEN], npath[PATH_LEN];
    if (!tps)
        return fail(T, CUTUNE_EINVAL, "ConfigurationSpace.TuningParameters", "missing (required)");
    if (!cJSON_IsArray(tps) || !tps->child)
        return fail(T, CUTUNE_EINVAL, "ConfigurationSpace.TuningParameters",
                    "expected a non-empty array of parameters");
    size_t n = (size_t)cJSON_GetArraySize(tps), i = 0;
    T->params = calloc(n, sizeof *T->params);
    cJSON *params = add(T, doc, "parameters", cJSON_CreateObject());
    if (!T->params || !params)
        return oom(T);
    map(T, "parameters", "ConfigurationSpace.TuningParameters", 0);
    for (const cJSON *p = tps->child; p; p = p->next, i++) {
        snprintf(path, sizeof path, "ConfigurationSpace.TuningParameters[%zu]", i);
        if (!cJSON_IsObject(p))
            return fail(T, CUTUNE_EINVAL, path, "expected an object");
        const cJSON *name = member(p, "Name"), *type = member(p, "Type"),
                    *vals = member(p, "Values");
        char fpath[PATH_LEN + 16];
        for (const char *const *f = (const char *const[]){"Name", "Type", "Values", NULL}; *f; f++)
            if (!member(p, *f)) {
                snprintf(fpath, sizeof fpath, "%s.%s", path, *f);
                return fail(T, CUTUNE_EINVAL, fpath, "missing (required)");
            }
        snprintf(fpath, sizeof fpath, "%s.Name", path);
        if (!cJSON_IsString(name) || !name->valuestring[0])
            return fail(T, CUTUNE_EINVAL, fpath, "expected a parameter name");
        if (param_index(T, name->valuestring, strlen(name->valuestring)) >= 0)
            return fail(T, CUTUNE_EINVAL, fpath, "parameter '%s' given twice", name->valuestring);
        snprintf(fpath, sizeof fpath, "%s.Type", path);
        size_t k;
        for (k = 0;
             k < 5 && !(cJSON_IsString(type) && strcmp(type->valuestring, param_types[k]) == 0);
             k++)
            ;
        if (k == 5)
            return fail(T, CUTUNE_EINVAL, fpath,
                        "expected one of int, uint, float, bool, string (T1's parameter types)");
        t1_param *tp = &T->params[T->nparams++];
        tp->name = dup_str(name->valuestring);
        tp->numeric = 1;
        cJSON *list = add(T, params, name->valuestring, cJSON_CreateArray());
        if (!tp->name || !list)
            return oom(T);
        snprintf(fpath, sizeof fpath, "%s.Values", path);
        int rc = parse_values(T, fpath, vals, type->valuestring, list, tp);
        if (rc)
            return rc;
        path_member(npath, sizeof npath, "parameters", name->valuestring);
        map(T, npath, path, 0);
        for (const cJSON *f = p->child; f; f = f->next) {
            if (strcmp(f->string, "Name") == 0 || strcmp(f->string, "Type") == 0 ||
                strcmp(f->string, "Values") == 0)
                continue;
            snprintf(fpath, sizeof fpath, "%s.%s", path, f->string);
            char shown[PATH_LEN + 64];
            snprintf(shown, sizeof shown, "ConfigurationSpace.TuningParameters[*].%s", f->string);
            if (strcmp(f->string, "Default") == 0)
                warn(T, fpath, shown,
                     "ignored (cutune has no default configuration: its searchers start from "
                     "their own designs)");
            else
                warn(T, fpath, shown, "ignored (not a field of T1's tuning parameters)");
        }
    }
    return 0;
}

static int load_conditions(t1 *T, const cJSON *cs, cJSON *doc)
{
    const cJSON *conds = member(cs, "Conditions");
    char path[PATH_LEN], fpath[PATH_LEN + 32], npath[PATH_LEN];
    if (!conds || cJSON_IsNull(conds))
        return 0;
    if (!cJSON_IsArray(conds))
        return fail(T, CUTUNE_EINVAL, "ConfigurationSpace.Conditions", "expected an array");
    cJSON *res = add(T, doc, "restrictions", cJSON_CreateArray());
    if (!res)
        return oom(T);
    map(T, "restrictions", "ConfigurationSpace.Conditions", 0);
    size_t i = 0;
    for (const cJSON *c = conds->child; c; c = c->next, i++) {
        snprintf(path, sizeof path, "ConfigurationSpace.Conditions[%zu]", i);
        if (!cJSON_IsObject(c))
            return fail(T, CUTUNE_EINVAL, path, "expected an object");
        const cJSON *ex = member(c, "Expression"), *ps = member(c, "Parameters");
        snprintf(fpath, sizeof fpath, "%s.Expression", path);
        if (!ex)
            return fail(T, CUTUNE_EINVAL, fpath, "missing (required)");
        if (!cJSON_IsString(ex))
            return fail(T, CUTUNE_EINVAL, fpath, "expected an expression (a string)");
        /* Parameters (which the schema requires, Kernel Tuner does not) names what the
         * expression reads; cutune finds that out itself, but a name that is no parameter
         * is a mistake worth a message */
        snprintf(fpath, sizeof fpath, "%s.Parameters", path);
        if (ps && !cJSON_IsArray(ps))
            return fail(T, CUTUNE_EINVAL, fpath, "expected an array of parameter names");
        size_t k = 0;
        for (const cJSON *p = ps ? ps->child : NULL; p; p = p->next, k++) {
            snprintf(fpath, sizeof fpath, "%s.Parameters[%zu]", path, k);
            if (!cJSON_IsString(p))
                return fail(T, CUTUNE_EINVAL, fpath, "expected a parameter name");
            if (param_index(T, p->valuestring, strlen(p->valuestring)) < 0)
                return fail(T, CUTUNE_ENOTFOUND, fpath, "'%s' is not a tuning parameter",
                            p->valuestring);
        }
        cJSON *node;
        snprintf(fpath, sizeof fpath, "%s.Expression", path);
        int rc = expr_node(T, ex, fpath, 0, &node);
        if (rc)
            return rc;
        if (!add(T, res, NULL, node))
            return oom(T);
        snprintf(npath, sizeof npath, "restrictions[%zu]", i);
        map(T, npath, fpath, 0);
        for (const cJSON *f = c->child; f; f = f->next)
            if (strcmp(f->string, "Expression") != 0 && strcmp(f->string, "Parameters") != 0) {
                char shown[PATH_LEN + 64];
                snprintf(fpath, sizeof fpath, "%s.%s", path, f->string);
                snprintf(shown, sizeof shown, "ConfigurationSpace.Conditions[*].%s", f->string);
                warn(T, fpath, shown, "ignored (not a field of T1's conditions)");
            }
    }
    return 0;
}

/* ------------------------------------------------------------------ kernel */

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* KernelFile relative to the T1 file's folder, else to the folder above it (where Kernel
 * Tuner looks next); as given when neither holds it (the loader then says so). */
static int load_source(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *kf = member(ks, "KernelFile"), *kn = member(ks, "KernelName");
    if (!kf)
        return fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelFile", "missing (required)");
    if (!kn)
        return fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelName", "missing (required)");
    if (!cJSON_IsString(kf) || !kf->valuestring[0])
        return fail(T, CUTUNE_EINVAL, "KernelSpecification.KernelFile", "expected a file name");
    const char *rel = kf->valuestring;
    char here[4096], above[4096], up[4096];
    snprintf(here, sizeof here, "%s/%s", T->dir ? T->dir : ".", rel);
    snprintf(above, sizeof above, "%s/../%s", T->dir ? T->dir : ".", rel);
    snprintf(up, sizeof up, "../%s", rel);
    const char *src = rel[0] != '/' && !file_exists(here) && file_exists(above) ? up : rel;
    if (!add(T, doc, "source", cJSON_CreateString(src)))
        return oom(T);
    map(T, "source", "KernelSpecification.KernelFile", 0);
    cJSON *name = cJSON_IsString(kn) ? cJSON_CreateString(kn->valuestring) : cJSON_Duplicate(kn, 1);
    if (!add(T, doc, "kernel", name))
        return oom(T);
    map(T, "kernel", "KernelSpecification.KernelName", 0);
    return 0;
}

/* ProblemSize (Kernel Tuner's field): the sizes ProblemSize_0, _1, ... of an array, or the
 * size ProblemSize of a number. */
static int load_problem_size(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *ps = member(ks, "ProblemSize");
    const char *path = "KernelSpecification.ProblemSize";
    char name[32], npath[64], tpath[PATH_LEN];
    if (!ps || cJSON_IsNull(ps))
        return 0;
    cJSON *sizes = add(T, doc, "sizes", cJSON_CreateObject());
    if (!sizes)
        return oom(T);
    map(T, "sizes", path, 0);
    if (cJSON_IsNumber(ps)) {
        cutune_value v = json_number(ps);
        if (!add(T, sizes, "ProblemSize", number_node(&v)))
            return oom(T);
        map(T, "sizes.ProblemSize", path, 0);
        T->problem_kind = 1;
        return 0;
    }
    if (!cJSON_IsArray(ps) || !ps->child)
        return fail(T, CUTUNE_EINVAL, path, "expected a number or an array of numbers");
    size_t i = 0;
    for (const cJSON *e = ps->child; e; e = e->next, i++) {
        snprintf(tpath, sizeof tpath, "%s[%zu]", path, i);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return fail(T, CUTUNE_EINVAL, tpath, "expected a number");
        cutune_value v = json_number(e);
        snprintf(name, sizeof name, "ProblemSize_%zu", i);
        if (!add(T, sizes, name, number_node(&v)))
            return oom(T);
        snprintf(npath, sizeof npath, "sizes.%s", name);
        map(T, npath, tpath, 0);
    }
    T->problem_kind = 2;
    T->nproblem = i;
    return 0;
}

/* GlobalSize or LocalSize (objects of X, Y, Z expressions) into launch.grid or .block;
 * global in OpenCL's sense (threads, GlobalSizeType "OpenCL") becomes blocks. */
static int load_dims(t1 *T, const cJSON *ks, const char *field, const char *native, int opencl,
                     cJSON *launch)
{
    static const char *const axes[3] = {"X", "Y", "Z"};
    char path[PATH_LEN], apath[PATH_LEN + 8], npath[64];
    const cJSON *dims = member(ks, field), *local = member(ks, "LocalSize");
    snprintf(path, sizeof path, "KernelSpecification.%s", field);
    if (!dims)
        return fail(T, CUTUNE_EINVAL, path, "missing (required)");
    if (!cJSON_IsObject(dims))
        return fail(T, CUTUNE_EINVAL, path, "expected an object of X, Y, Z");
    if (!member(dims, "X"))
        return fail(T, CUTUNE_EINVAL, path, "X: missing (required)");
    for (const cJSON *f = dims->child; f; f = f->next)
        if (strcmp(f->string, "X") && strcmp(f->string, "Y") && strcmp(f->string, "Z")) {
            snprintf(apath, sizeof apath, "%s.%s", path, f->string);
            return fail(T, CUTUNE_EINVAL, apath, "unknown axis (X, Y, Z)");
        }
    cJSON *arr = add(T, launch, native, cJSON_CreateArray());
    if (!arr)
        return oom(T);
    snprintf(npath, sizeof npath, "launch.%s", native);
    map(T, npath, path, 0);
    for (int d = 0; d < 3; d++) {
        const cJSON *a = member(dims, axes[d]);
        cJSON *node;
        snprintf(apath, sizeof apath, "%s.%s", path, axes[d]);
        if (!a) {
            node = cJSON_CreateRaw("1");
        } else {
            int rc = expr_node(T, a, apath, 0, &node);
            if (rc)
                return rc;
            const cJSON *l = opencl && cJSON_IsObject(local) ? member(local, axes[d]) : NULL;
            if (opencl && l) { /* threads -> blocks: ceil(G / L) */
                cJSON *ln;
                char lpath[PATH_LEN];
                snprintf(lpath, sizeof lpath, "KernelSpecification.LocalSize.%s", axes[d]);
                if ((rc = expr_node(T, l, lpath, 0, &ln))) {
                    cJSON_Delete(node);
                    return rc;
                }
                const char *g = node->valuestring, *lt = ln->valuestring; /* string or raw */
                size_t need = strlen(g) + 2 * strlen(lt) + 32;
                char *e = malloc(need);
                if (e)
                    snprintf(e, need, "((%s) + (%s) - 1) / (%s)", g, lt, lt);
                cJSON_Delete(node);
                cJSON_Delete(ln);
                node = e ? cJSON_CreateString(e) : NULL;
                free(e);
            }
        }
        if (!add(T, arr, NULL, node))
            return oom(T);
        snprintf(npath, sizeof npath, "launch.%s[%d]", native, d);
        map(T, npath, apath, 0);
    }
    return 0;
}

static int load_launch(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *gst = member(ks, "GlobalSizeType");
    int opencl = 0;
    if (gst) {
        const char *path = "KernelSpecification.GlobalSizeType";
        if (!cJSON_IsString(gst))
            return fail(T, CUTUNE_EINVAL, path, "expected CUDA or OpenCL");
        if (strcmp(gst->valuestring, "OpenCL") == 0)
            opencl = 1;
        else if (strcmp(gst->valuestring, "CUDA") != 0)
            return fail(T, CUTUNE_EUNSUPPORTED, path,
                        "'%s' is not read (CUDA: GlobalSize counts blocks; OpenCL: threads)",
                        gst->valuestring);
    }
    cJSON *launch = add(T, doc, "launch", cJSON_CreateObject());
    if (!launch)
        return oom(T);
    map(T, "launch", "KernelSpecification", 0);
    int rc = load_dims(T, ks, "GlobalSize", "grid", opencl, launch);
    if (!rc)
        rc = load_dims(T, ks, "LocalSize", "block", 0, launch);
    const cJSON *sm = member(ks, "SharedMemory");
    if (!rc && sm && !cJSON_IsNull(sm)) {
        cJSON *node;
        rc = expr_node(T, sm, "KernelSpecification.SharedMemory", 0, &node);
        if (!rc && !add(T, launch, "shared_mem", node))
            rc = oom(T);
        map(T, "launch.shared_mem", "KernelSpecification.SharedMemory", 0);
    }
    for (const char *const *g = (const char *const[]){"GridDivX", "GridDivY", "GridDivZ", NULL};
         !rc && *g; g++)
        if (member(ks, *g)) {
            char p[64];
            snprintf(p, sizeof p, "KernelSpecification.%s", *g);
            warn(T, p, p,
                 "ignored (Kernel Tuner's grid divisors: cutune launches GlobalSize blocks)");
        }
    return rc;
}

/* ------------------------------------------------------------------ arguments */

static const struct {
    const char *t1, *cutune;
} arg_types[] = {
    {"float", "float"},   {"double", "double"}, {"half", "half"},   {"int32", "int"},
    {"uint32", "uint32"}, {"int64", "int64"},   {"uint8", "uint8"},
};

static const int arg_type_sizes[] = {4, 8, 2, 4, 4, 8, 1};

/* One T1 argument at path into the cutune argument a (index i). */
static int load_arg(t1 *T, const cJSON *arg, const char *path, size_t i, cJSON *a)
{
    char fpath[PATH_LEN + 32], npath[64], name[32], shown[PATH_LEN];
    const cJSON *nm = member(arg, "Name"), *ty = member(arg, "Type"),
                *mt = member(arg, "MemoryType");
    const cJSON *fill = member(arg, "FillType"), *fv = member(arg, "FillValue");
    const cJSON *size = member(arg, "Size"), *acc = member(arg, "AccessType");
    const cJSON *outp = member(arg, "Output"), *ts = member(arg, "TypeSize");
#define FIELD(f) (snprintf(fpath, sizeof fpath, "%s.%s", path, f), fpath)
#define NATIVE(f) (snprintf(npath, sizeof npath, "args[%zu].%s", i, f), npath)
    if (!ty)
        return fail(T, CUTUNE_EINVAL, FIELD("Type"), "missing (required)");
    if (!mt)
        return fail(T, CUTUNE_EINVAL, FIELD("MemoryType"), "missing (required)");
    if (nm && !cJSON_IsString(nm))
        return fail(T, CUTUNE_EINVAL, FIELD("Name"), "expected a string");
    snprintf(name, sizeof name, "arg%zu", i);
    if (!add(T, a, "name", cJSON_CreateString(nm ? nm->valuestring : name)))
        return oom(T);
    map(T, NATIVE("name"), nm ? FIELD("Name") : path, 0);
    size_t k, nt = sizeof arg_types / sizeof arg_types[0];
    for (k = 0; k < nt && !(cJSON_IsString(ty) && strcmp(ty->valuestring, arg_types[k].t1) == 0);
         k++)
        ;
    if (k == nt)
        return fail(T, CUTUNE_EUNSUPPORTED, FIELD("Type"),
                    "%s%s%s has no cutune equivalent (cutune's argument types: float, double, "
                    "half, int32, uint32, int64, uint8)",
                    cJSON_IsString(ty) ? "'" : "", cJSON_IsString(ty) ? ty->valuestring : "this",
                    cJSON_IsString(ty) ? "'" : "");
    if (!add(T, a, "type", cJSON_CreateString(arg_types[k].cutune)))
        return oom(T);
    map(T, NATIVE("type"), FIELD("Type"), 0);
    if (ts && !(cJSON_IsNumber(ts) && ts->valuedouble == arg_type_sizes[k]))
        return fail(T, CUTUNE_EUNSUPPORTED, FIELD("TypeSize"),
                    "a %s is %d bytes: only a custom type (which cutune has not) has another size",
                    ty->valuestring, arg_type_sizes[k]);
    const char *mem = cJSON_IsString(mt) ? mt->valuestring : "";
    const char *mkind =
        cJSON_IsString(member(arg, "MemType")) ? member(arg, "MemType")->valuestring : "";
    if (strcmp(mem, "Symbol") == 0 || strcmp(mkind, "Constant") == 0)
        return fail(T, CUTUNE_EUNSUPPORTED,
                    strcmp(mem, "Symbol") == 0 ? FIELD("MemoryType") : FIELD("MemType"),
                    "a __constant__ memory symbol has no cutune equivalent (cutune passes buffers "
                    "and scalars as kernel arguments)");
    if (strcmp(mem, "Local") == 0)
        return fail(T, CUTUNE_EUNSUPPORTED, FIELD("MemoryType"),
                    "a local memory argument has no cutune equivalent (give the dynamic shared "
                    "memory in KernelSpecification.SharedMemory)");
    const char *ft = cJSON_IsString(fill) ? fill->valuestring : NULL;
    if (fill && !ft)
        return fail(T, CUTUNE_EINVAL, FIELD("FillType"), "expected a string");
    if (fv && !cJSON_IsNull(fv) && !cJSON_IsNumber(fv) && !cJSON_IsString(fv))
        return fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "expected a number");
    int have_fv = fv && !cJSON_IsNull(fv);
    if (strcmp(mem, "Scalar") == 0) {
        if (ft && strcmp(ft, "Constant") != 0)
            return fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillType"),
                        "a scalar is a constant: FillType '%s' has no cutune equivalent", ft);
        if (!have_fv)
            return fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "missing (a scalar's value)");
        cJSON *node;
        int rc = expr_node(T, fv, FIELD("FillValue"), 1, &node);
        if (rc)
            return rc;
        if (!add(T, a, "value", node))
            return oom(T);
        map(T, NATIVE("value"), FIELD("FillValue"), 0);
        if (acc && !(cJSON_IsString(acc) && strcmp(acc->valuestring, "ReadOnly") == 0))
            warn(T, FIELD("AccessType"), FIELD("AccessType"),
                 "ignored (a scalar is passed by value: only read)");
    } else if (strcmp(mem, "Vector") == 0) {
        const char *access = cJSON_IsString(acc) ? acc->valuestring : NULL;
        if (acc &&
            !(access && (strcmp(access, "ReadOnly") == 0 || strcmp(access, "WriteOnly") == 0 ||
                         strcmp(access, "ReadWrite") == 0)))
            return fail(T, CUTUNE_EINVAL, FIELD("AccessType"),
                        "expected ReadOnly, WriteOnly or ReadWrite");
        int output =
            (access && strcmp(access, "WriteOnly") == 0) ||
            (outp && (cJSON_IsTrue(outp) || (cJSON_IsNumber(outp) && outp->valuedouble != 0)));
        if (output && access && strcmp(access, "ReadWrite") == 0)
            return fail(T, CUTUNE_EUNSUPPORTED, FIELD("Output"),
                        "an output cutune checks is filled with NaN before each check, so it "
                        "cannot also be read (AccessType ReadWrite): make it WriteOnly, or drop "
                        "Output");
        if (!output && access && strcmp(access, "ReadWrite") == 0)
            warn(T, FIELD("AccessType"), FIELD("AccessType"),
                 "ReadWrite: read as an input; what the kernel writes into it is not checked "
                 "(cutune checks write-only outputs)");
        if (!size)
            return fail(T, CUTUNE_EINVAL, FIELD("Size"), "missing (a buffer's element count)");
        cJSON *node;
        int rc = expr_node(T, size, FIELD("Size"), 1, &node);
        if (rc)
            return rc;
        if (!add(T, a, "size", node))
            return oom(T);
        map(T, NATIVE("size"), FIELD("Size"), 0);
        const char *init = NULL;
        double hi = 0;
        if ((ft && strcmp(ft, "Constant") == 0) || (!ft && have_fv)) {
            double c = have_fv && cJSON_IsNumber(fv) ? fv->valuedouble : NAN;
            if (!have_fv)
                return fail(T, CUTUNE_EINVAL, FIELD("FillValue"), "missing (the constant)");
            if (c == 0)
                init = "zeros";
            else if (c == 1)
                init = "ones";
            else if (output)
                warn(T, FIELD("FillValue"), FIELD("FillValue"),
                     "ignored (an output starts from zeros, and is filled with NaN before each "
                     "check: the kernel writes it)");
            else
                return fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillValue"),
                            "a buffer of the constant %g has no cutune equivalent (cutune fills "
                            "with zeros, ones, uniform random numbers or a generator kernel)",
                            c);
        } else if (ft && strcmp(ft, "Random") == 0) {
            init = "random";
            if (have_fv) { /* KTT: uniform in [0, FillValue) */
                if (!cJSON_IsNumber(fv) || !(fv->valuedouble > 0) || !isfinite(fv->valuedouble))
                    return fail(T, CUTUNE_EINVAL, FIELD("FillValue"),
                                "expected a number above 0 (Random draws from [0, FillValue))");
                hi = fv->valuedouble;
            }
        } else if (ft) {
            return fail(T, CUTUNE_EUNSUPPORTED, FIELD("FillType"),
                        "'%s' has no cutune equivalent (cutune fills buffers with zeros, ones, "
                        "uniform random numbers, or a generator kernel of the source: init "
                        "\"kernel:NAME\" in a cutune spec)",
                        ft);
        }
        if (init && !add(T, a, "init", cJSON_CreateString(init)))
            return oom(T);
        if (init)
            map(T, NATIVE("init"), ft ? FIELD("FillType") : FIELD("FillValue"), 0);
        if (hi > 0) {
            cJSON *r = add(T, a, "range", cJSON_CreateArray());
            cutune_value lo = {.type = CUTUNE_VALUE_INT, .i = 0},
                         h = {.type = CUTUNE_VALUE_REAL, .r = hi};
            if (!r || !add(T, r, NULL, number_node(&lo)) || !add(T, r, NULL, number_node(&h)))
                return oom(T);
            map(T, NATIVE("range"), FIELD("FillValue"), 0);
        }
        if (output) {
            if (!add(T, a, "output", cJSON_CreateTrue()))
                return oom(T);
            map(T, NATIVE("output"), access ? FIELD("AccessType") : FIELD("Output"), 0);
        }
    } else {
        return fail(T, CUTUNE_EINVAL, FIELD("MemoryType"),
                    "expected Scalar, Vector, Local or Symbol");
    }
    if (member(arg, "RandomSeed"))
        warn(T, FIELD("RandomSeed"), FIELD("RandomSeed"),
             "ignored (cutune draws every input from the run's seed, --seed)");
    if (member(arg, "DataSource") && !cJSON_IsNull(member(arg, "DataSource")))
        warn(T, FIELD("DataSource"), FIELD("DataSource"), "ignored (no FillType reads it)");
    static const char *const known[] = {"Name",      "Type",    "MemoryType", "FillType",
                                        "FillValue", "Size",    "AccessType", "Output",
                                        "TypeSize",  "MemType", "RandomSeed", "DataSource"};
    for (const cJSON *f = arg->child; f; f = f->next) {
        size_t q;
        for (q = 0; q < sizeof known / sizeof known[0] && strcmp(f->string, known[q]); q++)
            ;
        if (q == sizeof known / sizeof known[0]) {
            snprintf(shown, sizeof shown, "KernelSpecification.Arguments[*].%s", f->string);
            warn(T, FIELD(f->string), shown, "ignored (not a field of T1's arguments)");
        }
    }
#undef FIELD
#undef NATIVE
    return 0;
}

static int load_args(t1 *T, const cJSON *ks, cJSON *doc)
{
    const cJSON *args = member(ks, "Arguments");
    char path[PATH_LEN], npath[64];
    cJSON *arr = add(T, doc, "args", cJSON_CreateArray());
    if (!arr)
        return oom(T);
    map(T, "args", "KernelSpecification.Arguments", 0);
    if (!args || cJSON_IsNull(args))
        return 0;
    if (!cJSON_IsArray(args))
        return fail(T, CUTUNE_EINVAL, "KernelSpecification.Arguments", "expected an array");
    size_t i = 0;
    for (const cJSON *arg = args->child; arg; arg = arg->next, i++) {
        snprintf(path, sizeof path, "KernelSpecification.Arguments[%zu]", i);
        if (!cJSON_IsObject(arg))
            return fail(T, CUTUNE_EINVAL, path, "expected an object");
        cJSON *a = add(T, arr, NULL, cJSON_CreateObject());
        if (!a)
            return oom(T);
        snprintf(npath, sizeof npath, "args[%zu]", i);
        map(T, npath, path, 0);
        int rc = load_arg(T, arg, path, i, a);
        if (rc)
            return rc;
    }
    return 0;
}

/* ------------------------------------------------------------------ the document */

/* Fields cutune reads no equivalent of, each said once: where run control or metadata,
 * a warning (the run goes on as the command line says). */
static void warn_members(t1 *T, const cJSON *obj, const char *parent, const char *const *known,
                         size_t nknown, const char *const (*ignored)[2], size_t nignored)
{
    char path[PATH_LEN];
    for (const cJSON *f = obj->child; f; f = f->next) {
        size_t k;
        for (k = 0; k < nknown && strcmp(f->string, known[k]); k++)
            ;
        if (k < nknown || cJSON_IsNull(f))
            continue;
        path_member(path, sizeof path, parent, f->string);
        for (k = 0; k < nignored && strcmp(f->string, ignored[k][0]); k++)
            ;
        if (k < nignored)
            warn(T, path, path, "ignored (%s)", ignored[k][1]);
        else
            warn(T, path, path, "ignored (not a T1 field cutune knows)");
    }
}

static int load_kernel_spec(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *ks = member(root, "KernelSpecification");
    const char *path = "KernelSpecification";
    if (!ks)
        return fail(T, CUTUNE_EINVAL, path, "missing (required)");
    if (!cJSON_IsObject(ks))
        return fail(T, CUTUNE_EINVAL, path, "expected an object");
    const cJSON *lang = member(ks, "Language");
    if (!lang)
        return fail(T, CUTUNE_EINVAL, "KernelSpecification.Language", "missing (required)");
    if (!cJSON_IsString(lang) || strcmp(lang->valuestring, "CUDA") != 0)
        return fail(T, CUTUNE_EUNSUPPORTED, "KernelSpecification.Language",
                    "%s%s%s: cutune tunes CUDA kernels", cJSON_IsString(lang) ? "'" : "",
                    cJSON_IsString(lang) ? lang->valuestring : "not a language",
                    cJSON_IsString(lang) ? "'" : "");
    const cJSON *tn = member(ks, "KernelTypeNames");
    if (tn && !(cJSON_IsArray(tn) && !tn->child))
        return fail(T, CUTUNE_EUNSUPPORTED, "KernelSpecification.KernelTypeNames",
                    "template arguments of the kernel have no cutune equivalent (instantiate "
                    "it as an extern \"C\" kernel)");
    const cJSON *refs = member(ks, "ReferenceArguments");
    if (refs && !(cJSON_IsArray(refs) && !refs->child) && !cJSON_IsNull(refs))
        return fail(T, CUTUNE_EUNSUPPORTED, "KernelSpecification.ReferenceArguments",
                    "reference data has no cutune equivalent (cutune checks outputs against a "
                    "reference kernel of the source; without this check a wrong kernel could "
                    "win: remove it to tune unchecked, or write a cutune spec with \"reference\")");
    int rc = load_source(T, ks, doc);
    if (!rc)
        rc = load_problem_size(T, ks, doc);
    if (rc)
        return rc;
    return 0;
}

/* After the parameters: what reads them (launch geometry, buffer sizes). */
static int load_kernel_rest(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *ks = member(root, "KernelSpecification");
    int rc = load_launch(T, ks, doc);
    const cJSON *co = member(ks, "CompilerOptions");
    if (!rc && co && !cJSON_IsNull(co)) {
        if (!add(T, doc, "compiler_options", cJSON_Duplicate(co, 1)))
            return oom(T);
        map(T, "compiler_options", "KernelSpecification.CompilerOptions", 1);
    }
    if (!rc)
        rc = load_args(T, ks, doc);
    const cJSON *sim = member(ks, "SimulationInput");
    if (!rc && sim && !cJSON_IsNull(sim)) {
        if (!add(T, doc, "recording", cJSON_Duplicate(sim, 1)))
            return oom(T);
        map(T, "recording", "KernelSpecification.SimulationInput", 0);
    }
    if (rc)
        return rc;
    const cJSON *prof = member(ks, "Profiling");
    if (prof && cJSON_IsTrue(prof))
        warn(T, "KernelSpecification.Profiling", "KernelSpecification.Profiling",
             "ignored (cutune collects no profiling counters)");
    static const char *const known[] = {
        "Language",        "KernelName",        "KernelFile",      "GlobalSize", "LocalSize",
        "GlobalSizeType",  "SharedMemory",      "CompilerOptions", "Arguments",  "ProblemSize",
        "SimulationInput", "KernelTypeNames",   "Profiling",       "GridDivX",   "GridDivY",
        "GridDivZ",        "ReferenceArguments"};
    static const char *const ignored[][2] = {
        {"Device", "cutune measures on the GPU its evaluator runs on"},
        {"BenchmarkName", "General.BenchmarkName names the spec"},
        {"Stream", "cutune launches on its own stream"},
    };
    warn_members(T, ks, "KernelSpecification", known, sizeof known / sizeof known[0], ignored,
                 sizeof ignored / sizeof ignored[0]);
    return 0;
}

static int load_general(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *g = member(root, "General");
    if (!g || cJSON_IsNull(g))
        return 0;
    if (!cJSON_IsObject(g))
        return fail(T, CUTUNE_EINVAL, "General", "expected an object");
    const cJSON *bn = member(g, "BenchmarkName");
    if (bn) {
        if (!cJSON_IsString(bn) || !bn->valuestring[0])
            return fail(T, CUTUNE_EINVAL, "General.BenchmarkName", "expected a name");
        if (!add(T, doc, "name", cJSON_CreateString(bn->valuestring)))
            return oom(T);
        map(T, "name", "General.BenchmarkName", 0);
    }
    const cJSON *fv = member(g, "FormatVersion");
    if (fv && !(cJSON_IsNumber(fv) && fv->valuedouble == 1))
        warn(T, "General.FormatVersion", "General.FormatVersion",
             "read as version 1 (the version cutune knows)");
    static const char *const known[] = {"BenchmarkName", "FormatVersion"};
    static const char *const ignored[][2] = {
        {"LoggingLevel", "cutune says what it does on stderr"},
        {"TimeUnit", "cutune reports milliseconds"},
        {"OutputFile", "cutune writes what its options ask for: --t4=FILE for T4 results"},
        {"OutputFormat", "cutune writes what its options ask for: --t4=FILE for T4 results"},
    };
    warn_members(T, g, "General", known, 2, ignored, sizeof ignored / sizeof ignored[0]);
    return 0;
}

static int build(t1 *T, const cJSON *root, cJSON *doc)
{
    const cJSON *cs = member(root, "ConfigurationSpace");
    if (!cs)
        return fail(T, CUTUNE_EINVAL, "ConfigurationSpace", "missing (required)");
    if (!cJSON_IsObject(cs))
        return fail(T, CUTUNE_EINVAL, "ConfigurationSpace", "expected an object");
    int rc = load_general(T, root, doc);
    if (!rc)
        rc = load_kernel_spec(T, root, doc);
    if (!rc)
        rc = load_parameters(T, cs, doc);
    if (!rc)
        rc = load_conditions(T, cs, doc);
    if (!rc)
        rc = load_kernel_rest(T, root, doc);
    if (rc)
        return rc;
    static const char *const cs_known[] = {"TuningParameters", "Conditions"};
    warn_members(T, cs, "ConfigurationSpace", cs_known, 2, NULL, 0);
    static const char *const known[] = {"General", "KernelSpecification", "ConfigurationSpace"};
    static const char *const ignored[][2] = {
        {"Search", "the searcher is --searcher"},
        {"Budget", "the budget is --budget or --time-limit"},
    };
    warn_members(T, root, NULL, known, 3, ignored, 2);
    return T->oom ? oom(T) : 0;
}

/* ------------------------------------------------------------------ loading */

/* Rewrite a message of the spec loader about the cutune document ("FILE:1: args[2].size:
 * reason") to name the T1 field it came from, and its line. */
static void rewrite_message(t1 *T, char *err, size_t errlen)
{
    char msg[MSG_LEN], t1path[PATH_LEN * 2];
    size_t fl = strlen(T->file);
    if (!err || !errlen || strncmp(err, T->file, fl) != 0)
        return;
    snprintf(msg, sizeof msg, "%s", err);
    const char *p = msg + fl;
    if (*p == ':' && p[1] >= '0' && p[1] <= '9') /* the line in the (one-line) document */
        for (p++; *p >= '0' && *p <= '9'; p++)
            ;
    if (strncmp(p, ": ", 2) != 0)
        return;
    p += 2;
    const char *colon = strstr(p, ": ");
    const t1_map *best = NULL;
    size_t bestlen = 0, plen = colon ? (size_t)(colon - p) : 0;
    for (size_t m = 0; colon && m < T->nmaps; m++) {
        size_t n = strlen(T->maps[m].native);
        if (n > plen || n <= bestlen || strncmp(p, T->maps[m].native, n) != 0)
            continue;
        if (n < plen && p[n] != '.' && p[n] != '[')
            continue;
        best = &T->maps[m];
        bestlen = n;
    }
    if (!best) {
        fail(T, CUTUNE_EINVAL, NULL, "%s", p);
    } else {
        snprintf(t1path, sizeof t1path, "%s%.*s", best->t1,
                 best->keep_suffix ? (int)(plen - bestlen) : 0, p + bestlen);
        fail(T, CUTUNE_EINVAL, t1path, "%s", colon + 2);
    }
}

static void t1_free(t1 *T)
{
    for (size_t m = 0; m < T->nmaps; m++) {
        free(T->maps[m].native);
        free(T->maps[m].t1);
    }
    free(T->maps);
    for (size_t p = 0; p < T->nparams; p++)
        free(T->params[p].name);
    free(T->params);
    free(T->warnings);
}

int cutune_spec_t1_detect(const cJSON *root)
{
    return cJSON_IsObject(root) &&
           (member(root, "ConfigurationSpace") || member(root, "KernelSpecification"));
}

int cutune_spec_t1_load(const char *file, const char *text, size_t len, const cJSON *root,
                        const char *dir, const cutune_size_override *ov, size_t nov,
                        cutune_spec **out, char *err, size_t errlen)
{
    t1 T = {.file = file, .dir = dir, .text = text, .len = len, .err = err, .errlen = errlen};
    cJSON *doc = cJSON_CreateObject();
    char *json = NULL;
    int rc;
    *out = NULL;
    if (!doc) {
        rc = oom(&T);
        goto out_free;
    }
    rc = build(&T, root, doc);
    if (rc)
        goto out_free;
    json = cJSON_PrintUnformatted(doc); /* one line: every message says line 1 */
    if (!json) {
        rc = oom(&T);
        goto out_free;
    }
    rc = cutune_spec_load_buffer(file, json, strlen(json), dir, ov, nov, out, err, errlen);
    if (rc) {
        int code = rc;
        rewrite_message(&T, err, errlen);
        rc = code;
        goto out_free;
    }
    (*out)->warnings = T.warnings;
    T.warnings = NULL;
out_free:
    free(json);
    cJSON_Delete(doc);
    t1_free(&T);
    return rc;
}
