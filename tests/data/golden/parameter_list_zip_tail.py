import torch

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(3)])
        self.qs = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(2)])
        self.rs = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(4)])

    def forward(self, x):
        for p, q in zip(self.ps, self.qs):
            x = x + p * q
        for q, p in zip(self.qs, self.ps):
            x = x - q
        ys = [p + r for p, r in zip(self.ps, self.rs)]
        for (i, r), s, q in zip(enumerate(self.rs), [1, 2], self.qs):
            x = x * r + s
        for r, (p, q) in zip(self.rs, zip(self.ps, self.qs)):
            x = x + r
        for p, q in zip(self.ps, self.qs):
            if p is not None:
                break
        return x, ys
