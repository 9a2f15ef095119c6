#!/bin/bash
# Which warm start the each mode uses (--shape-warm): nearest, all, model or none, on gemm_h's H200
# recordings at five shapes (replay, no GPU needed), fraction of each recording's optimum
# (t_opt / t_best) after B evaluations per shape, averaged over the shapes tuned after the
# first (the first is cold in every mode) and over SEEDS seeds.
# Usage: benchmarks/shapes/warm.sh BUILD_DIR [OUT_DIR]   (SEEDS=6 BUDGETS="20 60"
#        MODES="none nearest all model": the --shape-warm values compared; nearest among them)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
exe=$(cd "$1" && pwd)/src/cli/cutune
out=${2:-${OUT:-$here}}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=${SEEDS:-6}
budgets=${BUDGETS:-"20 60"}
modes=${MODES:-"none nearest all model"}
sizes='M=N=K=2048;M=N=K=4096;M=N=K=8192;M=N=K=4000;M=1000,N=5000,K=296'
for b in $budgets; do
    for w in $modes; do
        for s in $(seq 1 "$seeds"); do
            CUTUNE_DB=none "$exe" --sizes="$sizes" --shape-warm=$w --budget=$b --seed=$s \
                --journal="$work/$w-$b-$s" --output="$work/$w-$b-$s.json" --no-progress \
                -q "$root/kernels/gemm_h.json" >/dev/null 2>&1 || echo "failed: $w $b $s" >&2
        done
    done
done
python3 - "$work" "$root" "$seeds" "$budgets" "$modes" > "$out/warm.md" <<'PY'
import gzip, json, math, sys
work, root, seeds, budgets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split()
modes = sys.argv[5].split()
files = {"4096x4096x4096": f"{root}/data/gemm_h.jsonl.gz"}
for l in ["2048x2048x2048", "8192x8192x8192", "4000x4000x4000", "1000x5000x296"]:
    files[l] = f"{root}/data/shapes/gemm_h-{l}.jsonl.gz"
opt = {}
for l, f in files.items():
    ts = [json.loads(x) for x in gzip.open(f, "rt")]
    opt[l] = min(o["time_ms"] for o in ts if o.get("kind") == "eval" and o["status"] == "ok")
print("| warm start | " + " | ".join(f"B={b} (warm shapes)" for b in budgets) + " | " +
      " | ".join(f"B={b} (all 5)" for b in budgets) + " |")
print("|---|" + "---:|" * (2 * len(budgets)))
warm_frac = {}  # (mode, budget) -> {(seed, shape): fraction} over the warm shapes
for w in modes:
    cells, cells_all = [], []
    for b in budgets:
        fr, fa = [], []
        for s in range(1, seeds + 1):
            r = json.load(open(f"{work}/{w}-{b}-{s}.json"))
            for sh in r["shapes"]:
                f = opt[sh["label"]] / sh["time_ms"] if sh["time_ms"] else 0
                fa.append(f)
                # the shape of least product (1000x5000x296) is tuned first: cold in every mode
                if sh["label"] != "1000x5000x296":
                    fr.append(f)
                    warm_frac.setdefault((w, b), {})[(s, sh["label"])] = f
        m = sum(fr) / len(fr)
        se = math.sqrt(sum((x - m) ** 2 for x in fr) / (len(fr) - 1) / len(fr))
        cells.append(f"{m:.3f} +- {se:.3f}")
        cells_all.append(f"{sum(fa) / len(fa):.3f}")
    print(f"| {w} | " + " | ".join(cells) + " | " + " | ".join(cells_all) + " |")
print()
print("Differences from `nearest` over the warm shapes, paired by seed and shape (+- standard error):")
print()
print("| warm start | " + " | ".join(f"B={b}" for b in budgets) + " |")
print("|---|" + "---:|" * len(budgets))
for w in [m for m in modes if m != "nearest"]:
    cells = []
    for b in budgets:
        a, n = warm_frac[(w, b)], warm_frac[("nearest", b)]
        d = [a[k] - n[k] for k in a if k in n]
        m = sum(d) / len(d)
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
        cells.append(f"{m:+.3f} +- {se:.3f}")
    print(f"| {w} | " + " | ".join(cells) + " |")
PY
cat "$out/warm.md"
