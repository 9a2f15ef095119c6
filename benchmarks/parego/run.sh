#!/usr/bin/env bash
# bo's multi-objective modes (mo=parego vs mo=geomean) against random and
# NSGA-II by hypervolume, on the two H200 energy recordings and two synthetic fronts.
# Usage: [OUT=DIR] benchmarks/parego/run.sh [CUTUNE] [SEEDS]   (defaults: benchmarks/parego/results,
# build-r/src/cli/cutune, 10)
# Writes benchmarks/parego/results/<recording>/{results,objectives.csv} and
# benchmarks/parego/results/paired.md (ParEGO less geomean, paired by seed, with its
# standard error).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cutune=${1:-$root/build-r/src/cli/cutune}
seeds=${2:-10}
out=${OUT:-$here/results}
mkdir -p "$out"
python3 "$here/mkfront.py" "$out/front.json.gz"
python3 "$here/mkfront2.py" "$out/front2.json.gz"
recs=("$root/data/gemm-energy.jsonl.gz" "$root/data/reduction-energy.jsonl.gz" "$out/front.json.gz" "$out/front2.json.gz")
for r in "${recs[@]}"; do
    n=$(basename "$r" | sed 's/\..*//')
    mkdir -p "$out/$n"
    nice "$cutune" bench --objectives=time,energy --searchers=random,genetic,bo:mo=parego,bo:mo=geomean \
        --budgets=30,60 --seeds="$seeds" --out="$out/$n" "$r" | tee "$out/$n/table.txt"
done
python3 "$here/paired.py" --a=bo:mo=parego "$out"/*/objectives.csv | tee "$out/paired.md"
