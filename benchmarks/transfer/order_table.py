#!/usr/bin/env python3
"""The source's ranking alone against warm and cold bo (benchmarks/transfer/order.sh).

    order_table.py OUT COMMAND GPU_ORDER.csv|- GPU_RESULTS.csv SIZE_ORDER.csv SIZE_RESULTS.csv

An ORDER file holds bench_transfer --mode order rows (target,source,order,0,budget,
fraction); a RESULTS file is table.py's results.csv of the same pairs (warm and cold bo,
mean over seeds). Writes OUT/results.md (printed), results.csv and results.json."""
import csv, json, sys
from collections import defaultdict

out, command = sys.argv[1:3]
groups = [("GPU pairs", sys.argv[3], sys.argv[4]), ("size pairs", sys.argv[5], sys.argv[6])]

def mean(xs):
    return sum(xs) / len(xs)

L = ["# A source's ranking alone (benchmarks/transfer/order.sh)\n",
     f"Command: `{command}`\n",
     "Fraction of the target's optimum after evaluating its first B configurations in the "
     "order of the source's prior (the source's best first, no search: `order`), beside "
     "bo warm-started from that source and cold bo (the means over seeds of "
     "[results.md](../results.md) and [sizes/results.md](../sizes/results.md)). Means over "
     "the pairs of each group.\n"]
rows, summary = [], {}
for name, order_csv, res_csv in groups:
    if order_csv == "-":
        L.append(f"{name}: skipped (no recordings).\n")
        continue
    order = defaultdict(dict)
    for r in csv.DictReader(open(order_csv)):
        order[(r["source"], r["target"])][int(r["budget"])] = float(r["fraction"])
    bo = defaultdict(dict)
    for r in csv.DictReader(open(res_csv)):
        if r["kind"] == "pair":
            bo[(r["source"], r["target"])][int(r["budget"])] = (float(r["warm"]), float(r["cold"]))
    keys = sorted(k for k in order if k in bo)
    # the budgets every pair has in both files (a mean over fewer pairs is not shown)
    budgets = sorted(set.intersection(*[set(order[k]) & set(bo[k]) for k in keys])) if keys else []
    if not keys or not budgets:
        sys.exit(f"order_table.py: {name}: no pair and budget in both {order_csv} and {res_csv}")
    summ = {b: {"order": mean([order[k][b] for k in keys]),
                "warm": mean([bo[k][b][0] for k in keys]),
                "cold": mean([bo[k][b][1] for k in keys])} for b in budgets}
    summary[name] = {"pairs": len(keys), "budgets": summ}
    L.append(f"## {name} ({len(keys)})\n")
    L.append("| | " + " | ".join(f"B={b}" for b in budgets) + " |")
    L.append("|---|" + "---:|" * len(budgets))
    for what, label in (("order", "source's order, no search"), ("warm", "bo, warm"), ("cold", "bo, cold")):
        L.append(f"| {label} | " + " | ".join(f"{summ[b][what]:.3f}" for b in budgets) + " |")
    if 20 in budgets and 60 in budgets:
        L.append("")
        reach = [k for k in keys if order[k][20] >= bo[k][60][1]]
        L.append(f"Pairs where the source's first 20 reach cold bo at 60: {len(reach)} of {len(keys)}.\n")
    L.append("| source -> target | " + " | ".join(f"B={b} order | warm | cold" for b in budgets) + " |")
    L.append("|---|" + "---:|---:|---:|" * len(budgets))
    for k in keys:
        L.append(f"| {k[0]} -> {k[1]} | " + " | ".join(
            f"{order[k][b]:.3f} | {bo[k][b][0]:.3f} | {bo[k][b][1]:.3f}" for b in budgets) + " |")
        for b in budgets:
            rows.append({"group": name, "source": k[0], "target": k[1], "budget": b,
                         "order": order[k][b], "warm": bo[k][b][0], "cold": bo[k][b][1]})
    L.append("")
md = "\n".join(L) + "\n"
open(f"{out}/results.md", "w").write(md)
print(md)
with open(f"{out}/results.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["group", "source", "target", "budget", "order", "warm", "cold"])
    w.writeheader()
    w.writerows(rows)
json.dump({"command": command, "summary": summary, "pairs": rows}, open(f"{out}/results.json", "w"), indent=1)
