import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.Sequential(
            nn.Sequential(nn.Linear(4, 4), nn.ReLU()),
            nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4)),
        )
        self.heads = nn.ModuleDict({
            "a": nn.ModuleList([nn.Linear(4, 2), nn.Linear(2, 2)]),
            "b": nn.Sequential(nn.Linear(4, 3)),
        })

    def forward(self, x):
        x = self.stages[0][0](x)
        x = self.stages[1][-1](self.stages[1][1](x))
        y = self.heads["a"][1](self.heads["a"][0](x))
        z = self.heads["b"][0](x)
        for blk in self.stages[1][:2]:
            x = blk(x)
        out = [y, z, self.stages[-1](x)]
        for k, v in self.heads.items():
            if k == "b":
                out.append(v(x))
        return out, len(self.stages[1]), self.stages[0][0].weight
