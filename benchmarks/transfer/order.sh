#!/bin/sh
# What a source's ranking alone is worth (docs/transfer.md): for every pair of run.sh (GPU
# pairs) and run-sizes.sh (size pairs), the target's configurations evaluated in the order
# of the source's prior, best first, with no search; the fraction of the target's optimum
# after the first B of them, beside warm and cold bo from those scripts' results. Writes
# benchmarks/transfer/order/ (results.md, results.csv, results.json).
#
#   benchmarks/transfer/order.sh [BUILD] [DATA]      (run from the project root)
#
# The size pairs need only data/; the GPU pairs ../shared/data (or $CUTUNE_SHARED_DATA),
# skipped where absent. Deterministic: no seeds. BUDGETS (default 10,20,40,60).
set -e
BUILD=${1:-build-rel}
DATA=${2:-${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches}
OUT=benchmarks/transfer/order
BUDGETS=${BUDGETS:-10,20,40,60}
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
benchmarks/transfer/build.sh "$BUILD" "$tmp/bench_transfer"
# each target against every other member of its group (the pairs of run.sh / run-sizes.sh)
pairs() { # GROUP-FILE OUT.csv: one target per member, the others its sources
    n=0
    for t in $(cat "$1"); do
        n=$((n + 1))
        srcs=""
        for s in $(cat "$1"); do [ "$s" = "$t" ] || srcs="$srcs $s"; done
        # shellcheck disable=SC2086
        "$tmp/bench_transfer" --mode order --budgets "$BUDGETS" --out "$tmp/$n.part" "$t" $srcs \
            2>>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
    done
    { echo "target,source,method,seed,budget,fraction"; cat "$tmp"/[0-9]*.part; } >"$2"
    rm -f "$tmp"/[0-9]*.part
}
if ls "$DATA"/GEMM_*.json.gz >/dev/null 2>&1; then
    for k in GEMM_GTX_1080Ti GEMM_P100 GEMM_RTX_2070_SUPER gemm_AMD_Vega gemm_GTX_TitanX_Maxwell; do
        echo "$DATA/$k.json.gz"
    done >"$tmp/gemm"
    for k in GTX_1080Ti GTX_TitanX_Maxwell P100 RTX_2070_SUPER milo_A4000; do
        echo "$DATA/convolution_$k.json.gz"
    done >"$tmp/conv"
    pairs "$tmp/gemm" "$tmp/g.csv"
    pairs "$tmp/conv" "$tmp/c.csv"
    tail -n +2 "$tmp/c.csv" >>"$tmp/g.csv"
    gpu="$tmp/g.csv"
else
    echo "transfer order: no recordings in $DATA (GPU pairs skipped)" >&2
    gpu=-
fi
{ echo data/gemm_h.jsonl.gz; ls data/shapes/gemm_h-*.jsonl.gz; } >"$tmp/sizes"
pairs "$tmp/sizes" "$tmp/s.csv"
sed -i 's/^gemm_h,/gemm_h-4096x4096x4096,/; s/,gemm_h,/,gemm_h-4096x4096x4096,/' "$tmp/s.csv"
python3 benchmarks/transfer/order_table.py "$OUT" "BUDGETS=$BUDGETS benchmarks/transfer/order.sh $BUILD" \
    "$gpu" benchmarks/transfer/results.csv "$tmp/s.csv" benchmarks/transfer/sizes/results.csv
