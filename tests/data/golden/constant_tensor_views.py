import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        w = torch.ones(6, 4)
        q, k = w.split(3)
        self.register_buffer("q", q.t().flip(0).reshape(12))
        a, b, c = w.t().tensor_split(3, dim=1)
        self.register_buffer("win", w.unfold(0, 2, 2).reshape(-1))
        self.n_pieces = len(w.unbind(1)) + len(torch.split(w, [1, 5]))
        self.sizes = (a.shape[1], b.shape[1], c.shape[1])
        self.strides = (w.t().clamp(0, 1).stride(), w.t().square().stride(),
                        torch.ones(2, 3, 4).movedim(0, 2).stride(),
                        torch.ones(2, 3, 4).diagonal(0, 1, 2).stride(),
                        w.repeat_interleave(2, dim=0).t().stride(),
                        w.t().roll(1, 0).is_contiguous(),
                        w[:1].expand_as(w).stride())

    def forward(self, x):
        rows = [r.sum() for r in torch.ones(3, 4).unbind(0)]
        left, right = torch.ones(4, 6).chunk(2, dim=1)
        y = x * self.n_pieces + self.sizes[0] + self.strides[2][0]
        y = y + left.reshape(-1).sum() + right.t().reshape(-1)[0]
        return y + self.q.sum() + self.win.sum() + rows[0] + torch.ones(2, 3).T.contiguous().view(-1)[1] + self.strides[4][1]
