#!/bin/sh
# Build bench_parallel against a meson build dir's libcutune.a.
#   benchmarks/parallel/build.sh [BUILD]   (default build; run from the project root)
set -e
BUILD=${1:-build}
ninja -C "$BUILD" libcutune.a >/dev/null
cuda=${CUDA_ROOT:-/usr/local/cuda}
NVRTC=""
[ -f "$cuda/lib64/libnvrtc.so" ] && NVRTC="-L$cuda/lib64 -Wl,-rpath,$cuda/lib64 -lnvrtc"
cc -O2 -std=c11 -D_GNU_SOURCE -I include -I "$BUILD" benchmarks/parallel/bench_parallel.c \
  "$BUILD/libcutune.a" $NVRTC $(pkg-config --libs gsl libcjson zlib) \
  -lm -ldl -lpthread -o "$BUILD/bench_parallel"
