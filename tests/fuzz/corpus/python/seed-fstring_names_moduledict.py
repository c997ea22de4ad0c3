import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, stages=2):
        super().__init__()
        self.stages = stages
        self.blocks = nn.ModuleDict({f"stage_{i}": nn.Linear(4, 4) for i in range(stages)})

    def forward(self, x):
        feats = {}
        for i in range(self.stages):
            x = self.blocks[f"stage_{i}"](x)
            feats[f"s{i}"] = x
        return feats
