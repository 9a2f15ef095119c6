/**
 * @file cutune.h
 * @brief All of cutune's public API.
 *
 * Installed as libcutune (shared and static), these headers and cutune.pc:
 *   cc app.c $(pkg-config --cflags --libs cutune)
 * docs/library.md says how to install, link and tune from C; examples/api/tune_api.c
 * is a complete program.
 *
 * What is stable (cutune 0.x):
 * - The plugin interfaces. struct cutune_searcher_type and struct cutune_evaluator_type
 *   carry the CUTUNE_SEARCHER_TYPE_VERSION / CUTUNE_EVALUATOR_TYPE_VERSION they were
 *   compiled against in their first field; a new version only appends members (optional
 *   hooks), and the library checks a type's version before it calls an appended hook, so
 *   a plugin written for an older version keeps working unchanged. Their ctx structs
 *   (cutune_searcher_ctx, cutune_evaluator_ctx) likewise only grow at the end.
 * - The journal: JSON lines whose header says "format":1 (journal.h), read by
 *   scripts and other tools. Within format 1 keys are only added, never renamed, removed
 *   or given another meaning; anything else would be "format":2. The summary JSON,
 *   the status names (cutune_status_name) and the Kernel Tuner cache files cutune reads
 *   and writes are kept compatible in the same way.
 * - Error codes (CUTUNE_E*) and statuses (CUTUNE_STATUS_*) keep their values; new ones
 *   are added at the end.
 *
 * What is not stable yet: the rest of the ABI. Function signatures and the layout of
 * the other structs (cutune_tuner_options, cutune_history, cutune_recording, cutune_spec
 * ...) may change between 0.x releases, so libcutune.so.0 promises nothing across them:
 * rebuild against each release. gp.h (the surrogate) and bench.h (searcher comparisons)
 * are public for benchmarks and tests and change most. libcutune.so exports every
 * cutune_* symbol, including internal ones not declared here (cutune_cuda_*,
 * cutune_io_*, ...): those are not API.
 */
#ifndef CUTUNE_H
#define CUTUNE_H
#include "cutune/common.h"
#include "cutune/expr.h"
#include "cutune/space.h"
#include "cutune/spec.h"
#include "cutune/searcher.h"
#include "cutune/evaluator.h"
#include "cutune/recording.h"
#include "cutune/tuner.h"
#include "cutune/objective.h"
#include "cutune/confirm.h"
#include "cutune/pareto.h"
#include "cutune/front.h"
#include "cutune/journal.h"
#include "cutune/gp.h"
#include "cutune/mpi.h"
#include "cutune/db.h"
#include "cutune/report.h"
#include "cutune/sha256.h"
#include "cutune/warm.h"
#include "cutune/bench.h"
#include "cutune/manifest.h"
#endif
