/* Locate a value in JSON text by a path ("args[2].size"), so that a message about a
 * field can name its line: cJSON keeps no positions. A small scanner over the text that
 * skips values it does not enter (strings with their escapes, nested containers). */
#include "json_path.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *t;
    size_t len, pos;
} scan;

static void skip_ws(scan *s) /* as cJSON: every byte up to the space */
{
    while (s->pos < s->len && (unsigned char)s->t[s->pos] <= ' ')
        s->pos++;
}

/* past a string starting at pos (on its opening quote) */
static void skip_string(scan *s)
{
    for (s->pos++; s->pos < s->len; s->pos++) {
        if (s->t[s->pos] == '\\')
            s->pos++;
        else if (s->t[s->pos] == '"') {
            s->pos++;
            return;
        }
    }
}

/* past the value starting at pos */
static void skip_value(scan *s)
{
    if (s->pos >= s->len)
        return;
    char c = s->t[s->pos];
    if (c == '"') {
        skip_string(s);
        return;
    }
    if (c == '{' || c == '[') {
        size_t depth = 0;
        while (s->pos < s->len) {
            char d = s->t[s->pos];
            if (d == '"') {
                skip_string(s);
                continue;
            }
            if (d == '{' || d == '[')
                depth++;
            else if ((d == '}' || d == ']') && --depth == 0) {
                s->pos++;
                return;
            }
            s->pos++;
        }
        return;
    }
    while (s->pos < s->len && (unsigned char)s->t[s->pos] > ' ' &&
           !strchr(",}]", s->t[s->pos])) /* number, literal */
        s->pos++;
}

/* Is the scan at character c? */
static int at(const scan *s, char c)
{
    return s->pos < s->len && s->t[s->pos] == c;
}

/* Past the value at pos and the comma after it (and the space after that); 0 when no comma
 * follows: the container ends (or the text is broken). */
static int next_item(scan *s)
{
    skip_value(s);
    skip_ws(s);
    if (!at(s, ','))
        return 0;
    s->pos++;
    skip_ws(s);
    return 1;
}

/* In the object at pos, move to the value of member name[0..n); 0 when absent. */
static int enter_member(scan *s, const char *name, size_t n)
{
    if (!at(s, '{'))
        return 0;
    s->pos++;
    skip_ws(s);
    for (;;) {
        if (!at(s, '"'))
            return 0; /* '}' or broken */
        size_t k0 = s->pos + 1;
        skip_string(s);
        size_t k1 = s->pos - 1; /* the closing quote */
        int match = k1 >= k0 && k1 - k0 == n && memcmp(s->t + k0, name, n) == 0;
        skip_ws(s);
        if (!at(s, ':'))
            return 0;
        s->pos++;
        skip_ws(s);
        if (match)
            return 1;
        if (!next_item(s))
            return 0;
    }
}

/* In the array at pos, move to element i; 0 when absent. */
static int enter_element(scan *s, size_t i)
{
    if (!at(s, '['))
        return 0;
    s->pos++;
    skip_ws(s);
    for (size_t k = 0;; k++) {
        if (s->pos >= s->len || at(s, ']'))
            return 0;
        if (k == i)
            return 1;
        if (!next_item(s))
            return 0;
    }
}

size_t cutune_json_path_line(const char *text, size_t len, const char *path, size_t *steps)
{
    scan s = {.t = text, .len = len, .pos = 0};
    *steps = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 BOM, as cJSON skips it */
        s.pos = 3;
    skip_ws(&s);
    if (s.pos >= len)
        return 0;
    size_t found = s.pos; /* the deepest value reached */
    const char *p = path ? path : "";
    while (*p) {
        if (p[0] == '[' && p[1] == '"') { /* ["key"]: a member that is not an identifier */
            const char *q = strstr(p + 2, "\"]");
            if (!q || !enter_member(&s, p + 2, (size_t)(q - (p + 2))))
                break;
            p = q + 2;
        } else if (*p == '[') {
            char *end;
            unsigned long i = strtoul(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || !enter_element(&s, i))
                break;
            p = end + 1;
        } else {
            if (*p == '.')
                p++;
            size_t n = strcspn(p, ".[");
            if (n == 0 || !enter_member(&s, p, n))
                break;
            p += n;
        }
        found = s.pos;
        (*steps)++;
    }
    size_t line = 1;
    for (size_t i = 0; i < found && i < len; i++)
        line += text[i] == '\n';
    return line;
}
