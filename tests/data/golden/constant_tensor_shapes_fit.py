import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.ones(0, 3).repeat(-1, 2))
        self.register_buffer("mask", torch.ones(3).masked_fill(torch.ones(2, 3) > 0, 0.0))

    def forward(self, x):
        a = torch.ones(2, 1, 2, 3) @ torch.ones(7, 3, 4)
        b = torch.ones(3) @ torch.ones(5, 3, 2)
        c = torch.cat([torch.ones(0), torch.ones(2, 3), torch.ones(2, 5)], dim=-1)
        d = torch.stack([c, c], -1)
        e = torch.ones(2, 3).add_(torch.ones(3))
        return x + a.shape[1] + b.shape[-1] + d.shape[1] + e.numel() + self.table.shape[1] + self.mask.dim()
