#!/bin/sh
# Ceiling diagnostic of bo: what it reaches when its GP hyper-parameters are not fitted
# to the run's own points but fixed to a global fit of the whole recording
# (benchmarks/bo/README.md, section 10).
#
#   benchmarks/bo/ceiling/run.sh [RECORDING.json.gz ...]     (run from the project root)
#
# Default recordings: all of ${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches. BUILD (a
# meson build dir with libcutune.a, default build), SEEDS (50), SEED0 (1000) and JOBS (2)
# come from the environment. Steps: fit_global writes hyper/NAME.txt (kept: delete one to
# refit); bo with bo-fixed-hyper.patch is built in a temporary git worktree of HEAD; each
# recording runs bench_convergence with CUTUNE_BO_FIXED_HYPER; summary.py writes
# ceiling.csv / ceiling.md beside this script, against the default's ../convergence.csv.
set -e
HERE=benchmarks/bo/ceiling
BUILD=${BUILD:-build}
DATA=${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches
[ $# -gt 0 ] || set -- "$DATA"/*.json.gz
[ -f "$1" ] || { echo "ceiling: no recordings ($1)" >&2; exit 1; }

ninja -C "$BUILD" libcutune.a >/dev/null
LIBS="$BUILD/libcutune.a $(pkg-config --libs openblas lapacke gsl libcjson zlib) -lm -ldl -lpthread"
cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$BUILD" $HERE/fit_global.c $LIBS -o "$BUILD/fit_global"

WT=$(mktemp -d /tmp/cutune-ceiling.XXXXXX)
trap 'git worktree remove --force "$WT" >/dev/null 2>&1 || rm -rf "$WT"' EXIT INT TERM
git worktree add --detach "$WT" HEAD >/dev/null
git -C "$WT" apply "$PWD/$HERE/bo-fixed-hyper.patch"
(cd "$WT" && meson setup build-ceiling --buildtype=release -Dtests=disabled -Dnvrtc=disabled \
   >/dev/null && benchmarks/bo/build.sh build-ceiling)

mkdir -p $HERE/hyper "$WT/out"
for f in "$@"; do
  n=$(basename "$f" .json.gz)
  if [ ! -s $HERE/hyper/$n.txt ]; then
    echo "== global fit: $n"
    OPENBLAS_NUM_THREADS=1 "$BUILD/fit_global" "$f" > $HERE/hyper/$n.txt.tmp
    mv $HERE/hyper/$n.txt.tmp $HERE/hyper/$n.txt
  fi
  echo "== bo with fixed hyper-parameters: $n"
  CUTUNE_BO_FIXED_HYPER="$(cat $HERE/hyper/$n.txt)" "$WT/build-ceiling/bench_convergence" \
    --seeds "${SEEDS:-50}" --seed0 "${SEED0:-1000}" --jobs "${JOBS:-2}" \
    --budgets 20,40,60,100,200 --out "$WT/out/$n" "$f" >/dev/null
done
python3 $HERE/summary.py benchmarks/bo/convergence.csv "$WT"/out/*/convergence.csv \
  > $HERE/ceiling.md
cat $HERE/ceiling.md
