#!/usr/bin/env bash
# --objective and --subject-to from the command line (docs/objectives.md), on recordings
# with known answers: a Kernel Tuner cache whose entries carry energy_j and power_w, one
# tuned for GFLOP/s, and one without energy. TAP-like lines and a closing count line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }

# 4 x 4 configurations: time falls with bs, power rises with it, so the time-, energy-, EDP-
# and power-capped optima are four different configurations (256,1; 32,1; 128,1; 64,1), and
# GFLOP/s peaks at a fifth (64,3); the answers are computed here, from the same numbers.
python3 - <<'PY'
import json
bs, v = [32, 64, 128, 256], [1, 2, 3, 4]
cache, gcache, plain = {}, {}, {}
best = {}
for b in bs:
    for x in v:
        t = 10.0 / (b ** 0.5) + 0.1 * x        # ms
        p = 50.0 + 3.0 * b + 20.0 * x            # W
        e = p * t * 1e-3                          # J per launch
        key = f"{b},{x}"
        cache[key] = {"bs": b, "v": x, "time": t, "times": [t, t], "energy_j": e, "power_w": p}
        g = 1000.0 / t * (3.0 if (b, x) == (64, 3) else 1.0)
        gcache[key] = {"bs": b, "v": x, "time": t, "GFLOP/s": g}
        plain[key] = {"bs": b, "v": x, "time": t}
        for name, val, ok in (("time", t, True), ("energy", e, True), ("edp", e * t, True),
                              ("capped", t, p <= 300), ("gflops", -g, True)):
            if ok and (name not in best or val < best[name][0]):
                best[name] = (val, f"bs={b}, v={x}")
head = {"tune_params_keys": ["bs", "v"], "tune_params": {"bs": bs, "v": v}}
json.dump(dict(head, cache=cache), open("energy.json", "w"))
json.dump(dict(head, objective="GFLOP/s", cache=gcache), open("gflops.json", "w"))
json.dump(dict(head, cache=plain), open("plain.json", "w"))
for name, (val, cfg) in best.items():
    open(f"best_{name}", "w").write(cfg + "\n")
PY

best_is() { # NAME FILE(expected) OUTPUT
    if grep -qx "best: $(cat "$2")" <<<"$3"; then ok "$1"; else bad "$1 (want $(cat "$2"))" "$3"; fi
}

out=$("$exe" --searcher=grid --budget=16 --journal=t.jsonl energy.json 2>&1)
best_is "time is the default objective" best_time "$out"
grep -q '"objective"' t.jsonl && bad "a time run's header names no objective" || ok "a time run's header names no objective"
grep -q '"energy_j"' t.jsonl && bad "a time replay journals no recorded metrics" \
    || ok "a time replay journals no recorded metrics (its journal is as before objectives)"
"$exe" --searcher=bo --budget=10 --journal=t1.jsonl energy.json >/dev/null 2>&1
"$exe" --searcher=bo --budget=10 --objective=time --journal=t2.jsonl energy.json >/dev/null 2>&1
cmp -s t1.jsonl t2.jsonl && ok "--objective=time journals byte-identical to no --objective" \
    || bad "--objective=time journals byte-identical to no --objective" "$(diff t1.jsonl t2.jsonl | head -5)"

out=$("$exe" --searcher=grid --budget=16 --objective=energy --journal=e.jsonl energy.json 2>&1)
best_is "--objective=energy finds the least energy" best_energy "$out"
grep -q "^objective: energy = " <<<"$out" && ok "the summary names the objective and its value" \
    || bad "the summary names the objective and its value" "$out"
grep -q '"objective":"energy"' e.jsonl && ok "the header names a non-time objective" \
    || bad "the header names a non-time objective" "$(head -c 400 e.jsonl)"
grep -q '"energy_j"' e.jsonl && ok "an energy run journals the recorded metrics" \
    || bad "an energy run journals the recorded metrics"

out=$("$exe" --searcher=grid --budget=16 --objective=edp --journal=edp.jsonl energy.json 2>&1)
best_is "--objective=edp finds the least energy x time" best_edp "$out"

out=$("$exe" --searcher=grid --budget=16 --subject-to "power_w <= 300" --journal=c.jsonl energy.json 2>&1)
best_is "--subject-to: the fastest that keeps the power cap" best_capped "$out"
grep -q "subject to power_w <= 300" <<<"$out" && ok "the summary names the constraint" \
    || bad "the summary names the constraint" "$out"
# the table of the best few ranks as the run does: the infeasible left out, the best first
best_t=$(sed -n 's/^time: \([0-9.e+-]*\) ms.*/\1/p' <<<"$out")
rank1=$(awk '/^best [0-9]+ of/{getline; getline; print $2; exit}' <<<"$out")
grep -qE "^best [0-9]+ of [0-9]+ feasible \(16 correct\), by the objective:" <<<"$out" && [ "$rank1" = "$best_t" ] \
    && ok "the table of the best: feasible ones, ranked as the run ranks" \
    || bad "the table of the best: feasible ones, ranked as the run ranks" "$out"

# bo learns the infeasible region; its best still keeps the cap
out=$("$exe" --searcher=bo --budget=12 --subject-to "power_w <= 300" --journal=cb.jsonl energy.json 2>&1)
cfg=$(sed -n 's/^best: bs=\([0-9]*\), v=\([0-9]*\)$/\1 \2/p' <<<"$out")
if [ -n "$cfg" ] && python3 -c "import sys; b, v = map(int, sys.argv[1:]); sys.exit(0 if 50 + 3 * b + 20 * v <= 300 else 1)" $cfg; then
    ok "bo under --subject-to picks a feasible best"
else
    bad "bo under --subject-to picks a feasible best" "$out"
fi
"$exe" --searcher=bo --budget=12 --subject-to "power_w <= 300" --journal=cb2.jsonl energy.json >/dev/null 2>&1
cmp -s cb.jsonl cb2.jsonl && ok "an objective run replays byte-identically" \
    || bad "an objective run replays byte-identically"

out=$("$exe" --searcher=grid --budget=16 --objective='`GFLOP/s` * v:max' --journal=x.jsonl gflops.json 2>&1)
grep -q "^objective: \`GFLOP/s\` \* v:max = " <<<"$out" && ok "a backquoted name in an expression" \
    || bad "a backquoted name in an expression" "$out"

out=$("$exe" --searcher=grid --budget=16 --journal=g.jsonl gflops.json 2>&1)
best_is "a cache tuned for GFLOP/s replays that objective, maximised" best_gflops "$out"
grep -q "gflops.json was tuned for 'GFLOP/s': replaying that objective, maximised" <<<"$out" \
    && ok "... and says so in one line" || bad "... and says so in one line" "$out"
out=$("$exe" --searcher=grid --budget=16 --objective=time --journal=g2.jsonl gflops.json 2>&1)
best_is "--objective=time overrides the cache's objective" best_time "$out"
# a journal of that run replays its objective too, and tune --help says which default wins
out=$("$exe" --searcher=grid --budget=16 --journal=g3.jsonl g.jsonl 2>&1)
grep -q "g.jsonl was tuned for 'GFLOP/s': replaying that objective, maximised" <<<"$out" \
    && ok "a journal tuned for GFLOP/s replays that objective" || bad "a journal tuned for GFLOP/s replays that objective" "$out"
h=$("$exe" tune --help | tr -s ' \n' ' ')
grep -qF "default the spec's \"objective\", else what a recording given as the target was tuned for, else time" <<<"$h" \
    && ! grep -q "time (default)" <<<"$h" && ok "tune --help: the objective's default as the run takes it" \
    || bad "tune --help: the objective's default as the run takes it" "$(grep -A4 -- --objective= <<<"$("$exe" tune --help)")"

# a Kernel Tuner cache with its NVML observer's fields: nvml_energy is energy_j
python3 - <<'PY'
import json
d = json.load(open("energy.json"))
for e in d["cache"].values():
    e["nvml_energy"] = e.pop("energy_j")
    e["nvml_power"] = e.pop("power_w")
json.dump(d, open("ktnvml.json", "w"))
PY
out=$("$exe" --searcher=grid --budget=16 --objective=energy --journal=kn.jsonl --kt-cache=kn.json ktnvml.json 2>&1)
best_is "Kernel Tuner's nvml_energy replays as energy_j" best_energy "$out"
python3 -c "import json; e = next(iter(json.load(open('kn.json'))['cache'].values())); assert e['nvml_energy'] == e['energy_j'] and e['nvml_power'] == e['power_w']" \
    && ok "the Kernel Tuner export carries nvml_energy and nvml_power" \
    || bad "the Kernel Tuner export carries nvml_energy and nvml_power" "$(head -c 600 kn.json)"

expect_fail "the energy objective on a recording without energy" \
    "records no metric 'energy_j' \(which the objective reads\)" --objective=energy plain.json
expect_fail "a syntax error in the objective" "--objective 'energy_j \*': syntax error" \
    --objective='energy_j *' energy.json
expect_fail "a syntax error in a constraint" "--subject-to 'power_w <': syntax error" \
    --subject-to 'power_w <' energy.json
expect_fail "an empty objective" "--objective: empty" --objective= energy.json

# a spec names its default objective; --objective overrides it
root=${CUTUNE_SOURCE_ROOT:-}
if [ -n "$root" ] && [ -e "$root/data/reduction.jsonl.gz" ]; then
    cp "$root/kernels/reduction.cu" .
    python3 - "$root" <<'PY'
import json, sys
s = json.load(open(f"{sys.argv[1]}/kernels/reduction.json"))
s["objective"] = "GB/s:max"
s["recording"] = f"{sys.argv[1]}/data/reduction.jsonl.gz"
json.dump(s, open("red.json", "w"))
s["objective"] = "GB/s +"
json.dump(s, open("redbad.json", "w"))
PY
    out=$("$exe" --evaluator=replay --budget=8 --journal=s.jsonl red.json 2>&1)
    grep -q "^objective: GB/s:max = " <<<"$out" && ok "a spec's objective is the run's default" \
        || bad "a spec's objective is the run's default" "$out"
    out=$("$exe" --evaluator=replay --budget=8 --objective=time --journal=s2.jsonl red.json 2>&1)
    grep -q "^objective:" <<<"$out" && bad "--objective overrides the spec's" "$out" \
        || ok "--objective overrides the spec's"
    expect_fail "a spec's bad objective names the spec" "redbad.json: objective: 'GB/s \+'" \
        --evaluator=replay redbad.json
fi

# resume: the objective is given again, never changed
"$exe" --searcher=random --budget=4 --objective=energy --journal=r.jsonl energy.json >/dev/null 2>&1
out=$("$exe" --resume=r.jsonl --budget=6 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "started with --objective=energy" <<<"$out" \
    && ok "resume without the run's objective is refused, naming it" \
    || bad "resume without the run's objective is refused, naming it" "$out"
"$exe" --resume=r.jsonl --budget=6 --objective=energy >/dev/null 2>&1 \
    && [ "$(grep -c '"kind":"eval"' r.jsonl)" -eq 6 ] && ok "resume with the same objective" \
    || bad "resume with the same objective"
# a maximised objective resumes as given, and only so; a cache's own objective (GFLOP/s,
# maximised) resumes without --objective, as the run was started
"$exe" --searcher=random --budget=10 --objective='1/time_ms:max' --journal=mx.jsonl energy.json >/dev/null 2>&1
head -5 mx.jsonl >m2.jsonl
cp m2.jsonl m3.jsonl
"$exe" --resume=m2.jsonl --objective='1/time_ms:max' >/dev/null 2>&1 && cmp -s mx.jsonl m2.jsonl \
    && ok "resume with the same :max objective: the journal an uninterrupted run writes" \
    || bad "resume with the same :max objective" "$(diff mx.jsonl m2.jsonl | head -3)"
out=$("$exe" --resume=m3.jsonl --objective='1/time_ms' 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "started with --objective=1/time_ms:max" <<<"$out" \
    && ok "resume minimising a maximised run is refused" || bad "resume minimising a maximised run is refused" "$out"
"$exe" --searcher=random --budget=10 --journal=gm.jsonl gflops.json >/dev/null 2>&1
head -5 gm.jsonl >gm2.jsonl
"$exe" --resume=gm2.jsonl >/dev/null 2>&1 && cmp -s gm.jsonl gm2.jsonl \
    && ok "a cache's maximised objective: resumed without --objective, the same journal" \
    || bad "a cache's maximised objective: resumed without --objective" "$(diff gm.jsonl gm2.jsonl | head -3)"
# constraints and objectives are compared as parsed, not as text: another spelling of the
# same one resumes (blanks, 0x40, `name`, aliases, any order), another constraint is
# refused in one line naming the journal; the header holds the canonical form
"$exe" --searcher=random --budget=4 --subject-to='power_w<=300' --subject-to='bs>=64' \
    --journal=sc.jsonl energy.json >/dev/null 2>&1
grep -q '"subject_to":\["power_w <= 300","bs >= 64"\]' sc.jsonl \
    && ok "the header holds the constraints' canonical form" \
    || bad "the header holds the constraints' canonical form" "$(head -c 400 sc.jsonl)"
"$exe" --resume=sc.jsonl --budget=6 --subject-to=' bs >= 0x40 ' --subject-to='`power_w` <= 300' \
    >/dev/null 2>&1 && [ "$(grep -c '"kind":"eval"' sc.jsonl)" -eq 6 ] \
    && ok "resume with the constraints spelt otherwise" || bad "resume with the constraints spelt otherwise"
out=$("$exe" --resume=sc.jsonl --budget=8 --subject-to='power_w <= 301' --subject-to='bs >= 64' 2>&1 >/dev/null)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] \
    && grep -q "^cutune: --resume=sc.jsonl: the run was started with --objective=time --subject-to 'power_w <= 300' --subject-to 'bs >= 64'" <<<"$out" \
    && ok "resume under another constraint: refused in one line" \
    || bad "resume under another constraint: refused in one line" "$out"
# a journal from before the canonical header: its constraint as given
python3 - <<'PY'
import json
lines = open("sc.jsonl").read().splitlines()
h = json.loads(lines[0]); h["subject_to"] = ["power_w<=300", "bs>=64"]
open("sc_old.jsonl", "w").write("\n".join([json.dumps(h, separators=(",", ":"))] + lines[1:5]) + "\n")
PY
"$exe" --resume=sc_old.jsonl --budget=6 --subject-to='power_w <= 300' --subject-to='bs >= 64' \
    >/dev/null 2>&1 && ok "an older journal's constraints as given: resumed when they parse the same" \
    || bad "an older journal's constraints as given: resumed when they parse the same"
"$exe" --searcher=random --budget=4 --objective='energy_j:max' --journal=so.jsonl energy.json >/dev/null 2>&1
"$exe" --resume=so.jsonl --budget=6 --objective=' energy :max' >/dev/null 2>&1 \
    && ok "resume with the objective spelt otherwise (energy for energy_j)" \
    || bad "resume with the objective spelt otherwise (energy for energy_j)"
"$exe" --searcher=random --budget=4 --objectives='time,power_w:max' --journal=sm.jsonl energy.json >/dev/null 2>&1
head -3 sm.jsonl >sm2.jsonl
"$exe" --resume=sm2.jsonl --budget=4 --objectives='time,power_w:max' >/dev/null 2>&1 \
    && cmp -s sm.jsonl sm2.jsonl && ok "--objectives with a maximised last one: resumed as given" \
    || bad "--objectives with a maximised last one: resumed as given"
"$exe" --resume=sm2.jsonl --budget=6 --objectives='time_ms, power_w :max' >/dev/null 2>&1 \
    && ok "--objectives spelt otherwise: resumed" || bad "--objectives spelt otherwise: resumed"
out=$("$exe" --resume=sm2.jsonl --budget=8 --objectives='time,power_w' 2>&1 >/dev/null)
[ $? -eq 2 ] && grep -q "started with --objectives=time,power_w:max;" <<<"$out" \
    && ok "--objectives in another direction: refused, naming them" \
    || bad "--objectives in another direction: refused, naming them" "$out"

# a stop (SIGINT) during the confirmation is a stopped run: exit 130, "signal", said; the
# signal is landed inside the confirmation by gdb (where there is one; LeakSanitizer
# cannot run under ptrace)
if command -v gdb >/dev/null; then
    printf 'set pagination off\nhandle SIGINT nostop noprint pass\nbreak cutune_confirm_run\nrun\nsignal SIGINT\ncontinue\n' >stop.gdb
    ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -x stop.gdb --args "$exe" --budget=12 --journal=cs.jsonl --output=cs.json energy.json >cs.txt 2>&1
    grep -q "exited with code 0202" cs.txt && grep -q "stopped during the confirmation" cs.txt \
        && python3 -c "import json; assert json.load(open('cs.json'))['stop_reason'] == 'signal'" \
        && ok "a stop during the confirmation: exit 130, stop_reason signal" \
        || bad "a stop during the confirmation: exit 130, stop_reason signal" "$(grep -v '^Breakpoint\|^\[' cs.txt | tail -5)"
else
    echo "ok - a stop during the confirmation # SKIP no gdb"
fi

# --confirm: the best few measured again (under replay: drawn from the recorded repetitions
# with the run's seed); a and b are one distribution apart by nothing, c is slower
python3 - <<'PY'
import json
reps = [1.0, 1.02, 0.98, 1.01, 0.99, 1.0, 1.03, 0.97]
cache = {"1": {"a": 1, "time": 0.999, "times": reps, "registers": 64},
         "2": {"a": 2, "time": 1.0, "times": reps[::-1], "registers": 32},
         "3": {"a": 3, "time": 2.0, "times": [2 * x for x in reps], "registers": 16}}
json.dump({"tune_params_keys": ["a"], "tune_params": {"a": [1, 2, 3]}, "cache": cache},
          open("tie.json", "w"))
PY
out=$("$exe" --searcher=grid --budget=3 --journal=k1.jsonl --output=k1.json --header=k1.h tie.json 2>&1)
grep -qx "best: a=1" <<<"$out" && grep -qx "confirmed: a=1" <<<"$out" \
    && grep -q "1 tied with it, decided by fewer registers, then lower energy, then lower configuration id" <<<"$out" \
    && ok "--confirm: a tie without registers goes to the lower configuration id" \
    || bad "--confirm: a tie without registers goes to the lower configuration id" "$out"
grep -q "confirmed over 5 rounds: mean" k1.h && ok "the header names the confirmed interval" \
    || bad "the header names the confirmed interval" "$(head -3 k1.h)"
python3 -c "import json; c = json.load(open('k1.json'))['confirmed']; assert c['winner']['config'] == {'a': 1} and c['simulated'] and len(c['measured']) == 3 and c['measured'][1]['tied'] and not c['measured'][2]['tied']" \
    && ok "the summary JSON holds the confirmation" || bad "the summary JSON holds the confirmation" "$(cat k1.json)"
out2=$("$exe" --searcher=grid --budget=3 --journal=k2.jsonl tie.json 2>&1)
[ "$(grep -v journal: <<<"$out")" = "$(grep -v journal: <<<"$out2")" ] && ok "a replayed confirmation is deterministic" \
    || bad "a replayed confirmation is deterministic" "$out2"
"$exe" --searcher=grid --budget=3 --confirm=0 --journal=k3.jsonl tie.json > k3.txt 2>&1
grep -q "^confirmed" k3.txt && bad "--confirm=0 skips it" "$(cat k3.txt)" || ok "--confirm=0 skips it"
cmp -s k1.jsonl k3.jsonl && ok "confirmation leaves the journal as it was" || bad "confirmation leaves the journal as it was"
out=$("$exe" --searcher=grid --budget=3 --subject-to "registers > 0" --journal=k4.jsonl tie.json 2>&1)
grep -qx "best: a=1" <<<"$out" && grep -qx "confirmed: a=2" <<<"$out" && grep -q "decided by fewer registers)" <<<"$out" \
    && ok "--confirm: among ties, fewer registers" || bad "--confirm: among ties, fewer registers" "$out"
out=$("$exe" --searcher=grid --budget=3 -q --subject-to "registers > 0" --journal=k5.jsonl tie.json 2>/dev/null)
[ "$out" = "a=2" ] && ok "-q prints the confirmed winner" || bad "-q prints the confirmed winner" "$out"
expect_fail "--confirm out of range" "--confirm=65: must be 0..64" --confirm=65 tie.json

# --objectives: the Pareto front of time and energy (the four bs at v=1), its hypervolume
# against the stated reference point (computed here by hand's rule), and its exports
out=$("$exe" --searcher=grid --budget=16 --objectives=time,energy --front=fr --journal=m.jsonl energy.json 2>&1)
grep -q "^front: 4 of 16 feasible configurations are Pareto-optimal in (time, energy)$" <<<"$out" \
    && ok "--objectives: the front" || bad "--objectives: the front" "$out"
hv=$(sed -n 's/^hypervolume: \([0-9.e+-]*\) .*/\1/p' <<<"$out")
python3 - "$hv" <<'PY' && ok "the hypervolume against the stated reference point" || bad "the hypervolume against the stated reference point" "$out"
import json, sys
c = json.load(open("energy.json"))["cache"]
pts = [(e["time"], e["energy_j"]) for e in c.values()]
ref = [max(p[j] for p in pts) + 0.1 * (max(p[j] for p in pts) - min(p[j] for p in pts)) for j in (0, 1)]
front = sorted(p for p in pts if not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts))
area, y = 0.0, ref[1]
for x, v in front:
    area += (ref[0] - x) * (y - v)
    y = v
assert len(front) == 4 and abs(area - float(sys.argv[1])) <= 1e-5 * area, (area, sys.argv[1])
d = json.load(open("fr.json"))
assert abs(d["hypervolume"] - area) <= 1e-9 * area and len(d["front"]) == 4
assert [abs(a - b) < 1e-12 for a, b in zip(d["reference_point"], ref)] == [True, True]
assert sorted(f["config"]["bs"] for f in d["front"]) == [32, 64, 128, 256]
rows = open("fr.csv").read().splitlines()
assert rows[0] == "id,bs,v,time,energy,rank" and len(rows) == 17
PY
[ -s fr.gp ] && ok "the front's gnuplot script" || bad "the front's gnuplot script"
# the front's plot: drawn whole into fr.svg, nothing left beside it; a gnuplot that fails
# (or is stopped) midway leaves the fr.svg an earlier run drew as it was, not one cut short
if command -v gnuplot >/dev/null; then
    grep -q '</svg>' fr.svg && [ -z "$(ls -A | grep '^\.fr\.')" ] &&
        ok "the front's plot: fr.svg whole, nothing left beside it" ||
        bad "the front's plot" "$(ls -A)"
fi
mkdir -p gpfail
cat >gpfail/gnuplot <<'EOF'
#!/bin/bash
eval "$2" || exit 1 # -e "cd 'FOLDER'"
img=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$3" | head -1)
printf '<svg partial' >"$img"
exit 1
EOF
chmod +x gpfail/gnuplot
echo old >fr.svg
PATH="$PWD/gpfail:$PATH" "$exe" --searcher=grid --budget=16 --objectives=time,energy --front=fr \
    --journal=gpf.jsonl energy.json >gpf.txt 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^front: fr.json, fr.csv, fr.gp (no .svg' gpf.txt && [ "$(cat fr.svg)" = old ] && [ -z "$(ls -A | grep '^\.fr\.')" ] &&
    ok "the front's plot: a gnuplot failed midway leaves the earlier fr.svg, nothing beside it" ||
    bad "the front's plot: a gnuplot failed midway: fr.svg is '$(head -c 40 fr.svg)'" "$(ls -A | grep '^\.')"
# cutune bench --objectives: every run is the cutune run of that seed; its hypervolume is
# against the recording's reference point
"$exe" bench --objectives=time,energy --searchers=random,genetic,bo --budgets=6 --seeds=2 \
    --out=mob --quiet energy.json >/dev/null 2>&1
"$exe" --searcher=genetic --seed=2 --budget=6 --objectives=time,energy --journal=mo-g2.jsonl energy.json >/dev/null 2>&1
python3 - <<'PY' && ok "bench --objectives: a run's hypervolume is that of the cutune run" \
    || bad "bench --objectives: a run's hypervolume is that of the cutune run" "$(cat mob/objectives.csv)"
import csv, json
rows = list(csv.DictReader(open("mob/objectives.csv")))
assert len(rows) == 6
row = next(r for r in rows if r["searcher"] == "genetic" and r["seed"] == "2")
ref = (float(row["ref1"]), float(row["ref2"]))
pts = [(d["time_ms"], d["metrics"]["energy_j"]) for d in map(json.loads, open("mo-g2.jsonl"))
       if d.get("kind") == "eval" and d["status"] == "ok"]
front = sorted(p for p in pts if not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts))
area, y = 0.0, ref[1]
for x, v in front:
    if v < y:
        area += (ref[0] - x) * (y - v)
        y = v
assert abs(area - float(row["hypervolume"])) <= 1e-12 * max(area, 1e-300), (area, row)
PY
expect_fail "--front without --objectives" "--front=x: a front needs --objectives" --front=x energy.json
# bo under --objectives: ParEGO by default (another search than mo=geomean), the same run
# for a seed
"$exe" --searcher=bo --seed=4 --budget=10 --objectives=time,energy --journal=pb1.jsonl energy.json >/dev/null 2>&1
"$exe" --searcher=bo --seed=4 --budget=10 --objectives=time,energy --journal=pb2.jsonl energy.json >/dev/null 2>&1
"$exe" --searcher=bo:mo=geomean --seed=4 --budget=10 --objectives=time,energy --journal=pg.jsonl energy.json >/dev/null 2>&1
cmp -s pb1.jsonl pb2.jsonl && ! cmp -s <(sed 1d pb1.jsonl) <(sed 1d pg.jsonl) \
    && ok "bo --objectives: ParEGO, deterministic for a seed" \
    || bad "bo --objectives: ParEGO, deterministic for a seed" "$(head -c 600 pb1.jsonl)"
expect_fail "bo: an unknown mo=" "mo=hv unknown \(valid: parego, geomean, ehvi\)" --searcher=bo:mo=hv \
    --objectives=time,energy energy.json
expect_fail "--objective with --objectives" "give one of them" --objective=time --objectives=time,energy energy.json
expect_fail "one objective in --objectives" "two or more" --objectives=time energy.json
# The same objective twice was accepted (a front with one dimension given twice, weighed
# double in the hypervolume): refused, naming it, in tune and in bench.
expect_fail "an objective given twice in --objectives" \
    "--objectives 'time,energy,time': objective 3, 'time', is objective 1 again" \
    --objectives=time,energy,time energy.json
expect_fail "an objective given twice, spelt two ways" "objective 2, 'time_ms', is objective 1 again" \
    --objectives=time,time_ms energy.json
# blanks around an objective are no part of it ('time ,energy' read 'time ' as a metric)
expect_fail "an objective given twice, with a blank before the comma" \
    "objective 2, 'time', is objective 1 again" --objectives='time ,time' energy.json
"$exe" --searcher=random --budget=4 --objectives='time , energy:max ' -q energy.json >/dev/null 2>&1 \
    && ok "blanks around objectives and their direction are left out" \
    || bad "blanks around objectives and their direction are left out" "exit $?"
out=$("$exe" bench --objectives=energy,energy --searchers=random --budgets=2 --seeds=1 --out=mo2 \
    energy.json 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e mo2 ] \
    && grep -q "^cutune bench: --objectives 'energy,energy': objective 2, 'energy', is objective 1 again" <<<"$out" \
    && ok "bench: an objective given twice in --objectives, the only line, no --out folder" \
    || bad "bench: an objective given twice in --objectives, the only line, no --out folder (exit $rc)" "$out"
# a recording after the first that lacks a metric the objectives read: refused before
# bench prints its table's first lines (it had printed the first recording's part)
out=$("$exe" bench --objectives=time,energy --searchers=random --budgets=2 --seeds=1 --out=mo3 \
    energy.json plain.json 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e mo3 ] && grep -q "records no metric" <<<"$out" \
    && ok "bench: a later recording without an objective's metric, the only line, no --out folder" \
    || bad "bench: a later recording without an objective's metric (exit $rc)" "$out"
# a constant that rules out every configuration is refused; '1/0' divides (not a metric name)
expect_fail "a constant objective that cannot be computed" \
    "--objective '1/0' reads no name and cannot be computed \(division by zero" --objective=1/0 energy.json
expect_fail "a constant false constraint" "--subject-to '0' is false" --subject-to=0 energy.json
# correct runs that the objective rules out: said so, not 'no correct configuration'
out=$("$exe" --searcher=grid --budget=4 --objective='power_w - 1000' --journal=nf.jsonl energy.json 2>&1)
rc=$?
[ $rc -eq 1 ] && grep -q "no feasible configuration found in 4 evaluations: 4 ran correctly" <<<"$out" \
    && ! grep -q "no correct configuration" <<<"$out" \
    && ok "no feasible configuration: named as such" || bad "no feasible configuration: named as such (rc $rc)" "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
