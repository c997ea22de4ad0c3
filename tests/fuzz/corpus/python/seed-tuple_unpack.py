import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, batch_first=True)
        self.gru = nn.GRU(6, 6)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        o2, h2 = self.gru(out)
        q, k, v = out.chunk(3, -1)
        vals, idx = x.max(1)
        a, b = x.split(2, -1)
        *rest, last = [a, b, x]
        first, *others = x, a, torch.topk(x, 2)
        (p, r), s = (a, b), q
        return q + k * v, vals, idx, a - b, last, rest[0], first, others, p, r, s, h + c, h2
