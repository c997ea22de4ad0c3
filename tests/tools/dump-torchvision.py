#!/usr/bin/python3
"""dump-torchvision.py: write tests/data/torchvision/NAME.py, the torch.fx code of torchvision models.

    /usr/bin/python3 tests/tools/dump-torchvision.py [--out DIR] [--check] [MODEL...]
    ../shared/tools/torch26 python3 tests/tools/dump-torchvision.py --out tests/data/torchvision26 --check

The first (torch 1.13.1, torchvision 0.14.1) makes tests/data/torchvision, the second (torch
2.6.0, torchvision 0.21.0) tests/data/torchvision26 (its README); the items below describe the
1.13.1 run, and hold for 2.6 too.

For each model, `torch.fx.symbolic_trace(torchvision.models.NAME(weights=None).eval())` is run
(torch 1.13.1, torchvision 0.14.1) and `gm.code` becomes an input file in the form the CLI
contract reads back: a top-level `def forward(self, x)` where `self.a.b(...)` is a call_module
and a bare `self.a.b` a get_attr (shared/spec/cli.md).  Then tests/tools/regen-golden makes
NAME.code / NAME.graph from it with fx-reference.  With --check, fx-reference is run on each
dumped file and its `code` output is compared with the original gm.code (stripped).

What is done to make gm.code loadable (exactly):

1. gm.code has no imports.  The file starts with a comment naming the model, then
   `import torch` and `import torch.fx` (the body calls torch.*, and a wrap line needs torch.fx).
2. gm.code may begin with `torch.fx._symbolic_trace.wrap("G")` lines, one per global G that
   names a function that torchvision wrapped with torch.fx.wrap (the code then calls `G(...)`).
   In torchvision 0.14.1 these are torchvision.ops.stochastic_depth.stochastic_depth
   (efficientnet*, convnext*, swin*) and, in swin_t, torchvision.models.swin_transformer's
   _patch_merging_pad, _get_relative_position_bias and shifted_window_attention.  G is torch's
   sanitised qualified name (module path + name, non-identifier runs -> "_"), so for each
   such call_function target the file gets `from MODULE import NAME as G` before the wrap
   lines, which are kept verbatim.  Executed at module level, the wrap line registers G of the
   file's globals, so re-tracing records call_function with the same target and prints the
   same G and the same wrap line.
3. The body (from `def forward(self, x):` on) is gm.code verbatim (trailing white space
   stripped, one final newline).
4. 1.13.1 cannot unpack a traced value on Python 3.11 (`n, c, h, w = x.shape` in vit_b_16,
   shufflenet_v2, maxvit); like fx-reference (docstring item 4, fx-semantics.md section 2.7),
   this script installs fx-reference's Proxy.__iter__ repair before tracing (it imports
   fx-reference and calls its patch_torch), so those models trace as on Python <= 3.10.
5. Annotations: googlenet's and inception_v3's forward is annotated `-> GoogLeNetOutputs` /
   `-> InceptionOutputs` (a NamedTuple class of torchvision), which gm.code prints through the
   global `torchvision_models_googlenet_GoogLeNetOutputs`; the file imports that class under that
   name too (same rule as item 2), so the re-trace has the same return annotation.
6. Models with auxiliary heads are built with aux_logits=False, init_weights=False
   (googlenet, inception_v3); every model is put in eval mode (so dropout/stochastic depth
   see training=False; torch._assert calls are still recorded: vit's torch._assert is a
   Python function that reaches __torch_function__, hence call_function torch._assert).
"""
import argparse, importlib.machinery, importlib.util, os, re, subprocess, sys, warnings

ORACLE = os.environ.get("FX_REFERENCE", "/work/shared/tools/fx-reference")
MODELS = ["alexnet", "convnext_tiny", "densenet121", "efficientnet_b0", "googlenet", "inception_v3",
          "maxvit_t", "mnasnet0_5", "mobilenet_v2", "mobilenet_v3_small", "regnet_y_400mf", "resnet18",
          "resnet50", "shufflenet_v2_x1_0", "squeezenet1_0", "swin_t", "vgg11", "vit_b_16"]


def load_oracle():
    loader = importlib.machinery.SourceFileLoader("fx_reference", ORACLE)
    spec = importlib.util.spec_from_loader("fx_reference", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def global_name(qualified):
    return re.sub(r"[^0-9a-zA-Z_]+", "_", qualified)


def dump_source(header, gm):
    """The loadable input file for a GraphModule (see the docstring, items 1-3)."""
    import torch
    from torch.fx.node import _get_qualified_name
    code = gm.code
    imports = {}
    for n in gm.graph.nodes:
        t = n.type
        if isinstance(t, type) and t.__module__.split(".")[0] not in ("torch", "builtins"):
            g = global_name(f"{t.__module__}.{t.__qualname__}")
            imports[g] = f"from {t.__module__} import {t.__qualname__} as {g}"
        if n.op != "call_function":
            continue
        mod = getattr(n.target, "__module__", None) or ""
        if mod.split(".")[0] in ("torch", "builtins", "_operator", "math"):
            continue
        g = global_name(_get_qualified_name(n.target))
        imports[g] = f"from {mod} import {n.target.__name__} as {g}"
    wraps = re.findall(r'^torch\.fx\._symbolic_trace\.wrap\("([^"]+)"\)$', code, re.M)
    missing = [w for w in wraps if w not in imports]
    if missing:
        raise SystemExit(f"{header}: no import known for wrapped globals {missing}")
    lines = [f"# {header}", "import torch", "import torch.fx"]
    lines += [imports[g] for g in sorted(imports)]
    body = code.strip("\n")
    return "\n".join(lines) + "\n" + ("\n" if not wraps else "") + body.rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "torchvision"))
    ap.add_argument("--check", action="store_true", help="compare fx-reference's code with gm.code")
    ap.add_argument("models", nargs="*", default=MODELS)
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    import torch, torch.fx, torchvision
    load_oracle().patch_torch(False)  # item 4
    os.makedirs(a.out, exist_ok=True)
    for name in a.models:
        kw = {"weights": None}
        if name in ("googlenet", "inception_v3"):
            kw.update(aux_logits=False, init_weights=False)
        model = getattr(torchvision.models, name)(**kw).eval()
        gm = torch.fx.symbolic_trace(model)
        header = (f"torchvision {torchvision.__version__} models.{name}(" + ", ".join(f"{k}={v}" for k, v in kw.items())
                  + f").eval(), gm.code of torch.fx.symbolic_trace (torch {torch.__version__}); "
                  "made by tests/tools/dump-torchvision.py")
        path = os.path.join(a.out, name + ".py")
        with open(path, "w") as f:
            f.write(dump_source(header, gm))
        nodes = len(gm.graph.nodes)
        msg = f"{name}: {nodes} nodes"
        if a.check:
            r = subprocess.run([ORACLE, "code", path], capture_output=True, text=True)
            if r.returncode:
                msg += f"; fx-reference fails: {r.stderr.strip()}"
            elif r.stdout.strip() == gm.code.strip():
                msg += "; fx-reference code == gm.code"
            else:
                import difflib
                d = [l for l in difflib.unified_diff(gm.code.strip().splitlines(), r.stdout.strip().splitlines(),
                                                     "gm.code", "fx-reference", lineterm="", n=0)
                     if l[:1] in "+-" and not l.startswith(("+++", "---"))]
                msg += f"; DIFFERS in {len(d)} lines: " + " | ".join(d[:6])
        print(msg, flush=True)


if __name__ == "__main__":
    main()
