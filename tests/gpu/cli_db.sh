#!/bin/sh
# The tuning database on a GPU: a cuda run stores its evaluations under the device's
# fingerprint (name, SMs, memory, driver, CUDA), a second run with the same seed answers
# all of them from the database, and `cutune best` names the same configuration. Skipped
# (77) without a driver or device.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
    "$exe" --evaluator=cuda --searcher=random --budget=8 --db="$out/t.db" --no-progress \
        --journal="$out/$1.jsonl" vector_add >"$out/$1.out" 2>"$out/$1.err"
}
run a
rc=$?
cat "$out/a.out"; cat "$out/a.err" >&2
if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/a.err"; then
    exit 77
fi
[ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
fp=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select fingerprint from gpus').fetchone()[0])" "$out/t.db")
echo "fingerprint: $fp"
echo "$fp" | grep -qE '^.+\|[0-9]+ SMs\|[0-9]+ MiB\|driver [0-9.]+\|CUDA [0-9]+\.[0-9]+$' ||
    { echo "fingerprint lacks a part" >&2; exit 1; }
run b || { cat "$out/b.err" >&2; exit 1; }
grep -q "from the database" "$out/b.out" || { cat "$out/b.out"; echo "second run measured again" >&2; exit 1; }
best=$("$exe" best --db="$out/t.db" -q vector_add)
[ "best: $best" = "$(grep '^best:' "$out/a.out")" ] || { echo "cutune best: $best" >&2; exit 1; }
echo "ok: stored under the GPU fingerprint, reused, best agrees"
