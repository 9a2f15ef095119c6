/* Inside the objective engine: the objective's record, shared by objective.c (its life
 * cycle and evaluation) and objective_text.c (how a text is spelt: names to the symbol
 * table's slots, and back to the canonical spelling). */
#ifndef CUTUNE_TUNE_OBJECTIVE_INTERNAL_H
#define CUTUNE_TUNE_OBJECTIVE_INTERNAL_H

#include <stddef.h>

#include "cutune/expr.h"
#include "cutune/objective.h"
#include "cutune/spec.h"

#define OBJ_MAX_NAMES 256

struct cutune_objective {
    char *text;                    /**< as given */
    char *expr_text;               /**< what is parsed (built-ins spelt out, names aliased) */
    int maximize;                  /**< :max */
    int is_time;                   /**< plain time, minimised, no constraint */
    cutune_expr *expr;             /**< the objective */
    cutune_expr **cons;            /**< the constraints */
    char **cons_text;              /**< as given */
    char **cons_canon;             /**< canonical (cutune_objective_constraint_canonical) */
    char *canon;                   /**< canonical (cutune_objective_canonical) */
    size_t ncons;                  /**< constraints */
    const cutune_space *space;     /**< view */
    const cutune_spec *spec;       /**< view, or NULL */
    char *names[OBJ_MAX_NAMES];    /**< the symbol table: owned copies */
    size_t nnames;                 /**< symbols */
    size_t nspace;                 /**< slots 0..nspace: the space's parameters and sizes */
    size_t nspecm;                 /**< then time_ms, time_s, then this many spec metrics */
    char *metric[OBJ_MAX_NAMES];   /**< the evaluator metric of each slot past those, by its
                                        real name (aliases resolved) */
    struct cutune_objective **sub; /**< several objectives (--objectives): the parts */
    size_t nsub;                   /**< parts, 0 for a single objective */
};

/* A growable string; oom set once an allocation failed (the text is then incomplete). */
typedef struct obj_strbuf {
    char *s;
    size_t n, cap;
    int oom;
} obj_strbuf;

void obj_sb_put(obj_strbuf *b, const char *s, size_t n);
int obj_is_ident_start(int c);
int obj_is_ident(const char *s);
long obj_name_index(const cutune_objective *o, const char *name, size_t len);
int obj_add_name(cutune_objective *o, const char *name, size_t len, const char *metric,
                 size_t mlen);
long obj_spec_metric_index(const cutune_objective *o, const char *name, size_t len);
int obj_rewrite(cutune_objective *o, const char *text, char **out, const char *opt, char *err,
                size_t errlen);
char *obj_canonical(const cutune_objective *o, const char *t);

#endif
