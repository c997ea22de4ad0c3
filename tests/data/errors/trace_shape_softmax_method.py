import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        # t.softmax(dim) and torch.softmax(t, dim, dtype) as F.softmax
        t = torch.ones(3, 4, dtype=torch.long)
        p = torch.softmax(t, 1, torch.float64) + t.softmax(0, dtype=torch.float32)
        return x + p.view(13)
