import torch
from dataclasses import asdict, dataclass, field, replace


@dataclass
class Config:
    n_embd: int
    bias: bool = field(default=True, init=False)


class M(torch.nn.Module):
    def forward(self, x):
        return x, replace(Config(8), n_head=2)
