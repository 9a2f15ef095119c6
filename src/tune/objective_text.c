/* How an objective's text is spelt: the names of a text mapped to the symbol table's
 * slots (obj_rewrite, before the expression engine parses it), and a parsed text printed
 * back in one canonical spelling (obj_canonical, which --resume compares). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objective_internal.h"

static const char *const functions[] = {"min", "max", "ceil", "floor", "log2", "pow", "abs"};

int obj_is_ident_start(int c)
{
    return isalpha(c) || c == '_';
}

int obj_is_ident(const char *s)
{
    if (!obj_is_ident_start((unsigned char)*s))
        return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

long obj_name_index(const cutune_objective *o, const char *name, size_t len)
{
    for (size_t i = 0; i < o->nnames; i++)
        if (strlen(o->names[i]) == len && !strncmp(o->names[i], name, len))
            return (long)i;
    return -1;
}

int obj_add_name(cutune_objective *o, const char *name, size_t len, const char *metric, size_t mlen)
{
    if (o->nnames >= OBJ_MAX_NAMES)
        return CUTUNE_EINVAL;
    char *n = strndup(name, len), *m = metric ? strndup(metric, mlen) : NULL;
    if (!n || (metric && !m)) {
        free(n);
        free(m);
        return CUTUNE_ENOMEM;
    }
    o->metric[o->nnames] = m;
    o->names[o->nnames++] = n;
    return 0;
}

void obj_sb_put(obj_strbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

/* Index of the spec's metric called name (len bytes), or -1. */
long obj_spec_metric_index(const cutune_objective *o, const char *name, size_t len)
{
    for (size_t m = 0; o->spec && m < o->spec->nmetrics; m++)
        if (strlen(o->spec->metrics[m].name) == len &&
            !strncmp(o->spec->metrics[m].name, name, len))
            return (long)m;
    return -1;
}

/* The slot name for a metric whose name is no identifier: `_m<slot>`. */
static int alias_of(cutune_objective *o, const char *name, size_t len, char *alias, size_t alen)
{
    for (size_t i = 0; i < o->nnames; i++)
        if (o->metric[i] && strlen(o->metric[i]) == len && !strncmp(o->metric[i], name, len)) {
            snprintf(alias, alen, "%s", o->names[i]);
            return 0;
        }
    snprintf(alias, alen, "_m%zu", o->nnames);
    return obj_add_name(o, alias, strlen(alias), name, len);
}

/* The text with `NAME` and the spec's non-identifier metric names replaced by their
 * slot names, and every identifier that is nothing else added as an evaluator metric. */
int obj_rewrite(cutune_objective *o, const char *text, char **out, const char *opt, char *err,
                size_t errlen)
{
    obj_strbuf b = {0};
    const char *p = text;
    int rc = 0;
    while (*p && !rc) {
        char alias[32];
        if (*p == '`') {
            const char *e = strchr(p + 1, '`');
            if (!e || e == p + 1 || e - p - 1 >= 32) {
                rc = cutune_err(err, errlen, CUTUNE_EPARSE, "%s '%s': %s at column %zu", opt, text,
                                !e ? "unterminated `name`" : "a `name` holds 1 to 31 bytes",
                                (size_t)(p - text) + 1);
                break;
            }
            long k = obj_name_index(o, p + 1, (size_t)(e - p - 1));
            long sm = obj_spec_metric_index(o, p + 1, (size_t)(e - p - 1));
            if (sm >= 0)
                snprintf(alias, sizeof alias, "%s", o->names[o->nspace + 2 + (size_t)sm]);
            else if (k >= 0 && !o->metric[k])
                snprintf(alias, sizeof alias, "%s", o->names[k]);
            else if ((rc = alias_of(o, p + 1, (size_t)(e - p - 1), alias, sizeof alias)) < 0)
                break;
            obj_sb_put(&b, alias, strlen(alias));
            p = e + 1;
            continue;
        }
        if (*p == '"' || *p == '\'') { /* a string literal, as is */
            const char *e = strchr(p + 1, *p);
            size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
            obj_sb_put(&b, p, n);
            p += n;
            continue;
        }
        int matched = 0; /* a spec metric named with other characters, as is */
        for (size_t m = 0; o->spec && m < o->spec->nmetrics && !matched; m++) {
            const char *mn = o->spec->metrics[m].name;
            size_t ml = strlen(mn);
            int before_ok = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
            if (!obj_is_ident(mn) && before_ok && !strncmp(p, mn, ml)) {
                snprintf(alias, sizeof alias, "_s%zu", m);
                obj_sb_put(&b, alias, strlen(alias));
                p += ml;
                matched = 1;
            }
        }
        if (matched)
            continue;
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            const char *s = p; /* a number: 1e-3, 0x20, 1.5 */
            while (isalnum((unsigned char)*p) || *p == '.' ||
                   ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E') &&
                    !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))))
                p++;
            obj_sb_put(&b, s, (size_t)(p - s));
            continue;
        }
        if (obj_is_ident_start((unsigned char)*p)) {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            size_t n = (size_t)(p - s);
            const char *q = p;
            while (*q == ' ' || *q == '\t')
                q++;
            int known = obj_name_index(o, s, n) >= 0 || *q == '(';
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), s);
            known = known || cutune_expr_is_keyword(word);
            for (size_t f = 0; f < sizeof functions / sizeof functions[0] && !known; f++)
                known = !strcmp(word, functions[f]);
            if (!known && n >= 32)
                rc = cutune_err(err, errlen, CUTUNE_EPARSE,
                                "%s '%s': '%.40s...' is longer than a metric name (31 bytes)", opt,
                                text, s);
            else if (!known)
                rc = obj_add_name(o, s, n, s, n);
            obj_sb_put(&b, s, n);
            continue;
        }
        obj_sb_put(&b, p, 1);
        p++;
    }
    if (rc == CUTUNE_EINVAL)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL, "%s '%s': more than %d names", opt, text,
                        OBJ_MAX_NAMES);
    else if (rc == CUTUNE_ENOMEM || (!rc && b.oom))
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    if (rc < 0) {
        free(b.s);
        return rc;
    }
    *out = b.s ? b.s : strdup("");
    return *out ? 0 : cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
}

/* The canonical spelling of a parsed text t (the rewritten one, its names slots): one token
 * after another, separated by one blank except inside brackets, before a comma, after a unary
 * operator and between a function and its '('; integers in decimal, reals in the fewest digits that
 * read back the same double (a '.0' keeps them reals); every name as the language reads it (an
 * evaluator metric by its real name, between backquotes when it is no identifier, a spec metric by
 * its name). Two spellings of one expression ('regs<=64', 'regs <= 0x40', '`regs` <= 64') have one
 * canonical text, which parses back to the same expression. NULL when out of memory. */
char *obj_canonical(const cutune_objective *o, const char *t)
{
    obj_strbuf b = {0};
    const char *p = t;
    /* what the previous token was: 0 none, 1 an operand or a closing bracket, 2 an
     * operator, 3 an opening bracket, 4 a unary operator, 5 a function's name, 6 a comma */
    int prev = 0;
    while (*p) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            p++;
            continue;
        }
        char tok[64];
        const char *s = p;
        size_t n = 0;
        int kind = 1;                  /* this token's kind, as prev */
        if (*p == '"' || *p == '\'') { /* as is, escapes included */
            for (p++; *p && *p != *s; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p)
                p++;
            n = (size_t)(p - s);
        } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            char *end;
            if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
                unsigned long long v = strtoull(p + 2, &end, 16);
                snprintf(tok, sizeof tok, "%llu", v);
            } else {
                size_t k = strspn(p, "0123456789");
                int real = p[k] == '.' || p[k] == 'e' || p[k] == 'E';
                if (real) {
                    double v = strtod(p, &end);
                    for (int prec = 1; prec <= 17; prec++) {
                        snprintf(tok, sizeof tok, "%.*g", prec, v);
                        if (strtod(tok, NULL) == v)
                            break;
                    }
                    if (!isfinite(v))
                        snprintf(tok, sizeof tok, "%.*s", (int)(end - p < 63 ? end - p : 63), p);
                    else if (!strpbrk(tok, ".e"))
                        strcat(tok, ".0");
                } else {
                    long long v = strtoll(p, &end, 10);
                    snprintf(tok, sizeof tok, "%lld", v);
                }
            }
            p = end;
            s = tok;
            n = strlen(tok);
        } else if (obj_is_ident_start((unsigned char)*p)) {
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            n = (size_t)(p - s);
            long k = obj_name_index(o, s, n);
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), s);
            const char *q = p + strspn(p, " \t\n\r");
            if (k >= (long)o->nspace + 2 && k < (long)(o->nspace + 2 + o->nspecm) && !o->metric[k])
                n = strlen(s = o->spec->metrics[k - (long)o->nspace - 2].name); /* spec metric */
            else if (k >= 0 && o->metric[k])
                n = strlen(s = o->metric[k]); /* an evaluator metric */
            else if (k < 0 && cutune_expr_is_keyword(word) && strcmp(word, "true") &&
                     strcmp(word, "false") && strcmp(word, "True") && strcmp(word, "False"))
                kind = 2; /* in, not, and, or */
            else if (k < 0 && *q == '(')
                kind = 5;
            if (k >= 0 && o->metric[k]) {
                int bare = obj_is_ident(s) && !cutune_expr_is_keyword(s);
                for (size_t f = 0; f < sizeof functions / sizeof functions[0] && bare; f++)
                    bare = strcmp(s, functions[f]) != 0;
                if (!bare) {
                    snprintf(tok, sizeof tok, "`%s`", s);
                    s = tok;
                    n = strlen(tok);
                }
            }
        } else {
            static const char *const two[] = {"<=", ">=", "==", "!=", "&&", "||", "**", "//"};
            n = 1;
            for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
                if (!strncmp(p, two[i], 2))
                    n = 2;
            p += n;
            if (n == 1 && (*s == '(' || *s == '['))
                kind = 3;
            else if (n == 1 && *s == ',')
                kind = 6;
            else if (n == 1 && (*s == ')' || *s == ']'))
                kind = 1;
            else if (n == 1 && (*s == '-' || *s == '+' || *s == '!') &&
                     (prev == 0 || prev == 2 || prev == 3 || prev == 4 || prev == 6))
                kind = 4;
            else
                kind = 2;
        }
        int close = n == 1 && (*s == ')' || *s == ']' || *s == ',');
        int call = n == 1 && *s == '(' && prev == 5;
        if (prev && prev != 3 && prev != 4 && !close && !call)
            obj_sb_put(&b, " ", 1);
        obj_sb_put(&b, s, n);
        prev = kind;
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup("");
}
