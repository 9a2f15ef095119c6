#!/usr/bin/env bash
# End-to-end tests of the cutune executable, as a user runs it, on synthetic
# recordings made here (no GPU, no shared data). Prints TAP-like lines and the
# closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"

python3 "$here/mkcache.py" bowl.json.gz
python3 "$here/mkcache.py" small.json 4 4 2

v=$("$exe" --version) && [[ $v == "cutune "* ]] && ok "--version" || bad "--version" "$v"
"$exe" --help | grep -q "Commands:" && ok "--help" || bad "--help"
# -h and -V, as the usage lists them
[ "$("$exe" -h)" = "$("$exe" --help)" ] && [ "$("$exe" -V)" = "$v" ] \
    && "$exe" --help | grep -q -- "^usage: cutune \[-h|--help\] \[-V|--version\]" \
    && ok "-h and -V, listed in the usage" || bad "-h and -V, listed in the usage" "$("$exe" --help | head -1)"
"$exe" tune --help | grep -q -- "--searcher" && ok "tune --help" || bad "tune --help"
"$exe" list | grep -q "random" && ok "list" || bad "list"
for cmd in tune space bench; do
    "$exe" $cmd -h | grep -q "usage: cutune" && ok "$cmd -h" || bad "$cmd -h" "$("$exe" $cmd -h 2>&1 | head -3)"
done

expect_fail "unknown searcher lists valid names" "unknown searcher 'nope'.*random.*grid" \
    --searcher=nope bowl.json.gz
expect_fail "unknown evaluator lists valid names" "unknown evaluator 'gpu'.*replay" \
    --evaluator=gpu bowl.json.gz
expect_fail "budget 0" "budget" --budget=0 bowl.json.gz
expect_fail "negative budget" "budget" --budget=-3 bowl.json.gz
expect_fail "unreadable file" "missing.json.gz" missing.json.gz
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {"1": {"a": 1, "ti' > trunc.json
expect_fail "truncated JSON" "trunc.json.*cut inside an entry" trunc.json
# Kernel Tuner writes its cache entry by entry: one a run left open reads as Kernel Tuner
# reads it (closed after its last whole entry); a cache tuned for another objective replays it.
printf '{\n"tune_params_keys": [\n"a"\n],\n"tune_params": {\n"a": [\n1,\n2\n]\n},\n"cache": {\n"1": {"a": 1, "time": 1.0},\n"2": {"a": 2, "time": 0.5},' > open.json
out=$("$exe" space open.json 2>&1) && grep -q "valid configurations: 2$" <<<"$out" \
    && ok "an unterminated Kernel Tuner cache reads as Kernel Tuner reads it" \
    || bad "an unterminated Kernel Tuner cache reads as Kernel Tuner reads it" "$out"
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "objective": "GFLOP/s", "cache": {"1": {"a": 1, "time": 1.0, "GFLOP/s": 2.0}}}' > gflops.json
out=$("$exe" --budget=1 --journal=gflops.jsonl gflops.json 2>&1) \
    && grep -q "gflops.json was tuned for 'GFLOP/s': replaying that objective, maximised" <<<"$out" \
    && ok "a cache tuned for another objective replays it, saying so" \
    || bad "a cache tuned for another objective replays it, saying so" "$out"
rm -f gflops.jsonl
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {"1": {"a": 1, "time": [1.0]}}}' > wrongtype.json
expect_fail "wrong type names the JSON path" "wrongtype.json.*time" wrongtype.json
expect_fail "empty space after restrictions" "no valid|empty" --restrict "a > 100" bowl.json.gz
expect_fail "unknown parameter in a restriction" "unknown.*zz" --restrict "zz > 1" bowl.json.gz
expect_fail "division by zero in a restriction" "zero" --restrict "a / (c - c) > 1" bowl.json.gz
# Kernel Tuner's (Python) restriction syntax: 2 a x 5 b x 4 c
out=$("$exe" space --restrict "a in [1, 2] and not c > 3" --restrict "4 <= b <= 64" bowl.json.gz 2>&1)
grep -q "valid configurations: 40$" <<<"$out" && ok "Python-style restrictions (and, not, in [...], a chain)" \
    || bad "Python-style restrictions (and, not, in [...], a chain)" "$out"
expect_fail "a chain mixing == and < is refused at its column" "column 7: '==' and '!=' do not chain" \
    --restrict "a < b == c" bowl.json.gz
expect_fail "floor division by zero in a restriction" "division by zero at column 3 in 'a // \(c - c\)" \
    --restrict "a // (c - c) > 1" bowl.json.gz

# A run: summary, exports, and the same seed twice gives byte-identical journals.
if "$exe" --searcher=random --seed=7 --budget=40 --journal=r1.jsonl --output=s.json \
        --csv=r.csv --kt-cache=kt.json --header=best.h bowl.json.gz >run1.txt 2>&1; then
    ok "random run on a recording"
else
    bad "random run on a recording" "$(cat run1.txt)"
fi
grep -q '"kind":"header"' r1.jsonl && [ "$(grep -c '"kind":"eval"' r1.jsonl)" -eq 40 ] \
    && ok "journal: header + 40 eval lines" || bad "journal: header + 40 eval lines" "$(head -3 r1.jsonl)"
python3 - s.json <<'PY' && ok "summary JSON fields" || bad "summary JSON fields"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["evaluations"] == 40 and s["best"]["time_ms"] > 0 and set(s["best"]["config"]) == {"a", "b", "c"}
PY
[ "$(wc -l <r.csv)" -eq 41 ] && ok "CSV has a row per evaluation" || bad "CSV rows" "$(head -2 r.csv)"
grep -q '#define a ' best.h && ok "C header of #defines" || bad "C header" "$(cat best.h)"
"$exe" --searcher=random --seed=7 --budget=40 --journal=r2.jsonl bowl.json.gz >/dev/null 2>&1
cmp -s r1.jsonl r2.jsonl && ok "same seed => byte-identical journal" || bad "same seed => byte-identical journal"
"$exe" --searcher=random --seed=8 --budget=40 --journal=r3.jsonl bowl.json.gz >/dev/null 2>&1
cmp -s r1.jsonl r3.jsonl && bad "another seed gives another journal" || ok "another seed gives another journal"
# The exported Kernel Tuner cache replays as a recording, answering the same times.
"$exe" --searcher=grid --budget=40 --journal=kt.jsonl kt.json >kt.txt 2>&1 \
    && grep -q "evaluations: 40" kt.txt && ok "exported KT cache replays" || bad "exported KT cache replays" "$(cat kt.txt)"

# A journal is a recording too: replaying a run's own journal finds the same best.
best1=$(grep '^best:' run1.txt)
"$exe" --searcher=grid --budget=40 --journal=jj.jsonl r1.jsonl >jj.txt 2>&1
[ "$(grep '^best:' jj.txt)" = "$best1" ] && ok "journal replays as a recording" || bad "journal replays as a recording" "$(cat jj.txt)"

# Crash and resume: cut a journal after 15 evaluations plus half a line (as a
# SIGKILL mid-write leaves it); resuming ends byte-identical to the whole run.
head -16 r1.jsonl > cut.jsonl
sed -n 17p r1.jsonl | head -c 30 >> cut.jsonl
if "$exe" --resume=cut.jsonl bowl.json.gz >res.txt 2>&1 && cmp -s cut.jsonl r1.jsonl; then
    ok "truncated journal resumed == uninterrupted run"
else
    bad "truncated journal resumed == uninterrupted run" "$(cat res.txt; diff <(cut -c1-120 cut.jsonl) <(cut -c1-120 r1.jsonl) | head)"
fi
grep -q "cut.jsonl: its last line ends without a newline (cut off mid-write): it is dropped" res.txt \
    && ok "... and the dropped line is said" || bad "... and the dropped line is said" "$(cat res.txt)"

# A real SIGKILL in the middle of a long run (every line is fsync'd).
"$exe" --searcher=random --seed=3 --budget=3000 --no-progress --journal=full.jsonl bowl.json.gz >/dev/null 2>&1
"$exe" --searcher=random --seed=3 --budget=3000 --no-progress --journal=k.jsonl bowl.json.gz >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    [ -f k.jsonl ] && [ "$(wc -l <k.jsonl)" -gt 100 ] && break
    sleep 0.01
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
lines=$(wc -l <k.jsonl)
"$exe" --resume=k.jsonl --no-progress bowl.json.gz >/dev/null 2>&1
if cmp -s k.jsonl full.jsonl; then ok "SIGKILL after $lines lines, resumed: nothing lost or repeated"
else bad "SIGKILL after $lines lines, resumed: nothing lost or repeated" "$(wc -l k.jsonl full.jsonl)"; fi

# SIGINT stops cleanly: exit 130, summary printed, journal whole.
"$exe" --searcher=random --seed=4 --budget=3000 --no-progress --journal=int.jsonl bowl.json.gz >int.txt 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    [ -f int.jsonl ] && [ "$(wc -l <int.jsonl)" -gt 50 ] && break
    sleep 0.01
done
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && grep -q "stopped: signal" int.txt && python3 -c "
import json,sys
[json.loads(l) for l in open('int.jsonl')]" ; then ok "SIGINT: exit 130, summary, whole journal"
elif [ $rc -eq 0 ]; then ok "SIGINT: run ended before the signal (nothing to check)"
else bad "SIGINT: exit $rc" "$(cat int.txt)"; fi

# Resume refuses a journal from another space.
"$exe" --searcher=random --budget=5 --journal=small.jsonl small.json >/dev/null 2>&1
expect_fail "resume with a journal of another space" "space differs from this run's" --resume=small.jsonl bowl.json.gz

# The space mode (--cartesian) is part of the run: resume restores it, and refuses the other
# one (a journal resumed in the other mode once went on with the other space's ids).
python3 -c "
import json
d = json.load(open('small.json'))
for k in sorted(d['cache'])[::3]:
    del d['cache'][k]
json.dump(d, open('partial.json', 'w'))"
"$exe" --searcher=random --seed=4 --cartesian --budget=20 --journal=pc.jsonl --no-progress partial.json >/dev/null 2>&1
head -n 8 pc.jsonl >pcc.jsonl
"$exe" --resume=pcc.jsonl --no-progress partial.json >/dev/null 2>&1 && cmp -s pc.jsonl pcc.jsonl \
    && ok "resume restores --cartesian" || bad "resume restores --cartesian" "$(wc -l pc.jsonl pcc.jsonl)"
"$exe" --searcher=random --seed=4 --budget=10 --journal=pn.jsonl --no-progress partial.json >/dev/null 2>&1
head -n 5 pn.jsonl >pnc.jsonl
expect_fail "resume with --cartesian of a constraint-aware run" "started without --cartesian" --resume=pnc.jsonl --cartesian partial.json
[ "$(wc -l <pnc.jsonl)" -eq 5 ] && ok "refused --cartesian resume left the journal alone" || bad "refused --cartesian resume left the journal alone"
# A run started with --searcher=NAME: (empty arguments) resumes with NAME: or NAME.
"$exe" --searcher=random: --seed=3 --budget=20 --journal=sc.jsonl --no-progress partial.json >/dev/null 2>&1
head -n 6 sc.jsonl >sc1.jsonl && head -n 6 sc.jsonl >sc2.jsonl
"$exe" --resume=sc1.jsonl --searcher=random: --no-progress partial.json >/dev/null 2>&1 && cmp -s sc.jsonl sc1.jsonl \
    && "$exe" --resume=sc2.jsonl --searcher=random --no-progress partial.json >/dev/null 2>&1 && cmp -s sc.jsonl sc2.jsonl \
    && ok "resume of a NAME: run with NAME: or NAME" || bad "resume of a NAME: run with NAME: or NAME"
gzip -c pnc.jsonl >pnc.jsonl.gz
expect_fail "resume of a gzipped journal" "gzip-compressed journal cannot be appended" --resume=pnc.jsonl.gz partial.json
sed '1s/"budget":10,/"budget":-5,/' pnc.jsonl >pneg.jsonl
expect_fail "journal header with a negative budget" "pneg.jsonl:1: header.budget: -5 is not a count" --resume=pneg.jsonl partial.json

# Resume keeps the searcher's arguments, and refuses to change the run.
"$exe" --searcher=genetic:pop=10,mut=0.9 --seed=3 --budget=60 --journal=g.jsonl bowl.json.gz >/dev/null 2>&1
head -31 g.jsonl > gc.jsonl
"$exe" --resume=gc.jsonl bowl.json.gz >/dev/null 2>&1
cmp -s g.jsonl gc.jsonl && ok "resume keeps searcher arguments" || bad "resume keeps searcher arguments"
head -11 r1.jsonl > rb.jsonl
expect_fail "resume with a smaller budget" "budget=30 is below the journal's budget 40" --resume=rb.jsonl --budget=30 bowl.json.gz
[ "$(wc -l <rb.jsonl)" -eq 11 ] && ok "refused resume left the journal alone" || bad "refused resume left the journal alone"
head -11 r1.jsonl > rd.jsonl # --evaluator=replay names the default file: accepted
"$exe" --resume=rd.jsonl --evaluator=replay --no-progress bowl.json.gz >/dev/null 2>&1 && cmp -s rd.jsonl r1.jsonl \
    && ok "resume with --evaluator=replay (its default file)" || bad "resume with --evaluator=replay (its default file)"
mkdir -p elsewhere && head -11 r1.jsonl > elsewhere/re.jsonl
(cd elsewhere && "$exe" --resume=re.jsonl --no-progress ../bowl.json.gz >/dev/null 2>&1) && cmp -s elsewhere/re.jsonl r1.jsonl \
    && ok "resume from another directory" || bad "resume from another directory"
out=$("$exe" --resume=rb.jsonl --evaluator=replay:small.json bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "differs from the journal's evaluator" <<<"$out" \
    && ok "resume with another recording: refused" || bad "resume with another recording: refused" "$out"
[ "$(wc -l <rb.jsonl)" -eq 11 ] && ok "resume refused for another recording" || bad "resume refused for another recording"

# A kernel spec: outputs may not overwrite its source; --size values are decimal.
mkdir -p k data
cp "$here/../../kernels/vector_add.json" "$here/../../kernels/vector_add.cu" k/
cp "$here/../../data/vector_add.jsonl.gz" data/
expect_fail "header onto the kernel's source" "being tuned" --header=k/vector_add.cu k/vector_add.json
cmp -s k/vector_add.cu "$here/../../kernels/vector_add.cu" && ok "kernel source left alone" || bad "kernel source left alone"
# A spec metric that cannot be computed at some configurations (a division by zero) is
# left out of those lines, and the run says so once.
sed 's|"GB/s": "3.0 \* N \* 4 / time_s / 1e9"|"GB/s": "3.0 * N * 4 / time_s / 1e9", "odd": "1 / (block_size_x - 64)"|' k/vector_add.json >k/va_metric.json
out=$("$exe" --searcher=grid --budget=66 --journal=vm.jsonl --no-progress --evaluator=replay:data/vector_add.jsonl.gz k/va_metric.json 2>&1 >/dev/null)
[ "$(grep -c 'warning: .*metrics.odd' <<<"$out")" -eq 1 ] && grep -q '"odd"' vm.jsonl \
    && ok "a metric that fails somewhere is said once" || bad "a metric that fails somewhere is said once" "$out"
"$exe" space --size N=010 k/vector_add.json | grep -q "N = 10$" && ok "--size N=010 is ten" \
    || bad "--size N=010 is ten" "$("$exe" space --size N=010 k/vector_add.json 2>&1)"

# An existing journal is never truncated by a new run.
cp r1.jsonl keep.jsonl
out=$("$exe" --searcher=grid --budget=3 --journal=keep.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "exists; --resume=keep.jsonl continues" <<<"$out" && cmp -s keep.jsonl r1.jsonl \
    && ok "a new run onto an existing journal is refused" || bad "a new run onto an existing journal is refused" "$out"

# Outputs are checked before anything runs; the input is never overwritten.
cp r1.jsonl in.jsonl
out=$("$exe" --searcher=grid --budget=3 --journal=in.jsonl in.jsonl 2>&1 >/dev/null)
[ $? -eq 2 ] && cmp -s in.jsonl r1.jsonl && ok "journal onto the replayed file is refused" \
    || bad "journal onto the replayed file is refused" "$out"
expect_fail "export into a missing folder" "nodir" --csv=nodir/x.csv bowl.json.gz
expect_fail "an empty export path" "--csv=: empty path" --csv= bowl.json.gz
mkdir -p fresh && (cd fresh && "$exe" --csv=nodir/x.csv ../bowl.json.gz >/dev/null 2>&1; [ $? -eq 2 ] && [ ! -e runs ]) \
    && ok "refused run leaves no runs/ behind" || bad "refused run leaves no runs/ behind" "$(ls -R fresh)"
mkdir -p adir
expect_fail "a directory as the target" "is a directory" adir

# A kernel replayed from its H200 recording: the first line says so; another
# problem size is refused (a recording answers only for its sizes).
if { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'libcuda.so.1'; then
    echo "ok - # SKIP no-GPU replay default: a CUDA driver is installed here"
else
    out=$("$exe" --searcher=random --budget=5 --journal=k5.jsonl gemm 2>&1)
    [ $? -eq 0 ] && head -1 <<<"$out" | grep -q "no GPU here: replaying" && ok "no GPU: kernel replays its recording, said first" \
        || bad "no GPU: kernel replays its recording, said first" "$out"
    expect_fail "replay at another size" "measured at M=4096, this run has M=1000" --size M=1000 gemm
    # a spec whose "recording" is not there: the message names it, not "has no recording"
    sed 's|"recording": "[^"]*"|"recording": "gone.jsonl.gz"|' "$here/../../kernels/vector_add.json" >norec.json
    cp "$here/../../kernels/vector_add.cu" .
    expect_fail "no GPU, the spec's recording missing: named" \
        "norec.json:29: recording: no CUDA GPU found, and the recording it names cannot be read: .*gone.jsonl.gz: No such file" \
        ./norec.json
    q=$("$exe" -q --searcher=random --budget=5 --journal=q.jsonl gemm 2>/dev/null)
    [ "$(wc -l <<<"$q")" -eq 1 ] && grep -q "^BM=" <<<"$q" && ok "-q: stdout is the configuration alone" \
        || bad "-q: stdout is the configuration alone" "$q"
fi

# Cartesian space of a recording and a time limit on recorded (simulated) time.
"$exe" space --cartesian bowl.json.gz | grep -q "valid configurations: 4000" \
    && ok "space --cartesian" || bad "space --cartesian" "$("$exe" space --cartesian bowl.json.gz 2>&1)"
out=$("$exe" space --cartesian vector_add 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "cartesian applies to recordings" <<<"$out" && ok "space --cartesian of a spec refused" \
    || bad "space --cartesian of a spec refused" "$out"
"$exe" --searcher=random --budget=100 --time-limit=3 --journal=tl.jsonl bowl.json.gz >tl.txt 2>&1
# each evaluation costs 0.6 s of recorded compile + benchmark time
n=$(grep -c '"kind":"eval"' tl.jsonl)
[ "$n" -eq 5 ] && grep -q "stopped: time_limit" tl.txt && ok "time limit charges recorded time ($n evals)" \
    || bad "time limit charges recorded time ($n evals)" "$(cat tl.txt)"
# a recording without compile/benchmark times: the limit falls back to wall time (it
# used to charge nothing and never stop)
python3 - <<'PY'
import gzip, json
d = json.load(gzip.open("bowl.json.gz"))
for e in d["cache"].values():
    e.pop("compile_time", None); e.pop("benchmark_time", None)
open("notimes.json", "w").write(json.dumps(d))
PY
"$exe" --searcher=random --budget=4000 --time-limit=0.000001 --journal=tw.jsonl notimes.json >tw.txt 2>&1
n=$(grep -c '"kind":"eval"' tw.jsonl)
[ "$n" -lt 4000 ] && grep -q "stopped: time_limit" tw.txt && ok "time limit without recorded times: wall time ($n evals)" \
    || bad "time limit without recorded times: wall time ($n evals)" "$(cat tw.txt)"

# Two outputs to one file: refused before the run (the later export would clobber the
# other, e.g. the journal of a resumed run).
expect_fail "two outputs to one file" "--csv=out.json: is also the output file" --csv=out.json bowl.json.gz
head -11 r1.jsonl > ro.jsonl
out=$("$exe" --resume=ro.jsonl --output=ro.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "is also the journal file" <<<"$out" && [ "$(wc -l <ro.jsonl)" -eq 11 ] \
    && ok "summary onto the resumed journal: refused, journal kept" || bad "summary onto the resumed journal: refused, journal kept" "$out"

# The batch size shapes what the searcher proposes: the journal keeps it, resume restores it.
"$exe" --searcher=bo --seed=5 --batch=4 --budget=40 --journal=bt.jsonl bowl.json.gz >/dev/null 2>&1
grep -q '"batch":4' bt.jsonl && ok "journal header records the batch" || bad "journal header records the batch" "$(head -c 300 bt.jsonl)"
head -22 bt.jsonl > btc.jsonl
"$exe" --resume=btc.jsonl --no-progress bowl.json.gz >/dev/null 2>&1
cmp -s bt.jsonl btc.jsonl && ok "resume continues with the journal's batch" || bad "resume continues with the journal's batch" "$(wc -l bt.jsonl btc.jsonl)"
head -22 bt.jsonl > btd.jsonl
expect_fail "resume with another batch" "batch=2 differs from the journal's batch 4" --resume=btd.jsonl --batch=2 bowl.json.gz

# Seeds: decimal, and only those the generator (32-bit, 0 = 4357) keeps apart.
expect_fail "seed 0 aliases 4357" "--seed=0: must be 1..4294967295" --seed=0 bowl.json.gz
expect_fail "seed above 32 bits" "--seed=4294967297: must be 1..4294967295" --seed=4294967297 bowl.json.gz
# seconds are decimal: strtod's inf (no limit), hex and nan were taken silently
expect_fail "time limit inf" "--time-limit=inf: not a decimal number" --time-limit=inf bowl.json.gz
expect_fail "time limit hex" "--time-limit=0x10: not a decimal number" --time-limit=0x10 bowl.json.gz
expect_fail "rank timeout 1e400" "--rank-timeout=1e400: out of range" --rank-timeout=1e400 bowl.json.gz
"$exe" --searcher=random --seed=010 --budget=3 --journal=s10.jsonl bowl.json.gz >/dev/null 2>&1
grep -q '"seed":10,' s10.jsonl && ok "--seed=010 is ten" || bad "--seed=010 is ten" "$(head -c 300 s10.jsonl)"

# Resume with another recording file as the target (same space: the hashes agree).
cp bowl.json.gz bowl2.json.gz
head -11 r1.jsonl > rr.jsonl
out=$("$exe" --resume=rr.jsonl bowl2.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "the run was started on .*bowl.json.gz, not bowl2.json.gz" <<<"$out" && [ "$(wc -l <rr.jsonl)" -eq 11 ] \
    && ok "resume with another recording as the target: refused" || bad "resume with another recording as the target: refused" "$out"

# A recorded time of 0 or less is no measurement: refused at load, named.
python3 - <<'PY'
import gzip, json
d = json.load(gzip.open("bowl.json.gz"))
k = next(iter(d["cache"]))
d["cache"][k]["time"] = -5
open("negtime.json", "w").write(json.dumps(d))
PY
expect_fail "negative recorded time" "negtime.json.*time: -5 is not a time" negtime.json

# bench: budgets are positive decimal counts; --out is checked before the benchmark runs.
out=$("$exe" bench --seeds=1 --budgets=-5 --no-plots bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "'-5' is not a list of positive integers" <<<"$out" && ok "bench --budgets=-5 refused" \
    || bad "bench --budgets=-5 refused" "$out"
out=$("$exe" bench --seeds=1 --budgets=5 --out=/proc/nope/x --no-plots bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: --out=/proc/nope/x" <<<"$out" && ! grep -q "searcher(s)" <<<"$out" \
    && ok "bench: a bad --out is refused before the run" || bad "bench: a bad --out is refused before the run" "$out"

# Searcher arguments: a key given twice or an empty item is refused, not "last wins".
expect_fail "searcher option given twice" "option 'xi' given twice" --searcher=bo:xi=1,xi=2 bowl.json.gz
expect_fail "empty searcher option" "an empty option" --searcher=bo:xi=1,, bowl.json.gz
"$exe" help nosuch >/dev/null 2>&1; [ $? -eq 2 ] && ok "help for an unknown command: exit 2" || bad "help for an unknown command: exit 2"
wh=$("$exe" worker --help 2>/dev/null); [ $? -eq 0 ] && grep -q "usage: cutune worker" <<<"$wh" && ok "worker --help on stdout, exit 0" || bad "worker --help on stdout, exit 0" "$wh"
# A Kernel Tuner cache's time is its own statistic (the mean of its runs), not a median.
"$exe" --searcher=random --budget=5 --journal=kt5.jsonl bowl.json.gz | grep -q "^time: .* (as recorded, 3 runs; evaluation" \
    && ok "summary: a KT cache's time is 'as recorded'" || bad "summary: a KT cache's time is 'as recorded'" "$("$exe" --searcher=random --budget=5 --journal=kt6.jsonl bowl.json.gz)"

# Errors name what they are about: the option, the file.
expect_fail "empty restriction" "^cutune: --restrict: empty expression" --restrict " " bowl.json.gz
printf '{"device_name": "x", "tune_params_keys": ["a"], "cache": {}}' > noparams.json
expect_fail "a KT cache without tune_params is read as one" "noparams.json.*tune_params" noparams.json
printf '{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}, "cache": {}}' > emptycache.json
expect_fail "an empty cache names the file and says it is empty" "emptycache.json: the recording holds no configurations" emptycache.json

# Two spellings of one output file are one file too.
rm -f x.jsonl
out=$("$exe" --searcher=random --budget=3 --journal=x.jsonl --output=./x.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "is also the journal file" <<<"$out" && [ ! -e x.jsonl ] \
    && ok "--output=./J with --journal=J: refused" || bad "--output=./J with --journal=J: refused" "$out"
# A spec may name an argument "cache": it is still a spec, not a recording.
sed 's/"name": "n"/"name": "cache"/; s/"value": "N"}/"value": "N"}/' k/vector_add.json > k/va_cache.json
"$exe" space k/va_cache.json >vac.txt 2>&1 && grep -q "valid configurations" vac.txt \
    && ok "a spec with an argument named cache loads as a spec" || bad "a spec with an argument named cache loads as a spec" "$(cat vac.txt)"
# A run started on a journal (as the space) replaying a cache resumes on that journal;
# its summary says the time is as recorded (the cache's), not a median.
"$exe" --searcher=random --seed=4 --budget=12 --evaluator=replay:bowl.json.gz --journal=ja.jsonl r1.jsonl >ja.txt 2>&1
grep -q "^time: .*(as recorded, 3 runs;" ja.txt && ok "summary: 'as recorded' when the replayed file is a cache" \
    || bad "summary: 'as recorded' when the replayed file is a cache" "$(cat ja.txt)"
head -6 ja.jsonl > jac.jsonl
"$exe" --resume=jac.jsonl --no-progress r1.jsonl >/dev/null 2>&1 && cmp -s ja.jsonl jac.jsonl \
    && ok "resume of a run whose target is not the replayed file" || bad "resume of a run whose target is not the replayed file" "$(wc -l ja.jsonl jac.jsonl)"
"$exe" help help | grep -q "Commands:" && ok "help help" || bad "help help"
for h in --help -h; do
    hh=$("$exe" help $h 2>&1); [ $? -eq 0 ] && grep -q "^usage: cutune help \[COMMAND\]" <<<"$hh" \
        && ok "help $h: help's usage, exit 0" || bad "help $h: help's usage, exit 0" "$hh"
done
# bench: counts are decimal and non-negative; nothing is made before the arguments check out.
out=$("$exe" bench --seeds=' -1' --budgets=5 --no-plots bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "is not a non-negative integer" <<<"$out" && ok "bench --seeds=' -1' refused" || bad "bench --seeds=' -1' refused" "$out"
# bench counts out of range: refused naming the option, never wrapped (--jobs=4294967296
# was 0, every core) nor taken as another seed; nothing made
bench_refused() { # ARG PATTERN
    local o r
    o=$("$exe" bench --searchers=random --budgets=5 --no-plots --quiet --out=br_out "$1" bowl.json.gz 2>&1 >/dev/null)
    r=$?
    [ $r -eq 2 ] && [ "$(wc -l <<<"$o")" -eq 1 ] && grep -qE -- "$2" <<<"$o" && [ ! -e br_out ] \
        && ok "bench $1 refused" || bad "bench $1 refused: exit $r" "$o"
}
bench_refused --jobs=0 "^cutune bench: --jobs=0: must be 1..1024"
bench_refused --jobs=4294967296 "^cutune bench: --jobs=4294967296: must be 1..1024"
bench_refused --seeds=4294967296 "^cutune bench: --seeds=4294967296: must be 1..4294967295"
bench_refused --budgets=5, "^cutune bench: --budgets: '5,' is not a list of positive integers"
# header --budget: the parser's reason (it said "must be at least 1" of 'abc' too)
for v in "abc|not an integer" "99999999999999999999|out of range" "0|must be at least 1"; do
    o=$("$exe" header -o hb.h --budget="${v%%|*}" bowl.json.gz 2>&1 >/dev/null)
    r=$?
    [ $r -eq 2 ] && [[ "$o" == "cutune header: --budget=${v%%|*}: ${v#*|}"* ]] && [ ! -e hb.h ] \
        && ok "header --budget=${v%%|*} refused: ${v#*|}" || bad "header --budget=${v%%|*}: exit $r" "$o"
done
out=$("$exe" bench --searchers=nosuch --seeds=1 --budgets=5 --no-plots --out=bo_out bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && [ ! -e bo_out ] && ok "bench: a bad searcher leaves no --out folder" || bad "bench: a bad searcher leaves no --out folder" "$out"
out=$("$exe" bench --searcher=bo:xi=1,xi=2 --seeds=1 --budgets=5 --no-plots --out=bo_out bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: --searcher=bo:xi=1,xi=2: option 'xi' given twice" <<<"$out" && [ ! -e bo_out ] \
    && ok "bench: a repeated searcher key is refused up front" || bad "bench: a repeated searcher key is refused up front" "$out"
out=$("$exe" bench --searcher=bo:foo=1 --seeds=1 --budgets=5 --no-plots --out=bo_out bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: bo: unknown option 'foo'" <<<"$out" && ! grep -q "seeds," <<<"$out" && [ ! -e bo_out ] \
    && ok "bench: an unknown searcher option is refused before the run" || bad "bench: an unknown searcher option is refused before the run" "$out"
mkdir -p jdir && cp r1.jsonl jdir/
"$exe" bench --searchers=random --seeds=2 --budgets=5 --no-plots --quiet --out=jd_out jdir >/dev/null 2>&1 && grep -q "r1" jd_out/results.md \
    && ok "bench: a folder's journals are recordings too" || bad "bench: a folder's journals are recordings too"

# bench: two recordings of one file name would be taken for each other in every table,
# plot and --reproduce: refused, no --out folder left
mkdir -p twin_a twin_b && cp bowl.json.gz twin_a/ && cp small.json twin_b/bowl.json
out=$("$exe" bench --searchers=random --seeds=2 --budgets=5 --no-plots --quiet --out=tw_out twin_a/bowl.json.gz twin_b/bowl.json 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "twin_a/bowl.json.gz and twin_b/bowl.json are both named bowl" <<<"$out" && [ ! -e tw_out ] \
    && ok "bench: two recordings of one name refused" || bad "bench: two recordings of one name refused" "$out"
# one seed: no standard error, so no cell is called above random; the command is quoted
"$exe" bench --searchers=random,bo --seeds=1 --budgets=5 --no-plots --quiet --restrict='a * c >= 0' \
    --out one_out --jobs 1 bowl.json.gz >/dev/null 2>&1
grep -q ",bo,.*,inf$" one_out/vs-random.csv && ! grep -q ",0.0000$" one_out/vs-random.csv \
    && ok "bench --seeds=1: every judged cell listed, its SE unknown (inf)" \
    || bad "bench --seeds=1: every judged cell listed, its SE unknown" "$(cat one_out/vs-random.csv)"
grep -qF "Command: \`cutune bench --searchers=random,bo --seeds=1 --budgets=5 '--restrict=a * c >= 0' bowl.json.gz\`" one_out/results.md \
    && ok "bench: results.md quotes the command as a shell reads it" || bad "bench: results.md quotes the command" "$(grep Command one_out/results.md)"

# resume takes the searcher's options in another order or spelling, the same once resolved
"$exe" --searcher=genetic:pop=8,cx=0.5 --budget=20 --no-progress --journal=ga.jsonl bowl.json.gz >/dev/null 2>&1
head -6 ga.jsonl >ga2.jsonl
"$exe" --searcher=genetic:cx=0.50,pop=8 --no-progress --resume=ga2.jsonl bowl.json.gz >ga.txt 2>&1 && cmp -s ga.jsonl ga2.jsonl \
    && ok "resume: genetic:cx=0.50,pop=8 is genetic:pop=8,cx=0.5" || bad "resume: searcher options as resolved" "$(cat ga.txt)"
head -6 ga.jsonl >ga3.jsonl
out=$("$exe" --searcher=genetic:cx=0.6,pop=8 --no-progress --resume=ga3.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "differs from the journal's searcher genetic:pop=8,cx=0.5" <<<"$out" \
    && ok "resume: other searcher options refused" || bad "resume: other searcher options refused" "$out"

# a later bench into the same folder leaves no plot of the earlier one
"$exe" bench --searchers=random --seeds=2 --budgets=5 --no-plots --quiet --convention=cartesian --out=one_out small.json >/dev/null 2>&1
[ "$(ls one_out/plots | sed 's/\..*//' | sort -u)" = "cartesian_small" ] \
    && ok "bench: the plots folder holds this run's plots only" || bad "bench: the plots folder holds this run's plots only" "$(ls one_out/plots)"

# a bench mode refuses what it does not read: --reproduce reruns the results' own
# experiment, --objectives compares fronts over every configuration
out=$("$exe" bench --reproduce=one_out/results.json --seeds=9 --out=rp_out 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: --seeds does not apply with --reproduce" <<<"$out" && [ ! -e rp_out ] \
    && ok "bench --reproduce --seeds refused" || bad "bench --reproduce --seeds refused" "$out"
out=$("$exe" bench --reproduce=one_out/results.json --out=rp_out bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: --reproduce: bowl.json.gz: the recordings are the results' own" <<<"$out" \
    && ok "bench --reproduce with a recording refused" || bad "bench --reproduce with a recording refused" "$out"
out=$("$exe" bench --objectives=time,energy --convention=cartesian --out=mo_out bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "^cutune bench: --convention does not apply with --objectives" <<<"$out" && [ ! -e mo_out ] \
    && ok "bench --objectives --convention refused" || bad "bench --objectives --convention refused" "$out"

# bench --per-seed: every run's best at every budget; their means are results.csv's, and
# seed s at budget B is the CLI's --seed=s --budget=B run (bo's plan is its design size,
# 5 points at each of these budgets, so 20 and 60 are read off the run of 200; genetic
# sizes its population by the budget: 6 at 20, 14 at 200).
"$exe" bench --searchers=random,bo,genetic --budgets=5,20,60,200 --seeds=3 --convention=constraint-aware \
    --no-plots --per-seed --quiet --out=ps bowl.json.gz >/dev/null 2>&1
for sb in bo:20 bo:60 bo:200 genetic:20 genetic:60 genetic:200; do
    "$exe" --searcher=${sb%%:*} --seed=2 --budget=${sb##*:} --journal=ps2-${sb%%:*}-${sb##*:}.jsonl bowl.json.gz >/dev/null 2>&1
done
python3 - <<'PY' && ok "bench --per-seed: runs.csv agrees with results.csv and the CLI" || bad "bench --per-seed: runs.csv agrees with results.csv and the CLI"
import csv, json, collections
runs = list(csv.DictReader(open("ps/runs.csv")))
assert len(runs) == 3 * 3 * 4, len(runs)
agg = collections.defaultdict(list)
for r in runs:
    agg[(r["searcher"], r["budget"])].append(float(r["fraction"]))
for r in csv.DictReader(open("ps/results.csv")):
    v = agg[(r["searcher"], r["budget"])]
    assert abs(sum(v) / len(v) - float(r["mean"])) < 1e-4, (r["searcher"], r["budget"])
for s, b in (("bo", 20), ("bo", 60), ("bo", 200), ("genetic", 20), ("genetic", 60), ("genetic", 200)):
    best = min(json.loads(l)["time_ms"] for l in open(f"ps2-{s}-{b}.jsonl") if '"status":"ok"' in l)
    row = [r for r in runs if r["searcher"] == s and r["seed"] == "2" and r["budget"] == str(b)][0]
    assert abs(float(row["best_ms"]) - best) <= 1e-5 * best, (row, best)
PY

# -q with nothing correct: stdout empty (scripts read it as the configuration), the
# message on stderr.
python3 - <<'PY'
import json
d = json.load(open("small.json"))
for e in d["cache"].values():
    e["time"] = "RuntimeFailedConfig"
open("allfail.json", "w").write(json.dumps(d))
PY
qo=$("$exe" -q --searcher=random --budget=5 --journal=qf.jsonl --output=qf.json allfail.json 2>qe.txt)
qrc=$?
[ -z "$qo" ] && grep -q "no correct configuration found in 5 evaluations" qe.txt \
    && ok "-q, nothing correct: empty stdout, message on stderr" || bad "-q, nothing correct: empty stdout, message on stderr" "$qo / $(cat qe.txt)"
# ... and the exit status says the run found nothing (1), with the outputs still written
[ "$qrc" = 1 ] && [ "$(wc -l <qf.jsonl)" = 6 ] && python3 -c 'import json,sys; sys.exit(json.load(open("qf.json"))["best"] is not None)' \
    && ok "nothing correct: exit 1, journal and summary written" || bad "nothing correct: exit 1, journal and summary written" "rc $qrc"

# bench CSVs stay parseable with a searcher label that holds commas; a later run without
# --per-seed removes the stale runs.csv.
"$exe" bench --searcher=genetic:pop=4,mut=0.2 --budgets=5 --seeds=2 --convention=constraint-aware \
    --no-plots --per-seed --quiet --out=psg bowl.json.gz >/dev/null 2>&1
python3 - <<'PY' && ok "bench CSVs: a label with commas is one field" || bad "bench CSVs: a label with commas is one field"
import csv
for fn, width in (("psg/runs.csv", 8), ("psg/results.csv", 20)):
    rows = list(csv.reader(open(fn)))
    assert all(len(r) == width for r in rows), fn
    assert rows[1][rows[0].index("searcher")] == "genetic:pop=4,mut=0.2", rows[1]
PY
"$exe" bench --searcher=genetic:pop=4,mut=0.2 --budgets=5 --seeds=2 --convention=constraint-aware \
    --no-plots --quiet --out=psg bowl.json.gz >/dev/null 2>&1
[ ! -e psg/runs.csv ] && ok "bench without --per-seed removes a stale runs.csv" || bad "bench without --per-seed removes a stale runs.csv"

# Hardening (docs/hardening.md), each test written as the attack it stops.
# A link planted at an output's path: refused before the run, the file it points to unchanged.
printf 'precious\n' > victim.txt
ln -sf victim.txt planted.json
expect_fail "a link at the output path is refused" "--csv=planted.json: is a symbolic link" --csv=planted.json bowl.json.gz
[ "$(cat victim.txt)" = precious ] && [ -L planted.json ] && ok "the link's target is unchanged" || bad "the link's target is unchanged" "$(cat victim.txt)"
# ... and at the journal's path (a new run, and a resume)
ln -sf victim.txt planted.jsonl
out=$("$exe" --searcher=random --budget=3 --journal=planted.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "planted.jsonl: is a symbolic link" <<<"$out" && [ "$(cat victim.txt)" = precious ] \
    && ok "a link at the journal path is refused" || bad "a link at the journal path is refused" "$out"
head -11 r1.jsonl > linked_target.jsonl && ln -sf linked_target.jsonl planted2.jsonl
out=$("$exe" --resume=planted2.jsonl bowl.json.gz 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "is a symbolic link" <<<"$out" && [ "$(wc -l <linked_target.jsonl)" -eq 11 ] \
    && ok "a resume through a link is refused" || bad "a resume through a link is refused" "$out"
# A link planted at the old temporary name FILE.tmp: never written through.
ln -sf victim.txt sum.json.tmp
"$exe" --searcher=random --budget=5 --journal=tl1.jsonl --output=sum.json bowl.json.gz >/dev/null 2>&1
[ "$(cat victim.txt)" = precious ] && [ -L sum.json.tmp ] && python3 -c 'import json; json.load(open("sum.json"))' \
    && ok "a link at FILE.tmp is not written through" || bad "a link at FILE.tmp is not written through" "$(cat victim.txt)"
# A file of the user's named FILE.tmp survives the export of FILE.
printf 'mine\n' > rows.csv.tmp
"$exe" --searcher=random --budget=5 --journal=tl2.jsonl --csv=rows.csv bowl.json.gz >/dev/null 2>&1
[ "$(cat rows.csv.tmp)" = mine ] && [ "$(wc -l <rows.csv)" -eq 6 ] && [ -z "$(ls -A | grep '^\.')" ] \
    && ok "a pre-existing FILE.tmp survives; no temporary is left" || bad "a pre-existing FILE.tmp survives; no temporary is left" "$(ls -A)"
# --journal=X.tmp --output=X once wrote the summary to X.tmp and renamed it onto X: the
# journal was gone. Now harmless: both files whole.
rm -f X X.tmp
"$exe" --searcher=random --budget=7 --journal=X.tmp --output=X bowl.json.gz >/dev/null 2>&1
[ "$(grep -c '"kind":"eval"' X.tmp)" -eq 7 ] && python3 -c 'import json; assert json.load(open("X"))["evaluations"] == 7' \
    && ok "--journal=X.tmp --output=X: journal intact, summary written" || bad "--journal=X.tmp --output=X: journal intact, summary written" "$(head -c 200 X.tmp)"
# An output onto the input recording under another spelling, or through a link to it.
cp bowl.json.gz bowl_keep.json.gz
mkdir -p sp && ln -sf ../bowl.json.gz sp/lnk.json.gz
expect_fail "output onto the recording as ./sp/../bowl.json.gz" "being tuned or replayed" --kt-cache=./sp/../bowl.json.gz bowl.json.gz
expect_fail "output onto the recording through a linked name" "being tuned or replayed" --csv=bowl.json.gz sp/lnk.json.gz
cmp -s bowl.json.gz bowl_keep.json.gz && ok "the recording is unchanged" || bad "the recording is unchanged"

# A hostile recording: string values that would put code into the C header.
python3 - <<'PY'
import json
vals = ["float", '"\n#include "/etc/passwd"\n', "1 */ int evil; /* 2"]
cache = {}
for i, v in enumerate(vals):
    cache[v] = {"T": v, "time": 3.0 - i, "times": [3.0 - i]}
json.dump({"device_name": "d", "kernel_name": "evil", "tune_params_keys": ["T"],
           "tune_params": {"T": vals}, "objective": "time", "cache": cache}, open("evil.json", "w"))
d = json.load(open("evil.json"))
d["kernel_name"] = "k */\n#include <x>"
json.dump(d, open("evilname.json", "w"))
PY
out=$("$exe" --searcher=grid --budget=3 --journal=ev.jsonl --output=ev.json --header=ev.h evil.json 2>&1 >/dev/null)
rc=$?
[ $rc -eq 1 ] && [ ! -e ev.h ] && grep -q 'ev.h: T = ".*" in the best configuration is not a C identifier or number' <<<"$out" \
    && [ "$(wc -l <<<"$out")" -eq 1 ] && [ -s ev.json ] \
    && ok "header export refuses a value that is not a token (summary still written)" || bad "header export refuses a value that is not a token (rc $rc)" "$out"
expect_fail "header export refuses a name that is not an identifier, before the run" "the header's name .* is not a C identifier" --header=en.h evilname.json
"$exe" --searcher=grid --budget=3 --journal=evc.jsonl --csv=ev.csv evil.json >/dev/null 2>&1
python3 - <<'PY' && ok "CSV: hostile values are one field each" || bad "CSV: hostile values are one field each"
import csv
rows = list(csv.reader(open("ev.csv")))
assert len(rows) == 4 and all(len(r) == len(rows[0]) for r in rows), rows
assert sorted(r[1] for r in rows[1:]) == sorted(["float", '"\n#include "/etc/passwd"\n', "1 */ int evil; /* 2"])
PY

# One writer per journal: a resume of a journal a run is writing is refused (exit 2, one
# line naming it) and writes nothing; the first run's journal is whole and its own.
rm -f lk.jsonl
"$exe" --searcher=random --seed=3 --budget=3000 --no-progress --journal=lk.jsonl bowl.json.gz >lk.txt 2>&1 &
pid=$!
for _ in $(seq 1 500); do
    [ -f lk.jsonl ] && [ "$(wc -l <lk.jsonl)" -gt 20 ] && break
    sleep 0.01
done
running=0; kill -0 $pid 2>/dev/null && running=1
out=$("$exe" --resume=lk.jsonl --no-progress bowl.json.gz 2>&1 >/dev/null)
rc=$?
kill -TERM $pid 2>/dev/null
wait $pid
if [ $running -eq 0 ]; then echo "ok - # SKIP journal in use: the first run ended before the second started"
elif [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "lk.jsonl: in use: another cutune run is writing this journal" <<<"$out" \
    && cmp -s lk.jsonl full.jsonl -n "$(wc -c <lk.jsonl)" 2>/dev/null && python3 -c "
import json
[json.loads(l) for l in open('lk.jsonl')]"; then ok "a second run on a journal in use: refused, exit 2, the first journal whole"
else bad "a second run on a journal in use: refused, exit 2, the first journal whole (rc $rc)" "$out"; fi
cmp -n "$(wc -c <lk.jsonl)" lk.jsonl full.jsonl && ok "the first run's journal is a prefix of the same run uninterrupted" \
    || bad "the first run's journal is a prefix of the same run uninterrupted"
# A journal whose evaluation numbers repeat (two runs' lines in one file) is refused.
head -6 r1.jsonl > dupn.jsonl && sed -n 2,4p r1.jsonl >> dupn.jsonl
expect_fail "a journal with a repeated n is refused on resume" "dupn.jsonl:7: n: evaluation 0 is also on line 2" --resume=dupn.jsonl bowl.json.gz
expect_fail "a journal with a repeated n is refused as a recording" "dupn.jsonl:7: n: evaluation 0 is also on line 2" dupn.jsonl

# SIGHUP (the terminal went away) stops like SIGTERM: exit 130, the journal whole, the
# summary printed and the exports written.
rm -f hup.jsonl hup.json hup.csv
"$exe" --searcher=random --seed=5 --budget=3000 --no-progress --journal=hup.jsonl --output=hup.json --csv=hup.csv bowl.json.gz >hup.txt 2>&1 &
pid=$!
for _ in $(seq 1 500); do
    [ -f hup.jsonl ] && [ "$(wc -l <hup.jsonl)" -gt 30 ] && break
    sleep 0.01
done
kill -HUP $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && grep -q "stopped: signal" hup.txt && python3 -c "
import json
lines = open('hup.jsonl').read()
assert lines.endswith('\n')
n = sum(json.loads(l)['kind'] == 'eval' for l in lines.splitlines())
s = json.load(open('hup.json'))
assert s['stop_reason'] == 'signal' and s['evaluations'] == n, (s, n)
assert len(open('hup.csv').read().splitlines()) == n + 1
"; then ok "SIGHUP: exit 130, whole journal, summary and exports"
elif [ $rc -eq 0 ]; then ok "SIGHUP: run ended before the signal (nothing to check)"
else bad "SIGHUP: exit $rc" "$(cat hup.txt)"; fi

# bench's gnuplot script: a recording's device and kernel names go only in single quotes
# (gnuplot runs `commands` in double-quoted strings).
if command -v gnuplot >/dev/null; then
    python3 - <<'PY'
import gzip, json
d = json.load(gzip.open("bowl.json.gz"))
d["device_name"] = 'GPU `touch PWNED` \' `touch PWNED2`'
d["kernel_name"] = 'k"\nsystem("touch PWNED3")\n'
json.dump(d, open("gp_evil.json", "w"))
PY
    "$exe" bench --searchers=random --seeds=1 --budgets=5 --quiet --out=gpo gp_evil.json >gp.txt 2>&1
    [ ! -e PWNED ] && [ ! -e gpo/PWNED ] && [ ! -e PWNED2 ] && [ ! -e gpo/PWNED2 ] && [ ! -e gpo/PWNED3 ] && [ ! -e PWNED3 ] \
        && ls gpo/plots/*.png >/dev/null 2>&1 \
        && ok "bench plots: a hostile device name runs nothing in gnuplot" || bad "bench plots: a hostile device name runs nothing in gnuplot" "$(cat gp.txt; ls gpo gpo/plots)"
else
    echo "ok - # SKIP bench plots injection: gnuplot not installed"
fi

# long options only as spelled out: getopt's prefixes would let one command's option answer
# for another's (bench --objective was --objectives), refused naming the option meant
for args in "tune --budg=3 bowl.json.gz" "bench --objective=energy,time --out=ab_out" "db list --d=x.db" "space --cart bowl.json.gz"; do
    out=$("$exe" $args 2>&1)
    rc=$?
    [ $rc -eq 2 ] && grep -q "^cutune ${args%% *}: option '--[a-z]*' is not spelled out: did you mean '--[a-z]*'?" <<<"$out" \
        && [ ! -e ab_out ] && [ ! -e x.db ] && ok "abbreviated option refused: $args" \
        || bad "abbreviated option refused: $args" "exit $rc: $(head -2 <<<"$out")"
done
# an option refused by getopt (unknown, its value missing, a value given to a flag): exit 2
# and one line naming it (and the command, where one is named), not the command's whole
# usage after it
for args in "tune --bogus bowl.json.gz|'--bogus'" "bowl.json.gz --budget|'--budget' needs a value" \
    "--no-db=1 bowl.json.gz|'--no-db' takes no value" "-qx bowl.json.gz|'-x'" \
    "bench --quiet=1|'--quiet' takes no value" "bench --seeds|'--seeds' needs a value" \
    "db list --bogus|'--bogus'" "db prune --failed=1|'--failed' takes no value" \
    "space --bogus bowl.json.gz|'--bogus'" "report --html|'--html' needs a value" \
    "best --bogus bowl.json.gz|'--bogus'" "profile --top|'--top' needs a value" \
    "header -o h.h --bogus bowl.json.gz|'--bogus'" \
    "--journal --csv=jx.csv bowl.json.gz|'--journal' needs a value: the next word, '--csv=jx.csv'" \
    "--budget --seed=2 bowl.json.gz|'--budget' needs a value"; do
    out=$("$exe" ${args%%|*} 2>&1 >/dev/null)
    rc=$?
    case ${args%% *} in
    tune | bench | db | space | report | best | profile | header) prefix="cutune ${args%% *}: " ;;
    *) prefix="cutune: " ;;
    esac
    [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -qF -- "${args#*|}" <<<"$out" \
        && [ "${out#"$prefix"}" != "$out" ] \
        && [ ! -e ./--csv=jx.csv ] && ok "refused option, one line: ${args%%|*}" \
        || bad "refused option, one line: ${args%%|*}" "exit $rc: $(head -3 <<<"$out")"
done
out=$("$exe" --budget 3 --no-progress --no-db --journal=ab.jsonl bowl.json.gz 2>&1) \
    && ok "an option spelled out, its value the next word" || bad "an option spelled out, its value the next word" "$out"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
