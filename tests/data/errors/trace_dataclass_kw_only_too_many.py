from dataclasses import KW_ONLY, dataclass, field

import torch


@dataclass
class B:
    c: int
    _: KW_ONLY
    d: int = 4
    e: int = field(default=5, kw_only=False)


class M(torch.nn.Module):
    def forward(self, x):
        # Three positional arguments for two: CPython counts the
        # keyword-only ones given too.
        return x + B(1, 2, 3, d=1).c
