import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x, inplace=True)
