#!/bin/sh
# Warm against cold starts over pairs of recordings of the same kernel on different GPUs
# (docs/transfer.md); results are written beside this script.
#
#   benchmarks/transfer/run.sh [BUILD] [DATA]      (run from the project root)
#
# BUILD: a meson build dir (default build-rel); DATA: the Kernel Tuner cache recordings
# (default ../shared/data/kt-caches, or $CUTUNE_SHARED_DATA/kt-caches); skipped (exit 77)
# when they are absent. SEEDS (default 50), JOBS (default 2), BUDGETS (default
# 10,20,40,60), SEARCHER (default bo), OUT (default benchmarks/transfer: where the
# results go) and SEEDS_GEMM4096 (seeds of the three 4096^3 GEMM targets, whose 17,956
# configurations bo scores whole at every proposal: the costliest runs; default SEEDS)
# come from the environment.
#
# Pairs: every ordered pair of different GPUs within GEMM (GEMM_* at 4096^3 and gemm_* at
# 2048^3: the same parameter names, the 2048^3 spaces without the 128-wide tiles and
# vector width 8) and within convolution; misleading sources: pnpoly (another kernel that
# shares block_size_x) for every convolution target, pnpoly for a GEMM target (no shared
# parameter: refused), and "inverse" (the target's own times inverted: a source that ranks
# the target exactly backwards) for one GEMM and one convolution target.
#
# SOURCES=others (default pairs): one warm run per target from all its family's other GPUs
# at once (--warm-start=FILE,FILE,...: the median of their priors, docs/transfer.md), labelled
# "others"; a convolution target also gets "others+pnpoly", the same list with pnpoly added
# (a misleading file among the sources).
set -e
BUILD=${1:-build-rel}
DATA=${2:-${CUTUNE_SHARED_DATA:-../shared/data}/kt-caches}
OUT=${OUT:-benchmarks/transfer}
mkdir -p "$OUT"
SEEDS=${SEEDS:-50}
JOBS=${JOBS:-2}
BUDGETS=${BUDGETS:-10,20,40,60}
SEARCHER=${SEARCHER:-bo}
SOURCES=${SOURCES:-pairs}
case $SOURCES in pairs | others) ;; *)
    echo "transfer: SOURCES=$SOURCES: give pairs or others" >&2
    exit 2 ;;
esac
if ! ls "$DATA"/GEMM_*.json.gz >/dev/null 2>&1; then
    echo "transfer: no recordings in $DATA (skipped)"
    exit 77
fi

gemm="GEMM_GTX_1080Ti GEMM_P100 GEMM_RTX_2070_SUPER gemm_AMD_Vega gemm_GTX_TitanX_Maxwell"
conv="convolution_GTX_1080Ti convolution_GTX_TitanX_Maxwell convolution_P100 convolution_RTX_2070_SUPER convolution_milo_A4000"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
benchmarks/transfer/build.sh "$BUILD" "$tmp/bench_transfer"
# one job per target (JOBS at a time): its cold runs, then a warm run from each source
jobs_file=$tmp/jobs
mkdir "$tmp/part"
for fam in gemm conv; do
    eval "members=\$$fam"
    for t in $members; do
        srcs=""
        if [ "$SOURCES" = others ]; then
            list=""
            for s in $members; do [ "$s" = "$t" ] || list="$list${list:+,}$DATA/$s.json.gz"; done
            srcs=" others=$list"
            [ $fam = conv ] && srcs="$srcs others+pnpoly=$list,$DATA/pnpoly_P100.json.gz"
            echo "$t$srcs" >>"$jobs_file"
            continue
        fi
        for s in $members; do [ "$s" = "$t" ] || srcs="$srcs $DATA/$s.json.gz"; done
        [ $fam = conv ] && srcs="$srcs $DATA/pnpoly_P100.json.gz"
        [ $fam = gemm ] && [ $t = GEMM_P100 ] && srcs="$srcs $DATA/pnpoly_P100.json.gz"
        case $t in GEMM_P100 | convolution_GTX_TitanX_Maxwell)
            srcs="$srcs inverse" ;;
        esac
        echo "$t$srcs" >>"$jobs_file"
    done
done
start=$(date +%s)
n=0
while read -r t srcs; do
    n=$((n + 1))
    seeds=$SEEDS
    case $t in GEMM_*) seeds=${SEEDS_GEMM4096:-$SEEDS} ;; esac
    "$tmp/bench_transfer" --seeds "$seeds" --budgets "$BUDGETS" --searcher "$SEARCHER" \
        --out "$tmp/part/$n.csv" "$DATA/$t.json.gz" $srcs 2>>"$tmp/log" &
    if [ $((n % JOBS)) -eq 0 ]; then wait; fi
done <"$jobs_file"
wait
secs=$(($(date +%s) - start))
grep -v "exact$" "$tmp/log" >&2 || true
{ echo "target,source,method,seed,budget,fraction"; cat "$tmp"/part/*.csv; } >"$tmp/runs.csv"
srcopt=""
[ "$SOURCES" = others ] && srcopt=" SOURCES=others"
python3 benchmarks/transfer/table.py "$tmp/runs.csv" "$OUT" "$tmp/log" \
    "SEEDS=$SEEDS SEEDS_GEMM4096=${SEEDS_GEMM4096:-$SEEDS} JOBS=$JOBS BUDGETS=$BUDGETS SEARCHER=$SEARCHER$srcopt OUT=$OUT benchmarks/transfer/run.sh $BUILD" "$secs"
cp "$tmp/runs.csv" "$OUT/runs.csv"
