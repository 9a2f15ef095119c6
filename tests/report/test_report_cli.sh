#!/bin/bash
# `cutune report` and `cutune profile` as a user runs them: bad input (exit 2, one line
# naming the file, line and field, no page left behind), --text, folders of journals,
# the summary a tuning run prints; profile without ncu (exit 3), with counters refused
# (exit 4, the reason kept for the report) and with an ncu that answers in the CSV of
# tests/report/ncu_raw_sample.csv (a stand-in: this machine has no GPU).
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
root=${CUTUNE_SOURCE_ROOT:?CUTUNE_SOURCE_ROOT unset}
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# report_fail NAME PATTERN ARGS...: exit 2, one line matching PATTERN, no page written
report_fail() {
    local name=$1 pat=$2
    shift 2
    rm -f page.html
    local out rc
    out=$("$exe" report --html=page.html "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if ls -A | grep -q 'page\.html'; then
        bad "$name: left a file behind" "$(ls -A)"
        return
    fi
    ok "$name"
}

# a tuning run: the existing summary, then the best configurations and a sparkline
out=$(LANG=C.UTF-8 "$exe" --searcher=random --budget=25 --no-progress --journal=g.jsonl gemm 2>/dev/null)
if grep -q '^journal: g.jsonl$' <<<"$out" && grep -q '^best 5 of 25 correct:$' <<<"$out" &&
    grep -qE '^  1 +[0-9.]+ +[0-9]+ +[0-9]+' <<<"$out" &&
    grep -qE '^convergence \(best-so-far time, evaluations 1-25\): [▁▂▃▄▅▆▇█]{25} ' <<<"$out"; then
    ok "a run prints its best configurations and a sparkline"
else
    bad "a run's summary lacks the table or the sparkline" "$out"
fi
best=$(grep '^time:' <<<"$out" | awk '{print $2}')
first=$(grep -E '^  1 ' <<<"$out" | awk '{print $2}')
[ "$best" = "$first" ] && ok "the table's first row is the best ($best ms)" ||
    bad "the table's first row ($first) is not the best ($best)"
out=$(LANG=C "$exe" --searcher=random --budget=3 --no-progress --journal=g3.jsonl gemm 2>/dev/null)
grep -qE '^convergence .*: [_.=+*#@-]{3} ' <<<"$out" && ok "ASCII sparkline outside UTF-8" ||
    bad "no ASCII sparkline under LANG=C" "$out"
out=$("$exe" -q --searcher=random --budget=3 --no-progress --journal=q.jsonl gemm 2>/dev/null)
[ "$(wc -l <<<"$out")" -eq 1 ] && ok "-q prints the best configuration alone" ||
    bad "-q prints more than the configuration" "$out"

# report: usage and bad input
"$exe" report --help | grep -q '^usage: cutune report' && ok "report --help" || bad "report --help"
report_fail "no journal" "expected a JOURNAL"
report_fail "missing journal" "nope.jsonl: cannot open" nope.jsonl
printf '{"kind":"header","params":{"A":[1,2]}}\n{"kind":"eval","n":0,"config":{"A":3},"status":"ok","time_ms":1}\n' >bad.jsonl
report_fail "value not in the header" "bad.jsonl:2: config.A: value 3 is not among" bad.jsonl
printf '{"kind":"header","params":{"A":[1,2]}}\n{"kind":"eval","n":0,"config":{"A":1},"status":"fine"}\n' >bad2.jsonl
report_fail "unknown status" "bad2.jsonl:2: status: not a status" g.jsonl bad2.jsonl
printf '{"kind":"eval"}\n' >bad3.jsonl
report_fail "no header" "bad3.jsonl:1: kind: the first line of a journal is its header" bad3.jsonl
# a kernel spec or a Kernel Tuner cache given for a journal: called what it is, with the
# run that makes a journal of it
cp "$root/kernels/vector_add.json" spec.json
report_fail "a kernel spec is called one" \
    "^cutune report: spec.json: a kernel spec, not a journal: tune it with 'cutune spec.json' first, then report the journal that run writes$" \
    spec.json
report_fail "... also after a journal" "^cutune report: spec.json: a kernel spec, not a journal" g.jsonl spec.json
python3 "$root/tests/cli/mkcache.py" cache.json 2 2 2
report_fail "a Kernel Tuner cache is called one" \
    "^cutune report: cache.json: a Kernel Tuner cache, not a journal: replay it with 'cutune cache.json' first, then report the journal that run writes$" \
    cache.json
mkdir empty
report_fail "empty folder" "empty: no journal" empty
rm -r empty
mkdir page.html
out=$("$exe" report --html=page.html g.jsonl 2>&1)
[ $? -eq 2 ] && grep -q 'page.html.*is a directory' <<<"$out" && ok "--html= a directory" ||
    bad "--html= a directory" "$out"
rmdir page.html

# report: the default page, a folder, --text
"$exe" report g.jsonl >/dev/null && [ -s g.html ] && ok "default page g.html" || bad "no g.html"
"$exe" report g.jsonl --html=again.html >/dev/null
cmp -s g.html again.html && ok "the same journal gives a byte-identical page" ||
    bad "two pages of one journal differ"
rm -f again.html
rm -f g.html
mkdir runs
cp g.jsonl runs/a.jsonl
cp g3.jsonl runs/b.jsonl
gzip -c q.jsonl >runs/c.jsonl.gz
"$exe" report runs/ >/dev/null &&
    [ "$(grep -c '<polyline class="run"' runs.html)" -eq 6 ] &&
    ok "a folder: its three journals (one gzip'd) overlaid" || bad "a folder's journals"
out=$("$exe" report --text g.jsonl)
if grep -q '^parameter importance: gemm, random, seed 1 (1 run, 25 correct evaluations)$' <<<"$out" &&
    grep -q 'functional ANOVA' <<<"$out" && [ "$(grep -cE '^  [0-9]+ +[A-Z]+ +[0-9.]+%$' <<<"$out")" -eq 11 ] &&
    [ ! -e g.html ]; then
    ok "--text: the importance of each of gemm's 11 parameters"
else
    bad "--text" "$out"
fi
# --title titles the page: with --text and no --html no page is written, and the title
# was dropped unsaid
out=$("$exe" report --text --title=Hello g.jsonl 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e g.html ] \
    && grep -q "^cutune report: --title: --text without --html writes no page, and the importance it prints has no title (give --html=FILE for a page)$" <<<"$out" \
    && ok "--text --title without --html: refused, one line, no page" \
    || bad "--text --title without --html: refused, one line, no page" "$out"
"$exe" report --text --title=Hello --html=ti.html g.jsonl >/dev/null && grep -q '<title>Hello' ti.html \
    && ok "... with --html the page takes the title" || bad "... with --html the page takes the title" "$(grep -o '<title>[^<]*' ti.html | head -1)"
rm -f ti.html
# a run tuned for another objective: the page and the text say the report ranks by time
python3 - <<'PY'
import json
lines = open("g.jsonl").read().splitlines()
h = json.loads(lines[0]); h["objective"] = "energy"; h["subject_to"] = ["power_w <= 300"]
open("gobj.jsonl", "w").write("\n".join([json.dumps(h)] + lines[1:]) + "\n")
PY
"$exe" report --html=gobj.html gobj.jsonl >/dev/null 2>&1 && grep -q '<td class="t">energy, subject to power_w &lt;= 300</td>' gobj.html \
    && "$exe" report --text gobj.jsonl | grep -q "gobj.jsonl was tuned for energy, subject to power_w <= 300; the importance is that of the time" \
    && ok "a run tuned for another objective: said on the page and in the text" \
    || bad "a run tuned for another objective: said on the page and in the text"
head -c -40 g.jsonl >gcut.jsonl
out=$("$exe" report --text gcut.jsonl 2>&1 >/dev/null)
grep -q "gcut.jsonl: its last line ends without a newline (cut off mid-write): left out" <<<"$out" \
    && ok "--text: a cut-off last line is left out, and said" || bad "--text: a cut-off last line is said" "$out"

# profile: bad input and a missing ncu
"$exe" profile --help | grep -q '^usage: cutune profile' && ok "profile --help" || bad "profile --help"
out=$("$exe" profile --top=x g.jsonl 2>&1)
[ $? -eq 2 ] && grep -q -- '--top=x: must be' <<<"$out" && ok "profile --top=x" || bad "--top=x" "$out"
out=$("$exe" profile bad.jsonl 2>&1)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && ok "profile of a bad journal" || bad "profile bad" "$out"
# a run over a recording has no kernel to compile: a journal (plain or gzipped) or a Kernel
# Tuner cache (.json or .json.gz) is refused as one, whatever its name ends with
cp "$root/data/xgemm.jsonl.gz" rx.jsonl.gz && gunzip -c rx.jsonl.gz >rxp.jsonl
python3 "$root/tests/cli/mkcache.py" rkt.json.gz && python3 "$root/tests/cli/mkcache.py" rkt.json 4 4 2
for t in rx.jsonl.gz rxp.jsonl rkt.json.gz rkt.json; do
    "$exe" --evaluator=replay --budget=5 --no-progress --journal="on-$t.jsonl" "$t" >/dev/null 2>&1
    out=$("$exe" profile --ncu=/bin/true "on-$t.jsonl" 2>&1)
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
        grep -q "on-$t.jsonl: the run tuned a recording (.*$t), not a kernel spec" <<<"$out" &&
        ok "profile of a run on $t: refused as a recording" ||
        bad "profile of a run on $t: exit $rc" "$out"
done
# the journal is bad input before ncu is looked for: exit 2 where there is no ncu too
out=$(env PATH=/nonexistent CUTUNE_NCU= "$exe" profile on-rx.jsonl.gz.jsonl 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "the run tuned a recording" <<<"$out" &&
    ok "profile of a run on a recording, no ncu: exit 2, not 3" ||
    bad "profile of a run on a recording, no ncu: exit $rc" "$out"
out=$("$exe" profile spec.json 2>&1)
[ $? -eq 2 ] && [ "$out" = "cutune profile: spec.json: a kernel spec, not a journal: tune it with 'cutune spec.json' first, then profile the journal that run writes" ] &&
    ok "profile of a kernel spec: called one" || bad "profile of a kernel spec" "$out"
out=$("$exe" profile --ncu=/nonexistent/ncu bad.jsonl 2>&1)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && ok "profile of a bad journal, no ncu: exit 2" ||
    bad "profile of a bad journal, no ncu" "$out"
out=$("$exe" profile --ncu=/nonexistent/ncu g.jsonl 2>&1)
rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q 'ncu) not found at /nonexistent/ncu' <<<"$out" &&
    ok "profile without ncu: exit 3, one line" || bad "profile without ncu: exit $rc" "$out"
out=$(env PATH=/nonexistent CUTUNE_NCU= "$exe" profile g.jsonl 2>&1)
rc=$?
[ $rc -eq 3 ] || [ -x /usr/local/cuda/bin/ncu ] && ok "profile, no ncu on PATH: exit 3" ||
    bad "profile, no ncu on PATH: exit $rc" "$out"

# profile: a stand-in ncu (records its arguments, answers with the stored sample)
mkdir bin
cat >bin/ncu <<EOF
#!/bin/bash
echo "\$*" >>"$work/ncu.args"
log=
while [ \$# -gt 0 ]; do
    case \$1 in --log-file) log=\$2; shift ;; esac
    shift
done
[ -n "\${FAKE_NCU_REFUSE:-}" ] && {
    echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >"\$log"
    exit 1
}
cp "$root/tests/report/ncu_raw_sample.csv" "\$log"
EOF
chmod +x bin/ncu
out=$("$exe" profile --ncu=bin/ncu g.jsonl 2>err.txt)
rc=$?
if [ $rc -eq 0 ] && [ -f g.profile/profile.json ] && [ -f g.profile/best-3.csv ] &&
    [ -f g.profile/worst-1.csv ] && [ ! -e g.profile/best-4.csv ] &&
    grep -q '^profile: g.profile/profile.json$' <<<"$out" &&
    grep -qE '^best 1 +n=[0-9]+ +[0-9.]+ ms  occupancy  18.6%  SM  83.0%  DRAM  12.5%  L1/shared  71.8%  bank conflicts 1048576$' <<<"$out" &&
    grep -q 'stalls: long_scoreboard 1.07 math_pipe_throttle 0.62 wait 0.53' <<<"$out"; then
    ok "profile: best 3 and worst 1 through ncu, parsed and summarised"
else
    bad "profile with a stand-in ncu: exit $rc" "$out $(cat err.txt)"
fi
n_runs=$(wc -l <ncu.args)
args=$(head -1 ncu.args)
bestn=$(python3 -c '
import json,sys
ev=[json.loads(l) for l in open("g.jsonl") if "\"eval\"" in l]
ok=sorted((e["time_ms"],e["n"]) for e in ev if e["status"]=="ok")
print(ok[0][1], ok[-1][1])' | awk '{print $1}')
worstn=$(python3 -c '
import json
ev=[json.loads(l) for l in open("g.jsonl") if "\"eval\"" in l]
ok=sorted((e["time_ms"],e["n"]) for e in ev if e["status"]=="ok")
print(ok[-1][1])')
if [ "$n_runs" -eq 4 ] && grep -q -- '--clock-control none' <<<"$args" &&
    grep -q -- '--kernel-name gemm --launch-count 1 --csv --page raw' <<<"$args" &&
    grep -q -- '--section WarpStateStats --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active' <<<"$args" &&
    grep -qE -- "cutune profile --launch=$bestn g.jsonl\$" <<<"$args" &&
    tail -1 ncu.args | grep -qE -- "profile --launch=$worstn g.jsonl\$"; then
    ok "profile: ncu runs 'cutune profile --launch=N' on the best ($bestn) and the worst ($worstn)"
else
    bad "profile: ncu's command lines" "$(cat ncu.args)"
fi
"$exe" report g.jsonl --html=prof.html >/dev/null
grep -q 'id="table-profile"' prof.html && grep -q 'long_scoreboard 1.07' prof.html &&
    grep -q 'achieved occupancy (% of peak warps)' prof.html &&
    ok "the report shows the profiles" || bad "the report lacks the profiles"
rm -f ncu.args
out=$(FAKE_NCU_REFUSE=1 "$exe" profile --ncu=bin/ncu --top=1 --worst=0 g.jsonl 2>&1)
rc=$?
if [ $rc -eq 4 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
    grep -q 'ncu cannot read the GPU.s performance counters on this host (ERR_NVGPUCTRPERM)' <<<"$out" &&
    grep -qE '"status":[[:space:]]*"ncu cannot read' g.profile/profile.json; then
    ok "profile, counters refused: exit 4, the reason kept in profile.json"
else
    bad "profile, counters refused: exit $rc" "$out"
fi
"$exe" report g.jsonl --html=noc.html >/dev/null
grep -q 'Nsight Compute gave no counters: ncu cannot read' noc.html &&
    grep -q 'id="table-resources"' noc.html && ok "the report says why there are no counters" ||
    bad "the report does not say why there are no counters"

# every profile failed: the folder made for them is removed; one that was there is kept
cp g.jsonl gf.jsonl && mkdir keep.profile && : >keep.profile/note
out=$("$exe" profile --ncu=/bin/true --top=1 --worst=0 gf.jsonl 2>&1)
rc=$?
[ $rc -eq 1 ] && [ ! -e gf.profile ] && ok "profile, every profile failed: exit 1, no empty folder left" ||
    bad "profile, every profile failed: exit $rc, $(ls -d gf.profile 2>&1)" "$out"
mkdir gf.profile
"$exe" profile --ncu=/bin/true --top=1 --worst=0 gf.jsonl >/dev/null 2>&1
"$exe" profile --ncu=/bin/true --top=1 --worst=0 --dir=keep.profile gf.jsonl >/dev/null 2>&1
[ -d gf.profile ] && [ -f keep.profile/note ] && ok "profile, every profile failed: a folder that was there is kept" ||
    bad "profile, every profile failed: a folder that was there is gone" "$(ls -A)"
rm -rf gf.profile keep.profile

# a hang-up (the terminal closed) while ncu profiles the second configuration: as SIGINT
# and SIGTERM, exit 130, the first profile kept in profile.json, and nothing of the one cut
# short (ncu's part file) left in the folder
cat >bin/ncu-hup <<EOF
#!/bin/bash
log=
while [ \$# -gt 0 ]; do
    case \$1 in --log-file) log=\$2; shift ;; esac
    shift
done
n=\$(cat "$work/hup.count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$work/hup.count"
if [ "\$n" -eq 1 ]; then
    head -c 100 "$root/tests/report/ncu_raw_sample.csv" >"\$log"
    kill -HUP \$PPID
    sleep 0.3
    exit 129
fi
cp "$root/tests/report/ncu_raw_sample.csv" "\$log"
EOF
chmod +x bin/ncu-hup
out=$("$exe" profile --ncu=bin/ncu-hup --dir=hup.profile g.jsonl 2>&1)
rc=$?
left=$(ls -A hup.profile 2>&1 | tr '\n' ' ')
if [ $rc -eq 130 ] && [ "$left" = "best-1.csv profile.json " ] &&
    python3 -c 'import json,sys; e=json.load(open("hup.profile/profile.json"))["entries"]; sys.exit(not (len(e) == 1 and e[0]["role"] == "best 1"))'; then
    ok "profile, SIGHUP during ncu: exit 130, the profile made kept, no part file left"
else
    bad "profile, SIGHUP during ncu: exit $rc, folder: $left" "$out"
fi
rm -rf hup.profile hup.count

# --launch without a GPU: the cuda evaluator's own error, one line, exit 1
out=$("$exe" profile --launch=0 g.jsonl 2>&1)
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ]; then
    ok "profile --launch without a GPU: exit 1 ($out)"
elif [ $rc -eq 0 ]; then
    ok "profile --launch ran on a GPU ($out)"
else
    bad "profile --launch: exit $rc" "$out"
fi
out=$("$exe" profile --launch=999 g.jsonl 2>&1)
[ $? -eq 2 ] && grep -q 'no evaluation n=999' <<<"$out" && ok "--launch=999: no such evaluation" ||
    bad "--launch=999" "$out"


# the page's tooltips count evaluations from 1, as the terminal does; a folder named "."
# gets a page named after it; --text into a full stdout is a failed write (exit 1)
grep -q '<title>evaluation 1 (n 0): ' noc.html && ! grep -q '<title>evaluation 0' noc.html &&
    ok "tooltips: evaluation 1 is n 0" || bad "tooltips do not count from 1"
mkdir -p dotdir && cp g.jsonl dotdir/ && (cd dotdir && "$exe" report . >/dev/null) &&
    [ -f dotdir/dotdir.html ] && ! ls -A dotdir | grep -q '^\.\.html$' &&
    ok "report . writes FOLDER.html" || bad "report . page name" "$(ls -A dotdir)"
if [ -w /dev/full ]; then
    "$exe" report --text g.jsonl >/dev/full 2>err.txt
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
        grep -q '^cutune report: standard output: write error: No space left on device$' err.txt &&
        ok "report --text > /dev/full: exit 1" || bad "report --text > /dev/full: exit $rc" "$(cat err.txt)"
fi
# --text --html into a reader that closes at once: killed by SIGPIPE on the text, after the
# page is in place (it was written after the text, so the page was lost)
rm -f pipe.html
"$exe" report --text --html=pipe.html g.jsonl 2>/dev/null | (exec 0<&-; true)
rc=${PIPESTATUS[0]}
[ $rc -eq 141 ] && [ -s pipe.html ] && grep -q '</html>' pipe.html && ! ls -A | grep -q '^\.pipe\.html' &&
    ok "report --text --html | closed pipe: the page is written before the text" ||
    bad "report --text --html | closed pipe: exit $rc, page $(ls -A | grep pipe)"
# runs at other problem sizes are not pooled, and the runs table says why
for m in 512 1024; do
    printf '%s\n' "{\"kind\":\"header\",\"sizes\":{\"M\":$m},\"params\":{\"A\":[1,2]}}" \
        '{"kind":"eval","n":0,"config":{"A":1},"status":"ok","time_ms":1}' \
        '{"kind":"eval","n":1,"config":{"A":2},"status":"ok","time_ms":2}' >s$m.jsonl
done
cp s512.jsonl s1.jsonl && cp s1024.jsonl s2.jsonl
out=$("$exe" report --text s1.jsonl s2.jsonl 2>&1)
grep -q 'not pooled: s2.jsonl has other problem sizes than s1.jsonl' <<<"$out" &&
    grep -q '(1 run, ' <<<"$out" && ok "other sizes: not pooled" || bad "other sizes pooled" "$out"
"$exe" report --html=sz.html s1.jsonl s2.jsonl >/dev/null 2>&1 &&
    grep -q 'no: other problem sizes than the first journal' sz.html &&
    ok "the runs table says a run at other sizes is not pooled" || bad "runs table: sizes"
# a heat-map cell whose evaluations are all missing from a replayed recording is not
# measured (white), not failed
printf '%s\n' '{"kind":"header","params":{"A":[1,2],"B":[1,2]}}' \
    '{"kind":"eval","n":0,"config":{"A":1,"B":1},"status":"ok","time_ms":1}' \
    '{"kind":"eval","n":1,"config":{"A":2,"B":1},"status":"missing"}' \
    '{"kind":"eval","n":2,"config":{"A":1,"B":2},"status":"compile_error"}' \
    '{"kind":"eval","n":3,"config":{"A":2,"B":2},"status":"ok","time_ms":2}' >miss.jsonl
"$exe" report --html=miss.html miss.jsonl >/dev/null 2>&1
grep -qE '(A=2, B=1|B=1, A=2): not measured' miss.html &&
    grep -qE '(A=1, B=2|B=2, A=1): every evaluation failed' miss.html &&
    ok "heat map: missing is not measured, compile_error failed" ||
    bad "heat map: missing cells" "$(grep -oE '<title>[AB]=[^<]*' miss.html)"

echo "passed $pass, failed $fail"
[ "$fail" -eq 0 ]
