/* Tests of warm starts (src/search/warm.c, bo_warm.c, genetic's seeding): a source mapped
 * onto a target space by parameter name and value, the prior's weight, and what bo and
 * genetic propose with it. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune/cutune.h"

/* Target: a in 1..8, b in {x, y}, c in {10, 20} (a parameter the source lacks). */
static cutune_space *target_space(void)
{
    char err[256];
    cutune_space *s = cutune_space_alloc();
    assert_non_null(s);
    cutune_value a[8],
        b[2] = {{.type = CUTUNE_VALUE_STRING, .s = "x"}, {.type = CUTUNE_VALUE_STRING, .s = "y"}};
    cutune_value c[2] = {{.type = CUTUNE_VALUE_INT, .i = 10}, {.type = CUTUNE_VALUE_INT, .i = 20}};
    for (int i = 0; i < 8; i++)
        a[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i + 1};
    assert_int_equal(cutune_space_add_param(s, "a", a, 8, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "b", b, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_add_param(s, "c", c, 2, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(s, err, sizeof err), 0);
    return s;
}

static long long find(const cutune_space *s, int a, int b, int c)
{
    uint16_t idx[3] = {(uint16_t)(a - 1), (uint16_t)b, (uint16_t)c};
    return cutune_space_find(s, idx);
}

/* Source: a (also at 9, which the target lacks), b (also "z"), d (the target lacks it);
 * fastest at a = 6, b = y; a = 3 is never observed (the nearest projections speak). */
static cutune_warm_source *source(void)
{
    static const char *const names[] = {"d", "a", "b"};
    cutune_warm_source *src = cutune_warm_source_alloc("src", 3, names);
    assert_non_null(src);
    static const char *const as[] = {"1", "2", "4", "5", "6", "7", "8", "9"};
    static const char *const bs[] = {"x", "y", "z"};
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 3; j++) {
                const char *v[3] = {d ? "1" : "0", as[i], bs[j]};
                double a = atof(as[i]);
                double t = 1.0 + (a - 6) * (a - 6) + (j == 1 ? 0.0 : 0.5) + 0.1 * d;
                assert_int_equal(cutune_warm_source_add(src, v, CUTUNE_STATUS_OK, t), 0);
            }
    /* a failure: scores as the slowest */
    const char *v[3] = {"0", "6", "x"};
    assert_int_equal(cutune_warm_source_add(src, v, CUTUNE_STATUS_COMPILE_ERROR, NAN), 0);
    return src;
}

static void test_mapping(void **st)
{
    (void)st;
    char err[256];
    cutune_space *sp = target_space();
    cutune_warm_source *src = source();
    cutune_warm_prior *p = NULL;
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), 0);
    assert_int_equal(p->size, 32);
    assert_int_equal(p->nshared, 2);              /* a and b */
    assert_int_equal(p->ndropped, 2 * 8 + 2 * 2); /* b = z (16), a = 9 with b = x, y (4) */
    assert_int_equal(p->nused, 49 - 20);
    assert_int_equal(p->nexact, 32 - 4); /* a = 3 (two b values, two c values) unseen */
    /* the best source configuration is the prior's best, whatever c is */
    long long best = find(sp, 6, 1, 0);
    assert_true(p->order[0] == (size_t)best || p->order[0] == (size_t)find(sp, 6, 1, 1));
    assert_true(p->score[find(sp, 6, 1, 0)] == p->score[find(sp, 6, 1, 1)]);
    /* the source's order carries over */
    assert_true(p->score[find(sp, 6, 1, 0)] < p->score[find(sp, 6, 0, 0)]);
    assert_true(p->score[find(sp, 5, 1, 0)] < p->score[find(sp, 1, 1, 0)]);
    /* a = 3: the mean of the nearest projections (a = 2 and 4 with the same b, ...) lies
     * between the prior at a = 1 and at a = 5 */
    double s3 = p->score[find(sp, 3, 1, 0)];
    assert_true(s3 > p->score[find(sp, 5, 1, 0)] && s3 < p->score[find(sp, 1, 1, 0)]);
    /* standardised over the space */
    double m = 0.0;
    for (size_t i = 0; i < p->size; i++)
        m += p->score[i];
    assert_true(fabs(m / 32.0) < 1e-9);
    /* the design: prior order, no two within one parameter of each other */
    size_t d[4];
    size_t nd = cutune_warm_prior_design(p, sp, 4, NULL, NULL, d);
    assert_int_equal(nd, 4);
    assert_int_equal(d[0], p->order[0]);
    for (size_t i = 0; i < nd; i++)
        for (size_t j = 0; j < i; j++) {
            const uint16_t *x = cutune_space_config(sp, d[i]), *y = cutune_space_config(sp, d[j]);
            int diff = (x[0] != y[0]) + (x[1] != y[1]) + (x[2] != y[2]);
            assert_true(diff >= 2);
        }
    uint8_t skip[32] = {0};
    skip[p->order[0]] = 1;
    assert_int_equal(cutune_warm_prior_design(p, sp, 1, skip, NULL, d), 1);
    assert_int_not_equal(d[0], p->order[0]);
    cutune_warm_prior_free(p);
    cutune_warm_source_free(src);
    cutune_space_free(sp);
}

/* Several sources as one prior: the median of the standardised priors, standardised again.
 * The source with itself is the source; with its own order reversed (times inverted) the
 * median of two (their mean) is constant (all 0); with another source that agrees on a = 6
 * but prefers b = x, the consensus keeps a = 6 first and moves b towards the middle; one
 * source of three far from the other two does not move the median. */
static void test_median(void **st)
{
    (void)st;
    char err[256];
    cutune_space *sp = target_space();
    cutune_warm_source *src = source();
    cutune_warm_prior *p = NULL, *m = NULL;
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), 0);
    const cutune_warm_prior *two[2] = {p, p};
    assert_int_equal(cutune_warm_prior_median(two, 2, &m, err, sizeof err), 0);
    for (size_t i = 0; i < p->size; i++) {
        assert_true(fabs(m->score[i] - p->score[i]) < 1e-12);
        assert_int_equal(m->order[i], p->order[i]);
    }
    assert_int_equal(m->nused, 2 * p->nused);
    assert_int_equal(m->nexact, p->nexact);
    cutune_warm_prior_free(m);

    /* the negation of p (the same prior, every score's sign turned) */
    cutune_warm_prior neg = *p;
    double *ns = malloc(p->size * sizeof *ns);
    assert_non_null(ns);
    for (size_t i = 0; i < p->size; i++)
        ns[i] = -p->score[i];
    neg.score = ns;
    const cutune_warm_prior *opp[2] = {p, &neg};
    assert_int_equal(cutune_warm_prior_median(opp, 2, &m, err, sizeof err), 0);
    for (size_t i = 0; i < m->size; i++)
        assert_true(m->score[i] == 0.0);
    cutune_warm_prior_free(m);

    /* a second source: the same a preference, b reversed (x fastest) */
    static const char *const names[] = {"a", "b"};
    cutune_warm_source *s2 = cutune_warm_source_alloc("s2", 2, names);
    assert_non_null(s2);
    for (int a = 1; a <= 8; a++)
        for (int j = 0; j < 2; j++) {
            char at[4];
            snprintf(at, sizeof at, "%d", a);
            const char *v[2] = {at, j ? "y" : "x"};
            double t = 1.0 + (a - 6) * (a - 6) + (j == 0 ? 0.0 : 0.25);
            assert_int_equal(cutune_warm_source_add(s2, v, CUTUNE_STATUS_OK, t), 0);
        }
    cutune_warm_prior *q = NULL;
    assert_int_equal(cutune_warm_prior_build(s2, sp, &q, err, sizeof err), 0);
    const cutune_warm_prior *both[2] = {p, q};
    assert_int_equal(cutune_warm_prior_median(both, 2, &m, err, sizeof err), 0);
    const uint16_t *first = cutune_space_config(sp, m->order[0]);
    assert_int_equal(first[0], 5); /* a = 6 */
    /* at a = 6 the two sources disagree on b: the gap is smaller than either source's */
    double gm = fabs(m->score[find(sp, 6, 0, 0)] - m->score[find(sp, 6, 1, 0)]);
    double gp = fabs(p->score[find(sp, 6, 0, 0)] - p->score[find(sp, 6, 1, 0)]);
    assert_true(gm < gp);
    double mean = 0.0;
    for (size_t i = 0; i < m->size; i++)
        mean += m->score[i];
    assert_true(fabs(mean) < 1e-9);
    cutune_warm_prior_free(m);

    /* three sources, one of which ranks p's slowest configuration fastest by far: the
     * median keeps p's order (a mean would put that configuration first) */
    cutune_warm_prior odd1 = *p;
    double *os = malloc(p->size * sizeof *os);
    assert_non_null(os);
    memcpy(os, p->score, p->size * sizeof *os);
    size_t slow = p->order[p->size - 1];
    os[slow] = -50.0;
    odd1.score = os;
    const cutune_warm_prior *three[3] = {p, &odd1, p};
    assert_int_equal(cutune_warm_prior_median(three, 3, &m, err, sizeof err), 0);
    for (size_t i = 0; i < p->size; i++)
        assert_true(fabs(m->score[i] - p->score[i]) < 1e-12);
    assert_int_equal(m->order[p->size - 1], slow);
    cutune_warm_prior_free(m);
    free(os);

    /* refused: no prior, and priors over spaces of different sizes */
    assert_int_equal(cutune_warm_prior_median(both, 0, &m, err, sizeof err), CUTUNE_EINVAL);
    assert_null(m);
    cutune_warm_prior small = *q;
    small.size = q->size - 1;
    const cutune_warm_prior *odd[2] = {p, &small};
    assert_int_equal(cutune_warm_prior_median(odd, 2, &m, err, sizeof err), CUTUNE_EINVAL);
    assert_non_null(strstr(err, "different sizes"));
    free(ns);
    cutune_warm_prior_free(q);
    cutune_warm_prior_free(p);
    cutune_warm_source_free(s2);
    cutune_warm_source_free(src);
    cutune_space_free(sp);
}

static void test_refused(void **st)
{
    (void)st;
    char err[256] = "";
    cutune_space *sp = target_space();
    static const char *const names[] = {"x", "y"};
    cutune_warm_source *src = cutune_warm_source_alloc("other.json", 2, names);
    const char *v[2] = {"1", "2"};
    assert_int_equal(cutune_warm_source_add(src, v, CUTUNE_STATUS_OK, 1.0), 0);
    cutune_warm_prior *p = NULL;
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), CUTUNE_EMISMATCH);
    assert_null(p);
    assert_non_null(strstr(err, "other.json: no parameter in common"));
    cutune_warm_source_free(src);
    /* shared names, but no value the target has */
    static const char *const an[] = {"a"};
    src = cutune_warm_source_alloc("far.json", 1, an);
    const char *w[1] = {"100"};
    assert_int_equal(cutune_warm_source_add(src, w, CUTUNE_STATUS_OK, 1.0), 0);
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), CUTUNE_EMISMATCH);
    assert_non_null(strstr(err, "far.json: none of its 1 observations"));
    cutune_warm_source_free(src);
    cutune_space_free(sp);
}

static void test_weight(void **st)
{
    (void)st;
    double p[10], y[10], r[10];
    for (int i = 0; i < 10; i++) {
        p[i] = i;
        y[i] = 2.0 * i + 1.0; /* same order */
        r[i] = -i;            /* reversed */
    }
    assert_true(fabs(cutune_warm_prior_weight(p, y, 10) - (1.0 - 1.0 / 3.0)) < 1e-12);
    assert_true(cutune_warm_prior_weight(r, y, 10) == 0.0);
    assert_true(cutune_warm_prior_weight(p, y, 2) == 0.0);
    double flat[10] = {0};
    assert_true(cutune_warm_prior_weight(flat, y, 10) == 0.0);
}

/* The first n proposals of searcher name on the target space, warm (prior) or cold. */
static void proposals(const char *name, const char *args, const cutune_warm_prior *prior,
                      unsigned long seed, size_t n, size_t *out)
{
    char err[256];
    cutune_space *sp = target_space();
    uint8_t visited[32] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    const cutune_searcher_type *t = cutune_searcher_find(name, err, sizeof err);
    cutune_searcher_ctx ctx = {
        .space = sp, .budget = 20, .rng = rng, .visited = visited, .args = args, .warm = prior};
    cutune_searcher *s = NULL;
    assert_int_equal(cutune_searcher_alloc(t, &ctx, &s, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++) {
        size_t id, k = 0;
        assert_int_equal(cutune_searcher_propose(s, 1, &id, &k, err, sizeof err), 0);
        assert_int_equal(k, 1);
        out[i] = id;
        const uint16_t *x = cutune_space_config(sp, id);
        cutune_observation o = {.id = id,
                                .status = CUTUNE_STATUS_OK,
                                .time_ms = 1.0 + (x[0] - 5.0) * (x[0] - 5.0) + x[1] + 0.1 * x[2]};
        visited[id] = 1;
        assert_int_equal(cutune_searcher_observe(s, &o, 1, err, sizeof err), 0);
    }
    cutune_searcher_free(s);
    gsl_rng_free(rng);
    cutune_space_free(sp);
}

static void test_searchers(void **st)
{
    (void)st;
    char err[256];
    cutune_space *sp = target_space();
    cutune_warm_source *src = source();
    cutune_warm_prior *p = NULL;
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), 0);
    static const char *const names[] = {"bo", "genetic"};
    for (int k = 0; k < 2; k++) {
        size_t w1[12], w2[12], c[12];
        proposals(names[k], NULL, p, 7, 12, w1);
        proposals(names[k], NULL, p, 7, 12, w2);
        proposals(names[k], NULL, NULL, 7, 12, c);
        assert_memory_equal(w1, w2, sizeof w1); /* deterministic for a seed */
        /* the source's best first (c, which the source lacks, drawn) */
        assert_true(p->score[w1[0]] == p->score[p->order[0]]);
        assert_memory_not_equal(w1, c, sizeof w1); /* warm proposes differently */
    }
    /* transfer=off: the cold run exactly */
    size_t a[12], b[12];
    proposals("bo", "transfer=off", p, 7, 12, a);
    proposals("bo", NULL, NULL, 7, 12, b);
    assert_memory_equal(a, b, sizeof a);
    cutune_warm_prior_free(p);
    cutune_warm_source_free(src);
    cutune_space_free(sp);
}

/* A source over the target's own parameters timed t(a, b, c) by the objective that
 * proposals() answers with (inverse: 1 / t, a source that ranks the target backwards). */
static cutune_warm_prior *own_prior(int inverse)
{
    char err[256];
    static const char *const names[] = {"a", "b", "c"};
    cutune_warm_source *src = cutune_warm_source_alloc("own", 3, names);
    assert_non_null(src);
    static const char *const as[] = {"1", "2", "3", "4", "5", "6", "7", "8"};
    static const char *const bs[] = {"x", "y"}, *const cs[] = {"10", "20"};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                const char *v[3] = {as[i], bs[j], cs[k]};
                double t = 1.0 + (i - 5.0) * (i - 5.0) + j + 0.1 * k;
                assert_int_equal(
                    cutune_warm_source_add(src, v, CUTUNE_STATUS_OK, inverse ? 1.0 / t : t), 0);
            }
    cutune_space *sp = target_space();
    cutune_warm_prior *p = NULL;
    assert_int_equal(cutune_warm_prior_build(src, sp, &p, err, sizeof err), 0);
    cutune_warm_source_free(src);
    cutune_space_free(sp);
    return p;
}

/* genetic's seeding under the sequential test (bo's): the source's picks take every other
 * seeding place (init = 6 at a budget of 20: places 0, 2, 4) while the fastest of them is
 * at least as fast as the fastest other draw; a backwards source loses its places after
 * its first pick loses to the first draw. */
static void test_genetic_sequential(void **st)
{
    (void)st;
    cutune_space *sp = target_space();
    size_t w[6];
    cutune_warm_prior *good = own_prior(0), *inv = own_prior(1);
    proposals("genetic", NULL, good, 7, 6, w);
    assert_true(w[0] == (size_t)find(sp, 6, 0, 0)); /* the source's best, the target's best */
    for (int i = 2; i <= 4; i += 2) { /* two more of the source's, two parameters away */
        size_t rank = 0;
        while (good->order[rank] != w[i])
            rank++;
        print_message("place %d: the source's %zu-th best\n", i, rank + 1);
        assert_true(rank < good->size / 4);
    }
    /* uniform draws for the other places (spread=0): maximin draws seek the corners,
     * where the backwards source's other picks lie */
    proposals("genetic", "spread=0", inv, 7, 6, w);
    long long first = find(sp, 1, 1, 1), second = find(sp, 1, 0, 0), third = find(sp, 2, 1, 0);
    assert_true(w[0] == (size_t)first); /* the backwards source's best: the target's slowest */
    for (int i = 1; i < 6; i++)         /* and none of its other design picks */
        assert_true(w[i] != (size_t)second && w[i] != (size_t)third);
    cutune_warm_prior_free(good);
    cutune_warm_prior_free(inv);
    cutune_space_free(sp);
}

/* Priors built on two threads at once, over spaces of other parameter counts, are the
 * priors each builds alone (the key comparator's length is per thread). */
typedef struct {
    cutune_space *s;
    cutune_warm_source *src;
    double *want; /* the prior built alone */
    int same;
} prior_job;

static prior_job prior_job_make(size_t np, unsigned seed)
{
    static const char *names[] = {"a", "b", "c", "d"};
    char err[256];
    prior_job j = {.s = cutune_space_alloc(), .same = 1};
    cutune_value v[8];
    for (int i = 0; i < 8; i++)
        v[i] = (cutune_value){.type = CUTUNE_VALUE_INT, .i = i};
    for (size_t p = 0; p < np; p++)
        assert_int_equal(cutune_space_add_param(j.s, names[p], v, 8, err, sizeof err), 0);
    assert_int_equal(cutune_space_enumerate(j.s, err, sizeof err), 0);
    j.src = cutune_warm_source_alloc("threads", np, names);
    assert_non_null(j.src);
    for (size_t o = 0; o < 3000; o++) {
        char buf[4][8];
        const char *vals[4];
        for (size_t p = 0; p < np; p++) {
            seed = seed * 1103515245u + 12345u;
            snprintf(buf[p], sizeof buf[p], "%u", (seed >> 16) % 8);
            vals[p] = buf[p];
        }
        assert_int_equal(
            cutune_warm_source_add(j.src, vals, CUTUNE_STATUS_OK, 1.0 + (double)((seed >> 8) % 50)),
            0);
    }
    cutune_warm_prior *pr = NULL;
    assert_int_equal(cutune_warm_prior_build(j.src, j.s, &pr, err, sizeof err), 0);
    j.want = malloc(pr->size * sizeof *j.want);
    memcpy(j.want, pr->score, pr->size * sizeof *j.want);
    cutune_warm_prior_free(pr);
    return j;
}

static void *prior_job_run(void *arg)
{
    prior_job *j = arg;
    char err[256];
    for (int it = 0; it < 40; it++) {
        cutune_warm_prior *pr = NULL;
        if (cutune_warm_prior_build(j->src, j->s, &pr, err, sizeof err) < 0 ||
            memcmp(pr->score, j->want, pr->size * sizeof *j->want) != 0)
            j->same = 0;
        cutune_warm_prior_free(pr);
    }
    return NULL;
}

static void test_threads(void **st)
{
    prior_job a = prior_job_make(1, 7), b = prior_job_make(4, 11);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, prior_job_run, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, prior_job_run, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_true(a.same);
    assert_true(b.same);
    for (prior_job *j = &a; j; j = j == &a ? &b : NULL) {
        free(j->want);
        cutune_warm_source_free(j->src);
        cutune_space_free(j->s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapping),   cmocka_unit_test(test_median),
        cmocka_unit_test(test_refused),   cmocka_unit_test(test_weight),
        cmocka_unit_test(test_searchers), cmocka_unit_test(test_genetic_sequential),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
