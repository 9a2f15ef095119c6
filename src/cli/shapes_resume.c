/* --resume=PREFIX with --sizes (docs/shapes.md): a multi-shape run continued from the
 * journals it was started with (--journal=PREFIX). Each journal is read, checked and its
 * header restored as a single run's --resume does (cmd_tune_resume.c); the journals must
 * then agree with each other (one run's seed, budget, searcher ...), with the list given
 * again (sizes are part of the space, as --size is for a single run) and with the order
 * the run writes them in. The runs themselves are cmd_tune_shapes.c's. */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shapes_run.h"
#include "shapes_warm.h"

static void strip_jsonl(const char *in, char *out, size_t len)
{
    snprintf(out, len, "%s", in);
    size_t n = strlen(out);
    if (n > 6 && strcmp(out + n - 6, ".jsonl") == 0)
        out[n - 6] = '\0';
}

int shapes_resume_prefix(run_ctx *c, char *err, size_t errlen)
{
    const cli_tune_options *o = c->o;
    strip_jsonl(o->resume, c->prefix, sizeof c->prefix);
    if (!c->prefix[0])
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: with --sizes, --resume names the run's journal prefix "
                          "(its --journal=PREFIX)",
                          o->resume);
    if (o->journal) {
        char j[4096];
        strip_jsonl(o->journal, j, sizeof j);
        if (strcmp(j, c->prefix) != 0)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--resume=%s appends to that run's journals: --journal=%s is not "
                              "allowed with it",
                              o->resume, o->journal);
    }
    c->resuming = 1;
    return 0;
}

/* A positive number as a size is written: digits[.digits][(e|E)[+|-]digits]; its end in
 * *end. */
static int size_number(const char *p, const char **end)
{
    const char *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q == p)
        return 0;
    if (*q == '.') {
        const char *r = ++q;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == r)
            return 0;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        const char *r = q;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == r)
            return 0;
    }
    *end = q;
    return 1;
}

/* A name the run could give a journal after its prefix: a shape's label (its values as
 * written, numbers such as 1024, 2.5 or 1e3, joined by x) or "common". Others (another
 * prefix that begins with this one, e.g. PREFIX-old or PREFIX-2-1024x1024) are not a
 * multi-shape run's. */
static int run_journal_name(const char *mid)
{
    if (strcmp(mid, "common") == 0)
        return 1;
    const char *p = mid;
    for (;;) {
        if (!size_number(p, &p))
            return 0;
        if (!*p)
            return 1;
        if (*p++ != 'x')
            return 0;
    }
}

int shapes_resume_scan(const run_ctx *c, const char *const *names, size_t n, size_t *found,
                       char *err, size_t errlen)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", c->prefix);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? c->prefix + (slash - dir) + 1 : c->prefix;
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    DIR *d = opendir(slash ? dir : ".");
    if (!d)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: no journal %s-*.jsonl of a multi-shape run (the folder "
                          "%s cannot be read)",
                          c->o->resume, c->prefix, slash ? dir : ".");
    size_t blen = strlen(base);
    int rc = 0;
    *found = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= blen + 7 || strncmp(e->d_name, base, blen) != 0 || e->d_name[blen] != '-' ||
            strcmp(e->d_name + len - 6, ".jsonl") != 0)
            continue;
        char mid[512];
        snprintf(mid, sizeof mid, "%.*s", (int)(len - blen - 7), e->d_name + blen + 1);
        int ours = 0; /* this run's names first: a label is found whatever it holds */
        for (size_t i = 0; i < n && !ours; i++)
            ours = strcmp(names[i], mid) == 0;
        if (ours)
            (*found)++;
        else if (!run_journal_name(mid))
            continue;
        else if (strcmp(mid, "common") == 0)
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--resume=%s: %s-common.jsonl is the journal of a --shape-mode=common "
                            "run: resume it with --shape-mode=common",
                            c->o->resume, c->prefix);
        else
            rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                            "--resume=%s: %s-%s.jsonl is the journal of a shape this run does "
                            "not tune (%s): give --sizes%s and --shape-mode as the run was "
                            "started",
                            c->o->resume, c->prefix, mid,
                            c->o->shape_mode && strcmp(c->o->shape_mode, "common") == 0
                                ? "the common mode writes no shape's journal but validation's"
                                : "not in --sizes or --validate-sizes",
                            c->o->validate_sizes ? ", --validate-sizes" : "");
    }
    closedir(d);
    if (rc == 0 && *found == 0)
        rc = cutune_err(err, errlen, CUTUNE_EINVAL,
                        "--resume=%s: no journal %s-*.jsonl of this run (a multi-shape run is "
                        "resumed by the prefix it was started with, --journal=PREFIX)",
                        c->o->resume, c->prefix);
    return rc;
}

int shapes_resume_restore(const cli_tune_options *given, cli_tune_options *o, int first,
                          const char *path, cutune_recording **j, char *err, size_t errlen)
{
    static cli_tune_options oj; /* the command line, checked against this journal */
    static char searcher[512], target[4096], first_path[4200];
    oj = *given;
    oj.resume = path;
    oj.journal = NULL;
    cli_tune_resume r = {0};
    int rc = cli_tune_resume_restore(&oj, 0, &r, err, errlen);
    *j = r.journal;
    if (rc < 0)
        return rc;
    if (r.searcher_budget)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--resume=%s: --budget=%lu is above the journal's budget %lu: a "
                          "multi-shape run resumes with the budget it was started with",
                          path, oj.budget, r.searcher_budget);
    if (r.journal->objective)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was tuned for --objective=%s; a multi-shape run "
                          "compares the shapes by time",
                          path, r.journal->objective);
    if (first) {
        snprintf(first_path, sizeof first_path, "%s", path);
        o->seed = oj.seed;
        o->budget = oj.budget;
        o->batch = oj.batch;
        o->parallel = oj.parallel;
        o->so.cartesian = oj.so.cartesian;
        snprintf(searcher, sizeof searcher, "%s", oj.searcher ? oj.searcher : "bo");
        o->searcher = searcher;
        if (!o->target && oj.target) {
            snprintf(target, sizeof target, "%s", oj.target);
            o->target = target;
        }
        return 0;
    }
    /* one run's journals: what the first one restored, the others hold too */
    char what[9000] = "";
    if (oj.seed != o->seed)
        snprintf(what, sizeof what, "seed %lu, %s seed %lu", oj.seed, first_path, o->seed);
    else if (oj.budget != o->budget)
        snprintf(what, sizeof what, "budget %lu, %s budget %lu", oj.budget, first_path, o->budget);
    else if (oj.batch != o->batch)
        snprintf(what, sizeof what, "batch %lu, %s batch %lu", oj.batch, first_path, o->batch);
    else if (oj.parallel != o->parallel)
        snprintf(what, sizeof what, "parallel %lu, %s parallel %lu", oj.parallel, first_path,
                 o->parallel);
    else if (strcmp(oj.searcher ? oj.searcher : "bo", o->searcher) != 0)
        snprintf(what, sizeof what, "searcher %s, %s searcher %s", oj.searcher ? oj.searcher : "bo",
                 first_path, o->searcher);
    else if (oj.so.cartesian != o->so.cartesian)
        snprintf(what, sizeof what, "%s--cartesian, %s %s", oj.so.cartesian ? "" : "no ",
                 first_path, o->so.cartesian ? "--cartesian" : "none");
    if (what[0])
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the journal has %s: not the journals of one run", path,
                          what);
    return 0;
}

/* The part of a common journal's evaluator_arg after its last " at ": the list. */
static const char *list_part(const char *arg)
{
    const char *at = NULL;
    for (const char *p = strstr(arg, " at "); p; p = strstr(p + 1, " at "))
        at = p;
    return at ? at + 4 : NULL;
}

int shapes_resume_evaluator(cli_tune_options *o, const cutune_recording *j, int common, char *err,
                            size_t errlen)
{
    static char ev[4400];
    if (o->evaluator)
        return 0; /* given: checked against every journal once the shapes are loaded */
    if (common) {
        const char *arg = j->evaluator_arg ? j->evaluator_arg : "", *list = list_part(arg);
        if (!j->evaluator || strcmp(j->evaluator, "shapes") != 0 || !list)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "--resume=%s: the journal does not record the shapes and the "
                              "evaluator its run measured with (not a common run's journal of "
                              "this cutune)",
                              j->path);
        snprintf(ev, sizeof ev, "%.*s", (int)(list - 4 - arg), arg);
    } else {
        snprintf(ev, sizeof ev, "%s", j->evaluator ? j->evaluator : "");
        /* a replaying shape's argument is its own recording: the run replays each shape's */
        if (strcmp(ev, "replay") != 0 && j->evaluator_arg)
            snprintf(ev + strlen(ev), sizeof ev - strlen(ev), ":%s", j->evaluator_arg);
    }
    o->evaluator = ev;
    return 0;
}

/* A cli_tune_options naming journal j as the one resumed, for cmd_tune_resume.c's checks. */
static const cli_tune_options *resuming(const run_ctx *c, const cutune_recording *j)
{
    static cli_tune_options oj;
    oj = *c->o;
    oj.resume = j->path;
    oj.journal = NULL;
    return &oj;
}

int shapes_resume_check_shape(const run_ctx *c, const cutune_recording *j, const cli_target *t,
                              const char *earg, char *err, size_t errlen)
{
    cli_tune_resume r = {.journal = (cutune_recording *)j};
    const cli_tune_options *oj = resuming(c, j);
    int rc;
    if ((rc = cli_tune_resume_check_target(oj, &r, t, err, errlen)) < 0 ||
        (rc = cli_tune_resume_check_space(oj, &r, t, err, errlen)) < 0)
        return rc;
    const char *ename = j->evaluator ? j->evaluator : "", *arg = j->evaluator_arg;
    if (strcmp(ename, c->ename) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the shape was measured by the %s evaluator, this run's "
                          "is %s (a resumed run continues as it was started)",
                          j->path, ename, c->ename);
    if (c->replay ? !(arg && earg && cutune_path_same(arg, earg))
                  : strcmp(arg ? arg : "", earg ? earg : "") != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the shape was measured with %s:%s, this run's is %s:%s "
                          "(a resumed run continues as it was started)",
                          j->path, ename, arg ? arg : "", c->ename, earg ? earg : "");
    return 0;
}

int shapes_resume_check_common(const run_ctx *c, const cutune_recording *j, const cli_target *t,
                               char *err, size_t errlen)
{
    const char *arg = j->evaluator_arg ? j->evaluator_arg : "";
    const char *had = list_part(arg), *now = list_part(c->common_arg);
    if (had && now && strcmp(had, now) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the run was started on the shapes %s, not %s (give "
                          "--sizes as the run was started)",
                          j->path, had, now);
    if (strcmp(arg, c->common_arg) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the shapes were measured as '%s', this run's as '%s' "
                          "(a resumed run continues as it was started)",
                          j->path, arg, c->common_arg);
    cli_tune_resume r = {.journal = (cutune_recording *)j};
    const cli_tune_options *oj = resuming(c, j);
    int rc = cli_tune_resume_check_target(oj, &r, t, err, errlen);
    return rc < 0 ? rc : cli_tune_resume_check_space(oj, &r, t, err, errlen);
}

int shapes_resume_order(const char *resume, const char *const *paths, const int *there, size_t n,
                        char *err, size_t errlen)
{
    size_t absent = n; /* the first one not there */
    for (size_t i = 0; i < n; i++) {
        if (!there[i] && absent == n)
            absent = i;
        else if (there[i] && absent < i)
            return cutune_err(
                err, errlen, CUTUNE_EMISMATCH,
                "--resume=%s: %s exists, but %s, which the run writes before it, does "
                "not (give --sizes, --validate-sizes and --shape-mode as the run "
                "was started)",
                resume, paths[i], paths[absent]);
    }
    return 0;
}

void shapes_resume_finished(cutune_recording *const *js, size_t n, size_t budget, int *finished)
{
    long last = -1;
    for (size_t i = 0; i < n; i++) {
        finished[i] = 0;
        if (js[i])
            last = (long)i;
    }
    for (long i = 0; i < last; i++)
        finished[i] = 1;
    if (last >= 0)
        finished[last] = js[last]->nrecords >= budget;
}

int shapes_resume_check_warm(const cutune_recording *j, const char *warm,
                             const cutune_warm_prior *prior, const char *source, char *err,
                             size_t errlen)
{
    const char *how = j->warm_start ? "warm-started from one shape (--shape-warm=nearest)"
                      : j->warm_start_hash
                          ? "warm-started from the shapes tuned before (--shape-warm=all or model)"
                          : "started cold";
    if (!prior) {
        if (j->warm_start || j->warm_start_hash)
            return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                              "--resume=%s: the shape was %s; this run starts it cold "
                              "(--shape-warm=%s): give --shape-warm as the run was started",
                              j->path, how, warm);
        return 0;
    }
    int nearest = strcmp(warm, "nearest") == 0;
    if (nearest ? !j->warm_start : j->warm_start || !j->warm_start_hash)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the shape was %s; this run warm-starts it "
                          "(--shape-warm=%s): give --shape-warm as the run was started",
                          j->path, how, warm);
    /* the nearest shape's journal: that file, or one of its name (the run's folder moved;
     * the prior's hash says whether it still holds what it held) */
    const char *a = strrchr(j->warm_start ? j->warm_start : "", '/'),
               *b = strrchr(source ? source : "", '/');
    if (nearest && source && !cutune_path_same(j->warm_start, source) &&
        strcmp(a ? a + 1 : j->warm_start, b ? b + 1 : source) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the shape was warm-started from %s; this run would "
                          "warm-start it from %s (give --sizes as the run was started)",
                          j->path, j->warm_start, source);
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)cutune_warm_prior_hash(prior));
    if (j->warm_start_hash && strcmp(j->warm_start_hash, hash) != 0)
        return cutune_err(err, errlen, CUTUNE_EMISMATCH,
                          "--resume=%s: the warm start maps onto the space differently from "
                          "when the shape was started (prior hash %s, now %s): another "
                          "--shape-warm, or the journals it was built from have changed",
                          j->path, j->warm_start_hash, hash);
    return 0;
}

int shapes_history_from_journal(const cutune_recording *j, const cutune_space *sp, int with_metrics,
                                cutune_history *h, char *err, size_t errlen)
{
    size_t n = cutune_space_size(sp), nr = j->nrecords;
    long *map = malloc((n ? n : 1) * sizeof *map);
    size_t *id_of = malloc((nr ? nr : 1) * sizeof *id_of);
    int rc = 0;
    memset(h, 0, sizeof *h);
    h->best = -1;
    if (!map || !id_of || (h->e = calloc(nr ? nr : 1, sizeof *h->e)) == NULL) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    h->cap = nr ? nr : 1;
    if ((rc = cutune_recording_map(j, sp, map, err, errlen)) < 0)
        goto out;
    for (size_t r = 0; r < nr; r++)
        id_of[r] = SIZE_MAX;
    for (size_t id = 0; id < n; id++)
        if (map[id] >= 0)
            id_of[map[id]] = id;
    for (size_t r = 0; r < nr && rc == 0; r++) {
        const cutune_record *x = &j->records[r];
        if (id_of[r] == SIZE_MAX) {
            rc = cutune_err(err, errlen, CUTUNE_EMISMATCH,
                            "--resume=%s: evaluation %zu is of a configuration not in the "
                            "shape's space (or one evaluated twice)",
                            j->path, r);
            break;
        }
        cutune_history_entry *e = &h->e[h->n++];
        e->id = id_of[r];
        e->worker = -1;
        e->proposed = r;
        e->r.status = x->status;
        e->r.time_ms = x->time_ms;
        e->r.compile_ms = x->compile_ms;
        e->r.bench_ms = x->bench_ms;
        if (x->ntimes) {
            if (!(e->r.times_ms = malloc(x->ntimes * sizeof *e->r.times_ms))) {
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
                break;
            }
            memcpy(e->r.times_ms, x->times_ms, x->ntimes * sizeof *e->r.times_ms);
            e->r.ntimes = x->ntimes;
        }
        for (size_t m = 0; with_metrics && m < x->nmetrics && rc == 0; m++)
            if (cutune_eval_result_add_metric(&e->r, x->metrics[m].name, x->metrics[m].value) < 0)
                rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        e->score = e->r.time_ms; /* the time objective's score */
        if (e->r.status < CUTUNE_STATUS_COUNT)
            h->counts[e->r.status]++;
        if (e->r.status == CUTUNE_STATUS_OK && isfinite(e->score) &&
            (h->best < 0 || e->score < h->e[h->best].score))
            h->best = (long)(h->n - 1);
    }
    h->resumed = h->n;
out:
    free(map);
    free(id_of);
    return rc;
}

/* ---- the whole run (cmd_tune_shapes.c calls these) */

/* --resume=PREFIX: the run's journals read, restored and checked against each other and
 * the command line before any shape is loaded; *o gets what they restore.
 * R (common: cres for the common journal) and V get their journals, in the order the run
 * writes them; finished marks those the run had moved on from. */
int shapes_resume_journals(run_ctx *c, const cli_tune_options *given, cli_tune_options *o,
                           int common, shape_run *R, size_t n, const size_t *order, shape_run *V,
                           size_t nv, cutune_recording **cres, int *cfinished, char *err,
                           size_t errlen)
{
    static const char *names[2 * SHAPES_MAX + 1], *paths[2 * SHAPES_MAX + 1];
    static char pathbuf[2 * SHAPES_MAX + 1][4200];
    static cutune_recording *js[2 * SHAPES_MAX + 1];
    static int finished[2 * SHAPES_MAX + 1];
    size_t m = 0, found = 0;
    int rc;
    if ((rc = shapes_resume_prefix(c, err, errlen)) < 0)
        return rc;
    /* the run's order: the shapes by product (common: its one journal), then validation */
    for (size_t k = 0; k < (common ? 1 : n); k++)
        names[m++] = common ? "common" : R[order[k]].shape->label;
    for (size_t i = 0; i < nv; i++)
        names[m++] = V[i].shape->label;
    if ((rc = shapes_resume_scan(c, names, m, &found, err, errlen)) < 0)
        return rc;
    /* the order first: a journal after an absent one is not read as the run's first (a
     * validation journal's evaluator is not the common journal's) */
    static int there[2 * SHAPES_MAX + 1];
    for (size_t i = 0; i < m; i++) {
        snprintf(pathbuf[i], sizeof pathbuf[i], "%s-%s.jsonl", c->prefix, names[i]);
        paths[i] = pathbuf[i];
        js[i] = NULL;
        struct stat st;
        there[i] = lstat(paths[i], &st) == 0;
    }
    if ((rc = shapes_resume_order(o->resume, paths, there, m, err, errlen)) < 0)
        return rc;
    int first = 1;
    for (size_t i = 0; i < m; i++) {
        if (!there[i])
            continue;
        cutune_recording **slot = i < (common ? 1 : n) ? (common ? cres : &R[order[i]].resume)
                                                       : &V[i - (common ? 1 : n)].resume;
        rc = shapes_resume_restore(given, o, first, paths[i], slot, err, errlen);
        js[i] = *slot;
        if (rc < 0)
            return rc;
        if (first && (rc = shapes_resume_evaluator(o, *slot, common, err, errlen)) < 0)
            return rc;
        first = 0;
    }
    shapes_resume_finished(js, m, o->budget, finished);
    for (size_t i = 0; i < m; i++) {
        if (i < (common ? 1 : n))
            *(common ? cfinished : &R[order[i]].finished) = finished[i];
        else
            V[i - (common ? 1 : n)].finished = finished[i];
    }
    return 0;
}

/* --resume=PREFIX, each mode, once the shapes are loaded: the histories of the shapes the
 * run had moved on from are their journals, and every journal's warm start is the one this
 * run gives it (the prior rebuilt from the shapes before it, all finished then). */
int shapes_resume_histories(const char *warm, unsigned long seed, shape_run *R, size_t n,
                            const size_t *order, shape_run *V, size_t nv, char *err, size_t errlen)
{
    int rc = 0;
    for (size_t k = 0; k < n + nv && rc == 0; k++) {
        shape_run *r = k < n ? &R[order[k]] : &V[k - n];
        if (!r->resume)
            continue;
        if (r->finished &&
            (rc = shapes_history_from_journal(r->resume, r->t.space, 0, &r->hist, err, errlen)) < 0)
            break;
        cutune_warm_prior *prior = NULL;
        long from = -1;
        if (k < n &&
            (rc = shapes_warm_prior(warm, R, order, k, seed, &prior, &from, err, errlen)) < 0)
            break;
        rc = shapes_resume_check_warm(
            r->resume, warm, prior, prior && strcmp(warm, "nearest") == 0 ? R[from].journal : NULL,
            err, errlen);
        if (rc == 0 && k < n) { /* kept for the shape's run: a model is fitted once */
            r->has_prior = 1;
            r->prior = prior;
            r->prior_from = from;
        } else
            cutune_warm_prior_free(prior);
    }
    return rc;
}
