#!/bin/bash
# `cutune profile` on the GPU: a short gemm run, then Nsight Compute on its best and worst
# configurations; every profile holds achieved occupancy, SM and DRAM throughput against
# peak and warp-stall reasons, and the report shows them. Skipped (77) without a driver or
# device, without ncu (profile's exit 3) and where the host refuses the counters (exit 4).
# CUTUNE_KEEP=DIR keeps the journal, the profiles and the page there.
exe=${CUTUNE_EXE:?CUTUNE_EXE unset}
out=${CUTUNE_KEEP:-$(mktemp -d)}
mkdir -p "$out"
[ -n "${CUTUNE_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
rm -rf "$out/gemm.jsonl" "$out/gemm.profile"
"$exe" --evaluator=cuda --searcher=random --budget=12 --no-progress \
    --journal="$out/gemm.jsonl" gemm >"$out/tune.out" 2>"$out/tune.err"
rc=$?
cat "$out/tune.out"; cat "$out/tune.err" >&2
if grep -qi -e "no CUDA driver" -e "no CUDA device" "$out/tune.err"; then
    exit 77
fi
[ $rc -eq 0 ] || { echo "cutune exited $rc" >&2; exit 1; }
"$exe" profile --top=1 --worst=1 "$out/gemm.jsonl" >"$out/profile.out" 2>"$out/profile.err"
rc=$?
cat "$out/profile.out"; cat "$out/profile.err" >&2
case $rc in
0) ;;
3 | 4) echo "SKIP: cutune profile exited $rc (3: no ncu, 4: counters refused)"; exit 77 ;;
*) echo "cutune profile exited $rc" >&2; exit 1 ;;
esac
python3 - "$out/gemm.profile/profile.json" <<'PY' || exit 1
import json, math, sys
p = json.load(open(sys.argv[1]))
assert p["status"] == "ok", p["status"]
roles = [e["role"] for e in p["entries"]]
assert roles == ["best 1", "worst 1"], roles
for e in p["entries"]:
    m = {x["name"]: x["value"] for x in e["metrics"]}
    for name in ["sm__warps_active.avg.pct_of_peak_sustained_active",
                 "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                 "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                 "l1tex__throughput.avg.pct_of_peak_sustained_active"]:
        v = m.get(name)
        assert v is not None and 0 <= v <= 100.5, (e["role"], name, v)
    assert m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum") is not None, e["role"]
    stalls = [k for k in m if k.startswith("smsp__average_warps_issue_stalled_")]
    assert len(stalls) >= 5, (e["role"], stalls)
    print(e["role"], "n", e["n"], {k.split(".")[0]: m[k] for k in list(m)[:6]})
PY
"$exe" report "$out/gemm.jsonl" --html="$out/gemm.html" || exit 1
grep -q 'id="table-profile"' "$out/gemm.html" || { echo "the report lacks the profile" >&2; exit 1; }
echo "report with profiles: $out/gemm.html"
