#!/bin/sh
# The searchers on cutune's own recordings (data/*.jsonl.gz, measured on the H200): a
# GPU and kernels that are not in ../shared/data, so a held-out check of methods chosen
# on those recordings. Budgets 20-200, 50 seeds, constraint-aware (the recordings hold
# only valid configurations), --per-seed. Results (results.md/.csv/.json, runs.csv,
# plots/) land in benchmarks/searchers/h200/. Extra arguments go to `cutune bench`.
#
#   benchmarks/searchers/run-h200.sh [BUILD_DIR] [-- cutune bench options]
set -eu
. "$(dirname "$0")/find-cutune.sh"
cd "$root"
start=$(date +%s)
"$exe" bench --searchers=random,grid,genetic,bo --budgets=20,40,60,100,200 --seeds=50 \
  --convention=constraint-aware --per-seed --out=benchmarks/searchers/h200 "$@" data/*.jsonl.gz
sed -n '/^### Mean over/,/^Cells:/p' benchmarks/searchers/h200/results.md
echo "run-h200.sh: $(( $(date +%s) - start )) s wall, $(nproc) cores" >&2
