/* The --sizes list (shapes.h): "M=N=K=1024;M=1000,N=5000,K=296" or "@FILE", and the
 * nearest-shape rule the dispatch table and the each mode's warm starts use. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shapes.h"

static void trim(char *s)
{
    size_t a = strspn(s, " \t\r\n"), n = strlen(s);
    while (n > a && strchr(" \t\r\n", s[n - 1]))
        n--;
    memmove(s, s + a, n - a);
    s[n - a] = '\0';
}

/* One shape's text into *sh; where names it in messages ("shape 2", "FILE:3"). */
static int parse_shape(const char *opt, const char *where, char *text, cli_shape *sh, char *err,
                       size_t errlen)
{
    memset(sh, 0, sizeof *sh);
    char shown[160];
    snprintf(shown, sizeof shown, "%s", text);
    if (!*text)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: %s is empty (expected NAME=VALUE,...)",
                          opt, where);
    /* split at every ',' (strtok_r would skip an empty element: 'M=1024,,N=2048' and a
     * trailing ',' read as if the comma were not there) */
    size_t element = 0;
    for (char *item = text, *comma; item; item = comma) {
        comma = strchr(item, ',');
        if (comma)
            *comma++ = '\0';
        element++;
        trim(item);
        if (!*item)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: %s (%s): element %zu is empty (sizes are NAME=VALUE separated "
                              "by ',')",
                              opt, where, shown, element);
        char *value = strrchr(item, '=');
        if (!value || value == item || !value[1])
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: %s (%s): '%s': expected NAME=VALUE (or NAME=NAME=VALUE)", opt,
                              where, shown, item);
        *value++ = '\0';
        cutune_size_override ov;
        char one[200], why[1024];
        for (char *name = item, *next; name; name = next) {
            next = strchr(name, '=');
            if (next)
                *next++ = '\0';
            trim(name);
            if (!*name)
                return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: %s (%s): an empty size name",
                                  opt, where, shown);
            snprintf(one, sizeof one, "%s=%s", name, value);
            if (cli_parse_size(one, &ov, why, sizeof why) < 0) {
                const char *w = strncmp(why, "--size ", 7) == 0 ? why + 7 : why;
                return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: %s (%s): %s", opt, where, shown,
                                  w);
            }
            for (size_t j = 0; j < sh->n; j++)
                if (strcmp(sh->names[j], name) == 0)
                    return cutune_err(err, errlen, CUTUNE_EINVAL,
                                      "%s: %s (%s): size %s is given twice", opt, where, shown,
                                      name);
            if (sh->n >= SHAPE_MAX_SIZES || strlen(name) >= sizeof sh->names[0] ||
                strlen(value) >= sizeof sh->texts[0])
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: %s (%s): too many sizes or too long a name or value", opt,
                                  where, shown);
            double v = ov.value.type == CUTUNE_VALUE_INT ? (double)ov.value.i : ov.value.r;
            if (!(v > 0))
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "%s: %s (%s): %s=%s: a shape's sizes must be positive (the "
                                  "nearest-shape rule compares their logarithms)",
                                  opt, where, shown, name, value);
            snprintf(sh->names[sh->n], sizeof sh->names[0], "%s", name);
            snprintf(sh->texts[sh->n], sizeof sh->texts[0], "%s", value);
            sh->values[sh->n++] = v;
        }
    }
    return 0;
}

/* Shape sh in the size order of ref (every shape names the same sizes). */
static int same_names(const char *opt, const char *where, const cli_shape *ref, cli_shape *sh,
                      char *err, size_t errlen)
{
    if (sh->n != ref->n)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: %s names %zu sizes, the first shape %zu (every shape names the "
                          "same sizes)",
                          opt, where, sh->n, ref->n);
    cli_shape o = *sh;
    for (size_t i = 0; i < ref->n; i++) {
        size_t j = 0;
        while (j < o.n && strcmp(o.names[j], ref->names[i]) != 0)
            j++;
        if (j == o.n)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: %s does not name %s, which the first shape does (every "
                              "shape names the same sizes)",
                              opt, where, ref->names[i]);
        memcpy(sh->names[i], o.names[j], sizeof sh->names[i]);
        memcpy(sh->texts[i], o.texts[j], sizeof sh->texts[i]);
        sh->values[i] = o.values[j];
    }
    return 0;
}

/* The values joined by 'x', in the shape's size order. */
static void set_label(cli_shape *sh)
{
    size_t used = 0;
    sh->label[0] = '\0';
    for (size_t i = 0; i < sh->n && used < sizeof sh->label; i++) {
        int w =
            snprintf(sh->label + used, sizeof sh->label - used, "%s%s", i ? "x" : "", sh->texts[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

int cli_shapes_reorder(const char *opt, const cli_shape *ref, cli_shapes *l, char *err,
                       size_t errlen)
{
    for (size_t k = 0; k < l->n; k++) {
        char where[32];
        snprintf(where, sizeof where, "shape %zu", k + 1);
        int rc = same_names(opt, where, ref, &l->s[k], err, errlen);
        if (rc < 0)
            return rc;
        set_label(&l->s[k]);
    }
    return 0;
}

static int add_shape(const char *opt, const char *where, char *text, cli_shapes *out, char *err,
                     size_t errlen)
{
    if (out->n >= SHAPES_MAX)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: more than %d shapes", opt, SHAPES_MAX);
    cli_shape *sh = &out->s[out->n];
    int rc = parse_shape(opt, where, text, sh, err, errlen);
    if (rc == 0 && out->n)
        rc = same_names(opt, where, &out->s[0], sh, err, errlen);
    if (rc < 0)
        return rc;
    set_label(sh);
    for (size_t k = 0; k < out->n; k++)
        if (cli_shape_distance(&out->s[k], sh) == 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%s: %s (%s) is shape %zu again", opt,
                              where, sh->label, k + 1);
    out->n++;
    return 0;
}

static int parse_file(const char *opt, const char *path, cli_shapes *out, char *err, size_t errlen)
{
    /* read whole (regular files only, the input limit), then a line at a time: a NUL ends
     * no line early, so nothing after one is dropped unread */
    char *text = NULL, where[4200];
    size_t len = 0;
    if (!*path)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s=@: no file name after '@'", opt);
    int rc = cutune_read_file(path, &text, &len, err, errlen);
    if (rc < 0) {
        /* "PATH: why" becomes "--sizes=@PATH: why": the option the file came from */
        char why[1024];
        size_t pl = strlen(path);
        snprintf(why, sizeof why, "%s",
                 strncmp(err, path, pl) == 0 && err[pl] == ':' && err[pl + 1] == ' ' ? err + pl + 2
                                                                                     : err);
        cutune_err(err, errlen, rc, "%s=@%s: %s", opt, path, why);
        return rc;
    }
    unsigned long no = 1;
    for (char *line = text; rc == 0 && line < text + len; no++) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *e = nl ? nl : text + len;
        if (memchr(line, '\0', (size_t)(e - line))) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL, "%s=@%s:%lu: a NUL character", opt, path,
                            no);
            break;
        }
        *e = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        trim(line);
        if (*line) {
            snprintf(where, sizeof where, "%s:%lu", path, no);
            rc = add_shape(opt, where, line, out, err, errlen);
        }
        line = e + 1;
    }
    free(text);
    if (rc == 0 && out->n == 0)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL, "%s=@%s: holds no shape", opt, path);
    return rc;
}

int cli_shapes_parse(const char *opt, const char *arg, cli_shapes *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (arg[0] == '@')
        return parse_file(opt, arg + 1, out, err, errlen);
    char *copy = strdup(arg);
    if (!copy)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0;
    char where[32];
    size_t k = 0;
    for (char *p = copy, *semi; rc == 0 && p; p = semi) {
        semi = strchr(p, ';');
        if (semi)
            *semi++ = '\0';
        trim(p);
        k++; /* an empty shape, a trailing ';' included, is refused (parse_shape) */
        snprintf(where, sizeof where, "shape %zu", k);
        rc = add_shape(opt, where, p, out, err, errlen);
    }
    free(copy);
    return rc;
}

int cli_shapes_text(const cli_shapes *l, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t k = 0; k < l->n; k++)
        for (size_t i = 0; i < l->s[k].n; i++) {
            int w = snprintf(out + used, used < len ? len - used : 0, "%s%s=%s",
                             i   ? ","
                             : k ? ";"
                                 : "",
                             l->s[k].names[i], l->s[k].texts[i]);
            used += w > 0 ? (size_t)w : 0;
        }
    return used < len ? 0 : -1;
}

size_t cli_shape_overrides(const cli_shape *s, cutune_size_override *ov, size_t max)
{
    size_t n = 0;
    char why[256];
    for (size_t i = 0; i < s->n && n < max; i++) {
        char one[200];
        snprintf(one, sizeof one, "%s=%s", s->names[i], s->texts[i]);
        if (cli_parse_size(one, &ov[n], why, sizeof why) == 0) /* parsed once already */
            n++;
    }
    return n;
}

/* log2 a - log2 b as the dispatch header computes it (header_dispatch.c writes the same
 * code into every header, so that cutune and the lookup agree on every tie): each x = m 2^e
 * with m in [1, 2), the exponents' difference exact, log2 m by its atanh series. Sizes
 * whose mantissas are equal (7 and 28) differ by an exact whole number. */
double cli_shape_dlog2(double a, double b)
{
    double e[2] = {0, 0}, s[2] = {0, 0};
    for (int j = 0; j < 2; j++) {
        double x = j ? b : a, y, y2, t;
        if (!(x > 0))
            return j ? 2000.0 : -2000.0;
        while (x >= 2.0) {
            x /= 2.0;
            e[j] += 1.0;
        }
        while (x < 1.0) {
            x *= 2.0;
            e[j] -= 1.0;
        }
        y = (x - 1.0) / (x + 1.0);
        y2 = y * y;
        t = y;
        for (int k = 1; k < 41; k += 2) {
            s[j] += t / k;
            t *= y2;
        }
    }
    return (e[0] - e[1]) + 2.0 * (s[0] - s[1]) / 0.69314718055994530942;
}

double cli_shape_distance(const cli_shape *a, const cli_shape *b)
{
    double d = 0;
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        double l = cli_shape_dlog2(a->values[i], b->values[i]);
        d += l * l;
    }
    return d;
}

long cli_shape_nearest(const cli_shape *s, const cli_shape *table, size_t n)
{
    long best = -1;
    double bd = INFINITY;
    for (size_t k = 0; k < n; k++) {
        int exact = 1;
        for (size_t i = 0; i < s->n; i++)
            exact = exact && s->values[i] == table[k].values[i];
        if (exact)
            return (long)k;
        double d = cli_shape_distance(s, &table[k]);
        if (d < bd)
            bd = d, best = (long)k;
    }
    return best;
}
