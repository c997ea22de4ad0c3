#!/usr/bin/python3
"""gen-fx-table.py: write core/trace/graft-fx-table-X.Y.inc from the torch it runs on.

One table per dialect (torch release Graft speaks), each made by this script run by the
Python of that torch:

    /usr/bin/python3 tests/tools/gen-fx-table.py [--verbose]                    # torch 1.13.1
    ../shared/tools/torch26 python3 tests/tools/gen-fx-table.py [--verbose]     # torch 2.6.0

The output defaults to core/trace/graft-fx-table-X.Y.inc (X.Y: the torch's major.minor);
-o FILE writes elsewhere.  The header names the torch and Python that made it.  A run takes
about four minutes.

Every entry is derived by *tracing*: for each callable reachable as torch.X,
torch.nn.functional.X, torch.functional.X, torch._C._nn.X, torch.linalg.X,
torch.special.X and torch.fft.X (public names, plus torch._assert), a probe
function that calls it with torch.fx proxies is passed to torch.fx.symbolic_trace,
and the node it records (op, target, args, kwargs, name), the listing
(str(gm.graph)) and the code (gm.code) are read back.  Nothing is copied from
torch's sources; the script only calls torch.

Probes (the first one that records something wins):
  BUILTIN (inspect.isbuiltin):  f(p0), f(p0, p1), f(p0, p1, p2), f([p0, p1]),
                                f([p0, p1], p2), f(p0, p1, p2, p3), ..., then each aten
                                schema of the function with its required arguments, a
                                constant of the declared kind for each non-tensor one
                                (dtypes, layouts, memory formats, qschemes, devices, strings)
  PYTHON functions: A = every parameter a distinct placeholder (varargs: two);
                    B = only the required parameters (defaults left out), then one
                    probe per optional parameter (it alone as a placeholder).
The summary (stderr) counts the kinds and lists the callables where the method
was unsure.  The output is sorted and deterministic.
"""
import argparse, builtins, contextlib, inspect, io, keyword, math, re, subprocess, sys, types, warnings

import torch
import torch.fx
import torch.nn.functional as F
from torch.fx.node import _get_qualified_name
from torch.fx.graph import _snake_case

from torchrelease import torch_release, torch_series

NAMESPACES = [
    ("torch", torch),
    ("torch.nn.functional", F),
    ("torch.functional", torch.functional),
    ("torch._C._nn", torch._C._nn),
    ("torch.linalg", torch.linalg),
    ("torch.special", torch.special),
    ("torch.fft", torch.fft),
]
EXTRA = ["torch._assert"]  # private, but used by real model code (torchvision)
SKIP_MODULES = {"typing", "torch.overrides", "torch._jit_internal"}
SKIP_NAMES = {"has_torch_function", "has_torch_function_unary", "has_torch_function_variadic"}
# Calling these with anything changes global state or touches files; they are not
# tensor functions.  They are still listed (NOT_TRACEABLE) but not called.
NOT_CALLED = {"save", "load", "set_default_dtype", "set_default_tensor_type", "manual_seed",
              "seed", "set_rng_state", "use_deterministic_algorithms", "set_printoptions",
              "set_warn_always", "set_deterministic_debug_mode", "set_float32_matmul_precision",
              "set_num_threads", "set_num_interop_threads", "set_flush_denormal",
              "set_anomaly_enabled", "set_autocast_enabled", "set_autocast_cpu_enabled",
              "set_autocast_gpu_dtype", "set_autocast_cpu_dtype", "set_autocast_cache_enabled",
              "set_vital", "init_num_threads", "prepare_multiprocessing_environment",
              "clear_autocast_cache", "autocast_increment_nesting", "autocast_decrement_nesting",
              # torch 2.x: compiling a probe with proxies recurses until the stack overflows
              "compile"}

unsure = []


def candidates():
    seen = {}
    for prefix, mod in NAMESPACES:
        names = [n for n in dir(mod) if not n.startswith("_")]
        if prefix == "torch.functional":
            names = sorted(set(names) & set(getattr(mod, "__all__", names)))
        for n in names:
            o = getattr(mod, n)
            if isinstance(o, (type, types.ModuleType)) or not callable(o):
                continue
            if getattr(o, "__module__", None) in SKIP_MODULES or n in SKIP_NAMES:
                continue
            seen[f"{prefix}.{n}"] = o
    for path in EXTRA:
        mod, _, n = path.rpartition(".")
        seen[path] = getattr(sys.modules[mod], n)
    return dict(sorted(seen.items()))


class Probe:
    """One traced call: the recorded call nodes and the texts."""

    def __init__(self, fn, call_src, params, env):
        g = {"_f": fn, "torch": torch}
        g.update(env)
        src = f"def probe({', '.join(params)}):\n    return {call_src}\n"
        exec(src, g)
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")
            self.gm = torch.fx.symbolic_trace(g["probe"])
        self.nodes = [n for n in self.gm.graph.nodes if n.op not in ("placeholder", "output", "get_attr")]
        self.code = self.gm.code
        self.listing = str(self.gm.graph)


def try_probe(fn, call_src, params, env=None):
    try:
        p = Probe(fn, call_src, params, env or {})
    except Exception as e:  # noqa: BLE001 - any failure means "this probe does not trace"
        return None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    if len(p.nodes) == 0:
        return None, "records no node"
    return p, None


def code_form(p, node):
    """What gm.code prints as the callee of `node` (the text before '(')."""
    for line in p.code.splitlines():
        m = re.match(r"\s+" + re.escape(node.name) + r" = (.*)$", line)
        if m:
            rhs = m.group(1)
            if node.op == "call_method":
                return node.target
            return rhs.split("(", 1)[0]
    return "?"


def listing_target(p, node):
    for line in p.listing.splitlines():
        m = re.match(r"\s+%" + re.escape(node.name) + r" : .*?\[target=(.*?)\]\(", line)
        if m:
            return m.group(1)
    return "?"


def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


BUILTIN_PROBES = [(c, ["p0", "p1", "p2", "p3"][:c.count("p")]) for c in [
    "_f(p0)", "_f(p0, p1)", "_f(p0, p1, p2)", "_f([p0, p1])", "_f([p0, p1], p2)",
    "_f(p0, p1, p2, p3)", "_f(p0, 1)", "_f(p0, 1, 1)", "_f(p0, p1, 1)", "_f(p0, [1])",
    "_f(p0, (2, 2))", "_f(p0, 0, p1)", "_f(p0, 0, p1, p2)", "_f([p0, p1], 0)", "_f(p0, 1, 1, 1)",
    "_f(p0, [1], [1])", "_f(p0, p1, p2, 1)", "_f(p0, p1, 1, 1)", "_f(p0, 1, p1)", "_f(1, p0)",
    "_f(p0, (2, 2), (2, 2))", "_f(p0, p1, [1], [1])", "_f((p0, p1))", "_f([p0])",
]]


# Constants of the kinds that TorchScript schemas type as `int` (or `Device`) but that
# torch's Python argument parser only takes as themselves: without them a function such as
# torch.quantize_per_tensor(x, 0.1, 0, torch.quint8) looked untraceable.
DECLARED_VALUES = {
    "ScalarType": "torch.float32",
    "ScalarType?": "torch.float32",
    "Layout": "torch.strided",
    "MemoryFormat": "torch.contiguous_format",
    "QScheme": "torch.per_tensor_affine",
    "Device": "torch.device('cpu')",
    "str": "'mean'",
    "Scalar": "1",  # typed `number`, which the table below did not know
}


def declared_types(sch):
    """The argument types as the schema declares them (`ScalarType dtype`), by name."""
    text = str(sch)
    inner = text[text.index("(") + 1:text.rindex(") ->")] if ") ->" in text else ""
    out, depth, start = {}, 0, 0
    parts = []
    for i, c in enumerate(inner):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    for part in parts:
        part = part.strip().split("=", 1)[0].strip()
        if part == "*" or " " not in part:
            continue
        ty, name = part.rsplit(" ", 1)
        out[name] = ty
    return out


def schema_value(ty, names, declared=None):
    """A probe value for one aten schema argument type (proxies for tensors), or raise KeyError."""
    if declared in DECLARED_VALUES:
        return DECLARED_VALUES[declared]
    if ty in ("Tensor", "Optional[Tensor]"):
        names.append(f"p{len(names)}")
        return names[-1]
    if ty in ("List[Tensor]", "List[Optional[Tensor]]"):
        names += [f"p{len(names)}", f"p{len(names) + 1}"]
        return f"[{names[-2]}, {names[-1]}]"
    if ty.startswith("Optional["):
        return "None"
    return {"int": "1", "SymInt": "1", "float": "0.5", "bool": "False", "Scalar": "1",
            "List[int]": "[1, 1]", "List[SymInt]": "[1, 1]", "List[float]": "[0.5, 0.5]",
            "str": "'mean'", "ScalarType": "torch.float32"}[ty]


def probe_by_schema(fn):
    """Call a builtin as each of its aten schemas (required arguments only) says."""
    name = getattr(fn, "__name__", "")
    try:
        schemas = torch._C._jit_get_schemas_for_operator("aten::" + name)
    except Exception:  # noqa: BLE001
        return None
    for sch in schemas:
        names, pos, kw = [], [], []
        declared = declared_types(sch)
        try:
            for arg in sch.arguments:
                if arg.has_default_value() or arg.name == "out":
                    continue
                v = schema_value(str(arg.type), names, declared.get(arg.name))
                (kw if arg.kwarg_only else pos).append(f"{arg.name}={v}" if arg.kwarg_only else v)
        except KeyError:
            continue
        if not names:
            continue
        p, _ = try_probe(fn, "_f(" + ", ".join(pos + kw) + ")", names)
        if p is not None:
            return p
    return None


def boolean_dispatch_info(fn):
    """torch._jit_internal's record of a boolean_dispatch wrapper (if_true, if_false, index,
    default, arg_name), or None."""
    import torch._jit_internal as J
    try:
        return J.boolean_dispatched.get(fn)
    except TypeError:
        return None


def describe_signature(sig):
    parts, star_done = [], False
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            parts.append("*" + p.name)
            star_done = True
        elif p.kind == p.VAR_KEYWORD:
            parts.append("**" + p.name)
        else:
            if p.kind == p.KEYWORD_ONLY and not star_done:
                parts.append("*")
                star_done = True
            s = p.name
            if p.default is not p.empty:
                s += "=" + repr(p.default)
            parts.append(s)
    return ", ".join(parts)


class Mapper:
    """Maps recorded values back to parameters: placeholder name -> parameter."""

    def __init__(self, ph_to_param, consts):
        self.ph = ph_to_param  # placeholder name -> (param, is_vararg)
        self.consts = consts   # param -> value passed (for params not given as placeholders)

    def positional(self, args):
        out = []
        i = 0
        while i < len(args):
            a = args[i]
            if isinstance(a, torch.fx.Node) and a.op == "placeholder" and a.target in self.ph:
                param, var = self.ph[a.target]
                if var:
                    # a run of the varargs placeholders -> *name
                    j = i
                    while j < len(args) and isinstance(args[j], torch.fx.Node) and \
                            self.ph.get(args[j].target, (None,))[0] == param:
                        j += 1
                    out.append("*" + param)
                    i = j
                    continue
                out.append(param)
            elif isinstance(a, (tuple, list)) and a and all(
                    isinstance(e, torch.fx.Node) and self.ph.get(e.target, (None, False))[1] for e in a):
                out.append("(*" + self.ph[a[0].target][0] + ")")
            else:
                out.append(self.const(a))
            i += 1
        return out

    def const(self, v):
        if isinstance(v, torch.fx.Node) or _holds_node(v):
            return None
        return "=" + repr(v)

    def keyword(self, k, v):
        if isinstance(v, torch.fx.Node) and v.op == "placeholder" and v.target in self.ph:
            param = self.ph[v.target][0]
            return k if param == k else f"{k}:{param}"
        if k in self.consts and type(self.consts[k]) is type(v) and self.consts[k] == v:
            return k
        c = self.const(v)
        return None if c is None else k + c


def _holds_node(v):
    found = []
    torch.fx.node.map_arg(v, found.append)
    return bool(found)


def probe_python(path, fn, sig, fixed=frozenset()):
    """Returns (probe, positional, keywords, note) or (None, reason)."""
    params = list(sig.parameters.values())
    required = [p for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    optional = [p for p in params if p.default is not p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.name not in fixed]
    kwonly = [p for p in params if p.kind == p.KEYWORD_ONLY and p.name not in fixed]
    var = [p for p in params if p.kind == p.VAR_POSITIONAL]

    def build(as_ph, given_kw):
        """as_ph: names of positional params passed as placeholders positionally (in order)."""
        names, call, ph, gap = [], [], {}, False
        for p in params:
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name in as_ph and p.name not in fixed:
                n = "a_" + p.name
                names.append(n); call.append(f"{p.name}={n}" if gap else n); ph[n] = (p.name, False)
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                gap = True
            elif p.kind == p.VAR_POSITIONAL and p.name in as_ph:
                for i in range(2):
                    n = f"v_{p.name}_{i}"
                    names.append(n); call.append(n); ph[n] = (p.name, True)
        for p in params:
            if p.name in given_kw:
                n = "k_" + p.name
                names.append(n); call.append(f"{p.name}={n}"); ph[n] = (p.name, False)
        return names, "_f(" + ", ".join(call) + ")", ph

    positional_names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    attempts = []
    # A: everything a placeholder (positionally where possible)
    attempts.append(("all", set(positional_names), {p.name for p in kwonly}))
    # B: only required (+ varargs)
    attempts.append(("required", {p.name for p in required} | {p.name for p in var}, set()))
    results = {}
    for label, as_ph, kw in attempts:
        names, call, ph = build(as_ph, kw)
        p, err = try_probe(fn, call, names)
        results[label] = (p, err, ph)
    pa, erra, pha = results["all"]
    pb, errb, phb = results["required"]
    if pa is None and pb is None:
        # C: only the first parameter as a placeholder, or the first two
        for k in (1, 2):
            firsts = [p.name for p in params[:k] if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
            names, call, ph = build(set(firsts), set())
            pc, errc = try_probe(fn, call, names)
            if pc is not None:
                pb, phb = pc, ph
                unsure.append(f"{path}: traced only with its first {k} parameter(s) as proxies ({erra}; {errb})")
                break
        else:
            return None, erra if erra == errb else f"{erra}; {errb}"
    best, ph = (pa, pha) if pa is not None else (pb, phb)
    if len(best.nodes) != 1:
        return None, f"records {len(best.nodes)} nodes: " + ", ".join(f"{n.op}:{n.target if isinstance(n.target, str) else _get_qualified_name(n.target)}" for n in best.nodes)
    node = best.nodes[0]
    if node.op == "call_method":
        return (best, None, None, "METHOD")
    defaults = {p.name: p.default for p in params if p.default is not p.empty}
    m = Mapper(ph, defaults)
    pos = m.positional(node.args)
    kws = [m.keyword(k, v) for k, v in node.kwargs.items()]
    notes = []
    if pa is None:
        unsure.append(f"{path}: not every parameter can be a proxy ({erra}); the template comes from "
                      "the required-only probe plus one probe per optional parameter")
        # which optional parameters reach the call, and as what? one probe each
        for p in optional + kwonly:
            names, call, ph1 = build({q.name for q in required} | {q.name for q in var}, {p.name})
            p1, err1 = try_probe(fn, call, names)
            if p1 is None or len(p1.nodes) != 1:
                notes.append(f"{p.name}: cannot be a proxy ({err1 or 'several nodes'})")
                continue
            n1 = p1.nodes[0]
            m1 = Mapper(ph1, defaults)
            for i, (k, v) in enumerate(n1.kwargs.items()):
                if isinstance(v, torch.fx.Node) and v.target == "k_" + p.name and k in node.kwargs:
                    idx = list(node.kwargs).index(k)
                    kws[idx] = m1.keyword(k, v)
            for i, v in enumerate(n1.args):
                if isinstance(v, torch.fx.Node) and v.target == "k_" + p.name and i < len(pos):
                    pos[i] = p.name
    # compare with the required-only probe: the same call shape?
    if pa is not None and pb is not None and len(pb.nodes) == 1:
        nb = pb.nodes[0]
        if nb.target is not node.target or list(nb.kwargs) != list(node.kwargs) or len(nb.args) != len(node.args):
            unsure.append(f"{path}: the required-only probe records a different call "
                          f"({_get_qualified_name(nb.target) if callable(nb.target) else nb.target} "
                          f"args={len(nb.args)} kwargs={list(nb.kwargs)}) than the all-parameter probe")
    if any(x is None for x in pos) or any(x is None for x in kws):
        unsure.append(f"{path}: an argument could not be mapped back to a parameter: args={node.args} kwargs={node.kwargs}")
        pos = [x if x is not None else "?" for x in pos]
        kws = [x if x is not None else "?" for x in kws]
    if notes:
        unsure.append(f"{path}: " + "; ".join(notes))
    return (best, ", ".join(pos), ", ".join(kws), "PYTHON")


def classify(path, fn):
    """Returns a dict describing the entry."""
    e = {"path": path, "kind": "NOT_TRACEABLE", "target": "", "name": "", "sig": "", "pos": "", "kw": "", "code": ""}
    short = path.rpartition(".")[2]
    if short in NOT_CALLED and path.startswith("torch."):
        return e
    if inspect.isbuiltin(fn) or not isinstance(fn, types.FunctionType):
        for call, names in BUILTIN_PROBES:
            p, err = try_probe(fn, call, names)
            if p is not None:
                break
        if p is None:
            p = probe_by_schema(fn)
        if p is None:
            return e
        if len(p.nodes) != 1:
            unsure.append(f"{path}: builtin records {len(p.nodes)} nodes")
            return e
        node = p.nodes[0]
        if node.op == "call_method":
            e.update(kind="METHOD", target=node.target, name=_snake_case(node.target), code=node.target)
            return e
        e.update(kind="BUILTIN", target=_get_qualified_name(node.target), name=p.gm.graph._target_to_str(node.target),
                 code=code_form(p, node))
        lt = listing_target(p, node)
        if lt != e["target"]:
            unsure.append(f"{path}: listing prints target {lt}, qualified name is {e['target']}")
        if node.target is not fn:
            e["note"] = "recorded target is another object than the access path"
        return e
    bd = boolean_dispatch_info(fn)
    sig_fn, fixed, flags = fn, set(), []
    while boolean_dispatch_info(sig_fn):
        fixed.add(boolean_dispatch_info(sig_fn)["arg_name"])
        flags.append(boolean_dispatch_info(sig_fn))
        sig_fn = boolean_dispatch_info(sig_fn)["if_false"]
    try:
        sig = inspect.signature(sig_fn)
    except (TypeError, ValueError):
        unsure.append(f"{path}: no signature")
        return e
    r = probe_python(path, fn, sig, fixed)
    if r[0] is None:
        if "records" in r[1] and "nodes" in r[1]:
            unsure.append(f"{path}: {r[1]}")
        e["reason"] = r[1]
        return e
    p, pos, kws, kind = r
    node = p.nodes[0]
    if kind == "METHOD":
        e.update(kind="METHOD", target=node.target, name=_snake_case(node.target), code=node.target,
                 sig=describe_signature(sig))
        return e
    e.update(kind="PYTHON", target=_get_qualified_name(node.target), name=p.gm.graph._target_to_str(node.target),
             sig=describe_signature(sig), pos=pos, kw=kws, code=code_form(p, node))
    if bd:
        e["dispatch"] = bd
        e["flags"] = flags
        e["fn"] = fn
    return e


def probe_constant(path, value):
    """(code repr, listing str) of `value` as a traced argument: x.foo(value)."""
    p = Probe(None, "p0.foo(_c)", ["p0"], {"_c": value})
    node = p.nodes[0]
    code = re.search(r"foo = p0\.foo\((.*)\)", p.code).group(1)
    lst = re.search(r"call_method\[target=foo\]\(args = \(%p0, (.*)\), kwargs", p.listing).group(1)
    return code, lst


def constants():
    out = []
    for n in sorted(dir(torch)):
        v = getattr(torch, n)
        for cls, kind in ((torch.dtype, "DTYPE"), (torch.memory_format, "MEMORY_FORMAT"), (torch.layout, "LAYOUT")):
            if isinstance(v, cls):
                out.append((f"torch.{n}", kind, v))
    for n in sorted(dir(math)):
        v = getattr(math, n)
        if isinstance(v, float):
            out.append((f"math.{n}", "FLOAT", v))
    for n in sorted(dir(torch)):
        v = getattr(torch, n)
        if isinstance(v, float) and not n.startswith("_"):
            out.append((f"torch.{n}", "FLOAT", v))
    lines = []
    for path, kind, v in out:
        code, lst = probe_constant(path, v)
        lines.append(f"GRAFT_FX_CONSTANT ({c_str(path)}, {kind}, {c_str(code)}, {c_str(lst)})")
    return lines


def math_functions():
    lines = []
    for n in sorted(dir(math)):
        v = getattr(math, n)
        if n.startswith("_") or not callable(v):
            continue
        p = Probe(v, f"math.{n}(p0)", ["p0"], {"math": math})
        node = p.nodes[0]
        assert node.op == "call_function" and node.target is v, n
        q = _get_qualified_name(node.target)
        assert code_form(p, node) == q.replace(".", "_"), (n, code_form(p, node))
        assert p.code.lstrip().startswith(f'torch.fx._symbolic_trace.wrap("{q.replace(".", "_")}")'), p.code
        lines.append(f"GRAFT_FX_MATH ({c_str(q)}, {c_str(p.gm.graph._target_to_str(v))})")
    return lines


HEADER = """\
/* graft-fx-table-@SERIES@.inc: how torch @TORCH@'s symbolic_trace records calls of torch functions.
 *
 * GENERATED by tests/tools/gen-fx-table.py from torch @TORCH@ (@ORIGIN@)
 * by tracing probe calls with torch.fx.  DO NOT EDIT: change the script and run
 *     @RUN@
 *
 * The includer defines the macros it needs before including this file; each section is
 * inside `#ifdef MACRO`, so undefined ones are skipped (define one per inclusion, e.g. to fill
 * a static array, and #undef it afterwards):
 *
 *   GRAFT_FX_STRING_POOL
 *     not a macro but a switch: the section is a run of string literals, one text per line,
 *     each ending in "\\0", that the includer reads as one array (`static const char
 *     pool[] = <this section>;`).  It holds each text of the GRAFT_FX_FUNCTION lines once.
 *
 *   GRAFT_FX_FUNCTION (access_path, KIND, target, name_base, signature, positional, keywords, code_form,
 *                      access_path_at, target_at, name_base_at, signature_at, positional_at, keywords_at)
 *     access_path  how user code reaches the callable: "torch.relu", "torch.nn.functional.relu",
 *                  "torch.functional.split", "torch._C._nn.linear", "torch.linalg.norm", ...
 *                  (an alias such as `import torch.nn.functional as F` resolves to one of these).
 *     KIND         BUILTIN        a C builtin: the node's args/kwargs are the call's, exactly as written.
 *                  PYTHON         a Python function that reaches __torch_function__ with a rearranged
 *                                 argument list: bind the call to `signature` (fill in defaults), then
 *                                 record args = `positional`, kwargs = `keywords` (see below).
 *                  METHOD         recorded as call_method; `target` is the method name (F.sigmoid ->
 *                                 sigmoid); args = (the first argument,) then the rest as written.
 *                  NOT_TRACEABLE  calling it with a traced value fails in torch @TORCH@ (factories such
 *                                 as torch.ones, removed functions, control flow inside), or is
 *                                 not a tensor function at all: a few Python helpers accept a
 *                                 Proxy and return a constant without recording anything
 *                                 (torch.is_tensor -> False, torch.get_rng_state) or record
 *                                 unrelated nodes (torch.typename); the other fields are empty.
 *     target       the node's target as the listing prints it (torch.fx.node._get_qualified_name):
 *                  "torch.relu", "torch._C._nn.linear", "torch.nn.functional.softmax",
 *                  "torch._C._special.special_expit" (torch.special.expit),
 *                  "torch._C._linalg.linalg_norm" (torch.linalg.norm), "torch.ops.aten.quantized_gru".
 *                  It need not match the access path: F.conv2d -> "torch.conv2d", F.pad ->
 *                  "torch.nn.functional.pad" (a builtin whose __module__ says so), F.upsample ->
 *                  "torch.nn.functional.interpolate", torch.split -> "torch.functional.split".
 *     name_base    the node name candidate before uniquifying (snake-cased target.__name__):
 *                  "relu", "log_sigmoid", "max" (the namespace then makes that max_1).
 *     signature    PYTHON/METHOD: the Python parameter list, defaults as repr:
 *                  "input, dim=None, _stacklevel=3, dtype=None", "*tensors, indexing=None".
 *                  A bare "*" separates keyword-only parameters.  Empty for BUILTIN.
 *     positional   PYTHON: the recorded positional args, in order, comma-separated: a parameter
 *                  name; "*name" (the varargs spread); "=<repr>" (a constant); "?" (unknown).
 *     keywords     PYTHON: the recorded kwargs, in order, comma-separated: "key" (kwarg key = the
 *                  value of parameter key), "key:param" (the value of parameter param),
 *                  "key=<repr>" (a constant), "key=?" (unknown).
 *     code_form    what gm.code prints as the callee: usually equal to target (torch names
 *                  print qualified); for METHOD the method name.
 *     ..._at       the byte offsets of the first six texts in GRAFT_FX_STRING_POOL, for tables
 *                  that hold offsets rather than pointers (a pointer is a relocation at start-up).
 *
 *   GRAFT_FX_BOOLEAN_DISPATCH (access_path, flag_param, flag_index, if_true_path)
 *     F.max_pool2d and friends pick the function by a bool parameter (return_indices, given by
 *     keyword or at position flag_index) at call time: with a true flag the call is recorded as if
 *     `if_true_path` (an access path of another GRAFT_FX_FUNCTION line) had been called with the
 *     same arguments.  access_path's own line describes the false case.  A traced flag fails
 *     (control flow).  torch.unique / torch.lu dispatch too, but every branch records the same
 *     call: their lines (one per flag) name the function itself, so only a traced flag matters.
 *
 *   GRAFT_FX_CONSTANT (access_path, KIND, code_repr, listing_str)
 *     KIND is DTYPE, MEMORY_FORMAT, LAYOUT or FLOAT: "torch.long" prints "torch.int64" in code and
 *     listing; "math.pi" prints "3.141592653589793"; "math.inf" prints "inf".
 *
 *   GRAFT_FX_MATH (target, name_base)
 *     the public callables of Python's math module: torch.fx auto-wraps them, so a call with a
 *     traced argument is call_function target "math.sqrt", named "sqrt", printed in code through
 *     the global "math_sqrt" with a `torch.fx._symbolic_trace.wrap("math_sqrt")` line.
 *
 * String fields are C string literals; lines are sorted by access path.
 */
"""


# How each torch's table is remade (the header quotes it); an unknown torch gets its own Python.
RUN = {
    "1.13": "/usr/bin/python3 tests/tools/gen-fx-table.py",
    "2.6": "../shared/tools/torch26 python3 tests/tools/gen-fx-table.py",
}


def header():
    series = torch_series()
    run = RUN.get(series, f"{sys.executable} tests/tools/gen-fx-table.py")
    release, origin = torch_release()
    return (HEADER.replace("@SERIES@", series).replace("@TORCH@", release)
            .replace("@ORIGIN@", origin).replace("@RUN@", run))


class _Var:
    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return self.n


# (call with placeholders x, w, y) checked against a real trace: the spec's section 2.4 and more
VERIFY = [
    "F.relu(x)", "F.softmax(x, 1)", "F.softmax(x, dim=1)", "F.dropout(x)", "F.dropout(x, 0.2, False)",
    "F.leaky_relu(x, 0.2)", "F.layer_norm(x, (4,))", "F.max_pool2d(x, 2)", "F.max_pool2d(x, 2, 1, return_indices=True)",
    "F.linear(x, w)", "F.gelu(x)", "F.avg_pool2d(x, 2)", "F.softplus(x)", "F.one_hot(x)", "F.logsigmoid(x)",
    "F.conv2d(x, w)", "F.cosine_similarity(x, w)", "F.pixel_shuffle(x, 2)", "torch.split(x, 2)",
    "torch.einsum('ij->ji', x)", "torch.norm(x)", "F.sigmoid(x)", "F.tanh(x)", "F.interpolate(x, scale_factor=2.0)",
    "F.pad(x, (1, 1))", "F.cross_entropy(x, y)", "F.adaptive_avg_pool2d(x, 1)", "F.adaptive_max_pool2d(x, 1)",
    "torch.meshgrid(x, y, indexing='ij')", "torch.broadcast_tensors(x, y)", "torch.tensordot(x, y)",
    "torch.unique(x, return_counts=True)", "F.upsample(x, scale_factor=2)", "F.batch_norm(x, w, y)",
    "torch._assert(x, 'm')", "torch.cat([x, y], dim=1)", "torch.max(x)", "torch.nn.functional.normalize(x)",
    "F.embedding(x, w)", "torch.cdist(x, y)", "torch.stft(x, 4)", "F.hardtanh(x)", "torch.atleast_2d(x)",
]


def verify(entries):
    """Rebuild each VERIFY call from the table and compare with what torch's code prints."""
    table = {e["path"]: e for e in entries}
    bds = {}
    F_ = F
    fails = 0
    for call in VERIFY:
        p = Probe(None, call, ["x", "w", "y"], {"F": F_})
        node = p.nodes[0]
        got = next(l.strip() for l in p.code.splitlines() if l.strip().startswith(node.name + " = "))
        got = got.split(";")[0]
        fname, _, rest = call.partition("(")
        path = fname.replace("F.", "torch.nn.functional.", 1) if fname.startswith("F.") else fname
        fn = eval(fname, {"F": F_, "torch": torch})
        env = {"x": _Var("x"), "w": _Var("w"), "y": _Var("y")}
        args, kwargs = eval("(lambda *a, **k: (a, k))(" + rest, env)
        e = table[path]
        flag = e.get("dispatch")
        if flag and (kwargs.get(flag["arg_name"]) or (len(args) > flag["index"] and args[flag["index"]])):
            line = next(l for l in bd_lines if l.startswith(f'GRAFT_FX_BOOLEAN_DISPATCH ("{path}"'))
            e = table[line.split('"')[-2]]
            fn = eval(e["path"], {"torch": torch})
        if e["kind"] == "BUILTIN":
            a = [repr(v) for v in args] + [f"{k} = {v!r}" for k, v in kwargs.items()]
            want = f"{e['code']}({', '.join(a)})"
        elif e["kind"] == "METHOD":
            a = [repr(v) for v in args[1:]] + [f"{k} = {v!r}" for k, v in kwargs.items()]
            want = f"{args[0]!r}.{e['code']}({', '.join(a)})"
        else:
            sig_fn = fn
            while boolean_dispatch_info(sig_fn):
                sig_fn = boolean_dispatch_info(sig_fn)["if_false"]
            b = inspect.signature(sig_fn).bind(*args, **kwargs)
            b.apply_defaults()
            a = []
            for t in filter(None, (t.strip() for t in e["pos"].split(","))):
                if t.startswith("*"):
                    a += [repr(v) for v in b.arguments[t[1:]]]
                elif t.startswith("="):
                    a.append(t[1:])
                else:
                    a.append(repr(b.arguments[t]))
            for t in filter(None, (t.strip() for t in e["kw"].split(","))):
                if "=" in t:
                    k, _, v = t.partition("=")
                    a.append(f"{k} = {v}")
                elif ":" in t:
                    k, _, q = t.partition(":")
                    a.append(f"{k} = {b.arguments[q]!r}")
                else:
                    a.append(f"{t} = {b.arguments[t]!r}")
            want = f"{e['code']}({', '.join(a)})"
        want = f"{node.name} = {want}"
        if want != got:
            fails += 1
            print(f"verify: {call}\n  table: {want}\n  torch: {got}", file=sys.stderr)
    print(f"verified {len(VERIFY) - fails}/{len(VERIFY)} example calls against torch", file=sys.stderr)
    return fails


bd_lines = []

# The fields of an entry whose texts the string pool holds, in GRAFT_FX_FUNCTION's order.
POOLED = ("path", "target", "name", "sig", "pos", "kw")


def string_pool(entries):
    """The pooled texts of @entries, each once in order of first use, and each text's offset
    in the pool as C lays it out (its UTF-8 bytes, then a NUL)."""
    pool, at, size = [], {}, 0
    for e in entries:
        for k in POOLED:
            text = e[k]
            assert "\0" not in text
            if text not in at:
                at[text] = size
                pool.append(text)
                size += len(text.encode("utf-8")) + 1
    return pool, at


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", default=f"core/trace/graft-fx-table-{torch_series()}.inc")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    dtype_before = torch.get_default_dtype()
    entries = []
    for path, fn in candidates().items():
        if a.verbose:
            print(f"probing {path}", file=sys.stderr, flush=True)
        entries.append(classify(path, fn))
    assert torch.get_default_dtype() == dtype_before
    counts = {}
    lines = [header()]
    pool, at = string_pool(entries)
    lines.append("#ifdef GRAFT_FX_STRING_POOL")
    lines += [c_str(text)[:-1] + '\\0"' for text in pool]
    lines.append("#endif\n")
    lines.append("#ifdef GRAFT_FX_FUNCTION")
    for e in entries:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
        lines.append("GRAFT_FX_FUNCTION (" + ", ".join(
            [c_str(e["path"]), e["kind"]] + [c_str(e[k]) for k in ("target", "name", "sig", "pos", "kw", "code")] +
            [str(at[e[k]]) for k in POOLED]) + ")")
        if e["kind"] == "BUILTIN" and e["code"] != e["target"]:
            unsure.append(f"{e['path']}: code prints {e['code']}, listing {e['target']}")
        if a.verbose and e.get("reason"):
            print(f"  {e['path']}: NOT_TRACEABLE: {e['reason']}", file=sys.stderr)
    lines.append("#endif\n")
    lines.append("#ifdef GRAFT_FX_BOOLEAN_DISPATCH")
    by_target = {}
    for e in entries:
        if e["kind"] == "PYTHON" and e["path"].rpartition(".")[2] == e["target"].rpartition(".")[2]:
            by_target.setdefault(e["target"], e["path"])
    nbd = 0
    for e in entries:
        bd = e.get("dispatch")
        if not bd:
            continue
        fn = e["fn"]
        first = e["sig"].split(",")[0].strip()
        p, err = try_probe(fn, f"_f(p0, {bd['arg_name']}=True)", ["p0"])
        if p is None and e["sig"].split(",")[1].strip().find("=") < 0:
            p, err = try_probe(fn, f"_f(p0, 2, {bd['arg_name']}=True)", ["p0"])
        if p is None or len(p.nodes) != 1:
            unsure.append(f"{e['path']}: the {bd['arg_name']}=True probe fails ({err})")
            continue
        t = _get_qualified_name(p.nodes[0].target)
        if t == e["target"]:
            # Every branch records the same call (torch.unique, torch.lu), but the wrapper
            # still tests each flag with `if`: a line per flag, naming the function itself,
            # so that a traced flag fails as it does in torch.
            for level in e["flags"]:
                lines.append(f"GRAFT_FX_BOOLEAN_DISPATCH ({c_str(e['path'])}, {c_str(level['arg_name'])}, "
                             f"{level['index']}, {c_str(e['path'])})")
                bd_lines.append(lines[-1])
                nbd += 1
            continue
        other = by_target.get(t)
        if other is None:
            unsure.append(f"{e['path']}: {bd['arg_name']}=True records {t}, which no access path records")
            other = ""
        lines.append(f"GRAFT_FX_BOOLEAN_DISPATCH ({c_str(e['path'])}, {c_str(bd['arg_name'])}, {bd['index']}, {c_str(other)})")
        bd_lines.append(lines[-1])
        nbd += 1
    lines.append("#endif\n")
    lines.append("#ifdef GRAFT_FX_CONSTANT")
    cl = constants()
    lines += cl
    lines.append("#endif\n")
    lines.append("#ifdef GRAFT_FX_MATH")
    ml = math_functions()
    lines += ml
    lines.append("#endif")
    if verify(entries):
        sys.exit("the table does not reproduce torch on the examples above; not written")
    with open(a.o, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.o}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f"; BOOLEAN_DISPATCH {nbd}; CONSTANT {len(cl)}; MATH {len(ml)}", file=sys.stderr)
    if unsure:
        print(f"unsure ({len(unsure)}):", file=sys.stderr)
        for u in unsure:
            print("  " + u, file=sys.stderr)


if __name__ == "__main__":
    main()
