/* placeholder: CUDA evaluator (being written) */
#include "cutune/cutune.h"

static int nyi_alloc(void *st, const cutune_evaluator_ctx *ctx, char *err, size_t errlen)
{ return cutune_err(err, errlen, CUTUNE_EUNSUPPORTED, "evaluator 'cuda' is not built yet"); }
static const cutune_evaluator_type type = {.version = CUTUNE_EVALUATOR_TYPE_VERSION, .name = "cuda", .help = "(not built yet)", .size = 1, .flags = CUTUNE_EVALUATOR_NEEDS_GPU, .alloc = nyi_alloc};
const cutune_evaluator_type *const cutune_evaluator_cuda = &type;
