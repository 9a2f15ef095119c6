#!/bin/sh
# A reference kernel whose static + dynamic shared memory passes the 48 KiB default
# (tests/gpu/ref_smem.cu): its opt-in counts the static part, so both configurations
# verify. Skipped (77) without a driver or device.
. "$(dirname "$0")/lib.sh"
cp "$here/ref_smem.cu" "$here/ref_smem.json" "$out/"
gpu_tune "$out/j.jsonl" 2 "$out/ref_smem.json" --no-db
ok=$(grep -c '"status":"ok"' "$out/j.jsonl")
[ "$ok" -eq 2 ] || { grep -o '"log":"[^"]*"' "$out/j.jsonl" >&2; echo "ref_smem: $ok of 2 verified (want 2)" >&2; exit 1; }
echo "a reference with 56 KiB of shared memory: 2 of 2 verified"
