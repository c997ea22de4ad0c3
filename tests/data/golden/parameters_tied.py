import torch
import torch.nn as nn
import torch.nn.functional as F


# A parameter held under several names (tied weights): every read is the
# get_attr of its first name in named_parameters() order, one node for all.
class TiedParametersCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(4, 4)
        self.decoder = nn.Linear(4, 4)
        self.decoder.weight = self.encoder.weight
        self.scale = nn.Parameter(torch.ones(4))
        self.scale_again = self.scale

    def forward(self, x):
        h = F.linear(x, self.decoder.weight) + self.decoder(x)
        dec = self.decoder
        return h * self.scale_again + dec.weight.sum() + getattr(self, "scale")
