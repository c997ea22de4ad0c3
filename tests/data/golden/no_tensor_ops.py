import torch
import torch.nn as nn


class NoTensorOps(nn.Module):
    def forward(self, x, y):
        return x
