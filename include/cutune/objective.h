/**
 * @file objective.h
 * @brief What a run optimises: an expression over an evaluation's metrics with a
 *        direction, and constraints that make a configuration infeasible.
 *
 * `time` (the default) is time_ms minimised; `energy` is energy_j minimised; `edp`
 * (energy-delay product) is energy_j * time_s minimised; anything else is an expression
 * (docs/expressions.md) over the space's parameters and sizes, time_ms and time_s, the
 * spec's metrics and the evaluator's metrics, with ":min" (the default) or ":max" after
 * it. A name that is not an identifier ("GFLOP/s") is written between backquotes, or as
 * is when it is one of the spec's metrics. docs/objectives.md says more.
 */
#ifndef CUTUNE_OBJECTIVE_H
#define CUTUNE_OBJECTIVE_H

#include "cutune/common.h"
#include "cutune/space.h"

struct cutune_spec;
struct cutune_history_entry;

typedef struct cutune_objective cutune_objective;

/**
 * Parse an objective and its constraints.
 * @param text "time", "energy", "edp" or EXPR, each optionally followed by ":min" or
 *        ":max"; NULL is "time".
 * @param constraints ncons expressions that a feasible configuration satisfies
 *        (`--subject-to`); a configuration that breaks one, or where one cannot be
 *        computed, is infeasible.
 * @param space the run's space (its parameters and sizes are names the expressions read).
 * @param spec the kernel's spec (its metrics are names too), or NULL.
 * @param out receives the objective; free with cutune_objective_free.
 * @return 0, or CUTUNE_EPARSE / CUTUNE_ENOTFOUND with a message naming the option.
 */
int cutune_objective_alloc(const char *text, const char *const *constraints, size_t ncons,
                           const cutune_space *space, const struct cutune_spec *spec,
                           cutune_objective **out, char *err, size_t errlen);
void cutune_objective_free(cutune_objective *o);

/**
 * Several objectives (`--objectives=time,energy`): list holds two to 16 objectives as
 * cutune_objective_alloc reads them, separated by commas outside parentheses, backquotes
 * and strings; each has the constraints. Searchers minimise the geometric mean of the
 * parts' scores (feasible when every part is); the run's result is its Pareto front
 * (cutune_front_compute).
 */
int cutune_objective_multi_alloc(const char *list, const char *const *constraints, size_t ncons,
                                 const cutune_space *space, const struct cutune_spec *spec,
                                 cutune_objective **out, char *err, size_t errlen);
/** Objectives held: 1, or the parts of a cutune_objective_multi_alloc. */
size_t cutune_objective_count(const cutune_objective *o);
/** Part i (o itself, for i 0 of a single objective), or NULL. */
const cutune_objective *cutune_objective_part(const cutune_objective *o, size_t i);

/** 1 when the objective is time, minimised, with no constraint (the run's default). */
int cutune_objective_is_time(const cutune_objective *o);
/** The objective as it was given, e.g. "energy" or "GFLOP/s:max". */
const char *cutune_objective_text(const cutune_objective *o);
/** What it computes, e.g. "energy_j" or "energy_j * time_s". */
const char *cutune_objective_expr(const cutune_objective *o);
/** 1 when maximised. */
int cutune_objective_maximize(const cutune_objective *o);
/** Constraints given (and the text of constraint i). */
size_t cutune_objective_nconstraints(const cutune_objective *o);
const char *cutune_objective_constraint(const cutune_objective *o, size_t i);
/**
 * The canonical form of the objective: what it computes (built-ins spelt out: time is
 * "time_ms"), one blank between tokens (none inside brackets, before a comma, after a
 * unary operator), integers in decimal, reals in the fewest digits that read back the same
 * double, names as the language reads them (a metric that is no identifier between
 * backquotes), ":max" after it when maximised; several: their forms joined by ",". Two
 * spellings of one objective ("GFLOP/s:max", " `GFLOP/s` :max") have the same one, and it
 * parses back to the same objective.
 */
const char *cutune_objective_canonical(const cutune_objective *o);
/** Constraint i in canonical form ("registers<=0x40" is "registers <= 64"), or NULL. */
const char *cutune_objective_constraint_canonical(const cutune_objective *o, size_t i);
/** The evaluator's metrics it reads (not parameters, sizes, times or spec metrics):
 *  count and names. An evaluator that never measures one cannot serve the run. */
size_t cutune_objective_nneeds(const cutune_objective *o);
const char *cutune_objective_need(const cutune_objective *o, size_t i);

/**
 * Evaluate at a history entry (its status, time, metrics and spec metrics).
 * @param value the objective as the user reads it (NAN when e is not ok or the value
 *        cannot be computed: a metric it reads is missing, a division by zero).
 * @param feasible 1 when e is ok, its value finite and every constraint holds.
 */
void cutune_objective_eval(const cutune_objective *o, const struct cutune_history_entry *e,
                           double *value, int *feasible);

/**
 * What the searcher is told (cutune_observation.time_ms): the value under :min, its
 * reciprocal under :max, so that every searcher minimises a positive number (bo models its
 * logarithm); NAN when infeasible or not positive. Under the plain time objective this is
 * e's time_ms exactly.
 */
double cutune_objective_score(const cutune_objective *o, const struct cutune_history_entry *e);

#endif
