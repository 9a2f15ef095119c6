#!/usr/bin/env bash
# Outputs never destroy inputs, and what is malformed is refused (exit 2, one line, the
# inputs byte for byte as they were): db export onto the database or the recording,
# header -o onto them (also when the database answers and nothing is tuned), report
# --html onto a journal; prune --before with a date that is none; a journal's seed out of
# --seed's range on --resume; an integer parameter value a double cannot hold; an unknown
# evaluator for best; --size twice for one name; and the option forms header passes on (--budget N, --db FILE).
# header writes the database's best when it tunes too; header --sizes reads --db FILE,
# writes sizes as values, and refuses -o onto the database; prune --before with a Z,
# prune of no database, db options a command does not read, an empty --gpu, and imports of a broken, missing or common-mode file or a
# --size without --kernel.
# --kt-cache and --csv that cannot hold the space, and outputs in a folder no file can be
# created in (/proc, /sys: even for root), are refused before the run.
# A full disk: standard output on /dev/full (tune, space, list, best, db list, report
# --text) and every file output under ulimit -f (the summary, exports, header -o, report
# --html, bench --out, db export) exit 1 with one line naming it and the reason, and
# leave no file behind.
# Importing the same records twice (from a copy, gzipped) stores them once. No GPU, no
# shared data. Prints "ok"/"not ok" lines and "N passed, N failed".
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$here/lib.sh"
export CUTUNE_DB=none

# refused NAME PATTERN FILE CMD... : exit 2, a one-line error matching PATTERN, and FILE
# (an input the command was pointed at) unchanged
refused() {
    local name=$1 pat=$2 file=$3
    shift 3
    cp -- "$file" before.bin
    local out rc
    out=$(timeout 60 "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if ! cmp -s before.bin "$file"; then bad "$name: $file was changed"; return; fi
    ok "$name"
}

python3 "$here/mkcache.py" bowl.json 4 4 2
gzip -k bowl.json
"$exe" -q --searcher=random --budget=6 --db=t.db --journal=j.jsonl bowl.json >/dev/null 2>&1 ||
    bad "setup: a run into t.db"

# ---- outputs onto inputs
refused "db export --kt-cache onto the database" "is the tuning database" t.db \
    "$exe" db export --db=t.db --kt-cache=t.db bowl.json
refused "db export --journal onto the recording" "is an input of" bowl.json \
    "$exe" db export --db=t.db --journal=bowl.json bowl.json
refused "header -o onto the database, answered from it" "is the tuning database" t.db \
    "$exe" header -o t.db --db=t.db --budget=3 bowl.json
refused "header -o onto the recording, answered from the database" "is an input of" bowl.json \
    "$exe" header -o bowl.json --db=t.db --budget=3 bowl.json
# a header that cannot be written is refused before anything is tuned: with a database the
# run is made without --header (the header is the database's best, written after it), so the
# path was found bad only once the run had been made and stored (exit 1)
mkdir -p hdir
refused "header -o into a missing folder: refused before the run" "--header=nodir/h.h: cannot write in nodir" \
    t.db "$exe" header -o nodir/h.h --db=t.db --budget=20 bowl.json
refused "header -o onto a folder: refused before the run" "--header=hdir: is a directory" \
    t.db "$exe" header -o hdir --db=t.db --budget=20 bowl.json
refused "header -o '': refused before the run" "--header=: empty path" \
    t.db "$exe" header -o "" --db=t.db --budget=20 bowl.json
[ ! -e runs ] && ok "... and no journal was started" || bad "... and no journal was started" "$(ls runs)"
refused "report --html onto the journal it reports" "is a journal being reported" j.jsonl \
    "$exe" report --html=j.jsonl j.jsonl
if "$exe" db export --db=t.db --kt-cache=out.json bowl.json >/dev/null 2>&1 && [ -s out.json ]; then
    ok "db export to another path still writes"
else
    bad "db export to another path still writes"
fi

# ---- header passes --opt VALUE on as tune reads it
out=$("$exe" header -o h1.h --db t.db --budget 3 bowl.json 2>&1)
if [ $? -eq 0 ] && grep -q "nothing tuned" <<<"$out"; then
    ok "header --db FILE --budget N: answered from that database"
else
    bad "header --db FILE --budget N: answered from that database" "$out"
fi
# tune's options that the database's answer does not read are named, not dropped unseen
out=$("$exe" header -o h3.h --db t.db --budget 3 --seed=7 --journal=hj.jsonl --searcher random bowl.json 2>&1)
if [ $? -eq 0 ] && grep -q "nothing tuned (unused: --seed, --journal, --searcher; --retune tunes)$" <<<"$out" \
    && [ ! -e hj.jsonl ]; then
    ok "header answered from the database names the tune options it leaves unused"
else
    bad "header answered from the database names the tune options it leaves unused" "$out"
fi
out=$("$exe" header -o h2.h --db t.db --budget 8 bowl.json 2>&1)
if [ $? -eq 0 ] && grep -q "^evaluations: 8 " <<<"$out"; then
    ok "header --budget 8: a run of 8 evaluations, not the default 60"
else
    bad "header --budget 8: a run of 8 evaluations, not the default 60" "$out"
fi

# ---- malformed values
"$exe" -q --searcher=random --budget=6 --db=t.db --journal=p.jsonl bowl.json >/dev/null 2>&1
for d in 2026-99-99 1999-12-31junk 2001-02-29 2026-12-01T25:00:00; do
    refused "db prune --before=$d" "--before=$d: expected a date" t.db \
        "$exe" db prune --before="$d" --db=t.db
done
# an option a db command does not read is refused, never dropped (prune --size pruned every
# size), and an empty --gpu or --kernel matches nothing rather than everything
refused "db prune --size" "db prune: --size does not apply" t.db \
    "$exe" db prune --kernel=bowl --size N=1 --db=t.db
refused "db list --before" "db list: --before does not apply" t.db \
    "$exe" db list --before=2020-01-01 --db=t.db
refused "db prune --gpu=" "--gpu=: empty" t.db "$exe" db prune --gpu= --db=t.db
# header writes the fastest: an option that ranks by something else is refused, not ignored
for opt in "--subject-to=time_ms<1" "--objective=time_ms" "--objectives=time_ms,time_ms"; do
    refused "header $opt" "header holds the fastest correct configuration" t.db \
        "$exe" header --db=t.db "$opt" -o h.h bowl.json
    refused "header --sizes $opt" "header holds the fastest correct configuration" t.db \
        "$exe" header --db=t.db --sizes='N=1;N=2' "$opt" -o h.h vector_add
done
[ ! -e h.h ] && ok "refused headers: no file" || bad "refused headers: no file"
refused "db prune --kernel=" "--kernel=: empty" t.db "$exe" db prune --kernel= --db=t.db
if "$exe" db prune --before=2000-02-29T00:00:00Z --db=t.db | grep -q "removed 0 evaluations"; then
    ok "db prune --before with a real UTC time: accepted, nothing that old"
else
    bad "db prune --before with a real UTC time: accepted, nothing that old"
fi
"$exe" -q --searcher=random --budget=6 --journal=s.jsonl bowl.json >/dev/null 2>&1
for seed in 4294967297 0; do
    sed "1s/\"seed\":1,/\"seed\":$seed,/" s.jsonl | head -3 > "rs$seed.jsonl"
    refused "--resume of a journal with seed $seed" "header.seed: $seed is not 1..4294967295" \
        "rs$seed.jsonl" "$exe" -q --resume="rs$seed.jsonl"
done
python3 - <<'EOF'
import json
big = 9007199254740993  # 2^53 + 1: the nearest double is 2^53
json.dump({"device_name": "X", "kernel_name": "k", "tune_params_keys": ["a", "b"],
           "tune_params": {"a": [big, 2], "b": [4]}, "objective": "time",
           "cache": {f"{big},4": {"a": big, "b": 4, "time": 1.0}}}, open("big.json", "w"))
EOF
refused "an integer parameter value of 2^53 + 1" 'tune_params\["a"\]\[0\]: an integer of 2\^53' \
    big.json "$exe" -q --searcher=random --budget=2 --journal=big.jsonl --header=big.h big.json
[ ! -e big.jsonl ] && [ ! -e big.h ] && ok "... and no journal or header left" ||
    bad "... and no journal or header left"
refused "--size given twice for one name" "--size N: given twice" bowl.json \
    "$exe" --size N=1024 --size N=2048 --budget=2 --journal=twice.jsonl "$here/../../kernels/vector_add.json"
refused "best --evaluator=bogus" "unknown evaluator 'bogus'" t.db \
    "$exe" best --db=t.db --evaluator=bogus bowl.json

# ---- the same records imported twice are stored once
cp bowl.json copy.json
"$exe" db import --db=i.db bowl.json >/dev/null 2>&1
"$exe" db import --db=i.db bowl.json.gz >/dev/null 2>&1
"$exe" db import --db=i.db copy.json >/dev/null 2>&1
n=$("$exe" db list --db=i.db | awk -F'\t' 'NR == 2 { print $5 }')
want=$(python3 -c 'import json; print(len(json.load(open("bowl.json"))["cache"]))')
if [ "$n" = "$want" ]; then
    ok "one recording imported as .json, .json.gz and a copy: $n measurements, once"
else
    bad "one recording imported as .json, .json.gz and a copy: $n measurements, want $want"
fi

# ---- header: the database's best whichever path; the dispatch table's inputs and sizes
hdr_ms() { sed -n 's/.* found by cutune [^:]*: \([0-9.e+-]*\) ms.*/\1/p' "$1" | head -1; }
"$exe" -q --searcher=random --budget=6 --db=u.db --journal=u6.jsonl bowl.json >/dev/null 2>&1
"$exe" header -o tuned.h --searcher=random --seed=99 --budget=9 --db=u.db --journal=h9.jsonl \
    bowl.json >/dev/null 2>&1
best_ms=$("$exe" best --db=u.db bowl.json | sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p')
# the run's own best is not the database's (the check could fail), the header is the latter
run_ms=$(python3 -c "import json; print(min(d['time_ms'] for d in map(json.loads, open('h9.jsonl')) if d.get('kind') == 'eval' and d['status'] == 'ok'))")
[ -n "$best_ms" ] && [ "$run_ms" != "$best_ms" ] &&
    python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 1e-9 * b)" \
    "$(hdr_ms tuned.h)" "$best_ms" && ok "header that tunes writes the database's best ($best_ms ms, the run's $run_ms)" \
    || bad "header that tunes writes the database's best" "$(head -2 tuned.h; echo best $best_ms)"
S2='M=N=K=1024;M=01000,N=05000,K=0296'
"$exe" header --sizes "$S2" --budget=4 -o tbl.h --db s.db --no-progress gemm_h >tbl.txt 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "in s.db" tbl.txt && grep -q '^        {1000, 5000, 296,' tbl.h \
    && ok "header --sizes: '--db FILE' read for the table; sizes written as values (01000 is 1000, not octal)" \
    || bad "header --sizes with --db FILE and leading zeros (exit $rc)" "$(cat tbl.txt; grep '^        {' tbl.h)"
printf '#include "tbl.h"\nint main(void) { return gemm_h_tuned_lookup(1000, 5000, 296)->M != 1000; }\n' >tl.c
cc -std=c11 -Wall -Wextra -pedantic -Werror tl.c -o tl 2>cc.txt && ./tl \
    && ok "the table compiles and finds 1000x5000x296" || bad "the table with leading-zero sizes" "$(cat cc.txt)"
# sizes whose mantissas are equal differ by a whole number exactly (a tie stays a tie)
cat >td.c <<'C'
#include "tbl.h"
int main(void)
{
    return !(gemm_h_tuned_dlog2(14, 7) == 1.0 && gemm_h_tuned_dlog2(28, 14) == 1.0 &&
             gemm_h_tuned_dlog2(3, 12) == -2.0 && gemm_h_tuned_dlog2(1000, 1000) == 0.0);
}
C
cc -std=c11 -Wall -Wextra -pedantic -Werror td.c -o td 2>cc.txt && ./td \
    && ok "the header's log2 difference is exact where the mantissas are equal (7, 14, 28)" \
    || bad "the header's log2 difference at ties" "$(cat cc.txt)"
refused "header --sizes -o onto the database" "is the tuning database" s.db \
    "$exe" header --sizes "$S2" --budget=4 -o s.db --db=s.db gemm_h

# ---- prune and import refuse what would lose or invent data
cp t.db p1.db
cp t.db p2.db
T=$(python3 -c "import sqlite3; print(sqlite3.connect('t.db').execute('select min(recorded) from evaluations').fetchone()[0][:19])")
a=$("$exe" db prune --db=p1.db --before="$T" 2>&1)
b=$("$exe" db prune --db=p2.db --before="${T}Z" 2>&1)
[ "${a##* removed }" = "${b##* removed }" ] && ok "prune --before=T and T+Z remove the same ($b)" \
    || bad "prune --before with and without Z" "$a / $b"
out=$("$exe" db prune --all --db=nodir/x.db 2>&1)
rc=$?
[ $rc -eq 2 ] && [ ! -e nodir ] && grep -q "no such database" <<<"$out" \
    && ok "prune of a database that does not exist: exit 2, nothing created" || bad "prune creates a database (exit $rc)" "$out"
echo '{' >broken.json
cp t.db imp.db
refused "import of several files, one broken: nothing stored" "broken.json: malformed JSON" imp.db \
    "$exe" db import --db=imp.db copy.json broken.json
refused "import of a file that does not exist" "nosuch.json: cannot open: No such file" imp.db \
    "$exe" db import --db=imp.db nosuch.json
refused "import --size without --kernel" "--size goes with --kernel" imp.db \
    "$exe" db import --db=imp.db --size N=8 copy.json
"$exe" --sizes='M=N=K=1024;M=N=K=2048' --shape-mode=common --budget=3 --db=imp2.db --journal=sc \
    --no-progress gemm_h >/dev/null 2>&1
refused "import of a --shape-mode=common journal" "a --shape-mode=common journal" imp.db \
    "$exe" db import --db=imp.db sc-common.jsonl

# a repetition that is not a time is refused as a record's time is
python3 - <<'PY'
import json
head = {"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]}}
cache = {"1": {"a": 1, "time": 1.0, "times": [-1e308, -1e308]}, "2": {"a": 2, "time": 0.9, "times": [0.9]}}
json.dump(dict(head, cache=cache), open("negtimes.json", "w"))
PY
refused "a negative repetition time in a cache" 'cache\["1"\].times\[0\]: -1e\+308 is not a time' negtimes.json \
    "$exe" --searcher=grid --journal=neg.jsonl negtimes.json
echo '{"tune_params_keys":["a"],"tune_params":{"a":[1,2]},"cache":{}}' >empty.json
out=$("$exe" bench --quiet --seeds=1 --budgets=2 --out=bench-empty empty.json 2>&1)
rc=$?
[ $rc -eq 2 ] && tail -1 <<<"$out" | grep -q "^cutune bench: empty.json: the recording holds no configurations" \
    && [ ! -e bench-empty ] && ok "bench names the recording that holds no configurations" \
    || bad "bench on an empty recording (exit $rc)" "$out"

# --- an output that cannot hold the space is refused before the run, nothing written:
# a Kernel Tuner cache with a parameter named as an entry's field, or a value holding the
# ',' its keys join values with; a CSV with a parameter named as one of its columns
python3 - <<'EOF'
import json
def cache(path, params, key):
    c = {}
    for x in params[key]:
        for t in params["t"]:
            c[f"{x},{t}"] = {key: x, "t": t, "time": 1.0 + t, "times": [1.0 + t]}
    json.dump({"device_name": "X", "kernel_name": "k", "tune_params_keys": [key, "t"],
               "tune_params": params, "objective": "time", "cache": c}, open(path, "w"))
cache("comma.json", {"s": ["a,b", "c"], "t": [1, 2]}, "s")
cache("field.json", {"timestamp": [1, 2], "t": [1, 2]}, "timestamp")
cache("column.json", {"n": [1, 2], "t": [1, 2]}, "n")
EOF
refused "--kt-cache of a value holding a ','" "value 'a,b' holds a ','" comma.json \
    "$exe" --no-db --budget=4 --no-progress --journal=jc.jsonl --kt-cache=oc.json comma.json
refused "--kt-cache of a parameter named as an entry's field" "parameter 'timestamp' has the name of a field" field.json \
    "$exe" --no-db --budget=4 --no-progress --journal=jf.jsonl --kt-cache=of.json field.json
refused "--csv of a parameter named as a column" "parameter 'n' has the name of a CSV column" column.json \
    "$exe" --no-db --budget=4 --no-progress --journal=jn.jsonl --csv=on.csv column.json
[ ! -e jc.jsonl ] && [ ! -e oc.json ] && [ ! -e jf.jsonl ] && [ ! -e jn.jsonl ] && [ ! -e on.csv ] \
    && ok "refused outputs: no journal, no file" || bad "refused outputs: no journal, no file" "$(ls)"
"$exe" --no-db --budget=4 --no-progress --journal=jc2.jsonl --csv=oc.csv comma.json >/dev/null 2>&1 \
    && python3 -c "import csv; r = list(csv.DictReader(open('oc.csv'))); assert sorted(x['s'] for x in r) == ['a,b', 'a,b', 'c', 'c'], r" \
    && ok "--csv holds a value with a ','" || bad "--csv holds a value with a ','" "$(cat oc.csv)"


# --header on a cutune journal is named after the journal's spec: two such headers have
# two include guards and both sets of defines survive one translation unit
"$exe" --no-db -q --budget=3 --journal=hga.jsonl --header=hga.h "$here/../../data/gemm.jsonl.gz" >/dev/null 2>&1
"$exe" --no-db -q --budget=3 --journal=hgb.jsonl --header=hgb.h "$here/../../data/blur.jsonl.gz" >/dev/null 2>&1
grep -q '^#define CUTUNE_TUNED_GEMM_H$' hga.h && grep -q '^#define CUTUNE_TUNED_BLUR_H$' hgb.h &&
    [ "$(printf '#include "hga.h"\n#include "hgb.h"\n' | cc -dM -E -I. - | grep -cE '^#define (BM|TX) ')" -eq 2 ] &&
    ok "--header of a journal recording: named after its spec" ||
    bad "--header of a journal recording" "$(grep -h '#define CUTUNE' hga.h hgb.h)"


# the header's confirmation line names what it measured: ms for time, the objective else
"$exe" --no-db -q --budget=8 --objective=energy --journal=hen.jsonl --header=hen.h \
    "$here/../../data/gemm-energy.jsonl.gz" >/dev/null 2>&1
"$exe" --no-db -q --budget=8 --journal=hti.jsonl --header=hti.h "$here/../../data/gemm-energy.jsonl.gz" >/dev/null 2>&1
grep -qE 'confirmed over [0-9]+ rounds: mean [0-9.e+-]+ of the objective energy,' hen.h &&
    grep -qE 'confirmed over [0-9]+ rounds: mean [0-9.e+-]+ ms,' hti.h &&
    ok "--header: the confirmed mean's unit (ms, or the objective)" ||
    bad "--header: the confirmed mean's unit" "$(head -3 hen.h hti.h)"

# --- an output in a folder no file can be created in (even by root, as CI runs): refused
# before the first evaluation, exit 2, no journal and nothing left in the folder
for out_opt in --csv=/proc/cutune-x.csv --kt-cache=/sys/cutune-x.json --journal=/proc/self/j.jsonl; do
    rm -f jp.jsonl
    refused "$out_opt: refused before the run" "^cutune: ${out_opt%%=*}=.*: cannot write in /" bowl.json \
        "$exe" --no-db --budget=4 --no-progress --journal=jp.jsonl "$out_opt" bowl.json
    [ ! -e jp.jsonl ] && ! ls -a /proc /sys | grep -q cutune && ok "$out_opt: no journal, nothing left" \
        || bad "$out_opt: no journal, nothing left"
done

# A full disk: standard output that cannot be written (/dev/full: ENOSPC) is one line
# naming it and exit 1, never exit 0 with the output lost; a file written through a
# temporary (ulimit -f: EFBIG, SIGXFSZ ignored) is one line naming the file asked for and
# the reason, exit 1, and nothing left behind (no temporary, no cut-off file).
data=$here/../../data
if [ -c /dev/full ] && ! (echo x >/dev/full) 2>/dev/null; then
    "$exe" --db=full.db -q --budget=5 --journal=full.jsonl "$data/gemm.jsonl.gz" >/dev/null 2>&1
    for args in "--no-db -q --resume=full.jsonl" "--no-db --resume=full.jsonl" "space gemm" \
        "space $data/gemm.jsonl.gz" "list" "--version" \
        "best --db=full.db $data/gemm.jsonl.gz" "best --db=full.db -q $data/gemm.jsonl.gz" \
        "db list --db=full.db" "report --text full.jsonl"; do
        # shellcheck disable=SC2086
        out=$(timeout 60 "$exe" $args 2>&1 >/dev/full)
        rc=$?
        if [ $rc -ne 1 ]; then
            bad "$args > /dev/full: exit $rc, want 1" "$out"
        elif [ "$(wc -l <<<"$out")" -ne 1 ] ||
            ! grep -qE "^cutune( [a-z]+)?: standard output: write error: No space left on device$" <<<"$out"; then
            bad "$args > /dev/full: not one line naming standard output and the error" "$out"
        else
            ok "$args > /dev/full: exit 1, one line"
        fi
    done
else
    echo "ok - # SKIP no /dev/full"
fi

# efbig NAME PATTERN BLOCKS CMD... : under ulimit -f BLOCKS, exit 1, one line matching
# PATTERN (lines matching $efbig_info, bench's notes, aside), and no file in the folder
# but those that were there (a database's -shm and -wal aside)
efbig_info='^cutune bench: [^:]*(searcher\(s\) x|constraint-aware: restrictions)'
lsa() { ls -A . out 2>/dev/null | grep -vE -- '-(shm|wal)$'; }
efbig() {
    local name=$1 pat=$2 blocks=$3
    shift 3
    lsa >before.ls
    local out rc
    out=$( (trap '' XFSZ; ulimit -f "$blocks" && exec timeout 60 "$@") 2>&1 >/dev/null)
    rc=$?
    out=$(grep -vE -- "$efbig_info" <<<"$out")
    if [ $rc -ne 1 ]; then bad "$name: exit $rc, want 1" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if ! lsa | cmp -s - before.ls; then
        bad "$name: left a file" "$(lsa | diff before.ls -)"
        return
    fi
    ok "$name"
}
"$exe" --no-db -q --budget=5 --journal=fb.jsonl "$data/gemm.jsonl.gz" >/dev/null 2>&1
for o in output=fb.json header=fb.h csv=fb.csv kt-cache=fb-kt.json t4=fb-t4.json; do
    efbig "--$o on a full disk" "^cutune: ${o#*=}: write error: File too large$" 0 \
        "$exe" --no-db --resume=fb.jsonl "--$o"
done
efbig "header -o on a full disk" "^cutune header: fbh.h: write error: File too large$" 0 \
    "$exe" header -o fbh.h --no-db --resume=fb.jsonl --budget=5 "$data/gemm.jsonl.gz"
efbig "report --html on a full disk" "^cutune report: fb.html: write error: File too large$" 0 \
    "$exe" report --html=fb.html fb.jsonl
mkdir -p out
efbig "bench --out on a full disk names the file" \
    "^cutune bench: out/results.md: write error: File too large$" 1 \
    "$exe" bench --out=out --seeds=2 --budgets=5 --no-plots --quiet --searchers=random \
    "$data/gemm.jsonl.gz"
# a write that fails midway (results.md fits in 7 KiB, results.json does not) leaves the
# earlier run's set as it was: no file of it replaced by this run's
bargs=(--seeds=2 --budgets=5,10 --no-plots --quiet --searchers=random,grid,genetic
    "$data/gemm.jsonl.gz" "$data/blur.jsonl.gz")
rm -rf out && "$exe" bench --out=out "${bargs[@]}" 2>/dev/null
(cd out && find . -type f | sort | xargs md5sum) >bench.md5
if [ "$(stat -c %s out/results.md)" -lt 7168 ] && [ "$(stat -c %s out/results.json)" -gt 7168 ]; then
    efbig "bench --out, a full disk at results.json" \
        "^cutune bench: out/results.json: write error: File too large$" 7 \
        "$exe" bench --out=out --seeds=3 "${bargs[@]:1}"
    (cd out && find . -type f | sort | xargs md5sum) | cmp -s - bench.md5 &&
        ok "bench --out, a full disk at results.json: the earlier run's files unchanged" ||
        bad "bench --out, a full disk at results.json: files changed" \
            "$( (cd out && find . -type f | sort | xargs md5sum) | diff bench.md5 -)"
else
    bad "bench --out: results.md $(stat -c %s out/results.md) B, results.json $(stat -c %s out/results.json) B: the 7 KiB limit no longer falls between them"
fi
"$exe" --db=fbx.db -q --budget=100 --confirm=0 --journal=fbx.jsonl "$data/gemm.jsonl.gz" >/dev/null 2>&1
# 40 KiB: room for the database's 32 KiB shared-memory file, not for the export
efbig "db export --journal on a full disk leaves no journal" \
    "^cutune db: fbx-e.jsonl: write error: File too large$" 40 \
    "$exe" db export --db=fbx.db --journal=fbx-e.jsonl "$data/gemm.jsonl.gz"
efbig "db export --kt-cache on a full disk" "^cutune db: fbx-e.json: write error: File too large$" 40 \
    "$exe" db export --db=fbx.db --kt-cache=fbx-e.json "$data/gemm.jsonl.gz"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
