from collections import OrderedDict
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(OrderedDict([("b1", Block(8)), ("b2", Block(8, nn.Identity()))]))
        self.fc = nn.Linear(8, 10)
        self.aux = None

    def forward(self, x: torch.Tensor, sizes: Optional[List[int]] = None):
        torch._assert(x.dim() == 4, "need 4d")
        if torch.jit.is_scripting() or torch.jit.is_tracing():
            return x
        feats = OrderedDict()
        for name, layer in self.features.named_children():
            x = layer(x)
            feats[name] = x
        x = channel_shuffle(x, 2)
        up = F.interpolate(x, size=x.shape[-2:], mode="bilinear", align_corners=False)
        pooled = torch.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1)
        m = x.mean([2, 3])
        logits = self.fc(pooled)
        if self.training and self.aux is not None:
            logits = logits + self.aux(x)
        z = x.new_zeros(x.shape[0], 3)
        return {"out": logits, "feats": feats, "up": up, "m": m, "z": z}


def channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    batchsize, num_channels, height, width = x.size()
    channels_per_group = num_channels // groups
    x = x.view(batchsize, groups, channels_per_group, height, width)
    x = torch.transpose(x, 1, 2).contiguous()
    return x.view(batchsize, -1, height, width)


class SE(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // 4, 1)
        self.fc2 = nn.Conv2d(c // 4, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.relu(self.fc1(s), inplace=True)
        return x * torch.sigmoid(self.fc2(s))


class Block(nn.Module):
    expansion = 1

    def __init__(self, c, downsample: Optional[nn.Module] = None):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.se = SE(c)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.se(out)
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)
