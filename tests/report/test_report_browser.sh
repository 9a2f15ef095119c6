#!/bin/bash
# The report page in a real browser: for a replay run of each shipped recording (data/),
# for a journal with failures of every status and for a journal of one evaluation,
# `cutune report` writes a page that headless Chromium loads with no console message, whose
# DOM (after the script ran) holds every plot and table, and whose screenshot is not
# blank; the same for a journal where nothing is correct. Several journals overlay in one
# page. Skipped (77) where chromium is absent.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
root=${CUTUNE_SOURCE_ROOT:?CUTUNE_SOURCE_ROOT unset}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIP: chromium is not installed (scripts/setup.sh installs it)"
    exit 77
fi
. "$root/tests/cli/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export HOME="$work" # chromium's profile and crash folders stay in the scratch folder

# open PAGE NPARAMS NAME: load, check the DOM and the screenshot
open_page() {
    local page=$1 nparams=$2 name=$3
    if grep -qiE '<link|<img|src=|url\(|@import' "$page" ||
        grep -oE 'https?://[^" ]*' "$page" | grep -qv '^http://www.w3.org/2000/svg$'; then
        bad "$name: the page refers to something outside itself" \
            "$(grep -oiE '<link[^>]*|src=[^ ]*|url\([^)]*|https?://[^" ]*' "$page" | head -3)"
        return
    fi
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --enable-logging=stderr --v=0 --dump-dom "file://$work/$page" >dom.html 2>console.txt
    if grep -q 'CONSOLE' console.txt; then
        bad "$name: console messages" "$(grep CONSOLE console.txt | head -5)"
        return
    fi
    if ! grep -q 'data-ready="1"' dom.html || grep -q 'id="js-error"' dom.html; then
        bad "$name: the page's script did not run to its end" "$(grep -A2 js-error dom.html)"
        return
    fi
    local ids="plot-convergence-evals plot-convergence-time plot-importance plot-heatmap
        plot-failures table-runs table-interactions table-resources table-evals"
    for ((p = 0; p < nparams; p++)); do ids="$ids plot-param-$p"; done
    local missing=""
    for id in $ids; do
        grep -q "id=\"$id\"" dom.html || missing="$missing $id"
    done
    if [ -n "$missing" ]; then
        bad "$name: missing from the page:$missing"
        return
    fi
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --hide-scrollbars --window-size=1280,1600 --screenshot="$work/shot.png" \
        "file://$work/$page" >/dev/null 2>&1
    local stats
    stats=$(python3 "$root/tests/report/png_stats.py" shot.png) || {
        bad "$name: no screenshot" "$stats"
        return
    }
    local colours fg
    colours=$(awk '{print $4}' <<<"$stats")
    fg=$(awk '{print $6}' <<<"$stats")
    if [ "$colours" -lt 20 ] || awk -v f="$fg" 'BEGIN { exit !(f < 0.02) }'; then
        bad "$name: the screenshot is (nearly) blank: $stats"
        return
    fi
    ok "$name ($stats)"
}

nparams_of() { # the header's parameter count
    python3 -c 'import json,sys; print(len(json.loads(open(sys.argv[1]).readline())["params"]))' "$1"
}

for rec in "$root"/data/*.jsonl.gz; do
    k=$(basename "$rec" .jsonl.gz)
    if ! "$exe" --searcher=random --budget=40 --no-progress --journal="$k.jsonl" "$rec" \
        >"$k.out" 2>&1; then
        bad "$k: replay run failed" "$(cat "$k.out")"
        continue
    fi
    if ! "$exe" report "$k.jsonl" --html="$k.html" >"$k.rep" 2>&1; then
        bad "$k: cutune report failed" "$(cat "$k.rep")"
        continue
    fi
    open_page "$k.html" "$(nparams_of "$k.jsonl")" "$k replay"
done

# the table sorts: opened as PAGE#sort=2 it is in increasing time (column 2), by a click
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --dump-dom \
    "file://$work/gemm.html#sort=2" >sorted.html 2>/dev/null
if python3 - sorted.html <<'EOF'
import re, sys
body = open(sys.argv[1]).read().split('id="table-evals"')[1].split("</tbody>")[0]
times = [float(m) for m in re.findall(
    r'<tr><td data-v="[^"]*">[^<]*</td><td class="t">ok</td><td data-v="([^"]*)"', body)]
assert len(times) == 40 and times == sorted(times) and times != sorted(times, reverse=True), times
EOF
then ok "the evaluation table sorts by time"; else bad "the evaluation table does not sort"; fi

# every status: a replay journal's evaluations turned into each failure in turn
"$exe" --searcher=random --budget=42 --no-progress --journal=va.jsonl \
    "$root/data/vector_add.jsonl.gz" >/dev/null 2>&1
python3 - va.jsonl fail.jsonl <<'EOF'
import json, sys
statuses = ["ok", "compile_error", "launch_error", "runtime_error", "timeout",
            "wrong_result", "missing"]
out = open(sys.argv[2], "w")
for i, line in enumerate(open(sys.argv[1])):
    j = json.loads(line)
    if j["kind"] == "eval":
        s = statuses[j["n"] % len(statuses)]
        j["status"] = s
        if s != "ok":
            j["time_ms"], j["times_ms"] = None, []
            j["log"] = "error: <b>not</b> & \"quoted\""
    out.write(json.dumps(j) + "\n")
EOF
"$exe" report fail.jsonl --html=fail.html >/dev/null 2>&1 || bad "failures: cutune report failed"
[ -f fail.html ] && open_page fail.html "$(nparams_of fail.jsonl)" "every status"
for s in compile_error launch_error runtime_error timeout wrong_result missing; do
    grep -q "<text x=\"[0-9.]*\" y=\"[0-9.]*\" font-size=\"11\">$s</text>" fail.html ||
        { bad "every status: no legend entry for $s"; break; }
done

# nothing correct: every evaluation failed (plots say so, nothing breaks)
python3 - va.jsonl none.jsonl <<'EOF'
import json, sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["kind"] == "eval":
        j["status"], j["time_ms"], j["times_ms"] = "compile_error", None, []
    out.write(json.dumps(j) + "\n")
EOF
"$exe" report none.jsonl --html=none.html >/dev/null 2>&1 || bad "nothing correct: report failed"
[ -f none.html ] && open_page none.html "$(nparams_of none.jsonl)" "nothing correct"
grep -q 'No correct evaluation in these journals' none.html &&
    ok "nothing correct: the convergence plot says so" || bad "nothing correct: no note"

# one evaluation
"$exe" --searcher=random --budget=1 --no-progress --journal=one.jsonl \
    "$root/data/gemm.jsonl.gz" >/dev/null 2>&1
"$exe" report one.jsonl --html=one.html >/dev/null 2>&1 || bad "one evaluation: report failed"
[ -f one.html ] && open_page one.html "$(nparams_of one.jsonl)" "one evaluation"
grep -q 'Not enough data' one.html && ok "one evaluation: importance says there is too little" ||
    bad "one evaluation: no 'Not enough data' note"

# several runs overlaid: two searchers, one page, a line and a legend entry each
"$exe" --searcher=bo --budget=30 --no-progress --journal=bo.jsonl "$root/data/gemm.jsonl.gz" \
    >/dev/null 2>&1
"$exe" report gemm.jsonl bo.jsonl --html=two.html >/dev/null 2>&1
open_page two.html "$(nparams_of bo.jsonl)" "two runs"
lines=$(grep -c '<polyline class="run"' two.html)
[ "$lines" -eq 4 ] && grep -q '2: gemm, bo, seed 1' two.html && ok "two runs: overlaid ($lines lines)" ||
    bad "two runs: want 4 lines (2 plots x 2 runs) and a legend for bo, got $lines"

echo "passed $pass, failed $fail"
[ "$fail" -eq 0 ]
