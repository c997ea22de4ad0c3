import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(3)])
        self.qs = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(2)])

    def forward(self, x):
        a = list(zip(self.ps, self.qs))
        b = list(zip(self.qs, [1, 2, 3], self.ps))
        c = dict(zip(["u", "v", "w"], self.ps))
        d = list(zip())
        e = [p for p, q in zip(self.ps, [x, x])]
        return x + a[0][0], b, c["w"], d, e
