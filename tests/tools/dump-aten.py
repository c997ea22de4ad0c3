#!/usr/bin/python3
"""dump-aten.py: write tests/data/aten/NAME.py, aten-level graphs made by make_fx.

    /usr/bin/python3 tests/tools/dump-aten.py [--out DIR] [--check]
    ../shared/tools/torch26 python3 tests/tools/dump-aten.py --out tests/data/aten26 --check

(the second: torch 2.6's make_fx, which decomposes differently; tests/data/aten26/README.md)

Each model is run through torch.fx.experimental.proxy_tensor.make_fx (torch 1.13.1) on a
fixed example input; the GraphModule's `gm.code` (calls such as
`torch.ops.aten.convolution.default(...)`, reads of `self._param_constant0`) becomes an
input file: a comment, `import torch`, `import torch.fx`, then gm.code verbatim (stripped).
Plus `from torch import device` when the code prints a device (the code generator's global
`device` is torch.device: `aten.empty.memory_format(..., device = device(type='cpu'))`).
That is all it takes to load it: `torch.ops.aten.*` resolves through `import torch`, and the
CLI contract (cli.md) reads `self._param_constantN` / `self._tensor_constantN` as get_attr.
No wrap lines occur.  regen-golden then makes NAME.code / NAME.graph with fx-reference;
--check compares fx-reference's code with gm.code.
"""
import argparse, os, subprocess, sys, warnings

ORACLE = os.environ.get("FX_REFERENCE", "/work/shared/tools/fx-reference")


def models():
    import torch
    import torch.nn as nn
    import torchvision

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 16)
            self.fc2 = nn.Linear(16, 4)

        def forward(self, x):
            return torch.softmax(self.fc2(torch.relu(self.fc1(x))), dim=-1)

    class SmallConv(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            x = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
            return self.fc(x.mean((2, 3)) * 0.5)

    torch.manual_seed(0)
    yield "mlp", MLP().eval(), (torch.randn(2, 8),)
    yield "small_conv", SmallConv().eval(), (torch.randn(1, 3, 8, 8),)
    yield "resnet18", torchvision.models.resnet18(weights=None).eval(), (torch.randn(1, 3, 64, 64),)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "aten"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    os.makedirs(a.out, exist_ok=True)
    for name, model, inputs in models():
        with torch.no_grad():
            gm = make_fx(model)(*inputs)
        path = os.path.join(a.out, name + ".py")
        header = (f"# make_fx({name}) on inputs of shape {[tuple(t.shape) for t in inputs]}, torch {torch.__version__}; "
                  "made by tests/tools/dump-aten.py")
        with open(path, "w") as f:
            extra = []
            if "device(" in gm.code:
                extra.append("from torch import device")
            f.write("\n".join([header, "import torch", "import torch.fx"] + extra + [""]) + "\n"
                    + gm.code.strip("\n").rstrip() + "\n")
        targets = sorted({str(n.target) for n in gm.graph.nodes if n.op == "call_function"})
        msg = f"{name}: {len(gm.graph.nodes)} nodes; call_function targets: {', '.join(targets)}"
        if a.check:
            r = subprocess.run([ORACLE, "code", path], capture_output=True, text=True)
            if r.returncode:
                msg += f"\n  fx-reference fails: {r.stderr.strip()}"
            else:
                msg += "\n  fx-reference code " + ("== gm.code" if r.stdout.strip() == gm.code.strip() else "DIFFERS from gm.code")
        print(msg, flush=True)


if __name__ == "__main__":
    main()
