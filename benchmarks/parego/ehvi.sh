#!/usr/bin/env bash
# bo's expected hypervolume improvement (bo:mo=ehvi) against ParEGO (bo:mo=parego), NSGA-II
# (genetic) and random search, by hypervolume, at 60 and 120 evaluations, on the two H200
# energy recordings and on the synthetic fronts of run.sh (mkfront.py, mkfront2.py).
# Usage: [OUT=DIR] [RECS="gemm-energy reduction-energy front front2"] \
#        benchmarks/parego/ehvi.sh [CUTUNE] [SEEDS]
# (defaults: benchmarks/parego/results-ehvi, build-r/src/cli/cutune, 20)
# Writes OUT/<recording>/{table.txt,objectives.csv} and OUT/paired.md: EHVI less ParEGO and
# EHVI less random, paired by seed, with the standard error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cutune=${1:-$root/build-r/src/cli/cutune}
seeds=${2:-20}
out=${OUT:-$here/results-ehvi}
recs=${RECS:-gemm-energy reduction-energy front front2}
mkdir -p "$out"
for n in $recs; do
    case $n in
    front) python3 "$here/mkfront.py" "$out/front.json.gz"; r=$out/front.json.gz ;;
    front2) python3 "$here/mkfront2.py" "$out/front2.json.gz"; r=$out/front2.json.gz ;;
    *) r=$root/data/$n.jsonl.gz ;;
    esac
    mkdir -p "$out/$n"
    nice "$cutune" bench --objectives=time,energy --searchers=random,genetic,bo:mo=parego,bo:mo=ehvi \
        --budgets=60,120 --seeds="$seeds" --out="$out/$n" "$r" | tee "$out/$n/table.txt"
done
{
    python3 "$here/paired.py" --a=bo:mo=ehvi --b=bo:mo=parego "$out"/*/objectives.csv
    echo
    python3 "$here/paired.py" --a=bo:mo=ehvi --b=random "$out"/*/objectives.csv
} | tee "$out/paired.md"
