#!/usr/bin/env bash
# Reproducible research runs (docs/reproducibility.md), as a user checks them: the same
# seed gives the same bo journal whatever OpenBLAS would be told (threads, kernels), no
# BLAS decides bo's proposals, every result carries its manifest, and `cutune bench
# --reproduce` reruns it under the recorded restrictions, refusing a missing or changed
# recording or restrictions file. Synthetic recordings;
# prints TAP-like lines and "N passed, N failed".
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"

python3 "$here/mkcache.py" bowl.json.gz
python3 "$here/mkcache.py" small.json 4 4 2

# ---- the same seed, the same journal, on the shipped H200 gemm recording: before the GP
# left OpenBLAS, its Prescott and Haswell kernels gave this run two different journals
gemm=${CUTUNE_SOURCE_ROOT:?CUTUNE_SOURCE_ROOT not set}/data/gemm.jsonl.gz
for env in "OPENBLAS_NUM_THREADS=1" "OPENBLAS_NUM_THREADS=2" \
           "OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=2" "OPENBLAS_CORETYPE=Haswell"; do
    tag=$(tr -c 'A-Za-z0-9\n' _ <<<"$env")
    env $env "$exe" --searcher=bo --budget=40 --seed=1 --evaluator=replay \
        --journal="j_$tag.jsonl" -q "$gemm" >/dev/null 2>&1
done
n=$(sha256sum j_*.jsonl | awk '{print $1}' | sort -u | wc -l)
[ "$n" = 1 ] && [ "$(grep -c '"kind":"eval"' j_OPENBLAS_NUM_THREADS_1.jsonl)" = 40 ] \
    && ok "bo: byte-identical journals under OPENBLAS_NUM_THREADS=1/2 and OPENBLAS_CORETYPE" \
    || bad "bo: byte-identical journals under OPENBLAS_NUM_THREADS=1/2 and OPENBLAS_CORETYPE" "$(sha256sum j_*.jsonl)"
# GSL's BFGS calls cblas_*: the executable defines them itself (src/cli/cblas_pin.c), so
# an optimised BLAS whose sums depend on the CPU cannot take them over, even preloaded
syms=$(nm -D --defined-only "$exe" 2>/dev/null | awk '{print $3}' | grep '^cblas_' | sort | tr '\n' ' ')
libs=$(ldd "$exe" 2>/dev/null)
if [ "$syms" = "cblas_daxpy cblas_dcopy cblas_ddot cblas_dnrm2 cblas_dscal " ] \
    && ! grep -qiE "openblas|libblas|mkl|blis" <<<"$libs"; then
    ok "no optimised BLAS linked; the executable defines the cblas_* GSL's BFGS calls"
else
    bad "no optimised BLAS linked; the executable defines the cblas_* GSL's BFGS calls" "$syms $(grep -iE 'blas|mkl|blis' <<<"$libs")"
fi
ob=$(ls /usr/lib/x86_64-linux-gnu/libopenblas.so.0 /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0 2>/dev/null | head -1)
if [ -n "$ob" ]; then
    for ct in Prescott Haswell; do  # (a sanitizer build wants its runtime first: told not to check)
        ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 LD_PRELOAD=$ob OPENBLAS_CORETYPE=$ct "$exe" --searcher=bo --budget=40 --seed=1 \
            --evaluator=replay --journal="jp_$ct.jsonl" -q "$gemm" >/dev/null 2>&1
    done
    cmp -s jp_Prescott.jsonl j_OPENBLAS_NUM_THREADS_1.jsonl && cmp -s jp_Haswell.jsonl j_OPENBLAS_NUM_THREADS_1.jsonl \
        && ok "bo: the same journal with OpenBLAS preloaded (SSE3 and Haswell kernels)" \
        || bad "bo: the same journal with OpenBLAS preloaded (SSE3 and Haswell kernels)" "$(sha256sum jp_*.jsonl j_OPENBLAS_NUM_THREADS_1.jsonl)"
else
    echo "ok - # SKIP bo with OpenBLAS preloaded: no libopenblas.so.0 here"
fi

# ---- the manifest of a bench result
"$exe" bench --searchers=bo,genetic,random --budgets=8,15 --seeds=2 --convention=constraint-aware \
    --no-plots --quiet --out=res bowl.json.gz >/dev/null 2>&1
want_sha=$(sha256sum bowl.json.gz | cut -d' ' -f1)
python3 - "$want_sha" <<'PY' && ok "bench: results.json carries the manifest" || bad "bench: results.json carries the manifest"
import json, re, sys
m = json.load(open("res/results.json"))["manifest"]
e = m["experiment"]
assert m["kind"] == "bench" and m["format"] == 1
assert m["command"][:2] == ["cutune", "bench"] and m["command"][-1] == "bowl.json.gz", m["command"]
assert e["recordings"][0]["sha256"] == sys.argv[1] and e["recordings"][0]["path"] == "bowl.json.gz"
assert e["recordings"][0]["restrictions"] is None  # no restrictions file, no --restrict
assert e["budgets"] == [8, 15] and e["seeds"]["first"] == 1 and e["seeds"]["count"] == 2
assert e["convention"] == "constraint-aware"
by = {s["label"]: s for s in e["searchers"]}
assert "xi=0.01" in by["bo"]["resolved"]["15"] and "score_bits=32" in by["bo"]["resolved"]["15"]
assert by["genetic"]["resolved"]["8"].startswith("pop=6,"), by["genetic"]
assert by["random"]["resolved"]["8"] == ""
c = m["cutune"]
assert re.fullmatch(r"[0-9a-f]{40}|unknown", c["commit"]) and c["buildtype"] and c["compiler"]
# GSL's BFGS calls the executable's own cblas_* (src/cli/cblas_pin.c), no BLAS library's
assert "cblas_pin.c" in (m["linear_algebra"]["cblas_provider"] or ""), m["linear_algebra"]
assert m["platform"]["cpu"] and m["platform"]["os"]
assert re.fullmatch(r"([0-9a-f]{7}|unknown)-[0-9a-f]{8}", m["identity"]), m["identity"]
PY
id=$(python3 -c 'import json; print(json.load(open("res/results.json"))["manifest"]["identity"])')
grep -q "Manifest: \`$id\`" res/results.md && grep -q "cutune manifest \\\\texttt{$id}" res/results.tex \
    && head -1 res/results.csv | grep -q ',manifest$' && sed -n 2p res/results.csv | grep -q ",$id\$" \
    && grep -q "set terminal pdfcairo" res/plots.gp && grep -q "manifest $id" res/plots.gp \
    && ok "bench: results.md, .csv, .tex and the plots (PNG, SVG, PDF) name the manifest" \
    || bad "bench: results.md, .csv, .tex and the plots (PNG, SVG, PDF) name the manifest" "$(head -3 res/results.tex)"
# the identity names the experiment, not the run: the same bench again has it
"$exe" bench --searchers=bo,genetic,random --budgets=8,15 --seeds=2 --convention=constraint-aware \
    --no-plots --quiet --jobs=1 --out=res2 bowl.json.gz >/dev/null 2>&1
id2=$(python3 -c 'import json; print(json.load(open("res2/results.json"))["manifest"]["identity"])')
"$exe" bench --searchers=bo,genetic,random --budgets=8,15 --seeds=3 --convention=constraint-aware \
    --no-plots --quiet --out=res3 bowl.json.gz >/dev/null 2>&1
id3=$(python3 -c 'import json; print(json.load(open("res3/results.json"))["manifest"]["identity"])')
[ "$id" = "$id2" ] && [ "$id" != "$id3" ] && ok "the identity: the same experiment, the same; another seed count, another" \
    || bad "the identity: the same experiment, the same; another seed count, another" "$id $id2 $id3"

# ---- --reproduce
out=$("$exe" bench --reproduce=res/results.json --no-plots --quiet 2>/dev/null); rc=$?
[ $rc = 0 ] && grep -q "identical (6 cells)" <<<"$out" && [ -f res/reproduced/results.json ] \
    && ok "--reproduce: the round trip is identical" || bad "--reproduce: the round trip is identical" "rc $rc: $out"
cp res/results.json edited.json
python3 - <<'PY'
import json
d = json.load(open("edited.json"))
cell = d["conventions"][0]["recordings"][0]["searchers"][1]["budgets"][0]
cell["mean"] = cell["mean"] - 0.125
json.dump(d, open("edited.json", "w"), indent=1)
PY
out=$("$exe" bench --reproduce=edited.json --out=ed --no-plots --quiet 2>/dev/null); rc=$?
[ $rc = 1 ] && grep -q "1 of 6 cells differ, by at most 0.125" <<<"$out" \
    && grep -q "constraint-aware bowl genetic budget 8 mean" <<<"$out" \
    && ok "--reproduce: a different cell is reported by name and size, exit 1" \
    || bad "--reproduce: a different cell is reported by name and size, exit 1" "rc $rc: $out"
# a recording changed by one byte is refused before anything runs
cp bowl.json.gz keep.json.gz
printf '\x01' | dd of=bowl.json.gz bs=1 seek=100 conv=notrunc 2>/dev/null
rm -rf res/reproduced
err=$("$exe" bench --reproduce=res/results.json --no-plots --quiet 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q "bowl.json.gz has SHA-256 .*the manifest's is" <<<"$err" \
    && [ ! -e res/reproduced ] \
    && ok "--reproduce: a recording changed by one byte is refused (one line, exit 2)" \
    || bad "--reproduce: a recording changed by one byte is refused (one line, exit 2)" "rc $rc: $err"
rm bowl.json.gz
err=$("$exe" bench --reproduce=res/results.json --no-plots --quiet 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q "bowl.json.gz .* is missing" <<<"$err" \
    && ok "--reproduce: a missing recording is refused (one line, exit 2)" \
    || bad "--reproduce: a missing recording is refused (one line, exit 2)" "rc $rc: $err"
mv keep.json.gz bowl.json.gz
printf '{"seeds": 2}' > nomanifest.json
err=$("$exe" bench --reproduce=nomanifest.json 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q "nomanifest.json: no bench manifest" <<<"$err" \
    && ok "--reproduce: a results.json without a manifest is refused" \
    || bad "--reproduce: a results.json without a manifest is refused" "rc $rc: $err"

# ---- --reproduce of a --split --per-seed run writes those tables again; a manifest from
# before they were recorded (neither field) reproduces as it did: without them
"$exe" bench --searchers=random,grid --budgets=5 --seeds=2 --split --per-seed --no-plots --quiet \
    --out=sp bowl.json.gz small.json >/dev/null 2>&1
out=$("$exe" bench --reproduce=sp/results.json --no-plots --quiet 2>/dev/null); rc=$?
[ $rc = 0 ] && grep -q "identical" <<<"$out" && cmp -s sp/split.csv sp/reproduced/split.csv \
    && cmp -s sp/runs.csv sp/reproduced/runs.csv \
    && ok "--reproduce: a --split --per-seed run's split.csv and runs.csv again" \
    || bad "--reproduce: a --split --per-seed run's split.csv and runs.csv again" "rc $rc: $out $(ls sp/reproduced)"
python3 - <<'PY'
import json
d = json.load(open("sp/results.json"))
for k in ("split", "per_seed"):
    d["manifest"]["experiment"].pop(k, None)
json.dump(d, open("sp/old.json", "w"))
PY
out=$("$exe" bench --reproduce=sp/old.json --out=spo --no-plots --quiet 2>/dev/null); rc=$?
[ $rc = 0 ] && grep -q "identical" <<<"$out" && [ -f spo/results.json ] && [ ! -e spo/split.csv ] \
    && [ ! -e spo/runs.csv ] && ok "--reproduce: a manifest without split/per_seed reproduces as before" \
    || bad "--reproduce: a manifest without split/per_seed reproduces as before" "rc $rc: $out $(ls spo)"

# ---- --reproduce under the restrictions found beside the folder: the rerun is given the
# recordings one by one, so it must be given the recorded restrictions too. Two 4 x 4
# recordings, each holding only some of the configurations its section allows.
mkdir -p spaces
python3 - <<'PY'
import json
vals = [1, 2, 3, 4]
cache = {"%d,%d" % (a, b): {"a": a, "b": b, "time": 10.0 / (a * b) + a}
         for a in vals for b in vals if a <= b and b < 4}
d = {"device_name": "G1", "kernel_name": "toy", "tune_params_keys": ["a", "b"],
     "tune_params": {"a": vals, "b": vals}, "objective": "time", "cache": cache}
json.dump(d, open("spaces/toy_G1.json", "w"))
del cache["1,1"]
d["device_name"] = "G2"
json.dump(d, open("spaces/toy_G2.json", "w"))
PY
printf '# toy spaces\n[toy_G1]\na <= b\n[toy_*]\na <= b\nb - a != 3\n' >spaces/restrictions
"$exe" bench --searchers=random,genetic --budgets=4,10 --seeds=2 --convention=constraint-aware \
    --no-plots --quiet --out=rs spaces >/dev/null 2>&1
python3 - "$(sha256sum spaces/restrictions | cut -d' ' -f1)" <<'PY' \
    && ok "bench FOLDER: the manifest records each recording's restrictions, file and SHA-256" \
    || bad "bench FOLDER: the manifest records each recording's restrictions, file and SHA-256"
import json, sys
recs = {r["path"]: r["restrictions"] for r in json.load(open("rs/results.json"))["manifest"]["experiment"]["recordings"]}
g1, g2 = recs["spaces/toy_G1.json"], recs["spaces/toy_G2.json"]
assert g1["expressions"] == ["a <= b"] and g2["expressions"] == ["a <= b", "b - a != 3"], recs
for r in (g1, g2):
    assert r["from"] == "file" and r["file"] == "spaces/restrictions" and r["file_sha256"] == sys.argv[1], r
assert g1["section"] == "spaces/restrictions:2" and g2["section"] == "spaces/restrictions:4"
PY
out=$("$exe" bench --reproduce=rs/results.json --no-plots --quiet 2>/dev/null); rc=$?
idr=$(python3 -c 'import json; print(json.load(open("rs/results.json"))["manifest"]["identity"])' 2>&1)
idn=$(python3 -c 'import json; print(json.load(open("rs/reproduced/results.json"))["manifest"]["identity"])' 2>&1)
[ $rc = 0 ] && grep -q "identical (8 cells)" <<<"$out" && [ "$idr" = "$idn" ] \
    && grep -q "| toy_G1 | 10 (6; 4) |" rs/reproduced/results.md && grep -q "| toy_G2 | 9 (5; 4) |" rs/reproduced/results.md \
    && ok "--reproduce: the rerun searches the restricted spaces of the folder's restrictions file" \
    || bad "--reproduce: the rerun searches the restricted spaces of the folder's restrictions file" "rc $rc: $out $idr $idn $(grep toy_G rs/reproduced/results.md | head -2)"
"$exe" bench --searchers=random --budgets=4,10 --seeds=2 --convention=constraint-aware --restrict='a <= b' \
    --no-plots --quiet --out=rr spaces >/dev/null 2>&1
out=$("$exe" bench --reproduce=rr/results.json --no-plots --quiet 2>/dev/null); rc=$?
[ $rc = 0 ] && grep -q "identical (4 cells)" <<<"$out" && grep -q "| toy_G2 | 10 (5; 5) |" rr/reproduced/results.md \
    && ok "--reproduce: --restrict again" || bad "--reproduce: --restrict again" "rc $rc: $out"
# a rerun that fails (a manifest edited to an invalid searcher) leaves no folder behind,
# not even the restrictions file written for it
python3 - <<'PY'
import json
d = json.load(open("rs/results.json"))
s = d["manifest"]["searchers"][0]
s.update(name="genetic", args="pop=0", label="genetic:pop=0")
json.dump(d, open("rs/bad.json", "w"))
PY
"$exe" bench --reproduce=rs/bad.json --out=rsbad --no-plots --quiet >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && [ ! -e rsbad ] && ok "--reproduce: a failed rerun leaves no folder behind" ||
    bad "--reproduce: a failed rerun: exit $rc" "$(ls -A rsbad 2>&1)"
# the restrictions file changed by one byte (its comment: the same expressions) is refused
printf 'T' | dd of=spaces/restrictions bs=1 seek=2 conv=notrunc 2>/dev/null
rm -rf rs/reproduced
err=$("$exe" bench --reproduce=rs/results.json --no-plots --quiet 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q "restrictions file spaces/restrictions has SHA-256 .*the manifest's is" <<<"$err" \
    && [ ! -e rs/reproduced ] \
    && ok "--reproduce: a restrictions file changed by one byte is refused (one line, exit 2)" \
    || bad "--reproduce: a restrictions file changed by one byte is refused (one line, exit 2)" "rc $rc: $err"

# ---- a tuning run's summary
"$exe" --searcher=genetic --budget=12 --seed=4 --evaluator=replay --journal=t.jsonl \
    --output=sum.json -q bowl.json.gz >/dev/null 2>&1
python3 - "$want_sha" <<'PY' && ok "tune: the summary JSON carries the manifest" || bad "tune: the summary JSON carries the manifest"
import json, sys
d = json.load(open("sum.json"))
assert d["best"] is not None and d["evaluations"] == 12
m = d["manifest"]
e = m["experiment"]
assert m["kind"] == "tune" and "--seed=4" in m["command"]
assert e["recordings"][0]["sha256"] == sys.argv[1]
assert e["seeds"]["first"] == 4 and e["budgets"] == [12]
assert e["searchers"][0]["resolved"]["12"].startswith("pop=")
PY
# what changes a run's result is in its identity: the batch, a time limit, a warm start
# (its file hashed as a recording); a plain run writes none of them
"$exe" --searcher=genetic --budget=12 --seed=4 --evaluator=replay --journal=t2.jsonl --batch=3 \
    --time-limit=100 --warm-start=small.json --output=sum2.json -q bowl.json.gz >/dev/null 2>&1
python3 - <<'PY' && ok "tune: batch, time limit and warm start are part of the identity" \
    || bad "tune: batch, time limit and warm start are part of the identity"
import json
a = json.load(open("sum.json"))["manifest"]
b = json.load(open("sum2.json"))["manifest"]
ea, eb = a["experiment"], b["experiment"]
assert not {"batch", "time_limit_s", "warm_start_prior", "objective"} & set(ea), ea.keys()
assert eb["batch"] == 3 and eb["time_limit_s"] == 100 and len(eb["warm_start_prior"]) == 16, eb
assert len(eb["recordings"]) == 2 and eb["recordings"][1]["path"].endswith("small.json")
assert a["identity"] != b["identity"]
PY


# ---- bench: what it refuses and how it names the experiment
run_b() { "$exe" bench --seeds=2 --budgets=20 --convention=recorded "$@" bowl.json.gz >/dev/null 2>b.err; }
run_b --searchers=random,genetic --searcher=bo:init=5 --out=bs1
[ -f bs1/results.md ] && grep -q '^| bo:init=5 ' bs1/results.md && grep -q '^| genetic ' bs1/results.md &&
    ok "bench: --searchers and --searcher together bench both" ||
    bad "bench: --searchers with --searcher" "$(cat b.err; grep '^| ' bs1/results.md | head -5)"
run_b --searchers=random,random --out=bs2
[ $? -eq 2 ] && grep -q 'searcher random given twice' b.err && [ ! -e bs2 ] &&
    ok "bench: a searcher given twice is refused" || bad "bench: duplicate searcher" "$(cat b.err)"
"$exe" bench --seeds=2 --budgets=20 --convention=cartesian --restrict='x > 1' --searchers=random \
    --out=bs3 bowl.json.gz >/dev/null 2>b.err
[ $? -eq 2 ] && grep -q 'read only by the constraint-aware convention' b.err && [ ! -e bs3 ] &&
    ok "bench: --restrict without the constraint-aware convention is refused" ||
    bad "bench: --restrict under cartesian" "$(cat b.err)"
: >bfile
run_b --searchers=random --out=bfile
[ $? -eq 2 ] && grep -q 'not a folder' b.err && [ ! -s bfile ] &&
    ok "bench: --out onto a file is refused before the run" || bad "bench: --out a file" "$(cat b.err)"
run_b --searchers=random --budgets=20,40 --out=bo1
run_b --searchers=random --budgets=40,20,40 --out=bo2
i1=$(python3 -c "import json;print(json.load(open('bo1/results.json'))['manifest']['identity'])" 2>&1)
i2=$(python3 -c "import json;print(json.load(open('bo2/results.json'))['manifest']['identity'])" 2>&1)
[ -n "$i1" ] && [ "$i1" = "$i2" ] && ok "bench: budgets in another order, one identity ($i1)" ||
    bad "bench: budgets' order changes the identity" "$i1 / $i2"
# a results.json that lacks cells the rerun makes is not reproduced
python3 - <<'PY'
import json
d = json.load(open("bo1/results.json"))
for c in d["conventions"]:
    for r in c["recordings"]:
        for s in r["searchers"]:
            s["budgets"] = s["budgets"][:1]
json.dump(d, open("bo1/cut.json", "w"))
PY
out=$("$exe" bench --reproduce=bo1/cut.json --out=bo1r 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q 'budget 40: not in the results reproduced' <<<"$out" &&
    ok "bench --reproduce: cells the results lack are differences (exit 1)" ||
    bad "bench --reproduce of a cut results.json: exit $rc" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
