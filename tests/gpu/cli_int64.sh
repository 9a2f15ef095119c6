#!/bin/sh
# An int64 scalar past 2^53 reaches the kernel with every digit (tests/gpu/int64_arg.cu
# writes 1 when it does, 0 when it was rounded through a double): both configurations
# verify. An int64 output past 2^53 is compared exactly (tests/gpu/int64_out.cu, the
# integer outputs' default tolerance): only the configuration that is off by 0 verifies.
# Skipped (77) without a driver or device.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$here/int64_arg.cu" "$here/int64_arg.json" "$here/int64_out.cu" "$here/int64_out.json" "$out/"
"$exe" --evaluator=cuda --searcher=grid --budget=2 --confirm=0 --no-db --journal="$out/j.jsonl" \
    "$out/int64_arg.json" >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"; cat "$out/stderr" >&2
if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/stderr"; then
    exit 77
fi
[ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
ok=$(grep -c '"status":"ok"' "$out/j.jsonl")
[ "$ok" -eq 2 ] || { echo "int64: $ok of 2 configurations verified (want 2)" >&2; exit 1; }
echo "int64 past 2^53: 2 of 2 verified"
"$exe" --evaluator=cuda --searcher=grid --budget=3 --confirm=0 --no-db --journal="$out/o.jsonl" \
    "$out/int64_out.json" >"$out/stdout2" 2>&1 || { cat "$out/stdout2"; echo "int64_out: cutune failed" >&2; exit 1; }
ok=$(grep -c '"status":"ok"' "$out/o.jsonl")
wrong=$(grep -c '"status":"wrong_result"' "$out/o.jsonl")
[ "$ok" -eq 1 ] && [ "$wrong" -eq 2 ] && grep -q '"config":{"OFF":0},"status":"ok"' "$out/o.jsonl" \
    || { cat "$out/o.jsonl" >&2; echo "int64 output: $ok ok, $wrong wrong (want 1 and 2)" >&2; exit 1; }
echo "int64 output past 2^53: off by 1 and by 100 are wrong results"
