/**
 * @file confirm.h
 * @brief A winner that repeated runs agree on: the best few configurations of a run
 *        measured again in interleaved rounds, a confidence interval each, ties decided by
 *        a deterministic rule (docs/objectives.md#confirmation).
 */
#ifndef CUTUNE_CONFIRM_H
#define CUTUNE_CONFIRM_H

#include "cutune/evaluator.h"
#include "cutune/tuner.h"

struct cutune_objective;

#define CUTUNE_CONFIRM_MAX 64 /**< most configurations confirmed */

/** One configuration's confirmation. */
typedef struct cutune_confirm_entry {
    long hist;        /**< its entry in the run's history */
    size_t id;        /**< its configuration id */
    size_t n;         /**< rounds measured ok and feasible */
    double mean;      /**< mean objective value over them (as the user reads it) */
    double lo, hi;    /**< 95% confidence interval of the mean (Student t; lo = hi for n 1) */
    double registers; /**< its registers metric, NAN where not recorded */
    double energy_j;  /**< mean energy_j over the rounds, NAN where not measured */
    int tied;         /**< its interval overlaps the best one's */
} cutune_confirm_entry;

typedef struct cutune_confirm_result {
    size_t n;                                   /**< configurations confirmed */
    cutune_confirm_entry e[CUTUNE_CONFIRM_MAX]; /**< in the run's ranking order */
    size_t rounds;                              /**< rounds measured */
    long winner;                                /**< index into e, or -1 */
    int simulated;                              /**< drawn from recorded repetitions */
} cutune_confirm_result;

/**
 * Confirm the k best feasible configurations of hist (by score; k is capped at
 * CUTUNE_CONFIRM_MAX and at the feasible ones): `rounds` rounds, each measuring every one
 * once, in an order rotated by one place per round so that drift reaches all alike. A
 * round's value is the objective at that measurement. Under a simulated evaluator (replay)
 * a round's measurement is the median of ntimes draws with replacement from the recorded
 * repetitions (times_ms) by rng (seeded with the run's seed by the caller), the other
 * metrics as recorded; an entry without repetitions repeats its time. The best mean (by
 * the objective's direction) sets the reference; every configuration whose interval
 * overlaps it is tied; the winner among the tied is the one with fewer registers, then
 * lower mean energy_j, then the lower configuration id (a missing metric ranks after
 * a present one). stop set: no further rounds (what was measured counts).
 * @return 0 (out->winner -1 when nothing was confirmed), or a negative code.
 */
int cutune_confirm_run(cutune_evaluator *ev, const cutune_space *space,
                       const struct cutune_spec *spec, const struct cutune_objective *objective,
                       const cutune_history *hist, size_t k, size_t rounds, unsigned long seed,
                       volatile sig_atomic_t *stop, cutune_confirm_result *out, char *err,
                       size_t errlen);

/**
 * The tie rule alone, on entries whose n, mean, lo, hi, registers, energy_j and id are
 * filled: sets each tied flag and returns the winner's index (-1 when none has n > 0).
 * maximize: the objective is maximised (the best mean is the largest).
 */
long cutune_confirm_decide(cutune_confirm_entry *e, size_t n, int maximize);

#endif
