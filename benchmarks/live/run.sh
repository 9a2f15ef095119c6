#!/bin/bash
# Live tuning on a GPU, as a user runs it: `cutune --searcher=S --budget=B [--parallel=P] gemm`
# for each searcher and --parallel, first from an empty compile cache (cold), then again
# with the cache it left (warm). Per run: wall time (process start to exit), the share
# of the wall time the GPU was running kernels (nvidia-smi's utilization.gpu sampled
# every 100 ms: the fraction of each sample period in which a kernel ran), the GPU
# worker's share (sum of bench_ms, verification + timing, over wall time) and the best
# time found. Prints a table; writes results.csv and results.json into OUTDIR.
# No tuning database (CUTUNE_DB=none): every run measures; with one, a run repeating
# an earlier run's proposals is answered from it and its wall time is not a tuning's.
#   benchmarks/live/run.sh BUILD_DIR OUTDIR [SEARCHERS] [PARALLELS] [BUDGET] [KERNEL]
#   e.g. benchmarks/live/run.sh build-gpu benchmarks/live/results "bo genetic random" "1 2 4 8 default" 60 gemm
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
searchers=${3:-bo}
parallels=${4:-1 2 4 8 default}
budget=${5:-60}
kernel=${6:-gemm}
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "no $exe: build first"; exit 1; }
command -v nvidia-smi >/dev/null || { echo "skipped: no nvidia-smi (no GPU)"; exit 0; }
mkdir -p "$out/journals"
csv=$out/results.csv
echo "searcher,parallel,cache,wall_s,gpu_util,worker_share,best_ms,evaluations,ok" > "$csv"
for s in $searchers; do
    for p in $parallels; do
        cache=$(mktemp -d)
        popt=""
        [ "$p" != default ] && popt="--parallel=$p"
        for mode in cold warm; do
            j=$out/journals/$s-p$p-$mode.jsonl
            rm -f "$j" "$out/util.txt"
            nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 100 \
                > "$out/util.txt" 2>/dev/null &
            smi=$!
            t0=$(date +%s.%N)
            CUTUNE_DB=none CUTUNE_CACHE_DIR=$cache "$exe" --searcher="$s" --budget="$budget" $popt \
                --no-progress --journal="$j" --output="$out/summary.json" "$kernel" \
                > "$out/journals/$s-p$p-$mode.txt" 2>&1
            t1=$(date +%s.%N)
            kill $smi 2>/dev/null; wait $smi 2>/dev/null
            python3 - "$j" "$out/util.txt" "$t0" "$t1" "$s" "$p" "$mode" >> "$csv" <<'PY'
import json, sys
j, util, t0, t1, s, p, mode = sys.argv[1:]
wall = float(t1) - float(t0)
lines = [json.loads(l) for l in open(j)][1:]
u = [float(x) for x in open(util).read().split() if x.replace('.', '').isdigit()]
gpu = sum(u) / len(u) / 100 if u else float('nan')
bench = sum(l['bench_ms'] or 0 for l in lines) / 1000
ok = [l['time_ms'] for l in lines if l['status'] == 'ok']
best = min(ok) if ok else float('nan')
print(f"{s},{p},{mode},{wall:.2f},{gpu:.3f},{bench / wall:.3f},{best:.4f},{len(lines)},{len(ok)}")
PY
        done
        rm -rf "$cache"
    done
done
rm -f "$out/util.txt" "$out/summary.json"
python3 - "$csv" "$out/results.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
json.dump(rows, open(sys.argv[2], 'w'), indent=1)
print(f"{'searcher':8} {'parallel':>8} {'cache':>5} {'wall_s':>7} {'gpu_util':>8} {'worker':>6} {'best_ms':>8} {'evals':>5}")
for r in rows:
    print(f"{r['searcher']:8} {r['parallel']:>8} {r['cache']:>5} {r['wall_s']:>7} {r['gpu_util']:>8} {r['worker_share']:>6} {r['best_ms']:>8} {r['evaluations']:>5}")
PY
