#!/bin/bash
# What bounds the SIMT gemm against cuBLAS SGEMM at 4096^3 (H200): the benchmark's
# gemm_4096 binary (benchmarks/kernels, best/gemm.h) run under Nsight Compute, which
# profiles its first kernels: the input generators, the cuBLAS reference and the tuned
# gemm, and then the cuBLAS ceiling launches. Writes ncu.csv (raw metrics of every
# profiled kernel) and table.md (gemm against cuBLAS) into OUT_DIR; BUILD_DIR as bench.py.
#   benchmarks/kernels/sgemm-bound/run.sh [OUT_DIR]      (on the GPU machine)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
bdir=${BUILD_DIR:-${TMPDIR:-/tmp}/cutune-bench-kernels}
# SKIP_BUILD=1: the binary is already in $BUILD_DIR (an earlier bench.py --build-only)
[ -n "${SKIP_BUILD:-}" ] ||
    python3 "$here/../bench.py" --only gemm_4096 --build-only --out "$out/bench" --build-dir "$bdir" \
        >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
metrics=(
    gpu__time_duration.sum sm__cycles_elapsed.avg.per_second launch__registers_per_thread
    launch__block_size launch__occupancy_limit_registers sm__warps_active.avg.pct_of_peak_sustained_active
    sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
    sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
    smsp__issue_active.avg.pct_of_peak_sustained_active
    smsp__inst_executed.sum smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
    smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_global_ld.sum
    l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
    l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
    dram__throughput.avg.pct_of_peak_sustained_elapsed lts__t_sectors.avg.pct_of_peak_sustained_elapsed
    smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
    smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
    smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
    smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
    smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
    smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
    smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
    smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
    smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
)
m=$(IFS=,; echo "${metrics[*]}")
ncu --metrics "$m" --launch-count 8 --csv --page raw "$bdir/bin/bench_gemm_4096" --id gemm_4096 \
    >"$out/ncu.csv" 2>"$out/ncu.log" || { tail -20 "$out/ncu.log"; exit 1; }
python3 "$here/table.py" "$out/ncu.csv" | tee "$out/table.md"
