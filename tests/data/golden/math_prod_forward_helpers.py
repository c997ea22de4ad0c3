import math
import torch
import torch.nn as nn
import torch.nn.functional as F

ACT = {"gelu": F.gelu, "relu": F.relu, "silu": nn.SiLU}


class M(nn.Module):
    def __init__(self, dims=(4, 8, 8), act="gelu"):
        super().__init__()
        self.stages = nn.ModuleList()
        for i, (a, b) in enumerate(zip(dims[:-1], dims[1:]), start=1):
            self.add_module("proj{}_{}".format(i, b), nn.Linear(a, b))
            self.stages.append(nn.Sequential(nn.Linear(b, b), nn.LayerNorm(b)))
        self.act = ACT[act]
        self.n = len(dims) - 1
        self.register_buffer("scale", torch.ones(1, dims[-1]) * math.sqrt(dims[-1]))
        self.gates = nn.ParameterList([nn.Parameter(torch.zeros(b)) for b in dims[1:]])

    @staticmethod
    def _norm(x, eps=1e-6):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)

    def forward(self, x):
        feats = []
        for i, (stage, g) in enumerate(zip(self.stages, self.gates), 1):
            proj = getattr(self, f"proj{i}_{g.shape[0] if False else 8}")
            x = self.act(proj(x))
            x = stage(x) * torch.sigmoid(g)
            feats.append(self._norm(x))
        shp = x.size()[1:]
        a, b = x.chunk(2, dim=-1)
        y = torch.cat([a, b], dim=-1)
        z = x.new_zeros(self.scale.shape, dtype=self.scale.dtype)
        if isinstance(feats, (list, tuple)) and self.training:
            y = y + 1
        kw = {k: v for k, v in dict(alpha=2).items()}
        out = torch.add(y, z, **kw) * self.scale
        total = math.prod([2, 3]) + self.scale.numel() + len(self.stages[-1])
        return out, shp, torch.stack(feats, dim=0).mean(0), total, self.stages[0](x)
