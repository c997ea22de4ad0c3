import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.transpose(x, x.size(0), 0)
