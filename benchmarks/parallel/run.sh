#!/bin/sh
# Simulated scale-out of the tuner loop: bo, genetic and random with 1, 2, 4, 8 and 16
# workers on every recording that holds compile and benchmark times (data/*.jsonl.gz,
# and ../shared/data/kt-caches where that optional data set exists; recordings without
# times are left out, said on stderr). Writes scaleout.csv and scaleout.json here.
#   benchmarks/parallel/run.sh [BUILD] [SEEDS]   (run from the project root; default build, 50)
set -e
BUILD=${1:-build}
SEEDS=${2:-50}
here=$(dirname "$0")
benchmarks/parallel/build.sh "$BUILD"
shared=${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches
extra=""
[ -d "$shared" ] && extra="$shared/*.json.gz"
# shellcheck disable=SC2086
"$BUILD/bench_parallel" --seeds "$SEEDS" --out "$here/scaleout" data/*.jsonl.gz $extra
