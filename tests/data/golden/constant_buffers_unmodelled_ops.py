import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        T = 8
        self.register_buffer("bias", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
        freqs = torch.outer(torch.arange(4).float(), torch.ones(2))
        self.register_buffer("rot", torch.cat((freqs, freqs), dim=-1).cos().view(4, 2, 2))
        self.register_buffer("pe", torch.sin(torch.arange(16).float()).view(4, 4))
        self.register_buffer("a", torch.randn(4, 4).abs().sqrt().view(16))
        self.register_buffer("b", torch.ones(4, 4).exp().log().view(16))
        self.register_buffer("c", torch.triu(torch.ones(4, 4), diagonal=1).bool().view(16))

    def forward(self, x):
        return x + self.bias[:, :, :4, :4].sum() + self.rot.sum() + self.pe.sum() + self.a.sum() + self.b.sum() + self.c.sum()
