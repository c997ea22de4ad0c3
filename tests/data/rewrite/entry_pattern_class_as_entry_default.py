import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.abs().sqrt()


class pattern(torch.nn.Module):
    def forward(self, x):
        return x.abs().sqrt()


class replacement(torch.nn.Module):
    def forward(self, x):
        return x.abs().pow(0.5)
