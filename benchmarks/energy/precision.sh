#!/bin/bash
# The energy window's precision on the GPU: the same configurations of each kernel measured
# again and again under each window mode, and how much their energy per launch varies.
#
#   benchmarks/energy/precision.sh BUILD_DIR OUTDIR [CONFIGS] [ROUNDS] [KERNELS]
#
# For each kernel (default: reduction gemm) and each mode below, one run draws CONFIGS
# (default 4) configurations at random (--seed=7: the same ones in every mode), measures
# each once (its journal: the window's metrics) and then ROUNDS (default 5) times more
# (--confirm=CONFIGS --confirm-rounds=ROUNDS under --objective=energy: a round's value is
# that measurement's energy_j). The coefficient of variation of a configuration's rounds
# is (its 95% interval's half-width) sqrt(n) / t(0.975, n-1) over its mean. Modes:
#   sync-0.1   energy_window=0.1,energy_batch=0   the window around the timed repetitions,
#                                                 lengthened with synchronised launches
#   b2b-0.1    energy_window=0.1,energy_batch=1   its own window, launches back to back
#   b2b-0.25   energy_window=0.25,energy_batch=1  the same, 0.25 s
# Prints the table and writes OUTDIR/precision.csv.
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
nconf=${3:-4}
rounds=${4:-5}
kernels=${5:-reduction gemm}
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "no $exe: build first"; exit 1; }
command -v nvidia-smi >/dev/null || { echo "skipped: no nvidia-smi (no GPU)"; exit 77; }
mkdir -p "$out"
modes="sync-0.1:energy_window=0.1,energy_batch=0 b2b-0.1:energy_window=0.1,energy_batch=1 b2b-0.25:energy_window=0.25,energy_batch=1"
for k in $kernels; do
    for m in $modes; do
        name=${m%%:*} ev=${m#*:}
        rm -f "$out/prec-$k-$name.jsonl"
        t0=$(date +%s.%N)
        "$exe" --searcher=random --seed=7 --budget="$nconf" --objective=energy \
            --confirm="$nconf" --confirm-rounds="$rounds" --evaluator=cuda:"$ev" --no-progress \
            --journal="$out/prec-$k-$name.jsonl" --output="$out/prec-$k-$name.json" "$k" \
            > "$out/prec-$k-$name.txt" 2>&1
        echo "$k $name: exit $?, $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)") s" | tee -a "$out/prec-walls.txt"
    done
done
python3 "$(dirname "$0")/precision.py" "$out" $kernels
