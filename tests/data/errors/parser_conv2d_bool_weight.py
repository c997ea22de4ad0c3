import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        return torch.conv2d(x, True)
