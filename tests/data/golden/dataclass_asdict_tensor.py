import torch
from dataclasses import dataclass, field, asdict, astuple


@dataclass
class P:
    a: int
    t: torch.Tensor = field(default_factory=lambda: torch.ones(2, 3).t())


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.p = P(1)

    def forward(self, x):
        d = asdict(self.p)
        return x + d["t"].sum() + self.p.t.sum(), d["t"] is self.p.t, d["t"].stride(), astuple(self.p)[1].shape
