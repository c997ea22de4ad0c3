import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # F.dropout of a constant outside training returns its layout
        t = torch.ones(3, 4).t()
        return x + F.dropout(F.relu(t), 0.5, False).view(12)
