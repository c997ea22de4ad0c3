import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.register_buffer("scale", torch.ones(3))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        # a module held twice is listed twice by state_dict()
        self.b = self.a
        self.bn = nn.BatchNorm1d(3)
        self.w = nn.Parameter(torch.ones(3))
        # True is an int: a size after the first
        self.odd = nn.Linear(True, 3)

    def forward(self, x):
        sd = self.state_dict()
        names = list(sd.keys())
        x = x * len(names)
        for k, v in self.state_dict(prefix="m.").items():
            if "odd" not in k and isinstance(v.dtype, torch.dtype) and v.dtype == torch.float32:
                x = x + v.sum()
        for k, v in self.state_dict(keep_vars=True).items():
            if k.endswith("lin.weight"):
                x = x + v
        x = x + sd["w"].view(3)
        if isinstance(torch.device("cpu"), torch.device):
            x = x - 1
        return x, names
