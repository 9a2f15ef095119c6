/* Tuning through cutune's C API, without the cutune program (docs/library.md).
 *
 *   tune_api [-s SEARCHER] [-b BUDGET] [-r SEED] [-j JOURNAL] [RECORDING]
 *
 * Without RECORDING it builds a space by hand (four parameters, two restrictions) and
 * scores it with an evaluator defined here, "synthetic": a plugin of the evaluator
 * interface (evaluator.h) whose "kernel time" is a smooth function of the parameters,
 * and which fails the configurations over a made-up resource limit. With RECORDING (a
 * cutune journal or Kernel Tuner cache, e.g. PREFIX/share/cutune/data/xgemm.jsonl.gz)
 * the space is the recording's and the built-in replay evaluator answers from it.
 * Either way a searcher (bo by default) runs in cutune_tune, and the best configuration
 * is printed beside the space's true optimum.
 *
 * Build against an installed cutune:
 *   cc tune_api.c $(pkg-config --cflags --libs cutune) -o tune_api
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include <cutune/cutune.h>

/* ---- the synthetic evaluator: a plugin defined outside the library ---- */

enum { P_BLOCK, P_TILE, P_UNROLL, P_VEC, NPARAMS };
static const char *const param_names[NPARAMS] = {"block_size_x", "tile", "unroll", "vec"};

typedef struct synthetic_state {
    const cutune_space *space; /* view: the space being tuned */
    int slot[NPARAMS];         /* each parameter's slot in the space */
    cutune_value *vars;        /* values of one configuration (parameters, constants) */
} synthetic_state;

/* The "kernel time" in ms: a bowl in log2 of each parameter with an interaction between
 * block size and tile; least (0.5 ms) at block_size_x=256, tile=4, unroll=4, vec=4.
 * Configurations whose threads would hold over 8192 elements fail to launch. */
static cutune_status synthetic_model(const cutune_value *vars, const int *slot, double *time_ms)
{
    double b = log2(cutune_value_as_double(&vars[slot[P_BLOCK]])) - 8;
    double t = log2(cutune_value_as_double(&vars[slot[P_TILE]])) - 2;
    double u = log2(cutune_value_as_double(&vars[slot[P_UNROLL]])) - 2;
    double v = log2(cutune_value_as_double(&vars[slot[P_VEC]])) - 2;
    if (b + t + v > 1.0) { /* log2(block_size_x * tile * vec) > 13: over 8192 */
        *time_ms = NAN;
        return CUTUNE_STATUS_LAUNCH_ERROR;
    }
    *time_ms = 0.5 + 0.4 * b * b + 0.3 * t * t + 0.15 * u * u + 0.2 * v * v + 0.1 * b * t;
    return CUTUNE_STATUS_OK;
}

static int synthetic_alloc(void *vs, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    synthetic_state *s = vs; /* zeroed by cutune_evaluator_alloc */
    s->space = ctx->space;
    for (int p = 0; p < NPARAMS; p++) {
        s->slot[p] = cutune_space_param_index(ctx->space, param_names[p]);
        if (s->slot[p] < 0)
            return cutune_err(err, errlen, CUTUNE_ENOTFOUND, "synthetic: the space has no '%s'",
                              param_names[p]);
    }
    size_t nvars = cutune_space_nparams(ctx->space) + cutune_space_nconstants(ctx->space);
    s->vars = calloc(nvars, sizeof *s->vars);
    if (!s->vars)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "synthetic: out of memory");
    return 0;
}

static int synthetic_evaluate(void *vs, const size_t *ids, size_t k, cutune_eval_result *results,
                              char *err, size_t errlen)
{
    synthetic_state *s = vs;
    (void)err; /* the model cannot fail */
    (void)errlen;
    for (size_t i = 0; i < k; i++) {
        cutune_eval_result *r = &results[i];
        cutune_space_values(s->space, ids[i], s->vars);
        r->status = synthetic_model(s->vars, s->slot, &r->time_ms);
        r->compile_ms = r->bench_ms = -1; /* unknown: nothing was compiled or timed */
    }
    return 0;
}

/* Release what alloc acquired; the state block itself is the library's. */
static void synthetic_free(void *vs)
{
    synthetic_state *s = vs;
    free(s->vars);
}

static const char *synthetic_device(void *vs)
{
    (void)vs;
    return "the model in tune_api.c";
}

/* Only alloc, evaluate and free are required; submit / wait_any (asynchronous
 * evaluation), slots, prefetch and worker_name are optional hooks left NULL here. */
static const cutune_evaluator_type synthetic_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "synthetic",
    .help = "a smooth function of the parameters (tune_api.c)",
    .size = sizeof(synthetic_state),
    .alloc = synthetic_alloc,
    .evaluate = synthetic_evaluate,
    .free = synthetic_free,
    .device = synthetic_device,
};

/* ---- the spaces ---- */

static int synthetic_space(cutune_space **out, char *err, size_t errlen)
{
    static const long long values[NPARAMS][6] = {
        {32, 64, 128, 256, 512, 1024}, {1, 2, 4, 8, 16}, {1, 2, 4, 8}, {1, 2, 4}};
    static const size_t nvalues[NPARAMS] = {6, 5, 4, 3};
    static const char *const restrictions[] = {"block_size_x * tile <= 4096", "vec <= tile"};
    cutune_space *s = cutune_space_alloc();
    int rc = CUTUNE_ENOMEM;
    if (!s)
        return cutune_err(err, errlen, rc, "out of memory");
    for (int p = 0; p < NPARAMS; p++) {
        cutune_value v[6];
        for (size_t i = 0; i < nvalues[p]; i++)
            v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = values[p][i]};
        if ((rc = cutune_space_add_param(s, param_names[p], v, nvalues[p], err, errlen)) < 0)
            goto out_free_space;
    }
    for (size_t r = 0; r < sizeof restrictions / sizeof *restrictions; r++)
        if ((rc = cutune_space_add_restriction(s, restrictions[r], err, errlen)) < 0)
            goto out_free_space;
    if ((rc = cutune_space_enumerate(s, err, errlen)) < 0)
        goto out_free_space;
    *out = s;
    return 0;

out_free_space:
    cutune_space_free(s);
    return rc;
}

/* The least time over every configuration of the space (NAN when none is OK): by the
 * model itself, or from the recording's table. */
static double optimum(const cutune_space *space, const cutune_recording *rec, char *err,
                      size_t errlen)
{
    size_t n = cutune_space_size(space);
    size_t nvars = cutune_space_nparams(space) + cutune_space_nconstants(space);
    double *t = calloc(n, sizeof *t);
    cutune_value *vars = calloc(nvars, sizeof *vars);
    double best = NAN;
    int slot[NPARAMS];
    if (!t || !vars)
        goto out;
    if (rec) {
        if (cutune_recording_table(rec, space, t, err, errlen) < 0)
            goto out;
    } else {
        for (int p = 0; p < NPARAMS; p++)
            slot[p] = cutune_space_param_index(space, param_names[p]);
        for (size_t id = 0; id < n; id++) {
            cutune_space_values(space, id, vars);
            synthetic_model(vars, slot, &t[id]);
        }
    }
    for (size_t id = 0; id < n; id++)
        if (!isnan(t[id]) && !(t[id] >= best))
            best = t[id];
out:
    free(vars);
    free(t);
    return best;
}

static const char *stop_name(cutune_stop_reason r)
{
    switch (r) {
    case CUTUNE_STOP_BUDGET: return "budget";
    case CUTUNE_STOP_EXHAUSTED: return "exhausted";
    case CUTUNE_STOP_TIME: return "time_limit";
    case CUTUNE_STOP_SIGNAL: return "signal";
    }
    return "?";
}

static void print_result(const cutune_space *space, const cutune_history *h, cutune_stop_reason why,
                         double opt)
{
    char cfg[1024];
    if (h->best >= 0) {
        const cutune_history_entry *b = &h->e[h->best];
        cutune_space_format_config(space, b->id, cfg, sizeof cfg);
        printf("best: %s\n", cfg);
        printf("time: %g ms (evaluation %ld of %zu)\n", b->r.time_ms, h->best + 1, h->n);
    } else {
        printf("best: none (no configuration succeeded)\n");
    }
    printf("evaluations: %zu (", h->n);
    const char *sep = "";
    for (int st = 0; st < CUTUNE_STATUS_COUNT; st++) {
        if (h->counts[st]) {
            printf("%s%s %zu", sep, cutune_status_name((cutune_status)st), h->counts[st]);
            sep = ", ";
        }
    }
    printf(")\nstopped: %s\n", stop_name(why));
    if (h->best >= 0 && !isnan(opt))
        printf("optimum: %g ms (optimum / best: %.4f)\n", opt, opt / h->e[h->best].r.time_ms);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tune_api [-s SEARCHER] [-b BUDGET] [-r SEED] [-j JOURNAL] [RECORDING]\n");
}

int main(int argc, char **argv)
{
    const char *searcher_name = "bo", *journal = NULL, *recording = NULL;
    size_t budget = 40;
    unsigned long seed = 1;
    char err[1024] = "";
    int status = 1, c;

    /* GSL's default handler aborts: cutune checks every GSL status instead. */
    gsl_set_error_handler_off();
    while ((c = getopt(argc, argv, "s:b:r:j:h")) != -1) {
        switch (c) {
        case 's': searcher_name = optarg; break;
        case 'b':
        case 'r': { /* decimal counts only: strtoul would take "-5" as a huge number */
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            if (!isdigit((unsigned char)optarg[0]) || *end) {
                fprintf(stderr, "tune_api: -%c %s: expected a decimal number\n", c, optarg);
                return 2;
            }
            if (c == 'b')
                budget = v;
            else
                seed = v;
            break;
        }
        case 'j': journal = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc)
        recording = argv[optind++];
    if (optind < argc || budget == 0) {
        usage(stderr);
        return 2;
    }

    cutune_recording *rec = NULL;
    cutune_space *space = NULL;
    gsl_rng *rng = NULL;
    uint8_t *visited = NULL;
    cutune_evaluator *ev = NULL;
    cutune_searcher *searcher = NULL;
    cutune_history hist = {.best = -1};
    const cutune_evaluator_type *et = &synthetic_type;

    /* 1. The space: a recording's configurations, or one built parameter by parameter. */
    if (recording) {
        if (cutune_recording_load(recording, &rec, err, sizeof err) < 0 ||
            cutune_recording_space(rec, NULL, 0, 1, &space, err, sizeof err) < 0)
            goto out;
        et = cutune_evaluator_replay;
    } else if (synthetic_space(&space, err, sizeof err) < 0) {
        goto out;
    }
    printf("space: %.0f configurations, %zu valid (%zu restrictions)\n",
           cutune_space_cartesian_size(space), cutune_space_size(space),
           cutune_space_nrestrictions(space));

    /* 2. The run's one seeded generator, and the visited map the loop keeps. */
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    visited = calloc(cutune_space_size(space), 1);
    if (!rng || !visited) {
        cutune_err(err, sizeof err, CUTUNE_ENOMEM, "out of memory");
        goto out;
    }
    gsl_rng_set(rng, seed);

    /* 3. The evaluator: replay borrows the recording already loaded (same path). */
    cutune_evaluator_ctx ectx = {.space = space, .arg = recording, .seed = seed, .recording = rec};
    if (cutune_evaluator_alloc(et, &ectx, &ev, err, sizeof err) < 0)
        goto out;

    /* 4. The searcher, by registry name (a miss lists the valid names). */
    const cutune_searcher_type *st = cutune_searcher_find(searcher_name, err, sizeof err);
    cutune_searcher_ctx sctx = {
        .space = space, .budget = budget, .rng = rng, .visited = visited, .args = NULL};
    if (!st || cutune_searcher_alloc(st, &sctx, &searcher, err, sizeof err) < 0)
        goto out;
    printf("searcher: %s, evaluator: %s (%s), budget %zu, seed %lu\n", st->name, et->name,
           cutune_evaluator_device(ev) ? cutune_evaluator_device(ev) : "?", budget, seed);

    /* 5. The loop: propose -> evaluate -> observe until the budget is spent. */
    cutune_tuner_options opt = {
        .budget = budget,
        .batch = 1,
        .parallel = 0, /* the evaluator's default */
        .journal_path = journal,
        .deterministic_clock = 1, /* no wall-clock timestamps in the journal */
        .searcher_name = st->name,
        .evaluator_name = et->name,
        .evaluator_arg = recording,
        .target = recording,
        .seed = seed,
    };
    cutune_stop_reason why;
    if (cutune_tune(space, NULL, searcher, visited, ev, &opt, &hist, &why, err, sizeof err) < 0)
        goto out;
    print_result(space, &hist, why, optimum(space, rec, err, sizeof err));
    status = hist.best >= 0 ? 0 : 1;

out:
    if (status && err[0])
        fprintf(stderr, "tune_api: %s\n", err);
    cutune_history_free(&hist);
    cutune_searcher_free(searcher);
    cutune_evaluator_free(ev);
    free(visited);
    gsl_rng_free(rng);
    cutune_space_free(space); /* before the recording: its filter reads it */
    cutune_recording_free(rec);
    return status;
}
