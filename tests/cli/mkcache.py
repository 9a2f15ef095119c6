#!/usr/bin/env python3
"""Write a synthetic Kernel Tuner cache for the CLI tests: a smooth bowl over
parameters a, b, c with some failures, so answers are known."""
import gzip, json, sys

def main(path, na=20, nb=20, nc=10, fail_every=37):
    params = {"a": list(range(1, na + 1)), "b": [2 ** i for i in range(nb)], "c": list(range(nc))}
    cache = {}
    n = 0
    for a in params["a"]:
        for b in params["b"]:
            for c in params["c"]:
                n += 1
                key = f"{a},{b},{c}"
                e = {"a": a, "b": b, "c": c}
                if n % fail_every == 0:
                    e["time"] = "RuntimeFailedConfig"
                else:
                    t = 1.0 + (a - 7) ** 2 * 0.01 + (params["b"].index(b) - 5) ** 2 * 0.02 + (c - 3) ** 2 * 0.05
                    e["time"] = t
                    e["times"] = [t * 0.99, t, t * 1.01]
                e["compile_time"] = 500.0
                e["benchmark_time"] = 100.0
                cache[key] = e
    d = {"device_name": "Synthetic", "kernel_name": "bowl", "tune_params_keys": ["a", "b", "c"],
         "tune_params": params, "objective": "time", "cache": cache}
    data = json.dumps(d).encode()
    if path.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    open(path, "wb").write(data)

if __name__ == "__main__":
    main(sys.argv[1], *[int(x) for x in sys.argv[2:]])
