"""A feature pyramid: top-down path with F.interpolate, lateral 1x1 convs."""
from collections import OrderedDict
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, in_channels: List[int] = [8, 16, 32], out_channels: int = 16) -> None:
        super().__init__()
        self.body = nn.ModuleList()
        prev = 3
        for c in in_channels:
            self.body.append(nn.Sequential(nn.Conv2d(prev, c, 3, stride=2, padding=1), nn.ReLU()))
            prev = c
        self.inner = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels])
        self.layer = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels])

    def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
        feats = []
        for stage in self.body:
            x = stage(x)
            feats.append(x)
        last = self.inner[-1](feats[-1])
        results = [self.layer[-1](last)]
        for idx in range(len(feats) - 2, -1, -1):
            lateral = self.inner[idx](feats[idx])
            top_down = F.interpolate(last, size=lateral.shape[-2:], mode="nearest")
            last = lateral + top_down
            results.insert(0, self.layer[idx](last))
        up = F.interpolate(results[0], scale_factor=2.0, mode="bilinear", align_corners=False)
        out = OrderedDict([(f"p{i}", r) for i, r in enumerate(results)])
        out["up"] = up
        return out
