import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, planes=3):
        super().__init__()
        # torch.nn has no BatchNorm4d: torch's AttributeError where the name
        # is read (Graft once took any capitalised torch.nn name for a layer).
        self.body = nn.Sequential(nn.Conv2d(3, planes, 3), nn.BatchNorm4d(planes))

    def forward(self, x):
        return self.body(x)
