#!/usr/bin/env python3
"""How many one-parameter neighbours the configurations of cutune journals have.

    benchmarks/searchers/genetic/neighbours.py data/*.jsonl.gz

For each journal (its ok evaluations, the space `cutune bench` searches as recorded):
the configurations, the size of the Cartesian product of the values seen, the mean number
of recorded configurations that differ in one parameter by an adjacent value (the value
before or after in that parameter's sorted values) or by any value, and how many have no
adjacent one. A neighbour move has nothing to move to from those.
"""
import gzip
import json
import sys


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    print("journal,configurations,cartesian,mean_adjacent,mean_any,without_adjacent")
    for path in argv[1:]:
        rows = []
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
            for line in f:
                d = json.loads(line)
                if d.get("kind") == "eval" and d.get("status") == "ok":
                    rows.append(tuple(d["config"].values()))
        rows = list(dict.fromkeys(rows))
        if not rows:
            sys.stderr.write("neighbours.py: %s: no ok evaluations\n" % path)
            return 2
        k = len(rows[0])
        vals = [sorted(set(r[i] for r in rows)) for i in range(k)]
        pos = [{v: j for j, v in enumerate(vs)} for vs in vals]
        have = set(rows)
        cart = 1
        for vs in vals:
            cart *= len(vs)
        adj = anyn = none = 0
        for r in rows:
            a = 0
            for i in range(k):
                j = pos[i][r[i]]
                for jj in (j - 1, j + 1):
                    if 0 <= jj < len(vals[i]) and r[:i] + (vals[i][jj],) + r[i + 1:] in have:
                        a += 1
                anyn += sum(1 for v in vals[i] if v != r[i] and r[:i] + (v,) + r[i + 1:] in have)
            adj += a
            none += a == 0
        n = len(rows)
        print("%s,%d,%d,%.2f,%.2f,%d" % (path, n, cart, adj / n, anyn / n, none))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
