import torch
import torch.nn as nn


# A torch.nn layer's buffers read in forward (batch norm's running
# statistics): each is a get_attr of its path, as torch finds it in
# named_buffers(), whether read through self, a local or getattr().
class LeafBuffersCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(4)
        self.blocks = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))

    def forward(self, x):
        y = x.relu()
        mean = self.bn.running_mean
        bn = self.blocks[1]
        z = (y - mean) / (bn.running_var + 1e-05).sqrt()
        return z * getattr(self.bn, "running_var") + bn.num_batches_tracked
