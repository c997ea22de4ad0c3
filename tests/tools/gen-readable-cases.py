#!/usr/bin/python3
"""gen-readable-cases.py: the expected outputs of test-readable, from torch 2.6.

    /work/shared/tools/torch26 python3 tests/tools/gen-readable-cases.py [OUTDIR]
        (default OUTDIR: tests/data/readable)

Builds small torch.fx graphs by hand, with the node metadata a torch.export program carries
(`node.meta["val"]`, `node.meta["stack_trace"]`), and writes per graph NAME:

  NAME.graph              its listing, str(graph): test-readable reads it back into a graph
                          (a graph without an output, which no listing reader takes, is
                          built from its placeholder lines)
  NAME.meta               the metadata of its nodes, one line per node that has some (below)
  NAME.torch26.code       gm.code
  NAME.torch26.readable   gm.print_readable(print_output=False)
  NAME.torch26.readable-sd  the same with include_stride=True, include_device=True

and stack-traces.txt: one stack trace per line and what torch 2.6's `_parse_stack_trace(...)
.get_summary_str()` makes of it (torch/fx/graph.py), for graft_stack_trace_summarize().

NAME.meta lines are tab-separated: the node's name, the value kind (tensor, symbol, other or
unknown), dtype, shape, stride, device, symbol text and stack trace; or, for an output with a
type (the return annotation, which a listing does not show), `output`, `type` and the type.  A field is `~` for None,
else the text with C escapes (g_strcompress reads it back: `\\n`, `\\t`, `\\\\`, and octal
escapes for every other byte outside printable ASCII).  stack-traces.txt lines are the
escaped stack trace, a tab, and the escaped summary or `~` when torch finds no frame.

The graphs are GraphModule(root, graph) with the default class name, GraphModule.
"""
import os
import sys

import sympy
import torch
import torch.fx
from torch._dynamo.source import ConstantSource
from torch.fx.experimental.symbolic_shapes import ShapeEnv
from torch.fx.graph import _parse_stack_trace, dtype_abbrs
from torch.fx.node import _type_repr

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "data", "readable")
aten = torch.ops.aten

ENV = ShapeEnv()
S0 = ENV.create_symintnode(ENV.create_symbol(5, ConstantSource("a")), hint=5)
S1 = ENV.create_symintnode(ENV.create_symbol(7, ConstantSource("b")), hint=7)


def esc(text):
    """C escapes that g_strcompress reverses; None is `~`."""
    if text is None:
        return "~"
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        if c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "~" or not (0x20 <= b < 0x7F):
            out.append("\\%03o" % b)
        else:
            out.append(c)
    return "".join(out)


def meta_lines(node):
    """The node's lines of NAME.meta: its metadata, and an output's type (which listings do not
    show)."""
    lines = [meta_line(node)]
    if node.op == "output" and node.type is not None:
        lines.append("\t".join([node.name, "type", esc(_type_repr(node.type))]))
    return [ln for ln in lines if ln is not None]


def meta_line(node):
    val = node.meta.get("val")
    st = node.meta.get("stack_trace")
    if val is None and "stack_trace" not in node.meta:
        return None
    kind, dtype, shape, stride, device, symbol = "unknown", None, None, None, None, None
    if isinstance(val, torch.Tensor):
        kind = "tensor"
        dtype = dtype_abbrs[val.dtype]
        shape = "[" + ", ".join(str(s) for s in val.shape) + "]"
        stride = "[" + ", ".join(str(s) for s in val.stride()) + "]"
        device = str(val.device)
    elif isinstance(val, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        kind, symbol = "symbol", str(val)
    elif val is not None:
        kind, symbol = "other", repr(val) if not isinstance(val, (tuple, list)) else "tuple"
    return "\t".join([node.name, kind] + [esc(v) for v in (dtype, shape, stride, device, symbol, st)])


def t(*shape, dtype=torch.float32):
    return torch.empty(*shape, dtype=dtype, device="meta")


def frame(file, line, name, code=None):
    text = f'  File "{file}", line {line}, in {name}\n'
    return text + (f"    {code}\n" if code is not None else "")


class Builder:
    def __init__(self, root=None):
        self.g = torch.fx.Graph()
        self.root = root if root is not None else torch.nn.Module()
        self.invalid = False  # its code does not compile: no GraphModule (see StubModule)

    def node(self, op, target, args=(), kwargs=None, name=None, val=None, st=None, type_expr=None,
             has_st=None):
        n = self.g.create_node(op, target, args, kwargs or {}, name=name, type_expr=type_expr)
        if val is not None:
            n.meta["val"] = val
        if st is not None or has_st:
            n.meta["stack_trace"] = st
        return n

    def ph(self, name, val=None, st=None, type_expr=None, default=None):
        n = self.node("placeholder", name, () if default is None else (default,), name=name, val=val,
                      st=st, type_expr=type_expr)
        return n

    def fn(self, target, *args, name, val=None, st=None, kwargs=None, type_expr=None, has_st=None):
        return self.node("call_function", target, args, kwargs, name=name, val=val, st=st,
                         type_expr=type_expr, has_st=has_st)

    def out(self, value, st=None, val=None, type_expr=None):
        return self.node("output", "output", (value,), name="output", val=val, st=st,
                         type_expr=type_expr)


class StubModule:
    """What _print_readable asks of a module, for a graph whose code does not compile (a
    GraphModule cannot hold it): its graph, and no children."""

    def __init__(self, graph):
        self.graph = graph

    def named_children(self):
        return iter(())

    @property
    def code(self):
        return self.graph.python_code(root_module="self").src

    def print_readable(self, print_output=False, include_stride=False, include_device=False):
        return torch.fx.graph_module._print_readable(self, "GraphModule", print_output,
                                                     include_stride, include_device)


A = frame("m.py", 5, "forward", "z = x + y")
OUTER = frame("run.py", 40, "main", "model(x, y)")
B = frame("m.py", 6, "forward", "w = torch.relu(z)")


def case_traces():
    """Groups of nodes by stack trace: one header per change, a header again for a trace that
    differs but summarizes the same, an empty summary for a trace without a frame, and
    `# No stacktrace found` once for the nodes without one that follow."""
    b = Builder()
    x = b.ph("x", t(2, 4))
    y = b.ph("y", t(2, 4))
    add = b.fn(aten.add.Tensor, x, y, name="add", val=t(2, 4), st=A)
    mul = b.fn(aten.mul.Tensor, add, 2, name="mul", val=t(2, 4), st=A)
    relu = b.fn(aten.relu.default, mul, name="relu", val=t(2, 4), st=OUTER + A)
    neg = b.fn(aten.neg.default, relu, name="neg", val=t(2, 4), st="not a stack trace")
    s = b.fn(aten.sum.default, neg, name="sum_1")
    size = b.fn(aten.sym_size.int, x, 0, name="sym_size_int", val=S0)
    view = b.fn(aten.view.default, s, [1], name="view", val=t(1))
    cat = b.fn(aten.cat.default, [view, view], name="cat", val=t(2), st=B)
    b.fn(aten.detach.default, x, name="detach", val=t(2, 4), st=B + "\n")
    b.out((cat, size, y))
    return b


def case_first_traced():
    """The first node has a stack trace: the body starts with its header (torch's lstrip
    removes the blank line before it); A, B, A makes three headers."""
    b = Builder()
    x = b.ph("x", t(3), st=A)
    e = b.fn(aten.exp.default, x, name="exp", val=t(3), st=OUTER + A)
    l = b.fn(aten.log.default, e, name="log", val=t(3), st=B)
    s = b.fn(aten.sin.default, l, name="sin", val=t(3), st=OUTER + A)
    b.out(s, st=B)
    return b


def case_no_traces():
    """No node has a stack trace: `# No stacktrace found` opens the body."""
    b = Builder()
    x = b.ph("x", t(2, 3, dtype=torch.int64))
    m = b.ph("m", t(2, 3, dtype=torch.bool))
    w = b.fn(aten.where.self, m, x, 0, name="where", val=t(2, 3, dtype=torch.int64))
    c = b.fn(aten._to_copy.default, w, name="_to_copy", val=t(2, 3, dtype=torch.bfloat16),
             kwargs={"dtype": torch.bfloat16})
    b.out((c,))
    return b


def case_empty_trace():
    """An empty stack trace counts as none; back and forth."""
    b = Builder()
    x = b.ph("x", t(4))
    a = b.fn(aten.abs.default, x, name="abs_1", val=t(4), st="")
    c = b.fn(aten.cos.default, a, name="cos", val=t(4), st=A)
    d = b.fn(aten.tan.default, c, name="tan", val=t(4), st="")
    e = b.fn(aten.tanh.default, d, name="tanh", val=t(4), st=A)
    f = b.fn(aten.sigmoid.default, e, name="sigmoid", val=t(4))
    b.out(f)
    return b


def case_types():
    """Annotations: metadata wins over node.type; without a tensor or symbol value the type
    annotation stays (` : torch.Tensor`); other ops; a placeholder default; the output's own
    metadata and trace are not shown, its type is the return annotation."""
    root = torch.nn.Module()
    root.lin = torch.nn.Linear(4, 4)
    root.register_buffer("buf", torch.zeros(4))
    b = Builder(root)
    x = b.ph("x", t(2, 4), type_expr=torch.Tensor)
    k = b.ph("k", type_expr=int, default=3)
    sc = b.ph("scale", S1, default=2)
    buf = b.node("get_attr", "buf", name="buf", val=t(4), st=A)
    lin = b.node("call_module", "lin", (x,), name="lin", val=t(2, 4), st=A, type_expr=torch.Tensor)
    meth = b.node("call_method", "add", (lin, buf), name="add", type_expr=torch.Tensor, st=B)
    split = b.fn(aten.split.Tensor, meth, 2, name="split", val=(t(1, 4), t(1, 4)), st=B,
                 type_expr=torch.Tensor)
    g0 = b.fn(__import__("operator").getitem, split, 0, name="getitem", val=t(1, 4), st=B)
    m = b.fn(aten.mul.Tensor, g0, sc, name="mul", val=t(1, 4))
    r = b.fn(aten.add.Tensor, m, k, name="add_1", val=t(1, 4), st=B)
    b.out(r, st=A, val=t(1, 4), type_expr=torch.Tensor)
    return b


def case_counter():
    """torch 2.6 removes every line in which `# COUNTER: N` occurs (its own line tags): a
    header whose code holds it, a node whose arguments hold it; the blank line before such a
    header stays."""
    b = Builder()
    x = b.ph("x", t(2))
    a = b.fn(aten.add.Tensor, x, 1, name="add", val=t(2),
             st=frame("m.py", 3, "forward", "y = x + 1  # COUNTER: 12"))
    m = b.node("call_method", "tag", (a, "# COUNTER: 3"), name="tag", val=t(2), st=A)
    n = b.fn(aten.neg.default, m, name="neg", val=t(2), st=A)
    b.out(n)
    return b


def case_symbols():
    """Symbolic values: Sym(...) of SymInt and SymBool values, symbolic sizes."""
    b = Builder()
    fake = torch._subclasses.FakeTensorMode(shape_env=ENV)
    with fake:
        xs = torch.empty(S0, 4)
    x = b.ph("x", xs)
    s = b.fn(aten.sym_size.int, x, 0, name="sym_size_int", val=S0, st=A)
    d = b.fn(__import__("operator").mul, s, 2, name="mul", val=S0 * 2, st=A)
    e = b.fn(__import__("operator").eq, s, 4, name="eq",
             val=ENV.create_symboolnode(sympy.Eq(S0.node.expr, 4)), st=A)
    v = b.fn(aten.view.default, x, [d, 2], name="view", val=None, st=B)
    b.out((v, e))
    return b


def case_placeholders_only():
    """No node but placeholders (and no output): torch 2.6's line tags keep the body from being
    empty, so there is no `pass`."""
    b = Builder()
    b.ph("x", t(2), st=A)
    b.invalid = True
    return b


def case_empty():
    """No node at all: the body is `pass`."""
    b = Builder()
    b.invalid = True
    return b


CASES = {
    "traces": case_traces,
    "first_traced": case_first_traced,
    "no_traces": case_no_traces,
    "empty_trace": case_empty_trace,
    "types": case_types,
    "counter": case_counter,
    "symbols": case_symbols,
    "placeholders_only": case_placeholders_only,
    "empty": case_empty,
}

# Stack traces for graft_stack_trace_summarize: torch's regex `^File "(.+)", line (\d+), in
# (.+)$` on each stripped line, from the second-to-last line up; the next line is the code.
STACK_TRACES = [
    A,
    OUTER + A,
    OUTER + A + "\n\n",
    A.rstrip("\n"),
    frame("m.py", 5, "forward"),  # no code line: the only line is also the last
    frame("a.py", 1, "f") + frame("b.py", 2, "g"),  # the code is the next frame's line
    frame('we", line 3, in ird.py', 7, "forward", "x = 1"),  # greedy: the file holds the words
    frame('q"uote.py', 8, "forward", "y = 2"),
    frame("m.py", 9, "forward, in inner", "z = 3"),
    frame("m.py", 10, "", "empty name"),
    '  File "", line 1, in f\n    nofile\n',
    '  File "m.py", line , in f\n    nonumber\n',
    '  File "m.py", line 12x, in f\n    badnumber\n',
    '  File "m.py", line 12, in f\r\n    crlf = 1\r\n',
    '\r\n  File "m.py", line 13, in f\r\n    crlf = 2\r\n\r\n',
    '\t File "m.py", line 14, in\tf\n\t\tcode\twith tabs  \n',
    'File "m.py", line 15, in f\n   \n',
    '  File "m.py", line 16, in f\n    a\n  File "m.py", line 17, in g\n',
    '  File "m.py", line 18, in f\n  File "m.py", line 19, in g\n    b\n',
    "\u00a0 File \"m.py\", line 20, in f\u00a0\n\u3000 code\u2003\n",
    "\x1c File \"m.py\", line 21, in f\x1f\n\x1d code \x1e\n",
    '  File "m.py", line \u0663\u0664, in f\n    arabic_digits\n',
    '  File "m.py", line 22, in f\u2028g\n    sep\n',
    '  File "m.py", line 23, in f\n    x = "# COUNTER: 4"\n',
    "  File \"caf\u00e9.py\", line 24, in f\u00e9\n    \u00e9 = 1\n",
    "  file \"m.py\", line 25, in f\n    lower\n",
    "  File  \"m.py\", line 26, in f\n    two_spaces\n",
    "  File \"m.py\", line 27,  in f\n    two_spaces_before_in\n",
    "  File \"m.py\", line 28, in f \n    trailing_space_name\n",
    "Traceback:\n  File \"m.py\", line 29, in f\n    x\nValueError: bad\n",
    "",
    "\n\n",
    "just text",
    "  File \"m.py\", line 30, in f\n",
    "  File \"m.py\", line 31, in f\n    \"\"\"\n",
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, make in CASES.items():
        b = make()
        gm = StubModule(b.g) if b.invalid else torch.fx.GraphModule(b.root, b.g)
        files = {
            f"{name}.graph": str(b.g),
            f"{name}.meta": "".join(ln + "\n" for n in b.g.nodes for ln in meta_lines(n)),
            f"{name}.torch26.code": gm.code,
            f"{name}.torch26.readable": gm.print_readable(print_output=False),
            f"{name}.torch26.readable-sd": gm.print_readable(print_output=False, include_stride=True,
                                                            include_device=True),
        }
        for fname, text in files.items():
            if not fname.endswith(".meta"):
                text = text.strip() + "\n"  # fx-reference's form
            with open(os.path.join(OUT, fname), "w", encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(OUT, "stack-traces.txt"), "w", encoding="utf-8") as f:
        for st in STACK_TRACES:
            parsed = _parse_stack_trace(st)
            f.write(esc(st) + "\t" + esc(parsed.get_summary_str() if parsed else None) + "\n")


if __name__ == "__main__":
    main()
