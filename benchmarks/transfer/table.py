#!/usr/bin/env python3
"""Fold bench_transfer's runs (target,source,method,seed,budget,fraction) into the warm
against cold table: results.md (printed), results.csv, results.json in OUT.

    table.py RUNS.csv OUT LOG COMMAND SECONDS [WHAT]

WHAT names what differs between a source and its target ("GPU", the default, or "size").

A cell is the mean fraction of the optimum over seeds; a difference is warm - cold paired
by seed (the same seed of the same target), with its standard error over seeds; over
pairs, the mean of the pairs' differences with the standard error sqrt(sum se^2) / P."""
import os
import csv, json, math, sys
from collections import defaultdict

runs, out, log, command, secs = sys.argv[1:6]
what = sys.argv[6] if len(sys.argv) > 6 else "GPU"
frac = defaultdict(dict)  # (target, source, method, budget) -> {seed: fraction}
budgets = set()
for r in csv.DictReader(open(runs)):
    b = int(r["budget"])
    budgets.add(b)
    frac[(r["target"], r["source"], r["method"], b)][int(r["seed"])] = float(r["fraction"])
budgets = sorted(budgets)
refused = [l.strip() for l in open(log) if "skipped" in l]

def family(name):
    return "gemm" if name.lower().startswith("gemm") else name.split("_")[0]

def mean(xs):
    return sum(xs) / len(xs)

def diff_stats(a, b):
    """mean and standard error of a[s] - b[s] over the seeds both have"""
    d = [a[s] - b[s] for s in a if s in b]
    m = mean(d)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1)) if len(d) > 1 else 0.0
    return m, sd / math.sqrt(len(d)), len(d)

pairs = sorted({(t, s) for (t, s, m, b) in frac if m == "warm"},
               key=lambda p: (family(p[0]), p[1] in ("inverse",) or family(p[1]) != family(p[0]), p))
rows = []
for t, s in pairs:
    kind = "pair" if family(s) == family(t) else "misleading"
    if s == "inverse" or s.startswith("others+"):
        kind = "misleading"  # the target inverted, or a list with a misleading file
    elif s == "others":
        kind = "pair"  # the other GPUs at once: one row per target
    row = {"target": t, "source": s, "kind": kind, "seeds": 0, "budgets": {}}
    for b in budgets:
        w, c = frac.get((t, s, "warm", b)), frac.get((t, "-", "cold", b))
        if not w or not c:
            continue
        m, se, n = diff_stats(w, c)
        row["seeds"] = n
        row["budgets"][b] = {"warm": mean(list(w.values())), "cold": mean(list(c.values())),
                             "diff": m, "se": se}
    if 20 in budgets and 60 in budgets:
        w20, c60 = frac[(t, s, "warm", 20)], frac[(t, "-", "cold", 60)]
        m, se, _ = diff_stats(w20, c60)
        row["warm20_minus_cold60"] = {"diff": m, "se": se}
    rows.append(row)

def summary(sel):
    res = {}
    for b in budgets:
        cells = [r["budgets"][b] for r in sel if b in r["budgets"]]
        if not cells:
            continue
        res[b] = {"warm": mean([c["warm"] for c in cells]), "cold": mean([c["cold"] for c in cells]),
                  "diff": mean([c["diff"] for c in cells]),
                  "se": math.sqrt(sum(c["se"] ** 2 for c in cells)) / len(cells),
                  "pairs": len(cells)}
    return res

gpu_pairs = [r for r in rows if r["kind"] == "pair"]
summ = {f"all {what} pairs": summary(gpu_pairs)}
for fam in sorted({family(r["target"]) for r in gpu_pairs}):
    summ[f"{fam} pairs"] = summary([r for r in gpu_pairs if family(r["target"]) == fam])
summ["misleading sources"] = summary([r for r in rows if r["kind"] == "misleading"])
tgt = [r["warm20_minus_cold60"] for r in gpu_pairs if "warm20_minus_cold60" in r]
target = None
if tgt:
    target = {"diff": mean([x["diff"] for x in tgt]),
              "se": math.sqrt(sum(x["se"] ** 2 for x in tgt)) / len(tgt), "pairs": len(tgt)}
# cells where warm is below cold by more than two standard errors of the difference
below = [(r["target"], r["source"], b, c["diff"], c["se"]) for r in rows
         for b, c in r["budgets"].items() if c["diff"] < -2 * c["se"]]
def worst(sel):
    cells = [(c["diff"], c["se"], r["target"], r["source"], b) for r in sel
             for b, c in r["budgets"].items()]
    return min(cells) if cells else None
worst_pair, worst_mislead = worst(gpu_pairs), worst([r for r in rows if r["kind"] == "misleading"])

L = []
L.append("# Warm against cold starts (benchmarks/transfer)\n")
L.append(f"Command: `{command}` ({secs} s wall, {os.cpu_count()} cores)\n")
L.append("Fraction of the optimum (t_opt / t_best) after B unique evaluations, mean over "
         "seeds; diff = warm - cold paired by seed, +- its standard error.\n")
L.append("## Summary\n")
L.append("| | pairs | " + " | ".join(f"B={b} warm | cold | diff" for b in budgets) + " |")
L.append("|---|---:|" + "---:|---:|---:|" * len(budgets))
for name, s in summ.items():
    if not s:
        continue
    n = max(c["pairs"] for c in s.values())
    L.append(f"| {name} | {n} | " + " | ".join(
        f"{s[b]['warm']:.3f} | {s[b]['cold']:.3f} | {s[b]['diff']:+.3f} +- {s[b]['se']:.3f}"
        if b in s else " | | " for b in budgets) + " |")
L.append("")
if target:
    L.append(f"Target warm at 20 >= cold at 60, over the {target['pairs']} {what} pairs: "
             f"warm@20 - cold@60 = {target['diff']:+.4f} +- {target['se']:.4f} (standard error).\n")
L.append(f"Cells with warm below cold by more than 2 standard errors: {len(below)} of "
         f"{sum(len(r['budgets']) for r in rows)}" + (":" if below else ".") + "\n")
for t, s, b, d, se in below:
    L.append(f"- {s} -> {t}, B={b}: {d:+.3f} +- {se:.3f}")
if below:
    L.append("")
if worst_pair:
    d, se, t, s, b = worst_pair
    L.append(f"Worst {what} pair cell: {s} -> {t} at B={b}: {d:+.3f} +- {se:.3f}.\n")
if worst_mislead:
    d, se, t, s, b = worst_mislead
    L.append(f"Worst misleading-source cell: {s} -> {t} at B={b}: {d:+.3f} +- {se:.3f}.\n")
for r in refused:
    L.append(f"Refused source: {r}\n")
L.append("## Every pair\n")
L.append("| source -> target | kind | seeds | " + " | ".join(f"B={b} warm | cold | diff" for b in budgets) + " |")
L.append("|---|---|---:|" + "---:|---:|---:|" * len(budgets))
for r in rows:
    L.append(f"| {r['source']} -> {r['target']} | {r['kind']} | {r['seeds']} | " + " | ".join(
        f"{r['budgets'][b]['warm']:.3f} | {r['budgets'][b]['cold']:.3f} | "
        f"{r['budgets'][b]['diff']:+.3f} +- {r['budgets'][b]['se']:.3f}"
        if b in r["budgets"] else " | | " for b in budgets) + " |")
md = "\n".join(L) + "\n"
open(f"{out}/results.md", "w").write(md)
print(md)
with open(f"{out}/results.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["source", "target", "kind", "budget", "seeds", "warm", "cold", "diff", "se"])
    for r in rows:
        for b, c in r["budgets"].items():
            w.writerow([r["source"], r["target"], r["kind"], b, r["seeds"], f"{c['warm']:.6f}",
                        f"{c['cold']:.6f}", f"{c['diff']:.6f}", f"{c['se']:.6f}"])
json.dump({"command": command, "seconds": int(secs) if secs.isdigit() else secs, "budgets": budgets, "pairs": rows, "summary": summ,
           "warm20_minus_cold60": target,
           "below_cold": [{"target": t, "source": s, "budget": b, "diff": d, "se": se}
                          for t, s, b, d, se in below],
           "refused": refused}, open(f"{out}/results.json", "w"), indent=1)
