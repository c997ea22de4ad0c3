import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.act = torch.nn.ReLU()
        self.body = torch.nn.Sequential(*list(self.children()))
        self.more = torch.nn.ModuleList(self.children())

    def forward(self, x):
        n = sum(1 for p in self.parameters())
        names = [k for k, _ in self.named_modules()]
        a, b = self.fc.parameters()
        c = tuple(self.buffers())
        d = sorted(k for k, _ in self.named_parameters())
        e = any(True for _ in self.children())
        f = dict(self.named_children())
        g = list(map(lambda m: type(m).__name__, self.modules()))
        y = torch.stack([p.sum() for p in [*self.fc.parameters()]], 0)
        return self.body(x) + y.sum() + a.sum(), n, names, c, d, e, list(f), g, len(self.more)
