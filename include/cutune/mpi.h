/**
 * @file mpi.h
 * @brief Several hosts through MPI: rank 0 runs the searcher, the journal and the
 *        progress line; every other rank owns one GPU and evaluates what rank 0 sends it,
 *        through its own evaluator (the same isolated CUDA worker as a local run).
 *
 * Built only where Open MPI was found at build time (cutune_mpi_available()); without
 * it every function but cutune_mpi_launched and cutune_mpi_available fails with
 * CUTUNE_EUNSUPPORTED.
 */
#ifndef CUTUNE_MPI_H
#define CUTUNE_MPI_H

#include "cutune/common.h"
#include "cutune/evaluator.h"

/** 1 when cutune was built with MPI support. */
int cutune_mpi_available(void);
/** Processes of the MPI job this process was started in by a launcher (mpirun, srun),
 *  read from the launcher's environment; 0 when started alone. */
int cutune_mpi_launched(void);
/** MPI_Init; *rank and *size of MPI_COMM_WORLD. */
int cutune_mpi_init(int *rank, int *size, char *err, size_t errlen);
/** MPI_Finalize (a no-op when not initialised). */
void cutune_mpi_finalize(void);
/** End the whole job with code (a rank that cannot go on; a no-op without MPI). */
void cutune_mpi_abort(int code);
/** The GPU ordinal an evaluating rank takes: its place among the evaluating ranks of its
 *  host (rank 0 evaluates nothing), or 0 when the launcher gave it one GPU alone
 *  (CUDA_VISIBLE_DEVICES naming one device, as srun --gpus-per-task=1 does). */
int cutune_mpi_local_gpu(void);
/**
 * Rank >= 1: serve rank 0 with the local evaluator ev until it says stop: announce the
 * evaluator's slots and device, then evaluate each configuration sent, up to that many
 * at once, and send each result back as it completes.
 */
int cutune_mpi_serve(cutune_evaluator *ev, char *err, size_t errlen);
/**
 * Rank 0: an evaluator whose workers are the other ranks (alloc with
 * cutune_evaluator_alloc; ctx->arg "deadline=SECONDS": a rank that has not answered an
 * evaluation within it is taken for dead, its evaluations in flight are re-queued on
 * the ranks left, and the run goes on without it). Its slots are the sum of the ranks'.
 */
extern const cutune_evaluator_type *const cutune_evaluator_mpi;

#endif
