import torch
import torch.nn as nn


class ReturnsTupleSingle(nn.Module):
    def forward(self, x):
        return (x.relu(),)
