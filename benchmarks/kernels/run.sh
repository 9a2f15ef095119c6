#!/bin/sh
# Kernel benchmark: cutune's tuned kernels against their ceilings, side by side in one run.
#
#   benchmarks/kernels/run.sh [OUT_DIR]        (default: this directory)
#
# Builds one binary per (kernel, size) from bench_kernels.cu in parallel (nvcc -arch=sm_90
# -O3 -lcublas; the best configuration of each kernel is benchmarks/kernels/best/NAME.h,
# a `cutune --header=` export), runs them one after another on the GPU, prints a table
# (kernel, shape, time, TFLOP/s or GB/s, ceiling, % of ceiling, rel err) and writes
# OUT_DIR/results.json, OUT_DIR/results.csv and OUT_DIR/logs/ (build and run logs).
#
# Environment: NVCC (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc), ARCH (sm_90),
# JOBS (parallel builds, default min(16, cores)), BEST_DIR (default best/), BUILD_DIR
# (default $TMPDIR/cutune-bench-kernels), ONLY (comma-separated row ids, e.g.
# ONLY=copy,gemm_4096), RUN_TIMEOUT (seconds per binary, default 120).
# Flags after OUT_DIR go to bench.py: --build-only, --dry-run (no GPU: prints each
# binary's evaluated launch geometry and arguments).
# Exit status 0 when every row built, ran and verified.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    out=$1
    shift
fi
mkdir -p "$out"
exec python3 "$here/bench.py" --out "$out" "$@"
