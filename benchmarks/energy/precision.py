"""The table of precision.sh: per kernel, mode and configuration, the energy per launch
(mean of the confirmation rounds), its coefficient of variation over the rounds, and the
window's metrics at the search's measurement (busy fraction, length, counter readings,
step, update period, resolution bound); then per kernel and mode the median of each.

    python3 precision.py OUTDIR KERNEL...
"""
import csv
import json
import statistics
import sys

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228}
MODES = ["sync-0.1", "b2b-0.1", "b2b-0.25"]
COLS = ["energy_busy", "energy_window_ms", "energy_launches", "energy_readings",
        "energy_step_mj", "energy_update_ms", "energy_resolution"]

out, kernels = sys.argv[1], sys.argv[2:]
rows = []
for k in kernels:
    for mode in MODES:
        try:
            summ = json.load(open(f"{out}/prec-{k}-{mode}.json"))
            evals = [json.loads(l) for l in open(f"{out}/prec-{k}-{mode}.jsonl")][1:]
        except (OSError, ValueError) as e:
            print(f"{k} {mode}: no results ({e})")
            continue
        by_cfg = {json.dumps(e["config"], sort_keys=True): e for e in evals
                  if e.get("kind") == "eval" and e.get("status") == "ok"}
        for c in (summ.get("confirmed") or {}).get("measured", []):
            n, mean = c["rounds"], c["mean"]
            lo, hi = c["ci95"]
            sd = (hi - lo) / 2 * n ** 0.5 / T975[n - 1] if n >= 2 else float("nan")
            ev = by_cfg.get(json.dumps(c["config"], sort_keys=True), {})
            met = ev.get("metrics", {})
            r = {"kernel": k, "mode": mode, "id": c["id"], "rounds": n,
                 "energy_mj": mean * 1e3, "cv": sd / mean, "time_ms": ev.get("time_ms")}
            r.update({col: met.get(col, float("nan")) for col in COLS})
            if r["energy_busy"] != r["energy_busy"] and met.get("energy_window_ms"):
                # a recording from before energy_busy: launches x the timed median / window
                r["energy_busy"] = (met["energy_launches"] * ev["time_ms"]
                                    / met["energy_window_ms"])
            rows.append(r)

fmt = "{:9} {:9} {:>6} {:>10} {:>7} {:>6} {:>9} {:>8} {:>8} {:>8} {:>9} {:>7}"
print(fmt.format("kernel", "mode", "id", "energy_mJ", "CV", "busy", "window_ms", "launches",
                 "readings", "step_mJ", "update_ms", "resol"))
for r in rows:
    print(fmt.format(r["kernel"], r["mode"], r["id"], f"{r['energy_mj']:.2f}", f"{r['cv']:.2%}",
                     f"{r['energy_busy']:.2f}", f"{r['energy_window_ms']:.0f}",
                     f"{r['energy_launches']:.0f}", f"{r['energy_readings']:.0f}",
                     f"{r['energy_step_mj']:.0f}", f"{r['energy_update_ms']:.1f}",
                     f"{r['energy_resolution']:.3f}"))
print("\nmedians over the configurations:")
print("{:9} {:9} {:>7} {:>7} {:>6} {:>9} {:>9} {:>7}".format(
    "kernel", "mode", "CV", "maxCV", "busy", "window_ms", "update_ms", "resol"))
for k in kernels:
    for mode in MODES:
        rs = [r for r in rows if r["kernel"] == k and r["mode"] == mode]
        if not rs:
            continue
        med = lambda c: statistics.median(r[c] for r in rs)
        print("{:9} {:9} {:>7} {:>7} {:>6} {:>9} {:>9} {:>7}".format(
            k, mode, f"{med('cv'):.2%}", f"{max(r['cv'] for r in rs):.2%}",
            f"{med('energy_busy'):.2f}", f"{med('energy_window_ms'):.0f}",
            f"{med('energy_update_ms'):.1f}", f"{med('energy_resolution'):.3f}"))
if rows:
    with open(f"{out}/precision.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
