import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        # `:=` in a comprehension binds in the enclosing scope (PEP 572).
        width = 1
        self.widths = [width := width * 2 for _ in range(3)]
        self.last_width = width

    def forward(self, x):
        outs = [y for b in self.blocks if (y := b(x)) is not None]
        total = 0
        scaled = [total := total + i for i in range(4)]
        best = max(n for n in [1, 5, 2] if (last := n) > 0)
        pairs = {k: (seen := v) for k, v in zip("ab", [3, 4])}
        nested = [[(inner := i * j) for j in range(2)] for i in range(3)]
        return (torch.stack(outs).sum(0) * total + scaled[-1] + y + best + last + seen
                + pairs["a"] + inner + self.last_width + len(nested))
