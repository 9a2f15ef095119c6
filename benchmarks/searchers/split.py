#!/usr/bin/env python3
"""Leave-one-GPU-out on a subset of a bench's searchers, from its results.csv.

    benchmarks/searchers/split.py RESULTS.csv [--candidates=A,B,...] [--convention=C]

(separate the candidates with ';' when their labels hold commas: 'bo;bo:init=10,design=random')

The same rule as `cutune bench --split` (src/tune/bench_split.c), applied to the
candidates named (default: every searcher of the file), so that one bench run with every
variant of several options serves the choice of each: for each GPU the candidate with the
best mean over the recordings of every other GPU is chosen, per budget and for P over
evaluations, and its score on the left-out GPU's recordings is averaged. Recordings are
named KERNEL_GPU; the kernel is the name up to the first '_', lower-cased. Prints one
markdown table per convention: each candidate's mean, the choice's, and the best per
recording, by kernel and over all recordings.
"""
import csv
import sys


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    rows = list(csv.DictReader(open(args[0], newline="")))
    if not rows:
        sys.stderr.write("split.py: %s: no rows\n" % args[0])
        return 2
    cands = opts.get("candidates")
    order = []
    for r in rows:
        if r["searcher"] not in order:
            order.append(r["searcher"])
    cands = (cands.split(";") if ";" in cands else cands.split(",")) if cands else order
    for c in cands:
        if c not in order:
            sys.stderr.write("split.py: %s: no searcher '%s' (it has: %s)\n"
                             % (args[0], c, ", ".join(order)))
            return 2
    convs = [opts["convention"]] if "convention" in opts else \
        list(dict.fromkeys(r["convention"] for r in rows))
    for conv in convs:
        score = {}  # (rec, searcher, column) -> value
        recs, cols = [], []
        for r in rows:
            if r["convention"] != conv or r["searcher"] not in cands:
                continue
            if r["recording"] not in recs:
                recs.append(r["recording"])
            b = "B=" + r["budget"]
            if b not in cols:
                cols.append(b)
            score[(r["recording"], r["searcher"], b)] = float(r["mean"])
            if r["p_evals"]:
                score[(r["recording"], r["searcher"], "P")] = float(r["p_evals"])
        cols.append("P")
        gpu = {x: x.split("_", 1)[1] if "_" in x else x for x in recs}
        kern = {x: x.split("_", 1)[0].lower() for x in recs}

        def chosen(rec, col):
            best, bestv = None, None
            for c in cands:
                v = [score[(o, c, col)] for o in recs
                     if gpu[o] != gpu[rec] and (o, c, col) in score]
                if v and (bestv is None or sum(v) / len(v) > bestv):
                    best, bestv = c, sum(v) / len(v)
            return best

        print("### %s: leave-one-GPU-out over %s\n" % (conv, ", ".join(cands)))
        print("| kernel: searcher | " + " | ".join(cols) + " |")
        print("|---|" + "---:|" * len(cols))
        for k in list(dict.fromkeys(kern[x] for x in recs)) + [None]:
            rs = [x for x in recs if k is None or kern[x] == k]
            label = k or "all"
            lines = [(c, lambda x, col, c=c: score.get((x, c, col))) for c in cands]
            lines.append(("**chosen without the GPU**",
                          lambda x, col: score.get((x, chosen(x, col), col))))
            lines.append(("**best per recording**",
                          lambda x, col: max(score.get((x, c, col), float("-inf"))
                                             for c in cands)))
            for name, f in lines:
                cells = []
                for col in cols:
                    v = [f(x, col) for x in rs]
                    v = [y for y in v if y is not None and y != float("-inf")]
                    cells.append("%.3f" % (sum(v) / len(v)) if v else "-")
                print("| %s: %s | %s |" % (label, name, " | ".join(cells)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
