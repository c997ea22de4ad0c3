import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        try:
            mask = torch.ones(8, 8).view(2, 1, 8, 8)
        except RuntimeError:
            mask = torch.ones(8, 8).view(1, 1, 8, 8)
        self.register_buffer("mask", mask)

    def forward(self, x):
        try:
            t = torch.ones(2, 3).transpose(0, 2)
        except IndexError as e:
            t = torch.ones(2, 3)
            x = x - len(str(e))
        try:
            x = x + t.size(2)
        except IndexError:
            x = x + 1
        try:
            t = t + torch.ones(4)
        except RuntimeError as e:
            x = x * len(e.args[0])
        return x.masked_fill(self.mask[0, 0, :2, :3] == 0, 0.0) + t
