"""A small UNet: skips kept in a list, concatenated in reverse."""
from typing import List

import torch
import torch.nn as nn


def double_conv(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, in_ch: int = 3, out_ch: int = 2, widths: List[int] = [8, 16, 32]) -> None:
        super().__init__()
        self.downs = nn.ModuleList()
        self.ups = nn.ModuleList()
        self.pool = nn.MaxPool2d(2)
        c = in_ch
        for w in widths:
            self.downs.append(double_conv(c, w))
            c = w
        self.bottleneck = double_conv(widths[-1], widths[-1] * 2)
        for w in reversed(widths):
            self.ups.append(nn.ConvTranspose2d(w * 2, w, kernel_size=2, stride=2))
            self.ups.append(double_conv(w * 2, w))
        self.final = nn.Conv2d(widths[0], out_ch, kernel_size=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips: List[torch.Tensor] = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = self.pool(x)
        x = self.bottleneck(x)
        skips = skips[::-1]
        for i in range(0, len(self.ups), 2):
            x = self.ups[i](x)
            skip = skips[i // 2]
            x = torch.cat((skip, x), dim=1)
            x = self.ups[i + 1](x)
        return self.final(x)
