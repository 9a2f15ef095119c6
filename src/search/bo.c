/* bo: Bayesian optimisation with a Gaussian-process surrogate (src/gp).
 *
 * Model of the time. A GP (Matern 5/2 by default, ARD length-scales, signal and noise
 * variance, constant mean) of y = a Box-Cox power transform of the time (gp_warp.c:
 * (t^lambda - 1) / lambda, lambda in [-2, 2] by maximum likelihood of the observed ok
 * times, as HEBO does; lambda = 0 is the log), standardised; refitted at every
 * hyper-parameter fit (multi-start or warm) and fixed in between, so that appended
 * points map consistently. The log alone makes slow outliers (10-100x the optimum is
 * common on GPUs) moderate; the fitted lambda is typically negative and compresses them
 * further, so the GP spends its variance on the differences among fast configurations
 * (warp=none: plain standardised log time, the earlier model; warp=copula: normal scores
 * of the ranks). Inputs: the space's [0,1]
 * encoding (cutune_space_encode: value index / (n-1); single-valued parameters dropped),
 * optionally (pow2=1, off by default) one 0/1 input per integer parameter whose values mix
 * powers of two with other integers (at least two of each): whether the value is a power
 * of two. On GPUs a power of two often behaves unlike its ordinal neighbours (milo A4000
 * convolution: block_size_x 32, 64, 128, 256 reach 0.98-1.0 of the optimum, 48, 80, 96,
 * ... at most 0.81), which a stationary kernel over the rank cannot express. Measured (50
 * seeds, B = 60, all 15 recordings): mean 0.962 with, 0.964 without; convolution TitanX
 * +0.014 and pnpoly P100 +0.014, but convolution P100 -0.037, milo -0.013 (an extra ARD
 * dimension costs data), so it stays off. Noise variance >= 1e-3 (standardised): a
 * nugget, see bo_alloc.
 *
 * Hyper-parameter fits (cost is the point here: 200-evaluation runs by the thousand in
 * `cutune bench`). Maximum likelihood (plus a log-normal prior on the length-scales),
 * BFGS in gp_hyper.c. Length-scale prior: log ell ~ N(sqrt(2) + log(D) / 2, 3), the
 * dimension-scaled prior of Hvarfner, Hellsten & Nardi ("Vanilla Bayesian optimization
 * performs great in high dimensions", ICML 2024): with tens of points in D ~ 10-15
 * dimensions it favours long length-scales, i.e. few relevant parameters, unless the
 * data say otherwise (lprior=weak: the earlier N(log 0.5, 4)). Measured (50 seeds, B = 60,
 * all 15 recordings, mean fraction of the optimum): 0.964 before, 0.967 with the prior
 * alone, 0.962 with Box-Cox alone, 0.976 with both (0.9637 -> 0.9736 on a second seed set
 * 2000..2049); convolution milo A4000 0.887 -> 0.958. The price: with few successful
 * points the prior alone decides, its long length-scales make a nearly linear model and
 * EI runs to the edges of the space. Where most of the space fails (`cutune bench
 * --convention=cartesian`, GEMM: ~20% of the points valid) that put bo below random
 * search at 20 evaluations (0.60-0.68 vs 0.62-0.70 on the three GEMM recordings). So the
 * default is lprior=auto: the weak prior while the successful points are fewer than the
 * model's inputs (ARD length-scales are not identifiable from fewer), then the scaled one
 * (refit from scratch at the switch). Measured: cartesian GEMM + convolution P100, 30
 * seeds, B = 20 / 60: auto 0.729 / 0.875, dim 0.638 / 0.842, weak 0.746 / 0.883, random
 * 0.676 / 0.774; constraint-aware, 50 seeds, mean at B = 60: auto 0.974, dim 0.976 (milo
 * 0.931 vs 0.958, convolution GTX 1080Ti 0.9499 vs 0.944; see
 * benchmarks/bo/README.md, section 6). A multi-start fit (current values + fit.nstarts
 * random starts from ctx->rng, data rewarped) at the first fit and whenever the ok count
 * has doubled, up to BO_FULL_MAX; otherwise warm refits: one BFGS run from the current optimum
 * (BO_WARM_ITER iterations, BO_WARM_ITER_LATE above BO_WARM_LATE points, where each
 * likelihood costs O(n^3)), after every observation up to BO_REFIT_ALL, then whenever the
 * count grew by BO_REFIT_GROWTH. A warm refit replaces the model only when it gains more
 * than BO_MIN_GAIN nats (fit.min_gain): the likelihood surface moves little with one more
 * point, and an insignificant change is not worth a new factor and an O(m n^2) rebuild of
 * the prediction cache. Between refits new observations extend the Cholesky factor in
 * O(n^2) (cutune_gp_add). Before (multi-start after every observation up to 30, every
 * 15 % after): ~4.5 s per 200-evaluation run on GEMM; now ~0.3 s, same quality. With an
 * output warp (the default) a warm refit also refits the warp and reloads the targets, so
 * it always refactorises (min_gain then only keeps the hyper-parameters): 0.29 instead of
 * 0.26 s per run on average over the recordings.
 *
 * Feasibility model. Failed evaluations (any status but ok) are not times, so they never
 * enter the GP. P(success | x) is a Nadaraya-Watson estimate in the same encoding (the
 * power-of-two inputs excluded) with a Gaussian kernel and a Beta prior centred on the
 * overall success rate:
 *     P(x) = (a + sum_i w_i s_i) / (a + b + sum_i w_i),  w_i = exp(-|x - x_i|^2 / 2h^2),
 *     a = c p0, b = c (1 - p0), p0 = (1 + #ok) / (2 + #evaluated), c = 1,
 * with per-dimension bandwidths (|x - x_i|^2 weighted per parameter) picked by leave-one-
 * out log likelihood (a common bandwidth from a grid, then per-dimension factors; after
 * every evaluation up to BO_FEAS_ALL, then every BO_FEAS_GROWTH; pairs computed once per
 * selection, one exp per pair and trial). Over the candidates the kernel sums are kept
 * incrementally, each weight a product of per-dimension table entries (every dimension
 * takes few values), no exp per pair.
 * Chosen over a GP classifier (Laplace/EP) because it is cheap (O(n m d), no extra fit), has no
 failure mode of its own, needs no hyper-parameter optimisation to behave,
 * degrades to the prior rate far from any evaluation, and failure regions of GPU kernels
 * are typically contiguous blocks of the space (resource limits: registers, shared
 * memory, threads per block) that a local average captures well. The acquisition is
 * EI(x) * P(x) (evaluated as log EI + log P); with no failure seen P = 1.
 *
 * Acquisition. Expected improvement in closed form (with xi, in standardised log-time
 * units) below the best observed value; PI and LCB selectable. log EI is used so that
 * candidates far in the tail are still ranked, never all tied at 0. Predictions come from a
 * cache (cutune_gp_cache: O(n m) per new observation, O(m n^2) after a refactorisation).
 * The acquisition is maximised exactly over every unvisited valid configuration while
 * the space has at most BO_EXACT = 32768 of them (pool=N sets both limits to N); above that
 * over a pool of BO_POOL = 4096 configurations drawn uniformly without replacement plus
 * the neighbours (any one parameter changed) of the BO_POOL_TOP best observations, redrawn
 * whenever the GP is refactorised (the cache is rebuilt then anyway). Until stop 16 the
 * pool started above 4096 configurations, so 14 of the 15 recordings (4,201-17,956 valid)
 * were pooled, at no measurable cost to the mean (0.9767 pooled vs 0.9765 exhaustive, 150
 * seeds, 15 recordings, B = 60) and moving single recordings by up to 0.01 (gemm_AMD_Vega
 * 0.961 -> 0.968 and GEMM_RTX_2070_SUPER 0.970 -> 0.978 exhaustive, convolution_GTX_1080Ti
 * 0.954 -> 0.950); that pool's first draw was biased (the ids 0..pool-1, a bug fixed in
 * build_pool), and against the fixed pool the recordings trade within the noise (six
 * hardest, 150 seeds: 0.9657 exhaustive vs 0.9668). Scoring everything is what the design
 * asks for (benchmarks/bo/README.md, section 16). The limit is cost: the
 * prediction cache holds an m x n matrix (64 MiB at m = 32768, n <= 256; a budget that
 * would take it past BO_CACHE_MAX = 512 MiB is pooled instead) and costs O(m n) per
 * observation and O(m n^2) per refactorisation; a 200-evaluation run over the
 * 17,956 GEMM configurations takes ~1 s instead of ~0.5 s. Larger spaces (the Cartesian
 * GEMM product: 82,944) keep the 4096-point pool, which bounds the cost per run
 * independently of the space (measured there earlier: B = 60; 20 seeds, GEMM RTX 2070 /
 * P100: 0.967 / 0.979 pooled, 0.967 / 0.982 over all 17,956).
 *
 * Local steps. Every third model-based proposal (local=F sets the share) maximises the
 * same acquisition only over the neighbours (any one parameter changed) of the
 * BO_LOCAL_TOP fastest configurations found: a trust-region-like refinement (cf. TuRBO,
 * Eriksson et al. 2019) that GP-EI alone does poorly in 15 dimensions with tens of points,
 * where the global maximiser keeps jumping to far, uncertain corners. Measured on the
 * GEMM recordings (12 seeds, B=60): 0.962/0.988/0.943 without, 0.987/0.981/0.961 with.
 * While at most BO_LOCAL_WEAK successful points are held and the dimension-scaled prior
 * is in force for the main model, the local steps are scored instead by a second GP fitted
 * under the weak prior to the BO_LOCAL_FIT successful points nearest the best one
 * (local_model; lweak=N sets the count, 0 turns it off). Long length-scales extrapolate
 * trends toward the ends of the ranges, which is where the GEMM optima and
 * convolution_GTX_1080Ti's are (global steps); near the best point they also carry the
 * search past it, which is what convolution_GTX_TitanX_Maxwell, whose optimum is inside
 * the box, punished: bo was below random search there at 20 evaluations (0.783 vs 0.812,
 * 150 seeds). Measured (150 seeds = three sets of 50, 15 recordings): 20 evaluations
 * 0.9046 vs 0.9014 (TitanX convolution 0.839, above random on each seed set: no cell of
 * the 75 below random on any set), 60 evaluations 0.9716 vs 0.9725 (within the noise;
 * gemm_AMD_Vega 0.944 vs 0.952, convolution_GTX_1080Ti 0.945 vs 0.952, TitanX 0.970 vs
 * 0.960). Fitted to every successful point instead of the 10 nearest: the same at 20
 * evaluations, 0.005 lower at 60 on the six hardest recordings (benchmarks/bo/README.md,
 * section 12).
 *
 * Initial design. Maximin "best candidate" sampling (Mitchell 1991): each point is the one
 * of BO_MAXIMIN_TRIES random unvisited configurations farthest from the points already
 * chosen or evaluated. Size: n_init = min(max(5, budget / 40), 10) (init=N overrides):
 * a GP with a handful of points already beats random choice on these spaces, and every
 * evaluation spent on the design is one not spent on the model (measured on the
 * recordings: a 10-point design costs ~0.015 of the optimum at 60 evaluations against 5).
 * design=lhs instead takes, for each point of the best (maximin) of 32 random Latin
 * hypercubes, the nearest of BO_MAXIMIN_TRIES random configurations: measured (50 seeds,
 * 15 recordings, B = 60) 0.9718 vs 0.9736 on seeds 1000.., 0.9695 vs 0.9719 on 2000..;
 * convolution TitanX at B = 20 0.819 / 0.802 vs 0.800 / 0.778 (random 0.803 / 0.822), milo
 * at 60 0.955 / 0.912 vs 0.931 / 0.929: no consistent gain, so maximin stays the default.

 * Batches. propose(k) returns k distinct configurations by the Kriging believer: after
 * each choice the GP gets a fantasy observation at its own posterior mean (O(n^2) factor
 * append) and the acquisition is maximised again; fantasies are dropped afterwards
 * (cutune_gp_truncate, O(1) on the factor).
 *
 * Duplicates. An id observed twice (the loop answering a re-proposal) is ignored.
 * All-failed histories fall back to maximin sampling weighted by P(success).
 *
 * Determinism. Only ctx->rng is drawn from; ties go to the lowest id. OpenBLAS is set to
 * one thread in alloc (openblas_set_num_threads(1), process-wide): the matrices here are
 * small (n <= a few hundred), so threads buy little, and a threaded dtrsm/dgemm may
 * split sums differently with the thread count, which would make proposals depend on the
 * machine. One thread makes a seed's run bit-identical everywhere with the same library.
 *
 * Options (--searcher=bo:key=value,...): acq=ei|pi|lcb, xi= (default 0.01), beta= (LCB,
 * default 2), kernel=matern52|matern32|se, init= (design size), starts= (random starts
 * of the multi-start fits, default 3), local= (share of local steps, default 1/3),
 * pool= (exhaustive up to / pool size above, default 32768 / 4096), pow2=0|1 (power-of-two
 * inputs, default 0), warp=boxcox|copula|none (output warping, default boxcox),
 * design=maximin|lhs (initial design, default maximin),
 * lprior=auto|dim|weak (length-scale prior, default auto: weak while the successful
 * points are fewer than the model's inputs, then dim), add=fit|W (weight of the
 * second-order additive kernel term, cutune_gp_lml; default 0: off), lin=fit|W (weight of
 * the linear-trend term, cutune_gp_lml; default 0: off), lweak=N (successful points up to
 * which the local steps use the weak-prior model; default 20, 0: off), early=auto|safe|edge
 * (the early phase: safe = the defaults above, edge = lin=0.1, lprior=dim, lweak=0, auto =
 * edge when the budget is at least BO_EDGE_BUDGET; options given explicitly win).
 *
 * Interactions (add=). The stationary kernel generalises an observation only to
 * configurations near it in every parameter, so an effect of two parameters together
 * (MDIMC and NDIMC: the work-group size; MWG and MDIMC: the work per thread) must be
 * learnt again in every region of the other thirteen. add=fit mixes in the second-order
 * additive kernel on the same length-scales, its weight fitted with the other
 * hyper-parameters: one more parameter, not an ARD input per interaction (derived inputs
 * were measured to cost gemm_AMD_Vega what they gave GEMM_RTX_2070_SUPER). Measured (50
 * seeds, 15 recordings): mean at B = 60 0.9743 vs 0.9736, B = 20 0.902 vs 0.902, RTX 2070
 * 0.967 vs 0.958, Vega 0.956 vs 0.954; within the noise, at 2-4x the cost per run (an exp
 * per parameter and pair in every kernel value), so it stays an option.
 *
 * Linear trend (lin=). GPU optima often sit at the ends of parameter ranges (the GEMM
 * recordings: largest tiles and vector widths; convolution_GTX_1080Ti: a corner of five of
 * six ranges). A stationary kernel reaches them only by long length-scales, which is what
 * the dimension-scaled prior buys, and what costs where the optimum is inside the box.
 * lin=W adds sf2 W (x - c).(x' - c) to the covariance (c the centre of the box): a linear
 * trend with N(0, sf2 W) coefficients, so the trend extrapolates and the stationary part
 * models the rest. Measured (150 seeds = three sets of 50, 15 recordings; variants/lin0.1*):
 * lin=0.1 gives mean 0.9746 vs 0.9725 at B = 60, 0.9043 vs 0.9014 at B = 20, 0.9955 vs
 * 0.9974 at B = 200; convolution_milo_A4000 0.9497 vs 0.933 (at its bar, within one
 * standard error), but
 * convolution_GTX_1080Ti 0.946 vs 0.952 and convolution_GTX_TitanX_Maxwell at B = 20 0.742
 * vs 0.783 (random 0.812). It trades recordings like every other change of the prior, so
 * it stays an option. lin=fit (weight by the likelihood, in [1e-4, 10]) was worse on the
 * six hardest recordings (0.9556 vs 0.9564 default, 0.9607 lin=0.1), as was lin=0.3
 * (0.9568) and lin=0.03 (0.9534): benchmarks/bo/README.md, section 11.
 *
 * Early phase by the budget (early=auto). The choices above trade the early
 * evaluations against the later ones: the dimension-scaled prior from the first point,
 * the linear trend and no weak-prior local model (early=edge) send the first proposals to
 * the ends of the ranges, which costs where the optimum is inside the box (at 20
 * evaluations below random search on convolution_GTX_TitanX_Maxwell and GEMM_P100) and
 * pays once the run has the evaluations to come back from a wrong edge (at 60 and more
 * evaluations the best mean on the 15 recordings and on cutune's own H200 recordings).
 * The searcher is told its budget, so it takes the phase that suits it: edge from
 * BO_EDGE_BUDGET = 60 evaluations on, safe below (at 40 the two are level on the mean of
 * the 15, edge 0.954 vs 0.952, with losses of 0.02-0.04 on two recordings; at 60 edge
 * leads, 0.9742 vs 0.9715). Where most evaluations fail the ends of the ranges are
 * mostly failures (a Cartesian space whose restrictions the searcher was not given: ~80 %
 * of the GEMM product), and the edge phase fell below random search at 60 evaluations on
 * GEMM_P100 (0.746 vs 0.828); so early=auto drops to the safe phase for good once more
 * than half of at least n_init evaluations have failed (then 0.920). Measured with a run
 * of each budget, as `cutune --budget=B` makes it (cutune bench and
 * benchmarks/bo/bench_convergence --each do so): benchmarks/bo/README.md, section 15.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "cutune/gp.h"
#include "cutune/searcher.h"

#define BO_EXACT 32768u          /* score every unvisited configuration up to this size (pool=) */
#define BO_POOL 4096u            /* above it a pool of this many uniform draws (pool=) */
#define BO_POOL_MIN 256u         /* smallest pool the cache limit may leave */
#define BO_POOL_TOP 10u          /* best observations whose neighbours join the pool */
#define BO_ENCODE_CACHE 8000000u /* cache the encoding when size * dim doubles fit */
#define BO_CACHE_MAX 536870912.0 /* bytes the exhaustive prediction cache may reach (512 MiB) */
#define BO_BLOCK 1024u           /* candidates scored per block */
#define BO_MAXIMIN_TRIES 64u     /* random candidates per maximin design point */
#define BO_REFIT_ALL 30u         /* refit after every observation up to this many */
#define BO_REFIT_GROWTH 1.4      /* then when the count grew by this factor */
#define BO_FULL_GROWTH 2.0       /* multi-start fit when the count doubled since the last */
#define BO_FULL_MAX 40u          /* ... and only up to this many observations */
#define BO_WARM_ITER 25u         /* BFGS iterations of a warm-started refit */
#define BO_WARM_ITER_LATE 10u    /* ... above BO_WARM_LATE observations (O(n^3) each) */
#define BO_WARM_LATE 64u         /* observations above which refits get fewer iterations */
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

enum bo_acq { ACQ_EI = 0, ACQ_PI, ACQ_LCB };

/* Length-scale prior (see the top comment): weak, dimension-scaled, or auto = weak
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
    size_t *nv;              /**< d: values of each active parameter */
    size_t *ftoff;           /**< d: offset of dimension j's table in ftab */
    double *ftab;            /**< sum nv_j^2: exp(-fw_j (u_j(a) - u_j(b))^2) */
    uint16_t *cidx;          /**< cm x d value indices of the cached candidates */
    int pow2;                /**< add power-of-two indicator inputs */
    int design_lhs;          /**< design=lhs: maximin Latin hypercube targets */
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
    double *obs_t;                      /**< capobs: time of each evaluation (NAN when failed) */
    double local_frac;                  /**< share of model-based proposals restricted to local */
    int early;                          /**< early=: BO_EARLY_AUTO, _SAFE or _EDGE */
    int edge;                           /**< the edge phase is in force */
    int set_lin, set_lprior, set_lweak; /**< given explicitly (early= leaves them) */
    size_t nmodel;                      /**< model-based proposals made */
} bo_state;

/* ---------- small helpers ---------- */

static size_t hash_id(size_t k)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 11);
}

static int hash_has(const bo_state *s, size_t id)
{
    if (!s->hcap)
        return 0;
    size_t mask = s->hcap - 1;
    for (size_t h = hash_id(id) & mask;; h = (h + 1) & mask) {
        if (s->hash[h] == 0)
            return 0;
        if (s->hash[h] == id + 1)
            return 1;
    }
}

static int hash_put(bo_state *s, size_t id)
{
    if ((s->nobs + 1) * 2 > s->hcap) {
        size_t ncap = s->hcap ? s->hcap * 2 : 256;
        size_t *nh = calloc(ncap, sizeof *nh);
        if (!nh)
            return CUTUNE_ENOMEM;
        for (size_t i = 0; i < s->hcap; i++)
            if (s->hash[i]) {
                size_t h = hash_id(s->hash[i] - 1) & (ncap - 1);
                while (nh[h])
                    h = (h + 1) & (ncap - 1);
                nh[h] = s->hash[i];
            }
        free(s->hash);
        s->hash = nh;
        s->hcap = ncap;
    }
    size_t mask = s->hcap - 1, h = hash_id(id) & mask;
    while (s->hash[h] && s->hash[h] != id + 1)
        h = (h + 1) & mask;
    s->hash[h] = id + 1;
    return 0;
}

static int is_pending(const bo_state *s, size_t id)
{
    for (size_t i = 0; i < s->npending; i++)
        if (s->pending[i] == id)
            return 1;
    return 0;
}

static int excluded(const bo_state *s, size_t id)
{
    return (s->visited && s->visited[id]) || hash_has(s, id) || is_pending(s, id);
}

static void encode(bo_state *s, size_t id, double *x)
{
    if (s->enc) {
        memcpy(x, s->enc + id * s->D, s->D * sizeof *x);
        return;
    }
    cutune_space_encode(s->space, id, s->full);
    for (size_t j = 0; j < s->d; j++)
        x[j] = s->full[s->active[j]];
    const uint16_t *row = s->np2 ? cutune_space_config(s->space, id) : NULL;
    for (size_t e = 0; e < s->np2; e++)
        x[s->d + e] = s->p2v[s->p2off[e] + row[s->active[s->p2dim[e]]]];
}

static size_t uniform_below(gsl_rng *r, size_t n)
{
    if (n <= gsl_rng_max(r) - gsl_rng_min(r))
        return (size_t)gsl_rng_uniform_int(r, (unsigned long)n);
    return (size_t)(gsl_rng_uniform(r) * (double)n) % n;
}

/* A uniformly drawn available id (rejection, then a scan from a random offset), or -1. */
static long long random_available(bo_state *s)
{
    for (int t = 0; t < 64; t++) {
        size_t id = uniform_below(s->rng, s->size);
        if (!excluded(s, id))
            return (long long)id;
    }
    size_t off = uniform_below(s->rng, s->size);
    for (size_t i = 0; i < s->size; i++) {
        size_t id = (off + i) % s->size;
        if (!excluded(s, id))
            return (long long)id;
    }
    return -1;
}

static double sqdist(const double *a, const double *b, size_t d)
{
    double r = 0.0;
    for (size_t j = 0; j < d; j++)
        r += (a[j] - b[j]) * (a[j] - b[j]);
    return r;
}

static int push_pending(bo_state *s, size_t id)
{
    if (s->npending == s->cappending) {
        size_t nc = s->cappending ? 2 * s->cappending : 16;
        size_t *p = realloc(s->pending, nc * sizeof *p);
        if (!p)
            return CUTUNE_ENOMEM;
        s->pending = p;
        s->cappending = nc;
    }
    s->pending[s->npending++] = id;
    return 0;
}

/* ---------- feasibility (Nadaraya-Watson with a Beta prior) ---------- */

static double feas_prior(const bo_state *s)
{
    return (1.0 + s->nok) / (2.0 + s->nobs);
}

static double wdist(const double *w, const double *a, const double *b, size_t d)
{
    double r = 0.0;
    for (size_t j = 0; j < d; j++)
        r += w[j] * (a[j] - b[j]) * (a[j] - b[j]);
    return r;
}

static double feas_at(const bo_state *s, const double *x, size_t skip)
{
    double p0 = feas_prior(s), num = p0, den = 1.0;
    for (size_t i = 0; i < s->nobs; i++) {
        if (i == skip)
            continue;
        double w = exp(-wdist(s->fw, x, s->obs_x + i * s->D, s->d));
        num += w * s->obs_ok[i];
        den += w;
    }
    return num / den;
}

/* Leave-one-out log likelihood of the feasibility estimate. With pairs (pd: per pair the
 * d squared differences, pw: the weighted distance under s->fw, both over i < k) each pair
 * costs one exp for both of its points; a trial that changes only dimension j moves every
 * distance by dw * pd_j (pass j and dw; j = (size_t)-1 for none). */
static double feas_loo_pairs(bo_state *s, const double *pd, const double *pw, size_t j, double dw,
                             double *num, double *den)
{
    size_t n = s->nobs, d = s->d;
    double p0 = feas_prior(s);
    for (size_t i = 0; i < n; i++) {
        num[i] = p0;
        den[i] = 1.0;
    }
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++, p++) {
            double r = pw[p] + (j < d ? dw * pd[p * d + j] : 0.0);
            double w = exp(-r);
            num[i] += w * s->obs_ok[k];
            den[i] += w;
            num[k] += w * s->obs_ok[i];
            den[k] += w;
        }
    double ll = 0.0;
    for (size_t i = 0; i < n; i++) {
        double q = num[i] / den[i];
        ll += log(s->obs_ok[i] ? q : 1.0 - q);
    }
    return ll;
}

static void feas_pair_dist(const bo_state *s, const double *pd, double *pw)
{
    size_t n = s->nobs, d = s->d, np = n * (n - 1) / 2;
    for (size_t p = 0; p < np; p++) {
        double r = 0.0;
        for (size_t j = 0; j < d; j++)
            r += s->fw[j] * pd[p * d + j];
        pw[p] = r;
    }
}

/* Bandwidths by leave-one-out log likelihood: a common h from a grid, then sweeps of
 * per-dimension factors (failures often depend on a few parameters only: threads per
 * block, registers, shared memory), so irrelevant dimensions can be smoothed away
 * (two sweeps up to 2 BO_FEAS_ALL evaluations, one after). */
static void feas_select_bandwidth(bo_state *s)
{
    static const double grid[] = {0.05, 0.1, 0.15, 0.25, 0.4, 0.6, 1.0};
    static const double factor[] = {0.5, 2.0, 8.0};
    size_t n = s->nobs, d = s->d, np = n * (n - 1) / 2;
    double *pd = malloc((np * d + np + 2 * n + 1) * sizeof *pd);
    if (!pd)
        return; /* keep the current bandwidths */
    double *pw = pd + np * d, *num = pw + np, *den = num + n;
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++, p++)
            for (size_t j = 0; j < d; j++) {
                double t = s->obs_x[i * s->D + j] - s->obs_x[k * s->D + j];
                pd[p * d + j] = t * t;
            }
    double best = -INFINITY, scale = sqrt((double)d), besth = 0.15 * scale;
    for (size_t g = 0; g < sizeof grid / sizeof grid[0]; g++) {
        double h = grid[g] * scale;
        for (size_t j = 0; j < d; j++)
            s->fw[j] = 1.0 / (2.0 * h * h);
        feas_pair_dist(s, pd, pw);
        double ll = feas_loo_pairs(s, pd, pw, (size_t)-1, 0.0, num, den);
        if (ll > best) {
            best = ll;
            besth = h;
        }
    }
    for (size_t j = 0; j < d; j++)
        s->fw[j] = 1.0 / (2.0 * besth * besth);
    feas_pair_dist(s, pd, pw);
    int sweeps = n <= 2 * BO_FEAS_ALL ? 2 : 1;
    for (int sweep = 0; sweep < sweeps; sweep++)
        for (size_t j = 0; j < d; j++) {
            double keep = s->fw[j], bestw = keep;
            for (size_t f = 0; f < sizeof factor / sizeof factor[0]; f++) {
                double w = keep / (factor[f] * factor[f]);
                double ll = feas_loo_pairs(s, pd, pw, j, w - keep, num, den);
                if (ll > best + 1e-9) {
                    best = ll;
                    bestw = w;
                }
            }
            s->fw[j] = bestw;
            if (bestw != keep)
                for (size_t q = 0; q < np; q++)
                    pw[q] += (bestw - keep) * pd[q * d + j];
        }
    free(pd);
}

/* Bring the kernel sums of the cached candidates up to date. */
/* The Gaussian kernel is a product over dimensions and each dimension takes few values,
 * so the weight of a (candidate, observation) pair is a product of d table entries
 * exp(-fw_j (u_j(a) - u_j(b))^2) over value indices: no exp per pair. */
static void feas_sync(bo_state *s)
{
    size_t d = s->d;
    if (memcmp(s->fw, s->fw_used, d * sizeof *s->fw) != 0) {
        memset(s->fnum, 0, s->cm * sizeof *s->fnum);
        memset(s->fden, 0, s->cm * sizeof *s->fden);
        s->fe_n = 0;
        memcpy(s->fw_used, s->fw, d * sizeof *s->fw);
        for (size_t j = 0; j < d; j++) {
            size_t nv = s->nv[j];
            double *t = s->ftab + s->ftoff[j];
            for (size_t a = 0; a < nv; a++)
                for (size_t b = 0; b < nv; b++) {
                    double du = nv > 1 ? ((double)a - (double)b) / (double)(nv - 1) : 0.0;
                    t[a * nv + b] = exp(-s->fw[j] * du * du);
                }
        }
    }
    const double *rows[64];
    double *restrict fnum = s->fnum, *restrict fden = s->fden;
    const uint16_t *restrict ci = s->cidx;
    size_t cm = s->cm;
    for (; s->fe_n < s->nobs; s->fe_n++) {
        const uint16_t *co = cutune_space_config(s->space, s->obs_id[s->fe_n]);
        double ok = s->obs_ok[s->fe_n];
        if (d <= 64) {
            /* T is symmetric: row co of dimension j, indexed by the candidate's value */
            for (size_t j = 0; j < d; j++)
                rows[j] = s->ftab + s->ftoff[j] + (size_t)co[s->active[j]] * s->nv[j];
            for (size_t c = 0; c < cm; c++) {
                const uint16_t *cc = ci + c * d;
                double w = 1.0;
                for (size_t j = 0; j < d; j++)
                    w *= rows[j][cc[j]];
                fnum[c] += w * ok;
                fden[c] += w;
            }
        } else {
            for (size_t c = 0; c < cm; c++) {
                const uint16_t *cc = ci + c * d;
                double w = 1.0;
                for (size_t j = 0; j < d; j++)
                    w *= s->ftab[s->ftoff[j] + (size_t)cc[j] * s->nv[j] + co[s->active[j]]];
                fnum[c] += w * ok;
                fden[c] += w;
            }
        }
    }
}

static double feas_cached(const bo_state *s, size_t id)
{
    double p0 = feas_prior(s);
    return (p0 + s->fnum[id]) / (1.0 + s->fden[id]);
}

/* ---------- model upkeep ---------- */

/* Bring the GP up to date with the ok observations: appends (O(n^2) each) under the
 * current standardisation. */
static int gp_catch_up(bo_state *s, char *err, size_t errlen)
{
    while (s->in_gp < s->nok) {
        int rc = cutune_gp_add(s->gp, s->ok_x + s->in_gp * s->D,
                               cutune_gp_warp_apply(&s->warp, s->ok_logt[s->in_gp]), err, errlen);
        if (rc < 0)
            return rc;
        s->in_gp++;
    }
    return 0;
}

/* Fit the output warp to the ok log times and reload the GP with the new targets. */
static int rewarp(bo_state *s, char *err, size_t errlen)
{
    size_t n = s->nok;
    if (cutune_gp_warp_fit(&s->warp, s->warp_kind, s->ok_logt, n) < 0)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    double *y = malloc(n * sizeof *y);
    if (!y)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    for (size_t i = 0; i < n; i++)
        y[i] = cutune_gp_warp_apply(&s->warp, s->ok_logt[i]);
    int rc = cutune_gp_set_data(s->gp, s->ok_x, y, n, err, errlen);
    free(y);
    if (rc < 0)
        return rc;
    s->in_gp = n;
    return 0;
}

/* Full refit: refit the output warp, reload the GP and fit the hyper-parameters
 * from the current values and fit.nstarts random starts. */
static int refit_full(bo_state *s, char *err, size_t errlen)
{
    size_t n = s->nok;
    int rc = rewarp(s, err, errlen);
    if (rc < 0)
        return rc;
    rc = cutune_gp_fit(s->gp, &s->fit, s->rng, err, errlen);
    if (rc < 0)
        return rc;
    s->in_gp = n;
    s->fit_n = n;
    s->full_n = n;
    return 0;
}

/* Warm refit: append the new points, then one BFGS run from the current optimum; the
 * result replaces the model only when it gains more than BO_MIN_GAIN nats of (penalised)
 * likelihood. The likelihood surface moves little with one more point, and an
 * insignificant change of hyper-parameters is not worth a new factor and an O(m n^2)
 * rebuild of the prediction cache. */
static int refit_warm(bo_state *s, char *err, size_t errlen)
{
    int rc =
        s->warp_kind != CUTUNE_GP_WARP_NONE ? rewarp(s, err, errlen) : gp_catch_up(s, err, errlen);
    if (rc < 0)
        return rc;
    cutune_gp_fit_options o = s->fit;
    o.nstarts = 0;
    size_t it = s->nok > BO_WARM_LATE ? BO_WARM_ITER_LATE : BO_WARM_ITER;
    if (o.max_iter > it)
        o.max_iter = it;
    o.min_gain = BO_MIN_GAIN;
    rc = cutune_gp_fit(s->gp, &o, s->rng, err, errlen);
    if (rc < 0)
        return rc;
    s->fit_n = s->nok;
    return 0;
}

/* The early phase (early=, see the top comment): edge (1) or safe (0). Options given
 * explicitly are left as they are. */
static void set_phase(bo_state *s, int edge)
{
    s->edge = edge;
    if (!s->set_lin)
        s->fit.lin_min = s->fit.lin_max = edge ? BO_EDGE_LIN : 0.0;
    if (!s->set_lprior) {
        s->lprior_mode = edge ? BO_LPRIOR_DIM : BO_LPRIOR_AUTO;
        s->lprior_now = -1; /* auto: set by the next sync */
    }
    if (!s->set_lweak)
        s->lweak_max = edge ? 0 : BO_LOCAL_WEAK;
}

static int sync_model(bo_state *s, char *err, size_t errlen)
{
    /* early=auto drops the edge phase for good when most evaluations fail: the ends of
     * the ranges are then mostly failures (a Cartesian space whose restrictions the
     * searcher was not given), where the safe phase does better (see the top comment) */
    if (s->edge && s->early == BO_EARLY_AUTO && s->nobs >= s->n_init && 2 * s->nok < s->nobs) {
        set_phase(s, 0);
        s->full_n = 0; /* another objective: refit from scratch */
        s->lgp_n = 0;  /* and the local model (lweak= given explicitly) too */
    }
    if (s->feas_on && s->nobs <= BO_FEAS_PAIRS_MAX &&
        (s->nobs <= BO_FEAS_ALL || (double)s->nobs >= BO_FEAS_GROWTH * (double)s->feas_n)) {
        feas_select_bandwidth(s);
        s->feas_n = s->nobs;
    }
    if (s->nok == 0)
        return 0;
    if (s->lprior_mode == BO_LPRIOR_AUTO) {
        /* Fewer successful points than inputs cannot identify ARD length-scales: the
         * dimension-scaled prior then decides alone, and its long length-scales make a
         * nearly linear model whose EI runs to the edges of the space (measured below
         * random search at 20 evaluations where most of the space fails). The weak prior
         * until nok >= D; the switch changes the objective, so it refits from scratch. */
        int want = s->nok >= s->D;
        if (want != s->lprior_now) {
            int first = s->lprior_now < 0;
            s->lprior_now = want;
            s->fit.ell_prior_mu = want ? s->dim_mu : s->weak_mu;
            s->fit.ell_prior_sd = want ? s->dim_sd : s->weak_sd;
            if (!first && s->full_n)
                return refit_full(s, err, errlen);
        }
    }
    /* Multi-start fits (restandardised) at the first fit and whenever the count has
     * doubled (up to BO_FULL_MAX); warm refits after every observation up to
     * BO_REFIT_ALL, then on a geometric schedule; plain appends in between. */
    if (s->full_n == 0 ||
        (s->nok <= BO_FULL_MAX && (double)s->nok >= BO_FULL_GROWTH * (double)s->full_n))
        return refit_full(s, err, errlen);
    if (s->nok != s->fit_n &&
        (s->nok <= BO_REFIT_ALL || (double)s->nok >= BO_REFIT_GROWTH * (double)s->fit_n))
        return refit_warm(s, err, errlen);
    return gp_catch_up(s, err, errlen);
}

/* ---------- candidate scoring ---------- */

typedef struct best_pick {
    double score;
    long long id;
    double mu; /* predicted standardised mean at the pick */
} best_pick;

static double acq_score(const bo_state *s, double mu, double var, double p, double fbest)
{
    double sd = sqrt(var), sc;
    switch (s->acq) {
    case ACQ_PI: sc = log(cutune_gp_pi(mu, sd, fbest, s->xi) + 1e-300); break;
    case ACQ_LCB: sc = -cutune_gp_lcb(mu, sd, s->beta); break;
    case ACQ_EI:
    default: sc = cutune_gp_log_ei(mu, sd, fbest, s->xi); break;
    }
    return s->feas_on ? sc + log(p) : sc;
}

static int score_block(bo_state *s, const cutune_gp *gp, size_t nb, double fbest, best_pick *bp,
                       char *err, size_t errlen)
{
    int rc = cutune_gp_predict(gp, s->bx, nb, s->bmu, s->bvar, err, errlen);
    if (rc < 0)
        return rc;
    for (size_t b = 0; b < nb; b++) {
        double p = s->feas_on ? feas_at(s, s->bx + b * s->D, (size_t)-1) : 1.0;
        double sc = acq_score(s, s->bmu[b], s->bvar[b], p, fbest);
        if (sc > bp->score || (sc == bp->score && (long long)s->bid[b] < bp->id) || bp->id < 0) {
            if (!isnan(sc) || bp->id < 0) {
                bp->score = isnan(sc) ? -INFINITY : sc;
                bp->id = (long long)s->bid[b];
                bp->mu = s->bmu[b];
            }
        }
    }
    return 0;
}

static int pool_add(bo_state *s, size_t id)
{
    if (s->npool == s->cappool) {
        size_t nc = s->cappool ? 2 * s->cappool : 1024;
        size_t *p = realloc(s->pool, nc * sizeof *p);
        if (!p)
            return CUTUNE_ENOMEM;
        s->pool = p;
        s->cappool = nc;
    }
    s->pool[s->npool++] = id;
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Pool for spaces above exact_m (BO_EXACT): pool_m (BO_POOL) configurations drawn
 * uniformly without replacement + the neighbours of the BO_POOL_TOP best, sorted by id; the
 * prediction cache and the feasibility sums are rebuilt over it. Redrawn only when the GP was
 * refactorised (the cache is rebuilt then anyway), so a pool costs no extra O(m n^2). */
static int build_pool(bo_state *s)
{
    s->npool = 0;
    size_t want = s->pool_m < s->size ? s->pool_m : s->size;
    if (s->perm) { /* partial Fisher-Yates: a uniform subset whatever the current order */
        for (size_t i = 0; i < want; i++) {
            size_t j = i + uniform_below(s->rng, s->size - i);
            size_t t = s->perm[i];
            s->perm[i] = s->perm[j];
            s->perm[j] = t;
            /* the element drawn into place i (until stop 16 the one moved out of it: the
             * first pool was then ids 0..want-1, and later ones held repeats) */
            if (pool_add(s, s->perm[i]) < 0)
                return CUTUNE_ENOMEM;
        }
    } else {
        for (size_t i = 0; i < want; i++)
            if (pool_add(s, uniform_below(s->rng, s->size)) < 0)
                return CUTUNE_ENOMEM;
    }
    /* indices of the BO_POOL_TOP fastest ok observations (partial selection) */
    size_t top[BO_POOL_TOP], ntop = 0;
    for (size_t i = 0; i < s->nok; i++) {
        size_t pos = ntop < BO_POOL_TOP ? ntop++ : BO_POOL_TOP;
        if (pos == BO_POOL_TOP) {
            if (s->ok_logt[i] >= s->ok_logt[top[BO_POOL_TOP - 1]])
                continue;
            pos = BO_POOL_TOP - 1;
        }
        while (pos > 0 && s->ok_logt[top[pos - 1]] > s->ok_logt[i]) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = i;
    }
    size_t okseen = 0;
    for (size_t t = 0; t < ntop; t++) {
        /* map the ok index back to its id */
        size_t wanted = top[t], id = 0;
        okseen = 0;
        for (size_t i = 0; i < s->nobs; i++)
            if (s->obs_ok[i] && okseen++ == wanted) {
                id = s->obs_id[i];
                break;
            }
        size_t nn = cutune_space_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, NULL, 0);
        size_t base = s->npool;
        for (size_t i = 0; i < nn; i++)
            if (pool_add(s, 0) < 0)
                return CUTUNE_ENOMEM;
        cutune_space_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, s->pool + base, nn);
    }
    qsort(s->pool, s->npool, sizeof *s->pool, cmp_size);
    size_t w = 0;
    for (size_t i = 0; i < s->npool; i++)
        if (i == 0 || s->pool[i] != s->pool[i - 1])
            s->pool[w++] = s->pool[i];
    s->npool = w;
    /* encodings, cache and feasibility sums over the new pool */
    cutune_gp_cache_free(s->cache);
    s->cache = NULL;
    double *px = realloc(s->pool_x, s->npool * s->D * sizeof *px);
    if (!px)
        return CUTUNE_ENOMEM;
    s->pool_x = px;
    for (size_t i = 0; i < s->npool; i++)
        encode(s, s->pool[i], s->pool_x + i * s->D);
    double *fn = realloc(s->fnum, s->npool * sizeof *fn);
    if (fn)
        s->fnum = fn;
    double *fd = realloc(s->fden, s->npool * sizeof *fd);
    if (fd)
        s->fden = fd;
    uint16_t *ci = realloc(s->cidx, s->npool * s->d * sizeof *ci);
    if (ci)
        s->cidx = ci;
    s->cache = cutune_gp_cache_alloc(s->pool_x, s->npool, s->D);
    if (!fn || !fd || !ci || !s->cache)
        return CUTUNE_ENOMEM;
    for (size_t i = 0; i < s->npool; i++)
        for (size_t j = 0; j < s->d; j++)
            s->cidx[i * s->d + j] = cutune_space_config(s->space, s->pool[i])[s->active[j]];
    s->cm = s->npool;
    memset(s->fnum, 0, s->cm * sizeof *s->fnum);
    memset(s->fden, 0, s->cm * sizeof *s->fden);
    s->fe_n = 0;
    s->pool_gen = cutune_gp_generation(s->gp);
    return 0;
}

/* Maximise the acquisition over ids[0..nids) (ids NULL: every configuration). */
/* Local candidates: the unvisited neighbours (any one parameter changed) of the
 * BO_LOCAL_TOP fastest configurations found, in s->local. */
static int build_local(bo_state *s)
{
    s->nlocal = 0;
    size_t top[BO_LOCAL_TOP], ntop = 0;
    for (size_t i = 0; i < s->nobs; i++) {
        if (!s->obs_ok[i])
            continue;
        size_t pos = ntop < BO_LOCAL_TOP ? ntop++ : BO_LOCAL_TOP;
        double t = s->obs_t[i];
        if (pos == BO_LOCAL_TOP) {
            if (t >= s->obs_t[top[BO_LOCAL_TOP - 1]])
                continue;
            pos = BO_LOCAL_TOP - 1;
        }
        while (pos > 0 && s->obs_t[top[pos - 1]] > t) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = i;
    }
    for (size_t t = 0; t < ntop; t++) {
        size_t id = s->obs_id[top[t]];
        size_t nn = cutune_space_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, NULL, 0);
        if (s->nlocal + nn > s->caplocal) {
            size_t nc = 2 * (s->nlocal + nn);
            size_t *p = realloc(s->local, nc * sizeof *p);
            if (!p)
                return CUTUNE_ENOMEM;
            s->local = p;
            s->caplocal = nc;
        }
        cutune_space_neighbours(s->space, id, CUTUNE_NEIGHBOUR_ANY, s->local + s->nlocal, nn);
        s->nlocal += nn;
    }
    return 0;
}

/* Best candidate by the acquisition of gp (s->gp, through the prediction cache where it
 * covers the candidates, or the local steps' lgp) over ids[0..nids), or over every
 * configuration / the pool when ids is NULL. */
static int maximise(bo_state *s, const cutune_gp *gp, const size_t *ids, size_t nids, double fbest,
                    best_pick *bp, char *err, size_t errlen)
{
    bp->score = -INFINITY;
    bp->id = -1;
    bp->mu = 0.0;
    if (gp == s->gp && s->cache && (!ids || !s->pooled)) {
        int rc = cutune_gp_cache_sync(s->cache, s->gp, err, errlen);
        if (rc < 0)
            return rc;
        if (s->feas_on)
            feas_sync(s);
        const double *mu = cutune_gp_cache_mean(s->cache), *var = cutune_gp_cache_var(s->cache);
        /* candidate index c: id c (exhaustive) or pool[c] (ascending), ids[i] (local) */
        size_t total = ids ? nids : s->cm;
        for (size_t i = 0; i < total; i++) {
            size_t id = ids ? ids[i] : s->pooled ? s->pool[i] : i, c = ids ? id : i;
            if (excluded(s, id))
                continue;
            double p = s->feas_on ? feas_cached(s, c) : 1.0;
            double sc = acq_score(s, mu[c], var[c], p, fbest);
            if (isnan(sc))
                sc = -INFINITY;
            if (bp->id < 0 || sc > bp->score) {
                bp->score = sc;
                bp->id = (long long)id;
                bp->mu = mu[c];
            }
        }
        return 0;
    }
    size_t total = ids ? nids : s->size, nb = 0;
    for (size_t i = 0; i < total; i++) {
        size_t id = ids ? ids[i] : i;
        if (excluded(s, id))
            continue;
        s->bid[nb] = id;
        encode(s, id, s->bx + nb * s->D);
        if (++nb == BO_BLOCK) {
            int rc = score_block(s, gp, nb, fbest, bp, err, errlen);
            if (rc < 0)
                return rc;
            nb = 0;
        }
    }
    if (nb)
        return score_block(s, gp, nb, fbest, bp, err, errlen);
    return 0;
}

/* The model of the local steps. While few points are held (lweak=, BO_LOCAL_WEAK) and the
 * dimension-scaled prior is in force for the main model, a second GP on the BO_LOCAL_FIT
 * ok points nearest the best one (the main model's targets), fitted under the weak prior
 * (short length-scales), scores the neighbourhood of the best configurations; otherwise
 * the main model does. It is not given the batch's fantasies (a later pick of the same
 * batch only avoids the pending ids). The two priors then serve where
 * each is safe: long length-scales extrapolate trends toward the ends of the ranges, where
 * GPU optima often sit (global steps), and short ones exploit what was seen near the best
 * point (local steps) instead of following the trend past it, which is what the main model
 * does on a space whose optimum is inside the box (benchmarks/bo/README.md, section 12).
 * Refitted (weak prior, one random start besides the last fit) whenever the ok count has
 * changed. *model = s->gp or s->lgp; returns 0 or a negative code with err set. */
static int local_model(bo_state *s, const cutune_gp **model, char *err, size_t errlen)
{
    int dim_now =
        s->lprior_mode == BO_LPRIOR_DIM || (s->lprior_mode == BO_LPRIOR_AUTO && s->lprior_now == 1);
    *model = s->gp;
    if (!dim_now || s->nok > s->lweak_max || s->nok < 2)
        return 0;
    if (s->lgp_n == s->nok) {
        *model = s->lgp;
        return 0;
    }
    if (!s->lgp && !(s->lgp = cutune_gp_alloc(s->D, s->kernel)))
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
    size_t n = s->nok, D = s->D, K = n < BO_LOCAL_FIT ? n : BO_LOCAL_FIT, ib = 0;
    for (size_t i = 1; i < n; i++)
        if (s->ok_logt[i] < s->ok_logt[ib])
            ib = i;
    double *dist = malloc(n * sizeof *dist), *X = malloc(K * D * sizeof *X);
    double *y = malloc(K * sizeof *y);
    size_t *ord = malloc(n * sizeof *ord);
    int rc = 0;
    if (!dist || !X || !y || !ord) {
        rc = cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
        goto out;
    }
    /* the K ok points nearest the best (itself included), ties to the earlier point */
    for (size_t i = 0; i < n; i++) {
        dist[i] = sqdist(s->ok_x + ib * D, s->ok_x + i * D, D);
        ord[i] = i;
    }
    for (size_t a = 0; a < K; a++)
        for (size_t b = a + 1; b < n; b++)
            if (dist[ord[b]] < dist[ord[a]] || (dist[ord[b]] == dist[ord[a]] && ord[b] < ord[a])) {
                size_t t = ord[a];
                ord[a] = ord[b];
                ord[b] = t;
            }
    for (size_t a = 0; a < K; a++) {
        memcpy(X + a * D, s->ok_x + ord[a] * D, D * sizeof *X);
        y[a] = cutune_gp_warp_apply(&s->warp, s->ok_logt[ord[a]]);
    }
    rc = cutune_gp_set_data(s->lgp, X, y, K, err, errlen);
    cutune_gp_fit_options o = s->fit;
    o.ell_prior_mu = s->weak_mu;
    o.ell_prior_sd = s->weak_sd;
    o.nstarts = 1;
    o.min_gain = 0.0;
    if (rc < 0 || (rc = cutune_gp_fit(s->lgp, &o, s->rng, err, errlen)) < 0)
        goto out;
    s->lgp_n = n;
    *model = s->lgp;
out:
    free(dist);
    free(X);
    free(y);
    free(ord);
    return rc;
}

/* ---------- proposals ---------- */

/* Best of BO_MAXIMIN_TRIES random available ids by distance to everything evaluated or
 * pending (weighted by P(success) once failures are known). */
static long long maximin_pick(bo_state *s)
{
    long long best = -1;
    double bestv = -1.0;
    double *x = s->bx, *y = s->bx + s->D;
    for (size_t t = 0; t < BO_MAXIMIN_TRIES; t++) {
        long long id = random_available(s);
        if (id < 0)
            break;
        encode(s, (size_t)id, x);
        double md = INFINITY;
        for (size_t i = 0; i < s->nobs; i++) {
            double dd = sqdist(x, s->obs_x + i * s->D, s->D);
            if (dd < md)
                md = dd;
        }
        for (size_t i = 0; i < s->npending; i++) {
            encode(s, s->pending[i], y);
            double dd = sqdist(x, y, s->D);
            if (dd < md)
                md = dd;
        }
        if (md == INFINITY)
            return id; /* the very first point: uniform */
        double v = sqrt(md) * (s->feas_on ? feas_at(s, x, (size_t)-1) : 1.0);
        if (v > bestv) {
            bestv = v;
            best = id;
        }
    }
    return best;
}

/* design=lhs: the best (maximin) of BO_LHS_DESIGNS random Latin hypercubes of n_init
 * points in the d encoded dimensions: every parameter's range is split into n_init
 * strata, each used once, so the design covers each parameter's middle as well as its
 * ends (best-candidate maximin drifts to the corners of the space). */
#define BO_LHS_DESIGNS 32
static int lhs_make(bo_state *s)
{
    size_t n = s->n_init, d = s->d;
    double *cand = malloc(n * d * sizeof *cand);
    size_t *perm = malloc(n * sizeof *perm);
    s->lhs = malloc(n * d * sizeof *s->lhs);
    if (!cand || !perm || !s->lhs) {
        free(cand);
        free(perm);
        free(s->lhs);
        s->lhs = NULL;
        return CUTUNE_ENOMEM;
    }
    double best = -1.0;
    for (int rep = 0; rep < BO_LHS_DESIGNS; rep++) {
        for (size_t j = 0; j < d; j++) {
            for (size_t i = 0; i < n; i++)
                perm[i] = i;
            for (size_t i = n; i > 1; i--) {
                size_t r = uniform_below(s->rng, i), t = perm[i - 1];
                perm[i - 1] = perm[r];
                perm[r] = t;
            }
            for (size_t i = 0; i < n; i++)
                cand[i * d + j] = ((double)perm[i] + gsl_rng_uniform(s->rng)) / (double)n;
        }
        double md = INFINITY;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                double dd = sqdist(cand + a * d, cand + b * d, d);
                if (dd < md)
                    md = dd;
            }
        if (md > best) {
            best = md;
            memcpy(s->lhs, cand, n * d * sizeof *cand);
        }
    }
    free(cand);
    free(perm);
    return 0;
}

/* The available configuration nearest to design target t, of BO_MAXIMIN_TRIES random
 * ones (maximin_pick once the design is used up or could not be made). */
static long long lhs_pick(bo_state *s, size_t t)
{
    if (!s->lhs && lhs_make(s) < 0)
        return maximin_pick(s);
    if (t >= s->n_init)
        return maximin_pick(s);
    const double *target = s->lhs + t * s->d;
    long long best = -1;
    double bestv = INFINITY;
    for (size_t k = 0; k < BO_MAXIMIN_TRIES; k++) {
        long long id = random_available(s);
        if (id < 0)
            break;
        encode(s, (size_t)id, s->bx);
        double dd = sqdist(s->bx, target, s->d);
        if (dd < bestv) {
            bestv = dd;
            best = id;
        }
    }
    return best;
}

static int bo_propose(void *state, size_t k, size_t *out, size_t *n, char *err, size_t errlen)
{
    bo_state *s = state;
    int rc = 0;
    *n = 0;
    s->npending = 0; /* earlier proposals are answered by now (or abandoned) */
    if (s->nok >= 2 && s->nobs >= s->n_init) {
        rc = sync_model(s, err, errlen);
        if (rc < 0)
            return rc;
    }
    if (s->pooled && s->nok >= 2 && s->nobs >= s->n_init &&
        (!s->cache || cutune_gp_generation(s->gp) != s->pool_gen) && (rc = build_pool(s)) < 0)
        return cutune_err(err, errlen, rc, "bo: out of memory for the candidate pool");
    size_t base = cutune_gp_n(s->gp); /* fantasies beyond it are dropped on every exit */
    if (k > 1 && s->cache && s->nok >= 2 && s->nobs >= s->n_init) {
        if ((rc = cutune_gp_cache_sync(s->cache, s->gp, err, errlen)) < 0 ||
            (rc = cutune_gp_cache_snapshot(s->cache, err, errlen)) < 0)
            return rc;
    }
    for (size_t j = 0; j < k; j++) {
        long long id;
        if (s->nok < 2 || s->nobs + j < s->n_init) {
            id = s->design_lhs && s->nobs + j < s->n_init ? lhs_pick(s, s->nobs + j)
                                                          : maximin_pick(s);
        } else {
            /* best observed so far (fantasies are believed, not counted as found) */
            double fbest = INFINITY;
            for (size_t i = 0; i < s->in_gp; i++) {
                double yi = cutune_gp_warp_apply(&s->warp, s->ok_logt[i]);
                if (yi < fbest)
                    fbest = yi;
            }
            best_pick bp;
            const size_t *ids = NULL;
            size_t nids = 0;
            /* every 1/local_frac-th model-based proposal: the neighbourhood of the best */
            s->nmodel++;
            if (s->local_frac > 0.0 &&
                floor(s->nmodel * s->local_frac) > floor((s->nmodel - 1) * s->local_frac)) {
                if ((rc = build_local(s)) < 0) {
                    rc = cutune_err(err, errlen, rc, "bo: out of memory");
                    goto out_truncate; /* the batch's fantasies so far are dropped too */
                }
                size_t avail = 0;
                for (size_t i = 0; i < s->nlocal && !avail; i++)
                    avail = !excluded(s, s->local[i]);
                if (avail) {
                    ids = s->local;
                    nids = s->nlocal;
                }
            }
            const cutune_gp *model = s->gp;
            if (ids && (rc = local_model(s, &model, err, errlen)) < 0)
                goto out_truncate;
            rc = maximise(s, model, ids, nids, fbest, &bp, err, errlen);
            if (rc < 0)
                goto out_truncate;
            id = bp.id;
            if (id >= 0 && j + 1 < k) {
                double *x = s->bx, mu = bp.mu;
                encode(s, (size_t)id, x);
                /* the believer's fantasy is the main model's own mean (a pick of the local
                 * model carries that model's) */
                if (model != s->gp &&
                    (rc = cutune_gp_predict(s->gp, x, 1, &mu, NULL, err, errlen)) < 0)
                    goto out_truncate;
                rc = cutune_gp_add(s->gp, x, mu, err, errlen);
                if (rc < 0)
                    goto out_truncate;
            }
            if (id < 0 && s->pooled)
                id = random_available(s); /* the whole pool is visited */
        }
        if (id < 0)
            break;
        if ((rc = push_pending(s, (size_t)id)) < 0) {
            rc = cutune_err(err, errlen, rc, "bo: out of memory");
            goto out_truncate;
        }
        out[(*n)++] = (size_t)id;
    }
out_truncate:
    if (cutune_gp_n(s->gp) > base) {
        int rc2 = cutune_gp_truncate(s->gp, base, err, errlen);
        if (rc == 0)
            rc = rc2;
    }
    return rc;
}

static int grow_obs(bo_state *s)
{
    if (s->nobs < s->capobs)
        return 0;
    size_t nc = s->capobs ? 2 * s->capobs : 64;
    size_t *id = realloc(s->obs_id, nc * sizeof *id);
    if (!id)
        return CUTUNE_ENOMEM;
    s->obs_id = id;
    uint8_t *ok = realloc(s->obs_ok, nc);
    if (!ok)
        return CUTUNE_ENOMEM;
    s->obs_ok = ok;
    double *ox = realloc(s->obs_x, nc * s->D * sizeof *ox);
    if (!ox)
        return CUTUNE_ENOMEM;
    s->obs_x = ox;
    double *kx = realloc(s->ok_x, nc * s->D * sizeof *kx);
    if (!kx)
        return CUTUNE_ENOMEM;
    s->ok_x = kx;
    double *ot = realloc(s->obs_t, nc * sizeof *ot);
    if (!ot)
        return CUTUNE_ENOMEM;
    s->obs_t = ot;
    double *kt = realloc(s->ok_logt, nc * sizeof *kt);
    if (!kt)
        return CUTUNE_ENOMEM;
    s->ok_logt = kt;
    s->capobs = nc;
    return 0;
}

static int bo_observe(void *state, const cutune_observation *obs, size_t n, char *err,
                      size_t errlen)
{
    bo_state *s = state;
    for (size_t i = 0; i < n; i++) {
        size_t id = obs[i].id;
        if (id >= s->size)
            return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: observed id %zu outside the space",
                              id);
        for (size_t p = 0; p < s->npending; p++)
            if (s->pending[p] == id) {
                s->pending[p] = s->pending[--s->npending];
                break;
            }
        if (hash_has(s, id))
            continue; /* a duplicate answer: nothing new */
        if (grow_obs(s) < 0 || hash_put(s, id) < 0)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
        int ok =
            obs[i].status == CUTUNE_STATUS_OK && isfinite(obs[i].time_ms) && obs[i].time_ms > 0.0;
        s->obs_id[s->nobs] = id;
        s->obs_ok[s->nobs] = (uint8_t)ok;
        s->obs_t[s->nobs] = ok ? obs[i].time_ms : NAN;
        encode(s, id, s->obs_x + s->nobs * s->D);
        if (ok) {
            memcpy(s->ok_x + s->nok * s->D, s->obs_x + s->nobs * s->D, s->D * sizeof(double));
            s->ok_logt[s->nok++] = log(obs[i].time_ms);
        } else if (!s->feas_on) {
            s->feas_on = 1;
            double h = 0.15 * sqrt((double)s->d);
            for (size_t j = 0; j < s->d; j++) {
                s->fw[j] = 1.0 / (2.0 * h * h);
                s->fw_used[j] = -1.0;
            }
        }
        s->nobs++;
    }
    return 0;
}

/* ---------- options, alloc, free ---------- */

static const char valid_keys[] =
    "acq, xi, beta, kernel, init, starts, local, pool, pow2, warp, lprior, design, add, lin, "
    "lweak, early";

/* A kernel-term weight option (add=, lin=): "fit" fits it in [fit_min, max], a number in
 * [0, max] fixes it. */
static int parse_weight(const char *key, const char *val, double fit_min, double max, double *lo,
                        double *hi, char *err, size_t errlen)
{
    if (strcmp(val, "fit") == 0) {
        *lo = fit_min;
        *hi = max;
        return 0;
    }
    char *end = NULL;
    double v = strtod(val, &end);
    if (end == val || *end || !(v >= 0.0 && v <= max))
        return cutune_err(err, errlen, CUTUNE_EINVAL,
                          "bo: %s=%s is neither 'fit' nor a weight in [0, %g]", key, val, max);
    *lo = *hi = v;
    return 0;
}

/* A key that names one of a list: its index in names (NULL-terminated), or an error
 * listing them. */
static int parse_choice(const char *key, const char *val, const char *const *names, int *out,
                        char *err, size_t errlen)
{
    char valid[128] = "";
    for (int i = 0; names[i]; i++) {
        if (strcmp(val, names[i]) == 0) {
            *out = i;
            return 0;
        }
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", i ? ", " : "",
                 names[i]);
    }
    return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: %s=%s unknown (valid: %s)", key, val, valid);
}

static int parse_args(bo_state *s, const char *args, char *err, size_t errlen)
{
    if (!args || !*args)
        return 0;
    char buf[512];
    if (strlen(args) >= sizeof buf)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: options too long");
    strcpy(buf, args);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "bo: option '%s' is not key=value (valid keys: %s)", tok, valid_keys);
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        char *end = NULL;
        int choice = 0, rc = 0;
        if (strcmp(key, "acq") == 0) { /* in the order of enum bo_acq */
            static const char *const names[] = {"ei", "pi", "lcb", NULL};
            if ((rc = parse_choice(key, val, names, &choice, err, errlen)) < 0)
                return rc;
            s->acq = (enum bo_acq)choice;
        } else if (strcmp(key, "kernel") == 0) {
            int kk = cutune_gp_kernel_from_name(val);
            if (kk < 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: kernel=%s unknown (valid: matern52, matern32, se)", val);
            s->kernel = (cutune_gp_kernel)kk;
        } else if (strcmp(key, "warp") == 0) {
            int w = cutune_gp_warp_from_name(val);
            if (w < 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: warp=%s unknown (valid: none, boxcox, copula)", val);
            s->warp_kind = (cutune_gp_warp_kind)w;
        } else if (strcmp(key, "design") == 0) {
            static const char *const names[] = {"maximin", "lhs", NULL};
            if ((rc = parse_choice(key, val, names, &choice, err, errlen)) < 0)
                return rc;
            s->design_lhs = choice;
        } else if (strcmp(key, "early") == 0) { /* in the order of BO_EARLY_* */
            static const char *const names[] = {"auto", "safe", "edge", NULL};
            if ((rc = parse_choice(key, val, names, &s->early, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "lprior") == 0) { /* in the order of BO_LPRIOR_* */
            static const char *const names[] = {"weak", "dim", "auto", NULL};
            s->set_lprior = 1;
            if ((rc = parse_choice(key, val, names, &s->lprior_mode, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "local") == 0) {
            double v = strtod(val, &end);
            if (end == val || *end || !(v >= 0.0 && v <= 1.0))
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: local=%s is not a fraction in [0,1]", val);
            s->local_frac = v;
        } else if (strcmp(key, "xi") == 0 || strcmp(key, "beta") == 0) {
            double v = strtod(val, &end);
            if (end == val || *end || !isfinite(v) || v < 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: %s=%s is not a non-negative number", key, val);
            if (key[0] == 'x')
                s->xi = v;
            else
                s->beta = v;
        } else if (strcmp(key, "pow2") == 0) {
            if (strcmp(val, "0") && strcmp(val, "1"))
                return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: pow2=%s is not 0 or 1", val);
            s->pow2 = val[0] == '1';
        } else if (strcmp(key, "pool") == 0) {
            long v = strtol(val, &end, 10);
            if (end == val || *end || v < 16 || v > 100000000)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: pool=%s is not a count in [16, 1e8]", val);
            s->exact_m = s->pool_m = (size_t)v;
        } else if (strcmp(key, "add") == 0) {
            rc = parse_weight(key, val, 0.0, BO_ADD_MAX, &s->fit.add_min, &s->fit.add_max, err,
                              errlen);
            if (rc < 0)
                return rc;
        } else if (strcmp(key, "lin") == 0) {
            s->set_lin = 1;
            rc = parse_weight(key, val, BO_LIN_FIT_MIN, BO_LIN_MAX, &s->fit.lin_min,
                              &s->fit.lin_max, err, errlen);
            if (rc < 0)
                return rc;
        } else if (strcmp(key, "init") == 0 || strcmp(key, "starts") == 0 ||
                   strcmp(key, "lweak") == 0) {
            long v = strtol(val, &end, 10);
            if (end == val || *end || v < 0 || v > 100000)
                return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: %s=%s is not a count", key, val);
            if (key[0] == 'i')
                s->n_init = (size_t)v;
            else if (key[0] == 's')
                s->fit.nstarts = (size_t)v;
            else {
                s->lweak_max = (size_t)v;
                s->set_lweak = 1;
            }
        } else {
            return cutune_err(err, errlen, CUTUNE_EINVAL,
                              "bo: unknown option '%s' (valid keys: %s)", key, valid_keys);
        }
    }
    return 0;
}

static void bo_free(void *state)
{
    bo_state *s = state;
    cutune_gp_cache_free(s->cache);
    cutune_gp_free(s->gp);
    cutune_gp_free(s->lgp);
    free(s->fnum);
    free(s->fden);
    free(s->fw);
    free(s->fw_used);
    free(s->active);
    free(s->full);
    free(s->enc);
    free(s->lhs);
    free(s->obs_id);
    free(s->obs_ok);
    free(s->obs_x);
    free(s->ok_x);
    free(s->ok_logt);
    free(s->hash);
    free(s->pending);
    free(s->bx);
    free(s->bid);
    free(s->bmu);
    free(s->bvar);
    free(s->bp);
    free(s->pool);
    free(s->pool_x);
    free(s->nv);
    free(s->ftoff);
    free(s->ftab);
    free(s->cidx);
    free(s->p2dim);
    free(s->p2off);
    free(s->p2v);
    free(s->perm);
    free(s->local);
    free(s->obs_t);
    cutune_gp_warp_free(&s->warp);
}

static int bo_alloc(void *state, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{
    bo_state *s = state;
    int rc = 0;
    if (!ctx || !ctx->space || !ctx->rng)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: needs a space and a generator");
    openblas_set_num_threads(1);
    s->space = ctx->space;
    s->rng = ctx->rng;
    s->visited = ctx->visited;
    s->budget = ctx->budget;
    s->size = cutune_space_size(ctx->space);
    s->np = cutune_space_nparams(ctx->space);
    if (s->size == 0)
        return cutune_err(err, errlen, CUTUNE_EEMPTY, "bo: the space is empty");
    s->acq = ACQ_EI;
    s->xi = 0.01;
    s->beta = 2.0;
    s->kernel = CUTUNE_GP_MATERN52;
    s->local_frac = 1.0 / 3.0;
    s->lweak_max = BO_LOCAL_WEAK;
    s->exact_m = BO_EXACT;
    s->pool_m = BO_POOL;
    s->pow2 = 0;
    s->warp_kind = CUTUNE_GP_WARP_BOXCOX;
    s->lprior_mode = BO_LPRIOR_AUTO;
    s->lprior_now = -1;
    size_t b40 = s->budget / 40;
    s->n_init = b40 < 5 ? 5 : b40 > 10 ? 10 : b40;
    cutune_gp_fit_options_default(&s->fit);
    /* Length-scales below ~the value spacing of a parameter (1/(n-1) in the encoding)
     * make the GP a lookup table that says nothing about unvisited neighbours; with 60
     * points in 15 dimensions the likelihood happily goes there. 0.1 = a tenth of each
     * parameter's range (measured: GEMM recordings 0.95-0.97 -> 0.975-0.99 at 60). */
    s->fit.ell_min = 0.1;
    /* A noise floor of 1e-3 (standardised log time, ~0.03 sd): repeated GPU timings
     * scatter by a few per cent, and the GP cannot represent every discrete effect of a
     * parameter, so a small nugget keeps it from interpolating exactly (measured, 50 seeds
     * at B = 60 on GEMM P100 / AMD Vega / TitanX / RTX 2070 and convolution P100: 0.980 /
     * 0.956 / 0.969 / 0.962 / 0.936 with 1e-6, 0.986 / 0.957 / 0.982 / 0.957 / 0.931 with
     * 1e-3, 0.976 / 0.936 / 0.956 / 0.950 / 0.931 with 1e-2: more smoothing hurts GEMM). */
    s->fit.sn2_min = 1e-3;
    if ((rc = parse_args(s, ctx->args, err, errlen)) < 0)
        return rc;
    /* The early phase by the budget (early=auto; see the top comment): edge-seeking when
     * the run can afford to recover from a wrong edge. Options given explicitly win. */
    if (s->early == BO_EARLY_EDGE || (s->early == BO_EARLY_AUTO && s->budget >= BO_EDGE_BUDGET))
        set_phase(s, 1);

    s->active = malloc((s->np ? s->np : 1) * sizeof *s->active);
    s->full = malloc((s->np ? s->np : 1) * sizeof *s->full);
    if (!s->active || !s->full)
        goto out_nomem;
    for (size_t p = 0; p < s->np; p++)
        if (cutune_space_param(ctx->space, p)->nvalues > 1)
            s->active[s->d++] = p;
    if (s->d == 0) /* a single configuration: keep one constant dimension */
        s->active[s->d++] = 0;
    s->nv = malloc(s->d * sizeof *s->nv);
    s->ftoff = malloc(s->d * sizeof *s->ftoff);
    if (!s->nv || !s->ftoff)
        goto out_nomem;
    size_t ftn = 0;
    for (size_t j = 0; j < s->d; j++) {
        s->nv[j] = cutune_space_param(ctx->space, s->active[j])->nvalues;
        s->ftoff[j] = ftn;
        ftn += s->nv[j] * s->nv[j];
    }
    s->ftab = malloc(ftn * sizeof *s->ftab);
    if (!s->ftab)
        goto out_nomem;
    /* power-of-two indicators (see the top comment) */
    s->D = s->d;
    s->p2dim = malloc(s->d * sizeof *s->p2dim);
    s->p2off = malloc(s->d * sizeof *s->p2off);
    s->p2v = malloc(ftn * sizeof *s->p2v + 1);
    if (!s->p2dim || !s->p2off || !s->p2v)
        goto out_nomem;
    for (size_t j = 0, off = 0; j < s->d && s->pow2; j++) {
        const cutune_param *pr = cutune_space_param(ctx->space, s->active[j]);
        size_t npw = 0, nint = 0;
        for (size_t a = 0; a < pr->nvalues; a++) {
            double v = cutune_value_as_double(&pr->values[a]);
            int isint = isfinite(v) && v >= 1.0 && v == floor(v) && v < 9.0e15;
            nint += isint;
            if (isint) {
                long long iv = (long long)v;
                s->p2v[off + a] = (iv & (iv - 1)) == 0 ? 1.0 : 0.0;
                npw += (iv & (iv - 1)) == 0;
            }
        }
        if (nint == pr->nvalues && npw >= 2 && nint - npw >= 2) {
            s->p2dim[s->np2] = j;
            s->p2off[s->np2++] = off;
            off += pr->nvalues;
        }
    }
    s->D = s->d + s->np2;
    /* Hvarfner et al. 2024: log ell ~ N(sqrt 2 + log(D) / 2, 3) */
    s->weak_mu = s->fit.ell_prior_mu;
    s->weak_sd = s->fit.ell_prior_sd;
    s->dim_mu = sqrt(2.0) + 0.5 * log((double)s->D);
    s->dim_sd = sqrt(3.0);
    if (s->lprior_mode == BO_LPRIOR_DIM) {
        s->fit.ell_prior_mu = s->dim_mu;
        s->fit.ell_prior_sd = s->dim_sd;
    }
    s->gp = cutune_gp_alloc(s->D, s->kernel);
    s->bx = malloc(BO_BLOCK * s->D * sizeof *s->bx);
    s->bid = malloc(BO_BLOCK * sizeof *s->bid);
    s->bmu = malloc(BO_BLOCK * sizeof *s->bmu);
    s->bvar = malloc(BO_BLOCK * sizeof *s->bvar);
    s->bp = malloc(BO_BLOCK * sizeof *s->bp);
    s->fw = malloc(s->d * sizeof *s->fw);
    s->fw_used = malloc(s->d * sizeof *s->fw_used);
    if (!s->fw || !s->fw_used || !s->gp || !s->bx || !s->bid || !s->bmu || !s->bvar || !s->bp)
        goto out_nomem;
    if ((double)s->size * (double)s->D <= BO_ENCODE_CACHE) {
        s->enc = malloc(s->size * s->D * sizeof *s->enc);
        if (!s->enc)
            goto out_nomem;
        for (size_t id = 0; id < s->size; id++) {
            cutune_space_encode(s->space, id, s->full);
            for (size_t j = 0; j < s->d; j++)
                s->enc[id * s->D + j] = s->full[s->active[j]];
            const uint16_t *row = cutune_space_config(s->space, id);
            for (size_t e = 0; e < s->np2; e++)
                s->enc[id * s->D + s->d + e] = s->p2v[s->p2off[e] + row[s->active[s->p2dim[e]]]];
        }
    }
    /* Exhaustive scoring reads the cached encoding (a pool= above BO_ENCODE_CACHE / dim
     * would otherwise leave the cache without candidates), and its prediction cache grows
     * with the observations: a budget that would take it past BO_CACHE_MAX scores a pool
     * instead. */
    if (s->size <= s->exact_m && s->enc &&
        cutune_gp_cache_bytes(s->size, s->budget) <= BO_CACHE_MAX) {
        s->cache = cutune_gp_cache_alloc(s->enc, s->size, s->D);
        s->fnum = calloc(s->size, sizeof *s->fnum);
        s->fden = calloc(s->size, sizeof *s->fden);
        s->cidx = malloc(s->size * s->d * sizeof *s->cidx);
        if (!s->cache || !s->fnum || !s->fden || !s->cidx)
            goto out_nomem;
        s->cm = s->size;
        for (size_t id = 0; id < s->size; id++)
            for (size_t j = 0; j < s->d; j++)
                s->cidx[id * s->d + j] = cutune_space_config(s->space, id)[s->active[j]];
    } else {
        s->pooled = 1; /* cache, fnum, fden: built with the pool */
        /* the pool's cache obeys the same limit (a pool= at or above the size would
         * otherwise rebuild the whole space's cache): at most the candidates that fit,
         * and never fewer than BO_POOL_MIN */
        double fit = BO_CACHE_MAX / cutune_gp_cache_bytes(1, s->budget);
        if ((double)s->pool_m > fit)
            s->pool_m = fit > BO_POOL_MIN ? (size_t)fit : BO_POOL_MIN;
        if (s->size <= BO_PERM_MAX) {
            s->perm = malloc(s->size * sizeof *s->perm);
            if (!s->perm)
                goto out_nomem;
            for (size_t i = 0; i < s->size; i++)
                s->perm[i] = i;
        }
    }
    cutune_gp_warp_free(&s->warp); /* identity until the first fit */
    return 0;
out_nomem:
    bo_free(s);
    memset(s, 0, sizeof *s);
    return cutune_err(err, errlen, CUTUNE_ENOMEM, "bo: out of memory");
}

/* The budget enters only through the design size, the early phase and whether the space
 * is scored whole or through a pool (the prediction cache's size at the budget). */
static uint64_t bo_plan(const void *state)
{
    const bo_state *s = state;
    return (uint64_t)s->n_init << 2 | (uint64_t)(s->pooled != 0) << 1 | (uint64_t)(s->edge != 0);
}

static const cutune_searcher_type bo_type = {
    .version = CUTUNE_SEARCHER_TYPE_VERSION,
    .name = "bo",
    .help = "Bayesian optimisation: GP (Matern 5/2, ARD) on Box-Cox-warped time, EI x P(success)",
    .size = sizeof(bo_state),
    .alloc = bo_alloc,
    .propose = bo_propose,
    .observe = bo_observe,
    .free = bo_free,
    .plan = bo_plan,
};

const cutune_searcher_type *const cutune_searcher_bo = &bo_type;
