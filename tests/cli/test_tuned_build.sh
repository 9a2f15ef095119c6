#!/usr/bin/env bash
# examples/tuned-build as a user builds it: a CMake build and a meson build each get
# vector_add_tuned.h from `cutune header` (the first tunes, replaying the shipped
# recording where there is no GPU; the second finds enough in the database and tunes
# nothing), compile it in and run the kernel, or its CPU stand-in where there is no GPU.
# Where a CUDA compiler is found the GPU program is compiled too (and run on a GPU).
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
root=${CUTUNE_SOURCE_ROOT:?CUTUNE_SOURCE_ROOT not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
export CUTUNE_DB=$tmp/tuning.db HOME=$tmp/home XDG_DATA_HOME=$tmp/xdg
cp -r "$root/examples/tuned-build" src
gpu=0
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && gpu=1
[ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ] && export CUDACXX=/usr/local/cuda/bin/nvcc

run_built() { # NAME BUILDDIR
    local out
    if [ $gpu -eq 1 ] && [ -x "$2/vector_add_gpu" ]; then
        out=$("$2/vector_add_gpu" 2>&1) && grep -q "on the GPU.*all elements correct" <<<"$out" \
            && ok "$1: the tuned kernel runs on the GPU: $out" || bad "$1: the tuned kernel runs on the GPU" "$out"
    else
        out=$("$2/vector_add_cpu" 2>&1) && grep -q "CPU (a stand-in: no GPU here).*all elements correct" <<<"$out" \
            && ok "$1: the CPU stand-in runs with the tuned header (no GPU here)" || bad "$1: the CPU stand-in runs" "$out"
        if [ -n "${CUDACXX:-}" ]; then
            [ -x "$2/vector_add_gpu" ] && ok "$1: the GPU program compiles with the tuned header (not run: no GPU)" \
                || bad "$1: the GPU program compiles with the tuned header" "$(ls "$2")"
        fi
    fi
}

if ! command -v cmake >/dev/null; then
    echo "ok - cmake build # SKIP cmake is not installed (apt-get install cmake)"
else
    cmake -S src -B bc -DCUTUNE="$exe" -DCUTUNE_KERNEL_DIR="$root/kernels" >cmake.log 2>&1 &&
        cmake --build bc >>cmake.log 2>&1
    [ $? -eq 0 ] && ok "cmake: configured and built" || bad "cmake: configured and built" "$(tail -20 cmake.log)"
    if [ $gpu -eq 0 ]; then
        grep -q "no GPU here: replaying the recording" cmake.log && ok "cmake: cutune header tuned by replaying the shipped recording" \
            || bad "cmake: cutune header tuned by replaying the shipped recording" "$(grep -i cutune cmake.log | head)"
    fi
    run_built cmake bc
fi

tuned=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from evaluations where reused_from is null').fetchone()[0])" "$CUTUNE_DB" 2>/dev/null)
meson setup bm src -Dcutune="$exe" -Dkernel_dir="$root/kernels" >meson.log 2>&1 && ninja -C bm >>meson.log 2>&1
[ $? -eq 0 ] && ok "meson: configured and built" || bad "meson: configured and built" "$(tail -20 meson.log)"
if [ -n "$tuned" ] && [ "$tuned" -ge 60 ]; then
    grep -q "nothing tuned" meson.log && ok "meson: the header came from the database ($tuned measurements), nothing tuned" \
        || bad "meson: the header came from the database, nothing tuned" "$(grep -i cutune meson.log | head)"
    cmp -s bc/vector_add_tuned.h bm/vector_add_tuned.h && ok "both builds compiled the same tuned header" \
        || bad "both builds compiled the same tuned header" "$(diff bc/vector_add_tuned.h bm/vector_add_tuned.h)"
fi
best=$("$exe" best -q vector_add 2>&1)
defs=$(grep '^#define [a-z]' bm/vector_add_tuned.h | awk '{printf "%s%s=%s", n++ ? ", " : "", $2, $3}')
[ "$best" = "$defs" ] && ok "the header holds cutune best's configuration ($best)" || bad "the header holds cutune best's configuration" "$best / $defs"
run_built meson bm

# a budget above the space (vector_add has 66 configurations): once the database holds
# them all, the header is its best and nothing runs (no tune answering all 66 from it)
for k in 1 2; do
    CUTUNE_DB=$tmp/small.db "$exe" header --budget=100 -o small$k.h --no-progress vector_add \
        >small$k.txt 2>&1
done
[ -f small2.h ] && grep -q "the best of 66 measurements in .*; nothing tuned" small2.txt \
    && ! grep -q "^evaluations:" small2.txt \
    && ok "a budget above the space: the second header is the database's best, nothing tuned" \
    || bad "a budget above the space: the second header tunes nothing" "$(tail -3 small2.txt)"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
