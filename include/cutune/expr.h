/**
 * @file expr.h
 * @brief The restriction / geometry / metric expression language.
 *
 * C's expression syntax and Python's (Kernel Tuner restrictions are Python), in one
 * grammar with one evaluator; docs/expressions.md is the full description.
 *   literals   42, 0x20, 1.5, 1e-3, "str", true/false, True/False
 *   variables  names resolved at parse time against a symbol table (slots)
 *   operators  by precedence, tightest first: ( ); **; unary - + !; * / // %; + -;
 *              comparisons < <= > >= == != in, not in (chained as in Python);
 *              not; && and; || or; ?:
 *   functions  min(a,b,...), max(a,b,...), ceil, floor, log2, pow(a,b), abs
 *   membership x in (a, b, c), x in [a, b, c], x not in (...)
 * Arithmetic: INT op INT stays INT (64-bit); any REAL operand makes it REAL.
 * `/` on two INTs divides and truncates toward zero as in C; `//` is Python's
 * floor division (toward minus infinity; a REAL when either operand is); `%` on two INTs
 * is C's remainder (sign of the dividend); on REALs `/` is real division and `%`
 * is fmod. Division or remainder by zero is CUTUNE_EMATH. `a < b < c` is
 * `a < b and b < c` with b evaluated once; a chain mixing == != with < <= > >= in
 * is a syntax error (C and Python read it differently). Comparisons and logic
 * yield INT 0/1; && || and or short-circuit. Strings compare with == != and `in` only.
 */
#ifndef CUTUNE_EXPR_H
#define CUTUNE_EXPR_H

#include "cutune/common.h"

typedef struct cutune_expr cutune_expr;

/** Names visible to an expression: names[i] is slot i. */
typedef struct cutune_symtab {
    const char *const *names; /**< view, not owned */
    size_t n;
} cutune_symtab;

/**
 * Parse text. Unknown variable names fail with CUTUNE_ENOTFOUND ("unknown
 * parameter 'X' at column N"); syntax errors with CUTUNE_EPARSE naming the column.
 * @param out receives a new expression; caller frees with cutune_expr_free.
 */
int cutune_expr_parse(const char *text, const cutune_symtab *syms, cutune_expr **out, char *err,
                      size_t errlen);

void cutune_expr_free(cutune_expr *e);

/**
 * Evaluate with vars[slot] the value of each symbol-table slot. A STRING
 * result points into e or into vars: it is valid while both are.
 */
int cutune_expr_eval(const cutune_expr *e, const cutune_value *vars, cutune_value *out, char *err,
                     size_t errlen);

/** Evaluate and require a number; truthiness for restrictions is != 0. */
int cutune_expr_eval_double(const cutune_expr *e, const cutune_value *vars, double *out, char *err,
                            size_t errlen);

/** Highest slot index the expression reads, or -1 if it reads none. */
int cutune_expr_max_slot(const cutune_expr *e);

/** Whether slot is read by the expression. */
int cutune_expr_uses(const cutune_expr *e, size_t slot);

/** The source text as given to parse. */
const char *cutune_expr_text(const cutune_expr *e);

/**
 * Whether name is a word of the language (in, not, and, or, true, false, True, False):
 * such a name cannot be read as a parameter. NULL is no keyword.
 */
int cutune_expr_is_keyword(const char *name);

#endif
