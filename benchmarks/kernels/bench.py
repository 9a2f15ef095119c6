#!/usr/bin/env python3
"""bench.py - build, run and report the kernel benchmark (called by run.sh).

    python3 bench.py [--out DIR] [--build-dir DIR] [--best-dir DIR] [--jobs N]
                     [--only ID,ID] [--build-only] [--dry-run] [--arch sm_90]

1. gen_specs.py translates kernels/*.json into BUILD/gen/*.h;
2. every row of BUILDS below is compiled in parallel (one nvcc per (kernel, size):
   the best header is -include'd, sizes are -D defines), logs in OUT/logs/; the
   header is BEST/ROW_ID.h where one was tuned at that row's shape, else BEST/KERNEL.h;
3. the binaries run one after another (one process each, so a kernel that faults
   cannot take the others down), each printing a `RESULT {json}` line;
4. a table is printed and OUT/results.json, OUT/results.csv are written.
Exit status 0 when every row built, ran and verified; 1 otherwise (all rows are
still reported). Only the Python standard library is used.
"""
import argparse
import concurrent.futures as cf
import csv
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
KERNELS = os.path.join(ROOT, "kernels")

# id, kernel (spec name or "copy"), size overrides. Ceiling rows first, then the
# memory-bound kernels, then the GEMMs. Sizes not given are the spec's.
BUILDS = [
    ("copy", "copy", {}),
    ("vector_add", "vector_add", {}),
    ("transpose", "transpose", {}),
    ("reduction", "reduction", {}),
    ("spmv", "spmv", {}),
    ("blur", "blur", {}),
    ("gemm_1024", "gemm", {"M": 1024, "N": 1024, "K": 1024}),
    ("gemm_2048", "gemm", {"M": 2048, "N": 2048, "K": 2048}),
    ("gemm_4096", "gemm", {"M": 4096, "N": 4096, "K": 4096}),
    ("gemm_8192", "gemm", {"M": 8192, "N": 8192, "K": 8192}),
    ("gemm_4000", "gemm", {"M": 4000, "N": 4000, "K": 4000}),
    ("gemm_1000x5000x300", "gemm", {"M": 1000, "N": 5000, "K": 300}),
    ("gemm_tf32_4096", "gemm_tf32", {"M": 4096, "N": 4096, "K": 4096}),
    ("gemm_tf32_8192", "gemm_tf32", {"M": 8192, "N": 8192, "K": 8192}),
    ("xgemm_4096", "xgemm", {"M": 4096, "N": 4096, "K": 4096}),
]
COPY_BYTES = 2 << 30  # 2 GiB device-to-device copy for the bandwidth ceiling
GEMM_CEILING = {"gemm": "cublas_sgemm", "xgemm": "cublas_sgemm", "gemm_tf32": "cublas_tf32"}
CEILING_LABEL = {"cublas_sgemm": "cuBLAS SGEMM", "cublas_tf32": "cuBLAS TF32", "copy": "D2D copy"}

T0 = time.time()


def log(msg):
    print("[%6.1fs] %s" % (time.time() - T0, msg), flush=True)


def read_header(path):
    """#define NAME VALUE lines of a cutune --header export (the guard has no value)."""
    with open(path) as f:
        text = f.read()
    return dict(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\s/]+)", text, re.M))


def spec_of(kernel):
    with open(os.path.join(KERNELS, kernel + ".json")) as f:
        return json.load(f)


def fmt_value(v):
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def check_header(kernel, spec, hdr, sizes):
    """Warnings about a best header that does not match its spec."""
    warns = []
    params = spec["parameters"]
    for p, values in params.items():
        if p not in hdr:
            warns.append("parameter %s missing from the header (the kernel's default is used)" % p)
        elif hdr[p] not in [fmt_value(v) if not isinstance(v, str) else v for v in values] and \
                hdr[p] not in [str(v) for v in values]:
            warns.append("%s=%s is not one of the spec's values %s" % (p, hdr[p], values))
    for k in hdr:
        if k not in params and not k.startswith("CUTUNE_TUNED_"):
            warns.append("header defines %s, not a parameter of %s" % (k, kernel))
    return warns


def compiler_options(spec, hdr, sizes):
    vals = {k: fmt_value(v) for k, v in spec.get("sizes", {}).items()}
    vals.update({k: str(v) for k, v in sizes.items()})
    vals.update(hdr)
    out = []
    for o in spec.get("compiler_options", []):
        o = re.sub(r"\{(\w+)\}", lambda m: vals.get(m.group(1), m.group(0)), o)
        if o == "-maxrregcount=0" or o == "--maxrregcount=0":
            continue
        out.append(o)
    return out


def nvcc_path():
    nv = os.environ.get("NVCC") or shutil.which("nvcc")
    if not nv:
        for base in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
            if base and os.path.exists(os.path.join(base, "bin", "nvcc")):
                return os.path.join(base, "bin", "nvcc")
    return nv or "nvcc"


def rpath(nv):
    """Find libcublas at run time even where the toolkit's lib dir is not in ld.so.conf."""
    real = shutil.which(nv) or nv
    base = os.path.dirname(os.path.dirname(os.path.realpath(real)))
    dirs = [d for d in (os.path.join(base, "lib64"), os.path.join(base, "lib"),
                        os.path.join(base, "targets", "x86_64-linux", "lib"),
                        os.path.join(base, "targets", "sbsa-linux", "lib"))
            if os.path.isdir(d)]
    seen, out = set(), []
    for d in dirs:
        r = os.path.realpath(d)
        if r not in seen:
            seen.add(r)
            out += ["-Xlinker", "-rpath=" + r]
    return out


def shape_label(kernel, sizes):
    if kernel == "copy":
        return "%.0f GiB" % (COPY_BYTES / 2**30)
    s = dict(sizes)
    if all(k in s for k in ("M", "N", "K")):
        return "%sx%sx%s" % (s["M"], s["N"], s["K"])
    if kernel == "transpose":
        return "%sx%s" % (s.get("M"), s.get("N"))
    if kernel == "blur":
        return "%sx%s r%s" % (s.get("W"), s.get("H"), s.get("RADIUS"))
    return " ".join("%s=%s" % kv for kv in s.items())


# ------------------------------------------------------------------ build
def plan(o, gen_dir):
    items = []
    nv = nvcc_path()
    for bid, kernel, sizes in BUILDS:
        if o.only and bid not in o.only:
            continue
        it = {"id": bid, "kernel": kernel, "sizes_override": dict(sizes), "warnings": [],
              "exe": os.path.join(o.build_dir, "bin", "bench_" + bid),
              "log": os.path.join(o.out, "logs", bid + ".build.log")}
        base = [nv, "-arch=" + o.arch, "-O3", "-std=c++17", "-I", gen_dir, "-I", KERNELS]
        if kernel == "copy":
            it["sizes"] = {}
            it["cmd"] = base + ["-DKERNEL_COPY", "-DCOPY_BYTES=%dull" % COPY_BYTES]
            it["opts"] = []
        else:
            spec = spec_of(kernel)
            all_sizes = {k: fmt_value(v) for k, v in spec.get("sizes", {}).items()}
            all_sizes.update({k: str(v) for k, v in sizes.items()})
            it["sizes"] = all_sizes
            # a configuration tuned at this row's shape (BEST/ROW_ID.h, e.g. gemm_1024.h,
            # a `cutune --size ... --header` export) beats the kernel's default-size one
            hdr_path = os.path.join(o.best_dir, bid + ".h")
            if bid == kernel or not os.path.exists(hdr_path):
                hdr_path = os.path.join(o.best_dir, kernel + ".h")
            it["header"] = hdr_path
            if not os.path.exists(hdr_path):
                it["error"] = "best header %s not found" % hdr_path
                items.append(it)
                continue
            hdr = read_header(hdr_path)
            it["warnings"] = check_header(kernel, spec, hdr, sizes)
            it["opts"] = compiler_options(spec, hdr, sizes)
            # sizes and best header in one file, included by bench_kernels.cu after the
            # system headers (same effect as -include HEADER -DM=..., no macro leaks)
            defs = os.path.join(o.build_dir, "defs", bid + ".h")
            os.makedirs(os.path.dirname(defs), exist_ok=True)
            with open(defs, "w") as f:
                f.write("/* generated by bench.py for row %s: sizes, then the best header */\n" % bid)
                for k, v in sizes.items():
                    f.write("#define %s %s\n" % (k, v))
                f.write("#include \"%s\"\n" % hdr_path)
            it["cmd"] = base + ["-DBENCH_DEFS=\"%s\"" % defs, "-DKERNEL_" + kernel.upper()]
        it["tail"] = [os.path.join(HERE, "bench_kernels.cu"), "-o", it["exe"], "-lcublas"] + rpath(nv)
        items.append(it)
    return items


def build_one(it):
    if it.get("error"):
        return it
    t = time.time()
    os.makedirs(os.path.dirname(it["exe"]), exist_ok=True)
    if os.path.exists(it["exe"]):
        os.remove(it["exe"])  # never run a stale binary from an earlier build
    attempts = [it["cmd"] + it["opts"] + it["tail"]]
    if it["opts"]:
        attempts.append(it["cmd"] + it["tail"])
    with open(it["log"], "w") as lf:
        for n, cmd in enumerate(attempts):
            lf.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n")
            lf.flush()
            try:
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True, timeout=600)
                out, rc = r.stdout, r.returncode
            except (OSError, subprocess.TimeoutExpired) as e:
                out, rc = str(e) + "\n", -1
            lf.write(out)
            if rc == 0:
                if n:
                    it["warnings"].append("built WITHOUT the spec's compiler_options %s "
                                          "(nvcc rejected them, see the build log)" % it["opts"])
                break
        else:
            msg = [l for l in out.splitlines() if "error" in l.lower()]
            it["error"] = "build failed: " + (msg[0].strip() if msg else "rc %d" % rc)
    it["build_s"] = time.time() - t
    return it


def build_all(items, jobs):
    todo = [it for it in items if not it.get("error")]
    log("building %d binaries with %d parallel nvcc jobs (%s)" % (len(todo), jobs, nvcc_path()))
    done = 0
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = [ex.submit(build_one, it) for it in todo]
        for f in cf.as_completed(futs):
            it = f.result()
            done += 1
            log("  build %2d/%d %-20s %s (%.1f s)" % (done, len(todo), it["id"],
                                                     "FAILED: " + it["error"] if it.get("error") else "ok",
                                                     it.get("build_s", 0)))
    for it in items:
        for w in it["warnings"]:
            log("  WARNING %s: %s" % (it["id"], w))


# ------------------------------------------------------------------ run
def run_all(items, o):
    for n, it in enumerate(items):
        if it.get("error"):
            continue
        log("run %2d/%d %s" % (n + 1, len(items), it["id"]))
        cmd = [it["exe"], "--id", it["id"]] + (["--dry-run"] if o.dry_run else [])
        runlog = os.path.join(o.out, "logs", it["id"] + ".run.log")
        t = time.time()
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=o.run_timeout)
            out, err, rc = r.stdout, r.stderr, r.returncode
        except subprocess.TimeoutExpired as e:
            def txt(x):
                return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
            out, err, rc = txt(e.stdout), txt(e.stderr) + "\nTIMEOUT after %d s\n" % o.run_timeout, -9
        except OSError as e:
            out, err, rc = "", str(e), -1
        it["run_s"] = time.time() - t
        with open(runlog, "w") as f:
            f.write("$ " + " ".join(cmd) + "\n" + err + out)
        for line in err.splitlines():
            print("          " + line, flush=True)
        res = None
        for line in out.splitlines():
            if line.startswith("RESULT "):
                try:
                    res = json.loads(line[len("RESULT "):])
                except ValueError as e:
                    it["error"] = "unparsable RESULT line: %s" % e
        if res is None and not it.get("error"):
            it["error"] = "no result (exit status %d%s)" % (
                rc, ", timed out" if rc == -9 else "; see logs/%s.run.log" % it["id"])
        it["result"] = res
        if res is not None and not res.get("ok"):
            it["error"] = res.get("error") or "failed"


# ------------------------------------------------------------------ report
def fnum(v, nd=3):
    return "-" if v is None else ("%.*f" % (nd, v))


def report(items, o, wall):
    copy_gbs = None
    for it in items:
        if it["kernel"] == "copy" and it.get("result") and it["result"].get("ok"):
            copy_gbs = (it["result"].get("metrics") or {}).get("GB/s")
    rows = []
    for it in items:
        res = it.get("result") or {}
        kernel = it["kernel"]
        row = {"id": it["id"], "kernel": kernel, "shape": shape_label(kernel, it.get("sizes", {})),
               "sizes": it.get("sizes", {}), "params": res.get("params"),
               "time_ms": res.get("time_ms"), "metric": None, "value": None,
               "ceiling": None, "ceiling_value": None, "ceiling_pct": None,
               "rel_err": None, "max_abs_err": None, "verify": None, "status": None,
               "error": it.get("error"), "warnings": list(it.get("warnings", [])),
               "build_s": it.get("build_s"), "run_s": it.get("run_s"), "result": res or None}
        for rv in res.get("restrictions_violated") or []:
            row["warnings"].append("restriction violated at this shape: %s" % rv)
        v = res.get("verify") or {}
        row["verify"] = v.get("status")
        row["rel_err"] = v.get("rel_err")
        row["max_abs_err"] = v.get("max_abs_err")
        mets = res.get("metrics") or {}
        if kernel == "copy":
            row["metric"], row["value"] = "GB/s", mets.get("GB/s")
            row["ceiling"] = "D2D copy"
            row["ceiling_value"] = row["value"]
        elif kernel in GEMM_CEILING:
            row["metric"], row["value"] = "TFLOP/s", mets.get("TFLOP/s")
            ck = GEMM_CEILING[kernel]
            row["ceiling"] = CEILING_LABEL[ck]
            row["ceiling_value"] = ((res.get("ceilings") or {}).get(ck) or {}).get("TFLOP/s")
        else:
            row["metric"], row["value"] = "GB/s", mets.get("GB/s")
            row["ceiling"] = "D2D copy"
            row["ceiling_value"] = copy_gbs
        if row["value"] is not None and row["ceiling_value"]:
            row["ceiling_pct"] = 100.0 * row["value"] / row["ceiling_value"]
        if it.get("error"):
            row["status"] = "FAIL"
        elif o.dry_run:
            row["status"] = "DRY"
        elif row["verify"] in ("PASS", "NOREF"):
            row["status"] = row["verify"]
        else:
            row["status"] = "FAIL"
        if row["status"] == "FAIL" and not row["error"]:
            row["error"] = "verification failed: rel L2 err %s (rtol %s), max abs err %s (atol %s)" % (
                v.get("rel_err"), v.get("rtol"), v.get("max_abs_err"), v.get("atol"))
        if row["status"] == "FAIL" and row["value"] is not None:
            # a number that failed verification is not a result: kept aside, not reported
            row["value_unverified"], row["value"], row["ceiling_pct"] = row["value"], None, None
        rows.append(row)

    # table
    hdr = ["kernel", "shape", "time ms", "perf", "ceiling", "% ceil", "rel err", "status"]
    lines = []
    for r in rows:
        failed = r["status"] == "FAIL"
        unit = r["metric"] or ""
        perf = "FAIL" if failed else ("-" if r["value"] is None else "%.2f %s" % (r["value"], unit))
        ceil = "-" if r["ceiling_value"] is None else "%s %.2f" % (r["ceiling"], r["ceiling_value"])
        pct = "FAIL" if failed else ("-" if r["ceiling_pct"] is None else "%.1f%%" % r["ceiling_pct"])
        if r["kernel"] == "copy":
            pct = "(ceiling)" if not failed else pct
        rel = "-" if r["rel_err"] is None else "%.2e" % r["rel_err"]
        lines.append([r["kernel"], r["shape"], "-" if r["time_ms"] is None else "%.4f" % r["time_ms"],
                      perf, ceil, pct, rel, r["status"]])
    widths = [max(len(hdr[i]), *(len(l[i]) for l in lines)) if lines else len(hdr[i])
              for i in range(len(hdr))]
    def fmt(cells):
        return "  ".join(c.ljust(widths[i]) if i < 2 or i == len(cells) - 1 else c.rjust(widths[i])
                         for i, c in enumerate(cells))
    print()
    print(fmt(hdr))
    print("  ".join("-" * w for w in widths))
    for l in lines:
        print(fmt(l))
    print()
    for r in rows:
        if r["error"]:
            print("%s: %s" % (r["id"], r["error"]))
        for w in r["warnings"]:
            print("%s: WARNING %s" % (r["id"], w))
    dev = next((r["result"].get("device") for r in rows if r["result"] and r["result"].get("device")), None)
    dinfo = next((r["result"].get("device_info") for r in rows
                  if r["result"] and r["result"].get("device_info")), None)
    try:
        nvv = subprocess.run([nvcc_path(), "--version"], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.strip().splitlines()[-1]
    except OSError:
        nvv = None
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True).stdout.strip() or None
    except OSError:
        rev = None
    meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "host": platform.node(),
            "device": dev, "device_info": dinfo, "nvcc": nvv, "arch": o.arch, "git": rev,
            "best_dir": o.best_dir, "copy_bytes": COPY_BYTES, "copy_GBps": copy_gbs,
            "dry_run": bool(o.dry_run), "wall_s": round(wall, 1),
            "timing": "CUDA events around each launch, warm-up >= 50 ms, >= 25 reps and >= 0.15 s, median",
            "notes": "GEMM ceilings: cuBLAS at the same shape in the same process (SGEMM default math; "
                     "TF32 tensor-op math). Memory-bound: spec GB/s metric vs cudaMemcpyAsync D2D "
                     "(bytes read + written) / time."}
    with open(os.path.join(o.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    cols = ["id", "kernel", "shape", "status", "time_ms", "metric", "value", "ceiling", "ceiling_value",
            "ceiling_pct", "rel_err", "max_abs_err", "reps", "params", "error"]
    with open(os.path.join(o.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            reps = ((r["result"] or {}).get("timing") or {}).get("reps")
            params = " ".join("%s=%s" % kv for kv in (r["params"] or {}).items())
            w.writerow([r["id"], r["kernel"], r["shape"], r["status"], r["time_ms"], r["metric"],
                        r["value"], r["ceiling"], r["ceiling_value"],
                        None if r["ceiling_pct"] is None else round(r["ceiling_pct"], 2),
                        r["rel_err"], r["max_abs_err"], reps, params, r["error"] or ""])
    log("wrote %s and %s" % (os.path.join(o.out, "results.json"), os.path.join(o.out, "results.csv")))
    return all(r["status"] in ("PASS", "NOREF", "DRY") for r in rows)


def main():
    ap = argparse.ArgumentParser(description="cutune kernel benchmark")
    ap.add_argument("--out", default=HERE, help="results.json, results.csv and logs/ go here")
    ap.add_argument("--build-dir", default=os.environ.get("BUILD_DIR") or
                    os.path.join(os.environ.get("TMPDIR", "/tmp"), "cutune-bench-kernels"))
    ap.add_argument("--best-dir", default=os.environ.get("BEST_DIR") or os.path.join(HERE, "best"))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", 0)) or min(16, os.cpu_count() or 4))
    ap.add_argument("--arch", default=os.environ.get("ARCH", "sm_90"))
    ap.add_argument("--only", default=os.environ.get("ONLY", ""), help="comma-separated row ids")
    ap.add_argument("--run-timeout", type=int, default=int(os.environ.get("RUN_TIMEOUT", 120)))
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--dry-run", action="store_true", help="run the binaries with --dry-run (no GPU)")
    o = ap.parse_args()
    o.out = os.path.abspath(o.out)
    o.build_dir = os.path.abspath(o.build_dir)
    o.best_dir = os.path.abspath(o.best_dir)
    o.only = set(x for x in o.only.split(",") if x)
    unknown = o.only - set(b[0] for b in BUILDS)
    if unknown:
        ap.error("unknown ids %s (known: %s)" % (sorted(unknown), ", ".join(b[0] for b in BUILDS)))
    os.makedirs(os.path.join(o.out, "logs"), exist_ok=True)
    gen_dir = os.path.join(o.build_dir, "gen")
    log("cutune kernel benchmark: out %s, build %s, best headers %s" % (o.out, o.build_dir, o.best_dir))
    kernels = sorted(set(b[1] for b in BUILDS if b[1] != "copy"))
    r = subprocess.run([sys.executable, os.path.join(HERE, "gen_specs.py"), "--kernels", KERNELS,
                        "--out", gen_dir] + kernels)
    if r.returncode:
        log("WARNING: gen_specs.py could not translate some specs (their builds will fail)")
    items = plan(o, gen_dir)
    build_all(items, o.jobs)
    if o.build_only:
        bad = [it["id"] for it in items if it.get("error")]
        log("build only: %d ok, %d failed %s" % (len(items) - len(bad), len(bad), bad or ""))
        return 1 if bad else 0
    run_all(items, o)
    ok = report(items, o, time.time() - T0)
    log("done in %.1f s" % (time.time() - T0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
