#!/bin/bash
# Tuning across shapes on gemm_h (docs/shapes.md): at 2048^3, 4096^3, 8192^3, 4000^3 and
# 1000x5000x296, three ways to pick a configuration per shape, each with bo and a budget of
# 60:
#   per-shape   each shape tuned on its own (--shape-mode=each --shape-warm=none)
#   common      one configuration for all five (--shape-mode=common, budget 60 configurations)
#   dispatch    tuned at 2048^3, 8192^3 and 1000x5000x296 (each mode, warm from the nearest),
#               applied to 4096^3 and 4000^3 by the nearest-shape rule (--validate-sizes)
# On a GPU (the cuda evaluator) every chosen configuration is then built with
# benchmarks/kernels/gemm_h/harness.cu and timed beside cuBLAS BF16 at every shape in the
# same process (L2 flushed). With --replay (no GPU) the times are the H200 recordings'
# (data/, data/shapes/) and there is no cuBLAS column.
# Writes results.md, results.csv and results.json into $OUT, else benchmarks/shapes/ (GPU)
# or benchmarks/shapes/replay/ (--replay).
# Usage: benchmarks/shapes/run.sh BUILD_DIR [--replay]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
exe=$(cd "${1:?usage: run.sh BUILD_DIR [--replay]}" && pwd)/src/cli/cutune
mode=${2:-gpu}
if [ "$mode" = --replay ]; then
    ev=--evaluator=replay out=${OUT:-$here/replay} batch=1
else
    ev=--evaluator=cuda out=${OUT:-$here} batch=8
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CUTUNE_DB=$work/tuning.db # a fresh database: every method measures (or reuses) here
all='M=N=K=2048;M=N=K=4096;M=N=K=8192;M=N=K=4000;M=1000,N=5000,K=296'
sub='M=N=K=2048;M=N=K=8192;M=1000,N=5000,K=296'
val='M=N=K=4096;M=N=K=4000'
spec=$root/kernels/gemm_h.json
common_args=(--searcher=bo --budget=60 --seed=1 --no-progress "$ev")
t0=$(date +%s)
run() { # NAME ARGS...: one cutune run, its summary JSON in $work/NAME.json
    local name=$1
    shift
    echo "== $name: cutune $*" >&2
    "$exe" "$@" --journal="$work/$name" --output="$work/$name.json" "$spec" \
        >"$work/$name.txt" 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
}
run per-shape --sizes="$all" --shape-warm=none "${common_args[@]}"
run common --sizes="$all" --shape-mode=common --batch=$batch "${common_args[@]}"
run dispatch --sizes="$sub" --validate-sizes="$val" "${common_args[@]}"
tune_s=$(($(date +%s) - t0))

# the chosen configurations, one harness build each
python3 - "$work" > "$work/configs.txt" <<'PY'
import json, sys
w = sys.argv[1]
names, pairs = {}, set()
def add(cfg, shape):
    flags = " ".join(f"-D{k}={v}" for k, v in cfg.items())
    pairs.add((names.setdefault(flags, f"c{len(names)}"), shape))
for m in ["per-shape", "common", "dispatch"]:
    r = json.load(open(f"{w}/{m}.json"))
    for s in r["shapes"]:
        if s["config"]:
            add(s["config"], s["label"])
    for v in r["validation"]:
        if v["config"]:
            add(v["config"], v["label"])
for flags, n in names.items():
    print(f"{n}|{flags}")
# each configuration is timed (beside cuBLAS) only at the shapes it was chosen for
with open(f"{w}/pairs.txt", "w") as f:
    for n, shape in sorted(pairs):
        f.write(f"{n} {shape}\n")
PY
if [ "$mode" != --replay ]; then
    # build every configuration with the kernel benchmark's harness (SHAPES=" ": build only),
    # then run each beside cuBLAS at the shapes it was chosen for
    CONFIGS=$work/configs.txt RESULTS=$work/built.csv BUILD=$work SHAPES=" " \
        "$root/benchmarks/kernels/gemm_h/run.sh" >/dev/null 2>"$work/harness.err" \
        || { cat "$work/harness.err" >&2; exit 1; }
    head -1 "$work/built.csv" >"$work/harness.csv"
    while read -r name shape; do
        IFS=x read -r m n k <<<"$shape"
        timeout 60 "$work/$name" "$m" "$n" "$k" "${REPS:-30}" >>"$work/harness.csv" 2>&1 \
            || echo "$name,$m,$n,$k,FAILED" >>"$work/harness.csv"
    done <"$work/pairs.txt"
fi
total_s=$(($(date +%s) - t0))

python3 - "$work" "$out" "$mode" "$tune_s" "$total_s" <<'PY'
import csv, json, math, os, sys
w, out, mode, tune_s, total_s = sys.argv[1:6]
gpu = mode != "--replay"
flags_of = {}
for l in open(f"{w}/configs.txt"):
    n, f = l.strip().split("|", 1)
    flags_of[f] = n
name = lambda cfg: flags_of[" ".join(f"-D{k}={v}" for k, v in cfg.items())] if cfg else None
harness = {}
if gpu:
    for r in csv.DictReader(open(f"{w}/harness.csv")):
        try:
            harness[(r["cfg"], f'{r["M"]}x{r["N"]}x{r["K"]}')] = (float(r["gemm_h_ms"]),
                                                                   float(r["cublas_ms"]))
        except (KeyError, ValueError):
            pass
R = {m: json.load(open(f"{w}/{m}.json")) for m in ["per-shape", "common", "dispatch"]}
labels = [s["label"] for s in R["per-shape"]["shapes"]]
rows = []
for l in labels:
    row = {"shape": l}
    ps = [s for s in R["per-shape"]["shapes"] if s["label"] == l][0]
    co = [s for s in R["common"]["shapes"] if s["label"] == l][0]
    d = [s for s in R["dispatch"]["shapes"] if s["label"] == l]
    dv = [v for v in R["dispatch"]["validation"] if v["label"] == l]
    if d:
        dcfg, dms, dhow = d[0]["config"], d[0]["time_ms"], "tuned"
    else:
        dcfg, dms, dhow = dv[0]["config"], dv[0]["chosen_ms"], "from " + dv[0]["from"]
    if dms is None:  # replay: the chosen configuration is not in that shape's recording
        dhow += ", not recorded there"
    for key, cfg, ms in [("per_shape", ps["config"], ps["time_ms"]),
                         ("common", co["config"], co["time_ms"]), ("dispatch", dcfg, dms)]:
        row[key + "_cfg"] = name(cfg)
        row[key + "_tuner_ms"] = ms  # as the tuner measured (replay: recorded)
        if gpu and (name(cfg), l) in harness:
            t, cb = harness[(name(cfg), l)]
            row[key + "_ms"], row["cublas_ms"] = t, cb
        else:
            row[key + "_ms"] = ms
    row["dispatch_how"] = dhow
    rows.append(row)
with open(f"{out}/results.csv", "w", newline="") as f:
    wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    wr.writeheader()
    wr.writerows(rows)
json.dump({"mode": "gpu" if gpu else "replay", "tune_seconds": int(tune_s),
           "total_seconds": int(total_s), "rows": rows,
           "configs": {v: k for k, v in flags_of.items()}}, open(f"{out}/results.json", "w"),
          indent=1)
g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
with open(f"{out}/results.md", "w") as f:
    f.write(f"gemm_h, bo, budget 60, seed 1 ({'H200, cuda evaluator; times from the harness beside cuBLAS BF16' if gpu else 'replay of the H200 recordings; times as recorded'}); "
            f"{tune_s} s tuning, {total_s} s in all. Each cell: ms (x per-shape tuned)"
            + (", and cuBLAS's time / ours" if gpu else "") + ".\n\n")
    hdr = "| shape | per-shape tuned | one for all (common) | dispatch table |" + (" cuBLAS ms |" if gpu else "")
    f.write(hdr + "\n|---|---:|---:|---:|" + ("---:|" if gpu else "") + "\n")
    for r in rows:
        cells = []
        for k in ["per_shape", "common", "dispatch"]:
            if r[k + "_ms"] is None:
                cells.append(f"- [{r['dispatch_how']}]")
                continue
            c = f"{r[k + '_ms']:.4g} ({r[k + '_ms'] / r['per_shape_ms']:.3f})"
            if gpu and "cublas_ms" in r:
                c += f", {r['cublas_ms'] / r[k + '_ms']:.3f}"
            if k == "dispatch":
                c += f" [{r['dispatch_how']}]"
            cells.append(c)
        f.write(f"| {r['shape']} | " + " | ".join(cells) + (f" | {r['cublas_ms']:.4g} |" if gpu and "cublas_ms" in r else " |") + "\n")
    gm = {k: g([r[k + "_ms"] / r["per_shape_ms"] for r in rows if r[k + "_ms"]])
          for k in ["common", "dispatch"]}
    f.write(f"\nGeometric mean over the shapes, x per-shape tuned: common {gm['common']:.3f}, "
            f"dispatch {gm['dispatch']:.3f}.\n")
print(open(f"{out}/results.md").read())
PY
