#!/bin/sh
# The same seed, the same run, on any x86-64 machine: a fixed small experiment whose
# outputs must come out byte for byte the same wherever cutune is built from the same
# commit. Run it on two machines and compare the two lists (cmp, diff).
#
#   benchmarks/repro/run.sh BUILD OUT      (from the project root)
#
# BUILD: a meson build folder (any build type); OUT: the list to write, one
# "SHA-256  NAME" line per output, sorted. What is hashed:
#  - journals of bo and genetic replaying the shipped recordings data/{gemm,xgemm,
#    transpose,spmv}.jsonl.gz (budget 40, seeds 1-3, and bo with two evaluations in flight),
#    their evaluation lines (the header names this machine's paths);
#  - a `cutune bench` of random, genetic and bo on the same recordings (budgets 20 and 40,
#    5 seeds, both conventions, --per-seed): results.csv, results.md, results.tex, runs.csv
#    and the plot data (results.json is left out: its manifest names this machine).
# The recordings ship with the source, so both machines read the same bytes (their
# SHA-256 are in the list too). The list prints on stdout as well.
set -eu
[ $# -eq 2 ] || { echo "usage: benchmarks/repro/run.sh BUILD OUT" >&2; exit 2; }
build=$1 out=$2
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "run.sh: no cutune in $build (build it first)" >&2; exit 2; }
[ -f data/gemm.jsonl.gz ] || { echo "run.sh: run from the project root" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
recs="data/gemm.jsonl.gz data/xgemm.jsonl.gz data/transpose.jsonl.gz data/spmv.jsonl.gz"
start=$(date +%s)
for rec in $recs; do
    name=$(basename "$rec" .jsonl.gz)
    for searcher in bo genetic; do
        for seed in 1 2 3; do
            j=$work/journal-$name-$searcher-$seed.jsonl
            "$exe" --searcher=$searcher --budget=40 --seed=$seed --evaluator=replay \
                --journal="$j" -q "$rec" >/dev/null
            grep -v '"kind":"header"' "$j" >"$j.evals"
        done
    done
    j=$work/journal-$name-bo-parallel2.jsonl
    "$exe" --searcher=bo --budget=40 --seed=1 --parallel=2 --evaluator=replay --journal="$j" \
        -q "$rec" >/dev/null
    grep -v '"kind":"header"' "$j" >"$j.evals"
done
"$exe" bench --searchers=random,genetic,bo --budgets=20,40 --seeds=5 --per-seed --no-plots \
    --quiet --out="$work/bench" $recs 2>/dev/null
{
    (cd "$work" && sha256sum journal-*.evals)
    (cd "$work/bench" && sha256sum results.csv results.md results.tex runs.csv plots/*.dat \
        | sed 's|  |  bench/|')
    sha256sum $recs
} | sort -k2 >"$out"
cat "$out"
echo "run.sh: $(wc -l <"$out") outputs hashed into $out in $(( $(date +%s) - start )) s" >&2
