import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        # a plain list does not register its modules: torch.fx cannot name them
        self.blocks = [Block()]

    def forward(self, x):
        return self.blocks[0](x)


class Block(nn.Module):
    def forward(self, x):
        return x.relu()
