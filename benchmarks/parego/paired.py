#!/usr/bin/env python3
"""ParEGO (bo) less the geometric mean (bo:mo=geomean): the hypervolume share of each
recording and budget, paired by seed, its mean and standard error (objectives.csv files of
`cutune bench --objectives`)."""
import csv, math, os, sys

def main(paths):
    print("| recording | budget | seeds | bo (ParEGO) | bo:mo=geomean | difference | s.e. |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for p in paths:
        runs = {}
        for row in csv.DictReader(open(p)):
            runs[(row["searcher"], int(row["budget"]), int(row["seed"]))] = float(row["fraction"])
        rec = os.path.basename(os.path.dirname(p))
        for b in sorted({k[1] for k in runs}):
            seeds = sorted(k[2] for k in runs if k[0] == "bo" and k[1] == b)
            d = [runs[("bo", b, s)] - runs[("bo:mo=geomean", b, s)] for s in seeds]
            m = sum(d) / len(d)
            se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else 0
            pa = sum(runs[("bo", b, s)] for s in seeds) / len(seeds)
            pg = sum(runs[("bo:mo=geomean", b, s)] for s in seeds) / len(seeds)
            print(f"| {rec} | {b} | {len(seeds)} | {100*pa:.1f}% | {100*pg:.1f}% | {100*m:+.2f} | {100*se:.2f} |")

if __name__ == "__main__":
    main(sys.argv[1:])
