#!/bin/sh
# Build the bo benchmarks against a meson build dir's libcutune.a.
#   benchmarks/bo/build.sh [BUILD]   (default build-bo; run from the project root)
set -e
BUILD=${1:-build-bo}
ninja -C "$BUILD" libcutune.a >/dev/null
LIBS="$BUILD/libcutune.a $(pkg-config --libs gsl libcjson zlib) -lm -ldl -lpthread"
for b in bench_convergence bench_latency; do
  [ -f benchmarks/bo/$b.c ] || continue
  cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$BUILD" benchmarks/bo/$b.c $LIBS -o "$BUILD/$b"
done
