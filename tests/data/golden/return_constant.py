import torch
import torch.nn as nn


class ReturnConstant(nn.Module):
    def forward(self, x):
        y = x + 1
        return 1
