import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.tree = nn.ModuleDict({
            "enc": nn.ModuleDict({"q": nn.Linear(4, 4), "k": nn.Linear(4, 4)}),
            "dec": nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.ReLU()) for _ in range(3)]),
        })
        self.cfg = {"dim": -1, "keepdim": True}

    def forward(self, x):
        q = self.tree["enc"]["q"](x)
        k = self.tree["enc"].k(x)
        for i, layer in enumerate(self.tree["dec"]):
            if i % 2 == 0:
                x = layer[0](x) + layer(x)
        names = list(self.tree["enc"].keys())
        y = q.sum(**self.cfg) + k.mean(**self.cfg)
        if "q" in self.tree["enc"]:
            y = y + self.tree["enc"]["q"].in_features
        return x, y, names, self.tree["dec"][2][0].bias
