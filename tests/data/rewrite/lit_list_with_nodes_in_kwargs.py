import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.cat(tensors=[x, y], dim=0)
        b = torch.cat([x, y], dim=0)
        return a, b


def pattern(p, q):
    return torch.cat(tensors=[p, q], dim=0)


def replacement(p, q):
    return torch.stack([p, q])
