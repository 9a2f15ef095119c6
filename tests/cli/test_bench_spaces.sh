#!/usr/bin/env bash
# cutune bench on known spaces (docs/cli.md#cutune-bench): --restrict and restrictions
# files give a recording's space; the configurations they allow that the recording lacks
# are charged as failures under the constraint-aware convention, and every table says
# which convention it is. Bad restrictions: one line naming the file and line, exit 2, no
# results. TAP-like lines and a closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }

# A 4 x 4 product whose restriction a <= b allows 10 configurations; the recording holds 7
# of them (the other 3 failed and were left out, as the published recordings do).
mkdir -p recs
python3 - <<'PY'
import json
vals = [1, 2, 3, 4]
cache = {}
for a in vals:
    for b in vals:
        if a <= b and (a, b) not in ((1, 4), (2, 4), (3, 4)):
            cache["%d,%d" % (a, b)] = {"a": a, "b": b, "time": 10.0 / (a * b) + a}
def rec(dev, kern="toy"):
    return {"device_name": dev, "kernel_name": kern, "tune_params_keys": ["a", "b"],
            "tune_params": {"a": vals, "b": vals}, "objective": "time", "cache": cache}
json.dump(rec("G1"), open("recs/toy_G1.json", "w"))
json.dump(rec("G2"), open("recs/toy_G2.json", "w"))
# --split: names that are not KERNEL_GPU, and a GPU named with '_', grouped by the
# recordings' own device and kernel fields
import os
os.makedirs("names", exist_ok=True)
json.dump(rec("GPU A", "Sum"), open("names/plain.json", "w"))
json.dump(rec("GPU A", "Sum"), open("names/plain_fp16.json", "w"))
json.dump(rec("GTX_1080Ti", "Sum"), open("names/sum_GTX_1080Ti.json", "w"))
PY
common=(--searchers=random,genetic --budgets=4,10 --seeds=2 --no-plots --quiet)

out=$("$exe" bench "${common[@]}" --convention=all --restrict "a <= b" --out=r1 recs/toy_G1.json 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "| toy_G1 | 10 (7; 3) |" r1/results.md && grep -q "| toy_G1 | 16 (7; 9) |" r1/results.md \
    && grep -q "| toy_G1 | 7 (7; 0) |" r1/results.md && grep -q "restrictions known for 1 of 1" <<<"$out" \
    && ok "bench --restrict: the restricted space, the absent configurations charged" \
    || bad "bench --restrict: the restricted space, the absent configurations charged" "$out"
grep -q "^## Convention: constraint-aware" r1/results.md && grep -q "^## Convention: recorded" r1/results.md \
    && grep -q "absent from the recording is a failed evaluation and is charged (1 of 1" r1/results.md \
    && grep -q "^### Not above random (recorded)" r1/results.md && [ -s r1/vs-random.csv ] && [ ! -e r1/split.csv ] \
    && ok "bench: every table names its convention; vs-random.csv; no split.csv without --split" \
    || bad "bench: every table names its convention; vs-random.csv; no split.csv without --split"

# a folder's restrictions file is its known space; --split groups toy_G1 and toy_G2
printf '# toy\n[toy_*]\na <= b\n' >recs/restrictions
out=$("$exe" bench "${common[@]}" --convention=constraint-aware --split --out=r2 recs 2>&1)
[ $? = 0 ] && grep -q "| toy_G2 | 10 (7; 3) |" r2/results.md && grep -q "recs/restrictions" <<<"$out" \
    && grep -q "^## Leave-one-GPU-out" r2/results.md && grep -q "^constraint-aware,toy_G1,toy,G1,4,random," r2/split.csv \
    && ok "bench FOLDER: FOLDER/restrictions; --split" || bad "bench FOLDER: FOLDER/restrictions; --split" "$out"
! grep -q "warning" <<<"$out" && ok "bench: no warning where every section matches a recording given" \
    || bad "bench: no warning where every section matches a recording given" "$out"
# --split groups by the file name (docs/cli.md: the device field is x86_64 in some Kernel
# Tuner caches); a name without '_' was taken for a GPU of its own without a word
out=$("$exe" bench "${common[@]}" --convention=recorded --split --out=r2n names 2>&1)
[ $? = 0 ] && grep -q "^recorded,plain_fp16,plain,fp16,4,random," r2n/split.csv \
    && grep -q "^recorded,sum_GTX_1080Ti,sum,GTX_1080Ti,4,random," r2n/split.csv \
    && grep -qx "Not named KERNEL_GPU (no '_'), so each is a GPU of its own and its name the kernel: plain." r2n/results.md \
    && ok "bench --split: the recordings not named KERNEL_GPU are named in the header" \
    || bad "bench --split: the recordings not named KERNEL_GPU are named in the header" "$out $(grep -A3 Leave r2n/results.md)"
# a recording no section names searches its recorded configurations, marked so
printf '[other_*]\na <= b\n' >recs/restrictions
out=$("$exe" bench "${common[@]}" --convention=constraint-aware --out=r3 recs 2>&1)
[ $? = 0 ] && grep -q "| toy_G1 | recorded 7 (7; 0) |" r3/results.md && grep -q "known for 0 of 2" <<<"$out" \
    && ok "bench: unknown restrictions: the recorded configurations, marked" \
    || bad "bench: unknown restrictions: the recorded configurations, marked" "$out"
# a misspelt section went unnoticed: now one line names it
grep -qx "cutune bench: warning: recs/restrictions: 1 section(s) match no recording given: \[other_\*\] (recs/restrictions:1)" <<<"$out" \
    && ok "bench: a section that matches no recording given is named in a warning" \
    || bad "bench: a section that matches no recording given is named in a warning" "$out"

# bad input: one line naming the file and line (or the recording), exit 2, no results
bench_fail() {
    local name=$1 pat=$2
    shift 2
    rm -rf bad_out
    local out
    out=$(timeout 30 "$exe" bench "${common[@]}" --out=bad_out "$@" 2>&1 >/dev/null | grep -v "^cutune bench: [0-9]* searcher\|restrictions known")
    local rc=${PIPESTATUS[0]}
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if [ -e bad_out/results.md ]; then bad "$name: left results"; return; fi
    ok "$name"
}
printf '[toy_*]\na < 3\n' >bad1
bench_fail "bench: restrictions that exclude recorded configurations" \
    "toy_G1.json: 2 of its 7 recorded configurations violate the restrictions of bad1:1" \
    --restrictions=bad1 recs/toy_G1.json
printf 'a <= b\n' >bad2
bench_fail "bench: a restriction before any section" "bad2:1: a restriction before the first" \
    --restrictions=bad2 recs/toy_G1.json
printf '[toy_*]\nc <= b\n' >bad3
bench_fail "bench: a restriction naming no parameter" \
    "^cutune bench: bad3:2: unknown parameter 'c' .*toy_G1.json has the parameters a, b" \
    --restrictions=bad3 recs/toy_G1.json
# A bad expression was named by its section's line, not its own, and only after bench had
# said what it would run (3 lines): now its own line, the only line, before anything runs.
restr_fail() {
    local name=$1 pat=$2 file=$3
    rm -rf bad_out
    local out
    out=$(timeout 30 "$exe" bench "${common[@]}" --out=bad_out --restrictions="$file" recs/toy_G1.json 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, not 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if [ -e bad_out ]; then bad "$name: made the output folder"; return; fi
    ok "$name"
}
printf '# known spaces\n[toy_*]\na <= b\n\na *\n' >bad4
restr_fail "bench: a syntax error in a restriction names its own line, alone" \
    "^cutune bench: --restrictions: bad4:5: syntax error .* in 'a \\*'" bad4
# a section that matches no recording given was not parsed: its syntax error unnoticed
printf '[toy_*]\na <= b\n[toyy_G1]\na <=\n' >bad_unmatched
restr_fail "bench: a syntax error in a section no recording matches names its line" \
    "^cutune bench: --restrictions: bad_unmatched:4: syntax error" bad_unmatched
printf '[toy_*]\na <= b\nzz > 1\n' >bad5
restr_fail "bench: a restriction naming a parameter the recording lacks names its line and the name" \
    "^cutune bench: bad5:3: unknown parameter 'zz' .*toy_G1.json has the parameters a, b" bad5
# comments after a section header and after a restriction, as docs/cli.md shows them
printf '# known spaces\n[toy_*]   # every toy\na >= 0   # always true\n' >commented
"$exe" bench --seeds=2 --budgets=2 --searchers=random --quiet --no-plots --out=cm_out \
    --restrictions=commented recs/toy_G1.json >/dev/null 2>cm.err \
    && grep -q "restrictions known for 1 of 1" cm.err && ok "bench: a restrictions file with trailing comments" \
    || bad "bench: a restrictions file with trailing comments" "$(cat cm.err)"
bench_fail "bench: a missing restrictions file" "nofile: cannot open" --restrictions=nofile recs/toy_G1.json
# A NUL ended the line where it stood: "a >= 0 \0&& a < 3" was read as "a >= 0", the
# rest dropped unread. A FIFO held bench on its open and /dev/zero was read for ever: the
# file is read as every input is, a regular file under the input limit.
printf '[toy_*]\na >= 0 \0&& a < 3\n' >nul_restr
bench_fail "bench: a NUL in a restrictions file is refused, naming the line" \
    "nul_restr:2: a NUL character" --restrictions=nul_restr recs/toy_G1.json
mkfifo fifo_restr
bench_fail "bench: a FIFO as the restrictions file is refused, without waiting" \
    "fifo_restr: is a FIFO" --restrictions=fifo_restr recs/toy_G1.json
bench_fail "bench: /dev/zero as the restrictions file is refused" \
    "/dev/zero: is a character device" --restrictions=/dev/zero recs/toy_G1.json
bench_fail "bench: an unknown convention" "valid: constraint-aware, cartesian, recorded, both, all" \
    --convention=honest recs/toy_G1.json

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
