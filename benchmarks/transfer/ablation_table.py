#!/usr/bin/env python3
"""The ablation's summary (ablation.sh): one row per variant from OUT/VARIANT/results.json
into OUT/results.md (printed).

    ablation_table.py OUT"""
import json, os, sys

out = sys.argv[1]
names = ["default", "design-only", "prior-only", "both", "both-no-test", "both-weight-lcb"]
budgets = (10, 20, 40, 60)
rows, cold = [], None
for n in names:
    p = os.path.join(out, n, "results.json")
    if not os.path.exists(p):
        continue
    r = json.load(open(p))
    s, m = r["summary"]["all GPU pairs"], r["summary"]["misleading sources"]
    cell = lambda d, b: f"{d[str(b)]['warm']:.3f} ({d[str(b)]['diff']:+.3f} +- {d[str(b)]['se']:.3f})"
    searcher = r["command"].split("searcher ")[-1].rstrip(")")
    rows.append(f"| {n} | `{searcher}` | " + " | ".join(cell(s, b) for b in budgets) + " | " +
                " | ".join(cell(m, b) for b in budgets) + " |")
    if cold is None:
        cold = "Cold, the same seeds: pairs " + ", ".join(
            f"B={b} {s[str(b)]['cold']:.3f}" for b in budgets) + "; misleading " + ", ".join(
            f"B={b} {m[str(b)]['cold']:.3f}" for b in budgets) + "."
        npairs = max(c["pairs"] for c in s.values())
        nmis = max(c["pairs"] for c in m.values())
        seeds = r["pairs"][0]["seeds"]
L = ["# Warm-start ablation (benchmarks/transfer/ablation.sh)", ""]
if rows:
    L += [f"Mean fraction of the optimum over {npairs} GPU pairs and {nmis} misleading sources "
          f"(pnpoly, inverse), {seeds} seeds each: warm (diff = warm - cold paired by seed +- "
          "standard error).", "", cold, "",
          "| variant | searcher | " + " | ".join(f"pairs B={b}" for b in budgets) + " | " +
          " | ".join(f"misleading B={b}" for b in budgets) + " |",
          "|---|---|" + "---:|" * 8] + rows
md = "\n".join(L) + "\n"
open(os.path.join(out, "results.md"), "w").write(md)
print(md)
