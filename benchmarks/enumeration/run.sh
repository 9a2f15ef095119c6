#!/bin/sh
# Enumeration benchmark: builds bench_enum.c against a built libcutune.a and runs it.
#   benchmarks/enumeration/run.sh [BUILD_DIR]     (default: build, relative to the project root)
# Prints a table and writes results.json and results.csv beside this script.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build="$root/$build" ;; esac

ninja -C "$build" libcutune.a >/dev/null
exe=$(mktemp "${TMPDIR:-/tmp}/bench_enum.XXXXXX")
trap 'rm -f "$exe"' EXIT
# shellcheck disable=SC2046
cc -std=c11 -O2 -D_GNU_SOURCE -I "$root/include" -I "$build" "$here/bench_enum.c" \
   "$build/libcutune.a" $(pkg-config --libs gsl libcjson zlib) \
   -lm -ldl -lpthread -o "$exe"
"$exe" "$here"
echo "wrote $here/results.json $here/results.csv"
