"""ResNeXt bottleneck blocks: grouped 3x3 convolution, projection shortcut."""
from typing import Optional

import torch
import torch.nn as nn


class ResNeXtStage(nn.Module):
    def __init__(self, inplanes: int = 64, planes: int = 64, blocks: int = 2) -> None:
        super().__init__()
        down = nn.Sequential(
            nn.Conv2d(inplanes, planes * Bottleneck.expansion, 1, stride=2, bias=False),
            nn.BatchNorm2d(planes * Bottleneck.expansion),
        )
        layers = [Bottleneck(inplanes, planes, stride=2, downsample=down)]
        for _ in range(1, blocks):
            layers.append(Bottleneck(planes * Bottleneck.expansion, planes))
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.layers(x)
        return torch.flatten(self.pool(x), 1)


class Bottleneck(nn.Module):
    expansion: int = 4

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride: int = 1,
        downsample: Optional[nn.Module] = None,
        groups: int = 8,
        base_width: int = 4,
    ) -> None:
        super().__init__()
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2d(inplanes, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride=stride, padding=1, groups=groups, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        identity = x

        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        return self.relu(out)
