import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # the last dim grown by both pads
        t = torch.ones(3, 4)
        return x + F.pad(t, (1, 2)).view(12)
