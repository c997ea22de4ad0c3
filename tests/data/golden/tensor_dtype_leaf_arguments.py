import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3, dtype=torch.float64)
        self.conv = nn.Conv1d(2, 4, 3, device="cpu", dtype=torch.float16)
        self.bn = nn.BatchNorm1d(4, dtype=torch.float64)
        self.inorm = nn.InstanceNorm1d(4, affine=True, track_running_stats=True, dtype=torch.half)
        self.attn = nn.MultiheadAttention(8, 2, dtype=torch.float64)
        self.enc = nn.TransformerEncoderLayer(8, 2, 16, dtype=torch.float64)
        self.gn = nn.GroupNorm(2, 4)
        self.emb = nn.Embedding(5, 3, dtype=torch.float16)
        self.lstm = nn.LSTM(3, 4, dtype=torch.float64)

    def forward(self, x):
        out = [(n, str(p.dtype), tuple(p.shape)) for n, p in self.named_parameters()]
        bufs = [(n, str(b.dtype), tuple(b.shape)) for n, b in self.named_buffers()]
        return x, out, bufs
