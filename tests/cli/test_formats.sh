#!/usr/bin/env bash
# End-to-end tests of the community formats (docs/formats.md): a T1 input file tuned like
# the spec it describes, the T4 results export validated against the published schema
# (tests/io/t4-schema.json), and the Kernel Tuner cache export read by Kernel Tuner's
# rules; a cache with sorted keys read as one. Needs python3 and nothing beyond its standard library. TAP-like lines and a
# closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
root=${CUTUNE_SOURCE_ROOT:?CUTUNE_SOURCE_ROOT not set}
here=$(cd "$(dirname "$0")" && pwd)
schema=$root/tests/io/t4-schema.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }

# A recording of a 3 x 3 x 2 space with each kind of failure, and a kernel whose spec (native
# and T1) has that space: replayed, it is a run with known answers and no GPU.
python3 - <<'PY'
import json
params = {"bs": [32, 64, 128], "ipt": [1, 2, 4], "mode": ["a", "b"]}
cache = {}
for i, bs in enumerate(params["bs"]):
    for j, ipt in enumerate(params["ipt"]):
        for mode in params["mode"]:
            e = {"bs": bs, "ipt": ipt, "mode": mode}
            k = (i * 3 + j) * 2 + (mode == "b")
            fails = {3: "CompilationFailedConfig", 7: "RuntimeFailedConfig", 11: "InvalidConfig"}
            if k in fails:
                e["time"] = fails[k]
            else:
                t = 1.0 + 0.1 * k
                e["time"] = t
                e["times"] = [t * 0.99, t, t * 1.01]
            e["compile_time"] = 100.0 + k
            e["verification_time"] = 1.0
            e["benchmark_time"] = 10.0
            cache[f"{bs},{ipt},{mode}"] = e
json.dump({"device_name": "Test GPU", "kernel_name": "k", "problem_size": [4096],
           "tune_params_keys": list(params), "tune_params": params, "objective": "time",
           "cache": cache}, open("rec.json", "w"))
PY
printf 'extern "C" __global__ void k(float *c, float a, int n) { }\n' > k.cu
cat > native.json <<'J'
{"source": "k.cu", "kernel": "k",
 "parameters": {"bs": [32, 64, 128], "ipt": [1, 2, 4], "mode": ["a", "b"]},
 "sizes": {"N": 4096},
 "launch": {"grid": ["(N + bs * ipt - 1) / (bs * ipt)"], "block": ["bs"]},
 "args": [{"name": "c", "type": "float", "size": "N", "output": true},
          {"name": "a", "type": "float", "value": "0.5"},
          {"name": "n", "type": "int", "value": "N"}]}
J
cat > t1.json <<'J'
{"General": {"BenchmarkName": "k", "OutputFormat": "JSON"},
 "ConfigurationSpace": {
   "TuningParameters": [
     {"Name": "bs", "Type": "int", "Values": "[32, 64, 128]"},
     {"Name": "ipt", "Type": "int", "Values": "[2**i for i in range(3)]"},
     {"Name": "mode", "Type": "string", "Values": "['a', 'b']"}],
   "Conditions": []},
 "KernelSpecification": {
   "Language": "CUDA", "KernelName": "k", "KernelFile": "k.cu", "ProblemSize": [4096],
   "GlobalSize": {"X": "(ProblemSize[0] + bs * ipt - 1) // (bs * ipt)"},
   "LocalSize": {"X": "bs"},
   "Arguments": [
     {"Name": "c", "Type": "float", "MemoryType": "Vector", "AccessType": "WriteOnly",
      "Size": "ProblemSize[0]"},
     {"Name": "a", "Type": "float", "MemoryType": "Scalar", "FillValue": 0.5},
     {"Name": "n", "Type": "int32", "MemoryType": "Scalar", "FillValue": 4096}]}}
J

# ---- T1: what cutune cannot read is an error naming the field and its line
out=$("$exe" space t1.json 2>&1)
if [ $? -eq 2 ] && grep -q "t1.json:5: ConfigurationSpace.TuningParameters\[1\].Values: .*list comprehension" <<<"$out"; then
    ok "T1: an unreadable field is an error naming it and its line"
else
    bad "T1: an unreadable field is an error naming it and its line" "$out"
fi
sed -i 's/\[2\*\*i for i in range(3)\]/[1, 2, 4]/' t1.json
out=$("$exe" space t1.json 2>err.txt)
if [ $? -eq 0 ] && grep -q "valid configurations: 18$" <<<"$out" \
        && grep -q "^cutune space: warning: t1.json:1: General.OutputFormat: ignored" err.txt \
        && [ "$(wc -l <err.txt)" -eq 1 ]; then
    ok "T1: loads; what cutune ignores is a warning, one line"
else
    bad "T1: loads; what cutune ignores is a warning, one line" "$out$(cat err.txt)"
fi

# ---- T1: KernelSpecification.SimulationInput's messages name it and its line, as the
# loader's do (they named the native field, "recording", and no line)
sed -e 's|, "OutputFormat": "JSON"||' -e 's|"Language": "CUDA",|"Language": "CUDA", "SimulationInput": "gone.json",|' t1.json > t1sim.json
out=$("$exe" --evaluator=replay --budget=2 --journal=sim.jsonl t1sim.json 2>&1 >/dev/null)
if [ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e sim.jsonl ] \
        && grep -qE "^cutune: t1sim.json:9: KernelSpecification.SimulationInput: the recording it names cannot be read: (\./)?gone.json: cannot open: No such file or directory$" <<<"$out"; then
    ok "T1: a SimulationInput that cannot be read names the field and its line"
else
    bad "T1: a SimulationInput that cannot be read names the field and its line" "$out"
fi
python3 "$here/mkcache.py" other.json 2 2 2
sed -e 's|, "OutputFormat": "JSON"||' -e 's|"Language": "CUDA",|"Language": "CUDA", "SimulationInput": "other.json",|' t1.json > t1other.json
out=$("$exe" --evaluator=replay --budget=2 --journal=sim.jsonl t1other.json 2>&1 >/dev/null)
if [ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e sim.jsonl ] \
        && grep -qE "^cutune: t1other.json:9: KernelSpecification.SimulationInput: .*other.json: the space's parameter 'bs' is not in the recording$" <<<"$out"; then
    ok "T1: a SimulationInput of another space names the field and its line"
else
    bad "T1: a SimulationInput of another space names the field and its line" "$out"
fi

# ---- a T1 file tunes as the native spec does (replayed: the same journal but its header)
for s in native t1; do
    "$exe" --searcher=random --seed=5 --budget=18 --evaluator=replay:rec.json \
        --journal=$s.jsonl --t4=$s.t4.json --kt-cache=$s.kt.json $s.json >$s.txt 2>&1
    echo "rc=$?" >>$s.txt
done
if grep -q "rc=0" native.txt && grep -q "evaluations: 18" native.txt \
        && diff <(tail -n +2 native.jsonl) <(tail -n +2 t1.jsonl) >/dev/null \
        && diff <(grep -v '^journal:' native.txt) <(grep -v -e '^journal:' -e '^cutune: warning' t1.txt) >/dev/null; then
    ok "T1 and native spec: the same run"
else
    bad "T1 and native spec: the same run" "$(cat native.txt t1.txt; diff native.jsonl t1.jsonl | head -5)"
fi

# ---- T4: valid by the published schema, one result per evaluation, statuses mapped
if python3 "$here/jsonschema_subset.py" "$schema" native.t4.json; then
    ok "T4 export is valid by tests/io/t4-schema.json"
else
    bad "T4 export is valid by tests/io/t4-schema.json"
fi
# where python3 has the jsonschema module, it checks the same (else said, and skipped)
if python3 -c "import jsonschema" 2>/dev/null; then
    python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
        "$schema" native.t4.json && ok "T4 export is valid by python3's jsonschema too" \
        || bad "T4 export is valid by python3's jsonschema too"
else
    echo "ok - T4 export by python3's jsonschema # SKIP jsonschema not installed"
fi
python3 - "$schema" "$here" <<'PY' && ok "the schema check rejects what the schema forbids" \
    || bad "the schema check rejects what the schema forbids"
import json, subprocess, sys
schema, here = sys.argv[1], sys.argv[2]
doc = json.load(open("native.t4.json"))
for breakage in ("invalidity", "correctness", "times", "runtimes"):
    d = json.loads(json.dumps(doc))
    r = d["results"][0]
    if breakage == "invalidity": r["invalidity"] = "fine"
    if breakage == "correctness": r["correctness"] = 2
    if breakage == "times": del r["times"]
    if breakage == "runtimes": r["times"]["runtimes"] = ["1.0"]
    json.dump(d, open("broken.json", "w"))
    rc = subprocess.run([sys.executable, f"{here}/jsonschema_subset.py", schema, "broken.json"],
                        stdout=subprocess.DEVNULL).returncode
    assert rc == 1, breakage
PY
python3 - <<'PY' && ok "T4 results: every evaluation, its times, invalidity and correctness" \
    || bad "T4 results: every evaluation, its times, invalidity and correctness"
import json
doc = json.load(open("native.t4.json"))
rec = json.load(open("rec.json"))["cache"]
res = doc["results"]
assert doc["schema_version"] == "1.0.0" and doc["metadata"]["timeunit"] == "milliseconds"
assert doc["metadata"]["autotuner"] == "cutune" and doc["metadata"]["compute_api"] == "CUDA"
assert len(res) == 18
seen = set()
want = {"CompilationFailedConfig": "compile", "RuntimeFailedConfig": "runtime",
        "InvalidConfig": "constraints"}
for r in res:
    c = r["configuration"]
    e = rec[f"{c['bs']},{c['ipt']},{c['mode']}"]
    inv = want.get(e["time"], "correct")
    assert r["invalidity"] == inv, (r, e)
    assert r["correctness"] == 1 and r["objectives"] == ["time"]
    t = r["times"]
    assert t["compilation_time"] == e["compile_time"]
    assert t["benchmark"] == e["verification_time"] + e["benchmark_time"]
    assert t["framework"] == 0 and t["search_algorithm"] == 0 and t["validation"] == 0
    m = {x["name"]: x for x in r["measurements"]}
    if inv == "correct":
        assert m["time"]["value"] == e["time"] and m["time"]["unit"] == "ms"
        assert t["runtimes"] == e["times"]
    else:
        assert "time" not in m and t["runtimes"] == []
    seen.add(inv)
assert seen == {"correct", "compile", "runtime", "constraints"}, seen
PY
cmp -s native.t4.json t1.t4.json && ok "T4: the same from the T1 file" || bad "T4: the same from the T1 file"

# ---- the Kernel Tuner cache export, read by Kernel Tuner's rules
dev=$(python3 -c 'import json; print(json.load(open("native.t4.json"))["metadata"]["device"])')
if python3 "$here/kt_cache_check.py" native.kt.json k "$dev" "[4096]" bs=32,64,128 ipt=1,2,4 \
        'mode="a","b"'; then
    ok "KT cache export: the fields and types Kernel Tuner reads"
else
    bad "KT cache export: the fields and types Kernel Tuner reads"
fi
# a recording as the space: no kernel spec; the kernel name and the problem size are the
# recording's (Kernel Tuner refuses a cache of another kernel name or problem size)
"$exe" --searcher=grid --budget=18 --journal=r.jsonl --kt-cache=r.kt.json --t4=r.t4.json \
    rec.json >r.txt 2>&1
dev=$(python3 -c 'import json; print(json.load(open("r.t4.json"))["metadata"]["device"])')
if python3 "$here/kt_cache_check.py" r.kt.json k "$dev" "[4096]" bs=32,64,128 ipt=1,2,4 \
        'mode="a","b"' && python3 "$here/jsonschema_subset.py" "$schema" r.t4.json; then
    ok "a recording's run: the KT cache and T4 exports"
else
    bad "a recording's run: the KT cache and T4 exports" "$(cat r.txt)"
fi
# a run on that run's journal (whose spec is the recording's path): the kernel's name is
# still the one the recording holds
"$exe" --searcher=grid --budget=18 --journal=rj.jsonl --kt-cache=rj.kt.json r.jsonl >rj.txt 2>&1
if python3 -c 'import json, sys; sys.exit(json.load(open("rj.kt.json"))["kernel_name"] != "k")'; then
    ok "a run on a journal: the KT cache names the recording's kernel"
else
    bad "a run on a journal: the KT cache names the recording's kernel" "$(cat rj.txt; head -c 300 rj.kt.json)"
fi
# Python bools, as Kernel Tuner writes them (True in the key, true in the values), are
# written back so: Kernel Tuner's simulation looks an entry up by str(value), and cutune
# reads both back to the same values (1 and 0)
python3 - <<'PY'
import json
params = {"bs": [32, 64], "unroll": [True, False]}
cache = {}
for bs in params["bs"]:
    for u in params["unroll"]:
        t = 1.0 + bs / 100 + (0.5 if u else 0)
        cache[f"{bs},{u}"] = {"bs": bs, "unroll": u, "time": t, "times": [t, t],
                              "compile_time": 1.0, "verification_time": 0, "benchmark_time": 2.0}
json.dump({"device_name": "Test GPU", "kernel_name": "kb", "tune_params_keys": list(params),
           "tune_params": params, "objective": "time", "cache": cache}, open("bools.json", "w"))
PY
"$exe" --searcher=grid --budget=4 --journal=b.jsonl --kt-cache=b.kt.json bools.json >b.txt 2>&1
"$exe" --searcher=grid --budget=4 --journal=bb.jsonl b.kt.json >bb.txt 2>&1
if python3 "$here/kt_cache_check.py" b.kt.json kb "replay of $PWD/bools.json (Test GPU)" - \
        bs=32,64 unroll=true,false \
        && [ "$("$exe" space b.kt.json | grep unroll)" = "$("$exe" space bools.json | grep unroll)" ] \
        && [ "$(grep '^best:' bb.txt)" = "$(grep '^best:' b.txt)" ]; then
    ok "KT cache export: Python bools as Kernel Tuner writes them"
else
    bad "KT cache export: Python bools as Kernel Tuner writes them" "$(cat b.txt bb.txt)"
fi
# the export replays as a recording (cutune reads what it writes), with the same best
"$exe" --searcher=grid --budget=18 --journal=rr.jsonl native.kt.json >rr.txt 2>&1
[ "$(grep '^best:' rr.txt)" = "$(grep '^best:' native.txt)" ] \
    && ok "the KT cache export replays with the same best" \
    || bad "the KT cache export replays with the same best" "$(cat rr.txt native.txt)"
# left open as a stopped Kernel Tuner run leaves it (its closing cut, a comma after the
# last entry): cutune reads it as Kernel Tuner does
python3 -c 'import sys; t = open("native.kt.json").read().rstrip(); sys.stdout.write(t[:-3] + ",")' >open.kt.json
"$exe" --searcher=grid --budget=18 --journal=ro.jsonl open.kt.json >ro.txt 2>&1
[ "$(grep '^best:' ro.txt)" = "$(grep '^best:' native.txt)" ] && grep -q "evaluations: 18" ro.txt \
    && ok "an unterminated export reads as Kernel Tuner reads it" \
    || bad "an unterminated export reads as Kernel Tuner reads it" "$(cat ro.txt)"

# ---- --t4 is checked before the run like every output
out=$("$exe" --budget=2 --journal=x.jsonl --t4=rec.json rec.json 2>&1)
[ $? -eq 2 ] && grep -q -- "--t4=rec.json: is the file being tuned or replayed" <<<"$out" \
    && [ ! -e x.jsonl ] && ok "--t4 onto the recording is refused" || bad "--t4 onto the recording is refused" "$out"
out=$("$exe" --budget=2 --journal=y.jsonl --t4=y.jsonl rec.json 2>&1)
[ $? -eq 2 ] && grep -q -- "--t4=y.jsonl: is also the journal file" <<<"$out" \
    && ok "--t4 onto another output is refused" || bad "--t4 onto another output is refused" "$out"

# A Kernel Tuner cache written with sorted keys holds its tune_params after a "cache" far
# longer than any head a reader could sniff: it is still a recording, plain and gzipped
python3 "$here/mkcache.py" big.json
python3 - <<'PY'
import gzip, json
d = json.load(open("big.json"))
text = json.dumps(d, sort_keys=True)
assert text.index('"tune_params"') > 1 << 16, "the cache must come first and be long"
open("sorted.json", "w").write(text)
gzip.open("sorted.json.gz", "wt").write(text)
PY
for f in sorted.json sorted.json.gz; do
    out=$("$exe" space "$f" 2>&1)
    grep -q "valid configurations: 4000$" <<<"$out" && ok "$f: a cache with sorted keys is a recording" \
        || bad "$f: a cache with sorted keys is a recording" "$out"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
