#!/usr/bin/env bash
# The `doc_paths` test: every relative path that README.md, docs/*.md and
# benchmarks/*/README.md name exists in the source tree.
#
# Checked: the targets of Markdown links and images ([text](path), relative to the
# file), and the path-like words of `inline code` (relative to the project root, else
# to the file). A path-like word holds a '/' and starts with a top-level entry of the
# project, with '..' or '.', or ends in '/' or a file extension. Not checked: URLs,
# absolute paths, build outputs (build*/, runs/), words with a placeholder component
# (NAME.json, OUT_DIR/: upper case), and ../shared/data, the optional external data set
# (Kernel Tuner cache recordings, not in the repository). Globs (*, ?) and braces
# ({a,b}) must match at least one file each.
root=${CUTUNE_SOURCE_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
exec python3 - "$root" <<'PY'
import glob, os, re, sys

root = os.path.realpath(sys.argv[1])
external = os.path.normpath(os.path.join(root, "..", "shared", "data"))
top = set(os.listdir(root))
exts = ("md c h cu json jsonl gz sh py build txt csv png svg log patch gp ini "
        "options yml yaml").split()
real_upper = {"README", "LICENSE", "COPYING", "DESIGN", "STYLE"}

def braces(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        return [p]
    out = []
    for alt in m.group(1).split(","):
        out += braces(p[:m.start()] + alt + p[m.end():])
    return out

def placeholder(p):
    for comp in p.split("/"):
        stem = re.split(r"[.\-]", comp)[0]
        if len(stem) >= 1 and re.fullmatch(r"[A-Z][A-Z0-9_]*", stem) and stem not in real_upper:
            return True
    return False

def exists(path):
    if re.search(r"[*?\[]", path):
        return bool(glob.glob(path))
    return os.path.exists(path)

def check(path, bases):
    """None when path is fine (or not checked), else the reason."""
    path = path.split("#")[0]
    if not path or placeholder(path):
        return None
    first = path.split("/")[0]
    if re.match(r"build($|[-_])", first) or first in ("runs", ".devdeps"):
        return None
    for alt in braces(path):
        ok = False
        for base in bases:
            full = os.path.normpath(os.path.join(base, alt))
            if full == external or full.startswith(external + os.sep):
                ok = True  # optional external data set
                break
            if not (full == root or full.startswith(root + os.sep)):
                continue
            if exists(full):
                ok = True
                break
        if not ok:
            return "no such file or folder"
    return None

def pathlike(word):
    if "/" not in word or word.startswith(("/", "~", "$", "-", "http:", "https:")):
        return False
    if not re.fullmatch(r"[A-Za-z0-9_.\-/*?{},\[\]+]+", word):
        return False
    first = word.split("/")[0]
    if first in top or first in ("..", "."):
        return True
    if word.endswith("/"):
        return True
    last = word.rstrip("/").split("/")[-1]
    return "." in last and last.rsplit(".", 1)[1] in exts

files = [os.path.join(root, "README.md")]
files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
files += sorted(glob.glob(os.path.join(root, "benchmarks", "*", "README.md")))
bad = 0
for f in files:
    if not os.path.exists(f):
        continue
    here = os.path.dirname(f)
    rel = os.path.relpath(f, root)
    fence = False
    with open(f, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            found = []
            for m in re.finditer(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
                t = m.group(1)
                if re.match(r"[a-z]+:", t) or t.startswith(("#", "/")):
                    continue
                found.append((t, [here]))
            for m in re.finditer(r"`([^`]+)`", line):
                for w in re.split(r"[\s=:]+", m.group(1)):
                    w = w.strip("'\"(),;")
                    if pathlike(w):
                        found.append((w, [root, here]))
            for p, bases in found:
                why = check(p, bases)
                if why:
                    print(f"{rel}:{n}: {p}: {why}")
                    bad += 1
print(f"{bad} paths missing in {len(files)} files")
sys.exit(1 if bad else 0)
PY
