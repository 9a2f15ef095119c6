#!/usr/bin/env python3
"""Write a synthetic two-objective Kernel Tuner cache with a known Pareto front.

Parameters a (32 values), b and c (8 each): 2048 configurations. a places a
configuration along the front (x = (a - 1) / 31), b and c add a distance g >= 1 from
it. time = g (1 + x), energy_j = g (1 + (1 - x)^2): at g = 1 (b = 3, c = 5) time rises
and energy falls with x, so those 32 configurations are the front, and every other one
is dominated by the front point of its a."""
import gzip, json, sys

def main(path):
    params = {"a": list(range(1, 33)), "b": list(range(8)), "c": list(range(8))}
    cache = {}
    for a in params["a"]:
        for b in params["b"]:
            for c in params["c"]:
                x = (a - 1) / 31.0
                g = 1.0 + 0.08 * (b - 3) ** 2 + 0.05 * abs(c - 5) + 0.02 * (b - 3) * (c - 5) ** 2 / 4.0
                g = max(g, 1.0 + 0.01 * ((b - 3) ** 2 + (c - 5) ** 2))
                t = g * (1.0 + x)
                e = {"a": a, "b": b, "c": c, "time": t, "times": [t, t, t],
                     "energy_j": g * (1.0 + (1.0 - x) ** 2),
                     "compile_time": 500.0, "benchmark_time": 100.0}
                cache[f"{a},{b},{c}"] = e
    d = {"device_name": "Synthetic", "kernel_name": "front", "tune_params_keys": ["a", "b", "c"],
         "tune_params": params, "objective": "time", "cache": cache}
    open(path, "wb").write(gzip.compress(json.dumps(d).encode(), mtime=0))

if __name__ == "__main__":
    main(sys.argv[1])
