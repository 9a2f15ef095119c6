# Sourced by run.sh and run-h200.sh (not run on its own): sets root (the project), build
# (the first argument unless it is "--", shifted away with a following "--") and exe (the
# cutune binary in that build folder), or exits 2 naming what to build.
root=$(cd "$(dirname "$0")/../.." && pwd)
build=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
exe=$root/$build/src/cli/cutune
[ -x "$exe" ] || exe=$root/$build/cutune
[ -x "$exe" ] || { echo "$(basename "$0"): no cutune binary under $root/$build (meson setup $build && ninja -C $build)" >&2; exit 2; }
