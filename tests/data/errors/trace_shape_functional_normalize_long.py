import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # the norm of an integer tensor: each torch's error
        t = torch.ones(3, 4, dtype=torch.long)
        return x + F.normalize(t, dim=0)
