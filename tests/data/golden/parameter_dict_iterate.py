import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pd = nn.ParameterDict({"b": nn.Parameter(torch.randn(3)), "a": nn.Parameter(torch.randn(3))})
        self.ps = nn.ParameterList([nn.Parameter(torch.randn(3)) for _ in range(2)])

    def forward(self, x):
        for k, v in self.pd.items():
            x = x + v
        for v in self.pd.values():
            x = x * v
        ys = [x - p for p in self.ps]
        zs = list(self.ps)
        return x, ys, zs, "a" in self.pd, "c" in self.pd, len(self.pd), list(self.pd.keys()), list(self.pd)
