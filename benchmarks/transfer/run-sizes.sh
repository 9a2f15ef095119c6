#!/bin/sh
# Warm against cold starts across problem sizes on one GPU: gemm_h (BF16) recorded by
# cutune on the H200 at six shapes (data/gemm_h.jsonl.gz at 4096^3, data/shapes/ at
# 1024^3, 2048^3, 4000^3, 8192^3 and 1000x5000x296); every ordered pair of shapes, the
# source a recording at another size. Results in benchmarks/transfer/sizes/.
#
#   benchmarks/transfer/run-sizes.sh [BUILD]      (run from the project root)
#
# SEEDS (default 50), BUDGETS (default 10,20,40,60), SEARCHER (default bo), OUT (default
# benchmarks/transfer/sizes) come from the environment.
set -e
BUILD=${1:-build-rel}
OUT=${OUT:-benchmarks/transfer/sizes}
SEEDS=${SEEDS:-50}
BUDGETS=${BUDGETS:-10,20,40,60}
SEARCHER=${SEARCHER:-bo}
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
benchmarks/transfer/build.sh "$BUILD" "$tmp/bench_transfer"
shapes="data/gemm_h.jsonl.gz $(ls data/shapes/gemm_h-*.jsonl.gz)"
start=$(date +%s)
n=0
for t in $shapes; do
    n=$((n + 1))
    srcs=""
    for s in $shapes; do [ "$s" = "$t" ] || srcs="$srcs $s"; done
    # shellcheck disable=SC2086
    "$tmp/bench_transfer" --seeds "$SEEDS" --budgets "$BUDGETS" --searcher "$SEARCHER" \
        --out "$tmp/$n.csv" "$t" $srcs 2>>"$tmp/log"
done
secs=$(($(date +%s) - start))
grep -v "exact$" "$tmp/log" >&2 || true
{ echo "target,source,method,seed,budget,fraction"; cat "$tmp"/[0-9]*.csv; } >"$tmp/runs.csv"
# the default recording is named by its spec; call it by its size like the others
sed -i 's/^gemm_h,/gemm_h-4096x4096x4096,/; s/,gemm_h,/,gemm_h-4096x4096x4096,/' "$tmp/runs.csv"
python3 benchmarks/transfer/table.py "$tmp/runs.csv" "$OUT" "$tmp/log" \
    "SEEDS=$SEEDS BUDGETS=$BUDGETS SEARCHER=$SEARCHER OUT=$OUT benchmarks/transfer/run-sizes.sh $BUILD" "$secs" size
cp "$tmp/runs.csv" "$OUT/runs.csv"
