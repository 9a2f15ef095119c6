#!/usr/bin/env bash
# What the tuning database costs and saves, on the replay evaluator (no GPU): one run of
# N evaluations (random searcher, a synthetic 4000-configuration recording) without a
# database, with a new database (every evaluation stored: one transaction each,
# synchronous=FULL), and again with that database (every answer reused). Prints a table
# and writes results.csv beside this script (or in OUT). Each case runs REPS times (default
# 3), interleaved; the table gives the median wall time.
#   benchmarks/db/run.sh BUILD [N] [OUT]
set -eu
build=${1:?usage: run.sh BUILD [N] [OUT]}
n=${2:-3000}
here=$(cd "$(dirname "$0")" && pwd)
out=${3:-$here}
exe=$(cd "$build" && pwd)/src/cli/cutune
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
python3 "$here/../../tests/cli/mkcache.py" bowl.json.gz
run() { # NAME ARGS...
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$exe" --searcher=random --seed=5 --budget="$n" --no-progress --journal="$name.jsonl" "$@" \
        bowl.json.gz >"$name.txt" 2>&1
    t1=$(date +%s.%N)
    python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$t0" "$t1"
}
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
reps=${REPS:-3}
a=() b=() c=()
for r in $(seq 1 "$reps"); do # interleaved, so that the machine's load hits all alike
    rm -f nodb.jsonl store.jsonl reuse.jsonl t.db t.db-wal t.db-shm
    a+=("$(run nodb --no-db)")
    b+=("$(run store --db=t.db)")
    c+=("$(run reuse --db=t.db)")
done
nodb=$(median "${a[@]}") store=$(median "${b[@]}") reuse=$(median "${c[@]}")
cmp -s nodb.jsonl reuse.jsonl && same=yes || same=no
reused=$(grep -o '[0-9]* from the database' reuse.txt | cut -d' ' -f1)
size=$(stat -c %s t.db)
{
    echo "case,evaluations,wall_s,reused"
    echo "no database,$n,$nodb,0"
    echo "new database (store each),$n,$store,0"
    echo "same run again (reuse),$n,$reuse,${reused:-0}"
} >"$out/results.csv"
printf '%-28s %12s %10s %8s\n' case evaluations wall_s reused
tail -n +2 "$out/results.csv" | while IFS=, read -r c e w r; do printf '%-28s %12s %10s %8s\n' "$c" "$e" "$w" "$r"; done
echo "per stored evaluation: $(python3 -c "print(f'{($store - $nodb) / $n * 1000:.2f}')") ms; database $size bytes; reuse journal == no-database journal: $same"
