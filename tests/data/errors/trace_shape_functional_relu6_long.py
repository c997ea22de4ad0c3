import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # relu6 (hardtanh) of an integer tensor keeps its shape and dtype
        t = torch.ones(3, 4, dtype=torch.long)
        return x + F.relu6(t).view(13)
