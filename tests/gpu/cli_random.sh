#!/bin/sh
# `cutune --searcher=random --budget=20 KERNEL` on the GPU completes (exit 0)
# with every evaluation journaled. Skipped (77) without a driver or device.
# KERNEL: gemm when its spec exists, else vector_add.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
kernel=gemm
[ -f "${CUTUNE_KERNELS:-kernels}/gemm.json" ] || kernel=vector_add
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$exe" --evaluator=cuda --searcher=random --budget=20 --journal="$out/journal.jsonl" "$kernel" \
    >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"; cat "$out/stderr" >&2
if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/stderr"; then
    exit 77
fi
[ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
n=$(grep -c '"kind" *: *"eval"' "$out/journal.jsonl" 2>/dev/null || echo 0)
echo "journaled evaluations: $n"
[ "$n" -ge 20 ] || { echo "expected 20 evaluations in the journal" >&2; exit 1; }
