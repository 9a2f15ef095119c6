/* placeholder: searcher grid (being written) */
#include "cutune/cutune.h"

static int nyi_alloc(void *st, const cutune_searcher_ctx *ctx, char *err, size_t errlen)
{ return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "searcher 'grid' is not built yet"); }
static const cutune_searcher_type type = {.version = CUTUNE_SEARCHER_TYPE_VERSION, .name = "grid", .help = "(not built yet)", .size = 1, .alloc = nyi_alloc};
const cutune_searcher_type *const cutune_searcher_grid = &type;
