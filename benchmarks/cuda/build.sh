#!/bin/sh
# Build bench_cuda against a meson build dir's libcutune.a (the top-level
# meson.build does not descend into benchmarks/). usage: build.sh BUILDDIR OUT
set -e
b=${1:?build dir}; out=${2:?output binary}
cuda=${CUDA_ROOT:-/usr/local/cuda}
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -I"$b" -I. -I"$cuda/include" \
  benchmarks/cuda/bench_cuda.c "$b/libcutune.a" \
  -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc \
  $(pkg-config --libs gsl libcjson zlib) -lm -ldl -lpthread -o "$out"
