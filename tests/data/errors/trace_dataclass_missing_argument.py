from dataclasses import dataclass

import torch


@dataclass
class Config:
    width: int
    depth: int
    bias: bool = True


class M(torch.nn.Module):
    def forward(self, x):
        cfg = Config(bias=False)
        return x * cfg.width
