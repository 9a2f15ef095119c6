#!/bin/sh
# Ablation of bo's defaults: the default against bo with one of its parts turned off, on
# the 15 Kernel Tuner cache recordings of ../shared/data/kt-caches (an optional external
# data set, not in the repository; or $CUTUNE_SHARED_DATA/kt-caches), 50 seeds, runs of
# 20 and 60 evaluations, constraint-aware. Results (results.md/.csv/.json, runs.csv)
# land in benchmarks/bo/ablation/. Extra arguments go to `cutune bench` (e.g. --jobs=N).
#
#   benchmarks/bo/ablation.sh [BUILD_DIR] [-- cutune bench options]
set -eu
. "$(dirname "$0")/../searchers/find-cutune.sh"
data=${CUTUNE_SHARED_DATA:-$root/../shared/data}/kt-caches
[ -d "$data" ] || { echo "ablation.sh: no recordings in $data (set CUTUNE_SHARED_DATA)" >&2; exit 77; }
cd "$root"
case $data in
  "$root/../shared/data/kt-caches") rec=../shared/data/kt-caches ;;
  *) rec=$data ;;
esac
start=$(date +%s)
"$exe" bench --searchers=bo,bo:pairs=0,bo:early=safe,bo:warp=none,bo:lin=0 \
  --budgets=20,60 --seeds=50 --convention=constraint-aware --per-seed --no-plots \
  --out=benchmarks/bo/ablation "$@" "$rec"
echo "ablation.sh: $(( $(date +%s) - start )) s wall, $(nproc) cores" >&2
