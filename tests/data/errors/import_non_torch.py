import torch
import torch.nn as nn
import fancylib


class M(nn.Module):
    def forward(self, x):
        return fancylib.scale(x)
