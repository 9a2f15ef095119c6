#!/usr/bin/env bash
# End-to-end tests of asynchronous evaluation (--parallel) under the replay evaluator,
# whose virtual clock makes a parallel schedule reproducible: determinism, N = 1 as the
# sequential loop, crash + resume with evaluations in flight, bad input.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
root=${CUTUNE_SOURCE_ROOT:-$here/../..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
gemm=$root/data/gemm.jsonl.gz # an H200 recording with compile and benchmark times

# Every eval line, checked: no configuration twice, the budget exact, submissions a
# permutation, workers within N, the virtual clock never going back.
check() { # JOURNAL BUDGET N
    python3 - "$@" <<'PY'
import json, sys
path, budget, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [json.loads(l) for l in open(path)]
head, ev = lines[0], lines[1:]
assert head["parallel"] == n, head["parallel"]
assert len(ev) == budget, len(ev)
cfgs = [json.dumps(e["config"], sort_keys=True) for e in ev]
assert len(set(cfgs)) == len(cfgs), "a configuration evaluated twice"
assert sorted(e["submitted"] for e in ev) == list(range(budget))
assert [e["n"] for e in ev] == list(range(budget))
assert all(0 <= e["worker"] < n for e in ev)
t = [e["elapsed_s"] for e in ev]
assert t == sorted(t), "virtual clock went back"
PY
}

for s in bo genetic random; do
    "$exe" --searcher=$s --budget=60 --parallel=4 --no-progress --journal=$s-a.jsonl "$gemm" >/dev/null 2>&1
    "$exe" --searcher=$s --budget=60 --parallel=4 --no-progress --journal=$s-b.jsonl "$gemm" >/dev/null 2>&1
    cmp -s $s-a.jsonl $s-b.jsonl && ok "$s --parallel=4: same seed => byte-identical journal" \
        || bad "$s --parallel=4: same seed => byte-identical journal"
    out=$(check $s-a.jsonl 60 4 2>&1) && ok "$s --parallel=4: budget exact, nothing twice, order kept" \
        || bad "$s --parallel=4: budget exact, nothing twice, order kept" "$out"
    python3 - $s-a.jsonl <<'PY' && ok "$s --parallel=4: results observed out of submission order" \
        || bad "$s --parallel=4: results observed out of submission order"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])][1:]
sys.exit(0 if [e["submitted"] for e in ev] != list(range(len(ev))) else 1)
PY
    "$exe" --searcher=$s --budget=60 --no-progress --journal=$s-1.jsonl "$gemm" >/dev/null 2>&1
    "$exe" --searcher=$s --budget=60 --parallel=1 --no-progress --journal=$s-p1.jsonl "$gemm" >/dev/null 2>&1
    python3 - $s-1.jsonl $s-p1.jsonl <<'PY' && ok "$s --parallel=1 evaluates as the sequential loop" \
        || bad "$s --parallel=1 evaluates as the sequential loop"
import json, sys
a, b = ([json.loads(l) for l in open(p)][1:] for p in sys.argv[1:])
assert [x["config"] for x in a] == [x["config"] for x in b]
assert [x["submitted"] for x in b] == list(range(len(b)))
PY
done

# More workers finish sooner on the virtual clock (same number of evaluations).
t1=$(tail -1 bo-1.jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["elapsed_s"])')
t4=$(tail -1 bo-a.jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["elapsed_s"])')
python3 -c "import sys; sys.exit(0 if $t4 * 2.5 < $t1 else 1)" \
    && ok "4 workers: virtual time ${t4}s against ${t1}s for 1" || bad "4 workers: virtual time ${t4}s against ${t1}s"

# A journal cut after 15 evaluations and half a line (a SIGKILL mid-write, with three
# evaluations in flight) resumes to exactly the uninterrupted run.
for s in bo genetic; do
    head -16 $s-a.jsonl > cut.jsonl
    sed -n 17p $s-a.jsonl | head -c 40 >> cut.jsonl
    if "$exe" --resume=cut.jsonl --no-progress "$gemm" >res.txt 2>&1 && cmp -s cut.jsonl $s-a.jsonl; then
        ok "$s --parallel=4: truncated journal resumed == uninterrupted run"
    else
        bad "$s --parallel=4: truncated journal resumed == uninterrupted run" "$(cat res.txt; diff <(cut -c1-150 cut.jsonl) <(cut -c1-150 $s-a.jsonl) | head -6)"
    fi
done

# --resume takes the kernel from the journal, says what came from it, and --budget
# extends a finished run: the first 30 evaluations stay, 20 more follow, none twice.
"$exe" --searcher=bo --budget=30 --parallel=4 --no-progress --journal=ext.jsonl "$gemm" >/dev/null 2>&1
"$exe" --resume=ext.jsonl --budget=50 --no-progress >ext.txt 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "evaluations: 50 (ok 50), 30 of them from the journal" ext.txt &&
    grep -q "extending ext.jsonl from a budget of 30 to 50" ext.txt && check ext.jsonl 50 4 >/dev/null 2>&1; then
    ok "--resume=J --budget=50 (no kernel given) extends a finished run of 30"
else bad "--resume=J --budget=50 extends a finished run of 30" "$(cat ext.txt; check ext.jsonl 50 4 2>&1)"; fi
# the extended run resumed again without --budget keeps all 50 (its header says 30); a
# --budget below what it holds is refused, never a cut
cp ext.jsonl ext.keep
"$exe" --resume=ext.jsonl --no-progress --output=ext.json >ext2.txt 2>&1 \
    && grep -q "evaluations: 50 (ok 50), 50 of them from the journal" ext2.txt && cmp -s ext.jsonl ext.keep \
    && python3 -c "import json; assert json.load(open('ext.json'))['evaluations'] == 50" \
    && ok "an extended run resumed without --budget: all it holds" \
    || bad "an extended run resumed without --budget: all it holds" "$(cat ext2.txt)"
out=$("$exe" --resume=ext.jsonl --budget=40 --no-progress 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "budget=40 is below the 50 evaluations the journal holds" <<<"$out" && cmp -s ext.jsonl ext.keep \
    && ok "--budget below what an extended journal holds: refused" || bad "--budget below what an extended journal holds: refused" "$out"

# the options the run was started with resume it, where the tuner raised --parallel to the
# batch
"$exe" --searcher=random --budget=20 --parallel=2 --batch=4 --no-progress --journal=pb.jsonl "$gemm" >/dev/null 2>&1
head -5 pb.jsonl >pb2.jsonl
"$exe" --searcher=random --budget=20 --parallel=2 --batch=4 --no-progress --resume=pb2.jsonl "$gemm" >pb.txt 2>&1 \
    && cmp -s pb.jsonl pb2.jsonl && ok "--parallel=2 --batch=4 (run with 4 in flight) resumes as given" \
    || bad "--parallel=2 --batch=4 resumes as given" "$(cat pb.txt)"
out=$("$exe" --searcher=random --budget=3 --batch=4 --no-progress --journal=bb.jsonl "$gemm" 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "batch=4: more proposals at a time than the budget of 3" <<<"$out" && [ ! -e bb.jsonl ] \
    && ok "--batch above the budget refused, as --parallel above it is" || bad "--batch above the budget refused" "$out"

# A real SIGKILL in the middle of a long parallel run.
"$exe" --searcher=random --seed=3 --budget=700 --parallel=8 --no-progress --journal=full.jsonl "$gemm" >/dev/null 2>&1
"$exe" --searcher=random --seed=3 --budget=700 --parallel=8 --no-progress --journal=k.jsonl "$gemm" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    [ -f k.jsonl ] && [ "$(wc -l <k.jsonl)" -gt 50 ] && break
    sleep 0.01
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
lines=$(wc -l <k.jsonl)
"$exe" --resume=k.jsonl --no-progress "$gemm" >/dev/null 2>&1
if cmp -s k.jsonl full.jsonl; then ok "--parallel=8: SIGKILL after $lines lines, resumed: nothing lost or repeated"
else bad "--parallel=8: SIGKILL after $lines lines, resumed: nothing lost or repeated" "$(wc -l k.jsonl full.jsonl)"; fi

# SIGINT with evaluations in flight, under replay: exit 130, the journal a prefix of the
# uninterrupted run's (what was in flight is dropped, not drained: drained, it would be
# journaled ahead of evaluations that complete earlier on the virtual clock), and the
# resumed run byte-identical to the uninterrupted one. (A GPU run drains instead: a
# measured result is never thrown away.)
"$exe" --searcher=bo --seed=4 --budget=120 --parallel=8 --no-progress --confirm=0 \
    --journal=intfull.jsonl "$gemm" >/dev/null 2>&1
"$exe" --searcher=bo --seed=4 --budget=120 --parallel=8 --no-progress --confirm=0 \
    --journal=int.jsonl "$gemm" >int.txt 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    [ -f int.jsonl ] && [ "$(wc -l <int.jsonl)" -gt 30 ] && break
    sleep 0.01
done
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && grep -q "stopped: signal" int.txt &&
    cmp -s <(tail -n +2 int.jsonl) <(tail -n +2 intfull.jsonl | head -n "$(($(wc -l <int.jsonl) - 1))") &&
    "$exe" --resume=int.jsonl --no-progress --confirm=0 >/dev/null 2>&1 &&
    cmp -s <(tail -n +2 int.jsonl) <(tail -n +2 intfull.jsonl); then
    ok "SIGINT with 8 in flight: exit 130, a prefix journaled, resumed == uninterrupted"
elif [ $rc -eq 0 ]; then ok "SIGINT: run ended before the signal (nothing to check)"
else bad "SIGINT with 8 in flight: exit $rc, or the journals differ" "$(cat int.txt)"; fi
# The time limit stops the same way (the virtual clock's), deterministically.
"$exe" --searcher=genetic --budget=100 --parallel=4 --confirm=0 --no-progress \
    --journal=tlfull.jsonl "$gemm" >/dev/null 2>&1
"$exe" --searcher=genetic --budget=100 --parallel=4 --confirm=0 --no-progress --time-limit=30 \
    --journal=tl.jsonl "$gemm" >/dev/null 2>&1
n=$(wc -l <tl.jsonl)
"$exe" --resume=tl.jsonl --confirm=0 --no-progress >/dev/null 2>&1
if [ "$n" -lt 101 ] && cmp -s <(tail -n +2 tl.jsonl) <(tail -n +2 tlfull.jsonl); then
    ok "--time-limit with 4 in flight ($((n - 1)) evaluations), resumed == uninterrupted"
else
    bad "--time-limit with 4 in flight ($((n - 1)) evaluations), resumed == uninterrupted"
fi

# cutune bench --parallel: each run is the loop on the virtual clock; deterministic, and
# random search (whose proposals ignore the answers) finds the same best at any N.
for p in 1 4 4; do
    "$exe" bench --searchers=bo,random --budgets=20,40 --seeds=3 --convention=constraint-aware \
        --parallel=$p --no-plots --quiet --out=bench$p-$RANDOM "$gemm" >/dev/null 2>&1
done
set -- bench4-*
if [ $# -eq 2 ] && cmp -s "$1/results.csv" "$2/results.csv"; then ok "bench --parallel=4: same tables twice"
else bad "bench --parallel=4: same tables twice" "$(ls -d bench*)"; fi
python3 - bench1-*/results.csv "$1/results.csv" <<'PY' && ok "bench --parallel=4: random's fractions as with 1" || bad "bench --parallel=4: random's fractions as with 1"
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
ra = [r for r in a if r["searcher"] == "random"]
rb = [r for r in b if r["searcher"] == "random"]
assert ra and [r["mean"] for r in ra] == [r["mean"] for r in rb], (ra, rb)
PY
# bench --help states the range bench enforces
out=$("$exe" bench --parallel=1025 --no-plots --quiet --out=bench-range "$gemm" 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q -- "--parallel=1025: must be 1..1024" <<<"$out" && [ ! -e bench-range ] \
    && "$exe" bench --help | grep -qE -- "^  --parallel=N .*1\.\.1024" \
    && ok "bench --parallel: 1..1024, as bench --help says" || bad "bench --parallel: 1..1024, as bench --help says" "$out"

expect_fail "--parallel=0" "--parallel=0: must be 1..1024" --parallel=0 "$gemm"
expect_fail "--parallel above the budget" "more evaluations in flight than the budget of 10" --parallel=16 --budget=10 "$gemm"
cp bo-a.jsonl rp.jsonl
expect_fail "resume with another --parallel" "parallel=2 differs from the journal's parallel 4" --resume=rp.jsonl --parallel=2 "$gemm"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
