import torch
import torch.nn as nn
import torch.fx

class M(nn.Module):
    def forward(self, x):
        torch.fx.wrapp
        return x
