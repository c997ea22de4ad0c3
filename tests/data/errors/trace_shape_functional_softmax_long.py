import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # no softmax kernel of an integer tensor
        t = torch.ones(3, 4, dtype=torch.long)
        return x + F.softmax(t, dim=1)
