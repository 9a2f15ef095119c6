#!/bin/bash
# A 60-evaluation random run on each GEMM recording of ../shared/data, loading
# the .json.gz included, timed end to end (process start to exit) as a user
# runs it. Target: under 0.5 s. Prints a table and writes results.json and
# results.csv beside this script.
#   benchmarks/replay/run.sh [BUILD_DIR]     (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
exe=$build/src/cli/cutune
data=${CUTUNE_SHARED_DATA:-$root/../shared/data}/kt-caches
[ -x "$exe" ] || { echo "no $exe: build first (meson setup build && ninja -C build)"; exit 1; }
[ -d "$data" ] || { echo "skipped: $data not found"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reps=5
echo "file,rep,seconds" > "$tmp/raw.csv"
printf '%-28s %10s %10s %10s\n' recording best_s median_s target
rows=()
for f in "$data"/GEMM_*.json.gz "$data"/gemm_*.json.gz; do
    name=$(basename "$f" .json.gz)
    times=()
    for r in $(seq 1 $reps); do
        rm -f "$tmp/j.jsonl" # cutune refuses to truncate an existing journal
        t0=$(date +%s.%N)
        "$exe" --searcher=random --budget=60 --seed=$r --no-progress \
            --journal="$tmp/j.jsonl" "$f" >/dev/null
        t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        times+=("$t")
        echo "$name,$r,$t" >> "$tmp/raw.csv"
    done
    read -r best med < <(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[1], a[int((NR+1)/2)]}')
    printf '%-28s %10.3f %10.3f %10s\n' "$name" "$best" "$med" "0.5"
    rows+=("$name,$best,$med")
done
{
    echo "recording,best_s,median_s,reps,target_s"
    for r in "${rows[@]}"; do echo "$r,$reps,0.5"; done
} > "$here/results.csv"
python3 - "$here/results.csv" "$here/results.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
json.dump({"benchmark": "60-evaluation random run on a recording, process start to exit",
           "command": "cutune --searcher=random --budget=60 --seed=R --no-progress --journal=J FILE.json.gz",
           "rows": [{k: (float(v) if k.endswith("_s") else v) for k, v in r.items()} for r in rows]},
          open(sys.argv[2], "w"), indent=2)
PY
echo "wrote $here/results.csv and $here/results.json"
