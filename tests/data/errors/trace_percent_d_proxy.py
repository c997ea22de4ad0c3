import torch


class M(torch.nn.Module):
    def forward(self, x):
        y = '%d' % x.size(0)
        return x, y
