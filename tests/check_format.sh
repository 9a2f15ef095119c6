#!/usr/bin/env bash
# The `format` test: every C file of the project matches .clang-format.
# Skipped (exit 77) where clang-format is not installed.
root=${CUTUNE_SOURCE_ROOT:?}
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 77; }
cd "$root"
bad=0
while IFS= read -r f; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f (clang-format -i $f)"
        bad=$((bad + 1))
    fi
done < <(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' 'benchmarks/*.c' 'examples/*.c' 2>/dev/null)
echo "$bad files not formatted"
[ "$bad" -eq 0 ]
