#!/usr/bin/env bash
# --warm-start (docs/transfer.md) end to end, on synthetic recordings made here: a source of
# the same kernel "on another GPU" (shifted optimum, a parameter the target lacks, values it
# lacks), a recording of another kernel (no shared parameter), warm runs deterministic for a
# seed and resumed exactly. TAP-like lines and a closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }

python3 "$here/mkcache.py" bowl.json.gz
python3 - <<'PY'
import json
# the bowl's kernel elsewhere: a and b as the target has them (a also at values it lacks),
# no c, an extra parameter d; the optimum near the target's (a = 8, b index 5)
cache = {}
for a in range(1, 26):
    for i in range(20):
        for d in (0, 1):
            t = 2.0 + (a - 8) ** 2 * 0.01 + (i - 5) ** 2 * 0.02 + 0.3 * d
            cache[f"{a},{2 ** i},{d}"] = {"a": a, "b": 2 ** i, "d": d, "time": t}
json.dump({"device_name": "Other GPU", "kernel_name": "bowl", "tune_params_keys": ["a", "b", "d"],
           "tune_params": {"a": list(range(1, 26)), "b": [2 ** i for i in range(20)], "d": [0, 1]},
           "objective": "time", "cache": cache}, open("src.json", "w"))
# another kernel: no parameter in common with the bowl
json.dump({"device_name": "Other GPU", "kernel_name": "pnpoly", "tune_params_keys": ["x", "y"],
           "tune_params": {"x": [1, 2], "y": [3, 4]}, "objective": "time",
           "cache": {f"{x},{y}": {"x": x, "y": y, "time": 1.0 + x + y} for x in (1, 2) for y in (3, 4)}},
          open("other.json", "w"))
PY

"$exe" tune --help | grep -qF -- "--warm-start=FILE[,FILE...]|auto|none" && ok "tune --help names --warm-start" \
    || bad "tune --help names --warm-start"

expect_fail "warm start of another kernel" "other.json: no parameter in common" \
    --warm-start=other.json --budget=10 bowl.json.gz
expect_fail "warm start that is not a recording" "nonesuch.json" \
    --warm-start=nonesuch.json --budget=10 bowl.json.gz
expect_fail "warm start auto without a database" "--warm-start=auto" \
    --warm-start=auto --budget=10 bowl.json.gz

# a source that scores every configuration alike (all failed) orders nothing: the run is
# cold, says so, and its journal is a cold run's
python3 - <<'EOF'
import json
c = {f"{a},1,1": {"a": a, "b": 1, "c": 1, "time": "RuntimeFailedConfig"} for a in (1, 2, 3)}
json.dump({"device_name": "S", "kernel_name": "bowl", "tune_params_keys": ["a", "b", "c"],
           "tune_params": {"a": [1, 2, 3], "b": [1], "c": [1]}, "objective": "time", "cache": c},
          open("allfail.json", "w"))
EOF
"$exe" --no-progress --searcher=bo --budget=12 --seed=5 --journal=af.jsonl --warm-start=allfail.json bowl.json.gz >af.txt 2>&1
"$exe" --no-progress --searcher=bo --budget=12 --seed=5 --journal=afc.jsonl bowl.json.gz >/dev/null 2>&1
grep -q "score every configuration alike .*: cold" af.txt && cmp -s <(sed 1d af.jsonl) <(sed 1d afc.jsonl) \
    && ok "an uninformative source: cold, said, a cold run's journal" || bad "an uninformative source: cold" "$(cat af.txt)"
cp src.json src.keep
expect_fail "an output onto the warm start's source" "--kt-cache=src.json: is the --warm-start source" \
    --warm-start=src.json --kt-cache=src.json --budget=10 bowl.json.gz
cmp -s src.json src.keep && ok "... which is left as it was" || bad "... which is left as it was"

run() { "$exe" --no-progress --searcher="$1" --budget=20 --seed=5 --journal="$2" "${@:3}" bowl.json.gz >"$2.txt" 2>&1; }
for s in bo genetic; do
    run $s w1-$s.jsonl --warm-start=src.json
    run $s w2-$s.jsonl --warm-start=src.json
    run $s c-$s.jsonl
    cmp -s w1-$s.jsonl w2-$s.jsonl && ok "$s: warm journal deterministic for a seed" \
        || bad "$s: warm journal deterministic for a seed" "$(cat w1-$s.jsonl.txt)"
    if ! cmp -s <(grep '"kind":"eval"' w1-$s.jsonl) <(grep '"kind":"eval"' c-$s.jsonl); then
        ok "$s: warm proposes differently from cold"
    else
        bad "$s: warm proposes differently from cold"
    fi
    grep -q '"warm_start":"[^"]*src.json"' w1-$s.jsonl && ok "$s: the header names the warm start" \
        || bad "$s: the header names the warm start" "$(head -c 600 w1-$s.jsonl)"
    ! grep -q warm_start c-$s.jsonl && ok "$s: a cold header is unchanged" || bad "$s: a cold header is unchanged"
done
grep -q "warm start from .*src.json: 800 observations mapped (200 dropped)" w1-bo.jsonl.txt \
    && ok "the warm start's mapping is reported" || bad "the warm start's mapping is reported" "$(cat w1-bo.jsonl.txt)"
"$exe" --no-progress --searcher=random --budget=5 --journal=r.jsonl --warm-start=src.json bowl.json.gz 2>&1 \
    | grep -q "unused: only bo and genetic use a warm start" && ok "random says it does not use the warm start" \
    || bad "random says it does not use the warm start"
# the source's a = 21..25 are values the target lacks: dropped; a, b shared, d pooled
# Warm beats cold here: the source's best configurations are near the target's optimum.
wbest=$(sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p' w1-bo.jsonl.txt)
cbest=$(sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p' c-bo.jsonl.txt)
python3 -c "import sys; sys.exit(not (float('$wbest') <= float('$cbest')))" 2>/dev/null \
    && ok "bo: warm best ($wbest ms) no slower than cold ($cbest ms)" \
    || bad "bo: warm best ($wbest ms) no slower than cold ($cbest ms)" "$(cat w1-bo.jsonl.txt c-bo.jsonl.txt)"

# Resume: cut the warm journal after 8 evaluations and half a line; resumed (the header
# restores the warm start), it ends byte-identical to the uninterrupted run.
head -9 w1-bo.jsonl > cut.jsonl
sed -n 10p w1-bo.jsonl | head -c 40 >> cut.jsonl
"$exe" --resume=cut.jsonl --no-progress bowl.json.gz >res.txt 2>&1
cmp -s cut.jsonl w1-bo.jsonl && ok "warm run resumed == uninterrupted run" \
    || bad "warm run resumed == uninterrupted run" "$(cat res.txt)"
head -9 w1-bo.jsonl > cut2.jsonl
expect_fail "resume of a warm run with --warm-start=none" "warm-start=none is not allowed" \
    --resume=cut2.jsonl --warm-start=none bowl.json.gz
# expect_resume_fail NAME PATTERN JOURNAL ARGS...: exit 2, one line, the journal untouched
expect_resume_fail() {
    local name=$1 pat=$2 j=$3
    shift 3
    cp "$j" before.jsonl
    local out
    out=$("$exe" --resume="$j" "$@" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"
    elif [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"
    elif ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"
    elif ! cmp -s "$j" before.jsonl; then bad "$name: the journal changed"
    else ok "$name"; fi
}
head -9 c-bo.jsonl > cut3.jsonl
expect_resume_fail "resume of a cold run with a warm start" "started cold" cut3.jsonl \
    --warm-start=src.json bowl.json.gz
# the source changed since the run started: refused (its prior would differ)
cp w1-bo.jsonl w3.jsonl
head -9 w3.jsonl > cut4.jsonl
mv src.json src.orig.json
python3 -c "
import json; d = json.load(open('src.orig.json'))
for e in d['cache'].values(): e['time'] = 10.0 - e['time']
json.dump(d, open('src.json', 'w'))"
expect_resume_fail "resume with a changed warm start" "has changed" cut4.jsonl bowl.json.gz

# --warm-start=auto: the database's rows of the same kernel on another GPU (here xgemm's
# shipped recording re-labelled as "Other GPU" and imported), the group with the most
# correct measurements; cold, with one line, where the database holds none
kdir=${CUTUNE_KERNELS:-$here/../../kernels}
python3 - "$kdir/../data/xgemm.jsonl.gz" <<'PY'
import gzip, json, sys
lines = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
params = lines[0]["params"]
keys = list(params)
cache = {}
for l in lines[1:101]:
    if l.get("kind") == "eval" and l.get("status") == "ok":
        c = l["config"]
        cache[",".join(str(c[k]) for k in keys)] = dict(c, time=l["time_ms"] * 2.0)
json.dump({"device_name": "Other GPU", "kernel_name": "xgemm", "tune_params_keys": keys,
           "tune_params": params, "objective": "time", "cache": cache}, open("xg-other.json", "w"))
PY
CUTUNE_DB=auto.db "$exe" --no-progress --budget=10 --warm-start=auto --journal=auto0.jsonl \
    xgemm >auto0.txt 2>&1
grep -q "holds no correct measurement of this kernel on another GPU" auto0.txt \
    && ok "auto: cold, said in one line, where the database holds nothing elsewhere" \
    || bad "auto: cold, said in one line, where the database holds nothing elsewhere" "$(cat auto0.txt)"
CUTUNE_DB=auto.db "$exe" db import --kernel=xgemm xg-other.json >/dev/null 2>&1
CUTUNE_DB=auto.db "$exe" --no-progress --budget=10 --warm-start=auto --journal=auto1.jsonl \
    xgemm >auto1.txt 2>&1
grep -q "warm start from database: Other GPU" auto1.txt \
    && grep -q '"warm_start":"database: Other GPU' auto1.jsonl \
    && ok "auto: warm from the database's rows of the kernel on another GPU" \
    || bad "auto: warm from the database's rows of the kernel on another GPU" "$(cat auto1.txt)"
# an auto run resumes from the database again (as the run was started, and with auto
# given), its prior hash checked: the journal an uninterrupted run writes
for how in "" "--warm-start=auto"; do
    head -6 auto1.jsonl >auto1c.jsonl
    CUTUNE_DB=auto.db "$exe" --no-progress --resume=auto1c.jsonl $how >auto1c.txt 2>&1 \
        && cmp -s auto1.jsonl auto1c.jsonl && ok "auto: resumed ${how:-as started}, the same journal" \
        || bad "auto: resumed ${how:-as started}, the same journal" "$(cat auto1c.txt)"
done
head -6 auto1.jsonl >auto1c.jsonl
out=$(CUTUNE_DB=auto.db "$exe" --no-progress --resume=auto1c.jsonl --warm-start=src.json 2>&1)
[ $? -eq 2 ] && grep -q "differs from the journal's warm start, --warm-start=auto" <<<"$out" \
    && ok "auto: resumed with another source, refused" || bad "auto: resumed with another source, refused" "$out"

# auto with two other GPUs at the run's sizes: both are sources, their priors averaged (the
# header names both); it resumes from the database as started
python3 - <<'PY'
import json
d = json.load(open("xg-other.json"))
d["device_name"] = "Third GPU"
for e in d["cache"].values():
    e["time"] = e["time"] * 1.5 + 0.2 * e["MWG"] / 128
json.dump(d, open("xg-third.json", "w"))
PY
CUTUNE_DB=auto.db "$exe" db import --kernel=xgemm xg-third.json >/dev/null 2>&1
CUTUNE_DB=auto.db "$exe" --no-progress --budget=10 --warm-start=auto --journal=auto2.jsonl \
    xgemm >auto2.txt 2>&1
out=$(python3 - <<'PY'
import json
h1, h2 = (json.loads(open(f).readline()) for f in ("auto1.jsonl", "auto2.jsonl"))
w = h2["warm_start"]
assert w.startswith("database: Other GPU") and " + Third GPU" in w and ", sizes {" in w, w
assert h2["warm_start_hash"] != h1["warm_start_hash"], (h1["warm_start_hash"], h2["warm_start_hash"])
print("ok")
PY
)
[ "$out" = ok ] && grep -q "observations mapped" auto2.txt \
    && ok "auto: two other GPUs at the run's sizes, both sources, a prior of their own" \
    || bad "auto: two other GPUs at the run's sizes" "$out $(cat auto2.txt)"
head -6 auto2.jsonl >auto2c.jsonl
CUTUNE_DB=auto.db "$exe" --no-progress --resume=auto2c.jsonl >auto2c.txt 2>&1 \
    && cmp -s auto2.jsonl auto2c.jsonl && ok "auto from two GPUs: resumed, the same journal" \
    || bad "auto from two GPUs: resumed, the same journal" "$(cat auto2c.txt)"

# the pooled label names the run's own sizes (a group at other sizes, larger, is not pooled)
python3 - <<'PY'
import json
d = json.load(open("xg-other.json"))
d["device_name"] = "Big GPU"
json.dump(d, open("xg-big.json", "w"))
PY
CUTUNE_DB=auto.db "$exe" db import --kernel=xgemm --size M=1024 --size N=1024 --size K=1024 \
    xg-big.json >/dev/null 2>&1
CUTUNE_DB=auto.db "$exe" --no-progress --budget=10 --warm-start=auto --journal=auto3.jsonl \
    xgemm >auto3.txt 2>&1
h3=$(head -1 auto3.jsonl)
grep -q '"warm_start":"database: Other GPU[^"]* + Third GPU[^"]*, sizes {\\"M\\":4096' <<<"$h3" \
    && ! grep -q 'Big GPU' <<<"$h3" \
    && ok "auto: the pooled GPUs' label names the run's sizes, not the largest group's" \
    || bad "auto: the pooled label's sizes" "$h3"
# a resumed auto run whose database no longer holds its groups: refused, one line
cp auto.db pruned.db
CUTUNE_DB=pruned.db "$exe" db prune --kernel=xgemm --all >/dev/null 2>&1
head -6 auto2.jsonl >auto2p.jsonl
cp auto2p.jsonl auto2p.before
out=$(CUTUNE_DB=pruned.db "$exe" --no-progress --resume=auto2p.jsonl 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "now orders nothing .*: it has changed" <<<"$out" \
    && cmp -s auto2p.jsonl auto2p.before \
    && ok "auto: resumed after its rows were pruned, refused (not resumed cold)" \
    || bad "auto: resumed after its rows were pruned" "$out"

# --warm-start=FILE,FILE: several recordings at once (the mean of their priors). src.json
# now holds the original source's times inverted, src.orig.json the original: the list's
# prior is neither one's, its header lists both by absolute path, it resumes as started,
# and the outputs and sources it checks are every file of the list
"$exe" --no-progress --searcher=bo --budget=12 --seed=3 --journal=l1.jsonl \
    --warm-start=src.orig.json,src.json bowl.json.gz >l1.txt 2>&1
"$exe" --no-progress --searcher=bo --budget=12 --seed=3 --journal=l0.jsonl \
    --warm-start=src.orig.json bowl.json.gz >/dev/null 2>&1
out=$(python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
h1, h0 = (json.loads(open(f).readline()) for f in ("l1.jsonl", "l0.jsonl"))
assert h1["warm_start"] == f"{d}/src.orig.json,{d}/src.json", h1["warm_start"]
assert len(h1["warm_start_hash"]) == 16 and h1["warm_start_hash"] != h0["warm_start_hash"], (h1, h0)
print("ok")
PY
)
[ "$out" = ok ] && grep -q "warm start from $tmp/src.orig.json,$tmp/src.json: 1600 observations mapped (400 dropped)" l1.txt \
    && ok "a list of two sources: both in the header, a prior of its own, their observations summed" \
    || bad "a list of two sources" "$out $(cat l1.txt)"
head -7 l1.jsonl >l1c.jsonl
"$exe" --no-progress --resume=l1c.jsonl >l1c.txt 2>&1 && cmp -s l1c.jsonl l1.jsonl \
    && ok "a list warm start resumed == uninterrupted run" \
    || bad "a list warm start resumed == uninterrupted run" "$(cat l1c.txt)"
head -7 l1.jsonl >l1d.jsonl
expect_resume_fail "a list warm start resumed with one of its files" "differs from the journal's" \
    l1d.jsonl --warm-start=src.orig.json bowl.json.gz
expect_resume_fail "a list warm start resumed with its files swapped" "differs from the journal's" \
    l1d.jsonl --warm-start=src.json,src.orig.json bowl.json.gz
expect_fail "a list with a file of another kernel" "other.json: no parameter in common" \
    --warm-start=src.json,other.json --budget=10 bowl.json.gz
expect_fail "a list with a missing file" "nonesuch.json" \
    --warm-start=src.json,nonesuch.json --budget=10 bowl.json.gz
expect_fail "a list naming one file twice" "src.json is given twice" \
    --warm-start=src.json,./src.json --budget=10 bowl.json.gz
expect_fail "a list with an empty name" "not a file, nor a list" \
    --warm-start=src.json, --budget=10 bowl.json.gz
cp src.orig.json src.orig.keep
expect_fail "an output onto a file of the list" "--csv=src.orig.json: is the --warm-start source" \
    --warm-start=src.json,src.orig.json --csv=src.orig.json --budget=10 bowl.json.gz
cmp -s src.orig.json src.orig.keep && ok "... which is left as it was" || bad "... which is left as it was"

# a list whose files no longer order anything (rewritten with one time for all) is a
# changed warm start: its resume is refused, not run cold
python3 -c "
import json; d = json.load(open('src.orig.json'))
for e in d['cache'].values(): e['time'] = 100.0 * e['a'] + 2.0 * e['b'].bit_length() + e['d']
json.dump(d, open('la.json', 'w'))
for e in d['cache'].values(): e['time'] = 10000.0 - e['time']
json.dump(d, open('lb.json', 'w'))"
"$exe" --no-progress --searcher=bo --budget=12 --seed=3 --journal=lc.jsonl \
    --warm-start=la.json,lb.json bowl.json.gz >lc.txt 2>&1
grep -q "the 2 sources' priors combined score every configuration alike (they cancel" lc.txt \
    && ! grep -q warm_start lc.jsonl && ok "a list whose priors cancel: cold, said as such" \
    || bad "a list whose priors cancel" "$(cat lc.txt)"
"$exe" --no-progress --searcher=bo --budget=12 --seed=3 --journal=ld.jsonl \
    --warm-start=la.json,src.json bowl.json.gz >/dev/null 2>&1
python3 -c "
import json
for f in ('la.json', 'src.json'):
    d = json.load(open(f))
    for e in d['cache'].values(): e['time'] = 5.0
    json.dump(d, open(f, 'w'))"
head -5 ld.jsonl >ldc.jsonl
expect_resume_fail "a list resumed after its files were rewritten to one time" \
    "now orders nothing .*scores every configuration alike" ldc.jsonl bowl.json.gz

# auto from two GPUs whose times are opposite: their priors cancel, and it says so
python3 - <<'PY'
import json
d = json.load(open("xg-other.json"))
d["device_name"] = "Inverse GPU"
for e in d["cache"].values():
    e["time"] = 100.0 - e["time"]
json.dump(d, open("xg-inv.json", "w"))
PY
CUTUNE_DB=can.db "$exe" db import --kernel=xgemm xg-other.json xg-inv.json >/dev/null 2>&1
CUTUNE_DB=can.db "$exe" --no-progress -q --budget=5 --warm-start=auto --journal=can.jsonl \
    xgemm >/dev/null 2>can.txt
grep -q "the 2 sources' priors combined score every configuration alike" can.txt \
    && ok "auto: two GPUs whose priors cancel, said as such" || bad "auto: priors that cancel" "$(cat can.txt)"
# a run refused after its database opened stores nothing there
out=$(CUTUNE_DB=$tmp/ref.db "$exe" --no-progress --budget=5 --warm-start=other.json \
    --journal=ref.jsonl bowl.json.gz 2>&1 >/dev/null)
rc=$?
runs=$(python3 -c "
import sqlite3, sys
try: print(sqlite3.connect('file:ref.db?mode=ro', uri=True).execute('select count(*) from runs').fetchone()[0])
except Exception: print(0)")
[ $rc -eq 2 ] && [ "$runs" = 0 ] && [ ! -e ref.jsonl ] \
    && ok "a refused warm start stores no run in the database" || bad "a refused run's database rows: $runs (exit $rc)" "$out"
# the warm start's notes come after everything that can refuse the input: one line
out=$("$exe" --no-db --no-progress --budget=5 --searcher=bo:nonsense=1 --warm-start=allfail.json \
    --journal=sa.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "nonsense" <<<"$out" \
    && ok "a refusal after a cold warm start is one line" || bad "a refusal after a cold warm start" "$out"
# a list given in a folder whose path holds a comma is refused: the header's list of
# absolute paths is split at commas on --resume
mkdir -p 'c,d' && cp src.orig.json 'c,d/s1.json' && cp src.json 'c,d/s2.json'
out=$(cd 'c,d' && "$exe" --no-db --no-progress --budget=5 --warm-start=s1.json,s2.json \
    --journal=l.jsonl ../bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "a path with a comma cannot be one of a list" <<<"$out" \
    && [ ! -e 'c,d/l.jsonl' ] && ok "a list in a folder with a comma in its path: refused, nothing written" \
    || bad "a list in a folder with a comma in its path" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
