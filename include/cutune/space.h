/**
 * @file space.h
 * @brief Parameter spaces: parameters with value lists, restrictions, the valid set.
 *
 * A configuration is an index vector (one uint16_t per parameter, an index
 * into that parameter's value list). Enumeration fills the valid set in
 * lexicographic order of index vectors (first parameter slowest); a dense id
 * 0..size-1 names each valid configuration.
 *
 * Symbol slots seen by restriction expressions: 0..nparams-1 are the
 * parameters in the order added, then the constants in the order added.
 * All parameters must be added before the first restriction or constant.
 */
#ifndef CUTUNE_SPACE_H
#define CUTUNE_SPACE_H

#include "cutune/common.h"
#include "cutune/expr.h"

#define CUTUNE_SPACE_MAX_VALUES 65535
/** Default limit on the valid configurations of a space (memory: 2 bytes per parameter per
 *  configuration here, a few bytes more in the tuner and the searchers). */
#define CUTUNE_SPACE_MAX_CONFIGS 10000000u
/** Enumeration examines at most this many times the limit of points (parameter bindings):
 *  restrictions that reject nearly all of a huge Cartesian product cost time too. */
#define CUTUNE_SPACE_VISITS_PER_CONFIG 32u

/**
 * The limit on valid configurations: $CUTUNE_MAX_CONFIGS (decimal digits, at least 1),
 * else CUTUNE_SPACE_MAX_CONFIGS. Returns 0, or CUTUNE_EINVAL naming the variable when it
 * holds anything else.
 */
int cutune_space_max_configs(size_t *limit, char *err, size_t errlen);

typedef struct cutune_space cutune_space;

/** One tunable parameter (view owned by the space). */
typedef struct cutune_param {
    const char *name;
    size_t nvalues;
    const cutune_value *values; /**< STRING values point at texts[i] */
    const char *const *texts;   /**< each value as Python prints it */
} cutune_param;

/**
 * Extra predicate on a full index vector (e.g. "present in a recording").
 * Returns 1 to keep, 0 to drop, or a negative CUTUNE_E* code, which stops
 * enumeration (or cutune_space_check) with that code.
 */
typedef int (*cutune_space_filter_fn)(void *ctx, const uint16_t *idx);

cutune_space *cutune_space_alloc(void);
void cutune_space_free(cutune_space *s);

/** Add a parameter; values are copied (strings too). A duplicate name, a keyword of the
 *  expression language, or a value given twice (1 and 1.0 are one; integers compared
 *  exactly) fails with CUTUNE_EINVAL. */
int cutune_space_add_param(cutune_space *s, const char *name, const cutune_value *values, size_t n,
                           char *err, size_t errlen);
/** Add a named constant (problem size) visible to restrictions. */
int cutune_space_add_constant(cutune_space *s, const char *name, cutune_value v, char *err,
                              size_t errlen);
/** Change a constant's value before enumeration (size overrides). */
int cutune_space_set_constant(cutune_space *s, const char *name, cutune_value v, char *err,
                              size_t errlen);
/** Parse and add a restriction (kept when true). */
int cutune_space_add_restriction(cutune_space *s, const char *text, char *err, size_t errlen);
/** Install an extra predicate applied once all parameters are bound. */
void cutune_space_set_filter(cutune_space *s, cutune_space_filter_fn fn, void *ctx);

/**
 * Enumerate the valid set, checking each restriction as soon as the last
 * parameter it reads is bound. CUTUNE_EEMPTY when nothing is valid;
 * CUTUNE_EMATH when a restriction divides by zero (message names it and the
 * configuration). CUTUNE_EINVAL, with the Cartesian size and the limit, when the valid
 * set would hold more than cutune_space_max_configs configurations (refused before
 * anything is stored where there is no restriction or filter) or the walk would examine
 * more than CUTUNE_SPACE_VISITS_PER_CONFIG times that many points.
 */
int cutune_space_enumerate(cutune_space *s, char *err, size_t errlen);

size_t cutune_space_nparams(const cutune_space *s);
const cutune_param *cutune_space_param(const cutune_space *s, size_t p);
/** Index of the parameter called name, or -1. */
int cutune_space_param_index(const cutune_space *s, const char *name);
size_t cutune_space_nrestrictions(const cutune_space *s);
const char *cutune_space_restriction_text(const cutune_space *s, size_t r);
size_t cutune_space_nconstants(const cutune_space *s);
const char *cutune_space_constant_name(const cutune_space *s, size_t c);
cutune_value cutune_space_constant_value(const cutune_space *s, size_t c);
/** Symbol table of the space (parameters then constants), for other expressions. */
cutune_symtab cutune_space_symtab(const cutune_space *s);

/** Product of the value counts (as double: may exceed 2^64). */
double cutune_space_cartesian_size(const cutune_space *s);
/** Number of valid configurations (after enumerate). */
size_t cutune_space_size(const cutune_space *s);

/** Index vector of valid configuration id (view into the space). */
const uint16_t *cutune_space_config(const cutune_space *s, size_t id);
/** Dense id of an index vector, or -1 if it is not valid. O(log size). */
long long cutune_space_find(const cutune_space *s, const uint16_t *idx);
/** Fill vars (nparams + nconstants slots) with the values of configuration id. */
void cutune_space_values(const cutune_space *s, size_t id, cutune_value *vars);
/** Check a full index vector against restrictions and filter (1 valid, 0 not, <0 error). */
int cutune_space_check(const cutune_space *s, const uint16_t *idx, char *err, size_t errlen);

/**
 * Encode configuration id to [0,1]^nparams for models: value index / (n-1)
 * (0.5 for a single-valued parameter). Numeric parameters are ordinal by
 * their list order.
 */
void cutune_space_encode(const cutune_space *s, size_t id, double *x);

enum cutune_neighbour_mode {
    CUTUNE_NEIGHBOUR_ADJACENT = 0, /**< one parameter moved to an adjacent value */
    CUTUNE_NEIGHBOUR_ANY = 1,      /**< one parameter moved to any other value */
    /** two parameters, each moved to an adjacent value: the coupled moves (a block's x and
     *  y sizes together) that single moves cannot make when both halves alone are slow */
    CUTUNE_NEIGHBOUR_ADJACENT_PAIRS = 2,
};
/**
 * Valid neighbours of id. Writes at most max ids to out (in parameter order,
 * then value order; pairs by the first parameter, then the second, then their values);
 * returns the total count (may exceed max). An id outside the space or a mode not in
 * enum cutune_neighbour_mode has no neighbours (0).
 */
size_t cutune_space_neighbours(const cutune_space *s, size_t id, int mode, size_t *out, size_t max);

/** "NAME=VALUE, NAME=VALUE" of configuration id; returns length like snprintf. */
int cutune_space_format_config(const cutune_space *s, size_t id, char *buf, size_t len);

/** Stable 64-bit hash of parameters, values, restrictions and constants. */
uint64_t cutune_space_hash(const cutune_space *s);

#endif
