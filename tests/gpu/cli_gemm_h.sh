#!/bin/sh
# gemm_h (Hopper wgmma + TMA GEMM, kernels/gemm_h.json) through the CLI on an H100/H200:
# (1) one pinned configuration (BM=128 BN=256 STAGES=4 NC=2, 128-byte K boxes, persistent,
#     shared-memory epilogue) of gemm_h, gemm_h_fp16 and gemm_h_tf32 at 4096^3 and at
#     1000 x 5000 x 296, and the same with SPLITK=2 at 1000 x 5000 x 296 (gemm_h_splitk:
#     the workspace and counters sized by the spec), is ok, i.e. within rtol of cuBLAS (cublas_gemm_abt),
#     with its TFLOP/s printed;
# (2) `cutune --searcher=random --budget=20 gemm_h` completes with ok evaluations.
# Skipped (77) without a driver or device, or on a GPU other than sm_90.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
kdir=${CUTUNE_KERNELS:-kernels}
[ -f "$kdir/gemm_h.json" ] || { echo "no $kdir/gemm_h.json" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$kdir/gemm_h.cu" "$out/"
# pin K SPLITK: the shipped spec K with its parameters pinned to one configuration
pin() {
    bk=64
    [ "$1" = gemm_h_tf32 ] && bk=32 # one 128-byte box of floats
    p='"BM": [128], "BN": [256], "BK": ['$bk'], "STAGES": [4], "NC": [2], "PINGPONG": [0],
        "CLUSTER_M": [1], "GROUP_M": [8], "PERSISTENT": [1], "EPI_SMEM": [1]'
    [ "$2" = 1 ] || p="$p"', "SPLITK": ['$2']'
    awk -v pin="$p" '
        /^  "parameters": \{/ { print "  \"parameters\": {" pin "},"; skip = 1; next }
        skip && /^  \},/ { skip = 0; next }
        !skip { print }' "$kdir/$1.json" | sed 's|"recording": "[^"]*"|"recording": "none.jsonl"|' \
        > "$out/$1-sk$2.json"
}
for k in gemm_h gemm_h_fp16 gemm_h_tf32; do pin $k 1; done
pin gemm_h_splitk 2
fail=0
odd="--size M=1000 --size N=5000 --size K=296"
for k in gemm_h gemm_h_fp16 gemm_h_tf32 gemm_h_splitk; do
    runs='1| 1|odd'
    [ $k = gemm_h_splitk ] && runs='2|odd'
    for run in $runs; do
        sk=${run%%|*} sz=
        [ "${run#*|}" = odd ] && sz=$odd
        # shellcheck disable=SC2086
        "$exe" --evaluator=cuda --searcher=grid --budget=1 --journal="$out/j.jsonl" $sz \
            "$out/$k-sk$sk.json" >"$out/stdout" 2>"$out/stderr"
        rc=$?
        if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/stderr"; then
            exit 77
        fi
        # the journal's header names the device: "... (sm_90, 132 SMs, ...)"
        if [ -s "$out/j.jsonl" ] && ! head -n 1 "$out/j.jsonl" | grep -q "sm_90"; then
            echo "not an sm_90 GPU: skipped" >&2
            cat "$out/stdout" "$out/stderr" >&2
            exit 77
        fi
        line=$(grep '"kind" *: *"eval"' "$out/j.jsonl" | tail -n 1)
        tf=$(echo "$line" | sed -n 's/.*"TFLOP\/s":\([0-9.eE+-]*\).*/\1/p')
        err=$(echo "$line" | sed -n 's/.*"rel_err":\([0-9.eE+-]*\).*/\1/p')
        echo "$k SPLITK=$sk ${sz:-(4096^3)}: rc $rc, TFLOP/s ${tf:-?}, rel_err vs cuBLAS ${err:-?}"
        if [ $rc -ne 0 ] || ! echo "$line" | grep -q '"status":"ok"'; then
            echo "expected an ok evaluation:" >&2
            cat "$out/stdout" "$out/stderr" >&2
            echo "$line" | head -c 2000 >&2
            fail=1
        fi
        rm -f "$out/j.jsonl"
    done
done
"$exe" --evaluator=cuda --searcher=random --budget=20 --journal="$out/r.jsonl" gemm_h \
    >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"
n_ok=$(grep -c '"status":"ok"' "$out/r.jsonl" 2>/dev/null || echo 0)
n=$(grep -c '"kind" *: *"eval"' "$out/r.jsonl" 2>/dev/null || echo 0)
echo "random search: rc $rc, $n evaluations, $n_ok ok"
[ $rc -eq 0 ] && [ "$n" -ge 20 ] && [ "$n_ok" -ge 1 ] || { cat "$out/stderr" >&2; fail=1; }
exit $fail
