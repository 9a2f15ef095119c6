#!/bin/sh
# The searcher-comparison benchmark: every searcher on every recording in
# ../shared/data/kt-caches (or $CUTUNE_SHARED_DATA/kt-caches), budgets 20-200,
# 50 seeds, both budget conventions. Results (results.md/.csv/.json, plots/)
# land in benchmarks/searchers/results/. Extra arguments go to `cutune bench`
# (e.g. --searchers=random,grid,genetic while bo is not built, or --jobs=2).
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
"$exe" bench --searchers=random,grid,genetic,bo --budgets=20,40,60,100,200 --seeds=50 \
  --convention=both --out=benchmarks/searchers/results "$@" "$rec"
echo "run.sh: $(( $(date +%s) - start )) s wall, $(nproc) cores" >&2
