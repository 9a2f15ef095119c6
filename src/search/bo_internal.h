/* bo_internal.h: the state the bo searcher's files share (see bo.c). */
#ifndef CUTUNE_BO_INTERNAL_H
#define CUTUNE_BO_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune/gp.h"
#include "cutune/searcher.h"
#include "cutune/warm.h"

#define BO_EXACT 32768u          /* score every unvisited configuration up to this size (pool=) */
#define BO_POOL 4096u            /* above it a pool of this many uniform draws (pool=) */
#define BO_POOL_MIN 256u         /* smallest pool the cache limit may leave */
#define BO_POOL_TOP 10u          /* best observations whose neighbours join the pool */
#define BO_ENCODE_CACHE 8000000u /* cache the encoding when size * dim doubles fit */
#define BO_CACHE_MAX 536870912.0 /* bytes the exhaustive prediction cache may reach (512 MiB) */
#define BO_FTAB_MAX 16777216u    /* entries of the value-pair tables (128 MiB of doubles each) */
#define BO_BLOCK 1024u           /* candidates scored per block */
#define BO_SCORE_BITS 32         /* significant bits an acquisition score is compared on */
#define BO_MAXIMIN_TRIES 64u     /* random candidates per maximin design point */
#define BO_REFIT_ALL 45u         /* refit after every observation up to this many (was 30) */
#define BO_REFIT_GROWTH 1.4      /* then when the count grew by this factor */
#define BO_FULL_GROWTH 2.0       /* multi-start fit when the count doubled since the last */
#define BO_FULL_MAX 40u          /* ... and only up to this many observations */
#define BO_WARM_ITER 25u         /* BFGS iterations of a warm-started refit */
#define BO_WARM_ITER_LATE 10u    /* ... above BO_WARM_LATE observations (O(n^3) each) */
#define BO_WARM_LATE 30u         /* refits above this many get fewer iterations (was 64) */
#define BO_MIN_GAIN 1.0          /* nats a warm refit must gain to replace the model */
#define BO_FEAS_ALL 20u          /* feasibility bandwidths after every evaluation up to this */
#define BO_FEAS_GROWTH 1.2       /* then when the evaluations grew by this factor */
#define BO_FEAS_PAIRS_MAX 1500u  /* bandwidths fixed beyond (pair table: n^2 d / 2 doubles) */
#define BO_LOCAL_TOP 3u          /* fastest configurations whose neighbourhood is searched */
enum { BO_EARLY_AUTO, BO_EARLY_SAFE, BO_EARLY_EDGE };
#define BO_EDGE_BUDGET 60u     /* early=auto: edge-seeking from this budget on */
#define BO_EDGE_LIN 0.1        /* the linear-trend weight of the edge-seeking phase */
#define BO_LOCAL_WEAK 20u      /* local steps under the weak prior up to this many ok points */
#define BO_LOCAL_FIT 10u       /* ... by a model of this many ok points nearest the best */
#define BO_ADD_MAX 0.95        /* largest weight of the additive kernel term (add=) */
#define BO_LIN_MAX 10.0        /* largest weight of the linear kernel term (lin=) */
#define BO_LIN_FIT_MIN 1e-4    /* smallest weight lin=fit may fit (log-space bound > 0) */
#define BO_PERM_MAX (1u << 24) /* pool drawn without replacement up to this size */
#define BO_TAIL_AFTER 200u     /* the exhaustive tail (bo.c) starts at this many observations */

enum bo_acq { ACQ_EI = 0, ACQ_PI, ACQ_LCB };

/* mo= (several objectives, bo_parego.c): in the order of the option's names */
enum { BO_MO_PAREGO = 0, BO_MO_GEOMEAN, BO_MO_EHVI };
#define BO_MO_MAX 16       /* objectives ParEGO scalarises (the tuner passes up to 16) */
#define BO_PAREGO_RHO 0.05 /* weight of the augmented Chebyshev function's sum term */

/* transfer= (a warm start's use, bo_warm.c): in the order of the option's names */
enum {
    BO_TRANSFER_BOTH = 0,
    BO_TRANSFER_DESIGN,
    BO_TRANSFER_PRIOR,
    BO_TRANSFER_OFF,
    BO_TRANSFER_INPUT
};

/* Length-scale prior (see the top comment of bo.c): weak, dimension-scaled, or auto = weak
 * while there are fewer successful observations than model inputs, then scaled. */
enum { BO_LPRIOR_WEAK = 0, BO_LPRIOR_DIM = 1, BO_LPRIOR_AUTO = 2 };

typedef struct bo_state {
    const cutune_searcher_ctx *ctx_view; /**< not owned; fields copied below */
    const cutune_space *space;           /**< the space */
    gsl_rng *rng;                        /**< the run's generator */
    const uint8_t *visited;              /**< loop's visited array */
    size_t budget;                       /**< evaluations of the run */
    size_t size;                         /**< valid configurations */
    size_t np;                           /**< parameters of the space */
    size_t d;                            /**< active dimensions (parameters with > 1 value) */
    size_t *active;                      /**< d parameter indices */
    double *full;                        /**< np scratch for cutune_space_encode */
    double *enc;                         /**< size x d cached encoding, or NULL */
    /* options */
    enum bo_acq acq;           /**< acquisition function */
    double xi;                 /**< EI / PI exploration offset (standardised units) */
    double beta;               /**< LCB width */
    cutune_gp_kernel kernel;   /**< covariance */
    size_t n_init;             /**< initial design size */
    cutune_gp_fit_options fit; /**< hyper-parameter fit options */
    /* history */
    size_t nobs, capobs; /**< unique evaluations seen */
    size_t *obs_id;      /**< their ids */
    uint8_t *obs_ok;     /**< 1 when status ok */
    double *obs_x;       /**< capobs x d encodings */
    size_t nok;          /**< ok among them */
    double *ok_x;        /**< capobs x d encodings of ok ones */
    double *ok_logt;     /**< their log times */
    size_t *hash;        /**< open-addressing set of observed ids (id + 1; 0 empty) */
    size_t hcap;         /**< its capacity (power of two) */
    size_t *pending;     /**< proposed, not yet observed */
    size_t npending, cappending;
    /* model */
    cutune_gp *gp;       /**< surrogate of the warped, standardised time */
    cutune_gp *lgp;      /**< the local steps' model under the weak prior (lweak=), or NULL */
    size_t lgp_n;        /**< the ok count when it was last fitted (0: never) */
    size_t lweak_max;    /**< lweak=: ok points up to which local steps use lgp (0: never) */
    size_t in_gp;        /**< ok observations held by the GP */
    size_t fit_n;        /**< ok count at the last hyper-parameter fit */
    size_t full_n;       /**< ok count at the last multi-start fit (0: none yet) */
    cutune_gp_warp warp; /**< log time -> GP target, fitted at the last (re)warp */
    cutune_gp_warp_kind warp_kind; /**< output warping (warp=) */
    double *fw;              /**< d feasibility weights 1 / (2 h_j^2) (per-dimension bandwidth) */
    double *fw_used;         /**< d weights fnum/fden were computed with */
    int feas_on;             /**< some failure was observed */
    size_t feas_n;           /**< evaluations at the last bandwidth selection */
    cutune_gp_cache *cache;  /**< predictions over every configuration, or NULL */
    double *fnum, *fden;     /**< cm: feasibility kernel sums per cached candidate */
    size_t cm;               /**< candidates behind the cache (size, or the pool's) */
    int pooled;              /**< space above exact_m: the cache covers s->pool */
    size_t exact_m;          /**< exhaustive up to this size */
    size_t pool_m;           /**< above it a pool of this many */
    double *pool_x;          /**< npool x d encodings of the pool (the cache's view) */
    size_t *perm;            /**< size: permutation for drawing the pool, or NULL */
    unsigned long pool_gen;  /**< GP generation the pool was drawn for */
    size_t rewarps;          /**< output warps fitted (rewarp) */
    size_t pool_rewarps;     /**< ... when the pool was drawn */
    size_t *nv;              /**< d: values of each active parameter */
    size_t *ftoff;           /**< d: offset of dimension j's table in ftab */
    double *ftab;            /**< sum nv_j^2: exp(-fw_j (u_j(a) - u_j(b))^2) */
    uint16_t *cidx;          /**< cm x d value indices of the cached candidates */
    int pow2;                /**< add power-of-two indicator inputs */
    int pairs;               /**< local steps also try adjacent pair moves of the best (edge) */
    int design_lhs;          /**< design=lhs: maximin Latin hypercube targets */
    int design_random;       /**< design=random: uniform draws (preset=plain) */
    int feas_model;          /**< feas=1: EI x P(success) once a failure is seen (default) */
    double *lhs;             /**< n_init x d design targets (design=lhs), lazily made */
    int lprior_mode;         /**< BO_LPRIOR_WEAK, _DIM or _AUTO (lprior=weak|dim|auto) */
    int lprior_now;          /**< auto: 1 while the dim prior is in force, 0 weak, -1 unset */
    double weak_mu, weak_sd; /**< the weak length-scale prior (log ell ~ N(mu, sd)) */
    double dim_mu, dim_sd;   /**< the dimension-scaled one */

    size_t D;              /**< model inputs: d encodings + np2 indicators */
    size_t np2;            /**< power-of-two indicators */
    size_t *p2dim, *p2off; /**< np2: active dimension, offset of its values in p2v */
    double *p2v;           /**< indicator per value index */
    size_t fe_n;           /**< observations folded into fnum/fden */
    /* scratch */
    double *bx;              /**< BO_BLOCK x d candidate encodings */
    size_t *bid;             /**< BO_BLOCK candidate ids */
    double *bmu, *bvar, *bp; /**< BO_BLOCK predictions and P(success) */
    size_t *pool;            /**< candidate pool (large spaces) */
    size_t npool, cappool;
    size_t *local; /**< local candidates (neighbours of the best) */
    size_t nlocal, caplocal;
    double *obs_t;     /**< capobs: time of each evaluation (NAN when failed) */
    double local_frac; /**< share of model-based proposals restricted to local */
    int local_auto;    /**< local=auto: the share follows the global picks' failures */
    size_t nlocal_due; /**< model-based proposals that were due to be local */
    size_t *gpicks;    /**< global model-based picks not yet observed (local=auto) */
    size_t ngpicks, capgpicks;
    size_t gtot, gok; /**< global model-based picks observed, and those that succeeded */
    int early;        /**< early=: BO_EARLY_AUTO, _SAFE or _EDGE */
    int edge;         /**< the edge phase is in force */
    int set_lin, set_lprior, set_lweak, set_refit,
        set_pairs;    /**< given explicitly (early= leaves them) */
    double warm_gain; /**< refit=: nats a warm refit must gain to replace the model (0: always) */
    size_t nmodel;    /**< model-based proposals made */
    size_t *tail;     /**< the exhaustive tail: the unvisited ids, best-ranked first, or NULL */
    size_t ntail;     /**< ids in it */
    size_t tail_pos;  /**< the next one to propose */
    int tail_allowed; /**< the budget allows the tail (a function of budget and size only) */
    /* warm start (bo_warm.c) */
    const struct cutune_warm_prior *warm; /**< ctx->warm, or NULL (a cold run) */
    int transfer;                         /**< transfer=: BO_TRANSFER_* */
    size_t warm_design;                   /**< wdesign=: source points of the design (0: n_init) */
    size_t *wdesign;                      /**< the ranking-based design */
    size_t nwdesign;                      /**< its length */
    int design_test;                      /**< wtest=1: the design's sequential test */
    int wplain;                           /**< wlcb=0: the weight is rho itself */
    double *wfx;      /**< transfer=input: per configuration its source rank / (size - 1), the
                           GP's last input; NULL otherwise */
    double wprior;    /**< weight of the prior mean (0: none) */
    double *ok_prior; /**< capobs: the prior at each ok observation */
    /* several objectives (bo_parego.c) */
    size_t nobj;    /**< objectives of the run (ctx->nobjectives; 0 or 1: one) */
    int mo;         /**< mo=: BO_MO_PAREGO or BO_MO_GEOMEAN (read only when nobj > 1) */
    double *ok_obj; /**< capobs x nobj: each ok observation's scores (ParEGO, EHVI) */
    /* two objectives under mo=ehvi (bo_ehvi.c) */
    cutune_gp *mo_gp[2];         /**< each objective's GP of its standardised score */
    size_t mo_full_n;            /**< ok count at their last multi-start fit (0: none yet) */
    double mo_mean[2], mo_sd[2]; /**< the scores' mean and sd (the GPs' standardisation) */
    double *mo_pts;   /**< mo_cap x 2: the ok observations' and believed points' scores */
    double *mo_front; /**< mo_cap x 2: their front (cutune_pareto_front2) */
    size_t mo_npts, mo_nfront, mo_cap;
    double mo_ref[2]; /**< the reference point: each one's worst plus 10% of its range */
} bo_state;

typedef struct best_pick {
    double score;
    long long id;
    double mu; /* predicted standardised mean at the pick */
} best_pick;

/* bo_ids.c: observed and pending ids, encodings, draws */
int bo_hash_has(const bo_state *s, size_t id);
int bo_hash_put(bo_state *s, size_t id);
int bo_excluded(const bo_state *s, size_t id);
void bo_encode(bo_state *s, size_t id, double *x);
size_t bo_uniform_below(gsl_rng *r, size_t n);
long long bo_random_available(bo_state *s);
double bo_sqdist(const double *a, const double *b, size_t d);
/* Room for need ids in *ids (capacity *cap, doubled from 16): 0 or CUTUNE_ENOMEM. The
 * pending, pool and local id lists all grow through it. */
int bo_reserve_ids(size_t **ids, size_t *cap, size_t need);
/* Append id's neighbours (cutune_space_neighbours' mode) to the list *ids of *n (capacity
 * *cap): 0 or CUTUNE_ENOMEM. The pool and the local steps gather their candidates so. */
int bo_append_neighbours(const cutune_space *sp, size_t id, int mode, size_t **ids, size_t *n,
                         size_t *cap);
int bo_push_pending(bo_state *s, size_t id);

/* bo_feas.c: the feasibility model */
double bo_feas_at(const bo_state *s, const double *x, size_t skip);
void bo_feas_select_bandwidth(bo_state *s);
void bo_feas_sync(bo_state *s);
double bo_feas_cached(const bo_state *s, size_t id);

/* bo_acquire.c: the acquisition and its candidates */
int bo_build_pool(bo_state *s);
int bo_build_local(bo_state *s);
int bo_maximise(bo_state *s, const cutune_gp *gp, const size_t *ids, size_t nids, double fbest,
                best_pick *bp, char *err, size_t errlen);
int bo_local_model(bo_state *s, const cutune_gp **model, char *err, size_t errlen);
/* Every id not excluded, best acquisition (s->gp, no fantasies) first, ties to the lower id,
 * into *ids (malloc'd) and *n: 0 or a negative code with err set. */
int bo_rank_all(bo_state *s, double fbest, size_t **ids, size_t *n, char *err, size_t errlen);

/* bo_model.c: the GP's upkeep */
/* Refit the output warp to the ok observations and hand the GP its new targets. */
int bo_rewarp(bo_state *s, char *err, size_t errlen);
/* The early phase's settings, edge (1) or safe (0); options given explicitly stay. */
void bo_set_phase(bo_state *s, int edge);
/* Make the GP current with every ok observation, refitting on the schedule. */
int bo_sync_model(bo_state *s, char *err, size_t errlen);
/* bo_sync_model, the pool redrawn after a refit, and the prediction cache snapshot when
 * `left` picks remain (the batch's fantasies are appended to it and dropped again). */
int bo_prepare_model(bo_state *s, size_t left, char *err, size_t errlen);
/* The Kriging believer: a fantasy at the posterior mean for each of the first npre
 * pending ids. */
int bo_believe_pending(bo_state *s, size_t npre, char *err, size_t errlen);

/* bo_design.c: the initial design */
long long bo_maximin_pick(bo_state *s);
long long bo_lhs_pick(bo_state *s, size_t t);

/* bo_warm.c: warm starts */
int bo_warm_setup(bo_state *s, const cutune_searcher_ctx *ctx);
long long bo_warm_design_pick(bo_state *s, size_t at);
/* w p(id): what the prior mean adds to the GP's (residual) prediction at id */
double bo_warm_offset(const bo_state *s, size_t id);
/* the GP target of the i-th ok observation: warped time less the prior mean */
double bo_target(const bo_state *s, size_t i);
void bo_warm_weigh(bo_state *s);

/* bo_parego.c: ParEGO's scalarisation (several objectives, mo=parego) */
/* Draw a weight vector uniformly on the simplex (k normalised exponential draws from the
 * run's generator). */
void bo_parego_weights(gsl_rng *r, double *w, size_t k);
/* Whether the run's observations are scalarised by ParEGO (several objectives, mo=parego). */
int bo_parego_on(const bo_state *s);
/* Draw a weight vector and replace every ok observation's model target (ok_logt) and its
 * ranking value (obs_t) by its scalarisation; the caller gives the GP the new targets. */
void bo_parego_rescalarise(bo_state *s);

/* bo_ehvi.c: expected hypervolume improvement (two objectives, mo=ehvi) */
/* Whether proposals maximise EHVI (two objectives, mo=ehvi). */
int bo_ehvi_on(const bo_state *s);
/* Fit both objectives' GPs to the ok observations and make the front and the reference
 * point, the pending ids believed into it: before a batch's first model-based pick. */
int bo_ehvi_prepare(bo_state *s, char *err, size_t errlen);
/* The candidate of greatest EHVI x P(success) among every candidate or, with local, the
 * neighbours of the observed front (where one is left); -1 when none is left (or on an
 * error: *rc set, err too). Unless last, it joins the front at the models' means for the
 * batch's next pick. */
long long bo_ehvi_pick(bo_state *s, int local, int last, char *err, size_t errlen, int *rc);
void bo_ehvi_free(bo_state *s);
/* bo_acquire.c: a score rounded to BO_SCORE_BITS significant bits (compared so) */
double bo_round_score(double x);

/* bo_options.c: --searcher=bo:key=value,... */
int bo_parse_args(bo_state *s, const char *args, char *err, size_t errlen);
/** The options hook (cutune_searcher_type.options), bo_options.c. */
int bo_write_options(const void *state, char *buf, size_t len);

#endif
