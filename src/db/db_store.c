/* The tuner loop's store over the database (tuner.h, cutune_tuner_store): configuration
 * ids become the database's configuration texts, answers are looked up before anything
 * is evaluated, and every evaluation of the run is stored once it is journaled, so the
 * journal is never behind the database. */
#include <stdlib.h>
#include <string.h>

#include "cutune/space.h"
#include "cutune/tuner.h"
#include "db_internal.h"

struct cutune_db_store {
    cutune_tuner_store hooks; /* ctx = this */
    cutune_db_run *run;
    const cutune_space *space;
    size_t *ids;        /* configurations answered by lookup ... */
    long long *sources; /* ... and the rows they came from */
    size_t n, cap;
    int reuse; /* lookup answers from the database (else it only remembers: --remeasure) */
};

/* Remember that id was asked for: answered by row source, or (source 0) to be measured. */
static int remember(cutune_db_store *st, size_t id, long long source)
{
    if (st->n == st->cap) {
        size_t ncap = st->cap ? st->cap * 2 : 64;
        size_t *ni = realloc(st->ids, ncap * sizeof *ni);
        if (ni)
            st->ids = ni;
        long long *ns = ni ? realloc(st->sources, ncap * sizeof *ns) : NULL;
        if (!ns)
            return CUTUNE_ENOMEM;
        st->sources = ns;
        st->cap = ncap;
    }
    st->ids[st->n] = id;
    st->sources[st->n++] = source;
    return 0;
}

/* Asked before every evaluation this process makes (never for one the resumed journal
 * answers), with reuse off too: record tells the two apart by it. */
static int store_lookup(void *ctx, size_t id, cutune_eval_result *r, char *err, size_t errlen)
{
    cutune_db_store *st = ctx;
    long long source = 0;
    int rc = 0;
    if (st->reuse) {
        char *config = cutune_db_config_text(st->space, id);
        if (!config)
            return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
        rc = cutune_db_run_lookup(st->run, config, r, &source, err, errlen);
        free(config);
        if (rc < 0)
            return rc;
    }
    if (remember(st, id, rc > 0 ? source : 0) < 0) {
        if (rc > 0)
            cutune_eval_result_clear(r);
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    }
    return rc;
}

static int store_record(void *ctx, size_t n, const cutune_history_entry *e, char *err,
                        size_t errlen)
{
    cutune_db_store *st = ctx;
    long long source = 0;
    size_t i = st->n;
    while (i > 0 && st->ids[i - 1] != e->id)
        i--;
    if (i > 0 && e->reused)
        source = st->sources[i - 1];
    char *config = cutune_db_config_text(st->space, e->id);
    if (!config)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    int rc = 0;
    /* Never asked for: an evaluation of the resumed journal, handed again. One the
     * database lacks (the run was killed between its journal line and its row) may have
     * been a reused answer, which the journal does not mark: it is stored as one when an
     * earlier measurement of another run holds exactly its result, so it is not counted
     * as a second measurement. */
    if (i == 0)
        rc = cutune_db_run_journaled(st->run, n, config, &e->r, &source, err, errlen);
    if (rc == 0)
        rc = cutune_db_run_record(st->run, n, config, &e->r, source, err, errlen);
    free(config);
    return rc < 0 ? rc : 0;
}

int cutune_db_store_alloc(cutune_db_run *run, const cutune_space *space, int reuse,
                          cutune_db_store **out, char *err, size_t errlen)
{
    cutune_db_store *st = calloc(1, sizeof *st);
    *out = NULL;
    if (!st)
        return cutune_err(err, errlen, CUTUNE_ENOMEM, "out of memory");
    st->run = run;
    st->space = space;
    st->hooks.ctx = st;
    st->reuse = reuse;
    st->hooks.lookup = store_lookup;
    st->hooks.record = store_record;
    *out = st;
    return 0;
}

const cutune_tuner_store *cutune_db_store_hooks(cutune_db_store *st)
{
    return &st->hooks;
}

void cutune_db_store_free(cutune_db_store *st)
{
    if (!st)
        return;
    free(st->ids);
    free(st->sources);
    free(st);
}
