#!/bin/bash
# Report benchmark: the wall time of `cutune report` (the page, with its 64-tree
# importance forest) and of `cutune report --text` on each shipped recording, the median
# of REPS runs, and the page's size.
#   benchmarks/report/run.sh [BUILD_DIR] [REPS]   (default: build-rel, 3; relative to the root)
# Prints a table and writes results.csv and results.json beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build-rel}
reps=${2:-3}
case $build in /*) ;; *) build="$root/$build" ;; esac
ninja -C "$build" src/cli/cutune >/dev/null
exe="$build/src/cli/cutune"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { # seconds of one run of the command
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
printf '%-12s %12s %10s %10s %12s\n' recording evaluations page_s text_s page_bytes
echo "recording,evaluations,page_s,text_s,page_bytes,reps" >"$work/results.csv"
for rec in "$root"/data/*.jsonl.gz; do
    k=$(basename "$rec" .jsonl.gz)
    n=$(zcat "$rec" | grep -c '"kind":"eval"')
    page=$(for _ in $(seq "$reps"); do seconds "$exe" report "$rec" --html="$work/$k.html"; done | median)
    text=$(for _ in $(seq "$reps"); do seconds "$exe" report --text "$rec"; done | median)
    bytes=$(stat -c %s "$work/$k.html")
    printf '%-12s %12d %10.3f %10.3f %12d\n' "$k" "$n" "$page" "$text" "$bytes"
    printf '%s,%d,%.3f,%.3f,%d,%d\n' "$k" "$n" "$page" "$text" "$bytes" "$reps" >>"$work/results.csv"
done
python3 - "$work/results.csv" "$here/results.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
json.dump([{k: (v if k == "recording" else float(v)) for k, v in r.items()} for r in rows],
          open(sys.argv[2], "w"), indent=1)
PY
cp "$work/results.csv" "$here/results.csv"
echo "wrote $here/results.csv $here/results.json"
