/* `cutune db export` and `cutune db import`: results between the database and files.
 * Both go through src/io/: exports through the journal and Kernel Tuner cache writers,
 * imports through the recording loaders, so whatever cutune replays it can import, and
 * what it exports replays (docs/database.md). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_db_internal.h"
#include "commands.h"

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
    /* written whole before it appears at path: an export cut off (a full disk, a signal,
     * a crash) would pass for the export of fewer measurements */
    int rc = cutune_journal_create_pending(path, &jh, t->space, &j, err, errlen);
    for (size_t i = 0; rc >= 0 && i < h->n; i++)
        rc = cutune_journal_write_eval(j, t->space, t->spec, i, &h->e[i], err, errlen);
    if (rc >= 0)
        rc = cutune_journal_publish(j, err, errlen);
    cutune_journal_close(j);
    return rc;
}

int cli_db_export(const db_opts *o, const char *target, char *err, size_t errlen)
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
        rc = cli_db_open(o, CUTUNE_DB_READONLY, &db, path, sizeof path, err, errlen);
    if (rc >= 0)
        rc = cli_refuse_onto_input(o->kt ? "--kt-cache" : "--journal", o->kt ? o->kt : o->journal,
                                   &t, path, err, errlen);
    /* as tune's outputs and header -o: a path no file can be created at is bad input (exit
     * 2), found before the database is read */
    if (rc >= 0 && (rc = cli_check_writable(o->kt ? "kt-cache" : "journal",
                                            o->kt ? o->kt : o->journal, err, errlen)) == CUTUNE_EIO)
        rc = CUTUNE_EINVAL;
    if (rc >= 0)
        rc = export_key(db, &want, o->gpu, &key, err, errlen);
    export_ctx x = {.space = t.space, .spec = t.spec, .h = &h};
    if (rc >= 0)
        rc = cutune_db_each_latest(db, &key, export_one, &x, err, errlen);
    /* an empty cache or journal would pass for an export of nothing measured */
    if (rc >= 0 && h.n == 0)
        rc = cutune_err(err, errlen, CUTUNE_ENOTFOUND,
                        "%s: nothing to export: %s at sizes %s on %s holds no measurement%s "
                        "(nothing written)",
                        path, key.kernel, key.sizes, key.gpu.fingerprint,
                        x.skipped ? " of a configuration in this space" : "");
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
        /* a Kernel Tuner cache names its device as Kernel Tuner does: the name before the
         * fingerprint's other fields (an imported cache is keyed by its measurements) */
        char device[sizeof key.gpu.fingerprint];
        snprintf(device, sizeof device, "%s", key.gpu.fingerprint);
        device[strcspn(device, "|")] = '\0';
        if (o->kt)
            rc = cutune_export_kt_cache_recorded(o->kt, t.space, t.spec, t.rec,
                                                 t.rec ? t.rec->kernel_name : NULL, device, &h, err,
                                                 errlen);
        else
            rc = write_journal(o->journal, &t, path, key.gpu.fingerprint, &h, err, errlen);
    }
    if (rc >= 0)
        fprintf(stderr, "%s export: %s: %zu configurations of %s on %s%s\n", cli_progname,
                o->kt ? o->kt : o->journal, h.n, key.kernel, key.gpu.fingerprint,
                x.skipped ? " (some stored configurations are not in this space: left out)" : "");
    cutune_history_free(&h);
    cutune_db_close(db);
    cli_target_free(&t);
    return rc;
}

/* ------------------------------------------------------------------ import */

/* "import:" and the SHA-256 of what an import stores: the key, and for each mapped
 * configuration its text, status and times (%.17g: every bit). */
static int import_ident(const cutune_recording *rec, const cutune_space *space, const long *map,
                        const cutune_db_key *key, char *out, size_t len, char *err, size_t errlen)
{
    cutune_sha256 h;
    cutune_sha256_init(&h);
    const char *parts[] = {key->kernel, key->gpu.fingerprint, key->sizes};
    for (size_t i = 0; i < 3; i++) {
        const char *p = parts[i] ? parts[i] : "";
        cutune_sha256_update(&h, p, strlen(p) + 1);
    }
    size_t n = cutune_space_size(space);
    for (size_t id = 0; id < n; id++) {
        if (map[id] < 0)
            continue;
        const cutune_record *r = &rec->records[map[id]];
        char *config = cutune_db_config_text(space, id);
        if (!config)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        char num[64];
        cutune_sha256_update(&h, config, strlen(config) + 1);
        free(config);
        int w = snprintf(num, sizeof num, "%ld %d %.17g", map[id], (int)r->status, r->time_ms);
        cutune_sha256_update(&h, num, (size_t)w + 1);
        for (size_t t = 0; t < r->ntimes; t++) {
            w = snprintf(num, sizeof num, "%.17g", r->times_ms[t]);
            cutune_sha256_update(&h, num, (size_t)w + 1);
        }
    }
    char hex[65];
    cutune_sha256_final_hex(&h, hex);
    snprintf(out, len, "import:%s", hex);
    return 0;
}

/* The sizes a journal records, as --size options. */
static void recorded_sizes(const cutune_recording *rec, cli_space_opts *so)
{
    for (size_t i = 0; i < rec->nsizes && so->nsizes < CLI_MAX_LIST; i++) {
        double v = rec->size_values[i];
        so->sizes[so->nsizes].name = rec->size_names[i];
        so->sizes[so->nsizes].value =
            v == floor(v) && fabs(v) < 9e15
                ? (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)v}
                : (cutune_value){.type = CUTUNE_VALUE_REAL, .r = v};
        so->nsizes++;
    }
}

/* The kernel or recording a journal was made on (its header's target), as it is loaded
 * for tuning: a spec must still hash as it did. 1 loaded into *t, 0 not a journal or no
 * target. */
static int journal_target(const cutune_recording *rec, cli_target *t, char *err, size_t errlen)
{
    if (!rec->format || strcmp(rec->format, "cutune_journal") != 0 || !rec->target)
        return 0;
    cli_space_opts so = {0};
    if (!cli_is_recording(rec->target))
        recorded_sizes(rec, &so);
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

static cutune_eval_result record_result(const cutune_record *r)
{
    return (cutune_eval_result){.status = r->status,
                                .time_ms = r->time_ms,
                                .times_ms = r->times_ms,
                                .ntimes = r->ntimes,
                                .compile_ms = r->compile_ms,
                                .bench_ms = r->bench_ms};
}

/* held[id] = 1 for each mapped record the database holds under key already (an export of
 * it imported again); *nheld gets how many. */
static int find_held(cutune_db *db, const cutune_db_key *key, const cutune_recording *rec,
                     const cutune_space *space, const long *map, unsigned char *held, size_t *nheld,
                     char *err, size_t errlen)
{
    int kt = rec->format && strcmp(rec->format, "kernel_tuner") == 0;
    size_t n = cutune_space_size(space);
    *nheld = 0;
    for (size_t id = 0; id < n; id++) {
        held[id] = 0;
        if (map[id] < 0)
            continue;
        char *config = cutune_db_config_text(space, id);
        if (!config)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        cutune_eval_result r = record_result(&rec->records[map[id]]);
        int rc = cutune_db_holds(db, key, config, &r, kt, err, errlen);
        free(config);
        if (rc < 0)
            return rc;
        held[id] = (unsigned char)rc;
        *nheld += (size_t)rc;
    }
    return 0;
}

/* A recording is keyed by its own records' fingerprint, and an export of a group holds
 * other records than what the group was measured from: when a group of key's kernel,
 * sizes and options on a GPU of the same device name holds every one of the mapped
 * records already, the file is that group's export and is keyed as it. Returns 1 then,
 * with held[] and *nheld filled for that key, 0 when no group is (held[] undefined). */
static int export_origin(cutune_db *db, cutune_db_key *key, const cutune_recording *rec,
                         const cutune_space *space, const long *map, size_t mapped,
                         unsigned char *held, size_t *nheld, char *err, size_t errlen)
{
    cutune_db_groups *gs;
    int rc = cutune_db_groups_list(db, key->kernel, NULL, &gs, err, errlen), found = 0;
    if (rc < 0)
        return rc;
    size_t len = strlen(key->gpu.name);
    for (size_t i = 0; rc >= 0 && !found && mapped && i < gs->n; i++) {
        const cutune_db_group *g = &gs->g[i];
        if (strcmp(g->kernel_hash, key->kernel_hash) != 0 || strcmp(g->sizes, key->sizes) != 0 ||
            strcmp(g->options, key->options) != 0 || strcmp(g->gpu, key->gpu.fingerprint) == 0 ||
            strncmp(g->gpu, key->gpu.name, len) != 0 || (g->gpu[len] && g->gpu[len] != '|'))
            continue;
        cutune_db_key other = *key;
        snprintf(other.gpu.fingerprint, sizeof other.gpu.fingerprint, "%s", g->gpu);
        rc = find_held(db, &other, rec, space, map, held, nheld, err, errlen);
        if (rc >= 0 && *nheld == mapped) {
            snprintf(key->gpu.fingerprint, sizeof key->gpu.fingerprint, "%s", g->gpu);
            found = 1;
        }
    }
    cutune_db_groups_free(gs);
    return rc < 0 ? rc : found;
}

/* A journal header's "gpu", the fingerprint "NAME|N SMs|M MiB|driver D|CUDA C" a live
 * run's rows are keyed by, into g as the run's probe filled it (its parts for the gpus
 * row, where the text has them; the name before the first '|' else). */
static int gpu_from_fingerprint(const char *file, const char *fp, cutune_db_gpu *g, char *err,
                                size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (strlen(fp) >= sizeof g->fingerprint)
        return cutune_err(err, errlen, CUTUNE_EPARSE,
                          "%s:1: header.gpu: %zu bytes, longer than a GPU fingerprint (at most "
                          "%zu)",
                          file, strlen(fp), sizeof g->fingerprint - 1);
    snprintf(g->fingerprint, sizeof g->fingerprint, "%s", fp);
    size_t n = strcspn(fp, "|");
    snprintf(g->name, sizeof g->name, "%.*s", (int)n, fp);
    int sms = 0, used = 0;
    long long mib = 0;
    char driver[sizeof g->driver] = "", cuda[sizeof g->cuda] = "";
    if (fp[n] == '|' &&
        sscanf(fp + n, "|%d SMs|%lld MiB|driver %47[^|]|CUDA %15[0-9.]%n", &sms, &mib, driver, cuda,
               &used) == 4 &&
        fp[n + (size_t)used] == '\0') {
        g->sm_count = sms;
        g->memory_mib = mib;
        snprintf(g->driver, sizeof g->driver, "%s", strcmp(driver, "?") ? driver : "");
        snprintf(g->cuda, sizeof g->cuda, "%s", cuda);
    }
    return 0;
}

/* Import file into db; dry: check it all (it loads, maps onto its kernel's space, names
 * its run) and store nothing. */
static int import_file(cutune_db *db, const db_opts *o, const char *file, int dry, char *err,
                       size_t errlen)
{
    cutune_recording *rec = NULL;
    cli_target t = {0};
    cutune_space *own = NULL;
    long *map = NULL;
    unsigned char *held = NULL;
    cutune_db_run *run = NULL;
    int rc = cli_recording_load_for("db import: ", file, &rec, err, errlen);
    if (rc < 0)
        return rc;
    if (!dry)
        cli_say_truncated_tail(rec);
    if (rec->evaluator && strcmp(rec->evaluator, "shapes") == 0) {
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "%s: a --shape-mode=common journal: its times are geometric means over "
                        "shapes, not measurements of one (the run stored each shape's in its "
                        "database; import a --shape-mode=each run's journals instead)",
                        file);
        goto out;
    }
    /* A journal of a live run is filed under the GPU fingerprint its header's "gpu"
     * records, the key the run stored its own measurements under (a cuda run's), else
     * under the device its header names (a db export's journal names the whole
     * fingerprint). A journal of a replay run measured nothing itself: it is keyed as
     * replaying its recording keys that recording, so a later replay of it reuses what
     * was imported and no other, and is refused when that recording cannot be read. A Kernel Tuner
     * cache, and a journal whose header names no device or no evaluator (written by hand, or by an
     * older cutune), are keyed by their own records ("NAME|recording HASH", NAME "unknown" where
     * none is named), as a replay of the file itself is: never under a GPU the file does not name.
     */
    cutune_db_gpu gpu;
    int journal = rec->format && strcmp(rec->format, "cutune_journal") == 0;
    int replay = journal && rec->evaluator && strcmp(rec->evaluator, "replay") == 0;
    int keyed = journal && rec->evaluator && !replay && rec->gpu && rec->gpu[0];
    int live =
        keyed || (journal && rec->evaluator && !replay && rec->device_name && rec->device_name[0]);
    if (keyed) {
        if ((rc = gpu_from_fingerprint(file, rec->gpu, &gpu, err, errlen)) < 0)
            goto out;
    } else if (live) {
        cutune_db_gpu_from_name(rec->device_name, &gpu);
    } else if (replay) {
        cutune_recording *replayed = NULL;
        char why[1024] = "its header's evaluator_arg names none";
        if (!rec->evaluator_arg || !rec->evaluator_arg[0] ||
            cutune_recording_load(rec->evaluator_arg, &replayed, why, sizeof why) < 0) {
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "%s: the journal of a replay run whose recording cannot be read "
                            "(%s): its measurements are that recording's, filed under its key; "
                            "import the recording itself",
                            file, why);
            goto out;
        }
        cutune_db_gpu_from_recording(replayed, &gpu);
        cutune_recording_free(replayed);
    } else {
        cutune_db_gpu_from_recording(rec, &gpu);
    }
    cutune_db_key key;
    const cutune_space *space;
    if (o->kernel) {
        /* without --size, a journal's measurements are at the sizes its header records,
         * not at the spec's defaults */
        cli_space_opts so = o->so;
        if (!so.nsizes)
            recorded_sizes(rec, &so);
        if ((rc = cli_target_load(o->kernel, &so, &t, err, errlen)) < 0)
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
    char abs[PATH_MAX], source[PATH_MAX + 16], ident[128];
    if (!realpath(file, abs))
        snprintf(abs, sizeof abs, "%s", file);
    snprintf(source, sizeof source, "import:%s", abs);
    /* The run is named by what it holds, not by the file's path: the same records imported
     * again (from a copy, or gzipped) continue that run and store nothing twice. */
    if ((rc = import_ident(rec, space, map, &key, ident, sizeof ident, err, errlen)) < 0)
        goto out;
    if (dry)
        goto out;
    if (!(held = malloc(n ? n : 1))) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    size_t nheld, mapped = 0;
    for (size_t id = 0; id < n; id++)
        mapped += map[id] >= 0;
    /* an export of a group is keyed as that group, whose lookups have filled held[] */
    int origin =
        live ? 0 : export_origin(db, &key, rec, space, map, mapped, held, &nheld, err, errlen);
    if (origin < 0) {
        rc = origin;
        goto out;
    }
    if (!origin && (rc = find_held(db, &key, rec, space, map, held, &nheld, err, errlen)) < 0)
        goto out;
    cutune_db_run_info info = {.evaluator = rec->format, .journal = ident, .source = source};
    if (mapped > nheld && (rc = cutune_db_run_begin(db, &key, &info, &run, err, errlen)) < 0)
        goto out;
    for (size_t id = 0; id < n && rc >= 0; id++) {
        if (map[id] < 0 || held[id])
            continue;
        cutune_eval_result res = record_result(&rec->records[map[id]]);
        char *config = cutune_db_config_text(space, id);
        if (!config) {
            rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
            break;
        }
        /* the record's place in the file: importing it again stores nothing twice */
        rc = cutune_db_run_record(run, (size_t)map[id], config, &res, 0, err, errlen);
        free(config);
    }
    if (rc >= 0)
        printf("%s: %zu of %zu records as %s on %s (sizes %s): %zu new, %zu already present\n",
               file, mapped, rec->nrecords, key.kernel, key.gpu.fingerprint, key.sizes,
               mapped - nheld, nheld);
out:
    cutune_db_run_end(run);
    free(held);
    free(map);
    cutune_space_free(own);
    cli_target_free(&t);
    cutune_recording_free(rec);
    return rc;
}

int cli_db_import(const db_opts *o, int nfiles, char **files, char *err, size_t errlen)
{
    if (nfiles == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "db import: no FILE given");
    if (o->so.nsizes && !o->kernel)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "db import: --size goes with --kernel=KERNEL (a recording's or "
                          "journal's sizes are its own)");
    /* every file checked before any is stored: a bad one among several stores nothing */
    int rc = 0;
    for (int i = 0; rc >= 0 && i < nfiles; i++) {
        struct stat st;
        if (stat(files[i], &st) != 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "db import: %s: cannot open: %s",
                              files[i], strerror(errno));
        rc = import_file(NULL, o, files[i], 1, err, errlen);
    }
    if (rc < 0)
        return rc;
    cutune_db *db = NULL; /* left unset by a failed open ($CUTUNE_DB=none) */
    char path[4096];
    rc = cli_db_open(o, 0, &db, path, sizeof path, err, errlen);
    for (int i = 0; rc >= 0 && i < nfiles; i++)
        rc = import_file(db, o, files[i], 0, err, errlen);
    cutune_db_close(db);
    return rc;
}
