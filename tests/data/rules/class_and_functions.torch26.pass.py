# A torch.fx pass written by Graft from classifier_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx


def flatten1(x):
    return torch.flatten(x, 1)


class FlattenModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = torch.nn.Flatten()

    def forward(self, x):
        return self.flatten(x)


class PoolFlatten(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.avgpool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.flatten = torch.nn.Flatten()

    def forward(self, x):
        return self.flatten(self.avgpool(x))


def spatial_mean(x):
    return x.mean([2, 3])


RULES = [
    (flatten1, FlattenModule),
    (PoolFlatten, spatial_mean),
]


def _instance(f):
    # A class of RULES stands for an instance made without arguments.
    return f() if isinstance(f, type) else f


def _replace(gm, pattern, replacement):
    try:
        return len(torch.fx.replace_pattern(gm, pattern, replacement))
    except KeyError:
        # torch.fx raises KeyError when an operation of the pattern never occurs
        # in the graph: that is no match.
        return 0


def run(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    rules = [(_instance(p), _instance(r)) for p, r in RULES]
    for pattern, replacement in rules:
        _replace(gm, pattern, replacement)
    gm.recompile()
    return gm
