#!/bin/sh
# Build bench_transfer against a meson build dir's libcutune.a (run.sh, run-sizes.sh and
# ablation.sh call it).
#   benchmarks/transfer/build.sh BUILD OUT_EXE   (run from the project root)
set -e
BUILD=${1:?build dir}
OUT_EXE=${2:?output executable}
ninja -C "$BUILD" libcutune.a >/dev/null
LIBS="$BUILD/libcutune.a $(pkg-config --libs gsl libcjson zlib) -lm -ldl -lpthread"
# shellcheck disable=SC2086
cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$BUILD" benchmarks/transfer/bench_transfer.c $LIBS \
    -o "$OUT_EXE"
