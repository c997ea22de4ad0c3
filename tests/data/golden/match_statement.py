import torch
import torch.nn as nn


def route(mode, t):
    match mode:
        case "relu":
            return t.relu()
        case "scale" | "mul" as op:
            return t * len(op)
        case None:
            return t
        case int(n) if n > 1:
            return t + n
        case _:
            return t - 1


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.mode = ("scale", 3)
        self.act = nn.ReLU()
        self.fc = nn.Linear(4, 4)
        self.cfg = {"kind": "conv", "depth": 2, "bias": True}

    def forward(self, x):
        match self.mode:
            case ("scale", k) if k > 2:
                x = x * k
            case ("shift", k) | ("add", k):
                x = x + k
            case _:
                pass
        match self.act:
            case nn.Tanh():
                x = x.tanh()
            case nn.ReLU():
                x = self.act(x)
        match self.fc:
            case nn.Linear(in_features=4, out_features=f):
                x = self.fc(x) + f
        match self.cfg:
            case {"kind": "linear"}:
                x = x - 1
            case {"kind": "conv", "depth": d, **rest}:
                x = x * d + len(rest)
        match [1, 2, 3, 4]:
            case [first, *middle, last]:
                x = x + first + sum(middle) + last
        match x:
            case [a, b]:
                x = a + b
            case {"k": v}:
                x = v
            case torch.Tensor():
                x = x * 2
            case y:
                x = y - 1
        match (1, -2.5, 1 + 2j):
            case (1, -2.5, 1 + 2j):
                x = x + 1
        for mode in ("relu", "mul", None, 5, 0):
            x = route(mode, x)
        return x
