#!/bin/sh
# CPU time of the GP's linear algebra (bench_linalg.c) for one build: factorisation, log
# marginal likelihood with gradient, prediction cache rebuild and prediction, n = 50, 200,
# 500 points, 4096 candidates, 9 inputs. Run it for two builds (e.g. before and after a
# change) to compare. A build whose libcutune.a calls LAPACKE is linked with OpenBLAS, run
# with one thread, as bo ran it.
#
#   benchmarks/repro/linalg.sh BUILD [REPS] [OUT.csv]     (from the project root)
set -eu
build=$1 reps=${2:-5} out=${3:-}
ninja -C "$build" libcutune.a >/dev/null
libs="$(pkg-config --libs gsl libcjson zlib)"
if nm "$build/libcutune.a" 2>/dev/null | grep -q " U LAPACKE_"; then
    libs="$(pkg-config --libs openblas lapacke) $libs"
fi
cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$build" benchmarks/repro/bench_linalg.c \
    "$build/libcutune.a" $libs -lm -ldl -lpthread -o "$build/bench_linalg"
table=$(OPENBLAS_NUM_THREADS=1 "$build/bench_linalg" "$reps")
echo "$table"
if [ -n "$out" ]; then
    echo "$table" | sed -n '3,$p' | tr -d ' ' | sed 's/^|//; s/|$//; s/|/,/g' |
        { echo "n,factorise_ms,lml_gradient_ms,cache_rebuild_ms,predict_ms"; cat; } >"$out"
fi
