/* placeholder: replay evaluator (being written) */
#include "cutune/cutune.h"

static int nyi_alloc(void *st, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{ return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "evaluator 'replay' is not built yet"); }
static const cutune_evaluator_type type = {.version = CUTUNE_EVALUATOR_TYPE_VERSION, .name = "replay", .help = "(not built yet)", .size = 1, .alloc = nyi_alloc};
const cutune_evaluator_type *const cutune_evaluator_replay = &type;
