#!/bin/sh
# Benchmarks of the bo searcher; results are written beside this script.
#
#   benchmarks/bo/run.sh [BUILD] [DATA]      (run from the project root)
#
# BUILD: a meson build dir (default build-bo); DATA: the recordings (default
# ../shared/data/kt-caches, or $CUTUNE_SHARED_DATA/kt-caches). Skips the convergence
# benchmark when the recordings are absent. JOBS (default 2) and SEEDS (default 50)
# come from the environment.
set -e
BUILD=${1:-build-bo}
DATA=${2:-${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches}
OUT=benchmarks/bo
benchmarks/bo/build.sh "$BUILD"

echo "== proposal latency (median ms of propose(1))"
"$BUILD/bench_latency" --reps 7 --out "$OUT" | tee "$OUT/latency.md"

if ls "$DATA"/*.json.gz >/dev/null 2>&1; then
  echo "== convergence on the recordings in $DATA"
  "$BUILD/bench_convergence" --seeds "${SEEDS:-50}" --jobs "${JOBS:-2}" --out "$OUT" \
    --budgets 20,40,60,100,200 --each --runs "$DATA"/*.json.gz
else
  echo "convergence: no recordings in $DATA (skipped)"
fi
