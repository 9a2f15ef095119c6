#!/usr/bin/env bash
# Tuning across shapes (docs/shapes.md) on gemm_h's H200 recordings at several sizes
# (data/shapes): --sizes parsing, the common and each modes, validation, the tuning
# database per shape, and the dispatch-table header compiled and looked up. TAP-like lines
# and a closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
export CUTUNE_DB=$tmp/tuning.db
S3='M=N=K=1024;M=N=K=2048;M=1000,N=5000,K=296'

"$exe" tune --help | grep -q -- "--sizes=LIST" && "$exe" header --help | grep -q -- "--sizes=LIST" \
    && "$exe" best --help | grep -q -- "--sizes=LIST" && ok "tune, header and best --help name --sizes" \
    || bad "tune, header and best --help name --sizes"

# ---- bad input: one line, exit 2, no file
expect_fail "a size that is not a number" "shape 2 \(M=N=K=abc\): .*'abc' is not a decimal" \
    --sizes='M=N=K=1024;M=N=K=abc' gemm_h
expect_fail "shapes naming other sizes" "shape 2 names 1 sizes, the first shape 3" \
    --sizes='M=N=K=1024;M=2048' gemm_h
expect_fail "a shape twice" "shape 2 \(1024x1024x1024\) is shape 1 again" \
    --sizes='M=N=K=1024;K=1024,N=1024,M=1024' gemm_h
expect_fail "a size twice in a shape" "size M is given twice" --sizes='M=1024,M=2048' gemm_h
expect_fail "a size not positive" "M=0: a shape's sizes must be positive" \
    --sizes='M=0,N=1024,K=1024' gemm_h
expect_fail "--sizes with --size" "not with --size" --sizes="$S3" --size M=5 gemm_h
expect_fail "--sizes on a recording" "is a recording, which has no sizes" \
    --sizes="$S3" "$root/data/xgemm.jsonl.gz"
expect_fail "an unknown size" "shape X=3: .*X" --sizes='X=3' gemm_h
expect_fail "a shape without a recording (no GPU)" \
    "shape M=1000,N=1000,K=1000: .*none of its 6 recordings was measured at .*M=1000" \
    --sizes='M=N=K=1000' gemm_h
expect_fail "a bad mode" "--shape-mode=both: expected common or each" \
    --sizes="$S3" --shape-mode=both gemm_h
# --shape-warm is the each mode's: the common mode (one search over every shape) and header
# --sizes (each shape tuned on its own) accepted it and warm-started nothing
for w in nearest all model none; do
    expect_fail "--shape-mode=common --shape-warm=$w is refused" \
        "^cutune: --shape-warm=$w: the each mode's warm start; --shape-mode=common tunes every shape in one search" \
        --sizes="$S3" --shape-mode=common --shape-warm=$w gemm_h
done
expect_fail "--validate-sizes without --sizes" "--validate-sizes needs --sizes" \
    --validate-sizes='M=N=K=4096' gemm_h
expect_fail "a validation shape that is tuned" "1024x1024x1024 is tuned by --sizes already" \
    --sizes="$S3" --validate-sizes='M=N=K=1024' gemm_h
expect_fail "a validation shape that is tuned, its sizes in another order" \
    "1000x5000x296 is tuned by --sizes already" --sizes="$S3" --validate-sizes='K=296,M=1000,N=5000' gemm_h
expect_fail "a validation shape that names another size" "shape 1 does not name K" \
    --sizes="$S3" --validate-sizes='M=2048,N=2048,SMS=132' gemm_h
# a long line is read whole, never split: the rest of its comment never becomes a shape
# (2x48 would be refused, naming the line); the file's one shape is 1024^3
python3 -c "print('M=N=K=1024  # M=N=K=2x48 left out:' + ' ' * 4100 + 'M=N=K=2x48')" >long.txt
expect_fail "--sizes=@FILE with a long line: read whole, its comment stays one" \
    "1024x1024x1024 is tuned by --sizes already" --sizes=@long.txt --validate-sizes='M=N=K=1024' gemm_h
# a NUL ended the line where it stood: "M=N=K=1024\0,K=99" was read as M=N=K=1024
printf 'M=N=K=1024\0,K=99\n' >nul.txt
expect_fail "--sizes=@FILE with a NUL: refused, naming the line" "--sizes=@nul.txt:1: a NUL character" \
    --sizes=@nul.txt gemm_h
expect_fail "bad searcher arguments, before any shape runs" "bo: unknown option 'bogus'" \
    --sizes="$S3" --searcher=bo:bogus=1 gemm_h
expect_fail "--resume=PREFIX with --sizes and another --journal" "--journal=j.jsonl is not allowed" \
    --sizes="$S3" --resume=x gemm_h
expect_fail "--sizes=@ a missing file, naming the option" \
    "^cutune: --sizes=@nope.txt: cannot open: No such file or directory$" --sizes=@nope.txt gemm_h
expect_fail "--sizes=@ without a file name" "^cutune: --sizes=@: no file name after '@'" --sizes=@ gemm_h
expect_fail "--validate-sizes=@ a folder, naming the option" "^cutune: --validate-sizes=@.: is a directory" \
    --sizes="$S3" --validate-sizes=@. gemm_h
# an empty element is refused, naming the shape and its place: strtok_r skipped it, so
# 'M=N=K=1024,,K=2048' read as 'M=N=K=1024,K=2048' and a trailing ',' or ';' as nothing
for a in "M=1024,,N=1024,K=1024|shape 1 \(M=1024,,N=1024,K=1024\): element 2 is empty" \
    "M=N=K=1024;M=2048,N=2048,K=2048,|shape 2 \(M=2048,N=2048,K=2048,\): element 4 is empty" \
    ",M=N=K=1024|shape 1 \(,M=N=K=1024\): element 1 is empty" \
    "M=N=K=1024, ;M=N=K=2048|shape 1 \(M=N=K=1024,\): element 2 is empty" \
    "M=N=K=1024;;M=N=K=2048|shape 2 is empty" "M=N=K=1024;M=N=K=2048;|shape 3 is empty"; do
    expect_fail "--sizes='${a%%|*}': refused, naming the empty element" "^cutune: --sizes: ${a#*|}" \
        --sizes="${a%%|*}" gemm_h
done
expect_fail "--validate-sizes with an empty element" \
    "^cutune: --validate-sizes: shape 1 \(M=N=K=4096,\): element 2 is empty" \
    --sizes="$S3" --validate-sizes='M=N=K=4096,' gemm_h
printf 'M=N=K=1024\nM=1000,,N=5000,K=296\n' >empty.txt
expect_fail "--sizes=@FILE with an empty element names the line" \
    "^cutune: --sizes: empty.txt:2 \(M=1000,,N=5000,K=296\): element 2 is empty" --sizes=@empty.txt gemm_h
printf '# shapes\nM=N=K=1024\n\nM=N=K=2048  # square\nM=1000,N=5000,K=2x96\n' >shapes.txt
expect_fail "--sizes=@FILE names the line" "shapes.txt:5 \(M=1000,N=5000,K=2x96\)" \
    --sizes=@shapes.txt gemm_h
# (expect_fail gives --journal and --output of its own: these name theirs)
refuse_path() { # NAME PATTERN ARGS...: exit 2, one line matching PATTERN
    local name=$1 pat=$2 out rc
    shift 2
    out=$("$exe" "$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -qE -- "$pat" <<<"$out" \
        && ok "$name" || bad "$name (exit $rc)" "$out"
}
refuse_path "a journal folder that does not exist, before any shape runs" \
    "^cutune: --journal=nodir/g-1024x1024x1024.jsonl: cannot write in nodir" \
    --sizes="$S3" --journal=nodir/g gemm_h
refuse_path "an --output folder that does not exist, before any shape runs" \
    "^cutune: --output=nodir/o.json: cannot write in nodir" --sizes="$S3" --output=nodir/o.json gemm_h
CUTUNE_DB=$tmp/e.db refuse_path "header --sizes --shape-warm is refused before any shape runs" \
    "^cutune header: --sizes: not with --shape-warm=all \(each shape is tuned on its own, from what the database holds: no shape warm-starts another\)$" \
    header --sizes="$S3" --shape-warm=all --budget=2 -o sw.h gemm_h
CUTUNE_DB=$tmp/e.db refuse_path "best --sizes with an empty element" \
    "^cutune best: --sizes: shape 1 \(M=N=K=1024,\): element 2 is empty" best --sizes='M=N=K=1024,' gemm_h
expect_fail "a label too long for the common journal's metric names" \
    "shape 1234567896x1234567896x1234567896: the common mode names each shape's time t_LABEL, at most 31" \
    --sizes='M=N=K=1234567896;M=N=K=2048' --shape-mode=common gemm_h
[ ! -e nodir ] && [ ! -e runs ] && ok "refused runs make no folder" || bad "a refused run made a folder"
[ ! -e "$CUTUNE_DB" ] && ok "refused runs leave no database" || bad "refused runs leave no database"

# ---- common: one configuration for all shapes
printf 'M=N=K=1024\nM=N=K=2048 # square\nM=1000,N=5000,K=296\n' >s3.txt
"$exe" --sizes=@s3.txt --shape-mode=common --budget=15 --journal=c --output=c.json \
    --no-progress gemm_h >c.txt 2>c.err
rc=$?
[ $rc -eq 0 ] && ok "common mode runs (replay, three shapes)" \
    || bad "common mode runs (exit $rc)" "$(cat c.txt c.err)"
for lab in 1024x1024x1024 2048x2048x2048 1000x5000x296; do
    set -- $(tr x ' ' <<<"$lab")
    "$exe" db export --size M=$1 --size N=$2 --size K=$3 --journal=db-$lab.jsonl gemm_h \
        >/dev/null 2>&1
done
out=$(python3 - "$root" <<'PY' 2>&1
import gzip, json, math, sys
root = sys.argv[1]
s = json.load(open("c.json"))
lines = [json.loads(l) for l in open("c-common.jsonl")]
evals = [l for l in lines if l["kind"] == "eval"]
assert s["mode"] == "common" and s["budget_counts"].startswith("configurations"), s
assert len(evals) == 15, len(evals)
labels = ["1024x1024x1024", "2048x2048x2048", "1000x5000x296"]
files = {l: f"{root}/data/shapes/gemm_h-{l}.jsonl.gz" for l in labels}
def rec(path):
    d = {}
    for l in gzip.open(path, "rt"):
        o = json.loads(l)
        if o["kind"] == "eval":
            d[json.dumps(o["config"], sort_keys=True)] = o
    return d
recs = {l: rec(f) for l, f in files.items()}
key = lambda c: json.dumps(c, sort_keys=True)
win = s["common"]["config"]
# the chosen configuration is recorded (valid and measured) at every shape
for l in labels:
    assert key(win) in recs[l] and recs[l][key(win)]["status"] == "ok", l
# every journal line: its time is the geometric mean of the shapes' recorded times
for e in evals:
    ts = [recs[l][key(e["config"])]["time_ms"] for l in labels]
    g = math.exp(sum(map(math.log, ts)) / 3)
    assert abs(e["time_ms"] - g) <= 1e-9 * g, (e["time_ms"], g)
    for l, t in zip(labels, ts):
        assert abs(e["metrics"]["t_" + l] - t) <= 1e-12 * t
# the winner is the least geometric mean the journal holds
best = min(evals, key=lambda e: e["time_ms"])
assert key(best["config"]) == key(win) and best["time_ms"] == s["common"]["geomean_ms"]
# each shape's time relative to its best seen in the run
for sh in s["shapes"]:
    l = sh["label"]
    seen = min(e["metrics"]["t_" + l] for e in evals)
    assert sh["best_seen_ms"] == seen and sh["time_ms"] == best["metrics"]["t_" + l], sh
    assert abs(sh["relative"] - sh["time_ms"] / seen) < 1e-12 and sh["relative"] >= 1
    assert sh["evaluations"] == 15
# the database holds every shape's 15 measurements under its sizes
for l in labels:
    db = [json.loads(x) for x in open(f"db-{l}.jsonl")]
    dbe = [x for x in db if x["kind"] == "eval"]
    assert len(dbe) == 15, (l, len(dbe))
    assert {key(x["config"]) for x in dbe} == {key(e["config"]) for e in evals}, l
    h = db[0]
    M, N, K = map(int, l.split("x"))
    assert (h["sizes"]["M"], h["sizes"]["N"], h["sizes"]["K"]) == (M, N, K), h["sizes"]
print("ok")
PY
)
[ "$out" = ok ] && ok "common: the configuration is valid at every shape, the journal's times are the geometric means, the database holds each shape's measurements" \
    || bad "common mode's properties" "$out"
grep -q "^common: BM=" c.txt && grep -q "x its best seen" c.txt \
    && ok "common: the summary names the configuration and each shape's ratio" \
    || bad "common: the summary" "$(cat c.txt)"

# the common journal names the kernel's spec (its times are the shapes', not the spec's)
python3 -c "
import json; h = json.loads(open('c-common.jsonl').readline())
assert h['spec'] == 'gemm_h' and h['spec_hash'] and h['evaluator'] == 'shapes', h" 2>/dev/null \
    && ok "common: the journal header names the kernel's spec" \
    || bad "common: the journal header names the kernel's spec" "$(head -c 300 c-common.jsonl)"
# one shape in common mode: its own times, as a shape of several has them
"$exe" --sizes='M=N=K=1024' --shape-mode=common --budget=4 --journal=c1 --output=c1.json \
    --no-progress gemm_h >c1.txt 2>&1
python3 -c "
import json; s = json.load(open('c1.json')); sh = s['shapes'][0]
assert sh['time_ms'] == s['common']['geomean_ms'] and sh['relative'] == 1, s" 2>/dev/null \
    && ! grep -q nan c1.txt && ok "common with one shape: its time, not nan" \
    || bad "common with one shape: its time, not nan" "$(cat c1.txt)"

# the same run again answers everything from the database and chooses the same
"$exe" --sizes=@s3.txt --shape-mode=common --budget=15 --journal=c2 --output=c2.json \
    --no-progress gemm_h >/dev/null 2>&1
out=$(python3 -c '
import json
a, b = json.load(open("c.json")), json.load(open("c2.json"))
assert a["common"]["config"] == b["common"]["config"]
assert all(s["reused"] == 15 for s in b["shapes"]), b["shapes"]
print("ok")' 2>&1)
[ "$out" = ok ] && ok "common again: every answer from the database, the same choice" \
    || bad "common again" "$out"

# validation of the common mode: its one configuration, timed at 4096^3, against a direct tune
"$exe" --sizes="$S3" --shape-mode=common --budget=6 --validate-sizes='M=N=K=4096' \
    --journal=cv --output=cv.json --no-progress gemm_h >cv.txt 2>&1
out=$(python3 - "$root" <<'PY' 2>&1
import gzip, json, sys
s = json.load(open("cv.json"))
v = s["validation"][0]
assert v["from"] is None and v["config"] == s["common"]["config"], v
rec = {json.dumps(o["config"], sort_keys=True): o for o in
       (json.loads(l) for l in gzip.open(sys.argv[1] + "/data/gemm_h.jsonl.gz", "rt"))
       if o["kind"] == "eval"}
assert v["chosen_ms"] == rec[json.dumps(v["config"], sort_keys=True)]["time_ms"]
d = [json.loads(l) for l in open("cv-4096x4096x4096.jsonl")]
assert v["direct_ms"] == min(e["time_ms"] for e in d if e["kind"] == "eval" and e["status"] == "ok")
assert abs(v["loss"] - v["chosen_ms"] / v["direct_ms"]) < 1e-12
print("ok")
PY
)
[ "$out" = ok ] && grep -q "^validate 4096x4096x4096 (the configuration of the common run)" cv.txt \
    && ok "common: validation times the one configuration at an untuned shape against a direct tune" \
    || bad "common: validation" "$out $(cat cv.txt)"

# Ctrl-C in the common mode: exit 130, the journal and every shape's database rows agree
mkdir sig
(cd sig && CUTUNE_DB=$tmp/sig/t.db exec "$exe" --sizes='M=N=K=2048;M=N=K=4096;M=N=K=4000' \
    --shape-mode=common --budget=300 --journal=c --output=o.json --no-progress gemm_h \
    >out.txt 2>err.txt) &
pid=$!
for _ in $(seq 1 300); do
    [ "$(grep -c '"kind":"eval"' sig/c-common.jsonl 2>/dev/null)" -ge 5 ] 2>/dev/null && break
    sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
n=$(grep -c '"kind":"eval"' sig/c-common.jsonl)
counts=$(CUTUNE_DB=$tmp/sig/t.db "$exe" db list | tail -n +2 | cut -f5 | sort -u)
[ $rc -eq 130 ] && [ "$counts" = "$n" ] && [ -s sig/o.json ] && [ "$n" -lt 300 ] \
    && ok "common: Ctrl-C exits 130 with the summary written, and each shape's database rows are the journal's $n" \
    || bad "common: Ctrl-C (exit $rc, journal $n, database $counts)" "$(cat sig/err.txt)"

# ---- each: one configuration per shape, warm-started, validated at 4096^3
"$exe" --sizes="$S3" --budget=12 --journal=e --output=e.json --validate-sizes='M=N=K=4096' \
    --no-progress gemm_h >e.txt 2>e.err
rc=$?
[ $rc -eq 0 ] && ok "each mode with validation runs" || bad "each mode (exit $rc)" "$(cat e.txt e.err)"
"$exe" best --sizes="$S3;M=N=K=4096" gemm_h >best.txt 2>&1
out=$(python3 - "$root" <<'PY' 2>&1
import gzip, json, sys
root = sys.argv[1]
s = json.load(open("e.json"))
assert s["mode"] == "each" and s["budget_counts"] == "evaluations per shape"
key = lambda c: json.dumps(c, sort_keys=True)
best = {l.split(":")[0]: l.split(": ", 1)[1] for l in open("best.txt")}
order = []
for sh in s["shapes"]:
    l = sh["label"]
    j = [json.loads(x) for x in open(sh["journal"])]
    ev = [x for x in j if x["kind"] == "eval" and x["status"] == "ok"]
    assert len([x for x in j if x["kind"] == "eval"]) == 12
    M, N, K = map(int, l.split("x"))
    assert (j[0]["sizes"]["M"], j[0]["sizes"]["N"], j[0]["sizes"]["K"]) == (M, N, K)
    w = min(ev, key=lambda x: x["time_ms"])
    assert key(w["config"]) == key(sh["config"]) and w["time_ms"] == sh["time_ms"], l
    # the database's best at the shape is the winner (a fresh database for these shapes
    # besides the common run's, which measured other configurations there too)
    assert l in best, best
# the order is by the product of the sizes; each shape after the first is warm-started
# from the nearest one tuned before it
w = {sh["label"]: sh["warm_from"] for sh in s["shapes"]}
assert w == {"1024x1024x1024": None, "1000x5000x296": "1024x1024x1024",
             "2048x2048x2048": "1024x1024x1024"}, w
h = json.loads(open("e-2048x2048x2048.jsonl").readline())
assert h["warm_start"].endswith("/e-1024x1024x1024.jsonl") and h["warm_start_hash"], h
assert "warm_start" not in json.loads(open("e-1024x1024x1024.jsonl").readline())
# validation at 4096^3: the configuration of the nearest tuned shape (2048^3), timed there,
# against a direct tune of 4096^3
v = s["validation"][0]
assert v["label"] == "4096x4096x4096" and v["from"] == "2048x2048x2048", v
src = [sh for sh in s["shapes"] if sh["label"] == "2048x2048x2048"][0]
assert v["config"] == src["config"]
rec = {}
for x in gzip.open(f"{root}/data/gemm_h.jsonl.gz", "rt"):
    o = json.loads(x)
    if o["kind"] == "eval":
        rec[key(o["config"])] = o
if v["status"] == "ok":
    assert v["chosen_ms"] == rec[key(v["config"])]["time_ms"]
    assert abs(v["loss"] - v["chosen_ms"] / v["direct_ms"]) < 1e-12
vj = [json.loads(x) for x in open(v["journal"])]
vev = [x for x in vj if x["kind"] == "eval" and x["status"] == "ok"]
assert len([x for x in vj if x["kind"] == "eval"]) == 12
assert v["direct_ms"] == min(x["time_ms"] for x in vev)
print("ok")
PY
)
[ "$out" = ok ] && ok "each: a winner per shape (its journal's best, in the database), warm from the nearest shape, validation loss = chosen / direct" \
    || bad "each mode's properties" "$out"
grep -q "^validate 4096x4096x4096 (the configuration of 2048x2048x2048): .*loss" e.txt \
    && ok "validation is in the summary" || bad "validation in the summary" "$(cat e.txt)"

# a shape's journal is an ordinary run's: it resumes as one with --size (the warm one
# first: resuming its source journal changes that source, and the warm one is refused then)
"$exe" --resume=e-2048x2048x2048.jsonl --budget=14 --size M=2048 --size N=2048 --size K=2048 \
    --no-progress gemm_h >r2.txt 2>&1 \
    && grep -q "12 of them from the journal" r2.txt \
    && ok "a warm-started shape's journal resumes with its warm start (the source journal, the same prior)" \
    || bad "resume a warm-started shape's journal" "$(cat r2.txt)"

"$exe" --resume=e-1024x1024x1024.jsonl --budget=14 --size M=1024 --size N=1024 --size K=1024 \
    --no-progress gemm_h >r.txt 2>&1 \
    && grep -q "12 of them from the journal" r.txt \
    && ok "a shape's journal resumes as a single-size run" || bad "resume a shape's journal" "$(cat r.txt)"
# the first shape of the each mode (cold) is the run `cutune --size ...` makes, byte for byte
mkdir plain && (cd plain && CUTUNE_DB=none "$exe" --sizes="$S3" --budget=12 --journal=e \
    --no-progress gemm_h >/dev/null 2>&1 && CUTUNE_DB=none "$exe" --size M=1024 --size N=1024 \
    --size K=1024 --budget=12 --journal=p.jsonl --no-progress gemm_h >/dev/null 2>&1)
cmp -s plain/e-1024x1024x1024.jsonl plain/p.jsonl \
    && ok "each: a cold shape's journal is byte-identical to a single-size run's" \
    || bad "each: a cold shape's journal differs from a single-size run's"

# ---- each, --shape-warm=model: the prior of a model over configuration and size
for k in 1 2; do
    CUTUNE_DB=none "$exe" --sizes="$S3" --budget=8 --shape-warm=model --journal=m$k \
        --output=m$k.json --no-progress gemm_h >m.txt 2>m.err || bad "model (exit $?)" "$(cat m.err)"
done
CUTUNE_DB=none "$exe" --sizes="$S3" --budget=8 --shape-warm=none --journal=m0 --no-progress \
    gemm_h >/dev/null 2>&1
same=1
for l in 1024x1024x1024 1000x5000x296 2048x2048x2048; do
    [ -s m1-$l.jsonl ] && [ -s m2-$l.jsonl ] || same=0
    cmp -s <(grep -v '"started"' m1-$l.jsonl | sed 's/"ts":"[^"]*"//g') \
        <(grep -v '"started"' m2-$l.jsonl | sed 's/"ts":"[^"]*"//g') || same=0
done
[ $same = 1 ] && ok "model: the same seed gives the same journals" || bad "model: runs of one seed differ"
for sd in 2 3 4 5; do
    CUTUNE_DB=none "$exe" --seed=$sd --sizes="$S3" --budget=8 --shape-warm=model --journal=ms$sd \
        --no-progress gemm_h >/dev/null 2>&1 || bad "model, seed $sd (exit $?)"
done
out=$(python3 - "$root" <<'PY' 2>&1
import gzip, json, sys
root = sys.argv[1]
s = json.load(open("m1.json"))
w = {sh["label"]: sh["warm_from"] for sh in s["shapes"]}
assert w == {"1024x1024x1024": None, "1000x5000x296": "model", "2048x2048x2048": "model"}, w
h = json.loads(open("m1-2048x2048x2048.jsonl").readline())
assert "warm_start" not in h and h["warm_start_hash"], h
first = lambda f: [json.loads(x) for x in open(f) if '"kind":"eval"' in x][0]
m, c = first("m1-2048x2048x2048.jsonl"), first("m0-2048x2048x2048.jsonl")
assert m["config"] != c["config"], "the model's first pick is the cold run's"
# the model's best guess at 2048^3, fitted on 1024^3 and 1000x5000x296, is among the fast
# configurations of the recording there: the mean over five seeds of its rank (the share
# of the recording's configurations faster than it) is below 1/3, where a reversed or
# unused prior's would be about 1/2 or more; the earlier shapes' runs differ by seed
ts = sorted(json.loads(x)["time_ms"] for x in gzip.open(f"{root}/data/shapes/gemm_h-2048x2048x2048.jsonl.gz", "rt")
            if '"kind":"eval"' in x and '"status":"ok"' in x)
ranks = []
for f in ["m1-2048x2048x2048.jsonl"] + [f"ms{k}-2048x2048x2048.jsonl" for k in range(2, 6)]:
    e = first(f)
    assert e["status"] == "ok", (f, e["status"])
    ranks.append(sum(t < e["time_ms"] for t in ts) / len(ts))
rank = sum(ranks) / len(ranks)
assert rank < 1 / 3, ranks
print("ok", round(rank, 3))
PY
)
[ "${out%% *}" = ok ] && ok "model: warm_from \"model\", the prior's hash recorded, the first pick at 2048^3 faster than 2/3 of the configurations, mean of 5 seeds (${out#ok })" \
    || bad "model: warm start" "$out"

# ---- the header: a dispatch table, compiled, looked up
"$exe" header --sizes='M=N=K=1024;M=N=K=2048;M=N=K=8192;M=1000,N=5000,K=296' -o tbl.h \
    --budget=12 --no-progress gemm_h >hdr.txt 2>&1
rc=$?
[ $rc -eq 0 ] && [ -f tbl.h ] && ok "header --sizes writes a dispatch table" \
    || bad "header --sizes (exit $rc)" "$(cat hdr.txt)"
ls | grep -q 'tbl.h.shapes-' && bad "header --sizes left its temporary folder" \
    || ok "header --sizes leaves no temporary"
# what each shape says names -o and the shape, never a temporary of header's own
# (tbl.h.shapes-XXXXXX/0.h was said for each shape)
grep -q 'shapes-\|/[0-9]*\.h' hdr.txt && bad "header --sizes: messages name a temporary" "$(cat hdr.txt)" \
    || { grep -q '^cutune header: tbl.h: shape 8192x8192x8192: the best of' hdr.txt \
        && ok "header --sizes: each shape's line names -o and the shape, no temporary" \
        || bad "header --sizes: each shape's line names -o and the shape" "$(cat hdr.txt)"; }
# replayed, each shape is keyed by its own recording: the comment names each, not the last's
out=$(sed -n '1,/\*\//p' tbl.h)
[ "$(grep -c '|recording ' <<<"$out")" -eq 4 ] && grep -q '^ \*   1024x1024x1024: .*|recording ' <<<"$out" \
    && ok "header --sizes: the comment names each shape's GPU key" \
    || bad "header --sizes: the comment names each shape's GPU key" "$out"
# bad input refused in one line, exit 2, before any shape is tuned: nothing written, no
# database made (a shape without a recording was found only once those before it were
# tuned, in two lines; a link at -o only once all were, exit 1)
CUTUNE_DB=$tmp/h1.db refuse_path "header --sizes with a shape without a recording: one line naming it" \
    "^cutune header: shape 1000x1000x1000: .*none of its 6 recordings was measured at" \
    header --sizes='M=N=K=1024;M=N=K=1000' --budget=4 --no-progress -o nr.h gemm_h
ln -s elsewhere.h link.h
CUTUNE_DB=$tmp/h1.db refuse_path "header --sizes -o a symbolic link: refused before any shape runs" \
    "^cutune header: --header=link.h: is a symbolic link" \
    header --sizes="$S3" --budget=4 --no-progress -o link.h gemm_h
CUTUNE_DB=$tmp/h1.db refuse_path "header --sizes -o where nothing can be written: refused before any shape runs" \
    "^cutune header: (--header=|-o )/proc/nr.h: cannot write" \
    header --sizes="$S3" --budget=4 --no-progress -o /proc/nr.h gemm_h
[ ! -e nr.h ] && [ ! -e elsewhere.h ] && [ ! -e h1.db ] && ! ls -a | grep -q 'shapes-' \
    && ok "... no header, no database, no temporary" || bad "a refused dispatch header left a file" "$(ls -a)"
cat >use.c <<'C'
#include <stdio.h>
#include "tbl.h"
int main(void)
{
    static const long q[][3] = {{1024, 1024, 1024}, {8192, 8192, 8192}, {1000, 5000, 296},
                                {4096, 4096, 4096}, {1200, 4000, 256}, {3000, 3000, 3000},
                                {6000, 6000, 6000}, {1, 1, 1}, {100000, 10, 10}};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        const gemm_h_tuned_entry *e = gemm_h_tuned_lookup(q[i][0], q[i][1], q[i][2]);
        printf("%ld %ld %ld -> %ld %ld %ld BM=%ld\n", q[i][0], q[i][1], q[i][2], e->M, e->N, e->K,
               e->BM);
    }
    printf("default BM=%d\n", GEMM_H_TUNED_DEFAULT_BM);
    return 0;
}
C
if cc -std=c11 -Wall -Wextra -pedantic -Werror use.c -o use 2>cc.txt; then
    ok "the header and a program using the lookup compile with -std=c11 -Wall -Wextra -pedantic -Werror"
    ./use >use.txt
    out=$(python3 - <<'PY' 2>&1
import math, re
src = open("tbl.h").read()
rows = re.findall(r"^\s+\{([-0-9., ]+)\},$", src, re.M)
table = [[float(x) for x in r.split(",")] for r in rows]
names = re.search(r"typedef struct gemm_h_tuned_entry \{(.*?)\}", src, re.S).group(1)
fields = re.findall(r"(\w+);", names)
bm = fields.index("BM")
def nearest(q):
    for i, t in enumerate(table):
        if t[:3] == q:
            return i
    d = [sum((math.log2(a) - math.log2(b)) ** 2 for a, b in zip(q, t[:3])) for t in table]
    return d.index(min(d))  # ties: the earlier entry
lines = open("use.txt").read().splitlines()
for l in lines[:-1]:
    a, b = l.split(" -> ")
    q = [float(x) for x in a.split()]
    got = b.split()
    t = table[nearest(q)]
    want = f"{int(t[0])} {int(t[1])} {int(t[2])}"
    assert " ".join(got[:3]) == want and got[3] == f"BM={int(t[bm])}", (l, want)
# the default entry is the one the rule picks at the spec's sizes (4096^3)
t = table[nearest([4096.0] * 3)]
assert lines[-1] == f"default BM={int(t[bm])}", lines[-1]
print("ok")
PY
)
    [ "$out" = ok ] && ok "the lookup picks the entries the documented rule picks (exact match, least squared log2 distance, ties to the earlier)" \
        || bad "the lookup's choices" "$out"
else
    bad "the dispatch header compiles" "$(cat cc.txt)"
fi
# the table's entries are the database's best per shape
"$exe" best -q --sizes='M=N=K=1024;M=N=K=8192' gemm_h >b2.txt 2>&1
out=$(python3 - <<'PY' 2>&1
import re
src = open("tbl.h").read()
rows = [r for r in re.findall(r"^\s+\{([-0-9., ]+)\},$", src, re.M)]
fields = re.findall(r"(\w+);", re.search(r"_tuned_entry \{(.*?)\}", src, re.S).group(1))
for l in open("b2.txt"):
    lab, cfg = l.strip().split(": ")
    M, N, K = lab.split("x")
    row = [r for r in rows if r.split(", ")[:3] == [M, N, K]][0].split(", ")
    want = ", ".join(f"{f}={v}" for f, v in zip(fields[3:-1], row[3:-1]))
    assert cfg == want, (cfg, want)
print("ok")
PY
)
[ "$out" = ok ] && ok "each table entry is the database's best at its shape" || bad "table vs database" "$out"
# a shape that names nothing best can look up (no recording at 1000^3, no GPU): exit 2
# before a line is printed, never the earlier shapes' lines and then the error
out=$("$exe" best -q --sizes='M=N=K=1024;M=N=K=1000' gemm_h 2>b3.err)
rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] && grep -q "M=1000,N=1000,K=1000" b3.err \
    && ok "best --sizes with a shape naming nothing: exit 2, no line printed" \
    || bad "best --sizes with a shape naming nothing (exit $rc)" "$out / $(cat b3.err)"
# --shape-mode=common: the default macros are the common run's configuration (its journal's best)
"$exe" header --sizes="$S3" --shape-mode=common -o cm.h --budget=8 --no-progress gemm_h \
    >cm.txt 2>&1
rc=$?
out=$(python3 - <<'PY' 2>&1
import glob, json, re
j = [json.loads(l) for l in open(glob.glob("runs/gemm_h-1-*-common.jsonl")[0])]
ev = [e for e in j if e["kind"] == "eval" and e["status"] == "ok"]
assert len([e for e in j if e["kind"] == "eval"]) == 8
best = min(ev, key=lambda e: e["time_ms"])["config"]
macros = dict(re.findall(r"#define GEMM_H_TUNED_DEFAULT_(\w+) (\S+)", open("cm.h").read()))
assert macros == {k: str(v) for k, v in best.items()}, (macros, best)
print("ok")
PY
)
[ $rc -eq 0 ] && [ "$out" = ok ] \
    && ok "header --sizes --shape-mode=common: the default entry is the common run's configuration" \
    || bad "header --shape-mode=common (exit $rc)" "$out $(tail -3 cm.txt)"
cc -std=c11 -Wall -Wextra -pedantic -Werror -c -x c cm.h -o cm.o 2>cc2.txt \
    && ok "that header compiles alone" || bad "the common header compiles" "$(cat cc2.txt)"
expect_fail "header --sizes with --size" "not with --size" header --sizes="$S3" --size M=1 -o x.h gemm_h
[ ! -e x.h ] && ok "a refused header writes nothing" || bad "a refused header wrote x.h"

refuse_path "header --sizes with an option a --sizes run refuses: before any shape runs" "--sizes: not with --csv" \
    header --sizes="$S3" --csv=x.csv -o x.h gemm_h
[ ! -e x.csv ] && ok "... nothing tuned, no csv" || bad "... nothing tuned, no csv"
"$exe" header --sizes="$S3" --shape-mode=common --retune --budget=4 --no-progress -o cr.h gemm_h >cr.txt 2>&1 \
    && ok "header --sizes --shape-mode=common --retune" || bad "header --sizes --shape-mode=common --retune" "$(tail -3 cr.txt)"
# a size named as the lookup's locals were (t, i, n): the table still compiles
cp "$root/kernels/vector_add.cu" .
python3 - "$root" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/kernels/vector_add.json"))
d["name"] = "vadd_t"
d["sizes"] = {"t": 16777216}
d["launch"]["grid"] = ["(t + block_size_x * items_per_thread * vector_width - 1) / (block_size_x * items_per_thread * vector_width)", 1, 1]
for a in d["args"][:3]:
    a["size"] = "t"
d["args"][3]["value"] = "t"
d["reference"]["grid"] = ["(t + 255) / 256"]
d["metrics"] = {}
d["recording"] = sys.argv[1] + "/data/vector_add.jsonl.gz"
json.dump(d, open("vadd_t.json", "w"))
PY
"$exe" --no-db --no-progress -q --budget=6 --journal=va.jsonl vector_add >/dev/null 2>&1
"$exe" db import --kernel=vadd_t.json --size t=1024 va.jsonl >/dev/null 2>&1
"$exe" db import --kernel=vadd_t.json --size t=4096 va.jsonl >/dev/null 2>&1
"$exe" header --sizes='t=1024;t=4096' --budget=6 --no-progress -o vt.h vadd_t.json >vt.txt 2>&1 \
    && cc -std=c11 -Wall -Wextra -pedantic -Werror -c -x c vt.h -o vt.o 2>cc3.txt \
    && ok "a dispatch table over a size named t compiles" || bad "a dispatch table over a size named t compiles" "$(cat vt.txt cc3.txt | tail -5)"
c++ -std=c++17 -Wall -Wextra -pedantic -Werror -c -x c++ vt.h -o vt.o 2>cc4.txt \
    && ok "... and as C++17" || bad "the dispatch table compiles as C++17" "$(tail -5 cc4.txt)"
# a size named as a C++ keyword would be a struct member and a parameter of the lookup
# (long new;): refused before any shape runs, and nothing written
sed 's/"t"/"new"/g; s/(t /(new /g; s/"vadd_t"/"vadd_new"/' vadd_t.json >vadd_new.json
refuse_path "header --sizes over a size named new (a C++ keyword): refused" \
    "^cutune header: --sizes: a size named new, a keyword of C or C\\+\\+" \
    header --sizes='new=1024;new=4096' --budget=6 --no-progress -o vn.h vadd_new.json
[ ! -e vn.h ] && ok "... no header written" || bad "a refused dispatch header was written"

# stopped (SIGINT) while the validation shape is tuned directly: its chosen configuration
# is reported as not measured, "stopped", never "not in its space"
rm -f vs-*.jsonl vs.json
CUTUNE_REPLAY_SLEEP=0.01 "$exe" --sizes='M=N=K=1024;M=N=K=2048' --validate-sizes='M=N=K=4096' --budget=60 \
    --journal=vs --output=vs.json --no-progress gemm_h >vs.txt 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    [ -s vs-4096x4096x4096.jsonl ] && break
    sleep 0.02
done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q "^validate 4096x4096x4096 .*: not measured (the run was stopped)" vs.txt \
    && python3 -c "import json; assert json.load(open('vs.json'))['validation'][0]['status'] == 'stopped'" \
    && ok "stopped during validation: the chosen configuration is 'stopped', not 'not in its space'" \
    || bad "stopped during validation: 'stopped'" "exit $rc; $(tail -4 vs.txt)"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
