#!/bin/sh
# Multi-shape tuning of gemm_h on the GPU (docs/shapes.md), through the CLI:
# (1) the each mode at two shapes, killed (SIGKILL) inside its second shape, then resumed
#     with --resume=PREFIX: the first shape's journal is untouched, every shape ends with
#     its budget of evaluations in its journal and in the tuning database, and no worker
#     process of the killed run is left behind;
# (2) the common mode completes, each line carrying both shapes' times.
# Skipped (77) without a driver or device, or on a GPU other than sm_90.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
kdir=${CUTUNE_KERNELS:-kernels}
[ -f "$kdir/gemm_h.json" ] || { echo "no $kdir/gemm_h.json" >&2; exit 1; }
spec=$(cd "$kdir" && pwd)/gemm_h.json
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
S='M=N=K=1024;M=1000,N=5000,K=296'
L1=1024x1024x1024 L2=1000x5000x296 # tuned in this order (by the product of the sizes)
B=6
fail=0
. "$(dirname "$0")/../journal_lib.sh"
skip_if_no_gpu() {
    if grep -qi -e "no CUDA driver" -e "no CUDA device" "$1"; then
        cat "$1" >&2
        exit 77
    fi
}
mkdir "$out/run"
CUTUNE_DB=$out/k.db "$exe" --evaluator=cuda --searcher=random --sizes="$S" --budget=$B \
    --journal="$out/run/g" --no-progress "$spec" >"$out/stdout" 2>"$out/stderr" &
pid=$!
for _ in $(seq 1 6000); do
    [ "$(nevals "$out/run/g-$L2.jsonl")" -ge 2 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
done
kill -STOP $pid 2>/dev/null
n2=$(nevals "$out/run/g-$L2.jsonl")
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
skip_if_no_gpu "$out/stderr"
if [ -s "$out/run/g-$L1.jsonl" ] && ! head -n 1 "$out/run/g-$L1.jsonl" | grep -q "sm_90"; then
    echo "not an sm_90 GPU: skipped" >&2
    exit 77
fi
echo "killed with $(nevals "$out/run/g-$L1.jsonl") evaluations at $L1, $n2 at $L2"
if [ "$n2" -lt 2 ] || [ "$n2" -ge $B ]; then
    echo "the run was not caught inside its second shape" >&2
    cat "$out/stdout" "$out/stderr" >&2
    exit 1
fi
# the killed run's worker goes with it (it reads its parent's pipe)
sleep 3
if pgrep -f -- "worker --fd" >/dev/null; then
    echo "a worker process outlived the killed run:" >&2
    pgrep -a -f -- "worker --fd" >&2
    fail=1
fi
cp "$out/run/g-$L1.jsonl" "$out/first.jsonl"
CUTUNE_DB=$out/k.db "$exe" --resume="$out/run/g" --sizes="$S" --no-progress "$spec" \
    >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"
n1=$(nevals "$out/run/g-$L1.jsonl") n2=$(nevals "$out/run/g-$L2.jsonl")
echo "resumed: rc $rc, $n1 evaluations at $L1, $n2 at $L2"
if [ $rc -ne 0 ] || [ "$n1" -ne $B ] || [ "$n2" -ne $B ]; then
    echo "expected exit 0 and $B evaluations at each shape" >&2
    cat "$out/stderr" >&2
    fail=1
fi
cmp -s "$out/first.jsonl" "$out/run/g-$L1.jsonl" || {
    echo "the finished first shape's journal changed on resume" >&2
    fail=1
}
counts=$(CUTUNE_DB=$out/k.db "$exe" db list | tail -n +2 | cut -f5 | sort -u)
echo "database evaluations per shape: $counts"
[ "$counts" = $B ] || { echo "expected $B per shape in the database" >&2; fail=1; }
# the common mode: one configuration for both shapes
"$exe" --evaluator=cuda --searcher=random --sizes="$S" --shape-mode=common --budget=3 --no-db \
    --journal="$out/c" --no-progress "$spec" >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"
n=$(nevals "$out/c-common.jsonl")
both=$(grep '"kind" *: *"eval"' "$out/c-common.jsonl" | grep "t_$L1" | grep -c "t_$L2")
echo "common: rc $rc, $n configurations, $both with both shapes' times"
if [ $rc -ne 0 ] || [ "$n" -ne 3 ]; then
    cat "$out/stderr" >&2
    fail=1
fi
ok=$(grep '"kind" *: *"eval"' "$out/c-common.jsonl" | grep -c '"status":"ok"')
[ "$ok" -eq 0 ] || [ "$both" -eq "$ok" ] || { echo "an ok line lacks a shape's time" >&2; fail=1; }
exit $fail
