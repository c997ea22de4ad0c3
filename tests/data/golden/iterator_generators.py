import torch

class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(4)) for _ in range(3)])
        self.layers = torch.nn.ModuleList([torch.nn.ReLU(), torch.nn.Tanh()])

    def forward(self, x):
        it = iter(self.ps)
        x = x + 1
        a = next(it)
        x = x * a
        for p in it:
            x = x - p
            break
        rest = list(it)
        z = zip(self.ps, [1, 2])
        x = x + 2
        pairs = list(z)
        w = next(self.parameters())
        n = sum(1 for _ in self.children())
        g = next(iter(self.layers))
        d = next(iter({"k": 1}), "none")
        e = next(iter([]), "empty")
        try:
            next(iter(()))
        except StopIteration:
            x = x + 3
        return g(x) + w.sum(), rest, pairs, n, d, e, list(self.named_parameters())[0][0]
