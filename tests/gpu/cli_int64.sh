#!/bin/sh
# An int64 scalar past 2^53 reaches the kernel with every digit (tests/gpu/int64_arg.cu
# writes 1 when it does, 0 when it was rounded through a double): both configurations
# verify. An int64 output past 2^53 is compared exactly (tests/gpu/int64_out.cu, the
# integer outputs' default tolerance): only the configuration that is off by 0 verifies.
# Skipped (77) without a driver or device.
. "$(dirname "$0")/lib.sh"
cp "$here/int64_arg.cu" "$here/int64_arg.json" "$here/int64_out.cu" "$here/int64_out.json" "$out/"
gpu_tune "$out/j.jsonl" 2 "$out/int64_arg.json" --no-db
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
