#!/usr/bin/env python3
"""gen_specs.py - translate cutune kernel specs (kernels/NAME.json) into C++ headers
for bench_kernels.cu, so the benchmark launches every kernel exactly as the spec says.

    python3 gen_specs.py [--kernels DIR] [--out DIR] [NAME ...]

For each spec it writes
  OUT/NAME_sizes.h   #ifndef defaults of the spec's sizes (included before the kernel
                     source, after the -D size overrides and the best header);
  OUT/NAME_launch.h  the spec as C++: argument table (types, element-count expressions,
                     init, range, output flags), restrictions, launch geometry, dynamic
                     shared memory, the launch of the kernel and of its reference,
                     generator-kernel launches ("init": "kernel:NAME"), tolerances and
                     metrics.
Expressions are translated from cutune's expression language (include/cutune/expr.h)
to C++: every parameter or size NAME becomes cx_num(NAME), so a macro whose value is an
integer literal is a 64-bit integer and a real literal a double, as in cutune; `/` and
`%` go through cx_div / cx_mod (C semantics on integers, real division / fmod on reals,
a division by zero sets cx_math_error instead of trapping); min/max/ceil/floor/log2/
pow/abs and `x in (a, b)` map to helpers in bench_kernels.cu. The expressions are
evaluated at run time, in the compiled binary, from whatever the best header defines.
Only the Python standard library is used (python3 >= 3.6).
"""
import argparse
import json
import os
import re
import sys

TYPES = {  # spec type -> (C type, tag in bench_kernels.cu)
    "float": ("float", "T_FLOAT"), "float32": ("float", "T_FLOAT"),
    "double": ("double", "T_DOUBLE"), "float64": ("double", "T_DOUBLE"),
    "half": ("__half", "T_HALF"), "float16": ("__half", "T_HALF"),
    "int": ("int", "T_INT32"), "int32": ("int", "T_INT32"), "int32_t": ("int", "T_INT32"),
    "uint32": ("unsigned int", "T_UINT32"), "uint32_t": ("unsigned int", "T_UINT32"),
    "unsigned": ("unsigned int", "T_UINT32"),
    "int64": ("long long", "T_INT64"), "int64_t": ("long long", "T_INT64"),
    "uint8": ("unsigned char", "T_UINT8"), "uint8_t": ("unsigned char", "T_UINT8"),
}
FLOAT_TAGS = ("T_FLOAT", "T_DOUBLE", "T_HALF")


class ExprError(Exception):
    pass


# ---------------------------------------------------------------- expressions
TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<str>"[^"]*")
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\|\||&&|==|!=|<=|>=|[-+*/%<>!?:(),])
""", re.X)


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ExprError("cannot tokenize at column %d in '%s'" % (pos + 1, text))
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":
            out.append((kind, m.group(kind)))
    out.append(("end", ""))
    return out


class Translator:
    """Recursive descent over cutune's grammar, emitting C++."""

    def __init__(self, text, names, extra=()):
        self.text = str(text)
        self.toks = tokenize(self.text)
        self.i = 0
        self.names = set(names)  # parameters and sizes (macros)
        self.extra = set(extra)  # plain C++ variables (time_ms, time_s)

    def peek(self):
        return self.toks[self.i]

    def take(self, value=None):
        t = self.toks[self.i]
        if value is not None and t[1] != value:
            raise ExprError("expected '%s', found '%s' in '%s'" % (value, t[1], self.text))
        self.i += 1
        return t

    def translate(self):
        r = self.ternary()
        if self.peek()[0] != "end":
            raise ExprError("unexpected '%s' in '%s'" % (self.peek()[1], self.text))
        return r

    def ternary(self):
        c = self.lor()
        if self.peek() == ("op", "?"):
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return "(cx_truth(%s) ? (%s) : (%s))" % (c, a, b)
        return c

    def binary(self, sub, ops, fmt):
        left = sub()
        while self.peek()[0] == "op" and self.peek()[1] in ops:
            op = self.take()[1]
            right = sub()
            left = fmt(op, left, right)
        return left

    def lor(self):
        return self.binary(self.land, ("||",),
                           lambda op, a, b: "(long long)(cx_truth(%s) || cx_truth(%s))" % (a, b))

    def land(self):
        return self.binary(self.equality, ("&&",),
                           lambda op, a, b: "(long long)(cx_truth(%s) && cx_truth(%s))" % (a, b))

    def equality(self):
        return self.binary(self.relational, ("==", "!="),
                           lambda op, a, b: "(long long)((%s) %s (%s))" % (a, op, b))

    def relational(self):
        left = self.additive()
        while True:
            t = self.peek()
            if t[0] == "op" and t[1] in ("<", "<=", ">", ">="):
                op = self.take()[1]
                right = self.additive()
                left = "(long long)((%s) %s (%s))" % (left, op, right)
            elif t == ("ident", "in"):
                self.take()
                self.take("(")
                items = [self.ternary()]
                while self.peek() == ("op", ","):
                    self.take()
                    items.append(self.ternary())
                self.take(")")
                left = "cx_in(%s, %s)" % (left, ", ".join(items))
            else:
                return left

    def additive(self):
        return self.binary(self.multiplicative, ("+", "-"),
                           lambda op, a, b: "((%s) %s (%s))" % (a, op, b))

    def multiplicative(self):
        def fmt(op, a, b):
            if op == "*":
                return "((%s) * (%s))" % (a, b)
            return "%s(%s, %s)" % ("cx_div" if op == "/" else "cx_mod", a, b)
        return self.binary(self.unary, ("*", "/", "%"), fmt)

    def unary(self):
        t = self.peek()
        if t[0] == "op" and t[1] in ("-", "+"):
            self.take()
            return "(%s(%s))" % (t[1], self.unary())
        if t == ("op", "!"):
            self.take()
            return "(long long)(!cx_truth(%s))" % self.unary()
        return self.primary()

    FUNCS = {"min": ("cx_min", 1, None), "max": ("cx_max", 1, None), "ceil": ("cx_ceil", 1, 1),
             "floor": ("cx_floor", 1, 1), "log2": ("cx_log2", 1, 1), "pow": ("cx_pow", 2, 2),
             "abs": ("cx_abs", 1, 1)}

    def primary(self):
        kind, val = self.take()
        if kind == "num":
            if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", val):
                return "%sLL" % val
            return "%s" % repr(float(val))
        if kind == "str":
            raise ExprError("string literals are not supported by the benchmark ('%s')" % self.text)
        if kind == "op" and val == "(":
            r = self.ternary()
            self.take(")")
            return "(%s)" % r
        if kind == "ident":
            if val in ("true", "false"):
                return "1LL" if val == "true" else "0LL"
            if self.peek() == ("op", "(") and val in self.FUNCS:
                fn, lo, hi = self.FUNCS[val]
                self.take("(")
                args = [self.ternary()]
                while self.peek() == ("op", ","):
                    self.take()
                    args.append(self.ternary())
                self.take(")")
                if len(args) < lo or (hi is not None and len(args) > hi):
                    raise ExprError("%s() with %d arguments in '%s'" % (val, len(args), self.text))
                return "%s(%s)" % (fn, ", ".join(args))
            if val in self.names:
                return "cx_num(%s)" % val
            if val in self.extra:
                return "((double)(%s))" % val
            raise ExprError("unknown name '%s' in '%s'" % (val, self.text))
        raise ExprError("unexpected '%s' in '%s'" % (val, self.text))


def cexpr(e, names, extra=()):
    return Translator(e, names, extra).translate()


def cstr(s):
    return json.dumps(str(s))  # a valid C string literal for ASCII text


# ---------------------------------------------------------------- one spec
def load_spec(path):
    with open(path) as f:
        return json.load(f)


def size_literal(v):
    """Sizes: an integral value is an integer (1e6 is 1000000), others reals."""
    if isinstance(v, bool):
        raise ExprError("boolean size")
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


def geometry(lst, names):
    lst = list(lst) + [1] * (3 - len(lst))
    return [cexpr(x, names) for x in lst[:3]]


def gen_sizes(spec, name):
    out = ["/* generated by gen_specs.py from kernels/%s.json: do not edit */" % name,
           "#ifndef BENCH_SIZES_%s_H" % name, "#define BENCH_SIZES_%s_H" % name]
    for k, v in spec.get("sizes", {}).items():
        out += ["#ifndef %s" % k, "#define %s %s" % (k, size_literal(v)), "#endif"]
    out += ["#endif", ""]
    return "\n".join(out)


def gen_launch(spec, name):
    params = list(spec["parameters"].keys())
    sizes = list(spec.get("sizes", {}).keys())
    names = params + sizes
    kernel = spec.get("kernel", name)
    args = spec.get("args", [])
    L = []
    w = L.append
    w("/* generated by gen_specs.py from kernels/%s.json: do not edit */" % name)
    w("#ifndef BENCH_LAUNCH_%s_H" % name)
    w("#define BENCH_LAUNCH_%s_H" % name)
    w("#define SPEC_NAME %s" % cstr(name))
    w("#define SPEC_KERNEL_NAME %s" % cstr(kernel))
    # parameters and sizes, their values as the compiler saw them
    w("static const char *const spec_param_names[] = {%s};" % ", ".join(cstr(p) for p in params))
    w("static const char *const spec_param_values[] = {%s};" %
      ", ".join("CX_STR(%s)" % p for p in params))
    w("static const int spec_nparams = %d;" % len(params))
    if sizes:
        w("static const char *const spec_size_names[] = {%s};" % ", ".join(cstr(s) for s in sizes))
        w("static const char *const spec_size_values[] = {%s};" %
          ", ".join("CX_STR(%s)" % s for s in sizes))
    else:
        w("static const char *const spec_size_names[] = {\"\"};")
        w("static const char *const spec_size_values[] = {\"\"};")
    w("static const int spec_nsizes = %d;" % len(sizes))
    # restrictions
    restr = spec.get("restrictions", [])
    w("static const int spec_nrestrictions = %d;" % len(restr))
    w("static const char *const spec_restriction_text[] = {%s};" %
      (", ".join(cstr(r) for r in restr) if restr else "\"\""))
    w("static int spec_restriction_ok(int i)\n{\n    switch (i) {")
    for i, r in enumerate(restr):
        w("    case %d: return cx_truth(%s);" % (i, cexpr(r, names)))
    w("    }\n    return 1;\n}")
    # arguments
    w("static const int spec_nargs = %d;" % len(args))
    rows, counts, values, gens = [], [], [], []
    for i, a in enumerate(args):
        ctype, tag = TYPES[a["type"]]
        is_buf = "size" in a
        out = bool(a.get("output", False))
        init = a.get("init", "zeros" if out else "random") if is_buf else ""
        gen = ""
        if is_buf:
            if init.startswith("kernel:"):
                gen, init_tag = init[len("kernel:"):], "INIT_KERNEL"
            else:
                init_tag = {"random": "INIT_RANDOM", "zeros": "INIT_ZEROS", "ones": "INIT_ONES",
                            "range": "INIT_RANGE"}.get(init)
                if init_tag is None:
                    init_tag = "INIT_UNSUPPORTED"
        else:
            init_tag = "INIT_NONE"
        # cutune's default: [0, 1), integer buffers 0..99 (src/spec/spec_args.c)
        integral = tag not in FLOAT_TAGS
        rng = a.get("range", [0, 100] if integral and init == "random" else [0, 1])
        rows.append("    {%s, %s, %d, %d, %s, %r, %r, %s}" % (
            cstr(a["name"]), tag, int(is_buf), int(out), init_tag, float(rng[0]),
            float(rng[1]), cstr(init)))
        if is_buf:
            counts.append("    case %d: return (long long)(%s);" % (i, cexpr(a["size"], names)))
            if gen:
                gens.append("    case %d: %s<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((%s *)buf, n, seed); break;"
                            % (i, gen, ctype))
        else:
            values.append("    case %d: return (double)(%s);" % (i, cexpr(a["value"], names)))
    w("static const ArgDesc spec_args[] = {\n%s\n};" % (",\n".join(rows) if rows else
                                                       "    {\"\", T_FLOAT, 0, 0, INIT_NONE, 0, 0, \"\"}"))
    w("static long long spec_arg_count(int i)\n{\n    switch (i) {")
    L.extend(counts)
    w("    }\n    return 0;\n}")
    w("static double spec_arg_value(int i)\n{\n    switch (i) {")
    L.extend(values)
    w("    }\n    return 0;\n}")
    w("static bool spec_gen_launch(int i, void *buf, unsigned long long n, unsigned int seed, cudaStream_t s)\n{\n    (void)buf; (void)n; (void)seed; (void)s;\n    switch (i) {")
    L.extend(gens)
    w("    default: return false;\n    }\n    return true;\n}")

    def call_args():
        cs = []
        for i, a in enumerate(args):
            ctype, _ = TYPES[a["type"]]
            if "size" in a:
                cs.append("(%s *)d[%d]" % (ctype, i))
            else:
                cs.append("(%s)spec_arg_value(%d)" % (ctype, i))
        return ", ".join(cs)

    # launch geometry
    la = spec["launch"]
    g = geometry(la["grid"], names)
    b = geometry(la["block"], names)
    sm = cexpr(la.get("shared_mem", 0), names)
    w("static long long spec_grid(int d)\n{\n    switch (d) {")
    for d in range(3):
        w("    case %d: return (long long)(%s);" % (d, g[d]))
    w("    }\n    return 1;\n}")
    w("static long long spec_block(int d)\n{\n    switch (d) {")
    for d in range(3):
        w("    case %d: return (long long)(%s);" % (d, b[d]))
    w("    }\n    return 1;\n}")
    w("static long long spec_smem(void) { return (long long)(%s); }" % sm)
    w("static cudaError_t spec_prepare(void)\n{\n    const long long sm = spec_smem();\n"
      "    if (sm > 48 * 1024)\n"
      "        return cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);\n"
      "    return cudaSuccess;\n}" % kernel)
    w("static void spec_launch(void *const *d, cudaStream_t s)\n{\n"
      "    const dim3 grid((unsigned)spec_grid(0), (unsigned)spec_grid(1), (unsigned)spec_grid(2));\n"
      "    const dim3 block((unsigned)spec_block(0), (unsigned)spec_block(1), (unsigned)spec_block(2));\n"
      "    %s<<<grid, block, (size_t)spec_smem(), s>>>(%s);\n}" % (kernel, call_args()))
    # reference
    ref = spec.get("reference")
    if ref is None:
        w("#define SPEC_REF_KIND REF_NONE")
    elif "builtin" in ref:
        if ref["builtin"] != "cublas_sgemm":
            w('#error "reference builtin %s is not supported by the benchmark"' % ref["builtin"])
        w("#define SPEC_REF_KIND REF_CUBLAS_SGEMM")
        idx = {a["name"]: i for i, a in enumerate(args)}
        for k in ("A", "B", "C", "alpha", "beta"):
            w("#define SPEC_GEMM_%s %d" % (k.upper(), idx.get(k, -1)))
    else:
        w("#define SPEC_REF_KIND REF_KERNEL")
        rg = geometry(ref.get("grid", [1]), sizes)  # the reference sees sizes only
        rb = geometry(ref.get("block", [1]), sizes)
        rs = cexpr(ref.get("shared_mem", 0), sizes)
        w("static void spec_ref_launch(void *const *d, cudaStream_t s)\n{\n"
          "    const dim3 grid((unsigned)(%s), (unsigned)(%s), (unsigned)(%s));\n"
          "    const dim3 block((unsigned)(%s), (unsigned)(%s), (unsigned)(%s));\n"
          "    const long long sm = (long long)(%s);\n"
          "    if (sm > 48 * 1024)\n"
          "        cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);\n"
          "    %s<<<grid, block, (size_t)sm, s>>>(%s);\n}"
          % (rg[0], rg[1], rg[2], rb[0], rb[1], rb[2], rs, ref["kernel"], ref["kernel"],
             call_args()))
    tol = spec.get("tolerance", {})
    w("static const double spec_rtol = %r;" % float(tol.get("rtol", 1e-5)))
    w("static const double spec_atol = %r; /* < 0: unbounded */" % float(tol.get("atol", -1.0)))
    # metrics
    mets = spec.get("metrics", {})
    w("static const int spec_nmetrics = %d;" % len(mets))
    w("static const char *const spec_metric_names[] = {%s};" %
      (", ".join(cstr(m) for m in mets) if mets else "\"\""))
    w("static double spec_metric(int i, double time_ms, double time_s)\n{\n"
      "    (void)time_ms; (void)time_s;\n    switch (i) {")
    for i, (m, e) in enumerate(mets.items()):
        w("    case %d: return (double)(%s);" % (i, cexpr(e, names, ("time_ms", "time_s"))))
    w("    }\n    return 0;\n}")
    w("#endif")
    w("")
    return "\n".join(L)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", default=os.path.join(here, "..", "..", "kernels"))
    ap.add_argument("--out", default=os.path.join(here, "gen"))
    ap.add_argument("names", nargs="*")
    o = ap.parse_args()
    names = o.names or sorted(f[:-5] for f in os.listdir(o.kernels) if f.endswith(".json"))
    os.makedirs(o.out, exist_ok=True)
    bad = 0
    for n in names:
        path = os.path.join(o.kernels, n + ".json")
        try:
            spec = load_spec(path)
            files = {n + "_sizes.h": gen_sizes(spec, n), n + "_launch.h": gen_launch(spec, n)}
        except (ExprError, KeyError, ValueError, OSError) as e:
            # a broken spec only breaks its own builds: they #error with the reason
            print("gen_specs: %s: %s" % (path, e), file=sys.stderr)
            msg = ('/* generated by gen_specs.py */\n#error "gen_specs.py could not translate '
                   'kernels/%s.json: %s"\n' % (n, str(e).replace('"', "'")))
            files = {n + "_sizes.h": msg, n + "_launch.h": msg}
            bad += 1
        for fn, text in files.items():
            p = os.path.join(o.out, fn)
            old = None
            if os.path.exists(p):
                with open(p) as f:
                    old = f.read()
            if old != text:
                with open(p, "w") as f:
                    f.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
