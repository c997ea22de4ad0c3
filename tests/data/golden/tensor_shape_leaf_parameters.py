import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.conv = nn.Conv2d(3, 8, 3, groups=1)
        self.ln = nn.LayerNorm([4, 5])
        self.emb = nn.Embedding(10, 6)
        self.bn = nn.BatchNorm2d(8)
        self.w = nn.Parameter(torch.randn(2, 3, dtype=torch.float64))
        self.register_buffer("ids", torch.tensor([[1, 2, 3], [4, 5, 6]]))
        self.register_buffer("flag", torch.tensor(True))
        self.register_buffer("m", torch.zeros(size=(1, 7)))

    def forward(self, x):
        shapes = [tuple(p.shape) for p in self.parameters()]
        dts = [str(b.dtype) for b in self.buffers()]
        p = next(self.fc.parameters())
        s = p.shape
        info = (s[0], s[-1], len(s), p.size(), p.size(1), p.size(-2), p.dim(), p.numel(), p.ndim)
        texts = (str(s), repr(s), f"{s}", type(s).__name__, s == (3, 4), isinstance(s, tuple))
        more = (self.ids.dtype, self.ids.shape, self.flag.shape, self.flag.dtype, self.m.shape)
        dev = self.w.device
        y = x.to(self.w.dtype)
        return y, shapes, dts, info, texts, more, dev, self.bn.num_batches_tracked.dtype
