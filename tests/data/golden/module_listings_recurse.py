import torch
import torch.nn as nn

class Sub(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2, bias=False)
        self.bn = nn.BatchNorm1d(2)
        self.w = nn.Parameter(torch.randn(2))

    def forward(self, x):
        return self.bn(self.lin(x)) * self.w

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.tied = self.sub.w
        self.inorm = nn.InstanceNorm1d(2)

    def forward(self, x):
        names = [n for n, _ in self.named_parameters()]
        bnames = [n for n, _ in self.named_buffers(prefix="root")]
        local = [n for n, _ in self.sub.named_parameters(recurse=False)]
        mnames = [n for n, _ in self.named_modules()]
        for b in self.buffers():
            x = x + b
        y = self.sub(x)
        return y, names, bnames, local, mnames, self.sub.lin.bias, self.inorm.running_mean, len(list(self.parameters()))
