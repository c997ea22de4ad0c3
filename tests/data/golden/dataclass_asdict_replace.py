import torch
from dataclasses import asdict, astuple, dataclass, field, replace


@dataclass
class Inner:
    k: int = 1


@dataclass
class Config:
    n_embd: int
    dims: tuple = (2, 4)
    names: list = field(default_factory=list)
    inner: Inner = field(default_factory=Inner)


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = Config(8)
        # asdict() of a config, in __init__ as models read it.
        self.fc = torch.nn.Linear(asdict(self.cfg)["n_embd"], asdict(self.cfg)["dims"][0])

    def forward(self, x):
        d = asdict(self.cfg)
        d["names"].append("a")  # a copy: the config's list is not changed
        r = replace(self.cfg, inner=Inner(3), dims=(1,))
        return (
            self.fc(x) * r.inner.k,
            d,
            astuple(self.cfg),
            self.cfg.names,
            str(r),
            r.names is self.cfg.names,
            r == self.cfg,
        )
