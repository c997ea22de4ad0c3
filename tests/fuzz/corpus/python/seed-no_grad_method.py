import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    @torch.no_grad()
    def project(self, x):
        return self.lin(x).detach()

    def forward(self, x):
        return self.project(x) + x
