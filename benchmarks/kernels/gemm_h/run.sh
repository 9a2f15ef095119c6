#!/bin/bash
# Build harness.cu once per configuration of configs.txt (or $CONFIGS), check each against
# cuBLAS at the shapes of $SHAPES (or the line's own third field) and time it side by side
# with cuBLAS (L2 flushed); prints the CSV and writes it to ${RESULTS:-results.csv}. Needs
# nvcc (sm_90a), cuBLAS and an H100/H200. Usage: benchmarks/kernels/gemm_h/run.sh
# (from any directory). Lines: name|nvcc defines[|shapes]. SKIP_BUILD=1 runs the binaries
# already in $BUILD (built by an earlier call with the same BUILD, e.g. with BUILD_ONLY=1,
# which stops after building); RUN_TIMEOUT (60 s) bounds each run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
configs=${CONFIGS:-$here/configs.txt}
shapes=${SHAPES:-"4096x4096x4096 8192x8192x8192 2048x2048x2048 4000x4000x4000 1000x5000x296"}
reps=${REPS:-30}
results=${RESULTS:-$here/results.csv}
build=${BUILD:-$(mktemp -d)}
jobs=${JOBS:-$(nproc)}
mkdir -p "$build"
grep -v '^#' "$configs" | grep . > "$build/list"
# build in parallel
if [ -z "${SKIP_BUILD:-}" ]; then
    while IFS='|' read -r name flags _; do
        echo "nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -DCFG_NAME=$name $flags \
-o $build/$name $here/harness.cu -lcublas -lcuda > $build/$name.log 2>&1 || echo BUILD-FAILED $name"
    done < "$build/list" | xargs -P "$jobs" -I{} bash -c {}
fi
[ -n "${BUILD_ONLY:-}" ] && exit 0
echo "cfg,M,N,K,err_vs_cublas,err_vs_cublas_ab,err_vs_fp64,unwritten,gemm_h_ms,cublas_ms,gemm_h_tflops,cublas_tflops,ratio,rerun_diff,counters_left" > "$results"
while IFS='|' read -r name flags own; do
    [ -x "$build/$name" ] || { echo "$name,build failed: $(head -c 300 $build/$name.log 2>/dev/null)" >> "$results"; continue; }
    for s in ${own:-$shapes}; do
        IFS=x read -r m n k <<< "$s"
        out=$(timeout "${RUN_TIMEOUT:-60}" "$build/$name" "$m" "$n" "$k" "$reps" 2>&1)
        rc=$?
        [ $rc -eq 0 ] || out="$name,$m,$n,$k,FAILED rc=$rc $(echo $out | head -c 200)"
        echo "$out" >> "$results"
    done
done < "$build/list"
cat "$results"
