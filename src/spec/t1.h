/* T1, the auto-tuning community's input format, read as a kernel spec (t1.c). */
#ifndef CUTUNE_SPEC_T1_H
#define CUTUNE_SPEC_T1_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cutune/spec.h"
#include "spec_numbers.h"

/** Whether root is a T1 document: an object holding "ConfigurationSpace" or
 *  "KernelSpecification" (the members T1's schema requires; a cutune spec has neither). */
int cutune_spec_t1_detect(const cJSON *root);

/**
 * Map the T1 document root (parsed from text[0..len), the file named file, relative
 * paths starting in dir; nums its number literals as spec_index_numbers pairs them, or
 * NULL) onto a cutune spec and load that as cutune_spec_load_buffer does. Errors name
 * the file, the line and the T1 field ("KernelSpecification.Arguments[2].FillType:
 * ..."); what T1 says that cutune ignores is listed, one line each, in (*out)->warnings.
 */
int cutune_spec_t1_load(const char *file, const char *text, size_t len, const cJSON *root,
                        const numtok *nums, size_t nnums, const char *dir,
                        const cutune_size_override *ov, size_t nov, cutune_spec **out, char *err,
                        size_t errlen);

#endif
