#!/bin/bash
# Energy on the GPU: records gemm (compute-bound) and reduction (memory-bound) with the
# CUDA evaluator's NVML energy metrics, each on a uniform random sample of its valid space
# (the random searcher draws without replacement: --searcher=random --seed=1, SAMPLE
# configurations, default 200), then prints the time-optimal and the energy-optimal
# configuration of each sample (time, energy per launch, average power) and how the
# measurements went (energy source, window, counter readings, throttling); then runs bo
# on gemm with seeds 1-5 (60 evaluations, confirmed) and counts how often the search's
# best and the confirmed winner agree across seeds (STABILITY=0 skips it); and, replaying
# each recording with --objectives=time,energy, its Pareto front (KERNEL-front.json, .csv,
# .svg) and the hypervolume random, genetic and bo reach at 60 and 120 evaluations.
#
#   benchmarks/energy/run.sh BUILD_DIR OUTDIR [SAMPLE] [KERNELS]
#   e.g. benchmarks/energy/run.sh build-rel benchmarks/energy/results
#
# OUTDIR gets, per kernel: KERNEL-energy.jsonl (the cutune journal, a recording that
# `cutune --evaluator=replay` reads), KERNEL-energy.json (the same in Kernel Tuner's cache
# format, energy_j / power_w / ... in each entry), KERNEL-summary.json; and results.csv,
# results.json, the table below. Each configuration's energy is measured over its own
# window of launches issued back to back after its timing, WINDOW seconds long (default
# 0.25: energy_window=WINDOW, energy_batch=1), so that NVML's counter changes many times
# within it and the GPU does not idle in it.
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
sample=${3:-200}
kernels=${4:-gemm reduction}
window=${WINDOW:-0.25}
exe=$build/src/cli/cutune
[ -x "$exe" ] || { echo "no $exe: build first"; exit 1; }
command -v nvidia-smi >/dev/null || { echo "skipped: no nvidia-smi (no GPU)"; exit 77; }
mkdir -p "$out"

# Several objectives on a recording (replay, CPU only): the recording's own front with
# --objectives=time,energy over all of it (grid), then `cutune bench --objectives`: random,
# genetic and bo at 60 and 120 evaluations, seeds 1..MO_SEEDS (default 5), by hypervolume
# against one reference point per recording.
mo_runs() {
    local k=$1 rec="$out/$1-energy.jsonl" n
    [ -s "$rec" ] || return
    n=$(grep -c '"kind":"eval"' "$rec")
    rm -f "$out/$k-front-all.jsonl"
    "$exe" --searcher=grid --budget="$n" --confirm=0 --objectives=time,energy --no-progress \
        --front="$out/$k-front" --journal="$out/$k-front-all.jsonl" "$rec" \
        > "$out/$k-front.txt" 2>&1
    "$exe" bench --objectives=time,energy --searchers=random,genetic,bo --budgets=60,120 \
        --seeds="${MO_SEEDS:-5}" --out="$out/mo-$k" "$rec" > "$out/mo-$k.txt" 2>&1
    cat "$out/mo-$k.txt"
}

for k in $kernels; do
    rm -f "$out/$k-energy.jsonl" "$out/$k-energy.json" "$out/$k-summary.json"
    t0=$(date +%s)
    "$exe" --searcher=random --seed=1 --batch=16 --budget="$sample" \
        --evaluator=cuda:energy_window="$window",energy_batch=1 --no-progress \
        --journal="$out/$k-energy.jsonl" --kt-cache="$out/$k-energy.json" \
        --output="$out/$k-summary.json" "$k" > "$out/$k-run.txt" 2>&1
    rc=$?
    echo "$k: exit $rc, $(( $(date +%s) - t0 )) s ($out/$k-run.txt)"
    # the recording replays energy objectives without a GPU: bo, 60 evaluations
    rm -f "$out/$k-replay-energy.jsonl"
    "$exe" --searcher=bo --budget=60 --objective=energy --no-progress \
        --journal="$out/$k-replay-energy.jsonl" "$out/$k-energy.jsonl" \
        > "$out/$k-replay-energy.txt" 2>&1
    echo "$k: replayed with --objective=energy (bo, 60):"
    grep -E "^(best|objective|confirmed):" "$out/$k-replay-energy.txt" | sed 's/^/    /'
    # the recording's whole (time, energy) front, drawn, and the searchers on it
    mo_runs "$k"
done
# Winner stability: the same bo run with 5 seeds on the GPU, each confirmed (--confirm=5):
# how often the search's best and the confirmed winner are the same configuration.
if [ "${STABILITY:-1}" = 1 ]; then
    for seed in 1 2 3 4 5; do
        rm -f "$out/stab-$seed.jsonl"
        "$exe" --searcher=bo --seed=$seed --budget=60 --no-progress \
            --journal="$out/stab-$seed.jsonl" --output="$out/stab-$seed.json" gemm \
            > "$out/stab-$seed.txt" 2>&1
    done
fi
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
    src = {1.0: "counter", 2.0: "sampled"}.get(m(en[0], "energy_source"), "?")
    win = statistics.median(m(l, "energy_window_ms") for l in en)
    rd = statistics.median(m(l, "energy_readings") for l in en)
    rd = rd if rd == rd else 0
    # the window's duty cycle (launches x the timed median / window) and the counter's bound
    busy = statistics.median(m(l, "energy_launches") * l["time_ms"] / m(l, "energy_window_ms")
                             for l in en)
    res = [m(l, "energy_resolution") for l in en if m(l, "energy_resolution") == m(l, "energy_resolution")]
    res = statistics.median(res) if res else float("nan")
    thr = sum(1 for l in ok if m(l, "throttled") == 1)
    rem = sum(1 for l in ok if m(l, "remeasured") == 1)
    print(f"\n{k}: {len(lines) - 1} evaluated, {len(ok)} ok, {len(en)} with energy "
          f"(source {src}, median window {win:.0f} ms, median {rd:.0f} counter readings; "
          f"throttled {thr}, measured again {rem}; median busy fraction {busy:.2f}, "
          f"median counter step / window energy {res:.3f})")
    print(f"  {'optimum':8} {'time_ms':>9} {'energy_mJ':>10} {'power_W':>8}  configuration")
    for name, l in (("time", t_best), ("energy", e_best), ("edp", edp_best)):
        r = {"kernel": k, "optimum": name, "time_ms": l["time_ms"],
             "energy_mj": m(l, "energy_j") * 1e3, "power_w": m(l, "power_w"),
             "sm_clock_mhz": m(l, "sm_clock_mhz"), "temp_c": m(l, "temp_c"),
             "config": cfg(l), "evaluated": len(lines) - 1, "with_energy": len(en),
             "energy_source": src, "median_window_ms": win, "throttled": thr,
             "median_busy": busy, "median_resolution": res}
        rows.append(r)
        print(f"  {name:8} {r['time_ms']:9.4f} {r['energy_mj']:10.3f} {r['power_w']:8.1f}  {r['config']}")
    dt = e_best["time_ms"] / t_best["time_ms"] - 1
    de = m(e_best, "energy_j") / m(t_best, "energy_j") - 1
    print(f"  energy-optimal vs time-optimal: time {dt:+.1%}, energy {de:+.1%}")
import collections, os
best, conf = [], []
for seed in range(1, 6):
    p = f"{out}/stab-{seed}.json"
    if not os.path.exists(p):
        continue
    d = json.load(open(p))
    if d.get("best"):
        best.append(json.dumps(d["best"]["config"], sort_keys=True))
    if d.get("confirmed"):
        conf.append(json.dumps(d["confirmed"]["winner"]["config"], sort_keys=True))
if best:
    mb = collections.Counter(best).most_common(1)[0][1]
    mc = collections.Counter(conf).most_common(1)[0][1] if conf else 0
    print(f"\nbo, gemm, 60 evaluations, seeds 1-{len(best)}: the most common best is the best of "
          f"{mb} of {len(best)} runs; the most common confirmed winner that of {mc} of {len(conf)}")
    rows.append({"kernel": "gemm", "optimum": "stability", "best_same": mb, "confirmed_same": mc,
                 "runs": len(best)})
if rows:
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    for r in rows:
        for k in keys:
            r.setdefault(k, "")
    with open(f"{out}/results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    json.dump(rows, open(f"{out}/results.json", "w"), indent=1)
PY
