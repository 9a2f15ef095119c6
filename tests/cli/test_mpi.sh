#!/usr/bin/env bash
# Several processes through MPI, on one machine over loopback: `mpirun -n 5 cutune ...`
# (rank 0 tunes, ranks 1..4 evaluate) with the replay evaluator sleeping each
# evaluation's recorded time (CUTUNE_REPLAY_SLEEP), so that the schedule runs in real
# wall time. Checks the journal against what the ranks did, and that the run finishes
# on the ranks left when one is killed mid-run. Skipped (77) where mpirun is absent or
# cutune was built without MPI.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
root=${CUTUNE_SOURCE_ROOT:-$here/../..}
command -v mpirun >/dev/null || { echo "mpirun not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp,vader
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 # Open MPI's own allocations at exit
. "$here/lib.sh"
gemm=$root/data/gemm.jsonl.gz
mpi() { timeout 120 mpirun --oversubscribe --enable-recovery "$@"; }

out=$(mpi -n 2 "$exe" --budget=2 --no-progress --journal=probe.jsonl "$gemm" 2>&1)
if grep -q "built without MPI" <<<"$out"; then echo "cutune built without MPI"; exit 77; fi

# --rank-timeout needs ranks to wait for: under 'mpirun -n 1' it is refused (it would go
# unused); the runs below give it with several processes and use it
out=$(mpi -n 1 "$exe" --budget=2 --no-progress --rank-timeout=5 --journal=one.jsonl "$gemm" 2>&1)
grep -q "^cutune: --rank-timeout=5: applies only to a run launched as several processes" <<<"$out" \
    && [ ! -e one.jsonl ] && ok "mpirun -n 1 --rank-timeout: refused, nothing written" \
    || bad "mpirun -n 1 --rank-timeout: refused, nothing written" "$out"
# a multi-shape run is not spread over the ranks: each ran every shape itself
out=$(mpi -n 2 "$exe" --sizes='M=N=K=1024;M=N=K=2048' --budget=2 --no-progress --journal=ms \
    "$root/kernels/gemm_h.json" 2>&1)
grep -q "^cutune: --sizes: a multi-shape run is not spread over MPI ranks: each of the 2 processes" <<<"$out" \
    && ! ls ms-* >/dev/null 2>&1 && ok "mpirun -n 2 --sizes: refused, no journal" \
    || bad "mpirun -n 2 --sizes: refused, no journal" "$out$(ls ms-* 2>/dev/null)"

check() { # JOURNAL BUDGET RANKS
    python3 - "$@" <<'PY'
import json, sys
path, budget, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [json.loads(l) for l in open(path)]
head, ev = lines[0], lines[1:]
assert len(ev) == budget, f"{len(ev)} evaluations"
cfgs = [json.dumps(e["config"], sort_keys=True) for e in ev]
assert len(set(cfgs)) == budget, "a configuration evaluated twice"
assert len(head["workers"]) == ranks, head["workers"]
assert all(w.startswith(f"rank {i + 1}: replay of") for i, w in enumerate(head["workers"]))
used = {e["worker"] for e in ev}
assert used <= set(range(ranks)), used
print(f"  {len(used)} ranks evaluated; wall {ev[-1]['elapsed_s']:.2f} s")
PY
}

export CUTUNE_REPLAY_SLEEP=0.01
mpi -n 5 "$exe" --searcher=bo --budget=40 --no-progress --journal=m5.jsonl \
    --evaluator=replay:"$gemm" "$gemm" >m5.txt 2>&1
rc=$?
if [ $rc -eq 0 ] && out=$(check m5.jsonl 40 4 2>&1); then
    ok "mpirun -n 5: 40 evaluations on 4 ranks, nothing twice"; echo "$out"
else bad "mpirun -n 5: exit $rc" "$(cat m5.txt; check m5.jsonl 40 4 2>&1)"; fi
python3 - m5.jsonl <<'PY' && ok "every evaluating rank did work" || bad "every evaluating rank did work"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])][1:]
sys.exit(0 if len({e["worker"] for e in ev}) == 4 else 1)
PY

# One rank killed mid-run: its evaluation is re-queued, the run ends on the other three.
export CUTUNE_REPLAY_SLEEP=0.05
mpi -n 5 "$exe" --searcher=random --budget=60 --no-progress --rank-timeout=5 \
    --journal=k5.jsonl --evaluator=replay:"$gemm" "$gemm" >k5.txt 2>&1 &
job=$!
victim=""
for _ in $(seq 1 200); do
    for p in $(pgrep -f "cutune --searcher=random --budget=60"); do
        if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=2"; then victim=$p; fi
    done
    [ -n "$victim" ] && [ -f k5.jsonl ] && [ "$(wc -l <k5.jsonl)" -gt 10 ] && break
    sleep 0.05
done
[ -n "$victim" ] && kill -KILL "$victim"
wait $job
rc=$?
if [ -n "$victim" ] && [ $rc -eq 0 ] && grep -q "rank 2 did not answer" k5.txt && out=$(check k5.jsonl 60 4 2>&1); then
    ok "rank 2 killed mid-run: the run finished on the others, nothing twice"; echo "$out"
else bad "rank 2 killed mid-run (victim '${victim}', exit $rc)" "$(tail -5 k5.txt; check k5.jsonl 60 4 2>&1)"; fi
python3 - k5.jsonl <<'PY' && ok "no evaluation from the killed rank after its death" || bad "no evaluation from the killed rank after its death"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])][1:]
w = [e["worker"] for e in ev]
last = max(i for i, x in enumerate(w) if x == 1) if 1 in w else -1
sys.exit(0 if last < len(w) - 5 else 1)   # rank 2 is worker 1; the others went on after it
PY

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
