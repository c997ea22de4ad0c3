import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        # torch.nn.functional has no relu7: torch's AttributeError, not a
        # function Graft cannot record.
        return F.relu7(x)
