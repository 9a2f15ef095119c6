/* Where a value sits in JSON text, by the path the spec loader names it with. */
#ifndef CUTUNE_SPEC_JSON_PATH_H
#define CUTUNE_SPEC_JSON_PATH_H

#include <stddef.h>

/**
 * The 1-based line of text[0..len) on which the value at path starts: path is a chain of
 * member names and indexes as the spec loader's messages write it ("sizes.N",
 * "args[2].size", "parameters.block_size_x[3]", "metrics[\"GB/s\"]"). Where a step is not
 * in the text (a missing field), the line of the deepest value found; *steps says how
 * many steps were found (0: only the root). 0 when not even the root is a JSON value.
 * The text is expected to be valid JSON (cJSON accepted it; a leading UTF-8 BOM is
 * skipped as cJSON does); the scan stays inside len in any case.
 */
size_t cutune_json_path_line(const char *text, size_t len, const char *path, size_t *steps);

#endif
