#!/usr/bin/env bash
# --resume=PREFIX --sizes=LIST (docs/shapes.md): a multi-shape run interrupted (its journals
# cut as a crash leaves them, SIGKILL, Ctrl-C) and resumed ends with the journals, the
# --output JSON and the summary of the uninterrupted run, byte for byte (gemm_h's H200
# recordings replayed: a deterministic clock); a finished run resumed changes nothing; a
# refusal is one line, exit 2, and leaves the journals as they were. TAP-like lines and a
# closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
export CUTUNE_DB=none
S3='M=N=K=1024;M=N=K=2048;M=1000,N=5000,K=296'
# the each mode's order: by the product of the sizes
L1=1024x1024x1024 L2=1000x5000x296 L3=2048x2048x2048
. "$here/../journal_lib.sh"

# Journals record absolute paths (the warm start's source): every run compared runs in run/.
# full DIR ARGS...: the uninterrupted run, its files then moved to DIR (run/ left empty)
full() {
    local d=$1
    shift
    rm -rf run && mkdir run
    (cd run && "$exe" --journal=g --no-progress --output=o.json "$@" gemm_h >out.txt 2>err.txt)
    local rc=$?
    mv run "$d" && mkdir run
    [ $rc -eq 0 ] || bad "uninterrupted run $d (exit $rc)" "$(cat "$d/err.txt")"
}
# cut SRC N: SRC's header and first N evaluations, then half of the next line (a crash
# mid-write)
cut_journal() {
    head -n $((1 + $2)) "$1"
    sed -n "$((2 + $2))p" "$1" | head -c 40
}
# resume ARGS...: the run in run/ continued; its exit status
resume() {
    (cd run && "$exe" --resume=g --no-progress --output=o.json "$@" gemm_h >out.txt 2>err.txt)
}
# same NAME DIR: run/'s journals, --output and summary are DIR's, byte for byte
same() {
    local name=$1 d=$2 f diff=""
    for f in "$d"/g-*.jsonl "$d"/o.json "$d"/out.txt; do
        cmp -s "$f" "run/$(basename "$f")" || diff="$diff $(basename "$f")"
    done
    [ "$(ls run/g-*.jsonl | wc -l)" -eq "$(ls "$d"/g-*.jsonl | wc -l)" ] || diff="$diff (journals)"
    [ -z "$diff" ] && ok "$name" || bad "$name (differ:$diff)" "$(cat run/err.txt)"
}

# ---- each mode, every --shape-warm: cut in the middle of the second shape, resumed
for w in nearest all model none; do
    full u-$w --sizes="$S3" --budget=12 --shape-warm=$w
    rm -rf run && mkdir run
    cp u-$w/g-$L1.jsonl run/
    cut_journal u-$w/g-$L2.jsonl 5 >run/g-$L2.jsonl
    resume --sizes="$S3" --shape-warm=$w
    rc=$?
    [ $rc -eq 0 ] && grep -q "shape $L1 (1 of 3).*finished, from its journal" run/err.txt \
        && grep -q "shape $L2 (2 of 3).*resumed from its journal" run/err.txt \
        && ok "each, --shape-warm=$w: the finished shape is its journal, the cut one resumed" \
        || bad "each, --shape-warm=$w: resume (exit $rc)" "$(cat run/err.txt)"
    same "each, --shape-warm=$w: cut mid-second-shape, resumed == uninterrupted" u-$w
done
# --shape-warm=all: no one file is the source, the pooled prior's hash is recorded
out=$(python3 - <<'PY' 2>&1
import json
h = json.loads(open("u-all/g-1000x5000x296.jsonl").readline())
assert "warm_start" not in h and len(h["warm_start_hash"]) == 16, h
h = json.loads(open("u-nearest/g-1000x5000x296.jsonl").readline())
assert h["warm_start"].endswith("/run/g-1024x1024x1024.jsonl") and h["warm_start_hash"], h
print("ok")
PY
)
[ "$out" = ok ] && ok "a --shape-warm=all journal records its pooled prior's hash, no source file" \
    || bad "warm_start fields of the shape journals" "$out"
# a model run's cut journal resumed with the pooled ranks instead: another prior, refused
rm -rf run && mkdir run
cp u-model/g-$L1.jsonl run/
cut_journal u-model/g-$L2.jsonl 5 >run/g-$L2.jsonl
before=$(md5sum run/g-*.jsonl)
resume --sizes="$S3" --shape-warm=all
rc=$?
[ $rc -eq 2 ] && grep -q "g-$L2.jsonl: the warm start maps onto the space differently .*another --shape-warm" run/err.txt \
    && [ "$(md5sum run/g-*.jsonl)" = "$before" ] \
    && ok "a --shape-warm=model run resumed with --shape-warm=all is refused, journals untouched" \
    || bad "model resumed as all (exit $rc)" "$(cat run/err.txt)"

# cut at other places: inside the first shape, between two shapes (the next not begun)
rm -rf run && mkdir run
cut_journal u-nearest/g-$L1.jsonl 3 >run/g-$L1.jsonl
resume --sizes="$S3" && same "each: cut in the first shape, resumed == uninterrupted" u-nearest \
    || bad "each: cut in the first shape (exit $?)" "$(cat run/err.txt)"
rm -rf run && mkdir run
cp u-nearest/g-$L1.jsonl u-nearest/g-$L2.jsonl run/
resume --sizes="$S3" && same "each: stopped between shapes, resumed == uninterrupted" u-nearest \
    || bad "each: stopped between shapes (exit $?)" "$(cat run/err.txt)"

# a finished run resumed: nothing evaluated, nothing appended, the same summary
sums=$(cd run && md5sum g-*.jsonl)
resume --sizes="$S3"
rc=$?
[ $rc -eq 0 ] && [ "$(cd run && md5sum g-*.jsonl)" = "$sums" ] \
    && [ "$(grep -c 'finished, from its journal' run/err.txt)" -eq 3 ] \
    && cmp -s run/out.txt u-nearest/out.txt \
    && ok "a finished run resumed changes nothing (every shape from its journal)" \
    || bad "a finished run resumed (exit $rc)" "$(cat run/err.txt)"

# ---- validation shapes: cut inside the first of them
full uv --sizes="$S3" --validate-sizes='M=N=K=4096;M=N=K=4000' --budget=8
rm -rf run && mkdir run
cp uv/g-$L1.jsonl uv/g-$L2.jsonl uv/g-$L3.jsonl run/
cut_journal uv/g-4096x4096x4096.jsonl 3 >run/g-4096x4096x4096.jsonl
resume --sizes="$S3" --validate-sizes='M=N=K=4096;M=N=K=4000' \
    && same "each with --validate-sizes: cut in a validation shape, resumed == uninterrupted" uv \
    || bad "each with --validate-sizes: resume (exit $?)" "$(cat run/err.txt)"

# ---- common mode: the common journal cut; with validation, a validation journal cut
full uc --sizes="$S3" --shape-mode=common --budget=12
rm -rf run && mkdir run
cut_journal uc/g-common.jsonl 5 >run/g-common.jsonl
resume --sizes="$S3" --shape-mode=common \
    && same "common: cut mid-run, resumed == uninterrupted (each shape's times from the journal)" uc \
    || bad "common: resume (exit $?)" "$(cat run/err.txt)"
full ucv --sizes="$S3" --shape-mode=common --budget=8 --validate-sizes='M=N=K=4096'
rm -rf run && mkdir run
cp ucv/g-common.jsonl run/
cut_journal ucv/g-4096x4096x4096.jsonl 2 >run/g-4096x4096x4096.jsonl
resume --sizes="$S3" --shape-mode=common --validate-sizes='M=N=K=4096' \
    && grep -q "the common run: finished, from its journal" run/err.txt \
    && same "common with --validate-sizes: cut in validation, resumed == uninterrupted" ucv \
    || bad "common with --validate-sizes: resume (exit $?)" "$(cat run/err.txt)"

# ---- real interruptions, with a tuning database
# SIGKILL in the middle of the second shape (stopped first, so that where it stood is known)
full uk --sizes="$S3" --budget=40
for try in 1 2 3 4 5; do
    rm -rf run && mkdir run
    (cd run && CUTUNE_DB=$tmp/k.db exec "$exe" --sizes="$S3" --budget=40 --journal=g \
        --no-progress --output=o.json gemm_h >out.txt 2>err.txt) &
    pid=$!
    for _ in $(seq 1 3000); do
        [ "$(nevals run/g-$L2.jsonl)" -ge 2 ] && break
        sleep 0.01
    done
    kill -STOP $pid 2>/dev/null
    n2=$(nevals run/g-$L2.jsonl)
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ "$n2" -ge 2 ] && [ "$n2" -lt 40 ] && [ ! -e run/g-$L3.jsonl ] && break
    n2=""
    rm -f "$tmp/k.db"*
done
if [ -z "$n2" ]; then
    bad "SIGKILL mid-second-shape: the run was never caught inside its second shape"
else
    CUTUNE_DB=$tmp/k.db resume --sizes="$S3" \
        && same "each: SIGKILL after $n2 evaluations of the second shape, resumed == uninterrupted" uk \
        || bad "each: SIGKILL resume (exit $?)" "$(cat run/err.txt)"
    counts=$(CUTUNE_DB=$tmp/k.db "$exe" db list | tail -n +2 | cut -f5 | sort -u)
    [ "$counts" = 40 ] && ok "each: after the resume every shape's database run holds its 40 evaluations" \
        || bad "each: database rows after the resume ($counts)"
fi
# Ctrl-C in the common mode: exit 130; resumed, the new evaluations follow the journaled
# ones in each shape's database run (the uninterrupted run has a database too: the summary
# gives each shape's best known time, the database's)
CUTUNE_DB=$tmp/uci.db full uci --sizes="$S3" --shape-mode=common --budget=40
for try in 1 2 3 4 5; do
    rm -rf run && mkdir run
    (cd run && CUTUNE_DB=$tmp/c.db exec "$exe" --sizes="$S3" --shape-mode=common --budget=40 \
        --journal=g --no-progress --output=o.json gemm_h >out.txt 2>err.txt) &
    pid=$!
    for _ in $(seq 1 3000); do
        [ "$(nevals run/g-common.jsonl)" -ge 3 ] && break
        sleep 0.01
    done
    kill -INT $pid 2>/dev/null
    wait $pid
    rc=$?
    n=$(nevals run/g-common.jsonl)
    [ $rc -eq 130 ] && [ "$n" -lt 40 ] && break
    rc=""
    rm -f "$tmp/c.db"*
done
if [ -z "$rc" ]; then
    bad "common: Ctrl-C: the run was never caught before its end"
else
    CUTUNE_DB=$tmp/c.db resume --sizes="$S3" --shape-mode=common \
        && same "common: Ctrl-C after $n configurations, resumed == uninterrupted" uci \
        || bad "common: Ctrl-C resume (exit $?)" "$(cat run/err.txt)"
    counts=$(CUTUNE_DB=$tmp/c.db "$exe" db list | tail -n +2 | cut -f5 | sort -u)
    [ "$counts" = 40 ] && ok "common: after the resume every shape's database run holds the 40 configurations" \
        || bad "common: database rows after the resume ($counts)"
fi

# ---- refusals: one line, exit 2, the journals untouched, no --output
# refuse NAME PATTERN ARGS...: resume run/ (a copy of DIR's journals: $from) with ARGS
refuse() {
    local name=$1 pat=$2
    shift 2
    local before out rc
    before=$(cd run && md5sum g-*.jsonl 2>/dev/null)
    out=$(cd run && "$exe" --no-progress --output=o.json "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if [ -e run/o.json ] || [ "$(cd run && md5sum g-*.jsonl 2>/dev/null)" != "$before" ]; then
        bad "$name: wrote a file"
        return
    fi
    ok "$name"
}
rm -rf run && mkdir run
cp u-nearest/g-$L1.jsonl run/
cut_journal u-nearest/g-$L2.jsonl 5 >run/g-$L2.jsonl
refuse "no journal of the prefix" "--resume=nope: no journal nope-\*.jsonl" \
    --resume=nope --sizes="$S3" gemm_h
refuse "a list without a shape the run tuned" \
    "g-1000x5000x296.jsonl is the journal of a shape this run does not tune" \
    --resume=g --sizes='M=N=K=1024;M=N=K=2048' gemm_h
refuse "a list with a shape the run would have tuned first" \
    "g-1024x1024x1024.jsonl exists, but g-512x512x512.jsonl, which the run writes before it" \
    --resume=g --sizes="M=N=K=512;$S3" gemm_h
refuse "another seed" "g-1024x1024x1024.jsonl: --seed=2 differs from the journal's seed 1" \
    --resume=g --sizes="$S3" --seed=2 gemm_h
refuse "a smaller budget" "--budget=5 is below the journal's budget 12" \
    --resume=g --sizes="$S3" --budget=5 gemm_h
refuse "a larger budget" "--budget=20 is above the journal's budget 12: a multi-shape run resumes" \
    --resume=g --sizes="$S3" --budget=20 gemm_h
refuse "another searcher" "--searcher=random differs from the journal's searcher bo" \
    --resume=g --sizes="$S3" --searcher=random gemm_h
refuse "another --shape-warm" \
    "g-1000x5000x296.jsonl: the shape was warm-started from one shape .*--shape-warm=none" \
    --resume=g --sizes="$S3" --shape-warm=none gemm_h
refuse "another --shape-mode" "g-1024x1024x1024.jsonl is the journal of a shape this run does not tune" \
    --resume=g --sizes="$S3" --shape-mode=common gemm_h
refuse "another --journal beside --resume" "--journal=h is not allowed with it" \
    --resume=g --journal=h --sizes="$S3" gemm_h
# a journal of another run (another seed in its header), and a warm start's source changed
cp run/g-$L2.jsonl keep.jsonl
python3 - run/g-$L2.jsonl <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
h = json.loads(lines[0]); h["seed"] = 7
lines[0] = json.dumps(h, separators=(",", ":"))
open(sys.argv[1], "w").write("\n".join(lines))
PY
refuse "journals of two runs" "g-1000x5000x296.jsonl: the journal has seed 7, g-1024x1024x1024.jsonl seed 1" \
    --resume=g --sizes="$S3" gemm_h
cp keep.jsonl run/g-$L2.jsonl
cp run/g-$L1.jsonl keep.jsonl
python3 - run/g-$L1.jsonl <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
e = json.loads(lines[3]); e["time_ms"] *= 0.01  # now the fastest: the ranking changes
lines[3] = json.dumps(e, separators=(",", ":"))
open(sys.argv[1], "w").write("\n".join(lines))
PY
refuse "a warm start's source journal changed" \
    "g-1000x5000x296.jsonl: the warm start maps onto the space differently .*have changed" \
    --resume=g --sizes="$S3" gemm_h
cp keep.jsonl run/g-$L1.jsonl
# the common mode: the list is recorded, another order of it is another run
rm -rf run && mkdir run
cut_journal uc/g-common.jsonl 5 >run/g-common.jsonl
refuse "common: another list" "g-common.jsonl: the run was started on the shapes M=1024,N=1024,K=1024;" \
    --resume=g --sizes='M=N=K=2048;M=N=K=1024;M=1000,N=5000,K=296' --shape-mode=common gemm_h
refuse "common: resumed as the each mode" "g-common.jsonl is the journal of a --shape-mode=common run" \
    --resume=g --sizes="$S3" gemm_h
# a --shape-warm=all shape's journal alone: no one file to rebuild its prior from
rm -rf run && mkdir run
cut_journal u-all/g-$L2.jsonl 5 >run/g-$L2.jsonl
refuse "a --shape-warm=all shape's journal resumed alone" \
    "warm-started from several shapes' journals .*--resume=PREFIX --sizes=LIST" \
    --resume=g-$L2.jsonl --size M=1000 --size N=5000 --size K=296 gemm_h
# the common journal gone, a validation journal left: the order is refused first (the
# validation journal is not read as the run's first journal)
rm -rf run && mkdir run
cp ucv/g-4096x4096x4096.jsonl run/
refuse "common: a validation journal without the common journal" \
    "g-4096x4096x4096.jsonl exists, but g-common.jsonl, which the run writes before it, does not" \
    --resume=g --sizes="$S3" --shape-mode=common --validate-sizes='M=N=K=4096' gemm_h
# --output onto a file the run records or reads: refused, fresh or resumed
rm -rf run && mkdir run
cp u-nearest/g-$L1.jsonl run/
cut_journal u-nearest/g-$L2.jsonl 5 >run/g-$L2.jsonl
before=$(cd run && md5sum g-*.jsonl)
out=$(cd run && "$exe" --resume=g --sizes="$S3" --no-progress --output=g-$L1.jsonl gemm_h 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] && grep -q -- "--output=g-$L1.jsonl: is a shape's journal" <<<"$out" \
    && [ "$(cd run && md5sum g-*.jsonl)" = "$before" ] \
    && ok "resume: --output onto a shape's journal is refused, the journals untouched" \
    || bad "resume: --output onto a journal (exit $rc)" "$out"
rm -rf run && mkdir run
out=$(cd run && "$exe" --journal=g --sizes="$S3" --shape-mode=common --no-progress \
    --output=g-common.jsonl gemm_h 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] && grep -q -- "--output=g-common.jsonl: is the common journal" <<<"$out" \
    && [ -z "$(ls run)" ] && ok "--output onto the common journal is refused, nothing written" \
    || bad "--output onto the common journal (exit $rc)" "$out"
# --output (or a journal) onto the tuning database: refused before the database is opened
rm -rf run && mkdir run
out=$(cd run && CUTUNE_DB=$tmp/run/t.db "$exe" --journal=g --sizes="$S3" --no-progress \
    --output=t.db gemm_h 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] && grep -q -- "--output=t.db: is the tuning database" <<<"$out" && [ -z "$(ls run)" ] \
    && ok "--sizes: --output onto the tuning database is refused, nothing created" \
    || bad "--sizes: --output onto the database (exit $rc)" "$out"
out=$(cd run && "$exe" --db=t.db --journal=t.db --budget=3 --no-progress gemm_h 2>&1 >/dev/null)
rc=$?
[ $rc -eq 2 ] && grep -q -- "--journal=t.db: is the tuning database" <<<"$out" && [ -z "$(ls run)" ] \
    && ok "a single run's journal onto the tuning database is refused, nothing created" \
    || bad "a single run's journal onto the database (exit $rc)" "$out"

# labels are the sizes as written (1.024e3): their journals are found on resume
SE='M=N=K=1.024e3;M=1000,N=5000,K=296'
full ue --sizes="$SE" --budget=8
rm -rf run && mkdir run
cut_journal ue/g-1.024e3x1.024e3x1.024e3.jsonl 3 >run/g-1.024e3x1.024e3x1.024e3.jsonl
# a sibling run's journal (PREFIX-2-LABEL) is not this run's: ignored
cp ue/g-$L2.jsonl run/g-2-$L2.jsonl
resume --sizes="$SE" && rm run/g-2-$L2.jsonl \
    && same "a label written 1.024e3: cut in its own shape, resumed == uninterrupted" ue \
    || bad "a label written 1.024e3: resume (exit $?)" "$(cat run/err.txt)"

# a shape whose source shape holds one correct evaluation (budget 1) is tuned cold: its
# prior would order nothing, so its journal records no warm start and resumes alone
rm -rf one && mkdir one
(cd one && CUTUNE_DB=none "$exe" --no-progress --budget=1 --sizes='M=N=K=1024;M=N=K=2048' \
    --journal="$tmp/one/g" gemm_h >err.txt 2>&1)
head -1 one/g-2048x2048x2048.jsonl >one/c2.jsonl
(cd one && CUTUNE_DB=none "$exe" --no-progress --resume=c2.jsonl --size M=2048 --size N=2048 \
    --size K=2048 gemm_h >r.txt 2>&1)
rc=$?
[ $rc -eq 0 ] && ! head -1 one/g-2048x2048x2048.jsonl | grep -q '"warm_start"' \
    && cmp -s one/c2.jsonl one/g-2048x2048x2048.jsonl \
    && ok "a shape after one of one evaluation: cold, and its journal resumes alone == uninterrupted" \
    || bad "a shape after one of one evaluation (exit $rc)" "$(cat one/err.txt one/r.txt)"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
