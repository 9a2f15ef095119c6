#!/bin/sh
# The searcher-comparison benchmark: every searcher and the plain GP reference
# (bo:preset=plain) on every recording in ../shared/data/kt-caches (or
# $CUTUNE_SHARED_DATA/kt-caches), budgets 20-200, 50 seeds, both budget conventions:
# constraint-aware with the spaces' restrictions (benchmarks/searchers/restrictions:
# a configuration they allow that a recording lacks is a failure that costs an
# evaluation) and Cartesian; the cells not above random search and the
# leave-one-GPU-out tables (--split). Results (results.md/.csv/.json, vs-random.csv,
# split.csv, plots/) land in benchmarks/searchers/results/. Extra arguments go to
# `cutune bench` (e.g. --jobs=2).
#
#   benchmarks/searchers/run.sh [BUILD_DIR] [-- cutune bench options]
set -eu
. "$(dirname "$0")/find-cutune.sh"
data=${CUTUNE_SHARED_DATA:-$root/../shared/data}/kt-caches
[ -d "$data" ] || { echo "run.sh: no recordings in $data (set CUTUNE_SHARED_DATA)" >&2; exit 77; }
cd "$root"
start=$(date +%s)
# The folder is passed relative to the root when it is the default one, so
# that results.md quotes the same command on every machine.
case $data in
  "$root/../shared/data/kt-caches") rec=../shared/data/kt-caches ;;
  *) rec=$data ;;
esac
"$exe" bench --searchers=random,grid,genetic,bo,bo:preset=plain --budgets=20,40,60,100,200 \
  --seeds=50 --convention=both --restrictions=benchmarks/searchers/restrictions --split \
  --out=benchmarks/searchers/results "$@" "$rec"
echo "run.sh: $(( $(date +%s) - start )) s wall, $(nproc) cores" >&2
