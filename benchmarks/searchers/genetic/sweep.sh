#!/bin/sh
# genetic's variants against random search, each in a bench run of its own (50 seeds,
# budgets 20-200): on the 13 H200 recordings (data/, constraint-aware) and on the 15 Kernel
# Tuner recordings (../shared/data/kt-caches or $CUTUNE_SHARED_DATA/kt-caches, both
# conventions, skipped when absent). Prints one CSV row per (variant, recordings,
# convention): the cells not above random (as results.md counts them) and the mean
# fraction of the optimum at each budget and P over evaluations, read from each run's
# results.md and results.csv. Bench folders land in a temporary folder, removed at the end.
#
#   benchmarks/searchers/genetic/sweep.sh [BUILD_DIR] [-- VARIANT ...] > sweep.csv
set -eu
# find-cutune.sh's rule, from one folder deeper: BUILD_DIR (default build), then "--"
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
exe=$root/$build/src/cli/cutune
[ -x "$exe" ] || exe=$root/$build/cutune
[ -x "$exe" ] || { echo "sweep.sh: no cutune binary under $root/$build" >&2; exit 2; }
cd "$root"
# (uniform seeding, spread=0: the variants of sweep.csv)
[ $# -gt 0 ] || set -- genetic:spread=0 genetic:cx=0.3,spread=0 genetic:cx=0.9,spread=0 \
  genetic:pop=6,spread=0 genetic:pop=12,spread=0 genetic:init=4,spread=0 \
  genetic:tour=2,spread=0 genetic:tour=64,spread=0 genetic:stall=1000,spread=0
kt=${CUTUNE_SHARED_DATA:-$root/../shared/data}/kt-caches
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "variant,recordings,convention,not_above_random,judged,B20,B40,B60,B100,B200,p_evals"
row() { # folder variant recordings
  python3 - "$@" <<'PY'
import csv, re, sys
out, label, recs = sys.argv[1:4]
md = open(out + "/results.md").read()
rows = [r for r in csv.DictReader(open(out + "/results.csv", newline="")) if r["searcher"] == label]
for conv in dict.fromkeys(r["convention"] for r in rows):
    sec = md.split("### Not above random (%s)" % conv, 1)[1]
    m = re.search(r"^- %s: (\d+) of (\d+) cells$" % re.escape(label), sec, re.M)
    mean = lambda b: sum(float(r["mean"]) for r in rows if r["convention"] == conv and r["budget"] == b) / \
        sum(1 for r in rows if r["convention"] == conv and r["budget"] == b)
    p = [float(r["p_evals"]) for r in rows if r["convention"] == conv and r["budget"] == "200"]
    print(",".join([label if "," not in label else '"%s"' % label, recs, conv, m.group(1), m.group(2)] +
                   ["%.3f" % mean(b) for b in ("20", "40", "60", "100", "200")] + ["%.3f" % (sum(p) / len(p))]))
PY
}
i=0
for v in "$@"; do
  i=$((i + 1))
  nice "$exe" bench --searcher=random --searcher="$v" --budgets=20,40,60,100,200 --seeds=50 \
    --convention=constraint-aware --jobs=1 --quiet --no-plots --out="$tmp/h$i" data/*.jsonl.gz \
    >/dev/null 2>&1
  row "$tmp/h$i" "$v" h200
  if [ -d "$kt" ]; then
    nice "$exe" bench --searcher=random --searcher="$v" --budgets=20,40,60,100,200 --seeds=50 \
      --convention=both --jobs=1 --quiet --no-plots --out="$tmp/k$i" "$kt" >/dev/null 2>&1
    row "$tmp/k$i" "$v" kt
  fi
done
