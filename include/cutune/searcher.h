/**
 * @file searcher.h
 * @brief The searcher plugin interface (GSL "type object" pattern).
 *
 * Searchers never do I/O and never see the GPU. They draw every random number
 * from ctx->rng (the run's one seeded generator). The tuner loop owns budget
 * and de-duplication: if a searcher proposes an id already evaluated, the loop
 * answers it from the history through observe() without charging the budget.
 */
#ifndef CUTUNE_SEARCHER_H
#define CUTUNE_SEARCHER_H

#include <signal.h>

#include <gsl/gsl_rng.h>
#include "cutune/common.h"
#include "cutune/space.h"

/* 2: the optional plan hook (a type of version 1 ends before it); 3: the optional options
 * hook */
#define CUTUNE_SEARCHER_TYPE_VERSION 3

/** What a searcher is given at alloc (views; valid for the searcher's life). */
typedef struct cutune_searcher_ctx {
    const cutune_space *space; /**< enumerated space */
    size_t budget;             /**< unique evaluations the run may spend */
    gsl_rng *rng;              /**< the run's generator */
    const uint8_t *visited;    /**< visited[id] != 0: already evaluated (kept by the loop) */
    const char *args;          /**< text after "NAME:" in --searcher, or NULL */
    /** Appended: objectives of the run (0 or 1: one). With more, observations carry each
     *  one's score (cutune_observation.objectives); with one, those fields are never read
     *  (callers that fill observations field by field need not set them). */
    size_t nobjectives;
    /** a warm start mapped onto this space (cutune/warm.h), or NULL: a cold run */
    const struct cutune_warm_prior *warm;
    /** Appended: the run's stop flag (the tuner options' stop), or NULL. At 2 or more a
     *  searcher may cut its long computations short (bo's model fits); what it proposes
     *  then is not evaluated (the tuner drops the proposals of a call during which the
     *  flag reached 2). */
    const volatile sig_atomic_t *stop;
} cutune_searcher_ctx;

/** One evaluation outcome, as searchers see it. */
typedef struct cutune_observation {
    size_t id; /**< dense id in the space */
    cutune_status status;
    double time_ms; /**< objective (median kernel time) when status is OK */
    /** Appended: under several objectives (ctx.nobjectives > 1), each one's score
     *  (minimised, NAN where infeasible), valid during the observe call; time_ms is then
     *  their geometric mean. Read only when the run has several objectives. */
    const double *objectives;
    size_t nobjectives;
} cutune_observation;

typedef struct cutune_searcher_type {
    unsigned version; /**< CUTUNE_SEARCHER_TYPE_VERSION */
    const char *name; /**< registry name, e.g. "random" */
    const char *help; /**< one line for `cutune list` */
    size_t size;      /**< bytes of private state (zeroed before alloc) */
    /** Set up state; return 0 or a negative code with a message in err. */
    int (*alloc)(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen);
    /**
     * Propose up to k distinct, preferably unvisited ids into out; *n gets the
     * count (0 = nothing left to propose).
     */
    int (*propose)(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen);
    /** Take results (in evaluation order). */
    int (*observe)(void *state, const cutune_observation *obs, size_t n, char *err, size_t errlen);
    /** Release what alloc acquired (not the state block itself). */
    void (*free)(void *state);
    /**
     * Optional: after alloc, a value naming the run's plan, a function of the space,
     * the arguments and the budget only (not of the seed). Two runs with equal plans
     * and the same seed make the same proposals as far as the smaller budget goes, so a
     * benchmark may read the smaller budget off the longer run (`cutune bench` does).
     * NULL, or a type of version 1: every budget is its own plan.
     */
    uint64_t (*plan)(const void *state);
    /**
     * Optional (version 3): the options in force after alloc, every default written out,
     * as "key=value,..." into buf (snprintf's contract: returns the length it needs, buf
     * always terminated when len > 0). Values the budget decides are those of ctx.budget.
     * A record for the reader (the manifest), not necessarily valid ARGS. NULL, or a type
     * of version 2 or below: the searcher has no options.
     */
    int (*options)(const void *state, char *buf, size_t len);
} cutune_searcher_type;

typedef struct cutune_searcher {
    const cutune_searcher_type *type;
    void *state;
} cutune_searcher;

/** NULL-terminated table of built-in searchers (GSL gsl_rng_types_setup style). */
const cutune_searcher_type *const *cutune_searcher_types(void);
extern const cutune_searcher_type *const cutune_searcher_random;
extern const cutune_searcher_type *const cutune_searcher_grid;
extern const cutune_searcher_type *const cutune_searcher_genetic;
extern const cutune_searcher_type *const cutune_searcher_bo;

/**
 * Uniform integer in [0, n) for any n >= 1 from the run's generator. Below
 * the generator's range it is gsl_rng_uniform_int; above (spaces of more than
 * 2^32 configurations) two 32-bit draws are combined, with rejection so that
 * every id stays equally likely.
 */
size_t cutune_searcher_uniform(gsl_rng *r, size_t n);

/** Check the shape of a searcher's "key=value,..." arguments (NULL or "" is none): no
 *  empty item, no key twice. The searcher checks the keys and values themselves.
 *  cutune_searcher_alloc calls it; exposed so that a caller can refuse bad arguments
 *  before a long run. */
int cutune_searcher_check_args(const char *name, const char *args, char *err, size_t errlen);

/**
 * Check a searcher's arguments fully, as its alloc would, before any run: allocates it
 * once on a two-point space and frees it again. Returns 0, or the alloc's error with err
 * set (an unknown key, a value out of range).
 */
int cutune_searcher_validate(const cutune_searcher_type *t, const char *args, char *err,
                             size_t errlen);

/**
 * The options a searcher of type t runs with under args and budget (its options hook,
 * asked of one allocated on a two-point space), into buf (len bytes; "" for a type without
 * the hook). Returns 0, CUTUNE_EINVAL when buf is too small, or alloc's error.
 */
int cutune_searcher_resolve_options(const cutune_searcher_type *t, const char *args, size_t budget,
                                    char *buf, size_t len, char *err, size_t errlen);

/** Look up by name; on a miss the message lists every valid name. */
const cutune_searcher_type *cutune_searcher_find(const char *name, char *err, size_t errlen);

int cutune_searcher_alloc(const cutune_searcher_type *t, const cutune_searcher_ctx *ctx,
                          cutune_searcher **out, char *err, size_t errlen);

/**
 * Which run serves each budget when one run per plan suffices: lead[b] = the index of the
 * largest of budgets[0..nb) (ascending) whose plan (cutune_searcher_type.plan, asked of a
 * searcher allocated on space with args and that budget) equals budget b's; b itself for a
 * type without a plan. A run of budgets[lead[b]] makes the proposals of a run of
 * budgets[b] as far as that goes. Returns 0 or a negative code (alloc's message in err).
 */
int cutune_searcher_plan_leads(const cutune_searcher_type *t, const cutune_space *space,
                               const char *args, const size_t *budgets, size_t nb, size_t *lead,
                               char *err, size_t errlen);
int cutune_searcher_propose(cutune_searcher *s, size_t k, size_t *out, size_t *n, char *err,
                            size_t errlen);
int cutune_searcher_observe(cutune_searcher *s, const cutune_observation *obs, size_t n, char *err,
                            size_t errlen);
void cutune_searcher_free(cutune_searcher *s);

#endif
