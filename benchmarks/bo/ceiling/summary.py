"""Fold the fixed-model runs into a CSV and print a markdown table.

    summary.py --parts both|hyper|warp --csv OUT.csv DEFAULT_CONVERGENCE.csv FIXED_RUN/convergence.csv ...

Both CSVs are bench_convergence's (recording,...,searcher,budget,mean,p5,p95,hit_rate,
sec_per_run,se); the searcher column may itself contain commas (options)."""
import csv
import sys


def load(path):
    rows = {}
    with open(path) as f:
        next(f)
        for line in f:
            x = line.rstrip("\n").split(",")
            if len(x) < 12:
                continue
            searcher = ",".join(x[4:-7])
            kind = "random" if searcher == "random" else "bo"
            rows[(x[0], kind, int(x[-7]))] = (float(x[-6]), float(x[-1]))
    return rows


if len(sys.argv) < 7 or sys.argv[1] != "--parts" or sys.argv[3] != "--csv":
    sys.exit("usage: summary.py --parts both|hyper|warp --csv OUT.csv DEFAULT.csv FIXED.csv ...")
parts = {"both": "hyper-parameters and output warp", "hyper": "hyper-parameters (the output "
         "warp fitted to the run's points as usual)", "warp": "output warp (the "
         "hyper-parameters fitted as usual)"}[sys.argv[2]]
out = sys.argv[4]
default = load(sys.argv[5])
fixed = {}
for p in sys.argv[6:]:
    fixed.update(load(p))
recs = sorted({k[0] for k in fixed})
budgets = (20, 60, 200)
NAN = (float("nan"), float("nan"))
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["recording", "budget", "fixed_mean", "fixed_se", "default_mean", "default_se",
                "random_mean"])
    for r in recs:
        for b in sorted({k[2] for k in fixed if k[0] == r}):
            fm, fs = fixed[(r, "bo", b)]
            dm, ds = default.get((r, "bo", b), NAN)
            w.writerow([r, b, f"{fm:.4f}", f"{fs:.4f}", f"{dm:.4f}", f"{ds:.4f}",
                        f"{fixed[(r, 'random', b)][0]:.4f}"])
print("Fraction of the optimum, mean +- standard error over the seeds: bo with its "
      f"{parts} fixed to a global fit of the recording (fixed) "
      "against bo with the same options as fitted (default: lweak=0, the default when this "
      "diagnostic was made, benchmarks/bo/variants/lweak0.csv) and random search.\n")
print("| recording | " + " | ".join(f"B={b} fixed | B={b} default | B={b} random"
                                     for b in budgets) + " |")
print("|---|" + "---|" * (3 * len(budgets)))
for r in recs:
    cells = []
    for b in budgets:
        fm, fs = fixed[(r, "bo", b)]
        dm, ds = default.get((r, "bo", b), NAN)
        cells += [f"{fm:.3f} +-{fs:.3f}", f"{dm:.3f} +-{ds:.3f}",
                  f"{fixed[(r, 'random', b)][0]:.3f}"]
    print(f"| {r} | " + " | ".join(cells) + " |")


def mean(kind, src, b):
    return sum(src.get((r, kind, b), NAN)[0] for r in recs) / len(recs)


print("| mean | " + " | ".join(f"{mean('bo', fixed, b):.4f} | {mean('bo', default, b):.4f} | "
                                f"{mean('random', fixed, b):.4f}" for b in budgets) + " |")
