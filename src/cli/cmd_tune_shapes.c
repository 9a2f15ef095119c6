/* `cutune [tune] --sizes=LIST KERNEL`: tuning across problem shapes (docs/shapes.md).
 *
 * common: one search over the configurations valid at every shape, each evaluated at
 *   every shape (shapes_eval.c), minimising the geometric mean of the shapes' times.
 * each: one search per shape, in order of the product of the sizes, each after the first
 *   warm-started from the shapes tuned before it.
 * --validate-sizes: the chosen configuration(s) timed at shapes not tuned, and those
 *   shapes tuned directly with the same searcher and budget: the loss of not tuning them.
 *
 * Every search is the ordinary tuner loop (cutune_tune) with its own journal; every
 * evaluation reaches the tuning database under its shape's sizes through the multi-shape
 * evaluator, so `cutune best --size ...` answers per shape afterwards. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "commands.h"
#include "shapes.h"
#include "shapes_eval.h"
#include "shapes_warm.h"
#include "shapes_run.h"
#include "stop_signal.h"

static int gpu_here(void)
{
    cutune_db_gpu g;
    return cutune_db_gpu_probe(0, &g, NULL, 0) == 0;
}

/* Load a shape: its target and the recording it replays. Nothing is started. */
static int shape_load(run_ctx *c, shape_run *r, cli_shape *sh, const char *journal, char *err,
                      size_t errlen)
{
    r->shape = sh;
    r->winner = r->from = r->chosen_id = -1;
    r->winner_ms = r->best_ms = r->chosen_ms = r->known_ms = NAN;
    r->hist.best = -1;
    snprintf(r->journal, sizeof r->journal, "%s", journal);
    int rc = cli_shape_target(c->o->target, sh, &c->o->so, c->ename, NULL, &r->t, r->recording,
                              sizeof r->recording, err, errlen);
    if (rc < 0)
        return rc;
    if (c->replay && !realpath(r->recording, r->earg))
        snprintf(r->earg, sizeof r->earg, "%s", r->recording);
    return 0;
}

/* Start a loaded shape, once every check has passed: its evaluator and database run. */
static int shape_start(run_ctx *c, shape_run *r, char *err, size_t errlen)
{
    cli_shape *sh = r->shape;
    const char *journal = r->journal;
    int rc;
    const char *arg = c->replay ? r->earg : c->eargs;
    cutune_evaluator_ctx ectx = {
        .space = r->t.space, .spec = r->t.spec, .arg = arg, .seed = c->o->seed};
    const cutune_evaluator_type *et = cutune_evaluator_find(c->ename, err, errlen);
    if (!et)
        return CUTUNE_EINVAL;
    char why[1024];
    if ((rc = cutune_evaluator_alloc(et, &ectx, &r->ev, why, sizeof why)) < 0)
        return cutune_err(err, errlen, rc, "shape %s: %s", sh->label, why);
    if ((rc = cli_tune_db_begin(c->o, &r->t, c->ename, arg, r->ev, journal, &r->db, why,
                                sizeof why)) < 0)
        return cutune_err(err, errlen, rc, "shape %s: %s", sh->label, why);
    if (!c->gpu[0]) /* one GPU for every shape: the key of the first one's rows */
        cli_journal_gpu(c->ename, r->ev, c->o->devices, &r->db, c->gpu, sizeof c->gpu);
    r->es = (shapes_eval_shape){.label = sh->label,
                                .space = r->t.space,
                                .ev = r->ev,
                                .store = r->db.store ? cutune_db_store_hooks(r->db.store) : NULL};
    return 0;
}

static void shape_end(shape_run *r)
{
    cutune_recording_free(r->resume);
    r->resume = NULL;
    cutune_warm_prior_free(r->prior);
    r->prior = NULL;
    cli_tune_db_end(&r->db);
    cutune_evaluator_free(r->ev);
    cutune_history_free(&r->hist);
    cli_target_free(&r->t);
}

/* One search over space: common, the common space through the shapes' evaluator over the
 * nes shapes es (one shape included: its times are then the shapes' evaluator's too), else
 * one shape's (nes 1) through its own; resume: its journal, continued (--resume=PREFIX),
 * or NULL. */
static int search(run_ctx *c, const cutune_space *space, const cutune_spec *spec,
                  shapes_eval_shape *es, size_t nes, int common, const char *earg1,
                  const char *journal, const cutune_recording *resume,
                  const cutune_warm_prior *prior, const char *warm_path, cutune_history *hist,
                  cutune_stop_reason *why, char *err, size_t errlen)
{
    const cli_tune_options *o = c->o;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t n = cutune_space_size(space);
    uint8_t *visited = calloc(n ? n : 1, 1);
    cutune_searcher *searcher = NULL;
    cutune_evaluator *ev = NULL;
    int rc;
    if (!rng || !visited) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    gsl_rng_set(rng, o->seed);
    cutune_searcher_ctx sctx = {.space = space,
                                .budget = o->budget,
                                .rng = rng,
                                .visited = visited,
                                .args = c->sargs,
                                .nobjectives = 1,
                                .warm = prior,
                                .stop = &cli_stop_requested};
    if ((rc = cutune_searcher_alloc(c->st, &sctx, &searcher, err, errlen)) < 0)
        goto out;
    /* one shape's run: the ordinary run, its evaluator pipelined (compiles beside
     * measurements) and the database's hooks in the loop; common: the multi-shape
     * evaluator */
    if (common && (rc = shapes_eval_alloc(space, es, nes, &ev, err, errlen)) < 0)
        goto out;
    cutune_tuner_options opt = {
        .budget = o->budget,
        .time_limit_s = o->time_limit,
        .charge_recorded_time = c->replay,
        .batch = o->batch,
        .parallel = o->parallel,
        .journal_path = journal,
        .resume = resume,
        .resume_metrics = common, /* the shapes' times, t_LABEL, of the journaled lines */
        .progress = o->progress && !o->quiet,
        .deterministic_clock = c->replay,
        .stop = &cli_stop_requested,
        .searcher_name = c->sname,
        .searcher_args = c->sargs,
        .evaluator_name = common ? "shapes" : c->ename,
        /* one shape: its journal is an ordinary run's (resumable as one with --size); several:
         * the evaluator the shapes are measured with and the list, which --resume checks */
        .evaluator_arg = common ? c->common_arg : earg1,
        .target = c->target_abs,
        /* several shapes: the run has no one spec (its times are over all shapes), but
         * the journal names the kernel's */
        .spec_name = common && spec ? spec->name : NULL,
        .spec_hash = common && spec ? spec->hash : NULL,
        .seed = o->seed,
        .gpu = c->gpu[0] ? c->gpu : NULL,
    };
    /* a warm start from one shape's journal is that file's prior: --resume finds it there;
     * one pooled from several shapes (--shape-warm=all) has no one file, only its hash,
     * which --resume=PREFIX checks the prior it pools again against */
    char hash[17], wabs[4096];
    if (prior) {
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)cutune_warm_prior_hash(prior));
        opt.warm_start_hash = hash;
    }
    if (prior && warm_path) {
        if (!realpath(warm_path, wabs))
            snprintf(wabs, sizeof wabs, "%s", warm_path);
        opt.warm_start = wabs;
    }
    if (!common)
        opt.store = es[0].store;
    cli_tune_say_dropped_tail(resume);
    rc = cutune_tune(space, common ? NULL : spec, searcher, visited, common ? ev : es[0].ev, &opt,
                     hist, why, err, errlen);
    if (!common) {
        es[0].nevals += hist->n;
        es[0].nreused += hist->reused;
        es[0].seq += hist->n; /* the database run's next evaluation number */
    }
out:
    cutune_evaluator_free(ev);
    cutune_searcher_free(searcher);
    free(visited);
    gsl_rng_free(rng);
    return rc;
}

/* ------------------------------------------------------------------ results */

/* The fastest correct time of configuration id in a history (NAN: none). */
double shapes_best_of(const cutune_history *h)
{
    return h->best >= 0 ? h->e[h->best].r.time_ms : NAN;
}

/* The metric t_LABEL of history entry e (a common run's time at one shape), or NAN. */
double shapes_shape_time(const cutune_history_entry *e, const char *label)
{
    char name[sizeof(((cutune_metric *)0)->name)]; /* labels that fit: checked at the start */
    if (snprintf(name, sizeof name, "t_%s", label) >= (int)sizeof name)
        return NAN;
    for (size_t m = 0; m < e->r.nmetrics; m++)
        if (strcmp(e->r.metrics[m].name, name) == 0)
            return e->r.metrics[m].value;
    return NAN;
}

void shapes_print_config(const cutune_space *s, long id)
{
    if (id < 0)
        printf("(none)\n");
    else
        cli_print_config(stdout, s, (size_t)id);
}

/* ------------------------------------------------------------------ the modes */

typedef struct {
    shape_run *R;
    size_t n;
} all_shapes;

/* The common space's filter: a configuration valid (and, replayed, recorded) at every
 * shape, matched by its parameter values. */
static int in_every_shape(void *ctx, const uint16_t *idx)
{
    const all_shapes *a = ctx;
    for (size_t j = 0; j < a->n; j++)
        if (cutune_space_find(a->R[j].t.space, idx) < 0)
            return 0;
    return 1;
}

/* Order of the each mode: by the product of the sizes, smallest first (a small shape's
 * measurements are the cheapest, and they start the larger ones), ties in list order. */
static void order_by_product(shape_run *R, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            double a = 1, b = 1;
            for (size_t s = 0; s < R[order[j]].shape->n; s++)
                a *= R[order[j]].shape->values[s], b *= R[order[j - 1]].shape->values[s];
            if (!(a < b))
                break;
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* Time configuration idx (an index vector of the spec's parameters) at validation shape v. */
static int measure_chosen(shape_run *v, const uint16_t *idx, char *err, size_t errlen)
{
    long long id = cutune_space_find(v->t.space, idx);
    v->chosen_id = (long)id;
    if (id < 0)
        return 0; /* not valid there (or not recorded): said in the summary */
    cutune_evaluator *ev = NULL;
    int rc = shapes_eval_alloc(v->t.space, &v->es, 1, &ev, err, errlen);
    if (rc < 0)
        return rc;
    size_t sid = (size_t)id;
    cutune_eval_result res = {0};
    rc = cutune_evaluator_evaluate(ev, &sid, 1, &res, err, errlen);
    if (rc == 0) {
        v->chosen_status = res.status;
        v->chosen_ms = res.status == CUTUNE_STATUS_OK ? res.time_ms : NAN;
    }
    cutune_eval_result_clear(&res);
    cutune_evaluator_free(ev);
    return rc;
}

/* A shape the resumed run had moved on from: its history (from its journal) counted as a
 * search's is. */
static int finished_search(shape_run *r)
{
    r->es.nevals += r->hist.n;
    r->es.seq += r->hist.n;
    return 0;
}

static void set_winner(shape_run *r)
{
    r->tuned = 1;
    r->best_ms = shapes_best_of(&r->hist);
    if (r->hist.best >= 0) {
        r->winner = (long)r->hist.e[r->hist.best].id;
        r->winner_ms = r->best_ms;
    }
}

/* ------------------------------------------------------------------ the command */

/* What --sizes cannot be combined with, one line naming why. */
int cli_tune_shapes_refuse(const cli_tune_options *o, char *err, size_t errlen)
{
    const char *bad = o->so.nsizes      ? "--size (give every shape's sizes in --sizes)"
                      : o->warm_start   ? "--warm-start (the each mode warm-starts from the shapes "
                                          "tuned before; --shape-warm chooses how)"
                      : o->header       ? "--header (cutune header --sizes=LIST writes a dispatch "
                                          "table)"
                      : o->csv          ? "--csv"
                      : o->kt           ? "--kt-cache"
                      : o->t4           ? "--t4"
                      : o->objectives   ? "--objectives"
                      : o->front        ? "--front"
                      : o->objective    ? "--objective (the shapes are compared by time)"
                      : o->nsubject_to  ? "--subject-to"
                      : o->so.nrestrict ? "--restrict"
                      : o->confirm_arg && o->confirm
                          ? "--confirm (no confirmation step runs: a shape's choice is its "
                            "fastest measurement)"
                      : o->rounds_arg ? "--confirm-rounds (no confirmation step runs: a shape's "
                                        "choice is its fastest measurement)"
                                      : NULL;
    if (bad)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "--sizes: not with %s", bad);
    return 0;
}

static int made_runs;

static int make_prefix(run_ctx *c, const char *name, char *err, size_t errlen)
{
    const cli_tune_options *o = c->o;
    if (o->journal) {
        snprintf(c->prefix, sizeof c->prefix, "%s", o->journal);
        size_t n = strlen(c->prefix);
        if (n > 6 && strcmp(c->prefix + n - 6, ".jsonl") == 0)
            c->prefix[n - 6] = '\0';
        return 0;
    }
    if (mkdir("runs", 0777) == 0)
        made_runs = 1; /* removed again, if still empty, when the run is refused */
    else if (errno != EEXIST)
        return cutune_err(err, errlen, CUTUNE_EIO, "runs/: %s", strerror(errno));
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
    snprintf(c->prefix, sizeof c->prefix, "runs/%s-%lu-%s", name, o->seed, ts);
    return 0;
}

static int journal_name(const run_ctx *c, const char *what, char *out, size_t len, char *err,
                        size_t errlen)
{
    snprintf(out, len, "%s-%s.jsonl", c->prefix, what);
    struct stat st;
    if (!c->resuming && lstat(out, &st) == 0)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "%s: exists (a multi-shape run never replaces a journal: give another "
                          "--journal=PREFIX)",
                          out);
    /* before anything runs: a missing folder would otherwise stop the run at this shape */
    return c->resuming ? 0 : cli_check_writable("journal", out, err, errlen);
}

/* --output is checked against every file the run reads or writes once the shapes are
 * loaded (their journals, spec, kernel source and recordings are known only then): the
 * summary written last must not replace what the run was made from or has recorded. */
static int check_output(const char *output, const run_ctx *c, shape_run *R, size_t n, shape_run *V,
                        size_t nv, const char *cjournal, char *err, size_t errlen)
{
    if (!output)
        return 0;
    const char *what = NULL, *path = NULL;
    static char dbfile[4096];
    if (cli_is_tuning_db(c->o, output, dbfile, sizeof dbfile))
        what = "the tuning database", path = dbfile;
    else if (*cjournal && cutune_path_same(output, cjournal))
        what = "the common journal", path = cjournal;
    else if (*c->target_abs && cutune_path_same(output, c->target_abs))
        what = "the kernel's spec", path = c->target_abs;
    for (size_t i = 0; !what && i < n + nv; i++) {
        const shape_run *r = i < n ? &R[i] : &V[i - n];
        if (*r->journal && cutune_path_same(output, r->journal))
            what = "a shape's journal", path = r->journal;
        else if (r->t.spec && r->t.spec->source_path &&
                 cutune_path_same(output, r->t.spec->source_path))
            what = "the kernel's source", path = r->t.spec->source_path;
        else if (*r->recording && cutune_path_same(output, r->recording))
            what = "a recording being replayed", path = r->recording;
    }
    if (what)
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "--output=%s: is %s (%s); choose another path", output, what, path);
    return 0;
}

int cli_tune_shapes(const cli_tune_options *given)
{
    char err[1024] = "";
    static cli_shapes shapes, vshapes;
    static shape_run R[SHAPES_MAX], V[SHAPES_MAX];
    static run_ctx c;
    static cli_tune_options ro; /* the command line, and what --resume restores */
    const cli_tune_options *o = &ro;
    cli_target ct = {0};
    cutune_history ch = {.best = -1};
    cutune_recording *cresume = NULL; /* --resume: the common journal */
    int cfinished = 0;
    char cjournal[4200] = "";
    size_t n = 0, nv = 0, order[SHAPES_MAX];
    int status = 2, common = 0, rc, announce = 0;
    cutune_stop_reason why = CUTUNE_STOP_BUDGET;
    ro = *given;
    const char *mode = o->shape_mode ? o->shape_mode : "each";
    const char *warm = o->shape_warm ? o->shape_warm : "nearest";
    memset(&c, 0, sizeof c);
    memset(&vshapes, 0, sizeof vshapes);
    memset(R, 0, sizeof R);
    memset(V, 0, sizeof V);
    c.o = o;
    c.sizes_text = o->sizes;

    if (strcmp(mode, "common") == 0)
        common = 1;
    else if (strcmp(mode, "each") != 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--shape-mode=%s: expected common or each",
                   mode);
        goto fail;
    }
    if (strcmp(warm, "nearest") && strcmp(warm, "all") && strcmp(warm, "model") &&
        strcmp(warm, "none")) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--shape-warm=%s: expected nearest, all, model or none", warm);
        goto fail;
    }
    if (common && o->shape_warm) { /* one search over every shape: none tuned before another */
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--shape-warm=%s: the each mode's warm start; --shape-mode=common tunes "
                   "every shape in one search, with no shape tuned before another to start from",
                   o->shape_warm);
        goto fail;
    }
    if (cli_tune_shapes_refuse(o, err, sizeof err) < 0 ||
        cli_shapes_parse("--sizes", o->sizes, &shapes, err, sizeof err) < 0 ||
        (o->output && cli_check_writable("output", o->output, err, sizeof err) < 0))
        goto fail;
    /* the validation shapes in --sizes's size order: compared, and labelled, as its own */
    if (o->validate_sizes &&
        (cli_shapes_parse("--validate-sizes", o->validate_sizes, &vshapes, err, sizeof err) < 0 ||
         cli_shapes_reorder("--validate-sizes", &shapes.s[0], &vshapes, err, sizeof err) < 0))
        goto fail;
    for (size_t i = 0; i < vshapes.n; i++) {
        for (size_t k = 0; k < shapes.n; k++)
            if (cli_shape_distance(&vshapes.s[i], &shapes.s[k]) == 0) {
                cutune_err(err, sizeof err, CUTUNE_EINVAL,
                           "--validate-sizes: %s is tuned by --sizes already (validation is "
                           "at shapes not tuned)",
                           vshapes.s[i].label);
                goto fail;
            }
    }
    n = shapes.n;
    nv = vshapes.n;
    /* the common journal's lines carry each shape's time as the metric t_LABEL */
    if (common && n > CUTUNE_MAX_METRICS) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--sizes: %zu shapes: the common mode takes at most %d (each shape's time "
                   "is a metric of the common journal)",
                   n, CUTUNE_MAX_METRICS);
        goto fail;
    }
    for (size_t i = 0; common && i < n; i++)
        if (strlen(shapes.s[i].label) + 3 > sizeof(((cutune_metric *)0)->name)) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--sizes: shape %s: the common mode names each shape's time t_LABEL, at "
                       "most %zu characters",
                       shapes.s[i].label, sizeof(((cutune_metric *)0)->name) - 1);
            goto fail;
        }
    for (size_t i = 0; i < n; i++)
        R[i].shape = &shapes.s[i];
    for (size_t i = 0; i < nv; i++)
        V[i].shape = &vshapes.s[i];
    order_by_product(R, n, order);
    if (o->resume && shapes_resume_journals(&c, given, &ro, common, R, n, order, V, nv, &cresume,
                                            &cfinished, err, sizeof err) < 0)
        goto fail;
    if (o->parallel > o->budget) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL,
                   "--parallel=%lu: more evaluations in flight than the budget of %lu", o->parallel,
                   o->budget);
        goto fail;
    }
    /* searcher and evaluator, as a single run chooses them */
    const char *stext = o->searcher ? o->searcher : "bo";
    const char *colon = strchr(stext, ':');
    snprintf(c.sname, sizeof c.sname, "%.*s", (int)(colon ? colon - stext : (long)strlen(stext)),
             stext);
    c.sargs = colon ? colon + 1 : NULL;
    if (!(c.st = cutune_searcher_find(c.sname, err, sizeof err)) ||
        cutune_searcher_validate(c.st, c.sargs, err, sizeof err) < 0)
        goto fail; /* refused before any shape runs */
    static char eargs[4400];
    if (o->evaluator) {
        const char *ec = strchr(o->evaluator, ':');
        snprintf(c.ename, sizeof c.ename, "%.*s",
                 (int)(ec ? ec - o->evaluator : (long)strlen(o->evaluator)), o->evaluator);
        if (strcmp(c.ename, "replay") == 0 && ec && ec[1]) {
            cutune_err(err, sizeof err, CUTUNE_EINVAL,
                       "--evaluator=%s with --sizes: each shape replays the recording at its "
                       "sizes (the spec's \"recordings\"); give --evaluator=replay",
                       o->evaluator);
            goto fail;
        }
        snprintf(eargs, sizeof eargs, "%s", ec ? ec + 1 : "");
    } else {
        snprintf(c.ename, sizeof c.ename, "%s", gpu_here() ? "cuda" : "replay");
        announce = strcmp(c.ename, "replay") == 0; /* once every shape has loaded */
    }
    if (o->devices)
        snprintf(eargs + strlen(eargs), sizeof eargs - strlen(eargs), "%sdevices=%s",
                 eargs[0] ? "," : "", o->devices);
    c.eargs = eargs[0] ? eargs : NULL;
    c.replay = strcmp(c.ename, "replay") == 0;
    if (!cutune_evaluator_find(c.ename, err, sizeof err))
        goto fail;
    if (o->cartesian_arg && strcmp(c.ename, "cuda") == 0) { /* as a single run refuses it */
        cutune_err(err, sizeof err, CUTUNE_EINVAL, CLI_CARTESIAN_CUDA,
                   o->target ? o->target : "the kernel");
        goto fail;
    }
    /* the common journal records what it measures with and where: --resume checks both */
    size_t used = (size_t)snprintf(c.common_arg, sizeof c.common_arg, "%s%s%s at ", c.ename,
                                   c.eargs ? ":" : "", c.eargs ? c.eargs : "");
    if (used >= sizeof c.common_arg ||
        cli_shapes_text(&shapes, c.common_arg + used, sizeof c.common_arg - used) < 0) {
        cutune_err(err, sizeof err, CUTUNE_EINVAL, "--sizes: the list is too long to record");
        goto fail;
    }

    /* every shape loaded and checked before anything starts */
    for (size_t i = 0; i < n + nv; i++) {
        shape_run *r = i < n ? &R[i] : &V[i - n];
        cli_shape *sh = i < n ? &shapes.s[i] : &vshapes.s[i - n];
        if (i == 0) {
            cli_target probe = {0};
            char whyb[1024];
            if ((rc = cli_target_load(o->target, &o->so, &probe, whyb, sizeof whyb)) < 0) {
                snprintf(err, sizeof err, "%s", whyb);
                goto fail;
            }
            int is_rec = probe.rec != NULL;
            char name[256];
            snprintf(name, sizeof name, "%s", probe.spec ? probe.spec->name : "");
            /* the spec by its absolute path, for the journals' headers */
            if (!realpath(o->target, c.target_abs) &&
                !(probe.spec && realpath(probe.spec->path, c.target_abs)))
                snprintf(c.target_abs, sizeof c.target_abs, "%s",
                         probe.spec ? probe.spec->path : o->target);
            cli_target_free(&probe);
            if (is_rec) {
                cutune_err(err, sizeof err, CUTUNE_EINVAL,
                           "--sizes: %s is a recording, which has no sizes (give a kernel or "
                           "spec)",
                           o->target);
                goto fail;
            }
            if (!c.resuming && make_prefix(&c, name, err, sizeof err) < 0)
                goto fail;
        }
        char j[4200];
        /* the common mode's shapes write the common journal (checked below), not their own */
        if (common && i < n)
            snprintf(j, sizeof j, "%s-common.jsonl", c.prefix);
        else if (journal_name(&c, sh->label, j, sizeof j, err, sizeof err) < 0)
            goto fail;
        if ((rc = shape_load(&c, r, sh, j, err, sizeof err)) < 0)
            goto fail;
        if (r->resume &&
            shapes_resume_check_shape(&c, r->resume, &r->t, c.replay ? r->earg : c.eargs, err,
                                      sizeof err) < 0)
            goto fail;
    }
    if (common && journal_name(&c, "common", cjournal, sizeof cjournal, err, sizeof err) < 0)
        goto fail;
    if (common) {
        /* the configurations valid at every shape: shape 0's spec, filtered */
        static all_shapes all;
        all.R = R;
        all.n = n;
        if ((rc = cli_shape_target(o->target, &shapes.s[0], &o->so, "none", NULL, &ct, NULL, 0, err,
                                   sizeof err)) < 0)
            goto fail;
        cutune_space_set_filter(ct.space, in_every_shape, &all);
        if ((rc = cutune_space_enumerate(ct.space, err, sizeof err)) < 0 ||
            cutune_space_size(ct.space) == 0) {
            if (rc >= 0)
                cutune_err(err, sizeof err, CUTUNE_EEMPTY,
                           "--sizes: no configuration is valid%s at every shape",
                           c.replay ? " and recorded" : "");
            goto fail;
        }
        if (cresume && (shapes_resume_check_common(&c, cresume, &ct, err, sizeof err) < 0 ||
                        (cfinished && shapes_history_from_journal(cresume, ct.space, 1, &ch, err,
                                                                  sizeof err) < 0)))
            goto fail;
    }
    if (check_output(o->output, &c, R, n, V, nv, cjournal, err, sizeof err) < 0)
        goto fail;
    if (c.resuming && shapes_resume_histories(common ? "none" : warm, o->seed, R, common ? 0 : n,
                                              order, V, nv, err, sizeof err) < 0)
        goto fail;
    /* every check passed: the evaluators (CUDA workers) and database runs start now */
    for (size_t i = 0; i < n + nv; i++)
        if ((rc = shape_start(&c, i < n ? &R[i] : &V[i - n], err, sizeof err)) < 0)
            goto fail;

    if (announce)
        fprintf(stderr,
                "%s: no GPU here: each shape replays the kernel's recording at its "
                "sizes; --evaluator=cuda to measure\n",
                cli_progname);
    cli_catch_stop_signals();
    status = 1;

    if (common) {
        if (!o->quiet)
            fprintf(stderr,
                    "%s: one configuration for %zu shapes: %zu configurations valid%s at "
                    "every shape; each evaluation measures all %zu (budget %lu configurations)\n",
                    cli_progname, n, cutune_space_size(ct.space), c.replay ? " and recorded" : "",
                    n, o->budget);
        static shapes_eval_shape es[SHAPES_MAX];
        for (size_t i = 0; i < n; i++) {
            es[i] = R[i].es;
            /* a resumed run's new evaluations follow the journaled ones in each shape's
             * database run */
            es[i].seq = cresume ? cresume->nrecords : 0;
        }
        if (cfinished) {
            rc = 0;
            if (!o->quiet)
                fprintf(stderr,
                        "%s: the common run: finished, from its journal (%zu "
                        "evaluations)\n",
                        cli_progname, ch.n);
        } else {
            rc = search(&c, ct.space, ct.spec, es, n, 1, NULL, cjournal, cresume, NULL, NULL, &ch,
                        &why, err, sizeof err);
        }
        for (size_t i = 0; i < n; i++) {
            /* each shape's answers: the journaled ones and those given now */
            R[i].es.nevals = es[i].nevals + ch.resumed, R[i].es.nreused = es[i].nreused;
            R[i].tuned = 1;
            for (size_t e = 0; e < ch.n; e++) { /* each shape's best seen in the run */
                double t = shapes_shape_time(&ch.e[e], R[i].shape->label);
                if (isfinite(t) && !(t >= R[i].best_ms))
                    R[i].best_ms = t;
            }
            /* and its best known: the database's fastest there, from any run and any
             * configuration (the whole space, not only the common one) */
            cutune_db_row row = {0};
            size_t measured = 0;
            if (R[i].db.db &&
                cutune_db_best(R[i].db.db, &R[i].db.key, &row, &measured, NULL, 0) == 1)
                R[i].known_ms = row.time_ms;
            cutune_db_row_clear(&row);
            if (ch.best >= 0) {
                const uint16_t *idx = cutune_space_config(ct.space, ch.e[ch.best].id);
                R[i].winner = (long)cutune_space_find(R[i].t.space, idx);
                R[i].winner_ms = shapes_shape_time(&ch.e[ch.best], R[i].shape->label);
            }
        }
        if (rc < 0)
            goto fail;
    } else {
        for (size_t k = 0; k < n && !cli_stop_requested; k++) {
            shape_run *r = &R[order[k]];
            cutune_warm_prior *prior = NULL;
            if (r->has_prior) { /* rebuilt by resume_histories */
                prior = r->prior;
                r->prior = NULL;
                r->from = r->prior_from;
            } else if ((rc = shapes_warm_prior(warm, R, order, k, o->seed, &prior, &r->from, err,
                                               sizeof err)) < 0)
                goto fail;
            if (!o->quiet)
                fprintf(stderr, "%s: shape %s (%zu of %zu)%s%s%s%s\n", cli_progname,
                        r->shape->label, k + 1, n, prior ? ": warm start from " : "",
                        prior ? (strcmp(warm, "all") == 0     ? "the shapes tuned before"
                                 : strcmp(warm, "model") == 0 ? "a model of the shapes tuned before"
                                                              : R[r->from].shape->label)
                              : "",
                        r->resume ? (prior ? "; " : ": ") : "",
                        r->finished ? "finished, from its journal"
                        : r->resume ? "resumed from its journal"
                                    : "");
            if (!prior)
                r->from = -1;
            if (r->finished)
                rc = finished_search(r);
            else
                rc = search(&c, r->t.space, r->t.spec, &r->es, 1, 0, c.replay ? r->earg : c.eargs,
                            r->journal, r->resume, prior,
                            strcmp(warm, "nearest") == 0 && prior ? R[r->from].journal : NULL,
                            &r->hist, &why, err, sizeof err);
            cutune_warm_prior_free(prior);
            set_winner(r);
            if (rc < 0)
                goto fail;
        }
    }
    /* validation: the chosen configuration timed at each shape not tuned, then that shape
     * tuned directly with the same searcher and budget */
    static cli_shape tuned[SHAPES_MAX];
    for (size_t i = 0; i < n; i++)
        tuned[i] = *R[i].shape;
    for (size_t i = 0; i < nv && !cli_stop_requested; i++) {
        shape_run *v = &V[i];
        v->from = common ? -1 : cli_shape_nearest(v->shape, tuned, n);
        const uint16_t *idx = NULL;
        if (common && ch.best >= 0)
            idx = cutune_space_config(ct.space, ch.e[ch.best].id);
        else if (!common && R[v->from].winner >= 0)
            idx = cutune_space_config(R[v->from].t.space, (size_t)R[v->from].winner);
        if (!o->quiet)
            fprintf(stderr, "%s: validation shape %s (%zu of %zu): tuned directly%s\n",
                    cli_progname, v->shape->label, i + 1, nv,
                    v->finished ? "; finished, from its journal"
                    : v->resume ? "; resumed from its journal"
                                : "");
        if (v->finished)
            rc = finished_search(v);
        else
            rc = search(&c, v->t.space, v->t.spec, &v->es, 1, 0, c.replay ? v->earg : c.eargs,
                        v->journal, v->resume, NULL, NULL, &v->hist, &why, err, sizeof err);
        /* then the chosen configuration, answered from the database where the direct run
         * measured it */
        if (rc == 0 && idx && !cli_stop_requested)
            rc = measure_chosen(v, idx, err, sizeof err);
        v->chosen_stopped = idx && cli_stop_requested;
        set_winner(v);
        if (rc < 0)
            goto fail;
    }
    if (cli_stop_requested)
        why = CUTUNE_STOP_SIGNAL;

    int any = shapes_print_summary(common, warm, o->quiet, R, n, V, nv, ct.space, &ch, cjournal);
    const char *stop = why == CUTUNE_STOP_SIGNAL      ? "signal"
                       : why == CUTUNE_STOP_TIME      ? "time_limit"
                       : why == CUTUNE_STOP_EXHAUSTED ? "exhausted"
                                                      : "budget";
    if (o->output && (rc = shapes_write_output(o->output, &c, common, R, n, ct.space, &ch, cjournal,
                                               V, nv, stop, err, sizeof err)) < 0)
        goto fail;
    status = why == CUTUNE_STOP_SIGNAL ? 130 : any ? 0 : 1;
    if (!any)
        fprintf(stderr, "%s: no correct configuration found\n", cli_progname);
    goto out;
fail:
    fprintf(stderr, "%s: %s\n", cli_progname, err);
    if (status == 2 && made_runs)
        rmdir("runs"); /* only if empty */
out:
    cutune_recording_free(cresume);
    cutune_history_free(&ch);
    cli_target_free(&ct);
    for (size_t i = 0; i < n; i++)
        shape_end(&R[i]);
    for (size_t i = 0; i < nv; i++)
        shape_end(&V[i]);
    return status;
}
