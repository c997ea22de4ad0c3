import torch
import torch.nn as nn
import torch.nn.functional as F


class InterpolatePad(nn.Module):
    def forward(self, x):
        a = F.interpolate(x, scale_factor=2.0)
        b = F.interpolate(x, size=(8, 8), mode="bilinear", align_corners=False)
        c = F.pad(x, (1, 1, 2, 2))
        d = F.pad(x, [1, 1], mode="constant", value=0.5)
        e = F.upsample(x, scale_factor=2)
        return a, b, c, d, e
