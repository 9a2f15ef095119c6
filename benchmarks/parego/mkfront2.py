#!/usr/bin/env python3
"""Write a harder synthetic two-objective Kernel Tuner cache with a known Pareto front.

Parameters a (24 values) and b, c, d (6 each): 5184 configurations. a places a
configuration along a concave front (x = (a - 1) / 23), b, c and d add an interacting
distance g in [1, 1.6] from it (least, 1, at b = 4, c = 1, d = 3). time = g (1 + 3 x),
energy_j = g (1 + 3 (1 - x^2)): the 24 configurations at g = 1 are the front, and the
worst configuration lies close to it, so the hypervolume is decided near the front."""
import gzip, json, math, sys

def main(path):
    params = {"a": list(range(1, 25)), "b": list(range(6)), "c": list(range(6)), "d": list(range(6))}
    cache = {}
    for a in params["a"]:
        for b in params["b"]:
            for c in params["c"]:
                for d in params["d"]:
                    x = (a - 1) / 23.0
                    u, v, w = (b - 4) / 5.0, (c - 1) / 5.0, (d - 3) / 5.0
                    h = u * u + v * v + w * w + 0.8 * abs(u * v) + 0.5 * (1 - math.cos(6 * w)) * abs(u)
                    g = 1.0 + 0.6 * min(h, 1.0)
                    t = g * (1.0 + 3.0 * x)
                    cache[f"{a},{b},{c},{d}"] = {
                        "a": a, "b": b, "c": c, "d": d, "time": t, "times": [t, t, t],
                        "energy_j": g * (1.0 + 3.0 * (1.0 - x * x)),
                        "compile_time": 500.0, "benchmark_time": 100.0}
    doc = {"device_name": "Synthetic", "kernel_name": "front2", "tune_params_keys": ["a", "b", "c", "d"],
           "tune_params": params, "objective": "time", "cache": cache}
    open(path, "wb").write(gzip.compress(json.dumps(doc).encode(), mtime=0))

if __name__ == "__main__":
    main(sys.argv[1])
