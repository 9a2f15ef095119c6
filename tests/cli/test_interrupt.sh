#!/usr/bin/env bash
# Runs that are stopped and resumed in the ways a user meets (docs/cli.md, resume): a budget
# extension stopped by its time limit and resumed without --budget, then extended again,
# ends with the uninterrupted run's journal; a journal with a line removed or moved is
# refused; two runs started in one second without --journal take two journals. Replay
# only: no GPU, no shared data.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/../../data/xgemm.jsonl.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$here/lib.sh"
export CUTUNE_DB=none
evals() { grep '"kind":"eval"' "$1" | sed 's/"ts":"[^"]*"//'; }

# an extension stopped with evaluations in flight (under replay they are dropped): its
# resume without --budget replays every record and evaluates the dropped ones, so no line
# repeats a number and a further extension ends as the uninterrupted one does
"$exe" --searcher=bo --budget=150 --parallel=4 --journal=base.jsonl --no-progress "$rec" >/dev/null 2>&1
cp base.jsonl full.jsonl && cp base.jsonl cut.jsonl
"$exe" --resume=full.jsonl --budget=300 --no-progress >/dev/null 2>&1
"$exe" --resume=cut.jsonl --budget=300 --time-limit=40 --no-progress >/dev/null 2>&1
held=$(evals cut.jsonl | wc -l)
out=$("$exe" --resume=cut.jsonl --no-progress 2>&1)
rc=$?
n1=$(evals cut.jsonl | wc -l)
if [ $rc -eq 0 ] && [ "$held" -gt 150 ] && [ "$held" -lt 300 ] && [ "$n1" -ge "$held" ]; then
    ok "resume of a stopped extension without --budget: $held held, $n1 after"
else
    bad "resume of a stopped extension without --budget: exit $rc ($held held, $n1 after)" "$out"
fi
out=$("$exe" --resume=cut.jsonl --budget=300 --no-progress 2>&1)
rc=$?
[ $rc -eq 0 ] && cmp -s <(evals full.jsonl) <(evals cut.jsonl) &&
    ok "extended again: the uninterrupted run's 300 evaluations, in its order" ||
    bad "extended again: exit $rc, journals differ" "$out"

# the same with batches (--batch=2): resumed without --budget, the extension's rounds were
# replayed at the size of what the journal holds, not the budget they were made for, and
# one evaluation was counted but never journaled (the journal then refused: "n: evaluation
# 81 where 80 was expected"). Now refused, asking for the budget, the journal untouched.
"$exe" --searcher=bo --budget=60 --parallel=3 --batch=2 --confirm=0 --journal=b2.jsonl \
    --no-progress "$rec" >/dev/null 2>&1
"$exe" --resume=b2.jsonl --budget=100 --time-limit=20 --confirm=0 --no-progress >/dev/null 2>&1
cp b2.jsonl b2-before.jsonl
out=$("$exe" --resume=b2.jsonl --confirm=0 --no-progress 2>&1)
rc=$?
[ $rc -eq 2 ] && cmp -s b2.jsonl b2-before.jsonl && grep -q "give that --budget again" <<<"$out" \
    && ok "resume of a stopped extension with batches, without --budget: refused, journal as it was" \
    || bad "resume of a stopped extension with batches, without --budget (exit $rc)" "$out"
out=$("$exe" --resume=b2.jsonl --budget=100 --confirm=0 --no-progress 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(evals b2.jsonl | wc -l)" -eq 100 ] \
    && "$exe" --resume=b2.jsonl --budget=100 --confirm=0 --no-progress >/dev/null 2>&1 \
    && ok "the same with --budget given again: 100 evaluations, resumable" \
    || bad "the same with --budget given again (exit $rc)" "$out"

# a stop at once during a resume's replay (--time-limit under replay) still replays every
# record: the slots of proposals the journal lacks are held as the run held them
ok_all=1
for cut in 29 30 31; do
    head -$cut base.jsonl >c$cut.jsonl
    out=$("$exe" --resume=c$cut.jsonl --time-limit=0.001 --no-progress 2>&1)
    want=$((cut - 1))
    grep -q "^evaluations: $want (ok $want), $want of them from the journal" <<<"$out" || {
        ok_all=0
        bad "a stop during the replay of $want records" "$(grep '^evaluations' <<<"$out")"
    }
done
[ $ok_all = 1 ] && ok "a stop during a resume's replay replays every record (28, 29, 30 held)"

# a budget above 2^53 (above the space: every configuration) resumes as the budget given,
# not as the double it reads as (2^53 + 1 was 2^53: the resume called itself an extension)
"$exe" --searcher=random --budget=9007199254740993 --journal=big.jsonl --no-progress "$rec" >/dev/null 2>&1
head -50 big.jsonl >bigc.jsonl
out=$("$exe" --resume=bigc.jsonl --budget=9007199254740993 --no-progress 2>&1 >/dev/null)
rc=$?
[ $rc -eq 0 ] && ! grep -q extending <<<"$out" && cmp -s big.jsonl bigc.jsonl &&
    ok "resume of a budget above 2^53 with that budget: no extension, the whole run" ||
    bad "resume of a budget above 2^53: exit $rc" "$out"

# a line removed or two lines swapped: refused, naming the line and the numbers
head -41 base.jsonl | sed '20d' >gap.jsonl
expect_line() { # NAME PATTERN ARGS...: exit 2 and a message matching PATTERN
    local name=$1 pat=$2
    shift 2
    local o r
    o=$("$exe" "$@" 2>&1 >/dev/null)
    r=$?
    [ $r -eq 2 ] && grep -qE -- "$pat" <<<"$o" && ok "$name" || bad "$name: exit $r" "$o"
}
expect_line "resume: a journal with a line removed" \
    'gap.jsonl:20: n: evaluation 19 where 18 was expected .*removed or moved' --resume=gap.jsonl
{ head -9 base.jsonl; sed -n 11p base.jsonl; sed -n 10p base.jsonl; sed -n '12,30p' base.jsonl; } >swap.jsonl
expect_line "resume: a journal with two lines swapped" \
    'swap.jsonl:10: n: evaluation 9 where 8 was expected' --resume=swap.jsonl
expect_line "report: a journal with a line removed" \
    'gap.jsonl:20: n: evaluation 19 where 18 was expected' report --text gap.jsonl

# a journal the user may append to, in a folder the user cannot write (a shared folder):
# resumed, nothing needs creating there; a read-only journal is refused before the run, in
# one line naming --resume, exit 2. As another user where the test runs as root (root
# passes every permission check).
as_user=()
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
if [ "$(id -u)" -ne 0 ] || [ ${#as_user[@]} -gt 0 ]; then
    chmod 755 . && mkdir shared && head -12 base.jsonl >shared/w.jsonl && head -12 base.jsonl >shared/ro.jsonl
    [ ${#as_user[@]} -gt 0 ] && chown nobody shared/w.jsonl shared/ro.jsonl
    chmod 444 shared/ro.jsonl && chmod 555 shared
    out=$("${as_user[@]}" "$exe" --resume=shared/w.jsonl --no-progress 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 0 ] && [ "$(evals shared/w.jsonl | wc -l)" -eq 150 ] &&
        ok "resume of a writable journal in a folder it cannot write in" ||
        bad "resume of a writable journal in a folder it cannot write in: exit $rc" "$out"
    out=$("${as_user[@]}" "$exe" --resume=shared/ro.jsonl --no-progress 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
        grep -q "^cutune: --resume=shared/ro.jsonl: cannot append to it: Permission denied" <<<"$out" &&
        ok "resume of a read-only journal: refused before the run, exit 2" ||
        bad "resume of a read-only journal: exit $rc" "$out"
    chmod 755 shared
fi

# two runs in one second without --journal: each its own default journal
mkdir race && cd race || exit 1
for i in 1 2 3; do
    "$exe" -q --searcher=random --budget=5 "$rec" >/dev/null 2>e1 &
    "$exe" -q --searcher=bo --budget=5 "$rec" >/dev/null 2>e2 &
    wait
    if grep -q . e1 e2; then bad "two runs at once without --journal" "$(cat e1 e2)"; break; fi
done
[ "$(ls runs | wc -l)" -eq 6 ] && [ -z "$(find runs -empty)" ] &&
    ok "two runs at once without --journal: six journals, none empty" ||
    bad "two runs at once: the journals" "$(ls -l runs)"
cd .. || exit 1

# header whose tuning is stopped (SIGTERM): exit 130; without a database the header of what
# was tuned is written (tune's --header), with one none (the database's best is wanted)
for db in --no-db --db=hdr.db; do
    rm -f hdr.h hdr.jsonl
    "$exe" header -o hdr.h $db --budget=400 --journal=hdr.jsonl --no-progress "$rec" >hdr.txt 2>&1 &
    pid=$!
    sleep 1
    kill -TERM $pid 2>/dev/null
    wait $pid
    rc=$?
    want=yes && [ $db != --no-db ] && want=no
    got=no && [ -s hdr.h ] && got=yes
    if [ $rc -eq 0 ]; then
        ok "header $db: run ended before the signal (nothing to check)"
    else
        [ $rc -eq 130 ] && [ $got = $want ] && ok "header $db stopped: exit 130, header written: $got" ||
            bad "header $db stopped: exit $rc, header written: $got (want $want)" "$(tail -3 hdr.txt)"
    fi
done

# a signal while report or db export writes its file (landed there by gdb, at the commit
# of the first output): the process ends by the signal, the file there before is left as
# it was, and no temporary (.NAME.XXXXXXXXXX) is left beside it
if command -v gdb >/dev/null; then
    "$exe" --db=sig.db --budget=10 --journal=sig.jsonl --no-progress "$rec" >/dev/null 2>&1
    mkdir -p sig && echo old >sig/out
    killed_at_commit() { # NAME SIGNAL ARGS...: killed by SIGNAL inside cutune_outfile_commit
        local name=$1 sig=$2
        shift 2
        printf 'set pagination off\nhandle %s nostop noprint pass\nbreak cutune_outfile_commit\nrun\nsignal %s\n' \
            "$sig" "$sig" >sig.gdb
        ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -x sig.gdb --args "$exe" "$@" >sig.txt 2>&1
        local left
        left=$(cd sig && ls -A | grep '^\.')
        rm -f sig/.??*
        grep -q "terminated with signal $sig" sig.txt && [ -z "$left" ] &&
            [ "$(cat sig/out)" = old ] &&
            ok "$name: $sig while writing: the old file kept, no temporary left" ||
            bad "$name: $sig while writing (left: ${left:-nothing})" "$(grep -v '^Breakpoint\|^\[' sig.txt | tail -3)"
    }
    killed_at_commit "report" SIGINT report --html=sig/out sig.jsonl
    killed_at_commit "db export" SIGTERM db export --db=sig.db --kt-cache=sig/out "$rec"
    # an export journal is one file of many lines: a signal between two of them leaves
    # nothing at its path (not a journal of fewer measurements, which would pass for the
    # export) and no temporary
    printf 'set pagination off\nhandle SIGINT nostop noprint pass\nbreak cutune_journal_write_eval\nrun\ndelete\nsignal SIGINT\n' >sig.gdb
    ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -x sig.gdb --args "$exe" db export --db=sig.db \
        --journal=sig/export.jsonl "$rec" >sig.txt 2>&1
    left=$(cd sig && ls -A | grep -v '^out$')
    rm -f sig/.??* sig/export.jsonl
    grep -q "terminated with signal SIGINT" sig.txt && [ -z "$left" ] &&
        ok "db export --journal: SIGINT between its lines: nothing at the path, no temporary" ||
        bad "db export --journal: SIGINT between its lines (left: ${left:-nothing})" "$(tail -3 sig.txt)"
    # bench's tables are one set: the signal ends it once the last is in place, never with
    # this run's tables beside an earlier run's (those that name the manifest name this one,
    # and runs.csv holds seed 2)
    "$exe" bench --out=bsig --no-plots --quiet --searchers=random --budgets=5 --per-seed --seeds=1 \
        "$rec" >/dev/null 2>&1
    printf 'set pagination off\nhandle SIGHUP nostop noprint pass\nbreak cutune_outfile_commit\nrun\ndelete\nsignal SIGHUP\n' >sig.gdb
    ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -x sig.gdb --args "$exe" bench --out=bsig --no-plots --quiet \
        --searchers=random --budgets=5 --per-seed --seeds=2 "$rec" >sig.txt 2>&1
    id=$(python3 -c "import json; print(json.load(open('bsig/results.json'))['manifest']['identity'])")
    stale=$(cd bsig && grep -LF -- "$id" results.md results.csv results.tex plots.gp)
    grep -q '^constraint-aware,xgemm,random,"",2,' bsig/runs.csv || stale="$stale runs.csv"
    left=$(cd bsig && ls -A | grep '^\.')
    grep -q "terminated with signal SIGHUP" sig.txt && [ -z "$stale" ] && [ -z "$left" ] &&
        grep -q -- "--seeds=2" bsig/results.md &&
        ok "bench: SIGHUP while writing: ended after the last table, all of one run" ||
        bad "bench: SIGHUP while writing: not of run $id: ${stale:-none}, left: ${left:-nothing}" "$(tail -3 sig.txt)"
else
    echo "ok - a signal while report, db export or bench writes # SKIP no gdb"
fi

# gnuplot draws each image at its path as it goes: one stopped (Ctrl-C reaches the whole
# process group) or failed midway leaves no image cut short in plots/, and no folder it
# drew in. A stand-in gnuplot writes part of its first image, then is stopped or fails.
mkdir -p gp
cat >gp/gnuplot <<'EOF'
#!/bin/bash
eval "$2" || exit 1 # -e "cd 'FOLDER'"
img=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$3" | head -1)
printf '\x89PNG partial' >"$img"
[ "$FAKE_GNUPLOT" = int ] && { kill -INT 0; sleep 2; }
exit 1
EOF
chmod +x gp/gnuplot
for how in int fail; do
    rm -rf bgp
    FAKE_GNUPLOT=$how PATH="$PWD/gp:$PATH" setsid -w "$exe" bench --out=bgp --quiet --searchers=random \
        --budgets=5 --seeds=1 "$rec" >gp.txt 2>&1
    imgs=$(cd bgp/plots && ls | grep -v '\.dat$')
    left=$(cd bgp && ls -A | grep '^\.')
    [ -f bgp/results.md ] && [ -z "$imgs" ] && [ -z "$left" ] &&
        ok "bench: gnuplot $how midway: no image cut short in plots/, nothing left beside" ||
        bad "bench: gnuplot $how midway: images ${imgs:-none}, left ${left:-nothing}" "$(tail -3 gp.txt)"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
