#!/usr/bin/env python3
"""Read a Kernel Tuner cache file by Kernel Tuner's rules (kernel_tuner/util.py:
correct_open_cache, read_cache, process_cache, store_cache; runners/simulation.py) and
check what those read, with the standard library only.

    kt_cache_check.py CACHE KERNEL_NAME DEVICE_NAME PROBLEM_SIZE|- NAME=V1,V2,... ...

PROBLEM_SIZE is a JSON list ("[64]"), or - where the cache has none. Each NAME=... gives a
tuning parameter's values in order, as Kernel Tuner's tune_params would hold them (JSON
literals). Exit 0 when the cache would be accepted, 1 with the reasons otherwise.
"""
import json
import sys

ERROR_CONFIGS = {"InvalidConfig", "CompilationFailedConfig", "RuntimeFailedConfig"}
# What the simulation runner adds up (a KeyError there when missing) and the T4 writer reads
TIMINGS = ["compile_time", "verification_time", "benchmark_time", "strategy_time",
           "framework_time"]


def correct_open_cache(filestr):
    """Kernel Tuner's: a cache not closed by '}\\n}' or '}}}' loses a final comma and gets it."""
    filestr = filestr.strip()
    if len(filestr) > 0 and filestr[-3:] not in ["}\n}", "}}}"]:
        if filestr[-1] == ",":
            filestr = filestr[:-1]
        if len(filestr) > 0:
            filestr = filestr + "}\n}"
    return filestr


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check(data, kernel, device, problem_size, tune_params):
    bad = []
    if data.get("device_name") != device:
        bad.append(f"device_name {data.get('device_name')!r}, want {device!r}")
    if data.get("kernel_name") != kernel:
        bad.append(f"kernel_name {data.get('kernel_name')!r}, want {kernel!r}")
    if problem_size is None:
        if "problem_size" in data:
            bad.append(f"problem_size {data['problem_size']!r}, want none")
    elif data.get("problem_size") != problem_size:
        bad.append(f"problem_size {data.get('problem_size')!r}, want {problem_size!r}")
    # process_cache: the keys in order, as list(tune_params.keys())
    if data.get("tune_params_keys") != list(tune_params):
        bad.append(f"tune_params_keys {data.get('tune_params_keys')!r}, want {list(tune_params)!r}")
    if list(data.get("tune_params", {})) != list(data.get("tune_params_keys", [])):
        bad.append("tune_params is not keyed in tune_params_keys order")
    for k, vals in tune_params.items():
        got = data.get("tune_params", {}).get(k)
        if got != vals or [type(v) for v in got or []] != [type(v) for v in vals]:
            bad.append(f"tune_params[{k!r}] {got!r}, want {vals!r}")
    if data.get("objective", "time") != "time":
        bad.append(f"objective {data.get('objective')!r}")
    cache = data.get("cache")
    if not isinstance(cache, dict) or not cache:
        return bad + ["cache: not a non-empty object"]
    for key, e in cache.items():
        if not isinstance(e, dict):
            bad.append(f"cache[{key!r}]: not an object")
            continue
        # the key is ",".join(str(v)) of the configuration (simulation.py looks it up so)
        want = ",".join(str(e.get(k)) for k in tune_params)
        if key != want:
            bad.append(f"cache[{key!r}]: key should be {want!r}")
        for k, vals in tune_params.items():
            if k not in e or e[k] not in vals or type(e[k]) is not type(vals[vals.index(e[k])]):
                bad.append(f"cache[{key!r}].{k}: {e.get(k)!r} is not in tune_params")
        t = e.get("time")
        if not (number(t) or t in ERROR_CONFIGS):
            bad.append(f"cache[{key!r}].time: {t!r}")
        if "times" in e and not (isinstance(e["times"], list) and all(map(number, e["times"]))):
            bad.append(f"cache[{key!r}].times: {e['times']!r}")
        for f in TIMINGS:
            if not number(e.get(f)):
                bad.append(f"cache[{key!r}].{f}: {e.get(f)!r} (Kernel Tuner reads a number)")
        if not isinstance(e.get("timestamp"), str) or not e["timestamp"]:
            bad.append(f"cache[{key!r}].timestamp: {e.get('timestamp')!r}")
    return bad


def main(path, kernel, device, problem_size, *params):
    tune_params = {}
    for p in params:
        name, vals = p.split("=", 1)
        tune_params[name] = json.loads("[" + vals + "]")
    ps = None if problem_size == "-" else json.loads(problem_size)
    with open(path) as f:
        text = f.read()
    bad = check(json.loads(correct_open_cache(text)), kernel, device, ps, tune_params)
    # Kernel Tuner reopens a cache for appending by cutting "}\n}" and writing ",";
    # a run that then stops leaves it open: read again, it must still parse
    reopened = text.strip()[:-3] + "," + "\n" + '"x": {"time": 1.0}' + ","
    try:
        again = json.loads(correct_open_cache(reopened))
        if len(again["cache"]) != len(json.loads(text)["cache"]) + 1:
            bad.append("reopened for appending: an entry was lost")
    except (ValueError, KeyError) as exc:
        bad.append(f"reopened for appending: {exc}")
    for b in bad[:20]:
        print(f"{path}: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
