#!/usr/bin/env python3
"""How far a cutune journal's times resolve its optimum.

    benchmarks/searchers/noise.py JOURNAL.jsonl.gz [OTHER.jsonl.gz] [--top=N]

For JOURNAL: the N fastest successful configurations (default 8) with their fraction of
the optimum (t_opt / t) and the relative standard error of their time from its
repetitions (times_ms: sample sd / sqrt(n), the standard error of a mean; a median's is
larger), and how many configurations lie within two standard errors of a difference of
two times (2 sqrt(2) SE of the optimum) of it: the recording cannot rank those against
the optimum. With OTHER (another journal of the same kernel and space, measured in
another session): on the configurations both hold, the standard deviation of
log(t / t_other), the run-to-run noise that repetitions within one session do not show,
and each one's optimum as a fraction of the other's.
"""
import gzip
import json
import math
import statistics
import sys


def load(path):
    """{configuration (sorted items): (time_ms, times_ms)} of the successful evaluations."""
    out = {}
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r.get("kind") == "eval" and r.get("status") == "ok":
                out[tuple(sorted(r["config"].items()))] = (r["time_ms"], r.get("times_ms") or [])
    return out


def rel_se(t, times):
    return statistics.stdev(times) / math.sqrt(len(times)) / t if len(times) > 1 else 0.0


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if not 1 <= len(args) <= 2:
        sys.stderr.write(__doc__)
        return 2
    top = int(opts.get("top", "8"))
    a = load(args[0])
    if not a:
        sys.stderr.write("noise.py: %s: no successful evaluation\n" % args[0])
        return 2
    order = sorted(a, key=lambda k: a[k][0])
    t0, times0 = a[order[0]]
    se0 = rel_se(t0, times0)
    tied = sum(1 for k in order if a[k][0] <= t0 * (1 + 2 * math.sqrt(2) * se0))
    print("%s: %d configurations; optimum %.6g ms, relative SE %.3f%% (%d repetitions); "
          "%d within 2 sqrt(2) SE of it" % (args[0], len(a), t0, 100 * se0, len(times0), tied))
    for k in order[:top]:
        t, ts = a[k]
        print("  %.4f  SE %.3f%%  %s" % (t0 / t, 100 * rel_se(t, ts),
                                         ", ".join("%s=%s" % kv for kv in k)))
    if len(args) == 2:
        b = load(args[1])
        common = [k for k in a if k in b]
        if len(common) < 2:
            sys.stderr.write("noise.py: %s and %s share %d configurations\n"
                             % (args[0], args[1], len(common)))
            return 2
        r = [math.log(a[k][0] / b[k][0]) for k in common]
        ka, kb = order[0], min(b, key=lambda k: b[k][0])
        tb = b[kb][0]
        print("%s: %d configurations in common; sd of log(t / t_other) %.3f%%"
              % (args[1], len(common), 100 * statistics.stdev(r)))
        if ka in b:
            print("  optimum of the first: %.4f of the second's optimum" % (tb / b[ka][0]))
        if kb in a:
            print("  optimum of the second: %.4f of the first's optimum" % (t0 / a[kb][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
