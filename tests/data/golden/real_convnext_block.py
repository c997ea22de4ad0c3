"""ConvNeXt-style blocks: depthwise 7x7, channels-last MLP, layer scale."""
from dataclasses import dataclass, field
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class StageConfig:
    depths: List[int] = field(default_factory=lambda: [1, 2])
    dims: List[int] = field(default_factory=lambda: [16, 32])
    layer_scale_init: float = 1e-6


class ConvNeXtTiny(nn.Module):
    def __init__(self, cfg: StageConfig = StageConfig()) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, cfg.dims[0], 4, stride=4), LayerNorm2d(cfg.dims[0]))
        stages = []
        for i, (depth, dim) in enumerate(zip(cfg.depths, cfg.dims)):
            blocks: List[nn.Module] = []
            if i > 0:
                blocks += [LayerNorm2d(cfg.dims[i - 1]), nn.Conv2d(cfg.dims[i - 1], dim, 2, stride=2)]
            blocks += [ConvNeXtBlock(dim, cfg.layer_scale_init) for _ in range(depth)]
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.Sequential(*stages)
        self.head = nn.Linear(cfg.dims[-1], 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stages(self.stem(x))
        return self.head(x.mean([-2, -1]))


class LayerNorm2d(nn.LayerNorm):
    """LayerNorm over channels of an NCHW tensor."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim: int, layer_scale_init: float) -> None:
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init * torch.ones(dim)) if layer_scale_init > 0 else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shortcut = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)  # (N, C, H, W) -> (N, H, W, C)
        x = self.pwconv2(self.act(self.pwconv1(self.norm(x))))
        if self.gamma is not None:
            x = self.gamma * x
        x = x.permute(0, 3, 1, 2)
        return shortcut + x
