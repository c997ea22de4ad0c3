import torch
import torch.nn as nn


class ForwardDefaults(nn.Module):
    def forward(self, x, mask=None, n=2, mode="sum", shape=(1, -2), dtype=torch.float32, flag=True, eps=1e-05, dev=torch.device("cpu")):
        y = x * n
        return y.to(dtype) + eps
