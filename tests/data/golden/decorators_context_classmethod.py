import torch
import torch.nn as nn


class Base(nn.Module):
    scale = 2

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.width = self.make_width(4)

    @classmethod
    def factor(cls):
        return cls.scale * 3

    @classmethod
    def make_width(cls, n):
        return n * cls.scale


class M(Base):
    scale = 5

    @torch.no_grad()
    def project(self, x):
        return self.lin(x).detach()

    @torch.inference_mode()
    def embed(self, x):
        return self.lin(x)

    @torch.enable_grad()
    def grad_path(self, x):
        return x * 2

    @torch.no_grad()
    def forward(self, x):
        y = self.project(x) + self.embed(x) + self.grad_path(x)
        return y * self.factor() + Base.factor() + M.make_width(1) + self.width
