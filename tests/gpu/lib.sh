# Sourced by the GPU test scripts that tune a small spec of tests/gpu/ on the cuda evaluator:
# $exe, $here (this folder) and $out (a temporary folder, removed at exit), and gpu_tune.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# gpu_tune JOURNAL BUDGET SPEC [OPTION...]: grid search of SPEC on the cuda evaluator, no
# confirmation, into JOURNAL; its output shown. Exits 77 (skipped) without a CUDA driver or
# device, 1 when cutune fails.
gpu_tune() {
    j=$1 b=$2 spec=$3
    shift 3
    "$exe" --evaluator=cuda --searcher=grid --budget="$b" --confirm=0 "$@" --journal="$j" \
        "$spec" >"$out/stdout" 2>"$out/stderr"
    rc=$?
    cat "$out/stdout"; cat "$out/stderr" >&2
    if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/stderr"; then
        exit 77
    fi
    [ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
}
