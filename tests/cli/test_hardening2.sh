#!/usr/bin/env bash
# Hardening of what cutune reads (docs/hardening.md, "What cutune reads"), end to end: each
# test is written as the attack it stops. Bounded memory and time on any input (a gzip
# bomb, /dev/zero and a FIFO as inputs, the input and space limits, bo with a budget of the
# space's size), no silent truncation or misreading (an int argument out of range, 0x10 as
# a size, duplicate values and keys, a key that disagrees with its entry, NUL characters).
# No GPU, no shared data. Prints "ok"/"not ok" lines and "N passed, N failed".
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
kernels=${CUTUNE_KERNELS:-$here/../../kernels}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$here/lib.sh"

# expect_fail NAME PATTERN CMD... : exit 2 within 60 s, a one-line error matching PATTERN
expect_fail() {
    local name=$1 pat=$2
    shift 2
    local out rc
    out=$(timeout 60 "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 124 ]; then bad "$name: still running after 60 s"; return; fi
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    ok "$name"
}

python3 "$here/mkcache.py" bowl.json 4 4 2

# ---- bounded memory and time

# A gzip bomb: 512 MiB of zeros in 0.5 MB. It stops at the input limit (256 MiB by
# default) with one line naming the file, instead of taking the memory it asks for.
python3 - <<'EOF'
import gzip
with gzip.open("bomb.json.gz", "wb", compresslevel=9) as f:
    chunk = b"\0" * (1 << 20)
    for _ in range(512):
        f.write(chunk)
EOF
expect_fail "a gzip bomb stops at the input limit" \
    "bomb.json.gz: inflates to more than the input limit of 268435456 bytes" "$exe" space bomb.json.gz
if command -v /usr/bin/time >/dev/null; then
    kb=$(/usr/bin/time -f %M "$exe" space bomb.json.gz 2>&1 >/dev/null | tail -1)
    [ "${kb:-0}" -lt 1500000 ] && ok "... within bounded memory (${kb} KB peak)" \
        || bad "... within bounded memory" "${kb} KB peak"
fi
# ... and at a lower limit given in the environment
expect_fail "a gzip bomb under CUTUNE_MAX_INPUT_BYTES=1M" \
    "bomb.json.gz: inflates to more than the input limit of 1048576 bytes" \
    env CUTUNE_MAX_INPUT_BYTES=1M "$exe" --budget=3 bomb.json.gz
# A plain file above the limit, and a limit that is not a byte count
expect_fail "a file above the input limit" "bowl.json: larger than the input limit of 1024 bytes" \
    env CUTUNE_MAX_INPUT_BYTES=1024 "$exe" space bowl.json
expect_fail "a bad CUTUNE_MAX_INPUT_BYTES is an error" "CUTUNE_MAX_INPUT_BYTES=12x: not a byte count" \
    env CUTUNE_MAX_INPUT_BYTES=12x "$exe" space bowl.json

# /dev/zero as a recording never ends; a FIFO blocks on open until someone writes it. Both
# are refused at once (stat, then fstat of what was opened: regular files only).
expect_fail "/dev/zero as a recording is refused" "/dev/zero: is a character device" \
    "$exe" --budget=3 /dev/zero
expect_fail "/dev/zero as a recording (space) is refused" "/dev/zero: is a character device" \
    "$exe" space /dev/zero
mkfifo pipe.json.gz pipe.jsonl
expect_fail "a FIFO as a recording is refused, without waiting" "pipe.json.gz: is a FIFO" \
    "$exe" --budget=3 pipe.json.gz
expect_fail "a FIFO as --resume is refused, without waiting" "pipe.jsonl: is a FIFO" \
    "$exe" --resume=pipe.jsonl bowl.json
# ... and as a kernel spec, and as the spec's CUDA source
cp "$kernels/vector_add.json" "$kernels/vector_add.cu" .
mkfifo pipe_spec.json
expect_fail "a FIFO as a kernel spec is refused" "pipe_spec.json: is a FIFO" "$exe" space ./pipe_spec.json
sed 's|"source": "vector_add.cu"|"source": "/dev/zero"|' vector_add.json > devzero_src.json
expect_fail "/dev/zero as the CUDA source is refused" "devzero_src.json.*source: /dev/zero: is a character device" \
    "$exe" space ./devzero_src.json

# bench --reproduce hashes the files its manifest names: a FIFO put where a restrictions file
# was held it on fopen until someone wrote to it. Refused at once (regular files only).
printf '[bowl]\na >= 1\n' > repro_r.txt
"$exe" bench --restrictions=repro_r.txt --seeds=1 --budgets=2 --searchers=random --no-plots \
    --out=repro_o bowl.json >/dev/null 2>&1
rm repro_r.txt && mkfifo repro_r.txt
expect_fail "bench --reproduce: a FIFO as the manifest's restrictions file is refused, without waiting" \
    "repro_r.txt: is a FIFO" "$exe" bench --reproduce=repro_o/results.json --out=repro_o2 --no-plots
[ ! -e repro_o2 ] && ok "... and no output folder is left" || bad "... and no output folder is left"

# A space too large to hold: refused before it is stored, with the sizes.
python3 - <<'EOF'
import json
p = {k: list(range(40)) for k in "abcdefg"}   # 40^7 = 1.6e11 points
json.dump({"tune_params_keys": list(p), "tune_params": p,
           "cache": {"0,0,0,0,0,0,0": dict({k: 0 for k in p}, time=1.0)}}, open("huge.json", "w"))
EOF
expect_fail "a Cartesian product above the limit is refused at once" \
    "the space is too large: every point is valid.*163840000000 points.*limit is 10000000 valid" \
    "$exe" space --cartesian huge.json
expect_fail "... and under restrictions, when the valid set passes the limit" \
    "more than 1000 configurations are valid.*limit is 1000 valid configurations \(CUTUNE_MAX_CONFIGS" \
    env CUTUNE_MAX_CONFIGS=1000 "$exe" space --cartesian --restrict "a < 10" huge.json
expect_fail "... and when the restrictions reject nearly all of a huge product (time)" \
    "enumeration stopped after examining 320000 points \(0 valid so far\)" \
    env CUTUNE_MAX_CONFIGS=10000 "$exe" space --cartesian --restrict "g < 0" huge.json
expect_fail "a bad CUTUNE_MAX_CONFIGS is an error" "CUTUNE_MAX_CONFIGS=lots: not a count" \
    env CUTUNE_MAX_CONFIGS=lots "$exe" space bowl.json

# bo with a budget of the space's size (2000 configurations): it used to fit and rescore a
# GP of up to 2000 points one proposal at a time; the exhaustive tail bounds it.
python3 "$here/mkcache.py" s2000.json 20 10 10
start=$(date +%s)
out=$(timeout 120 "$exe" --searcher=bo --budget=2000 --journal=bo2000.jsonl s2000.json 2>&1)
rc=$? secs=$(( $(date +%s) - start ))
[ $rc -eq 0 ] && [ $secs -lt 30 ] && grep -q "evaluations: 2000" <<<"$out" \
    && ok "bo with budget = space size (2000) visits everything in ${secs} s (< 30 s)" \
    || bad "bo with budget = space size (2000) visits everything in < 30 s" "exit $rc, ${secs} s: $(tail -3 <<<"$out")"

# bo keeps a table of every pair of each parameter's values: a parameter of 60,000 values
# asked for 29 GB (an allocator abort, or the memory of the machine). Refused, naming it.
python3 -c "import json; print(json.dumps({'tune_params_keys': ['a', 'b'], 'tune_params': {'a': list(range(60000)), 'b': [1, 2]}, 'cache': {'%d,%d' % (a, b): {'a': a, 'b': b, 'time': 1.0 + a + b} for a in range(4) for b in (1, 2)}}))" > wide.json
expect_fail "bo on a parameter of 60000 values is refused, naming it" \
    "bo: parameter 'a' has 60000 values: bo's tables of value pairs would hold" \
    "$exe" --searcher=bo --budget=4 --journal=wide_j.jsonl wide.json
[ ! -e wide_j.jsonl ] && ok "... and no journal is left" || bad "... and no journal is left"

# ---- no silent truncation or misreading

# An int argument whose value does not fit: 3000000000 as an int32 was passed as
# -1294967296. Refused at load, naming the field.
expect_fail "an out-of-range int argument is refused at load" \
    "args\[3\]\.value: 3000000000 is outside the range of int32 \(-2147483648\.\.2147483647\)" \
    "$exe" space --size N=3000000000 ./vector_add.json
sed 's|"size": "N", "output": true|"size": "N / 3.0", "output": true|' vector_add.json > frac.json
expect_fail "a buffer of a fractional element count is refused" \
    "args\[0\]\.size: 5592405.33.* is not a whole number of elements" "$exe" space ./frac.json
# --size is base 10: strtod would read 0x10 as 16 and inf as infinity
expect_fail "--size N=0x10 is refused (sizes are base 10)" "--size N=0x10: '0x10' is not a decimal number" \
    "$exe" space --size N=0x10 ./vector_add.json
expect_fail "--size N=inf is refused" "'inf' is not a decimal number" "$exe" space --size N=inf ./vector_add.json
out=$("$exe" space --size N=1e3 ./vector_add.json 2>&1 && "$exe" space --size N=010 ./vector_add.json 2>&1) \
    && ok "--size N=1e3 and N=010 (ten) are still read" || bad "--size N=1e3 and N=010 (ten) are still read" "$out"
# A size beyond 64 bits in the spec is an error, not a real that an int argument wraps
sed 's|"N": 16777216|"N": 1e20|' vector_add.json > hugesize.json
expect_fail "a size beyond 64 bits is refused" "sizes\.N: integer 1e\+20 out of range" "$exe" space ./hugesize.json

# A spec name too long for a file name loaded, and the run failed on its default journal
# (runs/NAME-SEED-TIME.jsonl: File name too long, exit 1): refused at load, naming the field.
python3 -c "import re,sys; s=open('vector_add.json').read(); open('longname.json','w').write(re.sub(r'\"name\": \"vector_add\"', '\"name\": \"' + 'x' * 5000 + '\"', s, count=1))"
expect_fail "a spec name too long for a file name is refused at load" \
    'longname.json:[0-9]+: name: 5000 bytes; at most 128' \
    "$exe" --evaluator=replay:"$here/../../data/vector_add.jsonl.gz" --budget=2 ./longname.json
[ ! -e runs ] && ok "... and no runs/ folder is made" || bad "... and no runs/ folder is made" "$(ls runs)"
# A spec name holding a '/' made a path of it: "../x" put a --sizes run's journals outside
# runs/ (runs/../x-SEED-TIME-SHAPE.jsonl, written into the folder above), "a/b" named a
# folder that is not there. Refused at load, naming the field, as "." and "..".
cp "$kernels/gemm_h.json" "$kernels/gemm_h.cu" .
mkdir -p slash && cd slash
for n in ../x a/b . ..; do
    sed -e "s|\"name\": \"gemm_h\"|\"name\": \"$n\"|" -e "s|\"\.\./data/|\"$here/../../data/|g" \
        ../gemm_h.json > ../slash.json
    CUTUNE_DB=none expect_fail "a spec name '$n' is refused at load" \
        "slash.json:[0-9]+: name: '.*' is not a file name" \
        "$exe" --sizes='M=N=K=1024;M=N=K=2048' --budget=2 --no-progress ../slash.json
done
[ -z "$(ls -A . ..  | grep -- '-1-.*jsonl')" ] && [ ! -e runs ] \
    && ok "... and no journal is written, in runs/ or beside it" \
    || bad "... and no journal is written, in runs/ or beside it" "$(ls -AR . ..)"
cd ..

# Duplicate values in a parameter list: two configurations of one.
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2, 2.0]}, "cache": {"1": {"a": 1, "time": 1.0}}}' > dupval.json
expect_fail "duplicate values in a recording's parameter list" \
    "dupval.json: tune_params\[\"a\"\]\[2\]: duplicate value 2.0 \(same as \[1\]\)" "$exe" space dupval.json
sed 's|"items_per_thread": \[1, 2, 4, 8\]|"items_per_thread": [1, 2, 4, 2]|' vector_add.json > dupspec.json
expect_fail "duplicate values in a spec's parameter list" \
    "parameters\.items_per_thread\[3\]: duplicate value \(same as \[1\]\)" "$exe" space ./dupspec.json
# Duplicate keys: cJSON keeps both, a lookup sees the first, another tool the last.
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {"1": {"a": 1, "time": 1.0}, "2": {"a": 2, "time": 2.0}, "1": {"a": 1, "time": 0.1}}}' > dupkey.json
expect_fail "a cache key given twice" 'dupkey.json: cache: key "1" given twice' "$exe" space dupkey.json
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {"1": {"a": 1, "time": 5.0, "time": 1.0}}}' > duptime.json
expect_fail "a field given twice in a cache entry" 'duptime.json: cache\["1"\]: key "time" given twice' "$exe" space duptime.json
"$exe" --searcher=random --budget=3 --journal=j.jsonl bowl.json >/dev/null 2>&1
sed '2s|"config":{|"config":{"a":1,|' j.jsonl > dupj.jsonl
expect_fail "a journal line with a key given twice" 'dupj.jsonl:2: config: key "a" given twice' "$exe" space dupj.jsonl
# A journal's last line cut off mid-write is left out, and an unterminated Kernel Tuner
# cache closed after its last whole entry: said in one line wherever such a recording is
# read (resume and report already said it; tune, space, --warm-start and db import were
# silent).
"$exe" --searcher=random --budget=4 --journal=whole.jsonl bowl.json >/dev/null 2>&1
head -c -20 whole.jsonl > torn.jsonl
python3 -c "import sys; s=open('bowl.json').read(); open('open.json','w').write(s[:s.index('\"1,1,1\"')].rstrip().rstrip(','))"
torn_said() { # NAME FILE CMD...: exit 0, and stderr says FILE was read short of its end
    local name=$1 file=$2
    shift 2
    rm -f tj.jsonl tdb.db
    local out
    out=$("$@" 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 0 ]; then bad "$name: exit $rc" "$out"; return; fi
    grep -qE "^cutune( [a-z]+)?: warning: $file: (its last line ends without a newline \(cut off mid-write\): left out|the cache is unterminated)" <<<"$out" \
        && ok "$name" || bad "$name: not said" "$out"
}
torn_said "a torn journal's last line is said: space" torn.jsonl "$exe" space torn.jsonl
torn_said "... tune" torn.jsonl "$exe" --budget=2 --journal=tj.jsonl torn.jsonl
torn_said "... --warm-start" torn.jsonl "$exe" --budget=2 --journal=tj.jsonl --warm-start=torn.jsonl bowl.json
torn_said "... db import" torn.jsonl "$exe" db import --db=tdb.db torn.jsonl
torn_said "... bench" torn.jsonl "$exe" bench --seeds=1 --budgets=2 --searchers=random --no-plots \
    --out=tbench torn.jsonl
# ... and a torn journal replayed for a spec (--evaluator=replay:FILE), with and without
# --cartesian (then only the evaluator reads it)
"$exe" --evaluator=replay:"$here/../../data/vector_add.jsonl.gz" --budget=4 --journal=vwhole.jsonl \
    ./vector_add.json >/dev/null 2>&1
head -c -20 vwhole.jsonl > vtorn.jsonl
torn_said "... replay:FILE on a spec" vtorn.jsonl \
    "$exe" --evaluator=replay:vtorn.jsonl --budget=2 --journal=tj.jsonl ./vector_add.json
torn_said "... replay:FILE on a spec, --cartesian" vtorn.jsonl \
    "$exe" --evaluator=replay:vtorn.jsonl --cartesian --budget=2 --journal=tj.jsonl ./vector_add.json
torn_said "an unterminated Kernel Tuner cache is said" open.json "$exe" space open.json
out=$("$exe" space whole.jsonl 2>&1 >/dev/null) && [ -z "$out" ] \
    && ok "... and nothing is said of a whole journal" || bad "... and nothing is said of a whole journal" "$out"

# --evaluator=replay on a spec whose "recording" is not there: named with the spec and the
# field, as the no-GPU path names them (the loader alone said 'gone.jsonl: cannot open')
sed 's|"recording": "[^"]*"|"recording": "gone.jsonl"|' vector_add.json > gonerec.json
expect_fail "--evaluator=replay: the spec's missing recording names the spec and its field" \
    'gonerec.json:29: recording: the recording it names cannot be read: .*gone.jsonl: cannot open: No such file' \
    "$exe" --evaluator=replay --budget=2 --journal=gone_j.jsonl ./gonerec.json
[ ! -e gone_j.jsonl ] && ok "... and no journal is left" || bad "... and no journal is left"

# A journal with its header line removed was read as a Kernel Tuner cache: 'malformed JSON
# at line 2, column 1'. It is named for what it is.
tail -n +2 whole.jsonl > nohdr.jsonl
expect_fail "a journal without its header line is said to be one" \
    'nohdr.jsonl:1: a cutune journal without its header line \(the first line is an "eval" record' \
    "$exe" space nohdr.jsonl
expect_fail "... also as --warm-start" 'nohdr.jsonl:1: a cutune journal without its header line' \
    "$exe" --budget=2 --journal=nohdr_j.jsonl --warm-start=nohdr.jsonl bowl.json

# A UTF-8 byte order mark first (some Windows editors write one) is skipped wherever JSON is
# read, as Python's json with utf-8-sig does: a Kernel Tuner cache that starts with one was
# taken for a spec ('bom.json:1: unknown field 'device_name'').
bom() { printf '\xef\xbb\xbf'; cat "$1"; }
bom bowl.json > bom.json
bom bowl.json | gzip > bom_gz.json.gz
bom vector_add.json > bomspec.json
bom whole.jsonl > bomj.jsonl
for f in bom.json bom_gz.json.gz ./bomspec.json bomj.jsonl; do
    out=$("$exe" space "$f" 2>&1) && [ "$(head -1 <<<"$out")" = "$f" ] \
        && ok "a byte order mark is skipped: $f" || bad "a byte order mark is skipped: $f" "$out"
done
out=$("$exe" --resume=bomj.jsonl --budget=6 2>&1) && [ "$(grep -c '"kind":"eval"' bomj.jsonl)" -eq 6 ] \
    && ok "... and a journal that starts with one resumes" || bad "... and a journal that starts with one resumes" "$out"

# --warm-start and db import name the option, and call a kernel spec one (they said
# 'vector_add.json: tune_params_keys: missing', and 'nosuch.json: cannot open' without the
# option)
expect_fail "--warm-start=SPEC: called a kernel spec, naming the option" \
    '^cutune: --warm-start=vector_add.json: a kernel spec, not a recording \(a Kernel Tuner cache or a cutune journal\)$' \
    "$exe" --budget=2 --journal=ws_j.jsonl --warm-start=vector_add.json bowl.json
expect_fail "--warm-start=MISSING: names the option" \
    '^cutune: --warm-start=nosuch.json: cannot open: No such file or directory$' \
    "$exe" --budget=2 --journal=ws_j.jsonl --warm-start=nosuch.json bowl.json
expect_fail "db import SPEC: called a kernel spec" \
    '^cutune db import: vector_add.json: a kernel spec, not a recording' \
    "$exe" db import --db=ws.db vector_add.json
expect_fail "db import MISSING: names the command" '^cutune db import: nosuch.json: cannot open: No such file' \
    "$exe" db import --db=ws.db nosuch.json

# Entries whose values disagree with their key; two keys of one configuration.
printf '{"tune_params_keys": ["a", "b"], "tune_params": {"a": [1, 2], "b": [3, 4]}, "cache": {"1,3": {"a": 1, "b": 4, "time": 1.0}}}' > keyval.json
expect_fail "a cache entry whose values disagree with its key" \
    'keyval.json: cache\["1,3"\]: the key says b=3, the entry.s "b" is 4' "$exe" space keyval.json
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {"1": {"a": 1, "time": 1.0}, "1.0": {"a": 1, "time": 0.5}}}' > samecfg.json
# (a key is the values' Python text joined with ',': "1.0" is no key of the integer 1)
expect_fail "two cache keys of one configuration" 'samecfg.json: cache\["1.0"\]: the key.s "1.0" is not Kernel Tuner.s text of a=1 \("1"\)' \
    "$exe" space samecfg.json
# NUL characters: cJSON cuts a string there ("k.cu\u0000x" reads as "k.cu")
printf '{"tune_params_keys": ["a"], "tune_params": {"a": ["x", "x\\u0000y"]}, "cache": {"x": {"a": "x", "time": 1.0}}}' > nul.json
expect_fail "a NUL character in a recording's string" 'nul.json: tune_params.a\[1\]: NUL character' "$exe" space nul.json
sed 's|"source": "vector_add.cu"|"source": "vector_add.cu\\u0000.bak"|' vector_add.json > nulspec.json
expect_fail "a NUL character in a spec's string" 'nulspec.json:4: source: holds a NUL character' "$exe" space ./nulspec.json
printf 'extern "C" __global__ void vector_add() {}\n\0 hidden\n' > nulsrc.cu
sed 's|"source": "vector_add.cu"|"source": "nulsrc.cu"|' vector_add.json > nulsrc.json
expect_fail "a NUL byte in the CUDA source" 'nulsrc.json:4: source: .*nulsrc.cu: NUL byte at byte 43' "$exe" space ./nulsrc.json

# Metric names of 32 bytes or more: a record holds a metric under a name of at most 31
# bytes, so a longer one in a Kernel Tuner cache, a journal or a spec's "metrics" is
# refused, naming the file, the line and the metric, rather than left out of the record.
long=a_metric_name_of_forty_one_bytes_in_total
python3 - "$long" <<'EOF'
import json, sys
name = sys.argv[1]
cache = {f"{a}": {"a": a, "time": 1.0 + a, name: 3.0, "GB/s": 2.0} for a in (1, 2)}
json.dump({"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": cache},
          open("longmetric.json", "w"))
EOF
expect_fail "a cache's metric name of 41 bytes is refused, not dropped" \
    "^cutune space: longmetric.json: cache\[\"1\"\]: metric '$long' has a name of 41 bytes, longer than a metric name may be \(31 bytes\)$" \
    "$exe" space longmetric.json
"$exe" --budget=2 --searcher=grid --journal=lm.jsonl --no-progress bowl.json >/dev/null 2>&1
sed "2s/\"metrics\":{[^}]*}/\"metrics\":{\"$long\":1}/" lm.jsonl > lm_long.jsonl
grep -q "$long" lm_long.jsonl && ok "... (a journal line with one)" || bad "... (a journal line with one)"
expect_fail "a journal's metric name of 41 bytes is refused, naming its line" \
    "^cutune space: lm_long.jsonl:2: eval.metrics: metric '$long' has a name of 41 bytes" \
    "$exe" space lm_long.jsonl
expect_fail "... and so is resuming it" "^cutune: lm_long.jsonl:2: eval.metrics: metric '$long'" \
    "$exe" --resume=lm_long.jsonl --budget=3 bowl.json
sed "s|\"GB/s\":|\"$long\":|" vector_add.json > longmetric_spec.json
expect_fail "a spec's metric name of 41 bytes is refused, naming its line" \
    "^cutune space: \./longmetric_spec.json:28: metrics: metric '$long' has a name of 41 bytes, longer than a metric name may be \(31 bytes\)$" \
    "$exe" space ./longmetric_spec.json
sed "s|\"GB/s\":|\"$(printf 'x%.0s' {1..31})\":|" vector_add.json > metric31_spec.json
out=$("$exe" space ./metric31_spec.json 2>&1) && ok "a spec's metric name of 31 bytes is taken" \
    || bad "a spec's metric name of 31 bytes is taken" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
