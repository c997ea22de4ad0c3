#!/usr/bin/python3
"""gen-program-text-data.py: the samples of tests/test-program-text.c (torch 2.6.0).

    ../shared/tools/torch26 python3 tests/tools/gen-program-text-data.py [--only NAME...]

Run from the top of the project, under torch26.  For each program of PROGRAMS below it exports
the model (parameters on the `meta` device), saves it with torch.export.save into a temporary
directory, loads it back with torch.export.load and writes, under tests/data/program-text:

NAME.ep.txt        str(ep), exactly: the `ExportedProgram:` text form
NAME.readable.txt  ep.graph_module.print_readable(print_output=False), exactly
NAME.torch26.code  the oracle's `fx-reference code NAME.pt2` (torch's text stripped plus one
NAME.torch26.graph newline), and `graph NAME.pt2`; the archive itself is not kept: the test
                   reads only the texts

The model source is compiled under the file name "program-text/models.py" (registered in
linecache), so stack traces read `File "program-text/models.py", line N, in forward`.  Some
programs have their stack traces edited before saving (EDITS below) to give the text forms
torch prints for nodes without a trace (`# No stacktrace found for following nodes`).
"""
import argparse
import linecache
import os
import subprocess
import sys
import tempfile
import types

import torch

ORACLE = os.environ.get("FX_REFERENCE", "/work/shared/tools/fx-reference")
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(TOP, "tests", "data", "program-text")
MODELS_FILE = "program-text/models.py"

MODELS_SRC = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.register_buffer("scale", torch.ones(3))

    def forward(self, x, y):
        a = self.lin(x)
        b = self.bn(a)
        c, d = b.chunk(2, dim=1)
        return torch.relu(a + y) * self.scale, torch.cat([c, d], 1)


class Symbolic(nn.Module):
    def forward(self, x, y):
        n = x.shape[0]
        z = x.reshape(n * 2, -1)
        return z + 1.5, y[:, 1:3], x.new_zeros(n // 2), -n


class Values(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("cnt", torch.zeros(1))
        self.c = torch.ones(3)

    def forward(self, x):
        self.cnt.add_(1)
        a = F.gelu(x, approximate="tanh")
        b = a.to(torch.float16).to(torch.float32)
        c = torch.full((2, 3), float("inf"))
        d = torch.clamp(x, min=-float("inf"), max=float("nan"))
        e = torch.zeros(2, 3, dtype=torch.int64, layout=torch.strided)
        f = x.contiguous(memory_format=torch.contiguous_format) * self.c
        g = x.max(dim=1)
        h = torch.einsum("ij,jk->ik", x.t(), x)
        i = F.pad(x, (1, 1), mode="constant", value=-1.5)
        j = torch.arange(0, 10, 2, dtype=torch.float64)
        return a, b, c, d, e, f, g.values, g.indices, x.sum(dim=[0, 1], keepdim=True), h, i, j


class Mutation(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(3), persistent=False)

    def forward(self, x, y):
        x.add_(y)
        self.buf.add_(x.sum())
        return x * 2 + self.buf


def helper(x):
    return x + 1


class SameSummary(nn.Module):
    def forward(self, x):
        a = helper(x)
        b = helper(a)
        a = x + 1; c = b * a
        return c


class DataDependent(nn.Module):
    def forward(self, x, n):
        k = n.item()
        torch._check_is_size(k)
        torch._check(k <= 4)
        return x.new_zeros(k) * 2.0, x.shape[0] // 3 + k


class Slices(nn.Module):
    def forward(self, x):
        return x[..., 1:], x[None, :, 0], x[::2], x.unbind(0)[1], x.shape[1] + 0


class Constants(nn.Module):
    def forward(self, x, flag: bool, scale: float = 2.0, mode: str = "a"):
        return x * scale if flag else x


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(8, 2, batch_first=True)
        self.ln = nn.LayerNorm(8)

    def forward(self, x):
        a, _ = self.mha(x, x, x)
        return F.gelu(self.ln(a + x))


class ConvBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return F.relu(self.bn(self.c(x))).flatten(1).permute(1, 0).reshape(-1, 2).view(2, -1)
'''


def models():
    lines = MODELS_SRC.splitlines(keepends=True)
    linecache.cache[MODELS_FILE] = (len(MODELS_SRC), None, lines, MODELS_FILE)
    mod = types.ModuleType("program_text_models")
    mod.__file__ = MODELS_FILE
    exec(compile(MODELS_SRC, MODELS_FILE, "exec"), mod.__dict__)
    return mod


def meta(*shape):
    return torch.randn(*shape, device="meta")


def drop_traces(names):
    """An edit: the nodes named NAMES lose their stack trace."""
    def edit(ep):
        for node in ep.graph.nodes:
            if node.name in names:
                node.meta.pop("stack_trace", None)
    return edit


def programs(m):
    from torch.export import Dim
    return {
        # name: (model, args, kwargs, dynamic_shapes, decompose, edit)
        "linear_bn": (m.LinearBn(), (meta(2, 4), meta(2, 3)), None, None, False, None),
        "symbolic": (m.Symbolic(), (torch.randn(4, 6), torch.randn(3, 5)), None,
                     {"x": {0: Dim("b", min=2, max=64)}, "y": None}, False, None),
        "values": (m.Values(), (torch.randn(2, 3),), None, None, False, None),
        "values_core": (m.Values(), (torch.randn(2, 3),), None, None, True, None),
        "mutation": (m.Mutation(), (torch.randn(3), torch.randn(3)), None, None, True, None),
        "same_summary": (m.SameSummary(), (torch.randn(2, 3),), None, None, False, None),
        "data_dependent": (m.DataDependent(), (torch.randn(4, 3), torch.tensor(2)), None,
                           ({0: Dim("b")}, None), False, None),
        "slices": (m.Slices(), (torch.randn(3, 4),), None, ({1: Dim("w", min=3)},), False, None),
        "constants": (m.Constants(), (torch.randn(2), True), {"scale": 3.0, "mode": "b"}, None,
                      False, None),
        "attention": (m.Attention(), (meta(2, 5, 8),), None, None, True, None),
        "no_trace": (m.ConvBn(), (meta(1, 3, 8, 8),), None, None, False,
                     drop_traces({"conv2d", "relu", "flatten", "view"})),
    }


def oracle(command, path):
    out = subprocess.run([sys.executable, ORACLE, command, path], check=True,
                         capture_output=True, text=True).stdout
    return out.strip() + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    m = models()
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (model, margs, kwargs, dyn, decompose, edit) in programs(m).items():
            if args.only and name not in args.only:
                continue
            model = model.to("meta").eval() if any(
                a.device.type == "meta" for a in margs if isinstance(a, torch.Tensor)) else model
            ep = torch.export.export(model, margs, kwargs=kwargs, dynamic_shapes=dyn)
            if decompose:
                ep = ep.run_decompositions()
            if edit is not None:
                edit(ep)
            pt2 = os.path.join(tmp, name + ".pt2")
            torch.export.save(ep, pt2)
            ep = torch.export.load(pt2)
            texts = {
                "ep.txt": str(ep),
                "readable.txt": ep.graph_module.print_readable(print_output=False),
                "torch26.code": oracle("code", pt2),
                "torch26.graph": oracle("graph", pt2),
            }
            for suffix, text in texts.items():
                with open(os.path.join(OUT, name + "." + suffix), "w") as f:
                    f.write(text)
            print(name)


if __name__ == "__main__":
    main()
