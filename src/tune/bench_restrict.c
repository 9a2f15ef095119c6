/* cutune bench: restrictions files, the known spaces of a folder of recordings (format in
 * include/cutune/bench.h). The published Kernel Tuner recordings store only the
 * configurations that ran; their restrictions, stated with the data, give the space a
 * tuner searches, so that the failures the recording leaves out are charged as a real run
 * would pay for them. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/bench.h"
#include "cutune/expr.h"
#include "bench_internal.h"

typedef struct {
    char **patterns;
    size_t npatterns;
    char **exprs;
    size_t nexprs;
    char **expr_src; /* [nexprs] "FILE:LINE" of each expression, for its own errors */
    size_t nexpr_src;
    char *source; /* "FILE:LINE" of the section's header */
} restrict_section;

struct cutune_bench_restrictions {
    restrict_section *sec;
    size_t nsec;
};

void cutune_bench_restrictions_free(cutune_bench_restrictions *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nsec; i++) {
        for (size_t j = 0; j < r->sec[i].npatterns; j++)
            free(r->sec[i].patterns[j]);
        for (size_t j = 0; j < r->sec[i].nexprs; j++)
            free(r->sec[i].exprs[j]);
        for (size_t j = 0; j < r->sec[i].nexpr_src; j++)
            free(r->sec[i].expr_src[j]);
        free(r->sec[i].patterns);
        free(r->sec[i].exprs);
        free(r->sec[i].expr_src);
        free(r->sec[i].source);
    }
    free(r->sec);
    free(r);
}

static int push_str(char ***v, size_t *n, const char *s, size_t len)
{
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return CUTUNE_ENOMEM;
    *v = nv;
    char *d = malloc(len + 1);
    if (!d)
        return CUTUNE_ENOMEM;
    memcpy(d, s, len);
    d[len] = '\0';
    nv[(*n)++] = d;
    return 0;
}

/* The header "[PATTERN ...]" of a new section, from line ln of path. */
static int add_section(cutune_bench_restrictions *r, const char *path, size_t ln, char *p,
                       char *err, size_t errlen)
{
    char *close = strchr(p, ']');
    if (!close || close[1 + strspn(close + 1, " \t")] != '\0')
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s:%zu: a section header is '[PATTERN ...]' with nothing after ']'",
                          path, ln);
    *close = '\0';
    restrict_section *ns = realloc(r->sec, (r->nsec + 1) * sizeof *ns);
    if (!ns)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    r->sec = ns;
    restrict_section *sec = &r->sec[r->nsec++];
    memset(sec, 0, sizeof *sec);
    char src[4200];
    snprintf(src, sizeof src, "%s:%zu", path, ln);
    if (!(sec->source = bench_strdup(src)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    for (char *q = p + 1; *q;) {
        q += strspn(q, " \t");
        size_t len = strcspn(q, " \t");
        if (len == 0)
            break;
        if (push_str(&sec->patterns, &sec->npatterns, q, len) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
        q += len;
    }
    if (sec->npatterns == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s:%zu: a section names no recording", path,
                          ln);
    return 0;
}

/* Whether the restriction text parses (docs/expressions.md), whatever the names it reads:
 * every word of it is taken for a parameter, so that only the syntax is checked here, at
 * load, for every section, the sections that match no recording of a bench included. The
 * names are checked against each recording's parameters when its space is built. */
static int check_syntax(const char *path, size_t ln, const char *text, char *err, size_t errlen)
{
    const char *names[256];
    char *words[256];
    size_t n = 0;
    int rc = 0;
    for (const char *q = text; *q && n < 256;) {
        if (isalpha((unsigned char)*q) || *q == '_') {
            size_t len = 1;
            while (isalnum((unsigned char)q[len]) || q[len] == '_')
                len++;
            if (!(words[n] = malloc(len + 1))) {
                rc = CUTUNE_ENOMEM;
                break;
            }
            memcpy(words[n], q, len);
            words[n][len] = '\0';
            names[n] = words[n];
            n++;
            q += len;
        } else if (isdigit((unsigned char)*q)) { /* 1e3, 0x20: no name */
            while (isalnum((unsigned char)*q) || *q == '.' || *q == '_')
                q++;
        } else {
            q++;
        }
    }
    if (rc == 0) {
        char msg[512];
        cutune_symtab syms = {names, n};
        cutune_expr *e = NULL;
        rc = cutune_expr_parse(text, &syms, &e, msg, sizeof msg);
        cutune_expr_free(e);
        if (rc == CUTUNE_ENOTFOUND) /* a name past the 256 words: left to the recordings */
            rc = 0;
        else if (rc < 0)
            rc = cutune_err(err, errlen, rc, "%s:%zu: %s", path, ln, msg);
    } else {
        rc = cutune_err(err, errlen, rc, "%s: out of memory", path);
    }
    for (size_t i = 0; i < n; i++)
        free(words[i]);
    return rc;
}

/* Line ln (NUL-terminated, its newline gone) of path into r: a comment, a section header
 * or a restriction of the last section. */
static int add_line(cutune_bench_restrictions *r, const char *path, size_t ln, char *line,
                    char *err, size_t errlen)
{
    /* '#' starts a comment, on a line of its own or after a header or a restriction
     * (no expression holds a '#') */
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    size_t len = strlen(line);
    while (len > 0 && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    char *p = line + strspn(line, " \t");
    if (*p == '\0')
        return 0;
    if (*p == '[')
        return add_section(r, path, ln, p, err, errlen);
    if (r->nsec == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s:%zu: a restriction before the first '[PATTERN ...]' section", path,
                          ln);
    int rc = check_syntax(path, ln, p, err, errlen);
    if (rc < 0)
        return rc;
    restrict_section *sec = &r->sec[r->nsec - 1];
    char src[4200];
    snprintf(src, sizeof src, "%s:%zu", path, ln);
    if (push_str(&sec->exprs, &sec->nexprs, p, strlen(p)) < 0 ||
        push_str(&sec->expr_src, &sec->nexpr_src, src, strlen(src)) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    return 0;
}

int cutune_bench_restrictions_load(const char *path, cutune_bench_restrictions **out, char *err,
                                   size_t errlen)
{
    *out = NULL;
    /* read whole as every input is (cutune_read_file): a FIFO or /dev/zero is refused, not
     * read for ever, and the file is under the input limit */
    char *text = NULL;
    size_t len = 0;
    int rc = cutune_read_file(path, &text, &len, err, errlen);
    if (rc < 0)
        return errno == ENOENT ? CUTUNE_ENOTFOUND : rc;
    cutune_bench_restrictions *r = calloc(1, sizeof *r);
    if (!r) {
        free(text);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "%s: out of memory", path);
    }
    size_t ln = 1;
    for (char *line = text; rc == 0 && line < text + len; ln++) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *e = nl ? nl : text + len;
        /* a NUL would end the line early: what follows it would be dropped unread */
        if (memchr(line, '\0', (size_t)(e - line))) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "%s:%zu: a NUL character (a restrictions file is text)", path, ln);
            break;
        }
        *e = '\0';
        rc = add_line(r, path, ln, line, err, errlen);
        line = e + 1;
    }
    free(text);
    if (rc < 0) {
        cutune_bench_restrictions_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int cutune_bench_restrictions_lookup(const cutune_bench_restrictions *r, const char *label,
                                     cutune_bench_space_def *def)
{
    memset(def, 0, sizeof *def);
    for (size_t i = 0; r && i < r->nsec; i++)
        for (size_t j = 0; j < r->sec[i].npatterns; j++)
            if (fnmatch(r->sec[i].patterns[j], label, 0) == 0) {
                def->known = 1;
                def->restrictions = (const char *const *)r->sec[i].exprs;
                def->n = r->sec[i].nexprs;
                def->source = r->sec[i].source;
                def->sources = (const char *const *)r->sec[i].expr_src;
                return 1;
            }
    return 0;
}

size_t cutune_bench_restrictions_unmatched(const cutune_bench_restrictions *r,
                                           const char *const *labels, size_t n, char *buf,
                                           size_t len)
{
    size_t count = 0, used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; r && i < r->nsec; i++) {
        int hit = 0;
        for (size_t k = 0; k < n && !hit; k++)
            for (size_t j = 0; j < r->sec[i].npatterns && !hit; j++)
                hit = fnmatch(r->sec[i].patterns[j], labels[k], 0) == 0;
        if (hit)
            continue;
        for (size_t j = 0; j < r->sec[i].npatterns && used < len; j++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     j       ? " "
                                     : count ? ", ["
                                             : "[",
                                     r->sec[i].patterns[j]);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "] (%s)", r->sec[i].source);
        count++;
    }
    return count;
}
