/* Tests of the asynchronous tuner loop (src/tune/tuner.c) with a fake evaluator whose
 * completion order is scripted: out-of-order completions, failures, an evaluation held
 * back until shutdown, a stop request with evaluations in flight, and resume of a
 * journal written in completion order. Nothing is ever evaluated twice and the budget
 * is exact. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune/cutune.h"
#include "cutune/recording.h"

/* ---- the fake evaluator ---- */

enum order { LIFO, FIFO, HOLD_FIRST };

typedef struct {
    enum order order;
    size_t fly[64], nfly;
    size_t submits, evaluations[512]; /* how often each id was submitted */
    size_t completions;
    size_t stop_after; /* set *stop after this many completions (0: never) */
    volatile sig_atomic_t *stop;
    size_t max_inflight;
} fake_state;

static fake_state *fake; /* the one live instance (tests run one at a time) */
static fake_state last;  /* its counts once the run is over */

static int fake_alloc(void *st, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{
    fake = st;
    return 0;
}

static int bad_time; /* answer ok with a NaN time (an evaluator's bug) */

static int fake_answer(size_t id, cutune_eval_result *r)
{
    r->compile_ms = r->bench_ms = -1;
    if (bad_time) {
        r->status = CUTUNE_STATUS_OK;
        r->time_ms = NAN;
        return 0;
    }
    if (id % 5 == 3) { /* every fifth configuration fails */
        r->status = CUTUNE_STATUS_RUNTIME_ERROR;
        r->time_ms = NAN;
    } else {
        r->status = CUTUNE_STATUS_OK;
        r->time_ms = 1.0 + (double)((id * 7) % 23);
    }
    return 0;
}

static int fake_evaluate(void *st, const size_t *ids, size_t k, cutune_eval_result *res, char *err,
                         size_t errlen)
{
    for (size_t i = 0; i < k; i++)
        fake_answer(ids[i], &res[i]);
    return 0;
}

static int stop_on_submit; /* set the stop flag to this at a submission (a signal then) */

static int fake_submit(void *vs, size_t id, char *err, size_t errlen)
{
    fake_state *s = vs;
    if (stop_on_submit)
        *s->stop = stop_on_submit;
    for (size_t i = 0; i < s->nfly; i++)
        if (s->fly[i] == id)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "id %zu submitted while in flight", id);
    assert_true(s->nfly < 64);
    s->fly[s->nfly++] = id;
    if (s->nfly > s->max_inflight)
        s->max_inflight = s->nfly;
    s->evaluations[id]++;
    s->submits++;
    return 0;
}

static int fake_wait_any(void *vs, size_t *id, int *worker, cutune_eval_result *res, char *err,
                         size_t errlen)
{
    fake_state *s = vs;
    assert_true(s->nfly > 0);
    size_t pick = s->order == FIFO ? 0 : s->nfly - 1;
    if (s->order == HOLD_FIRST) /* the first submission completes only when alone */
        pick = s->nfly == 1 ? 0 : s->nfly - 1;
    *id = s->fly[pick];
    memmove(s->fly + pick, s->fly + pick + 1, (s->nfly - pick - 1) * sizeof *s->fly);
    s->nfly--;
    *worker = (int)(*id % 3);
    s->completions++;
    if (s->stop_after && s->completions == s->stop_after)
        *s->stop = 1;
    return fake_answer(*id, res);
}

static size_t fake_slots(void *st)
{
    return 6;
}

static const cutune_evaluator_type fake_type = {
    .version = CUTUNE_EVALUATOR_TYPE_VERSION,
    .name = "fake",
    .help = "scripted completion order",
    .size = sizeof(fake_state),
    .alloc = fake_alloc,
    .evaluate = fake_evaluate,
    .submit = fake_submit,
    .wait_any = fake_wait_any,
    .slots = fake_slots,
};

/* ---- a run ---- */

typedef struct {
    cutune_space *space;
    cutune_history hist;
    cutune_stop_reason why;
    uint8_t *visited;
} run_out;

static cutune_space *grid_space(size_t a, size_t b)
{
    cutune_space *s = cutune_space_alloc();
    cutune_value va[32], vb[32];
    char err[256];
    for (size_t i = 0; i < a; i++)
        va[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i};
    for (size_t i = 0; i < b; i++)
        vb[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = (long long)i};
    assert_int_equal(cutune_space_add_param(s, "x", va, a, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "y", vb, b, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    return s;
}

static volatile sig_atomic_t stop_flag;
static int stop_at_start; /* a stop requested before the run starts (a signal while loading) */

static int tune(run_out *o, const char *searcher, enum order order, size_t budget, size_t parallel,
                size_t stop_after, const char *journal, const cutune_recording *resume)
{
    char err[512] = "";
    if (!o->space)
        o->space = grid_space(12, 10);
    size_t n = cutune_space_size(o->space);
    o->visited = calloc(n, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    cutune_searcher_ctx sctx = {
        .space = o->space, .budget = budget, .rng = rng, .visited = o->visited};
    cutune_searcher *s = NULL;
    assert_int_equal(cutune_searcher_alloc(cutune_searcher_find(searcher, err, sizeof err), &sctx,
                                           &s, err, sizeof err),
                     0);
    cutune_evaluator_ctx ectx = {.space = o->space};
    cutune_evaluator *ev = NULL;
    assert_int_equal(cutune_evaluator_alloc(&fake_type, &ectx, &ev, err, sizeof err), 0);
    fake->order = order;
    fake->stop_after = stop_after;
    fake->stop = &stop_flag;
    stop_flag = stop_at_start;
    cutune_tuner_options opt = {.budget = budget,
                                .batch = 1,
                                .parallel = parallel,
                                .journal_path = journal,
                                .resume = resume,
                                .deterministic_clock = 1,
                                .stop = &stop_flag,
                                .searcher_name = searcher,
                                .evaluator_name = "fake"};
    o->hist = (cutune_history){.best = -1};
    int rc =
        cutune_tune(o->space, NULL, s, o->visited, ev, &opt, &o->hist, &o->why, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "cutune_tune: %s\n", err);
    /* no id evaluated twice, and the history holds each once */
    for (size_t i = 0; i < n; i++)
        assert_true(fake->evaluations[i] <= 1);
    for (size_t i = 0; i < o->hist.n; i++)
        for (size_t j = 0; j < i; j++)
            assert_true(o->hist.e[i].id != o->hist.e[j].id);
    last = *fake;
    cutune_evaluator_free(ev);
    cutune_searcher_free(s);
    gsl_rng_free(rng);
    return rc;
}

static void run_free(run_out *o)
{
    cutune_history_free(&o->hist);
    cutune_space_free(o->space);
    free(o->visited);
    memset(o, 0, sizeof *o);
}

/* ---- tests ---- */

/* A searcher of the user's that proposes one past the last id (an off-by-one) is refused,
 * not indexed past the space's arrays; an evaluator answering ok with no time is refused,
 * not journalled as a line the loader would refuse. */
static int past_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    *(size_t *)st = cutune_space_size(ctx->space);
    return 0;
}
static int past_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    out[0] = *(size_t *)st;
    *n = 1;
    return 0;
}
static const cutune_searcher_type past_type = {.version = CUTUNE_SEARCHER_TYPE_VERSION,
                                               .name = "past",
                                               .help = "proposes the id one past the last",
                                               .size = sizeof(size_t),
                                               .alloc = past_alloc,
                                               .propose = past_propose};

/* A stop that must not wait (the flag at 2) arriving while the searcher proposes: what it
 * proposed in that call is not evaluated (its model may have been cut short). */
static volatile sig_atomic_t urgent_flag;
static int urgent_propose(void *st, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    urgent_flag = 2; /* the signal, mid-call */
    out[0] = 0;
    *n = 1;
    return 0;
}
static const cutune_searcher_type urgent_type = {.version = CUTUNE_SEARCHER_TYPE_VERSION,
                                                 .name = "urgent",
                                                 .help = "a stop arrives while it proposes",
                                                 .size = sizeof(size_t),
                                                 .alloc = past_alloc,
                                                 .propose = urgent_propose};

/* One run of searcher type st (budget 8, one slot) on a 4 x 4 space against the fake
 * evaluator, stop flag stop (or NULL): cutune_tune's code, its history's length in *n, why
 * it stopped in *why and its message in err. */
static int plugin_run(const cutune_searcher_type *st, volatile sig_atomic_t *stop, size_t *n,
                      cutune_stop_reason *why, char *err, size_t errlen)
{
    cutune_space *sp = grid_space(4, 4);
    uint8_t *visited = calloc(16, 1);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    cutune_searcher_ctx sctx = {.space = sp, .budget = 8, .rng = rng, .visited = visited};
    cutune_searcher *s = NULL;
    assert_int_equal(cutune_searcher_alloc(st, &sctx, &s, err, errlen), 0);
    cutune_evaluator_ctx ectx = {.space = sp};
    cutune_evaluator *ev = NULL;
    assert_int_equal(cutune_evaluator_alloc(&fake_type, &ectx, &ev, err, errlen), 0);
    cutune_tuner_options opt = {.budget = 8,
                                .batch = 1,
                                .parallel = 1,
                                .deterministic_clock = 1,
                                .stop = stop,
                                .searcher_name = st->name,
                                .evaluator_name = "fake"};
    cutune_history hist = {.best = -1};
    int rc = cutune_tune(sp, NULL, s, visited, ev, &opt, &hist, why, err, errlen);
    *n = hist.n;
    last = *fake;
    cutune_history_free(&hist);
    cutune_evaluator_free(ev);
    cutune_searcher_free(s);
    gsl_rng_free(rng);
    free(visited);
    cutune_space_free(sp);
    return rc;
}

static void test_urgent_stop(void **state)
{
    char err[512] = "";
    size_t n;
    cutune_stop_reason why;
    urgent_flag = 0;
    assert_int_equal(plugin_run(&urgent_type, &urgent_flag, &n, &why, err, sizeof err), 0);
    assert_int_equal(why, CUTUNE_STOP_SIGNAL);
    assert_int_equal(n, 0);
    assert_int_equal(last.submits, 0);
}

static void test_bad_plugins(void **state)
{
    char err[512] = "";
    size_t n;
    cutune_stop_reason why;
    assert_int_equal(plugin_run(&past_type, NULL, &n, &why, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "searcher past proposed id 16 of a space of 16"));

    run_out o = {0};
    bad_time = 1;
    assert_int_equal(tune(&o, "random", FIFO, 10, 2, 0, NULL, NULL), CUTUNE_EINVAL);
    bad_time = 0;
    assert_int_equal(o.hist.n, 0);
    run_free(&o);
}

static void test_out_of_order(void **state)
{
    const char *searchers[] = {"random", "genetic", "bo"};
    for (size_t k = 0; k < 3; k++) {
        run_out o = {0};
        assert_int_equal(tune(&o, searchers[k], LIFO, 40, 4, 0, NULL, NULL), 0);
        assert_int_equal(o.hist.n, 40); /* the budget exact */
        assert_int_equal(last.submits, 40);
        assert_true(last.max_inflight == 4);
        assert_int_equal(o.why, CUTUNE_STOP_BUDGET);
        /* completion order differs from submission order, and each submission is there */
        int reordered = 0;
        uint8_t seen[40] = {0};
        for (size_t i = 0; i < o.hist.n; i++) {
            reordered |= o.hist.e[i].proposed != i;
            assert_true(o.hist.e[i].proposed < 40);
            seen[o.hist.e[i].proposed] = 1;
            assert_int_equal(o.hist.e[i].worker, (int)(o.hist.e[i].id % 3));
        }
        assert_true(reordered);
        for (size_t i = 0; i < 40; i++)
            assert_true(seen[i]);
        run_free(&o);
    }
}

static void test_failures_and_best(void **state)
{
    run_out o = {0};
    assert_int_equal(tune(&o, "genetic", FIFO, 50, 5, 0, NULL, NULL), 0);
    size_t failed = 0;
    double best = INFINITY;
    for (size_t i = 0; i < o.hist.n; i++) {
        if (o.hist.e[i].r.status != CUTUNE_STATUS_OK)
            failed++;
        else if (o.hist.e[i].r.time_ms < best)
            best = o.hist.e[i].r.time_ms;
    }
    assert_int_equal(o.hist.counts[CUTUNE_STATUS_RUNTIME_ERROR], failed);
    assert_true(failed > 0);
    assert_true(o.hist.best >= 0);
    assert_true(o.hist.e[o.hist.best].r.time_ms == best);
    run_free(&o);
}

/* The whole space (120) with 6 slots and a held-back first evaluation: each id once. */
static void test_exhaust_with_held_slot(void **state)
{
    run_out o = {0};
    assert_int_equal(tune(&o, "bo", HOLD_FIRST, 120, 0, 0, NULL, NULL), 0);
    assert_int_equal(o.hist.n, 120);
    assert_true(last.max_inflight == 6);         /* the evaluator's default slots */
    assert_int_equal(o.hist.e[119].proposed, 0); /* the held one came last */
    run_free(&o);
    /* a budget beyond the space: the searcher runs dry, every id once */
    assert_int_equal(tune(&o, "random", LIFO, 200, 0, 0, NULL, NULL), 0);
    assert_int_equal(o.hist.n, 120);
    assert_int_equal(o.why, CUTUNE_STOP_EXHAUSTED);
    run_free(&o);
}

/* A stop request with evaluations in flight: proposing stops, the in-flight ones
 * (the held one among them) are finished and kept. */
static void test_stop_drains(void **state)
{
    run_out o = {0};
    assert_int_equal(tune(&o, "random", HOLD_FIRST, 100, 6, 10, NULL, NULL), 0);
    assert_int_equal(o.why, CUTUNE_STOP_SIGNAL);
    assert_int_equal(o.hist.n, last.submits); /* nothing submitted was lost */
    assert_int_equal(o.hist.n, 10 + 5);       /* the five still in flight at the stop */
    assert_int_equal(last.nfly, 0);
    run_free(&o);
}

/* Copy the header and the first n eval lines of src to dst (a SIGKILL after n). */
static void cut_journal(const char *src, const char *dst, size_t n)
{
    FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
    assert_non_null(in);
    assert_non_null(out);
    char line[65536];
    for (size_t i = 0; i <= n && fgets(line, sizeof line, in); i++)
        fputs(line, out);
    fclose(in);
    fclose(out);
}

/* Resume of a journal written in completion order. Killed (the journal a prefix of the
 * run's): the resumed run ends with exactly the uninterrupted run's evaluations. Stopped
 * with evaluations drained: nothing journaled is evaluated again, nothing is lost. */
static void test_resume(void **state)
{
    char dir[] = "/tmp/cutune_async_XXXXXX", full[64], part[64], err[512];
    assert_non_null(mkdtemp(dir));
    snprintf(full, sizeof full, "%s/full.jsonl", dir);
    snprintf(part, sizeof part, "%s/part.jsonl", dir);
    run_out a = {0}, b = {0}, c = {0};
    assert_int_equal(tune(&a, "bo", LIFO, 40, 4, 0, full, NULL), 0);

    cut_journal(full, part, 17);
    cutune_recording *rec = NULL;
    assert_int_equal(cutune_recording_load(part, &rec, err, sizeof err), 0);
    assert_int_equal(tune(&c, "bo", LIFO, 40, 4, 0, part, rec), 0);
    assert_int_equal(last.submits, 40 - 17); /* only what the journal lacked */
    assert_int_equal(c.hist.n, 40);
    for (size_t i = 0; i < 40; i++)
        assert_int_equal(c.hist.e[i].id, a.hist.e[i].id);
    cutune_recording_free(rec);
    run_free(&c);
    unlink(part);

    assert_int_equal(tune(&b, "bo", LIFO, 40, 4, 17, part, NULL), 0);
    assert_int_equal(b.hist.n, 17 + 3);
    assert_int_equal(cutune_recording_load(part, &rec, err, sizeof err), 0);
    assert_int_equal(tune(&c, "bo", LIFO, 40, 4, 0, part, rec), 0);
    assert_int_equal(last.submits, 40 - 20);
    assert_int_equal(c.hist.n, 40);
    for (size_t i = 0; i < 20; i++) /* the journaled ones first, in the journal's order */
        assert_int_equal(c.hist.e[i].id, b.hist.e[i].id);
    cutune_recording_free(rec);
    run_free(&c);

    /* a stop requested before the resumed run starts still replays the journal, which
     * costs nothing, and evaluates nothing it lacks */
    cut_journal(full, part, 17);
    assert_int_equal(cutune_recording_load(part, &rec, err, sizeof err), 0);
    stop_at_start = 1;
    assert_int_equal(tune(&c, "bo", LIFO, 40, 4, 0, part, rec), 0);
    stop_at_start = 0;
    assert_int_equal(c.why, CUTUNE_STOP_SIGNAL);
    assert_int_equal(last.submits, 0);
    assert_int_equal(c.hist.n, 17);
    for (size_t i = 0; i < 17; i++)
        assert_int_equal(c.hist.e[i].id, a.hist.e[i].id);
    run_free(&c);
    /* a second signal (the flag at 2) stops at once, replaying nothing more */
    stop_at_start = 2;
    assert_int_equal(tune(&c, "bo", LIFO, 40, 4, 0, part, rec), 0);
    stop_at_start = 0;
    assert_int_equal(last.submits, 0);
    assert_int_equal(c.hist.n, 0);
    run_free(&c);
    /* an urgent stop at the first evaluation the journal lacks, with records still to
     * replay: what was in flight completes but is not journaled (its number is a record's),
     * so the journal still loads */
    stop_on_submit = 2;
    assert_int_equal(tune(&c, "bo", LIFO, 40, 4, 0, part, rec), 0);
    stop_on_submit = 0;
    assert_true(last.submits >= 1);
    cutune_recording *again = NULL;
    assert_int_equal(cutune_recording_load(part, &again, err, sizeof err), 0);
    assert_int_equal(again->nrecords, 17);
    cutune_recording_free(again);
    cutune_recording_free(rec);
    run_free(&a);
    run_free(&b);
    run_free(&c);
    unlink(full);
    unlink(part);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_order),
        cmocka_unit_test(test_failures_and_best),
        cmocka_unit_test(test_exhaust_with_held_slot),
        cmocka_unit_test(test_stop_drains),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_bad_plugins),
        cmocka_unit_test(test_urgent_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
