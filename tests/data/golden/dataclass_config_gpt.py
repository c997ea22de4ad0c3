from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn


@dataclass
class GPTConfig:
    block_size: int = 8
    n_embd: int = 4
    n_layer: int = 2
    bias: bool = True
    names: List[str] = field(default_factory=lambda: ["a", "b"])


class M(nn.Module):
    def __init__(self, config=GPTConfig(n_layer=3)):
        super().__init__()
        self.config = config
        self.h = nn.ModuleList([nn.Linear(config.n_embd, config.n_embd, bias=config.bias) for _ in range(config.n_layer)])
        self.register_buffer("mask", torch.tril(torch.ones(config.block_size, config.block_size)).view(1, 1, config.block_size, config.block_size))

    def forward(self, x):
        for block in self.h:
            x = block(x)
        att = x @ x.transpose(-2, -1)
        att = att.masked_fill(self.mask[:, :, :4, :4] == 0, float("-inf"))
        return att, self.config.names, repr(self.config), self.config == GPTConfig(n_layer=3)
