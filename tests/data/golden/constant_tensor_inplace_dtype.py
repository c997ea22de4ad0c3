import torch


class M(torch.nn.Module):
    def forward(self, x):
        # In place, a constant tensor keeps its own dtype and stays itself.
        t = torch.ones(3, dtype=torch.half)
        t += torch.ones(3)
        u = torch.ones(3, dtype=torch.long)
        v = u
        u += torch.ones(3, dtype=torch.int32)
        u.div_(2, rounding_mode="floor")
        u.add_(1, alpha=2)
        b = torch.ones(3, dtype=torch.bool)
        b |= True
        m = torch.ones(2, 3)
        n = m
        m @= torch.ones(3, 4)  # no __imatmul__: a new tensor
        return x.to(t.dtype), x.to(u.dtype), x.to(b.dtype), x + int(v is u), m.shape, m is n
