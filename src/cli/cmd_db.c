/* `cutune db list|show|export|import|prune`: the tuning database by hand. Imports read
 * Kernel Tuner caches and cutune journals (the recording loaders of src/io/), exports write
 * either (the writers of src/io/), so results travel between databases, machines and
 * tools (docs/database.md). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "tune_internal.h"

static void db_usage(FILE *f)
{
    fprintf(f,
            "usage: cutune db COMMAND [OPTIONS]\n"
            "\n"
            "The tuning database (--db=FILE; default $CUTUNE_DB, else\n"
            "$XDG_DATA_HOME/cutune/tuning.db, else ~/.local/share/cutune/tuning.db).\n"
            "\n"
            "  list [--kernel=NAME] [--gpu=TEXT]\n"
            "        one line per kernel, GPU and sizes: measurements, correct ones, answers\n"
            "        reused, the best time, the latest\n"
            "  show [--gpu=TEXT] [--top=N] KERNEL|SPEC|RECORDING\n"
            "        every GPU, sizes and options of KERNEL, with its N fastest configurations\n"
            "        (default 5)\n"
            "  export [--size NAME=VALUE]... [--gpu=TEXT] (--kt-cache=FILE | --journal=FILE)\n"
            "         KERNEL|SPEC\n"
            "        the latest measurement of each configuration, as a Kernel Tuner cache or a\n"
            "        cutune journal (each replays as `--evaluator=replay:FILE`)\n"
            "  import [--kernel=KERNEL|SPEC] [--size NAME=VALUE]... FILE...\n"
            "        Kernel Tuner caches and cutune journals, keyed by the recording's device\n"
            "        name; with --kernel, onto that kernel's space (else a journal's own spec, or\n"
            "        the recording as its own space). Importing a file again adds nothing.\n"
            "  prune [--kernel=NAME] [--gpu=TEXT] [--before=YYYY-MM-DD] [--failed] [--all]\n"
            "        remove the measurements that match every filter given\n"
            "\n"
            "Exit status: 0 done, 1 failed, 2 bad input.\n");
}

typedef struct {
    const char *db, *kernel, *gpu, *before, *kt, *journal;
    int failed, all;
    unsigned long top;
    cli_space_opts so;
} db_opts;

static int parse(int argc, char **argv, db_opts *o, char *err, size_t errlen)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'd'},       {"kernel", required_argument, NULL, 'k'},
        {"gpu", required_argument, NULL, 'g'},      {"before", required_argument, NULL, 'b'},
        {"kt-cache", required_argument, NULL, 'K'}, {"journal", required_argument, NULL, 'j'},
        {"failed", no_argument, NULL, 'f'},         {"all", no_argument, NULL, 'a'},
        {"top", required_argument, NULL, 't'},      {"size", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    int c, rc = 0;
    memset(o, 0, sizeof *o);
    o->top = 5;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
        default: return cutune_err(err, errlen, CUTUNE_EINVAL, "bad option (try --help)");
        }
    }
    return rc;
}

static int open_db(const db_opts *o, unsigned flags, cutune_db **db, char *path, size_t len,
                   char *err, size_t errlen)
{
    int rc = cli_db_path(o->db, 0, path, len, err, errlen);
    if (rc < 0)
        return rc;
    if (!path[0])
        return cutune_err(err, errlen, CUTUNE_EINVAL, "$CUTUNE_DB=none: no database (give --db)");
    return cutune_db_open(path, flags, db, err, errlen);
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
    int rc = open_db(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen);
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
    if ((rc = open_db(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen)) < 0)
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

/* ------------------------------------------------------------------ export */

typedef struct {
    const cutune_space *space;
    const cutune_spec *spec;
    cutune_history *h;
    size_t skipped;
} export_ctx;

static int export_one(void *vctx, const char *config, cutune_eval_result *r, char *err,
                      size_t errlen)
{
    export_ctx *x = vctx;
    long long id = cutune_db_config_id(x->space, config);
    if (id < 0) {
        x->skipped++;
        return 0;
    }
    cutune_history *h = x->h;
    if (h->n == h->cap) {
        size_t ncap = h->cap ? h->cap * 2 : 64;
        cutune_history_entry *ne = realloc(h->e, ncap * sizeof *ne);
        if (!ne)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        h->e = ne;
        h->cap = ncap;
    }
    cutune_history_entry *e = &h->e[h->n++];
    memset(e, 0, sizeof *e);
    e->id = (size_t)id;
    e->r = *r;
    memset(r, 0, sizeof *r);
    e->worker = -1;
    if (x->spec && x->spec->nmetrics && e->r.status == CUTUNE_STATUS_OK &&
        (e->spec_metrics = malloc(x->spec->nmetrics * sizeof *e->spec_metrics))) {
        for (size_t m = 0; m < x->spec->nmetrics; m++)
            e->spec_metrics[m] = NAN;
        cutune_spec_metrics(x->spec, e->id, e->r.time_ms, e->spec_metrics, NULL, 0);
    }
    return 0;
}

/* The one stored group of this kernel (name, hash), sizes and GPU filter. */
static int export_key(cutune_db *db, const cutune_db_key *want, const char *gpu, cutune_db_key *key,
                      char *err, size_t errlen)
{
    cutune_db_groups *gs;
    int rc = cutune_db_groups_list(db, want->kernel, gpu, &gs, err, errlen);
    if (rc < 0)
        return rc;
    size_t found = 0;
    char choices[1024] = "";
    for (size_t i = 0; i < gs->n; i++) {
        const cutune_db_group *g = &gs->g[i];
        if (strcmp(g->kernel_hash, want->kernel_hash) != 0 || strcmp(g->sizes, want->sizes) != 0)
            continue;
        if (found++ == 0) {
            memset(key, 0, sizeof *key);
            snprintf(key->kernel, sizeof key->kernel, "%s", g->kernel);
            snprintf(key->kernel_hash, sizeof key->kernel_hash, "%s", g->kernel_hash);
            snprintf(key->sizes, sizeof key->sizes, "%s", g->sizes);
            snprintf(key->options, sizeof key->options, "%s", g->options);
            snprintf(key->gpu.fingerprint, sizeof key->gpu.fingerprint, "%s", g->gpu);
        }
        size_t l = strlen(choices);
        snprintf(choices + l, sizeof choices - l, "%s'%s' options %s", l ? "; " : "", g->gpu,
                 g->options);
    }
    cutune_db_groups_free(gs);
    if (found == 0)
        return cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                          "%s: nothing stored for %s at sizes %s%s%s", cutune_db_path(db),
                          want->kernel, want->sizes, gpu ? " on a GPU matching " : "",
                          gpu ? gpu : "");
    if (found > 1)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: %s at sizes %s is stored %zu times (%s): choose one with --gpu=TEXT",
                          cutune_db_path(db), want->kernel, want->sizes, found, choices);
    return 0;
}

static int write_journal(const char *path, const cli_target *t, const char *dbpath,
                         const char *device, cutune_history *h, char *err, size_t errlen)
{
    char target[PATH_MAX];
    if (!realpath(t->path, target))
        snprintf(target, sizeof target, "%s", t->path);
    cutune_journal_header jh = {
        .spec_name = t->spec ? t->spec->name : t->path,
        .spec_hash = t->spec ? t->spec->hash : NULL,
        .searcher = "db",
        .evaluator = "db",
        .evaluator_arg = dbpath,
        .target = target,
        .device = device,
        .budget = h->n,
        .batch = 1,
        .parallel = 1,
        .deterministic = 1,
    };
    cutune_journal *j;
    int rc = cutune_journal_create(path, &jh, t->space, &j, err, errlen);
    for (size_t i = 0; rc >= 0 && i < h->n; i++)
        rc = cutune_journal_write_eval(j, t->space, t->spec, i, &h->e[i], err, errlen);
    cutune_journal_close(j);
    return rc;
}

static int cmd_export(const db_opts *o, const char *target, char *err, size_t errlen)
{
    if (!o->kt == !o->journal)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "db export: give one of --kt-cache=FILE and --journal=FILE");
    cli_target t;
    int rc = cli_target_load(target, &o->so, &t, err, errlen);
    if (rc < 0)
        return rc;
    cutune_db_key want, key;
    cutune_db_gpu none;
    cutune_db_gpu_from_name(NULL, &none);
    rc = t.spec ? cutune_db_key_spec(t.spec, NULL, &none, &want, err, errlen)
                : cutune_db_key_recording(t.rec, &none, &want, err, errlen);
    cutune_db *db = NULL;
    char path[4096];
    cutune_history h = {.best = -1};
    if (rc >= 0)
        rc = open_db(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen);
    if (rc >= 0)
        rc = export_key(db, &want, o->gpu, &key, err, errlen);
    export_ctx x = {.space = t.space, .spec = t.spec, .h = &h};
    if (rc >= 0)
        rc = cutune_db_each_latest(db, &key, export_one, &x, err, errlen);
    if (rc >= 0) {
        for (size_t i = 0; i < h.n / 2; i++) { /* newest first -> the order stored */
            cutune_history_entry tmp = h.e[i];
            h.e[i] = h.e[h.n - 1 - i];
            h.e[h.n - 1 - i] = tmp;
        }
        for (size_t i = 0; i < h.n; i++) {
            h.e[i].proposed = i;
            if (h.e[i].r.status < CUTUNE_STATUS_COUNT)
                h.counts[h.e[i].r.status]++;
            if (h.e[i].r.status == CUTUNE_STATUS_OK && isfinite(h.e[i].r.time_ms) &&
                (h.best < 0 || h.e[i].r.time_ms < h.e[h.best].r.time_ms))
                h.best = (long)i;
        }
        if (o->kt)
            rc = cutune_export_kt_cache(o->kt, t.space, t.spec, key.gpu.fingerprint, &h, err,
                                        errlen);
        else
            rc = write_journal(o->journal, &t, path, key.gpu.fingerprint, &h, err, errlen);
    }
    if (rc >= 0)
        fprintf(stderr, "cutune: %s: %zu configurations of %s on %s%s\n",
                o->kt ? o->kt : o->journal, h.n, key.kernel, key.gpu.fingerprint,
                x.skipped ? " (some stored configurations are not in this space: left out)" : "");
    cutune_history_free(&h);
    cutune_db_close(db);
    cli_target_free(&t);
    return rc;
}

/* ------------------------------------------------------------------ import */

/* The kernel or recording a journal was made on (its header's target), as it is loaded
 * for tuning: a spec must still hash as it did. 1 loaded into *t, 0 not a journal or no
 * target. */
static int journal_target(const cutune_recording *rec, cli_target *t, char *err, size_t errlen)
{
    if (!rec->format || strcmp(rec->format, "cutune_journal") != 0 || !rec->target)
        return 0;
    cli_space_opts so = {0};
    int is_rec = cli_is_recording(rec->target);
    for (size_t i = 0; !is_rec && i < rec->nsizes && i < CLI_MAX_LIST; i++) {
        double v = rec->size_values[i];
        so.sizes[so.nsizes].name = rec->size_names[i];
        so.sizes[so.nsizes].value =
            v == floor(v) && fabs(v) < 9e15
                ? (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)v}
                : (cutune_value){.type = CUTUNE_VALUE_REAL, .r = v};
        so.nsizes++;
    }
    char why[1024];
    if (cli_target_load(rec->target, &so, t, why, sizeof why) < 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "%s: what it was made on, %s, cannot be loaded (%s): give "
                          "--kernel=KERNEL",
                          rec->path, rec->target, why);
    if (t->spec && rec->spec_hash && strcmp(rec->spec_hash, t->spec->hash) != 0) {
        cli_target_free(t);
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "%s: its kernel %s has changed since (spec hash %s, now %s): give "
                          "--kernel=KERNEL to import it onto today's",
                          rec->path, rec->target, rec->spec_hash, t->spec->hash);
    }
    return 1;
}

static int import_file(cutune_db *db, const db_opts *o, const char *file, char *err, size_t errlen)
{
    cutune_recording *rec = NULL;
    cli_target t = {0};
    cutune_space *own = NULL;
    long *map = NULL;
    cutune_db_run *run = NULL;
    int rc = cutune_recording_load(file, &rec, err, errlen);
    if (rc < 0)
        return rc;
    cutune_db_gpu gpu;
    cutune_db_gpu_from_name(rec->device_name, &gpu);
    cutune_recording *replayed = NULL;
    /* a journal of a replay run measured nothing itself: its GPU is the replayed one's */
    if (rec->evaluator && strcmp(rec->evaluator, "replay") == 0 && rec->evaluator_arg &&
        cutune_recording_load(rec->evaluator_arg, &replayed, NULL, 0) == 0)
        cutune_db_gpu_from_name(replayed->device_name, &gpu);
    cutune_recording_free(replayed);
    cutune_db_key key;
    const cutune_space *space;
    if (o->kernel) {
        if ((rc = cli_target_load(o->kernel, &o->so, &t, err, errlen)) < 0)
            goto out;
        if (!t.spec) {
            rc =
                cutune_err(err, errlen, CUTUNE_EINVAL, "--kernel=%s: not a kernel spec", o->kernel);
            goto out;
        }
        rc = 1;
    } else if ((rc = journal_target(rec, &t, err, errlen)) < 0) {
        goto out;
    }
    if (rc == 1) {
        space = t.space;
        rc = t.spec ? cutune_db_key_spec(t.spec, NULL, &gpu, &key, err, errlen)
                    : cutune_db_key_recording(t.rec, &gpu, &key, err, errlen);
    } else {
        rc = cutune_recording_space(rec, NULL, 0, 1, &own, err, errlen);
        space = own;
        if (rc >= 0)
            rc = cutune_db_key_recording(rec, &gpu, &key, err, errlen);
    }
    if (rc < 0)
        goto out;
    size_t n = cutune_space_size(space);
    map = malloc((n ? n : 1) * sizeof *map);
    if (!map) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = cutune_recording_map(rec, space, map, err, errlen)) < 0) {
        char why[1024];
        snprintf(why, sizeof why, "%s", err);
        rc = cutune_err(err, errlen, rc, "%s: %s", file, why);
        goto out;
    }
    char abs[PATH_MAX], source[PATH_MAX + 16];
    if (!realpath(file, abs))
        snprintf(abs, sizeof abs, "%s", file);
    snprintf(source, sizeof source, "import:%s", abs);
    cutune_db_run_info info = {.evaluator = rec->format, .journal = abs, .source = source};
    if ((rc = cutune_db_run_begin(db, &key, &info, &run, err, errlen)) < 0)
        goto out;
    size_t stored = 0;
    for (size_t id = 0; id < n && rc >= 0; id++) {
        if (map[id] < 0)
            continue;
        const cutune_record *r = &rec->records[map[id]];
        cutune_eval_result res = {.status = r->status,
                                  .time_ms = r->time_ms,
                                  .times_ms = r->times_ms,
                                  .ntimes = r->ntimes,
                                  .compile_ms = r->compile_ms,
                                  .bench_ms = r->bench_ms};
        char *config = cutune_db_config_text(space, id);
        if (!config) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            break;
        }
        /* the record's place in the file: importing it again stores nothing twice */
        rc = cutune_db_run_record(run, (size_t)map[id], config, &res, 0, err, errlen);
        free(config);
        stored++;
    }
    if (rc >= 0)
        printf("%s: %zu of %zu records as %s on %s (sizes %s)\n", file, stored, rec->nrecords,
               key.kernel, key.gpu.fingerprint, key.sizes);
out:
    cutune_db_run_end(run);
    free(map);
    cutune_space_free(own);
    cli_target_free(&t);
    cutune_recording_free(rec);
    return rc;
}

static int cmd_import(const db_opts *o, int nfiles, char **files, char *err, size_t errlen)
{
    if (nfiles == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "db import: no FILE given");
    cutune_db *db;
    char path[4096];
    int rc = open_db(o, 0, &db, path, sizeof path, err, errlen);
    for (int i = 0; rc >= 0 && i < nfiles; i++)
        rc = import_file(db, o, files[i], err, errlen);
    cutune_db_close(db);
    return rc;
}

/* ------------------------------------------------------------------ prune */

static int cmd_prune(const db_opts *o, char *err, size_t errlen)
{
    if (o->before) { /* a date or an ISO 8601 time, compared as text with the stored ones */
        const char *b = o->before;
        if (strlen(b) < 10 || b[4] != '-' || b[7] != '-' || strspn(b, "0123456789") != 4)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--before=%s: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", b);
    }
    cutune_db *db;
    char path[4096];
    int rc = open_db(o, 0, &db, path, sizeof path, err, errlen);
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
    const char *cmd = argv[1];
    db_opts o;
    int rc = parse(argc - 1, argv + 1, &o, err, sizeof err);
    if (rc == 1)
        return 0; /* --help */
    if (rc == 0) {
        int rest = argc - 1 - optind;
        char **pos = argv + 1 + optind;
        if (strcmp(cmd, "list") == 0 || strcmp(cmd, "prune") == 0) {
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
                                   : cmd_export(&o, pos[0], err, sizeof err);
        } else if (strcmp(cmd, "import") == 0) {
            rc = cmd_import(&o, rest, pos, err, sizeof err);
        } else {
            rc = cutune_err(err, sizeof err, CUTUNE_EINVAL,
                            "db: no command '%s' (list, show, export, import, prune)", cmd);
        }
    }
    if (rc >= 0)
        return 0;
    fprintf(stderr, "cutune: %s\n", err);
    return rc == CUTUNE_ENOMEM || rc == CUTUNE_EIO ? 1 : 2;
}
