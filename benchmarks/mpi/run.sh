#!/bin/bash
# MPI over loopback on one machine: 1 searcher rank + K evaluating ranks, each evaluation
# sleeping its recorded compile + benchmark time times SCALE (CUTUNE_REPLAY_SLEEP), so
# that the schedule runs in wall time. Measures
#   - throughput (evaluations per second) with 4 evaluating ranks against 1 (random,
#     budget 80, gemm's H200 recording);
#   - whether the searcher keeps up: bo against random, budget 500 on xgemm's recording
#     (17,956 configurations) with 4 evaluating ranks: with equal throughput, bo's
#     proposals (up to n = 500 observations) are hidden under the evaluations they wait on.
# Prints a table; writes results.csv and results.json beside this script.
# Each at two scales (wall seconds per recorded second): 0.05 and 0.2 by default.
#   benchmarks/mpi/run.sh [BUILD] [SCALES]   (run from the project root; default build, "0.05 0.2")
set -euo pipefail
BUILD=${1:-build}
SCALES=${2:-0.05 0.2}
here=$(cd "$(dirname "$0")" && pwd)
exe=$BUILD/src/cli/cutune
command -v mpirun >/dev/null || { echo "skipped: mpirun not installed"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp,vader
export ASAN_OPTIONS=detect_leaks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "scale,searcher,recording,budget,ranks,wall_s,evals_per_s,mean_eval_s" > "$here/results.csv"
run() { # SEARCHER RECORDING BUDGET NPROC
    local j=$tmp/$SCALE-$1-$3-$4.jsonl
    local t0 t1
    t0=$(date +%s.%N)
    CUTUNE_REPLAY_SLEEP=$SCALE mpirun --oversubscribe -n "$4" "$exe" --searcher="$1" \
        --budget="$3" --no-progress --journal="$j" --evaluator=replay:"$2" "$2" >/dev/null 2>&1
    t1=$(date +%s.%N)
    python3 - "$j" "$1" "$2" "$3" "$4" "$t0" "$t1" "$SCALE" >> "$here/results.csv" <<'PY'
import json, os, sys
j, s, rec, budget, n, t0, t1, scale = sys.argv[1:]
ev = [json.loads(l) for l in open(j)][1:]
wall = ev[-1]["elapsed_s"]
mean = sum((e["compile_ms"] or 0) + (e["bench_ms"] or 0) for e in ev) / len(ev) / 1000 * float(scale)
name = os.path.basename(rec).split(".")[0]
print(f"{scale},{s},{name},{budget},{int(n) - 1},{wall:.3f},{len(ev) / wall:.2f},{mean:.4f}")
PY
}
for SCALE in $SCALES; do
    run random data/gemm.jsonl.gz 80 2
    run random data/gemm.jsonl.gz 80 5
    run random data/xgemm.jsonl.gz 500 5
    run bo data/xgemm.jsonl.gz 500 5
done
python3 - "$here/results.csv" "$here/results.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
json.dump(rows, open(sys.argv[2], "w"), indent=1)
print(f"{'scale':>5} {'searcher':8} {'recording':8} {'budget':>6} {'ranks':>5} {'wall_s':>8} {'evals/s':>8} {'eval_s':>7}")
for r in rows:
    print(f"{r['scale']:>5} {r['searcher']:8} {r['recording']:8} {r['budget']:>6} {r['ranks']:>5} {r['wall_s']:>8} {r['evals_per_s']:>8} {r['mean_eval_s']:>7}")
for i in range(0, len(rows), 4):
    g = rows[i:i + 4]
    print(f"scale {g[0]['scale']}: 4 evaluating ranks against 1: "
          f"{float(g[1]['evals_per_s']) / float(g[0]['evals_per_s']):.2f}x throughput; bo against "
          f"random at budget 500: {float(g[3]['evals_per_s']) / float(g[2]['evals_per_s']):.2f} "
          f"of the throughput ({(float(g[3]['wall_s']) - float(g[2]['wall_s'])) / 500 * 1000:.1f} "
          f"ms more per evaluation)")
PY
