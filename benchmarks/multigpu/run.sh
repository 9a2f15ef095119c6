#!/bin/bash
# Several GPUs of one host: `cutune --searcher=bo --budget=B --devices=D gemm` for each
# device list D, from an empty compile cache. Per run: wall time, evaluations per minute,
# each worker's busy share (its bench_ms, verification + timing, over the wall time) and
# the best time found. On a one-GPU machine, "0,0" runs two workers on the one GPU (two
# kernels timed at once there: a test of the machinery, not a measurement to compare
# times by). Prints a table; writes results.csv and results.json into OUTDIR.
# No tuning database (CUTUNE_DB=none): every run measures; with one, a run repeating
# an earlier run's proposals is answered from it and its wall time is not a tuning's.
#   benchmarks/multigpu/run.sh BUILD_DIR OUTDIR [BUDGET] [DEVICE_LISTS...]
#   e.g. benchmarks/multigpu/run.sh build-gpu benchmarks/multigpu/results 120 0 0,1 0,1,2,3
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
budget=${3:-120}
shift 3 2>/dev/null || shift $#
lists=("$@")
[ ${#lists[@]} -eq 0 ] && lists=(0 0,0)
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "no $exe: build first"; exit 1; }
command -v nvidia-smi >/dev/null || { echo "skipped: no nvidia-smi (no GPU)"; exit 0; }
mkdir -p "$out/journals"
csv=$out/results.csv
echo "devices,wall_s,evals_per_min,worker_shares,best_ms,evaluations" > "$csv"
for d in "${lists[@]}"; do
    cache=$(mktemp -d)
    j=$out/journals/bo-devices-${d//,/_}.jsonl
    rm -f "$j"
    t0=$(date +%s.%N)
    CUTUNE_DB=none CUTUNE_CACHE_DIR=$cache "$exe" --evaluator=cuda --searcher=bo --budget="$budget" \
        --devices="$d" --no-progress --journal="$j" gemm > "${j%.jsonl}.txt" 2>&1
    t1=$(date +%s.%N)
    rm -rf "$cache"
    python3 - "$j" "$t0" "$t1" "$d" >> "$csv" <<'PY'
import json, sys
j, t0, t1, d = sys.argv[1:]
wall = float(t1) - float(t0)
lines = [json.loads(l) for l in open(j)]
head, ev = lines[0], lines[1:]
nw = len(head.get("workers", [])) or 1
busy = [0.0] * nw
for e in ev:
    busy[e.get("worker", 0)] += (e["bench_ms"] or 0) / 1000
ok = [e["time_ms"] for e in ev if e["status"] == "ok"]
print(f"\"{d}\",{wall:.2f},{len(ev) / wall * 60:.1f},\"{' '.join(f'{b / wall:.2f}' for b in busy)}\","
      f"{min(ok) if ok else float('nan'):.4f},{len(ev)}")
PY
done
python3 - "$csv" "$out/results.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
json.dump(rows, open(sys.argv[2], "w"), indent=1)
print(f"{'devices':10} {'wall_s':>7} {'evals/min':>9} {'worker shares':>14} {'best_ms':>8} {'evals':>5}")
for r in rows:
    print(f"{r['devices']:10} {r['wall_s']:>7} {r['evals_per_min']:>9} {r['worker_shares']:>14} {r['best_ms']:>8} {r['evaluations']:>5}")
PY
