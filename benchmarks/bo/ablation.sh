#!/bin/sh
# Ablation of bo's defaults: the default against bo with one of its parts turned off, on
# the 15 Kernel Tuner cache recordings of ../shared/data/kt-caches (an optional external
# data set, not in the repository; or $CUTUNE_SHARED_DATA/kt-caches), 50 seeds, runs of
# 20 and 60 evaluations, constraint-aware (-> benchmarks/bo/ablation/); the edge phase
# forced at 20 evaluations (-> ablation-edge20/); the pair moves on the two needle
# recordings, 250 seeds at 60 evaluations (-> ablation-pairs/). Each folder gets
# results.md/.csv/.json and runs.csv. Extra arguments go to `cutune bench` (e.g. --jobs=N).
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
"$exe" bench --searchers=bo,bo:early=edge --budgets=20 --seeds=50 --convention=constraint-aware \
  --per-seed --no-plots --out=benchmarks/bo/ablation-edge20 "$@" "$rec"
"$exe" bench --searchers=bo,bo:pairs=0 --budgets=60 --seeds=250 --convention=constraint-aware \
  --per-seed --no-plots --out=benchmarks/bo/ablation-pairs "$@" \
  "$rec/gemm_AMD_Vega.json.gz" "$rec/convolution_GTX_1080Ti.json.gz"
echo "ablation.sh: $(( $(date +%s) - start )) s wall, $(nproc) cores" >&2
