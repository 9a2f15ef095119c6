/* The parameter space's state, shared by space.c (definition and queries) and
 * space_enumerate.c (the valid set). */
#ifndef CUTUNE_SPACE_INTERNAL_H
#define CUTUNE_SPACE_INTERNAL_H

#include "cutune/space.h"

typedef struct param_store {
    char *name;
    size_t n;
    cutune_value *values; /* STRING values point into texts */
    char **texts;         /* each value as Python prints it */
} param_store;

struct cutune_space {
    param_store *params;
    size_t nparams;
    cutune_param *views;   /* public views of params, one per parameter */
    char **cnames;         /* constant names */
    cutune_value *cvalues; /* constant values; STRING texts are owned */
    size_t nconstants;
    const char **symnames; /* parameters then constants: the symbol table */
    cutune_expr **restrictions;
    size_t nrestrictions;
    cutune_space_filter_fn filter;
    void *filter_ctx;
    uint16_t *configs; /* size rows of nparams indices, lexicographic */
    size_t size;       /* number of valid configurations */
    size_t cap;        /* rows allocated in configs */
    int enumerated;    /* configs reflects the current definition */
};

/* Any change to the definition makes an earlier enumeration stale: drop it. */
void cutune_space_invalidate(cutune_space *s);

/* space_enumerate.c, also used by cutune_space_check (space.c): */
/* "A=1, B=2" of the first nbound parameters of idx; snprintf-style length. */
int cutune_space_format_idx(const cutune_space *s, const uint16_t *idx, size_t nbound, char *buf,
                            size_t len);
/* Restriction r's verdict at vars: 1 keep, 0 drop, <0 error (message in err). */
int cutune_space_restriction_holds(const cutune_space *s, size_t r, const cutune_value *vars,
                                   const uint16_t *idx, size_t nbound, char *err, size_t errlen);

#endif
