import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        return torch.nn.utils.rnn.pad_sequnce([x, x])
