/* Tuning across problem shapes (docs/shapes.md): the --sizes list (shapes_parse.c), the
 * nearest-shape rule of the dispatch table (shapes_parse.c), the multi-shape evaluator of
 * the common mode (shapes_eval.c), the runs (cmd_tune_shapes.c) and the header's dispatch
 * table (header_dispatch.c). */
#ifndef CUTUNE_CLI_SHAPES_H
#define CUTUNE_CLI_SHAPES_H

#include <stddef.h>

#include "options.h"
#include "tune_internal.h"

#define SHAPES_MAX 64      /* shapes in one list */
#define SHAPE_MAX_SIZES 16 /* sizes named by one shape */

/** One problem shape: the sizes it sets, in the order of the list's first shape. */
typedef struct cli_shape {
    size_t n;
    char names[SHAPE_MAX_SIZES][64];
    char texts[SHAPE_MAX_SIZES][64]; /**< each value as given */
    double values[SHAPE_MAX_SIZES];
    char label[256]; /**< the values joined by 'x' (1024x1024x1024): file names, messages */
} cli_shape;

typedef struct cli_shapes {
    size_t n;
    cli_shape s[SHAPES_MAX];
} cli_shapes;

/**
 * Parse a --sizes list: shapes separated by ';', each NAME=VALUE[,NAME=VALUE...], where
 * NAME=NAME=...=VALUE gives several sizes one value; "@FILE" reads one shape a line (#
 * comments, blank lines skipped). Every shape names the same sizes; no shape twice. opt
 * names the option in messages. 0, or CUTUNE_EINVAL with one line naming the shape (or
 * FILE:LINE), the size and the reason.
 */
int cli_shapes_parse(const char *opt, const char *arg, cli_shapes *out, char *err, size_t errlen);
/** Every shape of l in the size order of ref, its label made again: CUTUNE_EINVAL (opt
 *  and the shape named) when one names other sizes than ref. */
int cli_shapes_reorder(const char *opt, const cli_shape *ref, cli_shapes *l, char *err,
                       size_t errlen);

/** The list in one canonical form, NAME=VALUE,...;NAME=VALUE,... in its order (a multi-shape
 *  journal's record of its shapes, compared on --resume); -1 when len is too small. */
int cli_shapes_text(const cli_shapes *l, char *out, size_t len);

/** Shape s as --size overrides (names point into s). */
size_t cli_shape_overrides(const cli_shape *s, cutune_size_override *ov, size_t max);

/** log2 a - log2 b, computed as the dispatch header does (the same code). */
double cli_shape_dlog2(double a, double b);
/** The dispatch rule's distance: the sum over the sizes of (log2 a - log2 b)^2. */
double cli_shape_distance(const cli_shape *a, const cli_shape *b);

/** The entry of table[0..n) nearest to s: an exact match first, else the least distance,
 *  ties to the earlier entry. -1 when n is 0. */
long cli_shape_nearest(const cli_shape *s, const cli_shape *table, size_t n);

/** The spec at shape s, its space restricted, when the run replays (ename "replay") a spec
 *  without --cartesian, to what its recording there (erecording, else the spec's recording
 *  at s) holds; *recording gets the replayed file (static storage per call: copy it). */
int cli_shape_target(const char *kernel, const cli_shape *s, const cli_space_opts *base,
                     const char *ename, const char *erecording, cli_target *t, char *recording,
                     size_t reclen, char *err, size_t errlen);

/** `cutune tune --sizes=...`: the whole multi-shape run (cmd_tune_shapes.c); the exit
 *  status. */
int cli_tune_shapes(const cli_tune_options *o);
/** The options a --sizes run does not take (--size, --warm-start, --csv, --objective ...):
 *  CUTUNE_EINVAL naming the first given, else 0. */
int cli_tune_shapes_refuse(const cli_tune_options *o, char *err, size_t errlen);

/** `cutune header --sizes=...`: a dispatch-table header (header_dispatch.c). */
int cli_header_dispatch(int argc, char **argv);

/** One shape of it: `cutune header` that fills the database and writes nothing, its
 *  messages naming shown ("OUT.h: shape LABEL") (cmd_best.c). */
int cli_header_shape(int argc, char **argv, const char *shown);

#endif
