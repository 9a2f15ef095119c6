#!/usr/bin/env bash
# benchmarks/searchers/noise.py (docs/searchers.md, "Where the recording cannot rank the
# optimum"): the optimum's relative standard error from its repetitions, the
# configurations within 2 sqrt(2) SE of it, and the run-to-run scatter between two
# journals of one space; bad usage exits 2. TAP-like lines and a closing count.
set -u
here=$(cd "$(dirname "$0")" && pwd)
script="$here/../../benchmarks/searchers/noise.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
exe=: # lib.sh expects it; this test runs no cutune
. "$here/lib.sh"
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }

# Four configurations; the optimum's 4 repetitions are 1.0 +- 0.034641 (sd 0.04:
# SE 0.02, 2% of 1.0): 2 sqrt(2) SE = 5.66%, so 1.03 and 1.05 are tied with it and 1.07
# is not. In the second journal the second configuration is the fastest.
python3 - <<'PY'
import json
def journal(path, times):
    with open(path, "w") as f:
        f.write(json.dumps({"kind": "header", "format": 1}) + "\n")
        for i, t in enumerate(times):
            reps = [t + d for d in (-0.034641, 0.034641, -0.034641, 0.034641)]
            f.write(json.dumps({"kind": "eval", "n": i, "config": {"a": i}, "status": "ok",
                                "time_ms": t, "times_ms": reps}) + "\n")
        f.write(json.dumps({"kind": "eval", "n": 9, "config": {"a": 9}, "status": "compile_error",
                            "time_ms": None}) + "\n")
journal("a.jsonl", [1.0, 1.03, 1.05, 1.07])
journal("b.jsonl", [1.01, 1.0, 1.0605, 1.1021])
PY
out=$(python3 "$script" a.jsonl --top=2 2>&1)
grep -q "4 configurations; optimum 1 ms, relative SE 2.000% (4 repetitions); 3 within" <<<"$out" \
    && ok "noise.py: the optimum's SE and the configurations tied with it" \
    || bad "noise.py: the optimum's SE and the configurations tied with it" "$out"
[ "$(grep -c '^  [01]\.' <<<"$out")" -eq 2 ] && ok "noise.py: --top lines" || bad "noise.py: --top lines" "$out"
out=$(python3 "$script" a.jsonl b.jsonl 2>&1)
# log ratios: log(1/1.01), log(1.03), log(1.05/1.0605) = log(1/1.01), log(1.07/1.1021) = log(1/1.03)
sd=$(python3 -c "import math,statistics as s; print('%.3f%%' % (100*s.stdev([math.log(1/1.01), math.log(1.03), math.log(1/1.01), math.log(1/1.03)])))")
grep -q "4 configurations in common; sd of log(t / t_other) $sd" <<<"$out" \
    && ok "noise.py: the run-to-run scatter of two journals" \
    || bad "noise.py: the run-to-run scatter of two journals" "$out"
grep -q "optimum of the first: 0.9901 of the second's optimum" <<<"$out" \
    && grep -q "optimum of the second: 0.9709 of the first's optimum" <<<"$out" \
    && ok "noise.py: each optimum in the other" || bad "noise.py: each optimum in the other" "$out"
python3 "$script" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "noise.py: no journal: exit 2" || bad "noise.py: no journal: exit $rc"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
