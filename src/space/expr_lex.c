/* The expression language's lexer (docs/expressions.md): tokens for the parser of
 * expr_parse.c, which calls expr_next for each, and the quoting of the text in errors. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_parse_internal.h"

/* Words the lexer takes as operators; with the constants they are no names. */
static const struct {
    const char *text;
    int tok;
} keywords[] = {{"in", T_IN}, {"not", T_KW_NOT}, {"and", T_AND}, {"or", T_OR}};
static const char *const constant_names[] = {"true", "false", "True", "False"};

int expr_constant(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof constant_names / sizeof constant_names[0]; i++)
        if (strlen(constant_names[i]) == len && memcmp(name, constant_names[i], len) == 0)
            return len == 4; /* true, True */
    return -1;
}

const char *expr_shown(parser *p)
{
    size_t n = strlen(p->src);
    if (n <= EXPR_QUOTE_MAX)
        return p->src;
    snprintf(p->quoted, sizeof p->quoted, "%.*s... (%zu bytes in all)", EXPR_QUOTE_MAX - 40, p->src,
             n);
    return p->quoted;
}

int expr_col_of(const parser *p, size_t off)
{
    return (int)off + 1;
}

int expr_syntax_error(parser *p, size_t off, const char *what)
{
    char found[32];
    if (p->tok == T_EOF) {
        snprintf(found, sizeof found, "end of input");
    } else {
        size_t n = p->tlen < 20 ? p->tlen : 20;
        snprintf(found, sizeof found, "'%.*s'", (int)n, p->src + p->tstart);
    }
    return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                      "syntax error at column %d: %s, found %s in '%s'", expr_col_of(p, off), what,
                      found, expr_shown(p));
}

static int lex_string(parser *p)
{
    char quote = p->src[p->pos];
    size_t start = p->pos++;
    size_t cap = 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return cutune_err(p->err, p->errlen, CUTUNE_ENOMEM, "out of memory");
    for (;;) {
        char c = p->src[p->pos];
        if (c == '\0') {
            free(buf);
            return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                              "syntax error at column %d: unterminated string in '%s'",
                              expr_col_of(p, start), expr_shown(p));
        }
        p->pos++;
        if (c == quote)
            break;
        if (c == '\\') {
            char d = p->src[p->pos];
            if (d == '\0')
                continue; /* reported as unterminated on the next round */
            p->pos++;
            switch (d) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            default: c = d; break; /* \\ \" \' and anything else: itself */
            }
        }
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return cutune_err(p->err, p->errlen, CUTUNE_ENOMEM, "out of memory");
            }
            buf = nb;
            cap *= 2;
        }
        buf[n++] = c;
    }
    buf[n] = '\0';
    p->sval = buf;
    p->tok = T_STRING;
    return 0;
}

static int lex_number(parser *p)
{
    const char *s = p->src + p->pos;
    size_t start = p->pos;
    char *end;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (!isxdigit((unsigned char)s[2]))
            goto bad;
        errno = 0;
        unsigned long long v = strtoull(s + 2, &end, 16);
        if (errno == ERANGE || v > (unsigned long long)LLONG_MAX)
            goto range;
        p->ival = (long long)v;
        p->tok = T_INT;
    } else {
        size_t k = 0;
        int real = 0;
        while (isdigit((unsigned char)s[k]))
            k++;
        if (s[k] == '.') {
            real = 1;
            k++;
            while (isdigit((unsigned char)s[k]))
                k++;
        }
        if (s[k] == 'e' || s[k] == 'E') {
            size_t j = k + 1;
            if (s[j] == '+' || s[j] == '-')
                j++;
            if (!isdigit((unsigned char)s[j]))
                goto bad;
            real = 1;
        }
        errno = 0;
        if (real) {
            p->rval = strtod(s, &end);
            if (errno == ERANGE && fabs(p->rval) > 1.0)
                goto range; /* overflow; underflow to 0 is accepted */
            p->tok = T_REAL;
        } else {
            p->ival = strtoll(s, &end, 10);
            if (errno == ERANGE)
                goto range;
            p->tok = T_INT;
        }
    }
    p->pos += (size_t)(end - s);
    /* "2x" or "0x1g" is one malformed token, not a number and a name */
    if (isalnum((unsigned char)p->src[p->pos]) || p->src[p->pos] == '_' || p->src[p->pos] == '.')
        goto bad;
    return 0;
bad:
    return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                      "syntax error at column %d: malformed number in '%s'", expr_col_of(p, start),
                      expr_shown(p));
range:
    return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                      "syntax error at column %d: number out of range in '%s'",
                      expr_col_of(p, start), expr_shown(p));
}

int expr_next(parser *p)
{
    free(p->sval);
    p->sval = NULL;
    while (p->src[p->pos] == ' ' || p->src[p->pos] == '\t' || p->src[p->pos] == '\n' ||
           p->src[p->pos] == '\r')
        p->pos++;
    p->tstart = p->pos;
    const char *s = p->src + p->pos;
    char c = s[0];
    int rc = 0;
    if (c == '\0') {
        p->tok = T_EOF;
    } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)s[1]))) {
        rc = lex_number(p);
    } else if (c == '"' || c == '\'') {
        rc = lex_string(p);
    } else if (isalpha((unsigned char)c) || c == '_') {
        size_t k = 0;
        while (isalnum((unsigned char)s[k]) || s[k] == '_')
            k++;
        p->pos += k;
        p->tok = T_IDENT;
        for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
            if (strlen(keywords[i].text) == k && memcmp(s, keywords[i].text, k) == 0)
                p->tok = keywords[i].tok;
    } else {
        static const struct {
            const char *text;
            int tok;
        } ops[] = {
            /* two-character operators first */
            {"<=", T_LE},       {">=", T_GE},         {"==", T_EQ},
            {"!=", T_NE},       {"&&", T_AND},        {"||", T_OR},
            {"**", T_STARSTAR}, {"//", T_SLASHSLASH}, {"%%", T_PERCENTPERCENT},
            {"+", T_PLUS},      {"-", T_MINUS},       {"*", T_STAR},
            {"/", T_SLASH},     {"%", T_PERCENT},     {"!", T_NOT},
            {"<", T_LT},        {">", T_GT},          {"?", T_QUESTION},
            {":", T_COLON},     {"(", T_LPAREN},      {")", T_RPAREN},
            {"[", T_LBRACKET},  {"]", T_RBRACKET},    {",", T_COMMA},
        };
        size_t i;
        for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            size_t n = strlen(ops[i].text);
            if (strncmp(s, ops[i].text, n) == 0) {
                p->pos += n;
                p->tok = ops[i].tok;
                break;
            }
        }
        if (i == sizeof ops / sizeof ops[0]) {
            const char *hint = c == '='   ? " (did you mean '=='?)"
                               : c == '&' ? " (did you mean '&&'?)"
                               : c == '|' ? " (did you mean '||'?)"
                                          : "";
            if (isprint((unsigned char)c))
                return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                                  "syntax error at column %d: unexpected character '%c'%s "
                                  "in '%s'",
                                  expr_col_of(p, p->pos), c, hint, expr_shown(p));
            return cutune_err(p->err, p->errlen, CUTUNE_EPARSE,
                              "syntax error at column %d: unexpected byte 0x%02x",
                              expr_col_of(p, p->pos), (unsigned char)c);
        }
    }
    p->tlen = p->pos - p->tstart;
    return rc;
}
int cutune_expr_is_keyword(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strcmp(name, keywords[i].text) == 0)
            return 1;
    for (size_t i = 0; i < sizeof constant_names / sizeof constant_names[0]; i++)
        if (strcmp(name, constant_names[i]) == 0)
            return 1;
    return 0;
}
