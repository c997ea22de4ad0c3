import torch


class M(torch.nn.Module):
    def forward(self, x, w):
        m = x.mean(-1, keepdim=True)
        v = ((x - m) ** 2).mean(-1, keepdim=True)
        y = (x - m) / torch.sqrt(v + 1e-05) * w
        return y.relu()


def pattern(x, w):
    m = x.mean(-1, keepdim=True)
    v = ((x - m) ** 2).mean(-1, keepdim=True)
    return (x - m) / torch.sqrt(v + 1e-05) * w


def replacement(x, w):
    return torch.nn.functional.layer_norm(x, (4,)) * w
