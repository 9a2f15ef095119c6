#!/bin/bash
# Asynchronous evaluation on the GPU: `cutune --parallel=N` keeps N evaluations in
# flight (compiles ahead of the GPU); --devices=0,0 runs two workers on GPU 0 (on a
# one-GPU machine this is how several workers are exercised; configurations are then
# timed two at a time on one GPU, so it is for testing only). Checks the journal: the
# budget exact, nothing twice, the workers named in the header. Skipped (77) without a
# driver or device.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
run() { # NAME BUDGET WORKERS ARGS...
    local name=$1 budget=$2 workers=$3
    shift 3
    "$exe" --evaluator=cuda --no-progress --budget="$budget" --journal="$out/$name.jsonl" "$@" \
        >"$out/$name.out" 2>&1
    local rc=$?
    if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/$name.out"; then exit 77; fi
    if [ $rc -ne 0 ]; then echo "not ok - $name: exit $rc"; cat "$out/$name.out"; fail=1; return; fi
    if python3 - "$out/$name.jsonl" "$budget" "$workers" <<'PY'; then echo "ok - $name"; else echo "not ok - $name"; fail=1; fi
import json, sys
path, budget, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = [json.loads(l) for l in open(path)]
head, ev = lines[0], lines[1:]
assert len(ev) == budget, len(ev)
cfgs = [json.dumps(e["config"], sort_keys=True) for e in ev]
assert len(set(cfgs)) == budget, "a configuration evaluated twice"
assert sorted(e["submitted"] for e in ev) == list(range(budget))
assert len(head.get("workers", [])) == workers, head.get("workers")
assert {e["worker"] for e in ev} <= set(range(workers))
if workers > 1:
    assert len({e["worker"] for e in ev}) == workers, "a worker never measured"
print("  wall", ev[-1]["elapsed_s"], "s; workers", head["workers"])
PY
}
run bo_parallel4 24 1 --searcher=bo --parallel=4 vector_add
run random_two_workers 16 2 --searcher=random --parallel=4 --devices=0,0 vector_add
msg=$("$exe" --evaluator=cuda --budget=4 --devices=63 --journal="$out/x.jsonl" vector_add 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 2 ] && grep -q "no CUDA device 63" <<<"$msg" && [ ! -e "$out/x.jsonl" ]; then
    echo "ok - --devices=63: exit 2, no journal"
else
    echo "not ok - --devices=63: exit $rc: $msg"; fail=1
fi
exit $fail
