/* bo: options.
 *
 * Options (--searcher=bo:key=value,...): acq=ei|pi|lcb, xi= (default 0.01), beta= (LCB,
 * default 2), kernel=matern52|matern32|se, init= (design size), starts= (random starts
 * of the multi-start fits, default 3), local=auto|F (share of local steps; default auto:
 * the larger of 1/3 and the failed share of the global model-based picks; F: fixed),
 * pool= (exhaustive up to / pool size above, default 32768 / 4096), pow2=0|1 (power-of-two
 * inputs, default 0), pairs=0|1 (local steps also try moving two parameters of the best
 * configuration one value each; default: 1 in the edge phase, 0 in the safe one),
 * warp=boxcox|copula|none (output warping, default boxcox), design=maximin|lhs (initial design,
 * default maximin), lprior=auto|dim|weak (length-scale prior, default auto: weak while the
 * successful points are fewer than the model's inputs, then dim), add=fit|W (weight of the
 * second-order additive kernel term, cutune_gp_lml; default 0: off), lin=fit|W (weight of the
 * linear-trend term, cutune_gp_lml; default 0: off), lweak=N (successful points up to which the
 * local steps use the weak-prior model; default 20, 0: off), refit=gain|always (a warm refit
 * replaces the model only when it gains BO_MIN_GAIN nats, or always; default gain),
 * early=safe|edge|auto (the phase: safe = the defaults above, and the default; edge = lin=0.1,
 * lprior=dim, lweak=0, refit=always, pairs=1; auto = edge when the budget is at least
 * BO_EDGE_BUDGET; options given explicitly win), feas=0|1 (the feasibility model; default 1),
 * design=random (uniform draws), preset=plain (the reference searcher of docs/searchers.md: one GP
 * under the dimension-scaled length-scale prior on the standardised log time, log EI with xi = 0
 * over every unvisited candidate, 10 uniform initial points, failures left out of the model and of
 * the acquisition, no phases, no local steps; other options given with it win wherever they stand).
 * transfer=input|design|prior|both|off (what a warm start is used for:
 * bo_warm.c; default input), wdesign=N (source points of the initial design; default
 * ceil(n_init / 2)), wtest=0|1 (the design's sequential test; default 1), wlcb=0|1 (the
 * prior's weight is the rank correlation less its standard error, or itself; default 0).
 * docs/transfer.md has what each gives. mo=parego|geomean|ehvi (several objectives: ParEGO's
 * changing Chebyshev scalarisations, bo_parego.c, the geometric mean of the scores, or two
 * objectives' expected hypervolume improvement, bo_ehvi.c; default ehvi under two
 * objectives, parego under more; shown by the options hook only when the run has several
 * objectives).
 */
#include "bo_internal.h"

static const char valid_keys[] =
    "acq, xi, beta, kernel, init, starts, local, pool, pow2, pairs, warp, lprior, design, add, "
    "lin, lweak, early, refit, feas, preset, transfer, wdesign, wtest, wlcb, mo";

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
    if (!cutune_is_decimal(val) || end == val || *end || !(v >= 0.0 && v <= max))
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

/* preset=plain: the reference searcher (see the top comment). Sets the options as if given,
 * so that the early phase leaves them alone. */
static void preset_plain(bo_state *s)
{
    s->n_init = 10;
    s->design_random = 1;
    s->design_lhs = 0;
    s->early = BO_EARLY_SAFE; /* no phase of the budget, no drop on failures */
    s->lprior_mode = BO_LPRIOR_DIM;
    s->set_lprior = 1;
    s->lweak_max = 0;
    s->set_lweak = 1;
    s->fit.lin_min = s->fit.lin_max = 0.0;
    s->set_lin = 1;
    s->pairs = 0;
    s->set_pairs = 1;
    s->warm_gain = 0.0;
    s->set_refit = 1;
    s->local_frac = 0.0;
    s->local_auto = 0;
    s->feas_model = 0;
    s->warp_kind = CUTUNE_GP_WARP_NONE;
    s->xi = 0.0;
}

int bo_parse_args(bo_state *s, const char *args, char *err, size_t errlen)
{
    if (!args || !*args)
        return 0;
    char buf[512];
    if (strlen(args) >= sizeof buf)
        return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: options too long");
    /* a preset first, wherever it stands: the options given with it change it */
    strcpy(buf, args);
    {
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (strncmp(tok, "preset=", 7) != 0)
                continue;
            if (strcmp(tok + 7, "plain") != 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: preset=%s unknown (valid: plain)", tok + 7);
            preset_plain(s);
        }
    }
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
        } else if (strcmp(key, "preset") == 0) {
            continue; /* applied above */
        } else if (strcmp(key, "design") == 0) {
            static const char *const names[] = {"maximin", "lhs", "random", NULL};
            if ((rc = parse_choice(key, val, names, &choice, err, errlen)) < 0)
                return rc;
            s->design_lhs = choice == 1;
            s->design_random = choice == 2;
        } else if (strcmp(key, "mo") == 0) { /* in the order of BO_MO_* */
            static const char *const names[] = {"parego", "geomean", "ehvi", NULL};
            if ((rc = parse_choice(key, val, names, &s->mo, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "early") == 0) { /* in the order of BO_EARLY_* */
            static const char *const names[] = {"auto", "safe", "edge", NULL};
            if ((rc = parse_choice(key, val, names, &s->early, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "refit") == 0) { /* warm refits: always replace, or on a gain */
            static const char *const names[] = {"gain", "always", NULL};
            s->set_refit = 1;
            if ((rc = parse_choice(key, val, names, &choice, err, errlen)) < 0)
                return rc;
            s->warm_gain = choice ? 0.0 : BO_MIN_GAIN;
        } else if (strcmp(key, "transfer") == 0) { /* in the order of BO_TRANSFER_* */
            static const char *const names[] = {"both", "design", "prior", "off", "input", NULL};
            if ((rc = parse_choice(key, val, names, &s->transfer, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "wdesign") == 0) {
            long v = strtol(val, &end, 10);
            /* 0 would read as "the default" (the field's unset value): refused */
            if (!cutune_is_decimal(val) || end == val || *end || v < 1 || v > 100000)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: %s=%s is not a count from 1 (transfer=prior takes no "
                                  "design from the source)",
                                  key, val);
            s->warm_design = (size_t)v;
        } else if (strcmp(key, "wtest") == 0 || strcmp(key, "wlcb") == 0) {
            if (strcmp(val, "0") && strcmp(val, "1"))
                return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: %s=%s is not 0 or 1", key, val);
            if (key[1] == 't')
                s->design_test = val[0] == '1';
            else
                s->wplain = val[0] == '0';
        } else if (strcmp(key, "lprior") == 0) { /* in the order of BO_LPRIOR_* */
            static const char *const names[] = {"weak", "dim", "auto", NULL};
            s->set_lprior = 1;
            if ((rc = parse_choice(key, val, names, &s->lprior_mode, err, errlen)) < 0)
                return rc;
        } else if (strcmp(key, "local") == 0 && strcmp(val, "auto") == 0) {
            s->local_auto = 1;
            s->local_frac = 1.0 / 3.0;
        } else if (strcmp(key, "local") == 0) {
            s->local_auto = 0;
            double v = strtod(val, &end);
            if (!cutune_is_decimal(val) || end == val || *end || !(v >= 0.0 && v <= 1.0))
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: local=%s is not a fraction in [0,1]", val);
            s->local_frac = v;
        } else if (strcmp(key, "xi") == 0 || strcmp(key, "beta") == 0) {
            double v = strtod(val, &end);
            if (!cutune_is_decimal(val) || end == val || *end || !isfinite(v) || v < 0)
                return cutune_err(err, errlen, CUTUNE_EINVAL,
                                  "bo: %s=%s is not a non-negative number", key, val);
            if (key[0] == 'x')
                s->xi = v;
            else
                s->beta = v;
        } else if (strcmp(key, "pow2") == 0 || strcmp(key, "pairs") == 0 ||
                   strcmp(key, "feas") == 0) {
            if (strcmp(val, "0") && strcmp(val, "1"))
                return cutune_err(err, errlen, CUTUNE_EINVAL, "bo: %s=%s is not 0 or 1", key, val);
            if (strcmp(key, "pow2") == 0)
                s->pow2 = val[0] == '1';
            else if (strcmp(key, "feas") == 0)
                s->feas_model = val[0] == '1';
            else {
                s->pairs = val[0] == '1';
                s->set_pairs = 1;
            }
        } else if (strcmp(key, "pool") == 0) {
            long v = strtol(val, &end, 10);
            if (!cutune_is_decimal(val) || end == val || *end || v < 16 || v > 100000000)
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
            if (!cutune_is_decimal(val) || end == val || *end || v < 0 || v > 100000)
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

/* The options hook (cutune_searcher_type.options): every key, the value in force after
 * alloc (the budget's early phase applied). pool= shows both sizes: exhaustive up to the
 * first, a pool of the second above it. */
int bo_write_options(const void *state, char *buf, size_t len)
{
    const bo_state *s = state;
    static const char *const acq[] = {"ei", "pi", "lcb"}, *const early[] = {"auto", "safe", "edge"},
                             *const lprior[] = {"weak", "dim", "auto"};
    static const char *const warp[] = {"none", "boxcox", "copula"};
    char add[64], lin[64];
    if (s->fit.add_min == s->fit.add_max)
        snprintf(add, sizeof add, "%.17g", s->fit.add_max);
    else
        snprintf(add, sizeof add, "fit[%.17g,%.17g]", s->fit.add_min, s->fit.add_max);
    if (s->fit.lin_min == s->fit.lin_max)
        snprintf(lin, sizeof lin, "%.17g", s->fit.lin_max);
    else
        snprintf(lin, sizeof lin, "fit[%.17g,%.17g]", s->fit.lin_min, s->fit.lin_max);
    static const char *const mo[] = {"parego", "geomean", "ehvi"};
    char mos[32] = ""; /* one objective: absent, so that those journals stay as they were */
    if (s->nobj > 1)
        snprintf(mos, sizeof mos, ",mo=%s", mo[s->mo]);
    char local[40] = "auto";
    if (!s->local_auto)
        snprintf(local, sizeof local, "%.17g", s->local_frac);
    return snprintf(buf, len,
                    "acq=%s,xi=%.17g,beta=%.17g,kernel=%s,init=%zu,starts=%zu,local=%s,"
                    "pool=%zu/%zu,pow2=%d,pairs=%d,warp=%s,design=%s,lprior=%s,add=%s,lin=%s,"
                    "lweak=%zu,early=%s(%s),refit=%s,score_bits=%d%s",
                    acq[s->acq], s->xi, s->beta, cutune_gp_kernel_name(s->kernel), s->n_init,
                    s->fit.nstarts, local, s->exact_m, s->pool_m, s->pow2, s->pairs,
                    (unsigned)s->warp_kind < 3 ? warp[s->warp_kind] : "?",
                    s->design_lhs      ? "lhs"
                    : s->design_random ? "random"
                                       : "maximin",
                    lprior[s->lprior_mode], add, lin, s->lweak_max, early[s->early],
                    s->edge ? "edge" : "safe", s->warm_gain > 0.0 ? "gain" : "always",
                    BO_SCORE_BITS, mos);
}
