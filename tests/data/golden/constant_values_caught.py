import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, p="a", sizes=3):
        super().__init__()
        # Python's and torch.nn's exceptions of bad values, caught
        try:
            self.drop = nn.Dropout(p)
        except TypeError:
            self.drop = nn.Identity()
        try:
            self.unflat = nn.Unflatten(1, sizes)
        except TypeError:
            self.unflat = nn.Unflatten(1, [2, 4])
        try:
            self.rnn = nn.GRU(8, 8, dropout=p)
        except ValueError:
            self.rnn = None
        try:
            self.proj = nn.Linear(8, 8, device="cpu:01")
        except RuntimeError:
            self.proj = nn.Linear(8, 8, device="cpu:1")
        # accepted: no parameter, so no gradient for the int dtype
        self.norm = nn.BatchNorm1d(8, affine=False, track_running_stats=False, dtype=torch.int32)
        try:
            self.scale = float("1.5x")
        except ValueError:
            self.scale = float(" 2.5 ")
        try:
            self.layers = range(2.0)
        except TypeError:
            self.layers = range(2)

    def forward(self, x):
        t = torch.ones(4, 2).t()
        w = F.relu(t).contiguous().view(8)
        g = F.gelu(torch.ones(2, 4)).view(8)
        # two tensor bounds, a tensor `other`: contiguous here
        m = torch.ones(2, 4).clamp(torch.zeros(4), torch.ones(2, 1)).view(8)
        u = torch.ones(2, 4).where(torch.ones(2, 4) > 0, torch.zeros(4)).view(8)
        x = self.proj(self.drop(x)) * self.scale + w + g ** 2 + m * u
        for i in self.layers:
            x = x + t.__pow__(2).sum()
        try:
            if "a" < 1:
                x = x * 2
        except TypeError:
            x = x * 3
        return self.unflat(x)
