#!/usr/bin/env python3
"""Searcher A less searcher B (default: bo, i.e. ParEGO, less bo:mo=geomean): the
hypervolume share of each recording and budget, paired by seed, its mean and standard error
(objectives.csv files of `cutune bench --objectives`).

    paired.py [--a=SEARCHER] [--b=SEARCHER] objectives.csv...
"""
import csv, math, os, sys

def main(args):
    a, b, paths = "bo", "bo:mo=geomean", []
    for x in args:
        if x.startswith("--a="):
            a = x[4:]
        elif x.startswith("--b="):
            b = x[4:]
        else:
            paths.append(x)
    print(f"| recording | budget | seeds | {a} | {b} | difference | s.e. |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for p in paths:
        runs = {}
        for row in csv.DictReader(open(p)):
            runs[(row["searcher"], int(row["budget"]), int(row["seed"]))] = float(row["fraction"])
        rec = os.path.basename(os.path.dirname(p))
        for bud in sorted({k[1] for k in runs}):
            seeds = sorted(k[2] for k in runs if k[0] == a and k[1] == bud and (b, bud, k[2]) in runs)
            if not seeds:
                continue
            d = [runs[(a, bud, s)] - runs[(b, bud, s)] for s in seeds]
            m = sum(d) / len(d)
            se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else 0
            pa = sum(runs[(a, bud, s)] for s in seeds) / len(seeds)
            pb = sum(runs[(b, bud, s)] for s in seeds) / len(seeds)
            print(f"| {rec} | {bud} | {len(seeds)} | {100*pa:.1f}% | {100*pb:.1f}% | {100*m:+.2f} | {100*se:.2f} |")

if __name__ == "__main__":
    main(sys.argv[1:])
