#!/bin/sh
# A reference kernel whose static + dynamic shared memory passes the 48 KiB default
# (tests/gpu/ref_smem.cu): its opt-in counts the static part, so both configurations
# verify. Skipped (77) without a driver or device.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$here/ref_smem.cu" "$here/ref_smem.json" "$out/"
"$exe" --evaluator=cuda --searcher=grid --budget=2 --confirm=0 --no-db --journal="$out/j.jsonl" \
    "$out/ref_smem.json" >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"; cat "$out/stderr" >&2
if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/stderr"; then
    exit 77
fi
[ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
ok=$(grep -c '"status":"ok"' "$out/j.jsonl")
[ "$ok" -eq 2 ] || { grep -o '"log":"[^"]*"' "$out/j.jsonl" >&2; echo "ref_smem: $ok of 2 verified (want 2)" >&2; exit 1; }
echo "a reference with 56 KiB of shared memory: 2 of 2 verified"
