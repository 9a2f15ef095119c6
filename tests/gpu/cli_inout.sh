#!/bin/sh
# An in-place kernel (tests/gpu/accumulate.cu: acc += x) whose spec marks acc "inout": every
# configuration verifies (acc restored before every launch: the reference's, the
# verification's and each repetition's); the same buffer as a plain "output" is poisoned before
# verification (acc += x reads NaN), and no configuration verifies. Skipped (77) without a
# driver or device.
. "$(dirname "$0")/lib.sh"
cp "$here/accumulate.cu" "$here/accumulate.json" "$out/"
gpu_tune "$out/j.jsonl" 12 "$out/accumulate.json"
ok=$(grep -c '"status":"ok"' "$out/j.jsonl")
[ "$ok" -eq 12 ] || { echo "inout: $ok of 12 configurations verified (want 12)" >&2; exit 1; }
# the same buffer as a plain output: poisoned before verification, so acc += x reads NaN
sed 's/"inout": true/"output": true/' "$here/accumulate.json" > "$out/accumulate.json"
"$exe" --evaluator=cuda --searcher=grid --budget=12 --confirm=0 --journal="$out/j2.jsonl" \
    "$out/accumulate.json" >/dev/null 2>&1
ok=$(grep -c '"status":"ok"' "$out/j2.jsonl")
[ "$ok" -eq 0 ] || { echo "without inout: $ok configurations verified (want 0)" >&2; exit 1; }
echo "inout: 12 of 12 verified; without inout: 0 of 12"
