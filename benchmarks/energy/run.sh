#!/bin/bash
# Energy on the GPU: records gemm (compute-bound) and reduction (memory-bound) with the
# CUDA evaluator's NVML energy metrics, each on a uniform random sample of its valid space
# (the random searcher draws without replacement: --searcher=random --seed=1, SAMPLE
# configurations, default 200), then prints the time-optimal and the energy-optimal
# configuration of each sample (time, energy per launch, average power) and how the
# measurements went (energy source, window, counter readings, throttling).
#
#   benchmarks/energy/run.sh BUILD_DIR OUTDIR [SAMPLE] [KERNELS]
#   e.g. benchmarks/energy/run.sh build-rel benchmarks/energy/results
#
# OUTDIR gets, per kernel: KERNEL-energy.jsonl (the cutune journal, a recording that
# `cutune --evaluator=replay` reads), KERNEL-energy.json (the same in Kernel Tuner's cache
# format, energy_j / power_w / ... in each entry), KERNEL-summary.json; and results.csv,
# results.json, the table below. Each energy window is at least 0.1 s (energy_window=0.1:
# short kernels get untimed launches added) so that NVML's counter advances within it.
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
sample=${3:-200}
kernels=${4:-gemm reduction}
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "no $exe: build first"; exit 1; }
command -v nvidia-smi >/dev/null || { echo "skipped: no nvidia-smi (no GPU)"; exit 77; }
mkdir -p "$out"
for k in $kernels; do
    rm -f "$out/$k-energy.jsonl" "$out/$k-energy.json" "$out/$k-summary.json"
    t0=$(date +%s)
    "$exe" --searcher=random --seed=1 --batch=16 --budget="$sample" \
        --evaluator=cuda:energy_window=0.1 --no-progress \
        --journal="$out/$k-energy.jsonl" --kt-cache="$out/$k-energy.json" \
        --output="$out/$k-summary.json" "$k" > "$out/$k-run.txt" 2>&1
    rc=$?
    echo "$k: exit $rc, $(( $(date +%s) - t0 )) s ($out/$k-run.txt)"
done
python3 - "$out" $kernels <<'PY'
import csv, json, statistics, sys
out, kernels = sys.argv[1], sys.argv[2:]
rows = []
for k in kernels:
    try:
        lines = [json.loads(l) for l in open(f"{out}/{k}-energy.jsonl")]
    except OSError:
        continue
    head = lines[0]
    ok = [l for l in lines[1:] if l.get("status") == "ok"]
    en = [l for l in ok if "energy_j" in (l.get("metrics") or {})]
    if not en:
        print(f"{k}: {len(ok)} ok evaluations, none with energy_j (no NVML energy here?)")
        continue
    m = lambda l, n: l["metrics"].get(n, float("nan"))
    def cfg(l):
        return ",".join(f"{a}={b}" for a, b in l["config"].items())
    t_best = min(en, key=lambda l: l["time_ms"])
    e_best = min(en, key=lambda l: m(l, "energy_j"))
    edp_best = min(en, key=lambda l: m(l, "energy_j") * l["time_ms"])
    src = {1: "counter", 2: "sampled"}.get(int(m(en[0], "energy_source")), "?")
    win = statistics.median(m(l, "energy_window_ms") for l in en)
    rd = statistics.median(m(l, "energy_readings") for l in en)
    thr = sum(1 for l in ok if m(l, "throttled") == 1)
    rem = sum(1 for l in ok if m(l, "remeasured") == 1)
    print(f"\n{k}: {len(lines) - 1} evaluated, {len(ok)} ok, {len(en)} with energy "
          f"(source {src}, median window {win:.0f} ms, median {rd:.0f} counter readings; "
          f"throttled {thr}, measured again {rem})")
    print(f"  {'optimum':8} {'time_ms':>9} {'energy_mJ':>10} {'power_W':>8}  configuration")
    for name, l in (("time", t_best), ("energy", e_best), ("edp", edp_best)):
        r = {"kernel": k, "optimum": name, "time_ms": l["time_ms"],
             "energy_mj": m(l, "energy_j") * 1e3, "power_w": m(l, "power_w"),
             "sm_clock_mhz": m(l, "sm_clock_mhz"), "temp_c": m(l, "temp_c"),
             "config": cfg(l), "evaluated": len(lines) - 1, "with_energy": len(en),
             "energy_source": src, "median_window_ms": win, "throttled": thr}
        rows.append(r)
        print(f"  {name:8} {r['time_ms']:9.4f} {r['energy_mj']:10.3f} {r['power_w']:8.1f}  {r['config']}")
    dt = e_best["time_ms"] / t_best["time_ms"] - 1
    de = m(e_best, "energy_j") / m(t_best, "energy_j") - 1
    print(f"  energy-optimal vs time-optimal: time {dt:+.1%}, energy {de:+.1%}")
if rows:
    with open(f"{out}/results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    json.dump(rows, open(f"{out}/results.json", "w"), indent=1)
PY
