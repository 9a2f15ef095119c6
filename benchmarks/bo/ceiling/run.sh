#!/bin/sh
# Ceiling diagnostic of bo: what it reaches when its GP hyper-parameters and output warp
# are not fitted to the run's own points but fixed in advance to a fit of the whole
# recording (benchmarks/bo/README.md, section 10).
#
#   benchmarks/bo/ceiling/run.sh [RECORDING.json.gz ...]     (run from the project root)
#
# Default recordings: all of ${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches. BUILD (a
# meson build dir with libcutune.a, default build), SEEDS (50), SEED0 (1000), JOBS (2) and
# PARTS (both | hyper | warp: which part of the model is fixed, default both) come from
# the environment. Steps: fit_global writes hyper/NAME.txt for every recording
# that has none (delete one to refit); bo with bo-fixed-hyper.patch is built in a
# temporary git worktree of HEAD; each recording runs bench_convergence with
# CUTUNE_BO_FIXED_HYPER and bo:lweak=0 (the default when this diagnostic was made: local
# steps by the main model, so that every step uses the fixed model); summary.py compares
# with that default's ../variants/lweak0.csv (50 seeds from 1000). Only a run over all the recordings with those seeds rewrites
# ceiling.csv / ceiling.md here (ceiling-hyper.* / ceiling-warp.* for PARTS=hyper / warp);
# any other run prints its table and keeps the files.
set -e
HERE=benchmarks/bo/ceiling
BUILD=${BUILD:-build}
DATA=${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches
SEEDS=${SEEDS:-50}
SEED0=${SEED0:-1000}
PARTS=${PARTS:-both}
case $PARTS in
  both) NAME=ceiling ;;
  hyper | warp) NAME=ceiling-$PARTS ;;
  *) echo "ceiling: PARTS=$PARTS is not both, hyper or warp" >&2; exit 2 ;;
esac
FULL=0
if [ $# -eq 0 ]; then
  set -- "$DATA"/*.json.gz
  [ "$SEEDS" = 50 ] && [ "$SEED0" = 1000 ] && FULL=1
fi
for f in "$@"; do
  [ -f "$f" ] || { echo "ceiling: no recording $f" >&2; exit 1; }
done

WT=$(mktemp -d /tmp/cutune-ceiling.XXXXXX)
TMPF=
cleanup() {
  [ -z "$TMPF" ] || rm -f "$TMPF"
  git worktree remove --force "$WT" >/dev/null 2>&1 || { rm -rf "$WT"; git worktree prune; }
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ninja -C "$BUILD" libcutune.a >/dev/null
LIBS="$BUILD/libcutune.a $(pkg-config --libs openblas lapacke gsl libcjson zlib) -lm -ldl -lpthread"
cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$BUILD" $HERE/fit_global.c $LIBS -o "$BUILD/fit_global"

# all fits first: a failed one stops the run before any benchmark time is spent
mkdir -p $HERE/hyper
for f in "$@"; do
  n=$(basename "$f" .json.gz)
  [ -s $HERE/hyper/$n.txt ] && continue
  echo "== global fit: $n"
  TMPF=$(mktemp $HERE/hyper/.$n.XXXXXX)
  OPENBLAS_NUM_THREADS=1 "$BUILD/fit_global" "$f" > "$TMPF"
  mv "$TMPF" $HERE/hyper/$n.txt
  TMPF=
done

git worktree add --detach "$WT" HEAD >/dev/null
git -C "$WT" apply "$PWD/$HERE/bo-fixed-hyper.patch"
(cd "$WT" && meson setup build-ceiling --buildtype=release -Dtests=disabled -Dnvrtc=disabled \
   >/dev/null && benchmarks/bo/build.sh build-ceiling)
mkdir -p "$WT/out"
for f in "$@"; do
  n=$(basename "$f" .json.gz)
  echo "== bo with the model fixed in advance ($PARTS): $n"
  CUTUNE_BO_FIXED_PARTS=$PARTS CUTUNE_BO_FIXED_HYPER="$(cat $HERE/hyper/$n.txt)" "$WT/build-ceiling/bench_convergence" \
    --seeds "$SEEDS" --seed0 "$SEED0" --jobs "${JOBS:-2}" --searcher bo:lweak=0 \
    --budgets 20,40,60,100,200 --out "$WT/out/$n" "$f" >/dev/null
done
if [ $FULL = 1 ]; then
  python3 $HERE/summary.py --parts $PARTS --csv $HERE/$NAME.csv benchmarks/bo/variants/lweak0.csv \
    "$WT"/out/*/convergence.csv > $HERE/$NAME.md
  cat $HERE/$NAME.md
else
  echo "(a partial run or other seeds: $NAME.csv / $NAME.md left as they are)"
  python3 $HERE/summary.py --parts $PARTS --csv "$WT/$NAME.csv" benchmarks/bo/variants/lweak0.csv \
    "$WT"/out/*/convergence.csv
fi
