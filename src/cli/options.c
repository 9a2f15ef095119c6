/* Shared helpers of the subcommands (see options.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "options.h"

/* The first len - 1 bytes of path, decompressed if it is gzip (*gz set then), as a
 * string; -1 when it cannot be read. */
static int read_head(const char *path, char *buf, size_t len, int *gz)
{
    int fd;
    if (cutune_open_input(path, &fd, NULL, 0) < 0) /* regular files only: never waits */
        return -1;
    gzFile f = gzdopen(fd, "rb"); /* reads plain files as they are */
    if (!f) {
        close(fd);
        return -1;
    }
    int got = gzread(f, buf, (unsigned)(len - 1));
    *gz = !gzdirect(f);
    gzclose(f);
    if (got < 0)
        return -1;
    buf[got] = '\0';
    return got;
}

static int has_journal_header(const char *buf)
{
    return strstr(buf, "\"kind\":\"header\"") || strstr(buf, "\"kind\": \"header\"");
}

/* Does the JSON object in path (gzip or plain) hold a top-level key "tune_params" or
 * "tune_params_keys"? One streamed pass that tracks strings and nesting, stopping at the
 * first such key: Kernel Tuner writes them first, but a cache written with sorted keys
 * has them after its "cache", which may be many megabytes. */
static int has_kt_key(const char *path)
{
    int fd;
    if (cutune_open_input(path, &fd, NULL, 0) < 0)
        return 0;
    gzFile f = gzdopen(fd, "rb");
    if (!f) {
        close(fd);
        return 0;
    }
    static char buf[65536];
    char key[24];
    size_t kl = 0;
    long depth = 0;
    int object = -1, in_str = 0, esc = 0, want_key = 0, is_key = 0, found = 0, got, start = 1;
    while (!found && object != 0 && (got = gzread(f, buf, sizeof buf)) > 0) {
        /* a UTF-8 byte order mark first is skipped, as cJSON skips it when it parses */
        int i0 = start && got >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        start = 0;
        for (int i = i0; i < got && !found; i++) {
            char c = buf[i];
            if (in_str) {
                if (esc)
                    esc = 0, kl = sizeof key; /* an escaped key is none of those */
                else if (c == '\\')
                    esc = 1;
                else if (c == '"') {
                    in_str = 0;
                    found = is_key && kl < sizeof key &&
                            ((kl == 11 && memcmp(key, "tune_params", 11) == 0) ||
                             (kl == 16 && memcmp(key, "tune_params_keys", 16) == 0));
                } else if (is_key && kl < sizeof key)
                    key[kl++] = c;
                continue;
            }
            if (object < 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r')
                object = c == '{';
            if (!object)
                break;
            if (c == '"') {
                in_str = 1;
                is_key = depth == 1 && want_key;
                want_key = 0;
                kl = 0;
            } else if (c == '{' || c == '[') {
                want_key = ++depth == 1;
            } else if (c == '}' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 1) {
                want_key = 1;
            }
        }
    }
    gzclose(f);
    return found;
}

/* Does longopts hold the option name[0..n) with the value val? */
static int names_option(const struct option *longopts, const char *name, size_t n, int val)
{
    for (; longopts->name; longopts++)
        if (strlen(longopts->name) == n && strncmp(longopts->name, name, n) == 0)
            return longopts->val == val;
    return 0;
}

/* The one line for an option getopt_long refused (c: '?', or ':' for a missing value),
 * naming it as given: the command's whole usage after it would bury it. */
static void say_refused(int c, char **argv, const struct option *longopts)
{
    const char *word = optind > 0 ? argv[optind - 1] : "";
    size_t n = strcspn(word, "=");
    /* optopt is 0 for an unknown long option, else the option's value; a short one's
     * word may be a cluster (-qx) */
    int is_long =
        strncmp(word, "--", 2) == 0 && (!optopt || names_option(longopts, word + 2, n - 2, optopt));
    if (!is_long)
        fprintf(stderr, "%s: %s '-%c' (try --help)\n", cli_progname,
                c == ':' ? "a value is needed after" : "unknown option", optopt);
    else if (c == ':')
        fprintf(stderr, "%s: option '%.*s' needs a value (try --help)\n", cli_progname, (int)n,
                word);
    else if (optopt)
        fprintf(stderr, "%s: option '%.*s' takes no value (try --help)\n", cli_progname, (int)n,
                word);
    else
        fprintf(stderr, "%s: unknown option '%.*s' (try --help)\n", cli_progname, (int)n, word);
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char opts[64];
    snprintf(opts, sizeof opts, ":%s", shortopts); /* ':' first: a missing value is ':' */
    opterr = 0;                                    /* the messages are say_refused's */
    optopt = 0;
    int idx = -1;
    int c = getopt_long(argc, argv, opts, longopts, &idx);
    if (c == '?' || c == ':') {
        say_refused(c, argv, longopts);
        return '?';
    }
    if (c == -1 || idx < 0)
        return c;
    /* the word given: before its value when that was the next word */
    const char *word =
        optarg && optind >= 2 && optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
    size_t n = strncmp(word, "--", 2) == 0 ? strcspn(word + 2, "=") : 0;
    if (n && n < strlen(longopts[idx].name)) {
        /* getopt takes an unambiguous prefix; cutune does not: an option of a command
         * would otherwise answer for another command's of that prefix (bench --objective
         * was bench --objectives), and a later option could make it ambiguous */
        fprintf(stderr, "%s: option '--%.*s' is not spelled out: did you mean '--%s'?\n",
                cli_progname, (int)n, word + 2, longopts[idx].name);
        return '?';
    }
    if (optarg && optarg == argv[optind - 1] && word != optarg && strncmp(optarg, "--", 2) == 0) {
        /* '--journal --csv=x.csv' would journal into a file named '--csv=x.csv' (and
         * '--journal -- F' into '--'), '--budget --seed=2' call that budget not an
         * integer: an option's value left out */
        fprintf(stderr,
                "%s: option '%s' needs a value: the next word, '%s', is an option (a value "
                "that starts with -- goes as %s=VALUE)\n",
                cli_progname, word, optarg, word);
        return '?';
    }
    return c;
}

int cli_is_recording(const char *path)
{
    size_t n = strlen(path);
    if (n > 3 && strcmp(path + n - 3, ".gz") == 0)
        return 1;
    if (n > 6 && strcmp(path + n - 6, ".jsonl") == 0)
        return 1;
    static char buf[65536];
    int gz;
    if (read_head(path, buf, sizeof buf, &gz) < 0)
        return 0;
    if (gz)
        return 1;
    /* a Kernel Tuner cache (also one that lacks tune_params: the loader then says so,
     * instead of the spec loader calling its fields unknown) or a journal; not the word
     * "cache", which a spec may use as a name */
    return has_journal_header(buf) || has_kt_key(path);
}

int cli_is_kt_cache(const char *path)
{
    static char buf[65536];
    int gz;
    if (read_head(path, buf, sizeof buf, &gz) <= 0)
        return 0;
    return !has_journal_header(buf) && has_kt_key(path);
}

void cli_say_truncated_tail(const cutune_recording *r)
{
    if (!r || !r->truncated_tail) /* read short of its end: said, never a silent cut */
        return;
    if (r->format && strcmp(r->format, "kernel_tuner") == 0)
        fprintf(stderr,
                "%s: warning: %s: the cache is unterminated (a Kernel Tuner run that "
                "stopped?): read up to its last whole entry, as Kernel Tuner reads it\n",
                cli_progname, r->path);
    else
        fprintf(stderr,
                "%s: warning: %s: its last line ends without a newline (cut off "
                "mid-write): left out\n",
                cli_progname, r->path);
}

/* Whether path reads as a JSON object with a kernel spec's own members (cutune's
 * "parameters", or a T1 file's top level): what a kernel spec given as a recording is. A
 * file that does not parse, or parses to anything else, is not called one. */
static int looks_like_spec(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (cutune_read_file(path, &text, &len, NULL, 0) < 0)
        return 0;
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    int spec = cJSON_IsObject(j) && (cJSON_GetObjectItemCaseSensitive(j, "parameters") ||
                                     cJSON_GetObjectItemCaseSensitive(j, "ConfigurationSpace") ||
                                     cJSON_GetObjectItemCaseSensitive(j, "KernelSpecification"));
    cJSON_Delete(j);
    return spec;
}

int cli_recording_load_for(const char *as, const char *path, cutune_recording **out, char *err,
                           size_t errlen)
{
    int rc = cutune_recording_load(path, out, err, errlen);
    if (rc >= 0)
        return rc;
    char why[1024];
    snprintf(why, sizeof why, "%s", err);
    if (cli_spec_not_recording(path, err, errlen) < 0) {
        snprintf(why, sizeof why, "%s", err);
        return cutune_err(err, errlen, CUTUNE_EINVAL, "%s%s", as, why);
    }
    /* the loader's message starts with the file: the option goes before it */
    return cutune_err(err, errlen, rc, "%s%s", as, why);
}

int cli_spec_not_recording(const char *path, char *err, size_t errlen)
{
    if (!cli_is_recording(path) && looks_like_spec(path))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: a kernel spec, not a recording (a Kernel Tuner cache or a "
                          "cutune journal)",
                          path);
    return 0;
}

int cli_not_a_journal(const char *cmd, const char *path, char *err, size_t errlen)
{
    if (cli_is_kt_cache(path))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: a Kernel Tuner cache, not a journal: replay it with 'cutune %s' "
                          "first, then %s the journal that run writes",
                          path, path, cmd);
    if (!cli_is_recording(path) && looks_like_spec(path))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: a kernel spec, not a journal: tune it with 'cutune %s' first, "
                          "then %s the journal that run writes",
                          path, path, cmd);
    return 0;
}

/* Why a recording's space under --restrict could not be built (rc, why): the option named,
 * with what was wrong with the expression: the first that does not parse against the
 * recording's parameters (a syntax error; a name the recording lacks, with its parameters),
 * else what the set does (excludes every point, divides by zero at a point). */
static void restrict_error(const cutune_recording *r, const cli_space_opts *o, int rc,
                           const char *why, char *err, size_t errlen)
{
    char first[512] = "";
    int found = 0, unknown = 0;
    cutune_space *s = cutune_space_alloc();
    for (size_t p = 0; s && p < r->nparams; p++)
        if (cutune_space_add_param(s, r->param_names[p], r->values[p], r->nvalues[p], NULL, 0) < 0)
            goto done;
    for (size_t i = 0; s && i < o->nrestrict && !found; i++) {
        int prc = cutune_space_add_restriction(s, o->restrict_exprs[i], first, sizeof first);
        found = prc < 0;
        unknown = prc == CUTUNE_ENOTFOUND;
    }
done:
    cutune_space_free(s);
    if (!found) {
        /* space too large, or an evaluation error ("restriction 0: division by zero ...") */
        if (strncmp(why, "the space is too large", 22) == 0)
            cutune_err(err, errlen, rc, "%s: %s", r->path, why);
        else
            cutune_err(err, errlen, rc, "--restrict: %s (restricting %s)", why, r->path);
        return;
    }
    if (!unknown) {
        cutune_err(err, errlen, rc, "--restrict: %s (restricting %s)", first, r->path);
        return;
    }
    char names[256] = "";
    size_t len = 0;
    for (size_t p = 0; p < r->nparams && len < sizeof names; p++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", p ? ", " : "",
                                r->param_names[p]);
    cutune_err(err, errlen, rc, "--restrict: %s (%s has the parameters %s)", first, r->path, names);
}

int cli_target_load(const char *arg, const cli_space_opts *o, cli_target *t, char *err,
                    size_t errlen)
{
    memset(t, 0, sizeof *t);
    int rc;
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: is a directory (give a kernel, spec or recording)", arg);
    if (strchr(arg, '/') || strstr(arg, ".json")) {
        if (snprintf(t->path, sizeof t->path, "%s", arg) >= (int)sizeof t->path)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "%.64s...: path too long", arg);
        int fd; /* a FIFO or a device (/dev/zero) is refused here, before any read */
        if ((rc = cutune_open_input(arg, &fd, err, errlen)) < 0)
            return rc;
        close(fd);
    } else {
        rc = cutune_spec_resolve(arg, t->path, sizeof t->path, err, errlen);
        if (rc < 0)
            return rc;
    }
    if (cli_is_recording(t->path)) {
        if (o->nsizes)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "%s: --size applies to kernel specs, not recordings", t->path);
        rc = cutune_recording_load(t->path, &t->rec, err, errlen);
        if (rc < 0)
            return rc;
        cli_say_truncated_tail(t->rec);
        rc = cutune_recording_space(t->rec, o->restrict_exprs, o->nrestrict, !o->cartesian,
                                    &t->space, err, errlen);
        if (rc < 0) { /* (e.g. no valid configuration): name the file */
            char why[512];
            snprintf(why, sizeof why, "%s", err);
            if (o->nrestrict)
                restrict_error(t->rec, o, rc, why, err, errlen);
            else
                cutune_err(err, errlen, rc, "%s: %s", t->path, why);
            cli_target_free(t);
            return rc;
        }
        return 0;
    }
    if (o->nrestrict)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: --restrict applies to recordings; put restrictions in the spec",
                          t->path);
    for (size_t i = 0; i < o->nsizes; i++) /* the later would silently win */
        for (size_t j = 0; j < i; j++)
            if (strcmp(o->sizes[i].name, o->sizes[j].name) == 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL, "--size %s: given twice",
                                  o->sizes[i].name);
    rc = cutune_spec_load(t->path, o->sizes, o->nsizes, &t->spec, err, errlen);
    if (rc < 0)
        return rc;
    /* what a T1 file says that cutune ignores: said, one line each, never dropped silently */
    for (const char *w = t->spec->warnings; w && *w;) {
        size_t n = strcspn(w, "\n");
        fprintf(stderr, "%s: warning: %.*s\n", cli_progname, (int)n, w);
        w += n + (w[n] == '\n');
    }
    t->space = t->spec->space;
    return 0;
}

void cli_target_free(cli_target *t)
{
    if (t->rec)
        cutune_space_free(t->space);
    if (t->recorded)
        free(*(uint64_t **)t->recorded); /* the recorded set's keys (its first member) */
    free(t->recorded);
    cutune_recording_free(t->rec);
    cutune_spec_free(t->spec);
    memset(t, 0, sizeof *t);
}

int cli_refuse_onto_input(const char *opt, const char *out, const cli_target *t, const char *db,
                          char *err, size_t errlen)
{
    if (db && *db && cutune_path_same(out, db))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s=%s: is the tuning database; choose another path", opt, out);
    int hit = *t->path && cutune_path_same(out, t->path);
    if (t->spec) {
        hit = hit || (t->spec->source_path && cutune_path_same(out, t->spec->source_path)) ||
              (t->spec->recording && cutune_path_same(out, t->spec->recording));
        for (size_t i = 0; !hit && i < t->spec->nrecordings; i++)
            hit = t->spec->recordings[i] && cutune_path_same(out, t->spec->recordings[i]);
    }
    if (hit)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s=%s: is an input of %s (its spec, kernel source or recording); "
                          "choose another path",
                          opt, out, t->path);
    return 0;
}

int cli_parse_size(const char *text, cutune_size_override *out, char *err, size_t errlen)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--size %s: expected NAME=VALUE", text);
    static char names[CLI_MAX_LIST][64];
    static size_t used;
    size_t nl = (size_t)(eq - text);
    if (nl >= sizeof names[0] || used >= CLI_MAX_LIST)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--size %s: name too long", text);
    memcpy(names[used], text, nl);
    names[used][nl] = '\0';
    out->name = NULL;
    for (size_t i = 0; i < used && !out->name; i++) /* a name given again takes its slot */
        if (strcmp(names[i], names[used]) == 0)
            out->name = names[i];
    if (!out->name)
        out->name = names[used++];
    if (!cutune_is_decimal(eq + 1))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--size %s: '%s' is not a decimal number (sizes are base 10: 16, "
                          "1e6, 0.5; not 0x10)",
                          text, eq + 1);
    char *end;
    errno = 0;
    long long i = strtoll(eq + 1, &end, 10); /* base 10: N=010 is ten, not octal eight */
    if (!*end && !errno) {
        out->value = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i};
        return 0;
    }
    errno = 0;
    double r = strtod(eq + 1, &end);
    if (*end || errno)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--size %s: '%s' is not a number", text,
                          eq + 1);
    out->value = (cutune_value){.type = CUTUNE_VALUE_REAL, .r = r};
    return 0;
}

int cli_parse_ulong(const char *opt, const char *text, unsigned long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    if (*text == '-')
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: must not be negative", opt, text);
    /* digits only: strtoul would also take a leading blank or '+' (" 5", "+5") */
    if (!isdigit((unsigned char)*text))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: not an integer", opt, text);
    unsigned long v = strtoul(text, &end, 10); /* decimal: 010 is ten, as in --size */
    if (end != text && !*end && errno == ERANGE)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: out of range (at most %lu)", opt,
                          text, ULONG_MAX);
    if (end == text || *end || errno)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: not an integer", opt, text);
    *out = v;
    return 0;
}

int cli_parse_double(const char *opt, const char *text, double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    /* decimal as --size takes it: strtod's 0x10 (16), inf (no limit at all) and nan are
     * not the seconds a user meant */
    if (!cutune_is_decimal(text))
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: not a decimal number", opt, text);
    double v = strtod(text, &end);
    if (errno == ERANGE)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: out of range", opt, text);
    if (end == text || *end || errno)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=%s: not a number", opt, text);
    *out = v;
    return 0;
}

/* A kernel replayed from a recording that holds only part of its space (a
 * stated sample): restrict the space to the recorded configurations, so that
 * no evaluation is spent on a configuration the recording cannot answer. */
typedef struct {
    uint64_t *keys; /* Cartesian index + 1; 0 = empty */
    size_t cap;
    const cutune_space *space;
} recorded_set;

static uint64_t cartesian_index(const cutune_space *s, const uint16_t *idx)
{
    uint64_t k = 0;
    for (size_t p = 0; p < cutune_space_nparams(s); p++)
        k = k * cutune_space_param(s, p)->nvalues + idx[p];
    return k;
}

static size_t set_slot(const recorded_set *rs, uint64_t key)
{
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 7) & (rs->cap - 1);
    while (rs->keys[h] && rs->keys[h] != key + 1)
        h = (h + 1) & (rs->cap - 1);
    return h;
}

static int in_recorded_set(void *ctx, const uint16_t *idx)
{
    const recorded_set *rs = ctx;
    return rs->keys[set_slot(rs, cartesian_index(rs->space, idx))] != 0;
}

int cli_restrict_to_recording(cli_target *t, const char *recording, char *err, size_t errlen)
{
    /* lives as long as the space's filter: the target's (several targets at once under
     * --sizes, each with its own recording) */
    recorded_set *rsp = t->recorded;
    if (!rsp && !(rsp = t->recorded = calloc(1, sizeof *rsp)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    recorded_set rs = *rsp;
    cutune_recording *rec = NULL;
    long *map = NULL;
    size_t n = cutune_space_size(t->space);
    int rc = cutune_recording_load(recording, &rec, err, errlen);
    if (rc < 0)
        return rc;
    cli_say_truncated_tail(rec); /* the replayed file (the evaluator's own load is silent) */
    map = malloc((n ? n : 1) * sizeof *map);
    if (!map) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    rc = cutune_recording_map(rec, t->space, map, err, errlen);
    if (rc < 0)
        goto out;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += map[i] >= 0;
    if (hits == n)
        goto out; /* the recording covers the whole space */
    if (hits == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EEMPTY,
                        "%s: records none of the %zu configurations of %s", recording, n, t->path);
        goto out;
    }
    free(rs.keys);
    rsp->keys = NULL;
    for (rs.cap = 64; rs.cap < 2 * hits; rs.cap *= 2)
        ;
    rs.keys = calloc(rs.cap, sizeof *rs.keys);
    rs.space = t->space;
    if (!rs.keys) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (map[i] >= 0) {
            uint64_t k = cartesian_index(t->space, cutune_space_config(t->space, i));
            rs.keys[set_slot(&rs, k)] = k + 1;
        }
    *rsp = rs;
    cutune_space_set_filter(t->space, in_recorded_set, rsp);
    rc = cutune_space_enumerate(t->space, err, errlen);
out:
    free(map);
    cutune_recording_free(rec);
    return rc;
}

/* Are the recording's header sizes the spec's sizes as loaded (after --size)? A recording
 * without sizes matches none. */
static int sizes_match(const cutune_recording *r, const cutune_spec *spec)
{
    if (!r->nsizes)
        return 0;
    for (size_t c = 0; c < spec->nsizes; c++) {
        const char *name = cutune_space_constant_name(spec->space, c);
        cutune_value v = cutune_space_constant_value(spec->space, c);
        double want = v.type == CUTUNE_VALUE_INT ? (double)v.i : v.r;
        size_t j = 0;
        while (j < r->nsizes && strcmp(r->size_names[j], name) != 0)
            j++;
        if (j == r->nsizes || r->size_values[j] != want)
            return 0;
    }
    return 1;
}

int cli_spec_recording(const cutune_spec *spec, const char **out, char *err, size_t errlen)
{
    *out = spec->recording;
    if (!spec->nrecordings)
        return 0; /* one recording: replayed at any sizes, as it always was */
    for (size_t i = 0; i <= spec->nrecordings; i++) {
        const char *path = i == 0 ? spec->recording : spec->recordings[i - 1];
        cutune_recording *r = NULL;
        if (!path || access(path, R_OK) != 0 || cutune_recording_load(path, &r, NULL, 0) < 0)
            continue; /* a recording not made yet cannot be replayed */
        int hit = sizes_match(r, spec);
        cutune_recording_free(r);
        if (hit) {
            *out = path;
            return 0;
        }
    }
    char sizes[512] = "";
    size_t used = 0;
    for (size_t c = 0; c < spec->nsizes && used < sizeof sizes; c++) {
        char v[64];
        cutune_value val = cutune_space_constant_value(spec->space, c);
        cutune_value_format(&val, v, sizeof v);
        int w = snprintf(sizes + used, sizeof sizes - used, "%s%s=%s", c ? "," : "",
                         cutune_space_constant_name(spec->space, c), v);
        used += w > 0 ? (size_t)w : 0;
    }
    *out = NULL;
    return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                      "%s: none of its %zu recordings was measured at %s (the sizes of each are "
                      "in its header; give --evaluator=replay:FILE, or tune on a GPU)",
                      spec->path, spec->nrecordings + (spec->recording != NULL), sizes);
}

/* A configuration as its NAME=VALUE text and a newline, whatever its length. */
void cli_print_config(FILE *f, const cutune_space *s, size_t id)
{
    char small[1024];
    int n = cutune_space_format_config(s, id, small, sizeof small);
    if (n >= 0 && (size_t)n < sizeof small) {
        fprintf(f, "%s\n", small);
        return;
    }
    char *big = n > 0 ? malloc((size_t)n + 1) : NULL; /* never a cut configuration */
    if (big && cutune_space_format_config(s, id, big, (size_t)n + 1) >= 0)
        fprintf(f, "%s\n", big);
    else
        fprintf(f, "(configuration %zu: out of memory)\n", id);
    free(big);
}
