/** @file cutune.h @brief All of cutune's public API. */
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
#include "cutune/journal.h"
#include "cutune/gp.h"
#include "cutune/mpi.h"
#endif
