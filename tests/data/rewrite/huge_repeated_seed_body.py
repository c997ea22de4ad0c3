import torch


class M(torch.nn.Module):
    def forward(self, x, w1, w2):
        for _ in range(50):
            val1 = torch.neg(w1)
            m1 = torch.cat([val1, w2]).sum()
            val2 = torch.neg(w1)
            m2 = torch.cat([val2, w2]).sum()
            x = x + torch.max(m1) + torch.max(m2)
        return x


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])
