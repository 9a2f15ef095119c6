#!/bin/sh
# What each part of bo's warm start gives (docs/transfer.md): the default against bo with
# one part changed, on a subset of the pairs (the 2048^3 GEMM and the convolution targets:
# 11 GPU pairs, pnpoly and "inverse" sources), warm against cold; writes
# benchmarks/transfer/ablation/.
#
#   benchmarks/transfer/ablation.sh [BUILD] [DATA]      (run from the project root)
#
# SEEDS (default 8) and JOBS (default 2) from the environment.
set -e
BUILD=${1:-build-rel}
DATA=${2:-${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches}
OUT=benchmarks/transfer/ablation
SEEDS=${SEEDS:-8}
JOBS=${JOBS:-2}
if ! ls "$DATA"/GEMM_*.json.gz >/dev/null 2>&1; then
    echo "transfer ablation: no recordings in $DATA (skipped)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
benchmarks/transfer/build.sh "$BUILD" "$tmp/bench_transfer"
mkdir -p "$OUT"
cat >"$tmp/jobs" <<'LIST'
gemm_GTX_TitanX_Maxwell GEMM_GTX_1080Ti gemm_AMD_Vega inverse
gemm_AMD_Vega GEMM_P100 gemm_GTX_TitanX_Maxwell
convolution_RTX_2070_SUPER convolution_P100 convolution_milo_A4000 pnpoly_P100
convolution_GTX_TitanX_Maxwell convolution_GTX_1080Ti inverse
convolution_milo_A4000 convolution_GTX_TitanX_Maxwell convolution_P100
convolution_P100 convolution_GTX_1080Ti convolution_milo_A4000
LIST
for v in "default=bo" "design-only=bo:transfer=design" "prior-only=bo:transfer=prior" "both=bo:transfer=both" \
         "both-no-test=bo:transfer=both,wtest=0" "both-weight-lcb=bo:transfer=both,wlcb=1"; do
    name=${v%%=*}
    searcher=${v#*=}
    start=$(date +%s)
    n=0
    while read -r t srcs; do
        n=$((n + 1))
        args=""
        for s in $srcs; do [ "$s" = inverse ] && args="$args inverse" || args="$args $DATA/$s.json.gz"; done
        "$tmp/bench_transfer" --seeds "$SEEDS" --searcher "$searcher" --out "$tmp/$name.$n.csv" \
            "$DATA/$t.json.gz" $args 2>>"$tmp/log" &
        if [ $((n % JOBS)) -eq 0 ]; then wait; fi
    done <"$tmp/jobs"
    wait
    mkdir -p "$OUT/$name"
    { echo "target,source,method,seed,budget,fraction"; cat "$tmp/$name".*.csv; } >"$OUT/$name/runs.csv"
    python3 benchmarks/transfer/table.py "$OUT/$name/runs.csv" "$OUT/$name" "$tmp/log" \
        "SEEDS=$SEEDS JOBS=$JOBS benchmarks/transfer/ablation.sh $BUILD (searcher $searcher)" \
        "$(($(date +%s) - start))" >/dev/null
    echo "$name: $searcher done"
done
python3 benchmarks/transfer/ablation_table.py "$OUT"
