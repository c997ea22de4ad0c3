"""MobileNetV2-style inverted residuals built from a config table."""
from typing import List, Optional, Sequence

import torch
from torch import nn


def make_divisible(v: float, divisor: int = 8, min_value: Optional[int] = None) -> int:
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class ConvBNAct(nn.Sequential):
    def __init__(self, cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> None:
        padding = (k - 1) // 2
        super().__init__(
            nn.Conv2d(cin, cout, k, stride, padding, groups=groups, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU6(inplace=True),
        )


class MobileNetTiny(nn.Module):
    """t, c, n, s rows as in the paper, scaled down."""

    SETTINGS: Sequence[Sequence[int]] = (
        (1, 16, 1, 1),
        (6, 24, 2, 2),
        (6, 32, 2, 2),
    )

    def __init__(self, num_classes: int = 10, width_mult: float = 1.0) -> None:
        super().__init__()
        input_channel = make_divisible(32 * width_mult)
        self.last_channel = make_divisible(128 * max(1.0, width_mult))
        features: List[nn.Module] = [ConvBNAct(3, input_channel, stride=2)]
        for t, c, n, s in self.SETTINGS:
            output_channel = make_divisible(c * width_mult)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(InvertedResidual(input_channel, output_channel, stride, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNAct(input_channel, self.last_channel, k=1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)


class InvertedResidual(nn.Module):
    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: int) -> None:
        super().__init__()
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: List[nn.Module] = []
        if expand_ratio != 1:
            layers.append(ConvBNAct(inp, hidden, k=1))
        layers.extend(
            [
                ConvBNAct(hidden, hidden, stride=stride, groups=hidden),
                nn.Conv2d(hidden, oup, 1, 1, 0, bias=False),
                nn.BatchNorm2d(oup),
            ]
        )
        self.conv = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)
