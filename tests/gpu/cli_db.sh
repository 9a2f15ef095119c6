#!/bin/sh
# The tuning database on a GPU: a cuda run stores its evaluations under the device's
# fingerprint (name, SMs, memory, driver, CUDA), a second run with the same seed answers
# all of them from the database, and `cutune best` names the same configuration. The
# run's journal header records that fingerprint ("gpu"), with a database or without one:
# `cutune db import` of the run's own journal adds nothing and the database keeps one GPU;
# a journal with it resumes. Skipped (77) without a driver or device.
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

# header "gpu": the fingerprint the rows are stored under
header_gpu() {
    python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline()).get('gpu'))" "$1"
}
gpu=$(header_gpu "$out/a.jsonl")
[ "$gpu" = "$fp" ] || { echo "journal header gpu '$gpu', database '$fp'" >&2; exit 1; }
"$exe" db import --db="$out/t.db" "$out/a.jsonl" >"$out/imp.out" 2>&1 || { cat "$out/imp.out" >&2; exit 1; }
cat "$out/imp.out"
grep -q ": 0 new, 8 already present\$" "$out/imp.out" ||
    { echo "db import of the run's own journal added records" >&2; exit 1; }
"$exe" db list --db="$out/t.db" >"$out/list.out" 2>&1 || { cat "$out/list.out" >&2; exit 1; }
cat "$out/list.out"
groups=$(tail -n +2 "$out/list.out" | cut -f2 | sort -u | wc -l)
ngpus=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from gpus').fetchone()[0])" "$out/t.db")
[ "$groups" -eq 1 ] && [ "$ngpus" -eq 1 ] ||
    { echo "db list: $groups GPUs, table gpus: $ngpus (want one)" >&2; exit 1; }
echo "ok: the journal's gpu is the database's key; its import adds nothing, one GPU"
# without a database the header records it too, and the journal resumes
"$exe" --evaluator=cuda --searcher=random --budget=3 --no-db --no-progress \
    --journal="$out/c.jsonl" vector_add >"$out/c.out" 2>"$out/c.err" || { cat "$out/c.err" >&2; exit 1; }
[ "$(header_gpu "$out/c.jsonl")" = "$fp" ] ||
    { echo "--no-db journal header gpu: $(header_gpu "$out/c.jsonl")" >&2; exit 1; }
head -n 1 "$out/c.jsonl" >"$out/c.head"
"$exe" --resume="$out/c.jsonl" --budget=4 --no-db --no-progress >"$out/r.out" 2>"$out/r.err" ||
    { cat "$out/r.err" >&2; exit 1; }
[ "$(grep -c '"kind":"eval"' "$out/c.jsonl")" -eq 4 ] && head -n 1 "$out/c.jsonl" | cmp -s - "$out/c.head" ||
    { cat "$out/r.out" "$out/r.err" >&2; echo "resume of a journal with gpu" >&2; exit 1; }
echo "ok: --no-db journal records gpu, and resumes"
# a journal holds one GPU's times: resumed where the header names another GPU, refused
# (exit 2, the journal as it was); another driver or CUDA version is the same GPU
set_gpu() {
    python3 - "$1" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines(True)
h = json.loads(lines[0]); h["gpu"] = sys.argv[2]
lines[0] = json.dumps(h, separators=(",", ":"), ensure_ascii=False) + "\n"
open(sys.argv[1], "w").write("".join(lines))
PY
}
cp "$out/c.jsonl" "$out/o.jsonl"
set_gpu "$out/o.jsonl" "Other GPU|1 SMs|1024 MiB|driver 1.0|CUDA 1.0"
cp "$out/o.jsonl" "$out/o.before"
"$exe" --resume="$out/o.jsonl" --budget=5 --no-db --no-progress >"$out/o.out" 2>"$out/o.err"
rc=$?
[ $rc -eq 2 ] && grep -q "measured on Other GPU|1 SMs|1024 MiB, and this run's GPU is " "$out/o.err" &&
    cmp -s "$out/o.jsonl" "$out/o.before" ||
    { cat "$out/o.err" >&2; echo "resume on another GPU: exit $rc, want 2 and the journal untouched" >&2; exit 1; }
cp "$out/c.jsonl" "$out/d.jsonl"
set_gpu "$out/d.jsonl" "$(echo "$fp" | cut -d'|' -f1-3)|driver 1.0|CUDA 1.0"
"$exe" --resume="$out/d.jsonl" --budget=5 --no-db --no-progress >"$out/d.out" 2>"$out/d.err" ||
    { cat "$out/d.err" >&2; echo "resume after a driver update refused" >&2; exit 1; }
echo "ok: resume on another GPU refused, after a driver update allowed"
