#!/usr/bin/python3
"""gen-programs.py: the golden corpus of torch.export programs (torch 2.6.0, torchvision 0.21).

    ../shared/tools/torch26 python3 tests/tools/gen-programs.py [--only NAME...] [--verify]
        [--skip-programs] [--skip-rewrites] [--skip-errors]

Run from the top of the project, under torch26 (it needs torch 2.6). One process does
everything (torch takes about 4 s to start); the oracle, ../shared/tools/fx-reference, is loaded
as a module and its main() called once per output, with what it changes in torch restored in
between (as tests/tools/difftest's workers do).  With --verify, every oracle output is also
made by fx-reference run as a separate process (2 at a time) and the bytes compared.

It writes (under tests/data):

programs/NAME.pt2      torch.export.save of a small model of MODELS_SRC below or of a
                       torchvision 0.21 model (PROGRAMS lists them), exported on the `meta`
                       device (parameters hold no data), optionally followed by
                       run_decompositions() (the "core" programs: convolution,
                       _native_batch_norm_legit_no_training, addmm...; the others are what
                       torch.export.export gives, the training IR: linear, conv2d,
                       batch_norm...).  The zip is then rewritten with every member's date set
                       to 1980-01-01 00:00:00, in the same order, stored as torch stores it,
                       so a rerun writes the same bytes.
programs/NAME.ep.txt   str(ep) of ep = torch.export.load(NAME.pt2), exactly (no final newline
                       added): the `ExportedProgram:` text form.
programs/NAME.readable.txt
                       ep.graph_module.print_readable(print_output=False), exactly: the
                       `class GraphModule(torch.nn.Module):` text form.
programs/NAME.torch26.code, .graph, .readable
                       fx-reference code NAME.pt2, graph NAME.pt2, code NAME.pt2 --to readable
                       (run in programs/): torch's text stripped plus one newline.
program-rewrites/NAME.torch26.code, .graph, .readable, .stderr, .match.json
                       for each hand-written program-rewrites/NAME.args (one line: a program
                       and the options, paths relative to tests/data, where the oracle is
                       run): fx-reference rewrite ARGS (stdout; stderr -> .stderr), rewrite
                       --to graph, rewrite --to readable, match --json ARGS.
                       The patterns are program-rewrites/patterns.py (hand-written, aten ops).
programs-renamed/placeholder_NAME.pt2 (and .torch26.code, .graph, .readable)
                       programs/linear.pt2 with its input `x` renamed in the JSON (by
                       renamed_inputs() below): to a keyword (`lambda`), a name that is not an
                       identifier (`a-b`), `self` and `*x`.  Only the archive: torch.export
                       makes no such program, and torch 2.6 cannot compile the code of the
                       first three, so its graph module keeps an empty graph's code
                       (`_create_graph_module_for_export`) while its listing and readable form
                       show the program's graph.  Apart from programs/, whose programs
                       every test reads in all three forms (and as DOT, where `lambda`
                       cannot name a node).
program-errors/NAME.pt2
                       bad archives, made from programs/linear.pt2 by error_inputs() below
                       (each entry says how), and program-errors/ORACLE.torch26.txt: one line
                       per input, `NAME: ExceptionType: first line of the message` of
                       torch.export.load(NAME.pt2), followed by ` (from ExceptionType: first
                       line)` of the exception it was raised from, if any (the deserializer
                       wraps what fails in a node in a SerializeError whose first line is the
                       whole node).  Their expected Graft diagnostics are not made here
                       (Graft's own, checked by hand).

The model source is compiled under the file name "programs/models.py" and registered in
linecache, so the stack traces the archives hold read `File "programs/models.py", line N, in
forward` followed by the code line, with no path of this machine; torchvision's frames name
/usr/lib/python3/dist-packages/torchvision/..., the same in every torch26 root.

Checks made on each program (the run stops on a failure): the archive loads; the oracle's
readable output is the readable text form stripped plus a newline; str(ep) holds that same
class text indented by 4 after its `ExportedProgram:` line; a rerun of save on the same
program gives the same bytes. The sizes of the archives are printed.
"""
import argparse
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import linecache
import os
import subprocess
import sys
import traceback
import warnings
import zipfile
from concurrent.futures import ThreadPoolExecutor

ORACLE = os.environ.get("FX_REFERENCE", "/work/shared/tools/fx-reference")
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(TOP, "tests", "data")
PROGRAMS_DIR = os.path.join(DATA, "programs")
REWRITES_DIR = os.path.join(DATA, "program-rewrites")
ERRORS_DIR = os.path.join(DATA, "program-errors")
RENAMED_DIR = os.path.join(DATA, "programs-renamed")
MODELS_FILE = "programs/models.py"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

# The hand-written models.  Each class is one program (or two: PROGRAMS says).
MODELS_SRC = r'''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2, bias=False)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 4, 1, stride=2, bias=False)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        return self.conv2(x)


class ConvBn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class BatchNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        return self.bn(x) * 2


class AttentionSdpa(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(b, t, c)
        return self.proj(y)


class AttentionManual(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        attn = torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)
        return attn @ v


class Residual(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + x)


class LayerNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(8)

    def forward(self, x):
        y = self.ln(x)
        return F.layer_norm(y, (8,), eps=1e-6)


class Gelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 8)
        self.act = nn.GELU()

    def forward(self, x):
        y = self.act(self.fc(x))
        return F.gelu(y, approximate="tanh")


class ChunkCat(nn.Module):
    def forward(self, x):
        a, b, c = x.chunk(3, dim=1)
        y = torch.cat([c, a, b], dim=1)
        p, q = torch.split(y, [2, 4], dim=1)
        return torch.stack([p, q[:, :2]], dim=0)


class Slicing(nn.Module):
    def forward(self, x):
        a = x[:, 1:3]
        b = x[..., 0]
        c = x[:, None, ::2]
        d = x[-1]
        e = x[:, [0, 2]]
        return a.sum() + b.sum() + c.sum() + d.sum() + e.sum()


class Views(nn.Module):
    def forward(self, x):
        b = x.size(0)
        y = x.view(b, 3, 4).permute(0, 2, 1)
        y = y.reshape(b, 12).transpose(0, 1).contiguous()
        y = y.flatten().unsqueeze(0)
        return y.view(b, 3, 4).permute(2, 0, 1)


class BuffersConstants(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(4))
        self.register_buffer("shift", torch.zeros(4), persistent=False)
        self.table = torch.arange(4.0)
        self.weight = nn.Parameter(torch.ones(4))

    def forward(self, x):
        return (x * self.scale + self.shift) * self.weight + self.table


class ScalarInputs(nn.Module):
    def forward(self, x, alpha: float, flag: bool, n: int):
        y = x * alpha if flag else x
        return y.repeat(1, n)


class TwoOutputs(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        return y.relu(), y.sigmoid()


class DictInput(nn.Module):
    def forward(self, inputs, pair):
        a = inputs["a"] + inputs["b"]
        u, v = pair
        return {"sum": a * u, "diff": a - v}


class DynamicBatch(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        n = x.size(0)
        y = self.fc(x.view(n, -1, 4))
        return y.reshape(n * y.size(1), 4)


class MultiOutput(nn.Module):
    def forward(self, x):
        values, _ = x.max(dim=1)
        _, indices = torch.topk(x, 2)
        first, _ = x.split(2, dim=1)
        rows = x.unbind(0)
        var, mean = torch.var_mean(x, dim=1)
        return values, indices, first, rows[1], var


class Factory(nn.Module):
    def forward(self, x):
        pos = torch.arange(x.shape[-1], dtype=torch.float32, device=x.device)
        ones = torch.ones_like(x, dtype=torch.float16)
        y = (x + pos).to(torch.float16) * ones
        z = torch.zeros(8, layout=torch.strided, device=x.device)
        up = F.interpolate(x, scale_factor=2.0) + z
        return y.contiguous(memory_format=torch.channels_last), up
'''


def load_models():
    """MODELS_SRC as a module whose file is MODELS_FILE (registered in linecache)."""
    import types
    lines = MODELS_SRC.splitlines(keepends=True)
    linecache.cache[MODELS_FILE] = (len(MODELS_SRC), None, lines, MODELS_FILE)
    mod = types.ModuleType("models")
    mod.__file__ = MODELS_FILE
    sys.modules["models"] = mod
    exec(compile(MODELS_SRC, MODELS_FILE, "exec"), mod.__dict__)
    return mod


def program_specs(models):
    """NAME -> (build, decompose[, device]): build() gives (module, args, kwargs,
    dynamic_shapes), made on the device (default: meta, so that parameters hold no data);
    decompose runs run_decompositions() on the export."""
    import torch
    import torchvision
    tv = torchvision.models
    r = torch.randn

    def m(cls, *shapes, train=False, **kw):
        def build():
            mod = getattr(models, cls)(**kw)
            mod.train(train)
            return mod, tuple(r(*s) for s in shapes), {}, None
        return build

    def dict_input():
        mod = models.DictInput().eval()
        return mod, ({"a": r(2, 3), "b": r(2, 3)}, (r(2, 3), r(2, 3))), {}, None

    def scalar_inputs():
        return models.ScalarInputs().eval(), (r(2, 3), 0.5, True, 2), {}, None

    def dynamic_batch():
        batch = torch.export.Dim("batch", min=2, max=64)
        return models.DynamicBatch().eval(), (r(8, 2, 4),), {}, {"x": {0: batch}}

    def tvm(ctor, shape):
        def build():
            return ctor().eval(), (r(*shape),), {}, None
        return build

    def mobilenet_v3_small_b4():
        from torchvision.models.mobilenetv3 import MobileNetV3, _mobilenet_v3_conf
        setting, last = _mobilenet_v3_conf("mobilenet_v3_small")
        return MobileNetV3(setting[:4], last, num_classes=10).eval(), (r(1, 3, 32, 32),), {}, None

    def shufflenet_small():
        from torchvision.models.shufflenetv2 import ShuffleNetV2
        net = ShuffleNetV2([1, 1, 1], [8, 16, 32, 64, 128], num_classes=10)
        return net.eval(), (r(1, 3, 32, 32),), {}, None

    def vit_tiny():
        net = tv.VisionTransformer(image_size=32, patch_size=16, num_layers=1, num_heads=2,
                                   hidden_dim=32, mlp_dim=64, num_classes=10)
        return net.eval(), (r(1, 3, 32, 32),), {}, None

    return {
        "linear": (m("Linear", (2, 4)), False),
        "linear_core": (m("Linear", (2, 4)), True),
        "conv": (m("Conv", (1, 3, 8, 8)), False),
        "conv_bn_core": (m("ConvBn", (1, 3, 8, 8)), True),
        "batchnorm_train": (m("BatchNorm", (3, 4), train=True), False),
        "batchnorm_train_core": (m("BatchNorm", (3, 4), train=True), True),
        "batchnorm_eval": (m("BatchNorm", (3, 4)), False),
        "attention_sdpa": (m("AttentionSdpa", (2, 5, 8)), False),
        "attention_manual": (m("AttentionManual", (2, 5, 8)), False),
        "residual_core": (m("Residual", (1, 4, 6, 6)), True),
        "layer_norm": (m("LayerNorm", (2, 3, 8)), False),
        "layer_norm_core": (m("LayerNorm", (2, 3, 8)), True),
        "gelu": (m("Gelu", (2, 4)), False),
        "chunk_cat": (m("ChunkCat", (2, 6, 3)), False),
        "slicing": (m("Slicing", (2, 4, 3)), False),
        "views": (m("Views", (2, 12)), False),
        "buffers_constants": (m("BuffersConstants", (2, 4)), False),
        "two_outputs": (m("TwoOutputs", (2, 4)), False),
        "scalar_inputs": (scalar_inputs, False),
        "dict_input": (dict_input, False),
        "dynamic_batch": (dynamic_batch, False),
        "multi_output": (m("MultiOutput", (3, 4)), False),
        "multi_output_core": (m("MultiOutput", (3, 4)), True),
        "factory": (m("Factory", (1, 2, 3, 4)), False),
        "factory_cpu": (m("Factory", (1, 2, 3, 4)), False, "cpu"),
        "resnet18": (tvm(lambda: tv.resnet18(), (1, 3, 32, 32)), True),
        "mobilenet_v3_small_b4": (mobilenet_v3_small_b4, True),
        "shufflenet_small": (shufflenet_small, False),
        "vit_tiny": (vit_tiny, False),
        "squeezenet1_0": (tvm(lambda: tv.squeezenet1_0(num_classes=10), (1, 3, 64, 64)), False),
    }


def normalized_zip(data):
    """The archive `data` with every member's date set to ZIP_DATE, same order, same storage."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            fixed.compress_type = info.compress_type
            fixed.external_attr = info.external_attr
            fixed.create_system = info.create_system
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def export_program(name, spec):
    """The bytes of the normalized .pt2 of program `name`."""
    import torch
    build, decompose, device = (spec + ("meta",))[:3]
    torch.manual_seed(0)  # the cpu program's parameters (if any) are saved
    with torch.device(device):
        mod, args, kwargs, dynamic = build()
    ep = torch.export.export(mod, args, kwargs, dynamic_shapes=dynamic)
    if decompose:
        ep = ep.run_decompositions()
    buf = io.BytesIO()
    torch.export.save(ep, buf)
    return normalized_zip(buf.getvalue())


def write(path, data):
    """Write bytes or text to path, through a temporary file (never half-written)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class Oracle:
    """fx-reference loaded as a module; run(argv, cwd) is one call, as a process would make it:
    (status, stdout, stderr).  What fx-reference changes in torch and Python on a call is put
    back before the next (the matcher class it subclasses, Proxy.__iter__, warning filters),
    and its cache of executed input files is emptied."""

    def __init__(self, path):
        loader = importlib.machinery.SourceFileLoader("graft_fx_reference", path)
        spec = importlib.util.spec_from_loader(loader.name, loader)
        self.ref = importlib.util.module_from_spec(spec)
        loader.exec_module(self.ref)
        import torch.fx
        from torch.fx.passes.utils import matcher_utils
        self.matcher_utils = matcher_utils
        self.pristine_matcher = matcher_utils.SubgraphMatcher
        self.pristine_iter = torch.fx.proxy.Proxy.__iter__
        self.pristine_filters = list(warnings.filters)

    def run(self, argv, cwd):
        import torch.fx
        self.ref._modules.clear()
        for key in [k for k in sys.modules if k.startswith("_graft_input_")]:
            del sys.modules[key]
        self.matcher_utils.SubgraphMatcher = self.pristine_matcher
        torch.fx.proxy.Proxy.__iter__ = self.pristine_iter
        here = os.getcwd()
        os.chdir(cwd)
        saved_argv, saved_out, saved_err = sys.argv, sys.stdout, sys.stderr
        sys.argv = ["fx-reference"] + list(argv)
        out, err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = out, err
        status = 0
        try:
            self.ref.main()
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if isinstance(e.code, str):
                print(e.code, file=err)
        except BaseException:
            traceback.print_exc(file=err)
            status = 1
        finally:
            sys.argv, sys.stdout, sys.stderr = saved_argv, saved_out, saved_err
            warnings.filters[:] = self.pristine_filters
            warnings._filters_mutated()
            os.chdir(here)
        return status, out.getvalue(), err.getvalue()

    def must(self, argv, cwd):
        status, out, err = self.run(argv, cwd)
        if status != 0:
            sys.exit(f"gen-programs: fx-reference {' '.join(argv)} (in {cwd}) exits {status}: {err}")
        return out, err


def oracle_process(argv, cwd):
    """fx-reference as a separate process (for --verify)."""
    r = subprocess.run([ORACLE] + list(argv), cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def program_outputs(oracle, name):
    """NAME.torch26.SUFFIX -> text, from the oracle run in programs/."""
    pt2 = name + ".pt2"
    return {
        "code": oracle.must(["code", pt2], PROGRAMS_DIR)[0],
        "graph": oracle.must(["graph", pt2], PROGRAMS_DIR)[0],
        "readable": oracle.must(["code", pt2, "--to", "readable"], PROGRAMS_DIR)[0],
    }


def check_program(name, ep, readable_text, ep_text, outputs):
    """The consistency checks of the docstring; exits on a failure."""
    def fail(msg):
        sys.exit(f"gen-programs: {name}: {msg}")
    if outputs["readable"] != readable_text.strip() + "\n":
        fail("the oracle's readable output is not the print_readable text")
    if outputs["code"] != ep.graph_module.code.strip() + "\n":
        fail("the oracle's code is not gm.code")
    # ExportedProgram.__str__ (torch/export/exported_program.py): print_readable's text with
    # every newline followed by 4 spaces, then the signature and the range constraints
    want = ("ExportedProgram:\n    " + readable_text.replace("\n", "\n    ") + "\n"
            + f"Graph signature: {ep.graph_signature}\n"
            + f"Range constraints: {ep.range_constraints}\n")
    if ep_text != want:
        fail("str(ep) is not the readable text indented by 4 plus the signature")


def gen_programs(oracle, names, verify_jobs):
    import torch
    models = load_models()
    specs = program_specs(models)
    os.makedirs(PROGRAMS_DIR, exist_ok=True)
    sizes = {}
    for name in names:
        data = export_program(name, specs[name])
        if export_program(name, specs[name]) != data:
            sys.exit(f"gen-programs: {name}: two saves of the same program differ")
        path = os.path.join(PROGRAMS_DIR, name + ".pt2")
        write(path, data)
        ep = torch.export.load(path)
        ep_text = str(ep)
        readable_text = ep.graph_module.print_readable(print_output=False)
        write(os.path.join(PROGRAMS_DIR, name + ".ep.txt"), ep_text)
        write(os.path.join(PROGRAMS_DIR, name + ".readable.txt"), readable_text)
        outputs = program_outputs(oracle, name)
        check_program(name, ep, readable_text, ep_text, outputs)
        for suffix, text in outputs.items():
            write(os.path.join(PROGRAMS_DIR, f"{name}.torch26.{suffix}"), text)
            verify_jobs.append(([suffix if suffix != "readable" else "code", name + ".pt2"]
                                + (["--to", "readable"] if suffix == "readable" else []),
                                PROGRAMS_DIR, (0, text, "")))
        sizes[name] = len(data)
        print(f"gen-programs: programs/{name}.pt2: {len(data)} bytes, "
              f"{len(ep.graph.nodes)} nodes", flush=True)
    return sizes


def gen_rewrites(oracle, verify_jobs):
    """The expected outputs of each program-rewrites/NAME.args; returns NAME -> match count."""
    counts = {}
    cases = sorted(f[:-5] for f in os.listdir(REWRITES_DIR) if f.endswith(".args"))
    for stem in cases:
        with open(os.path.join(REWRITES_DIR, stem + ".args")) as f:
            args = f.read().split()
        runs = {
            "match.json": ["match", "--json"] + args,
            "code": ["rewrite"] + args,
            "graph": ["rewrite", "--to", "graph"] + args,
            "readable": ["rewrite", "--to", "readable"] + args,
        }
        outputs = {}
        for suffix, argv in runs.items():
            out, err = oracle.must(argv, DATA)
            outputs[suffix] = out
            if suffix == "code":
                outputs["stderr"] = err
            verify_jobs.append((argv, DATA, (0, out, err)))
        for suffix, text in outputs.items():
            write(os.path.join(REWRITES_DIR, f"{stem}.torch26.{suffix}"), text)
        found = len(json.loads(outputs["match.json"])["matches"])
        counts[stem] = found
        print(f"gen-programs: program-rewrites/{stem}: {found} matches, "
              f"{outputs['stderr'].strip()}", flush=True)
    return counts


def member(data, name):
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


def replaced(data, changes):
    """The archive `data` with the members of `changes` (name -> bytes, or None to drop it)
    replaced, the others kept, in the same order, with the same dates and storage."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = changes.get(info.filename, src.read(info.filename))
            if body is not None:
                dst.writestr(info, body)
    return out.getvalue()


def edited_json(data, edit):
    """The archive with its program JSON passed through edit(dict) and dumped as torch does."""
    j = json.loads(member(data, "serialized_exported_program.json"))
    edit(j)
    return replaced(data, {"serialized_exported_program.json": json.dumps(j).encode()})


def nodes(j):
    return j["graph_module"]["graph"]["nodes"]


def error_inputs(base):
    """NAME -> bytes of each bad input, made from the archive `base` (programs/ERRORS_BASE)."""
    program = member(base, "serialized_exported_program.json")

    def pretty_missing_comma():
        # indented JSON (one member a line) with the comma after "opset_version"'s value gone
        text = json.dumps(json.loads(program), indent=1)
        bad = text.replace('\n "opset_version": {\n  "aten": 10\n },',
                           '\n "opset_version": {\n  "aten": 10\n }', 1)
        assert bad != text
        return replaced(base, {"serialized_exported_program.json": bad.encode()})

    def set_in(path, value):
        def edit(j):
            at = j
            for key in path[:-1]:
                at = at[key]
            at[path[-1]] = value
        return edit

    def undefined_value(j):
        nodes(j)[1]["inputs"][0]["arg"]["as_tensor"]["name"] = "no_such_value"

    def no_such_op(j):
        nodes(j)[1]["target"] = "torch.ops.aten.no_such_op.default"

    def duplicate_name(j):
        nodes(j)[1]["outputs"][0]["as_tensor"]["name"] = nodes(j)[0]["outputs"][0]["as_tensor"]["name"]

    def no_graph_module(j):
        del j["graph_module"]

    def wrong_type(j):
        j["graph_module"]["graph"] = "graph"

    def missing_input(j):
        del nodes(j)[0]["inputs"][0]

    return {
        # a text file: no zip signature at all
        "not_zip.pt2": b"this is a text file named .pt2, not an archive\n",
        # zero bytes
        "empty.pt2": b"",
        # a local file header signature, then bytes that are no zip
        "zip_magic_garbage.pt2": b"PK\x03\x04" + bytes(range(7, 250, 3)) * 4,
        # the first half of the archive (no central directory)
        "truncated.pt2": base[:len(base) // 2],
        # the program member dropped, the others kept
        "no_program_json.pt2": replaced(base, {"serialized_exported_program.json": None}),
        # the `version` member dropped
        "no_version_member.pt2": replaced(base, {"version": None}),
        # the program indented (one member a line), the comma after opset_version's value
        # removed: a syntax error at a known line and column
        "bad_json.pt2": pretty_missing_comma(),
        # the program member cut after 300 bytes, inside a string
        "bad_json_cut.pt2": replaced(base, {"serialized_exported_program.json": program[:300]}),
        # `version` says 99.0 (torch.export.load checks it first)
        "version_member_99.pt2": replaced(base, {"version": b"99.0"}),
        # the JSON's schema_version.major is 99 (`version` kept)
        "schema_version_99.pt2": edited_json(base, set_in(["schema_version", "major"], 99)),
        # the second node's target is an operator torch 2.6 does not have
        "no_such_op.pt2": edited_json(base, no_such_op),
        # the second node's first input names a value no node defines
        "undefined_value.pt2": edited_json(base, undefined_value),
        # the second node's output has the first node's name
        "duplicate_name.pt2": edited_json(base, duplicate_name),
        # the first node (linear) lacks its first argument, `input`, which has no default
        "missing_argument.pt2": edited_json(base, missing_input),
        # no "graph_module" key at the top
        "no_graph_module.pt2": edited_json(base, no_graph_module),
        # a string where the graph object should be
        "wrong_type.pt2": edited_json(base, wrong_type),
    }


ERRORS_BASE = "linear.pt2"


def exception_line(e):
    """`Type: first line of the message`."""
    text = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {text}"


def renamed_input(old, new):
    """An edit of the program JSON: `old` becomes `new` as a key (of the tensor values) and as
    the string of a `name` or `arg`."""
    def walk(o):
        if isinstance(o, dict):
            return {(new if k == old else k): (new if k in ("name", "arg") and v == old
                                               else walk(v))
                    for k, v in o.items()}
        if isinstance(o, list):
            return [walk(v) for v in o]
        return o

    def edit(j):
        j["graph_module"] = walk(j["graph_module"])
    return edit


def renamed_inputs(base):
    """NAME -> bytes of each program made from programs/linear.pt2 by renaming its input."""
    return {
        "placeholder_keyword.pt2": edited_json(base, renamed_input("x", "lambda")),
        "placeholder_not_identifier.pt2": edited_json(base, renamed_input("x", "a-b")),
        "placeholder_self.pt2": edited_json(base, renamed_input("x", "self")),
        "placeholder_star.pt2": edited_json(base, renamed_input("x", "*x")),
    }


def gen_renamed(oracle, verify_jobs):
    with open(os.path.join(PROGRAMS_DIR, ERRORS_BASE), "rb") as f:
        base = f.read()
    os.makedirs(RENAMED_DIR, exist_ok=True)
    for name, data in sorted(renamed_inputs(base).items()):
        write(os.path.join(RENAMED_DIR, name), data)
        outputs = {
            "code": oracle.must(["code", name], RENAMED_DIR)[0],
            "graph": oracle.must(["graph", name], RENAMED_DIR)[0],
            "readable": oracle.must(["code", name, "--to", "readable"], RENAMED_DIR)[0],
        }
        for suffix, text in outputs.items():
            write(os.path.join(RENAMED_DIR, f"{name[:-4]}.torch26.{suffix}"), text)
            verify_jobs.append(([suffix if suffix != "readable" else "code", name]
                                + (["--to", "readable"] if suffix == "readable" else []),
                                RENAMED_DIR, (0, text, "")))
        print(f"gen-programs: programs-renamed/{name}: {len(data)} bytes", flush=True)


def gen_errors():
    import torch
    with open(os.path.join(PROGRAMS_DIR, ERRORS_BASE), "rb") as f:
        base = f.read()
    os.makedirs(ERRORS_DIR, exist_ok=True)
    lines = []
    for name, data in sorted(error_inputs(base).items()):
        path = os.path.join(ERRORS_DIR, name)
        write(path, data)
        try:
            torch.export.load(path)
            line = "no error: torch.export.load accepts it"
        except Exception as e:
            line = exception_line(e)
            if e.__cause__ is not None:
                line += f" (from {exception_line(e.__cause__)})"
        lines.append(f"{name[:-4]}: {line}")
        print(f"gen-programs: program-errors/{name}: {line[:160]}", flush=True)
    write(os.path.join(ERRORS_DIR, "ORACLE.torch26.txt"), "\n".join(lines) + "\n")


def verify(jobs):
    """Run each oracle call of `jobs` as a process (2 at a time); exits if one differs."""
    def one(job):
        argv, cwd, want = job
        return job, oracle_process(argv, cwd)
    bad = 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        for (argv, cwd, want), got in pool.map(one, jobs):
            if got != want:
                bad += 1
                print(f"gen-programs: --verify: fx-reference {' '.join(argv)} (in {cwd}) differs:"
                      f" status {got[0]} vs {want[0]}", file=sys.stderr)
    print(f"gen-programs: --verify: {len(jobs) - bad} of {len(jobs)} oracle calls equal as a "
          "process", flush=True)
    if bad:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these programs")
    ap.add_argument("--verify", action="store_true",
                    help="also run every oracle call as a process and compare")
    ap.add_argument("--skip-programs", action="store_true")
    ap.add_argument("--skip-rewrites", action="store_true")
    ap.add_argument("--skip-errors", action="store_true")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    import torch
    if not torch.__version__.startswith("2.6."):
        sys.exit(f"gen-programs: needs torch 2.6 (run under ../shared/tools/torch26), "
                 f"not {torch.__version__}")
    oracle = Oracle(ORACLE)
    jobs = []
    if not a.skip_programs:
        import torchvision  # noqa: F401  (before load_models: program_specs uses it)
        names = a.only or list(program_specs(load_models()))
        sizes = gen_programs(oracle, names, jobs)
        print(f"gen-programs: {len(sizes)} programs, {sum(sizes.values())} bytes of archives",
              flush=True)
    if not a.skip_programs:
        gen_renamed(oracle, jobs)
    if not a.skip_rewrites:
        gen_rewrites(oracle, jobs)
    if not a.skip_errors:
        gen_errors()
    if a.verify:
        verify(jobs)


if __name__ == "__main__":
    main()
