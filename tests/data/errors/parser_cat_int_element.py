import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.cat((x, 1), 0)
