#!/usr/bin/env python3
"""Paired differences of two searchers from a `cutune bench --per-seed` runs.csv.

    benchmarks/searchers/paired.py RUNS.csv A B [--out=paired.csv]

For every (convention, recording, budget) that both searchers ran: the mean fraction of the
optimum of each, and the mean of A - B paired by seed with its standard error (sample sd of
the differences / sqrt(seeds)). Pairing by seed removes the part of the noise the two runs
share (the recording, the seed's draws of a shared design); the standard error says how far
a difference is the searchers' and not the seeds'. Prints a Markdown table; --out writes it
as CSV too.
"""
import collections
import csv
import math
import statistics
import sys


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--out=")]
    outs = [a[len("--out="):] for a in argv[1:] if a.startswith("--out=")]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    path, a, b = args
    runs = collections.defaultdict(lambda: collections.defaultdict(dict))
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["convention"], r["recording"], int(r["budget"]))
            runs[key][r["searcher"]][int(r["seed"])] = float(r["fraction"])
    rows = []
    for key in sorted(runs):
        ra, rb = runs[key].get(a), runs[key].get(b)
        if not ra or not rb:
            continue
        seeds = sorted(set(ra) & set(rb))
        if len(seeds) < 2:
            continue
        d = [ra[s] - rb[s] for s in seeds]
        se = statistics.stdev(d) / math.sqrt(len(d))
        rows.append(key + (len(seeds), statistics.mean(ra[s] for s in seeds),
                           statistics.mean(rb[s] for s in seeds), statistics.mean(d), se))
    if not rows:
        sys.stderr.write(f"paired.py: {path}: no cell that both {a} and {b} ran\n")
        return 2
    print(f"| convention | recording | B | seeds | {a} | {b} | {a} - {b} | beyond 2 SE |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for c, rec, bud, n, ma, mb, md, se in rows:
        flag = "above" if md > 2 * se else "below" if md < -2 * se else ""
        print(f"| {c} | {rec} | {bud} | {n} | {ma:.3f} | {mb:.3f} | {md:+.4f} +- {se:.4f} | {flag} |")
    for out in outs:
        with open(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["convention", "recording", "budget", "seeds", a, b, "diff", "se"])
            for r in rows:
                w.writerow(list(r[:4]) + [f"{x:.6f}" for x in r[4:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
