/* genetic: a steady-state genetic algorithm over the valid configurations.
 *
 * Why steady state (one child per evaluation, the child replaces the worst
 * member when it is better) rather than generations: tuning budgets are small
 * (20-200 evaluations), and a generational GA spends a whole generation before
 * any good child can be a parent. Replace-worst is elitist by construction: the
 * best member is never removed.
 *
 * One proposal:
 *   1. seeding: the first `init` proposals are spread draws (below), and any
 *      proposal while fewer than two members evaluated ok a uniform random draw
 *      (unvisited); the population then grows with children up to `pop`;
 *   2. p1 = tournament; with probability cx, p2 = tournament and the child is a
 *      uniform crossover of p1 and p2, else a copy of p1;
 *   3. repair: a crossover child outside the valid set becomes the valid
 *      configuration nearest to it (ties at random);
 *   4. mutation: neighbour moves (cutune_space_neighbours; adjacent value with
 *      probability adj, any other value otherwise); a copy gets at least one,
 *      then each further move happens with probability mut. A configuration with
 *      no valid one-parameter neighbour moves to the nearest valid one instead;
 *   5. de-duplication: a child visited (or already proposed and pending) moves to
 *      an unvisited neighbour, else to the nearest unvisited configuration.
 *      Nothing is proposed twice.
 *   6. stagnation: after `stall` evaluations without a new best, the next
 *      proposal is a random immigrant, so a converged population still explores.
 * "Nearest" is one distance throughout: the Euclidean distance over the encoded
 * values (value index / (number of values - 1) per parameter), the one the spread
 * seeding and bo's design use, so a move off the valid set changes the parameters
 * by as little as their value lists allow.
 *
 * Why the nearest configuration: recordings that hold a sparse sample of their
 * Cartesian product (the H200 GEMM recordings in data/: 320-1232 configurations of
 * 16128-118098, 46-65% of them without a valid adjacent neighbour) leave a neighbour
 * move nothing to move to, and a crossover child is almost never in the sample:
 * reverting its genes to p1's until it is valid ends at p1, so without the nearest
 * configuration genetic is random search with extra steps there. docs/searchers.md
 * has the measurements; on the dense Kernel Tuner recordings the moves are neighbour
 * moves and little changes.
 *
 * Failed evaluations (status != ok) never enter the population: a failure is no
 * parent, and while the population fills (the seeding draws of a space where a
 * third fails) it would hold a member's place that an ok configuration should.
 * Measured (20 seeds, the 15 recordings, constraint-aware): P 0.479 -> 0.489, and
 * Cartesian P 0.485 -> 0.529, with the seeding below.
 *
 * Defaults from the budget B (the hint in ctx->budget; 100 when 0):
 *   pop   = clamp(round(sqrt(B)), 6, 24)   (B=20: 6, 60: 8, 100: 10, 200: 14)
 *   init  = pop: the population starts as pop uniform draws (docs/searchers.md
 *           has the leave-one-GPU-out figures against max(4, pop / 2))
 *   tour  = 4, cx = 0.6, mut = 0.35, adj = 0.6, stall = 2 * pop
 * Random seeding is the price of every evaluation before evolution starts, so
 * it stays a small fraction of the budget; the population still grows with
 * the budget so that longer runs keep diversity (sqrt is the usual
 * compromise). Tournaments of 4 in a small population give strong selection
 * pressure, which pays at budgets of tens to hundreds of evaluations; the
 * immigrants and the 40% of "any value" moves keep exploration alive. All
 * draws come from ctx->rng.
 *
 * Warm start (ctx->warm, docs/transfer.md): ceil(init / 2) of the init seeding places, the
 * first and then every other one, go to the source's best configurations, each at least
 * two parameters from the ones before (cutune_warm_prior_design), guarded by bo's
 * sequential test: a place goes to the source only while its fastest pick observed is at
 * least as fast as the fastest of the other seeding draws (source_place). The other places
 * are the seeding's own draws (spread or uniform), and selection replaces the source's
 * picks as soon as the population holds better ones.
 *
 * Seeding places are spread (spread=1, the default; one objective: NSGA-II's seeding stays
 * uniform, as measured in docs/objectives.md): each is the best of GA_SPREAD_TRIES
 * free uniform draws, the farthest over the encoded values from the places filled before
 * (Mitchell's best-candidate sampling, as bo's maximin design). A uniform population
 * leaves regions of a small seeding (6-14 places) empty by chance, and a steady-state GA
 * with strong selection rarely reaches them later. Measured against uniform draws
 * (spread=0), 50 seeds, with each GPU left out it is the choice on every kernel
 * (docs/searchers.md).
 *
 * Arguments (ctx->args): "pop=N,init=N,cx=P,mut=P,tour=N,adj=P,stall=N,spread=0|1".
 *
 * Several objectives (observations with nobjectives > 1, from --objectives): steady-state
 * NSGA-II (src/search/nsga2.c). Tournaments prefer the lower non-dominated rank, then the
 * larger crowding distance, within the population; a child joins a full population when it
 * is not the member NSGA-II would drop first from population + child, which then leaves.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/pareto.h"
#include "cutune/searcher.h"
#include "cutune/warm.h"

#define GA_MAX_OBJ 16 /* objectives under NSGA-II */

typedef struct {
    size_t id;              /* dense id */
    double fit;             /* time_ms when ok, +inf otherwise */
    double obj[GA_MAX_OBJ]; /* several objectives: the scores (NAN infeasible) */
} ga_member;

typedef struct {
    const cutune_space *space; /* view */
    gsl_rng *rng;              /* the run's generator (view) */
    const uint8_t *visited;    /* the loop's visited array (view, may be NULL) */
    size_t n;                  /* valid configurations */
    size_t nparams;
    /* parameters */
    size_t pop_max, init, tour, stall;
    double cx, mut, adj;
    int spread;    /* spread=1 (default): the seeding draws are maximin, not uniform */
    size_t *seeds; /* the seeding places filled so far (the source's picks too) */
    size_t nseeds;
    /* population */
    ga_member *pop;
    size_t npop;
    size_t nok; /* members with a finite fitness */
    /* bookkeeping */
    uint8_t *pending;  /* proposed, not yet observed */
    size_t nproposed;  /* proposals made */
    size_t since_best; /* observations since the last new best */
    double best;
    /* scratch */
    uint16_t *child;
    size_t *nbuf, nbuf_cap;
    /* several objectives (NSGA-II) */
    size_t nobj;   /* objectives of the run (ctx->nobjectives; 0 or 1: one) */
    double *f;     /* (pop_max + 1) x nobj scratch */
    size_t *rank;  /* the population's ranks ... */
    double *crowd; /* ... and crowding distances, for the tournaments */
    /* warm start */
    size_t *wdesign;               /* the source's diversified best configurations */
    size_t nwdesign;               /* their count */
    double wbest_src, wbest_other; /* the sequential test: fastest source pick and other */
    size_t nwsrc, nwother;         /* observations of each kind */
} ga_state;

static int taken(const ga_state *s, size_t id)
{
    return (s->visited && s->visited[id]) || s->pending[id];
}

/* ---- arguments ---- */

typedef struct {
    const char *key;
    int is_int;
    double lo, hi;
} ga_key;

/* random free candidates per maximin seeding place (spread=1): bo's BO_MAXIMIN_TRIES */
#define GA_SPREAD_TRIES 64

static const ga_key ga_keys[] = {
    {"pop", 1, 2, 100000}, {"cx", 0, 0, 1},      {"mut", 0, 0, 0.95},    {"tour", 1, 1, 64},
    {"adj", 0, 0, 1},      {"stall", 1, 1, 1e9}, {"init", 1, 1, 100000}, {"spread", 1, 0, 1},
};
#define GA_NKEYS (sizeof ga_keys / sizeof ga_keys[0])

static int parse_args(ga_state *s, const char *args, char *err, size_t errlen)
{
    const char *p = args;
    while (p && *p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "genetic: argument '%.*s' is not KEY=VALUE", (int)len, p);
        size_t klen = (size_t)(eq - p);
        size_t k;
        for (k = 0; k < GA_NKEYS; k++)
            if (strlen(ga_keys[k].key) == klen && strncmp(ga_keys[k].key, p, klen) == 0)
                break;
        if (k == GA_NKEYS)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "genetic: unknown argument '%.*s' (valid: pop, init, cx, mut, "
                              "tour, adj, stall, spread)",
                              (int)klen, p);
        char buf[64];
        size_t vlen = len - klen - 1;
        if (vlen == 0 || vlen >= sizeof buf)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "genetic: bad value for '%s'",
                              ga_keys[k].key);
        memcpy(buf, eq + 1, vlen);
        buf[vlen] = '\0';
        char *tail;
        double v = strtod(buf, &tail);
        if (!cutune_is_decimal(buf) || *tail || !isfinite(v) || v < ga_keys[k].lo ||
            v > ga_keys[k].hi || (ga_keys[k].is_int && v != floor(v)))
            return cutune_err(err, errlen, CUTUNE_EINVAL, "genetic: '%s=%s' is not %s in [%g, %g]",
                              ga_keys[k].key, buf, ga_keys[k].is_int ? "an integer" : "a number",
                              ga_keys[k].lo, ga_keys[k].hi);
        switch (k) {
        case 0: s->pop_max = (size_t)v; break;
        case 1: s->cx = v; break;
        case 2: s->mut = v; break;
        case 3: s->tour = (size_t)v; break;
        case 4: s->adj = v; break;
        case 5: s->stall = (size_t)v; break;
        case 6: s->init = (size_t)v; break;
        case 7: s->spread = v != 0; break;
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* ---- life cycle ---- */

static void ga_free(void *state)
{
    ga_state *s = state;
    free(s->pop);
    free(s->pending);
    free(s->seeds);
    free(s->child);
    free(s->nbuf);
    free(s->f);
    free(s->rank);
    free(s->crowd);
    free(s->wdesign);
}

static int ga_alloc(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    ga_state *s = state;
    s->space = ctx->space;
    s->rng = ctx->rng;
    s->visited = ctx->visited;
    s->nobj = ctx->nobjectives <= GA_MAX_OBJ ? ctx->nobjectives : 0;
    s->n = cutune_space_size(ctx->space);
    s->nparams = cutune_space_nparams(ctx->space);
    if (s->n == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "genetic: the space is empty");
    if (!s->rng)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "genetic: no random generator");

    double b = ctx->budget ? (double)ctx->budget : 100.0;
    double p = round(sqrt(b));
    s->pop_max = (size_t)(p < 6 ? 6 : p > 24 ? 24 : p);
    s->tour = 4;
    s->cx = 0.6;
    s->mut = 0.35;
    s->adj = 0.6;
    s->stall = 0;
    s->spread = 1;
    int rc = parse_args(s, ctx->args, err, errlen);
    if (rc < 0)
        return rc;
    if (s->stall == 0)
        s->stall = 2 * s->pop_max;
    if (s->init == 0)
        s->init = s->pop_max;
    s->best = INFINITY;

    size_t cap = 1;
    for (size_t i = 0; i < s->nparams; i++)
        cap += cutune_space_param(s->space, i)->nvalues;
    s->nbuf_cap = cap;
    s->pop = calloc(s->pop_max, sizeof *s->pop);
    s->pending = calloc(s->n, 1);
    s->seeds = calloc(s->init ? s->init : 1, sizeof *s->seeds);
    s->child = calloc(s->nparams ? s->nparams : 1, sizeof *s->child);
    s->nbuf = calloc(cap, sizeof *s->nbuf);
    s->f = calloc((s->pop_max + 1) * GA_MAX_OBJ, sizeof *s->f);
    s->rank = calloc(s->pop_max + 1, sizeof *s->rank);
    s->crowd = calloc(s->pop_max + 1, sizeof *s->crowd);
    s->wbest_src = s->wbest_other = INFINITY;
    if (ctx->warm && ctx->warm->size == s->n) {
        size_t k = (s->init + 1) / 2;
        if ((s->wdesign = malloc(k * sizeof *s->wdesign)))
            s->nwdesign =
                cutune_warm_prior_design(ctx->warm, s->space, k, NULL, s->rng, s->wdesign);
    }
    if (!s->pop || !s->pending || !s->child || !s->nbuf || !s->f || !s->rank || !s->crowd ||
        (ctx->warm && ctx->warm->size == s->n && !s->wdesign)) {
        ga_free(s);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "genetic: out of memory");
    }
    return 0;
}

/* ---- operators ---- */

/* A uniformly random id that is neither visited nor pending; 0 when none is
 * left (then *id is untouched). Rejection first (fast while the space is
 * mostly unexplored), then a scan from a random start. */
static int draw_free(ga_state *s, size_t *id)
{
    for (int t = 0; t < 64; t++) {
        size_t c = cutune_searcher_uniform(s->rng, s->n);
        if (!taken(s, c)) {
            *id = c;
            return 1;
        }
    }
    size_t start = cutune_searcher_uniform(s->rng, s->n);
    for (size_t i = 0; i < s->n; i++) {
        size_t c = (start + i) % s->n;
        if (!taken(s, c)) {
            *id = c;
            return 1;
        }
    }
    return 0;
}

static size_t tournament(ga_state *s)
{
    size_t w = cutune_searcher_uniform(s->rng, s->npop);
    for (size_t t = 1; t < s->tour; t++) {
        size_t c = cutune_searcher_uniform(s->rng, s->npop);
        if (s->nobj > 1
                ? cutune_pareto_better(s->rank, s->crowd, c, w) ||
                      (!cutune_pareto_better(s->rank, s->crowd, w, c) && c < w)
                : s->pop[c].fit < s->pop[w].fit || (s->pop[c].fit == s->pop[w].fit && c < w))
            w = c;
    }
    return w;
}

/* Squared Euclidean distance between two configurations over the encoded values
 * (index / (nvalues - 1)): the one distance of "nearest" (the top comment). */
static double enc_dist2(const ga_state *s, const uint16_t *x, const uint16_t *y)
{
    double d = 0;
    for (size_t p = 0; p < s->nparams; p++) {
        size_t nv = cutune_space_param(s->space, p)->nvalues;
        double u = nv > 1 ? ((double)x[p] - (double)y[p]) / (double)(nv - 1) : 0;
        d += u * u;
    }
    return d;
}

/* The valid configuration nearest to the values x (enc_dist2), one of the nearest at
 * random, other than skip (SIZE_MAX: none); prefer_free: the nearest of the unvisited
 * ones, when there are any. Returns fallback when nothing but skip exists. */
static size_t nearest_to(ga_state *s, const uint16_t *x, size_t skip, int prefer_free,
                         size_t fallback)
{
    size_t ties = 0, pick = fallback;
    double best_d = INFINITY;
    int best_free = 0;
    for (size_t c = 0; c < s->n; c++) {
        if (c == skip)
            continue;
        /* free ones first when preferred, then the distance; ties by reservoir sampling */
        int fr = prefer_free && !taken(s, c);
        if (fr < best_free)
            continue;
        double d = enc_dist2(s, x, cutune_space_config(s->space, c));
        if (fr == best_free && d > best_d)
            continue;
        if (fr > best_free || d < best_d) {
            best_free = fr;
            best_d = d;
            ties = 0;
        }
        if (cutune_searcher_uniform(s->rng, ++ties) == 0)
            pick = c;
    }
    return pick;
}

/* The configuration nearest to id other than itself: the move of a configuration that
 * has no valid one-parameter neighbour (the top comment says why). Returns id itself in
 * a space of one configuration. */
static size_t nearest(ga_state *s, size_t id, int prefer_free)
{
    return nearest_to(s, cutune_space_config(s->space, id), id, prefer_free, id);
}

/* One neighbour move from id; prefer_free: choose among unvisited neighbours
 * when there are any. Without a one-parameter neighbour, a nearest configuration. */
static size_t neighbour_move(ga_state *s, size_t id, int prefer_free)
{
    int mode = gsl_rng_uniform(s->rng) < s->adj ? CUTUNE_NEIGHBOUR_ADJACENT : CUTUNE_NEIGHBOUR_ANY;
    size_t m = cutune_space_neighbours(s->space, id, mode, s->nbuf, s->nbuf_cap);
    if (m == 0 && mode == CUTUNE_NEIGHBOUR_ADJACENT)
        m = cutune_space_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, s->nbuf, s->nbuf_cap);
    if (m > s->nbuf_cap)
        m = s->nbuf_cap;
    if (m == 0)
        return nearest(s, id, prefer_free);
    if (prefer_free) {
        size_t nf = 0;
        for (size_t i = 0; i < m; i++)
            if (!taken(s, s->nbuf[i]))
                s->nbuf[nf++] = s->nbuf[i];
        if (nf == 0)
            return nearest(s, id, 1);
        m = nf;
    }
    return s->nbuf[cutune_searcher_uniform(s->rng, m)];
}

/* Uniform crossover of members a and b; a child outside the valid set becomes the valid
 * configuration nearest to it. */
static size_t crossover(ga_state *s, size_t a, size_t b)
{
    const uint16_t *ia = cutune_space_config(s->space, a);
    const uint16_t *ib = cutune_space_config(s->space, b);
    for (size_t i = 0; i < s->nparams; i++)
        s->child[i] = ia[i] != ib[i] && gsl_rng_uniform(s->rng) < 0.5 ? ib[i] : ia[i];
    long long id = cutune_space_find(s->space, s->child);
    return id >= 0 ? (size_t)id : nearest_to(s, s->child, SIZE_MAX, 0, a);
}

/* One offspring: selection, crossover, mutation, de-duplication. Returns 1 with a child
 * in *out, 0 when every configuration is visited or pending. */
static int offspring(ga_state *s, size_t *out)
{
    size_t p1 = tournament(s);
    size_t id = s->pop[p1].id;
    int changed = 0;
    if (s->npop > 1 && gsl_rng_uniform(s->rng) < s->cx) {
        size_t p2 = tournament(s);
        for (int t = 0; t < 4 && p2 == p1; t++)
            p2 = tournament(s);
        if (p2 != p1) {
            id = crossover(s, s->pop[p1].id, s->pop[p2].id);
            changed = id != s->pop[p1].id && id != s->pop[p2].id;
        }
    }
    if (!changed)
        id = neighbour_move(s, id, 0);
    while (gsl_rng_uniform(s->rng) < s->mut)
        id = neighbour_move(s, id, 0);
    if (taken(s, id)) /* an unvisited neighbour, else the nearest unvisited configuration */
        id = neighbour_move(s, id, 1);
    if (taken(s, id))
        return 0; /* nothing is left unvisited */
    *out = id;
    return 1;
}

/* The warm start's seeding places, as bo's design places them (bo_warm.c): the k source
 * picks spread evenly over the init seeding places, the first one first; a place goes to
 * the source only while its fastest pick observed is at least as fast as the fastest other
 * configuration (a failure is slowest; until both kinds are observed the source holds), so
 * a source that ranks the target backwards loses its places after its first pick. */
static int source_place(const ga_state *s, size_t at)
{
    size_t k = s->nwdesign, n = s->init;
    if (!k || at >= n || ((at + 1) * k + n - 1) / n == (at * k + n - 1) / n)
        return 0;
    return !s->nwsrc || !s->nwother || s->wbest_src <= s->wbest_other;
}

/* Squared distance over the encoded values (index / (n - 1)) from configuration c to the
 * nearest seeding place so far (INFINITY: none yet). */
static double seed_gap(const ga_state *s, size_t c)
{
    const uint16_t *x = cutune_space_config(s->space, c);
    double md = INFINITY;
    for (size_t j = 0; j < s->nseeds; j++) {
        double d = enc_dist2(s, x, cutune_space_config(s->space, s->seeds[j]));
        md = d < md ? d : md;
    }
    return md;
}

/* A spread seeding place: the best candidate of GA_SPREAD_TRIES free draws, the farthest
 * from the seeding places before it (Mitchell's best-candidate sampling, as bo's maximin
 * design); 0 when nothing is free. */
static int spread_draw(ga_state *s, size_t *out)
{
    double bestd = -1;
    int any = 0;
    for (int t = 0; t < GA_SPREAD_TRIES; t++) {
        size_t c;
        if (!draw_free(s, &c))
            break;
        double md = seed_gap(s, c);
        if (md > bestd) {
            bestd = md;
            *out = c;
            any = 1;
        }
    }
    if (any)
        s->seeds[s->nseeds++] = *out;
    return any;
}

static int make_child(ga_state *s, size_t *out)
{
    int seeding = s->nproposed < s->init || s->nok < 2;
    if (!seeding && s->since_best >= s->stall) {
        /* a random immigrant; the counter restarts half-way so that
         * immigrants stay occasional while the run stays stuck */
        s->since_best = s->stall / 2;
        seeding = 1;
    }
    if (seeding && source_place(s, s->nproposed)) /* the warm start's design, unless taken */
        for (size_t i = 0; i < s->nwdesign; i++)
            if (!taken(s, s->wdesign[i])) {
                *out = s->wdesign[i];
                if (s->nproposed < s->init && s->nseeds < s->init)
                    s->seeds[s->nseeds++] = *out;
                return 1;
            }
    size_t id;
    if (seeding && s->spread && s->nobj <= 1 && s->nproposed < s->init && s->nseeds < s->init)
        return spread_draw(s, out);
    if (seeding || !offspring(s, &id))
        return draw_free(s, out);
    *out = id;
    return 1;
}

static int ga_propose(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    ga_state *s = state;
    *n = 0;
    while (*n < k) {
        size_t id;
        if (!make_child(s, &id))
            break;
        s->pending[id] = 1;
        s->nproposed++;
        out[(*n)++] = id;
    }
    return 0;
}

/* The population's objectives into s->f, then member + 1 rows when extra is given. */
static void fill_objectives(ga_state *s, const double *extra)
{
    for (size_t i = 0; i < s->npop; i++)
        memcpy(s->f + i * s->nobj, s->pop[i].obj, s->nobj * sizeof *s->f);
    if (extra)
        memcpy(s->f + s->npop * s->nobj, extra, s->nobj * sizeof *s->f);
}

/* NSGA-II's replacement: the child (objectives obj) takes the place of the member dropped
 * first from population + child, unless that is the child itself. Then the population's
 * ranks and crowding distances for the tournaments. */
static void insert_nsga2(ga_state *s, size_t id, double fit, const double *obj)
{
    ga_member m = {.id = id, .fit = fit};
    memcpy(m.obj, obj, s->nobj * sizeof *obj);
    if (s->npop < s->pop_max) {
        s->pop[s->npop++] = m;
        s->nok += isfinite(fit) != 0;
    } else {
        fill_objectives(s, obj);
        size_t w = cutune_pareto_worst(s->f, s->npop + 1, s->nobj);
        if (w < s->npop) {
            s->nok -= isfinite(s->pop[w].fit) != 0;
            s->pop[w] = m;
            s->nok += isfinite(fit) != 0;
        }
    }
    fill_objectives(s, NULL);
    if (cutune_pareto_rank_crowd(s->f, s->npop, s->nobj, s->rank, s->crowd) < 0)
        memset(s->crowd, 0, s->npop * sizeof *s->crowd); /* out of memory: ties */
}

static void insert(ga_state *s, size_t id, double fit)
{
    for (size_t i = 0; i < s->npop; i++)
        if (s->pop[i].id == id)
            return;
    if (!isfinite(fit))
        return; /* a failure is no parent: it would only hold a member's place */
    if (s->npop < s->pop_max) {
        s->pop[s->npop++] = (ga_member){.id = id, .fit = fit};
        s->nok += isfinite(fit) != 0;
        return;
    }
    size_t w = 0;
    for (size_t i = 1; i < s->npop; i++)
        if (s->pop[i].fit >= s->pop[w].fit)
            w = i;
    if (fit < s->pop[w].fit) {
        s->nok -= isfinite(s->pop[w].fit) != 0;
        s->pop[w] = (ga_member){.id = id, .fit = fit};
        s->nok += isfinite(fit) != 0;
    }
}

static int ga_observe(void *state, const cutune_observation *obs, size_t n, char *err,
                      size_t errlen)
{
    ga_state *s = state;
    for (size_t i = 0; i < n; i++) {
        if (obs[i].id >= s->n)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "genetic: observed id %zu of %zu",
                              obs[i].id, s->n);
        s->pending[obs[i].id] = 0;
        double fit = obs[i].status == CUTUNE_STATUS_OK && isfinite(obs[i].time_ms) ? obs[i].time_ms
                                                                                   : INFINITY;
        if (fit < s->best) {
            s->best = fit;
            s->since_best = 0;
        } else {
            s->since_best++;
        }
        if (s->nwdesign) { /* the warm start's sequential test (source_place) */
            int src = 0;
            for (size_t j = 0; j < s->nwdesign && !src; j++)
                src = s->wdesign[j] == obs[i].id;
            double *b = src ? &s->wbest_src : &s->wbest_other;
            *b = fit < *b ? fit : *b;
            *(src ? &s->nwsrc : &s->nwother) += 1;
        }
        size_t k = s->nobj;
        if (k > 1 && obs[i].nobjectives == k && obs[i].objectives) {
            int dup = 0;
            for (size_t m = 0; m < s->npop && !dup; m++)
                dup = s->pop[m].id == obs[i].id;
            double o[GA_MAX_OBJ];
            for (size_t j = 0; j < k; j++) /* a failure: NaN, dominated by every point */
                o[j] = obs[i].status == CUTUNE_STATUS_OK ? obs[i].objectives[j] : NAN;
            if (!dup)
                insert_nsga2(s, obs[i].id, fit, o);
        } else {
            insert(s, obs[i].id, fit);
        }
    }
    return 0;
}

/* The budget enters only through the population size and what follows from it. */
static uint64_t ga_plan(const void *state)
{
    const ga_state *s = state;
    uint64_t h = (uint64_t)s->pop_max * 0x9E3779B97F4A7C15ull;
    h = (h ^ (uint64_t)s->init) * 0x9E3779B97F4A7C15ull;
    return h ^ (uint64_t)s->stall;
}

/* The options hook: every parameter as set after alloc (the budget's defaults applied). */
static int ga_options(const void *state, char *buf, size_t len)
{
    const ga_state *s = state;
    return snprintf(buf, len,
                    "pop=%zu,init=%zu,cx=%.17g,mut=%.17g,tour=%zu,adj=%.17g,stall=%zu,spread=%d",
                    s->pop_max, s->init, s->cx, s->mut, s->tour, s->adj, s->stall, s->spread);
}

static const cutune_searcher_type genetic_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "genetic",
    .help = "steady-state GA: tournament, uniform crossover, neighbour mutation, elitist "
            "(args: pop=N, init=N, cx=F, mut=F, tour=N, adj=F, stall=N, spread=0|1)",
    .size = sizeof(ga_state),
    .alloc = ga_alloc,
    .propose = ga_propose,
    .observe = ga_observe,
    .free = ga_free,
    .plan = ga_plan,
    .options = ga_options,
};

const cutune_searcher_type *const cutune_searcher_genetic = &genetic_type;
