/* `cutune db list|show|export|import|prune`: the tuning database by hand. This file holds
 * the command line, list, show and prune; export and import are cmd_db_io.c's
 * (docs/database.md). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "cmd_db_internal.h"

static void db_usage(FILE *f)
{
    fprintf(f,
            "usage: cutune db [OPTIONS] COMMAND [OPTIONS]\n"
            "\n"
            "The tuning database (--db=FILE; default $CUTUNE_DB, else\n"
            "$XDG_DATA_HOME/cutune/tuning.db, else ~/.local/share/cutune/tuning.db).\n"
            "Options go before COMMAND or after it (`cutune db --db=FILE list`); each COMMAND\n"
            "takes --db=FILE, -h/--help and the options shown with it, and refuses the others.\n"
            "\n"
            "  list [--kernel=NAME] [--gpu=TEXT]\n"
            "        one line per kernel, GPU, sizes and options: measurements, correct ones,\n"
            "        answers reused, the best time, the latest\n"
            "  show [--gpu=TEXT] [--top=N] KERNEL|SPEC|RECORDING\n"
            "        every GPU, sizes and options of KERNEL, with its N fastest configurations\n"
            "        (default 5)\n"
            "  export [--size NAME=VALUE]... [--gpu=TEXT] (--kt-cache=FILE | --journal=FILE)\n"
            "         KERNEL|SPEC\n"
            "        the latest measurement of each configuration, as a Kernel Tuner cache or a\n"
            "        cutune journal (each replays as `--evaluator=replay:FILE`)\n"
            "  import [--kernel=KERNEL|SPEC [--size NAME=VALUE]...] FILE...\n"
            "        Kernel Tuner caches and cutune journals, keyed as a replay of the\n"
            "        recording is keyed (a live run's journal: the device it names); with\n"
            "        --kernel, onto that kernel's space (else a journal's own spec, or the\n"
            "        recording as its own space). Evaluations the database already holds\n"
            "        (the same file, a copy, gzipped, or an export keyed as before) are not\n"
            "        stored again.\n"
            "  prune [--kernel=NAME] [--gpu=TEXT] [--before=DATE] [--failed] [--all]\n"
            "        remove the measurements that match every filter given (at least one,\n"
            "        or --all: without a filter, every measurement); DATE is YYYY-MM-DD or a\n"
            "        UTC time YYYY-MM-DDTHH:MM:SS[Z]\n"
            "\n"
            "Exit status: 0 done, 1 failed, 2 bad input.\n");
}

/* The options each command reads (as parse's letters): one it does not read is refused,
 * never dropped (prune --size would have pruned every size). */
static const char *command_options(const char *cmd)
{
    static const char *const table[][2] = {
        {"list", "dkg"},   {"show", "dgt"},     {"export", "dsgKj"},
        {"import", "dks"}, {"prune", "dkgbfa"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(cmd, table[i][0]) == 0)
            return table[i][1];
    return NULL; /* an unknown command: refused by its name later */
}

static const struct option longopts[] = {
    {"db", required_argument, NULL, 'd'},       {"kernel", required_argument, NULL, 'k'},
    {"gpu", required_argument, NULL, 'g'},      {"before", required_argument, NULL, 'b'},
    {"kt-cache", required_argument, NULL, 'K'}, {"journal", required_argument, NULL, 'j'},
    {"failed", no_argument, NULL, 'f'},         {"all", no_argument, NULL, 'a'},
    {"top", required_argument, NULL, 't'},      {"size", required_argument, NULL, 's'},
    {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
};

/* Where the command word is among argv[1..argc): the first word that is neither an option
 * nor the value of one given as the next word (`--db FILE list`); argc when there is none. */
static int command_index(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (strcmp(w, "--") == 0)
            return i + 1;
        if (w[0] != '-' || !w[1])
            return i;
        if (strncmp(w, "--", 2) != 0 || strchr(w, '='))
            continue;
        for (const struct option *lo = longopts; lo->name; lo++)
            if (strcmp(w + 2, lo->name) == 0 && lo->has_arg == required_argument)
                i++; /* its value */
    }
    return argc;
}

static int parse(const char *cmd, int argc, char **argv, db_opts *o, char *err, size_t errlen)
{
    int c, rc = 0;
    memset(o, 0, sizeof *o);
    o->top = 5;
    optind = 1;
    const char *allowed = command_options(cmd);
    while (rc == 0 && (c = cli_getopt(argc, argv, "h", longopts)) != -1) {
        if (allowed && c != 'h' && c != '?' && !strchr(allowed, c)) {
            size_t i = 0;
            while (longopts[i].name && longopts[i].val != c)
                i++;
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "db %s: --%s does not apply to it (cutune db --help)", cmd,
                              longopts[i].name);
        }
        if ((c == 'k' || c == 'g') && !*optarg)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "--%s=: empty (it would match every %s)",
                              c == 'k' ? "kernel" : "gpu", c == 'k' ? "kernel" : "GPU");
        switch (c) {
        case 'd': o->db = optarg; break;
        case 'k': o->kernel = optarg; break;
        case 'g': o->gpu = optarg; break;
        case 'b': o->before = optarg; break;
        case 'K': o->kt = optarg; break;
        case 'j': o->journal = optarg; break;
        case 'f': o->failed = 1; break;
        case 'a': o->all = 1; break;
        case 't': rc = cli_parse_ulong("top", optarg, &o->top, err, errlen); break;
        case 's':
            if (o->so.nsizes >= CLI_MAX_LIST)
                rc = cutune_err(err, errlen, CUTUNE_EINVAL, "too many --size options");
            else
                rc = cli_parse_size(optarg, &o->so.sizes[o->so.nsizes++], err, errlen);
            break;
        case 'h': db_usage(stdout); return 1;
        default: err[0] = '\0'; return CUTUNE_EINVAL; /* said in one line by cli_getopt */
        }
    }
    return rc;
}

int cli_db_open(const db_opts *o, unsigned flags, cutune_db **db, char *path, size_t len, char *err,
                size_t errlen)
{
    int rc = cli_db_path(o->db, 0, path, len, err, errlen);
    if (rc < 0)
        return rc;
    if (!path[0])
        return cutune_err(err, errlen, CUTUNE_EINVAL, "$CUTUNE_DB=none: no database (give --db)");
    /* a database refused (read-only, in a read-only folder) is bad input, exit 2, as for
     * tune: CUTUNE_EIO would say a failure while working (exit 1) */
    rc = cutune_db_open(path, flags, db, err, errlen);
    return rc == CUTUNE_EIO ? CUTUNE_EINVAL : rc;
}

/* ------------------------------------------------------------------ list, show */

static void print_group(const cutune_db_group *g)
{
    char best[32] = "-";
    if (isfinite(g->best_ms))
        snprintf(best, sizeof best, "%.6g", g->best_ms);
    printf("%s\t%s\t%s\t%s\t%zu\t%zu\t%zu\t%s\t%s\n", g->kernel, g->gpu, g->sizes, g->options,
           g->evaluations, g->ok, g->reused, best, g->last);
}

static int cmd_list(const db_opts *o, char *err, size_t errlen)
{
    cutune_db *db;
    char path[4096];
    int rc = cli_db_open(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen);
    if (rc == CUTUNE_ENOTFOUND) { /* nothing stored yet */
        printf("kernel\tgpu\tsizes\toptions\tmeasured\tok\treused\tbest_ms\tlatest\n");
        return 0;
    }
    if (rc < 0)
        return rc;
    cutune_db_groups *gs;
    rc = cutune_db_groups_list(db, o->kernel, o->gpu, &gs, err, errlen);
    if (rc == 0) {
        printf("kernel\tgpu\tsizes\toptions\tmeasured\tok\treused\tbest_ms\tlatest\n");
        for (size_t i = 0; i < gs->n; i++)
            print_group(&gs->g[i]);
        cutune_db_groups_free(gs);
    }
    cutune_db_close(db);
    return rc;
}

static int by_time(const void *a, const void *b)
{
    const cutune_db_row *x = a, *y = b;
    int xo = isfinite(x->time_ms), yo = isfinite(y->time_ms);
    if (xo != yo)
        return yo - xo;
    if (xo && x->time_ms != y->time_ms)
        return x->time_ms < y->time_ms ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmd_show(const db_opts *o, const char *target, char *err, size_t errlen)
{
    cli_target t;
    int rc = cli_target_load(target, &o->so, &t, err, errlen);
    if (rc < 0)
        return rc;
    const char *name = t.spec ? t.spec->name : NULL;
    cutune_db_key probe;
    if (!name) {
        cutune_db_gpu none;
        cutune_db_gpu_from_name(NULL, &none);
        if ((rc = cutune_db_key_recording(t.rec, &none, &probe, err, errlen)) < 0)
            goto out_target;
        name = probe.kernel;
    }
    cutune_db *db;
    char path[4096];
    if ((rc = cli_db_open(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen)) < 0)
        goto out_target;
    cutune_db_groups *gs;
    if ((rc = cutune_db_groups_list(db, name, o->gpu, &gs, err, errlen)) < 0)
        goto out_db;
    if (gs->n == 0)
        printf("%s: nothing stored for %s\n", path, name);
    for (size_t i = 0; i < gs->n && rc >= 0; i++) {
        const cutune_db_group *g = &gs->g[i];
        cutune_db_key key = {0};
        snprintf(key.kernel, sizeof key.kernel, "%s", g->kernel);
        snprintf(key.kernel_hash, sizeof key.kernel_hash, "%s", g->kernel_hash);
        snprintf(key.sizes, sizeof key.sizes, "%s", g->sizes);
        snprintf(key.options, sizeof key.options, "%s", g->options);
        snprintf(key.gpu.fingerprint, sizeof key.gpu.fingerprint, "%s", g->gpu);
        printf("%s (hash %s) on %s\n  sizes %s, options %s: %zu measured, %zu ok, %zu reused\n",
               g->kernel, g->kernel_hash, g->gpu, g->sizes, g->options, g->evaluations, g->ok,
               g->reused);
        cutune_db_rows *rows;
        if ((rc = cutune_db_rows_key(db, &key, &rows, err, errlen)) < 0)
            break;
        qsort(rows->row, rows->n, sizeof *rows->row, by_time);
        for (size_t r = 0; r < rows->n && r < o->top && isfinite(rows->row[r].time_ms); r++)
            printf("  %.6g ms  %s\n", rows->row[r].time_ms, rows->row[r].config);
        cutune_db_rows_free(rows);
    }
    cutune_db_groups_free(gs);
out_db:
    cutune_db_close(db);
out_target:
    cli_target_free(&t);
    return rc;
}

/* ------------------------------------------------------------------ prune */

/* The n digits at t as a number, or -1 when they are not n digits. */
static int digits(const char *t, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9')
            return -1;
        v = 10 * v + (t[i] - '0');
    }
    return v;
}

/* A real date YYYY-MM-DD, or a time YYYY-MM-DDTHH:MM:SS with an optional Z (UTC, as the
 * database stores them): the filter compares text, so a malformed bound (a month 99, a
 * trailing typo) would silently select rows it was never meant to. */
static int valid_before(const char *b)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    size_t n = strlen(b);
    if (n != 10 && n != 19 && !(n == 20 && b[19] == 'Z'))
        return 0;
    int y = digits(b, 4), m = b[4] == '-' ? digits(b + 5, 2) : -1,
        d = b[7] == '-' ? digits(b + 8, 2) : -1;
    if (y < 0 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
        return 0;
    if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return 0;
    if (n == 10)
        return 1;
    int hh = b[10] == 'T' ? digits(b + 11, 2) : -1, mm = b[13] == ':' ? digits(b + 14, 2) : -1,
        ss = b[16] == ':' ? digits(b + 17, 2) : -1;
    return hh >= 0 && hh <= 23 && mm >= 0 && mm <= 59 && ss >= 0 && ss <= 60;
}

static int cmd_prune(const db_opts *o, char *err, size_t errlen)
{
    if (o->before && !valid_before(o->before))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--before=%s: expected a date YYYY-MM-DD or a UTC time "
                          "YYYY-MM-DDTHH:MM:SS[Z]",
                          o->before);
    cutune_db *db;
    char path[4096];
    int rc = cli_db_open(o, CUTUNE_DB_EXISTING, &db, path, sizeof path, err, errlen);
    if (rc < 0)
        return rc;
    size_t removed = 0;
    cutune_db_prune_filter f = {.kernel = o->kernel,
                                .gpu = o->gpu,
                                .before = o->before,
                                .failed = o->failed,
                                .all = o->all};
    rc = cutune_db_prune(db, &f, &removed, err, errlen);
    if (rc >= 0)
        printf("%s: removed %zu evaluations\n", path, removed);
    cutune_db_close(db);
    return rc;
}

int cutune_cmd_db(int argc, char **argv)
{
    char err[1024] = "";
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        db_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* options may come before the command too (`db --db=FILE list`): the command word
     * is moved to the front, the options before it follow it */
    int ci = command_index(argc, argv);
    if (ci < argc) {
        char *word = argv[ci];
        memmove(argv + 2, argv + 1, (size_t)(ci - 1) * sizeof *argv);
        argv[1] = word;
    }
    int off = ci < argc; /* getopt's argv[0]: the command word, else "cutune db" */
    const char *cmd = off ? argv[1] : "";
    db_opts o;
    int rc = parse(cmd, argc - off, argv + off, &o, err, sizeof err);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0) {
        int rest = argc - off - optind;
        char **pos = argv + off + optind;
        if (!*cmd) {
            rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                            "db: no command given (list, show, export, import, prune)");
        } else if (strcmp(cmd, "list") == 0 || strcmp(cmd, "prune") == 0) {
            if (rest)
                rc =
                    cutune_err(err, sizeof err, CUTUNE_EINVAL, "db %s: unexpected %s", cmd, pos[0]);
            else
                rc = cmd[0] == 'l' ? cmd_list(&o, err, sizeof err) : cmd_prune(&o, err, sizeof err);
        } else if (strcmp(cmd, "show") == 0 || strcmp(cmd, "export") == 0) {
            if (rest != 1)
                rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                                "db %s: expected one KERNEL, SPEC or RECORDING", cmd);
            else
                rc = cmd[0] == 's' ? cmd_show(&o, pos[0], err, sizeof err)
                                   : cli_db_export(&o, pos[0], err, sizeof err);
        } else if (strcmp(cmd, "import") == 0) {
            rc = cli_db_import(&o, rest, pos, err, sizeof err);
        } else {
            rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                            "db: no command '%s' (list, show, export, import, prune)", cmd);
        }
    }
    if (rc >= 0)
        return 0;
    /* once prefixed, as cli_getopt's lines ("cutune db: ..."): a message that names its
     * command ("db import: F: ...") goes on from the program's name, "cutune db import:" */
    if (err[0] && strncmp(err, "db ", 3) == 0)
        fprintf(stderr, "%s %s\n", cli_progname, err + 3);
    else if (err[0])
        fprintf(stderr, "%s: %s\n", cli_progname, strncmp(err, "db: ", 4) == 0 ? err + 4 : err);
    return rc == CUTUNE_ENOMEM || rc == CUTUNE_EIO ? 1 : 2;
}
